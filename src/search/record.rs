//! The record of one file's search: what the per-file searches produce (the page's lines, or a hit
//! stream's raw hits), and [`RecordSink`], the one seam through which a search hands its records
//! over in walk order (to the agent's page, or to a hit stream), as grep-searcher's `Sink` separates
//! searching from printing.

use crate::search::contract::Stats;
use crate::walk::outcome::{Quiet, Vouched};
use crate::walk::WalkSkips;
use std::path::PathBuf;

/// What takes a search's file records, in walk order: the agent's page ([`crate::search::page`])
/// or the hit stream of `rootbound grep` ([`crate::search::grep::hits`]).
pub(crate) trait RecordSink {
    /// Takes one file's record; `shown` is its path as shown (empty when the record holds nothing
    /// to show and [`RecordSink::wants_every_path`] is false). False once no more are wanted.
    fn take(&mut self, root: usize, rel: PathBuf, shown: &str, r: FileResult) -> bool;
    /// Counts what the walk passed over.
    fn add_walk_skips(&mut self, s: &WalkSkips);
    /// No more records are wanted.
    fn is_done(&self) -> bool;
    /// The budget ended the search before the walk did. `looked_at`: every entry up to this one (a
    /// root and a path) was looked at, so a resumed search may start after it.
    fn cut_short(&mut self, looked_at: Option<(usize, PathBuf)>);
    /// The shown path of every file is wanted, even one whose record holds nothing.
    fn wants_every_path(&self) -> bool;
    /// The most records (files that hold a match) that can still be taken before the sink is
    /// done, when it is bounded: each matching file gives one or more. A hint for how much to
    /// search ahead; `None`: no bound.
    fn wanted(&self) -> Option<u64> {
        None
    }
}

/// One line (or, with `only_matching`, one match) recorded from a file. Its text is the range
/// `start..end` of the file's [`Lines::text`]: one buffer per file, not a string per line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Item {
    pub line: u64,
    pub is_match: bool,
    /// Another match on the line of the item before it (`only_matching`): the same unit.
    pub cont: bool,
    /// 1-based byte column of the match in the line (0: not computed, or a context line).
    pub column: u64,
    pub start: usize,
    pub end: usize,
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

/// What a file's search recorded to show, in the form its consumer takes.
#[derive(Debug, Default)]
pub(crate) enum Found {
    /// Nothing to show.
    #[default]
    Nothing,
    /// The lines the agent's page renders.
    Lines(Lines),
    /// The hits a hit stream hands to its callback.
    Hits(Box<RawHits>),
    /// Not searched: the cursor's own file, returned whole by the page before (the cursor resumes
    /// after it).
    Passed,
    /// Not opened: the n-gram index vouched that the file holds no match (the record's `status` is
    /// what the search would have recorded).
    Vouched,
    /// Not opened: a run of files the index vouched for, taken as one record (the record's path
    /// names the run's last file).
    VouchedRun(Box<PrunedRun>),
}

/// A file's recorded lines: items whose texts lie one after another in one buffer.
#[derive(Debug, Default)]
pub(crate) struct Lines {
    pub items: Vec<Item>,
    /// The text of every item, one after another.
    pub text: String,
    /// The file's first units, counted but not kept because the page skips them.
    pub dropped: Dropped,
}

/// Matching lines a file's search counted but did not keep, because the page skips them (offset
/// paging with context, see [`SeqSkip`](crate::search::file::SeqSkip)). They are the file's first
/// units.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Dropped {
    pub units: u64,
    /// The last context line that page assembly would have rendered (and thrown away) for a dropped
    /// unit: it decides whether the next line shown is preceded by `--`, exactly as if the dropped
    /// units had gone through page assembly.
    pub ctx_line: Option<u64>,
    /// The line of the last dropped unit.
    pub through: Option<u64>,
}

impl Lines {
    /// The text of an item.
    pub fn text_of(&self, item: &Item) -> &str {
        &self.text[item.start..item.end]
    }
}

impl Found {
    /// Heap bytes held, roughly (for the pipeline's budget of results waiting their turn).
    pub fn bytes(&self) -> usize {
        match self {
            Found::Nothing | Found::Passed | Found::Vouched | Found::VouchedRun(_) => 0,
            Found::Lines(l) => l.items.len() * 48 + l.text.len(),
            Found::Hits(h) => h.bytes(),
        }
    }

    /// Holds lines or hits to show.
    pub fn shows(&self) -> bool {
        matches!(self, Found::Lines(_) | Found::Hits(_))
    }
}

/// The record of one file's search.
#[derive(Debug, Default)]
pub(crate) struct FileResult {
    pub status: FileStatus,
    /// What it recorded to show.
    pub found: Found,
    /// Matching lines seen (all of them in count mode; up to the cap otherwise).
    pub units: u64,
    /// Binary data was found after some lines had been searched.
    pub binary: bool,
    /// Bytes searched (set for a hit stream, whether or not `raw` is kept).
    pub bytes_searched: u64,
}

/// Consecutive files of a replayed walk that the index vouches for, taken as one record: what the
/// search would have recorded for each of them, summed. A page takes a run exactly as it would
/// take its files one by one, since none of them holds a unit.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PrunedRun {
    pub files: u64,
    /// Files recorded as searched (no match), binary, and over `max_filesize`.
    pub searched: u64,
    pub binary: u64,
    pub too_large: u64,
    /// Bytes of the files not over `max_filesize` (the call's progress).
    pub bytes: u64,
    /// The walk's skips before the run's second and later files (the first file's travel with
    /// the job, as any file's do).
    pub rest_skips: WalkSkips,
}

impl PrunedRun {
    /// Adds one vouched-for file to the run, counted as its outcome says.
    pub fn add(&mut self, v: Vouched) {
        self.files += 1;
        match v.outcome {
            Quiet::TooLarge => self.too_large += 1,
            Quiet::Binary => self.binary += 1,
            Quiet::Searched => self.searched += 1,
        }
        if v.outcome != Quiet::TooLarge {
            self.bytes += v.size;
        }
    }
}

impl FileResult {
    /// Counts this file in `stats`: searched, or skipped and why.
    pub fn count_into(&self, stats: &mut Stats) {
        if let Found::VouchedRun(run) = &self.found {
            stats.files_searched += run.searched;
            stats.skipped.binary += run.binary;
            stats.skipped.too_large += run.too_large;
            if let Some(ix) = stats.index.as_mut() {
                ix.files_pruned += run.files;
            }
            return;
        }
        match self.status {
            FileStatus::Searched | FileStatus::TimedOut => stats.files_searched += 1,
            FileStatus::Binary => stats.skipped.binary += 1,
            FileStatus::TooLarge => stats.skipped.too_large += 1,
            FileStatus::Unreadable => stats.skipped.unreadable += 1,
            FileStatus::NotRegular => stats.skipped.not_regular += 1,
            FileStatus::Refused => stats.skipped.denied += 1,
            FileStatus::Abandoned => {}
        }
        if self.binary && self.status != FileStatus::Binary {
            stats.skipped.binary += 1;
        }
        if matches!(self.found, Found::Vouched) {
            if let Some(ix) = stats.index.as_mut() {
                ix.files_pruned += 1;
            }
        }
    }

    /// The units the page skipped in this file (none outside offset paging with context).
    pub fn dropped(&self) -> Dropped {
        self.lines().map(|l| l.dropped).unwrap_or_default()
    }

    /// The lines recorded for the agent's page (none for another form).
    pub fn lines(&self) -> Option<&Lines> {
        match &self.found {
            Found::Lines(l) => Some(l),
            _ => None,
        }
    }
}

/// What a [`HitLine`](crate::rg::HitLine) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitLineKind {
    /// A matching line (with `invert`: a line without a match); in multiline mode, the lines of one
    /// match.
    Match,
    /// A line of context.
    Context,
    /// A gap between two groups of lines with context (rg prints `--`).
    Break,
}

/// One recorded line: ranges into the file's buffers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RawLine {
    pub kind: HitLineKind,
    pub line: u64,
    pub offset: u64,
    pub start: usize,
    pub end: usize,
    pub sub_start: usize,
    pub sub_end: usize,
}

/// One file's recorded hits.
#[derive(Debug, Default)]
pub(crate) struct RawHits {
    pub data: Vec<u8>,
    pub lines: Vec<RawLine>,
    pub subs: Vec<(usize, usize)>,
    /// See [`FileHits`](crate::rg::FileHits).
    pub binary_offset: Option<u64>,
    pub matches: u64,
    pub bytes_searched: u64,
    pub named: bool,
    /// See [`FileHits::multi_line`](crate::rg::FileHits::multi_line).
    pub multi_line: bool,
}

/// Adds the walk's skip counts (ignored, denied, unreadable, not regular) to `stats`.
pub(crate) fn add_walk_skips(stats: &mut Stats, s: &WalkSkips) {
    let k = &mut stats.skipped;
    k.ignored += s.ignored;
    k.denied += s.denied;
    k.unreadable += s.unreadable;
    k.not_regular += s.not_regular;
}

impl RawHits {
    /// Heap bytes held (for the pipeline's budget of results waiting their turn).
    pub fn bytes(&self) -> usize {
        self.data.len() + self.lines.len() * 56 + self.subs.len() * 16
    }

    /// Records one line (its match ranges follow in `subs`).
    pub fn push(&mut self, kind: HitLineKind, line: u64, offset: u64, bytes: &[u8]) {
        let start = self.data.len();
        self.data.extend_from_slice(bytes);
        let subs = self.subs.len();
        self.lines.push(RawLine {
            kind,
            line,
            offset,
            start,
            end: self.data.len(),
            sub_start: subs,
            sub_end: subs,
        });
    }
}
