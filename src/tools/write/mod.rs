//! The opt-in write root: write_file (create-only by default, double approval to overwrite, atomic
//! replace) and delete_file. Same resolution and escape rules as reads; the write root grants no read.

use crate::core::audit::Fields;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::mutate::{publish, Existing};
use crate::core::open::Kind;
use crate::engine::Engine as Sandbox;
use crate::engine::Within;
use crate::tools::edit_form::Enc;
use base64::Engine;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

use std::path::PathBuf;

/// Content encodings accepted by write_file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ContentEncoding {
    /// The content is the text itself.
    #[default]
    #[serde(rename = "utf-8")]
    Utf8,
    /// The content is base64 (standard alphabet).
    #[serde(rename = "base64")]
    Base64,
}

/// Arguments of `write_file`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct WriteArgs {
    /// Path relative to the write root (or absolute inside it).
    pub path: String,
    /// The content to write.
    pub content: String,
    /// Replace an existing file (the policy must allow it too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overwrite: Option<bool>,
    /// `utf-8` (default) or `base64`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<ContentEncoding>,
}

/// Arguments of `delete_file`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct DeleteArgs {
    /// Path relative to the write root (or absolute inside it).
    pub path: String,
}

/// The result of `write_file` or `delete_file`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct WriteResult {
    /// The canonical path written or deleted.
    pub path: String,
    /// Bytes written (0 for a delete).
    pub bytes_written: u64,
    /// A new file was created.
    pub created: bool,
    /// An existing file was replaced (atomically).
    pub replaced: bool,
    /// The file was deleted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
    /// The file replaced was UTF-16 (`utf-16le` or `utf-16be`, with a byte-order mark, as read_file
    /// decodes it) and the text given was written in that encoding, with its mark. Omitted when the
    /// bytes written are the content as given (UTF-8, or base64 decoded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
}

impl Within<'_> {
    /// Writes a file under the write root.
    ///
    /// A new file is created exclusively; an existing one is replaced only when the call says
    /// `overwrite: true` AND the policy has `allow_overwrite` (else `ALREADY_EXISTS` or `DENIED`).
    /// Content goes to a temporary file in the target's directory, is synced, and is renamed into place,
    /// so a reader sees the old file or the new one, never a mix. A symlink at the target is replaced,
    /// never written through.
    ///
    /// ```
    /// use rootbound::{Sandbox, WriteArgs, WritePolicy, ErrorCode};
    /// let dir = tempfile::tempdir().unwrap();
    /// let sb = Sandbox::builder().write(WritePolicy::new(dir.path())).build().unwrap();
    /// let mut args = WriteArgs::default(); // argument structs are non_exhaustive: set fields
    /// args.path = "out/a.txt".into();
    /// args.content = "hi".into();
    /// assert!(sb.write_file(&args).unwrap().created);
    /// assert_eq!(sb.write_file(&args).unwrap_err().code, ErrorCode::AlreadyExists);
    /// assert_eq!(std::fs::read_to_string(dir.path().join("out/a.txt")).unwrap(), "hi");
    /// ```
    pub fn write_file(&self, args: &WriteArgs) -> Result<WriteResult> {
        self.audited(
            "write_file",
            Some(&args.path),
            || {
                self.write_inner(args)
                    .map(|(w, rel)| (w, Some(rel.display().to_string())))
            },
            |w| Fields::ok(w.bytes_written, 0, false),
        )
    }

    /// Deletes a regular file under the write root (only when the policy allows deletes; never a
    /// directory or a symlink).
    pub fn delete_file(&self, args: &DeleteArgs) -> Result<WriteResult> {
        self.audited(
            "delete_file",
            Some(&args.path),
            || {
                self.delete_inner(args)
                    .map(|(w, rel)| (w, Some(rel.display().to_string())))
            },
            |_| Fields::ok(0, 0, false),
        )
    }

    fn write_inner(&self, args: &WriteArgs) -> Result<(WriteResult, PathBuf)> {
        let (_, policy) = self.write_root()?;
        let data = decode(args, policy.max_write_bytes)?;
        let t = self.target(&args.path, policy.create_parents)?;
        let (replace, perm) = match self.existing(&t, &args.path)? {
            None => (false, None),
            Some(Existing { kind, perm, .. }) if matches!(kind, Kind::File | Kind::Symlink) => {
                if args.overwrite != Some(true) {
                    let how = if policy.allow_overwrite {
                        "pass overwrite: true to replace it, or pick a new name"
                    } else {
                        "this sandbox does not allow overwriting; pick a new name"
                    };
                    return Err(Error::new(
                        ErrorCode::AlreadyExists,
                        format!("'{}' exists; {how}", args.path),
                    ));
                }
                if !policy.allow_overwrite {
                    return Err(Error::new(
                        ErrorCode::Denied,
                        format!(
                            "'{}' exists and this sandbox's policy does not allow overwriting; \
                             write a new file instead",
                            args.path
                        ),
                    ));
                }
                (true, (kind == Kind::File).then_some(perm))
            }
            Some(Existing { kind, .. }) => {
                return Err(Error::new(
                    ErrorCode::NotAFile,
                    format!(
                        "'{}' exists and is {}, not a regular file",
                        args.path,
                        if kind == Kind::Dir {
                            "a directory"
                        } else {
                            "a FIFO, socket or device"
                        }
                    ),
                ))
            }
        };
        let (data, kept) = match perm {
            Some(_) => self.kept_encoding(&t, args, data, policy.max_write_bytes)?,
            None => (data, None),
        };
        self.sweep_stale_temps(&t);
        publish(&t, &data, replace, perm, &args.path, None)?;
        let result = WriteResult {
            path: self.shown(&t.rel),
            bytes_written: data.len() as u64,
            created: !replace,
            replaced: replace,
            deleted: false,
            encoding: kept.map(str::to_string),
        };
        Ok((result, t.rel))
    }

    /// Text written over a UTF-16 file (one read_file decodes) is stored in that encoding, with its
    /// byte-order mark, as edit_file keeps it: an agent that read the text and writes it back whole
    /// does not turn the file into UTF-8. A leading U+FEFF of the text is the mark, not doubled.
    /// base64 content is written as given. Answers the bytes and the encoding's name when kept.
    fn kept_encoding<'a>(
        &self,
        t: &crate::core::mutate::Dest,
        args: &'a WriteArgs,
        data: Cow<'a, [u8]>,
        max: u64,
    ) -> Result<(Cow<'a, [u8]>, Option<&'static str>)> {
        if args.encoding.unwrap_or_default() != ContentEncoding::Utf8 {
            return Ok((data, None));
        }
        let enc = Enc::sniff(&self.head_for_write(t, 2).unwrap_or_default());
        let Some(name) = enc.utf16_name() else {
            return Ok((data, None));
        };
        let text = args
            .content
            .strip_prefix('\u{FEFF}')
            .unwrap_or(&args.content);
        let size = enc.stored_len(text.as_bytes());
        if size > max {
            return Err(Error::new(
                ErrorCode::TooLarge,
                format!(
                    "'{}' is {name}, and the content in {name} is {size} bytes, over the write \
                     limit of {max} bytes; nothing was written",
                    args.path
                ),
            ));
        }
        Ok((
            Cow::Owned(enc.store(text.as_bytes()).into_owned()),
            Some(name),
        ))
    }

    fn delete_inner(&self, args: &DeleteArgs) -> Result<(WriteResult, PathBuf)> {
        let (_, policy) = self.write_root()?;
        if !policy.allow_delete {
            return Err(Error::new(
                ErrorCode::Denied,
                "this sandbox's policy does not allow deleting files",
            ));
        }
        let t = self.target(&args.path, false)?;
        let existing = self.existing(&t, &args.path)?;
        let what = match &existing {
            Some(Existing {
                kind: Kind::File, ..
            }) => None,
            None => {
                return Err(Error::new(
                    ErrorCode::NotFound,
                    format!("'{}' does not exist", args.path),
                ))
            }
            Some(Existing {
                kind: Kind::Dir, ..
            }) => Some("a directory"),
            Some(Existing {
                kind: Kind::Symlink,
                ..
            }) => Some("a symbolic link"),
            Some(_) => Some("a FIFO, socket or device"),
        };
        if let Some(what) = what {
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!(
                    "'{}' is {what}; delete_file removes regular files only",
                    args.path
                ),
            ));
        }
        if let Some(existing) = &existing {
            self.remove_file(&t, existing, &args.path)?;
        }
        let result = WriteResult {
            path: self.shown(&t.rel),
            deleted: true,
            ..Default::default()
        };
        Ok((result, t.rel))
    }
}

/// The bytes to write, refused with `TOO_LARGE` over `max` (base64 is measured after decoding, and a
/// text that must decode to more than `max` is refused before decoding).
fn decode(args: &WriteArgs, max: u64) -> Result<Cow<'_, [u8]>> {
    let too_large = |n: u64, what: &str| {
        Error::new(
            ErrorCode::TooLarge,
            format!(
                "content is {what}{n} bytes, over the write limit of {max} bytes; nothing was written"
            ),
        )
    };
    let data = match args.encoding.unwrap_or_default() {
        ContentEncoding::Utf8 => Cow::Borrowed(args.content.as_bytes()),
        ContentEncoding::Base64 => {
            let text: Cow<'_, str> = if args.content.bytes().any(|b| b.is_ascii_whitespace()) {
                Cow::Owned(
                    args.content
                        .chars()
                        .filter(|c| !c.is_ascii_whitespace())
                        .collect(),
                )
            } else {
                Cow::Borrowed(args.content.as_str())
            };
            // Every 4 characters decode to 3 bytes, less at most 2 of padding.
            let at_least = (text.len() as u64 / 4 * 3).saturating_sub(2);
            if at_least > max {
                return Err(too_large(at_least, "at least "));
            }
            Cow::Owned(
                base64::engine::general_purpose::STANDARD
                    .decode(text.as_bytes())
                    .map_err(|e| Error::invalid(format!("content is not valid base64: {e}")))?,
            )
        }
    };
    if data.len() as u64 > max {
        return Err(too_large(data.len() as u64, ""));
    }
    Ok(data)
}

/// The row of write_file.
pub(crate) struct WriteFile;

impl crate::tools::tool::Tool for WriteFile {
    const NAME: &'static str = "write_file";
    const TITLE: &'static str = "Write file";
    const WRITES: bool = true;
    const UNSET: crate::tools::args::Unset = &["encoding"];
    const ONE_OBJECT: bool = true;
    type Args = WriteArgs;
    type Output = WriteResult;

    fn run(w: &Within<'_>, args: &WriteArgs) -> Result<WriteResult> {
        w.write_file(args)
    }

    fn describe(sb: &Sandbox) -> String {
        format!(
            "Create a file under the write root ({}); paths are relative to it (or absolute inside it). \
             {} {} At most {} bytes; encoding: utf-8 (default) or base64. The write root \
             is not readable unless it is also a read root.",
            sb.write_root_said(),
            sb.overwrite_said(),
            sb.parents_said(),
            sb.policy().write.as_ref().map_or(0, |w| w.max_write_bytes)
        )
    }

    fn render(out: &WriteResult) -> String {
        write_text(out)
    }

    /// Replacing a file destroys its old content: only additive when overwrite is off.
    fn destructive(sb: &Sandbox) -> bool {
        sb.allows_overwrite()
    }
}

/// The row of delete_file.
pub(crate) struct DeleteFile;

impl crate::tools::tool::Tool for DeleteFile {
    const NAME: &'static str = "delete_file";
    const TITLE: &'static str = "Delete file";
    const WRITES: bool = true;
    const ONE_OBJECT: bool = true;
    type Args = DeleteArgs;
    type Output = WriteResult;

    fn run(w: &Within<'_>, args: &DeleteArgs) -> Result<WriteResult> {
        w.delete_file(args)
    }

    fn describe(sb: &Sandbox) -> String {
        format!(
            "Delete one regular file under the write root ({}); never a directory or a \
             symbolic link.",
            sb.write_root_said()
        )
    }

    fn render(out: &WriteResult) -> String {
        write_text(out)
    }

    fn withheld(sb: &Sandbox) -> Option<&'static str> {
        (!sb.policy().write.as_ref().is_some_and(|w| w.allow_delete)).then_some(
            "tool 'delete_file' is not enabled: this sandbox's policy does not allow deleting \
             files (allow_delete)",
        )
    }
}

/// `created|replaced PATH (N bytes)` or `deleted PATH`.
pub fn write_text(r: &WriteResult) -> String {
    if r.deleted {
        return format!("deleted {}", r.path);
    }
    let how = if r.replaced { "replaced" } else { "created" };
    match &r.encoding {
        Some(e) => format!(
            "{how} {} ({} bytes; the file was {e}: the text is written in {e}, with its byte-order mark)",
            r.path, r.bytes_written
        ),
        None => format!("{how} {} ({} bytes)", r.path, r.bytes_written),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_measured_after_decoding() {
        let args = |content: &str| WriteArgs {
            path: "x".into(),
            content: content.into(),
            encoding: Some(ContentEncoding::Base64),
            ..Default::default()
        };
        // 12 characters, 9 bytes: under a limit of 10.
        assert_eq!(decode(&args("AAAA AAAA\nAAAA"), 10).unwrap().len(), 9);
        assert_eq!(
            decode(&args("AAAAAAAAAAAAAAAA"), 10).unwrap_err().code,
            ErrorCode::TooLarge
        );
        assert_eq!(
            decode(&args("not base64!"), 10).unwrap_err().code,
            ErrorCode::InvalidArgument
        );
    }
}
