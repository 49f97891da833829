//! ripgrep 13.0.0 `tests/feature.rs` (part 2 of 2), ported: each body is rg's, with the expected
//! outputs left out (every run is compared with `rg` itself, see `runner`).

use super::super::hay::{SHERLOCK, SHERLOCK_CRLF};
use super::super::util::{Dir, TestCommand};
use super::Case;

/// The rg test file these cases come from.
const FILE: &str = "feature";

// See: https://github.com/BurntSushi/ripgrep/issues/411
rgtest!(
    f411_single_threaded_search_stats,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("sherlock", SHERLOCK);

        cmd.arg("--stats").arg("Sherlock").stdout();
    }
);

rgtest!(
    f411_parallel_search_stats,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("sherlock_1", SHERLOCK);
        dir.create("sherlock_2", SHERLOCK);

        cmd.arg("--stats").arg("Sherlock").stdout();
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/416
rgtest!(f416_crlf, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK_CRLF);
    cmd.arg("--crlf").arg(r"Sherlock$").arg("sherlock");

    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/416
rgtest!(f416_crlf_multiline, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK_CRLF);
    cmd.arg("--crlf")
        .arg("-U")
        .arg(r"Sherlock$")
        .arg("sherlock");

    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/416
rgtest!(f416_crlf_only_matching, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK_CRLF);
    cmd.arg("--crlf")
        .arg("-o")
        .arg(r"Sherlock$")
        .arg("sherlock");

    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/419
rgtest!(
    f419_zero_as_shortcut_for_null,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("sherlock", SHERLOCK);

        cmd.arg("-0").arg("--count").arg("Sherlock");
        cmd.stdout();
    }
);

rgtest!(f740_passthru, |dir: Dir, mut cmd: TestCommand| {
    dir.create("file", "\nfoo\nbar\nfoobar\n\nbaz\n");
    dir.create("patterns", "foo\nbar\n");

    // We can't assume that the way colour specs are translated to ANSI
    // sequences will remain stable, and --replace doesn't currently work with
    // pass-through, so for now we don't actually test the match sub-strings
    let common_args = &["-n", "--passthru"];

    // With single pattern
    cmd.args(common_args).arg("foo").arg("file");
    cmd.stdout();

    // With multiple -e patterns
    let mut cmd = dir.command();
    cmd.args(common_args);
    cmd.args(&["-e", "foo", "-e", "bar", "file"]);
    cmd.stdout();

    // With multiple -f patterns
    let mut cmd = dir.command();
    cmd.args(common_args);
    cmd.args(&["-f", "patterns", "file"]);
    cmd.stdout();

    // -c should override
    let mut cmd = dir.command();
    cmd.args(common_args);
    cmd.args(&["-c", "foo", "file"]);
    cmd.stdout();

    // -o should work
    let mut cmd = dir.command();
    cmd.args(common_args);
    cmd.args(&["-o", "foo", "file"]);
    cmd.stdout();

    // -r should work
    let mut cmd = dir.command();
    cmd.args(common_args);
    cmd.args(&["-r", "wat", "foo", "file"]);
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/948
rgtest!(f948_exit_code_match, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    cmd.arg(".");

    cmd.assert_exit_code(0);
});

// See: https://github.com/BurntSushi/ripgrep/issues/948
rgtest!(f948_exit_code_no_match, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    cmd.arg("NADA");

    cmd.assert_exit_code(1);
});

// See: https://github.com/BurntSushi/ripgrep/issues/948
rgtest!(f948_exit_code_error, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    cmd.arg("*");

    cmd.assert_exit_code(2);
});

// See: https://github.com/BurntSushi/ripgrep/issues/917
rgtest!(f917_trim, |dir: Dir, mut cmd: TestCommand| {
    const SHERLOCK: &'static str = "\
zzz
    For the Doctor Watsons of this world, as opposed to the Sherlock
  Holmeses, success in the province of detective work must always
\tbe, to a very large extent, the result of luck. Sherlock Holmes
     can extract a clew from a wisp of straw or a flake of cigar ash;
but Doctor Watson has to have it taken out for him and dusted,
 and exhibited clearly, with a label attached.
";
    dir.create("sherlock", SHERLOCK);
    cmd.args(&["-n", "-B1", "-A2", "--trim", "Holmeses", "sherlock"]);

    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/917
//
// This is like f917_trim, except this tests that trimming occurs even when the
// whitespace is part of a match.
rgtest!(f917_trim_match, |dir: Dir, mut cmd: TestCommand| {
    const SHERLOCK: &'static str = "\
zzz
    For the Doctor Watsons of this world, as opposed to the Sherlock
  Holmeses, success in the province of detective work must always
\tbe, to a very large extent, the result of luck. Sherlock Holmes
     can extract a clew from a wisp of straw or a flake of cigar ash;
but Doctor Watson has to have it taken out for him and dusted,
 and exhibited clearly, with a label attached.
";
    dir.create("sherlock", SHERLOCK);
    cmd.args(&["-n", "-B1", "-A2", "--trim", r"\s+Holmeses", "sherlock"]);

    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/993
rgtest!(f993_null_data, |dir: Dir, mut cmd: TestCommand| {
    dir.create("test", "foo\x00bar\x00\x00\x00baz\x00");
    cmd.arg("--null-data").arg(r".+").arg("test");

    // If we just used -a instead of --null-data, then the result would include
    // all NUL bytes.
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1078
//
// N.B. There are many more tests in the grep-printer crate.
rgtest!(
    f1078_max_columns_preview1,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("sherlock", SHERLOCK);
        cmd.args(&[
            "-M46",
            "--max-columns-preview",
            "exhibited|dusted|has to have it",
        ]);

        cmd.stdout();
    }
);

rgtest!(
    f1078_max_columns_preview2,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("sherlock", SHERLOCK);
        cmd.args(&[
            "-M43",
            "--max-columns-preview",
            // Doing a replacement forces ripgrep to show the number of remaining
            // matches. Normally, this happens by default when printing a tty with
            // colors.
            "-rxxx",
            "exhibited|dusted|has to have it",
        ]);

        cmd.stdout();
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/1138
rgtest!(f1138_no_ignore_dot, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir(".git");
    dir.create(".gitignore", "foo");
    dir.create(".ignore", "bar");
    dir.create(".fzf-ignore", "quux");
    dir.create("foo", "");
    dir.create("bar", "");
    dir.create("quux", "");

    cmd.arg("--sort").arg("path").arg("--files");
    cmd.stdout();
    cmd.arg("--no-ignore-dot").stdout();
    cmd.arg("--ignore-file").arg(".fzf-ignore").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1207
//
// Tests if without encoding 'none' flag null bytes are consumed by automatic
// encoding detection.
rgtest!(f1207_auto_encoding, |dir: Dir, mut cmd: TestCommand| {
    dir.create_bytes("foo", b"\xFF\xFE\x00\x62");
    cmd.arg("-a").arg("\\x00").arg("foo");
    cmd.assert_exit_code(1);
});

// See: https://github.com/BurntSushi/ripgrep/issues/1207
//
// Tests if encoding 'none' flag does treat file as raw bytes
rgtest!(f1207_ignore_encoding, |dir: Dir, mut cmd: TestCommand| {
    // PCRE2 chokes on this test because it can't search invalid non-UTF-8
    // and the point of this test is to search raw UTF-16.
    if dir.is_pcre2() {
        return;
    }

    dir.create_bytes("foo", b"\xFF\xFE\x00\x62");
    cmd.arg("--encoding")
        .arg("none")
        .arg("-a")
        .arg("\\x00")
        .arg("foo");
    cmd.stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1414
rgtest!(f1414_no_require_git, |dir: Dir, mut cmd: TestCommand| {
    dir.create(".gitignore", "foo");
    dir.create("foo", "");
    dir.create("bar", "");

    cmd.args(&["--sort", "path", "--files"]).stdout();

    cmd.args(&["--sort", "path", "--files", "--no-require-git"])
        .stdout();

    cmd.args(&[
        "--sort",
        "path",
        "--files",
        "--no-require-git",
        "--require-git",
    ])
    .stdout();
});

// See: https://github.com/BurntSushi/ripgrep/pull/1420
rgtest!(f1420_no_ignore_exclude, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir(".git/info");
    dir.create(".git/info/exclude", "foo");
    dir.create("bar", "");
    dir.create("foo", "");

    cmd.arg("--sort").arg("path").arg("--files");
    cmd.stdout();
    cmd.arg("--no-ignore-exclude").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/pull/1466
rgtest!(f1466_no_ignore_files, |dir: Dir, mut cmd: TestCommand| {
    dir.create(".myignore", "bar");
    dir.create("bar", "");
    dir.create("foo", "");

    // Test that --no-ignore-files disables --ignore-file.
    // And that --ignore-files overrides --no-ignore-files.
    cmd.arg("--sort").arg("path").arg("--files");
    cmd.stdout();
    cmd.arg("--ignore-file").arg(".myignore").stdout();
    cmd.arg("--no-ignore-files").stdout();
    cmd.arg("--ignore-files").stdout();

    // Test that the -u flag does not disable --ignore-file.
    let mut cmd = dir.command();
    cmd.arg("--sort").arg("path").arg("--files");
    cmd.arg("--ignore-file").arg(".myignore");
    cmd.stdout();
    cmd.arg("-u").stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1404
rgtest!(
    f1404_nothing_searched_warning,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create(".ignore", "ignored-dir/**");
        dir.create_dir("ignored-dir");
        dir.create("ignored-dir/foo", "needle");

        // Test that, if ripgrep searches only ignored folders/files, then there
        // is a non-zero exit code.
        cmd.arg("needle");
        cmd.assert_err();

        // Test that we actually get an error message that we expect.
        cmd.cmd().output().unwrap();
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/1404
rgtest!(
    f1404_nothing_searched_ignored,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create(".ignore", "ignored-dir/**");
        dir.create_dir("ignored-dir");
        dir.create("ignored-dir/foo", "needle");

        // Test that, if ripgrep searches only ignored folders/files, then there
        // is a non-zero exit code.
        cmd.arg("--no-messages").arg("needle");
        cmd.assert_err();

        // But since --no-messages is given, there should not be any error message
        // printed.
        cmd.cmd().output().unwrap();
    }
);

// See: https://github.com/BurntSushi/ripgrep/issues/1842
rgtest!(f1842_field_context_separator, |dir: Dir, _: TestCommand| {
    dir.create("sherlock", SHERLOCK);

    // Test the default.
    let base = &["-n", "-A1", "Doctor Watsons", "sherlock"];
    dir.command().args(base).stdout();

    // Test that it can be overridden.
    let mut args = vec!["--field-context-separator", "!"];
    args.extend(base);
    dir.command().args(&args).stdout();

    // Test that it can use multiple bytes.
    let mut args = vec!["--field-context-separator", "!!"];
    args.extend(base);
    dir.command().args(&args).stdout();

    // Test that unescaping works.
    let mut args = vec!["--field-context-separator", r"\x7F"];
    args.extend(base);
    dir.command().args(&args).stdout();

    // Test that an empty separator is OK.
    let mut args = vec!["--field-context-separator", r""];
    args.extend(base);
    dir.command().args(&args).stdout();
});

// See: https://github.com/BurntSushi/ripgrep/issues/1842
rgtest!(f1842_field_match_separator, |dir: Dir, _: TestCommand| {
    dir.create("sherlock", SHERLOCK);

    // Test the default.
    let base = &["-n", "Doctor Watsons", "sherlock"];
    dir.command().args(base).stdout();

    // Test that it can be overridden.
    let mut args = vec!["--field-match-separator", "!"];
    args.extend(base);
    dir.command().args(&args).stdout();

    // Test that it can use multiple bytes.
    let mut args = vec!["--field-match-separator", "!!"];
    args.extend(base);
    dir.command().args(&args).stdout();

    // Test that unescaping works.
    let mut args = vec!["--field-match-separator", r"\x7F"];
    args.extend(base);
    dir.command().args(&args).stdout();

    // Test that an empty separator is OK.
    let mut args = vec!["--field-match-separator", r""];
    args.extend(base);
    dir.command().args(&args).stdout();
});

rgtest!(no_context_sep, |dir: Dir, mut cmd: TestCommand| {
    dir.create("test", "foo\nctx\nbar\nctx\nfoo\nctx");
    cmd.args(&["-A1", "--no-context-separator", "foo", "test"]);
    cmd.stdout();
});

rgtest!(
    no_context_sep_overrides,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("test", "foo\nctx\nbar\nctx\nfoo\nctx");
        cmd.args(&[
            "-A1",
            "--context-separator",
            "AAA",
            "--no-context-separator",
            "foo",
            "test",
        ]);
        cmd.stdout();
    }
);

rgtest!(
    no_context_sep_overridden,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("test", "foo\nctx\nbar\nctx\nfoo\nctx");
        cmd.args(&[
            "-A1",
            "--no-context-separator",
            "--context-separator",
            "AAA",
            "foo",
            "test",
        ]);
        cmd.stdout();
    }
);

rgtest!(context_sep, |dir: Dir, mut cmd: TestCommand| {
    dir.create("test", "foo\nctx\nbar\nctx\nfoo\nctx");
    cmd.args(&["-A1", "--context-separator", "AAA", "foo", "test"]);
    cmd.stdout();
});

rgtest!(context_sep_default, |dir: Dir, mut cmd: TestCommand| {
    dir.create("test", "foo\nctx\nbar\nctx\nfoo\nctx");
    cmd.args(&["-A1", "foo", "test"]);
    cmd.stdout();
});

rgtest!(context_sep_empty, |dir: Dir, mut cmd: TestCommand| {
    dir.create("test", "foo\nctx\nbar\nctx\nfoo\nctx");
    cmd.args(&["-A1", "--context-separator", "", "foo", "test"]);
    cmd.stdout();
});

rgtest!(no_unicode, |dir: Dir, mut cmd: TestCommand| {
    dir.create("test", "δ");
    cmd.arg("-i").arg("--no-unicode").arg("Δ").assert_err();
});

/// This part's cases, in rg's order.
pub const CASES: &[Case] = &[
    case!(f411_single_threaded_search_stats),
    case!(f411_parallel_search_stats),
    case!(f416_crlf),
    case!(f416_crlf_multiline),
    case!(f416_crlf_only_matching),
    case!(f419_zero_as_shortcut_for_null),
    case!(f740_passthru),
    case!(f948_exit_code_match),
    case!(f948_exit_code_no_match),
    case!(f948_exit_code_error),
    case!(f917_trim),
    case!(f917_trim_match),
    case!(f993_null_data),
    case!(f1078_max_columns_preview1),
    case!(f1078_max_columns_preview2),
    case!(f1138_no_ignore_dot),
    case!(f1207_auto_encoding),
    case!(f1207_ignore_encoding),
    case!(f1414_no_require_git),
    case!(f1420_no_ignore_exclude),
    case!(f1466_no_ignore_files),
    case!(f1404_nothing_searched_warning),
    case!(f1404_nothing_searched_ignored),
    case!(f1842_field_context_separator),
    case!(f1842_field_match_separator),
    case!(no_context_sep),
    case!(no_context_sep_overrides),
    case!(no_context_sep_overridden),
    case!(context_sep),
    case!(context_sep_default),
    case!(context_sep_empty),
    case!(no_unicode),
];
