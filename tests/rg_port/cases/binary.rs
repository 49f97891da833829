//! ripgrep 13.0.0 `tests/binary.rs`, ported: each body is rg's, with the expected
//! outputs left out (every run is compared with `rg` itself, see `runner`).

use super::super::util::{Dir, TestCommand};
use super::Case;

/// The rg test file these cases come from.
const FILE: &str = "binary";

/// rg's `tests/data/sherlock-nul.txt` (90 KB, one NUL byte well after the first match).
const HAY: &[u8] = include_bytes!("../data/sherlock-nul.txt");

// This tests that ripgrep prints a warning message if it finds and prints a
// match in a binary file before detecting that it is a binary file. The point
// here is to notify that user that the search of the file is only partially
// complete.
//
// This applies to files that are *implicitly* searched via a recursive
// directory traversal. In particular, this results in a WARNING message being
// printed. We make our file "implicit" by doing a recursive search with a glob
// that matches our file.
rgtest!(after_match1_implicit, |dir: Dir, mut cmd: TestCommand| {
    dir.create_bytes("hay", HAY);
    cmd.args(&["--no-mmap", "-n", "Project Gutenberg EBook", "-g", "hay"]);

    cmd.stdout();
});

// Like after_match1_implicit, except we provide a file to search
// explicitly. This results in identical behavior, but a different message.
rgtest!(after_match1_explicit, |dir: Dir, mut cmd: TestCommand| {
    dir.create_bytes("hay", HAY);
    cmd.args(&["--no-mmap", "-n", "Project Gutenberg EBook", "hay"]);

    cmd.stdout();
});

// Like after_match1_explicit, except we feed our content on stdin.
rgtest!(after_match1_stdin, |_: Dir, mut cmd: TestCommand| {
    cmd.args(&["--no-mmap", "-n", "Project Gutenberg EBook"]);

    cmd.pipe(HAY);
});

// Like after_match1_implicit, but provides the --binary flag, which
// disables binary filtering. Thus, this matches the behavior of ripgrep as
// if the file were given explicitly.
rgtest!(
    after_match1_implicit_binary,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_bytes("hay", HAY);
        cmd.args(&[
            "--no-mmap",
            "-n",
            "--binary",
            "Project Gutenberg EBook",
            "-g",
            "hay",
        ]);

        cmd.stdout();
    }
);

// Like after_match1_implicit, but enables -a/--text, so no binary
// detection should be performed.
rgtest!(
    after_match1_implicit_text,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_bytes("hay", HAY);
        cmd.args(&[
            "--no-mmap",
            "-n",
            "--text",
            "Project Gutenberg EBook",
            "-g",
            "hay",
        ]);

        cmd.stdout();
    }
);

// Like after_match1_implicit_text, but enables -a/--text, so no binary
// detection should be performed.
rgtest!(
    after_match1_explicit_text,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_bytes("hay", HAY);
        cmd.args(&[
            "--no-mmap",
            "-n",
            "--text",
            "Project Gutenberg EBook",
            "hay",
        ]);

        cmd.stdout();
    }
);

// Like after_match1_implicit, except this asks ripgrep to print all matching
// files.
//
// This is an interesting corner case that one might consider a bug, however,
// it's unlikely to be fixed. Namely, ripgrep probably shouldn't print `hay`
// as a matching file since it is in fact a binary file, and thus should be
// filtered out by default. However, the --files-with-matches flag will print
// out the path of a matching file as soon as a match is seen and then stop
// searching completely. Therefore, the NUL byte is never actually detected.
//
// The only way to fix this would be to kill ripgrep's performance in this case
// and continue searching the entire file for a NUL byte. (Similarly if the
// --quiet flag is set. See the next test.)
rgtest!(
    after_match1_implicit_path,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_bytes("hay", HAY);
        cmd.args(&["--no-mmap", "-l", "Project Gutenberg EBook", "-g", "hay"]);
        cmd.stdout();
    }
);

// Like after_match1_implicit_path, except this indicates that a match was
// found with no other output. (This is the same bug described above, but
// manifest as an exit code with no output.)
rgtest!(
    after_match1_implicit_quiet,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_bytes("hay", HAY);
        cmd.args(&["--no-mmap", "-q", "Project Gutenberg EBook", "-g", "hay"]);
        cmd.stdout();
    }
);

// This sets up the same test as after_match1_implicit_path, but instead of
// just printing the matching files, this includes the full count of matches.
// In this case, we need to search the entire file, so ripgrep correctly
// detects the binary data and suppresses output.
rgtest!(
    after_match1_implicit_count,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_bytes("hay", HAY);
        cmd.args(&["--no-mmap", "-c", "Project Gutenberg EBook", "-g", "hay"]);
        cmd.assert_err();
    }
);

// Like after_match1_implicit_count, except the --binary flag is provided,
// which makes ripgrep disable binary data filtering even for implicit files.
rgtest!(
    after_match1_implicit_count_binary,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_bytes("hay", HAY);
        cmd.args(&[
            "--no-mmap",
            "-c",
            "--binary",
            "Project Gutenberg EBook",
            "-g",
            "hay",
        ]);
        cmd.stdout();
    }
);

// Like after_match1_implicit_count, except the file path is provided
// explicitly, so binary filtering is disabled and a count is correctly
// reported.
rgtest!(
    after_match1_explicit_count,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_bytes("hay", HAY);
        cmd.args(&["--no-mmap", "-c", "Project Gutenberg EBook", "hay"]);
        cmd.stdout();
    }
);

// This tests that a match way before the NUL byte is shown, but a match after
// the NUL byte is not.
rgtest!(after_match2_implicit, |dir: Dir, mut cmd: TestCommand| {
    dir.create_bytes("hay", HAY);
    cmd.args(&[
        "--no-mmap",
        "-n",
        "Project Gutenberg EBook|a medical student",
        "-g",
        "hay",
    ]);

    cmd.stdout();
});

// Like after_match2_implicit, but enables -a/--text, so no binary
// detection should be performed.
rgtest!(
    after_match2_implicit_text,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_bytes("hay", HAY);
        cmd.args(&[
            "--no-mmap",
            "-n",
            "--text",
            "Project Gutenberg EBook|a medical student",
            "-g",
            "hay",
        ]);

        cmd.stdout();
    }
);

// This tests that ripgrep *silently* quits before finding a match that occurs
// after a NUL byte.
rgtest!(before_match1_implicit, |dir: Dir, mut cmd: TestCommand| {
    dir.create_bytes("hay", HAY);
    cmd.args(&["--no-mmap", "-n", "Heaven", "-g", "hay"]);
    cmd.assert_err();
});

// This tests that ripgrep *does not* silently quit before finding a match that
// occurs after a NUL byte when a file is explicitly searched.
rgtest!(before_match1_explicit, |dir: Dir, mut cmd: TestCommand| {
    dir.create_bytes("hay", HAY);
    cmd.args(&["--no-mmap", "-n", "Heaven", "hay"]);

    cmd.stdout();
});

// Like before_match1_implicit, but enables the --binary flag, which
// disables binary filtering. Thus, this matches the behavior of ripgrep as if
// the file were given explicitly.
rgtest!(
    before_match1_implicit_binary,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_bytes("hay", HAY);
        cmd.args(&["--no-mmap", "-n", "--binary", "Heaven", "-g", "hay"]);

        cmd.stdout();
    }
);

// Like before_match1_implicit, but enables -a/--text, so no binary
// detection should be performed.
rgtest!(
    before_match1_implicit_text,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_bytes("hay", HAY);
        cmd.args(&["--no-mmap", "-n", "--text", "Heaven", "-g", "hay"]);

        cmd.stdout();
    }
);

// This tests that ripgrep *silently* quits before finding a match that occurs
// before a NUL byte, but within the same buffer as the NUL byte.
rgtest!(before_match2_implicit, |dir: Dir, mut cmd: TestCommand| {
    dir.create_bytes("hay", HAY);
    cmd.args(&["--no-mmap", "-n", "a medical student", "-g", "hay"]);
    cmd.assert_err();
});

// This tests that ripgrep *does not* silently quit before finding a match that
// occurs before a NUL byte, but within the same buffer as the NUL byte. Even
// though the match occurs before the NUL byte, ripgrep still doesn't print it
// because it has already scanned ahead to detect the NUL byte. (This matches
// the behavior of GNU grep.)
rgtest!(before_match2_explicit, |dir: Dir, mut cmd: TestCommand| {
    dir.create_bytes("hay", HAY);
    cmd.args(&["--no-mmap", "-n", "a medical student", "hay"]);

    cmd.stdout();
});

// Like before_match1_implicit, but enables -a/--text, so no binary
// detection should be performed.
rgtest!(
    before_match2_implicit_text,
    |dir: Dir, mut cmd: TestCommand| {
        dir.create_bytes("hay", HAY);
        cmd.args(&[
            "--no-mmap",
            "-n",
            "--text",
            "a medical student",
            "-g",
            "hay",
        ]);

        cmd.stdout();
    }
);

/// This part's cases, in rg's order.
pub const CASES: &[Case] = &[
    case!(after_match1_implicit),
    case!(after_match1_explicit),
    case!(after_match1_stdin),
    case!(after_match1_implicit_binary),
    case!(after_match1_implicit_text),
    case!(after_match1_explicit_text),
    case!(after_match1_implicit_path),
    case!(after_match1_implicit_quiet),
    case!(after_match1_implicit_count),
    case!(after_match1_implicit_count_binary),
    case!(after_match1_explicit_count),
    case!(after_match2_implicit),
    case!(after_match2_implicit_text),
    case!(before_match1_implicit),
    case!(before_match1_explicit),
    case!(before_match1_implicit_binary),
    case!(before_match1_implicit_text),
    case!(before_match2_implicit),
    case!(before_match2_explicit),
    case!(before_match2_implicit_text),
];
