//! Text extraction from documents: PPTX, DOCX, XLSX, PDF and Jupyter notebooks (feature `documents`).
//!
//! [`extract`] takes the document's BYTES (read by the caller through the sandbox's gate; this module
//! never opens a path), a set of bounds ([`DocLimits`]) and the call's time budget ([`crate::Budget`]), and returns the
//! text with structure markers (`--- slide 3 ---`, `--- page 2 ---`, `--- sheet Data ---`,
//! `--- cell 4 [code] ---`). Documents are hostile input: every bound is checked while extracting, and
//! a document over one returns the text extracted so far with [`Extracted::truncated`] set and the
//! reason; never an OOM, a hang or a panic (a panic inside a parser is caught and reported as
//! `internal_error`). XML DTDs and entities other than the five predefined ones and character
//! references are never resolved or expanded.
//!
//! ```
//! use rootbound::documents::{extract, DocFormat, DocLimits};
//! let nb = br##"{"cells":[{"cell_type":"markdown","source":["# Title"]}],"nbformat":4}"##;
//! let x = extract(nb, DocFormat::Ipynb, &DocLimits::default(), std::time::Duration::from_secs(5));
//! assert_eq!(x.text, "--- cell 1 [markdown] ---\n# Title\n");
//! assert!(!x.truncated);
//! ```

use std::time::Duration;

mod cache;
mod ipynb;
mod ooxml;
mod out;
mod pdf;
mod pdfscan;
mod xlsx;
mod xml;
mod zip;

pub(crate) use cache::{cached_extract, FileKey, Held};
pub use out::{Extracted, Section};

use crate::core::deadline::Deadline;
use serde::{Deserialize, Serialize};
use std::cell::{Cell, RefCell};

/// A document format this module extracts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DocFormat {
    /// PowerPoint (Office Open XML presentation).
    Pptx,
    /// Word (Office Open XML document).
    Docx,
    /// Excel (Office Open XML workbook).
    Xlsx,
    /// PDF.
    Pdf,
    /// Jupyter notebook (JSON).
    Ipynb,
}

impl DocFormat {
    /// The short name: `pptx`, `docx`, `xlsx`, `pdf`, `ipynb` (read_file's encoding is
    /// `extracted:NAME`).
    pub fn name(self) -> &'static str {
        match self {
            DocFormat::Pptx => "pptx",
            DocFormat::Docx => "docx",
            DocFormat::Xlsx => "xlsx",
            DocFormat::Pdf => "pdf",
            DocFormat::Ipynb => "ipynb",
        }
    }
}

/// Detects a document from its first bytes and its file name: a zip (`PK\3\4`) named `.pptx`,
/// `.docx`, `.xlsx` (or their macro/template variants), a PDF (`%PDF-` in the first 1 KiB, whatever
/// the name), or a `.ipynb` file starting with `{`. Anything else is not a document.
pub fn detect(head: &[u8], file_name: &[u8]) -> Option<DocFormat> {
    let ext = file_name
        .iter()
        .rposition(|&b| b == b'.')
        .map(|i| file_name[i + 1..].to_ascii_lowercase())
        .unwrap_or_default();
    let head_1k = &head[..head.len().min(1024)];
    if memchr::memmem::find(head_1k, b"%PDF-").is_some() {
        return Some(DocFormat::Pdf);
    }
    if head.starts_with(b"PK\x03\x04") {
        return match ext.as_slice() {
            b"pptx" | b"pptm" | b"ppsx" | b"ppsm" | b"potx" | b"potm" => Some(DocFormat::Pptx),
            b"docx" | b"docm" | b"dotx" | b"dotm" => Some(DocFormat::Docx),
            b"xlsx" | b"xlsm" | b"xltx" | b"xltm" => Some(DocFormat::Xlsx),
            _ => None,
        };
    }
    if ext == b"ipynb" && head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        return Some(DocFormat::Ipynb);
    }
    None
}

/// The bounds of one extraction. Each one, when reached, stops the extraction with the text so far
/// and `truncated_reason` naming it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DocLimits {
    /// Largest document file read for extraction (bigger files are not extracted: `input_bytes`).
    pub max_input_bytes: u64,
    /// Bytes decompressed from the zip archive, all entries together (`uncompressed_bytes`).
    pub max_uncompressed_bytes: u64,
    /// Entries in the zip's central directory (`zip_entries`).
    pub max_zip_entries: usize,
    /// Nesting depth of XML elements (`xml_depth`).
    pub max_xml_depth: usize,
    /// XML elements, all parts together (`xml_elements`).
    pub max_xml_elements: u64,
    /// Indirect objects in a PDF, counted before parsing (`pdf_objects`).
    pub max_pdf_objects: usize,
    /// Bytes decompressed from PDF streams: per stream while loading, all pages' content together
    /// while extracting (`stream_bytes`).
    pub max_stream_bytes: u64,
    /// Bytes of extracted text (`text_bytes`).
    pub max_text_bytes: u64,
    /// Bytes the extractor may hold in parsed structures (PDF objects and content operands, shared
    /// strings, table cells, relationships, notebook values), as it accounts them; the input and the
    /// text are bounded apart (`memory_bytes`).
    pub max_memory_bytes: u64,
    /// Nesting of PDF arrays and dictionaries (`nesting_depth`); JSON nests at most 128 deep.
    pub max_nesting_depth: usize,
}

impl Default for DocLimits {
    fn default() -> Self {
        DocLimits {
            max_input_bytes: 64 << 20,
            max_uncompressed_bytes: 64 << 20,
            max_zip_entries: 10_000,
            max_xml_depth: 256,
            max_xml_elements: 5_000_000,
            max_pdf_objects: 1_000_000,
            max_stream_bytes: 64 << 20,
            max_text_bytes: 32 << 20,
            max_memory_bytes: 128 << 20,
            max_nesting_depth: 100,
        }
    }
}

impl DocLimits {
    /// The bounds of a first try at a document inside a call (see `cache::cached_extract`): the
    /// memory, stream and text bounds cut to a few MiB, so that most documents are extracted under
    /// a small reservation of the call's memory budget. A document that reaches one of them is
    /// extracted again with the full bounds; one that does not comes out as it would with them.
    pub(crate) fn first_try(&self) -> DocLimits {
        DocLimits {
            max_memory_bytes: self.max_memory_bytes.min(8 << 20),
            max_stream_bytes: self.max_stream_bytes.min(8 << 20),
            max_text_bytes: self.max_text_bytes.min(4 << 20),
            ..self.clone()
        }
    }

    /// What an extraction of a `size`-byte document holds at most, as reserved from the call's
    /// memory budget: the document's bytes, what it charges to `max_memory_bytes` and its text.
    pub(crate) fn footprint(&self, size: u64) -> u64 {
        size.saturating_add(self.max_memory_bytes)
            .saturating_add(self.max_text_bytes)
    }
}

/// Why an extraction stopped early (the `truncated_reason` code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The file is larger than `max_input_bytes`.
    InputBytes,
    /// `max_uncompressed_bytes` reached.
    UncompressedBytes,
    /// `max_zip_entries` reached.
    ZipEntries,
    /// `max_xml_depth` reached.
    XmlDepth,
    /// `max_xml_elements` reached.
    XmlElements,
    /// `max_pdf_objects` reached.
    PdfObjects,
    /// `max_stream_bytes` reached.
    StreamBytes,
    /// `max_text_bytes` reached.
    TextBytes,
    /// `max_memory_bytes` reached.
    MemoryBytes,
    /// `max_nesting_depth` reached.
    NestingDepth,
    /// The call's deadline passed (or it was cancelled).
    Deadline,
    /// The document is damaged or uses something not supported (encryption, ...): the detail says.
    Malformed(String),
    /// A parser panicked; the text before it is returned.
    InternalError,
}

impl Reason {
    /// Whether this is a bound on bytes held or decompressed (what a first try with smaller
    /// bounds can reach when the full bounds would not).
    fn of_size(&self) -> bool {
        matches!(
            self,
            Reason::MemoryBytes | Reason::StreamBytes | Reason::TextBytes
        )
    }

    /// The stable code (`uncompressed_bytes`, `deadline`, `malformed`, ...).
    pub fn code(&self) -> &'static str {
        match self {
            Reason::InputBytes => "input_bytes",
            Reason::UncompressedBytes => "uncompressed_bytes",
            Reason::ZipEntries => "zip_entries",
            Reason::XmlDepth => "xml_depth",
            Reason::XmlElements => "xml_elements",
            Reason::PdfObjects => "pdf_objects",
            Reason::StreamBytes => "stream_bytes",
            Reason::TextBytes => "text_bytes",
            Reason::MemoryBytes => "memory_bytes",
            Reason::NestingDepth => "nesting_depth",
            Reason::Deadline => "deadline",
            Reason::Malformed(_) => "malformed",
            Reason::InternalError => "internal_error",
        }
    }

    /// `code` or `code: detail`, as reported in `truncated_reason`.
    pub fn describe(&self) -> String {
        match self {
            Reason::Malformed(d) => format!("malformed: {d}"),
            r => r.code().to_string(),
        }
    }
}

/// The state shared by one extraction: bounds, what is left of them, and the first reason hit.
pub(crate) struct Ctx<'a> {
    pub limits: &'a DocLimits,
    pub deadline: &'a Deadline,
    /// Uncompressed (zip) or decompressed (PDF) bytes still allowed.
    pub remaining: Cell<u64>,
    /// XML elements still allowed.
    pub elements: Cell<u64>,
    reason: RefCell<Option<Reason>>,
    /// A bound that cut part of the document without stopping the rest (reported when nothing
    /// stopped the extraction).
    note: RefCell<Option<Reason>>,
    /// Bytes charged to `max_memory_bytes` and not yet given back, and the most ever held.
    pub memory: Cell<u64>,
    pub peak: Cell<u64>,
    pub images_skipped: Cell<u64>,
    /// A bound on bytes held or decompressed was reached, reported or not (so a first try with
    /// smaller bounds may differ from the full extraction).
    cramped: Cell<bool>,
}

impl<'a> Ctx<'a> {
    pub fn new(limits: &'a DocLimits, deadline: &'a Deadline) -> Self {
        Ctx {
            limits,
            deadline,
            remaining: Cell::new(limits.max_uncompressed_bytes),
            elements: Cell::new(limits.max_xml_elements),
            reason: RefCell::new(None),
            note: RefCell::new(None),
            memory: Cell::new(0),
            peak: Cell::new(0),
            images_skipped: Cell::new(0),
            cramped: Cell::new(false),
        }
    }

    /// Charges `bytes` about to be held to the memory budget; false (and extraction stopped with
    /// `memory_bytes`) when they would pass it: the caller does not allocate them.
    pub fn charge(&self, bytes: u64) -> bool {
        let m = self.memory.get().saturating_add(bytes);
        if m > self.limits.max_memory_bytes {
            self.stop(Reason::MemoryBytes);
            return false;
        }
        self.memory.set(m);
        self.peak.set(self.peak.get().max(m));
        true
    }

    /// Gives back bytes charged with [`Ctx::charge`] once they are freed.
    pub fn release(&self, bytes: u64) {
        self.memory.set(self.memory.get().saturating_sub(bytes));
    }

    /// Records that a bound on bytes held or decompressed cut something without a reason being
    /// reported (a scan that stops at its cap).
    pub fn cramp(&self) {
        self.cramped.set(true);
    }

    /// Records a bound that cut part of the document while the rest goes on (the first one wins).
    pub fn note(&self, r: Reason) {
        if r.of_size() {
            self.cramp();
        }
        let mut cur = self.note.borrow_mut();
        if cur.is_none() {
            *cur = Some(r);
        }
    }

    /// Records why extraction stops (the first reason wins).
    pub fn stop(&self, r: Reason) {
        if r.of_size() {
            self.cramp();
        }
        let mut cur = self.reason.borrow_mut();
        if cur.is_none() {
            *cur = Some(r);
        }
    }

    /// Whether extraction must stop; checks the deadline too.
    pub fn stopped(&self) -> bool {
        if self.reason.borrow().is_some() {
            return true;
        }
        if self.deadline.expired() {
            self.stop(Reason::Deadline);
            return true;
        }
        false
    }

    pub fn reason(&self) -> Option<Reason> {
        let hard = self.reason.borrow().clone();
        let note = self.note.borrow().clone();
        match (hard, note) {
            // A part found missing past a cut (entries left out) is the cut's doing.
            (Some(Reason::Malformed(_)), Some(n)) => Some(n),
            (hard, note) => hard.or(note),
        }
    }

    pub fn image(&self) {
        self.images_skipped.set(self.images_skipped.get() + 1);
    }
}

/// An empty extraction stopped before it began (a file over `max_input_bytes`).
pub(crate) fn refused(format: DocFormat, reason: Reason) -> Extracted {
    out::Out::new(0).finish(format, Some(reason), 0, 0)
}

/// Extracts the text of `bytes` as `format`, within `limits` and `timeout`. Never panics (a panic inside a
/// parser is caught: the text so far is returned with reason `internal_error`).
pub fn extract(
    bytes: &[u8],
    format: DocFormat,
    limits: &DocLimits,
    timeout: Duration,
) -> Extracted {
    extract_within(bytes, format, limits, &Deadline::detached(timeout))
}

/// [`extract`] within the call's deadline.
pub(crate) fn extract_within(
    bytes: &[u8],
    format: DocFormat,
    limits: &DocLimits,
    deadline: &Deadline,
) -> Extracted {
    extract_tried(bytes, format, limits, deadline).0
}

/// [`extract_within`], and whether a bound on bytes held, decompressed or extracted was reached
/// (see [`DocLimits::first_try`]).
pub(crate) fn extract_tried(
    bytes: &[u8],
    format: DocFormat,
    limits: &DocLimits,
    deadline: &Deadline,
) -> (Extracted, bool) {
    let ctx = Ctx::new(limits, deadline);
    let mut out = out::Out::new(limits.max_text_bytes);
    if bytes.len() as u64 > limits.max_input_bytes {
        ctx.stop(Reason::InputBytes);
    } else {
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match format {
            DocFormat::Pptx => ooxml::pptx(bytes, &ctx, &mut out),
            DocFormat::Docx => ooxml::docx(bytes, &ctx, &mut out),
            DocFormat::Xlsx => xlsx::xlsx(bytes, &ctx, &mut out),
            DocFormat::Pdf => pdf::pdf(bytes, &ctx, &mut out),
            DocFormat::Ipynb => ipynb::ipynb(bytes, &ctx, &mut out),
        }));
        if run.is_err() {
            ctx.stop(Reason::InternalError);
        }
    }
    if out.full {
        ctx.stop(Reason::TextBytes);
    }
    let x = out.finish(
        format,
        ctx.reason(),
        ctx.images_skipped.get(),
        ctx.peak.get(),
    );
    (x, ctx.cramped.get())
}
