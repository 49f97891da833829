//! How a host asks for the index: which roots, how changes are learnt, where it is saved.

use std::path::PathBuf;

/// Which roots get an index ([`IndexOptions::when`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum IndexWhen {
    /// Every root (config `index = true`, `rootbound mcp --index`).
    #[default]
    Always,
    /// Only roots on a filesystem that reports every change (Linux inotify on a local filesystem),
    /// where repeated searches can skip the walk; elsewhere the root is `off` and says why
    /// (config `index = "auto"`).
    Auto,
}

/// How the index learns that a file changed ([`IndexOptions::verify`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum IndexVerify {
    /// Change reports (inotify) where the filesystem has them, so a repeated walk is replayed;
    /// elsewhere as `Strict` (config `index_verify = "events"`).
    #[default]
    Events,
    /// Every query walks and compares each pruned file's (device, inode, size, mtime, ctime) with
    /// its entry: no reliance on change reports, so writes through a shared memory map that change
    /// the mtime are seen too, at the cost of the walk (config `index_verify = "strict"`).
    Strict,
}

/// How [`crate::Sandbox::with_index_options`] indexes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct IndexOptions {
    /// Which roots are indexed.
    pub when: IndexWhen,
    /// How changes are learnt.
    pub verify: IndexVerify,
    /// Where each root's index is saved for the next start.
    pub dir: IndexDir,
    /// Directories other agents reach (the roots and write roots of the other agents of a config
    /// file, which may be served by the same process or another): the cache directory must lie
    /// outside them too, as outside the sandbox's own roots.
    pub outside: Vec<PathBuf>,
}

/// Where a root's index is saved, to be loaded at the next start instead of built
/// ([`IndexOptions::index_dir`]; docs/index.md "On disk").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum IndexDir {
    /// Not saved: every start builds (the library's and the Python binding's default).
    #[default]
    None,
    /// The user's cache directory: `$XDG_CACHE_HOME/rootbound`, else `~/.cache/rootbound`
    /// (`rootbound mcp`'s default).
    UserCache,
    /// This directory (config `index_dir`, `rootbound mcp --index-dir DIR`): created with mode
    /// 0700; refused when writable by group or others, not owned by the user, or inside a root.
    Path(PathBuf),
}

impl IndexOptions {
    /// Which roots are indexed.
    pub fn when(mut self, when: IndexWhen) -> Self {
        self.when = when;
        self
    }

    /// How changes are learnt.
    pub fn verify(mut self, verify: IndexVerify) -> Self {
        self.verify = verify;
        self
    }

    /// Where each root's index is saved for the next start.
    pub fn index_dir(mut self, dir: IndexDir) -> Self {
        self.dir = dir;
        self
    }

    /// Adds directories the cache directory must lie outside of (the field
    /// [`field@IndexOptions::outside`]).
    pub fn outside(mut self, dirs: impl IntoIterator<Item = PathBuf>) -> Self {
        self.outside.extend(dirs);
        self
    }
}
