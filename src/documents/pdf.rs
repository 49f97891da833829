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
use super::{Ctx, Reason};
use lopdf::content::Content;
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
    let cap = usize::try_from(ctx.limits.max_stream_bytes).unwrap_or(usize::MAX);
    let options = LoadOptions {
        max_decompressed_size: Some(cap),
        ..Default::default()
    };
    let doc = match Document::load_mem_with_options(bytes, options) {
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
    let Ok(content) = Content::decode(&content) else {
        return Ok(());
    };
    let mut enc: Option<&Encoding<'_>> = None;
    let mut line = String::new();
    let mut last_y: Option<f32> = None;
    let newline = |line: &mut String, out: &mut Out| {
        if !line.trim().is_empty() {
            out.line(line.trim_end());
        }
        line.clear();
    };
    for (i, op) in content.operations.iter().enumerate() {
        if i % 1024 == 1023 && ctx.stopped() {
            break;
        }
        let num = |k: usize| op.operands.get(k).and_then(|o| o.as_float().ok());
        match op.operator.as_str() {
            "Tf" => {
                enc = op
                    .operands
                    .first()
                    .and_then(|o| o.as_name().ok())
                    .and_then(|n| encodings.get(n));
            }
            "Tj" | "TJ" | "'" | "\"" => {
                if op.operator != "Tj" && op.operator != "TJ" {
                    newline(&mut line, out);
                }
                if let Some(e) = enc {
                    let operands = if op.operator == "\"" {
                        &op.operands[op.operands.len().min(2)..]
                    } else {
                        &op.operands[..]
                    };
                    show(&mut line, e, operands);
                }
            }
            "Td" | "TD" => {
                if num(1).is_some_and(|y| y.abs() > 0.01) {
                    newline(&mut line, out);
                } else if num(0).is_some_and(|x| x > 0.0) && !line.ends_with(' ') {
                    line.push(' ');
                }
            }
            "Tm" => {
                let y = num(5);
                if y != last_y {
                    newline(&mut line, out);
                }
                last_y = y;
            }
            "T*" | "ET" => newline(&mut line, out),
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
fn show(line: &mut String, enc: &Encoding<'_>, operands: &[Object]) {
    for o in operands {
        match o {
            Object::String(bytes, _) => {
                let _ = enc.write_to_string(bytes, line);
            }
            Object::Array(items) => show(line, enc, items),
            Object::Integer(i) if *i < -200 => line.push(' '),
            Object::Real(r) if *r < -200.0 => line.push(' '),
            _ => {}
        }
    }
}
