//! read_file on a document: the extracted text (cached), paged by the usual byte or line arguments.

use super::{DocumentInfo, ReadArgs, ReadResult};
use crate::core::deadline::Deadline;
use crate::core::error::{Error, Result};
use crate::core::io::pread_exact;
use crate::core::sandbox::{Located, Sandbox};
use crate::documents::{cached_extract, detect, refused, DocLimits, FileKey, Held, Reason};
use crate::engine::Within;
use std::os::unix::ffi::OsStrExt;

/// The extracted text of the opened file when it is a document (`None`: not a document).
pub(crate) fn extract_opened(
    loc: &Located,
    head: &[u8],
    deadline: &Deadline,
) -> Result<Option<Held>> {
    let name = loc.rel.file_name().map(|n| n.as_bytes()).unwrap_or(b"");
    let Some(format) = detect(head, name) else {
        return Ok(None);
    };
    let limits = DocLimits::default();
    let size = loc.opened.stat.st_size.max(0) as u64;
    if size > limits.max_input_bytes {
        return Ok(Some(Held::unreserved(refused(format, Reason::InputBytes))));
    }
    let key = FileKey::of(&loc.opened.stat);
    let file = &loc.opened;
    cached_extract(key, format, &limits, deadline, || {
        pread_exact(file, 0, size as usize)
    })
    .map(Some)
}

/// Fills `out` with a page of the document's text; false when the file is not a document.
pub(crate) fn read_document(
    sb: &Within<'_>,
    loc: &Located,
    head: &[u8],
    args: &ReadArgs,
    out: &mut ReadResult,
) -> Result<bool> {
    let deadline = sb.deadline(None);
    let Some(x) = extract_opened(loc, head, &deadline)? else {
        return Ok(false);
    };
    if deadline.cancelled() {
        return Err(Error::cancelled());
    }
    out.encoding = format!("extracted:{}", x.format.name());
    out.total_bytes = x.text.len() as u64;
    out.document = Some(DocumentInfo {
        format: x.format.name().to_string(),
        file_bytes: loc.opened.stat.st_size.max(0) as u64,
        parts: x.sections.len() as u64,
        images_skipped: x.images_skipped,
        extraction_truncated: x.truncated,
        truncated_reason: x.reason_text(),
    });
    page(&x.text, args, sb, out)?;
    Ok(true)
}

/// One page of `text` by the byte or line arguments, like read_file on a text file.
fn page(text: &str, args: &ReadArgs, sb: &Sandbox, out: &mut ReadResult) -> Result<()> {
    let cap = sb.policy().limits.max_read_bytes.max(1);
    let line_mode = args.start_line.is_some()
        || args.max_lines.is_some()
        || args.line_numbers.is_some()
        || args.head_lines.is_some()
        || args.tail_lines.is_some();
    if !line_mode {
        let len = text.len();
        let mut start = (args.offset.unwrap_or(0).min(len as u64)) as usize;
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let limit = args.limit.unwrap_or(cap).clamp(1, cap) as usize;
        let mut end = start.saturating_add(limit).min(len);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        if end == start && start < len {
            end = start + 1;
            while !text.is_char_boundary(end) {
                end += 1;
            }
        }
        out.content = text[start..end].to_string();
        out.offset = start as u64;
        out.bytes_returned = (end - start) as u64;
        out.next_offset = end as u64;
        out.truncated = end < len;
        return Ok(());
    }
    super::check_line_args(args)?;
    // Line starts (byte offsets); the text ends with a newline when not empty.
    let starts: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
        .filter(|&i| i < text.len())
        .collect();
    let nlines = starts.len() as u64;
    let (first, count) = match args.tail_lines {
        Some(n) => (nlines.saturating_sub(n.max(1)) + 1, n.max(1)),
        None => (
            args.start_line.unwrap_or(1).max(1),
            args.head_lines.or(args.max_lines).unwrap_or(2000).max(1),
        ),
    };
    let numbers = args.line_numbers.unwrap_or(false);
    let line_cap = sb.policy().limits.max_line_chars.max(1);
    out.start_line = Some(first);
    let at = |l: u64| -> usize { starts.get((l - 1) as usize).copied().unwrap_or(text.len()) };
    out.offset = at(first) as u64;
    let mut content = String::new();
    let mut n = 0u64;
    while n < count && first + n <= nlines {
        let l = first + n;
        let line = text[at(l)..at(l + 1)].trim_end_matches('\n');
        let line = match line.char_indices().nth(line_cap) {
            Some((i, _)) => format!(
                "{} [... line truncated, {} bytes in all]",
                &line[..i],
                line.len()
            ),
            None => line.to_string(),
        };
        let rendered = if numbers {
            format!("{l:>6}\t{line}\n")
        } else {
            format!("{line}\n")
        };
        if n > 0 && (content.len() + rendered.len()) as u64 > cap {
            break;
        }
        content.push_str(&rendered);
        n += 1;
    }
    let next = first + n;
    out.content = content;
    out.end_line = Some(next - 1);
    out.next_offset = at(next) as u64;
    out.bytes_returned = out.next_offset.saturating_sub(out.offset);
    out.truncated = next <= nlines;
    out.next_line = out.truncated.then_some(next);
    Ok(())
}
