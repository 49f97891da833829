//! edit_file as the reference answers it: the diff with jsdiff's context, the patch fence, and an
//! empty `oldText` that inserts at the start of the file (through the engine's edit).

use super::fuzzy::Stop;
use super::text::{whole_text, DIFF_CONTEXT};
use crate::core::error::{Error, ErrorCode};
use crate::engine::Within;
use crate::tools::api::Edit;
use crate::tools::api::EditArgs;
use crate::tools::api::StatArgs;

/// Whether `path` names something (anything the engine's stat reaches); other errors are the call's.
pub(super) fn exists(sb: &Within<'_>, path: &str) -> Result<bool, Error> {
    match sb.stat(&StatArgs {
        path: path.to_string(),
    }) {
        Ok(_) => Ok(true),
        Err(e) if e.code == ErrorCode::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// edit_file on an existing file whose edits include an empty `oldText`: the reference's
/// `content.replace('', newText)` puts `newText` at the start of the text as it is at that edit.
/// The engine refuses an empty old_string on an existing file, so the start is anchored: the file's
/// text is read whole (read_file, within `max_read_bytes`), a marker character that occurs in no text
/// of the call is put before it, each empty `oldText` becomes the marker (replaced by itself and
/// `newText`) and a last edit takes the marker out. That is one engine edit_file call, with all its
/// checks (write root, overwrite policy, all or nothing, the file unchanged since it was read). An
/// empty file has no text to anchor on: its edits are applied to the texts they insert and the
/// result written with the engine's write_file. Answers the engine's unified diff.
pub(super) fn insert_at_start(
    sb: &Within<'_>,
    path: &str,
    edits: Vec<Edit>,
    dry_run: Option<bool>,
) -> Result<String, Error> {
    let (text, _) = whole_text(sb, path)?;
    let text = text.as_str();
    if text.is_empty() {
        return insert_into_empty(sb, path, &edits, dry_run);
    }
    let used = private_use(
        std::iter::once(text).chain(
            edits
                .iter()
                .flat_map(|e| [e.old_string.as_str(), e.new_string.as_str()]),
        ),
    );
    let Some(mark) = ('\u{E000}'..='\u{F8FF}').find(|&c| !used[c as usize - 0xE000]) else {
        return Err(Error::invalid(
            "an empty oldText could not be placed (every private-use character occurs in the call); give the text to replace",
        ));
    };
    let m = mark.to_string();
    let n = edits.len();
    let edit = |old: String, new: String| Edit {
        old_string: old,
        new_string: new,
        replace_all: None,
    };
    let mut list = Vec::with_capacity(n + 2);
    list.push(edit(text.to_string(), format!("{m}{text}")));
    for e in edits {
        if e.old_string.is_empty() {
            list.push(edit(m.clone(), format!("{m}{}", e.new_string)));
        } else {
            list.push(e);
        }
    }
    list.push(edit(m, String::new()));
    let r = sb
        .edit_file_with_context(
            &EditArgs {
                path: path.to_string(),
                edits: Some(list),
                dry_run,
                ..Default::default()
            },
            DIFF_CONTEXT,
        )
        .map_err(|e| renumber(e, path, n))?;
    Ok(r.diff.unwrap_or_default())
}

/// Which characters of the private-use area U+E000..=U+F8FF occur in `texts`, found in one pass
/// over them (a search per character read a large call thousands of times past its deadline).
fn private_use<'a>(texts: impl Iterator<Item = &'a str>) -> Vec<bool> {
    let mut used = vec![false; 0x1900];
    for c in texts.flat_map(str::chars) {
        if ('\u{E000}'..='\u{F8FF}').contains(&c) {
            used[c as usize - 0xE000] = true;
        }
    }
    used
}

/// An engine error of [`insert_at_start`]'s edit list told in the call's own edits: `edit K of
/// N+2: ` becomes `edit K-1 of N: ` (no prefix for a single edit); a failure of the anchor (edit 1)
/// means the file changed after it was read.
fn renumber(mut e: Error, path: &str, n: usize) -> Error {
    let Some(rest) = e.message.strip_prefix("edit ") else {
        return e;
    };
    let Some((k, rest)) = rest.split_once(" of ") else {
        return e;
    };
    let Some(rest) = rest.strip_prefix(&format!("{}: ", n + 2)) else {
        return e;
    };
    let Ok(k) = k.parse::<usize>() else {
        return e;
    };
    e.message = if k == 1 {
        e.details = None;
        format!("'{path}' changed while it was being edited; nothing was written; read it again")
    } else if n == 1 {
        rest.to_string()
    } else {
        format!("edit {} of {n}: {rest}", k - 1)
    };
    e
}

/// [`insert_at_start`] on an empty file: each empty `oldText` puts its `newText` first, any other
/// must occur once (as the engine's rule) in the text inserted so far. Written with the engine's
/// write_file (replacing: the overwrite policy applies); as the reference, which reads then writes,
/// text written to the file between the read and the write is replaced.
fn insert_into_empty(
    sb: &Within<'_>,
    path: &str,
    edits: &[Edit],
    dry_run: Option<bool>,
) -> Result<String, Error> {
    let mut cur = String::new();
    let n = edits.len();
    let deadline = sb.deadline(None);
    let room = super::fuzzy::room(sb)?;
    for (i, e) in edits.iter().enumerate() {
        // Each edit copies the text: many edits are bounded by the call's time and the text by the
        // write limit, before it is built (as the engine's edit).
        if deadline.expired() {
            return Err(super::fuzzy::refusal(Stop::Expired(i), path, n, sb));
        }
        if cur.len() + e.new_string.len() > room {
            return Err(super::fuzzy::refusal(Stop::TooLarge(i), path, n, sb));
        }
        let which = if n > 1 {
            format!("edit {} of {n}: ", i + 1)
        } else {
            String::new()
        };
        if e.old_string.is_empty() {
            cur.insert_str(0, &e.new_string);
            continue;
        }
        match cur.matches(e.old_string.as_str()).count() {
            0 => {
                return Err(Error::new(
                    ErrorCode::NotFound,
                    format!("{which}old_string was not found in '{path}'; read the file again and copy the text exactly (whitespace and line breaks included)"),
                ))
            }
            1 => cur = cur.replacen(e.old_string.as_str(), &e.new_string, 1),
            k => {
                return Err(Error::invalid(format!(
                    "{which}old_string occurs {k} times in '{path}'; add surrounding text to make it unique"
                )))
            }
        }
    }
    let (_, policy) = sb.write_root()?;
    if cur.len() as u64 > policy.max_write_bytes {
        return Err(Error::new(
            ErrorCode::TooLarge,
            format!("the edited '{path}' would be {} bytes, over the write limit of {} bytes; nothing was written", cur.len(), policy.max_write_bytes),
        ));
    }
    if !dry_run.unwrap_or(false) {
        super::super::write_replacing(sb, path.to_string(), cur.clone())?;
    }
    Ok(sb.edit_diff_text(b"", cur.as_bytes(), DIFF_CONTEXT))
}

/// The engine's unified diff without its `--- a/..`/`+++ b/..` header, each hunk header in jsdiff's
/// form (`@@ -3,1 +3,1 @@`: the count is always written, where `similar` leaves out a count of 1).
pub(super) fn hunks(diff: &str) -> String {
    let mut out = String::with_capacity(diff.len() + 32);
    let mut header = true;
    for line in diff.split_inclusive('\n') {
        if header && (line.starts_with("--- ") || line.starts_with("+++ ")) {
            continue;
        }
        header = false;
        match line.strip_prefix("@@ -").and_then(|l| l.split_once(" @@")) {
            Some((ranges, rest)) => {
                let full = |r: &str| {
                    if r.contains(',') {
                        r.to_string()
                    } else {
                        format!("{r},1")
                    }
                };
                let (o, n) = ranges.split_once(" +").unwrap_or((ranges, "0,0"));
                out.push_str(&format!("@@ -{} +{} @@{rest}", full(o), full(n)));
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The reference's edit_file text: `createTwoFilesPatch(path, path, old, new, 'original',
/// 'modified')` in a ```` ```diff ```` fence of enough backticks, then a blank line.
pub(super) fn fenced_patch(path: &str, hunks: &str) -> String {
    let patch = format!(
        "Index: {path}\n{}\n--- {path}\toriginal\n+++ {path}\tmodified\n{hunks}",
        "=".repeat(67)
    );
    let mut ticks = 3;
    while patch.contains(&"`".repeat(ticks)) {
        ticks += 1;
    }
    let fence = "`".repeat(ticks);
    format!("{fence}diff\n{patch}{fence}\n\n")
}
