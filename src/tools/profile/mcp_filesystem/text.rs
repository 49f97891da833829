//! The reference's view of a file's text for an edit: its whole decoded text, read in one call,
//! and the diff's context.

use crate::core::error::{Error, ErrorCode};
use crate::engine::Within;
use crate::tools::api::ReadArgs;

/// jsdiff's default context: unchanged lines around each change in the reference's diff.
pub(super) const DIFF_CONTEXT: usize = 4;

/// The whole text of `path` as the engine's edit sees it (after any byte order mark; UTF-16
/// decoded), read in one call within `max_read_bytes`, and whether every line of it ends with CRLF
/// (the engine then matches LF text against it and writes LF text back as CRLF). A file that is
/// not text, or over the read limit, is refused: its text could not be replaced whole.
pub(super) fn whole_text(sb: &Within<'_>, path: &str) -> Result<(String, bool), Error> {
    let r = sb.read_file(&ReadArgs {
        raw: Some(true),
        ..ReadArgs::path(path)
    })?;
    // The engine's edit matches UTF-16 text as decoded (and writes it back in UTF-16).
    if r.binary || !matches!(r.encoding.as_str(), "utf-8" | "utf-16le" | "utf-16be") {
        return Err(Error::invalid(format!(
            "'{path}' is not UTF-8 text ({}); its oldText must match exactly, once",
            if r.binary {
                "binary"
            } else {
                r.encoding.as_str()
            }
        )));
    }
    if r.truncated {
        return Err(Error::new(
            ErrorCode::TooLarge,
            format!(
                "'{path}' is {} bytes, over the read limit of {} bytes: an oldText that is empty, found more than once or found only with whitespace trimmed needs the whole file read in one call; give a text that occurs exactly once",
                r.total_bytes, sb.policy().limits.max_read_bytes
            ),
        ));
    }
    let mut text = r.content;
    if text.starts_with('\u{FEFF}') {
        text.drain(..'\u{FEFF}'.len_utf8());
    }
    let b = text.as_bytes();
    let crlf = memchr::memmem::find(b, b"\r\n").is_some()
        && memchr::memchr_iter(b'\n', b).all(|i| i > 0 && b[i - 1] == b'\r');
    Ok((text, crlf))
}
