//! Page assembly: results arrive per file in walk order; this decides which units (matching lines or
//! files) make the page, renders them with context, and knows where the next page starts.

use crate::core::deadline::Deadline;
use crate::search::contract::{FileCount, Hit, HitKind, OutputMode, Stats};
use crate::search::record::{self, FileResult, FileStatus, Item, RecordSink};
use crate::walk::WalkSkips;
use std::fmt::Write;
use std::path::PathBuf;

/// A position in the result order: a file and the last line taken from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pos {
    pub root: usize,
    pub rel: PathBuf,
    pub line: u64,
}

/// The page being built.
pub(crate) struct Page<'d> {
    pub mode: OutputMode,
    pub limit: u64,
    pub max_bytes: usize,
    pub before: u64,
    pub after: u64,
    /// Units still to skip (offset paging).
    pub skip: u64,
    /// The page as text. It is built in JSON mode too: the byte cap and the paging are the same in
    /// both formats.
    pub out: String,
    pub units: u64,
    pub truncated: bool,
    pub timed_out: bool,
    pub done: bool,
    pub stats: Stats,
    /// The last unit put on the page.
    pub last_unit: Option<Pos>,
    /// Everything up to here has been looked at (for resuming after a timeout).
    pub consumed: Option<Pos>,
    /// Sum of counts (count mode).
    pub total: u64,
    /// Structured results (`output_format: "json"`), collected alongside the text.
    pub json: Option<Structured>,
    /// The number of the file being taken (files are taken one after another).
    file_no: u64,
    /// The file (its number) of `last_unit`.
    last_unit_file: u64,
    /// The file (number) and line of the last line rendered.
    last_printed: Option<(u64, u64)>,
    /// The block of the unit being rendered, reused from unit to unit.
    block: String,
    /// Its hits (JSON mode).
    block_hits: Vec<Hit>,
    /// The call's budget, checked while a file's lines are assembled.
    deadline: Option<&'d Deadline>,
    /// The deadline passed while this page was being assembled.
    cut_by_deadline: bool,
}

/// The structured form of a page (`output_format: "json"`).
#[derive(Debug, Default)]
pub(crate) struct Structured {
    pub hits: Vec<Hit>,
    pub counts: Vec<FileCount>,
    pub files: Vec<String>,
}

/// Page assembly looks at the deadline once per this many matching lines.
const DEADLINE_EVERY: u64 = 256;

impl<'d> Page<'d> {
    pub fn new(
        mode: OutputMode,
        limit: u64,
        max_bytes: usize,
        before: u64,
        after: u64,
        skip: u64,
    ) -> Self {
        Page {
            mode,
            limit,
            max_bytes,
            before,
            after,
            skip,
            out: String::new(),
            units: 0,
            truncated: false,
            timed_out: false,
            done: false,
            stats: Stats::default(),
            last_unit: None,
            consumed: None,
            total: 0,
            json: None,
            file_no: 0,
            last_unit_file: 0,
            last_printed: None,
            block: String::new(),
            block_hits: Vec::new(),
            deadline: None,
            cut_by_deadline: false,
        }
    }

    /// Checks `deadline` while files are assembled into the page.
    pub fn with_deadline(mut self, deadline: &'d Deadline) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// Collects the structured form of the page too.
    pub fn with_json(mut self, on: bool) -> Self {
        self.json = on.then(Structured::default);
        self
    }

    /// Takes one file's result (in walk order). Returns false once the page is complete.
    pub fn take(&mut self, root: usize, rel: PathBuf, shown: &str, r: FileResult) -> bool {
        if self.done {
            return false;
        }
        self.file_no += 1;
        r.count_into(&mut self.stats);
        // The line of the last unit of this file that the page skipped (offset paging).
        let mut skipped_through = None;
        match self.mode {
            OutputMode::Content => skipped_through = self.take_lines(root, &rel, shown, &r),
            OutputMode::FilesWithMatches | OutputMode::Count => {
                // Like rg, a count is not given for a file that turned out to be binary part way.
                let counted = !(self.mode == OutputMode::Count && r.binary);
                if r.units > 0 && r.status != FileStatus::TimedOut && counted {
                    self.total += r.units;
                    let count = (self.mode == OutputMode::Count).then_some(r.units);
                    self.file_line(root, &rel, shown, count);
                }
            }
            OutputMode::FilesWithoutMatch => {
                // A text file searched to its end without a match, as rg lists it.
                // Binary files are not listed (rg neither).
                let whole = r.status == FileStatus::Searched && !r.binary && !r.passed;
                if r.units == 0 && whole {
                    self.file_line(root, &rel, shown, None);
                }
            }
        }
        if r.status == FileStatus::TimedOut || self.cut_by_deadline {
            self.timed_out = true;
            self.truncated = true;
            self.done = true;
            // Resume after the last unit of this file that was taken or skipped (the cursor carries
            // the skip still owed, so skipped units must not be counted twice), and never before
            // where this call started in it (a resumed call cut before its next unit).
            let here = |p: &&Pos| p.root == root && p.rel == rel;
            let line = self
                .last_unit
                .as_ref()
                .filter(here)
                .map(|p| p.line)
                .max(skipped_through)
                .max(self.consumed.as_ref().filter(here).map(|p| p.line))
                .unwrap_or(0);
            self.consumed = Some(Pos { root, rel, line });
        } else if !self.done {
            self.consumed = Some(Pos {
                root,
                rel,
                line: u64::MAX,
            });
        }
        !self.done
    }

    /// A page of a path listing (glob): one path per unit, shown as the files modes show them.
    pub fn listing(limit: u64, max_bytes: usize, skip: u64) -> Self {
        Page::new(OutputMode::FilesWithMatches, limit, max_bytes, 0, 0, skip)
    }

    /// Takes one path of a listing (in the listing's order). Returns false once the page is
    /// complete.
    pub fn take_path(&mut self, root: usize, rel: PathBuf, shown: &str) -> bool {
        if self.done {
            return false;
        }
        self.file_no += 1;
        self.file_line(root, &rel, shown, None);
        if !self.done {
            self.consumed = Some(Pos {
                root,
                rel,
                line: u64::MAX,
            });
        }
        !self.done
    }

    /// Places a file's one unit: its path, with its count in count mode.
    fn file_line(&mut self, root: usize, rel: &std::path::Path, shown: &str, count: Option<u64>) {
        let mut line = std::mem::take(&mut self.block);
        line.clear();
        line.push_str(shown);
        if let Some(n) = count {
            let _ = write!(line, ":{n}");
        }
        line.push('\n');
        if self.unit(root, rel, u64::MAX, &line) {
            if let Some(j) = &mut self.json {
                match count {
                    Some(count) => j.counts.push(FileCount {
                        path: shown.to_string(),
                        count,
                    }),
                    None => j.files.push(shown.to_string()),
                }
            }
        }
        self.block = line;
    }

    /// Counts a unit: skipped (offset), placed on the page, or the one that proves more exist.
    fn unit(&mut self, root: usize, rel: &std::path::Path, line: u64, text: &str) -> bool {
        if self.done {
            return false;
        }
        if self.skip > 0 {
            self.skip -= 1;
            return false;
        }
        if self.units >= self.limit
            || (self.units > 0 && self.out.len() + text.len() > self.max_bytes)
        {
            self.truncated = true;
            self.done = true;
            return false;
        }
        if text.len() > self.max_bytes {
            // The first unit alone is over the byte cap: cut it so the page still makes progress.
            let mut cut = self.max_bytes.saturating_sub(1);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            self.out.push_str(&text[..cut]);
            self.out.push('\n');
        } else {
            self.out.push_str(text);
        }
        self.units += 1;
        // One path per file on the page, not one per unit.
        match &mut self.last_unit {
            Some(p) if self.last_unit_file == self.file_no => p.line = line,
            _ => {
                self.last_unit = Some(Pos {
                    root,
                    rel: rel.to_path_buf(),
                    line,
                });
                self.last_unit_file = self.file_no;
            }
        }
        true
    }

    /// Places a file's matching lines with their context. Linear in the file's items: the context
    /// shown before a match is found by line number at either end of the pending lines (the lines
    /// after the last match taken, and the lines just before this one), never by a scan of all of
    /// them. Returns the line of the last unit skipped (offset paging) in this file.
    fn take_lines(
        &mut self,
        root: usize,
        rel: &std::path::Path,
        shown: &str,
        r: &FileResult,
    ) -> Option<u64> {
        let items = &r.items;
        let ctx = self.before > 0 || self.after > 0;
        let (before, after) = (self.before, self.after);
        let mut skipped_through = None;
        if r.dropped > 0 && !self.done {
            // Units the file search already left out because this page skips them; they come first
            // in the file. Skipping them here would have left `last_printed` at the last context
            // line rendered for them.
            self.skip = self.skip.saturating_sub(r.dropped);
            skipped_through = r.dropped_through;
            if let Some(line) = r.dropped_ctx_line {
                self.last_printed = Some((self.file_no, line));
            }
        }
        // Context items at `pending..i` (not matches) are candidates for the next match's block.
        let mut pending = 0usize;
        let mut last_taken: Option<(usize, u64)> = None;
        let mut seen = 0u64;
        let mut block = std::mem::take(&mut self.block);
        let mut hits = std::mem::take(&mut self.block_hits);
        for (i, item) in items.iter().enumerate() {
            if !item.is_match || item.cont {
                continue;
            }
            if self.done {
                break;
            }
            seen += 1;
            if seen.is_multiple_of(DEADLINE_EVERY) && self.deadline.is_some_and(|d| d.expired()) {
                self.cut_by_deadline = true;
                break;
            }
            block.clear();
            hits.clear();
            // What was printed before this unit's leading context: a unit the full page refuses
            // leaves it as it was, so the trailing context of the last unit taken still shows.
            let before_unit = self.last_printed;
            if ctx {
                // Lines are in increasing order: the lines within `before` of this match end the
                // pending run, those within `after` of the last match taken start it.
                let mut tail = i;
                while tail > pending && items[tail - 1].line + before >= item.line {
                    tail -= 1;
                }
                let mut head = pending;
                if let Some((_, l)) = last_taken {
                    while head < tail && items[head].line <= l + after {
                        head += 1;
                    }
                }
                for c in items[pending..head].iter().chain(&items[tail..i]) {
                    if !c.is_match {
                        self.render(&mut block, &mut hits, shown, r, c, ctx);
                    }
                }
            }
            let saved = self.last_printed;
            self.render(&mut block, &mut hits, shown, r, item, ctx);
            // The other matches of the line (`only_matching`) belong to the same unit.
            let mut end = i + 1;
            while items.get(end).is_some_and(|c| c.cont) {
                self.render(&mut block, &mut hits, shown, r, &items[end], ctx);
                end += 1;
            }
            let skipping = self.skip > 0;
            if self.unit(root, rel, item.line, &block) {
                last_taken = Some((i, item.line));
                pending = end;
                if let Some(j) = &mut self.json {
                    j.hits.append(&mut hits);
                }
            } else {
                if skipping {
                    skipped_through = Some(item.line);
                    self.last_printed = saved;
                } else {
                    self.last_printed = before_unit;
                }
            }
        }
        // Trailing context of the last match taken, while it fits.
        if let Some((i, l)) = last_taken.filter(|_| !self.cut_by_deadline) {
            for c in items[i + 1..]
                .iter()
                .take_while(|c| c.line <= l + after)
                .filter(|c| !c.is_match)
            {
                if self
                    .last_printed
                    .is_some_and(|p| p.0 == self.file_no && p.1 >= c.line)
                {
                    continue;
                }
                block.clear();
                hits.clear();
                let saved = self.last_printed;
                self.render(&mut block, &mut hits, shown, r, c, ctx);
                if self.out.len() + block.len() > self.max_bytes {
                    self.last_printed = saved;
                    self.truncated = true;
                    break;
                }
                self.out.push_str(&block);
                if let Some(j) = &mut self.json {
                    j.hits.append(&mut hits);
                }
            }
        }
        self.block = block;
        self.block_hits = hits;
        skipped_through
    }

    /// Renders one item as `path:line:text` (context `path-line-text`, after `--` where a group
    /// starts) into `out`, and as a hit into `hits` in JSON mode.
    fn render(
        &mut self,
        out: &mut String,
        hits: &mut Vec<Hit>,
        shown: &str,
        r: &FileResult,
        item: &Item,
        ctx: bool,
    ) {
        if ctx {
            if let Some((f, l)) = self.last_printed {
                // Another match of the same line (`only_matching`) continues the group.
                if f != self.file_no || (l + 1 != item.line && l != item.line) {
                    out.push_str("--\n");
                }
            }
        }
        let sep = if item.is_match { ':' } else { '-' };
        let text = r.text_of(item);
        out.push_str(shown);
        out.push(sep);
        let _ = write!(out, "{}", item.line);
        out.push(sep);
        out.push_str(text);
        out.push('\n');
        if self.json.is_some() {
            hits.push(Hit {
                path: shown.to_string(),
                line: item.line,
                column: (item.column > 0).then_some(item.column),
                text: text.to_string(),
                kind: if item.is_match {
                    HitKind::Match
                } else {
                    HitKind::Context
                },
            });
        }
        self.last_printed = Some((self.file_no, item.line));
    }
}

impl Page<'_> {
    /// Adds the walk's skip counts (ignored, denied, unreadable, not regular) to the page's stats.
    pub(crate) fn add_walk_skips(&mut self, s: &WalkSkips) {
        record::add_walk_skips(&mut self.stats, s);
    }
}

/// The agent's page takes a search's records.
impl RecordSink for Page<'_> {
    fn take(&mut self, root: usize, rel: PathBuf, shown: &str, r: FileResult) -> bool {
        Page::take(self, root, rel, shown, r)
    }

    fn add_walk_skips(&mut self, s: &WalkSkips) {
        Page::add_walk_skips(self, s);
    }

    fn is_done(&self) -> bool {
        self.done
    }

    fn cut_short(&mut self, looked_at: Option<(usize, PathBuf)>) {
        if self.done {
            return;
        }
        self.timed_out = true;
        self.truncated = true;
        if let Some((root, rel)) = looked_at {
            self.consumed = Some(Pos {
                root,
                rel,
                line: u64::MAX,
            });
        }
    }

    fn wants_every_path(&self) -> bool {
        self.mode == OutputMode::FilesWithoutMatch
    }
}
