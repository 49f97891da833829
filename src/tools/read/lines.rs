//! read_file's line mode: numbered pages of whole lines, head and tail, with long lines cut.

use super::encoding::Enc;
use super::{ReadArgs, ReadResult, CHUNK, DEFAULT_MAX_LINES};
use crate::core::deadline::Deadline;
use crate::core::error::{Error, Result};
use crate::core::io::pread_exact;
use crate::core::open::Opened;
use crate::engine::Within;

impl Within<'_> {
    pub(super) fn read_lines(
        &self,
        file: &Opened,
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
        let mut lines = LineReader::new(file, deadline);
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
    pub(super) fn read_tail(
        &self,
        file: &Opened,
        n: u64,
        args: &ReadArgs,
        enc: Enc,
        cap: u64,
        deadline: &Deadline,
        out: &mut ReadResult,
    ) -> Result<()> {
        no_utf16_lines(enc)?;
        let numbers = args.line_numbers.unwrap_or(false);
        let start = tail_start(file, out.total_bytes, n, deadline)?;
        let first_line = match start {
            Some(at) if numbers => count_lines(file, at, deadline)?,
            Some(_) => Some(1),
            None => None,
        };
        let (Some(start), Some(first_line)) = (start, first_line) else {
            out.truncated = true;
            out.timed_out = true;
            return Ok(());
        };
        let mut lines = LineReader::new(file, deadline);
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
        let line_cap = self.policy().limits.max_line_chars.max(1);
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
            // A newline the file does not have at its end is not added.
            let nl = if line.newline { "\n" } else { "" };
            let rendered = if numbers {
                format!("{:>6}\t{text}{nl}", save.1)
            } else {
                format!("{text}{nl}")
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

pub(super) fn no_utf16_lines(enc: Enc) -> Result<()> {
    if matches!(enc, Enc::Utf16Le | Enc::Utf16Be) {
        return Err(Error::invalid(
            "line mode is not supported for UTF-16 files; page with offset/limit instead",
        ));
    }
    Ok(())
}

/// The offset where the last `n` lines of a `total`-byte file start, reading backwards in blocks
/// (`None`: the deadline passed). A final newline ends the last line; it does not start another.
fn tail_start(file: &Opened, total: u64, n: u64, deadline: &Deadline) -> Result<Option<u64>> {
    let mut end = total;
    let mut seen = 0u64;
    let mut first = true;
    while end > 0 {
        if deadline.expired() {
            return Ok(None);
        }
        let start = end.saturating_sub(CHUNK as u64);
        let mut block = pread_exact(file, start, (end - start) as usize)?;
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
pub(super) fn count_lines(file: &Opened, offset: u64, deadline: &Deadline) -> Result<Option<u64>> {
    let mut pos = 0;
    let mut lines = 1;
    while pos < offset {
        if deadline.expired() {
            return Ok(None);
        }
        let want = (offset - pos).min(CHUNK as u64 * 4) as usize;
        let block = pread_exact(file, pos, want)?;
        if block.is_empty() {
            break;
        }
        lines += memchr::memchr_iter(b'\n', &block).count() as u64;
        pos += block.len() as u64;
    }
    Ok(Some(lines))
}

/// One line as read: its first bytes (up to a cap), its full length, and whether it ended with `\n`.
pub(super) struct Line {
    pub(super) head: Vec<u8>,
    pub(super) len: u64,
    /// The line ended with `\n` (the last line of a file may not).
    pub(super) newline: bool,
}

pub(super) fn render_line(line: &Line, cap_chars: usize, lossy: &mut bool) -> String {
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
    file: &'a Opened,
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
    fn new(file: &'a Opened, deadline: &'a Deadline) -> Self {
        LineReader {
            file,
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
            self.buf = pread_exact(self.file, self.pos, CHUNK)?;
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
            newline: false,
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
                line.newline = true;
                return Ok(Some(line));
            }
        }
    }
}
