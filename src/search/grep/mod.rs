//! grep_search: a root-bound walk feeding a parallel, ordered search with early termination.
//!
//! The walker runs on the calling thread and hands batches of files, numbered in walk order, to the
//! sandbox's search thread pool; between batches the same thread takes their results back in that
//! order and stops everything as soon as the page is known to be complete, or the call's budget
//! (deadline, cancellation) is spent, even while a worker is still inside one scan (see
//! [`pipeline`]). A window of tokens bounds how many batches are queued or being searched, each batch
//! holds a bounded number of directory handles, and results that finish out of order wait under a
//! byte budget, so memory and open descriptors do not grow with the tree. Small files are read whole
//! with one `read` into a page-aligned buffer and searched as a slice.

use crate::core::audit::Fields;
use crate::core::error::Result;
use crate::engine::Within;
use crate::search::contract::{GrepArgs, GrepResult, OutputFormat, OutputMode, Stats};
use crate::search::file::Context;
use crate::search::matcher::MatchFlags;
use crate::search::page::Page;
use crate::search::query::{self, start_pos, WalkStart};
use crate::search::record::RecordSink;
use crate::search::rg::RgOptions;
pub use hits::{FileHits, HitLine, HitLineKind, HitOptions};
use hits::{HitFn, HitStream};
use plan::SearchPlan;
use std::sync::Arc;
use std::time::Duration;

mod chunked;
pub(crate) mod hits;
mod job;
mod pipeline;
mod plan;
mod replace;
mod walk_side;
mod worker;
pub use replace::GrepReplacer;

/// At most this many batches of one call are queued or being searched at once.
const MAX_WINDOW: usize = 48;

/// While it waits for results, the calling thread looks at the budget (deadline, cancellation) at
/// least this often.
const POLL: Duration = Duration::from_millis(5);

/// Once the budget is spent, the calling thread waits at most this long for the batches in flight
/// (their workers stop at their next check of the same budget, and what they found before it belongs
/// on the page), then returns without them.
const GRACE: Duration = Duration::from_millis(20);

/// Files per batch grow from 1 to this: the first page needs only a few files, and a full search
/// should not pay a thread hand-off per file.
const MAX_BATCH: usize = 64;

/// Batches hold no more files than the pool searches in about this long (measured on the call's
/// batches so far), so that the batches of calls sharing the pool interleave finely: a small call
/// waits for at most one batch per busy thread, not for 64 slow files.
const BATCH_TIME: Duration = Duration::from_millis(4);

impl Within<'_> {
    /// Searches file contents under the roots; pages as the [crate docs](crate#paging) describe.
    pub fn grep_search(&self, args: &GrepArgs) -> Result<GrepResult> {
        self.grep_search_with_rg(args, None)
    }

    /// [`Within::grep_search`] with the command line's rg settings (`rootbound grep`).
    pub(crate) fn grep_search_with_rg(
        &self,
        args: &GrepArgs,
        rg: Option<&RgOptions>,
    ) -> Result<GrepResult> {
        self.audited(
            "grep_search",
            args.path.as_deref(),
            || Ok((self.grep_inner(args, rg, Output::Page)?.into_page(), None)),
            |g| Fields {
                result: if g.timed_out { "timed_out" } else { "ok" },
                ..Fields::ok(g.matches.len() as u64, g.match_lines, g.truncated)
            },
        )
    }

    /// Searches as [`Within::grep_search`] does, in one pass with no page limit, and hands every
    /// searched file's hits to `each` in walk order: raw line bytes, byte offsets, match ranges and
    /// context, as [`HitOptions`] asks (paging, `limit`, `max_bytes`, `cursor`, `offset` and
    /// `output_format` are ignored). `each` returns false to stop the search. The files are searched
    /// in parallel on the sandbox's pool; `each` runs on the calling thread.
    ///
    /// Binary files are treated as rg treats them: a file found by the walk is abandoned at its
    /// first NUL byte (counted in `skipped.binary` unless it matched before it), a file given as
    /// `args.path` is searched whole with [`FileHits::binary_offset`] set; with `rg` (the
    /// settings of `rootbound grep`, [`crate::rg`]), [`BinaryMode`](crate::rg::BinaryMode) `Binary`
    /// searches walked files as named ones and `Text` searches everything as text.
    /// ```
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::write(dir.path().join("a.txt"), "one\ntwo two\n").unwrap();
    /// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
    /// let mut lines = Vec::new();
    /// let opts = rootbound::rg::HitOptions::new(true, true, true, false);
    /// sb.grep_hits_each(&rootbound::GrepArgs::new("two"), None, opts, |f| {
    ///     for l in f.lines() {
    ///         lines.push((l.line_number, l.bytes.to_vec(), l.submatches.to_vec()));
    ///     }
    ///     true
    /// })
    /// .unwrap();
    /// assert_eq!(lines, vec![(2, b"two two\n".to_vec(), vec![(0, 3), (4, 7)])]);
    /// ```
    pub fn grep_hits_each(
        &self,
        args: &GrepArgs,
        rg: Option<&RgOptions>,
        opts: HitOptions,
        mut each: impl FnMut(&FileHits<'_>) -> bool,
    ) -> Result<HitSummary> {
        let mut args = args.clone();
        args.cursor = None;
        args.offset = None;
        args.limit = None;
        args.max_bytes = None;
        args.output_format = None;
        Ok(self
            .grep_inner(&args, rg, Output::Stream(opts, &mut each))?
            .into_stream())
    }

    /// One page, or one hit stream, of the search of `args`, with the command line's rg settings
    /// when `rg` is given. The parts of the plan are made in the order their refusals are given.
    fn grep_inner(
        &self,
        args: &GrepArgs,
        rg: Option<&RgOptions>,
        output: Output<'_>,
    ) -> Result<Searched> {
        let stream = matches!(output, Output::Stream(..));
        let deadline = Arc::new(self.deadline(args.timeout_ms));
        let flags = match_flags(args, rg);
        plan::check(args, flags, stream)?;
        let mut filter = self.grep_filter(args, rg, &deadline)?;
        filter.ignore.kinds.extra = self.rule_file();
        let matching = self.matching(args, rg, flags, &deadline, output.hit_options())?;
        let (paging, cursor) = self.grep_paging(args, stream, &matching)?;
        let command_line = stream || rg.is_some();
        let selection = self.selection(
            self.index(),
            args,
            flags,
            (&matching, &deadline),
            command_line,
            (filter, cursor),
        );
        let starts = self.starts(
            args.path.as_deref(),
            selection.cursor.as_ref(),
            &selection.filter,
        )?;
        let plan = SearchPlan {
            sandbox: self,
            deadline: &deadline,
            matching: &matching,
            selection: &selection,
            paging: &paging,
        };
        Ok(match output {
            Output::Page => {
                let json = args.output_format.unwrap_or_default() == OutputFormat::Json;
                Searched::Page(plan.page(starts, json))
            }
            Output::Stream(_, each) => Searched::Stream(plan.stream(starts, each)),
        })
    }
}

/// Where a search's records go.
enum Output<'h> {
    /// The agent's page.
    Page,
    /// A hit stream: every file's hits to the callback, as [`HitOptions`] asks.
    Stream(HitOptions, &'h mut HitFn<'h>),
}

impl Output<'_> {
    /// What a hit stream asks each file to record (none for a page).
    fn hit_options(&self) -> Option<HitOptions> {
        match self {
            Output::Page => None,
            Output::Stream(opts, _) => Some(*opts),
        }
    }
}

/// What a search gave: a page, or the summary of a hit stream.
enum Searched {
    Page(GrepResult),
    Stream(HitSummary),
}

impl Searched {
    fn into_page(self) -> GrepResult {
        match self {
            Searched::Page(r) => r,
            Searched::Stream(_) => unreachable!("a page was asked for"),
        }
    }

    fn into_stream(self) -> HitSummary {
        match self {
            Searched::Stream(s) => s,
            Searched::Page(_) => unreachable!("a hit stream was asked for"),
        }
    }
}

impl Within<'_> {
    /// The index's pruner for this search, when an index is ready and may serve it: never for a hit
    /// stream or the command line's rg settings (`rootbound grep`), invert, files_without_match or
    /// documents (their results depend on files without a match), nor when the patterns require no
    /// trigram.
    fn pruner_for(
        &self,
        index: Option<&Arc<crate::index::Index>>,
        args: &GrepArgs,
        m: &plan::Matching,
        command_line: bool,
        reading: crate::walk::outcome::Reading,
        deadline: &crate::core::deadline::Deadline,
    ) -> Option<crate::index::Pruner> {
        let index = index?;
        if command_line
            || args.invert.unwrap_or(false)
            || m.mode == OutputMode::FilesWithoutMatch
            || args.documents.unwrap_or(false)
        {
            return None;
        }
        // The query of the matcher's own parse: the same case folding, the same syntax.
        let q = crate::index::hir_query(m.hir.as_deref()?);
        index.pruner(self, &q, reading, &|| deadline.expired())
    }
}

/// The matcher flags of `args`, with the command line's rg-only settings when given.
fn match_flags(args: &GrepArgs, rg: Option<&RgOptions>) -> MatchFlags {
    let flags = MatchFlags {
        case_insensitive: args.case_insensitive.unwrap_or(false),
        smart_case: args.smart_case.unwrap_or(false),
        fixed_strings: args.fixed_strings.unwrap_or(false),
        word: args.word.unwrap_or(false),
        multiline: args.multiline.unwrap_or(false),
        line_regexp: args.line_regexp.unwrap_or(false),
        ..MatchFlags::default()
    };
    // The command line's rg-only settings (`rootbound grep`; agents never set them).
    rg.map_or(flags, |rg| rg.match_flags(flags))
}

/// What a hit stream ([`Sandbox::grep_hits_each`](crate::Sandbox::grep_hits_each)) saw besides the hits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct HitSummary {
    /// Files searched and skipped.
    pub stats: Stats,
    /// The time budget ran out before the search went through every file.
    pub timed_out: bool,
}

impl SearchPlan<'_> {
    /// Runs the search into `page`. The calling thread walks and, between batches, takes results
    /// in order; the sandbox's pool searches the batches (see [`pipeline`]).
    fn run(&self, starts: Vec<WalkStart>, sink: &mut dyn RecordSink) {
        let mut run = pipeline::Run::new(self, sink);
        let (skips, complete, looked_at) = self.walk_all(starts, &mut run);
        run.finish(skips, complete, looked_at);
    }

    /// The agent's page of the search (`json`: with its structured form).
    fn page(&self, starts: Vec<WalkStart>, json: bool) -> GrepResult {
        let (m, p) = (self.matching, self.paging);
        let Context { before, after } = m.context;
        let mut page = Page::new(m.mode, p.limit, p.max_bytes, before, after, p.skip)
            .with_deadline(self.deadline)
            .with_json(json);
        let prune = &self.selection.prune;
        if let Some(pr) = prune {
            page.stats.index = Some(crate::index::IndexStats {
                roots_indexed: pr.roots_indexed(),
                files_pruned: 0,
                walks_replayed: 0,
                chunks_pruned: 0,
            });
        }
        page.pager.consumed = start_pos(self.selection.cursor.as_ref(), &starts);
        // Even when compiling took the whole budget, the walk deals with one entry and begins the
        // first file past the start: every call advances.
        self.run(starts, &mut page);
        if let (Some(pr), Some(ix)) = (prune, page.stats.index.as_mut()) {
            ix.walks_replayed = pr.walks_replayed();
            ix.chunks_pruned = pr.chunks_pruned();
        }
        page.stats.skipped.partial_ignore_files += self.selection.filter.ignore.partial();
        query::finish(page, p.first_index, p.query)
    }

    /// The search as a hit stream to `each`.
    fn stream<'h>(&self, starts: Vec<WalkStart>, each: &'h mut HitFn<'h>) -> HitSummary {
        let mut hits = HitStream::new(each, self.matching.mode);
        self.run(starts, &mut hits);
        let mut stats = hits.stats;
        stats.skipped.partial_ignore_files += self.selection.filter.ignore.partial();
        HitSummary {
            stats,
            timed_out: hits.timed_out,
        }
    }
}
