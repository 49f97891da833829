//! Page assembly: results arrive per file in walk order; this decides which units (matching lines or
//! files) make the page, renders them with context, and knows where the next page starts.

use crate::core::deadline::Deadline;
use crate::search::file::{FileResult, FileStatus, OutputMode};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What grep skipped, by reason. Never a silent zero: every file passed over is counted somewhere.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Skipped {
    /// Files with a NUL byte (binary), not searched further.
    pub binary: u64,
    /// Files over `max_filesize` (or lines over the searcher's memory cap).
    pub too_large: u64,
    /// Entries hidden by `.gitignore`/`.ignore`/`.rgignore` or because they are hidden (dot) files.
    pub ignored: u64,
    /// Files refused by the sandbox's hard-link policy (`refuse_hardlinks`). Objects that a deny rule
    /// matches are never counted, here or anywhere: a denied object is indistinguishable from an
    /// absent one.
    pub denied: u64,
    /// Files or directories the OS would not let us read.
    pub unreadable: u64,
    /// FIFOs, sockets and devices (never opened for reading).
    pub not_regular: u64,
    /// Ignore files applied only in part: over 1 MiB or 10,000 rules, a rule over 4 KiB, or more than
    /// 20,000 rules together with the directories above (then the file is not applied at all). The
    /// rules past the cap are not applied; a `tracing` warning names the file. Absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub partial_ignore_files: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Counts for one call.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Stats {
    /// Files whose content was searched (or, for glob, matched by name).
    pub files_searched: u64,
    /// What was passed over.
    pub skipped: Skipped,
}

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
    last_printed: Option<(usize, PathBuf, u64)>,
    /// The call's budget, checked while a file's lines are assembled.
    deadline: Option<&'d Deadline>,
    /// The deadline passed while this page was being assembled.
    cut_by_deadline: bool,
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
            last_printed: None,
            deadline: None,
            cut_by_deadline: false,
        }
    }

    /// Checks `deadline` while files are assembled into the page.
    pub fn with_deadline(mut self, deadline: &'d Deadline) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// Takes one file's result (in walk order). Returns false once the page is complete.
    pub fn take(&mut self, root: usize, rel: PathBuf, shown: &str, r: FileResult) -> bool {
        if self.done {
            return false;
        }
        match r.status {
            FileStatus::Searched | FileStatus::TimedOut => self.stats.files_searched += 1,
            FileStatus::Binary => self.stats.skipped.binary += 1,
            FileStatus::TooLarge => self.stats.skipped.too_large += 1,
            FileStatus::Unreadable => self.stats.skipped.unreadable += 1,
            FileStatus::NotRegular => self.stats.skipped.not_regular += 1,
            FileStatus::Refused => self.stats.skipped.denied += 1,
            FileStatus::Abandoned => {}
        }
        if r.binary && r.status != FileStatus::Binary {
            self.stats.skipped.binary += 1;
        }
        // The line of the last unit of this file that the page skipped (offset paging).
        let mut skipped_through = None;
        match self.mode {
            OutputMode::Content => skipped_through = self.take_lines(root, &rel, shown, &r),
            OutputMode::FilesWithMatches | OutputMode::Count => {
                // Like rg, a count is not given for a file that turned out to be binary part way.
                let counted = !(self.mode == OutputMode::Count && r.binary);
                if r.units > 0 && r.status != FileStatus::TimedOut && counted {
                    let line = match self.mode {
                        OutputMode::Count => format!("{shown}:{}\n", r.units),
                        _ => format!("{shown}\n"),
                    };
                    self.total += r.units;
                    self.unit(root, &rel, u64::MAX, line);
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

    /// Counts a unit: skipped (offset), placed on the page, or the one that proves more exist.
    fn unit(&mut self, root: usize, rel: &std::path::Path, line: u64, text: String) -> bool {
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
            self.out.push_str(&text);
        }
        self.units += 1;
        self.last_unit = Some(Pos {
            root,
            rel: rel.to_path_buf(),
            line,
        });
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
                self.last_printed = Some((root, rel.to_path_buf(), line));
            }
        }
        // Context items at `pending..i` (not matches) are candidates for the next match's block.
        let mut pending = 0usize;
        let mut last_taken: Option<(usize, u64)> = None;
        let mut seen = 0u64;
        for (i, item) in items.iter().enumerate() {
            if !item.is_match {
                continue;
            }
            if self.done {
                break;
            }
            seen += 1;
            if seen.is_multiple_of(DEADLINE_EVERY) && self.deadline.is_some_and(|d| d.expired()) {
                self.cut_by_deadline = true;
                return skipped_through;
            }
            let mut block = String::new();
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
                        let text = self.render(root, rel, shown, c, ctx);
                        block.push_str(&text);
                    }
                }
            }
            let saved = self.last_printed.clone();
            block.push_str(&self.render(root, rel, shown, item, ctx));
            let skipping = self.skip > 0;
            if self.unit(root, rel, item.line, block) {
                last_taken = Some((i, item.line));
                pending = i + 1;
            } else {
                if skipping {
                    skipped_through = Some(item.line);
                }
                self.last_printed = saved;
            }
        }
        // Trailing context of the last match taken, while it fits.
        if let Some((i, l)) = last_taken {
            for c in items[i + 1..]
                .iter()
                .take_while(|c| c.line <= l + after)
                .filter(|c| !c.is_match)
            {
                if self
                    .last_printed
                    .as_ref()
                    .is_some_and(|p| p.2 >= c.line && p.1 == rel && p.0 == root)
                {
                    continue;
                }
                let text = self.render(root, rel, shown, c, ctx);
                if self.out.len() + text.len() > self.max_bytes {
                    self.truncated = true;
                    break;
                }
                self.out.push_str(&text);
            }
        }
        skipped_through
    }

    fn render(
        &mut self,
        root: usize,
        rel: &std::path::Path,
        shown: &str,
        item: &crate::search::file::Item,
        ctx: bool,
    ) -> String {
        let mut s = String::new();
        if ctx {
            if let Some((r, p, l)) = &self.last_printed {
                if *r != root || p != rel || *l + 1 != item.line {
                    s.push_str("--\n");
                }
            }
        }
        let sep = if item.is_match { ':' } else { '-' };
        s.push_str(&format!("{shown}{sep}{}{sep}{}\n", item.line, item.text));
        self.last_printed = Some((root, rel.to_path_buf(), item.line));
        s
    }
}

impl Page<'_> {
    /// Adds the walk's skip counts (ignored, denied, unreadable, not regular) to the page's stats.
    pub(crate) fn add_walk_skips(&mut self, s: &crate::walk::WalkSkips) {
        let k = &mut self.stats.skipped;
        k.ignored += s.ignored;
        k.denied += s.denied;
        k.unreadable += s.unreadable;
        k.not_regular += s.not_regular;
    }
}
