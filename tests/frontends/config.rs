//! The configuration file: agents, per-tool roots and limits, `${VAR}`, key-path errors, JSON form.

use rootbound::config::{Config, ConfigError, Format};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn rootbound(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rootbound"));
    c.current_dir(cwd).args(args).env_remove("ROOTBOUND_LOG");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn stdout_json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

fn keys(e: &ConfigError) -> Vec<&str> {
    e.problems.iter().map(|p| p.key.as_str()).collect()
}

fn no_env(_: &str) -> Option<String> {
    None
}

#[test]
fn relative_roots_resolve_against_the_config_dir_not_the_cwd() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg_dir = tmp.path().join("cfg");
    let elsewhere = tmp.path().join("elsewhere");
    write(&cfg_dir.join("data/a.txt"), "from the config dir\n");
    write(&elsewhere.join("data/a.txt"), "from the working dir\n");
    write(
        &cfg_dir.join("agents.toml"),
        "[agents.bot]\nroots = [\"data\"]\n[agents.bot.tools.read_file]\n",
    );

    // In-process: the plan holds the absolute path under the config's directory.
    let c = Config::load(cfg_dir.join("agents.toml")).unwrap();
    let bot = c.agent(None).unwrap();
    assert_eq!(bot.plan[0].policy.roots[0].path, cfg_dir.join("data"));

    // Through the CLI, from another working directory, with the config path given relative to it.
    for config_arg in [
        "../cfg/agents.toml".to_string(),
        cfg_dir.join("agents.toml").to_str().unwrap().to_string(),
    ] {
        let o = rootbound(
            &elsewhere,
            &[
                "call",
                "read_file",
                r#"{"path": "a.txt"}"#,
                "--config",
                &config_arg,
            ],
            &[],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(stdout_json(&o)["content"], "from the config dir\n");
    }
}

#[test]
fn env_vars_expand_and_an_unset_one_is_an_error_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("bundle/corpus/c.txt"), "corpus\n");
    let cfg = tmp.path().join("agents.toml");
    write(
        &cfg,
        "[agents.bot.tools.read_file]\nroots = [\"${RB_TEST_BUNDLE}/corpus\"]\n\
         [agents.bot.tools.stat]\nroots = [\"${RB_TEST_BUNDLE}/corpus\", \"${RB_TEST_OTHER}\"]\n",
    );
    let cfg_s = cfg.to_str().unwrap();
    let bundle = tmp.path().join("bundle");
    let o = rootbound(
        tmp.path(),
        &[
            "call",
            "read_file",
            r#"{"path": "c.txt"}"#,
            "--config",
            cfg_s,
        ],
        &[
            ("RB_TEST_BUNDLE", bundle.to_str().unwrap()),
            ("RB_TEST_OTHER", bundle.to_str().unwrap()),
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(stdout_json(&o)["content"], "corpus\n");

    // Unset: exit 2, nothing on stdout, and stderr names the variable and the key (every occurrence).
    let o = rootbound(
        tmp.path(),
        &[
            "call",
            "read_file",
            r#"{"path": "c.txt"}"#,
            "--config",
            cfg_s,
        ],
        &[("RB_TEST_BUNDLE", bundle.to_str().unwrap())],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "agents.bot.tools.stat.roots[1]: environment variable RB_TEST_OTHER is not set"
        ),
        "{err}"
    );

    // In-process, with a custom environment: both unset variables reported, each at its key.
    let text = std::fs::read_to_string(&cfg).unwrap();
    let e = Config::parse_with_env(&text, Format::Toml, tmp.path(), no_env).unwrap_err();
    assert_eq!(
        keys(&e),
        [
            "agents.bot.tools.read_file.roots[0]",
            "agents.bot.tools.stat.roots[0]",
            "agents.bot.tools.stat.roots[1]",
        ]
    );
    assert!(e.problems[0].message.contains("RB_TEST_BUNDLE"), "{e}");
    assert!(e.problems[2].message.contains("RB_TEST_OTHER"), "{e}");
}

#[test]
fn all_problems_are_reported_at_once_with_their_key_paths() {
    let text = r#"
        extra_top = 1
        [agents.bot]
        roots = ["/srv", 7]
        symlinks = "always"
        hidden = "yes"
        deny = [".env", "a*", 3]
        [agents.bot.tools.grep_search]
        max_results = "100"
        max_bytes = -5
        timeout_secs = "10s"
        colour = true
        [agents.bot.tools.read_file]
        max_bytes = 1.5
        [agents.bot.tools.write_file]
        [agents.bot.write]
        max_write_bytes = 10
        [agents.other]
        "#;
    let e = Config::parse_with_env(text, Format::Toml, Path::new("/cfg"), no_env).unwrap_err();
    assert_eq!(
        keys(&e),
        [
            "agents.bot.deny[2]",
            "agents.bot.hidden",
            "agents.bot.roots[1]",
            "agents.bot.symlinks",
            "agents.bot.tools.grep_search.colour",
            "agents.bot.tools.grep_search.max_bytes",
            "agents.bot.tools.grep_search.max_results",
            "agents.bot.tools.grep_search.timeout_secs",
            "agents.bot.tools.read_file.max_bytes",
            "agents.bot.tools.write_file",
            "agents.bot.write",
            "agents.other",
            "extra_top",
        ],
        "{e}"
    );
    let msg = |k: &str| {
        e.problems
            .iter()
            .find(|p| p.key == k)
            .map(|p| p.message.clone())
            .unwrap()
    };
    assert_eq!(
        msg("agents.bot.tools.grep_search.max_results"),
        "expected an integer, found a string"
    );
    assert_eq!(
        msg("agents.bot.tools.read_file.max_bytes"),
        "expected an integer, found a float"
    );
    assert!(msg("agents.bot.symlinks").contains("\"inside\" or \"never\""));
    assert!(msg("agents.bot.tools.write_file").contains("agents.bot.write"));
    assert!(msg("agents.bot.write").contains("root"));
    assert!(msg("agents.other").contains("no tools"));
    assert!(msg("extra_top").starts_with("unknown key"));
    // The Display form has one line per problem, each starting with its key.
    let shown = e.to_string();
    assert_eq!(shown.lines().count(), 1 + e.problems.len(), "{shown}");
    assert!(shown.contains("  agents.bot.tools.grep_search.max_results: expected an integer"));

    // A deny rule that does not compile is reported at its index.
    let e = Config::parse_with_env(
        "[agents.a]\nroots = [\"/r\"]\ndeny = [\"ok\", \"{a,b\"]\n[agents.a.tools.stat]\n",
        Format::Toml,
        Path::new("/"),
        no_env,
    )
    .unwrap_err();
    assert_eq!(keys(&e), ["agents.a.deny[1]"], "{e}");
    assert!(e.problems[0].message.contains("unclosed"), "{e}");
}

#[test]
fn cli_reports_every_problem_on_stderr_with_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("bad.toml");
    write(
        &cfg,
        "[agents.bot]\nroots = [\".\"]\nbogus = 1\n[agents.bot.tools.grep_search]\nmax_results = \"x\"\n",
    );
    for sub in [
        vec!["schema"],
        vec!["call", "stat", r#"{"path": "."}"#],
        vec!["read", "x"],
        vec!["grep", "x"],
        vec!["mcp"],
    ] {
        let mut args = sub.clone();
        args.extend(["--config", cfg.to_str().unwrap()]);
        let o = rootbound(tmp.path(), &args, &[]);
        assert_eq!(o.status.code(), Some(2), "{sub:?}");
        assert!(o.stdout.is_empty(), "{sub:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("has 2 problems"), "{sub:?}: {err}");
        assert!(
            err.contains("agents.bot.bogus: unknown key"),
            "{sub:?}: {err}"
        );
        assert!(
            err.contains(
                "agents.bot.tools.grep_search.max_results: expected an integer, found a string"
            ),
            "{sub:?}: {err}"
        );
    }
    // --config replaces --root; giving both is a usage error.
    let o = rootbound(
        tmp.path(),
        &["schema", "--config", cfg.to_str().unwrap(), "--root", "."],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    // --agent needs --config.
    let o = rootbound(tmp.path(), &["schema", "--agent", "bot"], &[]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn per_tool_roots_route_each_tool_to_its_own_sandbox() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    write(&a.join("only_a.txt"), "alpha needle\n");
    write(&b.join("only_b.txt"), "beta needle\n");
    let cfg = tmp.path().join("agents.toml");
    write(
        &cfg,
        r#"
        [agents.bot.tools.read_file]
        roots = ["a"]
        max_bytes = 3
        [agents.bot.tools.grep_search]
        roots = ["b"]
        [agents.bot.tools.list_dir]
        [agents.bot.tools.stat]
        "#,
    );
    let c = Config::load(&cfg).unwrap();
    let bot = c.agent(Some("bot")).unwrap();
    assert_eq!(
        bot.tool_names(),
        ["read_file", "grep_search", "list_dir", "stat"]
    );
    let tools = bot.build().unwrap();
    assert_eq!(tools.agent(), "bot");
    // list_dir and stat list no roots: they get the union, in order (read_file's, then grep_search's).
    let union: Vec<PathBuf> = tools
        .sandbox_for("list_dir")
        .unwrap()
        .roots()
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    let (ca, cb) = (a.canonicalize().unwrap(), b.canonicalize().unwrap());
    assert_eq!(union, [ca.clone(), cb.clone()]);
    assert!(std::ptr::eq(
        tools.sandbox_for("list_dir").unwrap(),
        tools.sandbox_for("stat").unwrap()
    ));
    assert_eq!(tools.sandboxes().len(), 3);

    // read_file sees only a (and its own byte cap).
    let r = tools.call("read_file", json!({"path": "only_a.txt"}));
    assert_eq!(r["content"], "alp", "{r}");
    assert_eq!(r["truncated"], true);
    let r = tools.call("read_file", json!({"path": "only_b.txt"}));
    assert_eq!(r["error"]["code"], "NOT_FOUND", "{r}");
    let r = tools.call(
        "read_file",
        json!({"path": cb.join("only_b.txt").to_str().unwrap()}),
    );
    assert_eq!(r["error"]["code"], "OUT_OF_SANDBOX", "{r}");

    // grep_search sees only b.
    let r = tools.call("grep_search", json!({"pattern": "needle"}));
    let matches = r["matches"].as_str().unwrap();
    assert!(matches.contains("only_b.txt:1:beta needle"), "{r}");
    assert!(!matches.contains("only_a"), "{r}");
    assert_eq!(r["match_lines"], 1);

    // stat sees both.
    assert_eq!(
        tools.call("stat", json!({"path": "only_a.txt"}))["kind"],
        "file"
    );
    assert_eq!(
        tools.call("stat", json!({"path": "only_b.txt"}))["kind"],
        "file"
    );

    // Tools not enabled are refused (a known tool the policy does not permit: DENIED); unknown tool
    // names are bad arguments.
    let r = tools.call("glob", json!({"pattern": "*"}));
    assert_eq!(r["error"]["code"], "DENIED");
    assert!(r["error"]["message"]
        .as_str()
        .unwrap()
        .contains("not enabled"));
    assert_eq!(
        tools.call("nope", json!({}))["error"]["code"],
        "INVALID_ARGUMENT"
    );

    // Each definition describes its own tool's roots.
    let defs = tools.tool_definitions();
    let names: Vec<&str> = defs
        .iter()
        .map(|d| d["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["read_file", "grep_search", "list_dir", "stat"]);
    let read_desc = defs[0]["function"]["description"].as_str().unwrap();
    assert!(read_desc.contains(ca.to_str().unwrap()), "{read_desc}");
    assert!(!read_desc.contains(cb.to_str().unwrap()), "{read_desc}");
    assert!(read_desc.contains("at most 3 bytes"), "{read_desc}");
}

#[test]
fn unknown_keys_are_rejected_everywhere() {
    for (text, key) in [
        ("nope = 1\n[agents.a.tools.stat]\nroots=[\"/\"]\n", "nope"),
        ("[agents.a]\nroots = [\"/\"]\nroot = [\"/\"]\n[agents.a.tools.stat]\n", "agents.a.root"),
        ("[agents.a.tools.stat]\nroots=[\"/\"]\nmax_bytes = 1\n", "agents.a.tools.stat.max_bytes"),
        ("[agents.a.tools.grep]\nroots=[\"/\"]\n", "agents.a.tools.grep"),
        (
            "[agents.a.tools.stat]\nroots=[{path = \"/\", label = \"x\"}]\n",
            "agents.a.tools.stat.roots[0].label",
        ),
        (
            "[agents.a.write]\nroot = \"/tmp\"\nallow_everything = true\n",
            "agents.a.write.allow_everything",
        ),
        (
            "[agents.a]\nroots=[\"/\"]\n[agents.a.limits]\nmax_resluts = 3\n[agents.a.tools.stat]\n",
            "agents.a.limits.max_resluts",
        ),
    ] {
        let e = Config::parse_with_env(text, Format::Toml, Path::new("/"), no_env).unwrap_err();
        assert_eq!(keys(&e), [key], "{text}: {e}");
        assert!(
            e.problems[0].message.starts_with("unknown"),
            "{text}: {e}"
        );
    }
}

#[test]
fn json_form_is_the_same_structure() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("data/j.txt"), "json agent\n");
    let toml_text =
        "[agents.j]\nroots = [\"data\"]\ndeny = [\"*.pem\"]\npath_display = \"relative\"\n\
                     [agents.j.tools.read_file]\nmax_bytes = 100\n\
                     [agents.j.tools.grep_search]\nmax_results = 7\ntimeout_secs = 2.5\n";
    let json_text = json!({"agents": {"j": {
        "roots": ["data"], "deny": ["*.pem"], "path_display": "relative",
        "tools": {"read_file": {"max_bytes": 100},
                  "grep_search": {"max_results": 7, "timeout_secs": 2.5}}}}})
    .to_string();
    write(&tmp.path().join("agents.toml"), toml_text);
    write(&tmp.path().join("agents.json"), &json_text);
    let t = Config::load(tmp.path().join("agents.toml")).unwrap();
    let j = Config::load(tmp.path().join("agents.json")).unwrap();
    let (tp, jp) = (&t.agent(None).unwrap().plan, &j.agent(None).unwrap().plan);
    assert_eq!(tp, jp);
    assert_eq!(jp.len(), 2);
    assert_eq!(jp[1].policy.limits.timeout_ms, 2500);
    assert_eq!(jp[1].policy.limits.max_results, 7);
    assert_eq!(jp[0].policy.limits.max_read_bytes, 100);

    let o = rootbound(
        tmp.path(),
        &[
            "call",
            "read_file",
            r#"{"path": "j.txt"}"#,
            "--config",
            tmp.path().join("agents.json").to_str().unwrap(),
        ],
        &[],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = stdout_json(&o);
    assert_eq!(v["content"], "json agent\n");
    assert_eq!(v["path"], "j.txt");

    // JSON type errors carry the same key paths as TOML ones.
    let bad = json!({"agents": {"j": {"tools": {"grep_search": {"roots": "data", "max_results": true}}}}});
    let e = Config::parse_with_env(&bad.to_string(), Format::Json, tmp.path(), no_env).unwrap_err();
    assert_eq!(
        keys(&e),
        [
            "agents.j.tools.grep_search.max_results",
            "agents.j.tools.grep_search.roots"
        ],
        "{e}"
    );
    // And a syntax error is one problem saying which format.
    let e = Config::parse_with_env("{\"agents\": ", Format::Json, tmp.path(), no_env).unwrap_err();
    assert!(e.problems[0].message.starts_with("not valid JSON"), "{e}");
    let e = Config::parse_with_env("[agents", Format::Toml, tmp.path(), no_env).unwrap_err();
    assert!(e.problems[0].message.starts_with("not valid TOML"), "{e}");
}

#[test]
fn choosing_an_agent() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("d/f.txt"), "f\n");
    let cfg = tmp.path().join("agents.toml");
    write(
        &cfg,
        "[agents.reader]\nroots=[\"d\"]\n[agents.reader.tools.read_file]\n\
         [agents.searcher]\nroots=[\"d\"]\n[agents.searcher.tools.grep_search]\n",
    );
    let c = Config::load(&cfg).unwrap();
    let e = c.agent(None).unwrap_err();
    assert!(e.to_string().contains("reader, searcher"), "{e}");
    assert!(e.to_string().contains("--agent"), "{e}");
    let e = c.agent(Some("writer")).unwrap_err();
    assert!(e.to_string().contains("no agent named 'writer'"), "{e}");

    let cfg_s = cfg.to_str().unwrap();
    let o = rootbound(tmp.path(), &["schema", "--config", cfg_s], &[]);
    assert_eq!(o.status.code(), Some(2));
    let o = rootbound(
        tmp.path(),
        &["schema", "--config", cfg_s, "--agent", "searcher"],
        &[],
    );
    assert!(o.status.success());
    let defs = stdout_json(&o);
    assert_eq!(defs.as_array().unwrap().len(), 1);
    assert_eq!(defs[0]["function"]["name"], "grep_search");

    // The agent's name is in the audit events.
    let o = rootbound(
        tmp.path(),
        &[
            "call",
            "read_file",
            r#"{"path": "f.txt"}"#,
            "--config",
            cfg_s,
            "--agent",
            "reader",
        ],
        &[("ROOTBOUND_LOG", "rootbound::audit=info")],
    );
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("rootbound::audit") && err.contains("agent=\"reader\""),
        "{err}"
    );
    // A tool the agent does not enable is a tool error from `call`, a usage error from `grep`.
    let o = rootbound(
        tmp.path(),
        &[
            "call",
            "grep_search",
            r#"{"pattern": "f"}"#,
            "--config",
            cfg_s,
            "--agent",
            "reader",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout_json(&o)["error"]["code"], "DENIED");
    let o = rootbound(
        tmp.path(),
        &["grep", "f", "--config", cfg_s, "--agent", "reader"],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not enable the grep_search tool"));
    let o = rootbound(
        tmp.path(),
        &["grep", "-n", "f", "--config", cfg_s, "--agent", "searcher"],
        &[],
    );
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("f.txt:1:f"));
}

#[test]
fn roots_that_cannot_be_opened_are_reported_by_key() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("ok/x.txt"), "x\n");
    write(&tmp.path().join("a_file"), "not a dir\n");
    let text = "[agents.a]\nroots = [\"ok\", \"missing\"]\n[agents.a.tools.read_file]\n\
                [agents.a.tools.stat]\nroots = [\"a_file\"]\n[agents.a.write]\nroot = \"no_out\"\n";
    let c = Config::parse_with_env(text, Format::Toml, tmp.path(), no_env).unwrap();
    let e = c.agent(None).unwrap().build().unwrap_err();
    assert_eq!(
        keys(&e),
        [
            "agents.a.roots[1]",
            "agents.a.tools.stat.roots[0]",
            "agents.a.write.root"
        ],
        "{e}"
    );
    assert!(e.problems[1].message.contains("not a directory"), "{e}");

    // Lenient: a missing read root is dropped (the write root must still exist).
    let text = "[agents.a]\nroots = [\"ok\", \"missing\"]\nroot_mode = \"lenient\"\n\
                [agents.a.tools.read_file]\n";
    let c = Config::parse_with_env(text, Format::Toml, tmp.path(), no_env).unwrap();
    let tools = c.agent(None).unwrap().build().unwrap();
    assert_eq!(
        tools.call("read_file", json!({"path": "x.txt"}))["content"],
        "x\n"
    );
}

#[test]
fn write_section_enables_the_write_tools() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("out")).unwrap();
    std::fs::create_dir(tmp.path().join("src")).unwrap();
    let text = "[agents.w]\nroots = [\"src\"]\n[agents.w.tools.read_file]\n\
                [agents.w.write]\nroot = \"out\"\nallow_delete = true\nmax_write_bytes = 10\n";
    let c = Config::parse_with_env(text, Format::Toml, tmp.path(), no_env).unwrap();
    let w = c.agent(None).unwrap();
    let tools = w.build().unwrap();
    // Every write tool but edit_file: the write root is outside the read root, and an edit's
    // answer would tell what an unreadable file holds.
    let offered: Vec<&str> = tools.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(
        offered,
        [
            "read_file",
            "write_file",
            "create_directory",
            "move_file",
            "delete_file"
        ]
    );
    let r = tools.call("create_directory", json!({"path": "d"}));
    assert!(r.get("error").is_none(), "{r}");
    let r = tools.call(
        "edit_file",
        json!({"path": "d", "old_string": "a", "new_string": "b"}),
    );
    assert_eq!(r["error"]["code"], "DENIED", "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not readable"),
        "{r}"
    );
    let r = tools.call("write_file", json!({"path": "n.txt", "content": "hi"}));
    assert!(r.get("error").is_none(), "{r}");
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("out/n.txt")).unwrap(),
        "hi"
    );
    let r = tools.call(
        "write_file",
        json!({"path": "big.txt", "content": "0123456789abc"}),
    );
    assert_eq!(r["error"]["code"], "TOO_LARGE", "{r}");
    // The read tool does not see the write root.
    let r = tools.call("read_file", json!({"path": "n.txt"}));
    assert_eq!(r["error"]["code"], "NOT_FOUND", "{r}");
    let r = tools.call("delete_file", json!({"path": "n.txt"}));
    assert!(r.get("error").is_none(), "{r}");
    assert!(!tmp.path().join("out/n.txt").exists());
}

/// The write section offers the write tools as `--write-root` does: edit_file where the write root
/// is readable, delete_file only with `allow_delete`.
#[test]
fn write_section_offers_what_the_write_root_flag_offers() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("src/out")).unwrap();
    std::fs::write(tmp.path().join("src/out/a.txt"), "one\n").unwrap();
    let text = "[agents.w]\nroots = [\"src\"]\n[agents.w.tools.read_file]\n\
                [agents.w.write]\nroot = \"src/out\"\nallow_overwrite = true\n";
    let c = Config::parse_with_env(text, Format::Toml, tmp.path(), no_env).unwrap();
    let tools = c.agent(None).unwrap().build().unwrap();
    let offered: Vec<&str> = tools.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(
        offered,
        [
            "read_file",
            "write_file",
            "edit_file",
            "create_directory",
            "move_file"
        ]
    );
    let r = tools.call(
        "edit_file",
        json!({"path": "a.txt", "old_string": "one", "new_string": "two"}),
    );
    assert!(r.get("error").is_none(), "{r}");
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("src/out/a.txt")).unwrap(),
        "two\n"
    );
    let r = tools.call(
        "move_file",
        json!({"source": "a.txt", "destination": "b.txt"}),
    );
    assert!(r.get("error").is_none(), "{r}");
    let r = tools.call("delete_file", json!({"path": "b.txt"}));
    assert_eq!(r["error"]["code"], "DENIED", "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("allow_delete"),
        "{r}"
    );
    assert!(tmp.path().join("src/out/b.txt").exists());
}

/// Roots given only to tools that list names (glob, list_dir, stat, directory_tree) do not count
/// as readable for the write section: a move must not carry a file from there into a read_file
/// root, and edit_file (whose answers tell what a file holds) is not offered there. They still
/// anchor deny rules.
#[test]
fn a_root_only_name_listing_tools_have_is_not_readable_for_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let proj = tmp.path().join("proj");
    std::fs::create_dir_all(proj.join("src")).unwrap();
    std::fs::write(proj.join("secret.txt"), "the secret\n").unwrap();
    std::fs::write(proj.join("deny_me.txt"), "x\n").unwrap();
    let text = "[agents.w]\nroots = [\"proj\"]\ndeny = [\"/deny_me.txt\"]\n\
                [agents.w.tools.read_file]\nroots = [\"proj/src\"]\n\
                [agents.w.tools.glob]\n\
                [agents.w.write]\nroot = \"proj\"\nallow_overwrite = true\n";
    let c = Config::parse_with_env(text, Format::Toml, tmp.path(), no_env).unwrap();
    let tools = c.agent(None).unwrap().build().unwrap();
    let offered: Vec<&str> = tools.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(
        offered,
        [
            "read_file",
            "glob",
            "write_file",
            "create_directory",
            "move_file"
        ]
    );
    let r = tools.call(
        "move_file",
        json!({"source": "secret.txt", "destination": "src/secret.txt"}),
    );
    assert_eq!(r["error"]["code"], "DENIED", "{r}");
    assert!(proj.join("secret.txt").exists() && !proj.join("src/secret.txt").exists());
    let r = tools.call("read_file", json!({"path": "secret.txt"}));
    assert!(r.get("error").is_some(), "{r}");
    // Within the read_file root, a move is a move.
    std::fs::write(proj.join("src/a.txt"), "a\n").unwrap();
    let r = tools.call(
        "move_file",
        json!({"source": "src/a.txt", "destination": "src/b.txt"}),
    );
    assert!(r.get("error").is_none(), "{r}");
    // The glob root's deny rule still binds the write tools.
    let r = tools.call(
        "write_file",
        json!({"path": "deny_me.txt", "content": "y", "overwrite": true}),
    );
    assert!(r.get("error").is_some(), "{r}");
    assert_eq!(
        std::fs::read_to_string(proj.join("deny_me.txt")).unwrap(),
        "x\n"
    );
}

/// A write tool the write section's policy withholds is refused in every dialect, with the
/// policy's reason, even where a dialect's call would make no engine call of that tool (the
/// reference server's edit_file with no edits).
#[test]
fn a_withheld_write_tool_is_refused_in_every_dialect() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("out")).unwrap();
    std::fs::create_dir(tmp.path().join("src")).unwrap();
    std::fs::write(tmp.path().join("out/f.txt"), "hidden\n").unwrap();
    let text = "[agents.w]\nroots = [\"src\"]\n[agents.w.tools.read_file]\n\
                [agents.w.write]\nroot = \"out\"\nallow_overwrite = true\n";
    let c = Config::parse_with_env(text, Format::Toml, tmp.path(), no_env).unwrap();
    let tools = c.agent(None).unwrap().build().unwrap();
    assert!(tools.sandbox_for("edit_file").is_none());
    assert!(tools.sandbox_for("write_file").is_some());
    let fs_tools = c
        .agent(None)
        .unwrap()
        .build()
        .unwrap()
        .with_profile(rootbound::Profile::McpFilesystem);
    let out = tmp.path().join("out").canonicalize().unwrap();
    for edits in [json!([]), json!([{"oldText": "hidden", "newText": "seen"}])] {
        let r = fs_tools.present(
            "edit_file",
            json!({"path": out.join("f.txt"), "edits": edits}),
        );
        let e = r.expect_err("edit_file is withheld");
        assert_eq!(e.code, rootbound::ErrorCode::Denied, "{e:?}");
    }
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("out/f.txt")).unwrap(),
        "hidden\n"
    );
}

/// The table of tool settings in docs/frontends.md is the one the limit table gives each tool.
#[test]
fn documented_tool_settings_match_the_limit_table() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/frontends.md")).unwrap();
    for tool in ["read_file", "grep_search", "glob", "list_dir", "stat"] {
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| `{tool}`")))
            .unwrap_or_else(|| panic!("a row for {tool}"));
        let documented: Vec<&str> = row
            .split('|')
            .nth(2)
            .unwrap()
            .split('`')
            .skip(1)
            .step_by(2)
            .collect();
        let mut keys: Vec<&str> = Vec::new();
        for f in rootbound::config::LIMITS {
            keys.extend(f.tools.iter().filter(|k| k.tool == tool).map(|k| k.key));
        }
        assert_eq!(documented, keys, "{tool}");
    }
}

/// Deny rules are the agent's, anchored at every root it has: a tool given a root of its own inside
/// (or around) another root of the agent keeps the rules written relative to that other root, so a
/// per-tool root inside a denied directory serves nothing of it (ATTACKS.md class 35).
#[test]
fn per_tool_roots_keep_the_agents_deny_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    write(&repo.join("open.txt"), "needle in the open\n");
    write(&repo.join("secret/x.txt"), "needle secret\n");
    write(&repo.join("sub/a.key"), "needle key\n");
    write(&repo.join("sub/ok.txt"), "needle ok\n");
    let cfg = tmp.path().join("agents.toml");
    write(
        &cfg,
        r#"
        [agents.bot]
        roots = ["repo"]
        deny = ["/secret/", "sub/*.key"]
        [agents.bot.tools.read_file]
        [agents.bot.tools.grep_search]
        roots = ["repo/secret", "repo/sub"]
        [agents.bot.tools.glob]
        roots = ["repo/secret", "repo/sub"]
        [agents.bot.tools.list_dir]
        roots = ["repo/secret", "repo/sub"]
        [agents.bot.tools.stat]
        roots = ["repo/sub"]
        [agents.bot.tools.directory_tree]
        roots = ["repo/sub"]
        "#,
    );
    let tools = Config::load(&cfg)
        .unwrap()
        .agent(Some("bot"))
        .unwrap()
        .build()
        .unwrap();
    let r = tools.call("read_file", json!({"path": "secret/x.txt"}));
    assert_eq!(r["error"]["code"], "DENIED", "{r}");

    let r = tools.call("grep_search", json!({"pattern": "needle", "limit": 100}));
    let text = r["matches"].as_str().unwrap();
    assert!(text.contains("ok.txt:1:needle ok"), "{r}");
    assert!(!text.contains("secret") && !text.contains("key"), "{r}");
    assert_eq!(r["match_lines"], 1, "{r}");
    assert_eq!(
        r["stats"]["skipped"]["denied"], 0,
        "a denied file is not even counted: {r}"
    );
    let r = tools.call(
        "grep_search",
        json!({"pattern": "needle", "output_mode": "count", "path": "a.key"}),
    );
    assert!(
        r["error"]["code"] == "DENIED" || r["error"]["code"] == "NOT_FOUND",
        "{r}"
    );

    let r = tools.call("glob", json!({"pattern": "*"}));
    let listed = r["matches"].as_str().unwrap();
    assert!(listed.contains("ok.txt"), "{r}");
    assert!(
        !listed.contains("x.txt") && !listed.contains("a.key"),
        "{r}"
    );

    let r = tools.call("list_dir", json!({"path": "."}));
    let names: Vec<&str> = r["entries"]
        .as_array()
        .map(|e| e.iter().map(|e| e["name"].as_str().unwrap()).collect())
        .unwrap_or_default();
    assert!(
        !names.contains(&"a.key") && !names.contains(&"x.txt"),
        "{r}"
    );
    let r = tools.call("list_dir", json!({}));
    assert!(!r.to_string().contains("x.txt"), "{r}");

    let r = tools.call("stat", json!({"path": "a.key"}));
    assert_eq!(r["error"]["code"], "DENIED", "{r}");
    let r = tools.call("directory_tree", json!({"path": "."}));
    assert!(r.to_string().contains("ok.txt"), "{r}");
    assert!(!r.to_string().contains("a.key"), "{r}");
}
