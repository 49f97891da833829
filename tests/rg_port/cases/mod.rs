//! The ported cases, one module per part of an rg test file. `rgtest!` keeps rg's spelling of a
//! case (`rgtest!(name, |dir: Dir, mut cmd: TestCommand| { ... })`) and makes it a function.

// The bodies are rg's own, kept as upstream wrote them (so they can be compared line by line with
// rg's tests/*.rs); these lints only object to upstream's style.
#![allow(
    clippy::needless_borrows_for_generic_args,
    clippy::nonminimal_bool,
    clippy::redundant_static_lifetimes
)]

use super::util::{Dir, TestCommand};

/// One ported rg test: its file, its name, and its body.
pub struct Case {
    /// The rg test file (`feature`, `misc`, ...).
    pub file: &'static str,
    /// rg's name of the test.
    pub name: &'static str,
    /// rg's body, run against the mock `Dir`/`TestCommand`.
    pub run: fn(Dir, TestCommand),
}

/// Defines a case the way rg's `tests/macros.rs` does (without the second, PCRE2, run).
macro_rules! rgtest {
    ($name:ident, $fun:expr) => {
        #[allow(clippy::redundant_closure_call)]
        fn $name(dir: Dir, cmd: TestCommand) {
            ($fun)(dir, cmd)
        }
    };
}

/// The table entry of a case defined by `rgtest!` in the same module.
macro_rules! case {
    ($name:ident) => {
        Case {
            file: FILE,
            name: stringify!($name),
            run: $name,
        }
    };
}

mod binary;
mod feature1;
mod feature2;
mod json;
mod misc1;
mod misc2;
mod multiline;
mod regression1;
mod regression2;

/// Every ported case, by rg test file in rg's order.
pub fn all() -> Vec<&'static Case> {
    [
        feature1::CASES,
        feature2::CASES,
        misc1::CASES,
        misc2::CASES,
        regression1::CASES,
        regression2::CASES,
        binary::CASES,
        json::CASES,
        multiline::CASES,
    ]
    .into_iter()
    .flatten()
    .collect()
}
