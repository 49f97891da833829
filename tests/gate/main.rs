//! The gate and the attacks on it: admission of every path, deny rules through every tool,
//! symlink and rename races, the policy oracle (proptest), fuzz regressions, the layer rules.
//!
//! One test binary per group of behaviour (each file below is a module); tests that must own
//! their process (descriptors, rlimits, the process-global resolver switch, pool threads) keep
//! binaries of their own.

#[path = "../support/mod.rs"]
mod support;

mod fuzz_regressions;
mod gate;
mod layout;
mod paging_progress;
mod policy_props;
mod props;
mod race_read;
mod race_tools;
mod write_gate;
