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
use crate::core::deadline::Deadline;
use crate::core::error::{Error, Result};
use crate::core::sandbox::Sandbox;
use crate::core::within::Within;
use crate::search::contract::{GrepArgs, GrepResult, OutputFormat, OutputMode, Stats, MAX_OFFSET};
use crate::search::cursor::{self, Cursor};
use crate::search::file::{Context, FileOpts, SeqSkip};
use crate::search::matcher::MatchFlags;
use crate::search::matcher_cache;
use crate::search::page::Page;
use crate::search::query::{start_pos, WalkStart};
use crate::search::record::RecordSink;
use crate::search::rg::{BinaryMode, RgOptions};
use crate::walk::{self, Filter};
use grep_regex::RegexMatcher;
pub use hits::{FileHits, HitLine, HitLineKind, HitOptions};
use hits::{HitFn, HitStream};
use std::sync::Arc;
use std::time::Duration;

pub(crate) mod hits;
mod job;
mod pipeline;
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
    /// when `rg` is given.
    fn grep_inner(
        &self,
        args: &GrepArgs,
        rg: Option<&RgOptions>,
        output: Output<'_>,
    ) -> Result<Searched> {
        let stream = matches!(output, Output::Stream(..));
        let limits = &self.policy.limits;
        let deadline = Arc::new(self.deadline(args.timeout_ms));
        let flags = match_flags(args, rg);
        let invert = args.invert.unwrap_or(false);
        // With `invert` the lines shown hold no match: rg shows them whole under `-o` too.
        let only_matching = args.only_matching.unwrap_or(false) && !invert;
        // The hit stream hands over whole match blocks; its printer splits them (rg `-U -o`).
        if only_matching && flags.multiline && !stream {
            return Err(Error::invalid(
                "only_matching cannot be combined with multiline; search without only_matching",
            ));
        }
        if args.max_count == Some(0) {
            return Err(Error::invalid(
                "max_count must be at least 1 (omit it for no per-file limit)",
            ));
        }
        let json = args.output_format.unwrap_or_default() == OutputFormat::Json;
        let filter = self.filter(
            args.include.as_ref(),
            args.exclude.as_ref(),
            args.file_type.as_deref(),
            args.hidden,
            args.no_ignore,
        )?;
        let filter = match rg {
            Some(rg) => rg.apply_to(filter, limits.max_pattern_len)?,
            None => filter,
        };
        // Ignore files compile within the call's budget.
        let filter = Filter {
            ignore: walk::IgnoreBudget {
                deadline: Some(deadline.clone()),
                ..filter.ignore
            },
            max_depth: args.max_depth,
            ..filter
        };
        let matcher = matcher_cache::build_any_within(
            &args.pattern,
            args.patterns.as_deref().unwrap_or_default(),
            flags,
            limits,
            &deadline,
        )?;
        let mode = args.output_mode.unwrap_or_default();
        let (limit, max_bytes) = match stream {
            // One pass: the callback takes every file.
            true => (u64::MAX / 4, usize::MAX / 4),
            false => self.page_caps(args.limit, args.max_bytes),
        };
        let query = cursor::args_hash("", args, |q| {
            q.offset = None;
            q.cursor = None;
            q.limit = None;
            q.max_bytes = None;
            q.timeout_ms = None;
        });
        let cursor = self.decode_cursor(args.cursor.as_deref(), args.offset, query)?;
        let ctx = args.context.unwrap_or(0).min(100);
        let before = args.before.unwrap_or(ctx).min(100);
        let after = args.after.unwrap_or(ctx).min(100);
        let offset = args.offset.unwrap_or(0);
        if offset > MAX_OFFSET {
            // Offset paging keeps up to offset+limit lines per file in flight; past this, memory
            // could grow with a hostile tree. The cursor has no such cost.
            return Err(Error::invalid(format!(
                "offset {offset} is over {MAX_OFFSET}; page with cursor=next_cursor instead"
            )));
        }
        let skip = self.skip_of(cursor.as_ref(), offset)?;
        let mut page = Page::new(mode, limit, max_bytes, before, after, skip)
            .with_deadline(&deadline)
            .with_json(json && !stream);
        let max_filesize = args
            .max_filesize
            .unwrap_or(limits.max_filesize)
            .min(limits.max_filesize);
        let reading = crate::index::Reading {
            max_filesize,
            whole: flags.multiline,
            context: mode == OutputMode::Content && (before > 0 || after > 0),
        };
        let prune = self
            .pruner_for(args, flags, mode, stream || rg.is_some(), reading)
            .map(Arc::new);
        if let Some(p) = &prune {
            page.stats.index = Some(crate::index::IndexStats {
                roots_indexed: p.roots_indexed(),
                files_pruned: 0,
                walks_replayed: 0,
            });
        }
        let (raw, mut hits) = match output {
            Output::Page => (None, None),
            Output::Stream(opts, each) => (Some(opts), Some(HitStream::new(each, mode))),
        };
        let first_index = cursor.as_ref().map_or(offset, |c| c.index);
        // Offset paging with context: files are searched in order so each keeps only what the page
        // can show (see `SeqSkip`).
        let seq = (skip > 0 && (before > 0 || after > 0) && mode == OutputMode::Content)
            .then(|| Arc::new(SeqSkip::new(skip, limit)));
        let starts = self.starts(args.path.as_deref(), cursor.as_ref(), &filter)?;
        page.pager.consumed = start_pos(cursor.as_ref(), &starts);
        let sink: &mut dyn RecordSink = match hits.as_mut() {
            Some(h) => h,
            None => &mut page,
        };
        // Even when compiling took the whole budget, the walk deals with one entry and begins the
        // first file past the start: every call advances.
        let plan = SearchPlan {
            sandbox: self,
            matcher: &matcher,
            filter: &filter,
            mode,
            opts: FileOpts {
                only_matching,
                columns: json || only_matching,
                invert,
                max_count: args.max_count,
                passthru: rg.is_some_and(|rg| rg.passthru),
                no_bom_sniffing: rg.is_some_and(|rg| rg.encoding_none),
                null_data: flags.null_data,
                crlf: flags.crlf,
            },
            context: Context { before, after },
            before,
            after,
            multiline: flags.multiline,
            cursor: cursor.as_ref(),
            per_file_cap: skip.saturating_add(limit).saturating_add(1),
            max_filesize,
            documents: args.documents.unwrap_or(false),
            deadline: &deadline,
            seq,
            raw,
            binary: rg.map_or(BinaryMode::Auto, |rg| rg.binary),
            mmap: !rg.is_some_and(|rg| rg.no_mmap),
            prune: prune.clone(),
        };
        plan.run(starts, sink);
        if let Some(h) = hits {
            let mut stats = h.stats;
            stats.skipped.partial_ignore_files += filter.ignore.partial();
            return Ok(Searched::Stream(HitSummary {
                stats,
                timed_out: h.timed_out,
            }));
        }
        if let (Some(p), Some(ix)) = (&prune, page.stats.index.as_mut()) {
            ix.walks_replayed = p.walks_replayed();
        }
        page.stats.skipped.partial_ignore_files += filter.ignore.partial();
        Ok(Searched::Page(self.finish(page, first_index, query)))
    }
}

/// Where a search's records go.
enum Output<'h> {
    /// The agent's page.
    Page,
    /// A hit stream: every file's hits to the callback, as [`HitOptions`] asks.
    Stream(HitOptions, &'h mut HitFn<'h>),
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

impl Sandbox {
    /// The index's pruner for this search, when an index is ready and may serve it: never for a hit
    /// stream or the command line's rg settings (`rootbound grep`), invert, files_without_match or
    /// documents (their results depend on files without a match), nor when the patterns require no
    /// trigram.
    fn pruner_for(
        &self,
        args: &GrepArgs,
        flags: MatchFlags,
        mode: OutputMode,
        command_line: bool,
        reading: crate::index::Reading,
    ) -> Option<crate::index::Pruner> {
        self.index.as_ref()?;
        if command_line
            || args.invert.unwrap_or(false)
            || mode == OutputMode::FilesWithoutMatch
            || args.documents.unwrap_or(false)
        {
            return None;
        }
        let mut pats = vec![args.pattern.as_str()];
        pats.extend(args.patterns.iter().flatten().map(String::as_str));
        let q = crate::index::patterns_query(
            &pats,
            crate::index::QueryFlags {
                case_insensitive: flags.case_insensitive,
                smart_case: flags.smart_case,
                fixed_strings: flags.fixed_strings,
                multiline: flags.multiline,
            },
        );
        self.index_pruner(&q, reading)
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

/// What a hit stream ([`Sandbox::grep_hits_each`]) saw besides the hits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct HitSummary {
    /// Files searched and skipped.
    pub stats: Stats,
    /// The time budget ran out before the search went through every file.
    pub timed_out: bool,
}

/// Everything one search needs, shared by the walker, the workers and the consumer.
struct SearchPlan<'a> {
    sandbox: &'a Sandbox,
    matcher: &'a RegexMatcher,
    filter: &'a Filter,
    mode: OutputMode,
    opts: FileOpts,
    context: Context,
    before: u64,
    after: u64,
    multiline: bool,
    cursor: Option<&'a Cursor>,
    per_file_cap: u64,
    max_filesize: u64,
    /// Search documents as their extracted text (`documents: true`).
    documents: bool,
    deadline: &'a Deadline,
    /// Offset paging with context: the files are searched one by one in walk order, on the calling
    /// thread (see `SeqSkip`).
    seq: Option<Arc<SeqSkip>>,
    /// A hit stream: files record raw hits ([`hits`]) instead of the page's text.
    raw: Option<hits::HitOptions>,
    /// rg `--binary` / `-a`: what a NUL byte does (see [`BinaryMode`]).
    binary: BinaryMode,
    /// A named file is searched as one buffer (rg's memory map); see [`RgOptions::no_mmap`].
    mmap: bool,
    /// The n-gram index's verdicts, when it serves this search.
    prune: Option<Arc<crate::index::Pruner>>,
}

impl SearchPlan<'_> {
    /// Runs the search into `page`. The calling thread walks and, between batches, takes results
    /// in order; the sandbox's pool searches the batches (see [`pipeline`]).
    fn run(&self, starts: Vec<WalkStart>, sink: &mut dyn RecordSink) {
        let mut run = pipeline::Run::new(self, sink);
        let (skips, complete, looked_at) = self.walk_all(starts, &mut run);
        run.finish(skips, complete, looked_at);
    }
}
