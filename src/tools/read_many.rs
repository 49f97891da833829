//! read_many_files: several files (paths and globs) in one call, under one byte budget.
//!
//! Each path goes through read_file and each glob through the glob tool, so every file passes the
//! same gate, limits and encodings as a single read. Results come in the order given, a glob's
//! files in path order; one file's error does not fail the call.

use crate::core::audit::Fields;
use crate::core::error::{Error, Result};
use crate::engine::Within;
use crate::search::contract::GlobArgs;
use crate::tools::read::ReadArgs;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Arguments of `read_many_files`.
///
/// ```
/// use rootbound::{ReadManyArgs, Sandbox};
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("a.txt"), "A\n").unwrap();
/// std::fs::write(dir.path().join("b.md"), "B\n").unwrap();
/// let sb = Sandbox::builder().root(dir.path()).build().unwrap();
/// let r = sb.read_many_files(&ReadManyArgs::paths(&["b.md", "*.txt"])).unwrap();
/// assert_eq!(r.files.len(), 2);
/// assert_eq!(r.files[1].content.as_deref(), Some("A\n"));
/// ```
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ReadManyArgs {
    /// Paths and globs (an entry with `*`, `?` or `[` that names no existing path is a glob in ripgrep
    /// `-g` syntax, e.g. `src/**/*.rs`).
    pub paths: Vec<String>,
    /// Bytes for all files together (default and cap: the policy's `max_read_bytes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_bytes: Option<u64>,
    /// Time budget in milliseconds (capped by the policy's timeout); a call cut by it says
    /// `timed_out` and returns what it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
}

impl ReadManyArgs {
    /// Arguments for these paths and globs.
    pub fn paths(paths: &[&str]) -> Self {
        ReadManyArgs {
            paths: paths.iter().map(|s| s.to_string()).collect(),
            max_bytes: None,
            timeout_ms: None,
        }
    }
}

/// One file of a `read_many_files` result.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct ManyFile {
    /// The displayed path (or, for an error, the path or glob as given).
    pub path: String,
    /// The text returned (absent for binary files, errors, and files the budget did not reach).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Bytes of the file returned.
    pub bytes_returned: u64,
    /// The file's size.
    pub total_bytes: u64,
    /// More of this file remains: read it with read_file from `next_offset`.
    pub truncated: bool,
    /// Where the rest starts.
    pub next_offset: u64,
    /// The file's encoding, as read_file reports it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub encoding: String,
    /// A binary file: reported, not dumped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub binary: bool,
    /// Why this file could not be read (the call still succeeds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<serde_json::Value>,
    /// A document whose text extraction failed or was cut says so here (see
    /// [`crate::ReadResult::extraction_notice`]): an empty `content` is then no empty file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
}

/// The result of `read_many_files`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[non_exhaustive]
pub struct ReadManyResult {
    /// The files in the order given.
    pub files: Vec<ManyFile>,
    /// Bytes returned in all.
    pub bytes_returned: u64,
    /// Some file was cut, left unread by the budget, or a glob matched more files than are listed.
    pub truncated: bool,
    /// The call's time budget ran out: the files after the last one listed were not read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
}

/// Files one call lists at most (globs included).
const MAX_FILES: usize = 200;

impl Within<'_> {
    /// Reads several files under one byte budget; see [`ReadManyArgs`].
    pub fn read_many_files(&self, args: &ReadManyArgs) -> Result<ReadManyResult> {
        self.audited(
            "read_many_files",
            args.paths.first().map(String::as_str),
            || Ok((self.checked_read_many(args)?, None)),
            |r| Fields::ok(r.bytes_returned, r.files.len() as u64, r.truncated),
        )
    }

    fn checked_read_many(&self, args: &ReadManyArgs) -> Result<ReadManyResult> {
        if args.paths.is_empty() {
            return Err(Error::invalid(
                "paths is empty; give at least one path or glob",
            ));
        }
        if args.paths.len() > MAX_FILES {
            return Err(Error::invalid(format!(
                "paths has {} entries, over {MAX_FILES}; ask for fewer (or use a glob)",
                args.paths.len()
            )));
        }
        // Every read and glob below runs under this call's one deadline.
        let timeout = self.policy().limits.call_timeout(args.timeout_ms);
        self.split(timeout).read_many_in_budget(args)
    }

    fn read_many_in_budget(&self, args: &ReadManyArgs) -> Result<ReadManyResult> {
        let deadline = self.deadline(None);
        let cap = self.policy().limits.max_read_bytes.max(1);
        let mut budget = args.max_bytes.unwrap_or(cap).clamp(1, cap);
        let mut out = ReadManyResult::default();
        let mut targets: Vec<std::result::Result<String, (String, Error)>> = Vec::new();
        for p in &args.paths {
            if targets.len() >= MAX_FILES || deadline.expired() {
                out.truncated = true;
                out.timed_out = deadline.expired();
                break;
            }
            // A name that exists (and may be read) is read as it is, even with glob characters in it
            // (a displayed `a[1].txt` given back); otherwise such an entry is a glob. A denied name
            // is treated as an absent one.
            let is_glob = p.contains(['*', '?', '['])
                && self
                    .stat(&crate::tools::api::StatArgs { path: p.clone() })
                    .is_err();
            if is_glob {
                match self.expand(p, MAX_FILES - targets.len()) {
                    Ok((paths, more)) => {
                        out.truncated |= more;
                        targets.extend(paths.into_iter().map(Ok));
                    }
                    Err(e) => targets.push(Err((p.clone(), e))),
                }
            } else {
                targets.push(Ok(p.clone()));
            }
        }
        for t in targets {
            if deadline.expired() {
                out.truncated = true;
                out.timed_out = true;
                break;
            }
            let file = match t {
                Err((p, e)) => error_file(p, &e),
                Ok(p) if budget == 0 => {
                    out.truncated = true;
                    ManyFile {
                        path: p,
                        truncated: true,
                        error: Some(
                            serde_json::json!({"code": "TOO_LARGE", "message": "the byte budget of this call was spent before this file; read it on its own"}),
                        ),
                        ..Default::default()
                    }
                }
                Ok(p) => match self.read_file(&ReadArgs {
                    limit: Some(budget),
                    ..ReadArgs::path(&p)
                }) {
                    Ok(r) => {
                        budget -= r.bytes_returned.min(budget);
                        out.bytes_returned += r.bytes_returned;
                        out.truncated |= r.truncated;
                        ManyFile {
                            notice: r.extraction_notice(),
                            path: r.path,
                            content: (!r.binary).then_some(r.content),
                            bytes_returned: r.bytes_returned,
                            total_bytes: r.total_bytes,
                            truncated: r.truncated,
                            next_offset: r.next_offset,
                            encoding: r.encoding,
                            binary: r.binary,
                            error: None,
                        }
                    }
                    Err(e) => error_file(p, &e),
                },
            };
            out.files.push(file);
        }
        // A glob's expansion cut by the deadline leaves the list short: that is a timeout too.
        out.timed_out |= out.truncated && deadline.expired();
        Ok(out)
    }

    /// A glob's files in path order, at most `max`, and whether more matched.
    fn expand(&self, pattern: &str, max: usize) -> Result<(Vec<String>, bool)> {
        let mut paths = Vec::new();
        let mut cursor = None;
        loop {
            let page = self.glob(&GlobArgs {
                pattern: pattern.to_string(),
                cursor: cursor.take(),
                limit: Some(self.policy().limits.max_results as u64),
                ..Default::default()
            })?;
            paths.extend(page.matches.lines().map(str::to_string));
            if paths.len() >= max {
                let more = paths.len() > max || page.truncated;
                paths.truncate(max);
                return Ok((paths, more));
            }
            match page.next_cursor {
                Some(c) if page.truncated && !page.timed_out => cursor = Some(c),
                _ => return Ok((paths, page.timed_out)),
            }
        }
    }
}

fn error_file(path: String, e: &Error) -> ManyFile {
    ManyFile {
        path,
        error: Some(e.to_json()["error"].clone()),
        ..Default::default()
    }
}

/// The row of read_many_files.
pub(crate) struct ReadManyFiles;

impl crate::tools::tool::Tool for ReadManyFiles {
    const NAME: &'static str = "read_many_files";
    const TITLE: &'static str = "Read several files";
    const UNSET: crate::tools::args::Unset = &["max_bytes", "timeout_ms"];
    const READS_CONTENT: bool = true;
    type Args = ReadManyArgs;
    type Output = ReadManyResult;

    fn run(w: &Within<'_>, args: &ReadManyArgs) -> Result<ReadManyResult> {
        w.read_many_files(args)
    }

    fn describe(sb: &crate::engine::Engine) -> String {
        format!(
            "Read several files at once: paths and globs (e.g. 'src/**/*.rs'), results in the order given, globs \
             expanded in path order. All files share one byte budget (max_bytes, at most {}); a file that does not \
             fit is cut (truncated, next_offset for read_file). Binary files are reported, not dumped; one file's \
             error does not fail the call.",
            sb.policy().limits.max_read_bytes
        )
    }
}
