//! read_text_file's `head` and `tail` as the reference's `headFile` and `tailFile` count lines, and
//! the end of a UTF-16 file, whose lines the engine's line mode does not count.

use crate::core::error::Error;
use crate::engine::Within;
use crate::tools::api::ReadArgs;
use crate::tools::api::ReadResult;

/// read_text_file's `head`, as the reference's `headFile`: the text split on `\n` (a `\r` before it
/// stays), the first N lines joined by `\n`, so the last line returned has no newline after it (the
/// file's own final newline included). `content` is the file's first bytes; the flag says whether
/// it held the N lines (or the whole file).
pub(super) fn head(content: &str, n: u64) -> (String, bool) {
    let mut seen = 0u64;
    for i in memchr::memchr_iter(b'\n', content.as_bytes()) {
        seen += 1;
        if seen == n {
            return (content[..i].to_string(), true);
        }
    }
    (
        content.strip_suffix('\n').unwrap_or(content).to_string(),
        false,
    )
}

/// read_text_file's `tail`, as the reference's `tailFile`: the text with CRLF made LF, split on `\n`,
/// the last N pieces joined by `\n`. A final newline leaves an empty last piece, so it counts as a
/// line: `tail: 2` of `a\nb\nc\n` is `c\n`. `content` is the engine's last N lines (all lines, when
/// the file has fewer).
fn tail_text(content: &str, n: u64) -> String {
    let text = content.replace("\r\n", "\n");
    let pieces: Vec<&str> = text.split('\n').collect();
    let keep = (n as usize).min(pieces.len());
    pieces[pieces.len() - keep..].join("\n")
}

/// The reference's tail of `content`, and whether the server's read limit cut it: `window` says
/// `content` is the end of a file read from a byte offset (its first line dropped, as it may be a
/// part), which then holds fewer than the `n` lines asked for.
pub(super) fn tail(content: &str, n: u64, window: bool) -> (String, bool) {
    let t = tail_text(content, n);
    let short = window && (content.split('\n').count() as u64) < n;
    (t, short)
}

/// A UTF-16 file's text for `tail`: decoded whole when it fits the read limit, else its last
/// `max_read_bytes` decoded (an even offset, so the units stay aligned) with the first, possibly
/// partial, line dropped; the flag says which.
pub(super) fn utf16_end(sb: &Within<'_>, path: String) -> Result<(ReadResult, bool), Error> {
    let first = sb.read_file(&ReadArgs {
        path: path.clone(),
        ..Default::default()
    })?;
    if !first.truncated {
        return Ok((first, false));
    }
    let limit = sb.policy().limits.max_read_bytes;
    let mut r = sb.read_file(&ReadArgs {
        path,
        offset: Some(first.total_bytes.saturating_sub(limit) & !1),
        ..Default::default()
    })?;
    if let Some(nl) = r.content.find('\n') {
        r.content.drain(..=nl);
    }
    Ok((r, true))
}

#[cfg(test)]
mod tests {
    #[test]
    fn tail_of_a_window_short_of_lines_is_said() {
        assert_eq!(super::tail("b\nc\n", 2, false), ("c\n".to_string(), false));
        assert_eq!(super::tail("c", 5, true), ("c".to_string(), true));
    }
}
