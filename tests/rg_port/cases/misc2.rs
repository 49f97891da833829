//! ripgrep 13.0.0 `tests/misc.rs` (part 2 of 2), ported: each body is rg's, with the expected
//! outputs left out (every run is compared with `rg` itself, see `runner`).

use super::super::hay::SHERLOCK;
use super::super::util::{Dir, TestCommand};
use super::Case;

/// The rg test file these cases come from.
const FILE: &str = "misc";

rgtest!(
    max_filesize_parse_error_length,
    |_: Dir, mut cmd: TestCommand| {
        cmd.arg("--max-filesize").arg("44444444444444444444");
        cmd.assert_non_empty_stderr();
    }
);

rgtest!(
    max_filesize_parse_error_suffix,
    |_: Dir, mut cmd: TestCommand| {
        cmd.arg("--max-filesize").arg("45k");
        cmd.assert_non_empty_stderr();
    }
);

rgtest!(
    max_filesize_parse_no_suffix,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_size("foo", 40);
        dir.create_size("bar", 60);
        cmd.arg("--max-filesize").arg("50").arg("--files");

        cmd.stdout();
    }
);

rgtest!(
    max_filesize_parse_k_suffix,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_size("foo", 3048);
        dir.create_size("bar", 4100);
        cmd.arg("--max-filesize").arg("4K").arg("--files");

        cmd.stdout();
    }
);

rgtest!(
    max_filesize_parse_m_suffix,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_size("foo", 1000000);
        dir.create_size("bar", 1400000);
        cmd.arg("--max-filesize").arg("1M").arg("--files");

        cmd.stdout();
    }
);

rgtest!(
    max_filesize_suffix_overflow,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_size("foo", 1000000);

        // 2^35 * 2^30 would otherwise overflow
        cmd.arg("--max-filesize").arg("34359738368G").arg("--files");
        cmd.assert_non_empty_stderr();
    }
);

rgtest!(ignore_hidden, |dir: Dir, mut cmd: TestCommand| {
    dir.create(".sherlock", SHERLOCK);
    cmd.arg("Sherlock").assert_err();
});

rgtest!(no_ignore_hidden, |dir: Dir, mut cmd: TestCommand| {
    dir.create(".sherlock", SHERLOCK);
    cmd.arg("--hidden").arg("Sherlock");

    cmd.stdout();
});

rgtest!(ignore_git, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    dir.create_dir(".git");
    dir.create(".gitignore", "sherlock\n");
    cmd.arg("Sherlock");

    cmd.assert_err();
});

rgtest!(ignore_generic, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    dir.create(".ignore", "sherlock\n");
    cmd.arg("Sherlock");

    cmd.assert_err();
});

rgtest!(ignore_ripgrep, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    dir.create(".rgignore", "sherlock\n");
    cmd.arg("Sherlock");

    cmd.assert_err();
});

rgtest!(no_ignore, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    dir.create(".gitignore", "sherlock\n");
    cmd.arg("--no-ignore").arg("Sherlock");

    cmd.stdout();
});

rgtest!(ignore_git_parent, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir(".git");
    dir.create(".gitignore", "sherlock\n");
    dir.create_dir("foo");
    dir.create("foo/sherlock", SHERLOCK);
    cmd.arg("Sherlock");

    // Even though we search in foo/, which has no .gitignore, ripgrep will
    // traverse parent directories and respect the gitignore files found.
    cmd.current_dir(dir.path().join("foo"));
    cmd.assert_err();
});

rgtest!(ignore_git_parent_stop, |dir: Dir, mut cmd: TestCommand| {
    // This tests that searching parent directories for .gitignore files stops
    // after it sees a .git directory. To test this, we create this directory
    // hierarchy:
    //
    // .gitignore (contains `sherlock`)
    // foo/
    //   .git/
    //   bar/
    //      sherlock
    //
    // And we perform the search inside `foo/bar/`. ripgrep will stop looking
    // for .gitignore files after it sees `foo/.git/`, and therefore not
    // respect the top-level `.gitignore` containing `sherlock`.
    dir.create(".gitignore", "sherlock\n");
    dir.create_dir("foo");
    dir.create_dir("foo/.git");
    dir.create_dir("foo/bar");
    dir.create("foo/bar/sherlock", SHERLOCK);
    cmd.arg("Sherlock");
    cmd.current_dir(dir.path().join("foo").join("bar"));

    cmd.stdout();
});

// Like ignore_git_parent_stop, but with a .git file instead of a .git
// directory.
rgtest!(
    ignore_git_parent_stop_file,
    |dir: Dir, mut cmd: TestCommand| {
        // This tests that searching parent directories for .gitignore files stops
        // after it sees a .git *file*. A .git file is used for submodules. To test
        // this, we create this directory hierarchy:
        //
        // .gitignore (contains `sherlock`)
        // foo/
        //   .git
        //   bar/
        //      sherlock
        //
        // And we perform the search inside `foo/bar/`. ripgrep will stop looking
        // for .gitignore files after it sees `foo/.git`, and therefore not
        // respect the top-level `.gitignore` containing `sherlock`.
        dir.create(".gitignore", "sherlock\n");
        dir.create_dir("foo");
        dir.create("foo/.git", "");
        dir.create_dir("foo/bar");
        dir.create("foo/bar/sherlock", SHERLOCK);
        cmd.arg("Sherlock");
        cmd.current_dir(dir.path().join("foo").join("bar"));

        cmd.stdout();
    }
);

rgtest!(
    ignore_ripgrep_parent_no_stop,
    |dir: Dir, mut cmd: TestCommand| {
        // This is like the `ignore_git_parent_stop` test, except it checks that
        // ripgrep *doesn't* stop checking for .rgignore files.
        dir.create(".rgignore", "sherlock\n");
        dir.create_dir("foo");
        dir.create_dir("foo/.git");
        dir.create_dir("foo/bar");
        dir.create("foo/bar/sherlock", SHERLOCK);
        cmd.arg("Sherlock");
        cmd.current_dir(dir.path().join("foo").join("bar"));

        // The top-level .rgignore applies.
        cmd.assert_err();
    }
);

rgtest!(no_parent_ignore_git, |dir: Dir, mut cmd: TestCommand| {
    // Set up a directory hierarchy like this:
    //
    // .git/
    // .gitignore
    // foo/
    //   .gitignore
    //   sherlock
    //   watson
    //
    // Where `.gitignore` contains `sherlock` and `foo/.gitignore` contains
    // `watson`.
    //
    // Now *do the search* from the foo directory. By default, ripgrep will
    // search parent directories for .gitignore files. The --no-ignore-parent
    // flag should prevent that. At the same time, the `foo/.gitignore` file
    // will still be respected (since the search is happening in `foo/`).
    //
    // In other words, we should only see results from `sherlock`, not from
    // `watson`.
    dir.create_dir(".git");
    dir.create(".gitignore", "sherlock\n");
    dir.create_dir("foo");
    dir.create("foo/.gitignore", "watson\n");
    dir.create("foo/sherlock", SHERLOCK);
    dir.create("foo/watson", SHERLOCK);
    cmd.arg("--no-ignore-parent").arg("Sherlock");
    cmd.current_dir(dir.path().join("foo"));

    cmd.stdout();
});

rgtest!(symlink_nofollow, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir("foo");
    dir.create_dir("foo/bar");
    dir.link_dir("foo/baz", "foo/bar/baz");
    dir.create_dir("foo/baz");
    dir.create("foo/baz/sherlock", SHERLOCK);
    cmd.arg("Sherlock");
    cmd.current_dir(dir.path().join("foo/bar"));

    cmd.assert_err();
});

#[cfg(not(windows))]
rgtest!(symlink_follow, |dir: Dir, mut cmd: TestCommand| {
    dir.create_dir("foo");
    dir.create_dir("foo/bar");
    dir.create_dir("foo/baz");
    dir.create("foo/baz/sherlock", SHERLOCK);
    dir.link_dir("foo/baz", "foo/bar/baz");
    cmd.arg("-L").arg("Sherlock");
    cmd.current_dir(dir.path().join("foo/bar"));

    cmd.stdout();
});

rgtest!(unrestricted1, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    dir.create(".gitignore", "sherlock\n");
    cmd.arg("-u").arg("Sherlock");

    cmd.stdout();
});

rgtest!(unrestricted2, |dir: Dir, mut cmd: TestCommand| {
    dir.create(".sherlock", SHERLOCK);
    cmd.arg("-uu").arg("Sherlock");

    cmd.stdout();
});

rgtest!(unrestricted3, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    dir.create("hay", "foo\x00bar\nfoo\x00baz\n");
    cmd.arg("-uuu").arg("foo");

    cmd.stdout();
});

rgtest!(vimgrep, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    cmd.arg("--vimgrep").arg("Sherlock|Watson");

    cmd.stdout();
});

rgtest!(vimgrep_no_line, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    cmd.arg("--vimgrep").arg("-N").arg("Sherlock|Watson");

    cmd.stdout();
});

rgtest!(
    vimgrep_no_line_no_column,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create("sherlock", SHERLOCK);
        cmd.arg("--vimgrep")
            .arg("-N")
            .arg("--no-column")
            .arg("Sherlock|Watson");

        cmd.stdout();
    }
);

rgtest!(binary_convert, |dir: Dir, mut cmd: TestCommand| {
    dir.create("file", "foo\x00bar\nfoo\x00baz\n");
    cmd.arg("--no-mmap").arg("foo").arg("file");

    cmd.stdout();
});

rgtest!(binary_convert_mmap, |dir: Dir, mut cmd: TestCommand| {
    dir.create("file", "foo\x00bar\nfoo\x00baz\n");
    cmd.arg("--mmap").arg("foo").arg("file");

    cmd.stdout();
});

rgtest!(binary_quit, |dir: Dir, mut cmd: TestCommand| {
    dir.create("file", "foo\x00bar\nfoo\x00baz\n");
    cmd.arg("--no-mmap").arg("foo").arg("-gfile");
    cmd.assert_err();
});

rgtest!(binary_quit_mmap, |dir: Dir, mut cmd: TestCommand| {
    dir.create("file", "foo\x00bar\nfoo\x00baz\n");
    cmd.arg("--mmap").arg("foo").arg("-gfile");
    cmd.assert_err();
});

// The following two tests show a discrepancy in search results between
// searching with memory mapped files and stream searching. Stream searching
// uses a heuristic (that GNU grep also uses) where NUL bytes are replaced with
// the EOL terminator, which tends to avoid allocating large amounts of memory
// for really long "lines." The memory map searcher has no need to worry about
// such things, and more than that, it would be pretty hard for it to match the
// semantics of streaming search in this case.
//
// Binary files with lots of NULs aren't really part of the use case of ripgrep
// (or any other grep-like tool for that matter), so we shouldn't feel too bad
// about it.
rgtest!(binary_search_mmap, |dir: Dir, mut cmd: TestCommand| {
    dir.create("file", "foo\x00bar\nfoo\x00baz\n");
    cmd.arg("-a").arg("--mmap").arg("foo").arg("file");
    cmd.stdout();
});

rgtest!(binary_search_no_mmap, |dir: Dir, mut cmd: TestCommand| {
    dir.create("file", "foo\x00bar\nfoo\x00baz\n");
    cmd.arg("-a").arg("--no-mmap").arg("foo").arg("file");
    cmd.stdout();
});

rgtest!(files, |dir: Dir, mut cmd: TestCommand| {
    dir.create("file", "");
    dir.create_dir("dir");
    dir.create("dir/file", "");
    cmd.arg("--files");

    cmd.stdout();
});

rgtest!(type_list, |_: Dir, mut cmd: TestCommand| {
    cmd.arg("--type-list");
    // This can change over time, so just make sure we print something.
    cmd.stdout();
});

/// This part's cases, in rg's order.
pub const CASES: &[Case] = &[
    case!(max_filesize_parse_error_length),
    case!(max_filesize_parse_error_suffix),
    case!(max_filesize_parse_no_suffix),
    case!(max_filesize_parse_k_suffix),
    case!(max_filesize_parse_m_suffix),
    case!(max_filesize_suffix_overflow),
    case!(ignore_hidden),
    case!(no_ignore_hidden),
    case!(ignore_git),
    case!(ignore_generic),
    case!(ignore_ripgrep),
    case!(no_ignore),
    case!(ignore_git_parent),
    case!(ignore_git_parent_stop),
    case!(ignore_git_parent_stop_file),
    case!(ignore_ripgrep_parent_no_stop),
    case!(no_parent_ignore_git),
    case!(symlink_nofollow),
    case!(symlink_follow),
    case!(unrestricted1),
    case!(unrestricted2),
    case!(unrestricted3),
    case!(vimgrep),
    case!(vimgrep_no_line),
    case!(vimgrep_no_line_no_column),
    case!(binary_convert),
    case!(binary_convert_mmap),
    case!(binary_quit),
    case!(binary_quit_mmap),
    case!(binary_search_mmap),
    case!(binary_search_no_mmap),
    case!(files),
    case!(type_list),
];
