//! ripgrep 13.0.0 `tests/regression.rs` (part 2 of 2), ported: each body is rg's, with the expected
//! outputs left out (every run is compared with `rg` itself, see `runner`).

use super::super::hay::SHERLOCK;
use super::super::util::{Dir, TestCommand};
use super::Case;

/// The rg test file these cases come from.
const FILE: &str = "regression";

// See: https://github.com/BurntSushi/ripgrep/issues/553
rgtest!(r553_switch, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);

    cmd.arg("-i").arg("sherlock");
    cmd.stdout();

    // Repeat the `i` flag to make sure everything still works.
    cmd.arg("-i").stdout();
});

rgtest!(r553_flag, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);

    cmd.arg("-C")
        .arg("1")
        .arg(r"world|attached")
        .arg("sherlock");
    cmd.stdout();

    cmd.arg("-C").arg("0").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/568
rgtest!(
    r568_leading_hyphen_option_args,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("file", "foo bar -baz\n");
        cmd.arg("-e-baz").arg("-e").arg("-baz").arg("file");
        cmd.stdout();

        let mut cmd = dir.command();
        cmd.arg("-rni").arg("bar").arg("file");
        cmd.stdout();

        let mut cmd = dir.command();
        cmd.arg("-r").arg("-n").arg("-i").arg("bar").arg("file");
        cmd.stdout();
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/599
//
// This test used to check that we emitted color escape sequences even for
// empty matches, but with the addition of the JSON output format, clients no
// longer need to rely on escape sequences to parse matches. Therefore, we no
// longer emit useless escape sequences.
rgtest!(r599, |dir: Dir, mut cmd: TestCommand| {
    dir.create("input.txt", "\n\ntest\n");
    cmd.args(&[
        "--color",
        "ansi",
        "--colors",
        "path:none",
        "--colors",
        "line:none",
        "--colors",
        "match:fg:red",
        "--colors",
        "match:style:nobold",
        "--line-number",
        r"^$",
        "input.txt",
    ]);

    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/693
rgtest!(
    r693_context_in_contextless_mode,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("foo", "xyz\n");
        dir.create("bar", "xyz\n");

        cmd.arg("-C1").arg("-c").arg("--sort-files").arg("xyz");
        cmd.stdout();
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/807
rgtest!(r807, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir(".git");
    dir.create(".gitignore", ".a/b");
    dir.create_dir(".a/b");
    dir.create_dir(".a/c");
    dir.create(".a/b/file", "test");
    dir.create(".a/c/file", "test");

    cmd.arg("--hidden").arg("test").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/900
rgtest!(r900, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    dir.create("pat", "");

    cmd.arg("-fpat").arg("sherlock").assert_err();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1064
rgtest!(r1064, |dir: Dir, mut cmd: TestCommand| {
    dir.create("input", "abc");
    cmd.arg("a(.*c)").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1174
rgtest!(r1098, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir(".git");
    dir.create(".gitignore", "a**b");
    dir.create("afoob", "test");
    cmd.arg("test").assert_err();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1130
rgtest!(r1130, |dir: Dir, mut cmd: TestCommand| {
    dir.create("foo", "test");
    cmd.arg("--files-with-matches")
        .arg("test")
        .arg("foo")
        .stdout();

    let mut cmd = dir.command();
    cmd.arg("--files-without-match")
        .arg("nada")
        .arg("foo")
        .stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1159
rgtest!(r1159_invalid_flag, |_: Dir, mut cmd: TestCommand| {
    cmd.arg("--wat").assert_exit_code(2);
});

// See: https://github.com/BurntSushi/ripgrep/issues/1159
rgtest!(r1159_exit_status, |dir: Dir, _: TestCommand| {
    dir.create("foo", "test");

    // search with a match gets 0 exit status.
    let mut cmd = dir.command();
    cmd.arg("test").assert_exit_code(0);

    // search with --quiet and a match gets 0 exit status.
    let mut cmd = dir.command();
    cmd.arg("-q").arg("test").assert_exit_code(0);

    // search with a match and an error gets 2 exit status.
    let mut cmd = dir.command();
    cmd.arg("test").arg("no-file").assert_exit_code(2);

    // search with a match in --quiet mode and an error gets 0 exit status.
    let mut cmd = dir.command();
    cmd.arg("-q")
        .arg("test")
        .arg("foo")
        .arg("no-file")
        .assert_exit_code(0);

    // search with no match gets 1 exit status.
    let mut cmd = dir.command();
    cmd.arg("nada").assert_exit_code(1);

    // search with --quiet and no match gets 1 exit status.
    let mut cmd = dir.command();
    cmd.arg("-q").arg("nada").assert_exit_code(1);

    // search with no match and an error gets 2 exit status.
    let mut cmd = dir.command();
    cmd.arg("nada").arg("no-file").assert_exit_code(2);

    // search with no match in --quiet mode and an error gets 2 exit status.
    let mut cmd = dir.command();
    cmd.arg("-q")
        .arg("nada")
        .arg("foo")
        .arg("no-file")
        .assert_exit_code(2);
});

// See: https://github.com/BurntSushi/ripgrep/issues/1163
rgtest!(r1163, |dir: Dir, mut cmd: TestCommand| {
    dir.create("bom.txt", "\u{FEFF}test123\ntest123");
    cmd.arg("^test123").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1164
rgtest!(r1164, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir(".git");
    dir.create(".gitignore", "myfile");
    dir.create("MYFILE", "test");

    cmd.arg("--ignore-file-case-insensitive")
        .arg("test")
        .assert_err();
    cmd.arg("--no-ignore-file-case-insensitive").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1173
rgtest!(r1173, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir(".git");
    dir.create(".gitignore", "**");
    dir.create("foo", "test");
    cmd.arg("test").assert_err();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1174
rgtest!(r1174, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir(".git");
    dir.create(".gitignore", "**/**/*");
    dir.create_dir("a");
    dir.create("a/foo", "test");
    cmd.arg("test").assert_err();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1176
rgtest!(r1176_literal_file, |dir: Dir, mut cmd: TestCommand| {
    dir.create("patterns", "foo(bar\n");
    dir.create("test", "foo(bar");

    cmd.arg("-F").arg("-f").arg("patterns").arg("test").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1176
rgtest!(r1176_line_regex, |dir: Dir, mut cmd: TestCommand| {
    dir.create("patterns", "foo\n");
    dir.create("test", "foobar\nfoo\nbarfoo\n");

    cmd.arg("-x").arg("-f").arg("patterns").arg("test").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1203
rgtest!(r1203_reverse_suffix_literal, |dir: Dir, _: TestCommand| {
    dir.create("test", "153.230000\n");

    let mut cmd = dir.command();
    cmd.arg(r"\d\d\d00").arg("test").stdout();

    let mut cmd = dir.command();
    cmd.arg(r"\d\d\d000").arg("test").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1223
rgtest!(
    r1223_no_dir_check_for_default_path,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_dir("-");
        dir.create("a.json", "{}");
        dir.create("a.txt", "some text");

        cmd.arg("a").pipe(b"a.json\na.txt");
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/1259
rgtest!(
    r1259_drop_last_byte_nonl,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("patterns-nonl", "[foo]");
        dir.create("patterns-nl", "[foo]\n");
        dir.create("test", "fz");

        cmd.arg("-f").arg("patterns-nonl").arg("test").stdout();
        cmd = dir.command();
        cmd.arg("-f").arg("patterns-nl").arg("test").stdout();
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/1311
rgtest!(
    r1311_multi_line_term_replace,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("input", "hello\nworld\n");
        cmd.args(&["-U", "-r?", "-n", "\n", "input"]).stdout();
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/1319
rgtest!(r1319, |dir: Dir, mut cmd: TestCommand| {
    dir.create(
        "input",
        "CCAGCTACTCGGGAGGCTGAGGCTGGAGGATCGCTTGAGTCCAGGAGTTC",
    );
    cmd.arg("TTGAGTCCAGGAG[ATCG]{2}C").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1334
rgtest!(r1334_crazy_literals, |dir: Dir, mut cmd: TestCommand| {
    dir.create("patterns", &"1.208.0.0/12\n".repeat(40));
    dir.create("corpus", "1.208.0.0/12\n");
    cmd.arg("-Ff").arg("patterns").arg("corpus").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1380
rgtest!(r1380, |dir: Dir, mut cmd: TestCommand| {
    dir.create(
        "foo",
        "\
a
b
c
d
e
d
e
d
e
d
e
",
    );

    cmd.args(&["-A2", "-m1", "d", "foo"]).stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1389
rgtest!(
    r1389_bad_symlinks_no_biscuit,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_dir("mydir");
        dir.create("mydir/file.txt", "test");
        dir.link_dir("mydir", "mylink");

        cmd.args(&["test", "--no-ignore", "--sort", "path", "mylink"])
            .stdout();
    }
);

// See: https://github.com/BurntSushi/ripgrep/pull/1446
rgtest!(
    r1446_respect_excludes_in_worktree,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_dir("repo/.git/info");
        dir.create("repo/.git/info/exclude", "ignored");
        dir.create_dir("repo/.git/worktrees/repotree");
        dir.create("repo/.git/worktrees/repotree/commondir", "../..");

        dir.create_dir("repotree");
        dir.create("repotree/.git", "gitdir: repo/.git/worktrees/repotree");
        dir.create("repotree/ignored", "");
        dir.create("repotree/not-ignored", "");

        cmd.arg("--sort").arg("path").arg("--files").arg("repotree");
        cmd.stdout();
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/1537
rgtest!(r1537, |dir: Dir, mut cmd: TestCommand| {
    dir.create("foo", "abc;de,fg");

    cmd.arg(";(.*,){1}").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1559
rgtest!(r1559, |dir: Dir, mut cmd: TestCommand| {
    dir.create(
        "foo",
        "\
type A struct {
	TaskID int `json:\"taskID\"`
}

type B struct {
	ObjectID string `json:\"objectID\"`
	TaskID   int    `json:\"taskID\"`
}
",
    );

    cmd.arg("TaskID +int").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1638
//
// Tests if UTF-8 BOM is sniffed, then the column index is correct.
rgtest!(r1638, |dir: Dir, mut cmd: TestCommand| {
    dir.create_bytes("foo", b"\xef\xbb\xbfx");

    cmd.arg("--column").arg("x").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1739
rgtest!(
    r1739_replacement_lineterm_match,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("test", "a\n");
        cmd.args(&[r"-r${0}f", r".*", "test"]);
        cmd.stdout();
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/1765
rgtest!(r1765, |dir: Dir, mut cmd: TestCommand| {
    dir.create("test", "\n");
    // We need to add --color=always here to force the failure, since the bad
    // code path is only triggered when colors are enabled.
    cmd.args(&[r"x?", "--crlf", "--color", "always"]);

    cmd.stdout();
});

rgtest!(r1866, |dir: Dir, mut cmd: TestCommand| {
    dir.create("test", "foobar\nfoobar\nfoo quux");
    cmd.args(&[
        "--multiline",
        "--vimgrep",
        r"foobar\nfoobar\nfoo|quux",
        "test",
    ]);

    // vimgrep only wants the first line of each match, even when a match
    // spans multiple lines.
    //
    // See: https://github.com/BurntSushi/ripgrep/issues/1866
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1868
rgtest!(
    r1868_context_passthru_override,
    |dir: Dir, _: TestCommand| {
        dir.create("test", "foo\nbar\nbaz\nquux\n");

        let args = &["-C1", "bar", "test"];
        dir.command().args(args).stdout();
        let args = &["--passthru", "bar", "test"];
        dir.command().args(args).stdout();

        let args = &["--passthru", "-C1", "bar", "test"];
        dir.command().args(args).stdout();
        let args = &["-C1", "--passthru", "bar", "test"];
        dir.command().args(args).stdout();

        let args = &["--passthru", "-B1", "bar", "test"];
        dir.command().args(args).stdout();
        let args = &["-B1", "--passthru", "bar", "test"];
        dir.command().args(args).stdout();

        let args = &["--passthru", "-A1", "bar", "test"];
        dir.command().args(args).stdout();
        let args = &["-A1", "--passthru", "bar", "test"];
        dir.command().args(args).stdout();
    }
);

rgtest!(r1878, |dir: Dir, _: TestCommand| {
    dir.create("test", "a\nbaz\nabc\n");

    // Since ripgrep enables (?m) by default, '^' will match at the beginning
    // of a line, even when -U/--multiline is used.
    let args = &["-U", "--no-mmap", r"^baz", "test"];
    dir.command().args(args).stdout();
    let args = &["-U", "--mmap", r"^baz", "test"];
    dir.command().args(args).stdout();

    // But when (?-m) is disabled, or when \A is used, then there should be no
    // matches that aren't anchored to the beginning of the file.
    let args = &["-U", "--no-mmap", r"(?-m)^baz", "test"];
    dir.command().args(args).assert_err();
    let args = &["-U", "--mmap", r"(?-m)^baz", "test"];
    dir.command().args(args).assert_err();

    let args = &["-U", "--no-mmap", r"\Abaz", "test"];
    dir.command().args(args).assert_err();
    let args = &["-U", "--mmap", r"\Abaz", "test"];
    dir.command().args(args).assert_err();
});

/// This part's cases, in rg's order.
pub const CASES: &[Case] = &[
    case!(r553_switch),
    case!(r553_flag),
    case!(r568_leading_hyphen_option_args),
    case!(r599),
    case!(r693_context_in_contextless_mode),
    case!(r807),
    case!(r900),
    case!(r1064),
    case!(r1098),
    case!(r1130),
    case!(r1159_invalid_flag),
    case!(r1159_exit_status),
    case!(r1163),
    case!(r1164),
    case!(r1173),
    case!(r1174),
    case!(r1176_literal_file),
    case!(r1176_line_regex),
    case!(r1203_reverse_suffix_literal),
    case!(r1223_no_dir_check_for_default_path),
    case!(r1259_drop_last_byte_nonl),
    case!(r1311_multi_line_term_replace),
    case!(r1319),
    case!(r1334_crazy_literals),
    case!(r1380),
    case!(r1389_bad_symlinks_no_biscuit),
    case!(r1446_respect_excludes_in_worktree),
    case!(r1537),
    case!(r1559),
    case!(r1638),
    case!(r1739_replacement_lineterm_match),
    case!(r1765),
    case!(r1866),
    case!(r1868_context_passthru_override),
    case!(r1878),
];
