//! glob: file names matching a pattern, on the same root-bound walker, sorted and paginated like grep.

use crate::core::audit::Fields;
use crate::core::deadline::Deadline;
use crate::core::error::{Error, Result};
use crate::engine::Within;
use crate::search::contract::{GlobArgs, GlobSort, Globs, GrepResult, OutputMode, Stats};
use crate::search::cursor::{self, Cursor};
use crate::search::page::path_line;
use crate::search::pager::{Pager, Pos};
use crate::search::query::grep_result;
use crate::search::query::{self, check_glob, start_pos, WalkStart};
use crate::search::rg::RgOptions;
use crate::walk::{Filter, IgnoreBudget, WalkEnd, WalkSkips};
use std::path::PathBuf;
use std::sync::Arc;

/// At most this many files are sorted by modification time in one call.
const MAX_SORTED: usize = 100_000;

impl Within<'_> {
    /// Lists files whose path matches a glob, in path order. The result has grep's shape, with one path
    /// per line in `matches`.
    pub fn glob(&self, args: &GlobArgs) -> Result<GrepResult> {
        self.glob_with_rg(args, None)
    }

    /// [`Within::glob`] with the command line's rg settings (`rootbound grep --files`, a dialect's
    /// case-insensitive glob): rg's globs, types, ignore kinds and depth, which then replace
    /// `args.pattern`.
    pub(crate) fn glob_with_rg(
        &self,
        args: &GlobArgs,
        rg: Option<&RgOptions>,
    ) -> Result<GrepResult> {
        self.audited(
            "glob",
            args.path.as_deref(),
            || Ok((self.glob_inner(args, rg)?, None)),
            |g| Fields::ok(g.matches.len() as u64, g.match_lines, g.truncated),
        )
    }

    fn glob_inner(&self, args: &GlobArgs, rg: Option<&RgOptions>) -> Result<GrepResult> {
        check_glob(&args.pattern, self.policy().limits.max_pattern_len)?;
        let filter = self.filter(
            Some(&Globs::One(args.pattern.clone())),
            None,
            None,
            args.hidden,
            args.no_ignore,
        )?;
        let filter = match rg {
            Some(rg) => rg.apply_to(filter, self.policy().limits.max_pattern_len)?,
            None => filter,
        };
        let query = cursor::args_hash("glob:", args, |q| {
            q.offset = None;
            q.cursor = None;
            q.limit = None;
            q.timeout_ms = None;
        });
        let cursor = self.decode_cursor(args.cursor.as_deref(), args.offset, query)?;
        let (limit, max_bytes) = self.page_caps(args.limit, None);
        let offset = args.offset.unwrap_or(0);
        let skip = self.skip_of(cursor.as_ref(), offset)?;
        let first_index = cursor.as_ref().map_or(offset, |c| c.index);
        let page = Listing::new(limit, max_bytes, skip);
        let deadline = Arc::new(self.deadline(args.timeout_ms));
        // Ignore files compile within the call's budget.
        let mut filter = Filter {
            ignore: IgnoreBudget {
                deadline: Some(deadline.clone()),
                ..filter.ignore
            },
            ..filter
        };
        filter.ignore.kinds.extra = self.rule_file();
        let by_time = args.sort == Some(GlobSort::Modified);
        if by_time && cursor.is_some() {
            return Err(Error::invalid(
                "sort: \"modified\" pages by offset; pass next_offset as offset instead of a cursor",
            ));
        }
        let starts = self.starts(args.path.as_deref(), cursor.as_ref(), &filter)?;
        let mut w = GlobWalk {
            deadline: &deadline,
            cursor: cursor.as_ref(),
            by_time,
            page,
            timed: Vec::new(),
            too_many: false,
            timed_out: false,
        };
        // A page cut by the deadline resumes after the last file it took (`take_path` keeps this up to
        // date), or where this call started.
        w.page.pager.consumed = start_pos(cursor.as_ref(), &starts);
        let max = self.policy().limits.max_pattern_len;
        for start in starts {
            // Globs relative to each start (a dialect's glob) are anchored there.
            let here = match rg.filter(|r| r.globs_from_start) {
                Some(rg) => Some(Filter {
                    overrides: rg.overrides_at(start.rel(), max)?.overrides,
                    ..filter.clone()
                }),
                None => None,
            };
            let f = here.as_ref().unwrap_or(&filter);
            if w.page.pager.done || !self.glob_start(&mut w, f, start) {
                break;
            }
        }
        if w.too_many {
            return Err(Error::invalid(format!(
                "more than {MAX_SORTED} files match; sort: \"modified\" needs them all. Narrow the pattern or path, or sort by path"
            )));
        }
        // The deadline also counts when it stopped the compilation of ignore rules: the walk then let
        // nothing through below them.
        let timed_out = w.timed_out || deadline.was_hit();
        let mut page = w.page;
        if by_time {
            self.list_by_time(&mut page, w.timed, timed_out);
        } else if timed_out && !page.pager.done {
            page.pager.timed_out = true;
            page.pager.truncated = true;
        }
        page.stats.skipped.partial_ignore_files += filter.ignore.partial();
        let mut r = page.finish(first_index, query);
        if by_time {
            // Offset paging only: a cursor resumes in path order.
            r.next_cursor = None;
        }
        Ok(r)
    }

    /// Lists one start's files into `w` (or, sorting by time, collects them). False when no later
    /// start is begun: the walk timed out.
    fn glob_start(&self, w: &mut GlobWalk<'_>, filter: &Filter, start: WalkStart) -> bool {
        let (root, rel, fd, levels) = match start {
            WalkStart::File { root, rel, fd } if w.by_time => {
                let (sec, nsec) = crate::core::dirs::stat_fd(&fd)
                    .map(|st| (st.st_mtime, st.st_mtime_nsec as u32))
                    .unwrap_or((i64::MIN, 0));
                w.timed.push((sec, nsec, root, rel));
                return true;
            }
            WalkStart::File { root, rel, .. } => {
                let shown = self.display(root, &rel);
                // Listed already when the cursor names it as taken (not a position before it).
                let past = w
                    .cursor
                    .is_some_and(|c| c.root == root && c.path == rel && c.line == u64::MAX);
                if !past {
                    w.page.take_path(root, rel, &shown);
                }
                return true;
            }
            WalkStart::Dir {
                root,
                rel,
                fd,
                levels,
            } => (root, rel, fd, levels),
        };
        let walker = query::walker(self, root, filter, w.deadline, w.cursor);
        // The cursor's own file was listed by the page before, unless the cursor is only a position
        // before it (a page cut before its first entry).
        let resume = walker
            .resume_after
            .filter(|_| w.cursor.is_some_and(|c| c.line == u64::MAX));
        let mut on_file = |f: crate::walk::FoundFile, skips: &mut WalkSkips| {
            // The walker honours the deadline before each entry past the first.
            w.page.add_walk_skips(&std::mem::take(skips));
            if resume.is_some_and(|p| p == f.rel) {
                return true;
            }
            w.deadline.progress(1, 0);
            if w.by_time {
                if w.timed.len() >= MAX_SORTED {
                    w.too_many = true;
                    return false;
                }
                // The walker's own look at the entry, through its directory's handle (a file gone
                // since sorts last).
                let (sec, nsec) = crate::core::dirs::stat_entry(&*f.dir, &f.name)
                    .map(|st| (st.st_mtime, st.st_mtime_nsec as u32))
                    .unwrap_or((i64::MIN, 0));
                w.timed.push((sec, nsec, root, f.rel));
                return true;
            }
            let shown = self.display(root, &f.rel);
            w.page.take_path(root, f.rel, &shown)
        };
        let (end, rest) = walker.run(fd, rel, levels, &mut on_file);
        w.page.add_walk_skips(&rest);
        if let WalkEnd::TimedOut(at) = end {
            w.timed_out = true;
            // Everything up to `at` was looked at: a resumed call starts after it, so a walk
            // through many empty directories still advances.
            if let (Some(at), false) = (at, w.page.pager.done) {
                w.page.pager.consumed = Some(Pos {
                    root,
                    rel: at,
                    line: u64::MAX,
                });
            }
            // As grep: no later start is begun, since the first entry its walk takes would move
            // the resume point past what this walk left unseen.
            return false;
        }
        true
    }

    /// Sorting by time: the files collected, newest first, onto the page; none when the walk timed
    /// out.
    fn list_by_time(&self, page: &mut Listing, mut timed: Vec<Timed>, timed_out: bool) {
        if timed_out {
            // An order of part of the files would be wrong: nothing is returned.
            page.pager.timed_out = true;
            page.pager.truncated = true;
            return;
        }
        // Newest first; equal times in path order.
        timed.sort_by(|a, b| {
            (b.0, b.1)
                .cmp(&(a.0, a.1))
                .then(a.2.cmp(&b.2))
                .then(a.3.cmp(&b.3))
        });
        for (_, _, root, rel) in timed {
            let shown = self.display(root, &rel);
            if !page.take_path(root, rel, &shown) {
                break;
            }
        }
    }
}

/// A file to sort by time: its modification time (seconds, nanoseconds), root and path.
type Timed = (i64, u32, usize, PathBuf);

/// One glob call's walk: where its files go, and what it saw.
struct GlobWalk<'a> {
    deadline: &'a Deadline,
    cursor: Option<&'a Cursor>,
    /// Sorting by time: files are collected in `timed`, then sorted and listed.
    by_time: bool,
    page: Listing,
    /// Sorting by time: every matching file with its modification time, sorted once walked.
    timed: Vec<Timed>,
    /// Sorting by time found more than [`MAX_SORTED`] files.
    too_many: bool,
    /// A walk ended at the deadline.
    timed_out: bool,
}

/// Glob's page: one path per unit, shown as grep's files modes show them.
struct Listing {
    pager: Pager,
    stats: Stats,
    /// The line of the path being placed, reused from path to path.
    line: String,
}

impl Listing {
    fn new(limit: u64, max_bytes: usize, skip: u64) -> Self {
        Listing {
            pager: Pager::new(limit, max_bytes, skip),
            stats: Stats::default(),
            line: String::new(),
        }
    }

    /// Takes one path (in the listing's order). Returns false once the page is complete.
    fn take_path(&mut self, root: usize, rel: PathBuf, shown: &str) -> bool {
        if !self.pager.next_file() {
            return false;
        }
        path_line(&mut self.line, shown, None);
        self.pager.place(root, &rel, u64::MAX, &self.line);
        self.pager.passed(root, rel);
        !self.pager.done
    }

    fn add_walk_skips(&mut self, s: &WalkSkips) {
        crate::search::record::add_walk_skips(&mut self.stats, s);
    }

    /// The listing as glob's result: `files_searched` counts the paths listed.
    fn finish(mut self, first_index: u64, query: u64) -> GrepResult {
        let paged = self.pager.finish(first_index, query);
        self.stats.files_searched = paged.units;
        grep_result(paged, None, OutputMode::FilesWithMatches, None, self.stats)
    }
}
