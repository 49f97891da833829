//! grep_search with `documents: true`: documents searched as their extracted text, each line naming
//! its part; counts, file lists and cursors over documents; deny rules; the cache follows edits.
#![cfg(feature = "documents")]

use crate::support;
use rootbound::{GrepArgs, OutputMode, Sandbox};
use serde_json::json;
use support::doc::*;

fn tree() -> (tempfile::TempDir, Sandbox) {
    let dir = tempfile::tempdir().unwrap();
    let w = |n: &str, b: &[u8]| std::fs::write(dir.path().join(n), b).unwrap();
    let body: String = ["intro", "needle one", "middle", "needle two"]
        .iter()
        .map(|t| para(t))
        .collect();
    w("a.docx", &docx(&body));
    let objs = simple_pdf_objs(
        "3 0 R",
        stream(
            "",
            b"BT /F1 12 Tf 72 700 Td (pdf needle) Tj 0 -14 Td (other) Tj ET",
        ),
    );
    w("b.pdf", &pdf(&objs, ""));
    w(
        "c.ipynb",
        br#"{"cells":[{"cell_type":"code","source":["x = 1\n","needle_in_code()"],"outputs":[]}],"nbformat":4}"#,
    );
    w("d.txt", b"plain needle\n");
    w("secret.docx", &docx(&para("needle secret")));
    let sb = Sandbox::builder()
        .root(dir.path())
        .deny("secret.docx")
        .path_display(rootbound::PathDisplay::Relative)
        .build()
        .unwrap();
    (dir, sb)
}

fn grep(sb: &Sandbox, f: impl FnOnce(&mut GrepArgs)) -> rootbound::GrepResult {
    let mut a = GrepArgs::new("needle");
    a.limit = Some(100);
    f(&mut a);
    sb.grep_search(&a).unwrap()
}

#[test]
fn documents_are_searched_only_when_asked() {
    let (_d, sb) = tree();
    let off = grep(&sb, |_| {});
    // Without documents: the docx is binary; the (uncompressed) PDF's and the notebook's bytes are
    // searched as they are.
    assert_eq!(
        off.matches,
        "b.pdf:14:BT /F1 12 Tf 72 700 Td (pdf needle) Tj 0 -14 Td (other) Tj ET\nc.ipynb:1:{\"cells\":[{\"cell_type\":\"code\",\"source\":[\"x = 1\\n\",\"needle_in_code()\"],\"outputs\":[]}],\"nbformat\":4}\nd.txt:1:plain needle\n"
    );
    let on = grep(&sb, |a| a.documents = Some(true));
    assert_eq!(
        on.matches,
        "a.docx:3:[body] needle one\n\
         a.docx:5:[body] needle two\n\
         b.pdf:2:[page 1] pdf needle\n\
         c.ipynb:3:[cell 1] needle_in_code()\n\
         d.txt:1:plain needle\n"
    );
    assert!(!on.truncated);
    assert!(
        !on.matches.contains("secret"),
        "a denied document is never searched"
    );
    let counts = grep(&sb, |a| {
        a.documents = Some(true);
        a.output_mode = Some(OutputMode::Count);
    });
    assert_eq!(counts.matches, "a.docx:2\nb.pdf:1\nc.ipynb:1\nd.txt:1\n");
    assert_eq!(counts.total, Some(5));
    let files = grep(&sb, |a| {
        a.documents = Some(true);
        a.output_mode = Some(OutputMode::FilesWithMatches);
    });
    assert_eq!(files.matches, "a.docx\nb.pdf\nc.ipynb\nd.txt\n");
}

#[test]
fn context_cursors_and_json() {
    let (_d, sb) = tree();
    let ctx = grep(&sb, |a| {
        a.documents = Some(true);
        a.path = Some("a.docx".into());
        a.before = Some(1);
    });
    assert_eq!(
        ctx.matches,
        "a.docx-2-[body] intro\na.docx:3:[body] needle one\na.docx-4-[body] middle\na.docx:5:[body] needle two\n"
    );
    // One match per page by cursor: the pages concatenate to the whole.
    let whole = grep(&sb, |a| a.documents = Some(true)).matches;
    let mut got = String::new();
    let mut a = GrepArgs::new("needle");
    a.documents = Some(true);
    a.limit = Some(1);
    loop {
        let p = sb.grep_search(&a).unwrap();
        got.push_str(&p.matches);
        if !p.truncated {
            break;
        }
        a.cursor = p.next_cursor;
    }
    assert_eq!(got, whole);
    // A cursor of the documents query is not one of the plain query.
    let mut a = GrepArgs::new("needle");
    a.documents = Some(true);
    a.limit = Some(1);
    let p = sb.grep_search(&a).unwrap();
    let mut plain = GrepArgs::new("needle");
    plain.cursor = p.next_cursor;
    assert!(sb.grep_search(&plain).is_err());
    let v = sb.call(
        "grep_search",
        json!({"pattern": "pdf needle", "documents": true}),
    );
    assert_eq!(v["matches"], "b.pdf:2:[page 1] pdf needle\n", "{v}");
    let schema = rootbound::ToolName::GrepSearch.input_schema().to_string();
    assert!(schema.contains("\"documents\""));
}

#[test]
fn an_edited_document_is_extracted_again() {
    let (d, sb) = tree();
    assert_eq!(
        grep(&sb, |a| {
            a.documents = Some(true);
            a.path = Some("a.docx".into());
            a.output_mode = Some(OutputMode::Count);
        })
        .matches,
        "a.docx:2\n"
    );
    std::fs::write(d.path().join("a.docx"), docx(&para("just one needle here"))).unwrap();
    let p = grep(&sb, |a| {
        a.documents = Some(true);
        a.path = Some("a.docx".into());
    });
    assert_eq!(p.matches, "a.docx:2:[body] just one needle here\n");
}
