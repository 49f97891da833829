//! Owned lifetimes of the n-gram index's background work: dropping the last
//! sandbox stops its build, and a panic in index work turns the root's index off with a reason
//! while queries answer exactly as unindexed. A binary of its own: it counts the index threads
//! of the whole process.

mod support;

use rootbound::{
    index_fault_at, index_slow_at, index_threads_live, GrepArgs, IndexState, OutputMode, Sandbox,
};
use serde_json::Value;
use std::fs;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The tests count threads of the whole process: one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// `n` text files of a few KiB each, in 100 directories, old enough to be indexed.
fn tree(dir: &Path, n: usize) {
    let old = std::time::SystemTime::now() - Duration::from_secs(60);
    for i in 0..n {
        let sub = dir.join(format!("d{}", i % 100));
        fs::create_dir_all(&sub).unwrap();
        let text: String = (0..64)
            .map(|k| format!("line {k} of file {i}: word{} other{}\n", i * 31 + k, k * i))
            .collect();
        let f = fs::File::create(sub.join(format!("f{i}.txt"))).unwrap();
        std::io::Write::write_all(&mut &f, text.as_bytes()).unwrap();
        f.set_modified(old).unwrap();
    }
}

fn wait_until(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    f()
}

#[test]
fn dropping_the_last_sandbox_stops_its_build() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    // 3,000 files at 10 ms each: a build of 30 s at least.
    tree(dir.path(), 3_000);
    index_slow_at(Some(&fs::canonicalize(dir.path()).unwrap()));
    assert!(wait_until(Duration::from_secs(10), || index_threads_live() == 0));
    let sb = indexed_one_thread(dir.path());
    let clone = sb.clone();
    // Well under way, and far from done.
    assert!(wait_until(support::time::INDEX_WORK, || {
        sb.index_status()[0].files >= 20
    }));
    let st = sb.index_status();
    assert_eq!(st[0].state, IndexState::Building, "{st:?}");
    assert!(index_threads_live() > 0);
    drop(sb);
    // A clone still owns it: the build goes on.
    let before = clone.index_status()[0].files;
    assert!(wait_until(Duration::from_secs(10), || {
        clone.index_status()[0].files > before
    }));
    let files = clone.index_status()[0].files;
    drop(clone);
    // The stop is seen through the live-thread counter, not a timing: the build had 30 s of files
    // left, so threads gone within the generous bound (a busy machine may be slow to schedule
    // them out) is a stop, not the end of the build.
    let t = Instant::now();
    assert!(
        wait_until(support::time::PROMPT, || index_threads_live() == 0),
        "{} index threads still live {:?} after the last sandbox went ({files} files looked at)",
        index_threads_live(),
        t.elapsed()
    );
    assert!(
        files < 40_000,
        "the build ended before the drop: make the tree bigger"
    );
}

fn listing(p: &str) -> GrepArgs {
    let mut a = GrepArgs::new(p);
    a.output_mode = Some(OutputMode::FilesWithMatches);
    a.limit = Some(1000);
    a
}

/// The answer without `stats.index`.
fn answer(sb: &Sandbox, a: &GrepArgs) -> Value {
    let mut v = serde_json::to_value(sb.grep_search(a).unwrap()).unwrap();
    if let Some(s) = v.pointer_mut("/stats").and_then(|s| s.as_object_mut()) {
        s.remove("index");
    }
    v
}

fn assert_off_and_exact(on: &Sandbox, off: &Sandbox) {
    assert!(on.wait_for_index(support::time::INDEX_WORK));
    let st = on.index_status();
    assert_eq!(st[0].state, IndexState::Off, "{st:?}");
    let why = st[0].reason.clone().unwrap_or_default();
    assert!(why.contains("panicked"), "{st:?}");
    let wire = serde_json::to_value(&st[0]).unwrap();
    assert_eq!(wire["state"], "off");
    for p in ["word1", "file 7:", "zzz_absent", "other1[0-9]"] {
        assert_eq!(answer(on, &listing(p)), answer(off, &listing(p)), "{p}");
    }
}

#[test]
fn a_panic_in_the_build_turns_the_root_off_and_queries_stay_exact() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path(), 300);
    let canonical = fs::canonicalize(dir.path()).unwrap();
    // Past the two seconds within which a changed file gets no entry (the root's index clock).
    rootbound::index_age_at(&canonical, Duration::from_millis(2100));
    let build = || Sandbox::builder().root(dir.path()).build().unwrap();
    index_fault_at(Some(&canonical));
    let on = build().with_index();
    assert!(on.wait_for_index(support::time::INDEX_WORK));
    index_fault_at(None);
    assert_off_and_exact(&on, &build());
}

#[test]
fn a_panic_in_a_recording_turns_the_root_off_and_queries_stay_exact() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path(), 300);
    let canonical = fs::canonicalize(dir.path()).unwrap();
    // Past the two seconds within which a changed file gets no entry (the root's index clock).
    rootbound::index_age_at(&canonical, Duration::from_millis(2100));
    let build = || Sandbox::builder().root(dir.path()).build().unwrap();
    let on = build().with_index();
    assert!(on.wait_for_index(support::time::INDEX_WORK));
    let st = on.index_status();
    assert_eq!(st[0].state, IndexState::Ready, "{st:?}");
    assert_eq!(st[0].files, 300, "{st:?}");
    if !st[0].events {
        return; // no recordings without change reports
    }
    index_fault_at(Some(&canonical));
    // The first indexed query starts a recording, which panics.
    let _ = on.grep_search(&listing("word1"));
    assert!(on.wait_for_index(support::time::INDEX_WORK));
    index_fault_at(None);
    assert_off_and_exact(&on, &build());
}

/// The tools of another dialect of a config file's agent (what the Python and Node packages call
/// for a `profile`, and for their typed methods when the agent's own dialect is not rootbound)
/// serve with the agent's index: they start no second build of the same roots (a second cap of
/// memory, a second pass over the tree, two saves of one cache file).
#[test]
fn a_dialect_of_a_config_agent_shares_its_index() {
    use rootbound::config::host::{call, HostTools};

    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    tree(&root, 300);
    let canonical = fs::canonicalize(&root).unwrap();
    // Past the two seconds within which a changed file gets no entry (the root's index clock).
    rootbound::index_age_at(&canonical, Duration::from_millis(2100));
    let config = dir.path().join("rootbound.toml");
    fs::write(
        &config,
        "[agents.bot]\nroots = [\"root\"]\nprofile = \"claude-code\"\nindex = true\n\
         index_dir = false\n[agents.bot.tools.read_file]\n[agents.bot.tools.grep_search]\n",
    )
    .unwrap();
    let host = HostTools::from_config(&config, None).unwrap();
    assert!(host.base().sandboxes()[0].wait_for_index(support::time::INDEX_WORK));
    assert_eq!(
        host.base().sandboxes()[0].index_status()[0].state,
        IndexState::Ready
    );
    // From here a build of this root would take 3 s at least: a dialect that built its own index
    // would find it building.
    index_slow_at(Some(&canonical));
    let engine = host.dialect(Some("rootbound")).unwrap();
    let st = engine.sandbox_for("grep_search").unwrap().index_status();
    index_slow_at(None);
    assert_eq!(st[0].state, IndexState::Ready, "{st:?}");
    assert_eq!(st[0].files, 300, "{st:?}");
    // And it serves: the dialect's grep prunes with it.
    let hits = call(
        &engine,
        "grep_search",
        serde_json::json!({"pattern": "file 7:", "output_mode": "count"}),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(hits["stats"]["index"]["roots_indexed"], 1, "{hits}");
}

/// The build notices the stop between two reads of a file, not only between files: a file of up to
/// `index_max_file_bytes` (256 MiB) read whole after the last sandbox went would hold its thread,
/// the index and the sandbox on for as long as the read takes.
#[test]
fn dropping_the_last_sandbox_stops_the_read_of_a_large_file() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    // 48 reads of 1 MiB, at 300 ms each under the hook: 14 s of reading.
    let line = "a line of a large text file, the same on every line\n";
    let text = line.repeat((48 << 20) / line.len());
    let path = dir.path().join("large.txt");
    fs::write(&path, &text).unwrap();
    let f = fs::File::options().write(true).open(&path).unwrap();
    f.set_modified(std::time::SystemTime::now() - Duration::from_secs(60))
        .unwrap();
    let canonical = fs::canonicalize(dir.path()).unwrap();
    // Past the two seconds within which a changed file gets no entry (the root's index clock).
    rootbound::index_age_at(&canonical, Duration::from_millis(2100));
    assert!(wait_until(Duration::from_secs(10), || index_threads_live() == 0));
    rootbound::index_slow_reads_at(Some(&canonical));
    let sb = indexed_one_thread(dir.path());
    // Under way, and far from done.
    assert!(wait_until(support::time::INDEX_WORK, || {
        sb.index_status()[0].bytes_read > 0
    }));
    let st = sb.index_status();
    assert_eq!(st[0].state, IndexState::Building, "{st:?}");
    drop(sb);
    let t = Instant::now();
    let stopped = wait_until(support::time::PROMPT, || index_threads_live() == 0);
    rootbound::index_slow_reads_at(None);
    assert!(
        stopped,
        "{} index threads still live {:?} after the last sandbox went ({} of {} bytes read)",
        index_threads_live(),
        t.elapsed(),
        st[0].bytes_read,
        text.len()
    );
}

/// A sandbox of one search thread over `root`, indexed.
fn indexed_one_thread(root: &std::path::Path) -> Sandbox {
    Sandbox::builder()
        .root(root)
        .threads(1)
        .build()
        .unwrap()
        .with_index()
}

/// The MCP server's end (its input closed, as `rootbound mcp` sees stdin end) while its index is
/// being built: the serve returns promptly and, the server gone, every index thread ends. The same
/// server code as `rootbound mcp` (`serve_stdio` serves these lines on stdin and stdout), on two
/// in-process pipes, so the test can slow the build with its hook; the process itself then exits.
#[cfg(feature = "mcp")]
#[test]
fn the_mcp_server_ending_mid_build_stops_its_index_work() {
    use rootbound::config::AgentTools;
    use rootbound::mcp::McpServer;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    // 3,000 files at 10 ms each: a build of 30 s at least.
    tree(dir.path(), 3_000);
    index_slow_at(Some(&fs::canonicalize(dir.path()).unwrap()));
    assert!(wait_until(Duration::from_secs(10), || index_threads_live() == 0));
    let server = McpServer::new(AgentTools::from_sandbox(indexed_one_thread(dir.path())));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // One pipe each way, as stdin and stdout: the client's end of its input is the server's EOF.
    let (mut to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, from_server) = tokio::io::duplex(1 << 16);
    let serving = rt.spawn(server.serve_lines(server_in, server_out));
    let files = rt.block_on(async {
        let mut replies = BufReader::new(from_server).lines();
        let mut send = async |line: String| {
            to_server
                .write_all(format!("{line}\n").as_bytes())
                .await
                .unwrap();
        };
        send(
            serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "index-life", "version": "0"}}})
            .to_string(),
        )
        .await;
        replies
            .next_line()
            .await
            .unwrap()
            .expect("the initialize reply");
        send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_string()).await;
        // Under way, and far from done, as list_roots reports it.
        let end = Instant::now() + support::time::INDEX_WORK;
        let mut id = 1;
        let index = loop {
            send(
                serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": "list_roots", "arguments": {}}})
                .to_string(),
            )
            .await;
            let reply: Value =
                serde_json::from_str(&replies.next_line().await.unwrap().unwrap()).unwrap();
            let index = reply["result"]["structuredContent"]["roots"][0]["index"].clone();
            if index["files"].as_u64().unwrap_or(0) >= 20 || Instant::now() > end {
                break index;
            }
            id += 1;
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert_eq!(index["state"], "building", "{index}");
        drop(to_server);
        index["files"].as_u64().unwrap()
    });
    let t = Instant::now();
    let served = rt.block_on(async { tokio::time::timeout(support::time::PROMPT, serving).await });
    assert!(
        matches!(served, Ok(Ok(Ok(())))),
        "the serve did not end cleanly on EOF within {:?}: {served:?}",
        support::time::PROMPT
    );
    // The server is gone with the serve; no call holds the sandbox.
    let stopped = wait_until(support::time::PROMPT, || index_threads_live() == 0);
    index_slow_at(None);
    assert!(
        stopped,
        "{} index threads still live {:?} after the server ended ({files} files looked at)",
        index_threads_live(),
        t.elapsed()
    );
    assert!(
        files < 2_000,
        "the build ended before the server did: make the tree bigger"
    );
    drop(rt);
}
