//! rg `-r`: matches replaced by a text in which `$1`, `$name` and `${name}` stand for capture
//! groups (`$$` for a `$`), with the matcher of the search itself.

use crate::core::error::Result;
use crate::engine::Engine;
use crate::search::contract::GrepArgs;
use crate::search::matcher_cache;
use crate::search::rg::RgOptions;
use grep_matcher::{Captures, Matcher};
use grep_regex::RegexMatcher;

/// Replaces the matches of a grep search in a line (rg `-r`); made by
/// [`Sandbox::grep_replacer`](crate::Sandbox::grep_replacer).
#[derive(Debug)]
pub struct GrepReplacer {
    matcher: RegexMatcher,
    replacement: Vec<u8>,
    /// A multiline search: the text handed over is a match's lines, terminators and all, and the
    /// pattern may match them (rg keeps them in then).
    multiline: bool,
    /// The search's line terminator, taken off a line before its matches are replaced.
    term: grep_matcher::LineTerminator,
}

impl GrepReplacer {
    /// Appends `line` (its terminator left out, unless the search is multiline) to `dst` with
    /// every match replaced, and the range of each replacement in `dst` to `ranges`.
    pub fn replace_all(&self, line: &[u8], dst: &mut Vec<u8>, ranges: &mut Vec<(usize, usize)>) {
        let line = self.trim_terminator(line);
        let base = dst.len();
        let mut caps = match self.matcher.new_captures() {
            Ok(c) => c,
            Err(_) => return dst.extend_from_slice(line),
        };
        let mut last = 0;
        let _ = self.matcher.captures_iter(line, &mut caps, |caps| {
            let Some(m) = caps.get(0) else {
                return false;
            };
            dst.extend_from_slice(&line[last..m.start()]);
            last = m.end();
            let start = dst.len();
            self.interpolate(caps, line, dst);
            ranges.push((start - base, dst.len() - base));
            true
        });
        dst.extend_from_slice(&line[last..]);
    }

    /// Appends the replacement of the match at `range` of `line` to `dst` (rg `-o -r`).
    pub fn replace_one(&self, line: &[u8], range: (usize, usize), dst: &mut Vec<u8>) {
        let line = self.trim_terminator(line);
        let Ok(mut caps) = self.matcher.new_captures() else {
            return;
        };
        if let Ok(true) = self.matcher.captures_at(line, range.0, &mut caps) {
            if caps.get(0).is_some_and(|m| m.start() == range.0) {
                self.interpolate(&caps, line, dst);
                return;
            }
        }
        self.interpolate(&caps, line, dst);
    }

    /// The line without its terminator, as rg trims it for a line-by-line search so the pattern
    /// cannot see it.
    fn trim_terminator<'l>(&self, line: &'l [u8]) -> &'l [u8] {
        if self.multiline {
            return line;
        }
        crate::search::matcher::trim_terminator(self.term, line)
    }

    fn interpolate(
        &self,
        caps: &<RegexMatcher as Matcher>::Captures,
        hay: &[u8],
        dst: &mut Vec<u8>,
    ) {
        caps.interpolate(
            |name| self.matcher.capture_index(name),
            hay,
            &self.replacement,
            dst,
        );
    }
}

impl Engine {
    /// The replacer of rg's `-r REPLACEMENT` for the pattern(s) and flags of `args`.
    pub fn grep_replacer(
        &self,
        args: &GrepArgs,
        rg: Option<&RgOptions>,
        replacement: &[u8],
    ) -> Result<GrepReplacer> {
        let flags = super::match_flags(args, rg);
        let matcher = matcher_cache::build_any(
            &args.pattern,
            args.patterns.as_deref().unwrap_or_default(),
            flags,
            &self.policy().limits,
        )?
        .matcher;
        Ok(GrepReplacer {
            matcher,
            replacement: replacement.to_vec(),
            multiline: flags.multiline,
            term: crate::search::matcher::terminator(flags.null_data, flags.crlf),
        })
    }
}
