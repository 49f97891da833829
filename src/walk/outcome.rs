//! What a search records for a file in which it finds no match, as far as it can be told without
//! reading the file: the one rule the search's workers and the index's pruner both apply. A file
//! the index vouches for (no match in it) takes exactly the outcome the unindexed search would
//! have recorded, or is searched where that outcome is not certain. Change how the search reads
//! files and this rule changes with it, and the index with the rule.

use crate::core::limits::{SEARCH_FIRST_HEAP, SEARCH_HEAP_LIMIT, SEARCH_HEAP_RESERVE};

/// A file with a line this long gets no index entry, and a search with context lines does not
/// vouch for a file this large: the searcher's buffer (its heap limit, [`SEARCH_HEAP_LIMIT`]) may
/// not hold the line with what is kept beside it, and the search then records the file as
/// `too_large` rather than searched; only searching it can say which.
pub(crate) const LONGEST_LINE: usize = SEARCH_HEAP_LIMIT - (4 << 20);

/// The search's `max_filesize`, and how it reads files, as far as that decides what it records for
/// a file without a match.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reading {
    pub max_filesize: u64,
    /// A multiline search: it may read a file whole, and then looks for NUL bytes in the first
    /// 64 KiB alone and finds a file of [`SEARCH_HEAP_LIMIT`] or more too large.
    pub whole: bool,
    /// Context lines are kept in the searcher's buffer beside the line searched: only a file
    /// smaller than [`LONGEST_LINE`] surely fits.
    pub context: bool,
    /// The call's memory budget (`max_call_memory`, less what the caller holds). Under
    /// [`SEARCH_HEAP_RESERVE`] a line (or a multiline file) the thread's own searcher cannot hold
    /// makes the search record the file `too_large`: only a file smaller than that searcher's
    /// buffer ([`SEARCH_FIRST_HEAP`]) is then surely searched.
    pub memory_cap: u64,
}

/// What is known of a file without a match: its size, and whether it holds a NUL byte.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NoMatch {
    pub size: u64,
    pub nul: bool,
}

/// What the search records for a file without a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quiet {
    /// Searched to its end (counted in `files_searched`).
    Searched,
    /// Abandoned at its first NUL byte (`skipped.binary`).
    Binary,
    /// Over `max_filesize`, never opened (`skipped.too_large`).
    TooLarge,
}

/// A file vouched for: its size and the outcome the search records for it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Vouched {
    pub size: u64,
    pub outcome: Quiet,
}

impl Reading {
    /// Whether a file of `size` bytes is over `max_filesize`: recorded `too_large`, never opened.
    pub fn too_large(&self, size: u64) -> bool {
        size > self.max_filesize
    }

    /// The outcome the search records for a file without a match whose facts are `f`: `too_large`
    /// over `max_filesize`, else `binary` with a NUL byte, else searched. `None` where the search
    /// could record otherwise (a multiline search reading a file with a NUL byte, or one it would
    /// find too large to hold; a search with context lines and a file the buffer may not hold
    /// beside them): such a file must be searched.
    pub fn no_match_outcome(&self, f: NoMatch) -> Option<Vouched> {
        let outcome = if self.too_large(f.size) {
            Quiet::TooLarge
        } else if !self.certain(f) {
            return None;
        } else if f.nul {
            Quiet::Binary
        } else {
            Quiet::Searched
        };
        Some(Vouched {
            size: f.size,
            outcome,
        })
    }

    /// Whether the search surely records a file within `max_filesize` without a match as the
    /// rule says: by line, unless context lines may not fit beside a line; whole (multiline),
    /// only without a NUL byte and within the buffer; and, when the call cannot reserve a large
    /// searcher, only within the first searcher's buffer.
    fn certain(&self, f: NoMatch) -> bool {
        if self.memory_cap < SEARCH_HEAP_RESERVE && f.size >= SEARCH_FIRST_HEAP as u64 {
            return false;
        }
        if self.whole {
            !f.nul && f.size < SEARCH_HEAP_LIMIT as u64
        } else {
            !self.context || f.size < LONGEST_LINE as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outcome_is_the_searchs_or_none() {
        let r = |whole, context| Reading {
            max_filesize: 100 << 20,
            whole,
            context,
            memory_cap: u64::MAX,
        };
        let f = |size, nul| NoMatch { size, nul };
        let o = |r: Reading, f| r.no_match_outcome(f).map(|v| v.outcome);
        assert_eq!(o(r(false, false), f(10, false)), Some(Quiet::Searched));
        assert_eq!(o(r(false, false), f(10, true)), Some(Quiet::Binary));
        assert_eq!(o(r(true, true), f(200 << 20, true)), Some(Quiet::TooLarge));
        assert_eq!(o(r(true, false), f(10, true)), None);
        assert_eq!(o(r(true, false), f(64 << 20, false)), None);
        assert_eq!(o(r(false, true), f(LONGEST_LINE as u64, false)), None);
        assert_eq!(
            o(r(false, false), f(80 << 20, false)),
            Some(Quiet::Searched)
        );
        // A budget that cannot hold a large searcher: a line of 1 MiB or more is `too_large`.
        let small = |whole| Reading {
            memory_cap: SEARCH_HEAP_RESERVE - 1,
            ..r(whole, false)
        };
        let big = SEARCH_FIRST_HEAP as u64;
        assert_eq!(o(small(false), f(big - 1, false)), Some(Quiet::Searched));
        assert_eq!(o(small(false), f(big, false)), None);
        assert_eq!(o(small(true), f(big, false)), None);
        assert_eq!(o(small(false), f(200 << 20, false)), Some(Quiet::TooLarge));
    }
}
