//! Differential tests: documents generated with the reference libraries from PyPI (python-pptx,
//! python-docx, openpyxl, fpdf2, nbformat; tests/documents_ref.py) and rootbound's extracted text
//! compared with the libraries' own extraction (PDF: poppler's `pdftotext`), whitespace-normalised.
//! Includes CJK, RTL and emoji text, tables, an empty slide, a hidden sheet, a 1,000-page PDF and a
//! ~50 MB deck. Skipped with a message unless the tools are present or CI is set.
#![cfg(feature = "documents")]

use rootbound::documents::{extract, DocFormat, DocLimits, Extracted};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const SETUP: &str = ".venv/bin/pip install python-pptx python-docx openpyxl fpdf2 nbformat; \
                     apt-get install poppler-utils fonts-dejavu-core";

/// The virtualenv's python when it and pdftotext have what these tests need.
fn tools(test: &str) -> Option<PathBuf> {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    let ok = Command::new(&python)
        .args(["-c", "import pptx, docx, openpyxl, fpdf, nbformat, PIL"])
        .status()
        .is_ok_and(|s| s.success())
        && Command::new("pdftotext")
            .arg("-v")
            .output()
            .is_ok_and(|o| o.status.success());
    if ok {
        return Some(python);
    }
    if std::env::var_os("CI").is_none()
        || std::env::var("ROOTBOUND_SKIP_PYTHON").as_deref() == Ok("1")
    {
        eprintln!(
            "SKIPPED {test}: the reference libraries or pdftotext are missing (run `{SETUP}`)"
        );
        return None;
    }
    panic!("{test}: the reference libraries or pdftotext are missing under CI: run `{SETUP}`");
}

fn py(python: &Path, args: &[&str]) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/documents_ref.py");
    let out = Command::new(python)
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "documents_ref.py {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn ours(path: &Path, f: DocFormat) -> Extracted {
    let bytes = std::fs::read(path).unwrap();
    let x = extract(&bytes, f, &DocLimits::default(), Duration::from_secs(120));
    assert!(!x.truncated, "{}: {:?}", path.display(), x.reason);
    x
}

/// Whitespace-normalised words, without rootbound's marker lines (and `# ` title prefixes).
fn norm_ours(x: &Extracted) -> String {
    let body: Vec<&str> = x
        .text
        .lines()
        .filter(|l| !(l.starts_with("--- ") && l.ends_with(" ---")))
        .map(|l| {
            if x.format == DocFormat::Pptx {
                l.strip_prefix("# ").unwrap_or(l)
            } else {
                l
            }
        })
        .collect();
    norm(&body.join("\n"))
}

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn pdftotext(path: &Path) -> String {
    let out = Command::new("pdftotext")
        .args(["-enc", "UTF-8"])
        .arg(path)
        .arg("-")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

fn same(what: &str, ours: &str, theirs: &str) {
    if ours != theirs {
        let at = ours
            .char_indices()
            .zip(theirs.chars())
            .find(|((_, a), b)| a != b)
            .map_or(ours.len().min(theirs.len()), |((i, _), _)| i);
        let from = ours[..at]
            .char_indices()
            .rev()
            .nth(60)
            .map_or(0, |(i, _)| i);
        panic!(
            "{what}: differs at byte {at}\n ours:   {:?}\n theirs: {:?}",
            &ours[from..(at + 80).min(ours.len())],
            theirs
                .get(from..(at + 80).min(theirs.len()))
                .unwrap_or(theirs)
        );
    }
}

#[test]
fn matches_the_reference_libraries() {
    let Some(python) = tools("matches_the_reference_libraries") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    py(&python, &["gen", d.to_str().unwrap()]);
    for (name, f) in [
        ("deck.pptx", DocFormat::Pptx),
        ("doc.docx", DocFormat::Docx),
        ("book.xlsx", DocFormat::Xlsx),
        ("nb.ipynb", DocFormat::Ipynb),
    ] {
        let x = ours(&d.join(name), f);
        let theirs = std::fs::read_to_string(d.join(format!("{name}.ref.txt"))).unwrap();
        same(name, &norm_ours(&x), &norm(&theirs));
        assert!(x.text.contains("漢字テスト") || name == "nb.ipynb" || x.text.contains("r1c0"));
    }
    let deck = ours(&d.join("deck.pptx"), DocFormat::Pptx);
    let labels: Vec<&str> = deck.sections.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "slide 1",
            "slide 1 notes",
            "slide 2",
            "slide 2 notes",
            "slide 3",
            "slide 4",
            "slide 4 notes"
        ]
    );
    assert!(
        deck.text.contains("--- slide 3 ---\n--- slide 4 ---\n"),
        "the empty slide"
    );
    assert!(
        deck.text.contains("r1c0 漢字テスト\tr1c1 漢字テスト"),
        "table rows"
    );
    assert!(deck.text.contains("עברית العربية · emoji 🚀🎉"));
    let book = ours(&d.join("book.xlsx"), DocFormat::Xlsx);
    assert!(book
        .text
        .contains("--- sheet Secret (hidden) ---\nhidden\tsheet\t42\n"));
    let nb = ours(&d.join("nb.ipynb"), DocFormat::Ipynb);
    assert_eq!(nb.images_skipped, 1);
    let doc = ours(&d.join("doc.docx"), DocFormat::Docx);
    assert!(doc.text.contains("cell 1,0\tcell 1,1\tcell 1,2\n"));
    let paper = ours(&d.join("paper.pdf"), DocFormat::Pdf);
    same(
        "paper.pdf",
        &norm_ours(&paper),
        &norm(&pdftotext(&d.join("paper.pdf"))),
    );
    assert_eq!(paper.sections.len(), 3);
    assert!(paper.text.contains("Ελληνικά кириллица"));
}

#[test]
fn big_documents_match_too() {
    let Some(python) = tools("big_documents_match_too") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    py(&python, &["big", d.to_str().unwrap()]);
    let pdf = d.join("big.pdf");
    let x = ours(&pdf, DocFormat::Pdf);
    assert_eq!(x.sections.len(), 1000);
    let theirs = pdftotext(&pdf);
    assert_eq!(theirs.matches('\u{c}').count(), 1000);
    same("big.pdf", &norm_ours(&x), &norm(&theirs));
    // Page by page: the text under `--- page N ---` is pdftotext's page N.
    let pages: Vec<&str> = theirs.split('\u{c}').collect();
    assert!(x
        .text
        .contains(&format!("--- page 777 ---\n{}\n", pages[776].trim())));
    let deck = d.join("big.pptx");
    assert!(std::fs::metadata(&deck).unwrap().len() > 45_000_000);
    let x = ours(&deck, DocFormat::Pptx);
    assert_eq!(
        x.images_skipped, 49,
        "one picture on every slide but the empty one"
    );
    let theirs = std::fs::read_to_string(d.join("big.pptx.ref.txt")).unwrap();
    same("big.pptx", &norm_ours(&x), &norm(&theirs));
}
