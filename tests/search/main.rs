//! Search and reading: grep_search and its options, the hit stream, compile budgets, the n-gram
//! index, read_file's modes, and document extraction.
//!
//! One test binary per group of behaviour (each file below is a module); tests that must own
//! their process (descriptors, rlimits, the process-global resolver switch, pool threads) keep
//! binaries of their own.

#[path = "../support/mod.rs"]
mod support;

mod call_memory;
mod compile_budget;
mod documents;
mod documents_diff;
mod documents_grep;
mod documents_memory;
mod grep;
mod grep_binary;
mod grep_hits;
mod grep_options;
mod index;
mod index_bounds;
mod index_bytes;
mod index_chunks;
mod index_disk;
mod index_housekeeping;
mod index_masks;
mod index_open;
mod index_resave;
mod index_spill;
mod read_modes;
