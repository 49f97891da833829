//! Deny rules: gitignore-syntax globs matched against the resolved, root-relative path of what was opened.

use crate::core::error::{Error, ErrorCode, Result};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use std::path::Path;

/// A compiled set of deny rules.
///
/// ```
/// let rules = rootbound::DenyRules::new(&[".env".into(), ".git/".into()]).unwrap();
/// assert!(rules.is_denied("sub/.env".as_ref(), false));
/// assert!(rules.is_denied(".git/config".as_ref(), false));
/// assert!(!rules.is_denied("src/main.rs".as_ref(), false));
/// // A directory-only rule denies the name in every kind: a planted `.git` file too.
/// assert!(rules.is_denied("sub/.git".as_ref(), false));
/// ```
#[derive(Debug, Clone)]
pub struct DenyRules {
    matcher: Gitignore,
    /// Some rule names directories only (`.git/`): a name is then checked as a directory too.
    dir_only: bool,
    /// Some rule matches a path, not only a name (`/x`, `a/b`, `sub/*.sh`): moving a directory can
    /// then change whether what it holds is denied.
    path_rules: bool,
    /// The rules as given (what a saved index is bound to: `Gate::rules_key`).
    globs: Vec<String>,
}

impl DenyRules {
    /// Compiles rules; a bad glob is an error naming it.
    pub fn new(globs: &[String]) -> Result<Self> {
        let mut b = GitignoreBuilder::new("");
        // On case-insensitive filesystems `.ENV` opens `.env`, so the rule must match it too.
        b.case_insensitive(cfg!(any(target_os = "macos", windows)))
            .map_err(|e| Error::invalid(format!("deny rules: {e}")))?;
        for g in globs {
            b.add_line(None, g).map_err(|e| {
                Error::new(ErrorCode::InvalidArgument, format!("deny rule '{g}': {e}"))
            })?;
        }
        let matcher = b
            .build()
            .map_err(|e| Error::invalid(format!("deny rules: {e}")))?;
        let dir_only = globs.iter().any(|g| g.trim_end().ends_with('/'));
        let path_rules = globs.iter().any(|g| {
            let g = g.trim();
            let g = g.strip_prefix('!').unwrap_or(g);
            g.trim_end_matches('/').contains('/')
        });
        Ok(DenyRules {
            matcher,
            dir_only,
            path_rules,
            globs: globs.to_vec(),
        })
    }

    /// Whether `rel` (root-relative, resolved) or any of its parent directories is denied.
    ///
    /// A rule denies a *name*, whatever kind of object stands there: a directory-only rule such as
    /// `.git/` also denies a file, symlink or FIFO called `.git`. Otherwise a planted `.git` file
    /// (`gitdir: ../evil`) would escape the rule meant to protect repositories, and the answer for a
    /// denied directory (DENIED) would differ from that for an absent name, telling which exists.
    /// `is_dir` is taken for callers that know the kind; it does not narrow the rules.
    pub fn is_denied(&self, rel: &Path, is_dir: bool) -> bool {
        if self.matcher.is_empty() || rel.as_os_str().is_empty() {
            return false;
        }
        let m = |as_dir| {
            self.matcher
                .matched_path_or_any_parents(rel, as_dir)
                .is_ignore()
        };
        m(is_dir) || (self.dir_only && m(!is_dir))
    }

    /// Whether some rule matches a path rather than a name anywhere: only then can a directory's
    /// move (neither end of it denied) change whether something inside it is denied.
    pub fn has_path_rules(&self) -> bool {
        self.path_rules
    }

    /// The rules as given.
    pub(crate) fn globs(&self) -> &[String] {
        &self.globs
    }

    /// True when there are no rules.
    pub fn is_empty(&self) -> bool {
        self.matcher.is_empty()
    }
}
