//! The reference's `applyFileEdits` matching (modelcontextprotocol/servers `src/filesystem/lib.ts`),
//! used when the engine's exact, unique match refuses an edit: an `oldText` found several times is
//! replaced at its first occurrence, and one found nowhere is matched line by line with each line
//! compared trimmed, the replacement taking the indentation of the file's first matched line. The
//! edited text is written by one engine edit (the whole text read replaced by the result), so the
//! write keeps every guarantee of the engine's: write root, overwrite policy, all or nothing, the
//! file unchanged since it was read, encoding, byte order mark and CRLF kept.

use super::edit::{whole_text, DIFF_CONTEXT};
use crate::core::error::{Error, ErrorCode};
use crate::engine::Within;
use crate::{Edit, EditArgs};

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
/// order against the result of the previous ones. `Err(i)`: edit `i` (0-based) matched nowhere.
pub(super) fn apply(text: &str, edits: &[Edit]) -> Result<String, usize> {
    let mut cur = text.to_string();
    for (i, e) in edits.iter().enumerate() {
        if let Some(at) = cur.find(e.old_string.as_str()) {
            // `String.replace` with a function: the first occurrence, `newText` taken literally.
            cur.replace_range(at..at + e.old_string.len(), &e.new_string);
            continue;
        }
        cur = by_lines(&cur, &e.old_string, &e.new_string).ok_or(i)?;
    }
    Ok(cur)
}

/// The whitespace-tolerant fallback: the first window of lines equal to `old`'s lines once each
/// side is trimmed, replaced by `new`'s lines re-indented as the reference does.
fn by_lines(cur: &str, old: &str, new: &str) -> Option<String> {
    let old_lines: Vec<&str> = old.split('\n').collect();
    let lines: Vec<&str> = cur.split('\n').collect();
    if old_lines.len() > lines.len() {
        return None;
    }
    let i = (0..=lines.len() - old_lines.len()).find(|&i| {
        old_lines
            .iter()
            .zip(&lines[i..])
            .all(|(o, l)| js_trim(o) == js_trim(l))
    })?;
    let original = indent(lines[i]);
    let replaced = new.split('\n').enumerate().map(|(j, line)| {
        if j == 0 {
            return format!("{original}{}", js_trim_start(line));
        }
        // Relative indentation only when both the old and the new line are indented.
        let old_indent = old_lines.get(j).map_or("", |o| indent(o));
        let new_indent = indent(line);
        if old_indent.is_empty() || new_indent.is_empty() {
            return line.to_string();
        }
        // JavaScript's `.length`: UTF-16 code units.
        let units = |s: &str| s.encode_utf16().count() as isize;
        let extra = (units(new_indent) - units(old_indent)).max(0) as usize;
        format!("{original}{}{}", " ".repeat(extra), js_trim_start(line))
    });
    let mut out: Vec<String> = lines[..i].iter().map(|s| s.to_string()).collect();
    out.extend(replaced);
    out.extend(lines[i + old_lines.len()..].iter().map(|s| s.to_string()));
    Some(out.join("\n"))
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
    let modified = apply(&text, edits).map_err(|i| {
        let which = if edits.len() > 1 {
            format!("edit {} of {}: ", i + 1, edits.len())
        } else {
            String::new()
        };
        Error::new(
            ErrorCode::NotFound,
            format!("{which}old_string was not found in '{path}', not even line by line with whitespace trimmed; read the file again and copy the text exactly"),
        )
    })?;
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
    use super::apply;
    use crate::Edit;

    fn e(old: &str, new: &str) -> Edit {
        Edit {
            old_string: old.into(),
            new_string: new.into(),
            replace_all: None,
        }
    }

    #[test]
    fn first_occurrence_then_trimmed_lines() {
        assert_eq!(apply("x\nx\n", &[e("x", "y")]).unwrap(), "y\nx\n");
        assert_eq!(
            apply(
                "    if (a) {\n        b();\n    }\n",
                &[e("if (a) {\n  b();\n}", "if (a) {\n      c();\n  }")]
            )
            .unwrap(),
            "    if (a) {\n        c();\n  }\n"
        );
        assert_eq!(
            apply("x\n  y\n", &[e("x\n    y", "x\nz")]).unwrap(),
            "x\nz\n"
        );
        assert_eq!(
            apply("  a\nb\n", &[e("a ", "a\n  added")]).unwrap(),
            "  a\n  added\nb\n"
        );
        assert_eq!(apply("a\n", &[e("b", "c")]), Err(0));
        assert_eq!(apply("a\n", &[e("a", "b"), e("q", "c")]), Err(1));
    }
}
