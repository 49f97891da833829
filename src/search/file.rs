//! Searching one file: a grep-searcher `Sink` that keeps a bounded, ordered record of what matched.

use crate::core::deadline::{Deadline, DeadlineReader};
use grep_matcher::Matcher;
use grep_regex::RegexMatcher;
use grep_searcher::{BinaryDetection, Searcher, Sink, SinkContext, SinkMatch};
use std::io;

/// How results are counted and shown.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum OutputMode {
    /// `path:line:text` for each matching line (the unit of paging is a matching line).
    #[default]
    Content,
    /// One path per file with a match (the unit is a file).
    FilesWithMatches,
    /// `path:count` per file with a match (the unit is a file).
    Count,
}

/// One line recorded from a file.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    pub line: u64,
    pub is_match: bool,
    pub text: String,
}

/// What happened to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum FileStatus {
    #[default]
    Searched,
    Binary,
    TooLarge,
    Unreadable,
    NotRegular,
    TimedOut,
    /// Refused by the admission gate (a hard-linked file under `refuse_hardlinks`).
    Refused,
    /// Not searched because the page was already complete.
    Abandoned,
}

/// The record of one file's search.
#[derive(Debug, Default)]
pub(crate) struct FileResult {
    pub status: FileStatus,
    pub items: Vec<Item>,
    /// Matching lines seen (all of them in count mode; up to the cap otherwise).
    pub units: u64,
    /// Binary data was found after some lines had been searched.
    pub binary: bool,
}

/// Per-file search settings.
pub(crate) struct FileSearch<'a> {
    pub matcher: &'a RegexMatcher,
    pub mode: OutputMode,
    pub context: bool,
    /// Stop after this many counted units (the page can use no more from one file).
    pub cap: u64,
    /// Matching lines up to this one do not count (the cursor's file).
    pub skip_through_line: u64,
    pub max_columns: usize,
    pub deadline: &'a Deadline,
}

impl FileSearch<'_> {
    pub fn run<R: io::Read>(&self, searcher: &mut Searcher, reader: R) -> FileResult {
        let mut sink = Collect {
            s: self,
            out: FileResult::default(),
        };
        let rdr = DeadlineReader {
            inner: reader,
            deadline: self.deadline,
        };
        match searcher.search_reader(self.matcher, rdr, &mut sink) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::TimedOut => sink.out.status = FileStatus::TimedOut,
            Err(e) if e.to_string().contains("allocation limit") => {
                sink.out.status = FileStatus::TooLarge;
                sink.out.items.clear();
                sink.out.units = 0;
            }
            Err(_) => sink.out.status = FileStatus::Unreadable,
        }

        sink.out
    }

    /// Searches a file already read into memory. Same results as [`FileSearch::run`]: a slice with
    /// a NUL byte goes through the streaming path, whose binary detection stops at the buffer holding
    /// it (a slice search checks only the first 64 KiB), and a slice with a byte-order mark is
    /// transcoded by grep-searcher exactly as the streaming path does.
    pub fn run_slice(&self, searcher: &mut Searcher, data: &[u8]) -> FileResult {
        if memchr::memchr(0, data).is_some() {
            return self.run(searcher, data);
        }
        let mut sink = Collect {
            s: self,
            out: FileResult::default(),
        };
        if self.deadline.expired() {
            sink.out.status = FileStatus::TimedOut;
            return sink.out;
        }
        // The slice was just scanned whole for NUL: grep-searcher's own check of its first 64 KiB
        // would scan most files a second time.
        let detection = searcher.binary_detection().clone();
        searcher.set_binary_detection(BinaryDetection::none());
        let searched = searcher.search_slice(self.matcher, data, &mut sink);
        searcher.set_binary_detection(detection);
        if let Err(e) = searched {
            sink.out.status = if e.kind() == io::ErrorKind::TimedOut {
                FileStatus::TimedOut
            } else {
                FileStatus::Unreadable
            };
        }
        sink.out
    }
}

struct Collect<'a, 'b> {
    s: &'a FileSearch<'b>,
    out: FileResult,
}

impl Collect<'_, '_> {
    /// False (and the file marked timed out) once the deadline has passed.
    fn in_time(&mut self) -> bool {
        if self.s.deadline.expired() {
            self.out.status = FileStatus::TimedOut;
            return false;
        }
        true
    }
}

impl Sink for Collect<'_, '_> {
    type Error = io::Error;

    fn matched(&mut self, _: &Searcher, m: &SinkMatch<'_>) -> io::Result<bool> {
        let first = m.line_number().unwrap_or(0);
        for (i, line) in m.lines().enumerate() {
            let n = first + i as u64;
            if n <= self.s.skip_through_line {
                continue;
            }
            self.out.units += 1;
            match self.s.mode {
                OutputMode::Content => self.out.items.push(Item {
                    line: n,
                    is_match: true,
                    text: cut_line(line, self.s.max_columns, Some(self.s.matcher)),
                }),
                OutputMode::FilesWithMatches => return Ok(false),
                OutputMode::Count => {}
            }
            if self.s.mode != OutputMode::Count && self.out.units >= self.s.cap {
                return Ok(false);
            }
        }
        Ok(self.in_time())
    }

    fn context(&mut self, _: &Searcher, c: &SinkContext<'_>) -> io::Result<bool> {
        if self.s.context {
            self.out.items.push(Item {
                line: c.line_number().unwrap_or(0),
                is_match: false,
                text: cut_line(c.bytes(), self.s.max_columns, None),
            });
        }
        Ok(self.in_time())
    }

    fn binary_data(&mut self, _: &Searcher, _offset: u64) -> io::Result<bool> {
        self.out.binary = true;
        Ok(false)
    }
}

/// Text of one line without its terminator, cut to `max` characters around the first match.
pub(crate) fn cut_line(bytes: &[u8], max: usize, matcher: Option<&RegexMatcher>) -> String {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let text = String::from_utf8_lossy(bytes);
    let total = text.chars().count();
    if total <= max {
        return text.into_owned();
    }
    let match_at = matcher
        .and_then(|m| m.find(bytes).ok().flatten())
        .map(|m| text.get(..m.start()).map_or(0, |s| s.chars().count()))
        .unwrap_or(0);
    // Show a little before the match so the agent sees where it sits.
    let start = match_at.saturating_sub(max / 5).min(total - max);
    let window: String = text.chars().skip(start).take(max).collect();
    let mut s = String::new();
    if start > 0 {
        s.push_str(&format!("[... {start} chars] "));
    }
    s.push_str(&window);
    let after = total - start - max;
    if after > 0 {
        s.push_str(&format!(" [... {after} more chars]"));
    }
    s
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
