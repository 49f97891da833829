//! directory_tree: a bounded recursive listing as nested JSON, breadth first, on the walker's rules.
//!
//! Breadth first so that a cap on entries keeps the overview (every top-level entry before any
//! deep one), each directory's entries sorted by name bytes, so the same tree gives the same answer.
//! Directories are read through handles, symlinks are reported and never followed, and the gate,
//! the ignore files and the hidden rule decide what appears, exactly as for grep and glob.

use crate::core::admit::{Admitted, RootId};
use crate::core::audit::Fields;
use crate::core::deadline::Deadline;
use crate::core::dirs::{self, FileType};
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::names;
use crate::core::open::{Kind, Opened, Want};
use crate::core::sandbox::Located;
use crate::engine::Within;
use crate::search::contract::Globs;
use crate::walk::{self, DirFd, Filter, IgnoreLevel, Visibility};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Arguments of `directory_tree`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct TreeArgs {
    /// A directory under a root (default: the first root, or `NAME:` for another).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Levels below `path` to descend (default 3, at most 16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 16))]
    pub max_depth: Option<u64>,
    /// Entries to list in all (default and cap: the policy's `max_list_entries`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_entries: Option<u64>,
    /// Leave out entries matching these globs (root-relative, ripgrep `-g` syntax, e.g. `target`,
    /// `*.lock`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude: Option<Globs>,
    /// Include hidden (dot) entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
    /// Include entries that `.gitignore`/`.ignore`/`.rgignore` hide.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_ignore: Option<bool>,
    /// Time budget in milliseconds (capped by the policy's timeout); a call cut by it says
    /// `timed_out` and returns what it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
}

/// One node of the tree.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct TreeNode {
    /// The entry's name (escaped like every displayed name).
    pub name: String,
    /// `file`, `dir`, `symlink` or `other`.
    pub kind: Kind,
    /// Size in bytes (files and symlinks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// A directory's listed entries (absent past `max_depth` or the entry cap); each is a node of
    /// this same shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<serde_json::Map<String, serde_json::Value>>>")]
    pub children: Option<Vec<TreeNode>>,
    /// A directory whose entries were not listed: `"max_depth"`, `"max_entries"`, `"timeout"` or
    /// `"unreadable"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_listed: Option<String>,
}

/// The result of `directory_tree`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[non_exhaustive]
pub struct TreeResult {
    /// The displayed path of the tree's top.
    pub path: String,
    /// The tree's top directory and what was listed below it.
    pub tree: TreeNode,
    /// Entries listed.
    pub entries: u64,
    /// Something was left out for `max_entries` or the time budget (see `not_listed`).
    pub truncated: bool,
    /// The time budget ran out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
    /// What was left out, by reason.
    pub omitted: TreeOmitted,
}

/// Counts of what directory_tree left out.
#[derive(
    Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema,
)]
pub struct TreeOmitted {
    /// Hidden (dot) entries.
    pub hidden: u64,
    /// Entries an ignore file hides.
    pub ignored: u64,
    /// Entries an `exclude` glob matched.
    pub excluded: u64,
    /// Entries past `max_entries` in directories that were read.
    pub over_limit: u64,
    /// Directories not read because of `max_depth`.
    pub depth_limited: u64,
}

/// A directory waiting to be read: its node's index path in the tree, path and ignore rules. The
/// handle is opened when its turn comes (from the root, refusing every symlink), so the queue holds no
/// descriptors however wide the tree is.
struct Pending {
    node: Vec<usize>,
    /// The directory when it was opened already (the start), admitted.
    fd: Option<Admitted<Opened>>,
    rel: PathBuf,
    depth: u64,
    ign: Option<Arc<IgnoreLevel>>,
}

impl Within<'_> {
    /// A bounded recursive listing of one directory; see [`TreeArgs`].
    pub fn directory_tree(&self, args: &TreeArgs) -> Result<TreeResult> {
        self.audited(
            "directory_tree",
            args.path.as_deref(),
            || self.tree_inner(args).map(|(r, p)| (r, Some(p))),
            |r| Fields::ok(0, r.entries, r.truncated),
        )
    }

    fn tree_inner(&self, args: &TreeArgs) -> Result<(TreeResult, String)> {
        let (call, loc) = self.tree_call(args)?;
        let denied = self.denied_fn(call.id);
        let parent_levels = if call.filter.no_ignore {
            None
        } else {
            let ignore = &call.filter.ignore;
            walk::ancestor_levels(self, loc.root, &loc.rel, false, ignore, &denied)
        };
        let shown = self.display(loc.root, &loc.rel);
        let mut out = TreeResult {
            path: shown.clone(),
            tree: TreeNode {
                name: shown,
                kind: Kind::Dir,
                ..Default::default()
            },
            ..Default::default()
        };
        let mut queue = VecDeque::from([Pending {
            node: Vec::new(),
            fd: Some(loc.opened),
            rel: loc.rel.clone(),
            depth: 0,
            ign: parent_levels,
        }]);
        while let Some(p) = queue.pop_front() {
            self.tree_level(&call, p, &mut out, &mut queue);
        }
        Ok((out, self.audit_path(loc.root, &loc.rel)))
    }

    /// The call's bounds and filter from its arguments, and the directory it starts at.
    fn tree_call(&self, args: &TreeArgs) -> Result<(TreeCall, Located)> {
        let deadline = self.deadline(args.timeout_ms);
        let cap = self.policy().limits.max_list_entries.max(1) as u64;
        let max_entries = args.max_entries.unwrap_or(cap).clamp(1, cap);
        let max_depth = args.max_depth.unwrap_or(3).clamp(1, 16);
        let filter = self.filter(
            None,
            args.exclude.as_ref(),
            None,
            args.hidden,
            args.no_ignore,
        )?;
        let raw = args.path.as_deref().unwrap_or(".");
        let loc = self.locate(raw, Want::Dir)?;
        if loc.opened.kind() != Kind::Dir {
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!("'{raw}' is not a directory"),
            ));
        }
        let call = TreeCall {
            deadline,
            max_entries,
            max_depth,
            filter,
            id: RootId::Read(loc.root),
        };
        Ok((call, loc))
    }

    /// Lists the directory `p` into its node, queueing its subdirectories; a directory the budget
    /// or the entry cap leaves unread is marked with why.
    fn tree_level(
        &self,
        call: &TreeCall,
        mut p: Pending,
        out: &mut TreeResult,
        queue: &mut VecDeque<Pending>,
    ) {
        let node = node_at(&mut out.tree, &p.node);
        if call.deadline.expired() {
            node.not_listed = Some("timeout".into());
            out.timed_out = true;
            out.truncated = true;
            return;
        }
        if out.entries >= call.max_entries {
            node.not_listed = Some("max_entries".into());
            out.truncated = true;
            return;
        }
        let fd = match p.fd.take() {
            Some(fd) => Some(fd),
            None => self.open_in_root(call.id, &p.rel, Want::Dir).ok(),
        };
        let Some((dir, entries)) = fd.and_then(walk::read_entries_owned) else {
            node.not_listed = Some("unreadable".into());
            return;
        };
        let level = Level {
            ign: self.tree_ignore(call, &dir, &p, &entries),
            dir,
            pending: p,
        };
        let mut children = Vec::new();
        for (name, ft) in entries {
            if call.deadline.expired() {
                out.timed_out = true;
                out.truncated = true;
                break;
            }
            let Some((child, sub)) = self.tree_entry(call, &level, name, ft, out) else {
                continue;
            };
            if let Some(mut sub) = sub {
                sub.node = level.pending.node.clone();
                sub.node.push(children.len());
                queue.push_back(sub);
            }
            children.push(child);
        }
        node_at(&mut out.tree, &level.pending.node).children = Some(children);
    }

    /// The ignore rules in force in a directory being listed (none with `no_ignore`).
    fn tree_ignore(
        &self,
        call: &TreeCall,
        dir: &DirFd,
        p: &Pending,
        entries: &[(OsString, FileType)],
    ) -> Option<Arc<IgnoreLevel>> {
        if call.filter.no_ignore {
            return None;
        }
        let has_git = entries.iter().any(|(n, _)| n == ".git");
        Some(IgnoreLevel::load(
            dir,
            &p.rel,
            has_git,
            p.ign.clone(),
            Some(entries),
            &call.filter.ignore,
            &self.denied_fn(call.id),
        ))
    }

    /// One entry of a directory being listed: its node, and the directory to read for it when it
    /// is one within `max_depth` (its node path is the caller's to set); `None` when it is denied,
    /// left out (and counted) or refused.
    fn tree_entry(
        &self,
        call: &TreeCall,
        level: &Level,
        name: OsString,
        ft: FileType,
        out: &mut TreeResult,
    ) -> Option<(TreeNode, Option<Pending>)> {
        let (dir, p) = (&level.dir, &level.pending);
        let ft = if ft == FileType::Unknown {
            walk::stat_type(dir, &name)
        } else {
            ft
        };
        let kind = Kind::from_file_type(ft);
        let rel = p.rel.join(&name);
        let is_dir = kind == Kind::Dir;
        let named = self.admit_listed(call.id, &rel, kind).ok()?;
        match walk::visibility(&call.filter, level.ign.as_deref(), &rel, &name, is_dir) {
            Visibility::Shown => {}
            Visibility::Hidden => {
                out.omitted.hidden += 1;
                return None;
            }
            Visibility::Ignored => {
                out.omitted.ignored += 1;
                return None;
            }
            Visibility::Filtered => {
                out.omitted.excluded += 1;
                return None;
            }
        }
        if out.entries >= call.max_entries {
            out.omitted.over_limit += 1;
            out.truncated = true;
            return None;
        }
        // After the filters and the entry limit, which count what they leave out: a refused
        // hard link is not counted.
        let listed = named.admit(dir, &name).ok()?;
        // The stat the hard-link policy made, if it made one, gives the size.
        let st = listed
            .stat
            .or_else(|| dirs::stat_entry(dir, name.as_os_str()).ok());
        out.entries += 1;
        let mut child = TreeNode {
            name: names::escape_path(Path::new(&name)),
            kind,
            size: (!is_dir).then(|| st.map_or(0, |st| st.st_size.max(0) as u64)),
            ..Default::default()
        };
        let mut sub = None;
        if is_dir {
            if p.depth + 1 >= call.max_depth {
                child.not_listed = Some("max_depth".into());
                out.omitted.depth_limited += 1;
            } else {
                sub = Some(Pending {
                    node: Vec::new(),
                    fd: None,
                    rel,
                    depth: p.depth + 1,
                    ign: level.ign.clone(),
                });
            }
        }
        Some((child, sub))
    }
}

/// What one directory_tree call lists with: its bounds, its filter and the root it is in.
struct TreeCall {
    deadline: Deadline,
    max_entries: u64,
    max_depth: u64,
    filter: Filter,
    id: RootId,
}

/// A directory being listed: what was queued for it, its handle and its ignore rules.
struct Level {
    pending: Pending,
    dir: DirFd,
    ign: Option<Arc<IgnoreLevel>>,
}

/// The node at an index path (each index into the parent's children).
fn node_at<'a>(mut node: &'a mut TreeNode, path: &[usize]) -> &'a mut TreeNode {
    for &i in path {
        node = &mut node.children.as_mut().expect("listed before its children")[i];
    }
    node
}

/// The row of directory_tree.
pub(crate) struct DirectoryTree;

impl crate::tools::tool::Tool for DirectoryTree {
    const NAME: &'static str = "directory_tree";
    const TITLE: &'static str = "Directory tree";
    const UNSET: crate::tools::args::Unset =
        &["path", "max_depth", "max_entries", "exclude", "timeout_ms"];
    type Args = TreeArgs;
    type Output = TreeResult;

    fn run(w: &Within<'_>, args: &TreeArgs) -> Result<TreeResult> {
        w.directory_tree(args)
    }

    fn describe(sb: &crate::engine::Engine) -> String {
        format!(
            "A recursive listing of a directory as nested JSON (name, kind, size, children), breadth first and sorted \
             by name, down to max_depth (default 3) and at most max_entries entries (at most {}); what is left out is \
             counted. Ignore files and hidden names apply as in grep.",
            sb.policy().limits.max_list_entries
        )
    }
}
