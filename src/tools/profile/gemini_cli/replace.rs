//! replace as Gemini CLI's edit tool answers it: the exact text, then its whitespace-tolerant
//! "flexible" match, and its error texts.

use super::omission;
use super::*;
use crate::core::deadline::Deadline;
use crate::engine::Within;
use crate::tools::profile::line_match::{text_room, LineWindows, LINES_PER_CHECK};

/// replace, as Gemini CLI's edit tool (edit.ts): the exact text first; when it is not found, Gemini's
/// "flexible" strategy (the lines of old_string compared with leading and trailing white space
/// ignored, the replacement given the matched block's indentation); its error texts.
pub(super) fn replace(sb: &Within<'_>, a: Replace) -> Result<Presented, Error> {
    let _ = a.instruction;
    // Gemini CLI's edit drops NUL bytes from the path (a model's stray escape), as here; the
    // path then goes through the gate like any other.
    let a = Replace {
        file_path: a.file_path.replace('\0', ""),
        ..a
    };
    let old_ones = omission::placeholders(&a.old_string);
    if omission::placeholders(&a.new_string)
        .iter()
        .any(|p| !old_ones.contains(p))
    {
        return Err(Error::invalid(
            "`new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide \
             exact literal replacement text.",
        ));
    }
    let all = a.allow_multiple == Some(true);
    let exact = sb.edit_file(&EditArgs {
        path: a.file_path.clone(),
        old_string: Some(a.old_string.clone()),
        new_string: Some(a.new_string.clone()),
        replace_all: a.allow_multiple,
        ..Default::default()
    });
    let e = match exact {
        Ok(r) => return Ok(replaced(&r.path, r.replacements)),
        Err(e) => e,
    };
    let not_found = e.code == ErrorCode::NotFound && e.message.contains("old_string was not found");
    let several = e
        .message
        .split("old_string occurs ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next().and_then(|n| n.parse::<u64>().ok()));
    let path = &a.file_path;
    if let Some(n) = several.filter(|_| e.code == ErrorCode::InvalidArgument && !all) {
        return Err(Error::invalid(format!(
            "Failed to edit, Expected 1 occurrence but found {n} for old_string in file: {path}. If you \
             intended to replace multiple occurrences, set 'allow_multiple' to true."
        )));
    }
    if !not_found {
        return Err(e);
    }
    let closest = e
        .details
        .as_ref()
        .and_then(|d| d.get("closest_line"))
        .and_then(Value::as_u64);
    let none_found = || {
        Error::new(
            ErrorCode::NotFound,
            format!(
                "Failed to edit, 0 occurrences found for old_string in {path}. Ensure you're not escaping \
                 content incorrectly and check whitespace, indentation, and context. Use read_file tool to \
                 verify.{}",
                closest
                    .map(|n| format!(" Line {n} is the closest."))
                    .unwrap_or_default()
            ),
        )
    };
    let r = sb.read_file(&ReadArgs {
        path: path.clone(),
        ..Default::default()
    })?;
    // UTF-16 text is matched as decoded, as the exact edit matches it.
    let text = matches!(r.encoding.as_str(), "utf-8" | "utf-16le" | "utf-16be");
    if r.truncated || r.binary || !text || r.content.contains('\r') {
        return Err(none_found());
    }
    let (room, limit) = text_room(sb)?;
    let bounds = Bounds {
        deadline: sb.deadline(None),
        room,
        limit,
    };
    let Some((from, to, block, n)) = flexible(&r.content, &a.old_string, &a.new_string, &bounds)?
    else {
        return Err(none_found());
    };
    if n > 1 && !all {
        return Err(Error::invalid(format!(
            "Failed to edit, Expected 1 occurrence but found {n} for old_string in file: {path}. If you \
             intended to replace multiple occurrences, set 'allow_multiple' to true."
        )));
    }
    // The lines from the first block found to the end of the last, replaced in one edit that the
    // engine checks against the file as it is when it writes.
    let r = sb.edit_file(&EditArgs {
        path: path.clone(),
        old_string: Some(r.content[from..to].to_string()),
        new_string: Some(block),
        ..Default::default()
    })?;
    Ok(replaced(&r.path, n))
}

fn replaced(path: &str, n: u64) -> Presented {
    text(
        format!("Successfully modified file: {path} ({n} replacements)."),
        None,
    )
}

/// What bounds the flexible match (DESIGN.md guarantees 3 and 9): the call's deadline, and the
/// room the replaced text may take.
struct Bounds {
    deadline: Deadline,
    room: usize,
    /// The write limit, as the refusal says it.
    limit: u64,
}

/// Gemini CLI's `calculateFlexibleReplacement` on `content`: the byte range from the first matched
/// block to the end of the last, its replacement, and the number of blocks; None when no block
/// matches. The replacement is refused before it outgrows `bounds.room` (each block repeats the
/// new text with the matched line's indentation: a short line matched thousands of times by a
/// long new text asked for gigabytes).
fn flexible(
    content: &str,
    old: &str,
    new: &str,
    bounds: &Bounds,
) -> Result<Option<(usize, usize, String, u64)>, Error> {
    let old = old.replace("\r\n", "\n");
    let new = new.replace("\r\n", "\n");
    let want: Vec<&str> = old.split('\n').map(str::trim).collect();
    let lines: Vec<&str> = content.split_inclusive('\n').collect();
    let replace_lines: Vec<&str> = new.split('\n').collect();
    let mut starts = Vec::with_capacity(lines.len() + 1);
    let mut at = 0;
    for l in &lines {
        starts.push(at);
        at += l.len();
    }
    starts.push(at);
    let size = BlockSize::of(&replace_lines);
    let (mut first, mut last, mut n) = (None, 0, 0u64);
    let mut out = String::new();
    for i in windows(&lines, &want, &bounds.deadline)? {
        let window = &lines[i..i + want.len()];
        n += 1;
        let begin = starts[i];
        let indent: String = window[0]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        // Checked before the block is built: its size follows from the indentation alone.
        if out.len() + (begin - last) + size.with(indent.len()) + 1 > bounds.room {
            return Err(Error::new(
                ErrorCode::TooLarge,
                format!("the edited file would be over the write limit of {} bytes; nothing was written", bounds.limit),
            ));
        }
        match first {
            None => first = Some(begin),
            Some(_) => out.push_str(&content[last..begin]),
        }
        let mut block = indented(&replace_lines, &indent).join("\n");
        if !new.is_empty() && window[window.len() - 1].ends_with('\n') && !block.ends_with('\n') {
            block.push('\n');
        }
        out.push_str(&block);
        last = starts[i + want.len()];
    }
    Ok(first.map(|f| (f, last, out, n)))
}

/// The bytes of [`indented`]'s lines joined: `rest` bytes and `lines` non-blank lines, each given
/// the target indentation.
struct BlockSize {
    rest: usize,
    lines: usize,
}

impl BlockSize {
    fn of(lines: &[&str]) -> Self {
        let reference = lines
            .first()
            .map_or(0, |l| l.len() - l.trim_start_matches([' ', '\t']).len());
        let kept = lines.iter().filter(|l| !l.trim().is_empty());
        BlockSize {
            // An upper bound: a line keeps at most what follows the reference indentation's length
            // or its own trimmed start, whichever is longer.
            rest: kept
                .clone()
                .map(|l| l.len().saturating_sub(reference).max(l.trim_start().len()))
                .sum::<usize>()
                + lines.len(),
            lines: kept.count(),
        }
    }

    fn with(&self, indent: usize) -> usize {
        self.rest + self.lines * indent
    }
}

/// The starts of the leftmost non-overlapping windows of `lines` whose trimmed lines equal `want`,
/// as Gemini's scan finds them, by Knuth-Morris-Pratt over lines: linear in the lines where
/// comparing every window whole was quadratic (23 s past a one-second deadline for 65,000 blank
/// lines). The deadline is looked at every [`LINES_PER_CHECK`] lines.
fn windows(lines: &[&str], want: &[&str], deadline: &Deadline) -> Result<Vec<usize>, Error> {
    let mut windows = LineWindows::new(want);
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if i % LINES_PER_CHECK == 0 && i > 0 && deadline.expired() {
            return Err(Error::new(
                ErrorCode::TooLarge,
                "the whitespace-tolerant match could not finish within the call's time budget; nothing was written; give the exact text",
            ));
        }
        if windows.push(line.trim()) {
            found.push(i + 1 - want.len());
            // Non-overlapping: the next window starts after this one.
            windows.restart();
        }
    }
    Ok(found)
}

/// Gemini CLI's `applyIndentation`: the first line's indentation is replaced by `target` on every
/// line that starts with it; other lines get `target` before their trimmed start; blank lines are
/// emptied.
fn indented(lines: &[&str], target: &str) -> Vec<String> {
    let reference: &str = lines.first().map_or("", |l| {
        let n = l.len() - l.trim_start_matches([' ', '\t']).len();
        &l[..n]
    });
    lines
        .iter()
        .map(|l| {
            if l.trim().is_empty() {
                String::new()
            } else if let Some(rest) = l.strip_prefix(reference) {
                format!("{target}{rest}")
            } else {
                format!("{target}{}", l.trim_start())
            }
        })
        .collect()
}
