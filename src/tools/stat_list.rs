//! stat and list_dir, on the same open path.

use crate::core::admit::RootId;
use crate::core::audit::Fields;
use crate::core::deadline::Deadline;
use crate::core::dirs::{self, FileType};
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::names;
use crate::core::open::{Kind, Want};
use crate::core::sandbox::Located;
use crate::engine::Within;
use crate::walk::{self, Filter, IgnoreLevel, Visibility};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::path::Path;

/// Arguments of `stat`.
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("a.txt"), "hi").unwrap();
/// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
/// let mut args = rootbound::StatArgs::default();
/// args.path = "a.txt".into();
/// let st = sb.stat(&args).unwrap();
/// assert_eq!((st.kind, st.size), (rootbound::Kind::File, 2));
/// ```
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct StatArgs {
    /// A path under a root.
    pub path: String,
}

/// The result of `stat`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct StatResult {
    /// The canonical path.
    pub path: String,
    /// `file`, `dir` or `other` (FIFO, socket, device).
    pub kind: Kind,
    /// Size in bytes.
    pub size: u64,
    /// Modification time, RFC 3339 (UTC).
    pub mtime: String,
    /// Modification time, seconds since the Unix epoch.
    pub mtime_unix: i64,
    /// Number of lines, for text files up to 1 MiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<u64>,
}

/// Arguments of `list_dir`.
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("a.txt"), "").unwrap();
/// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
/// let mut args = rootbound::ListArgs::default();
/// args.path = Some(".".into());
/// assert_eq!(sb.list_dir(&args).unwrap().entries[0].name, "a.txt");
/// ```
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ListArgs {
    /// A directory under a root; omit to list the roots themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Include hidden (dot) entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
    /// Include entries that `.gitignore`/`.ignore`/`.rgignore` hide.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_ignore: Option<bool>,
    /// Skip this many entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// Entries per page (default and cap: the policy's `max_list_entries`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// Time budget in milliseconds (capped by the policy's timeout); a call cut by it says
    /// `timed_out` and returns what it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// Leave every entry's size 0: a size costs one `fstatat` per entry, which a dialect that
    /// shows none (mcp-filesystem's list_directory) need not pay. Not an argument agents send.
    #[serde(skip)]
    #[schemars(skip)]
    pub(crate) no_sizes: bool,
}

/// One directory entry.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct Entry {
    /// The entry's name.
    pub name: String,
    /// `file`, `dir`, `symlink` (reported, not followed) or `other`.
    pub kind: Kind,
    /// Size in bytes (of the link itself for symlinks).
    pub size: u64,
}

/// The result of `list_dir`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct ListResult {
    /// The canonical path of the directory.
    pub path: String,
    /// Entries sorted by name.
    pub entries: Vec<Entry>,
    /// Offset of the first entry.
    pub offset: u64,
    /// Offset of the next page.
    pub next_offset: u64,
    /// Entries listed in all (after filtering).
    pub total: u64,
    /// More entries remain.
    pub truncated: bool,
    /// Entries left out: hidden (dot) entries.
    pub hidden: u64,
    /// Entries left out by ignore files.
    pub ignored: u64,
    /// The time budget ran out while filtering; `total` counts only the entries looked at, and the
    /// call can be repeated (with a narrower path or the same offset) to see the rest.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
}

impl Within<'_> {
    /// Metadata of one path (symlinks inside the root are followed).
    pub fn stat(&self, args: &StatArgs) -> Result<StatResult> {
        self.audited(
            "stat",
            Some(&args.path),
            || self.stat_inner(args),
            |_| Fields::ok(0, 0, false),
        )
    }

    fn stat_inner(&self, args: &StatArgs) -> Result<(StatResult, Option<String>)> {
        self.stat_with(args, |_| ()).map(|((r, ()), p)| (r, p))
    }

    /// [`Within::stat`] with what `more` reads of the same admitted object (a dialect's extra
    /// metadata: times, mode), audited as stat.
    pub(crate) fn stat_more<T>(
        &self,
        args: &StatArgs,
        more: impl FnOnce(&crate::core::admit::Admitted<crate::core::open::Opened>) -> T,
    ) -> Result<(StatResult, T)> {
        self.audited(
            "stat",
            Some(&args.path),
            || self.stat_with(args, more),
            |_| Fields::ok(0, 0, false),
        )
    }

    fn stat_with<T>(
        &self,
        args: &StatArgs,
        more: impl FnOnce(&crate::core::admit::Admitted<crate::core::open::Opened>) -> T,
    ) -> Result<((StatResult, T), Option<String>)> {
        self.locate(&args.path, Want::Meta).and_then(|loc| {
            let st = &loc.opened.stat;
            let kind = loc.opened.kind();
            let mut lines = None;
            if kind == Kind::File && st.st_size <= 1024 * 1024 {
                // Counted on a second open that must find the object admitted above.
                if let Ok(f) = self.reopen(&loc, Want::Read) {
                    let bytes = crate::core::io::pread_exact(&f, 0, st.st_size as usize)?;
                    if memchr::memchr(0, &bytes).is_none() {
                        let n = memchr::memchr_iter(b'\n', &bytes).count() as u64;
                        lines = Some(n + u64::from(!bytes.is_empty() && !bytes.ends_with(b"\n")));
                    }
                }
            }
            let r = StatResult {
                path: self.display(loc.root, &loc.rel),
                kind,
                size: st.st_size.max(0) as u64,
                mtime: rfc3339(st.st_mtime),
                mtime_unix: st.st_mtime,
                lines,
            };
            Ok((
                (r, more(&loc.opened)),
                Some(self.audit_path(loc.root, &loc.rel)),
            ))
        })
    }

    /// Lists one directory level, sorted by name; symlinks are reported, not followed; denied entries
    /// never appear; hidden and ignored entries are left out unless asked for (and counted).
    pub fn list_dir(&self, args: &ListArgs) -> Result<ListResult> {
        self.audited(
            "list_dir",
            Some(args.path.as_deref().unwrap_or("")),
            || self.list_inner(args).map(|(l, p)| (l, Some(p))),
            |l| Fields::ok(0, l.entries.len() as u64, l.truncated),
        )
    }

    fn list_inner(&self, args: &ListArgs) -> Result<(ListResult, String)> {
        let cap = self.policy().limits.max_list_entries.max(1) as u64;
        let limit = args.limit.unwrap_or(cap).clamp(1, cap);
        let offset = args.offset.unwrap_or(0);
        let Some(raw) = args.path.as_deref() else {
            return self.list_without_path(args, offset, limit);
        };
        let deadline = std::sync::Arc::new(self.deadline(args.timeout_ms));
        let loc = self.locate(raw, Want::Dir)?;
        if loc.opened.kind() != Kind::Dir {
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!("'{raw}' is not a directory"),
            ));
        }
        let filter = Filter {
            hidden: args.hidden.unwrap_or(self.policy().hidden),
            no_ignore: args.no_ignore.unwrap_or(self.policy().no_ignore),
            ..Filter::default()
        };
        let names = walk::read_entries(&loc.opened).ok_or_else(|| {
            Error::new(
                ErrorCode::PermissionDenied,
                format!("'{raw}' cannot be listed"),
            )
        })?;
        let levels = self.list_ignore(&loc, &filter, &names, &deadline);
        let shown = self.list_shown(&loc, &filter, levels.as_deref(), names, &deadline);
        let mut l = page(
            self.display(loc.root, &loc.rel),
            shown.entries.len() as u64,
            offset,
            limit,
        );
        l.entries = shown.entries[l.offset as usize..l.next_offset as usize]
            .iter()
            .map(|(name, kind)| Entry {
                name: names::escape_path(Path::new(name)),
                kind: *kind,
                size: if args.no_sizes {
                    0
                } else {
                    dirs::stat_entry(&loc.opened, name.as_os_str())
                        .map_or(0, |st| st.st_size.max(0) as u64)
                },
            })
            .collect();
        (l.hidden, l.ignored) = (shown.hidden, shown.ignored);
        if shown.timed_out {
            l.truncated = true;
            l.timed_out = true;
        }
        Ok((l, self.audit_path(loc.root, &loc.rel)))
    }

    /// list_dir without a path: the one root's entries, or with several roots, the roots.
    fn list_without_path(
        &self,
        args: &ListArgs,
        offset: u64,
        limit: u64,
    ) -> Result<(ListResult, String)> {
        if self.read_root_count() == 1 {
            return self.list_inner(&ListArgs {
                path: Some(".".into()),
                ..args.clone()
            });
        }
        let names: Vec<(String, Kind)> = self
            .admitted_roots()
            .map(|i| (self.display(i, Path::new("")), Kind::Dir))
            .collect();
        let mut l = page(String::new(), names.len() as u64, offset, limit);
        l.entries = names[l.offset as usize..l.next_offset as usize]
            .iter()
            .map(|(name, kind)| Entry {
                name: name.clone(),
                kind: *kind,
                size: 0,
            })
            .collect();
        Ok((l, String::new()))
    }

    /// The ignore rules in force in the listed directory (none with `no_ignore`), compiled within
    /// the call's deadline.
    fn list_ignore(
        &self,
        loc: &Located,
        filter: &Filter,
        names: &[(OsString, FileType)],
        deadline: &std::sync::Arc<Deadline>,
    ) -> Option<std::sync::Arc<IgnoreLevel>> {
        if filter.no_ignore {
            return None;
        }
        let has_git = names.iter().any(|(n, _)| n == ".git");
        // Ignore files compile within the call's deadline (and are cached across calls).
        let budget = walk::IgnoreBudget {
            deadline: Some(deadline.clone()),
            kinds: walk::IgnoreKinds {
                extra: self.rule_file(),
                ..Default::default()
            },
            ..Default::default()
        };
        let denied = self.denied_fn(RootId::Read(loc.root));
        let parent = walk::ancestor_levels(self, loc.root, &loc.rel, false, &budget, &denied);
        Some(IgnoreLevel::load(
            &loc.opened,
            &loc.rel,
            has_git,
            parent,
            Some(names),
            &budget,
            &denied,
        ))
    }

    /// The entries the filters and the gate let through, in order, with the counts of what the
    /// filters left out; the deadline cuts it short.
    fn list_shown(
        &self,
        loc: &Located,
        filter: &Filter,
        levels: Option<&IgnoreLevel>,
        names: Vec<(OsString, FileType)>,
        deadline: &Deadline,
    ) -> Shown {
        let mut out = Shown::default();
        for (name, ft) in names {
            // The deadline is checked per entry: the filter reads ignore rules, not metadata, so a
            // huge directory costs its names, and only the page's entries are stat'ed below.
            if deadline.expired() {
                out.timed_out = true;
                break;
            }
            let ft = if ft == FileType::Unknown {
                walk::stat_type(&loc.opened, &name)
            } else {
                ft
            };
            let kind = Kind::from_file_type(ft);
            let rel = loc.rel.join(&name);
            let is_dir = kind == Kind::Dir;
            let Ok(named) = self.admit_listed(RootId::Read(loc.root), &rel, kind) else {
                continue;
            };
            match walk::visibility(filter, levels, &rel, &name, is_dir) {
                Visibility::Shown | Visibility::Filtered => {}
                Visibility::Hidden => {
                    out.hidden += 1;
                    continue;
                }
                Visibility::Ignored => {
                    out.ignored += 1;
                    continue;
                }
            }
            // After the filters, which count what they hide: a refused hard link is not counted.
            if named.admit(&loc.opened, &name).is_err() {
                continue;
            }
            out.entries.push((name, kind));
        }
        out
    }
}

/// What list_dir shows of a directory before paging, and what it left out.
#[derive(Default)]
struct Shown {
    entries: Vec<(OsString, Kind)>,
    hidden: u64,
    ignored: u64,
    timed_out: bool,
}

/// The page `offset..offset+limit` of `total` entries (entries are filled in by the caller).
fn page(path: String, total: u64, offset: u64, limit: u64) -> ListResult {
    let start = offset.min(total);
    let end = start.saturating_add(limit).min(total);
    ListResult {
        path,
        entries: Vec::new(),
        offset: start,
        next_offset: end,
        total,
        truncated: end < total,
        ..Default::default()
    }
}

/// Arguments of `list_roots`: none needed.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct RootsArgs {
    /// Only the root this path resolves in, as every tool resolves paths (an error outside the
    /// roots); omit it for every root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

/// One root of `list_roots`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct RootEntry {
    /// The root's name (`NAME:path` addresses it when there are several).
    pub name: String,
    /// The root as a displayed path, accepted back by every tool.
    pub path: String,
    /// Whether write tools may change files here (only the write root).
    pub writable: bool,
    /// Whether read tools see it (the write root is not readable unless it is inside a read root).
    pub readable: bool,
    /// The n-gram index's state for this root, when the sandbox has an index
    /// ([`Sandbox::with_index`](crate::Sandbox::with_index), `rootbound mcp --index`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<crate::index::IndexStatus>,
}

/// The result of `list_roots`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct RootsResult {
    /// The read roots in the order relative paths are tried, then the write root.
    pub roots: Vec<RootEntry>,
}

impl Within<'_> {
    /// The roots this sandbox serves, as displayed paths: the read roots in order, then the write root.
    ///
    /// The optional `path` exists so that the input schema declares a property: a strict-mode
    /// converter (openai-agents) takes an object schema without any as open and leaves the tool
    /// non-strict, and the one other way to close it, `additionalProperties: false`, is what
    /// google-genai's MCP converter cannot read.
    pub fn list_roots(&self, args: &RootsArgs) -> Result<RootsResult> {
        self.audited(
            "list_roots",
            args.path.as_deref(),
            || {
                let only = match &args.path {
                    Some(p) => Some(self.locate(p, Want::Meta)?.root),
                    None => None,
                };
                let status = self
                    .index()
                    .map_or_else(Vec::new, |i| i.status(self.sandbox()));
                let mut roots: Vec<RootEntry> = self
                    .admitted_roots()
                    .filter(|&i| only.is_none_or(|j| j == i))
                    .map(|i| RootEntry {
                        name: self.root_name(i).unwrap_or_default().to_string(),
                        path: self.display(i, Path::new("")),
                        writable: false,
                        readable: true,
                        index: status
                            .iter()
                            .find(|s| Some(s.root.as_str()) == self.root_name(i))
                            .cloned(),
                    })
                    .collect();
                let write = self.write_root_name().zip(self.write_root_path());
                if let (Some((name, path)), None) = (write, only) {
                    roots.push(RootEntry {
                        name: name.to_string(),
                        path: names::escape_path(path),
                        writable: true,
                        readable: self.write_root_readable(),
                        index: None,
                    });
                }
                Ok((RootsResult { roots }, None))
            },
            |r| Fields::ok(0, r.roots.len() as u64, false),
        )
    }
}

/// Seconds since the epoch as RFC 3339 UTC (civil-from-days, no time-zone database needed).
pub(crate) fn rfc3339(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The row of list_dir.
pub(crate) struct ListDir;

impl crate::tools::tool::Tool for ListDir {
    const NAME: &'static str = "list_dir";
    const TITLE: &'static str = "List directory";
    const UNSET: crate::tools::args::Unset = &["path", "offset", "limit", "timeout_ms"];
    const ONE_OBJECT: bool = true;
    type Args = ListArgs;
    type Output = ListResult;

    fn run(w: &Within<'_>, args: &ListArgs) -> Result<ListResult> {
        w.list_dir(args)
    }

    fn describe(_sb: &crate::engine::Engine) -> String {
        "List one directory level, sorted by name, with kind (file, dir, symlink, other) and size. Omit path to \
         list the roots. Hidden and ignored entries are left out (and counted) unless hidden/no_ignore."
            .into()
    }

    fn render(out: &ListResult) -> String {
        list_text(out)
    }
}

/// The row of stat.
pub(crate) struct Stat;

impl crate::tools::tool::Tool for Stat {
    const NAME: &'static str = "stat";
    const TITLE: &'static str = "File information";
    const ONE_OBJECT: bool = true;
    type Args = StatArgs;
    type Output = StatResult;

    fn run(w: &Within<'_>, args: &StatArgs) -> Result<StatResult> {
        w.stat(args)
    }

    fn describe(_sb: &crate::engine::Engine) -> String {
        "Kind, size, modification time and (for small text files) line count of one path.".into()
    }

    fn render(out: &StatResult) -> String {
        stat_text(out)
    }
}

/// The row of list_roots.
pub(crate) struct ListRoots;

impl crate::tools::tool::Tool for ListRoots {
    const NAME: &'static str = "list_roots";
    const TITLE: &'static str = "List allowed roots";
    const UNSET: crate::tools::args::Unset = &["path"];
    const ONE_OBJECT: bool = true;
    type Args = RootsArgs;
    type Output = RootsResult;

    fn run(w: &Within<'_>, args: &RootsArgs) -> Result<RootsResult> {
        w.list_roots(args)
    }

    fn describe(_sb: &crate::engine::Engine) -> String {
        "The directories this agent may read (and the one it may write), with their names.".into()
    }
}

/// A directory page: `name/` for directories, `name<TAB>N bytes` for files, and a footer.
pub fn list_text(r: &ListResult) -> String {
    let mut out = format!("{}:\n", r.path);
    for e in &r.entries {
        match e.kind.as_str() {
            "dir" => out.push_str(&format!("{}/\n", e.name)),
            "file" => out.push_str(&format!("{}\t{} bytes\n", e.name, e.size)),
            other => out.push_str(&format!("{}\t({other})\n", e.name)),
        }
    }
    let mut footer = vec![format!("{} of {} entries", r.entries.len(), r.total)];
    if r.truncated {
        footer.push(format!(
            "truncated: call again with offset={}",
            r.next_offset
        ));
    }
    for (k, c) in [("hidden", r.hidden), ("ignored", r.ignored)] {
        if c > 0 {
            footer.push(format!("{c} {k} entries left out"));
        }
    }
    out.push_str(&format!("[{}]", footer.join("; ")));
    out
}

/// `key: value` lines.
pub fn stat_text(r: &StatResult) -> String {
    let mut out = format!(
        "path: {}\nkind: {}\nsize: {}\nmtime: {}\n",
        r.path, r.kind, r.size, r.mtime
    );
    if let Some(l) = r.lines {
        out.push_str(&format!("lines: {l}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn rfc3339_dates() {
        assert_eq!(super::rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::rfc3339(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(super::rfc3339(951_782_400), "2000-02-29T00:00:00Z");
    }
}
