//! The everyday tools (edit, read many, tree, media, moves), budgets and deadlines, dispatch, and the
//! async adapter.
//!
//! One test binary per group of behaviour (each file below is a module); tests that must own
//! their process (descriptors, rlimits, the process-global resolver switch, pool threads) keep
//! binaries of their own.

#[path = "../support/mod.rs"]
mod support;

mod async_tools;
mod budget;
mod call_context;
mod dialect_bounds;
mod dispatch;
mod encodings;
mod everyday;
