//! rg's standard format: `path:line:column:text` (context lines with `-`), or the path as a heading
//! above each file's lines; `-o`, `--vimgrep`, `-r`, `--trim`, `-M`, colour, context separators and
//! the "binary file matches" message, written as rg 13's standard printer writes them.

use super::color::{Colors, RESET};
use super::{PrintOpts, State};
use rootbound::rg::GrepReplacer as Replacer;
use rootbound::rg::{FileHits, HitLine, HitLineKind};

/// One line's text to print: its bytes (terminator included, if it has one) and the ranges to show
/// as matches.
struct Text<'a> {
    bytes: &'a [u8],
    matches: &'a [(usize, usize)],
}

/// Writes one file's lines into `buf` (which is empty), as rg's standard printer does.
pub(super) fn file(
    buf: &mut Vec<u8>,
    opts: &PrintOpts,
    st: &mut State,
    f: &FileHits<'_>,
    path: &[u8],
    rep: Option<&Replacer>,
    colors: &Colors,
) {
    let mut w = W {
        buf,
        opts,
        colors,
        path,
        began: false,
        scratch: Vec::new(),
        scratch_m: Vec::new(),
    };
    for l in f.lines() {
        if !w.began {
            w.begin(st);
        }
        match l.kind {
            HitLineKind::Break => {
                if let Some(sep) = &opts.context_separator {
                    w.buf.extend_from_slice(sep.as_bytes());
                    w.buf.extend_from_slice(opts.line_term);
                }
            }
            HitLineKind::Context => w.context(&l, rep),
            HitLineKind::Match => w.matched(&l, rep),
        }
    }
    if let Some(offset) = f.binary_offset {
        if f.matched_lines > 0 {
            if opts.with_filename {
                w.spec(Kind::Path, path);
                w.buf.extend_from_slice(b": ");
            }
            let what = if f.named {
                "binary file matches"
            } else {
                "WARNING: stopped searching binary file after match"
            };
            w.buf.extend_from_slice(
                format!("{what} (found \"\\0\" byte around offset {offset})\n").as_bytes(),
            );
        }
    }
    if w.began || !w.buf.is_empty() {
        st.printed = true;
    }
}

struct W<'a, 'o> {
    buf: &'a mut Vec<u8>,
    opts: &'o PrintOpts,
    colors: &'o Colors,
    path: &'a [u8],
    began: bool,
    /// A line with its matches replaced (`-r`), and the replacements' ranges in it.
    scratch: Vec<u8>,
    scratch_m: Vec<(usize, usize)>,
}

impl W<'_, '_> {
    /// rg's search prelude: the separator between files, and the heading.
    fn begin(&mut self, st: &State) {
        self.began = true;
        if st.printed {
            if self.opts.heading {
                self.buf.extend_from_slice(self.opts.line_term);
            } else if st.context {
                if let Some(sep) = &self.opts.context_separator {
                    self.buf.extend_from_slice(sep.as_bytes());
                    self.buf.extend_from_slice(self.opts.line_term);
                }
            }
        }
        if self.opts.heading && self.opts.with_filename {
            self.spec(Kind::Path, self.path);
            if self.opts.null {
                self.buf.push(b'\0');
            } else {
                self.buf.extend_from_slice(self.opts.line_term);
            }
        }
    }

    /// Writes `text` in the colour of its kind (plain without colour).
    fn spec(&mut self, kind: Kind, text: &[u8]) {
        if self.opts.color {
            let spec = match kind {
                Kind::Path => &self.colors.path,
                Kind::Line => &self.colors.line,
                Kind::Column => &self.colors.column,
            };
            self.buf.extend_from_slice(spec.as_bytes());
            self.buf.extend_from_slice(text);
            self.buf.extend_from_slice(RESET.as_bytes());
        } else {
            self.buf.extend_from_slice(text);
        }
    }

    fn number(&mut self, kind: Kind, n: u64, sep: &[u8]) {
        let mut tmp = [0u8; 20];
        let s = fmt_u64(n, &mut tmp);
        self.spec(kind, s);
        self.buf.extend_from_slice(sep);
    }

    /// Path, line number, column and byte offset, as the options ask.
    fn prelude(&mut self, line: u64, column: Option<u64>, offset: u64, context: bool) {
        let opts = self.opts;
        let sep = if context {
            opts.field_context_separator.as_bytes()
        } else {
            opts.field_match_separator.as_bytes()
        };
        if !opts.heading && opts.with_filename {
            self.spec(Kind::Path, self.path);
            if opts.null {
                self.buf.push(b'\0');
            } else {
                self.buf.extend_from_slice(sep);
            }
        }
        if opts.line_number {
            self.number(Kind::Line, line, sep);
        }
        if let (Some(c), true) = (column, opts.column) {
            self.number(Kind::Column, c, sep);
        }
        if opts.byte_offset {
            // rg colours the offset as a column.
            self.number(Kind::Column, offset, sep);
        }
    }

    fn context(&mut self, l: &HitLine<'_>, rep: Option<&Replacer>) {
        if !l.submatches.is_empty() && !self.opts.only_matching && rep.is_none() {
            // A context line with matches (`-v`): coloured, with the first match's column.
            let col = Some(l.submatches[0].0 as u64 + 1);
            self.prelude(l.line_number, col, l.offset, true);
            let n = l.submatches.len();
            self.line(
                Text {
                    bytes: l.bytes,
                    matches: l.submatches,
                },
                true,
                n,
            );
            return;
        }
        for (n, start, line) in split_lines(l.line_number, self.opts.eol(), l.bytes) {
            self.prelude(n, None, l.offset + start as u64, true);
            self.line(
                Text {
                    bytes: line,
                    matches: &[],
                },
                true,
                0,
            );
        }
    }

    fn matched(&mut self, l: &HitLine<'_>, rep: Option<&Replacer>) {
        if l.submatches.is_empty() && rep.is_none() {
            // Nothing to find in the line (or a line `-v` shows, which rg prints whole under `-o`
            // too): written as it is.
            return self.plain(l.line_number, l.offset, l.bytes);
        }
        // Whether the match spans lines is a property of the line as found, not of its replacement
        // (a replacement may hold a newline: rg prints it as it is, under one line number).
        let multi = l.bytes[..l.bytes.len().saturating_sub(1)].contains(&self.opts.eol());
        let Some(r) = rep else {
            return self.matched_text(multi, l.line_number, l.offset, l.bytes, l.submatches);
        };
        // `-r`: rg replaces the matches first and prints the result as it prints a line, with the
        // replacements as its matches.
        let mut bytes = std::mem::take(&mut self.scratch);
        let mut ranges = std::mem::take(&mut self.scratch_m);
        bytes.clear();
        ranges.clear();
        r.replace_all(l.bytes, &mut bytes, &mut ranges);
        self.matched_text(multi, l.line_number, l.offset, &bytes, &ranges);
        self.scratch = bytes;
        self.scratch_m = ranges;
    }

    /// Matching lines without match ranges, each as it is.
    fn plain(&mut self, first: u64, offset: u64, bytes: &[u8]) {
        for (n, start, line) in split_lines(first, self.opts.eol(), bytes) {
            self.prelude(n, None, offset + start as u64, false);
            self.line(
                Text {
                    bytes: line,
                    matches: &[],
                },
                false,
                0,
            );
        }
    }

    /// A matching line (or the lines of one multiline match) with its matches.
    fn matched_text(
        &mut self,
        multi: bool,
        n: u64,
        offset: u64,
        bytes: &[u8],
        matches: &[(usize, usize)],
    ) {
        let opts = self.opts;
        if matches.is_empty() {
            // A line `-v` shows, through `-r` (which found nothing to replace in it).
            return self.plain(n, offset, bytes);
        }
        if multi {
            if opts.only_matching {
                self.multi_only(n, offset, bytes, matches);
            } else if opts.vimgrep {
                self.multi_per_match(n, offset, bytes, matches);
            } else {
                self.multi(n, offset, bytes, matches);
            }
            return;
        }
        if opts.only_matching {
            for &(s, e) in matches {
                self.prelude(n, Some(s as u64 + 1), offset + s as u64, false);
                let piece = &bytes[s..e];
                let piece = piece.strip_suffix(&[opts.eol()]).unwrap_or(piece);
                self.line(
                    Text {
                        bytes: piece,
                        matches: &[(0, piece.len())],
                    },
                    false,
                    1,
                );
            }
            return;
        }
        if opts.vimgrep {
            for &m in matches {
                self.prelude(n, Some(m.0 as u64 + 1), offset + m.0 as u64, false);
                self.line(
                    Text {
                        bytes,
                        matches: &[m],
                    },
                    false,
                    matches.len(),
                );
            }
            return;
        }
        let col = matches.first().map(|m| m.0 as u64 + 1);
        self.prelude(n, col, offset, false);
        self.line(Text { bytes, matches }, false, matches.len());
    }

    /// The lines of one multiline match, each with the part of the matches it holds and the
    /// column of the first match (rg's sink_slow_multi_line).
    fn multi(&mut self, first: u64, offset: u64, bytes: &[u8], matches: &[(usize, usize)]) {
        let col = matches.first().map(|m| m.0 as u64 + 1);
        for (n, start, line) in split_lines(first, self.opts.eol(), bytes) {
            let end = start + line.len();
            let ms: Vec<(usize, usize)> = matches
                .iter()
                .filter(|m| m.0 < end && m.1 > start || (m.0 == m.1 && m.0 == start))
                .map(|m| (m.0.max(start) - start, m.1.min(end) - start))
                .collect();
            self.prelude(n, col, offset + start as u64, false);
            self.line(
                Text {
                    bytes: line,
                    matches: &ms,
                },
                false,
                ms.len(),
            );
        }
    }

    /// `-o` on a multiline match: each line's part of each match on its own line, numbered by its
    /// line, with the match's column (rg's sink_slow_multi_line_only_matching).
    fn multi_only(&mut self, first: u64, offset: u64, bytes: &[u8], matches: &[(usize, usize)]) {
        let mut midx = 0;
        for (n, start, line) in split_lines(first, self.opts.eol(), bytes) {
            let mut from = start;
            let end = start + self.opts.content_end(line);
            if self.opts.trim {
                from += trimmed(&bytes[from..end], self.opts.line_term);
            }
            while from < end {
                let m = matches[midx];
                if m.1 <= from {
                    if midx + 1 < matches.len() {
                        midx += 1;
                        continue;
                    }
                    break;
                }
                if from < m.0 {
                    from = end.min(m.0);
                    continue;
                }
                let upto = end.min(m.1);
                self.prelude(n, Some(m.0 as u64 + 1), offset + m.0 as u64, false);
                let piece = &bytes[from..upto];
                self.line(
                    Text {
                        bytes: piece,
                        matches: &[(0, piece.len())],
                    },
                    false,
                    1,
                );
                from = upto;
            }
        }
    }

    /// `--vimgrep` on a multiline match: each match once, as the first line it is on with that
    /// match coloured (rg's sink_slow_multi_per_match with its one-line rule, rg issue 1866).
    fn multi_per_match(&mut self, first: u64, offset: u64, bytes: &[u8], ms: &[(usize, usize)]) {
        for &m in ms {
            let Some((n, start, line)) = split_lines(first, self.opts.eol(), bytes)
                .find(|(_, start, line)| start + line.len() > m.0)
            else {
                continue;
            };
            let end = start + line.len();
            let col = m.0.saturating_sub(start) as u64 + 1;
            self.prelude(n, Some(col), offset + start as u64, false);
            let here = (m.0.max(start) - start, m.1.min(end) - start);
            self.line(
                Text {
                    bytes: line,
                    matches: &[here],
                },
                false,
                1,
            );
        }
    }

    /// The text of a line: trimmed (`--trim`), cut (`-M`), matches coloured, one terminator.
    fn line(&mut self, t: Text<'_>, context: bool, original: usize) {
        let opts = self.opts;
        let bytes = t.bytes;
        if let Some(max) = opts.max_columns {
            if bytes.len() as u64 > max {
                self.exceeded(t, context, original, max);
                return;
            }
        }
        let end = opts.content_end(bytes);
        let start = if opts.trim {
            trimmed(&bytes[..end], opts.line_term)
        } else {
            0
        };
        if !opts.color || t.matches.is_empty() || self.colors.matched.is_none() {
            // rg writes the line as it is, terminator and all.
            if opts.trim {
                self.buf.extend_from_slice(&bytes[start..]);
            } else {
                self.buf.extend_from_slice(bytes);
            }
            if !bytes.ends_with(&[opts.eol()]) {
                self.buf.extend_from_slice(opts.line_term);
            }
            return;
        }
        self.colored(bytes, start, end, t.matches);
        self.buf.extend_from_slice(opts.line_term);
    }

    /// `bytes[start..end]` with the parts in `matches` coloured (rg's write_colored_matches).
    fn colored(&mut self, bytes: &[u8], mut start: usize, end: usize, matches: &[(usize, usize)]) {
        let mut in_match = false;
        let mut i = 0;
        while start < end {
            if matches[i].1 <= start {
                if i + 1 < matches.len() {
                    i += 1;
                    continue;
                }
                if in_match {
                    self.buf.extend_from_slice(RESET.as_bytes());
                    in_match = false;
                }
                self.buf.extend_from_slice(&bytes[start..end]);
                break;
            }
            let m = matches[i];
            if start < m.0 {
                let upto = end.min(m.0);
                if in_match {
                    self.buf.extend_from_slice(RESET.as_bytes());
                    in_match = false;
                }
                self.buf.extend_from_slice(&bytes[start..upto]);
                start = upto;
            } else {
                let upto = end.min(m.1);
                if !in_match {
                    let spec = self.colors.matched.as_deref().unwrap_or(RESET);
                    self.buf.extend_from_slice(spec.as_bytes());
                    in_match = true;
                }
                self.buf.extend_from_slice(&bytes[start..upto]);
                start = upto;
            }
        }
        if in_match {
            self.buf.extend_from_slice(RESET.as_bytes());
        }
    }

    /// A line over `-M` columns: omitted, or previewed (`--max-columns-preview`).
    fn exceeded(&mut self, t: Text<'_>, context: bool, original: usize, max: u64) {
        let opts = self.opts;
        if opts.max_columns_preview {
            let mut end = t.bytes.len();
            if let Ok(s) = std::str::from_utf8(t.bytes) {
                end = s
                    .char_indices()
                    .map(|(i, c)| i + c.len_utf8())
                    .take(max as usize)
                    .last()
                    .unwrap_or(0);
            } else {
                end = end.min(max as usize);
            }
            let start = if opts.trim {
                trimmed(&t.bytes[..end], opts.line_term)
            } else {
                0
            };
            if opts.color && !t.matches.is_empty() && self.colors.matched.is_some() {
                self.colored(t.bytes, start, end, t.matches);
            } else {
                self.buf.extend_from_slice(&t.bytes[start..end]);
            }
            if t.matches.is_empty() {
                self.buf
                    .extend_from_slice(b" [... omitted end of long line]");
            } else {
                let rest = t.matches.iter().filter(|m| m.0 >= end).count();
                let tense = if rest == 1 { "match" } else { "matches" };
                self.buf
                    .extend_from_slice(format!(" [... {rest} more {tense}]").as_bytes());
            }
            self.buf.extend_from_slice(opts.line_term);
            return;
        }
        if original == 0 || opts.only_matching {
            if context {
                self.buf.extend_from_slice(b"[Omitted long context line]");
            } else {
                self.buf.extend_from_slice(b"[Omitted long matching line]");
            }
        } else {
            self.buf.extend_from_slice(
                format!("[Omitted long line with {original} matches]").as_bytes(),
            );
        }
        self.buf.extend_from_slice(opts.line_term);
    }
}

/// The kinds of text that have a colour of their own (matches aside).
#[derive(Clone, Copy)]
enum Kind {
    Path,
    Line,
    Column,
}

/// The lines of `bytes` (one, or several for a multiline match) with their numbers and where each
/// starts in `bytes`.
fn split_lines(first: u64, eol: u8, bytes: &[u8]) -> impl Iterator<Item = (u64, usize, &[u8])> {
    let mut start = 0;
    let mut n = first;
    std::iter::from_fn(move || {
        if start >= bytes.len() {
            return None;
        }
        let end = memchr::memchr(eol, &bytes[start..]).map_or(bytes.len(), |i| start + i + 1);
        let line = (n, start, &bytes[start..end]);
        start = end;
        n += 1;
        Some(line)
    })
}

/// How many leading ASCII spaces `--trim` removes (rg's trim_ascii_prefix: the bytes of the line
/// terminator are not spaces to it).
fn trimmed(line: &[u8], term: &[u8]) -> usize {
    line.iter()
        .take_while(|&&b| {
            matches!(b, b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r' | b' ') && !term.contains(&b)
        })
        .count()
}

/// `n` in decimal, written at the end of `tmp`.
pub(super) fn fmt_u64(mut n: u64, tmp: &mut [u8; 20]) -> &[u8] {
    let mut i = tmp.len();
    loop {
        i -= 1;
        tmp[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &tmp[i..]
}
