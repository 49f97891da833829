//! Searching one file: a grep-searcher `Sink` that keeps a bounded, ordered record of what matched.

use crate::core::deadline::{Deadline, DeadlineReader};
use grep_matcher::Matcher;
use grep_regex::RegexMatcher;
use grep_searcher::{
    BinaryDetection, ConfigError, Searcher, Sink, SinkContext, SinkError, SinkMatch,
};
use std::collections::VecDeque;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::search::contract::OutputMode;
use crate::search::record::{FileResult, FileStatus, Found, Item, Lines};

/// Per-file options beyond the pattern (the agent's `only_matching`, `max_count`, and whether the
/// column of each match is needed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct FileOpts {
    /// Record each match of a line as its own item (rg `-o`).
    pub only_matching: bool,
    /// Record the 1-based column of the first match of each matching line.
    pub columns: bool,
    /// Lines that do not match are the results (rg `-v`).
    pub invert: bool,
    /// Stop each file after this many matching lines (rg `-m`).
    pub max_count: Option<u64>,
}

impl Lines {
    /// Appends an item whose text is `bytes` cut by [`cut_line`].
    fn push(
        &mut self,
        line: u64,
        is_match: bool,
        bytes: &[u8],
        max: usize,
        matcher: Option<&RegexMatcher>,
    ) {
        let start = self.text.len();
        cut_line_into(&mut self.text, bytes, max, matcher);
        self.items.push(Item {
            line,
            is_match,
            cont: false,
            column: 0,
            start,
            end: self.text.len(),
        });
    }
}

/// Offset paging with context, searched one file at a time in walk order (one worker).
///
/// A page that skips `offset` units would otherwise have each file keep every matching line up to
/// `offset + limit` with all its context lines, since a worker cannot know how many of its units
/// earlier files used up: with `context: 100` that is up to 201 lines per unit, and page assembly
/// had to look at all of them. Searched in order, a file knows at its start exactly how many units
/// the page still skips and how many it can still take, so it keeps only what the page can show:
/// no skipped unit, at most `before` context lines in front of the first unit taken, no more units
/// than the page has room for, and after the last of those only the context lines that can trail
/// it. The page comes out byte for byte as it did when every file kept everything.
pub(crate) struct SeqSkip {
    /// Units the page still skips.
    skip: AtomicU64,
    /// Units the page can still take once the skipping is done (its limit, plus one that proves
    /// there are more).
    room: AtomicU64,
}

impl SeqSkip {
    pub fn new(skip: u64, limit: u64) -> Self {
        SeqSkip {
            skip: AtomicU64::new(skip),
            room: AtomicU64::new(limit.saturating_add(1)),
        }
    }
}

/// The context lines asked for around each match (none outside `content` mode).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Context {
    pub before: u64,
    pub after: u64,
}

impl Context {
    pub fn on(self) -> bool {
        self.before > 0 || self.after > 0
    }
}

/// Per-file search settings.
pub(crate) struct FileSearch<'a> {
    pub matcher: &'a RegexMatcher,
    pub mode: OutputMode,
    pub opts: FileOpts,
    pub context: Context,
    /// Stop after this many counted units (the page can use no more from one file).
    pub cap: u64,
    /// Matching lines up to this one do not count (the cursor's file).
    pub skip_through_line: u64,
    pub max_columns: usize,
    pub deadline: &'a Deadline,
    /// Begin even when the deadline has passed (the call's first file past its start); the checks
    /// while searching still apply.
    pub begin_late: bool,
    /// Set for offset paging with context (see [`SeqSkip`]); files are then searched in walk order.
    pub seq: Option<&'a SeqSkip>,
    /// A fresh searcher for a search of this file that goes through grep-searcher's line buffer
    /// (a reader's search: see [`FileSearch::run_slice`]), whose size a long line searched before
    /// may have grown; `None`: the searcher given is used as it is. A slice searched as a slice
    /// never touches that buffer, so most files need no fresh one (building it zeroes 64 KiB).
    pub fresh: Option<&'a dyn Fn() -> Searcher>,
}

impl FileSearch<'_> {
    fn sink(&self) -> Collect<'_, '_> {
        let mut sink = Collect {
            s: self,
            out: FileResult::default(),
            lines: Lines::default(),
            keep: u64::MAX,
            drop_left: 0,
            ring: VecDeque::new(),
            spare: Vec::new(),
            tail_until: None,
            seen: 0,
            calls: 0,
        };
        if let Some(seq) = self.seq.filter(|_| self.mode == OutputMode::Content) {
            let skip = seq.skip.load(Ordering::Acquire);
            let room = seq.room.load(Ordering::Acquire);
            sink.drop_left = skip;
            sink.keep = skip.saturating_add(room);
        }
        sink
    }

    /// Accounts for a finished file in the shared skip state (offset paging with context).
    fn done(&self, sink: Collect<'_, '_>) -> FileResult {
        // Context held back for a file whose every unit was dropped is never shown.
        let mut out = sink.out;
        let dropped = sink.lines.dropped.units;
        if !sink.lines.items.is_empty() || dropped > 0 {
            out.found = Found::Lines(sink.lines);
        }
        if let Some(seq) = self.seq.filter(|_| self.mode == OutputMode::Content) {
            // Files are searched one at a time in walk order, so nobody else touches these now.
            let kept = out.units - dropped;
            let _ = seq
                .skip
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |v| {
                    Some(v.saturating_sub(dropped))
                });
            let _ = seq
                .room
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |v| {
                    Some(v.saturating_sub(kept))
                });
        }
        out
    }

    pub fn run<R: io::Read>(&self, searcher: &mut Searcher, reader: R) -> FileResult {
        let mut sink = self.sink();
        let rdr = DeadlineReader {
            inner: reader,
            deadline: self.deadline,
        };
        if let Err(e) = searcher.search_reader(self.matcher, rdr, &mut sink) {
            sink.out.status = e.status();
            if sink.out.status == FileStatus::TooLarge {
                sink.out = FileResult {
                    status: FileStatus::TooLarge,
                    binary: sink.out.binary,
                    ..Default::default()
                };
                sink.lines = Lines::default();
            }
        }
        self.done(sink)
    }

    /// Searches a file already read into memory. Same results as [`FileSearch::run`]: a slice with
    /// a NUL byte goes through the streaming path, whose binary detection stops at the buffer holding
    /// it (a slice search checks only the first 64 KiB), and a slice with a byte-order mark is
    /// transcoded by grep-searcher exactly as the streaming path does.
    pub fn run_slice(&self, searcher: &mut Searcher, data: &[u8]) -> FileResult {
        if memchr::memchr(0, data).is_some() {
            self.renew(searcher);
            return self.run(searcher, data);
        }
        if transcoded(data) {
            // grep-searcher searches such a slice through a reader, in its line buffer.
            self.renew(searcher);
        }
        let mut sink = self.sink();
        if !self.begin_late && self.deadline.expired() {
            sink.out.status = FileStatus::TimedOut;
            return self.done(sink);
        }
        // The slice was just scanned whole for NUL: grep-searcher's own check of its first 64 KiB
        // would scan most files a second time.
        let detection = searcher.binary_detection().clone();
        searcher.set_binary_detection(BinaryDetection::none());
        let searched = searcher.search_slice(self.matcher, data, &mut sink);
        searcher.set_binary_detection(detection);
        if let Err(e) = searched {
            // A slice search reads nothing and allocates nothing past the slice: the only error it
            // can meet is the deadline.
            sink.out.status = match e.status() {
                FileStatus::TimedOut => FileStatus::TimedOut,
                _ => FileStatus::Unreadable,
            };
        }
        self.done(sink)
    }
}

impl FileSearch<'_> {
    /// Replaces `searcher` with a fresh one when [`FileSearch::fresh`] is set.
    fn renew(&self, searcher: &mut Searcher) {
        if let Some(fresh) = self.fresh {
            *searcher = fresh();
        }
    }
}

/// Whether grep-searcher, sniffing byte order marks, transcodes `slice` through a reader rather
/// than search it as it is: it begins with a UTF-16 (LE, BE) or UTF-8 mark (its
/// `slice_has_bom`). With sniffing off no slice is transcoded; a fresh searcher then costs only
/// its build.
fn transcoded(slice: &[u8]) -> bool {
    slice.starts_with(&[0xFF, 0xFE])
        || slice.starts_with(&[0xFE, 0xFF])
        || slice.starts_with(&[0xEF, 0xBB, 0xBF])
}

/// Why a search of one file failed, as grep-searcher reports it to the sink.
#[derive(Debug)]
enum SearchError {
    /// From the reader or from grep-searcher's own buffer management.
    Io(io::Error),
    /// The searcher's configuration cannot search this input.
    Config(ConfigError),
    /// Anything else (the matcher never fails).
    Other(String),
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::Io(e) => write!(f, "{e}"),
            SearchError::Config(e) => write!(f, "{e}"),
            SearchError::Other(m) => f.write_str(m),
        }
    }
}

impl SinkError for SearchError {
    fn error_message<T: std::fmt::Display>(message: T) -> Self {
        SearchError::Other(message.to_string())
    }

    fn error_io(err: io::Error) -> Self {
        SearchError::Io(err)
    }

    fn error_config(err: ConfigError) -> Self {
        SearchError::Config(err)
    }
}

impl SearchError {
    /// The file's status for this failure.
    ///
    /// grep-searcher reports a line (or, in multiline mode, a file) over its heap limit as an
    /// `io::Error` it makes itself, of kind `Other` and without an OS error code. Every other I/O
    /// error here comes from our reader: the deadline (`TimedOut`, see [`DeadlineReader`]) or the
    /// kernel (with an errno). So `Other` without an errno is the heap limit: no text is matched.
    fn status(&self) -> FileStatus {
        match self {
            SearchError::Io(e) if e.kind() == io::ErrorKind::TimedOut => FileStatus::TimedOut,
            SearchError::Io(e)
                if e.kind() == io::ErrorKind::Other && e.raw_os_error().is_none() =>
            {
                FileStatus::TooLarge
            }
            _ => FileStatus::Unreadable,
        }
    }
}

struct Collect<'a, 'b> {
    s: &'a FileSearch<'b>,
    out: FileResult,
    /// The lines kept, put in `out` when the file is done.
    lines: Lines,
    /// Offset paging with context ([`SeqSkip`]): units past this many are counted, not kept.
    keep: u64,
    /// Units still to drop because the page skips them.
    drop_left: u64,
    /// Before the first unit kept (units dropped, or lines up to the cursor's): the last `before`
    /// context lines, the only ones that unit can show in front of it (line and text; the strings
    /// are reused as the ring turns).
    ring: VecDeque<(u64, String)>,
    /// Strings of the ring handed over, kept for reuse.
    spare: Vec<String>,
    /// Once `keep` units are kept: context lines up to this one can still trail the last of them.
    tail_until: Option<u64>,
    /// Matching lines seen in the file, those before the cursor's line included (for `max_count`).
    seen: u64,
    /// Calls from the searcher, for how often the deadline is read.
    calls: u32,
}

impl Collect<'_, '_> {
    /// Hands the context lines held back while dropping over to the kept items.
    fn flush_ring(&mut self) {
        while let Some((line, text)) = self.ring.pop_front() {
            let start = self.lines.text.len();
            self.lines.text.push_str(&text);
            self.lines.items.push(Item {
                line,
                is_match: false,
                cont: false,
                column: 0,
                start,
                end: self.lines.text.len(),
            });
            self.spare.push(text);
        }
    }

    /// Records a line of context (or a match past `max_count`, shown as context like rg 14 and GNU
    /// grep do).
    fn context_line(&mut self, line: u64, bytes: &[u8]) {
        let ctx = self.s.context;
        if !ctx.on() || self.tail_until.is_some_and(|t| line > t) {
            return;
        }
        // Until the first unit kept, only the last `before` lines can be shown (in front of it).
        let holding = self.drop_left > 0 || line <= self.s.skip_through_line;
        if holding && ctx.before == 0 {
            return;
        }
        if holding {
            let mut text = if self.ring.len() as u64 >= ctx.before {
                self.ring.pop_front().map(|(_, t)| t)
            } else {
                self.spare.pop()
            }
            .unwrap_or_default();
            text.clear();
            cut_line_into(&mut text, bytes, self.s.max_columns, None);
            self.ring.push_back((line, text));
        } else {
            self.flush_ring();
            self.lines
                .push(line, false, bytes, self.s.max_columns, None);
        }
    }

    /// Records a matching line: the line, or each of its matches (`only_matching`).
    fn push_match(&mut self, n: u64, line: &[u8]) {
        let s = self.s;
        if !s.opts.only_matching {
            self.lines
                .push(n, true, line, s.max_columns, Some(s.matcher));
            if s.opts.columns {
                let col = s
                    .matcher
                    .find(line)
                    .ok()
                    .flatten()
                    .map_or(0, |m| m.start() as u64 + 1);
                if let Some(last) = self.lines.items.last_mut() {
                    last.column = col;
                }
            }
            return;
        }
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let mut first = true;
        // Empty matches are shown too, as rg shows them.
        let _ = s.matcher.find_iter(line, |m| {
            self.lines
                .push(n, true, &line[m.start()..m.end()], s.max_columns, None);
            if let Some(last) = self.lines.items.last_mut() {
                last.cont = !first;
                last.column = m.start() as u64 + 1;
            }
            first = false;
            true
        });
        if first {
            // A line the searcher matched whose every match is empty: the unit still shows, empty.
            self.lines.push(n, true, b"", s.max_columns, None);
        }
    }

    /// False (and the file marked timed out) once the deadline has passed.
    fn in_time(&mut self) -> bool {
        // A clock read per line is a tenth of a match-heavy search: look every 32 lines.
        self.calls = self.calls.wrapping_add(1);
        if self.calls.is_multiple_of(32) && self.s.deadline.expired() {
            self.out.status = FileStatus::TimedOut;
            return false;
        }
        true
    }
}

impl Sink for Collect<'_, '_> {
    type Error = SearchError;

    fn matched(&mut self, _: &Searcher, m: &SinkMatch<'_>) -> Result<bool, SearchError> {
        // Without line numbers (a mode that places no line, see `SearchPlan::line_numbers`) no
        // line is passed over: the cursor's line is then 0.
        let numbered = m.line_number().is_some();
        let first = m.line_number().unwrap_or(0);
        // One call per match (a line, or in multiline mode the lines of one match), as the
        // searcher counts them for `max_count`.
        self.seen += 1;
        let past_max = self.s.opts.max_count.is_some_and(|max| self.seen > max);
        for (i, line) in m.lines().enumerate() {
            let n = first + i as u64;
            if past_max {
                // The searcher stops after `max_count` matches but shows their trailing context,
                // where it reports later matches as matches: they are context here.
                self.context_line(n, line);
                continue;
            }
            if numbered && n <= self.s.skip_through_line {
                continue;
            }
            self.out.units += 1;
            if self.drop_left > 0 {
                // Skipped by the page: page assembly would render the context in front of it and
                // throw it away; only the last line it would render matters (for `--`).
                self.drop_left -= 1;
                self.lines.dropped.units += 1;
                self.lines.dropped.through = Some(n);
                if let Some(c) = self.ring.back() {
                    if c.0 + self.s.context.before >= n {
                        self.lines.dropped.ctx_line = Some(c.0);
                    }
                }
                if self.drop_left == 0 {
                    self.flush_ring();
                }
            } else if self.tail_until.is_none() {
                match self.s.mode {
                    OutputMode::Content => {
                        self.flush_ring();
                        self.push_match(n, line);
                    }
                    OutputMode::FilesWithMatches | OutputMode::FilesWithoutMatch => {
                        return Ok(false)
                    }
                    OutputMode::Count => {}
                }
                if self.out.units >= self.keep {
                    // The page ends at this unit at the latest; past it, it can show only the
                    // context lines that trail the last unit it takes. The search goes on to the
                    // same cap as before so the file's status (binary, timed out) is the same.
                    self.tail_until = Some(n.saturating_add(self.s.context.after));
                }
            }
            if self.s.mode != OutputMode::Count && self.out.units >= self.s.cap {
                return Ok(false);
            }
        }
        Ok(self.in_time())
    }

    fn context(&mut self, _: &Searcher, c: &SinkContext<'_>) -> Result<bool, SearchError> {
        self.context_line(c.line_number().unwrap_or(0), c.bytes());
        Ok(self.in_time())
    }

    fn binary_data(&mut self, _: &Searcher, _offset: u64) -> Result<bool, SearchError> {
        self.out.binary = true;
        Ok(false)
    }
}

/// Text of one line without its terminator, cut to `max` characters around the first match.
#[cfg(test)]
pub(crate) fn cut_line(bytes: &[u8], max: usize, matcher: Option<&RegexMatcher>) -> String {
    let mut s = String::new();
    cut_line_into(&mut s, bytes, max, matcher);
    s
}

/// Appends the text of one line without its terminator, cut to `max` characters around the first
/// match, to `out`. A short UTF-8 line is copied as it is, with no allocation.
pub(crate) fn cut_line_into(
    out: &mut String,
    bytes: &[u8],
    max: usize,
    matcher: Option<&RegexMatcher>,
) {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let text = String::from_utf8_lossy(bytes);
    // Every character is at least one byte: a line of at most `max` bytes is never cut.
    if bytes.len() <= max || text.chars().count() <= max {
        out.push_str(&text);
        return;
    }
    let total = text.chars().count();
    let match_at = matcher
        .and_then(|m| m.find(bytes).ok().flatten())
        .map(|m| text.get(..m.start()).map_or(0, |s| s.chars().count()))
        .unwrap_or(0);
    // Show a little before the match so the agent sees where it sits.
    let start = match_at.saturating_sub(max / 5).min(total - max);
    use std::fmt::Write;
    if start > 0 {
        let _ = write!(out, "[... {start} chars] ");
    }
    out.extend(text.chars().skip(start).take(max));
    let after = total - start - max;
    if after > 0 {
        let _ = write!(out, " [... {after} more chars]");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_cut_around_the_match() {
        let m = grep_regex::RegexMatcher::new("NEEDLE").unwrap();
        let line = format!("{}NEEDLE{}\n", "a".repeat(1000), "b".repeat(1000));
        let s = cut_line(line.as_bytes(), 100, Some(&m));
        assert!(s.contains("NEEDLE"), "{s}");
        assert!(s.starts_with("[... "));
        assert!(s.ends_with("more chars]"));
        assert_eq!(cut_line(b"short\r\n", 100, None), "short");
    }
}
