//! `rootbound mcp` with a cache directory it refuses (world-writable, inside a root, not a
//! directory) says so on stderr even with logging off: once, with the reason and what to do, and
//! naming no host path. It serves on, the index kept in memory (docs/index.md "On disk").

#![cfg(all(target_os = "linux", feature = "mcp", feature = "cli"))]

use crate::support::mcp::Mcp;
use serde_json::json;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The stderr of a server on `root` with `--index-dir dir`, after one answered call.
fn stderr_with_index_dir(root: &Path, dir: &Path) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rootbound"));
    cmd.env("ROOTBOUND_LOG", "off")
        .arg("mcp")
        .arg("--root")
        .arg(root);
    cmd.arg("--index").arg("--index-dir").arg(dir);
    let mut m = Mcp::spawn(cmd);
    m.initialize("index-dir");
    // It serves on: the refusal costs the saved index, not the server.
    let r = m.call(2, "read_file", json!({"path": root.join("a.txt")}));
    assert_eq!(r["structuredContent"]["content"], "needle\n", "{r}");
    let exit = m.finish(Duration::from_secs(60));
    assert!(exit.success(), "{}", exit.stderr);
    exit.stderr
}

#[test]
fn a_refused_index_dir_is_said_on_stderr_once_with_logging_off() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(root.join("a.txt"), "needle\n").unwrap();
    let open = tmp.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let file = tmp.path().join("file");
    std::fs::write(&file, "").unwrap();
    let cases = [
        (open, "writable by group or others"),
        (root.join("cache"), "inside a root"),
        (file, "cannot be created"),
    ];
    for (dir, why) in cases {
        let stderr = stderr_with_index_dir(&root, &dir);
        let said: Vec<&str> = stderr
            .lines()
            .filter(|l| l.contains("the index will not be saved"))
            .collect();
        assert_eq!(said.len(), 1, "said once, for {why}: {stderr}");
        assert!(said[0].contains(why), "the reason ({why}): {stderr}");
        assert!(said[0].contains("--index-dir"), "what to do: {stderr}");
        // No host path: neither the scratch directory nor the root nor the cache dir's own.
        let scratch = tmp.path().to_str().unwrap();
        assert!(!stderr.contains(scratch), "a host path on stderr: {stderr}");
    }
}

#[test]
fn an_accepted_index_dir_says_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(root.join("a.txt"), "needle\n").unwrap();
    let stderr = stderr_with_index_dir(&root, &tmp.path().join("cache"));
    assert!(!stderr.contains("will not be saved"), "{stderr}");
}

/// A config file's `index_dir` without `index` places the index `rootbound mcp` starts by default
/// (and `index_verify` shapes it): the server serves, and the index is saved there.
#[test]
fn a_config_index_dir_without_index_places_the_default_index() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(root.join("a.txt"), "needle\n").unwrap();
    let cache = tmp.path().join("cache");
    let cfg = tmp.path().join("c.toml");
    std::fs::write(
        &cfg,
        format!(
            "[agents.a]\nroots = [{:?}]\nindex_dir = {:?}\nindex_verify = \"strict\"\n\
             [agents.a.tools.grep_search]\n[agents.a.tools.list_roots]\n",
            root.to_str().unwrap(),
            cache.to_str().unwrap()
        ),
    )
    .unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rootbound"));
    cmd.env("ROOTBOUND_LOG", "off")
        .arg("mcp")
        .arg("--config")
        .arg(&cfg);
    let mut m = Mcp::spawn(cmd);
    m.initialize("index-dir-config");
    let r = m.call(2, "grep_search", json!({"pattern": "needle"}));
    assert!(r["isError"] != true, "{r}");
    // The default index is on ("auto" where the filesystem reports changes, else off with its
    // reason); where it is on, it is saved in the config's directory.
    let end = std::time::Instant::now() + crate::support::time::INDEX_WORK;
    let mut id = 3;
    let index = loop {
        let r = m.call(id, "list_roots", json!({}));
        let index = r["structuredContent"]["roots"][0]["index"].clone();
        assert!(index.is_object(), "the default index: {r}");
        let saved = std::fs::read_dir(&cache).is_ok_and(|mut d| d.next().is_some());
        if index["state"] != "building" && (index["state"] == "off" || saved)
            || std::time::Instant::now() > end
        {
            break index;
        }
        id += 1;
        std::thread::sleep(Duration::from_millis(50));
    };
    if index["state"] == "off" {
        assert!(index["reason"].is_string(), "{index}");
    } else {
        assert_eq!(index["state"], "ready", "{index}");
        let saved = std::fs::read_dir(&cache).map(|d| d.count()).unwrap_or(0);
        assert!(
            saved > 0,
            "nothing saved in the config's index_dir: {index}"
        );
    }
    let exit = m.finish(Duration::from_secs(60));
    assert!(exit.success(), "{}", exit.stderr);
}
