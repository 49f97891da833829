//! Documents: hostile fixtures built here (zip bombs, billion laughs, deep XML, PDF with a cyclic
//! xref and a 1 GB FlateDecode stream), each bounded with `truncated` and its reason; and read_file on
//! documents (extracted text, paging, raw bytes, JSON surface).
#![cfg(feature = "documents")]

use rootbound::documents::{extract, DocFormat, DocLimits, Extracted};
use rootbound::{ReadArgs, Sandbox};
use std::time::{Duration, Instant};

use crate::support;
use support::doc::*;

fn run(bytes: &[u8], f: DocFormat) -> (Extracted, Duration) {
    run_with(bytes, f, &DocLimits::default())
}

fn run_with(bytes: &[u8], f: DocFormat, limits: &DocLimits) -> (Extracted, Duration) {
    let t = Instant::now();
    let x = extract(bytes, f, limits, Duration::from_secs(30));
    (x, t.elapsed())
}

fn reason(x: &Extracted) -> String {
    x.reason_text().unwrap_or_default()
}

// ---------- zip / XML ----------

#[test]
fn docx_text_paragraphs_and_tables() {
    let body = format!(
        "{}<w:tbl><w:tr><w:tc>{}</w:tc><w:tc>{}</w:tc></w:tr></w:tbl>{}",
        para("Hello &amp; &#x263A; world"),
        para("a1"),
        para("b1"),
        para("end")
    );
    let (x, _) = run(&docx(&body), DocFormat::Docx);
    assert_eq!(x.text, "--- body ---\nHello & ☺ world\na1\tb1\nend\n");
    assert!(!x.truncated, "{:?}", x.reason);
}

#[test]
fn billion_laughs_docx_is_never_expanded() {
    let mut dtd = String::from("<!DOCTYPE w:document [<!ENTITY lol0 \"lol\">");
    for i in 1..10 {
        let prev = format!("&lol{};", i - 1);
        dtd.push_str(&format!("<!ENTITY lol{i} \"{}\">", prev.repeat(10)));
    }
    dtd.push_str("<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>");
    let xml = format!(
        r#"<?xml version="1.0"?>{dtd}<w:document {W}><w:body>{}{}{}</w:body></w:document>"#,
        para("before &lol9; after"),
        para("&xxe;"),
        para("&lt;kept&gt;")
    );
    let (x, t) = run(
        &docx_with(deflated("word/document.xml", xml.as_bytes())),
        DocFormat::Docx,
    );
    support::time::assert_prompt(t, "the extraction");
    assert_eq!(x.text, "--- body ---\nbefore  after\n\n<kept>\n");
    assert!(!x.text.contains("root:"), "an external entity was resolved");
}

#[test]
fn deflate_bomb_docx_stops_at_the_uncompressed_bound() {
    // 1 GiB of markup (one element per 4 KiB, no text) behind a ~1 MB entry.
    let prefix = format!(r#"<?xml version="1.0"?><w:document {W}><w:body>"#);
    let mut chunk = Vec::new();
    while chunk.len() < (1 << 20) - 4200 {
        chunk.extend_from_slice(format!("<w:p w:rsidR=\"{}\"/>", "A".repeat(4080)).as_bytes());
    }
    let times = (1usize << 30) / chunk.len();
    let data = bomb(prefix.as_bytes(), &chunk, times, false);
    assert!(data.len() < 8 << 20, "{}", data.len());
    let entry = Ent {
        name: "word/document.xml".into(),
        data,
        method: 8,
        usize_: u32::MAX - 1,
    };
    let (x, t) = run(&docx_with(entry), DocFormat::Docx);
    assert!(x.truncated);
    assert_eq!(reason(&x), "uncompressed_bytes");
    assert!(t < Duration::from_secs(20), "{t:?}");
}

#[test]
fn an_entry_larger_than_declared_is_cut() {
    let xml = format!(
        r#"<w:document {W}><w:body>{}</w:body></w:document>"#,
        para(&"x".repeat(100_000))
    );
    let mut e = deflated("word/document.xml", xml.as_bytes());
    e.usize_ = 100;
    let (x, _) = run(&docx_with(e), DocFormat::Docx);
    assert!(x.truncated);
    assert!(
        reason(&x).contains("larger than its declared size"),
        "{}",
        reason(&x)
    );
    assert!(x.text.len() < 200);
}

#[test]
fn nested_archives_42_zip_style_are_never_opened() {
    // A zip of 16 zips of 16 zips of a 64 MiB bomb (16 GiB in all), inside a docx next to its
    // document.
    let leaf = zip(&[Ent {
        name: "0.txt".into(),
        data: bomb(b"", &[b'0'; 1 << 20], 64, false),
        method: 8,
        usize_: 1 << 26,
    }]);
    let mid = zip(&(0..16)
        .map(|i| stored(&format!("{i}.zip"), &leaf))
        .collect::<Vec<_>>());
    let top = zip(&(0..16)
        .map(|i| stored(&format!("{i}.zip"), &mid))
        .collect::<Vec<_>>());
    let xml = format!(
        r#"<w:document {W}><w:body>{}</w:body></w:document>"#,
        para("real text")
    );
    let file = zip(&[
        stored(
            "_rels/.rels",
            br#"<Relationships><Relationship Id="r" Type="x/officeDocument" Target="word/document.xml"/></Relationships>"#,
        ),
        deflated("word/document.xml", xml.as_bytes()),
        stored("word/embeddings/42.zip", &top),
    ]);
    let (x, t) = run(&file, DocFormat::Docx);
    assert_eq!(x.text, "--- body ---\nreal text\n");
    assert!(!x.truncated);
    support::time::assert_prompt(t, "the extraction");
    // The same archive named as the main part: read as (bad) XML, bounded, never unpacked.
    let file = zip(&[
        stored(
            "_rels/.rels",
            br#"<Relationships><Relationship Id="r" Type="x/officeDocument" Target="word/document.xml"/></Relationships>"#,
        ),
        stored("word/document.xml", &top),
    ]);
    let (x, t) = run(&file, DocFormat::Docx);
    support::time::assert_prompt(t, "the extraction");
    assert!(x.text.len() < 100, "{}", x.text.len());
}

#[test]
fn overlapping_entries_bomb_is_bounded_by_the_shared_budget() {
    // 2,000 slides whose parts are all one 16 MiB deflated entry (Fifield's overlap, by reference).
    let mut pres = String::from("<p:presentation xmlns:p=\"p\" xmlns:r=\"r\"><p:sldIdLst>");
    let mut rels = String::from("<Relationships>");
    for i in 0..2000 {
        pres.push_str(&format!(r#"<p:sldId id="{}" r:id="rId{i}"/>"#, 256 + i));
        rels.push_str(&format!(
            r#"<Relationship Id="rId{i}" Type="x/slide" Target="slides/slide1.xml"/>"#
        ));
    }
    pres.push_str("</p:sldIdLst></p:presentation>");
    rels.push_str("</Relationships>");
    let slide_prefix = b"<p:sld xmlns:p=\"p\" xmlns:a=\"a\"><p:cSld><p:spTree>";
    let mut chunk = Vec::new();
    while chunk.len() < (1 << 20) - 4200 {
        chunk.extend_from_slice(format!("<a:x v=\"{}\"/>", "B".repeat(4080)).as_bytes());
    }
    let file = zip(&[
        stored(
            "_rels/.rels",
            br#"<Relationships><Relationship Id="r" Type="x/officeDocument" Target="ppt/presentation.xml"/></Relationships>"#,
        ),
        stored("ppt/presentation.xml", pres.as_bytes()),
        stored("ppt/_rels/presentation.xml.rels", rels.as_bytes()),
        Ent {
            name: "ppt/slides/slide1.xml".into(),
            data: bomb(slide_prefix, &chunk, 16, false),
            method: 8,
            usize_: 17 << 20,
        },
    ]);
    let (x, t) = run(&file, DocFormat::Pptx);
    assert!(x.truncated);
    assert_eq!(reason(&x), "uncompressed_bytes");
    assert!(t < Duration::from_secs(20), "{t:?}");
    assert!(x.sections.len() < 10, "{}", x.sections.len());
}

#[test]
fn too_many_zip_entries() {
    let entries: Vec<Ent> = (0..300).map(|i| stored(&format!("f{i}"), b"x")).collect();
    let limits = DocLimits {
        max_zip_entries: 100,
        ..Default::default()
    };
    let (x, _) = run_with(&zip(&entries), DocFormat::Docx, &limits);
    assert!(x.truncated);
    assert_eq!(reason(&x), "zip_entries");
}

#[test]
fn deep_xml_stops_at_the_depth_bound() {
    let body = format!(
        "{}{}{}",
        para("top"),
        "<w:x>".repeat(100_000),
        "</w:x>".repeat(100_000)
    );
    let (x, t) = run(&docx(&body), DocFormat::Docx);
    assert!(x.truncated);
    assert_eq!(reason(&x), "xml_depth");
    assert!(x.text.contains("top"));
    support::time::assert_prompt(t, "the extraction");
}

#[test]
fn xml_element_bound() {
    let body: String = (0..1000).map(|i| para(&format!("p{i}"))).collect();
    let limits = DocLimits {
        max_xml_elements: 500,
        ..Default::default()
    };
    let (x, _) = run_with(&docx(&body), DocFormat::Docx, &limits);
    assert!(x.truncated);
    assert_eq!(reason(&x), "xml_elements");
    assert!(x.text.contains("p10\n") && !x.text.contains("p999"));
}

#[test]
fn text_bound_and_expired_deadline() {
    let body: String = (0..1000).map(|i| para(&format!("paragraph {i}"))).collect();
    let limits = DocLimits {
        max_text_bytes: 1000,
        ..Default::default()
    };
    let (x, _) = run_with(&docx(&body), DocFormat::Docx, &limits);
    assert_eq!(reason(&x), "text_bytes");
    assert!(x.text.len() <= 1000 && x.text.len() > 900);
    let x = extract(
        &docx(&body),
        DocFormat::Docx,
        &DocLimits::default(),
        Duration::ZERO,
    );
    assert!(x.truncated);
    assert_eq!(reason(&x), "deadline");
}

#[test]
fn damaged_inputs_never_panic() {
    let body: String = (0..50).map(|i| para(&format!("p{i}"))).collect();
    let good = docx(&body);
    let objs = simple_pdf_objs("3 0 R", stream("", b"BT /F1 12 Tf 72 700 Td (Hi) Tj ET"));
    let p = pdf(&objs, "");
    for (bytes, f) in [
        (&good, DocFormat::Docx),
        (&good, DocFormat::Pptx),
        (&good, DocFormat::Xlsx),
        (&p, DocFormat::Pdf),
    ] {
        for cut in (0..bytes.len()).step_by(7) {
            let (x, _) = run(&bytes[..cut], f);
            let _ = x.text;
            let mut flipped = bytes.clone();
            flipped[cut] ^= 0x55;
            let _ = run(&flipped, f);
        }
    }
    let (x, _) = run(b"{not json", DocFormat::Ipynb);
    assert!(reason(&x).starts_with("malformed"));
}

// ---------- PDF ----------

#[test]
fn pdf_text_by_page() {
    let objs = simple_pdf_objs(
        "3 0 R",
        stream(
            "",
            b"BT /F1 12 Tf 72 700 Td (Hello PDF) Tj 0 -14 Td [(kern)-50(ed) -300 (word)] TJ ET",
        ),
    );
    let (x, _) = run(&pdf(&objs, ""), DocFormat::Pdf);
    assert_eq!(x.text, "--- page 1 ---\nHello PDF\nkerned word\n");
    assert!(!x.truncated, "{:?}", x.reason);
}

#[test]
fn pdf_with_a_1gb_flate_stream_is_bounded() {
    let mut chunk = b"BT /F1 12 Tf 72 700 Td (x) Tj ET\n".repeat(30_000);
    chunk.truncate(1 << 20);
    let data = bomb(
        b"BT /F1 12 Tf 72 700 Td (start) Tj ET\n",
        &vec![b' '; 1 << 20],
        1024,
        true,
    );
    assert!(data.len() < 4 << 20);
    let objs = simple_pdf_objs("3 0 R", stream("/Filter /FlateDecode", &data));
    let (x, t) = run(&pdf(&objs, ""), DocFormat::Pdf);
    assert!(x.truncated);
    assert_eq!(reason(&x), "stream_bytes");
    assert!(t < Duration::from_secs(20), "{t:?}");
    // The same bomb as an object stream, decompressed while loading: bounded too.
    let mut objs = simple_pdf_objs("3 0 R", stream("", b"BT /F1 12 Tf (a) Tj ET"));
    objs.push(stream(
        "/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode",
        &data,
    ));
    let (x, t) = run(&pdf(&objs, ""), DocFormat::Pdf);
    assert!(t < Duration::from_secs(20), "{t:?}");
    let _ = x;
}

#[test]
fn pdf_with_a_cyclic_xref_and_page_tree_ends() {
    // /Prev pointing at its own xref section, and Kids holding the Pages node itself.
    let objs = simple_pdf_objs(
        "3 0 R 2 0 R 2 0 R",
        stream("", b"BT /F1 12 Tf (cyclic) Tj ET"),
    );
    let (x, t) = run(&pdf(&objs, "/Prev {XREF}"), DocFormat::Pdf);
    support::time::assert_prompt(t, "the extraction");
    assert_eq!(x.text, "--- page 1 ---\ncyclic\n");
    // A page that is its own parent and kid, and a startxref pointing nowhere.
    let mut objs = simple_pdf_objs("2 0 R", stream("", b"BT /F1 12 Tf (x) Tj ET"));
    objs[1] = b"<< /Type /Pages /Kids [2 0 R 6 0 R] /Count 99 /Parent 2 0 R >>".to_vec();
    objs.push(b"<< /Type /Pages /Kids [2 0 R 6 0 R] >>".to_vec());
    let mut bytes = pdf(&objs, "/Prev 5");
    let n = bytes.len();
    bytes[n - 12..n - 6].copy_from_slice(b"999999");
    let (x, t) = run(&bytes, DocFormat::Pdf);
    support::time::assert_prompt(t, "the extraction");
    assert!(!x.text.contains("--- page 2"), "{}", x.text);
}

/// A content stream whose `/Length` lopdf cannot resolve (it refers to its own object, or to no
/// object) is read up to `endstream`, as pdftotext does, FlateDecode included, rather than coming
/// back as an empty page.
#[test]
fn pdf_stream_with_an_unresolvable_length_is_read_to_endstream() {
    let text = b"BT /F1 12 Tf 72 700 Td (Recovered text) Tj ET";
    let with_length = |length: &str, filter: &str, data: &[u8]| {
        let mut objs = simple_pdf_objs("3 0 R", Vec::new());
        let mut s = format!("<< {filter} /Length {length} >>\nstream\n").into_bytes();
        s.extend_from_slice(data);
        s.extend_from_slice(b"\r\nendstream");
        objs[3] = s;
        pdf(&objs, "")
    };
    let mut flate = Vec::with_capacity(1024);
    flate2::Compress::new(flate2::Compression::fast(), true)
        .compress_vec(text, &mut flate, flate2::FlushCompress::Finish)
        .unwrap();
    for (length, filter, data) in [
        ("4 0 R", "", &text[..]),
        ("9 0 R", "", &text[..]),
        ("4 0 R", "/Filter /FlateDecode", &flate[..]),
    ] {
        let (x, _) = run(&with_length(length, filter, data), DocFormat::Pdf);
        assert_eq!(
            x.text, "--- page 1 ---\nRecovered text\n",
            "/Length {length} {filter}: {:?}",
            x.reason
        );
    }
}

#[test]
fn pdf_object_bound() {
    let mut objs = simple_pdf_objs("3 0 R", stream("", b"BT /F1 12 Tf (a) Tj ET"));
    for i in 0..200 {
        objs.push(format!("<< /N {i} >>").into_bytes());
    }
    let limits = DocLimits {
        max_pdf_objects: 100,
        ..Default::default()
    };
    let (x, _) = run_with(&pdf(&objs, ""), DocFormat::Pdf, &limits);
    assert!(x.truncated);
    assert_eq!(reason(&x), "pdf_objects");
}

// ---------- read_file ----------

fn sandbox(files: &[(&str, Vec<u8>)]) -> (tempfile::TempDir, Sandbox) {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let sb = Sandbox::builder().root(dir.path()).build().unwrap();
    (dir, sb)
}

#[test]
fn read_file_returns_extracted_text_paged_and_raw_bytes() {
    let body: String = (0..300)
        .map(|i| para(&format!("paragraph {i} ünï 漢字")))
        .collect();
    let file = docx(&body);
    let (_d, sb) = sandbox(&[
        ("a.docx", file.clone()),
        ("fake.docx", b"plain text".to_vec()),
    ]);
    let full = extract(
        &file,
        DocFormat::Docx,
        &DocLimits::default(),
        Duration::from_secs(9),
    );
    let r = sb.read_file(&ReadArgs::path("a.docx")).unwrap();
    assert_eq!(r.encoding, "extracted:docx");
    assert_eq!(r.content, full.text);
    assert_eq!(r.total_bytes, full.text.len() as u64);
    let info = r.document.clone().unwrap();
    assert_eq!((info.format.as_str(), info.parts), ("docx", 1));
    assert_eq!(info.file_bytes, file.len() as u64);
    assert!(!info.extraction_truncated && !r.truncated);
    // Byte pages (cut inside multi-byte characters) reassemble to the text.
    let mut got = String::new();
    let mut offset = 0;
    loop {
        let mut a = ReadArgs::path("a.docx");
        a.offset = Some(offset);
        a.limit = Some(97);
        let p = sb.read_file(&a).unwrap();
        got.push_str(&p.content);
        offset = p.next_offset;
        if !p.truncated {
            break;
        }
    }
    assert_eq!(got, full.text);
    // Line mode.
    let mut a = ReadArgs::path("a.docx");
    a.start_line = Some(3);
    a.max_lines = Some(2);
    a.line_numbers = Some(true);
    let p = sb.read_file(&a).unwrap();
    assert_eq!(
        p.content,
        "     3\tparagraph 1 ünï 漢字\n     4\tparagraph 2 ünï 漢字\n"
    );
    assert_eq!(
        (p.end_line, p.next_line, p.truncated),
        (Some(4), Some(5), true)
    );
    let mut a = ReadArgs::path("a.docx");
    a.tail_lines = Some(1);
    assert_eq!(
        sb.read_file(&a).unwrap().content,
        "paragraph 299 ünï 漢字\n"
    );
    // raw: the file's bytes, as before.
    let mut a = ReadArgs::path("a.docx");
    a.raw = Some(true);
    let p = sb.read_file(&a).unwrap();
    assert!(p.binary && p.document.is_none());
    assert_eq!(p.total_bytes, file.len() as u64);
    // A file named .docx that is not a zip is read as text.
    let p = sb.read_file(&ReadArgs::path("fake.docx")).unwrap();
    assert_eq!(
        (p.encoding.as_str(), p.content.as_str()),
        ("utf-8", "plain text")
    );
}

#[test]
fn read_file_json_reports_a_cut_extraction() {
    let body = format!("{}{}", para("kept"), "<w:x>".repeat(1000));
    let (_d, sb) = sandbox(&[("deep.docx", docx(&body))]);
    let v = sb.call("read_file", serde_json::json!({"path": "deep.docx"}));
    assert_eq!(v["encoding"], "extracted:docx", "{v}");
    assert_eq!(v["document"]["extraction_truncated"], true);
    assert_eq!(v["document"]["truncated_reason"], "xml_depth");
    assert!(v["content"].as_str().unwrap().contains("kept"));
    let r: rootbound::ReadResult = serde_json::from_value(v).unwrap();
    assert!(r.truncation_notice().unwrap().contains("xml_depth"));
    let schema = rootbound::ToolName::ReadFile.input_schema().to_string();
    assert!(schema.contains("\"raw\""));
    let out = rootbound::ToolName::ReadFile.output_schema().to_string();
    assert!(out.contains("truncated_reason"));
}
