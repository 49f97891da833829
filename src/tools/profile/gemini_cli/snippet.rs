//! write_file's "Here is the updated code:" snippet, as Gemini CLI's `getDiffContextSnippet`
//! (packages/core/src/tools/diff-utils.ts) makes it: the new file's changed lines with five lines
//! around each change, `...` for what lies between; a new file whole.

use similar::{DiffOp, TextDiff};
use std::time::Duration;

/// Lines shown around each change (Gemini CLI's `contextLines`).
const CONTEXT: usize = 5;

/// The snippet of `after` against `before` (`None`: the file is new, or its old text could not be
/// read, and is shown whole, as Gemini CLI shows it against ''). `budget` bounds the diff: past it
/// the diff is coarse (larger ranges), never wrong.
pub(super) fn snippet(before: Option<&str>, after: &str, budget: Duration) -> String {
    let Some(before) = before.filter(|b| !b.is_empty()) else {
        return after.to_string();
    };
    let diff = TextDiff::configure()
        .timeout(budget)
        .diff_lines(before, after);
    // The ranges of new lines each change touches ([start, end) in the new text's lines; a
    // deletion is an empty range where it was).
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for op in diff.ops() {
        match *op {
            DiffOp::Equal { .. } => {}
            DiffOp::Delete { new_index, .. } => ranges.push((new_index, new_index)),
            DiffOp::Insert {
                new_index, new_len, ..
            }
            | DiffOp::Replace {
                new_index, new_len, ..
            } => ranges.push((new_index, new_index + new_len)),
        }
    }
    if ranges.is_empty() {
        return after.to_string();
    }
    // Gemini CLI splits on line ends, so a text ending in one has an empty last line.
    let lines: Vec<&str> = after
        .split('\n')
        .map(|l| l.trim_end_matches('\r'))
        .collect();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (s, e) in ranges {
        let (s, e) = (s.saturating_sub(CONTEXT), (e + CONTEXT).min(lines.len()));
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    let mut parts: Vec<String> = Vec::new();
    let mut last_end = 0;
    for (s, e) in merged {
        if s > last_end {
            parts.push("...".into());
        }
        parts.push(lines[s..e].join("\n"));
        last_end = e;
    }
    if last_end < lines.len() {
        parts.push("...".into());
    }
    parts.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Duration = Duration::from_secs(5);

    #[test]
    fn new_or_unchanged_text_is_shown_whole() {
        assert_eq!(snippet(None, "a\nb", T), "a\nb");
        assert_eq!(snippet(Some(""), "a\nb", T), "a\nb");
        assert_eq!(snippet(Some("a\nb"), "a\nb", T), "a\nb");
    }

    #[test]
    fn one_change_in_the_middle_shows_five_lines_around_it() {
        let old: Vec<String> = (1..=100).map(|i| format!("Line {i}")).collect();
        let mut new = old.clone();
        new[50] = "Line 51 Modified".into();
        let got = snippet(Some(&old.join("\n")), &new.join("\n"), T);
        let want: Vec<String> = (46..=56)
            .map(|i| {
                if i == 51 {
                    "Line 51 Modified".to_string()
                } else {
                    format!("Line {i}")
                }
            })
            .collect();
        assert_eq!(got, format!("...\n{}\n...", want.join("\n")));
    }

    #[test]
    fn a_deletion_shows_the_lines_around_where_it_was() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13";
        let new = "1\n2\n3\n4\n5\n6\n8\n9\n10\n11\n12\n13";
        assert_eq!(
            snippet(Some(old), new, T),
            "...\n2\n3\n4\n5\n6\n8\n9\n10\n11\n12\n..."
        );
    }
}
