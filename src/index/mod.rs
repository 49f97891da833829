//! An opt-in n-gram index that only prunes which files a grep need not open (issue 27).
//!
//! `query`: what a pattern requires (pure). The index never decides what is visible: the file
//! table comes from the handle-bound walker with the admission gate, and every file the index
//! cannot vouch for is searched.

// Used by the index itself from the next increment on.
#[allow(dead_code)]
pub(crate) mod query;

#[cfg(test)]
mod query_props;
