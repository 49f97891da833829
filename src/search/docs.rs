//! grep_search over documents (`documents: true`): a PPTX, DOCX, XLSX, PDF or notebook is searched
//! as its extracted text (cached per file version, see `documents::cache`), and each line shown is
//! prefixed with the part it is in: `path:12:[slide 3] text`.

use crate::core::deadline::Deadline;
use crate::core::io::pread_exact;
use crate::core::memory::NoRoom;
use crate::core::open::Opened;
use crate::documents::{cached_extract, detect, DocLimits, FileKey};
use crate::search::file::FileSearch;
use crate::search::record::{FileResult, FileStatus, Found};
use grep_searcher::Searcher;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Searches `opened` as a document; `None` when it is not one (search it as a file).
pub(crate) fn search(
    fs: &FileSearch<'_>,
    searcher: &mut Searcher,
    opened: &Opened,
    rel: &Path,
    deadline: &Deadline,
) -> Option<FileResult> {
    let size = opened.stat.st_size.max(0) as u64;
    let head = pread_exact(opened, 0, 1024.min(size as usize)).ok()?;
    let name = rel.file_name().map(|n| n.as_bytes()).unwrap_or(b"");
    let format = detect(&head, name)?;
    let limits = DocLimits::default();
    let x = if size > limits.max_input_bytes {
        return None;
    } else {
        cached_extract(FileKey::of(&opened.stat), format, &limits, deadline, || {
            pread_exact(opened, 0, size as usize)
        })
        .ok()?
    };
    // No room in the call's memory budget: a document larger than all of it is skipped as too
    // large, one whose wait outlasted the deadline is where the next page resumes.
    if let Some(no) = x.no_room {
        let status = match no {
            NoRoom::OverBudget => FileStatus::TooLarge,
            NoRoom::Expired => FileStatus::TimedOut,
        };
        return Some(FileResult {
            status,
            ..Default::default()
        });
    }
    let mut r = fs.run_slice(searcher, x.text.as_bytes());
    // Each item's text gets its part's label; the items are re-laid in a new text buffer.
    if let Found::Lines(lines) = &mut r.found {
        let mut text = String::with_capacity(lines.text.len() + 16 * lines.items.len());
        for item in &mut lines.items {
            let line = &lines.text[item.start..item.end];
            let marker = line.starts_with("--- ") && line.ends_with(" ---");
            let start = text.len();
            if let Some(label) = x.section_of(item.line).filter(|_| !marker) {
                text.push('[');
                text.push_str(label);
                text.push_str("] ");
            }
            text.push_str(line);
            item.start = start;
            item.end = text.len();
        }
        lines.text = text;
    }
    Some(r)
}
