//! The document readers keep a memory budget as well as the call's
//! deadline. Each hostile document is built here; the assertions are on outcomes (the text kept, the
//! reason) and on the extractor's own accounting (`memory_bytes`, the peak it charged to
//! `max_memory_bytes`), with generous wall bounds only where a test would otherwise hang.
#![cfg(feature = "documents")]

use rootbound::documents::{extract, DocFormat, DocLimits, Extracted};
use rootbound::Sandbox;
use std::time::{Duration, Instant};

use crate::support;
use support::doc::*;

fn run_with(bytes: &[u8], f: DocFormat, limits: &DocLimits, secs: u64) -> (Extracted, Duration) {
    let t = Instant::now();
    let x = extract(bytes, f, limits, Duration::from_secs(secs));
    (x, t.elapsed())
}

fn reason(x: &Extracted) -> String {
    x.reason_text().unwrap_or_default()
}

const BUDGET: u64 = 128 << 20;

/// A one-page PDF (font F1) whose content is `prefix` then `chunk` x `times`, deflated.
fn pdf_with_content(prefix: &[u8], chunk: &[u8], times: usize) -> Vec<u8> {
    let data = bomb(prefix, chunk, times, true);
    pdf(
        &simple_pdf_objs("3 0 R", stream("/Filter /FlateDecode", &data)),
        "",
    )
}

// ---------- PDF ----------

/// 30 MiB of `0 ` operands before one `Tj` took 5.1 s and 3.7 GB: lopdf built every operation of
/// the page before the first was used. Operands are now read one operator at a time, at most 16 kept.
#[test]
fn pdf_content_of_millions_of_operands_is_read_one_operator_at_a_time() {
    let chunk = b"0 ".repeat(32 * 1024);
    let bytes = pdf_with_content(b"BT /F1 12 Tf (hello) Tj ET\n", &chunk, 480);
    assert!(bytes.len() < 200_000, "{}", bytes.len());
    let (x, t) = run_with(&bytes, DocFormat::Pdf, &DocLimits::default(), 120);
    assert!(x.text.contains("hello"), "{:?}", x.text);
    assert_eq!(x.reason, None, "{}", reason(&x));
    // The content (up to 30 MiB) is held while its page is read; its operands are not.
    assert!(x.memory_bytes >= 8 << 20, "{}", x.memory_bytes);
    assert!(x.memory_bytes < 32 << 20, "{}", x.memory_bytes);
    assert!(t < Duration::from_secs(60), "{t:?}");
}

/// A page content of a million nested arrays stops at the nesting bound, keeping the text before.
#[test]
fn pdf_content_nested_a_million_deep_stops_at_the_nesting_bound() {
    let mut content = b"BT /F1 12 Tf (hello) Tj ET\n".to_vec();
    content.extend(std::iter::repeat_n(b'[', 1_000_000));
    content.extend(std::iter::repeat_n(b']', 1_000_000));
    content.extend_from_slice(b" Tj\n");
    let data = bomb(&content, b"", 0, true);
    let bytes = pdf(
        &simple_pdf_objs("3 0 R", stream("/Filter /FlateDecode", &data)),
        "",
    );
    assert!(bytes.len() < 8_000, "{}", bytes.len());
    let (x, _) = run_with(&bytes, DocFormat::Pdf, &DocLimits::default(), 30);
    assert!(x.text.contains("hello"), "{:?}", x.text);
    assert_eq!(reason(&x), "nesting_depth");
    assert!(x.memory_bytes < 4 << 20, "{}", x.memory_bytes);
}

/// 1.2 M arrays side by side in one operand (a 4 KB file): held, charged, within the budget.
#[test]
fn pdf_content_of_a_million_arrays_is_charged() {
    let mut content = b"BT /F1 12 Tf (hello) Tj ET\n[".to_vec();
    for _ in 0..1_200_000 {
        content.extend_from_slice(b"[] ");
    }
    content.extend_from_slice(b"] Tj\n");
    let data = bomb(&content, b"", 0, true);
    let bytes = pdf(
        &simple_pdf_objs("3 0 R", stream("/Filter /FlateDecode", &data)),
        "",
    );
    let (x, _) = run_with(&bytes, DocFormat::Pdf, &DocLimits::default(), 60);
    assert!(x.text.contains("hello"), "{:?}", x.text);
    assert!(x.memory_bytes <= BUDGET, "{}", x.memory_bytes);
    // A smaller budget stops it, with the text before.
    let small = DocLimits {
        max_memory_bytes: 16 << 20,
        ..Default::default()
    };
    let (x, _) = run_with(&bytes, DocFormat::Pdf, &small, 60);
    assert!(x.text.contains("hello"), "{:?}", x.text);
    assert_eq!(reason(&x), "memory_bytes");
    assert!(x.memory_bytes <= 16 << 20, "{}", x.memory_bytes);
}

/// One object of 1.2 M empty arrays (3.6 MB) took 733 MB inside lopdf's parser: its cost is counted
/// before lopdf parses the file, and the file is refused with `memory_bytes`.
#[test]
fn pdf_object_of_a_million_arrays_is_refused_before_parsing() {
    let mut objs = simple_pdf_objs("3 0 R", stream("", b"BT /F1 12 Tf (hello) Tj ET\n"));
    objs.push(
        b"[".iter()
            .chain(&b"[] ".repeat(1_200_000))
            .chain(b"]")
            .copied()
            .collect(),
    );
    let bytes = pdf(&objs, "");
    let (x, _) = run_with(&bytes, DocFormat::Pdf, &DocLimits::default(), 60);
    assert_eq!(reason(&x), "memory_bytes");
    assert!(x.memory_bytes <= BUDGET, "{}", x.memory_bytes);
    // The same file with room for it is read.
    let big = DocLimits {
        max_memory_bytes: 1 << 30,
        ..Default::default()
    };
    let (x, _) = run_with(&bytes, DocFormat::Pdf, &big, 60);
    assert!(x.text.contains("hello"), "{:?} {}", x.text, reason(&x));
}

/// The same arrays hidden in a compressed object stream (a few KB) are counted too.
#[test]
fn pdf_object_stream_of_a_million_arrays_is_refused_before_parsing() {
    let mut body = b"7 0 [".to_vec();
    body.extend_from_slice(&b"[] ".repeat(1_200_000));
    body.extend_from_slice(b"]");
    let data = bomb(&body, b"", 0, true);
    let mut objs = simple_pdf_objs("3 0 R", stream("", b"BT /F1 12 Tf (hello) Tj ET\n"));
    objs.push(stream(
        "/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode",
        &data,
    ));
    let bytes = pdf(&objs, "");
    assert!(bytes.len() < 20_000, "{}", bytes.len());
    let (x, _) = run_with(&bytes, DocFormat::Pdf, &DocLimits::default(), 60);
    assert_eq!(reason(&x), "memory_bytes");
    assert!(x.memory_bytes <= BUDGET, "{}", x.memory_bytes);
}

// ---------- XLSX ----------

fn xlsx_sharing(shared: &str, cells: usize) -> Vec<u8> {
    let rel = |id: &str, kind: &str, target: &str| {
        format!(r#"<Relationship Id="{id}" Type="http://x/{kind}" Target="{target}"/>"#)
    };
    let row: String = r#"<c t="s"><v>0</v></c>"#.repeat(cells);
    zip(&[
        stored(
            "_rels/.rels",
            format!(
                "<Relationships>{}</Relationships>",
                rel("rId1", "officeDocument", "xl/workbook.xml")
            )
            .as_bytes(),
        ),
        stored(
            "xl/workbook.xml",
            br#"<workbook xmlns:r="r"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>"#,
        ),
        stored(
            "xl/_rels/workbook.xml.rels",
            format!(
                "<Relationships>{}{}</Relationships>",
                rel("rId1", "worksheet", "sheet1.xml"),
                rel("rId2", "sharedStrings", "sharedStrings.xml")
            )
            .as_bytes(),
        ),
        deflated(
            "xl/sharedStrings.xml",
            format!("<sst><si><t>{shared}</t></si></sst>").as_bytes(),
        ),
        deflated(
            "xl/sheet1.xml",
            format!("<worksheet><sheetData><row>{row}</row><row><c t=\"inlineStr\"><is><t>next</t></is></c></row></sheetData></worksheet>").as_bytes(),
        ),
    ])
}

/// One 8 MiB shared string used by 2,000 cells of a row (a 9 KB file before: 40 cells took 713
/// MB; 2,000 would take 16 GiB): the row is never built past the text still allowed.
#[test]
fn xlsx_shared_string_used_by_many_cells_stops_at_the_text_bound() {
    let bytes = xlsx_sharing(&"A".repeat(8 << 20), 2_000);
    assert!(bytes.len() < 100_000, "{}", bytes.len());
    let (x, t) = run_with(&bytes, DocFormat::Xlsx, &DocLimits::default(), 60);
    assert_eq!(reason(&x), "text_bytes");
    assert!(x.text.len() as u64 <= DocLimits::default().max_text_bytes);
    assert!(
        x.text.starts_with("--- sheet S ---\nAAAA"),
        "{:?}",
        &x.text[..40]
    );
    // The table holds the string once (charged), not once per cell.
    assert!(x.memory_bytes >= 8 << 20, "{}", x.memory_bytes);
    assert!(x.memory_bytes < 9 << 20, "{}", x.memory_bytes);
    assert!(t < Duration::from_secs(30), "{t:?}");
    // With a small text bound, the cut comes at once.
    let small = DocLimits {
        max_text_bytes: 1 << 20,
        ..Default::default()
    };
    let (x, _) = run_with(&bytes, DocFormat::Xlsx, &small, 60);
    assert_eq!(reason(&x), "text_bytes");
    assert!(x.text.len() <= 1 << 20);
}

/// Many shared strings: each one held is charged (a 24-byte `String` per 5-byte `<si/>`).
#[test]
fn xlsx_shared_string_table_is_charged() {
    let limits = DocLimits {
        max_memory_bytes: 1 << 20,
        ..Default::default()
    };
    let many = "</t></si><si/><si><t>".repeat(100_000);
    let bytes = xlsx_sharing(&many, 1);
    let (x, _) = run_with(&bytes, DocFormat::Xlsx, &limits, 60);
    assert_eq!(reason(&x), "memory_bytes");
    assert!(x.memory_bytes <= 1 << 20, "{}", x.memory_bytes);
}

// ---------- notebooks ----------

/// A 40 MB notebook holding one array of 20 M zeros took 705 MB as a tree of values: it is now read
/// as a stream, the array skipped without being held.
#[test]
fn ipynb_with_a_huge_array_is_streamed() {
    let mut nb = String::from(
        r#"{"cells":[{"cell_type":"code","outputs":[{"output_type":"stream","text":["out\n"]}],"source":["x = 1"]}],"metadata":{"z":["#,
    );
    nb.push_str(&"0,".repeat(20_000_000));
    nb.push_str(r#"0]},"nbformat":4}"#);
    let (x, _) = run_with(nb.as_bytes(), DocFormat::Ipynb, &DocLimits::default(), 120);
    assert_eq!(x.reason, None, "{}", reason(&x));
    assert_eq!(
        x.text,
        "--- cell 1 [code] ---\nx = 1\n--- cell 1 output ---\nout\n"
    );
    assert!(x.memory_bytes < 1024, "{}", x.memory_bytes);
    // The deadline is checked while the array is skipped.
    let (x, t) = run_with(nb.as_bytes(), DocFormat::Ipynb, &DocLimits::default(), 0);
    assert_eq!(reason(&x), "deadline");
    crate::support::time::assert_prompt(t, "an extraction with its deadline spent");
}

/// A notebook whose cells hold more text than allowed is cut at the text bound, each cell's strings
/// charged while it is held; cells before a damaged spot are kept.
#[test]
fn ipynb_cells_are_bounded_and_kept_before_damage() {
    let big = "y".repeat(3 << 20);
    let nb = format!(
        r#"{{"cells":[{{"cell_type":"markdown","source":"a"}},{{"cell_type":"code","source":["{big}"]}}],"nbformat":4}}"#
    );
    let limits = DocLimits {
        max_text_bytes: 1 << 20,
        ..Default::default()
    };
    let (x, _) = run_with(nb.as_bytes(), DocFormat::Ipynb, &limits, 60);
    assert_eq!(reason(&x), "text_bytes");
    assert!(x
        .text
        .starts_with("--- cell 1 [markdown] ---\na\n--- cell 2 [code] ---\nyyy"));
    assert!(x.memory_bytes <= 1 << 20, "{}", x.memory_bytes);
    let damaged = r#"{"cells":[{"cell_type":"markdown","source":"kept"}, {"cell_type": oops"#;
    let (x, _) = run_with(damaged.as_bytes(), DocFormat::Ipynb, &limits, 60);
    assert!(reason(&x).starts_with("malformed"), "{}", reason(&x));
    assert!(x.text.contains("kept"), "{:?}", x.text);
}

// ---------- zip entries ----------

/// A DOCX of more than 10,000 entries extracted nothing, even with `word/document.xml` second: the
/// entry cap now bounds the work, and the entries within it are still read.
#[test]
fn docx_with_too_many_entries_still_extracts_its_main_part() {
    let xml = format!(
        r#"<?xml version="1.0"?><w:document {W}><w:body>{}</w:body></w:document>"#,
        para("main text")
    );
    let mut entries = vec![
        stored(
            "_rels/.rels",
            br#"<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#,
        ),
        deflated("word/document.xml", xml.as_bytes()),
    ];
    entries.extend((0..10_050).map(|i| stored(&format!("junk/{i}"), b"x")));
    let bytes = zip(&entries);
    let (x, _) = run_with(&bytes, DocFormat::Docx, &DocLimits::default(), 30);
    assert!(x.text.contains("main text"), "{:?}", x.text);
    assert_eq!(reason(&x), "zip_entries");
    // Through read_file and grep too.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("many.docx"), &bytes).unwrap();
    let sb = Sandbox::builder().root(dir.path()).build().unwrap();
    let v = sb.call("read_file", serde_json::json!({"path": "many.docx"}));
    assert!(v["content"].as_str().unwrap().contains("main text"), "{v}");
    assert_eq!(v["document"]["truncated_reason"], "zip_entries", "{v}");
    let v = sb.call(
        "grep_search",
        serde_json::json!({"pattern": "main text", "documents": true}),
    );
    assert!(v["matches"].as_str().unwrap().contains("main text"), "{v}");
}

// ---------- the neighbours: read_file, grep, read_many_files ----------

/// Every reader of documents goes through the same bounded extraction: read_file, grep_search with
/// `documents: true` and read_many_files answer within the call's timeout plus a bounded overshoot.
#[test]
fn every_document_reader_is_bounded_by_the_call_budget() {
    let chunk = b"0 ".repeat(32 * 1024);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ops.pdf"),
        pdf_with_content(b"BT /F1 12 Tf (hello) Tj ET\n", &chunk, 480),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("s.xlsx"),
        xlsx_sharing(&"A".repeat(8 << 20), 2_000),
    )
    .unwrap();
    let sb = Sandbox::builder()
        .root(dir.path())
        .timeout_ms(200)
        .build()
        .unwrap();
    for (tool, args) in [
        ("read_file", serde_json::json!({"path": "ops.pdf"})),
        ("read_file", serde_json::json!({"path": "s.xlsx"})),
        (
            "grep_search",
            serde_json::json!({"pattern": "zzz", "documents": true}),
        ),
        (
            "read_many_files",
            serde_json::json!({"paths": ["ops.pdf", "s.xlsx"]}),
        ),
    ] {
        let t = Instant::now();
        let v = sb.call(tool, args.clone());
        assert!(v.get("error").is_none(), "{tool} {args}: {v}");
        crate::support::time::assert_prompt(t.elapsed(), tool);
    }
}
