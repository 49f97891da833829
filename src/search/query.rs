//! What a search needs before it walks, shared by grep_search and glob: argument checks, the walk
//! filter, where the walks start, page caps, the cursor, and the result a finished page becomes.

use crate::core::admit::{Admitted, NotAdmitted, RootId};
use crate::core::deadline::Deadline;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::open::{Kind, Opened, Want};
use crate::core::sandbox::Sandbox;
use crate::engine::Within;
use crate::search::contract::{Globs, GrepResult, OutputMode, Stats, MAX_OFFSET};
use crate::search::cursor::Cursor;
use crate::search::page::{Page, Structured};
use crate::search::pager::{Paged, Pos};
use crate::walk::{self, Filter, Walk};
use std::path::PathBuf;
use std::sync::Arc;

/// Where one walk starts.
pub(crate) enum WalkStart {
    Dir {
        root: usize,
        rel: PathBuf,
        /// The directory, admitted by the gate (the walker admits what it finds below).
        fd: Admitted<Opened>,
        levels: Option<Arc<walk::IgnoreLevel>>,
    },
    File {
        root: usize,
        rel: PathBuf,
        /// The file the request named, admitted by the gate (its metadata is read again when it
        /// is searched: `Sandbox::reopened`).
        fd: Admitted<Opened>,
    },
}

impl WalkStart {
    /// The root-relative path the walk starts at.
    pub(crate) fn rel(&self) -> &std::path::Path {
        match self {
            WalkStart::Dir { rel, .. } | WalkStart::File { rel, .. } => rel,
        }
    }
}

/// Globs one call may give in `include` and `exclude` together.
pub(crate) const MAX_GLOBS: usize = 256;

/// Bytes of one glob, and of a call's include/exclude globs together (also under the policy's
/// `max_pattern_len`). Compiling is regex compilation, which no deadline can cut short, at roughly
/// 10-20 ms per KiB of wildcard-heavy globs on a loaded 2-core machine (64 KiB took 0.3-1.2 s): this
/// keeps one compile within a small overshoot of the call's budget.
pub(crate) const MAX_GLOB_BYTES: usize = 8 * 1024;

/// Refuses a glob set over [`MAX_GLOBS`] or over [`MAX_GLOB_BYTES`] (or `max_len`) bytes together,
/// before any of it is compiled: a set compiles to one regex set whose time and memory grow with it
/// (20,000 globs took 1.2-1.8 s and 354 MB before they were refused by the regex size limit), and no
/// deadline can cut a compile short.
pub(crate) fn check_glob_set<'a>(
    globs: impl Iterator<Item = &'a str>,
    max_len: usize,
) -> Result<()> {
    let (mut n, mut bytes) = (0usize, 0usize);
    for g in globs {
        n += 1;
        bytes += g.len();
    }
    if n > MAX_GLOBS {
        return Err(Error::invalid(format!(
            "{n} include/exclude globs, over {MAX_GLOBS}; use fewer, broader globs (e.g. `*.{{rs,toml}}`)"
        )));
    }
    let max = max_len.min(MAX_GLOB_BYTES);
    if bytes > max {
        return Err(Error::invalid(format!(
            "the include/exclude globs are {bytes} bytes together, over the limit of {max}"
        )));
    }
    Ok(())
}

/// Validates include/exclude globs: root-relative only, no `..`, no absolute, drive or UNC forms.
pub(crate) fn check_glob(g: &str, max_len: usize) -> Result<()> {
    let bad = |why: &str| Err(Error::invalid(format!("glob '{g}' {why}")));
    if g.is_empty() || g.len() > max_len.min(MAX_GLOB_BYTES) {
        return bad("is empty or too long");
    }
    if g.contains('\0') {
        return bad("contains a NUL byte");
    }
    if g.starts_with('/') || g.starts_with('\\') || g.starts_with('!') {
        return bad("must be relative to the root (no leading '/', '\\' or '!')");
    }
    let b = g.as_bytes();
    if b.len() >= 2 && b[1] == b':' {
        return bad("looks like a drive path; globs are root-relative");
    }
    if g.split(['/', '\\', '{', '}', ','])
        .any(|c| c == ".." || c == "~")
    {
        return bad("may not contain '..' or '~' components");
    }
    Ok(())
}

impl Within<'_> {
    /// Caps the per-call limit and byte cap by the policy.
    pub(crate) fn page_caps(&self, limit: Option<u64>, max_bytes: Option<u64>) -> (u64, usize) {
        let limits = &self.policy().limits;
        // The policy's caps win; a cap of 0 (or under the 256-byte floor for agents) must not panic.
        let max_results = (limits.max_results as u64).max(1);
        let limit = limit.unwrap_or(10).clamp(1, max_results);
        let cap = (limits.max_bytes as u64).max(1);
        let max_bytes = max_bytes.unwrap_or(cap).clamp(256.min(cap), cap) as usize;
        (limit, max_bytes)
    }

    /// The units a page skips: `offset`, or what a cursor of a timed-out offset page still owes.
    pub(crate) fn skip_of(&self, cursor: Option<&Cursor>, offset: u64) -> Result<u64> {
        match cursor {
            None => Ok(offset),
            Some(c) if c.skip <= MAX_OFFSET => Ok(c.skip),
            Some(_) => Err(Error::invalid(
                "cursor is malformed; pass next_cursor from the previous page unchanged, or use offset",
            )),
        }
    }

    pub(crate) fn decode_cursor(
        &self,
        cursor: Option<&str>,
        offset: Option<u64>,
        query: u64,
    ) -> Result<Option<Cursor>> {
        match cursor {
            Some(_) if offset.is_some() => {
                Err(Error::invalid("give either offset or cursor, not both"))
            }
            Some(c) => Cursor::decode(c, query, self.read_root_count()).map(Some),
            None => Ok(None),
        }
    }

    /// Builds the walk filter from include/exclude globs, types and the hidden/ignore switches.
    pub(crate) fn filter(
        &self,
        include: Option<&Globs>,
        exclude: Option<&Globs>,
        types: Option<&str>,
        hidden: Option<bool>,
        no_ignore: Option<bool>,
    ) -> Result<Filter> {
        let max = self.policy().limits.max_pattern_len;
        let list = |g: Option<&Globs>| g.map(Globs::list).unwrap_or_default();
        let (include, exclude) = (list(include), list(exclude));
        let (hidden, no_ignore) = (
            hidden.unwrap_or(self.policy().hidden),
            no_ignore.unwrap_or(self.policy().no_ignore),
        );
        let key: Arc<str> =
            format!("{hidden} {no_ignore} {types:?} {include:?} {exclude:?}").into();
        check_glob_set(include.iter().chain(&exclude).map(String::as_str), max)?;
        let mut ob = ignore::overrides::OverrideBuilder::new("");
        let mut any = false;
        for (globs, negate) in [(include, false), (exclude, true)] {
            for g in globs {
                check_glob(&g, max)?;
                let line = if negate { format!("!{g}") } else { g.clone() };
                ob.add(&line)
                    .map_err(|e| Error::invalid(format!("glob '{g}': {e}")))?;
                any = true;
            }
        }
        let overrides = if any {
            Some(
                ob.build()
                    .map_err(|e| Error::invalid(format!("globs: {e}")))?,
            )
        } else {
            None
        };
        let types = match types {
            Some(t) => {
                let mut tb = ignore::types::TypesBuilder::new();
                tb.add_defaults();
                for name in t.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    // `all` (rg `-t all`) selects every defined type.
                    if name != "all" && !tb.definitions().iter().any(|d| d.name() == name) {
                        return Err(Error::invalid(format!("unknown file type '{name}'; use ripgrep type names such as rust, c, py, js, md")));
                    }
                    tb.select(name);
                }
                Some(
                    tb.build()
                        .map_err(|e| Error::invalid(format!("type: {e}")))?,
                )
            }
            None => None,
        };
        Ok(Filter {
            hidden,
            no_ignore,
            overrides,
            overrides_keep_ignores: false,
            types,
            ignore: Default::default(),
            max_depth: None,
            explicit: None,
            one_file_system: false,
            key: Some(key),
        })
    }

    /// Where the walks start: each root, or the one file or directory named by `path`.
    pub(crate) fn starts(
        &self,
        path: Option<&str>,
        cursor: Option<&Cursor>,
        filter: &Filter,
    ) -> Result<Vec<WalkStart>> {
        let mut out = Vec::new();
        match path {
            None => {
                for i in 0..self.read_root_count() {
                    if cursor.is_some_and(|c| c.root > i) {
                        continue;
                    }
                    let fd = match self.admit_root(i) {
                        // A root inside a denied part of another root holds nothing to search.
                        Err(NotAdmitted::Refused) => continue,
                        r => r.map_err(|e| e.render(self.root_name(i).unwrap_or_default()))?,
                    };
                    out.push(WalkStart::Dir {
                        root: i,
                        rel: PathBuf::new(),
                        fd,
                        levels: None,
                    });
                }
                if !self.has_read_roots() {
                    return Err(Error::new(
                        ErrorCode::OutOfSandbox,
                        "no roots are configured for this agent",
                    ));
                }
            }
            Some(p) => {
                let loc = self.locate(p, Want::Meta)?;
                if cursor.is_some_and(|c| c.root != loc.root) {
                    return Err(Error::invalid("cursor belongs to a different path"));
                }
                // The object admitted by `locate` is opened again for reading: it must still be the
                // same one (a rename in between must not substitute another).
                let want = match loc.opened.kind() {
                    Kind::Dir => Want::Dir,
                    Kind::File => Want::Read,
                    _ => Want::Meta,
                };
                let reopen = || {
                    self.reopen(&loc, want).map_err(|e| match e {
                        Some(e) => Error::from_os(&e, p),
                        None => Error::new(
                            ErrorCode::IoError,
                            format!("'{p}' changed while it was opened; try again"),
                        ),
                    })
                };
                match loc.opened.kind() {
                    Kind::Dir => {
                        // The walker admits what it finds below the directory.
                        let fd = reopen()?;
                        let levels = walk::ancestor_levels(
                            self,
                            loc.root,
                            &loc.rel,
                            filter.no_ignore,
                            &filter.ignore,
                            &self.denied_fn(RootId::Read(loc.root)),
                        );
                        out.push(WalkStart::Dir {
                            root: loc.root,
                            rel: loc.rel,
                            fd,
                            levels,
                        });
                    }
                    Kind::File => {
                        let fd = reopen()?;
                        out.push(WalkStart::File {
                            root: loc.root,
                            rel: loc.rel,
                            fd,
                        });
                    }
                    _ => {
                        return Err(Error::new(
                            ErrorCode::NotAFile,
                            format!("'{p}' is not a regular file or directory"),
                        ))
                    }
                }
            }
        }
        Ok(out)
    }
}

/// The result of a grep page.
pub(crate) fn finish(page: Page<'_>, first_index: u64, query: u64) -> GrepResult {
    let mode = page.mode;
    let paged = page.pager.finish(first_index, query);
    let complete = !paged.truncated && !paged.timed_out;
    let total = (mode == OutputMode::Count && complete).then_some(page.total);
    grep_result(paged, page.json, mode, total, page.stats)
}

/// A page as a [`GrepResult`]: its text, or in JSON mode (`json`) the structured form the output
/// mode gives.
pub(crate) fn grep_result(
    paged: Paged,
    json: Option<Structured>,
    mode: OutputMode,
    total: Option<u64>,
    stats: Stats,
) -> GrepResult {
    let (matches, hits, counts, files) = match json {
        None => (paged.text, None, None, None),
        Some(j) => match mode {
            OutputMode::Content => (String::new(), Some(j.hits), None, None),
            OutputMode::Count => (String::new(), None, Some(j.counts), None),
            _ => (String::new(), None, None, Some(j.files)),
        },
    };
    GrepResult {
        total,
        matches,
        hits,
        counts,
        files,
        match_lines: paged.units,
        next_offset: paged.next_offset,
        next_cursor: paged.next_cursor,
        truncated: paged.truncated,
        timed_out: paged.timed_out,
        stats,
    }
}

/// Where a call starts: the cursor of a page cut by the deadline before any file was taken (by time
/// spent compiling, or in the first file) resumes here.
pub(crate) fn start_pos(cursor: Option<&Cursor>, starts: &[WalkStart]) -> Option<Pos> {
    match (cursor, starts.first()) {
        (Some(c), _) => Some(Pos {
            root: c.root,
            rel: c.path.clone(),
            line: c.line,
        }),
        (None, Some(WalkStart::Dir { root, .. } | WalkStart::File { root, .. })) => Some(Pos {
            root: *root,
            // Sorts before every real name, and names no file.
            rel: PathBuf::from("\u{1}"),
            line: 0,
        }),
        (None, None) => None,
    }
}

/// The walker of one start directory in read root `root` of `sandbox`: this call's filter and
/// deadline, and resuming after the cursor's path when the cursor is in this root. It takes the
/// core sandbox, not the call's [`Within`]: a search's workers hold the core alone.
pub(crate) fn walker<'a>(
    sandbox: &'a Sandbox,
    root: usize,
    filter: &'a Filter,
    deadline: &'a Deadline,
    cursor: Option<&'a Cursor>,
) -> Walk<'a> {
    Walk {
        sandbox,
        root: RootId::Read(root),
        filter,
        deadline: Some(deadline),
        resume_after: cursor.filter(|c| c.root == root).map(|c| c.path.as_path()),
        hook: None,
    }
}

#[cfg(test)]
mod tests {
    use crate::core::admit::{NotAdmitted, RootId};
    use crate::core::error::ErrorCode;
    use crate::core::open::Want;
    use crate::core::policy::PolicyBuilder;
    use std::path::Path;

    /// An open that fails under search keeps the call and the name it was given (relative to the
    /// root, never the host path) until search renders it, and the rendering names only what the
    /// agent gave.
    #[test]
    fn a_failed_open_keeps_its_call_and_name_and_renders_without_a_host_path() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("sub")).unwrap();
        std::fs::write(tmp.path().join("file.txt"), "x").unwrap();
        let sb = PolicyBuilder::default()
            .root(tmp.path())
            .build_core()
            .unwrap();
        let host = sb.root_canonical(0).unwrap().to_str().unwrap().to_string();
        let open = |rel: &str| {
            let rel = Path::new(rel);
            sb.open_in_root(RootId::Read(0), rel, Want::Read)
                .err()
                .unwrap()
        };
        for (rel, code, message) in [
            (
                "sub/missing.txt",
                ErrorCode::NotFound,
                "'sub/missing.txt' does not exist in any root",
            ),
            (
                "file.txt/x",
                ErrorCode::NotAFile,
                "'file.txt/x' uses a file as if it were a directory",
            ),
        ] {
            let e = open(rel);
            assert!(matches!(e, NotAdmitted::Io(_)), "{rel}: {e:?}");
            let sys = e.sys().unwrap();
            assert!(["openat2", "open", "openat"].contains(&sys.op()), "{sys}");
            assert_eq!(sys.args(), [Path::new(rel)], "{sys}");
            assert!(!sys.to_string().contains(&host), "{sys}");
            let shown = e.render(rel);
            assert_eq!((shown.code, shown.message.as_str()), (code, message));
            assert!(!e.is_transient());
        }
    }
}
