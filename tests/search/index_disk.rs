//! The saved index (docs/index.md "On disk"): a restart serves indexed answers from it before the
//! root is built again, every answer stays exact (a file changed while no process ran is found),
//! a damaged or foreign saved index is ignored, and the cache directory is refused where an agent
//! or another user could write it.

use rootbound::{
    index_age_at, index_slow_at, GrepArgs, IndexDir, IndexOptions, IndexStatus, OutputMode, Sandbox,
};
use serde_json::Value;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// `index_slow_at` names one root for the whole process: its tests take turns.
pub(crate) static SLOW: Mutex<()> = Mutex::new(());

/// `n` files of a few words each, old enough to be indexed (to the root's index).
pub(crate) fn tree(dir: &Path, n: usize) {
    for i in 0..n {
        let d = dir.join(format!("d{}", i % 7));
        fs::create_dir_all(&d).unwrap();
        let words = format!("word{i} common line\nsecond word{} line\n", i % 13);
        fs::write(d.join(format!("f{i}.txt")), words).unwrap();
    }
    fs::write(dir.join("secret.txt"), "word1 hidden by a deny rule\n").unwrap();
    // Past the racy window without a sleep: the root's index clock moves on instead.
    index_age_at(&fs::canonicalize(dir).unwrap(), Duration::from_millis(2100));
}

pub(crate) fn sandbox(root: &Path, deny: &str) -> Sandbox {
    Sandbox::builder()
        .root(root)
        .deny(deny)
        .threads(1)
        .build()
        .unwrap()
}

pub(crate) fn indexed(root: &Path, cache: &Path, deny: &str) -> Sandbox {
    let o = IndexOptions::default().index_dir(IndexDir::Path(cache.to_path_buf()));
    sandbox(root, deny).with_index_options(o)
}

pub(crate) fn status(sb: &Sandbox) -> IndexStatus {
    sb.index_status().remove(0)
}

pub(crate) fn listing(p: &str) -> GrepArgs {
    let mut a = GrepArgs::new(p);
    a.output_mode = Some(OutputMode::FilesWithMatches);
    a.limit = Some(10_000);
    a
}

/// The answer without `stats.index`, and the files the index pruned.
pub(crate) fn answer(sb: &Sandbox, a: &GrepArgs) -> (Value, u64) {
    let r = sb.grep_search(a).unwrap();
    let pruned = r.stats.index.map_or(0, |i| i.files_pruned);
    let mut v = serde_json::to_value(&r).unwrap();
    v["stats"].as_object_mut().unwrap().remove("index");
    (v, pruned)
}

/// Asserts `on` answers as `off` for a few patterns; the files it pruned.
pub(crate) fn exact(off: &Sandbox, on: &Sandbox) -> u64 {
    let mut pruned = 0;
    for p in [
        "word1\\b",
        "word12",
        "common",
        "zebra_unique",
        "nothing here",
        // Held apart in `index_masks.rs`'s files: the position masks prune it.
        "struct file_operations",
    ] {
        let (x, n) = answer(on, &listing(p));
        assert_eq!(x, answer(off, &listing(p)).0, "{p}");
        pruned += n;
    }
    pruned
}

fn wait_until(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    false
}

/// The one saved file in `cache`.
pub(crate) fn saved_file(cache: &Path) -> PathBuf {
    let files: Vec<PathBuf> = fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

/// Indexes `root` with `cache`, waits, and lets the sandbox go (a run of the server).
pub(crate) fn first_run(root: &Path, cache: &Path) {
    let sb = indexed(root, cache, "secret*");
    assert!(sb.wait_for_index(crate::support::time::INDEX_WORK));
    let st = status(&sb);
    assert_eq!(st.snapshot.as_deref(), Some("saved"), "{st:?}");
}

/// Restarts with the root's build slowed down, waits until the saved index serves, and checks
/// the answers while it does: the files it pruned (the status said `from_snapshot` before and
/// after them).
pub(crate) fn served_from_snapshot(root: &Path, cache: &Path) -> u64 {
    let canonical = fs::canonicalize(root).unwrap();
    index_slow_at(Some(&canonical));
    let on = indexed(root, cache, "secret*");
    let loaded = wait_until(crate::support::time::INDEX_WORK, || {
        status(&on).from_snapshot
    });
    let pruned = loaded.then(|| exact(&sandbox(root, "secret*"), &on));
    let still = status(&on).from_snapshot;
    index_slow_at(None);
    assert!(loaded, "the saved index never served: {:?}", status(&on));
    assert!(still, "the build ended before the answers were checked");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    let st = status(&on);
    assert!(
        !st.from_snapshot && st.snapshot.as_deref() == Some("saved"),
        "{st:?}"
    );
    exact(&sandbox(root, "secret*"), &on);
    pruned.unwrap()
}

#[test]
fn a_restart_serves_the_saved_index_before_the_root_is_built_again() {
    let _one = SLOW.lock().unwrap_or_else(|e| e.into_inner());
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let cache = cache.path().join("rb");
    tree(dir.path(), 200);
    first_run(dir.path(), &cache);
    // Private to the user: the directory 0700, the file 0600.
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&cache), 0o700);
    assert_eq!(mode(&saved_file(&cache)), 0o600);
    // 200 files at 10 ms each: the build takes two seconds; the saved index serves at once.
    assert!(served_from_snapshot(dir.path(), &cache) > 0);
}

#[test]
fn a_file_changed_while_no_process_ran_is_searched_after_a_restart() {
    let _one = SLOW.lock().unwrap_or_else(|e| e.into_inner());
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    tree(dir.path(), 200);
    first_run(dir.path(), cache.path());
    // Rewritten in place, same size, its old mtime put back: only its ctime tells.
    let f = dir.path().join("d3/f3.txt");
    let old = fs::read(&f).unwrap();
    let mtime = fs::metadata(&f).unwrap().modified().unwrap();
    let mut new = b"zebra_unique".to_vec();
    new.extend_from_slice(&old[new.len()..]);
    fs::write(&f, &new).unwrap();
    fs::File::options()
        .write(true)
        .open(&f)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    // A file created meanwhile has no entry: searched too.
    fs::write(dir.path().join("d1/new.txt"), "zebra_unique too\n").unwrap();
    served_from_snapshot(dir.path(), cache.path());
    // Both are found (`exact` compared the indexed answers with this one).
    let (x, _) = answer(&sandbox(dir.path(), "secret*"), &listing("zebra_unique"));
    let found = x["matches"].as_str().unwrap();
    assert!(
        found.contains("d3/f3.txt") && found.contains("d1/new.txt"),
        "{x}"
    );
}

/// Restarts after `damage` (given the saved file) and checks the saved index was ignored, saying
/// `why`, and the answers are exact.
fn ignored_after(root: &Path, cache: &Path, why: &str, damage: impl FnOnce(&Path)) {
    damage(&saved_file(cache));
    let on = indexed(root, cache, "secret*");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    let st = status(&on);
    let said = st.snapshot.clone().unwrap_or_default();
    assert!(
        said.starts_with(&format!("ignored ({why}")),
        "{why}: {st:?}"
    );
    assert!(said.ends_with("saved"), "{st:?}");
    exact(&sandbox(root, "secret*"), &on);
}

#[test]
fn a_damaged_or_foreign_saved_index_is_ignored_and_answers_stay_exact() {
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (root, cache) = (dir.path(), cache.path());
    tree(root, 60);
    first_run(root, cache);
    let edit = |f: &Path, e: &dyn Fn(&mut Vec<u8>)| {
        let mut b = fs::read(f).unwrap();
        e(&mut b);
        fs::write(f, b).unwrap();
    };
    ignored_after(root, cache, "checksum", |f| {
        edit(f, &|b| {
            let n = b.len();
            b[n - 3] ^= 0x10
        })
    });
    ignored_after(root, cache, "truncated", |f| {
        edit(f, &|b| b.truncate(b.len() - 9))
    });
    ignored_after(root, cache, "format version", |f| edit(f, &|b| b[8] = 99));
    ignored_after(root, cache, "not a saved index", |f| {
        edit(f, &|b| b[0] = b'X')
    });
    // Another root's saved index, put in this one's place.
    let other = tempfile::tempdir().unwrap();
    tree(other.path(), 3);
    let other_cache = tempfile::tempdir().unwrap();
    first_run(other.path(), other_cache.path());
    ignored_after(root, cache, "saved for another root", |f| {
        fs::copy(saved_file(other_cache.path()), f).unwrap();
    });
    // Saved under other deny rules: another file; put in its place, it is ignored.
    let keep = fs::read(saved_file(cache)).unwrap();
    let sb = indexed(root, cache, "*.txt");
    assert!(sb.wait_for_index(crate::support::time::INDEX_WORK));
    assert_eq!(status(&sb).snapshot.as_deref(), Some("saved"));
    drop(sb);
    let under_rules: Vec<PathBuf> = fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    for f in &under_rules {
        fs::write(f, &keep).unwrap();
    }
    let sb = indexed(root, cache, "*.txt");
    assert!(sb.wait_for_index(crate::support::time::INDEX_WORK));
    let said = status(&sb).snapshot.unwrap_or_default();
    assert!(
        said.starts_with("ignored (saved under another policy"),
        "{said}"
    );
    exact(&sandbox(root, "*.txt"), &sb);
}

/// A FIFO planted with the saved index's name: the load does not wait for a writer (it did, for
/// ever: the root stayed `building` and its build never began); it is ignored, the root built,
/// and the save renames a file over it.
#[test]
fn a_fifo_with_the_saved_index_name_is_ignored_without_blocking() {
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (root, cache) = (dir.path(), cache.path());
    tree(root, 20);
    first_run(root, cache);
    let saved = saved_file(cache);
    fs::remove_file(&saved).unwrap();
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &saved,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .expect("mkfifo");
    let on = indexed(root, cache, "secret*");
    // Twenty small files: a generous bound for a build that, blocked, never ends.
    assert!(
        on.wait_for_index(Duration::from_secs(120)),
        "{:?}",
        status(&on)
    );
    let said = status(&on).snapshot.unwrap_or_default();
    assert!(said.starts_with("ignored (cannot be read"), "{said}");
    assert!(said.ends_with("saved"), "{said}");
    assert!(fs::metadata(&saved).unwrap().is_file());
    exact(&sandbox(root, "secret*"), &on);
}

#[test]
fn a_cache_directory_inside_a_root_or_writable_by_others_is_refused() {
    let (dir, outside) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    tree(dir.path(), 10);
    let refused = |cache: &Path, why: &str| {
        let sb = indexed(dir.path(), cache, "secret*");
        assert!(sb.wait_for_index(crate::support::time::INDEX_WORK));
        let st = status(&sb);
        let said = st.snapshot.clone().unwrap_or_default();
        assert!(
            said.starts_with("not kept: ") && said.contains(why),
            "{st:?}"
        );
        // The index is still built and used, in memory only.
        assert_eq!(st.state, "ready");
        exact(&sandbox(dir.path(), "secret*"), &sb);
    };
    // Inside the root: not created there either.
    let inside = dir.path().join("d1/cache");
    refused(&inside, "inside a root");
    assert!(!inside.exists());
    // Reached through a symlink from outside, or already there: the same directory.
    let link = outside.path().join("link");
    std::os::unix::fs::symlink(dir.path().join("d2"), &link).unwrap();
    refused(&link.join("cache"), "inside a root");
    refused(&link, "inside a root");
    // Writable by others.
    let open = outside.path().join("open");
    fs::create_dir(&open).unwrap();
    fs::set_permissions(&open, fs::Permissions::from_mode(0o777)).unwrap();
    refused(&open, "writable by group or others");
    assert_eq!(fs::read_dir(&open).unwrap().count(), 0);
}

/// Two agents of one config file: agent `a`'s cache directory inside agent `b`'s write root (or
/// read root) is refused as one inside `a`'s own roots is, and not created: `b` could read the
/// saved index (`a`'s file names), delete it or put a crafted one in its place (it was kept).
#[test]
fn a_cache_directory_inside_another_agents_root_is_refused() {
    use rootbound::config::{Config, Format};
    let base = tempfile::tempdir().unwrap();
    let b = base.path();
    for d in ["ra", "bw", "br"] {
        fs::create_dir(b.join(d)).unwrap();
    }
    tree(&b.join("ra"), 5);
    for (dir, section) in [("bw", "[agents.b.write]\nroot = \"bw\""), ("br", "")] {
        let cache = b.join(dir).join("cache");
        let text = format!(
            "[agents.a]\nroots = [\"ra\"]\nindex = true\nindex_dir = \"{}\"\n\
             [agents.a.tools.grep_search]\n\
             [agents.b]\nroots = [\"br\"]\n[agents.b.tools.read_file]\n{section}\n",
            cache.display()
        );
        let config = Config::parse(&text, Format::Toml, b).unwrap();
        let tools = config.agent(Some("a")).unwrap().build().unwrap();
        let sb = tools.sandbox_for("grep_search").unwrap();
        assert!(sb.wait_for_index(crate::support::time::INDEX_WORK));
        let st = status(sb);
        let said = st.snapshot.clone().unwrap_or_default();
        assert!(
            said.starts_with("not kept: ") && said.contains("inside a root"),
            "{dir}: {st:?}"
        );
        assert!(!cache.exists(), "{dir}");
        assert_eq!(st.state, "ready");
    }
}

/// Rewrites `f` with the same size and its old mtime put back (only its ctime tells).
fn rewrite_keeping_mtime(f: &Path) {
    let old = fs::read(f).unwrap();
    let mtime = fs::metadata(f).unwrap().modified().unwrap();
    let mut new = b"zebra_unique".to_vec();
    new.extend_from_slice(&old[new.len()..]);
    fs::write(f, &new).unwrap();
    fs::File::options()
        .write(true)
        .open(f)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
}

/// The build that follows a load takes each unchanged file's entry from the saved index: it reads
/// only the files whose stat moved (even by the ctime alone) and those that appeared, and the
/// index it makes answers exactly.
#[test]
fn the_build_after_a_restart_reads_only_the_files_that_changed() {
    let _one = SLOW.lock().unwrap_or_else(|e| e.into_inner());
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let root = dir.path();
    tree(root, 200);
    first_run(root, cache.path());
    let f = root.join("d3/f3.txt");
    rewrite_keeping_mtime(&f);
    let new = root.join("d1/new.txt");
    fs::write(&new, "zebra_unique too\n").unwrap();
    // The two files are out of the racy window without a sleep.
    index_age_at(&fs::canonicalize(root).unwrap(), Duration::from_secs(5));
    let on = indexed(root, cache.path(), "secret*");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    let st = status(&on);
    assert!(
        !st.from_snapshot && st.snapshot.as_deref() == Some("saved"),
        "{st:?}"
    );
    let changed = fs::metadata(&f).unwrap().len() + fs::metadata(&new).unwrap().len();
    assert_eq!(st.bytes_read, changed, "{st:?}");
    // Every visible file has an entry: 200 and the new one (the denied one has none).
    assert_eq!(st.files, 201, "{st:?}");
    assert!(exact(&sandbox(root, "secret*"), &on) > 0);
    // And that index, saved, serves the next restart.
    drop(on);
    served_from_snapshot(root, cache.path());
}

/// A root whose index absorbed changes is saved again once they settle: a restart then loads a
/// saved index that holds them (the changed file and the new one are pruned, not searched).
#[test]
fn changes_absorbed_are_saved_and_a_restart_loads_them() {
    let _one = SLOW.lock().unwrap_or_else(|e| e.into_inner());
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let root = dir.path();
    tree(root, 200);
    let on = indexed(root, cache.path(), "secret*");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    assert!(status(&on).events, "{:?}", status(&on));
    fs::write(root.join("d3/f3.txt"), "changed gamma\n").unwrap();
    fs::write(root.join("d1/new.txt"), "delta new\n").unwrap();
    let canonical = fs::canonicalize(root).unwrap();
    // Out of the racy window, and past the least time between two saves, without a sleep.
    index_age_at(&canonical, Duration::from_secs(120));
    // Queries drain the change reports; the save follows once they settle.
    let end = Instant::now() + crate::support::time::INDEX_WORK;
    let mut said = None;
    while Instant::now() < end {
        exact(&sandbox(root, "secret*"), &on);
        said = status(&on).snapshot;
        if said.as_deref() == Some("saved after changes") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(said.as_deref(), Some("saved after changes"));
    drop(on);
    index_slow_at(Some(&canonical));
    let again = indexed(root, cache.path(), "secret*");
    let loaded = wait_until(crate::support::time::INDEX_WORK, || {
        status(&again).from_snapshot
    });
    let (_, pruned) = answer(&again, &listing("nothing here"));
    let st = status(&again);
    index_slow_at(None);
    assert!(loaded && st.from_snapshot, "{st:?}");
    // Every visible file pruned: the saved index describes the changed one and the new one.
    assert_eq!((pruned, st.files), (201, 201), "{st:?}");
    exact(&sandbox(root, "secret*"), &again);
}

/// A save's temporary files left by a process that died are removed by the next save; nothing
/// else in the cache directory is touched.
#[test]
fn a_crashed_saves_temporary_file_is_removed_and_nothing_else() {
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    tree(dir.path(), 10);
    let name = "0123456789abcdef-fedcba9876543210.rbindex";
    let stale = [
        format!(".{name}.999999999.0.tmp"),
        format!(".{name}.4294967295.12.tmp"),
    ];
    // Not temporary files of a save, or of a process alive (pid 1), or not regular files.
    let kept = [
        "notes.txt".to_string(),
        format!(".{name}.999999999.x.tmp"),
        format!(".{name}.999999999.0.tmp.bak"),
        format!(".{name}.1.0.tmp"),
        ".other.rbindex.999999999.0.tmp".to_string(),
        format!(".{}.999999999.0.tmp", &name[1..]),
        name.to_string(),
    ];
    for f in stale.iter().chain(&kept) {
        fs::write(cache.path().join(f), "x").unwrap();
    }
    let a_dir = format!(".{name}.999999998.0.tmp");
    fs::create_dir(cache.path().join(&a_dir)).unwrap();
    first_run(dir.path(), cache.path());
    let left: std::collections::BTreeSet<String> = fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    for f in &stale {
        assert!(!left.contains(f), "{f} left: {left:?}");
    }
    for f in kept.iter().chain([&a_dir]) {
        assert!(left.contains(f), "{f} removed: {left:?}");
    }
    // And the one saved.
    assert_eq!(left.len(), kept.len() + 2, "{left:?}");
}

/// A save's temporary files left by an earlier process with this process's own id (a server
/// killed mid-save and started again in a container is pid 1 both times; any pid comes round
/// again): the next save is not refused when its temporary file's name comes up ("File exists",
/// the root's index then kept unsaved), and the next save removes them, as those of a dead
/// process. Before, neither: each start's save whose number met one failed, and the files were
/// never removed, since a file of this pid was taken for a save under way.
#[test]
fn temporary_files_of_an_earlier_process_with_this_pid_are_no_obstacle_and_removed() {
    let _one = SLOW.lock().unwrap_or_else(|e| e.into_inner());
    let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    tree(dir.path(), 10);
    first_run(dir.path(), cache.path());
    let saved = saved_file(cache.path());
    let name = saved.file_name().unwrap().to_str().unwrap().to_string();
    // Every number the process's counter of saves can be at here (other tests' saves move it),
    // written an hour ago.
    let pid = std::process::id();
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    for n in 0..4096 {
        let p = cache.path().join(format!(".{name}.{pid}.{n}.tmp"));
        fs::write(&p, "partial").unwrap();
        fs::File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    // The next start saves (`first_run` asserts it) and leaves only its file.
    first_run(dir.path(), cache.path());
    let left: Vec<String> = fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, vec![name]);
    served_from_snapshot(dir.path(), cache.path());
}
