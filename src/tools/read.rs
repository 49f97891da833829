//! read_file: byte pages that reassemble to the file, line pages for people and models, encodings.

use crate::core::audit::Fields;
use crate::core::deadline::Deadline;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::io::pread_exact;
use crate::core::open::{Kind, Want};
use crate::core::sandbox::Sandbox;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::os::fd::OwnedFd;
use std::time::Duration;

/// Arguments of `read_file`. Byte mode uses `offset`/`limit`; line mode starts when `start_line` or
/// `max_lines` is given.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
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

    /// The notice the text front ends append when a bound cut a document's extraction.
    pub fn extraction_notice(&self) -> Option<String> {
        let d = self.document.as_ref().filter(|d| d.extraction_truncated)?;
        Some(format!(
            "[document extraction stopped early ({}); the text is incomplete]",
            d.truncated_reason.as_deref().unwrap_or("bound")
        ))
    }
}

const SNIFF: usize = 8192;
const CHUNK: usize = 64 * 1024;
const DEFAULT_MAX_LINES: u64 = 2000;

impl Sandbox {
    /// Reads one page of a file. See the crate docs for the contract.
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
        let fd = &loc.opened.fd;
        let head = pread_exact(fd, 0, SNIFF.min(total as usize))?;
        let enc = sniff(&head);
        let mut out = ReadResult {
            path: self.display(loc.root, &loc.rel),
            total_bytes: total,
            encoding: enc.name().to_string(),
            ..Default::default()
        };
        let where_ = self.audit_path(loc.root, &loc.rel);
        #[cfg(feature = "documents")]
        if !args.raw.unwrap_or(false)
            && crate::documents::read::read_document(self, &loc, &head, args, &mut out)?
        {
            return Ok((out, where_));
        }
        if enc == Enc::Binary {
            out.binary = true;
            out.offset = args.offset.unwrap_or(0).min(total);
            out.next_offset = out.offset;
            return Ok((out, where_));
        }
        let cap = self.policy.limits.max_read_bytes.max(1);
        let line_mode = args.start_line.is_some()
            || args.max_lines.is_some()
            || args.line_numbers.is_some()
            || args.head_lines.is_some()
            || args.tail_lines.is_some();
        if line_mode {
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
            let deadline = Deadline::after(Duration::from_millis(self.policy.limits.timeout_ms));
            match args.tail_lines {
                Some(n) => self.read_tail(fd, n.max(1), args, enc, cap, &deadline, &mut out)?,
                None => self.read_lines(fd, args, enc, cap, &deadline, &mut out)?,
            }
        } else {
            let limit = args.limit.unwrap_or(cap).clamp(1, cap);
            read_bytes(fd, args.offset.unwrap_or(0), limit, enc, &mut out)?;
        }
        Ok((out, where_))
    }

    fn read_lines(
        &self,
        fd: &OwnedFd,
        args: &ReadArgs,
        enc: Enc,
        cap: u64,
        deadline: &Deadline,
        out: &mut ReadResult,
    ) -> Result<()> {
        let start_line = args.start_line.unwrap_or(1).max(1);
        let max_lines = args
            .head_lines
            .or(args.max_lines)
            .unwrap_or(DEFAULT_MAX_LINES)
            .max(1);
        let numbers = args.line_numbers.unwrap_or(false);
        no_utf16_lines(enc)?;
        let mut lines = LineReader::new(fd, deadline);
        let found = lines.skip_lines(start_line - 1)?;
        if lines.timed_out {
            // Cut while looking for the first line: an empty page; the same line can be asked for
            // again, or the file read on in byte mode from the last line start reached.
            out.offset = lines.line_start;
            out.next_offset = lines.line_start;
            out.start_line = Some(start_line);
            out.end_line = Some(start_line - 1);
            out.next_line = Some(start_line);
            out.truncated = true;
            out.timed_out = true;
            return Ok(());
        }
        if !found {
            // Past the end: an empty page.
            out.offset = out.total_bytes;
            out.next_offset = out.total_bytes;
            out.start_line = Some(start_line);
            out.end_line = Some(lines.line_no.saturating_sub(1));
            return Ok(());
        }
        out.offset = lines.pos;
        out.start_line = Some(start_line);
        self.collect_lines(&mut lines, start_line, max_lines, numbers, cap, out);
        Ok(())
    }

    /// The last `n` lines: their start is found by reading backwards from the end in blocks, so a
    /// huge file costs only its tail (and, with line numbers, a count of the lines before it).
    #[allow(clippy::too_many_arguments)]
    fn read_tail(
        &self,
        fd: &OwnedFd,
        n: u64,
        args: &ReadArgs,
        enc: Enc,
        cap: u64,
        deadline: &Deadline,
        out: &mut ReadResult,
    ) -> Result<()> {
        no_utf16_lines(enc)?;
        let numbers = args.line_numbers.unwrap_or(false);
        let start = tail_start(fd, out.total_bytes, n, deadline)?;
        let first_line = match start {
            Some(at) if numbers => count_lines(fd, at, deadline)?,
            Some(_) => Some(1),
            None => None,
        };
        let (Some(start), Some(first_line)) = (start, first_line) else {
            out.truncated = true;
            out.timed_out = true;
            return Ok(());
        };
        let mut lines = LineReader::new(fd, deadline);
        lines.pos = start;
        lines.buf_start = start;
        lines.line_start = start;
        lines.line_no = first_line;
        out.offset = start;
        self.collect_lines(&mut lines, first_line, n, numbers, cap, out);
        if !numbers {
            // Where these lines sit in the file was not counted.
            out.start_line = None;
            out.end_line = None;
            out.next_line = None;
        }
        Ok(())
    }

    /// Takes up to `max_lines` lines from `lines` into `out` under the byte cap.
    fn collect_lines(
        &self,
        lines: &mut LineReader<'_>,
        start_line: u64,
        max_lines: u64,
        numbers: bool,
        cap: u64,
        out: &mut ReadResult,
    ) {
        let line_cap = self.policy.limits.max_line_chars.max(1);
        out.start_line = Some(start_line);
        let mut content = String::new();
        let mut lossy = false;
        let mut n = 0u64;
        while n < max_lines {
            let save = (lines.pos, lines.line_no);
            let Ok(Some(line)) = lines.next_line(line_cap * 4) else {
                if lines.timed_out {
                    // Cut inside a line: the page ends before it.
                    lines.pos = save.0;
                    lines.line_no = save.1;
                }
                break;
            };
            let text = render_line(&line, line_cap, &mut lossy);
            let rendered = if numbers {
                format!("{:>6}\t{text}\n", save.1)
            } else {
                format!("{text}\n")
            };
            if n > 0 && (content.len() + rendered.len()) as u64 > cap {
                lines.pos = save.0;
                lines.line_no = save.1;
                break;
            }
            content.push_str(&rendered);
            n += 1;
        }
        out.content = content;
        out.end_line = Some(start_line + n - 1)
            .filter(|_| n > 0)
            .or(Some(start_line.saturating_sub(1)));
        out.next_offset = lines.pos;
        out.bytes_returned = lines.pos - out.offset;
        out.timed_out = lines.timed_out;
        out.truncated = lines.pos < out.total_bytes || lines.timed_out;
        out.next_line = out.truncated.then_some(start_line + n);
        if lossy {
            out.encoding = "utf-8-lossy".into();
        }
    }
}

fn no_utf16_lines(enc: Enc) -> Result<()> {
    if matches!(enc, Enc::Utf16Le | Enc::Utf16Be) {
        return Err(Error::invalid(
            "line mode is not supported for UTF-16 files; page with offset/limit instead",
        ));
    }
    Ok(())
}

/// The offset where the last `n` lines of a `total`-byte file start, reading backwards in blocks
/// (`None`: the deadline passed). A final newline ends the last line; it does not start another.
fn tail_start(fd: &OwnedFd, total: u64, n: u64, deadline: &Deadline) -> Result<Option<u64>> {
    let mut end = total;
    let mut seen = 0u64;
    let mut first = true;
    while end > 0 {
        if deadline.expired() {
            return Ok(None);
        }
        let start = end.saturating_sub(CHUNK as u64);
        let mut block = pread_exact(fd, start, (end - start) as usize)?;
        if first {
            if block.last() == Some(&b'\n') {
                block.pop();
            }
            first = false;
        }
        for i in memchr::memrchr_iter(b'\n', &block) {
            seen += 1;
            if seen == n {
                return Ok(Some(start + i as u64 + 1));
            }
        }
        end = start;
    }
    Ok(Some(0))
}

/// The number of the line starting at `offset` (1 + the newlines before it); `None` on the deadline.
fn count_lines(fd: &OwnedFd, offset: u64, deadline: &Deadline) -> Result<Option<u64>> {
    let mut pos = 0;
    let mut lines = 1;
    while pos < offset {
        if deadline.expired() {
            return Ok(None);
        }
        let want = (offset - pos).min(CHUNK as u64 * 4) as usize;
        let block = pread_exact(fd, pos, want)?;
        if block.is_empty() {
            break;
        }
        lines += memchr::memchr_iter(b'\n', &block).count() as u64;
        pos += block.len() as u64;
    }
    Ok(Some(lines))
}

/// One line as read: its first bytes (up to a cap), its full length, and whether it ended with `\n`.
struct Line {
    head: Vec<u8>,
    len: u64,
}

fn render_line(line: &Line, cap_chars: usize, lossy: &mut bool) -> String {
    let mut bytes: &[u8] = &line.head;
    if bytes.ends_with(b"\r") && line.len == line.head.len() as u64 {
        bytes = &bytes[..bytes.len() - 1];
    }
    let text = String::from_utf8_lossy(bytes);
    if matches!(text, std::borrow::Cow::Owned(_)) && line.len == line.head.len() as u64 {
        *lossy = true;
    }
    let mut chars = text.char_indices();
    match chars.nth(cap_chars) {
        Some((i, _)) => format!(
            "{} [... line truncated, {} bytes in all]",
            &text[..i],
            line.len
        ),
        None if line.len > line.head.len() as u64 => {
            format!(
                "{} [... line truncated, {} bytes in all]",
                text.trim_end_matches('\u{FFFD}'),
                line.len
            )
        }
        None => text.into_owned(),
    }
}

/// Streams lines from a descriptor with `pread`, keeping only a bounded head of each line.
struct LineReader<'a> {
    fd: &'a OwnedFd,
    deadline: &'a Deadline,
    buf: Vec<u8>,
    buf_start: u64,
    /// Absolute offset of the next unread byte.
    pos: u64,
    /// Number of the line that starts at `pos` (while skipping: the line being skipped).
    line_no: u64,
    /// Offset of the start of line `line_no`.
    line_start: u64,
    eof: bool,
    /// The deadline passed: reads stop as if at end of file.
    timed_out: bool,
}

impl<'a> LineReader<'a> {
    fn new(fd: &'a OwnedFd, deadline: &'a Deadline) -> Self {
        LineReader {
            fd,
            deadline,
            buf: Vec::new(),
            buf_start: 0,
            pos: 0,
            line_no: 1,
            line_start: 0,
            eof: false,
            timed_out: false,
        }
    }

    /// The unread part of the buffer, refilled when empty. Empty only at end of file, or once the
    /// deadline has passed (`timed_out`).
    fn fill(&mut self) -> Result<&[u8]> {
        let used = (self.pos - self.buf_start) as usize;
        if used >= self.buf.len() && !self.eof {
            if self.deadline.cancelled() {
                return Err(Error::cancelled());
            }
            if self.timed_out || self.deadline.expired() {
                self.timed_out = true;
                return Ok(&[]);
            }
            self.buf = pread_exact(self.fd, self.pos, CHUNK)?;
            self.buf_start = self.pos;
            self.eof = self.buf.is_empty();
        }
        let used = (self.pos - self.buf_start) as usize;
        Ok(&self.buf[used.min(self.buf.len())..])
    }

    /// Skips `n` lines; false when the file ends first.
    fn skip_lines(&mut self, mut n: u64) -> Result<bool> {
        while n > 0 {
            let chunk = self.fill()?;
            if chunk.is_empty() {
                return Ok(false);
            }
            let mut advanced = chunk.len();
            let mut seen = 0;
            let mut last_end = None;
            for i in memchr::memchr_iter(b'\n', chunk) {
                seen += 1;
                last_end = Some(i + 1);
                if seen == n {
                    advanced = i + 1;
                    break;
                }
            }
            n -= seen;
            self.line_no += seen;
            if let Some(e) = last_end {
                self.line_start = self.pos + e as u64;
            }
            self.pos += advanced as u64;
        }
        Ok(!self.fill()?.is_empty())
    }

    fn next_line(&mut self, head_cap: usize) -> Result<Option<Line>> {
        let mut line = Line {
            head: Vec::new(),
            len: 0,
        };
        loop {
            let chunk = self.fill()?;
            if chunk.is_empty() {
                if self.timed_out {
                    return Ok(None);
                }
                return Ok((line.len > 0).then_some(line));
            }
            let (take, done) = match memchr::memchr(b'\n', chunk) {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            let body = if done {
                &chunk[..take - 1]
            } else {
                &chunk[..take]
            };
            let room = head_cap.saturating_sub(line.head.len());
            line.head.extend_from_slice(&body[..body.len().min(room)]);
            line.len += body.len() as u64;
            self.pos += take as u64;
            if done {
                self.line_no += 1;
                return Ok(Some(line));
            }
        }
    }
}

/// The detected encoding of a file, from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Enc {
    Utf8,
    Utf16Le,
    Utf16Be,
    Binary,
}

impl Enc {
    fn name(self) -> &'static str {
        match self {
            Enc::Utf8 => "utf-8",
            Enc::Utf16Le => "utf-16le",
            Enc::Utf16Be => "utf-16be",
            Enc::Binary => "binary",
        }
    }
}

fn sniff(head: &[u8]) -> Enc {
    if head.starts_with(&[0xFF, 0xFE]) {
        Enc::Utf16Le
    } else if head.starts_with(&[0xFE, 0xFF]) {
        Enc::Utf16Be
    } else if memchr::memchr(0, head).is_some() {
        Enc::Binary
    } else {
        Enc::Utf8
    }
}

/// Byte mode: one page from `offset`, ending on a character boundary.
fn read_bytes(fd: &OwnedFd, offset: u64, limit: u64, enc: Enc, out: &mut ReadResult) -> Result<()> {
    let total = out.total_bytes;
    if offset >= total {
        out.offset = offset.min(total);
        out.next_offset = out.offset;
        return Ok(());
    }
    match enc {
        Enc::Utf16Le | Enc::Utf16Be => read_utf16(fd, offset, limit, enc, out),
        _ => read_utf8(fd, offset, limit, out),
    }
}

fn is_cont(b: u8) -> bool {
    b & 0xC0 == 0x80
}

fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

fn read_utf8(fd: &OwnedFd, offset: u64, limit: u64, out: &mut ReadResult) -> Result<()> {
    let total = out.total_bytes;
    // Snap a start inside a character back to its lead byte (at most 3 bytes), so content is whole text.
    // Only a continuation byte at `offset` means the offset is inside a character (a lead byte followed
    // by a non-continuation is an invalid sequence that the previous page already returned).
    let back = offset.min(3);
    let pre = pread_exact(fd, offset - back, back as usize + 1)?;
    let inside = pre.get(back as usize).is_some_and(|&b| is_cont(b));
    let lookback = if inside { back as usize } else { 0 };
    let mut start = offset;
    for (i, &b) in pre.iter().take(lookback).enumerate().rev() {
        if !is_cont(b) {
            let lead_at = offset - back + i as u64;
            if utf8_len(b) as u64 > offset - lead_at {
                start = lead_at;
            }
            break;
        }
    }
    // Read 3 spare bytes so a character cut by the limit can be completed when the page would be empty.
    let want = (limit + (offset - start)).min(total - start);
    let mut buf = pread_exact(fd, start, (want + 3).min(total - start) as usize)?;
    let mut end = (want as usize).min(buf.len());
    if end < buf.len() && is_cont(buf[end]) {
        // The limit cuts a character: end the page at its lead byte instead.
        let mut k = end;
        while k > 0 && is_cont(buf[k]) && end - k < 3 {
            k -= 1;
        }
        if !is_cont(buf[k]) {
            // A page must make progress: if the cut leaves nothing, return the whole first character
            // (only the continuation bytes that really follow its lead: in invalid UTF-8 the next
            // character may start sooner, and a page must not end inside it).
            end = if k > 0 {
                k
            } else {
                let n = utf8_len(buf[0]).min(buf.len());
                1 + buf[1..n].iter().take_while(|&&b| is_cont(b)).count()
            };
        }
    }
    buf.truncate(end);
    let (content, lossy) = match String::from_utf8(buf) {
        Ok(s) => (s, false),
        Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
    };
    out.content = content;
    out.offset = start;
    out.bytes_returned = end as u64;
    out.next_offset = start + end as u64;
    out.truncated = out.next_offset < total;
    if lossy {
        out.encoding = "utf-8-lossy".into();
    }
    Ok(())
}

fn read_utf16(fd: &OwnedFd, offset: u64, limit: u64, enc: Enc, out: &mut ReadResult) -> Result<()> {
    let total = out.total_bytes;
    let start = (offset.max(2)) & !1;
    let rest = total.saturating_sub(start);
    let want = (limit.max(2) & !1).min(rest);
    // Read 2 spare bytes so a surrogate pair cut by the limit can be completed.
    let buf = pread_exact(fd, start, (want + 2).min(rest) as usize)?;
    let mut len = (want as usize).min(buf.len()) & !1;
    let unit = |i: usize| match enc {
        Enc::Utf16Le => u16::from_le_bytes([buf[i], buf[i + 1]]),
        _ => u16::from_be_bytes([buf[i], buf[i + 1]]),
    };
    // Do not end a page between the two halves of a surrogate pair: leave the high half for the next
    // page or, when it is all this page has, take the pair whole (a page must make progress). A high
    // half not followed by a low one is a lone unit (U+FFFD), not a pair: it may end the page.
    if len >= 2
        && buf.len() >= len + 2
        && (0xD800..0xDC00).contains(&unit(len - 2))
        && (0xDC00..0xE000).contains(&unit(len))
    {
        len = if len > 2 { len - 2 } else { 4 };
    }
    let units: Vec<u16> = (0..len).step_by(2).map(unit).collect();
    out.content = char::decode_utf16(units)
        .map(|c| c.unwrap_or('\u{FFFD}'))
        .collect();
    let mut used = len as u64;
    // A stray last byte of an odd-length file is shown as U+FFFD and consumed, so paging ends.
    if buf.len() == len + 1 && start + used + 1 == total {
        out.content.push('\u{FFFD}');
        used += 1;
    }
    out.offset = start.min(total);
    out.bytes_returned = used;
    out.next_offset = start + used;
    out.truncated = out.next_offset < total;
    Ok(())
}

#[cfg(test)]
mod tests {
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
        };
        let mut lossy = false;
        let s = render_line(&line, 4, &mut lossy);
        assert!(s.starts_with("éééé [... line truncated"), "{s}");
        assert!(!lossy);
    }
}
