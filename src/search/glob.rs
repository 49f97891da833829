//! glob: file names matching a pattern, on the same root-bound walker, sorted and paginated like grep.

use crate::core::admit::RootId;
use crate::core::audit::Fields;
use crate::core::deadline::Deadline;
use crate::core::error::Result;
use crate::core::sandbox::Sandbox;
use crate::search::args::{Globs, GrepResult};
use crate::search::cursor;
use crate::search::file::{FileResult, OutputMode};
use crate::search::page::Page;
use crate::search::query::{check_glob, start_pos, Start};
use crate::walk::{Filter, IgnoreBudget, Walk, WalkEnd, WalkSkips};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `glob`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GlobArgs {
    /// A glob in ripgrep `-g` syntax: without a `/` it matches file names at any depth (`*.rs`); with one it
    /// is relative to the root (`src/**/*.rs`).
    pub pattern: String,
    /// A directory under a root to search in; omit for every root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Include hidden (dot) files and directories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
    /// Do not apply `.gitignore`, `.ignore` and `.rgignore`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_ignore: Option<bool>,
    /// Skip this many paths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// Resume after the previous page (its `next_cursor`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// Paths per page (default 10, capped by the policy's `max_results`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
}

impl Sandbox {
    /// Lists files whose path matches a glob, in path order. The result has grep's shape, with one path
    /// per line in `matches`.
    pub fn glob(&self, args: &GlobArgs) -> Result<GrepResult> {
        self.audited(
            "glob",
            args.path.as_deref(),
            || Ok((self.glob_inner(args)?, None)),
            |g| Fields::ok(g.matches.len() as u64, g.match_lines, g.truncated),
        )
    }

    fn glob_inner(&self, args: &GlobArgs) -> Result<GrepResult> {
        check_glob(&args.pattern, self.policy.limits.max_pattern_len)?;
        let filter = self.filter(
            Some(&Globs::One(args.pattern.clone())),
            None,
            None,
            args.hidden,
            args.no_ignore,
        )?;
        let query = cursor::args_hash("glob:", args, |q| {
            q.offset = None;
            q.cursor = None;
            q.limit = None;
        });
        let cursor = self.decode_cursor(args.cursor.as_deref(), args.offset, query)?;
        let (limit, max_bytes) = self.page_caps(args.limit, None);
        let offset = args.offset.unwrap_or(0);
        let skip = self.skip_of(cursor.as_ref(), offset)?;
        let first_index = cursor.as_ref().map_or(offset, |c| c.index);
        let mut page = Page::new(OutputMode::FilesWithMatches, limit, max_bytes, 0, 0, skip);
        let deadline = Arc::new(Deadline::after(Duration::from_millis(
            self.policy.limits.timeout_ms,
        )));
        // Ignore files compile within the call's budget.
        let filter = Filter {
            ignore: IgnoreBudget {
                deadline: Some(deadline.clone()),
                ..filter.ignore
            },
            ..filter
        };
        let mut timed_out = false;
        let starts = self.starts(args.path.as_deref(), cursor.as_ref(), &filter)?;
        // A page cut by the deadline resumes after the last file it took (`take` keeps this up to
        // date), or where this call started.
        page.consumed = start_pos(cursor.as_ref(), &starts);
        for start in starts {
            if page.done {
                break;
            }
            match start {
                Start::File { root, rel, .. } => {
                    let shown = self.display(root, &rel);
                    let past = cursor
                        .as_ref()
                        .is_some_and(|c| c.root == root && c.path == rel);
                    if !past {
                        page.take(
                            root,
                            rel,
                            &shown,
                            FileResult {
                                units: 1,
                                ..Default::default()
                            },
                        );
                    }
                }
                Start::Dir {
                    root,
                    rel,
                    fd,
                    levels,
                } => {
                    let resume = cursor
                        .as_ref()
                        .filter(|c| c.root == root)
                        .map(|c| c.path.as_path());
                    let walker = Walk {
                        gate: &self.gate,
                        root: RootId::Read(root),
                        filter: &filter,
                        deadline: Some(&deadline),
                        resume_after: resume,
                    };
                    let mut on_file = |f: crate::walk::FoundFile, skips: &mut WalkSkips| {
                        page.add_walk_skips(&std::mem::take(skips));
                        if deadline.expired() {
                            timed_out = true;
                            return false;
                        }
                        if resume.is_some_and(|p| p == f.rel) {
                            return true;
                        }
                        deadline.progress(1, 0);
                        let shown = self.display(root, &f.rel);
                        page.take(
                            root,
                            f.rel,
                            &shown,
                            FileResult {
                                units: 1,
                                ..Default::default()
                            },
                        )
                    };
                    let (end, rest) = walker.run(fd, rel, levels, &mut on_file);
                    page.add_walk_skips(&rest);
                    if let WalkEnd::TimedOut(at) = end {
                        timed_out = true;
                        // Everything up to `at` was looked at: a resumed call starts after it,
                        // so a walk through many empty directories still advances.
                        if let (Some(at), false) = (at, page.done) {
                            page.consumed = Some(crate::search::page::Pos {
                                root,
                                rel: at,
                                line: u64::MAX,
                            });
                        }
                    }
                }
            }
        }
        // The deadline also counts when it stopped the compilation of ignore rules: the walk then let
        // nothing through below them.
        if (timed_out || deadline.was_hit()) && !page.done {
            page.timed_out = true;
            page.truncated = true;
        }
        page.stats.skipped.partial_ignore_files += filter.ignore.partial();
        page.stats.files_searched = 0;
        let mut r = self.finish(page, first_index, query, OutputMode::FilesWithMatches);
        r.stats.files_searched = r.match_lines;
        Ok(r)
    }
}
