//! rg's search statistics: the counts behind `--stats` (printed after the results) and behind
//! `--json`'s `end` and `summary` messages.

use super::json_value::{elapsed, num, string};
use rootbound::rg::FileHits;
use std::time::Duration;

/// The counters of rg's `Stats`, for one file or summed over the command.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Totals {
    pub searches: u64,
    pub searches_with_match: u64,
    pub bytes_searched: u64,
    pub bytes_printed: u64,
    pub matched_lines: u64,
    pub matches: u64,
}

impl Totals {
    /// One searched file, which printed `printed` bytes.
    pub fn of(f: &FileHits<'_>, printed: u64) -> Totals {
        Totals {
            searches: 1,
            searches_with_match: u64::from(f.matched_lines > 0),
            bytes_searched: f.bytes_searched,
            bytes_printed: printed,
            matched_lines: f.matched_lines,
            matches: f.matches,
        }
    }

    pub fn add(&mut self, t: &Totals) {
        self.searches += t.searches;
        self.searches_with_match += t.searches_with_match;
        self.bytes_searched += t.bytes_searched;
        self.bytes_printed += t.bytes_printed;
        self.matched_lines += t.matched_lines;
        self.matches += t.matches;
    }

    /// rg's `stats` object with `elapsed`: fields in rg's struct order in an `end` message, sorted
    /// in the `summary` (rg builds that one with `json!`, whose map sorts its keys). rootbound does
    /// not time each file's search: `elapsed` is zero.
    pub fn write_json(&self, buf: &mut Vec<u8>, sorted: bool) {
        let mut fields = [
            ("elapsed", None),
            ("searches", Some(self.searches)),
            ("searches_with_match", Some(self.searches_with_match)),
            ("bytes_searched", Some(self.bytes_searched)),
            ("bytes_printed", Some(self.bytes_printed)),
            ("matched_lines", Some(self.matched_lines)),
            ("matches", Some(self.matches)),
        ];
        if sorted {
            fields.sort_unstable_by_key(|f| f.0);
        }
        for (i, (key, value)) in fields.into_iter().enumerate() {
            buf.push(if i == 0 { b'{' } else { b',' });
            string(buf, key);
            buf.push(b':');
            match value {
                Some(n) => num(buf, n),
                None => elapsed(buf, Duration::ZERO, sorted),
            }
        }
        buf.push(b'}');
    }

    /// `--stats` after the standard or summary output, in rg 13's words. The search time is the
    /// command's (rootbound searches files in parallel and does not time each one).
    pub fn write_human(&self, buf: &mut Vec<u8>, took: Duration) {
        let secs = took.as_secs_f64();
        buf.extend_from_slice(
            format!(
                "\n{} matches\n{} matched lines\n{} files contained matches\n{} files searched\n\
                 {} bytes printed\n{} bytes searched\n{secs:0.6} seconds spent searching\n\
                 {secs:0.6} seconds\n",
                self.matches,
                self.matched_lines,
                self.searches_with_match,
                self.searches,
                self.bytes_printed,
                self.bytes_searched,
            )
            .as_bytes(),
        );
    }
}

/// The bytes of `out` without its colour escapes (`ESC [ ... m`): what rg counts as printed (its
/// counter sits below the colour writer).
pub(crate) fn visible_len(out: &[u8]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < out.len() {
        if out[i] == 0x1b && out.get(i + 1) == Some(&b'[') {
            i += memchr::memchr(b'm', &out[i..]).map_or(out.len() - i, |j| j + 1);
        } else {
            n += 1;
            i += 1;
        }
    }
    n
}
