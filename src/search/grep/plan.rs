//! The parts of one grep search, each made from the call's arguments by one function: how each file
//! is searched ([`Matching`], with the command line's rg-only switches apart in [`RgSwitches`]),
//! which files and from where ([`Selection`]), and what the page takes ([`Paging`]); and
//! [`SearchPlan`], the view of them that the walker, the workers and the consumer share.

use crate::core::deadline::Deadline;
use crate::core::error::{Error, Result};
use crate::core::sandbox::Sandbox;
use crate::engine::Within;
use crate::index::Pruner;
use crate::search::contract::{GrepArgs, OutputFormat, OutputMode, MAX_OFFSET};
use crate::search::cursor::{self, Cursor};
use crate::search::file::{Context, FileOpts, SeqSkip};
use crate::search::matcher::MatchFlags;
use crate::search::matcher_cache;
use crate::search::rg::{BinaryMode, RgOptions};
use crate::walk::outcome::Reading;
use crate::walk::{self, Filter};
use grep_regex::RegexMatcher;
use std::sync::Arc;

use super::hits::HitOptions;

/// How each file is searched, and what its search records.
#[derive(Clone)]
pub(super) struct Matching {
    pub matcher: RegexMatcher,
    /// The parsed patterns the matcher was built from (the index's query is made from them).
    pub hir: Option<Arc<regex_syntax::hir::Hir>>,
    pub mode: OutputMode,
    /// The agent's per-file options.
    pub opts: FileOpts,
    /// Context lines around each match (the searcher keeps them in `content` mode only).
    pub context: Context,
    pub multiline: bool,
    /// Search documents as their extracted text (`documents: true`).
    #[cfg_attr(not(feature = "documents"), allow(dead_code))]
    pub documents: bool,
    /// A hit stream: files record raw hits ([`super::hits`]) instead of the page's text.
    pub raw: Option<HitOptions>,
    /// The command line's rg-only switches (all off for an agent's call).
    pub rg: RgSwitches,
}

/// The switches only the command line (`rootbound grep`, [`RgOptions`]) sets; an agent's call has
/// them as [`RgSwitches::of`] gives them for no rg settings.
#[derive(Debug, Clone, Copy)]
pub(super) struct RgSwitches {
    /// Every line is reported, those that do not match as context (rg `--passthru`).
    pub passthru: bool,
    /// A file that starts with a UTF-16 byte order mark is searched as the bytes it holds, not
    /// decoded (rg `--encoding none`).
    pub no_bom_sniffing: bool,
    /// Lines end at NUL bytes, which are then text (rg `--null-data`).
    pub null_data: bool,
    /// Lines end at `\r\n` for the searcher and the matcher (rg `--crlf`).
    pub crlf: bool,
    /// rg `--binary` / `-a`: what a NUL byte does (see [`BinaryMode`]).
    pub binary: BinaryMode,
    /// A named file is searched as one buffer (rg's memory map); see [`RgOptions::no_mmap`].
    pub mmap: bool,
}

impl RgSwitches {
    /// The switches of `rg`, with the matcher's terminator settings of `flags`.
    pub fn of(rg: Option<&RgOptions>, flags: MatchFlags) -> Self {
        RgSwitches {
            passthru: rg.is_some_and(|rg| rg.passthru),
            no_bom_sniffing: rg.is_some_and(|rg| rg.encoding_none),
            null_data: flags.null_data,
            crlf: flags.crlf,
            binary: rg.map_or(BinaryMode::Auto, |rg| rg.binary),
            mmap: !rg.is_some_and(|rg| rg.no_mmap),
        }
    }
}

/// Which files are searched: the walk's filter, where a cursor resumes, the size over which a file
/// is skipped, and the index's verdicts when it serves the search. (Where the walks start is
/// made from these by [`Sandbox::starts`], and consumed by the walk.)
#[derive(Clone)]
pub(super) struct Selection {
    pub filter: Filter,
    pub cursor: Option<Cursor>,
    /// Its `max_filesize`, and how it reads files: what it records for a file without a match.
    pub reading: Reading,
    /// The n-gram index's verdicts, when it serves this search.
    pub prune: Option<Arc<Pruner>>,
}

/// What the page takes: its caps, the units it skips, where its numbering starts, the query its
/// cursor belongs to, and what each file may record for it.
#[derive(Clone)]
pub(super) struct Paging {
    pub limit: u64,
    pub max_bytes: usize,
    /// Units skipped before the first taken (`offset`, or what a cursor still owes).
    pub skip: u64,
    /// The index of the page's first unit.
    pub first_index: u64,
    /// The hash of the arguments a cursor of this page belongs to.
    pub query: u64,
    /// Units one file may record: the page can use no more from one file.
    pub per_file_cap: u64,
    /// Offset paging with context: the files are searched one by one in walk order, on the calling
    /// thread (see `SeqSkip`).
    pub seq: Option<Arc<SeqSkip>>,
}

/// Everything one search needs, shared by the walker, the workers and the consumer.
#[derive(Clone, Copy)]
pub(super) struct SearchPlan<'a> {
    pub sandbox: &'a Sandbox,
    pub deadline: &'a Deadline,
    pub matching: &'a Matching,
    pub selection: &'a Selection,
    pub paging: &'a Paging,
}

/// The checks of `args` that need nothing compiled: what the search refuses before it starts.
pub(super) fn check(args: &GrepArgs, flags: MatchFlags, stream: bool) -> Result<()> {
    // The hit stream hands over whole match blocks; its printer splits them (rg `-U -o`).
    if only_matching(args) && flags.multiline && !stream {
        return Err(Error::invalid(
            "only_matching cannot be combined with multiline; search without only_matching",
        ));
    }
    if args.max_count == Some(0) {
        return Err(Error::invalid(
            "max_count must be at least 1 (omit it for no per-file limit)",
        ));
    }
    Ok(())
}

/// `only_matching`, which `invert` turns off: the lines shown hold no match, and rg shows them whole
/// under `-o` too.
fn only_matching(args: &GrepArgs) -> bool {
    args.only_matching.unwrap_or(false) && !args.invert.unwrap_or(false)
}

impl Within<'_> {
    /// The walk filter of a grep call: its globs, types and switches, rg's when given, its
    /// `max_depth`, and ignore files compiled within the call's budget.
    pub(super) fn grep_filter(
        &self,
        args: &GrepArgs,
        rg: Option<&RgOptions>,
        deadline: &Arc<Deadline>,
    ) -> Result<Filter> {
        let filter = self.filter(
            args.include.as_ref(),
            args.exclude.as_ref(),
            args.file_type.as_deref(),
            args.hidden,
            args.no_ignore,
        )?;
        let filter = match rg {
            Some(rg) => rg.apply_to(filter, self.policy().limits.max_pattern_len)?,
            None => filter,
        };
        Ok(Filter {
            ignore: walk::IgnoreBudget {
                deadline: Some(deadline.clone()),
                ..filter.ignore
            },
            max_depth: args.max_depth,
            ..filter
        })
    }

    /// How each file of a grep call is searched: its matcher, compiled within the call's budget.
    pub(super) fn matching(
        &self,
        args: &GrepArgs,
        rg: Option<&RgOptions>,
        flags: MatchFlags,
        deadline: &Deadline,
        raw: Option<HitOptions>,
    ) -> Result<Matching> {
        let compiled = matcher_cache::build_any_within(
            &args.pattern,
            args.patterns.as_deref().unwrap_or_default(),
            flags,
            &self.policy().limits,
            deadline,
        )?;
        let ctx = args.context.unwrap_or(0).min(100);
        let only_matching = only_matching(args);
        let json = args.output_format.unwrap_or_default() == OutputFormat::Json;
        Ok(Matching {
            matcher: compiled.matcher,
            hir: compiled.hir,
            mode: args.output_mode.unwrap_or_default(),
            opts: FileOpts {
                only_matching,
                columns: json || only_matching,
                invert: args.invert.unwrap_or(false),
                max_count: args.max_count,
            },
            context: Context {
                before: args.before.unwrap_or(ctx).min(100),
                after: args.after.unwrap_or(ctx).min(100),
            },
            multiline: flags.multiline,
            documents: args.documents.unwrap_or(false),
            raw,
            rg: RgSwitches::of(rg, flags),
        })
    }

    /// What a grep call's page takes, and the cursor it resumes from. A hit stream (`stream`) takes
    /// every file in one pass.
    pub(super) fn grep_paging(
        &self,
        args: &GrepArgs,
        stream: bool,
        m: &Matching,
    ) -> Result<(Paging, Option<Cursor>)> {
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
        let offset = args.offset.unwrap_or(0);
        if offset > MAX_OFFSET {
            // Offset paging keeps up to offset+limit lines per file in flight; past this, memory
            // could grow with a hostile tree. The cursor has no such cost.
            return Err(Error::invalid(format!(
                "offset {offset} is over {MAX_OFFSET}; page with cursor=next_cursor instead"
            )));
        }
        let skip = self.skip_of(cursor.as_ref(), offset)?;
        // Offset paging with context: files are searched in order so each keeps only what the page
        // can show (see `SeqSkip`).
        let seq = (skip > 0 && m.context.on() && m.mode == OutputMode::Content)
            .then(|| Arc::new(SeqSkip::new(skip, limit)));
        let paging = Paging {
            limit,
            max_bytes,
            skip,
            first_index: cursor.as_ref().map_or(offset, |c| c.index),
            query,
            per_file_cap: skip.saturating_add(limit).saturating_add(1),
            seq,
        };
        Ok((paging, cursor))
    }

    /// Which files a grep call searches, given its filter and cursor: the size cap, and the
    /// index's pruner when it serves the search (`command_line`: a hit stream or rg settings).
    pub(super) fn selection(
        &self,
        index: Option<&Arc<crate::index::Index>>,
        args: &GrepArgs,
        flags: MatchFlags,
        (m, deadline): (&Matching, &Deadline),
        command_line: bool,
        (filter, cursor): (Filter, Option<Cursor>),
    ) -> Selection {
        let limits = &self.policy().limits;
        let max_filesize = args
            .max_filesize
            .unwrap_or(limits.max_filesize)
            .min(limits.max_filesize);
        let reading = Reading {
            max_filesize,
            whole: flags.multiline,
            context: m.mode == OutputMode::Content && m.context.on(),
            memory_cap: deadline.memory_cap(),
        };
        let prune = self
            .pruner_for(index, args, m, command_line, reading, deadline)
            .map(Arc::new);
        Selection {
            filter,
            cursor,
            reading,
            prune,
        }
    }
}
