//! The reference's `applyFileEdits` matching (modelcontextprotocol/servers `src/filesystem/lib.ts`),
//! used when the engine's exact, unique match refuses an edit: an `oldText` found several times is
//! replaced at its first occurrence, and one found nowhere is matched line by line with each line
//! compared trimmed, the replacement taking the indentation of the file's first matched line. The
//! edited text is written by one engine edit (the whole text read replaced by the result), so the
//! write keeps every guarantee of the engine's: write root, overwrite policy, all or nothing, the
//! file unchanged since it was read, encoding, byte order mark and CRLF kept.
//!
//! The matching itself is bounded as the engine's edit is (DESIGN.md guarantees 3 and 9): the
//! call's deadline is checked per edit and while a window of lines is sought, the window is found in
//! time linear in the text (the reference's scan compares every window whole: quadratic), and a
//! text that would outgrow the write limit is refused before it is built (the re-indented lines
//! repeat the first matched line's indentation, an amplification of the request).

use super::text::{whole_text, DIFF_CONTEXT};
use crate::core::deadline::Deadline;
use crate::core::error::{Error, ErrorCode};
use crate::core::memory::NoRoom;
use crate::engine::Within;
use crate::tools::api::Edit;
use crate::tools::api::EditArgs;
use crate::tools::profile::line_match::{text_room, LineWindows, LINES_PER_CHECK};

/// Why the edits could not be applied, with the 0-based index of the edit that stopped them.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Stop {
    /// The `oldText` matched nowhere, not even line by line.
    Missing(usize),
    /// The text would grow past the room the write allows.
    TooLarge(usize),
    /// The call's deadline passed (or it was cancelled).
    Expired(usize),
}

/// Where a [`Stop`] came from within one edit; the caller adds the edit's index.
enum Cut {
    Missing,
    TooLarge,
    Expired,
}

impl Cut {
    fn at(self, i: usize) -> Stop {
        match self {
            Cut::Missing => Stop::Missing(i),
            Cut::TooLarge => Stop::TooLarge(i),
            Cut::Expired => Stop::Expired(i),
        }
    }
}

/// JavaScript's `\s` and `trim()` set: Unicode White_Space bar U+0085, plus U+FEFF.
fn js_space(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{FEFF}'
}

fn js_trim(s: &str) -> &str {
    s.trim_matches(js_space)
}

fn js_trim_start(s: &str) -> &str {
    s.trim_start_matches(js_space)
}

/// `s.match(/^\s*/)[0]`.
fn indent(s: &str) -> &str {
    &s[..s.len() - js_trim_start(s).len()]
}

/// The reference's edit loop over `text` (LF line endings, as it normalizes them): each edit in
/// order against the result of the previous ones. No intermediate text passes `room` bytes, and
/// the work stops once `deadline` expires.
pub(super) fn apply(
    text: &str,
    edits: &[Edit],
    room: usize,
    deadline: &Deadline,
) -> Result<String, Stop> {
    let mut cur = text.to_string();
    for (i, e) in edits.iter().enumerate() {
        if deadline.expired() {
            return Err(Stop::Expired(i));
        }
        if let Some(at) = cur.find(e.old_string.as_str()) {
            if cur.len() - e.old_string.len() + e.new_string.len() > room {
                return Err(Stop::TooLarge(i));
            }
            // `String.replace` with a function: the first occurrence, `newText` taken literally.
            cur.replace_range(at..at + e.old_string.len(), &e.new_string);
            continue;
        }
        cur = by_lines(&cur, &e.old_string, &e.new_string, room, deadline).map_err(|c| c.at(i))?;
    }
    Ok(cur)
}

/// The whitespace-tolerant fallback: the first window of lines equal to `old`'s lines once each
/// side is trimmed, replaced by `new`'s lines re-indented as the reference does.
fn by_lines(
    cur: &str,
    old: &str,
    new: &str,
    room: usize,
    deadline: &Deadline,
) -> Result<String, Cut> {
    let count = |s: &str| memchr::memchr_iter(b'\n', s.as_bytes()).count() + 1;
    // More lines than the text has match nowhere; checked before the pattern is kept.
    if count(old) > count(cur) {
        return Err(Cut::Missing);
    }
    // The pattern and KMP's table: a word and a slice per line, reserved from the call's memory.
    let per_line = (std::mem::size_of::<&str>() + std::mem::size_of::<usize>()) as u64;
    let _held = deadline
        .reserve(count(old) as u64 * per_line)
        .map_err(|no| match no {
            NoRoom::OverBudget => Cut::TooLarge,
            NoRoom::Expired => Cut::Expired,
        })?;
    let pattern: Vec<&str> = old.split('\n').map(js_trim).collect();
    let (start, end) = first_window(cur, &pattern, deadline)?.ok_or(Cut::Missing)?;
    let original = indent(cur[start..].split('\n').next().unwrap_or(""));
    let tail = cur.len() - end;
    let mut out = String::new();
    out.push_str(&cur[..start]);
    let mut old_raw = old.split('\n');
    for (j, line) in new.split('\n').enumerate() {
        let old_indent = old_raw.next().map_or("", indent);
        let (lead, extra, body) = reindent(j, line, original, old_indent);
        // Checked before the line is added: a long indentation repeated on many lines is the
        // amplification this bound stops.
        if out.len() + usize::from(j > 0) + lead.len() + extra + body.len() + tail > room {
            return Err(Cut::TooLarge);
        }
        if j > 0 {
            out.push('\n');
        }
        out.push_str(lead);
        out.extend(std::iter::repeat_n(' ', extra));
        out.push_str(body);
    }
    out.push_str(&cur[end..]);
    Ok(out)
}

/// Line `j` of the new text as the reference writes it: the indentation it is given, the spaces of
/// relative indentation added, and the rest of the line.
fn reindent<'a>(
    j: usize,
    line: &'a str,
    original: &'a str,
    old_indent: &str,
) -> (&'a str, usize, &'a str) {
    if j == 0 {
        return (original, 0, js_trim_start(line));
    }
    // Relative indentation only when both the old and the new line are indented.
    let new_indent = indent(line);
    if old_indent.is_empty() || new_indent.is_empty() {
        return ("", 0, line);
    }
    // JavaScript's `.length`: UTF-16 code units.
    let units = |s: &str| s.encode_utf16().count() as isize;
    let extra = (units(new_indent) - units(old_indent)).max(0) as usize;
    (original, extra, js_trim_start(line))
}

/// The byte range of the first window of `cur`'s lines whose trimmed lines equal `pattern`, found
/// by Knuth-Morris-Pratt over lines (each text line trimmed once per step, compared a bounded
/// number of times), so the time is linear in the text whatever the pattern repeats.
fn first_window(
    cur: &str,
    pattern: &[&str],
    deadline: &Deadline,
) -> Result<Option<(usize, usize)>, Cut> {
    let mut windows = LineWindows::new(pattern);
    let mut at = 0;
    for (n, line) in cur.split('\n').enumerate() {
        if n % LINES_PER_CHECK == 0 && n > 0 && deadline.expired() {
            return Err(Cut::Expired);
        }
        let found = windows.push(js_trim(line));
        let end = at + line.len();
        if found {
            return Ok(Some((window_start(cur, end, pattern.len()), end)));
        }
        at = end + 1;
    }
    Ok(None)
}

/// The byte where the window of `lines` lines ending at byte `end` starts.
fn window_start(cur: &str, end: usize, lines: usize) -> usize {
    memchr::memrchr_iter(b'\n', &cur.as_bytes()[..end])
        .nth(lines - 1)
        .map_or(0, |nl| nl + 1)
}

/// Whether the engine's refusal of an edit list is one the reference's matching may get past: an
/// `oldText` found nowhere, or found more than once.
pub(super) fn may_fall_back(e: &Error) -> bool {
    match e.code {
        ErrorCode::NotFound => e.message.contains("old_string was not found in"),
        ErrorCode::InvalidArgument => e.message.contains("old_string occurs "),
        _ => false,
    }
}

/// The room the matched text may take (see [`text_room`]).
pub(super) fn room(sb: &Within<'_>) -> Result<usize, Error> {
    Ok(text_room(sb)?.0)
}

/// A [`Stop`] of `n` edits of `path` in the engine's words.
pub(super) fn refusal(stop: Stop, path: &str, n: usize, sb: &Within<'_>) -> Error {
    let which = |i: usize| {
        if n > 1 {
            format!("edit {} of {n}: ", i + 1)
        } else {
            String::new()
        }
    };
    match stop {
        Stop::Missing(i) => Error::new(
            ErrorCode::NotFound,
            format!("{}old_string was not found in '{path}', not even line by line with whitespace trimmed; read the file again and copy the text exactly", which(i)),
        ),
        Stop::TooLarge(i) => Error::new(
            ErrorCode::TooLarge,
            format!("{}the edited '{path}' would be over the write limit of {} bytes; nothing was written", which(i), sb.policy().write.as_ref().map_or(0, |w| w.max_write_bytes)),
        ),
        Stop::Expired(i) => Error::new(
            ErrorCode::TooLarge,
            format!("the {n} edits of '{path}' could not be applied within the call's time budget ({i} were); nothing was written; send fewer edits per call"),
        ),
    }
}

/// The edits applied by the reference's rules to the whole text of `path`, written as one engine
/// edit. Answers the engine's unified diff. An edit that matches nowhere is NOT_FOUND in the
/// engine's words (`edit K of N: old_string was not found in ...`), so the reference's text for it
/// is said. `refused` is the engine's refusal, answered as it is where the text cannot be
/// replaced whole (an empty file, one that is not text or is over `max_read_bytes`).
pub(super) fn edit(
    sb: &Within<'_>,
    path: &str,
    edits: &[Edit],
    dry_run: Option<bool>,
    refused: Error,
) -> Result<String, Error> {
    // A file whose text cannot be read whole (not text, over the read limit) or is empty keeps the
    // engine's refusal: it says what was not found, or found more than once.
    let Ok((read, crlf)) = whole_text(sb, path) else {
        return Err(refused);
    };
    if read.is_empty() {
        return Err(refused);
    }
    // The reference reads CRLF as LF; the engine writes LF text back as CRLF in a CRLF file (a file
    // of mixed endings is matched as it is, so its other lines keep theirs).
    let text = if crlf {
        read.replace("\r\n", "\n")
    } else {
        read.clone()
    };
    let deadline = sb.deadline(None);
    let modified = apply(&text, edits, room(sb)?, &deadline)
        .map_err(|stop| refusal(stop, path, edits.len(), sb))?;
    let r = sb
        .edit_file_with_context(
            &EditArgs {
                path: path.to_string(),
                edits: Some(vec![Edit {
                    old_string: read,
                    new_string: modified,
                    replace_all: None,
                }]),
                dry_run,
                ..Default::default()
            },
            DIFF_CONTEXT,
        )
        .map_err(|e| {
            if e.code == ErrorCode::NotFound {
                Error::new(
                    ErrorCode::AlreadyExists,
                    format!("'{path}' changed while it was being edited; nothing was written; read it again"),
                )
            } else {
                e
            }
        })?;
    Ok(r.diff.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::{apply, Stop};
    use crate::core::deadline::Deadline;
    use crate::tools::api::Edit;
    use std::time::Duration;

    fn run(text: &str, edits: &[Edit]) -> Result<String, Stop> {
        apply(
            text,
            edits,
            usize::MAX,
            &Deadline::detached(Duration::from_secs(60)),
        )
    }

    fn e(old: &str, new: &str) -> Edit {
        Edit {
            old_string: old.into(),
            new_string: new.into(),
            replace_all: None,
        }
    }

    #[test]
    fn first_occurrence_then_trimmed_lines() {
        assert_eq!(run("x\nx\n", &[e("x", "y")]).unwrap(), "y\nx\n");
        assert_eq!(
            run(
                "    if (a) {\n        b();\n    }\n",
                &[e("if (a) {\n  b();\n}", "if (a) {\n      c();\n  }")]
            )
            .unwrap(),
            "    if (a) {\n        c();\n  }\n"
        );
        assert_eq!(run("x\n  y\n", &[e("x\n    y", "x\nz")]).unwrap(), "x\nz\n");
        assert_eq!(
            run("  a\nb\n", &[e("a ", "a\n  added")]).unwrap(),
            "  a\n  added\nb\n"
        );
        assert_eq!(run("a\n", &[e("b", "c")]), Err(Stop::Missing(0)));
        assert_eq!(
            run("a\n", &[e("a", "b"), e("q", "c")]),
            Err(Stop::Missing(1))
        );
    }
}
