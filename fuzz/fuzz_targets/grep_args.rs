//! Fuzz target `grep_args`: arbitrary JSON arguments for `grep_search` (or `glob`) over a fixed small
//! tree, through `Sandbox::call` (so argument parsing is fuzzed too).
//!
//! Input: one JSON value. When it is an object, keys starting with `_` steer the harness and are
//! removed before the call: `_tool` (`"glob"` to call glob instead), `_limits` (an object of policy
//! limits: `max_bytes`, `max_results`, `max_columns`, `timeout_ms`, `threads`, `max_pattern_len`,
//! `max_filesize`, `regex_size_limit`), `_pages` (how many more pages to follow, by cursor and by offset,
//! at most 4).
//!
//! Properties: no panic; the call returns within its time budget (plus slack); a page holds at most
//! `limit` results and at most `max_bytes` bytes; every path in the output is under the root; no byte
//! or name from outside the root or from a denied file; `truncated` pages carry a cursor.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;
use rootbound::{Limits, Sandbox};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

struct Env {
    root: PathBuf,
    /// Sandboxes by their limits, owned: a bounded cache (cleared when full, which drops them), so
    /// nothing is leaked and LeakSanitizer can run.
    sandboxes: Mutex<HashMap<String, Arc<Sandbox>>>,
}

fn write(p: &Path, content: impl AsRef<[u8]>) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, content).unwrap();
}

fn env() -> &'static Env {
    static ENV: OnceLock<Env> = OnceLock::new();
    ENV.get_or_init(|| {
        let base = common::scratch("grep");
        let root = base.join("root");
        let out = base.join("outside");
        write(&out.join("secret.txt"), "needle CANARY-bytes\n");
        write(&out.join("CANARY-name.txt"), "needle\n");
        write(&base.join("root_evil/x.txt"), "needle CANARY-sibling\n");
        let r = &root;
        write(&r.join("src/main.rs"), "fn main() {\n    needle();\n}\n");
        write(
            &r.join("src/lib.rs"),
            "pub fn needle() -> u8 { 1 }\n// NEEDLE upper\n",
        );
        write(
            &r.join("mb.txt"),
            "héllo wörld needle ünïcödé\nΕλληνικά needle\n日本語 needle テスト\n🦀 needle 🦀\n",
        );
        write(
            &r.join("crlf.txt"),
            "needle one\r\nline two\r\nneedle three\r\n",
        );
        let mut long = "x".repeat(6000);
        long.push_str(" needle ");
        long.push_str(&"é".repeat(3000));
        long.push('\n');
        write(&r.join("long.txt"), long);
        write(&r.join("bin.dat"), b"needle\0binary needle\n");
        let many: String = (1..=300)
            .map(|i| format!("line {i} needle {i}\n"))
            .collect();
        write(&r.join("many.txt"), many);
        write(&r.join(".hidden/h.txt"), "needle hidden\n");
        write(&r.join(".gitignore"), "ignored.txt\n");
        write(&r.join("ignored.txt"), "needle ignored\n");
        write(&r.join(".env"), "needle SECRET-ENV\n");
        write(&r.join("sub/.env"), "needle SECRET-ENV\n");
        write(
            &r.join("sub/deeper/x.py"),
            "needle = 1\nother = 2\nneedle += 3\n",
        );
        write(&r.join("sub/a b/space name.txt"), "needle with space\n");
        write(&r.join("empty.txt"), "");
        write(&r.join("noeol.txt"), "needle without newline");
        write(&r.join("utf16.txt"), b"\xff\xfen\0e\0e\0d\0l\0e\0\n\0");
        std::os::unix::fs::symlink("../outside", r.join("link_out")).unwrap();
        std::os::unix::fs::symlink("../outside/secret.txt", r.join("link_file")).unwrap();
        std::os::unix::fs::symlink("src/main.rs", r.join("link_in")).unwrap();
        let _ = rustix::fs::mknodat(
            rustix::fs::CWD,
            r.join("pipe"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o644),
            0,
        );
        Env {
            root,
            sandboxes: Mutex::new(HashMap::new()),
        }
    })
}

/// Policy limits from `_limits`, kept to values that bound one call's time (they are operator
/// settings, trusted; the fuzzer still explores small and odd ones).
fn limits(v: Option<&Value>) -> Limits {
    let mut l = Limits {
        timeout_ms: 2000,
        threads: 2,
        ..Limits::default()
    };
    let Some(Value::Object(o)) = v else {
        return l;
    };
    let get = |k: &str| o.get(k).and_then(Value::as_u64);
    if let Some(n) = get("max_bytes") {
        l.max_bytes = n.min(1 << 20) as usize;
    }
    if let Some(n) = get("max_results") {
        l.max_results = n.min(10_000) as usize;
    }
    if let Some(n) = get("max_columns") {
        l.max_columns = n.min(1 << 20) as usize;
    }
    if let Some(n) = get("timeout_ms") {
        l.timeout_ms = n.min(2000);
    }
    if let Some(n) = get("threads") {
        l.threads = n.clamp(1, 4) as usize;
    }
    if let Some(n) = get("max_pattern_len") {
        l.max_pattern_len = n.min(1 << 16) as usize;
    }
    if let Some(n) = get("max_filesize") {
        l.max_filesize = n;
    }
    if let Some(n) = get("regex_size_limit") {
        l.regex_size_limit = n.min(4 << 20) as usize;
    }
    l
}

fn sandbox(e: &Env, l: &Limits) -> Arc<Sandbox> {
    let key = serde_json::to_string(l).unwrap();
    let mut m = e.sandboxes.lock().unwrap();
    if m.len() >= 64 {
        m.clear(); // the cache stays small; a sandbox in use lives on in its caller's Arc
    }
    m.entry(key)
        .or_insert_with(|| {
            Arc::new(
                Sandbox::builder()
                    .root(&e.root)
                    .deny(".env")
                    .limits(l.clone())
                    .build()
                    .expect("sandbox"),
            )
        })
        .clone()
}

/// One call and its time. A call over its budget is made once more and the shorter time counts:
/// on a loaded machine (a niced fuzzer beside compiles) one call can wait seconds for a core, and
/// the property is the call's own bound, not the scheduler's (a call that is slow every time still
/// fails; libFuzzer's `-timeout` catches a hang).
fn timed_call(sb: &Sandbox, l: &Limits, tool: &str, args: &Value) -> (Value, Duration) {
    let t = Instant::now();
    let v = sb.call(tool, args.clone());
    let took = t.elapsed();
    if took < Duration::from_millis(l.timeout_ms) + Duration::from_secs(3) {
        return (v, took);
    }
    let t = Instant::now();
    let _ = sb.call(tool, args.clone());
    (v, took.min(t.elapsed()))
}

fn check_page(
    e: &Env,
    l: &Limits,
    args: &Map<String, Value>,
    v: &Value,
    elapsed: Duration,
    ctx: &str,
) {
    let text = v.to_string();
    assert!(
        !text.contains("CANARY") && !text.contains("SECRET-ENV"),
        "{ctx}: outside or denied bytes: {text}"
    );
    let budget = Duration::from_millis(l.timeout_ms) + Duration::from_secs(3);
    assert!(elapsed < budget, "{ctx}: took {elapsed:?}");
    if v.get("error").is_some() {
        return;
    }
    let matches = v["matches"].as_str().expect("matches");
    let units = v["match_lines"].as_u64().expect("match_lines");
    let limit = args
        .get("limit")
        .and_then(Value::as_u64)
        .filter(|&n| n > 0) // zero means not set (the dialects' convention)
        .unwrap_or(10)
        .max(1)
        .min(l.max_results.max(1) as u64);
    assert!(
        units <= limit,
        "{ctx}: {units} results over the limit {limit}"
    );
    let mut cap = l.max_bytes.max(256) as u64;
    if let Some(b) = args.get("max_bytes").and_then(Value::as_u64) {
        cap = cap.min(b.max(256));
    }
    assert!(
        matches.len() as u64 <= cap || units <= 1,
        "{ctx}: page of {} bytes over max_bytes {cap}",
        matches.len()
    );
    let root = format!("{}/", e.root.display());
    for line in matches.lines() {
        assert!(
            // (a unit over the byte cap is cut: it may end inside the root's path)
            line == "--" || line.starts_with(&root) || root.starts_with(line),
            "{ctx}: output line not under the root: {line:?}"
        );
    }
    if v["truncated"] == true {
        assert!(
            v["next_cursor"].is_string(),
            "{ctx}: truncated without a cursor"
        );
    } else {
        assert!(
            v["next_cursor"].is_null(),
            "{ctx}: a cursor on a complete page"
        );
    }
}

fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if text.contains("CANARY") || text.contains("SECRET") {
        return; // would be echoed back by an error message
    }
    let Ok(v) = serde_json::from_str::<Value>(text) else {
        return;
    };
    let e = env();
    let (tool, l, pages, args) = match v {
        Value::Object(mut o) => {
            let tool = match o.remove("_tool") {
                Some(Value::String(s)) if s == "glob" => "glob",
                _ => "grep_search",
            };
            let l = limits(o.remove("_limits").as_ref());
            let pages = o
                .remove("_pages")
                .and_then(|p| p.as_u64())
                .unwrap_or(1)
                .min(4);
            (tool, l, pages, Value::Object(o))
        }
        other => ("grep_search", limits(None), 0, other),
    };
    let sb = sandbox(e, &l);
    let ctx = format!("{tool} {args}");
    let (first, took) = timed_call(&sb, &l, tool, &args);
    // What the call meant: a zero in these fields means "not set" (the rows' `UNSET`, in
    // src/tools/search.rs), so the checks read the arguments without them.
    let mut obj = args.as_object().cloned().unwrap_or_default();
    obj.retain(|k, v| {
        let unset = ["offset", "limit", "max_bytes", "max_count", "max_depth", "max_filesize"];
        !(v.is_null() || (unset.contains(&k.as_str()) && v.as_f64() == Some(0.0)))
    });
    check_page(e, &l, &obj, &first, took, &ctx);
    // Follow the next pages by cursor, and by offset.
    let mut page = first.clone();
    for _ in 0..pages {
        let Some(c) = page["next_cursor"].as_str() else {
            break;
        };
        let mut next = obj.clone();
        next.remove("offset");
        next.insert("cursor".into(), json!(c));
        let took;
        (page, took) = timed_call(&sb, &l, tool, &Value::Object(next.clone()));
        check_page(e, &l, &next, &page, took, &format!("{ctx} (cursor page)"));
    }
    let mut page = first;
    for _ in 0..pages {
        if page["truncated"] != true {
            break;
        }
        let Some(off) = page["next_offset"].as_u64() else {
            break;
        };
        let mut next = obj.clone();
        next.remove("cursor");
        next.insert("offset".into(), json!(off));
        let took;
        (page, took) = timed_call(&sb, &l, tool, &Value::Object(next.clone()));
        check_page(e, &l, &next, &page, took, &format!("{ctx} (offset page)"));
    }
}

fuzz_target!(|data: &[u8]| run(data));
