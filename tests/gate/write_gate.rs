//! The write half keeps the read half's promises (DESIGN §2, guarantees 6 and 8; ATTACKS 29-31, 33):
//! no write makes readable what a read could not reach, no write creates a denied name in any kind,
//! a denied name answers the same whether or not it exists, the config file's write section and the
//! CLI's paths outside the current directory obey the same deny rules as the flags, housekeeping
//! removes only what rootbound made, and a displayed path names one object for every tool.

use rootbound::config::{Config, Format};
use rootbound::{PathDisplay, Sandbox, WritePolicy};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_rootbound");
const SECRET: &str = "SECRET-private-bytes";

fn tmp() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(t.path()).unwrap();
    (t, base)
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

fn ok(v: &Value) {
    assert!(v.get("error").is_none(), "{v}");
}

/// No result field, error message included, carries the secret.
fn no_secret(v: &Value) {
    assert!(!v.to_string().contains(SECRET), "leaked: {v}");
}

fn sandbox(reads: &[&Path], write: WritePolicy, deny: &[&str]) -> Sandbox {
    let mut b = Sandbox::builder();
    for r in reads {
        b = b.root(*r);
    }
    for d in deny {
        b = b.deny(d);
    }
    b.write(write).build().unwrap()
}

fn all_writes(root: &Path) -> WritePolicy {
    let mut w = WritePolicy::new(root);
    w.allow_overwrite = true;
    w.allow_delete = true;
    w
}

/// `--root W/pub --write-root W`: what lies in W outside pub is not readable, and no move (of a file,
/// a directory, a directory made for the purpose) brings it into pub; nor may the read root itself
/// (or a directory holding it) be moved, which would carry its open handle away from where the gate
/// believes it is.
#[test]
fn a_move_never_makes_an_unreadable_object_readable() {
    let (_t, w) = tmp();
    let public = w.join("pub");
    std::fs::create_dir_all(&public).unwrap();
    std::fs::write(w.join("private.txt"), SECRET).unwrap();
    std::fs::create_dir(w.join("dir")).unwrap();
    std::fs::write(w.join("dir/inner.txt"), SECRET).unwrap();
    std::fs::write(public.join("open.txt"), "public\n").unwrap();
    let sb = sandbox(&[&public], all_writes(&w), &[]);
    let read = |p: &str| sb.call("read_file", json!({ "path": p }));
    assert_eq!(code(&read("../private.txt")), "OUT_OF_SANDBOX");

    let r = sb.call(
        "move_file",
        json!({"source": "private.txt", "destination": "pub/leak.txt"}),
    );
    assert_eq!(code(&r), "DENIED", "{r}");
    no_secret(&r);
    let r = sb.call(
        "move_file",
        json!({"source": "dir", "destination": "pub/dir"}),
    );
    assert_eq!(code(&r), "DENIED", "{r}");
    // Staged through a new directory: the stage is unreadable too.
    ok(&sb.call("create_directory", json!({"path": "stage"})));
    ok(&sb.call(
        "move_file",
        json!({"source": "private.txt", "destination": "stage/p.txt"}),
    ));
    let r = sb.call(
        "move_file",
        json!({"source": "stage", "destination": "pub/stage"}),
    );
    assert_eq!(code(&r), "DENIED", "{r}");
    // The read root is not carried elsewhere (a later move into its old place would pass for
    // unreadable while its handle reads it).
    let r = sb.call(
        "move_file",
        json!({"source": "pub", "destination": "hidden"}),
    );
    assert_eq!(code(&r), "DENIED", "{r}");
    assert!(public.is_dir());
    for p in ["leak.txt", "dir/inner.txt", "stage/p.txt", "hidden"] {
        let r = read(p);
        assert_eq!(code(&r), "NOT_FOUND", "{p}: {r}");
        no_secret(&r);
    }
    let g = sb.call("grep_search", json!({"pattern": "SECRET"}));
    assert_eq!(g["match_lines"], 0, "{g}");
    // Readable to readable, and readable to unreadable, stay allowed.
    ok(&sb.call(
        "move_file",
        json!({"source": "pub/open.txt", "destination": "pub/moved.txt"}),
    ));
    ok(&sb.call(
        "move_file",
        json!({"source": "pub/moved.txt", "destination": "archived.txt"}),
    ));
}

/// A read root nested deeper: moving any directory above it is refused too.
#[test]
fn a_directory_holding_a_read_root_is_not_moved() {
    let (_t, w) = tmp();
    std::fs::create_dir_all(w.join("a/pub")).unwrap();
    let sb = sandbox(&[&w.join("a/pub")], all_writes(&w), &[]);
    let r = sb.call("move_file", json!({"source": "a", "destination": "b"}));
    assert_eq!(code(&r), "DENIED", "{r}");
    assert!(w.join("a/pub").is_dir());
}

/// The config file's write section, inside a read root with anchored deny rules: the write tools obey
/// the read root's rules exactly as `--root/--write-root/--deny` make them.
#[test]
fn the_config_write_section_obeys_the_read_roots_deny_rules() {
    let (_t, base) = tmp();
    let repo = base.join("repo");
    std::fs::create_dir_all(repo.join("sub")).unwrap();
    std::fs::write(repo.join("sub/locked.txt"), "locked\n").unwrap();
    std::fs::write(repo.join("sub/run.sh"), "echo hi\n").unwrap();
    let text = "[agents.a]\nroots = [\"repo\"]\ndeny = [\"/sub/locked.txt\", \"sub/*.sh\"]\n\
                [agents.a.tools.read_file]\n\
                [agents.a.write]\nroot = \"repo/sub\"\nallow_overwrite = true\nallow_delete = true\n";
    let c = Config::parse_with_env(text, Format::Toml, &base, |_| None).unwrap();
    let tools = c.agent(None).unwrap().build().unwrap();
    let r = tools.call("read_file", json!({"path": "sub/locked.txt"}));
    assert_eq!(code(&r), "DENIED", "{r}");
    let r = tools.call(
        "write_file",
        json!({"path": "locked.txt", "content": "replaced", "overwrite": true}),
    );
    assert_eq!(code(&r), "DENIED", "{r}");
    let r = tools.call("delete_file", json!({"path": "run.sh"}));
    assert_eq!(code(&r), "DENIED", "{r}");
    assert_eq!(
        std::fs::read_to_string(repo.join("sub/locked.txt")).unwrap(),
        "locked\n"
    );
    assert!(repo.join("sub/run.sh").exists());
    ok(&tools.call("write_file", json!({"path": "fine.txt", "content": "x"})));
}

/// `--deny .git/`: no write tool creates a `.git` of any kind, so no planted `gitdir:` file or moved
/// directory can make the user's next `git status` run the agent's commands.
#[test]
fn no_write_tool_plants_a_denied_name_in_any_kind() {
    let (_t, w) = tmp();
    std::fs::create_dir(w.join("sub")).unwrap();
    std::fs::create_dir(w.join("evil")).unwrap();
    std::fs::write(w.join("gitdir.txt"), "gitdir: ../evil\n").unwrap();
    let sb = sandbox(&[&w], all_writes(&w), &[".git/"]);
    let attempts = [
        (
            "write_file",
            json!({"path": "sub/.git", "content": "gitdir: ../evil\n"}),
        ),
        (
            "edit_file",
            json!({"path": "sub/.git", "old_string": "", "new_string": "gitdir: ../evil\n"}),
        ),
        (
            "move_file",
            json!({"source": "gitdir.txt", "destination": "sub/.git"}),
        ),
        (
            "move_file",
            json!({"source": "evil", "destination": "sub/.git"}),
        ),
        ("create_directory", json!({"path": "sub/.git"})),
        ("create_directory", json!({"path": "sub/.git/hooks"})),
        (
            "write_file",
            json!({"path": "sub/x/../.git", "content": "gitdir: ../evil\n"}),
        ),
    ];
    for (tool, args) in attempts {
        let r = sb.call(tool, args.clone());
        assert_eq!(code(&r), "DENIED", "{tool} {args}: {r}");
        assert!(
            w.join("sub/.git").symlink_metadata().is_err(),
            "{tool} {args} created sub/.git"
        );
    }
    assert!(w.join("gitdir.txt").exists() && w.join("evil").is_dir());
}

/// A denied name answers DENIED whether or not it exists, for every tool, so the rules are no oracle;
/// and an existing `.git` file is as invisible to listings as a `.git` directory.
#[test]
fn a_denied_name_answers_the_same_whether_or_not_it_exists() {
    let (_t, w) = tmp();
    std::fs::create_dir_all(w.join("repo/.git")).unwrap();
    std::fs::write(w.join("repo/.git/config"), "[core]\n").unwrap();
    std::fs::create_dir_all(w.join("wt")).unwrap();
    std::fs::write(w.join("wt/.git"), "gitdir: ../repo/.git\n").unwrap();
    std::fs::create_dir_all(w.join("plain")).unwrap();
    let sb = sandbox(&[&w], all_writes(&w), &[".git/"]);
    let calls = |p: &str| {
        vec![
            ("read_file", json!({ "path": p })),
            ("stat", json!({ "path": p })),
            ("list_dir", json!({ "path": p })),
            ("glob", json!({"pattern": "*", "path": p})),
            ("grep_search", json!({"pattern": "x", "path": p})),
            ("directory_tree", json!({ "path": p })),
            ("read_many_files", json!({ "paths": [p] })),
            ("delete_file", json!({ "path": p })),
            (
                "edit_file",
                json!({"path": p, "old_string": "a", "new_string": "b"}),
            ),
        ]
    };
    for dir in ["repo", "wt", "plain", "missing"] {
        let p = format!("{dir}/.git");
        for (tool, args) in calls(&p) {
            let r = sb.call(tool, args.clone());
            let answer = if tool == "read_many_files" {
                r["files"][0]["error"]["code"].clone()
            } else {
                r["error"]["code"].clone()
            };
            assert_eq!(answer, "DENIED", "{tool} {args}: {r}");
        }
    }
    // The listings show neither kind of `.git`.
    for (tool, args) in [
        ("list_dir", json!({"path": "wt"})),
        ("glob", json!({"pattern": "**", "hidden": true})),
        ("directory_tree", json!({"path": ".", "hidden": true})),
        (
            "grep_search",
            json!({"pattern": "gitdir|core", "hidden": true, "no_ignore": true}),
        ),
    ] {
        let r = sb.call(tool, args.clone());
        ok(&r);
        assert!(!r.to_string().contains(".git"), "{tool} {args}: {r}");
    }
}

/// `rootbound grep PATTERN PATH` with a path outside the current directory: the rules hold for the
/// path as written and where it really is, not only below the parent its own sandbox is rooted at.
#[test]
fn cli_grep_outside_the_current_directory_obeys_deny_rules_above_the_path() {
    let (_t, base) = tmp();
    std::fs::create_dir_all(base.join("here")).unwrap();
    std::fs::create_dir_all(base.join("other/.git")).unwrap();
    std::fs::write(base.join("other/.git/config"), format!("{SECRET}\n")).unwrap();
    std::os::unix::fs::symlink(".git", base.join("other/alias")).unwrap();
    for arg in [
        "../other/.git/config",
        "../other/.git",
        "../other",
        "../other/alias/config",
    ] {
        let out = Command::new(BIN)
            .current_dir(base.join("here"))
            .args(["grep", "-n", "SECRET", arg, "--deny", ".git/"])
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!text.contains(SECRET), "{arg}: {text}");
        assert_ne!(out.status.code(), Some(0), "{arg}: {text}");
    }
    // Without the rule the same command finds it (the test can fail).
    let out = Command::new(BIN)
        .current_dir(base.join("here"))
        .args(["grep", "-n", "SECRET", "../other/.git/config"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains(SECRET));
}

/// An argument through `..` that really lies under the current directory is the current
/// directory's path: rules anchored there hold for it (`../here/sub/dir` under `--deny
/// /sub/dir/k`). A path that really lies elsewhere is not under those anchored rules: they name
/// the current directory's paths, not the same names below another directory.
#[test]
fn cli_grep_anchored_rules_hold_for_the_current_directory_by_any_spelling() {
    let (_t, base) = tmp();
    std::fs::create_dir_all(base.join("here/sub/dir")).unwrap();
    std::fs::write(base.join("here/sub/dir/k"), format!("{SECRET}\n")).unwrap();
    std::fs::create_dir_all(base.join("other/sub/dir")).unwrap();
    std::fs::write(base.join("other/sub/dir/k"), "other key\n").unwrap();
    let grep = |arg: &str| {
        let out = Command::new(BIN)
            .current_dir(base.join("here"))
            .args(["grep", "-n", "SECRET|key", arg, "--deny", "/sub/dir/k"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for arg in [
        "sub/dir",
        "../here/sub/dir",
        "../here/sub",
        "../here",
        "../here/sub/dir/k",
    ] {
        let text = grep(arg);
        assert!(!text.contains(SECRET), "{arg}: {text}");
    }
    let abs = base.join("here/sub/dir");
    assert!(!grep(abs.to_str().unwrap()).contains(SECRET));
    // Beside the current directory the anchored rule names nothing.
    assert!(grep("../other/sub/dir").contains("other key"));
    assert!(grep("../other").contains("other key"));
}

fn aged(p: &Path) {
    std::fs::write(p, "kept?").unwrap();
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(p)
        .unwrap()
        .set_modified(past)
        .unwrap();
}

/// Old `.rootbound-tmp-*` files are swept only when they carry rootbound's exact naming, are not
/// denied, and the policy allows deletes.
#[test]
fn stale_temp_cleanup_removes_only_what_rootbound_made() {
    let (_t, w) = tmp();
    let users = w.join(".rootbound-tmp-notes.txt");
    let pem = w.join(".rootbound-tmp-cert.pem");
    let ours = w.join(".rootbound-tmp-12-3");
    let denied_ours = w.join(".rootbound-tmp-12-4");
    // Create-only, no delete approval: nothing is removed.
    for p in [&users, &pem, &ours, &denied_ours] {
        aged(p);
    }
    let sb = sandbox(&[], WritePolicy::new(&w), &["*.pem", ".rootbound-tmp-12-4"]);
    ok(&sb.call("write_file", json!({"path": "new.txt", "content": "x"})));
    for p in [&users, &pem, &ours, &denied_ours] {
        assert!(
            p.exists(),
            "{} removed without delete approval",
            p.display()
        );
    }
    // With deletes allowed: only our own, undenied leftover goes.
    let sb = sandbox(&[], all_writes(&w), &["*.pem", ".rootbound-tmp-12-4"]);
    ok(&sb.call("write_file", json!({"path": "new2.txt", "content": "x"})));
    assert!(!ours.exists(), "a stale temporary file of ours is swept");
    for p in [&users, &pem, &denied_ours] {
        assert!(p.exists(), "{} must stay", p.display());
    }
}

/// `--relative-paths` with a write root that is not the read root: a relative `x.txt` would name the
/// read root's file to read_file and the write root's to write_file, so paths are shown absolute
/// (one object for every tool); with the write root the one read root, they stay relative.
#[test]
fn displayed_paths_name_one_object_for_every_tool() {
    let (_t, base) = tmp();
    let (r, w) = (base.join("read"), base.join("write"));
    std::fs::create_dir_all(&r).unwrap();
    std::fs::create_dir_all(&w).unwrap();
    std::fs::write(r.join("x.txt"), "the read root's\n").unwrap();
    let sb = Sandbox::builder()
        .root(&r)
        .write(WritePolicy::new(&w))
        .path_display(PathDisplay::Relative)
        .build()
        .unwrap();
    let wrote = sb.call(
        "write_file",
        json!({"path": "x.txt", "content": "written\n"}),
    );
    ok(&wrote);
    let shown = wrote["path"].as_str().unwrap();
    let back = sb.call("read_file", json!({ "path": shown }));
    assert_ne!(back["content"], "the read root's\n", "{shown}: {back}");
    let listed = sb.call("glob", json!({"pattern": "x.txt"}));
    let read_path = listed["matches"].as_str().unwrap().trim().to_string();
    let r2 = sb.call(
        "write_file",
        json!({"path": read_path, "content": "y", "overwrite": true}),
    );
    // The read root's file is not the write root's: refused, never written in the write root.
    assert!(r2.get("error").is_some(), "{read_path}: {r2}");
    assert_eq!(
        std::fs::read_to_string(w.join("x.txt")).unwrap(),
        "written\n"
    );

    // Write root == the one read root: relative display stays and round-trips.
    let sb = Sandbox::builder()
        .root(&w)
        .write(WritePolicy::new(&w))
        .path_display(PathDisplay::Relative)
        .build()
        .unwrap();
    let wrote = sb.call("write_file", json!({"path": "y.txt", "content": "why\n"}));
    assert_eq!(wrote["path"], "y.txt");
    assert_eq!(
        sb.call("read_file", json!({"path": "y.txt"}))["content"],
        "why\n"
    );
}

/// A symlink to a denied name (`env -> .env`, `g -> .git` then `g/config`, a chain) answers DENIED
/// whether or not the denied object exists: a dangling alias is no existence oracle either.
#[test]
fn an_alias_of_a_denied_name_answers_the_same_whether_or_not_it_exists() {
    let (_t, w) = tmp();
    for d in ["has", "hasnt"] {
        std::fs::create_dir(w.join(d)).unwrap();
        std::os::unix::fs::symlink(".env", w.join(d).join("e")).unwrap();
        std::os::unix::fs::symlink(".git", w.join(d).join("g")).unwrap();
        std::os::unix::fs::symlink("e", w.join(d).join("chain")).unwrap();
    }
    std::fs::write(w.join("has/.env"), SECRET).unwrap();
    std::fs::create_dir(w.join("has/.git")).unwrap();
    std::fs::write(w.join("has/.git/config"), SECRET).unwrap();
    let sb = Sandbox::builder()
        .root(&w)
        .deny(".env")
        .deny(".git/")
        .build()
        .unwrap();
    for d in ["has", "hasnt"] {
        for p in ["e", "chain", "g/config", "g"] {
            let p = format!("{d}/{p}");
            for (tool, args) in [
                ("read_file", json!({ "path": p })),
                ("stat", json!({ "path": p })),
            ] {
                let r = sb.call(tool, args);
                assert_eq!(code(&r), "DENIED", "{tool} {p}: {r}");
                no_secret(&r);
            }
        }
    }
    // A dangling link to an allowed name is still just missing.
    std::os::unix::fs::symlink("nothing", w.join("hasnt/n")).unwrap();
    assert_eq!(
        code(&sb.call("read_file", json!({"path": "hasnt/n"}))),
        "NOT_FOUND"
    );
}

/// The write tools give the same answer for a symlink to a denied name whether the denied object
/// exists or not (they never write through a link, but their refusal must not tell which).
#[test]
fn write_tools_answer_alike_for_an_alias_of_a_denied_name() {
    let (_t, w) = tmp();
    for d in ["has", "hasnt"] {
        std::fs::create_dir(w.join(d)).unwrap();
        std::os::unix::fs::symlink(".env", w.join(d).join("e")).unwrap();
    }
    std::fs::write(w.join("has/.env"), SECRET).unwrap();
    let sb = sandbox(&[&w], all_writes(&w), &[".env"]);
    let answers: Vec<Vec<String>> = ["has", "hasnt"]
        .iter()
        .map(|d| {
            let p = format!("{d}/e");
            [
                sb.call(
                    "write_file",
                    json!({"path": p, "content": "x", "overwrite": true}),
                ),
                sb.call("write_file", json!({"path": p, "content": "x"})),
                sb.call("delete_file", json!({ "path": p })),
                sb.call(
                    "move_file",
                    json!({"source": "e0", "destination": p, "overwrite": true}),
                ),
            ]
            .iter()
            .map(|r| code(r).to_string())
            .collect()
        })
        .collect();
    assert_eq!(answers[0], answers[1]);
    assert!(answers[0][..3].iter().all(|c| c == "DENIED"), "{answers:?}");
    assert_eq!(std::fs::read_to_string(w.join("has/.env")).unwrap(), SECRET);
    assert!(w.join("hasnt/.env").symlink_metadata().is_err());
}

/// Attack-pass findings on the write half, each a regression test.
#[test]
fn hard_links_fifos_and_trailing_slashes_on_the_write_side() {
    let (_t, w) = tmp();
    std::fs::create_dir_all(w.join("pub")).unwrap();
    std::fs::create_dir_all(w.join("priv")).unwrap();
    std::fs::write(w.join("priv/b"), SECRET).unwrap();
    std::fs::hard_link(w.join("priv/b"), w.join("pub/a")).unwrap();
    let mut p = Sandbox::builder()
        .root(w.join("pub"))
        .write(all_writes(&w))
        .policy();
    p.refuse_hardlinks = true;
    let sb = Sandbox::new(p).unwrap();
    assert_eq!(code(&sb.call("read_file", json!({"path": "a"}))), "DENIED");
    // Changing the other link would leave `a` with one link, readable.
    for (tool, args) in [
        (
            "write_file",
            json!({"path": "priv/b", "content": "x", "overwrite": true}),
        ),
        ("delete_file", json!({"path": "priv/b"})),
    ] {
        let r = sb.call(tool, args);
        assert_eq!(code(&r), "DENIED", "{tool}: {r}");
    }
    let r = sb.call("read_file", json!({"path": "a"}));
    assert_eq!(code(&r), "DENIED", "{r}");
    no_secret(&r);

    // A FIFO is never replaced by a move; `f/` is not the file `f`.
    let (_t2, w2) = tmp();
    std::fs::write(w2.join("f"), "file").unwrap();
    assert!(Command::new("mkfifo")
        .arg(w2.join("fifo"))
        .status()
        .unwrap()
        .success());
    let sb = sandbox(&[&w2], all_writes(&w2), &[]);
    let r = sb.call(
        "move_file",
        json!({"source": "f", "destination": "fifo", "overwrite": true}),
    );
    assert_eq!(code(&r), "NOT_A_FILE", "{r}");
    let r = sb.call("move_file", json!({"source": "f/", "destination": "g"}));
    assert_eq!(code(&r), "NOT_A_FILE", "{r}");
    assert!(w2.join("f").is_file());
}

/// A request that steps through a denied name on its way (`.git/../x`, `g/../x` with `g -> .git`,
/// `k.pem/..`, `kl/x` with `kl -> k.pem`) answers DENIED whether or not that name exists, for read
/// and write tools alike: otherwise its success (or NOT_A_FILE against NOT_FOUND) tells what stands
/// there, and a write would make `.git` to get through it.
#[test]
fn a_request_through_a_denied_name_answers_alike_whether_or_not_it_exists() {
    let (_t, w) = tmp();
    for d in ["has", "hasnt"] {
        std::fs::create_dir(w.join(d)).unwrap();
        std::fs::write(w.join(d).join("x.txt"), "plain\n").unwrap();
        std::os::unix::fs::symlink(".git", w.join(d).join("g")).unwrap();
        std::os::unix::fs::symlink("k.pem", w.join(d).join("kl")).unwrap();
    }
    std::fs::create_dir(w.join("has/.git")).unwrap();
    std::fs::write(w.join("has/k.pem"), SECRET).unwrap();
    let sb = sandbox(&[&w], all_writes(&w), &[".git/", "*.pem"]);
    let answer = |d: &str, tool: &str, args: Value| {
        let args: Value =
            serde_json::from_str(&args.to_string().replace("D/", &format!("{d}/"))).unwrap();
        sb.call(tool, args)
    };
    let calls = [
        ("read_file", json!({"path": "D/.git/../x.txt"})),
        ("read_file", json!({"path": "D/g/../x.txt"})),
        ("stat", json!({"path": "D/k.pem/.."})),
        ("stat", json!({"path": "D/kl/.."})),
        ("stat", json!({"path": "D/kl/x"})),
        ("list_dir", json!({"path": "D/g/.."})),
        (
            "grep_search",
            json!({"pattern": "plain", "path": "D/.git/.."}),
        ),
        (
            "write_file",
            json!({"path": "D/.git/../new.txt", "content": "n"}),
        ),
        (
            "write_file",
            json!({"path": "D/g/../new.txt", "content": "n"}),
        ),
        (
            "write_file",
            json!({"path": "D/kl/../new.txt", "content": "n"}),
        ),
        ("create_directory", json!({"path": "D/g/../made"})),
        ("delete_file", json!({"path": "D/g/../x.txt"})),
        (
            "move_file",
            json!({"source": "D/x.txt", "destination": "D/g/../y.txt"}),
        ),
        (
            "edit_file",
            json!({"path": "D/k.pem/../x.txt", "old_string": "plain", "new_string": "p"}),
        ),
    ];
    for (tool, args) in &calls {
        let has = answer("has", tool, args.clone());
        let hasnt = answer("hasnt", tool, args.clone());
        assert_eq!(code(&has), "DENIED", "{tool} {args}: {has}");
        assert_eq!(code(&hasnt), "DENIED", "{tool} {args}: {hasnt}");
        no_secret(&has);
    }
    // Nothing was made, moved or deleted on the way.
    for d in ["has", "hasnt"] {
        let mut names: Vec<String> = std::fs::read_dir(w.join(d))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let want: &[&str] = if d == "has" {
            &[".git", "g", "k.pem", "kl", "x.txt"]
        } else {
            &["g", "kl", "x.txt"]
        };
        assert_eq!(names, want, "{d}");
        assert_eq!(
            std::fs::read_to_string(w.join(d).join("x.txt")).unwrap(),
            "plain\n"
        );
    }
    // A `..` through an ordinary directory still works.
    std::fs::create_dir(w.join("has/sub")).unwrap();
    ok(&sb.call("read_file", json!({"path": "has/sub/../x.txt"})));
}

/// A symlink whose own text steps through a denied name (`l -> .git/../x.txt`, `m -> d/.git/..`)
/// answers DENIED whether or not that name exists, though the kernel lands on a permitted object:
/// otherwise reading through it tells whether `.git` is there. Plain requests, and symlinks that do
/// not pass a denied name, are served.
#[test]
fn a_symlink_whose_text_steps_on_a_denied_name_answers_alike_whether_or_not_it_exists() {
    let (_t, w) = tmp();
    for d in ["has", "hasnt"] {
        let at = w.join(d);
        std::fs::create_dir_all(at.join("sub")).unwrap();
        std::fs::write(at.join("x.txt"), "plain\n").unwrap();
        std::os::unix::fs::symlink(".git/../x.txt", at.join("l")).unwrap();
        std::os::unix::fs::symlink("sub/.git/../..", at.join("m")).unwrap();
        std::os::unix::fs::symlink("l", at.join("ll")).unwrap();
        std::os::unix::fs::symlink("sub/../x.txt", at.join("fine")).unwrap();
    }
    std::fs::create_dir(w.join("has/.git")).unwrap();
    std::fs::create_dir(w.join("has/sub/.git")).unwrap();
    let sb = sandbox(&[&w], all_writes(&w), &[".git/"]);
    for d in ["has", "hasnt"] {
        for (tool, args) in [
            ("read_file", json!({"path": format!("{d}/l")})),
            ("read_file", json!({"path": format!("{d}/ll")})),
            ("stat", json!({"path": format!("{d}/m")})),
            ("read_file", json!({"path": format!("{d}/m/x.txt")})),
            ("list_dir", json!({"path": format!("{d}/m")})),
            (
                "write_file",
                json!({"path": format!("{d}/m/new.txt"), "content": "n"}),
            ),
        ] {
            let r = sb.call(tool, args.clone());
            assert_eq!(code(&r), "DENIED", "{tool} {args}: {r}");
        }
        assert!(
            !w.join(d).join("new.txt").exists(),
            "{d}: a write got through"
        );
        ok(&sb.call("read_file", json!({"path": format!("{d}/fine")})));
        ok(&sb.call("read_file", json!({"path": format!("{d}/x.txt")})));
    }
}
