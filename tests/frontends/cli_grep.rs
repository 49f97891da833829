//! `rootbound grep`'s flags against ripgrep 13 (the installed `rg`): for each flag, the same tree and
//! command line give the same stdout and exit code. Output is compared in the form both print alike
//! before the printers are rg's in every detail (`-n`, several files so paths are shown, `--sort
//! path` so rg's order is fixed); `--files` is printed by the flag layer itself and compared as is.
//! Skipped, saying so, when rg is missing (under CI it must be there).

use crate::support;
use crate::support::grep::write;
use crate::support::rg::{have_rg, os};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::Output;

/// stdout, exit code and stderr of one run.
#[derive(Debug, PartialEq, Eq)]
struct Run {
    stdout: String,
    code: i32,
    stderr: String,
}

impl From<Output> for Run {
    fn from(out: Output) -> Run {
        Run {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            code: out.status.code().unwrap_or(-1),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// `rg ARGS` in `dir` (the clean environment of tests/support/rg.rs; no `--sort` added: the
/// cases give it).
fn rg(dir: &Path, args: &[OsString]) -> Run {
    support::rg::rg(dir, args, None).into()
}

/// `rootbound grep ARGS` in `dir`, as [`rg`] runs.
fn ours(dir: &Path, args: &[OsString]) -> Run {
    support::rg::rootbound_grep(dir, args, None).into()
}

/// Asserts that rg and rootbound print the same and exit alike for each command line.
fn same(dir: &Path, cases: &[&[&str]]) {
    let mut bad = Vec::new();
    for args in cases {
        let args = os(args);
        let (want, got) = (rg(dir, &args), ours(dir, &args));
        if (&want.stdout, want.code) != (&got.stdout, got.code) {
            bad.push(format!(
                "{args:?}\n  rg   (exit {}): {:?} {:?}\n  ours (exit {}): {:?} {:?}",
                want.code, want.stdout, want.stderr, got.code, got.stdout, got.stderr
            ));
        }
    }
    assert!(bad.is_empty(), "differs from rg:\n{}", bad.join("\n"));
}

/// A repository with every kind of ignore file, hidden files, types and depths.
fn tree() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let r = d.path();
    write(r, ".git/HEAD", b"ref: refs/heads/main\n");
    write(r, ".git/info/exclude", b"excluded.txt\n");
    write(r, ".gitignore", b"ignored.txt\n");
    write(r, ".ignore", b"dotignored.txt\n");
    write(r, ".rgignore", b"rgignored.txt\n");
    for f in [
        "ignored.txt",
        "dotignored.txt",
        "rgignored.txt",
        "excluded.txt",
    ] {
        write(r, f, b"needle\n");
    }
    write(r, ".hidden/h.txt", b"needle hidden\n");
    write(r, ".dotfile", b"needle dot\n");
    write(
        r,
        "src/main.rs",
        b"fn main() { needle(); }\nlet Needle = 1;\nneedles everywhere\n",
    );
    write(r, "src/UPPER.RS", b"needle upper\n");
    write(r, "src/deep/x/y.txt", b"needle deep\n");
    write(
        r,
        "docs/readme.md",
        b"# needle doc\nline two\nline three\nneedle again\nfoo\nbar\n",
    );
    write(r, "a.foo", b"needle foo\n");
    // (No CRLF file: the library's lines drop the `\r` rg prints; that is the printers' part.)
    write(r, "uni.txt", b"\xce\x94needle x\nAneedle y\n");
    d
}

#[test]
fn repeated_flags_last_one_wins_and_opposites_override() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    same(
        d,
        &[
            &["-n", "--sort", "path", "-i", "needle", "-i"],
            &["-n", "--sort", "path", "-i", "-s", "needle"],
            &["-n", "--sort", "path", "-s", "-i", "NEEDLE"],
            &["-n", "--sort", "path", "-S", "Needle"],
            &["-n", "--sort", "path", "-i", "-S", "Needle"],
            &["-n", "--sort", "path", "-C", "1", "again", "-C", "0"],
            &["-n", "--sort", "path", "-C", "1", "-A", "2", "again"],
            &["-n", "--sort", "path", "-A", "2", "-C", "1", "again"],
            // (rg 13's clap takes the values after a repeated value flag as more values of it, so
            // the pattern goes between the two.)
            &["-n", "--sort", "path", "-B", "1", "again", "-B", "2"],
            &[
                "-n", "--sort", "path", "-m", "5", "needle", "src", "-m", "1",
            ],
            &["-n", "--sort", "path", "-w", "-x", "needle"],
            &["-n", "--sort", "path", "-x", "-w", "needle"],
            &["-n", "--sort", "path", "-F", "--no-fixed-strings", "need.e"],
            &["-n", "--sort", "path", "-N", "-n", "needle", "src"],
        ],
    );
}

#[test]
fn flags_that_change_nothing_printed_are_accepted() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    let base = ["-n", "--sort", "path", "needle"];
    for extra in [
        &["-H"][..],
        &["--no-heading"],
        &["--sort", "none", "--sort", "path"],
        &["--no-mmap"],
        &["--mmap"],
        &["-j", "1"],
        &["--threads", "2"],
        &["--no-config"],
        &["--line-buffered"],
        &["--block-buffered"],
        &["--no-ignore-parent"],
        &["--no-ignore-global"],
        &["--no-ignore-messages"],
        &["--no-messages"],
        &["--no-follow"],
        &["--no-search-zip"],
        &["-E", "utf-8"],
        &["--encoding", "auto"],
        &["--no-encoding"],
        &["--no-crlf"],
        &["--colors", "match:fg:red", "--colors", "path:style:bold"],
        &["--color", "never"],
        &["--no-column"],
        &["--no-trim"],
        &["--no-json"],
        &["--no-text"],
        &["--no-binary"],
        &["--no-multiline"],
    ] {
        let mut args: Vec<&str> = base.to_vec();
        args.extend_from_slice(extra);
        same(d, &[&args]);
    }
}

#[test]
fn globs_keep_rgs_order_case_and_root_anchoring() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    same(
        d,
        &[
            &["-n", "--sort", "path", "-g", "!/src/**", "needle"],
            &["-n", "--sort", "path", "-g", "/src/**", "needle"],
            &["-n", "--sort", "path", "-g", "*.rs", "needle"],
            &[
                "-n", "--sort", "path", "-g", "*.rs", "-g", "!main.rs", "needle",
            ],
            &[
                "-n", "--sort", "path", "-g", "!*.rs", "-g", "main.rs", "needle",
            ],
            &["-n", "--sort", "path", "--iglob", "*.rs", "needle"],
            &[
                "-n",
                "--sort",
                "path",
                "--glob-case-insensitive",
                "-g",
                "*.rs",
                "needle",
            ],
            &["-n", "--sort", "path", "-g", "src/deep/**", "needle"],
        ],
    );
}

#[test]
fn types_add_clear_negate_and_all() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    same(
        d,
        &[
            &["-n", "--sort", "path", "-t", "all", "needle"],
            &["-n", "--sort", "path", "-t", "rust", "needle"],
            &["-n", "--sort", "path", "-T", "rust", "-T", "md", "needle"],
            &[
                "-n",
                "--sort",
                "path",
                "--type-add",
                "foo:*.foo",
                "-t",
                "foo",
                "needle",
            ],
            &[
                "-n",
                "--sort",
                "path",
                "--type-add",
                "both:include:rust,foo",
                "--type-add",
                "foo:*.foo",
                "-t",
                "both",
                "needle",
            ],
            &[
                "-n",
                "--sort",
                "path",
                "--type-clear",
                "rust",
                "--type-add",
                "rust:*.RS",
                "-t",
                "rust",
                "needle",
            ],
            &["-n", "--sort", "path", "-t", "nosuchtype", "needle"],
        ],
    );
}

#[test]
fn ignore_files_hidden_files_and_unrestricted() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    same(
        d,
        &[
            &["-n", "--sort", "path", "needle"],
            &["-n", "--sort", "path", "--no-ignore", "needle"],
            &["-n", "--sort", "path", "--no-ignore", "--ignore", "needle"],
            &["-n", "--sort", "path", "--no-ignore-vcs", "needle"],
            &["-n", "--sort", "path", "--no-ignore-dot", "needle"],
            &["-n", "--sort", "path", "--no-ignore-exclude", "needle"],
            &["-n", "--sort", "path", "--hidden", "needle"],
            &["-n", "--sort", "path", "-.", "needle"],
            &["-n", "--sort", "path", "--hidden", "--no-hidden", "needle"],
            &["-n", "--sort", "path", "-u", "needle"],
            &["-n", "--sort", "path", "-uu", "needle"],
            &["-n", "--sort", "path", "-u", "-u", "needle"],
            &["-n", "--sort", "path", "--max-depth", "1", "needle"],
            &["-n", "--sort", "path", "--max-depth", "2", "needle"],
            &["-n", "--sort", "path", "--maxdepth", "3", "needle"],
        ],
    );
    // Outside a repository, .gitignore applies only with --no-require-git.
    fs::remove_dir_all(d.join(".git")).unwrap();
    same(
        d,
        &[
            &["-n", "--sort", "path", "needle"],
            &["-n", "--sort", "path", "--no-require-git", "needle"],
            &[
                "-n",
                "--sort",
                "path",
                "--no-require-git",
                "--require-git",
                "needle",
            ],
        ],
    );
}

#[test]
fn patterns_from_e_f_and_matching_flags() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    let pats = tempfile::tempdir().unwrap();
    let file = pats.path().join("pats");
    fs::write(&file, "again\r\nupper\n").unwrap();
    let file = file.to_str().unwrap();
    same(
        d,
        &[
            &["-n", "--sort", "path", "-e", "again", "-e", "upper"],
            &["-n", "--sort", "path", "-e", "-needle", "-e", "deep"],
            &["-n", "--sort", "path", "--regexp", "again", "docs"],
            &["-n", "--sort", "path", "-f", file],
            &["-n", "--sort", "path", "-f", file, "-e", "dot", "src"],
            &["-n", "--sort", "path", "-F", "needle()"],
            &["-n", "--sort", "path", "-w", "needle"],
            &["-n", "--sort", "path", "-x", "needle upper"],
            &["-n", "--sort", "path", "-v", "needle", "docs"],
            &["-n", "--sort", "path", "-U", "two\nline"],
            &["-n", "--sort", "path", "-U", "two.line"],
            &[
                "-n",
                "--sort",
                "path",
                "-U",
                "--multiline-dotall",
                "two.line",
            ],
            &["-n", "--sort", "path", "\\wneedle"],
            &["-n", "--sort", "path", "--no-unicode", "\\wneedle"],
            &["-n", "--sort", "path", "needle$"],
            &["-n", "--sort", "path", "-m", "1", "needle", "src"],
            &["-n", "--sort", "path", "-m", "0", "needle"],
        ],
    );
}

#[test]
fn ignore_files_from_the_command_line() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    let rules = tempfile::tempdir().unwrap();
    let ign = rules.path().join("rules");
    fs::write(&ign, "*.md\n!docs/\nsrc/deep\n").unwrap();
    let ign2 = rules.path().join("rules2");
    fs::write(&ign2, "!src/deep\n").unwrap();
    let (ign, ign2) = (ign.to_str().unwrap(), ign2.to_str().unwrap());
    same(
        d,
        &[
            &["-n", "--sort", "path", "--ignore-file", ign, "needle"],
            &[
                "-n",
                "--sort",
                "path",
                "--ignore-file",
                ign,
                "--ignore-file",
                ign2,
                "needle",
            ],
            &[
                "-n",
                "--sort",
                "path",
                "--no-ignore",
                "--ignore-file",
                ign,
                "needle",
            ],
            &[
                "-n",
                "--sort",
                "path",
                "--ignore-file",
                ign,
                "--no-ignore-files",
                "needle",
            ],
            &["--sort", "path", "--files", "--ignore-file", ign],
        ],
    );
}

/// `--crlf`: `$` matches before `\r\n`, and the lines rg ends itself end in `\r\n`.
#[test]
fn crlf_line_ends() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    write(d, "crlf.txt", b"crlf needle\r\nbar\r\n");
    same(
        d,
        &[
            &["-c", "--sort", "path", "needle$"][..],
            &["-c", "--sort", "path", "--crlf", "needle$"],
            &["-c", "--sort", "path", "--crlf", "-U", "needle$"],
            &["-c", "--sort", "path", "--crlf", "--no-crlf", "needle$"],
            &["-l", "--sort", "path", "--crlf", "needle$"],
            &["--sort", "path", "--crlf", "--heading", "-H", "needle$"],
        ],
    );
}

#[test]
fn summaries_and_quiet() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    same(
        d,
        &[
            &["--sort", "path", "-c", "needle"],
            &["--sort", "path", "--count", "-l", "needle"],
            &["--sort", "path", "-l", "needle"],
            &[
                "--sort",
                "path",
                "-l",
                "--files-without-match",
                "-l",
                "needle",
            ],
            &["--sort", "path", "-q", "needle"],
            &["--sort", "path", "-q", "nothing-like-this"],
            &["--sort", "path", "nothing-like-this"],
        ],
    );
}

#[test]
fn files_lists_what_would_be_searched() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    same(
        d,
        &[
            &["--sort", "path", "--files"],
            &["--sort", "path", "--files", "src"],
            &["--sort", "path", "--files", "./src"],
            &["--sort", "path", "--files", "./src/", "docs"],
            &["--sort", "path", "--files", "."],
            &["--sort", "path", "--files", "-g", "*.rs"],
            &["--sort", "path", "--files", "-t", "md", "--hidden"],
            &["--sort", "path", "--files", "-uu"],
            &["--sort", "path", "--files", "--max-depth", "2"],
            &["--sort", "path", "--files", "--null"],
            &["--sort", "path", "--files", "src/main.rs"],
            &["--sort", "path", "--files", "ignored.txt"],
            &["--sort", "path", "--files", "-g", "*.zz"],
            &["--sort", "path", "--files", "-g", "*.zz", "."],
        ],
    );
}

#[test]
fn paths_outside_the_current_directory_are_roots_of_their_own() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    let src = d.join("src");
    let abs = d.join("docs");
    same(
        &src,
        &[
            &["--sort", "path", "--files", "../docs"],
            &["--sort", "path", "--files", abs.to_str().unwrap()],
            &["--sort", "path", "--files", "..", "-g", "*.md"],
            &["--sort", "path", "--files", "../a.foo"],
            &["-q", "needle", "../docs"],
            &["-q", "nothing-like-this", "../docs"],
            // A missing path outside is reported for itself; the others are still searched.
            &["--sort", "path", "--files", "../nope/x", "../docs"],
            &["-l", "needle", "/nonexistent-rootbound/dir"],
        ],
    );
    let missing = ours(&src, &os(&["needle", "/nonexistent-rootbound/dir"]));
    assert_eq!(
        missing.stderr,
        "/nonexistent-rootbound/dir: No such file or directory (os error 2)\n"
    );
}

#[test]
fn exit_codes_and_messages_follow_rg() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    same(
        d,
        &[
            &["-n", "--sort", "path", "-g", "*.zz", "needle"],
            &["-n", "--sort", "path", "-g", "*.zz", "needle", "."],
            &["-n", "--sort", "path", "needle", "nope"],
            &["-n", "--sort", "path", "needle", "nope", "docs"],
            &["-q", "needle", "nope", "docs"],
            &[
                "-n",
                "--sort",
                "path",
                "--no-messages",
                "needle",
                "nope",
                "docs",
            ],
        ],
    );
    // rg's words on stderr.
    let nothing = ours(d, &os(&["-g", "*.zz", "needle"]));
    assert_eq!(nothing.code, 2);
    assert!(
        nothing.stderr.starts_with("No files were searched"),
        "{nothing:?}"
    );
    let missing = ours(d, &os(&["needle", "nope", "docs"]));
    assert!(
        missing
            .stderr
            .contains("nope: No such file or directory (os error 2)"),
        "{missing:?}"
    );
    let quiet = ours(d, &os(&["--no-messages", "needle", "nope"]));
    assert_eq!((quiet.code, quiet.stderr.as_str()), (2, ""));
}

#[test]
fn files_named_on_the_command_line_are_searched_whatever_the_filters() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    same(
        d,
        &[
            &["-l", "needle", "ignored.txt"],
            &["-l", "needle", ".dotfile"],
            &["-l", "-g", "!*.txt", "needle", "ignored.txt"],
            &["-l", "-t", "rust", "needle", "docs/readme.md"],
            &["-l", "-T", "md", "needle", "docs/readme.md"],
            &["-l", "--max-depth", "0", "needle", "a.foo"],
        ],
    );
}

/// A symlink named as an argument (to a directory or a file, inside the current directory or
/// beside it) has its results shown under the link's name, as rg shows them, not its target's.
#[test]
fn symlink_arguments_are_shown_under_their_own_name() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    std::os::unix::fs::symlink("docs", d.join("dlink")).unwrap();
    std::os::unix::fs::symlink("a.foo", d.join("flink")).unwrap();
    same(
        d,
        &[
            &["-n", "--sort", "path", "needle", "dlink"],
            &["-n", "--sort", "path", "needle", "./dlink/"],
            &["-n", "--sort", "path", "needle", "flink", "dlink"],
        ],
    );
    same(
        &d.join("src"),
        &[
            &["-n", "--sort", "path", "needle", "../dlink"],
            &["-n", "--sort", "path", "needle", "../flink", "../src/deep"],
        ],
    );
}

/// Results under `./dir`, `../x` and absolute arguments are shown under the argument as typed. The
/// flag layer hands the printer `PrintOpts::path_prefix`; this runs once the printer applies it.
#[test]
fn search_results_are_shown_under_the_argument_as_typed() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    same(
        d,
        &[
            &["-l", "--sort", "path", "needle", "./docs"],
            &["-l", "--sort", "path", "needle", "./src/"],
            &["-l", "--sort", "path", "needle", "."],
            &[
                "-n",
                "--sort",
                "path",
                "needle",
                "./docs/readme.md",
                "./a.foo",
            ],
        ],
    );
    let abs = d.join("docs");
    same(
        &d.join("src"),
        &[
            &["-l", "--sort", "path", "needle", "../docs"],
            &["-l", "--sort", "path", "needle", abs.to_str().unwrap()],
        ],
    );
}

#[test]
fn json_conflicts_with_the_summaries_as_in_rg() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    for args in [
        &["--json", "-c", "needle"][..],
        &["--json", "-l", "needle"],
        &["--json", "--files"],
    ] {
        let (want, got) = (rg(d, &os(args)), ours(d, &os(args)));
        assert_eq!((want.code, got.code), (2, 2), "{args:?}: {got:?}");
    }
}

#[test]
fn type_list_shows_added_types() {
    let t = tree();
    let r = ours(t.path(), &os(&["--type-list", "--type-add", "foo:*.foo"]));
    assert_eq!(r.code, 0);
    assert!(r.stdout.lines().any(|l| l == "foo: *.foo"), "{r:?}");
    assert!(r.stdout.lines().any(|l| l == "rust: *.rs"), "{r:?}");
    let cleared = ours(t.path(), &os(&["--type-list", "--type-clear", "rust"]));
    assert!(!cleared.stdout.contains("rust:"), "{cleared:?}");
}

#[test]
fn sizes_take_rgs_suffixes() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    write(d, "big.txt", [b"needle big\n".as_slice(); 200].concat());
    same(
        d,
        &[
            &["-l", "--sort", "path", "--max-filesize", "1K", "needle"],
            &["-l", "--sort", "path", "--max-filesize", "1M", "needle"],
            &["-l", "--sort", "path", "--max-filesize", "100", "needle"],
        ],
    );
}

#[test]
fn refused_flags_say_why_and_exit_2() {
    let t = tree();
    let d = t.path();
    for (args, word) in [
        (&["-z", "needle"][..], "search-zip"),
        (&["-L", "needle"], "follow"),
        (&["--sort", "modified", "needle"], "path order"),
        (&["-E", "utf-16le", "needle"], "encoding"),
        (&["--colors", "match:fg:purple", "needle"], "--colors"),
        (&[][..], "no pattern"),
        (&["-P", "needle"], "pcre2"),
        (&["--engine", "pcre2", "needle"], "engine"),
        (&["--pre", "cat", "needle"], "preprocessors"),
    ] {
        let r = ours(d, &os(args));
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert!(r.stderr.contains(word), "{args:?}: {r:?}");
    }
    // ...and the last of -z/--no-search-zip wins as in rg.
    assert_eq!(
        ours(d, &os(&["-z", "--no-search-zip", "-q", "needle"])).code,
        0
    );
}

#[test]
fn file_name_arguments_need_not_be_utf8() {
    if !have_rg() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let name = OsStr::from_bytes(b"caf\xe9.txt");
    fs::write(d.join(name), "needle\n").unwrap();
    fs::write(d.join("b.txt"), "needle\n").unwrap();
    fs::write(d.join("back\\slash.txt"), "needle\n").unwrap();
    fs::write(d.join(OsStr::from_bytes(b"tab\there.txt")), "needle\n").unwrap();
    same(d, &[&["--sort", "path", "--files"]]);
    for args in [
        vec![OsString::from("--files"), name.to_os_string()],
        vec![OsString::from("-q"), "needle".into(), name.to_os_string()],
        vec![OsString::from("-c"), "needle".into(), name.to_os_string()],
    ] {
        let (want, got) = (rg(d, &args), ours(d, &args));
        assert_eq!(want.code, got.code, "{args:?}: {want:?} {got:?}");
        if args[0] != "-c" {
            assert_eq!(want.stdout, got.stdout, "{args:?}");
        }
    }
}

#[test]
fn include_zero_and_path_separator() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    write(d, "src/zero.txt", b"nothing here\n");
    same(
        d,
        &[
            &["--sort", "path", "-c", "--include-zero", "needle"],
            &["-c", "--include-zero", "needle", "src/main.rs"],
            &["--sort", "path", "--path-separator", "Z", "-n", "needle"],
            &[
                "--sort",
                "path",
                "--path-separator",
                "Z",
                "-l",
                "needle",
                "./src",
            ],
            &["--sort", "path", "--path-separator", "Z", "--files"],
            &["--sort", "path", "--path-separator", "", "-l", "needle"],
            &["--path-separator", "ab", "-l", "needle"],
        ],
    );
}

#[test]
fn passthru_prints_every_line_and_the_last_of_it_and_context_wins() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let d = t.path();
    write(d, "pt/a", b"foo\nbar\nbaz\nquux\n");
    write(d, "pt/b", b"nothing\n");
    same(
        d,
        &[
            &["--sort", "path", "--passthru", "bar", "pt"],
            &["--sort", "path", "--passthru", "-n", "bar", "pt"],
            &["--sort", "path", "-C1", "--passthru", "bar", "pt"],
            &["--sort", "path", "--passthru", "-C1", "bar", "pt"],
            &["--sort", "path", "--passthru", "-B1", "bar", "pt"],
            &["--sort", "path", "--passthru", "-c", "bar", "pt"],
            &["--sort", "path", "--passthru", "-m1", "-n", "a", "pt"],
            &["--sort", "path", "--passthru", "-m2", "a", "pt"],
        ],
    );
}

/// `--stats`' output with its two times blanked.
fn untimed(r: Run) -> Run {
    let stdout = String::from_utf8(support::rg::normalize(r.stdout.as_bytes())).unwrap();
    Run { stdout, ..r }
}

/// [`same`] for `--stats` output, its two times blanked.
fn same_untimed(dir: &Path, cases: &[&[&str]]) {
    for args in cases {
        let args = os(args);
        let (want, got) = (untimed(rg(dir, &args)), untimed(ours(dir, &args)));
        assert_eq!(
            (&got.stdout, got.code),
            (&want.stdout, want.code),
            "{args:?}"
        );
    }
}

#[test]
fn stats_byte_offsets_and_line_terminators_as_rg() {
    if !have_rg() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    write(d, "s/a.txt", b"static a\nb\n  static static\n");
    write(d, "s/b.txt", b"nothing\n");
    write(d, "s/c.txt", b"x\nstatic\nmulti\nline static\n");
    write(d, "crlf.txt", b"one Sherlock\r\ntwo\r\n");
    write(d, "nul.txt", b"foo\x00bar\x00\x00baz\x00");
    write(d, "bom.txt", b"\xff\xfe\x00\x62");
    same_untimed(
        d,
        &[
            &["--sort", "path", "--stats", "static", "s"][..],
            &["--sort", "path", "--stats", "-c", "static", "s"],
            &["--sort", "path", "--stats", "-v", "static", "s"],
            &["--sort", "path", "--stats", "nomatch", "s"],
        ],
    );
    same(
        d,
        &[
            &["--sort", "path", "-b", "static", "s"],
            &["--sort", "path", "-b", "-o", "static", "s"],
            &["--sort", "path", "-b", "-n", "--column", "static", "s"],
            &["--sort", "path", "-b", "--vimgrep", "static", "s"],
            &["--sort", "path", "-b", "-C1", "multi", "s"],
            &[
                "--sort",
                "path",
                "-U",
                "-o",
                "-n",
                "static\nmulti\nline",
                "s",
            ],
            &["--sort", "path", "-U", "--vimgrep", "x\nstatic|multi", "s"],
            &["--sort", "path", "-U", "-b", "-n", "static\nmulti", "s"],
            &["--sort", "path", "-U", "-rX", "-n", "\n", "s/a.txt"],
            &["--sort", "path", "-v", "-o", "static", "s"],
            &["--sort", "path", "-v", "-r", "X", "static", "s"],
            &["--sort", "path", "-U", "-v", "-o", "static", "s"],
            &["--sort", "path", "-U", "-v", "-o", "-rX", "static", "s"],
            &["--crlf", "-o", "Sherlock$", "crlf.txt"],
            &["--crlf", "--color", "always", "Sherlock", "crlf.txt"],
            &["--crlf", "-c", "Sherlock", "crlf.txt", "s/a.txt"],
            &["--null-data", ".+", "nul.txt"],
            &["--null-data", "-n", "ba", "nul.txt"],
            &["-a", "\\x00", "bom.txt"],
            &["--encoding", "none", "-a", "\\x00", "bom.txt"],
        ],
    );
}

#[test]
fn a_named_binary_file_read_in_buffers_hides_matches_from_its_first_nul_on() {
    if !have_rg() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    // The NUL sits in the second 64 KiB buffer: read in buffers, a match before it but in that
    // buffer is not printed; memory-mapped (one buffer), it is.
    let mut hay = b"first needle\n".to_vec();
    while hay.len() < 70_000 {
        hay.extend_from_slice(b"filler line of text\n");
    }
    hay.extend_from_slice(b"second needle\n\x00after needle\n");
    write(d, "hay", &hay);
    write(d, "dir/other", b"needle\n");
    same(
        d,
        &[
            &["-n", "needle", "hay"],
            &["--no-mmap", "-n", "needle", "hay"],
            &["--mmap", "-n", "needle", "hay"],
            &["--sort", "path", "-n", "needle", "hay", "dir"],
            &["--no-mmap", "-c", "needle", "hay"],
            &["--no-mmap", "-n", "second", "hay"],
        ],
    );
}

#[test]
fn ignore_file_case_insensitive_as_rg() {
    if !have_rg() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    write(d, ".ignore", b"FOO.txt\n");
    write(d, "list", b"BAR.TXT\n");
    for f in ["foo.txt", "bar.txt", "baz.txt"] {
        write(d, f, b"needle\n");
    }
    same(
        d,
        &[
            &["--sort", "path", "--files"][..],
            &[
                "--sort",
                "path",
                "--files",
                "--ignore-file-case-insensitive",
            ],
            &["--sort", "path", "--ignore-file", "list", "needle"],
            &[
                "--sort",
                "path",
                "--ignore-file-case-insensitive",
                "--ignore-file",
                "list",
                "needle",
            ],
            &[
                "--sort",
                "path",
                "--ignore-file-case-insensitive",
                "--no-ignore-file-case-insensitive",
                "-l",
                "needle",
            ],
        ],
    );
}

/// `--one-file-system`, where this machine has a file system mounted inside another one that a
/// test may write to (`/dev/shm` inside `/dev`, as on any normal Linux box); elsewhere the test says
/// it skipped, and under CI it fails instead (`support::child::skip`).
#[test]
fn one_file_system_does_not_enter_another_mount() {
    use std::os::unix::fs::MetadataExt;
    const WHAT: &str = "one_file_system_does_not_enter_another_mount";
    let (Ok(dev), Ok(shm)) = (fs::metadata("/dev"), fs::metadata("/dev/shm")) else {
        support::child::skip(WHAT, "no /dev/shm");
        return;
    };
    if dev.dev() == shm.dev() {
        support::child::skip(WHAT, "/dev/shm is not a mount of its own here");
        return;
    }
    // Not hidden (tempdir's default name starts with a dot).
    let Ok(t) = tempfile::Builder::new()
        .prefix("rootbound-ofs")
        .tempdir_in("/dev/shm")
    else {
        support::child::skip(WHAT, "/dev/shm is not writable");
        return;
    };
    let name = t.path().file_name().unwrap().to_string_lossy().into_owned();
    write(t.path(), "f.txt", b"needle\n");
    let listed = |extra: &[&str]| {
        let mut args = vec!["--files"];
        args.extend_from_slice(extra);
        let r = ours(Path::new("/dev"), &os(&args));
        r.stdout.lines().any(|l| l.contains(&name))
    };
    assert!(listed(&[]), "without the flag the walk enters /dev/shm");
    assert!(
        !listed(&["--one-file-system"]),
        "it stays on /dev's file system"
    );
    assert!(listed(&["--one-file-system", "--no-one-file-system"]));
}

/// Line terminators (`--crlf`, `--null-data`) through `-r`, `-o`, `--trim`, `$` and colour; `-v`
/// and `-U` under `--passthru -m`; `--stats` under the summary modes and `-q`; the exit code of
/// `--files-without-match` with a binary file.
#[test]
fn terminators_replacements_and_stats_modes_as_rg() {
    if !have_rg() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    write(d, "a.txt", b"foo bar\nbaz\nfoo\nqux foo\n");
    write(d, "crlf.txt", b"foo\r\nbar\r\nfoo x\r\n");
    write(d, "t4", b"  foo\n  \nfoo  foo\n");
    write(d, "nul.txt", b"foo\0bar\0foo x\0tail foo");
    write(d, "v.txt", b"a\nb\nfoo\nc\n");
    write(d, "z.txt", b"a\0\n  foo\0");
    write(d, "cr.txt", b" \r foo\r\n");
    same(
        d,
        &[
            &["--crlf", "-r", "X", "foo", "crlf.txt"][..],
            &["--null-data", "-r", "X", "foo", "t4"],
            &["-n", "-r", "X\nY", "foo", "a.txt"],
            &["-b", "--vimgrep", "-r", "X\nY", "foo", "a.txt"],
            &["-U", "--crlf", "-o", "foo\\s+bar", "crlf.txt"],
            &["-o", "$", "a.txt"],
            &["-r", "X", "$", "a.txt"],
            &["--count-matches", "$", "a.txt"],
            &["--null-data", "--count-matches", "o\\n", "t4"],
            &["--crlf", "-o", "o\\s*", "crlf.txt"],
            &["--crlf", "--vimgrep", "o\\s", "crlf.txt"],
            &["--color", "always", "-b", "-n", "foo", "a.txt"],
            &["--passthru", "-m1", "-v", "-n", "foo", "v.txt"],
            &["--null-data", "--trim", "foo", "z.txt"],
            &["--crlf", "--trim", "foo", "cr.txt"],
            &["--sort", "path", "--files-without-match", "foo"],
            &["--sort", "path", "--files-without-match", "nothing-here"],
            &["-U", "-c", "r\nb", "a.txt"],
            &["-U", "-c", "foo", "a.txt"],
            &["-U", "-c", "-v", "foo", "a.txt"],
            &["-U", "--count-matches", "o\nb|x", "a.txt"],
            &["-E", "NONE", "foo", "a.txt"],
            &["--sort", "path", "-U", "-l", "foo"],
            &["--sort", "path", "-U", "--files-without-match", "foo"],
            &["--sort", "path", "-U", "-c", "foo"],
            &["--sort", "path", "-U", "-c", "o\nb|oo"],
            &["-r", "X", "$", "nul.txt"],
            &["-v", "-r", "X", "foo", "a.txt"],
            &[
                "--sort",
                "path",
                "-n",
                "--null-data",
                "--crlf",
                "foo",
                "crlf.txt",
                "nul.txt",
            ],
            &[
                "--sort",
                "path",
                "-n",
                "--crlf",
                "--null-data",
                "foo",
                "crlf.txt",
                "nul.txt",
            ],
            &["-E", "UTF-8", "foo", "a.txt"],
        ],
    );
    same_untimed(
        d,
        &[
            &["--sort", "path", "--stats", "-l", "foo"][..],
            &["--sort", "path", "--stats", "-q", "foo"],
            &["--sort", "path", "--stats", "--files-without-match", "foo"],
            &[
                "--sort", "path", "--stats", "--color", "always", "foo", "a.txt", "crlf.txt",
            ],
            &["--sort", "path", "--stats", "foo", "nul.txt"],
        ],
    );
}
