//! PDF: page by page (`--- page N ---`), with lopdf for parsing, fonts and encodings (ToUnicode
//! CMaps included), bounded here:
//! - indirect objects are counted in the raw bytes before anything is parsed (`pdf_objects`);
//! - lopdf decompresses object and cross-reference streams while loading under a per-stream cap, and
//!   every page's content and fonts are decompressed under what is left of one budget for the whole
//!   document (`stream_bytes`): a tiny file with a 1 GB FlateDecode stream stops at the cap;
//! - the page tree is walked here with a visited set (a cyclic `Kids` or `Parent` chain ends), pages
//!   are capped by the object bound, and the deadline is checked per page and every 1024 operators.
//!
//! lopdf follows a `/Prev` chain of cross-reference sections with a seen-set, and rebuilds a broken
//! cross-reference table by scanning; a panic inside it is caught by the caller.

use super::out::Out;
use super::pdfscan::{charge_file, Operand, Ops};
use super::{Ctx, Reason};
use lopdf::{
    DecompressError, Document, Encoding, Error as PdfError, LoadOptions, Object, ObjectId,
};
use std::collections::{BTreeMap, HashSet};

fn limit_error(e: &PdfError) -> bool {
    matches!(
        e,
        PdfError::Decompress(DecompressError::MemoryLimitExceeded { .. })
    )
}

pub(crate) fn pdf(bytes: &[u8], ctx: &Ctx<'_>, out: &mut Out) {
    let objects = memchr::memmem::find_iter(bytes, b"obj").count();
    if objects / 2 > ctx.limits.max_pdf_objects {
        // `obj` and `endobj` per object.
        return ctx.stop(Reason::PdfObjects);
    }
    // What lopdf will hold once it has parsed the file is charged before it parses it.
    if let Err(r) = charge_file(bytes, ctx) {
        return ctx.stop(r);
    }
    let cap = usize::try_from(ctx.limits.max_stream_bytes).unwrap_or(usize::MAX);
    let options = LoadOptions {
        max_decompressed_size: Some(cap),
        ..Default::default()
    };
    let mut doc = match Document::load_mem_with_options(bytes, options) {
        Ok(d) => d,
        Err(e) if limit_error(&e) => return ctx.stop(Reason::StreamBytes),
        Err(e) => return ctx.stop(Reason::Malformed(format!("pdf: {e}"))),
    };
    if doc.objects.len() > ctx.limits.max_pdf_objects {
        return ctx.stop(Reason::PdfObjects);
    }
    if ctx.stopped() {
        return;
    }
    if recover_unread_streams(&mut doc, bytes, cap) {
        ctx.cramp();
    }
    let pages = page_ids(&doc, ctx);
    let mut left = ctx.limits.max_stream_bytes;
    for (i, &page) in pages.iter().enumerate() {
        if ctx.stopped() || out.full {
            return;
        }
        out.marker(&format!("page {}", i + 1));
        if let Err(r) = page_text(&doc, page, &mut left, ctx, out) {
            return ctx.stop(r);
        }
    }
}

/// Reads, as pdftotext does, the data of streams whose `/Length` lopdf could not resolve (an
/// indirect length that refers to itself or to no object): lopdf leaves such a stream empty with
/// its start position, so its data is taken up to the next `endstream`. The raw bytes copied are
/// the ones `charge_file` already charged (it counts every `stream` .. `endstream` span); the scan
/// stops at `cap` bytes in all, so many unterminated streams cannot make it quadratic (true: it
/// stopped there).
fn recover_unread_streams(doc: &mut Document, bytes: &[u8], cap: usize) -> bool {
    let mut scanned = 0usize;
    for object in doc.objects.values_mut() {
        let Object::Stream(stream) = object else {
            continue;
        };
        let Some(start) = stream.start_position else {
            continue;
        };
        let direct_zero = matches!(stream.dict.get(b"Length"), Ok(Object::Integer(0)));
        if !stream.content.is_empty() || direct_zero || start > bytes.len() {
            continue;
        }
        if scanned >= cap {
            return true;
        }
        let window = &bytes[start..bytes.len().min(start.saturating_add(cap - scanned))];
        let Some(end) = memchr::memmem::find(window, b"endstream") else {
            scanned += window.len();
            continue;
        };
        scanned += end;
        let mut data = &window[..end];
        data = data.strip_suffix(b"\n").unwrap_or(data);
        data = data.strip_suffix(b"\r").unwrap_or(data);
        stream.set_content(data.to_vec());
    }
    scanned >= cap
}

/// The pages in order, walking `/Kids` from the catalog's `/Pages` with a visited set.
fn page_ids(doc: &Document, ctx: &Ctx<'_>) -> Vec<ObjectId> {
    let mut pages = Vec::new();
    let root = doc
        .trailer
        .get(b"Root")
        .and_then(Object::as_reference)
        .and_then(|r| doc.get_dictionary(r))
        .and_then(|d| d.get(b"Pages"))
        .and_then(Object::as_reference);
    let Ok(root) = root else {
        ctx.stop(Reason::Malformed("pdf: no page tree".into()));
        return pages;
    };
    let mut seen = HashSet::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        if seen.len() > ctx.limits.max_pdf_objects {
            ctx.stop(Reason::PdfObjects);
            break;
        }
        if seen.len().is_multiple_of(1024) && ctx.stopped() {
            break;
        }
        let Ok(node) = doc.get_dictionary(id) else {
            continue;
        };
        match node.get(b"Kids").and_then(Object::as_array) {
            Ok(kids) => {
                // Depth-first, in order: push in reverse.
                for k in kids.iter().rev() {
                    if let Ok(r) = k.as_reference() {
                        stack.push(r);
                    }
                }
            }
            Err(_) => {
                let is_page = node.get(b"Type").and_then(Object::as_name).ok() == Some(b"Page");
                if is_page || node.has(b"Contents") {
                    pages.push(id);
                }
            }
        }
    }
    pages
}

fn page_text(
    doc: &Document,
    page: ObjectId,
    left: &mut u64,
    ctx: &Ctx<'_>,
    out: &mut Out,
) -> Result<(), Reason> {
    let room = usize::try_from(*left).unwrap_or(usize::MAX);
    let content = match doc.get_page_content_with_limit(page, room) {
        Ok(c) => c,
        Err(e) if limit_error(&e) => return Err(Reason::StreamBytes),
        Err(_) => return Ok(()),
    };
    *left = left.saturating_sub(content.len() as u64);
    let held = content.len() as u64;
    if !ctx.charge(held) {
        return Err(Reason::MemoryBytes);
    }
    let r = page_ops(doc, page, &content, left, ctx, out);
    ctx.release(held);
    r
}

fn page_ops(
    doc: &Document,
    page: ObjectId,
    content: &[u8],
    left: &mut u64,
    ctx: &Ctx<'_>,
    out: &mut Out,
) -> Result<(), Reason> {
    let mut encodings: BTreeMap<Vec<u8>, Encoding<'_>> = BTreeMap::new();
    if let Ok(fonts) = doc.get_page_fonts(page) {
        for (name, font) in fonts {
            let room = usize::try_from(*left).unwrap_or(usize::MAX);
            match font.get_font_encoding_with_limit(doc, room) {
                Ok(enc) => {
                    encodings.insert(name, enc);
                }
                Err(e) if limit_error(&e) => return Err(Reason::StreamBytes),
                Err(_) => {}
            }
        }
    }
    let mut ops = Ops::new(content, ctx);
    let mut enc: Option<&Encoding<'_>> = None;
    let mut line = String::new();
    let mut last_y: Option<f32> = None;
    let newline = |line: &mut String, out: &mut Out| {
        if !line.trim().is_empty() {
            out.line(line.trim_end());
        }
        line.clear();
    };
    while let Some(op) = ops.next() {
        let operands = &ops.operands;
        let num = |k: usize| match operands.get(k) {
            Some(Operand::Num(n)) => Some(*n),
            _ => None,
        };
        match op {
            b"Tf" => {
                enc = match operands.first() {
                    Some(Operand::Name(n)) => encodings.get(n.as_slice()),
                    _ => None,
                };
            }
            b"Tj" | b"TJ" | b"'" | b"\"" => {
                if op != b"Tj" && op != b"TJ" {
                    newline(&mut line, out);
                }
                if let Some(e) = enc {
                    let operands = if op == b"\"" {
                        &operands[operands.len().min(2)..]
                    } else {
                        &operands[..]
                    };
                    show(&mut line, e, operands);
                }
            }
            b"Td" | b"TD" => {
                if num(1).is_some_and(|y| y.abs() > 0.01) {
                    newline(&mut line, out);
                } else if num(0).is_some_and(|x| x > 0.0) && !line.ends_with(' ') {
                    line.push(' ');
                }
            }
            b"Tm" => {
                let y = num(5);
                if y != last_y {
                    newline(&mut line, out);
                }
                last_y = y;
            }
            b"T*" | b"ET" => newline(&mut line, out),
            _ => {}
        }
        if out.full {
            break;
        }
    }
    newline(&mut line, out);
    Ok(())
}

/// Appends the text of a show operator's operands; a large negative TJ adjustment is a space.
fn show(line: &mut String, enc: &Encoding<'_>, operands: &[Operand]) {
    for o in operands {
        match o {
            Operand::Str(bytes) => {
                let _ = enc.write_to_string(bytes, line);
            }
            Operand::Array(items) => show(line, enc, items),
            Operand::Num(n) if *n < -200.0 => line.push(' '),
            _ => {}
        }
    }
}
