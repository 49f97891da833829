//! Builders of documents for the tests: zip packages, DOCX, deflate bombs, PDFs.
#![allow(dead_code)]

use flate2::{Compress, Compression, FlushCompress};

/// A zip entry: name, bytes as stored in the archive, method (0 stored, 8 deflate), size declared.
pub struct Ent {
    pub name: String,
    pub data: Vec<u8>,
    pub method: u16,
    pub usize_: u32,
}

pub fn stored(name: &str, data: &[u8]) -> Ent {
    Ent {
        name: name.into(),
        data: data.to_vec(),
        method: 0,
        usize_: data.len() as u32,
    }
}

pub fn deflated(name: &str, data: &[u8]) -> Ent {
    let mut c = Compress::new(Compression::fast(), false);
    let mut out = Vec::with_capacity(data.len() + 1024);
    c.compress_vec(data, &mut out, FlushCompress::Finish)
        .unwrap();
    Ent {
        name: name.into(),
        data: out,
        method: 8,
        usize_: data.len() as u32,
    }
}

/// A zip archive (no CRCs: the reader does not check them).
pub fn zip(entries: &[Ent]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut cd = Vec::new();
    for e in entries {
        let off = out.len() as u32;
        let n = e.name.as_bytes();
        let h = |buf: &mut Vec<u8>, central: bool| {
            buf.extend_from_slice(if central {
                &[0x50, 0x4b, 1, 2, 20, 0]
            } else {
                &[0x50, 0x4b, 3, 4]
            });
            buf.extend_from_slice(&[20, 0, 0, 0]);
            buf.extend_from_slice(&e.method.to_le_bytes());
            buf.extend_from_slice(&[0; 8]); // time, date, crc
            buf.extend_from_slice(&(e.data.len() as u32).to_le_bytes());
            buf.extend_from_slice(&e.usize_.to_le_bytes());
            buf.extend_from_slice(&(n.len() as u16).to_le_bytes());
            buf.extend_from_slice(&[0, 0]);
            if central {
                buf.extend_from_slice(&[0; 10]); // comment len, disk, attributes
                buf.extend_from_slice(&off.to_le_bytes());
            }
            buf.extend_from_slice(n);
        };
        h(&mut out, false);
        out.extend_from_slice(&e.data);
        h(&mut cd, true);
    }
    let cd_off = out.len() as u32;
    out.extend_from_slice(&cd);
    out.extend_from_slice(&[0x50, 0x4b, 5, 6, 0, 0, 0, 0]);
    let n = entries.len().min(0xFFFF) as u16;
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&(cd.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_off.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out
}

pub const W: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;

pub fn docx_with(document_xml: Ent) -> Vec<u8> {
    zip(&[
        stored(
            "_rels/.rels",
            br#"<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#,
        ),
        document_xml,
    ])
}

pub fn docx(body: &str) -> Vec<u8> {
    let xml =
        format!(r#"<?xml version="1.0"?><w:document {W}><w:body>{body}</w:body></w:document>"#);
    docx_with(deflated("word/document.xml", xml.as_bytes()))
}

pub fn para(t: &str) -> String {
    format!("<w:p><w:r><w:t>{t}</w:t></w:r></w:p>")
}

/// A deflate (or zlib) stream of `prefix` then `chunk` repeated `times`, built without compressing
/// it all: after a full flush the compressor's output for the same input repeats byte for byte.
/// The checksum at the end is not that of the whole: a reader stops at its bound long before.
pub fn bomb(prefix: &[u8], chunk: &[u8], times: usize, zlib: bool) -> Vec<u8> {
    let mut c = Compress::new(Compression::best(), zlib);
    let mut out = Vec::with_capacity(prefix.len() + (1 << 16));
    c.compress_vec(prefix, &mut out, FlushCompress::Full)
        .unwrap();
    let mut unit = Vec::with_capacity(chunk.len() + (1 << 16));
    c.compress_vec(chunk, &mut unit, FlushCompress::Full)
        .unwrap();
    let mut unit2 = Vec::with_capacity(chunk.len() + (1 << 16));
    c.compress_vec(chunk, &mut unit2, FlushCompress::Full)
        .unwrap();
    assert_eq!(unit, unit2, "full-flush output repeats");
    for _ in 0..times {
        out.extend_from_slice(&unit);
    }
    let mut tail = Vec::with_capacity(64);
    c.compress_vec(&[], &mut tail, FlushCompress::Finish)
        .unwrap();
    out.extend_from_slice(&tail);
    out
}

/// A PDF of `objs` (object i+1 = objs[i]) with a correct xref; `{XREF}` in `trailer_extra` is the
/// xref offset.
pub fn pdf(objs: &[Vec<u8>], trailer_extra: &str) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offs = Vec::new();
    for (i, o) in objs.iter().enumerate() {
        offs.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(o);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objs.len() + 1).as_bytes());
    for o in offs {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    let extra = trailer_extra.replace("{XREF}", &xref.to_string());
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R {extra} >>\nstartxref\n{xref}\n%%EOF\n",
            objs.len() + 1
        )
        .as_bytes(),
    );
    out
}

pub fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut v = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
    v.extend_from_slice(data);
    v.extend_from_slice(b"\nendstream");
    v
}

pub fn simple_pdf_objs(kids: &str, content: Vec<u8>) -> Vec<Vec<u8>> {
    vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        format!("<< /Type /Pages /Kids [{kids}] /Count 1 >>").into_bytes(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_vec(),
        content,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
    ]
}
