//! Fuzz target `documents_pdf`: PDF text extraction (lopdf parsing under rootbound's bounds).
//!
//! Input: the PDF bytes.
//!
//! Properties: no panic escapes `extract` (a panic inside the parser is caught and reported as
//! `internal_error`; the harness checks the result, not the hook's message); every call returns
//! within its deadline plus a margin; the text stays within `max_text_bytes`; `truncated` is set
//! exactly when a reason is given.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rootbound::documents::{extract, DocFormat, DocLimits};
use std::time::{Duration, Instant};

fuzz_target!(|data: &[u8]| {
    let limits = DocLimits {
        max_pdf_objects: 10_000,
        max_stream_bytes: 4 << 20,
        max_text_bytes: 1 << 20,
        ..Default::default()
    };
    let started = Instant::now();
    let x = extract(data, DocFormat::Pdf, &limits, Duration::from_secs(2));
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    assert!(x.text.len() as u64 <= limits.max_text_bytes);
    assert_eq!(x.truncated, x.reason.is_some());
});
