//! `rootbound grep`'s output against rg 13's, byte for byte, through the command line: each case
//! runs both with the same flags in the same tree (rg with `--sort path`, rootbound's order) and
//! compares stdout (`--json`: the parsed messages without their timings).
//!
//! Every flag here is one `rootbound grep` accepts: a refusal fails the case like a difference
//! would (it never skips). The printers behind every flag are also checked at the unit level
//! (src/cli/grep/print/tests.rs).

use crate::support;
use crate::support::grep::write;
use crate::support::rg::{have_rg, json_messages, os, sorted_by_path};
use std::path::Path;

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(
        r,
        "a.txt",
        "hello static world\nfoo\n   static x static\nbar\nqux static_thing\n\tstatic tab\n",
    );
    write(r, "b/c.rs", "fn main() {\n    static X: u8 = 1;\n}\n");
    write(r, "b/d.rs", "nothing here\n");
    write(r, "crlf.txt", "crlf static\r\nline\r\n");
    write(r, "e.txt", "no newline static");
    write(
        r,
        "long.txt",
        format!(
            "{} static {} static end\nshort static\n",
            "x".repeat(40),
            "y".repeat(30)
        ),
    );
    write(r, "bin.dat", b"static first\nbin\0ary static\n");
    write(r, "latin.txt", b"caf\xe9 static\n");
    write(r, "utf.txt", "caf\u{e9} static \u{2603}\n");
    write(r, "mc.txt", "a m\nb m\nc\nd m\ne\n");
    write(
        r,
        "ctx.txt",
        "1\n2 m\n3\n4\n5\n6\n7 m\n8\n9\n10\n11\n12\n13 m\n",
    );
    dir
}

/// Runs both: (rootbound's stdout, rg's). A flag rootbound refuses fails the test.
fn both(root: &Path, flags: &[&str]) -> (Vec<u8>, Vec<u8>) {
    let ours = support::rg::rootbound_grep(root, &os(flags), None);
    let err = String::from_utf8_lossy(&ours.stderr);
    assert!(
        !(ours.status.code() == Some(2)
            && (err.contains("unexpected argument") || err.contains("unrecognized"))),
        "`rootbound grep` refused {flags:?}: {}",
        err.lines().next().unwrap_or("")
    );
    let theirs = support::rg::rg(root, &sorted_by_path(&os(flags)), None);
    (ours.stdout, theirs.stdout)
}

/// Asserts that rg and rootbound print the same stdout for `flags` in [`tree`].
fn same(flags: &[&str]) {
    if !have_rg() {
        return;
    }
    let t = tree();
    let (a, b) = both(t.path(), flags);
    if a != b {
        let (a, b) = (String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
        let at = a
            .split('\n')
            .zip(b.split('\n'))
            .position(|(x, y)| x != y)
            .unwrap_or(0);
        panic!(
            "rg {flags:?}: first difference at line {at}\n--- rootbound\n{:?}\n--- rg\n{:?}",
            a.split('\n').skip(at).take(3).collect::<Vec<_>>(),
            b.split('\n').skip(at).take(3).collect::<Vec<_>>()
        );
    }
}

#[test]
fn match_and_context_lines_print_as_rg() {
    same(&["-n", "static"]);
    same(&["-n", "-o", "stat\\w+"]);
    same(&["-n", "-C1", "m"]);
    same(&["-n", "-A1", "m"]);
}

#[test]
fn count_and_file_list_summaries_print_as_rg() {
    same(&["-c", "static"]);
    same(&["-l", "static"]);
    same(&["--files-without-match", "static"]);
    same(&["--count-matches", "static"]);
}

#[test]
fn binary_files_named_as_arguments_print_as_rg() {
    // Two path arguments: both show the path.
    same(&["-n", "static", "bin.dat", "a.txt"]);
    same(&["-c", "static", "bin.dat", "a.txt"]);
    same(&["-n", "-a", "static", "bin.dat", "a.txt"]);
}

#[test]
fn printer_flags_print_as_rg() {
    same(&["-n", "--heading", "static"]);
    same(&["-n", "--color", "always", "static"]);
    same(&["-n", "--heading", "--color", "always", "-C1", "m"]);
    same(&["-n", "--column", "static"]);
    same(&["--vimgrep", "static"]);
    same(&["-n", "--null", "static"]);
    same(&["-n", "--trim", "static"]);
    same(&["-n", "-M", "30", "static"]);
    same(&["-n", "-M", "30", "--max-columns-preview", "static"]);
    same(&["-n", "-r", "<$1>", "(st)atic"]);
    same(&["-n", "-o", "-r", "[$name]", "(?P<name>st)atic"]);
    same(&["-n", "--context-separator", "==", "-C1", "m"]);
    same(&["-q", "static"]);
}

#[test]
fn json_messages_match_rg_apart_from_timings() {
    if !have_rg() {
        return;
    }
    let t = tree();
    for flags in [
        &["--json", "static"][..],
        &["--json", "-C1", "m"],
        &["--json", "static", "bin.dat", "a.txt"],
        &["--json", "caf"],
        &["--json", "-v", "-C1", "m", "mc.txt"],
    ] {
        let (a, b) = both(t.path(), flags);
        let (a, b) = (json_messages(&a), json_messages(&b));
        if let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) {
            panic!(
                "rg {flags:?}: message {i} differs\n--- rootbound\n{:?}\n--- rg\n{:?}",
                a.get(i),
                b.get(i)
            );
        }
    }
}
