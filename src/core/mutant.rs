//! Mutation switches for the freshness fuzzer's mutation check (`tools/freshness_mutants.sh`,
//! docs/index.md "The freshness fuzzer"): each names one piece of the index's change handling,
//! and [`on`] turns that piece off, so that one build serves the whole check.
//!
//! Only with the hidden feature `mutants` does [`on`] look at anything (the environment variable
//! `ROOTBOUND_MUTANT`, which the operator's process sets, never an agent); without it, it is a
//! constant `false` and every switch compiles away: no build a user runs has one.

/// Whether the mutation check turned off the handling named `name`.
#[cfg(feature = "mutants")]
pub(crate) fn on(name: &str) -> bool {
    static CHOSEN: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    CHOSEN
        .get_or_init(|| std::env::var("ROOTBOUND_MUTANT").ok())
        .as_deref()
        == Some(name)
}

/// Whether the mutation check turned off the handling named `name`: never in this build.
#[cfg(not(feature = "mutants"))]
#[inline(always)]
pub(crate) const fn on(_name: &str) -> bool {
    false
}
