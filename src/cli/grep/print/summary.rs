//! rg's summary formats: `-c` / `--count-matches` (`path:count`), `-l` (paths with a match) and
//! `--files-without-match`.

use super::color::{Colors, RESET};
use super::standard::fmt_u64;
use super::PrintOpts;
use rootbound::rg::FileHits;
use rootbound::OutputMode;

/// Writes one file's line of a summary format into `buf`, if it has one.
pub(super) fn file(
    buf: &mut Vec<u8>,
    opts: &PrintOpts,
    mode: OutputMode,
    f: &FileHits<'_>,
    path: &[u8],
    colors: &Colors,
) {
    // A file the walk found that turned out to be binary is left out of every summary, as in rg
    // (its search stopped at the NUL byte, so a count would be short).
    if f.binary_offset.is_some() && !f.named {
        return;
    }
    // rg's summary counts matches under --count-matches, and for a multiline search whose matches
    // may span lines (a match is counted once, not its lines); -l and friends look at lines.
    let count = if mode == OutputMode::Count && (opts.count_matches || f.multi_line) {
        f.matches
    } else {
        f.matched_lines
    };
    let shown = match mode {
        OutputMode::Count => count > 0 || opts.include_zero,
        OutputMode::FilesWithMatches => count > 0,
        OutputMode::FilesWithoutMatch => count == 0 && !f.timed_out,
        OutputMode::Content => false,
    };
    if !shown {
        return;
    }
    let with_path = mode != OutputMode::Count || opts.with_filename;
    if with_path {
        if opts.color {
            buf.extend_from_slice(colors.path.as_bytes());
            buf.extend_from_slice(path);
            buf.extend_from_slice(RESET.as_bytes());
        } else {
            buf.extend_from_slice(path);
        }
    }
    if mode == OutputMode::Count {
        if with_path {
            if opts.null {
                buf.push(b'\0');
            } else {
                buf.extend_from_slice(opts.field_match_separator.as_bytes());
            }
        }
        let mut tmp = [0u8; 20];
        buf.extend_from_slice(fmt_u64(count, &mut tmp));
        buf.extend_from_slice(opts.line_term);
    } else {
        if opts.null {
            buf.push(b'\0');
        } else {
            buf.extend_from_slice(opts.line_term);
        }
    }
}
