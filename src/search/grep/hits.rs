//! The hit stream: the search's results as structured hits (raw line bytes, byte offsets, match
//! ranges), for front ends that render them themselves (`rootbound grep`: rg's text, colour and JSON
//! formats). A file's hits live in three buffers (its line bytes, its line records, its match
//! ranges), filled by a grep-searcher `Sink` on the pool thread and handed in walk order to the
//! caller's callback: no allocation per line, and no text is formatted on the way.

use crate::core::deadline::Deadline;
use crate::search::contract::OutputMode;
use crate::search::contract::Stats;
pub use crate::search::record::HitLineKind;
use crate::search::record::{self, FileResult, FileStatus, Found, RawHits, RecordSink};
use crate::walk::WalkSkips;
use grep_matcher::Matcher;
use grep_regex::RegexMatcher;
use grep_searcher::{Searcher, Sink, SinkContext, SinkFinish, SinkMatch};
use std::io;
use std::path::PathBuf;

/// What the search records of each file for [`Sandbox::grep_hits_each`](crate::Sandbox::grep_hits_each).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct HitOptions {
    /// Record the lines (matches, context, context breaks). Off: only the counts (rg `-c`, `-l`).
    pub lines: bool,
    /// Record the byte range of every match in each matching line, and count matches (not only
    /// matching lines).
    pub submatches: bool,
    /// Count line numbers (off is faster; [`HitLine::line_number`] is then 0).
    pub line_numbers: bool,
    /// A file named as the search's path (searched even when it holds NUL bytes, as rg does) stops
    /// at its first match after binary data was seen: rg's standard output then prints
    /// "binary file matches" instead of the lines. Its JSON output and counts go on to the end.
    pub stop_after_binary: bool,
}

impl HitOptions {
    /// Options with every field given.
    pub fn new(lines: bool, submatches: bool, line_numbers: bool, stop_after_binary: bool) -> Self {
        HitOptions {
            lines,
            submatches,
            line_numbers,
            stop_after_binary,
        }
    }
}

/// One line (or, in multiline mode, one match over several lines) of a file.
#[derive(Debug, Clone, Copy)]
pub struct HitLine<'a> {
    /// Match, context or break.
    pub kind: HitLineKind,
    /// 1-based number of the (first) line; 0 when line numbers were not asked for.
    pub line_number: u64,
    /// Absolute byte offset of the line's start in the file.
    pub offset: u64,
    /// The line's bytes, with its terminator (empty for a break).
    pub bytes: &'a [u8],
    /// Byte ranges of the matches within `bytes` (with [`HitOptions::submatches`]; for context
    /// lines only with `invert`, where they are the lines that match).
    pub submatches: &'a [(usize, usize)],
}

/// Everything one file produced, handed to the callback of
/// [`Sandbox::grep_hits_each`](crate::Sandbox::grep_hits_each) in walk order.
#[derive(Debug)]
pub struct FileHits<'a> {
    /// The file as paths are shown (the sandbox's path display).
    pub path: &'a str,
    /// The file was searched past its NUL bytes as rg searches a file named on the command line:
    /// it is the search's path itself (not found by the walk), or `--binary` is on
    /// ([`BinaryMode::Binary`](crate::rg::BinaryMode)).
    pub named: bool,
    /// Where the first NUL byte was seen, if any (binary data).
    pub binary_offset: Option<u64>,
    /// Matching lines (with `invert`: lines without a match).
    pub matched_lines: u64,
    /// Matches (with [`HitOptions::submatches`]; otherwise equal to `matched_lines`).
    pub matches: u64,
    /// Bytes of the file searched.
    pub bytes_searched: u64,
    /// The search of this file was cut by the deadline.
    pub timed_out: bool,
    /// The search was multiline and its pattern can match a line terminator, so one reported match
    /// may span lines (grep-searcher's `multi_line_with_matcher`; rg's summary then counts matches,
    /// not lines). False for a file without a match.
    pub multi_line: bool,
    raw: Option<&'a RawHits>,
}

impl<'a> FileHits<'a> {
    /// The recorded lines, in file order.
    pub fn lines(&self) -> impl Iterator<Item = HitLine<'a>> + 'a {
        self.raw.into_iter().flat_map(|r| {
            r.lines.iter().map(move |l| HitLine {
                kind: l.kind,
                line_number: l.line,
                offset: l.offset,
                bytes: &r.data[l.start..l.end],
                submatches: &r.subs[l.sub_start..l.sub_end],
            })
        })
    }
}

/// The view of one file's result that the callback gets.
pub(crate) fn file_hits<'a>(path: &'a str, r: &'a FileResult) -> FileHits<'a> {
    let raw = match &r.found {
        Found::Hits(h) => Some(&**h),
        _ => None,
    };
    FileHits {
        path,
        named: raw.is_some_and(|h| h.named),
        binary_offset: raw.and_then(|h| h.binary_offset),
        matched_lines: r.units,
        matches: raw.map_or(r.units, |h| h.matches),
        bytes_searched: r.bytes_searched,
        timed_out: r.status == FileStatus::TimedOut,
        multi_line: raw.is_some_and(|h| h.multi_line),
        raw,
    }
}

/// The callback of a hit stream, as a trait object that lives for `'h`.
pub(crate) type HitFn<'h> = dyn FnMut(&FileHits<'_>) -> bool + 'h;

/// The hit stream (`grep_hits_each`): each searched file's hits go to the caller's callback, in walk
/// order, with no page and no limit; the callback returns false to end the search.
pub(crate) struct HitStream<'h> {
    each: &'h mut HitFn<'h>,
    mode: OutputMode,
    pub stats: Stats,
    pub timed_out: bool,
    done: bool,
}

impl<'h> HitStream<'h> {
    pub fn new(each: &'h mut HitFn<'h>, mode: OutputMode) -> Self {
        HitStream {
            each,
            mode,
            stats: Stats::default(),
            timed_out: false,
            done: false,
        }
    }
}

impl RecordSink for HitStream<'_> {
    fn take(&mut self, _root: usize, _rel: PathBuf, shown: &str, r: FileResult) -> bool {
        if self.done {
            return false;
        }
        r.count_into(&mut self.stats);
        let shows = matches!(
            r.status,
            FileStatus::Searched | FileStatus::TimedOut | FileStatus::Binary
        );
        if shows && !(self.each)(&file_hits(shown, &r)) {
            self.done = true;
        }
        !self.done
    }

    fn add_walk_skips(&mut self, s: &WalkSkips) {
        record::add_walk_skips(&mut self.stats, s);
    }

    fn is_done(&self) -> bool {
        self.done
    }

    fn cut_short(&mut self, _looked_at: Option<(usize, PathBuf)>) {
        if !self.done {
            self.timed_out = true;
        }
    }

    fn wants_every_path(&self) -> bool {
        // Count mode may print `path:0` (rg --include-zero).
        matches!(self.mode, OutputMode::Count | OutputMode::FilesWithoutMatch)
    }
}

/// The sink that records a file's hits.
pub(crate) struct HitSink<'a> {
    pub matcher: &'a RegexMatcher,
    pub opts: HitOptions,
    pub mode: OutputMode,
    pub multiline: bool,
    /// The searcher converts NUL bytes rather than quitting at them (a named file).
    pub convert: bool,
    pub deadline: &'a Deadline,
    pub hits: RawHits,
    pub units: u64,
    /// Matches the searcher reported (a multiline one counts once; `units` counts its lines).
    reported: u64,
    calls: u32,
    pub timed_out: bool,
}

impl<'a> HitSink<'a> {
    /// A sink for one file.
    pub fn new(
        matcher: &'a RegexMatcher,
        opts: HitOptions,
        mode: OutputMode,
        multiline: bool,
        convert: bool,
        deadline: &'a Deadline,
    ) -> Self {
        HitSink {
            matcher,
            opts,
            mode,
            multiline,
            convert,
            deadline,
            hits: RawHits::default(),
            units: 0,
            reported: 0,
            calls: 0,
            timed_out: false,
        }
    }

    /// The file's result: counts, and the hits when there is anything to show.
    pub fn finish(self, status: FileStatus, named: bool, size: u64) -> FileResult {
        let mut hits = self.hits;
        hits.named = named;
        if status != FileStatus::Searched {
            hits.bytes_searched = size;
        }
        let status = if self.timed_out {
            FileStatus::TimedOut
        } else {
            status
        };
        let binary = hits.binary_offset.is_some();
        let keep = self.units > 0 || !hits.lines.is_empty() || binary || named;
        FileResult {
            status,
            units: self.units,
            binary,
            bytes_searched: hits.bytes_searched,
            found: if keep {
                Found::Hits(Box::new(hits))
            } else {
                Found::Nothing
            },
        }
    }

    /// False (and the file marked timed out) once the deadline has passed.
    fn in_time(&mut self) -> bool {
        self.calls = self.calls.wrapping_add(1);
        if self.calls.is_multiple_of(32) && self.deadline.expired() {
            self.timed_out = true;
            return false;
        }
        true
    }

    /// Records the match ranges of `bytes` (a matching line, or the lines of a multiline match) and
    /// returns how many there are.
    fn submatches(&mut self, s: &Searcher, bytes: &[u8]) -> u64 {
        let hay = if self.multiline {
            bytes
        } else {
            crate::search::matcher::trim_terminator(s.line_terminator(), bytes)
        };
        let before = self.hits.subs.len();
        let subs = &mut self.hits.subs;
        let _ = self.matcher.find_iter(hay, |m| {
            // rg drops an empty match at the end of the line's bytes, terminator included (one
            // before the terminator, as `$` gives, is shown).
            if m.is_empty() && m.start() >= bytes.len() {
                return true;
            }
            subs.push((m.start(), m.end()));
            true
        });
        (self.hits.subs.len() - before) as u64
    }
}

impl Sink for HitSink<'_> {
    type Error = io::Error;

    fn matched(&mut self, s: &Searcher, m: &SinkMatch<'_>) -> Result<bool, io::Error> {
        // Past `max_count` the searcher still reports the matches among the trailing context of
        // the last one; rg 13 prints them as matches, and so do we.
        let lines = if self.multiline {
            m.lines().count() as u64
        } else {
            1
        };
        self.units += lines;
        self.reported += 1;
        if self.multiline && self.reported == 1 {
            // A property of the search, asked once per file.
            self.hits.multi_line = s.multi_line_with_matcher(self.matcher);
        }
        if self.convert && self.opts.stop_after_binary && self.hits.binary_offset.is_some() {
            // Not shown, but counted (rg's --stats counts the line's matches before it stops).
            if self.opts.submatches {
                let before = self.hits.subs.len();
                self.hits.matches += self.submatches(s, m.bytes());
                self.hits.subs.truncate(before);
            }
            return Ok(false);
        }
        match self.mode {
            OutputMode::FilesWithMatches | OutputMode::FilesWithoutMatch => return Ok(false),
            OutputMode::Count | OutputMode::Content => {}
        }
        if self.opts.lines {
            self.hits.push(
                HitLineKind::Match,
                m.line_number().unwrap_or(0),
                m.absolute_byte_offset(),
                m.bytes(),
            );
        }
        if self.opts.submatches {
            let n = self.submatches(s, m.bytes());
            self.hits.matches += n;
            if let Some(l) = self.hits.lines.last_mut().filter(|_| self.opts.lines) {
                l.sub_end = self.hits.subs.len();
            } else {
                self.hits.subs.clear();
            }
        } else {
            self.hits.matches += 1;
        }
        if s.passthru() && s.max_matches().is_some_and(|m| self.reported >= m) {
            // rg 13 ends a `--passthru` search at the `-m`th match.
            return Ok(false);
        }
        Ok(self.in_time())
    }

    fn context(&mut self, s: &Searcher, c: &SinkContext<'_>) -> Result<bool, io::Error> {
        if self.convert && self.opts.stop_after_binary && self.hits.binary_offset.is_some() {
            return Ok(false);
        }
        // rg 13 ends a `--passthru` search at the `-m`th match; the searcher would go on printing
        // the rest of the file as the match's trailing context.
        if s.passthru() && s.max_matches().is_some_and(|m| self.reported >= m) {
            return Ok(false);
        }
        if self.opts.lines {
            self.hits.push(
                HitLineKind::Context,
                c.line_number().unwrap_or(0),
                c.absolute_byte_offset(),
                c.bytes(),
            );
            // With `invert` the context lines are the ones that match: rg shows their matches.
            if self.opts.submatches && s.invert_match() {
                self.submatches(s, c.bytes());
                if let Some(l) = self.hits.lines.last_mut() {
                    l.sub_end = self.hits.subs.len();
                }
            }
        }
        Ok(self.in_time())
    }

    fn context_break(&mut self, _: &Searcher) -> Result<bool, io::Error> {
        if self.opts.lines {
            self.hits.push(HitLineKind::Break, 0, 0, b"");
        }
        Ok(true)
    }

    fn finish(&mut self, _: &Searcher, f: &SinkFinish) -> Result<(), io::Error> {
        self.hits.bytes_searched = f.byte_count();
        Ok(())
    }

    fn binary_data(&mut self, _: &Searcher, offset: u64) -> Result<bool, io::Error> {
        self.hits.binary_offset.get_or_insert(offset);
        // In quit mode the searcher stops by itself; in convert mode the search goes on.
        Ok(true)
    }
}
