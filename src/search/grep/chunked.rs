//! A large indexed file searched in its candidate chunks only ([`crate::index::Pruner::chunks`]):
//! the chunks a line-oriented query cannot match in are not read. Only where a file's answer does
//! not depend on where its lines are: `files_with_matches` (whether a line matches) and `count`
//! without `max_count` (how many do); `content` needs every line's number, and context lines or
//! a multiline match may cross a chunk's edge, so those files are searched whole.

use super::SearchPlan;
use crate::core::dirs::{File, Stat};
use crate::search::contract::OutputMode;
use crate::search::file::FileSearch;
use crate::search::record::{FileResult, FileStatus};
use grep_searcher::Searcher;
use std::path::Path;

/// A chunk longer than this (a chunk of whole lines ends at the first line end past
/// `index::CHUNK` bytes) is not read on its own: the file is searched whole, and the read buffer
/// of a search thread stays within twice its size for whole files.
const CHUNK_READ_MAX: u64 = 512 << 10;

impl SearchPlan<'_> {
    /// The file's result from its candidate chunks alone, or `None`: search it whole. `walked`:
    /// the walk found it (a file named as the search's path is searched whole, as rg does).
    pub(super) fn search_chunks(
        &self,
        (fs, searcher, buf): (&FileSearch<'_>, &mut Searcher, &mut Vec<u8>),
        (root, rel, walked): (usize, &Path, bool),
        st: &Stat,
        file: &File,
    ) -> Option<FileResult> {
        let m = self.matching;
        let answer_is_placeless = match m.mode {
            OutputMode::FilesWithMatches => true,
            OutputMode::Count => m.opts.max_count.is_none(),
            _ => false,
        };
        if !walked
            || !answer_is_placeless
            || m.multiline
            || m.opts.invert
            || m.rg.null_data
            || fs.skip_through_line != 0
        {
            return None;
        }
        let prune = self.selection.prune.as_ref()?;
        let (ranges, n) = prune.chunks(root, rel, st)?;
        if ranges.iter().any(|&(s, e)| e - s > CHUNK_READ_MAX) {
            return None;
        }
        let size = st.st_size as u64;
        let mut total = FileResult::default();
        for (i, &(start, end)) in ranges.iter().enumerate() {
            // Past the first chunk the file is begun: only the checks while searching apply.
            let fs = FileSearch {
                begin_late: fs.begin_late || i > 0,
                ..*fs
            };
            // The byte before the chunk is read with it: see `whole_lines`.
            let from = start.saturating_sub(1);
            let r = match read_range(file, from, end, buf) {
                Ok(data) => {
                    let chunk = whole_lines(data, (from, start, end), size)?;
                    // A chunk that begins with a byte order mark would be decoded when searched
                    // alone (grep-searcher sniffs every slice it is given: UTF-16 transcoded, a
                    // UTF-8 mark taken off), not seen as the bytes the whole file's search sees
                    // there.
                    if start > 0 && !m.rg.no_bom_sniffing && begins_with_bom(chunk) {
                        return None;
                    }
                    fs.run_slice(searcher, chunk)
                }
                Err(_) => FileResult {
                    status: FileStatus::Unreadable,
                    ..Default::default()
                },
            };
            total.units += r.units;
            // A match ends a `files_with_matches` search; a failed chunk (late, unreadable) ends
            // the file as it would end a whole search.
            if r.status != FileStatus::Searched
                || (m.mode == OutputMode::FilesWithMatches && r.units > 0)
            {
                prune.chunks_not_read((n - ranges.len()) as u64);
                return Some(FileResult {
                    units: total.units,
                    ..r
                });
            }
        }
        prune.chunks_not_read((n - ranges.len()) as u64);
        Some(total)
    }
}

/// The chunk `start..end` of a file of `size` bytes from `data`, its bytes read from `from` (the
/// byte before `start`, or `start` at 0), when they are whole lines: a line's end before it
/// (unless it is the file's first) and at its end (unless it is the file's last), every byte
/// there. `None`: the file is searched whole. The index's starts are where a scan of the same
/// file (by its stat) started its chunks, each just after a line's end; a saved index's are
/// checked on load only for their order, and a start inside a line would make a line's tail a
/// line of its own (`^x` matching where no line begins with it, a line cut in two counted twice),
/// which crafted postings cannot do: they only make a search skip.
fn whole_lines(data: &[u8], (from, start, end): (u64, u64, u64), size: u64) -> Option<&[u8]> {
    if data.len() as u64 != end - from {
        return None;
    }
    let (before, chunk) = data.split_at((start - from) as usize);
    let begins = before.is_empty() || before == b"\n";
    let ends = end == size || chunk.last() == Some(&b'\n');
    (begins && ends).then_some(chunk)
}

/// Whether `chunk` begins with a byte order mark grep-searcher decodes (UTF-16 LE or BE, UTF-8),
/// or is too short to tell: then the file is searched whole.
fn begins_with_bom(chunk: &[u8]) -> bool {
    chunk.len() < 2
        || chunk.starts_with(&[0xFF, 0xFE])
        || chunk.starts_with(&[0xFE, 0xFF])
        || chunk.starts_with(&[0xEF, 0xBB, 0xBF])
}

/// Reads bytes `start..end` of `file` into `buf` (page-aligned, as `read_whole` does); a file
/// that shrank since it was opened gives what it still holds.
fn read_range<'b>(
    file: &File,
    start: u64,
    end: u64,
    buf: &'b mut Vec<u8>,
) -> std::io::Result<&'b [u8]> {
    const ALIGN: usize = 4096;
    let size = (end - start) as usize;
    if buf.len() < size + ALIGN {
        buf.resize(size + ALIGN, 0);
    }
    let at = buf.as_ptr().align_offset(ALIGN).min(ALIGN);
    let buf = &mut buf[at..at + size];
    let mut filled = 0;
    while filled < size {
        match crate::core::dirs::read_at(file, start + filled as u64, &mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(&buf[..filled])
}
