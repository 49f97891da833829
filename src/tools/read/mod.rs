//! read_file: byte pages that reassemble to the file, line pages for people and models, encodings.

use crate::core::audit::Fields;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::io::pread_exact;
use crate::core::open::{Kind, Opened, Want};
use crate::engine::Within;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[cfg(feature = "documents")]
mod document;
mod encoding;
mod lines;

use encoding::{read_bytes, sniff, Enc};

/// Arguments of `read_file`. Byte mode uses `offset`/`limit`; line mode starts when `start_line` or
/// `max_lines` is given.
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("a.txt"), "one\ntwo\nthree\n").unwrap();
/// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
/// let mut args = rootbound::ReadArgs::path("a.txt");
/// args.start_line = Some(2);
/// args.max_lines = Some(1);
/// assert_eq!(sb.read_file(&args).unwrap().content, "two\n");
/// ```
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ReadArgs {
    /// File path, relative to a root (tried in root order) or absolute inside a root.
    pub path: String,
    /// Byte mode: 0-based byte offset to start at (use `next_offset` from the previous page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// Byte mode: most bytes to return this call (capped by the policy, default 64 KiB).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// Line mode: 1-based first line to return.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u64>,
    /// Line mode: most lines to return (default 2000; the byte cap still applies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_lines: Option<u64>,
    /// Line mode: prefix each line with its number (`%6d\t`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_numbers: Option<bool>,
    /// Line mode: the first N lines (the same as `start_line: 1, max_lines: N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub head_lines: Option<u64>,
    /// Line mode: the last N lines, found by reading backwards from the end (with `line_numbers`,
    /// the lines before them are counted too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub tail_lines: Option<u64>,
    /// A document (PPTX, DOCX, XLSX, PDF, Jupyter .ipynb) is read as its extracted text; `raw: true`
    /// reads the file's own bytes instead (a zip or PDF is then `binary`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<bool>,
}

impl ReadArgs {
    /// Arguments for reading `path` from the start.
    pub fn path(path: &str) -> Self {
        ReadArgs {
            path: path.to_string(),
            ..Default::default()
        }
    }
}

/// The result of `read_file`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct ReadResult {
    /// The canonical path read (or root-relative, by policy).
    pub path: String,
    /// The text of the page.
    pub content: String,
    /// Bytes of the file this page covers.
    pub bytes_returned: u64,
    /// Byte offset where the page starts.
    pub offset: u64,
    /// Byte offset of the next page (a UTF-8 character boundary; a line start in line mode).
    pub next_offset: u64,
    /// File size when it was opened.
    pub total_bytes: u64,
    /// True whenever more content remains after this page.
    pub truncated: bool,
    /// `utf-8`, `utf-8-lossy`, `utf-16le`, `utf-16be`, or `binary`.
    pub encoding: String,
    /// True for a binary file (a NUL in the first 8 KiB): no content is returned.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub binary: bool,
    /// Line mode: first line returned (1-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u64>,
    /// Line mode: last line returned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u64>,
    /// Line mode: the line to ask for next, when more remain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_line: Option<u64>,
    /// Line mode: the time budget ran out. The page holds the whole lines read before it (possibly
    /// none), `truncated` is true, and `next_line`/`next_offset` say where to go on: the line after the
    /// last one returned and its byte offset, or, when the deadline came while looking for
    /// `start_line`, `start_line` again and the last line start reached (for byte mode).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
    /// Set when the file is a document read as extracted text (`encoding: "extracted:FORMAT"`):
    /// offsets, lines and `total_bytes` then count the extracted text, not the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<DocumentInfo>,
}

/// What read_file tells about a document it extracted.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct DocumentInfo {
    /// `pptx`, `docx`, `xlsx`, `pdf` or `ipynb`.
    pub format: String,
    /// Size of the file itself.
    pub file_bytes: u64,
    /// Parts (pages, slides, sheets, cells, headers...) marked `--- LABEL ---` in the text.
    pub parts: u64,
    /// Pictures and image outputs skipped.
    pub images_skipped: u64,
    /// A bound stopped the extraction: the text is what was extracted before it.
    pub extraction_truncated: bool,
    /// Why: `uncompressed_bytes`, `zip_entries`, `xml_depth`, `xml_elements`, `pdf_objects`,
    /// `stream_bytes`, `text_bytes`, `input_bytes`, `deadline`, `malformed: DETAIL` or
    /// `internal_error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated_reason: Option<String>,
}

impl ReadResult {
    /// The notice the text front ends append to a truncated page (and to a document whose
    /// extraction a bound cut, see [`ReadResult::extraction_notice`]).
    pub fn truncation_notice(&self) -> Option<String> {
        let extraction = self.extraction_notice();
        if !self.truncated {
            return extraction;
        }
        let mut s = if self.offset == 0 {
            format!(
                "[truncated: {} bytes total, returned first {}; next_offset={}",
                self.total_bytes, self.bytes_returned, self.next_offset
            )
        } else {
            format!(
                "[truncated: {} bytes total, returned {} from offset {}; next_offset={}",
                self.total_bytes, self.bytes_returned, self.offset, self.next_offset
            )
        };
        if let Some(n) = self.next_line {
            s.push_str(&format!("; next start_line={n}"));
        }
        if self.timed_out {
            s.push_str("; timed out");
        }
        s.push(']');
        if let Some(e) = extraction {
            s.push(' ');
            s.push_str(&e);
        }
        Some(s)
    }

    /// The notice the text front ends append when a bound or damage cut a document's extraction:
    /// that it failed when no text came out (never the empty text of an empty file), or that the
    /// text is incomplete.
    pub fn extraction_notice(&self) -> Option<String> {
        let d = self.document.as_ref().filter(|d| d.extraction_truncated)?;
        let why = d.truncated_reason.as_deref().unwrap_or("bound");
        Some(if self.total_bytes == 0 {
            format!(
                "[text extraction failed ({why}): no text could be extracted from this {} file]",
                d.format
            )
        } else {
            format!("[document extraction stopped early ({why}); the text is incomplete]")
        })
    }
}

/// Line mode takes one way to choose lines (head, tail, or start/max) and no byte range.
fn check_line_args(args: &ReadArgs) -> Result<()> {
    if args.offset.is_some() || args.limit.is_some() {
        return Err(Error::invalid(
            "use either offset/limit (byte mode) or start_line/max_lines (line mode), not both",
        ));
    }
    let ends = [
        args.head_lines,
        args.tail_lines,
        args.start_line.or(args.max_lines),
    ];
    if ends.iter().filter(|e| e.is_some()).count() > 1 {
        return Err(Error::invalid(
            "give one of head_lines, tail_lines, or start_line/max_lines",
        ));
    }
    Ok(())
}

const SNIFF: usize = 8192;
const CHUNK: usize = 64 * 1024;
const DEFAULT_MAX_LINES: u64 = 2000;

impl Within<'_> {
    /// Reads one page of a file (byte or line pages; see the [crate docs](crate#paging)).
    pub fn read_file(&self, args: &ReadArgs) -> Result<ReadResult> {
        self.audited(
            "read_file",
            Some(&args.path),
            || self.read_file_inner(args).map(|(r, p)| (r, Some(p))),
            |r| Fields {
                result: if r.timed_out { "timed_out" } else { "ok" },
                ..Fields::ok(r.bytes_returned, 0, r.truncated)
            },
        )
    }

    fn read_file_inner(&self, args: &ReadArgs) -> Result<(ReadResult, String)> {
        let loc = self.locate(&args.path, Want::Read)?;
        if loc.opened.kind() != Kind::File {
            let what = match loc.opened.kind() {
                Kind::Dir => "is a directory; use list_dir or glob",
                _ => "is not a regular file (FIFO, socket or device) and is never read",
            };
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!("'{}' {what}", args.path),
            ));
        }
        let total = loc.opened.stat.st_size.max(0) as u64;
        let file: &Opened = &loc.opened;
        let head = pread_exact(file, 0, SNIFF.min(total as usize))?;
        let enc = sniff(&head);
        let mut out = ReadResult {
            path: self.display(loc.root, &loc.rel),
            total_bytes: total,
            encoding: enc.name().to_string(),
            ..Default::default()
        };
        let where_ = self.audit_path(loc.root, &loc.rel);
        #[cfg(feature = "documents")]
        if !args.raw.unwrap_or(false) && document::read_document(self, &loc, &head, args, &mut out)?
        {
            return Ok((out, where_));
        }
        if enc == Enc::Binary {
            out.binary = true;
            out.offset = args.offset.unwrap_or(0).min(total);
            out.next_offset = out.offset;
            return Ok((out, where_));
        }
        let cap = self.policy().limits.max_read_bytes.max(1);
        let line_mode = args.start_line.is_some()
            || args.max_lines.is_some()
            || args.line_numbers.is_some()
            || args.head_lines.is_some()
            || args.tail_lines.is_some();
        if line_mode {
            check_line_args(args)?;
            let deadline = self.deadline(None);
            match args.tail_lines {
                Some(n) => self.read_tail(file, n.max(1), args, enc, cap, &deadline, &mut out)?,
                None => self.read_lines(file, args, enc, cap, &deadline, &mut out)?,
            }
        } else {
            let limit = args.limit.unwrap_or(cap).clamp(1, cap);
            read_bytes(file, args.offset.unwrap_or(0), limit, enc, &mut out)?;
        }
        Ok((out, where_))
    }
}

/// The row of read_file.
pub(crate) struct ReadFile;

impl crate::tools::tool::Tool for ReadFile {
    const NAME: &'static str = "read_file";
    const TITLE: &'static str = "Read file";
    const READS_CONTENT: bool = true;
    const ONE_OBJECT: bool = true;
    const UNSET: crate::tools::args::Unset = &[
        "offset",
        "limit",
        "start_line",
        "max_lines",
        "head_lines",
        "tail_lines",
    ];
    type Args = ReadArgs;
    type Output = ReadResult;

    fn run(w: &Within<'_>, args: &ReadArgs) -> Result<ReadResult> {
        w.read_file(args)
    }

    fn describe(sb: &crate::engine::Engine) -> String {
        format!(
            "Read a text file under the allowed roots ({}). Paths are relative to a root or absolute inside one. \
             Byte mode: offset/limit (at most {} bytes a call); when truncated is true, call again with offset=next_offset. \
             Line mode: start_line/max_lines, optional line_numbers; continue with start_line=next_line. \
             Binary files return binary=true and no content.{}",
            sb.roots_said(),
            sb.policy().limits.max_read_bytes,
            if cfg!(feature = "documents") {
                " Documents (PPTX, DOCX, XLSX, PDF, .ipynb) return their extracted text (encoding \
                 'extracted:FORMAT', markers like '--- slide 3 ---'), paged the same way; raw=true reads the \
                 file's bytes. document.truncated_reason says when a bound cut the extraction."
            } else {
                ""
            }
        )
    }

    fn render(out: &ReadResult) -> String {
        read_text(out)
    }
}

/// A read page: its text (or a binary placeholder), then the truncation notice when more remains.
pub fn read_text(r: &ReadResult) -> String {
    let mut out = if r.binary {
        format!("[binary file: {} bytes; content not shown]", r.total_bytes)
    } else {
        r.content.clone()
    };
    if let Some(notice) = r.truncation_notice() {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&notice);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::lines::{render_line, Line};
    use super::*;

    #[test]
    fn sniffing() {
        assert_eq!(sniff(b"hello"), Enc::Utf8);
        assert_eq!(sniff(b"a\0b"), Enc::Binary);
        assert_eq!(sniff(&[0xFF, 0xFE, b'a', 0]), Enc::Utf16Le);
        assert_eq!(sniff(&[0xFE, 0xFF, 0, b'a']), Enc::Utf16Be);
    }

    #[test]
    fn long_lines_are_cut_with_a_marker() {
        let line = Line {
            head: "é".repeat(10).into_bytes(),
            len: 20,
            newline: true,
        };
        let mut lossy = false;
        let s = render_line(&line, 4, &mut lossy);
        assert!(s.starts_with("éééé [... line truncated"), "{s}");
        assert!(!lossy);
    }
}
