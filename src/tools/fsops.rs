//! create_directory and move_file: directory operations inside the write root, on handles.
//!
//! Both resolve their paths like write_file (the write root's handle, the gate on every name); the
//! directories are made and the moves done by the core (`core::mutate`), which checks the gate on
//! what each operation makes or moves, so nothing is ever created or moved outside the write root.

use crate::core::audit::Fields;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::mutate::Existing;
use crate::core::open::Kind;
use crate::engine::Engine as Sandbox;
use crate::engine::Within;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Arguments of `create_directory`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct MkdirArgs {
    /// The directory to create, relative to the write root (or absolute inside it); missing parents
    /// are created too.
    pub path: String,
}

/// Arguments of `move_file`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct MoveArgs {
    /// What to move (a file, directory or symbolic link), relative to the write root.
    pub source: String,
    /// Where to move it, relative to the write root. Its parent must exist.
    pub destination: String,
    /// Replace an existing destination file (the policy must allow overwriting too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overwrite: Option<bool>,
}

/// The result of `create_directory` or `move_file`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[non_exhaustive]
pub struct FsOpResult {
    /// The directory created, or the moved object's new path.
    pub path: String,
    /// `create_directory`: the directory did not exist before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub created: bool,
    /// `move_file`: where the object was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved_from: Option<String>,
    /// `move_file`: an existing destination file was replaced.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub replaced: bool,
}

impl Within<'_> {
    /// Creates a directory (and its missing parents) under the write root. An existing directory is
    /// success with `created: false`.
    ///
    /// ```
    /// use rootbound::{MkdirArgs, Sandbox, WritePolicy};
    /// let dir = tempfile::tempdir().unwrap();
    /// let sb = Sandbox::builder().write(WritePolicy::new(dir.path())).build().unwrap();
    /// let mut args = MkdirArgs::default();
    /// args.path = "a/b/c".into();
    /// assert!(sb.create_directory(&args).unwrap().created);
    /// assert!(dir.path().join("a/b/c").is_dir());
    /// ```
    pub fn create_directory(&self, args: &MkdirArgs) -> Result<FsOpResult> {
        self.audited(
            "create_directory",
            Some(&args.path),
            || {
                self.mkdir_inner(args)
                    .map(|(r, rel)| (r, Some(rel.display().to_string())))
            },
            |_| Fields::ok(0, 0, false),
        )
    }

    fn mkdir_inner(&self, args: &MkdirArgs) -> Result<(FsOpResult, PathBuf)> {
        let raw = args.path.trim_end_matches('/');
        if raw.is_empty() {
            return Err(Error::invalid(
                "path is empty or the write root itself; name a directory to create",
            ));
        }
        let t = self.dir_target(raw)?;
        let created = self.make_dir(&t, raw)?;
        let result = FsOpResult {
            path: self.shown(&t.rel),
            created,
            ..Default::default()
        };
        Ok((result, t.rel))
    }

    /// Moves (renames) a file, directory or symbolic link within the write root. The destination is
    /// never replaced unless the call says `overwrite: true` and the policy allows overwriting; a
    /// directory is never replaced. A directory holding anything the deny rules refuse is not moved
    /// (its new name could escape an anchored rule).
    pub fn move_file(&self, args: &MoveArgs) -> Result<FsOpResult> {
        self.audited(
            "move_file",
            Some(&args.source),
            || {
                self.move_inner(args)
                    .map(|(r, rel)| (r, Some(rel.display().to_string())))
            },
            |_| Fields::ok(0, 0, false),
        )
    }

    fn move_inner(&self, args: &MoveArgs) -> Result<(FsOpResult, PathBuf)> {
        let (_, policy) = self.write_root()?;
        let (src_raw, dst_raw) = (args.source.as_str(), args.destination.as_str());
        let pair =
            self.move_targets(src_raw.trim_end_matches('/'), dst_raw.trim_end_matches('/'))?;
        let kind = match self.existing(pair.src(), src_raw)? {
            Some(e) => e.kind,
            None => {
                return Err(Error::new(
                    ErrorCode::NotFound,
                    format!("'{src_raw}' does not exist"),
                ))
            }
        };
        // `f/` names a directory: a file or link is not moved under that spelling, as the read tools
        // do not read it.
        for raw in [src_raw, dst_raw] {
            if raw.ends_with('/') && kind != Kind::Dir {
                return Err(Error::new(
                    ErrorCode::NotAFile,
                    format!("'{raw}' ends in '/' but '{src_raw}' is not a directory"),
                ));
            }
        }
        if kind == Kind::Other {
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!("'{src_raw}' is a FIFO, socket or device and is not moved"),
            ));
        }
        let checked = self.check_move(&pair, kind, src_raw, dst_raw, &self.deadline(None))?;
        let replace = match self.existing(pair.dst(), dst_raw)? {
            None => false,
            Some(Existing {
                kind: Kind::Dir, ..
            }) => {
                return Err(Error::new(
                    ErrorCode::AlreadyExists,
                    format!("'{dst_raw}' is an existing directory; directories are never replaced"),
                ))
            }
            Some(_) if args.overwrite != Some(true) => {
                return Err(Error::new(
                    ErrorCode::AlreadyExists,
                    format!(
                    "'{dst_raw}' exists; pass overwrite: true to replace it, or pick a new name"
                ),
                ))
            }
            Some(_) if !policy.allow_overwrite => {
                return Err(Error::new(
                    ErrorCode::Denied,
                    format!(
                    "'{dst_raw}' exists and this sandbox's policy does not allow replacing files"
                ),
                ))
            }
            Some(Existing {
                kind: Kind::Other, ..
            }) => {
                return Err(Error::new(
                    ErrorCode::NotAFile,
                    format!("'{dst_raw}' is a FIFO, socket or device and is never replaced"),
                ))
            }
            Some(_) if kind == Kind::Dir => {
                return Err(Error::new(
                    ErrorCode::NotAFile,
                    format!("'{src_raw}' is a directory and '{dst_raw}' is not; nothing was moved"),
                ))
            }
            Some(_) => true,
        };
        self.rename(checked, replace, src_raw, dst_raw)?;
        let (src, dst) = (pair.src(), pair.dst());
        let result = FsOpResult {
            path: self.shown(&dst.rel),
            moved_from: Some(self.shown(&src.rel)),
            replaced: replace,
            ..Default::default()
        };
        Ok((result, dst.rel.clone()))
    }
}

/// The row of create_directory.
pub(crate) struct CreateDirectory;

impl crate::tools::tool::Tool for CreateDirectory {
    const NAME: &'static str = "create_directory";
    const TITLE: &'static str = "Create directory";
    const WRITES: bool = true;
    const ONE_OBJECT: bool = true;
    type Args = MkdirArgs;
    type Output = FsOpResult;

    fn run(w: &Within<'_>, args: &MkdirArgs) -> Result<FsOpResult> {
        w.create_directory(args)
    }

    fn describe(sb: &Sandbox) -> String {
        format!(
            "Create a directory (and missing parents) under the write root ({}); an existing directory is fine.",
            sb.write_root_said()
        )
    }

    /// It only adds.
    fn destructive(_sb: &Sandbox) -> bool {
        false
    }
}

/// The row of move_file.
pub(crate) struct MoveFile;

impl crate::tools::tool::Tool for MoveFile {
    const NAME: &'static str = "move_file";
    const TITLE: &'static str = "Move file";
    const WRITES: bool = true;
    const ONE_OBJECT: bool = true;
    type Args = MoveArgs;
    type Output = FsOpResult;

    fn run(w: &Within<'_>, args: &MoveArgs) -> Result<FsOpResult> {
        w.move_file(args)
    }

    fn describe(sb: &Sandbox) -> String {
        format!(
            "Move or rename a file or directory within the write root ({}). The destination's parent \
             must exist. {}",
            sb.write_root_said(),
            sb.overwrite_said()
        )
    }

    fn destructive(sb: &Sandbox) -> bool {
        sb.allows_overwrite()
    }
}
