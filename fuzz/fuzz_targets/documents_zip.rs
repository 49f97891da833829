//! Fuzz target `documents_zip`: the zip/XML front of document extraction (PPTX, DOCX, XLSX) and
//! notebooks (JSON).
//!
//! Input: a first byte, then the document. First byte `& 3` picks the format (0 docx, 1 pptx, 2 xlsx,
//! 3 ipynb). With bit 0x80 set the rest is not a zip but one XML part that the harness packs into a
//! minimal package as the format's main part (`word/document.xml`, `ppt/slides/slide1.xml`,
//! `xl/worksheets/sheet1.xml`), so the fuzzer reaches the XML readers directly.
//!
//! Properties: no panic; every call returns within its deadline plus a margin; the text stays within
//! `max_text_bytes`; `truncated` is set exactly when a reason is given.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rootbound::documents::{extract, DocFormat, DocLimits};
use std::time::{Duration, Instant};

fn stored_zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut cd = Vec::new();
    for (name, data) in entries {
        let off = out.len() as u32;
        for central in [false, true] {
            let buf = if central { &mut cd } else { &mut out };
            buf.extend_from_slice(if central { &[0x50, 0x4b, 1, 2, 20, 0] } else { &[0x50, 0x4b, 3, 4] });
            buf.extend_from_slice(&[20, 0, 0, 0, 0, 0]);
            buf.extend_from_slice(&[0; 8]);
            buf.extend_from_slice(&(data.len() as u32).to_le_bytes());
            buf.extend_from_slice(&(data.len() as u32).to_le_bytes());
            buf.extend_from_slice(&(name.len() as u16).to_le_bytes());
            buf.extend_from_slice(&[0, 0]);
            if central {
                buf.extend_from_slice(&[0; 10]);
                buf.extend_from_slice(&off.to_le_bytes());
            }
            buf.extend_from_slice(name.as_bytes());
            if !central {
                buf.extend_from_slice(data);
            }
        }
    }
    let cd_off = out.len() as u32;
    out.extend_from_slice(&cd);
    out.extend_from_slice(&[0x50, 0x4b, 5, 6, 0, 0, 0, 0]);
    let n = (entries.len() as u16).to_le_bytes();
    out.extend_from_slice(&n);
    out.extend_from_slice(&n);
    out.extend_from_slice(&(cd.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_off.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out
}

fn package(format: DocFormat, xml: &[u8]) -> Vec<u8> {
    let rel = |t: &str| {
        format!(r#"<Relationships><Relationship Id="rId1" Type="x/officeDocument" Target="{t}"/></Relationships>"#)
    };
    match format {
        DocFormat::Docx => stored_zip(&[
            ("_rels/.rels", rel("word/document.xml").as_bytes()),
            ("word/document.xml", xml),
        ]),
        DocFormat::Pptx => stored_zip(&[
            ("_rels/.rels", rel("ppt/presentation.xml").as_bytes()),
            (
                "ppt/presentation.xml",
                br#"<p:presentation xmlns:p="p" xmlns:r="r"><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>"#,
            ),
            (
                "ppt/_rels/presentation.xml.rels",
                br#"<Relationships><Relationship Id="rId1" Type="x/slide" Target="slides/slide1.xml"/></Relationships>"#,
            ),
            ("ppt/slides/slide1.xml", xml),
        ]),
        _ => stored_zip(&[
            ("_rels/.rels", rel("xl/workbook.xml").as_bytes()),
            (
                "xl/workbook.xml",
                br#"<workbook xmlns:r="r"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>"#,
            ),
            (
                "xl/_rels/workbook.xml.rels",
                br#"<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="x/sharedStrings" Target="sharedStrings.xml"/></Relationships>"#,
            ),
            ("xl/sharedStrings.xml", br#"<sst><si><t>shared</t></si></sst>"#),
            ("xl/worksheets/sheet1.xml", xml),
        ]),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let format = [DocFormat::Docx, DocFormat::Pptx, DocFormat::Xlsx, DocFormat::Ipynb][(sel & 3) as usize];
    let bytes = if sel & 0x80 != 0 && format != DocFormat::Ipynb {
        package(format, rest)
    } else {
        rest.to_vec()
    };
    let limits = DocLimits {
        max_uncompressed_bytes: 4 << 20,
        max_zip_entries: 1000,
        max_xml_depth: 64,
        max_xml_elements: 100_000,
        max_text_bytes: 1 << 20,
        ..Default::default()
    };
    let started = Instant::now();
    let x = extract(&bytes, format, &limits, Duration::from_secs(2));
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    assert!(x.text.len() as u64 <= limits.max_text_bytes);
    assert_eq!(x.truncated, x.reason.is_some());
});
