//! ripgrep 13.0.0 `tests/feature.rs` (part 1 of 2), ported: each body is rg's, with the expected
//! outputs left out (every run is compared with `rg` itself, see `runner`).

use super::super::hay::SHERLOCK;
use super::super::util::{Dir, TestCommand};
use super::Case;

/// The rg test file these cases come from.
const FILE: &str = "feature";

// See: https://github.com/BurntSushi/ripgrep/issues/1
rgtest!(f1_sjis, |dir: Dir, mut cmd: TestCommand| {
    dir.create_bytes(
        "foo",
        b"\x84Y\x84u\x84\x82\x84|\x84\x80\x84{ \x84V\x84\x80\x84|\x84}\x84\x83",
    );
    cmd.arg("-Esjis").arg("Шерлок Холмс");
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1
rgtest!(f1_utf16_auto, |dir: Dir, mut cmd: TestCommand| {
    dir.create_bytes(
        "foo",
        b"\xff\xfe(\x045\x04@\x04;\x04>\x04:\x04 \x00%\x04>\x04;\x04<\x04A\x04",
    );
    cmd.arg("Шерлок Холмс");
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1
rgtest!(f1_utf16_explicit, |dir: Dir, mut cmd: TestCommand| {
    dir.create_bytes(
        "foo",
        b"\xff\xfe(\x045\x04@\x04;\x04>\x04:\x04 \x00%\x04>\x04;\x04<\x04A\x04",
    );
    cmd.arg("-Eutf-16le").arg("Шерлок Холмс");
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1
rgtest!(f1_eucjp, |dir: Dir, mut cmd: TestCommand| {
    dir.create_bytes(
        "foo",
        b"\xa7\xba\xa7\xd6\xa7\xe2\xa7\xdd\xa7\xe0\xa7\xdc \xa7\xb7\xa7\xe0\xa7\xdd\xa7\xde\xa7\xe3"
    );
    cmd.arg("-Eeuc-jp").arg("Шерлок Холмс");
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1
rgtest!(f1_unknown_encoding, |_: Dir, mut cmd: TestCommand| {
    cmd.arg("-Efoobar").assert_non_empty_stderr();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1
rgtest!(f1_replacement_encoding, |_: Dir, mut cmd: TestCommand| {
    cmd.arg("-Ecsiso2022kr").assert_non_empty_stderr();
});

// See: https://github.com/BurntSushi/ripgrep/issues/7
rgtest!(f7, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    dir.create("pat", "Sherlock\nHolmes");

    cmd.arg("-fpat").arg("sherlock").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/7
rgtest!(f7_stdin, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);

    cmd.arg("-f-").pipe(b"Sherlock");
});

// See: https://github.com/BurntSushi/ripgrep/issues/20
rgtest!(f20_no_filename, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    cmd.arg("--no-filename");

    cmd.arg("--no-filename").arg("Sherlock").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/34
rgtest!(f34_only_matching, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);

    cmd.arg("-o").arg("Sherlock").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/34
rgtest!(
    f34_only_matching_line_column,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("sherlock", SHERLOCK);

        cmd.arg("-o").arg("--column").arg("-n").arg("Sherlock");
        cmd.stdout();
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/45
rgtest!(f45_relative_cwd, |dir: Dir, mut cmd: TestCommand| {
    dir.create(".not-an-ignore", "foo\n/bar");
    dir.create_dir("bar");
    dir.create_dir("baz/bar");
    dir.create_dir("baz/baz/bar");
    dir.create("bar/test", "test");
    dir.create("baz/bar/test", "test");
    dir.create("baz/baz/bar/test", "test");
    dir.create("baz/foo", "test");
    dir.create("baz/test", "test");
    dir.create("foo", "test");
    dir.create("test", "test");

    cmd.arg("-l").arg("test");

    // First, get a baseline without applying ignore rules.
    cmd.stdout();

    // Now try again with the ignore file activated.
    cmd.arg("--ignore-file").arg(".not-an-ignore");
    cmd.stdout();

    // Now do it again, but inside the baz directory. Since the ignore file
    // is interpreted relative to the CWD, this will cause the /bar anchored
    // pattern to filter out baz/bar, which is a subtle difference between true
    // parent ignore files and manually specified ignore files.
    let mut cmd = dir.command();
    cmd.args(&["--ignore-file", "../.not-an-ignore", "-l", "test"]);
    cmd.current_dir(dir.path().join("baz"));
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/45
rgtest!(
    f45_precedence_with_others,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create(".not-an-ignore", "*.log");
        dir.create(".ignore", "!imp.log");
        dir.create("imp.log", "test");
        dir.create("wat.log", "test");

        cmd.arg("--ignore-file").arg(".not-an-ignore").arg("test");
        cmd.stdout();
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/45
rgtest!(f45_precedence_internal, |dir: Dir, mut cmd: TestCommand| {
    dir.create(".not-an-ignore1", "*.log");
    dir.create(".not-an-ignore2", "!imp.log");
    dir.create("imp.log", "test");
    dir.create("wat.log", "test");

    cmd.args(&[
        "--ignore-file",
        ".not-an-ignore1",
        "--ignore-file",
        ".not-an-ignore2",
        "test",
    ]);
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/68
rgtest!(f68_no_ignore_vcs, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir(".git");
    dir.create(".gitignore", "foo");
    dir.create(".ignore", "bar");
    dir.create("foo", "test");
    dir.create("bar", "test");

    cmd.arg("--no-ignore-vcs").arg("test").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/70
rgtest!(f70_smart_case, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);

    cmd.arg("-S").arg("sherlock").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/89
rgtest!(f89_files_with_matches, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);

    cmd.arg("--null")
        .arg("--files-with-matches")
        .arg("Sherlock");
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/89
rgtest!(f89_files_without_match, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    dir.create("file.py", "foo");

    cmd.arg("--null")
        .arg("--files-without-match")
        .arg("Sherlock");
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/89
rgtest!(f89_count, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);

    cmd.arg("--null").arg("--count").arg("Sherlock");
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/89
rgtest!(f89_files, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);

    cmd.arg("--null").arg("--files").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/89
rgtest!(f89_match, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);

    cmd.arg("--null").arg("-C1").arg("Sherlock").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/109
rgtest!(f109_max_depth, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir("one");
    dir.create("one/pass", "far");
    dir.create_dir("one/too");
    dir.create("one/too/many", "far");

    cmd.arg("--maxdepth").arg("2").arg("far");
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/124
rgtest!(
    f109_case_sensitive_part1,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("foo", "tEsT");

        cmd.arg("--smart-case")
            .arg("--case-sensitive")
            .arg("test")
            .assert_err();
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/124
rgtest!(
    f109_case_sensitive_part2,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("foo", "tEsT");
        cmd.arg("--ignore-case")
            .arg("--case-sensitive")
            .arg("test")
            .assert_err();
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/129
rgtest!(f129_matches, |dir: Dir, mut cmd: TestCommand| {
    dir.create("foo", "test\ntest abcdefghijklmnopqrstuvwxyz test");

    cmd.arg("-M26").arg("test").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/129
rgtest!(f129_context, |dir: Dir, mut cmd: TestCommand| {
    dir.create("foo", "test\nabcdefghijklmnopqrstuvwxyz");

    cmd.arg("-M20").arg("-C1").arg("test").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/129
rgtest!(f129_replace, |dir: Dir, mut cmd: TestCommand| {
    dir.create("foo", "test\ntest abcdefghijklmnopqrstuvwxyz test");

    cmd.arg("-M26").arg("-rfoo").arg("test").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/159
rgtest!(f159_max_count, |dir: Dir, mut cmd: TestCommand| {
    dir.create("foo", "test\ntest");

    cmd.arg("-m1").arg("test").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/159
rgtest!(f159_max_count_zero, |dir: Dir, mut cmd: TestCommand| {
    dir.create("foo", "test\ntest");

    cmd.arg("-m0").arg("test").assert_err();
});

// See: https://github.com/BurntSushi/ripgrep/issues/243
rgtest!(f243_column_line, |dir: Dir, mut cmd: TestCommand| {
    dir.create("foo", "test");

    cmd.arg("--column").arg("test").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/263
rgtest!(f263_sort_files, |dir: Dir, mut cmd: TestCommand| {
    dir.create("foo", "test");
    dir.create("abc", "test");
    dir.create("zoo", "test");
    dir.create("bar", "test");

    cmd.arg("--sort-files").arg("test").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/275
rgtest!(f275_pathsep, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir("foo");
    dir.create("foo/bar", "test");

    cmd.arg("test").arg("--path-separator").arg("Z");
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/362
rgtest!(f362_dfa_size_limit, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);

    // This should fall back to the nfa engine but should still produce the
    // expected result.
    cmd.arg("--dfa-size-limit")
        .arg("10")
        .arg(r"For\s")
        .arg("sherlock");

    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/362
rgtest!(
    f362_exceeds_regex_size_limit,
    |dir: Dir, mut cmd: TestCommand| {
        // --regex-size-limit doesn't apply to PCRE2.
        if dir.is_pcre2() {
            return;
        }
        cmd.arg("--regex-size-limit")
            .arg("10K")
            .arg(r"[0-9]\w+")
            .assert_err();
    }
);

/// This part's cases, in rg's order.
pub const CASES: &[Case] = &[
    case!(f1_sjis),
    case!(f1_utf16_auto),
    case!(f1_utf16_explicit),
    case!(f1_eucjp),
    case!(f1_unknown_encoding),
    case!(f1_replacement_encoding),
    case!(f7),
    case!(f7_stdin),
    case!(f20_no_filename),
    case!(f34_only_matching),
    case!(f34_only_matching_line_column),
    case!(f45_relative_cwd),
    case!(f45_precedence_with_others),
    case!(f45_precedence_internal),
    case!(f68_no_ignore_vcs),
    case!(f70_smart_case),
    case!(f89_files_with_matches),
    case!(f89_files_without_match),
    case!(f89_count),
    case!(f89_files),
    case!(f89_match),
    case!(f109_max_depth),
    case!(f109_case_sensitive_part1),
    case!(f109_case_sensitive_part2),
    case!(f129_matches),
    case!(f129_context),
    case!(f129_replace),
    case!(f159_max_count),
    case!(f159_max_count_zero),
    case!(f243_column_line),
    case!(f263_sort_files),
    case!(f275_pathsep),
    case!(f362_dfa_size_limit),
    case!(f362_exceeds_regex_size_limit),
];
