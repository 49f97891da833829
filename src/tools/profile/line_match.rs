//! What the dialects' whitespace-tolerant edits share (mcp-filesystem `edit_file`'s fallback and
//! Gemini CLI's `replace`): a linear search for windows of trimmed lines, how often it looks at
//! the deadline, and how large the edited text may grow before it is refused.

use crate::core::error::Error;
use crate::engine::Within;

/// Text lines a window search reads between two looks at the deadline.
pub(super) const LINES_PER_CHECK: usize = 4096;

/// The room the edited text may take, and the write limit: the limit and half again, since the
/// text is UTF-8 and a UTF-16 file of the limit's size can be half again as long in UTF-8 (the
/// engine's edit checks the encoded result against the limit exactly).
pub(super) fn text_room(sb: &Within<'_>) -> Result<(usize, u64), Error> {
    let (_, policy) = sb.write_root()?;
    let limit = usize::try_from(policy.max_write_bytes).unwrap_or(usize::MAX);
    Ok((limit.saturating_add(limit / 2), policy.max_write_bytes))
}

/// Knuth-Morris-Pratt over lines: fed one (trimmed) line at a time, it says where a window of
/// lines equal to the pattern ends. Each line is compared a bounded number of times on average,
/// so the search is linear in the text whatever the pattern repeats (comparing every window
/// whole was quadratic: seconds past a one-second deadline for 65,000 blank lines).
pub(super) struct LineWindows<'p> {
    pattern: &'p [&'p str],
    /// For each prefix of the pattern, the length of its longest proper prefix that is also its
    /// suffix.
    fail: Vec<usize>,
    matched: usize,
}

impl<'p> LineWindows<'p> {
    pub(super) fn new(pattern: &'p [&'p str]) -> Self {
        let mut fail = vec![0; pattern.len()];
        let mut k = 0;
        for i in 1..pattern.len() {
            while k > 0 && pattern[i] != pattern[k] {
                k = fail[k - 1];
            }
            if pattern[i] == pattern[k] {
                k += 1;
            }
            fail[i] = k;
        }
        LineWindows {
            pattern,
            fail,
            matched: 0,
        }
    }

    /// Feeds the next line; true when it ends a window equal to the pattern (an empty pattern
    /// ends a window everywhere).
    pub(super) fn push(&mut self, line: &str) -> bool {
        let Some(_) = self.pattern.first() else {
            return true;
        };
        if self.matched == self.pattern.len() {
            // The window just found may overlap the next one.
            self.matched = self.fail[self.matched - 1];
        }
        while self.matched > 0 && self.pattern[self.matched] != line {
            self.matched = self.fail[self.matched - 1];
        }
        if self.pattern[self.matched] == line {
            self.matched += 1;
        }
        self.matched == self.pattern.len()
    }

    /// Starts over, for windows that must not overlap the one just found.
    pub(super) fn restart(&mut self) {
        self.matched = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::LineWindows;

    fn ends(pattern: &[&str], lines: &[&str], overlap: bool) -> Vec<usize> {
        let mut w = LineWindows::new(pattern);
        let mut out = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            if w.push(l) {
                out.push(i);
                if !overlap {
                    w.restart();
                }
            }
        }
        out
    }

    #[test]
    fn windows_end_where_a_naive_scan_finds_them() {
        let lines = ["a", "a", "b", "a", "a", "a", "b", "a", "b"];
        let pattern = ["a", "a", "b"];
        let naive: Vec<usize> = (pattern.len() - 1..lines.len())
            .filter(|&end| lines[end + 1 - pattern.len()..=end] == pattern)
            .collect();
        assert_eq!(ends(&pattern, &lines, true), naive);
        assert_eq!(ends(&["a", "a"], &["a"; 5], false), vec![1, 3]);
        assert_eq!(ends(&["a", "a"], &["a"; 5], true), vec![1, 2, 3, 4]);
    }
}
