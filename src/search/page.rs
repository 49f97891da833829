//! Page assembly: results arrive per file in walk order; this decides which units (matching lines or
//! files) make the page, renders them with context, and knows where the next page starts.

use crate::search::file::{FileResult, FileStatus, Item, OutputMode};
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
pub(crate) struct Page {
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
}

impl Page {
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
        }
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
        match self.mode {
            OutputMode::Content => self.take_lines(root, &rel, shown, &r.items),
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
        if r.status == FileStatus::TimedOut {
            self.timed_out = true;
            self.truncated = true;
            self.done = true;
            let line = self
                .last_unit
                .as_ref()
                .filter(|p| p.root == root && p.rel == rel)
                .map_or(0, |p| p.line);
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

    fn take_lines(&mut self, root: usize, rel: &std::path::Path, shown: &str, items: &[Item]) {
        let ctx = self.before > 0 || self.after > 0;
        let mut pending: Vec<&Item> = Vec::new();
        let mut last_taken: Option<u64> = None;
        for item in items {
            if !item.is_match {
                pending.push(item);
                continue;
            }
            if self.done {
                break;
            }
            let mut block = String::new();
            if ctx {
                let (before, after) = (self.before, self.after);
                for c in pending.iter().filter(|c| {
                    c.line + before >= item.line || last_taken.is_some_and(|l| c.line <= l + after)
                }) {
                    block.push_str(&self.render(root, rel, shown, c, ctx));
                }
            }
            let saved = self.last_printed.clone();
            block.push_str(&self.render(root, rel, shown, item, ctx));
            if self.unit(root, rel, item.line, block) {
                last_taken = Some(item.line);
                pending.clear();
            } else {
                self.last_printed = saved;
            }
        }
        // Trailing context of the last match taken, while it fits.
        if let Some(l) = last_taken {
            let after = self.after;
            for c in items
                .iter()
                .filter(|c| !c.is_match && c.line > l && c.line <= l + after)
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
    }

    fn render(
        &mut self,
        root: usize,
        rel: &std::path::Path,
        shown: &str,
        item: &Item,
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
