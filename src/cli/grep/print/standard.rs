//! rg's standard format: `path:line:column:text` (context lines with `-`), or the path as a heading
//! above each file's lines; `-o`, `--vimgrep`, `-r`, `--trim`, `-M`, colour, context separators and
//! the "binary file matches" message, written as rg 13's standard printer writes them.

use super::color::{Colors, RESET};
use super::{PrintOpts, State};
use rootbound::GrepReplacer as Replacer;
use rootbound::{FileHits, HitLine, HitLineKind};

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
                    w.buf.push(b'\n');
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
                self.buf.push(b'\n');
            } else if st.context {
                if let Some(sep) = &self.opts.context_separator {
                    self.buf.extend_from_slice(sep.as_bytes());
                    self.buf.push(b'\n');
                }
            }
        }
        if self.opts.heading && self.opts.with_filename {
            self.spec(Kind::Path, self.path);
            self.buf.push(if self.opts.null { b'\0' } else { b'\n' });
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

    /// Path, line number and column, as the options ask.
    fn prelude(&mut self, line: u64, column: Option<u64>, context: bool) {
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
    }

    fn context(&mut self, l: &HitLine<'_>, rep: Option<&Replacer>) {
        if !l.submatches.is_empty() && !self.opts.only_matching && rep.is_none() {
            // A context line with matches (`-v`): coloured, with the first match's column.
            self.prelude(l.line_number, Some(l.submatches[0].0 as u64 + 1), true);
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
        for (n, line) in split_lines(l.line_number, l.bytes) {
            self.prelude(n, None, true);
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
        let opts = self.opts;
        if l.submatches.is_empty() && !opts.only_matching && rep.is_none() {
            // The fast path: nothing to find in the line.
            for (n, line) in split_lines(l.line_number, l.bytes) {
                self.prelude(n, None, false);
                self.line(
                    Text {
                        bytes: line,
                        matches: &[],
                    },
                    false,
                    0,
                );
            }
            return;
        }
        let multi = l.bytes[..l.bytes.len().saturating_sub(1)].contains(&b'\n');
        if multi {
            self.matched_multi(l);
            return;
        }
        if opts.only_matching {
            for &(s, e) in l.submatches {
                self.prelude(l.line_number, Some(s as u64 + 1), false);
                let mut piece = std::mem::take(&mut self.scratch);
                piece.clear();
                match rep {
                    Some(r) => r.replace_one(l.bytes, (s, e), &mut piece),
                    None => piece.extend_from_slice(&l.bytes[s..e]),
                }
                let len = piece.len();
                self.line(
                    Text {
                        bytes: &piece,
                        matches: &[(0, len)],
                    },
                    false,
                    1,
                );
                self.scratch = piece;
            }
            return;
        }
        if opts.vimgrep {
            for &m in l.submatches {
                self.prelude(l.line_number, Some(m.0 as u64 + 1), false);
                self.line_with(l.bytes, &[m], rep, l.submatches.len());
            }
            return;
        }
        let col = l.submatches.first().map(|m| m.0 as u64 + 1);
        self.prelude(l.line_number, col, false);
        self.line_with(l.bytes, l.submatches, rep, l.submatches.len());
    }

    /// A matching line with its matches (replaced with `-r`).
    fn line_with(
        &mut self,
        bytes: &[u8],
        matches: &[(usize, usize)],
        rep: Option<&Replacer>,
        original: usize,
    ) {
        match rep {
            Some(r) => {
                let mut s = std::mem::take(&mut self.scratch);
                let mut m = std::mem::take(&mut self.scratch_m);
                s.clear();
                m.clear();
                r.replace_all(bytes, &mut s, &mut m);
                self.line(
                    Text {
                        bytes: &s,
                        matches: &m,
                    },
                    false,
                    original,
                );
                self.scratch = s;
                self.scratch_m = m;
            }
            None => self.line(Text { bytes, matches }, false, original),
        }
    }

    /// The lines of one multiline match, each with the part of the match it holds.
    fn matched_multi(&mut self, l: &HitLine<'_>) {
        let mut start = 0;
        let mut n = l.line_number;
        let col = l.submatches.first().map(|m| m.0 as u64 + 1);
        while start < l.bytes.len() {
            let end =
                memchr::memchr(b'\n', &l.bytes[start..]).map_or(l.bytes.len(), |i| start + i + 1);
            let line = &l.bytes[start..end];
            let ms: Vec<(usize, usize)> = l
                .submatches
                .iter()
                .filter(|m| m.0 < end && m.1 > start || (m.0 == m.1 && m.0 == start))
                .map(|m| (m.0.max(start) - start, m.1.min(end) - start))
                .collect();
            if self.opts.only_matching {
                for m in ms {
                    let piece = &line[m.0..m.1];
                    let piece = piece.strip_suffix(b"\n").unwrap_or(piece);
                    if piece.is_empty() {
                        continue;
                    }
                    self.prelude(n, Some(m.0 as u64 + 1), false);
                    let len = piece.len();
                    let owned = piece.to_vec();
                    self.line(
                        Text {
                            bytes: &owned,
                            matches: &[(0, len)],
                        },
                        false,
                        1,
                    );
                }
            } else {
                self.prelude(n, col, false);
                self.line(
                    Text {
                        bytes: line,
                        matches: &ms,
                    },
                    false,
                    ms.len(),
                );
            }
            n += 1;
            start = end;
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
        // rg's line terminator is `\n` alone: a `\r` before it is text.
        let end = bytes.len() - usize::from(bytes.ends_with(b"\n"));
        let start = if opts.trim { trimmed(&bytes[..end]) } else { 0 };
        if !opts.color || t.matches.is_empty() || self.colors.matched.is_none() {
            // rg writes the line as it is, terminator and all.
            if opts.trim {
                self.buf.extend_from_slice(&bytes[start..]);
            } else {
                self.buf.extend_from_slice(bytes);
            }
            if !bytes.ends_with(b"\n") {
                self.buf.push(b'\n');
            }
            return;
        }
        self.colored(bytes, start, end, t.matches);
        self.buf.push(b'\n');
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
                trimmed(&t.bytes[..end])
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
            self.buf.push(b'\n');
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
        self.buf.push(b'\n');
    }
}

/// The kinds of text that have a colour of their own (matches aside).
#[derive(Clone, Copy)]
enum Kind {
    Path,
    Line,
    Column,
}

/// The lines of `bytes` (one, or several for a multiline match) with their numbers.
fn split_lines(first: u64, bytes: &[u8]) -> impl Iterator<Item = (u64, &[u8])> {
    let mut start = 0;
    let mut n = first;
    std::iter::from_fn(move || {
        if start >= bytes.len() {
            return None;
        }
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i + 1);
        let line = &bytes[start..end];
        start = end;
        n += 1;
        Some((n - 1, line))
    })
}

/// How many leading ASCII spaces `--trim` removes (rg's trim_ascii_prefix).
fn trimmed(line: &[u8]) -> usize {
    line.iter()
        .take_while(|&&b| matches!(b, b'\t' | b'\x0B' | b'\x0C' | b'\r' | b' '))
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
