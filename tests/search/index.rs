//! The n-gram index: with it, every grep answer is byte for byte the unindexed one
//! (results, truncated, counts, cursors, stats other than `stats.index`), and it is fresh: a change
//! made after indexing is seen by the next query.

use rootbound::{
    GrepArgs, IndexOptions, IndexVerify, IndexWhen, OutputMode, Sandbox, WriteArgs, WritePolicy,
};
use serde_json::Value;
use std::fs;
use std::path::Path;
use std::time::Duration;

const WORDS: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "mutex_lock",
    "kmalloc",
    "PM_RESUME",
    "copy_from_user",
    "TODO",
    "struct file_operations",
    "EXPORT_SYMBOL_GPL",
    "Kelvin",
    "mask",
    "MAſK",
    "spin_lock_irq(",
];

fn tree(dir: &Path) {
    let mut rng = crate::support::data::XorShift::new(7);
    let mut rnd = |n: usize| rng.below(n as u64) as usize;
    for d in [
        "",
        "a",
        "a/b",
        "c",
        "c/deep/er",
        ".hidden",
        "ignored_dir",
        "sub",
        "sub/x",
    ] {
        fs::create_dir_all(dir.join(d)).unwrap();
    }
    for i in 0..60 {
        let d = [
            "",
            "a",
            "a/b",
            "c",
            "c/deep/er",
            ".hidden",
            "ignored_dir",
            "sub",
            "sub/x",
        ][i % 9];
        let mut text = String::new();
        for l in 0..(1 + rnd(12)) {
            for _ in 0..rnd(5) {
                text.push_str(WORDS[rnd(WORDS.len())]);
                text.push(' ');
            }
            text.push_str(&format!("line {l}\n"));
        }
        fs::write(dir.join(d).join(format!("f{i}.txt")), text).unwrap();
    }
    fs::write(dir.join("bin_early"), b"\0alpha beta\n").unwrap();
    let mut late = b"kmalloc first\n".to_vec();
    late.extend(std::iter::repeat_n(b'x', 20000));
    late.extend(b"\0 after PM_RESUME\n");
    fs::write(dir.join("a/late_nul_match"), &late).unwrap();
    let mut late2 = b"nothing here\n".to_vec();
    late2.extend(std::iter::repeat_n(b'y', 20000));
    late2.extend(b"\0 PM_RESUME after the nul\n");
    fs::write(dir.join("a/late_nul_nomatch"), &late2).unwrap();
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            "mutex_lock in utf16\n"
                .encode_utf16()
                .flat_map(|u| u.to_le_bytes()),
        )
        .collect();
    fs::write(dir.join("c/utf16.txt"), utf16).unwrap();
    fs::write(dir.join("c/bom8.txt"), b"\xEF\xBB\xBFgamma with bom\n").unwrap();
    fs::write(dir.join("big.txt"), "copy_from_user ".repeat(4000)).unwrap();
    fs::write(dir.join("linked.txt"), "TODO hard linked\n").unwrap();
    fs::hard_link(dir.join("linked.txt"), dir.join("c/linked_too.txt")).unwrap();
    std::os::unix::fs::symlink("f0.txt", dir.join("sym.txt")).unwrap();
    fs::write(dir.join(".gitignore"), "ignored_dir/\n*.log\n").unwrap();
    fs::write(dir.join("x.log"), "alpha in a log\n").unwrap();
    fs::write(dir.join("sub/.ignore"), "x/\n").unwrap();
    fs::write(dir.join("secret.txt"), "alpha PM_RESUME kmalloc secret\n").unwrap();
    fs::write(dir.join("a/.env"), "kmalloc=1\n").unwrap();
}

/// Past the index's racy window of two seconds (a file changed more recently is not described:
/// its next change could keep its timestamps).
const AGE: Duration = Duration::from_millis(2100);

/// Ages the files under `dir` past the racy window for the index of the roots `dir` and
/// `dir/sub` (the sandboxes' roots), by moving those roots' index clock, not by sleeping.
fn age(dir: &Path) {
    let dir = dir.canonicalize().unwrap();
    rootbound::index_age_at(&dir, AGE);
    rootbound::index_age_at(&dir.join("sub"), AGE);
}

fn sandboxes(dir: &Path) -> (Sandbox, Sandbox) {
    sandboxes_with(dir, IndexOptions::default())
}

fn sandboxes_with(dir: &Path, options: IndexOptions) -> (Sandbox, Sandbox) {
    let build = || {
        Sandbox::builder()
            .root(dir)
            .root(dir.join("sub"))
            .deny("secret*")
            .write({
                let mut w = WritePolicy::new(dir);
                w.allow_overwrite = true;
                w
            })
            .threads(2)
            .build()
            .unwrap()
    };
    let on = build().with_index_options(options);
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    assert!(
        on.index_status().iter().all(|s| s.state == "ready"),
        "{:?}",
        on.index_status()
    );
    (build(), on)
}

fn run(sb: &Sandbox, a: &GrepArgs) -> Value {
    match sb.grep_search(a) {
        Ok(r) => serde_json::to_value(&r).unwrap(),
        Err(e) => serde_json::json!({"error": format!("{:?}", e.code)}),
    }
}

/// What the index did for a set of calls.
#[derive(Default, Debug)]
struct Served {
    pruned: u64,
    replayed: u64,
}

/// Both answers, every page of a cursor walk; the indexed one twice: as it comes (the walk of a
/// new key is recorded in the background meanwhile), then once recording is over (replayed).
fn same(off: &Sandbox, on: &Sandbox, a: &GrepArgs) -> Served {
    let mut a = a.clone();
    let mut served = Served::default();
    for _ in 0..200 {
        let x = run(off, &a);
        for pass in 0..2 {
            if pass == 1 {
                assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
            }
            let mut y = run(on, &a);
            if let Some(ix) = y
                .pointer_mut("/stats")
                .and_then(|s| s.as_object_mut())
                .and_then(|s| s.remove("index"))
            {
                served.pruned += ix["files_pruned"].as_u64().unwrap();
                served.replayed += ix["walks_replayed"].as_u64().unwrap();
            }
            assert_eq!(
                x,
                y,
                "pass {pass}, args {}",
                serde_json::to_string(&a).unwrap()
            );
        }
        match x["next_cursor"].as_str() {
            Some(c) => a.cursor = Some(c.into()),
            None => break,
        }
    }
    served
}

fn args(p: &str, f: impl Fn(&mut GrepArgs)) -> GrepArgs {
    let mut a = GrepArgs::new(p);
    f(&mut a);
    a
}

fn cases() -> Vec<GrepArgs> {
    let patterns = [
        "alpha",
        "PM_RESUME",
        "mutex_lock",
        r"\bkmalloc\(",
        r"\w+_lock_irq\w*\(",
        "kmalloc|TODO",
        "struct file_op",
        "gamma",
        "Kelvin",
        "kelvin",
        "mask",
        "copy_from_user",
        "nothing at all",
        r"\p{Greek}",
        "line 1",
        "a.p.a",
        "(?i)pm_resume",
        "x{3}",
    ];
    let mut out = Vec::new();
    for p in patterns {
        for mode in [
            OutputMode::Content,
            OutputMode::FilesWithMatches,
            OutputMode::Count,
        ] {
            for limit in [1u64, 3, 100] {
                out.push(args(p, |a| {
                    a.output_mode = Some(mode);
                    a.limit = Some(limit);
                }));
            }
        }
        out.push(args(p, |a| a.case_insensitive = Some(true)));
        out.push(args(p, |a| a.smart_case = Some(true)));
        out.push(args(p, |a| a.word = Some(true)));
        out.push(args(p, |a| a.line_regexp = Some(true)));
        out.push(args(p, |a| a.fixed_strings = Some(true)));
        out.push(args(p, |a| {
            a.multiline = Some(true);
            a.limit = Some(4);
        }));
        out.push(args(p, |a| {
            a.context = Some(1);
            a.limit = Some(2);
        }));
        out.push(args(p, |a| {
            a.offset = Some(2);
            a.before = Some(1);
        }));
        out.push(args(p, |a| a.hidden = Some(true)));
        out.push(args(p, |a| a.no_ignore = Some(true)));
        out.push(args(p, |a| {
            a.include = Some(rootbound::Globs::One("*.txt".into()))
        }));
        out.push(args(p, |a| a.max_filesize = Some(1000)));
        out.push(args(p, |a| a.max_depth = Some(1)));
        out.push(args(p, |a| a.max_depth = Some(2)));
        out.push(args(p, |a| a.path = Some("a".into())));
        out.push(args(p, |a| a.invert = Some(true)));
        out.push(args(p, |a| {
            a.output_mode = Some(OutputMode::FilesWithoutMatch)
        }));
        out.push(args(p, |a| a.max_count = Some(1)));
        out.push(args(p, |a| {
            a.patterns = Some(vec!["gamma".into(), "beta".into()])
        }));
    }
    out
}

#[test]
fn indexed_answers_are_the_unindexed_ones() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path());
    // Files changed in the last two seconds are not indexed (their next change could keep the
    // timestamps): let the tree age.
    age(dir.path());
    let (off, on) = sandboxes(dir.path());
    let (mut pruned, mut replayed) = (0, 0);
    for a in cases() {
        let s = same(&off, &on, &a);
        pruned += s.pruned;
        replayed += s.replayed;
    }
    assert!(pruned > 1000, "the index pruned only {pruned} files");
    // Change reports serve this filesystem (ext4 or tmpfs), and the walks of repeated keys were
    // replayed, on every page of cursor walks too.
    assert!(
        on.index_status().iter().all(|s| s.events),
        "{:?}",
        on.index_status()
    );
    assert!(replayed > 500, "only {replayed} walks were replayed");
    // Denied files have no entry: the index holds only what the walk yields.
    let st = on.index_status();
    assert_eq!(st.len(), 2);
    let files: u64 = st.iter().map(|s| s.files).sum();
    assert!(files > 40 && files < 80, "{st:?}");
}

#[test]
fn changes_after_indexing_are_seen() {
    changes_are_seen(IndexOptions::default());
}

/// The same changes with replay off: every query walks and checks each pruned file's metadata.
#[test]
fn changes_after_indexing_are_seen_in_strict_mode() {
    changes_are_seen(IndexOptions::default().verify(IndexVerify::Strict));
}

fn changes_are_seen(options: IndexOptions) {
    let strict = options.verify == IndexVerify::Strict;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tree(d);
    fs::write(d.join("keep_mtime.txt"), "nothing\n").unwrap();
    fs::write(d.join("trunc.txt"), "zebra_word here\n").unwrap();
    fs::create_dir_all(d.join("mv/inner")).unwrap();
    fs::write(d.join("mv/inner/m.txt"), "plain\n").unwrap();
    age(d);
    let (off, on) = sandboxes_with(d, options);
    let status = on.index_status();
    if strict {
        assert!(status.iter().all(|s| !s.events), "{status:?}");
        assert!(
            status
                .iter()
                .all(|s| s.events_reason.as_deref().unwrap().contains("strict")),
            "{status:?}"
        );
    }
    let replayed = std::cell::Cell::new(0);
    let check = |p: &str| {
        for mode in [
            OutputMode::Content,
            OutputMode::FilesWithMatches,
            OutputMode::Count,
        ] {
            let s = same(&off, &on, &args(p, |a| a.output_mode = Some(mode)));
            replayed.set(replayed.get() + s.replayed);
        }
        let count = args(p, |a| {
            a.output_mode = Some(OutputMode::Count);
            a.limit = Some(100);
        });
        serde_json::to_value(on.grep_search(&count).unwrap()).unwrap()["total"]
            .as_u64()
            .unwrap_or(0)
    };
    assert_eq!(check("zebra_word"), 1);
    // Append.
    let mut f = fs::OpenOptions::new()
        .append(true)
        .open(d.join("f9.txt"))
        .unwrap();
    std::io::Write::write_all(&mut f, b"zebra_word appended\n").unwrap();
    drop(f);
    assert_eq!(check("zebra_word"), 2);
    // Truncate.
    fs::write(d.join("trunc.txt"), "").unwrap();
    assert_eq!(check("zebra_word"), 1);
    // Same size, mtime put back (touch -r): the ctime still moves.
    let before = fs::metadata(d.join("keep_mtime.txt"))
        .unwrap()
        .modified()
        .unwrap();
    fs::write(d.join("keep_mtime.txt"), "zebra_w\n").unwrap();
    fs::File::options()
        .write(true)
        .open(d.join("keep_mtime.txt"))
        .unwrap()
        .set_modified(before)
        .unwrap();
    assert_eq!(check("zebra_w"), 2);
    // Replace by rename.
    fs::write(d.join("tmp.new"), "zebra_word by rename\n").unwrap();
    fs::rename(d.join("tmp.new"), d.join("a/b/f2.txt")).unwrap();
    assert_eq!(check("zebra_word"), 2);
    // Create, delete.
    fs::write(d.join("c/new.txt"), "zebra_word new\n").unwrap();
    assert_eq!(check("zebra_word"), 3);
    fs::remove_file(d.join("c/new.txt")).unwrap();
    assert_eq!(check("zebra_word"), 2);
    // Rename a directory.
    fs::write(d.join("mv/inner/m.txt"), "zebra_word moved\n").unwrap();
    fs::rename(d.join("mv"), d.join("moved")).unwrap();
    assert_eq!(check("zebra_word"), 3);
    // An ignore-file change (`.gitignore` applies only in a git repository): the walk applies the
    // rules of now.
    fs::write(d.join(".ignore"), "moved/\n").unwrap();
    assert_eq!(check("zebra_word"), 2);
    fs::write(d.join(".ignore"), "").unwrap();
    assert_eq!(check("zebra_word"), 3);
    check("alpha");
    // rootbound's own writes: a new file, then an overwrite of an indexed one.
    let write = |path: &str, content: &str| {
        let mut w = WriteArgs::default();
        w.path = path.into();
        w.content = content.into();
        w.overwrite = Some(true);
        on.write_file(&w).unwrap();
    };
    write("c/own.txt", "zebra_word own\n");
    assert_eq!(check("zebra_word"), 4);
    write("f18.txt", "zebra_word overwritten\n");
    assert_eq!(check("zebra_word"), 5);
    check("PM_RESUME");
    // A file written while its walk is replayed (content only: the walk still holds).
    let n = replayed.get();
    fs::write(d.join("f27.txt"), "zebra_word rewritten\n").unwrap();
    assert_eq!(check("zebra_word"), 6);
    if strict {
        assert_eq!(replayed.get(), 0, "strict mode replayed a walk");
    } else {
        assert!(
            replayed.get() > n,
            "the walk was not replayed after a content change"
        );
    }
    // A directory made unreadable and readable again: the walk counts it, then enters it.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if !rustix_is_root() {
            fs::set_permissions(d.join("c/deep"), fs::Permissions::from_mode(0o000)).unwrap();
            check("zebra_word");
            check("alpha");
            fs::set_permissions(d.join("c/deep"), fs::Permissions::from_mode(0o755)).unwrap();
            check("alpha");
        }
    }
    // A hard link made to an indexed file, then a write through it.
    fs::hard_link(d.join("f36.txt"), d.join("c/f36_link.txt")).unwrap();
    fs::write(d.join("c/f36_link.txt"), "zebra_word through a link\n").unwrap();
    assert_eq!(check("zebra_word"), 8);
}

/// Whether the tests run as root (who reads a mode-000 directory anyway).
fn rustix_is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .map(|s| {
            s.lines()
                .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
        })
        .unwrap_or(false)
}

/// The test tree inside a repository with an empty `.git/info/exclude`, and `c/zz.txt` holding
/// `zebra_word` (for the exclude file to name later).
fn repository_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tree(d);
    fs::create_dir_all(d.join(".git/info")).unwrap();
    fs::write(d.join(".git/info/exclude"), "").unwrap();
    fs::write(d.join("c/zz.txt"), "zebra_word excluded later\n").unwrap();
    dir
}

/// `.git/info/exclude` decides what a walk yields inside a repository: a change to it is seen by
/// the next (replayed) query.
#[test]
fn a_repository_exclude_file_change_is_seen() {
    let dir = repository_tree();
    let d = dir.path();
    age(d);
    let (off, on) = sandboxes(d);
    let count = |sb: &Sandbox| {
        let a = args("zebra_word", |a| {
            a.output_mode = Some(OutputMode::FilesWithMatches)
        });
        same(&off, &on, &a);
        sb.grep_search(&a).unwrap().matches.lines().count()
    };
    assert_eq!(count(&on), 1);
    fs::write(d.join(".git/info/exclude"), "zz.txt\n").unwrap();
    assert_eq!(count(&on), 0);
    fs::write(d.join(".git/info/exclude"), "").unwrap();
    assert_eq!(count(&on), 1);
}

/// The rules of a walk change with no event under their file's own name (found by an attack
/// pass): `.git/info/exclude` in a directory a walk with hidden files read first (watched as a
/// walked directory, where only `.gitignore`-like names changed the walk), and an ignore file
/// that is a hard link, written through its other name. The next query sees either.
#[test]
fn rules_changed_under_another_name_or_role_are_seen() {
    let dir = repository_tree();
    let d = dir.path();
    fs::create_dir_all(d.join("rules")).unwrap();
    fs::write(d.join("rules/kept.txt"), "").unwrap();
    fs::write(d.join("c/zy.txt"), "zebra_word ignored later\n").unwrap();
    age(d);
    let (off, on) = sandboxes(d);
    let replayed = std::cell::Cell::new(0);
    let listing = |hidden: bool| {
        let a = args("zebra_word", |a| {
            a.output_mode = Some(OutputMode::FilesWithMatches);
            a.hidden = Some(hidden);
        });
        same(&off, &on, &a);
        replayed.set(replayed.get() + same(&off, &on, &a).replayed);
        run(&off, &a)["matches"].as_str().unwrap().to_string()
    };
    listing(true);
    assert!(listing(false).contains("zz.txt"));
    assert!(replayed.get() > 0);
    fs::write(d.join(".git/info/exclude"), "zz.txt\n").unwrap();
    assert!(!listing(false).contains("zz.txt"));
    fs::hard_link(d.join("rules/kept.txt"), d.join("c/.ignore")).unwrap();
    assert!(listing(false).contains("zy.txt"));
    fs::write(d.join("rules/kept.txt"), "zy.txt\n").unwrap();
    assert!(!listing(false).contains("zy.txt"));
}

/// A dialect's rule file (Gemini CLI's `.geminiignore`, read by the gemini-cli profile's walks) is
/// one of the walker's rule files: a change to it is seen by the next indexed search exactly as a
/// `.gitignore` change is (the watcher reports it as a change of the tree's shape, not of a
/// file's content), and the indexed answer stays the unindexed one.
#[test]
fn a_geminiignore_change_is_seen_by_an_indexed_search() {
    use rootbound::config::AgentTools;
    use rootbound::Profile;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tree(d);
    fs::write(d.join("c/zz.txt"), "zebra_word gemini\n").unwrap();
    // There before the index: later changes are writes to it, not a new name in the directory.
    fs::write(d.join(".geminiignore"), "").unwrap();
    age(d);
    let (off, on) = sandboxes(d);
    let waiter = on.clone();
    let gemini = |sb: Sandbox| AgentTools::from_sandbox(sb).with_profile(Profile::GeminiCli);
    let (off, on) = (gemini(off), gemini(on));
    let call = serde_json::json!({"pattern": "zebra_word", "names_only": true});
    let listing = || {
        let want = off.present("grep_search", call.clone()).unwrap().text();
        // As it comes (the walk recorded meanwhile), then replayed once recording is over.
        for pass in 0..2 {
            if pass == 1 {
                assert!(waiter.wait_for_index(Duration::from_secs(60)));
            }
            let got = on.present("grep_search", call.clone()).unwrap().text();
            assert_eq!(got, want, "pass {pass}");
        }
        want
    };
    assert!(listing().contains("zz.txt"));
    assert!(listing().contains("zz.txt"));
    fs::write(d.join(".geminiignore"), "zz.txt\n").unwrap();
    assert!(!listing().contains("zz.txt"));
    fs::write(d.join(".geminiignore"), "").unwrap();
    assert!(listing().contains("zz.txt"));
}

/// `IndexWhen::Auto` indexes a root on a filesystem that reports changes and leaves one that does
/// not (procfs here) unindexed, saying why; `Always` indexes both, the second without events.
#[cfg(target_os = "linux")]
#[test]
fn auto_indexes_only_roots_whose_filesystem_reports_changes() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path());
    age(dir.path());
    rootbound::index_age_at(Path::new("/proc/sys/fs"), AGE);
    let build = || {
        Sandbox::builder()
            .root(dir.path())
            .root("/proc/sys/fs")
            .build()
            .unwrap()
    };
    let auto = build().with_index_options(IndexOptions::default().when(IndexWhen::Auto));
    assert!(auto.wait_for_index(crate::support::time::INDEX_WORK));
    let st = auto.index_status();
    assert_eq!(st[0].state, "ready", "{st:?}");
    assert!(st[0].events, "{st:?}");
    assert_eq!(st[1].state, "off", "{st:?}");
    assert!(
        st[1]
            .reason
            .as_deref()
            .unwrap()
            .starts_with("index = auto:"),
        "{st:?}"
    );
    let always = build().with_index();
    assert!(always.wait_for_index(crate::support::time::INDEX_WORK));
    let st = always.index_status();
    assert_eq!(st[1].state, "ready", "{st:?}");
    assert!(!st[1].events, "{st:?}");
    assert!(st[1].events_reason.is_some(), "{st:?}");
}

#[test]
fn status_is_reported_and_over_the_cap_the_root_is_not_indexed() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path());
    age(dir.path());
    let limits = rootbound::Limits {
        index_max_bytes: 1000,
        ..Default::default()
    };
    let sb = Sandbox::builder()
        .root(dir.path())
        .limits(limits)
        .build()
        .unwrap()
        .with_index();
    assert!(sb.wait_for_index(crate::support::time::INDEX_WORK));
    let st = sb.index_status();
    assert_eq!(st[0].state, "off");
    assert!(st[0].reason.as_deref().unwrap().contains("index_max_bytes"));
    // Unindexed, and said so by the absence of stats.index.
    let r = sb.grep_search(&GrepArgs::new("alpha")).unwrap();
    assert!(r.stats.index.is_none());
    // list_roots carries the state; without an index it has no `index` field.
    let roots = serde_json::to_value(sb.list_roots(&Default::default()).unwrap()).unwrap();
    assert_eq!(roots["roots"][0]["index"]["state"], "off");
    let plain = Sandbox::builder().root(dir.path()).build().unwrap();
    let roots = serde_json::to_value(plain.list_roots(&Default::default()).unwrap()).unwrap();
    assert!(roots["roots"][0].get("index").is_none());
}

/// Replayed pages cut by a tiny time budget, walked by cursor, together hold every result exactly
/// once and in order: the files the index vouches for travel as runs, and a run waiting when the
/// deadline passes is neither lost nor counted twice, and every call advances.
#[test]
fn replayed_pages_cut_by_the_deadline_lose_no_file_and_always_advance() {
    let dir = tempfile::tempdir().unwrap();
    let mut want = Vec::new();
    for d in 0..20 {
        for f in 0..60 {
            let rel = format!("d{d:02}/f{f:02}.txt");
            let hit = (d * 60 + f) % 7 == 0;
            let body = if hit { "needle\n" } else { "hay and straw\n" };
            let p = dir.path().join(&rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(&p, body).unwrap();
            if hit {
                want.push(rel);
            }
        }
    }
    want.sort();
    age(dir.path());
    let on = Sandbox::builder()
        .root(dir.path())
        .threads(2)
        .build()
        .unwrap()
        .with_index();
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    let base = dir.path().to_str().unwrap().to_string();
    let mut replayed = 0;
    for mode in [
        OutputMode::FilesWithMatches,
        OutputMode::Content,
        OutputMode::Count,
    ] {
        // The first query of the walk's key records it; the timed calls replay it.
        on.grep_search(&args("needle", |a| a.output_mode = Some(mode)))
            .unwrap();
        assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
        for ms in [1, 2, 4, 8] {
            let mut cursor: Option<String> = None;
            let (mut found, mut calls) = (Vec::new(), 0);
            loop {
                calls += 1;
                assert!(
                    calls <= 1_300,
                    "{mode:?} in {ms} ms: no end after {calls} calls"
                );
                let r = on
                    .grep_search(&args("needle", |a| {
                        a.output_mode = Some(mode);
                        a.limit = Some(20);
                        a.timeout_ms = Some(ms);
                        a.cursor = cursor.clone();
                    }))
                    .unwrap();
                replayed += r.stats.index.map_or(0, |i| i.walks_replayed);
                for l in r.matches.lines() {
                    let l = l.strip_suffix(":1:needle").unwrap_or(l);
                    let l = l.strip_suffix(":1").unwrap_or(l);
                    found.push(
                        l.strip_prefix(base.as_str())
                            .unwrap()
                            .trim_start_matches('/')
                            .to_string(),
                    );
                }
                if !r.truncated {
                    break;
                }
                cursor = Some(r.next_cursor.expect("a cursor"));
            }
            let missing: Vec<_> = want.iter().filter(|w| !found.contains(w)).collect();
            assert!(missing.is_empty(), "{mode:?} in {ms} ms: lost {missing:?}");
            assert_eq!(found.len(), want.len(), "{mode:?} in {ms} ms: repeated");
            assert!(found.is_sorted(), "{mode:?} in {ms} ms: out of order");
        }
    }
    assert!(replayed > 0, "no walk was replayed");
}

/// How many files the index passed over in a listing of the whole tree for `p` (every answer is
/// also compared with the unindexed one).
fn pruned_in_tree(off: &Sandbox, on: &Sandbox, p: &str) -> u64 {
    let a = args(p, |a| {
        a.output_mode = Some(OutputMode::FilesWithMatches);
        a.limit = Some(10_000);
    });
    same(off, on, &a);
    let r = on.grep_search(&a).unwrap();
    r.stats.index.map_or(0, |i| i.files_pruned)
}

/// A file changed after indexing is searched until it is described again in the background; from
/// then on it is pruned by what it holds now, and a later change is seen at once: a description
/// never outlives the content it describes.
#[test]
fn changed_files_are_described_again_and_a_later_change_is_seen() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tree(d);
    fs::write(d.join("x.txt"), "alpha only\n").unwrap();
    age(d);
    let (off, on) = sandboxes(d);
    let pruned = |p: &str| pruned_in_tree(&off, &on, p);
    // Record the walk, then change the file: it no longer holds alpha, now zebra_word.
    pruned("alpha");
    pruned("zebra_word");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    let alpha = pruned("alpha");
    let zebra = pruned("zebra_word");
    fs::write(d.join("x.txt"), "zebra_word now\n").unwrap();
    // Changed in the last two seconds: searched, and not described yet.
    assert_eq!(pruned("zebra_word"), zebra - 1);
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    assert_eq!(pruned("alpha"), alpha);
    let memory = |sb: &Sandbox| sb.index_status().iter().map(|s| s.memory).sum::<u64>();
    let before = memory(&on);
    age(d);
    // This query starts the description; once it is in place, the file is pruned for the pattern
    // it no longer holds, and searched for the one it holds.
    pruned("zebra_word");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    assert_eq!(pruned("alpha"), alpha + 1, "x.txt was described again");
    assert_eq!(pruned("zebra_word"), zebra - 1, "x.txt holds zebra_word");
    // The status counts the description's memory.
    assert!(memory(&on) > before, "{} <= {before}", memory(&on));
    // A change after the description is seen by the next query, whichever way it goes.
    fs::write(d.join("x.txt"), "alpha again\n").unwrap();
    assert_eq!(pruned("alpha"), alpha);
    assert_eq!(pruned("zebra_word"), zebra - 1);
    fs::write(d.join("x.txt"), "zebra_word again\n").unwrap();
    assert_eq!(pruned("zebra_word"), zebra - 1);
    assert_eq!(pruned("alpha"), alpha);
}

/// Events lost to a full inotify queue: the kernel drops every event past
/// `fs.inotify.max_queued_events` and queues one overflow event instead. A change whose event was
/// dropped is still seen by the next query (the overflow makes every recorded walk stale: the
/// query walks and verifies each pruned file's metadata).
#[test]
fn a_change_whose_event_the_full_queue_dropped_is_seen() {
    use std::os::unix::fs::FileExt;
    let max: usize = fs::read_to_string("/proc/sys/fs/inotify/max_queued_events")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(16_384);
    if max > 1 << 20 {
        eprintln!("max_queued_events is {max}: too many events to fill the queue in a test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tree(d);
    fs::write(d.join("x.txt"), "nothing yet\n").unwrap();
    fs::write(d.join("noise_a"), "n").unwrap();
    fs::write(d.join("noise_b"), "n").unwrap();
    age(d);
    let (off, on) = sandboxes(d);
    let needle = args("overflow_needle", |a| {
        a.output_mode = Some(OutputMode::FilesWithMatches)
    });
    // Recorded, then replayed with x.txt passed over unopened.
    same(&off, &on, &needle);
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    let before = same(&off, &on, &needle);
    assert!(before.replayed > 0 && before.pruned > 0, "{before:?}");
    // Fill the queue (two files in turn: the kernel merges an event only with the one before it),
    // then change x.txt: its event is dropped.
    let (a, b) = (
        fs::File::options()
            .write(true)
            .open(d.join("noise_a"))
            .unwrap(),
        fs::File::options()
            .write(true)
            .open(d.join("noise_b"))
            .unwrap(),
    );
    for _ in 0..max / 2 + 64 {
        a.write_all_at(b"n", 0).unwrap();
        b.write_all_at(b"n", 0).unwrap();
    }
    fs::write(d.join("x.txt"), "overflow_needle now\n").unwrap();
    // The first indexed query after it (compared with the unindexed answer, which lists x.txt).
    assert!(run(&off, &needle)["matches"]
        .as_str()
        .unwrap()
        .contains("x.txt"));
    same(&off, &on, &needle);
}

/// A file the index vouches for takes the outcome the search records for a file without a
/// match, and only where that is the search's: a multiline search that reads files whole looks
/// for NUL bytes in the first 64 KiB alone and finds a file of 64 MiB or more too large, and
/// context lines kept beside a long line can overflow the searcher's buffer (found by an attack
/// pass: the indexed answers counted such files as binary or searched).
#[test]
fn a_pruned_file_takes_the_outcome_the_search_would_give_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tree(d);
    let mut late = vec![b'q'; 120_000];
    late.push(0);
    fs::write(d.join("late_nul.bin"), &late).unwrap();
    // Three lines of 22 MiB: 66 MiB in all, two lines of context beside a third overflow.
    let line = [vec![b'a'; 22 << 20], vec![b'\n']].concat();
    fs::write(d.join("big.txt"), line.repeat(3)).unwrap();
    age(d);
    let (off, on) = sandboxes(d);
    let content = |f: fn(&mut GrepArgs)| {
        args("zebra", |a| {
            a.output_mode = Some(OutputMode::Content);
            a.include = Some(rootbound::Globs::One("*.{bin,txt}".into()));
            f(a)
        })
    };
    let calls = [
        args("zebra\\nq", |a| {
            a.multiline = Some(true);
            a.output_mode = Some(OutputMode::Count)
        }),
        args("zebra\\nq", |a| a.multiline = Some(true)),
        content(|a| a.context = Some(2)),
        content(|a| a.before = Some(2)),
        content(|a| a.after = Some(2)),
        content(|a| a.context = Some(1)),
        content(|_| ()),
    ];
    let mut pruned = 0;
    for a in &calls {
        pruned += same(&off, &on, a).pruned;
        pruned += same(&off, &on, a).pruned;
    }
    assert!(pruned > 0);
    // The two files' outcomes, unindexed: the late NUL is not seen by the multiline search, and
    // the big file is too large for it and for two lines of context.
    let skipped = |a: &GrepArgs, what: &str| run(&off, a)["stats"]["skipped"][what].clone();
    let by_line = args("zebra", |a| a.output_mode = Some(OutputMode::Count));
    assert_eq!(skipped(&by_line, "too_large"), 0);
    let binary = skipped(&by_line, "binary").as_u64().unwrap();
    assert_eq!(skipped(&calls[0], "binary"), binary - 1);
    assert_eq!(skipped(&calls[0], "too_large"), 1);
    assert_eq!(skipped(&calls[2], "too_large"), 1);
}

/// A file created after indexing has no entry: it is searched until it is described in the
/// background; from then on it is pruned by what it holds, and a change to it is seen at once.
#[test]
fn files_created_after_indexing_are_described_and_a_later_change_is_seen() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tree(d);
    // Older than two seconds: every file of the tree gets its entry.
    age(d);
    let (off, on) = sandboxes(d);
    let pruned = |p: &str| pruned_in_tree(&off, &on, p);
    pruned("alpha");
    pruned("zebra_word");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    let alpha = pruned("alpha");
    let zebra = pruned("zebra_word");
    fs::create_dir(d.join("fresh")).unwrap();
    fs::write(d.join("fresh/n1.txt"), "nothing to see\n").unwrap();
    fs::write(d.join("n2.txt"), "zebra_word here\n").unwrap();
    // The walk is recorded again; the new files (written in the last two seconds) are searched
    // until described. Every answer is the unindexed one, whenever the descriptions land.
    pruned("alpha");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    pruned("alpha");
    age(d);
    // This query starts their description; once in place, both are pruned where they hold no
    // match, and n2.txt is still searched for what it holds.
    pruned("alpha");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    assert_eq!(pruned("alpha"), alpha + 2, "the new files were described");
    assert_eq!(pruned("zebra_word"), zebra + 1, "n2.txt holds zebra_word");
    // A change to a described new file is seen by the next query.
    fs::write(d.join("fresh/n1.txt"), "alpha now\n").unwrap();
    assert_eq!(pruned("alpha"), alpha + 1);
    fs::write(d.join("n2.txt"), "alpha too\n").unwrap();
    assert_eq!(pruned("alpha"), alpha);
    // Changed files without an entry are described only as a recording sees them: searched
    // until the tree's shape changes (here a new file), then described as they are now (they
    // hold alpha, not zebra_word).
    age(d);
    pruned("alpha");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    assert_eq!(pruned("zebra_word"), zebra);
    fs::write(d.join("n4.txt"), "nothing\n").unwrap();
    pruned("alpha");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    age(d);
    pruned("alpha");
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    assert_eq!(pruned("zebra_word"), zebra + 3);
    // Replaced by a file renamed over it, written two seconds before: the recording made after
    // the rename finds another inode than the description's, and the file is searched again.
    fs::write(d.join("n3.tmp"), "zebra_word\n").unwrap();
    age(d);
    fs::rename(d.join("n3.tmp"), d.join("fresh/n1.txt")).unwrap();
    for _ in 0..3 {
        assert!(pruned("zebra_word") <= zebra + 2);
        assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    }
}

/// Closes (after a read) seen in a directory: the test's own inotify watch, to know when the
/// background description has read a file. `name` and whether it was opened for reading only.
struct Reads {
    fd: std::os::fd::OwnedFd,
}

impl Reads {
    fn new(dirs: &[&Path]) -> Reads {
        use rustix::fs::inotify;
        let fd =
            inotify::init(inotify::CreateFlags::NONBLOCK | inotify::CreateFlags::CLOEXEC).unwrap();
        for d in dirs {
            inotify::add_watch(&fd, *d, inotify::WatchFlags::CLOSE_NOWRITE).unwrap();
        }
        Reads { fd }
    }

    /// The names closed after a read since the last call.
    fn names(&self) -> Vec<String> {
        use rustix::fs::inotify;
        let mut buf = [std::mem::MaybeUninit::<u8>::uninit(); 8192];
        let mut reader = inotify::Reader::new(&self.fd, &mut buf);
        let mut out = Vec::new();
        while let Ok(ev) = reader.next() {
            if let Some(n) = ev.file_name() {
                out.push(n.to_string_lossy().into_owned());
            }
        }
        out
    }
}

/// A description counts only for the file it read. A directory renamed away and back moves no
/// file's ctime and reports no change of a file's content (only the tree's shape): if the file a
/// description read is swapped out by renaming its directory after the read, and a recording
/// verifies the path (against its old entry) before the description is put in place, the
/// description must not be put in place: it describes a file that is no longer there, and no
/// event will ever drop it. The files described meanwhile (large, unchanged) keep the batch open.
#[test]
fn a_description_of_a_file_renamed_away_before_it_is_in_place_is_not_used() {
    const TARGETS: usize = 24;
    const BIG: usize = 4;
    for attempt in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        for sub in ["d", "d2", "big", "other"] {
            fs::create_dir_all(d.join(sub)).unwrap();
        }
        for k in 0..TARGETS {
            fs::write(d.join(format!("d/f{k:02}.txt")), "needle in A\n").unwrap();
            fs::write(d.join(format!("d2/f{k:02}.txt")), "hay in B\n").unwrap();
        }
        let mut big = String::new();
        let mut i = 0u64;
        while big.len() < 24 << 20 {
            big.push_str(&format!(
                "row {i} of the slow files, {}\n",
                i * 2654435761 % 1000003
            ));
            i += 1;
        }
        for j in 0..BIG {
            fs::write(d.join(format!("big/b{j}.txt")), &big).unwrap();
        }
        fs::write(d.join("other/o.txt"), "hay\n").unwrap();
        age(d);
        let build = || Sandbox::builder().root(d).threads(2).build().unwrap();
        let (off, on) = (build(), build().with_index());
        assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
        let needle = args("needle", |a| {
            a.output_mode = Some(OutputMode::FilesWithMatches);
            a.limit = Some(1000);
        });
        // Record the root's walk: every directory is watched from here on.
        on.grep_search(&needle).unwrap();
        assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
        // Report a change to every target and large file without changing any (opened for
        // writing, nothing written): each joins the changed set with its entry's stat.
        let targets = (0..TARGETS).map(|k| format!("d/f{k:02}.txt"));
        for rel in targets.chain((0..BIG).map(|j| format!("big/b{j}.txt"))) {
            drop(
                fs::OpenOptions::new()
                    .write(true)
                    .open(d.join(rel))
                    .unwrap(),
            );
        }
        // B's directory takes the place of A's: the description will read B's files at d/.
        fs::rename(d.join("d"), d.join("dx")).unwrap();
        fs::rename(d.join("d2"), d.join("d")).unwrap();
        let reads = Reads::new(&[&d.join("d"), &d.join("big")]);
        // A query elsewhere (its recording does not look at d/) starts the description.
        on.grep_search(&args("needle", |a| a.path = Some("other".into())))
            .unwrap();
        // Once some target of B's has been read while a large file is still to be read, A's
        // directory goes back: A's files are where they were, with the stat of their entries.
        let (mut targets, mut bigs) = (0, 0);
        let t0 = std::time::Instant::now();
        while targets == 0 && t0.elapsed() < Duration::from_secs(30) {
            for n in reads.names() {
                if n.starts_with('f') {
                    targets += 1;
                } else if n.starts_with('b') {
                    bigs += 1;
                }
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        // Not a condition of the test: on a machine too busy for the description to get this
        // far in time, the swap back still comes, and the answer must still be the unindexed one.
        let open = targets > 0 && bigs < BIG;
        fs::rename(d.join("d"), d.join("d2")).unwrap();
        fs::rename(d.join("dx"), d.join("d")).unwrap();
        // The next query of the root records its walk again: it verifies A's files against their
        // entries (the descriptions of B's are not in place yet).
        on.grep_search(&needle).unwrap();
        assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
        // Replayed: every A file still holds the needle.
        let x = run(&off, &needle);
        let mut y = run(&on, &needle);
        assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
        let ix = y["stats"].as_object_mut().unwrap().remove("index");
        eprintln!("attempt {attempt}: batch open when swapped back: {open}, index {ix:?}");
        assert_eq!(
            x, y,
            "attempt {attempt}: a stale description served the replay"
        );
        assert_eq!(
            x["matches"].as_str().unwrap().lines().count(),
            TARGETS,
            "{}",
            x["matches"]
        );
    }
}

#[test]
fn past_its_cap_of_changed_files_a_root_is_indexed_again_and_searched_unindexed_meanwhile() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tree(d);
    // Older than two seconds, so that the index vouches for them.
    age(d);
    let (off, on) = sandboxes(d);
    let a = args("zebra_new", |a| {
        a.output_mode = Some(OutputMode::FilesWithMatches);
        a.limit = Some(10_000);
    });
    // Record the walk while the index serves it.
    same(&off, &on, &a);
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    let before = on.index_status();
    // More new files written than the cap (1,024, or a quarter of the files): each is a changed
    // file the index holds and searches at every query.
    for i in 0..1100 {
        fs::write(
            d.join("a").join(format!("n{i}.txt")),
            format!("zebra_new {i}\n"),
        )
        .unwrap();
    }
    // Older than two seconds again, so that the new index describes them.
    age(d);
    same(&off, &on, &a);
    // Every new file is found (one page of the 1,100; `same` walked them all).
    let found = run(&on, &a);
    assert_eq!(
        (&found["match_lines"], &found["truncated"]),
        (&100.into(), &true.into())
    );
    // The root whose changed set passed its cap is being indexed again (or already is, on a
    // fast machine); the other root (`sub`, unchanged) is still served by its index.
    let after = on.index_status();
    let again: Vec<_> = after
        .iter()
        .filter(|s| {
            s.files != before.iter().find(|b| b.root == s.root).unwrap().files
                || s.state == "building"
        })
        .collect();
    assert_eq!(again.len(), 1, "{before:?} {after:?}");
    if again[0].state == "building" {
        assert!(
            again[0]
                .reason
                .as_deref()
                .unwrap_or("")
                .contains("files changed since"),
            "{after:?}"
        );
    }
    assert!(
        before.iter().all(|s| s.state == "ready" && s.files > 0),
        "{before:?}"
    );
    // Once built again, the new index holds the new files, and the changed set was let go.
    assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
    let rebuilt = on.index_status();
    assert!(rebuilt.iter().all(|s| s.state == "ready"), "{rebuilt:?}");
    let grown: Vec<_> = rebuilt
        .iter()
        .filter(|s| s.files == before.iter().find(|b| b.root == s.root).unwrap().files + 1100)
        .collect();
    assert_eq!(grown.len(), 1, "{before:?} {rebuilt:?}");
    same(&off, &on, &a);
    let c = args("zebra_new 1099", |a| {
        a.output_mode = Some(OutputMode::Count)
    });
    same(&off, &on, &c);
    // And the answers stay the unindexed ones.
    same(&off, &on, &args("alpha", |_| {}));
}

/// A large file is described in chunks of whole lines: a line-oriented query rules it out when no
/// one chunk holds all it requires (its parts are far apart, on different lines), while a
/// multiline query, whose match may span chunks, still searches it; a line longer than a chunk
/// stays whole, so a match along it is found.
#[test]
fn a_large_file_is_pruned_by_its_chunks_for_line_searches_only() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("sub")).unwrap();
    fs::write(d.join("sub/s.txt"), "nothing here\n").unwrap();
    fs::write(d.join("small.txt"), "needle_left only\n").unwrap();
    // Far more than two chunks (32 KiB each), the two needles at either end.
    let mut big = String::from("needle_left starts here\n");
    for i in 0..40_000 {
        big.push_str(&format!("filler line number {i:08}\n"));
    }
    big.push_str("needle_right ends here\n");
    fs::write(d.join("big.txt"), &big).unwrap();
    // One line longer than a chunk, with both needles on it.
    let long = format!("needle_left {} needle_right\n", "x".repeat(300 << 10));
    fs::write(d.join("long.txt"), long).unwrap();
    age(d);
    let (off, on) = sandboxes(d);
    let pruned = |a: &GrepArgs| {
        // Once as it comes, then again once the walk is recorded: the count of the second.
        let _ = on.grep_search(a).unwrap();
        assert!(on.wait_for_index(crate::support::time::INDEX_WORK));
        let r = on.grep_search(a).unwrap();
        r.stats.index.map_or(0, |i| i.files_pruned)
    };
    let line = args("needle_left.*needle_right", |a| {
        a.output_mode = Some(OutputMode::FilesWithMatches)
    });
    let multi = args("needle_left[\\s\\S]*needle_right", |a| {
        a.multiline = Some(true);
        a.output_mode = Some(OutputMode::FilesWithMatches)
    });
    let none = args("zzzz_absent_zzzz", |_| {});
    let all = pruned(&none);
    assert!(all >= 4, "{all}");
    // Only long.txt holds both needles in one chunk.
    assert_eq!(pruned(&line), all - 1);
    // Across chunks, big.txt may match too.
    assert_eq!(pruned(&multi), all - 2);
    for a in [&line, &multi, &none] {
        same(&off, &on, a);
    }
    let found = run(&on, &multi);
    assert!(
        found["matches"].as_str().unwrap().contains("big.txt"),
        "{found}"
    );
    let found = run(&on, &line);
    assert!(
        found["matches"].as_str().unwrap().contains("long.txt"),
        "{found}"
    );
}

/// A file with a line longer than the searcher can hold (its 64 MiB heap limit) is `too_large` to
/// the unindexed search; the index gives it no entry, so the indexed answer is the same rather than
/// "searched, no match".
#[test]
fn a_file_with_a_line_longer_than_the_searcher_holds_is_not_vouched_for() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("sub")).unwrap();
    fs::write(d.join("sub/s.txt"), "nothing here\n").unwrap();
    fs::write(d.join("huge.txt"), vec![b'x'; 65 << 20]).unwrap();
    age(d);
    let (off, on) = sandboxes(d);
    let a = args("zebra_absent", |_| {});
    let unindexed = run(&off, &a);
    assert_eq!(unindexed["stats"]["skipped"]["too_large"], 1, "{unindexed}");
    same(&off, &on, &a);
}
