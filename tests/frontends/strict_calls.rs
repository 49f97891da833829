//! Calls shaped by strict-mode clients. OpenAI's strict mode (and openai-agents'
//! `convert_schemas_to_strict`) makes every field required, so a model sends every field: the ones
//! it does not mean to set as `null` or as a zero value. For every tool of every profile, the call
//! with every optional field present (generated from the tool's own input schema) does what the
//! minimal call does.

use rootbound::config::AgentTools;
use rootbound::{Profile, Sandbox, SchemaFormat, WritePolicy};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

struct Tree {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

fn tree() -> Tree {
    let tmp = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(tmp.path()).unwrap().join("root");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    let lines: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    std::fs::write(root.join("lines.txt"), lines).unwrap();
    std::fs::write(root.join("last.txt"), "one\ntwo").unwrap();
    std::fs::write(root.join("sub/a.rs"), "fn main() {}\nfn line() {}\n").unwrap();
    // Every tree has the same times: the two calls compared run on two trees, which a busy
    // machine can make in different seconds (stat and the listings show modification times).
    let fixed = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
    for rel in ["lines.txt", "last.txt", "sub/a.rs", "sub", ""] {
        std::fs::File::open(root.join(rel))
            .unwrap()
            .set_modified(fixed)
            .unwrap();
    }
    Tree { root, _tmp: tmp }
}

fn tools(t: &Tree, profile: Profile) -> AgentTools {
    let mut w = WritePolicy::new(&t.root);
    w.allow_overwrite = true;
    w.allow_delete = true;
    let sb = Sandbox::builder().root(&t.root).write(w).build().unwrap();
    AgentTools::from_sandbox(sb).with_profile(profile)
}

/// The minimal call of each tool (its required fields, and what a useful call needs).
fn base(tool: &str, root: &Path) -> Value {
    let p = |rel: &str| root.join(rel).to_string_lossy().into_owned();
    let r = p("");
    let r = r.trim_end_matches('/');
    match tool {
        "read_file" | "read_text_file" | "stat" | "get_file_info" | "delete_file" => {
            json!({"path": p("lines.txt"), "file_path": p("lines.txt")})
        }
        "Read" => json!({"file_path": p("lines.txt")}),
        "grep_search" | "Grep" | "search_file_content" => json!({"pattern": "line 1"}),
        "glob" | "Glob" => json!({"pattern": "*.txt"}),
        "grep_files" => json!({"pattern": "line 1", "path": r}),
        "search_files" => json!({"path": r, "pattern": "*.txt"}),
        "list_dir" | "list_directory" | "list_directory_with_sizes" | "directory_tree" => {
            json!({"path": r, "dir_path": r})
        }
        "read_many_files" => json!({"paths": [p("lines.txt")], "include": [p("lines.txt")]}),
        "read_multiple_files" => json!({"paths": [p("lines.txt")]}),
        "read_media_file" => json!({"path": p("lines.txt")}),
        "write_file" | "Write" => {
            json!({"path": p("new.txt"), "file_path": p("new.txt"), "content": "x\n"})
        }
        "edit_file" | "Edit" | "replace" => json!({"path": p("lines.txt"),
            "file_path": p("lines.txt"), "old_string": "line 3\n", "new_string": "LINE 3\n",
            "edits": [{"oldText": "line 3\n", "newText": "LINE 3\n"}]}),
        "create_directory" => json!({"path": p("d")}),
        "move_file" => json!({"source": p("sub/a.rs"), "destination": p("b.rs")}),
        _ => json!({}),
    }
}

/// The base call trimmed to the fields the tool's schema has.
fn minimal(tool: &str, root: &Path, schema: &Value) -> Map<String, Value> {
    let props = schema["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let mut m = base(tool, root).as_object().cloned().unwrap();
    m.retain(|k, _| props.contains_key(k));
    // Native edit_file: one edit, as old_string/new_string.
    if tool == "edit_file" && props.contains_key("old_string") {
        m.remove("edits");
    }
    m
}

/// What a converter-driven model sends for a field it does not mean to set: `null`, or (zero
/// variant) the zero value the schema admits. Enums, booleans and fields whose minimum is above 0
/// have no "nothing" value in strict mode and get `null`.
fn filler(p: &Value, zero: bool) -> Value {
    if !zero || p.get("enum").is_some() {
        return Value::Null;
    }
    match p.get("type").and_then(Value::as_str) {
        Some("integer") | Some("number") => {
            if p.get("minimum").and_then(Value::as_f64).unwrap_or(0.0) > 0.0 {
                Value::Null
            } else {
                json!(0)
            }
        }
        Some("string") => json!(""),
        Some("array") => json!([]),
        Some("object") => json!({}),
        None if p.get("anyOf").is_some() => json!(""),
        _ => Value::Null,
    }
}

fn strict_shaped(tool: &str, root: &Path, schema: &Value, zero: bool) -> Value {
    let mut m = minimal(tool, root, schema);
    for (k, p) in schema["properties"].as_object().into_iter().flatten() {
        m.entry(k.clone()).or_insert_with(|| filler(p, zero));
    }
    Value::Object(m)
}

/// The call's outcome with the tree's path made neutral: the text, or the error code.
fn outcome(at: &AgentTools, tool: &str, args: Value, root: &Path) -> String {
    let r = at.present(tool, args).map(|p| p.text());
    let root = root.parent().unwrap().to_string_lossy().into_owned();
    match r {
        // A cursor is bound to the query's spelling (`context: 0` or none): opaque either way.
        Ok(t) => {
            let t = t.replace(&root, "TMP");
            match t.find("cursor=\"") {
                Some(i) => {
                    let end = t[i + 8..].find('"').map_or(t.len(), |e| i + 8 + e);
                    format!("{}CURSOR{}", &t[..i], &t[end..])
                }
                None => t,
            }
        }
        Err(e) => format!("error {}", e.code.as_str()),
    }
}

#[test]
fn strict_shaped_calls_do_what_minimal_calls_do_in_every_profile() {
    let mut checked = 0;
    for profile in Profile::ALL {
        let names: Vec<(String, Value)> = {
            let t = tree();
            tools(&t, *profile)
                .profile_tools()
                .into_iter()
                .map(|i| (i.name.to_string(), i.input_schema))
                .collect()
        };
        for (name, schema) in names {
            let run = |shape: &dyn Fn(&Path) -> Value| {
                let t = tree();
                let at = tools(&t, *profile);
                outcome(&at, &name, shape(&t.root), &t.root)
            };
            let want = run(&|root| Value::Object(minimal(&name, root, &schema)));
            for zero in [false, true] {
                let got = run(&|root| strict_shaped(&name, root, &schema, zero));
                assert_eq!(
                    got,
                    want,
                    "{profile} {name} ({}): the strict-shaped call differs",
                    if zero { "zeros" } else { "nulls" }
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} tools checked");
}

/// Calls as strict clients fill them (every member, zero or null where not set), one by one.
#[test]
fn zero_valued_calls_of_strict_clients_do_what_the_call_without_them_does() {
    let t = tree();
    let f = t.root.join("lines.txt").to_string_lossy().into_owned();
    let native = tools(&t, Profile::Rootbound);
    let r = native
        .call_result(
            "read_file",
            json!({"path": f, "offset": 0, "limit": 0, "start_line": 0, "max_lines": 0,
                "head_lines": 0, "tail_lines": 0, "line_numbers": null, "raw": null}),
        )
        .unwrap();
    assert_eq!(r["content"].as_str().unwrap().lines().count(), 30);
    // offset 0 beside line mode is no conflict.
    let r = native
        .call_result(
            "read_file",
            json!({"path": f, "offset": 0, "start_line": 2, "max_lines": 1}),
        )
        .unwrap();
    assert_eq!(r["content"], "line 2\n");
    // context 0 is a real value (no context), not "not set".
    let r = native
        .call_result(
            "grep_search",
            json!({"pattern": "line 2$", "context": 0, "include": "", "cursor": "", "path": ""}),
        )
        .unwrap();
    assert_eq!(r["match_lines"], 1);
    let claude = tools(&t, Profile::ClaudeCode);
    let out = claude
        .present(
            "Grep",
            json!({"pattern": "line 1", "glob": "", "path": null}),
        )
        .unwrap();
    assert!(out.text().starts_with("Found 1 files"), "{}", out.text());
    let gemini = tools(&t, Profile::GeminiCli);
    let out = gemini
        .present(
            "grep_search",
            json!({"pattern": "line 1", "exclude_pattern": "", "include_pattern": ""}),
        )
        .unwrap();
    assert!(out.text().contains("line 10"), "{}", out.text());
    let out = gemini
        .present(
            "grep_search",
            json!({"pattern": "line 1", "max_matches_per_file": 0, "total_max_matches": 0,
                "exclude_pattern": "", "include_pattern": ""}),
        )
        .unwrap();
    assert!(out.text().contains("line 10"), "{}", out.text());
    // A 1-based line number of 0 is refused where the schema says minimum 1, in Gemini CLI's
    // words; end_line's 0 means not set.
    let e = gemini
        .present("read_file", json!({"file_path": f, "start_line": 0}))
        .unwrap_err();
    assert!(e.message.ends_with("must be >= 1"), "{e:?}");
    let whole = gemini
        .present("read_file", json!({"file_path": f}))
        .unwrap();
    let zero = gemini
        .present("read_file", json!({"file_path": f, "end_line": 0}))
        .unwrap();
    assert_eq!(zero.text(), whole.text());
    let mcp = tools(&t, Profile::McpFilesystem);
    let out = mcp
        .present("read_text_file", json!({"path": f, "head": 0, "tail": 0}))
        .unwrap();
    assert_eq!(out.text().lines().count(), 30);
    // The zero rule is in the schema: head admits 0 and says what it means.
    let head = &mcp
        .profile_tools()
        .into_iter()
        .find(|t| t.name == "read_text_file")
        .unwrap()
        .input_schema["properties"]["head"];
    assert_eq!(head["minimum"], 0);
    assert!(head["description"]
        .as_str()
        .unwrap()
        .ends_with("0 means not set."));
}

/// `schema --format openai-strict`: every property required, the optional ones nullable,
/// additionalProperties false on every object; the portable form carries no
/// additionalProperties (unknown fields are still refused at call time).
#[test]
fn openai_strict_format_and_portable_subset() {
    let t = tree();
    for profile in Profile::ALL {
        let at = tools(&t, *profile);
        for (def, info) in at
            .profile_definitions(SchemaFormat::OpenaiStrict)
            .iter()
            .zip(at.profile_tools())
        {
            assert_eq!(def["function"]["strict"], true);
            let params = &def["function"]["parameters"];
            check_strict(params, &format!("{profile} {}", info.name));
            let portable = info.input_schema.to_string();
            assert!(
                !portable.contains("additionalProperties"),
                "{profile} {}: {portable}",
                info.name
            );
            let props = info.input_schema["properties"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            let optional: Vec<&String> = props
                .keys()
                .filter(|k| {
                    !info.input_schema["required"]
                        .as_array()
                        .is_some_and(|r| r.iter().any(|x| x == *k))
                })
                .collect();
            for k in optional {
                let p = &params["properties"][k];
                let nullable = p["type"]
                    .as_array()
                    .is_some_and(|t| t.iter().any(|x| x == "null"))
                    || p["anyOf"]
                        .as_array()
                        .is_some_and(|a| a.iter().any(|b| b["type"] == "null"));
                assert!(nullable, "{profile} {} {k}: {p}", info.name);
            }
        }
        let e = at
            .present(
                at.profile_tools()[0].name,
                json!({"path": "x", "file_path": "x", "bogus_field": 1}),
            )
            .unwrap_err();
        assert_eq!(e.code, rootbound::ErrorCode::InvalidArgument, "{profile}");
    }
}

fn check_strict(v: &Value, at: &str) {
    match v {
        Value::Object(o) => {
            if o.get("type") == Some(&json!("object")) {
                assert_eq!(o.get("additionalProperties"), Some(&json!(false)), "{at}");
                let props: Vec<&String> = o["properties"].as_object().unwrap().keys().collect();
                let req: Vec<&str> = o["required"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_str().unwrap())
                    .collect();
                assert_eq!(props.len(), req.len(), "{at}: {v}");
            }
            for k in ["minLength", "maxLength", "default"] {
                assert!(!o.contains_key(k), "{at}: {k}");
            }
            o.values().for_each(|c| check_strict(c, at));
        }
        Value::Array(a) => a.iter().for_each(|c| check_strict(c, at)),
        _ => {}
    }
}
