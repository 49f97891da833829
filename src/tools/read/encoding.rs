//! read_file's byte mode: the encoding sniffed from the first bytes, and pages that never split a
//! UTF-8 sequence or a UTF-16 surrogate pair.

use super::ReadResult;
use crate::core::error::Result;
use crate::core::io::pread_exact;
use crate::core::open::Opened;

/// The detected encoding of a file, from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Enc {
    Utf8,
    Utf16Le,
    Utf16Be,
    Binary,
}

impl Enc {
    pub(super) fn name(self) -> &'static str {
        match self {
            Enc::Utf8 => "utf-8",
            Enc::Utf16Le => "utf-16le",
            Enc::Utf16Be => "utf-16be",
            Enc::Binary => "binary",
        }
    }
}

pub(super) fn sniff(head: &[u8]) -> Enc {
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
pub(super) fn read_bytes(
    file: &Opened,
    offset: u64,
    limit: u64,
    enc: Enc,
    out: &mut ReadResult,
) -> Result<()> {
    let total = out.total_bytes;
    if offset >= total {
        out.offset = offset.min(total);
        out.next_offset = out.offset;
        return Ok(());
    }
    match enc {
        Enc::Utf16Le | Enc::Utf16Be => read_utf16(file, offset, limit, enc, out),
        _ => read_utf8(file, offset, limit, out),
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

fn read_utf8(file: &Opened, offset: u64, limit: u64, out: &mut ReadResult) -> Result<()> {
    let total = out.total_bytes;
    // Snap a start inside a character back to its lead byte (at most 3 bytes), so content is whole text.
    // Only a continuation byte at `offset` means the offset is inside a character (a lead byte followed
    // by a non-continuation is an invalid sequence that the previous page already returned).
    let back = offset.min(3);
    let pre = pread_exact(file, offset - back, back as usize + 1)?;
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
    let mut buf = pread_exact(file, start, (want + 3).min(total - start) as usize)?;
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

fn read_utf16(
    file: &Opened,
    offset: u64,
    limit: u64,
    enc: Enc,
    out: &mut ReadResult,
) -> Result<()> {
    let total = out.total_bytes;
    let start = (offset.max(2)) & !1;
    let rest = total.saturating_sub(start);
    let want = (limit.max(2) & !1).min(rest);
    // Read 2 spare bytes so a surrogate pair cut by the limit can be completed.
    let buf = pread_exact(file, start, (want + 2).min(rest) as usize)?;
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
