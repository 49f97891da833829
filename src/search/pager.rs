//! The pager: which units (a matching line, a file, a path) make a page and where the next page
//! starts. It holds the page's text, since the byte cap is measured on it, but knows nothing of what
//! a unit says: the agent's grep page ([`crate::search::page`]) and glob's listing
//! ([`crate::search::glob`]) render their units and hand them here.

use crate::search::cursor::Cursor;
use std::path::{Path, PathBuf};

/// A position in the result order: a file and the last line taken from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pos {
    pub root: usize,
    pub rel: PathBuf,
    pub line: u64,
}

/// A page's units and its place in the result order.
pub(crate) struct Pager {
    pub limit: u64,
    pub max_bytes: usize,
    /// Units still to skip (offset paging).
    pub skip: u64,
    /// The page as text. It is built in JSON mode too: the byte cap and the paging are the same in
    /// both formats.
    pub out: String,
    pub units: u64,
    pub truncated: bool,
    pub timed_out: bool,
    pub done: bool,
    /// The last unit put on the page.
    pub last_unit: Option<Pos>,
    /// Everything up to here has been looked at (for resuming after a timeout).
    pub consumed: Option<Pos>,
    /// The number of the file being taken (files are taken one after another).
    file_no: u64,
    /// The file (its number) of `last_unit`.
    last_unit_file: u64,
}

/// What a finished page tells its caller, whatever its units were.
pub(crate) struct Paged {
    pub text: String,
    pub units: u64,
    pub truncated: bool,
    pub timed_out: bool,
    /// The offset of the next page.
    pub next_offset: u64,
    pub next_cursor: Option<String>,
}

impl Pager {
    pub fn new(limit: u64, max_bytes: usize, skip: u64) -> Self {
        Pager {
            limit,
            max_bytes,
            skip,
            out: String::new(),
            units: 0,
            truncated: false,
            timed_out: false,
            done: false,
            last_unit: None,
            consumed: None,
            file_no: 0,
            last_unit_file: 0,
        }
    }

    /// Starts the next file (or path). False once the page is complete.
    pub fn next_file(&mut self) -> bool {
        if self.done {
            return false;
        }
        self.file_no += 1;
        true
    }

    /// The number of the file being taken.
    pub fn file_no(&self) -> u64 {
        self.file_no
    }

    /// Counts a unit: skipped (offset), placed on the page, or the one that proves more exist.
    /// True when it was placed.
    pub fn place(&mut self, root: usize, rel: &Path, line: u64, text: &str) -> bool {
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

    /// Adds text that belongs to the last unit placed (its trailing context) while it fits the
    /// byte cap; when it does not, the page is truncated there. True when it was added.
    pub fn extend(&mut self, text: &str) -> bool {
        if self.out.len() + text.len() > self.max_bytes {
            self.truncated = true;
            return false;
        }
        self.out.push_str(text);
        true
    }

    /// The file (or path) just taken was taken whole: a resumed page starts after it.
    pub fn passed(&mut self, root: usize, rel: PathBuf) {
        if !self.done {
            self.consumed = Some(Pos {
                root,
                rel,
                line: u64::MAX,
            });
        }
    }

    /// The budget ended the page inside the file just taken. It resumes after the last unit of the
    /// file that was taken or skipped (`skipped_through`: the cursor carries the skip still owed, so
    /// skipped units must not be counted twice), and never before where this call started in it (a
    /// resumed call cut before its next unit).
    pub fn cut_in(&mut self, root: usize, rel: PathBuf, skipped_through: Option<u64>) {
        self.timed_out = true;
        self.truncated = true;
        self.done = true;
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
    }

    /// The budget ended the page between files. `looked_at`: every entry up to this one (a root
    /// and a path) was looked at, so a resumed page may start after it.
    pub fn cut_short(&mut self, looked_at: Option<(usize, PathBuf)>) {
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

    /// The finished page: its text, and where the next one starts (`first_index`: the offset of
    /// this page's first unit; `query`: the hash that binds a cursor to its call).
    pub fn finish(self, first_index: u64, query: u64) -> Paged {
        let resume = if self.timed_out {
            self.consumed.or(self.last_unit)
        } else {
            self.last_unit
        };
        let next_cursor = resume.filter(|_| self.truncated).map(|p| {
            Cursor {
                query,
                root: p.root,
                path: p.rel,
                line: p.line,
                index: first_index + self.units,
                // Non-zero only when the deadline cut the page while it was still skipping.
                skip: self.skip,
            }
            .encode()
        });
        Paged {
            text: self.out,
            units: self.units,
            truncated: self.truncated,
            timed_out: self.timed_out,
            next_offset: first_index + self.units,
            next_cursor,
        }
    }
}
