//! The agent's page of a search: file records arrive in walk order ([`RecordSink`]); this renders
//! their units (matching lines with context, or files) as text and, in JSON mode, as structured
//! results, and hands each unit to the [`Pager`], which decides what makes the page.

use crate::core::deadline::Deadline;
use crate::search::contract::{FileCount, Hit, HitKind, OutputMode, Stats};
use crate::search::pager::Pager;
use crate::search::record::{self, FileResult, FileStatus, Found, Item, RecordSink};
use crate::walk::WalkSkips;
use std::fmt::Write;
use std::path::PathBuf;

/// The agent's page of a search: the pager, with each unit rendered as text (`path:line:text`,
/// context, `--` between groups) and, in JSON mode, as structured hits, counts or paths.
pub(crate) struct Page<'d> {
    pub pager: Pager,
    pub mode: OutputMode,
    pub before: u64,
    pub after: u64,
    pub stats: Stats,
    /// Sum of counts (count mode).
    pub total: u64,
    /// Structured results (`output_format: "json"`), collected alongside the text.
    pub json: Option<Structured>,
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

/// Writes a file's one unit as the files modes show it: its path, with its count in count mode.
pub(crate) fn path_line(out: &mut String, shown: &str, count: Option<u64>) {
    out.clear();
    out.push_str(shown);
    if let Some(n) = count {
        let _ = write!(out, ":{n}");
    }
    out.push('\n');
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
            pager: Pager::new(limit, max_bytes, skip),
            mode,
            before,
            after,
            stats: Stats::default(),
            total: 0,
            json: None,
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
        if !self.pager.next_file() {
            return false;
        }
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
                let whole = r.status == FileStatus::Searched
                    && !r.binary
                    && !matches!(r.found, Found::Passed);
                if r.units == 0 && whole {
                    self.file_line(root, &rel, shown, None);
                }
            }
        }
        if r.status == FileStatus::TimedOut || self.cut_by_deadline {
            self.pager.cut_in(root, rel, skipped_through);
        } else {
            self.pager.passed(root, rel);
        }
        !self.pager.done
    }

    /// Places a file's one unit: its path, with its count in count mode.
    fn file_line(&mut self, root: usize, rel: &std::path::Path, shown: &str, count: Option<u64>) {
        let mut line = std::mem::take(&mut self.block);
        path_line(&mut line, shown, count);
        if self.pager.place(root, rel, u64::MAX, &line) {
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
        let items: &[Item] = r.lines().map_or(&[], |l| &l.items);
        let ctx = self.before > 0 || self.after > 0;
        let (before, after) = (self.before, self.after);
        let mut skipped_through = None;
        let dropped = r.dropped();
        if dropped.units > 0 && !self.pager.done {
            // Units the file search already left out because this page skips them; they come first
            // in the file. Skipping them here would have left `last_printed` at the last context
            // line rendered for them.
            self.pager.skip = self.pager.skip.saturating_sub(dropped.units);
            skipped_through = dropped.through;
            if let Some(line) = dropped.ctx_line {
                self.last_printed = Some((self.pager.file_no(), line));
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
            if self.pager.done {
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
            let skipping = self.pager.skip > 0;
            if self.pager.place(root, rel, item.line, &block) {
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
                    .is_some_and(|p| p.0 == self.pager.file_no() && p.1 >= c.line)
                {
                    continue;
                }
                block.clear();
                hits.clear();
                let saved = self.last_printed;
                self.render(&mut block, &mut hits, shown, r, c, ctx);
                if !self.pager.extend(&block) {
                    self.last_printed = saved;
                    break;
                }
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
                if f != self.pager.file_no() || (l + 1 != item.line && l != item.line) {
                    out.push_str("--\n");
                }
            }
        }
        let sep = if item.is_match { ':' } else { '-' };
        let text = r.lines().map_or("", |l| l.text_of(item));
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
        self.last_printed = Some((self.pager.file_no(), item.line));
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
        self.pager.done
    }

    fn cut_short(&mut self, looked_at: Option<(usize, PathBuf)>) {
        self.pager.cut_short(looked_at);
    }

    fn wants_every_path(&self) -> bool {
        self.mode == OutputMode::FilesWithoutMatch
    }

    /// The units still to skip and to place, and the one past the limit that proves more exist.
    fn wanted(&self) -> Option<u64> {
        let p = &self.pager;
        Some(p.skip + p.limit.saturating_sub(p.units) + 1)
    }
}
