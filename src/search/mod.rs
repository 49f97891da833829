//! Content and name search on the root-bound walker: the matcher, the per-file search, the pager,
//! page assembly and cursors, and the two tools built on them (`grep_search`, `glob`).

pub(crate) mod contract;
pub(crate) mod cursor;
#[cfg(feature = "documents")]
pub(crate) mod docs;
pub(crate) mod file;
pub(crate) mod glob;
pub(crate) mod grep;
pub(crate) mod matcher;
pub(crate) mod matcher_cache;
pub(crate) mod page;
pub(crate) mod pager;
pub(crate) mod query;
#[cfg(test)]
mod query_props;
pub(crate) mod record;
pub(crate) mod rg;
