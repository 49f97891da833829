//! ripgrep 13.0.0 `tests/multiline.rs`, ported: each body is rg's, with the expected
//! outputs left out (every run is compared with `rg` itself, see `runner`).

use super::super::hay::SHERLOCK;
use super::super::util::{Dir, TestCommand};
use super::Case;

/// The rg test file these cases come from.
const FILE: &str = "multiline";

// This tests that multiline matches that span multiple lines, but where
// multiple matches may begin and end on the same line work correctly.
rgtest!(overlap1, |dir: Dir, mut cmd: TestCommand| {
    dir.create("test", "xxx\nabc\ndefxxxabc\ndefxxx\nxxx");
    cmd.arg("-n").arg("-U").arg("abc\ndef").arg("test");
    cmd.stdout();
});

// Like overlap1, but tests the case where one match ends at precisely the same
// location at which the next match begins.
rgtest!(overlap2, |dir: Dir, mut cmd: TestCommand| {
    dir.create("test", "xxx\nabc\ndefabc\ndefxxx\nxxx");
    cmd.arg("-n").arg("-U").arg("abc\ndef").arg("test");
    cmd.stdout();
});

// Tests that even in a multiline search, a '.' does not match a newline.
rgtest!(dot_no_newline, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    cmd.args(&["-n", "-U", "of this world.+detective work", "sherlock"]);
    cmd.assert_err();
});

// Tests that the --multiline-dotall flag causes '.' to match a newline.
rgtest!(dot_all, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    cmd.args(&[
        "-n",
        "-U",
        "--multiline-dotall",
        "of this world.+detective work",
        "sherlock",
    ]);

    cmd.stdout();
});

// Tests that --only-matching works in multiline mode.
rgtest!(only_matching, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    cmd.args(&[
        "-n",
        "-U",
        "--only-matching",
        r"Watson|Sherlock\p{Any}+?Holmes",
        "sherlock",
    ]);

    cmd.stdout();
});

// Tests that --vimgrep works in multiline mode.
//
// In particular, we test that only the first line of each match is printed,
// even when a match spans multiple lines.
//
// See: https://github.com/BurntSushi/ripgrep/issues/1866
rgtest!(vimgrep, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    cmd.args(&[
        "-n",
        "-U",
        "--vimgrep",
        r"Watson|Sherlock\p{Any}+?Holmes",
        "sherlock",
    ]);

    cmd.stdout();
});

// Tests that multiline search works when reading from stdin. This is an
// important test because multiline search must read the entire contents of
// what it is searching into memory before executing the search.
rgtest!(stdin, |_: Dir, mut cmd: TestCommand| {
    cmd.args(&["-n", "-U", r"of this world\p{Any}+?detective work"]);
    cmd.pipe(SHERLOCK.as_bytes());
});

// Test that multiline search and contextual matches work.
rgtest!(context, |dir: Dir, mut cmd: TestCommand| {
    dir.create("sherlock", SHERLOCK);
    cmd.args(&[
        "-n",
        "-U",
        "-C1",
        r"detective work\p{Any}+?result of luck",
        "sherlock",
    ]);

    cmd.stdout();
});

/// This part's cases, in rg's order.
pub const CASES: &[Case] = &[
    case!(overlap1),
    case!(overlap2),
    case!(dot_no_newline),
    case!(dot_all),
    case!(only_matching),
    case!(vimgrep),
    case!(stdin),
    case!(context),
];
