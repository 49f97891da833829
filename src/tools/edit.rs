//! edit_file: exact-text replacement in a file under the write root, applied atomically.
//!
//! The file is read through its directory handle (never by path), the replacements are applied in
//! memory, and the result is published like write_file's (a temporary file beside the target, synced,
//! renamed over it). The rename is refused when the file changed since it was read (identity, size,
//! modification time and content), so a concurrent writer's update is not lost; the one window left,
//! a write by name between the swap and its undo, is described at the core's `swap_if_unchanged`.
//! The encoding (a UTF-16 file is matched as read_file decodes it and written back in UTF-16), line
//! endings, a byte-order mark and the permission bits are kept: see [`crate::tools::edit_form`].

use crate::core::audit::Fields;
use crate::core::deadline::Deadline;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::mutate::{self, Dest, Existing};
use crate::core::open::Kind;
use crate::engine::Engine as Sandbox;
use crate::engine::Within;
use crate::tools::edit_form::{legacy, Decoded, Form};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// One replacement of an `edits` list.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Edit {
    /// The exact text to find (as read_file shows it: a CRLF file's lines match with LF).
    pub old_string: String,
    /// The text to put in its place.
    pub new_string: String,
    /// Replace every occurrence instead of requiring exactly one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replace_all: Option<bool>,
}

/// Arguments of `edit_file`: one replacement (`old_string`/`new_string`) or an `edits` list applied in
/// order, all or nothing.
///
/// ```
/// use rootbound::{EditArgs, Sandbox, WritePolicy};
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("a.txt"), "hello world\n").unwrap();
/// let mut w = WritePolicy::new(dir.path());
/// w.allow_overwrite = true;
/// // Editing needs the write root to be readable (here it is also the read root).
/// let sb = Sandbox::builder().root(dir.path()).write(w).build().unwrap();
/// let r = sb.edit_file(&EditArgs::replace("a.txt", "world", "there")).unwrap();
/// assert_eq!(r.replacements, 1);
/// assert_eq!(std::fs::read_to_string(dir.path().join("a.txt")).unwrap(), "hello there\n");
/// ```
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct EditArgs {
    /// Path relative to the write root (or absolute inside it).
    pub path: String,
    /// The exact text to find. Empty with a file that does not exist: create it with `new_string`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_string: Option<String>,
    /// The replacement text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_string: Option<String>,
    /// Replace every occurrence (default: `old_string` must occur exactly once).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replace_all: Option<bool>,
    /// The number of occurrences expected (all are replaced); a different count is an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_replacements: Option<u64>,
    /// Several replacements applied in order, all or nothing (instead of `old_string`/`new_string`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edits: Option<Vec<Edit>>,
    /// Compute the result and the diff without writing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
}

impl EditArgs {
    /// One replacement of `old` by `new` in `path`.
    pub fn replace(path: &str, old: &str, new: &str) -> Self {
        EditArgs {
            path: path.into(),
            old_string: Some(old.into()),
            new_string: Some(new.into()),
            ..Default::default()
        }
    }
}

/// The result of `edit_file`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[non_exhaustive]
pub struct EditResult {
    /// The path edited (displayed like write_file's).
    pub path: String,
    /// Occurrences replaced, over all edits.
    pub replacements: u64,
    /// The file's size after the edit, in bytes.
    pub size: u64,
    /// The file did not exist and was created (empty `old_string`).
    pub created: bool,
    /// Nothing was written (`dry_run`).
    pub dry_run: bool,
    /// A unified diff of the change (cut with a marker past the policy's `max_bytes`). Omitted when
    /// the write root is not also readable, so an edit never reads out what reading may not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// read_file's name of the file's encoding when it is not plain UTF-8: `utf-16le`/`utf-16be`
    /// (old_string matched against the decoded text, the result written back in that encoding with
    /// its byte-order mark), `utf-8-lossy` (bytes that are not UTF-8 are kept as they were and shown
    /// in the diff as Windows-1252; new text is written as UTF-8), or `binary`. Omitted for UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
}

impl Within<'_> {
    /// Replaces exact text in a file under the write root; see [`EditArgs`].
    ///
    /// Modifying an existing file needs the policy's `allow_overwrite` (the edit call itself is the
    /// second approval); creating one with an empty `old_string` follows write_file's create-only rules.
    pub fn edit_file(&self, args: &EditArgs) -> Result<EditResult> {
        self.edit_file_with_context(args, DIFF_CONTEXT)
    }

    /// [`Within::edit_file`] with `context` unchanged lines around each change in the diff (a
    /// dialect's own: the MCP reference server's jsdiff writes 4).
    pub(crate) fn edit_file_with_context(
        &self,
        args: &EditArgs,
        context: usize,
    ) -> Result<EditResult> {
        self.audited(
            "edit_file",
            Some(&args.path),
            || {
                self.edit_inner(args, context)
                    .map(|(r, rel)| (r, Some(rel.display().to_string())))
            },
            |r| Fields::ok(r.size, r.replacements, false),
        )
    }

    fn edit_inner(
        &self,
        args: &EditArgs,
        context: usize,
    ) -> Result<(EditResult, std::path::PathBuf)> {
        if !self.write_root_readable() {
            return Err(Error::new(
                ErrorCode::Denied,
                "edit_file needs a readable write root (inside a read root, with no deny rule over \
                 it): whether old_string matches would reveal the file; use write_file",
            ));
        }
        let edits = edit_list(args)?;
        // The edits, the hint and the diff share the call's one budget.
        let deadline = self.deadline(None);
        let (_, policy) = self.write_root()?;
        let raw = args.path.as_str();
        let dry = args.dry_run.unwrap_or(false);
        let creating = matches!(edits.as_slice(), [e] if e.old_string.is_empty());
        // Only a file the read tools could read may be edited: `edit_target` refuses the others.
        let t = match self.edit_target(raw) {
            // The file's directory is missing: a create makes it, as write_file does.
            Err(e) if e.code == ErrorCode::NotFound && creating && policy.create_parents => {
                return self.edit_create(args, &edits, None, dry, &deadline, context);
            }
            r => r?,
        };
        let existing = self.existing(&t, raw)?;
        let Some(Existing { kind, perm, .. }) = existing else {
            return self.edit_create(args, &edits, Some(t), dry, &deadline, context);
        };
        if kind != Kind::File {
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!("'{raw}' is not a regular file (a directory, symbolic link or device); edit the file itself"),
            ));
        }
        if !policy.allow_overwrite {
            return Err(Error::new(
                ErrorCode::Denied,
                format!("'{raw}' exists and this sandbox's policy does not allow changing existing files"),
            ));
        }
        let (before, stat) = self.read_for_edit(&t, raw, policy.max_write_bytes)?;
        let Decoded { form, body } = Form::decode(&before, raw)?;
        let room = Room {
            body: form.room(policy.max_write_bytes),
            said: policy.max_write_bytes,
        };
        let (after_body, replacements) = apply(&body, &edits, &form, args, raw, room, &deadline)?;
        let size = form.stored_len(&after_body);
        if size > policy.max_write_bytes {
            return Err(Error::new(
                ErrorCode::TooLarge,
                format!("the edited '{raw}' would be {size} bytes, over the write limit of {} bytes; nothing was written", policy.max_write_bytes),
            ));
        }
        let after = form.store(&after_body);
        if !dry {
            let read = mutate::Unchanged {
                stat: &stat,
                bytes: &before,
            };
            self.sweep_stale_temps(&t);
            mutate::publish(&t, &after, true, Some(perm), raw, Some(read))?;
        }
        let result = EditResult {
            path: self.shown(&t.rel),
            replacements,
            size: after.len() as u64,
            created: false,
            dry_run: dry,
            diff: self.edit_diff(
                (
                    &form.shown(&body, &before),
                    &form.shown(&after_body, &after),
                ),
                &t.rel,
                &deadline,
                context,
            ),
            encoding: form.note.map(str::to_string),
        };
        Ok((result, t.rel))
    }

    /// An empty `old_string` on a file that does not exist creates it (`t`: its directory's handle,
    /// `None` when the directory is still to be made).
    fn edit_create(
        &self,
        args: &EditArgs,
        edits: &[Edit],
        t: Option<Dest>,
        dry: bool,
        deadline: &Deadline,
        context: usize,
    ) -> Result<(EditResult, std::path::PathBuf)> {
        let raw = args.path.as_str();
        let content = match edits {
            [e] if e.old_string.is_empty() => e.new_string.as_bytes(),
            _ => {
                return Err(Error::new(
                    ErrorCode::NotFound,
                    format!("'{raw}' does not exist; to create it, give an empty old_string and the content as new_string"),
                ))
            }
        };
        let (_, policy) = self.write_root()?;
        if content.len() as u64 > policy.max_write_bytes {
            return Err(Error::new(
                ErrorCode::TooLarge,
                format!(
                    "new_string is {} bytes, over the write limit of {} bytes; nothing was written",
                    content.len(),
                    policy.max_write_bytes
                ),
            ));
        }
        let rel = match (t, dry) {
            (Some(t), true) => t.rel,
            // A dry run makes no directory: the path as requested (already checked lexically).
            (None, true) => {
                let (parent, name) = self.split_request(raw)?;
                crate::core::open::lexical(&parent.join(name.as_os_str()))
            }
            (t, false) => {
                let t = match t {
                    Some(t) => t,
                    None => self.target(raw, true)?,
                };
                self.sweep_stale_temps(&t);
                mutate::publish(&t, content, false, None, raw, None)?;
                t.rel
            }
        };
        let result = EditResult {
            path: self.shown(&rel),
            replacements: 0,
            size: content.len() as u64,
            created: true,
            dry_run: dry,
            diff: self.edit_diff(("", &legacy(content)), &rel, deadline, context),
            encoding: None,
        };
        Ok((result, rel))
    }

    /// The diff edit_file would show of `before` to `after` (`--- a/`/`+++ b/` without a name), for
    /// a dialect whose edit is written another way; empty when the write root may not be read.
    pub(crate) fn edit_diff_text(&self, before: &[u8], after: &[u8], context: usize) -> String {
        let deadline = self.deadline(None);
        let (a, b) = (legacy(before), legacy(after));
        self.edit_diff((&a, &b), std::path::Path::new(""), &deadline, context)
            .unwrap_or_default()
    }

    /// The unified diff shown with an edit, when the write root's content may be read at all: diffed
    /// within what is left of the call's budget (past it, `similar` gives a coarser diff at once),
    /// and rendered hunk by hunk up to the byte cap, with `context` unchanged lines around each
    /// change.
    fn edit_diff(
        &self,
        (before, after): (&str, &str),
        rel: &std::path::Path,
        deadline: &Deadline,
        context: usize,
    ) -> Option<String> {
        if !self.write_root_readable() {
            return None;
        }
        if deadline.expired() {
            // Even a coarse diff hashes every line of both texts first (0.1-0.8 s for 4 MB).
            return Some("[diff not shown: the call's time budget is spent]\n".into());
        }
        let name = crate::core::names::escape_path(rel);
        let diff = similar::TextDiff::configure()
            .deadline(Instant::now() + deadline.remaining())
            .diff_lines(before, after);
        let cap = self.policy().limits.max_bytes.max(256);
        let mut text = String::new();
        let mut unified = diff.unified_diff();
        unified.context_radius(context);
        let mut more = false;
        for hunk in unified.iter_hunks() {
            if text.is_empty() {
                text = format!("--- a/{name}\n+++ b/{name}\n");
            }
            // Written through a writer that fails past the cap: a coarse diff (the budget spent)
            // can be one hunk of the whole file, never rendered whole.
            let mut w = CappedText(&mut text, cap);
            if std::fmt::Write::write_fmt(&mut w, format_args!("{hunk}")).is_err() {
                more = true;
                break;
            }
        }
        if text.len() <= cap && !more {
            return Some(text);
        }
        let mut cut = cap;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let all = if more {
            format!("more than {cap} bytes")
        } else {
            format!("{} bytes in all", text.len())
        };
        Some(format!("{}\n[diff truncated: {all}]\n", &text[..cut]))
    }
}

/// Unchanged lines shown around each change in edit_file's diff.
const DIFF_CONTEXT: usize = 3;

/// A text that takes writes until it is over `.1` bytes, then fails them.
struct CappedText<'a>(&'a mut String, usize);

impl std::fmt::Write for CappedText<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if self.0.len() > self.1 {
            return Err(std::fmt::Error);
        }
        self.0.push_str(s);
        Ok(())
    }
}

/// The edits a call asks for: `old_string`/`new_string`, or `edits`, not both.
fn edit_list(args: &EditArgs) -> Result<Vec<Edit>> {
    match (&args.old_string, &args.new_string, &args.edits) {
        (Some(old), Some(new), None) => Ok(vec![Edit {
            old_string: old.clone(),
            new_string: new.clone(),
            replace_all: args.replace_all,
        }]),
        (None, None, Some(list)) if !list.is_empty() => {
            if args.replace_all.is_some() || args.expected_replacements.is_some() {
                return Err(Error::invalid(
                    "with edits, give replace_all inside each edit; expected_replacements applies to a single old_string",
                ));
            }
            Ok(list.clone())
        }
        (None, None, Some(_)) => Err(Error::invalid("edits is empty; give at least one edit")),
        (_, _, Some(_)) => Err(Error::invalid(
            "give either old_string/new_string or edits, not both",
        )),
        _ => Err(Error::invalid(
            "give old_string and new_string (or an edits list)",
        )),
    }
}

/// Line numbers an error's `lines` detail gives at most (the message gives the count).
const MAX_DETAIL_LINES: usize = 100;

/// How large an edited body may grow: `body` bytes of text (past them the stored file is surely over
/// the write limit), `said` the write limit an error names.
#[derive(Clone, Copy)]
struct Room {
    body: u64,
    said: u64,
}

/// Applies the edits in order to `body`; every edit must match as required, or nothing changes. A
/// result over `room` is refused before it is built (many matches of a short text replaced by a
/// long one would otherwise need a buffer of their product).
fn apply(
    body: &[u8],
    edits: &[Edit],
    form: &Form,
    args: &EditArgs,
    raw: &str,
    room: Room,
    deadline: &Deadline,
) -> Result<(Vec<u8>, u64)> {
    let mut cur = body.to_vec();
    let mut total = 0;
    for (i, e) in edits.iter().enumerate() {
        // Each edit copies the file once: many edits of a large file are bounded by the budget
        // (one edit is always tried: it is bounded by the write limit).
        if i > 0 && deadline.expired() {
            return Err(Error::new(
                ErrorCode::TooLarge,
                format!(
                    "the {} edits of '{raw}' could not be applied within the call's time budget ({i} were); nothing was written; send fewer edits per call",
                    edits.len()
                ),
            ));
        }
        let which = if edits.len() > 1 {
            format!("edit {} of {}: ", i + 1, edits.len())
        } else {
            String::new()
        };
        if e.old_string.is_empty() {
            return Err(Error::new(
                ErrorCode::AlreadyExists,
                format!("{which}old_string is empty but '{raw}' exists; give the text to replace"),
            ));
        }
        let old = form.encode(&e.old_string);
        let new = form.encode(&e.new_string);
        let at: Vec<usize> = memchr::memmem::find_iter(&cur, &old).collect();
        let all = e.replace_all.unwrap_or(false) || args.expected_replacements.is_some();
        if at.is_empty() {
            let near = closest_line(&cur, &e.old_string, deadline);
            let mut err = Error::new(
                ErrorCode::NotFound,
                format!(
                    "{which}old_string was not found in '{raw}'{}; read the file again and copy the text exactly (whitespace and line breaks included)",
                    near.map(|n| format!(" (line {n} is the closest)")).unwrap_or_default()
                ),
            );
            if let Some(n) = near {
                err = err.with_detail("closest_line", n);
            }
            return Err(err);
        }
        if let Some(want) = args.expected_replacements {
            if at.len() as u64 != want {
                return Err(Error::invalid(format!(
                    "{which}old_string occurs {} times in '{raw}', not the expected {want}",
                    at.len()
                ))
                .with_detail(
                    "lines",
                    line_numbers(&cur, &at[..at.len().min(MAX_DETAIL_LINES)]),
                ));
            }
        } else if at.len() > 1 && !all {
            let lines = line_numbers(&cur, &at[..at.len().min(MAX_DETAIL_LINES)]);
            return Err(Error::invalid(format!(
                "{which}old_string occurs {} times in '{raw}' (lines {}); add surrounding text to make it unique, or set replace_all",
                at.len(),
                lines.iter().take(20).map(u64::to_string).collect::<Vec<_>>().join(", ")
                    + if at.len() > 20 { ", ..." } else { "" }
            ))
            .with_detail("lines", lines));
        }
        let size = (cur.len() as u128 - (at.len() * old.len()) as u128)
            + at.len() as u128 * new.len() as u128;
        if size > u128::from(room.body) {
            return Err(Error::new(
                ErrorCode::TooLarge,
                format!("{which}the edited '{raw}' would be over the write limit of {} bytes; nothing was written", room.said),
            ));
        }
        let mut next = Vec::with_capacity(size as usize);
        let mut last = 0;
        for &p in &at {
            next.extend_from_slice(&cur[last..p]);
            next.extend_from_slice(&new);
            last = p + old.len();
        }
        next.extend_from_slice(&cur[last..]);
        total += at.len() as u64;
        cur = next;
    }
    Ok((cur, total))
}

/// The closest-line hint looks at this many words of `old_string`, this many bytes of each line, and
/// gives up after this many milliseconds (or the call's deadline, if sooner).
const MAX_HINT_WORDS: usize = 32;
const MAX_HINT_LINE: usize = 4096;
const HINT_MS: u64 = 200;

/// 1-based line numbers of byte offsets (sorted).
fn line_numbers(text: &[u8], at: &[usize]) -> Vec<u64> {
    let mut out = Vec::with_capacity(at.len());
    let (mut line, mut pos) = (1u64, 0usize);
    for &p in at {
        line += memchr::memchr_iter(b'\n', &text[pos..p]).count() as u64;
        pos = p;
        out.push(line);
    }
    out
}

/// The line most like the first non-blank line of `old` (equal when trimmed, else the most shared
/// identifier-like words), for a hint that names a line number and no content.
fn closest_line(text: &[u8], old: &str, call: &Deadline) -> Option<u64> {
    let first = old.lines().find(|l| !l.trim().is_empty())?.trim();
    // Bounded whatever the agent sends: a few words, the head of each line, and the call's time.
    let words: Vec<&str> = first
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .take(MAX_HINT_WORDS)
        .collect();
    let deadline = call.cut(Duration::from_millis(HINT_MS));
    let mut best: Option<(usize, u64)> = None;
    for (i, line) in text.split(|&b| b == b'\n').enumerate() {
        if i % 1024 == 0 && deadline.expired() {
            return None;
        }
        let line = String::from_utf8_lossy(&line[..line.len().min(MAX_HINT_LINE)]);
        let line = line.trim();
        let score = if line == first {
            usize::MAX
        } else {
            words.iter().filter(|w| line.contains(*w)).count()
        };
        if score > 0 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, i as u64 + 1));
        }
    }
    best.map(|(_, n)| n)
}

/// The row of edit_file.
pub(crate) struct EditFile;

impl crate::tools::tool::Tool for EditFile {
    const NAME: &'static str = "edit_file";
    const TITLE: &'static str = "Edit file";
    const WRITES: bool = true;
    const UNSET: crate::tools::args::Unset = &["expected_replacements", "edits"];
    const ONE_OBJECT: bool = true;
    type Args = EditArgs;
    type Output = EditResult;

    fn run(w: &Within<'_>, args: &EditArgs) -> Result<EditResult> {
        w.edit_file(args)
    }

    fn describe(sb: &Sandbox) -> String {
        format!(
            "Replace exact text in a file under the write root ({}): old_string must occur exactly once \
             (or set replace_all / expected_replacements); or give edits, a list applied in order, all or nothing. \
             Match the text as read_file shows it; the encoding (UTF-16 too), line endings, a BOM and the file mode are kept. An empty \
             old_string creates a missing file. dry_run shows the diff without writing. {}",
            sb.write_root_said(),
            if sb.allows_overwrite() {
                "Changing existing files is allowed."
            } else {
                "This sandbox does not allow changing existing files: only creating new ones."
            }
        )
    }

    fn render(out: &EditResult) -> String {
        edit_text(out)
    }

    fn prepare(args: serde_json::Value) -> serde_json::Value {
        crate::tools::args::edit_pairs(args)
    }

    /// Whether old_string matches (and the closest line, the diff) tells what the file holds:
    /// editing is offered only where the agent could read it anyway.
    fn withheld(sb: &Sandbox) -> Option<&'static str> {
        (!sb.core().write_root_readable()).then_some(
            "tool 'edit_file' is not enabled: the write root is not readable (it is not inside a \
             read root, or a deny rule covers it), and an edit would reveal what the file holds; \
             use write_file",
        )
    }

    fn destructive(sb: &Sandbox) -> bool {
        sb.allows_overwrite()
    }
}

/// What an edit's text answer says of a file that is not plain UTF-8.
pub(crate) fn encoding_note(r: &EditResult) -> Option<String> {
    match r.encoding.as_deref()? {
        e @ ("utf-16le" | "utf-16be") => Some(format!(
            "(the file is {e}: matched as decoded, written back in {e} with its byte-order mark)"
        )),
        "utf-8-lossy" => Some(
            "(the file is not valid UTF-8: its other bytes are kept as they were and shown in the \
             diff as Windows-1252; the new text is written as UTF-8)"
                .into(),
        ),
        _ => None,
    }
}

/// `changed PATH (...)` and the diff.
pub fn edit_text(r: &EditResult) -> String {
    let verb = if r.dry_run { "would change" } else { "changed" };
    let mut out = format!(
        "{verb} {} ({} replacement(s), {} bytes now)\n",
        r.path, r.replacements, r.size
    );
    if let Some(note) = encoding_note(r) {
        out.push_str(&note);
        out.push('\n');
    }
    if let Some(d) = &r.diff {
        out.push_str(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_line_names_a_number() {
        let text = b"fn main() {\n    println!(\"hi\");\n}\n";
        assert_eq!(
            closest_line(
                text,
                "println!(\"bye\");",
                &Deadline::detached(Duration::from_secs(5))
            ),
            Some(2)
        );
        assert_eq!(
            closest_line(text, "zzz", &Deadline::detached(Duration::from_secs(5))),
            None
        );
        assert_eq!(line_numbers(b"a\nb\na\n", &[0, 4]), vec![1, 3]);
    }
}
