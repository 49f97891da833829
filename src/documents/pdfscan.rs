//! PDF syntax read by us, with a memory budget: the charge of a file before lopdf parses it, and the
//! operators of a page's content stream, read one at a time.
//!
//! lopdf parses every object of a file when loading it, at about 600 bytes per array or dictionary
//! and 130 per other token (1.2 M empty arrays in a 3.6 MB file take 733 MB): [`charge_file`]
//! counts them first, in the file and in its FlateDecode object streams, and charges the memory
//! budget, so that a file whose parse would pass the budget is refused before it is parsed.
//! [`Ops`] replaces lopdf's content parser (which builds every operation of a page before the first
//! is used: 30 MiB of `0 ` took 3.7 GB): it holds one operator's operands at a time, at most
//! [`MAX_OPERANDS`] of them, arrays nested at most `max_nesting_depth` deep, and charges what it
//! holds.

use super::{Ctx, Reason};
use std::io::Read;

/// What lopdf holds per array or dictionary, and per other token, as measured (lopdf 0.47).
pub(crate) const CONTAINER_COST: u64 = 640;
pub(crate) const TOKEN_COST: u64 = 128;

/// Operands kept for one operator (PDF operators take at most 6; `TJ` takes one array).
pub(crate) const MAX_OPERANDS: usize = 16;

/// What one held operand costs beside its bytes (its size, twice: a growing vector doubles).
const OPERAND_COST: u64 = 2 * std::mem::size_of::<Operand>() as u64;

fn is_white(b: u8) -> bool {
    matches!(b, b'\0' | b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

fn is_delim(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

fn is_regular(b: u8) -> bool {
    !is_white(b) && !is_delim(b)
}

/// A token of PDF syntax.
#[derive(Debug, PartialEq)]
enum Tok<'a> {
    Open,
    Close,
    DictOpen,
    DictClose,
    Str(Vec<u8>),
    /// A name, without its `/` (`#xx` escapes kept as written).
    Name(&'a [u8]),
    /// A number, `true`, `false`, `null`, or an operator or keyword (`obj`, `stream`, `Tj`).
    Word(&'a [u8]),
}

/// A PDF tokenizer over bytes.
struct Lexer<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Lexer<'a> {
    fn next(&mut self, keep_strings: bool) -> Option<Tok<'a>> {
        let b = self.b;
        loop {
            while self.i < b.len() && is_white(b[self.i]) {
                self.i += 1;
            }
            if self.i >= b.len() {
                return None;
            }
            if b[self.i] == b'%' {
                while self.i < b.len() && b[self.i] != b'\n' && b[self.i] != b'\r' {
                    self.i += 1;
                }
                continue;
            }
            break;
        }
        let c = b[self.i];
        self.i += 1;
        Some(match c {
            b'[' => Tok::Open,
            b']' => Tok::Close,
            b'<' if b.get(self.i) == Some(&b'<') => {
                self.i += 1;
                Tok::DictOpen
            }
            b'>' if b.get(self.i) == Some(&b'>') => {
                self.i += 1;
                Tok::DictClose
            }
            b'<' => Tok::Str(self.hex(keep_strings)),
            b'(' => Tok::Str(self.literal(keep_strings)),
            b'/' => {
                let start = self.i;
                while self.i < b.len() && is_regular(b[self.i]) {
                    self.i += 1;
                }
                Tok::Name(&b[start..self.i])
            }
            // A stray delimiter (`)`, `>`, `{`, `}`): a word of its own.
            c if is_delim(c) => Tok::Word(&b[self.i - 1..self.i]),
            _ => {
                let start = self.i - 1;
                while self.i < b.len() && is_regular(b[self.i]) {
                    self.i += 1;
                }
                Tok::Word(&b[start..self.i])
            }
        })
    }

    fn hex(&mut self, keep: bool) -> Vec<u8> {
        let b = self.b;
        let mut out = Vec::new();
        let mut half: Option<u8> = None;
        while self.i < b.len() && b[self.i] != b'>' {
            let v = (b[self.i] as char).to_digit(16);
            self.i += 1;
            if let (Some(v), true) = (v, keep) {
                match half.take() {
                    Some(h) => out.push(h << 4 | v as u8),
                    None => half = Some(v as u8),
                }
            }
        }
        self.i += 1;
        if let Some(h) = half {
            out.push(h << 4);
        }
        out
    }

    fn literal(&mut self, keep: bool) -> Vec<u8> {
        let b = self.b;
        let mut out = Vec::new();
        let mut depth = 1usize;
        while self.i < b.len() {
            let c = b[self.i];
            self.i += 1;
            match c {
                b'\\' => {
                    let Some(&e) = b.get(self.i) else { break };
                    self.i += 1;
                    let v = match e {
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        b'b' => 8,
                        b'f' => 12,
                        b'0'..=b'7' => {
                            let mut v = (e - b'0') as u32;
                            for _ in 0..2 {
                                match b.get(self.i) {
                                    Some(&d @ b'0'..=b'7') => {
                                        v = v * 8 + (d - b'0') as u32;
                                        self.i += 1;
                                    }
                                    _ => break,
                                }
                            }
                            v as u8
                        }
                        b'\r' => {
                            if b.get(self.i) == Some(&b'\n') {
                                self.i += 1;
                            }
                            continue;
                        }
                        b'\n' => continue,
                        e => e,
                    };
                    if keep {
                        out.push(v);
                    }
                }
                b'(' => {
                    depth += 1;
                    if keep {
                        out.push(c);
                    }
                }
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                    if keep {
                        out.push(c);
                    }
                }
                c => {
                    if keep {
                        out.push(c);
                    }
                }
            }
        }
        out
    }
}

/// Charges the memory lopdf will take to parse `bytes` (objects in the file and in its FlateDecode
/// object streams, and the streams' bytes it copies); `Err` with the reason when it would pass the
/// budget (or the deadline passes while counting).
pub(crate) fn charge_file(bytes: &[u8], ctx: &Ctx<'_>) -> Result<(), Reason> {
    let mut stream_left = ctx.limits.max_stream_bytes;
    let mut lx = Lexer { b: bytes, i: 0 };
    let mut obj_start = 0usize;
    let mut pending = 0u64;
    let mut last = 0usize;
    let flush = |pending: &mut u64| -> Result<(), Reason> {
        let ok = ctx.charge(*pending);
        *pending = 0;
        if !ok {
            return Err(Reason::MemoryBytes);
        }
        if ctx.stopped() {
            return Err(ctx.reason().unwrap_or(Reason::Deadline));
        }
        Ok(())
    };
    while let Some(t) = lx.next(false) {
        pending += match t {
            Tok::Open | Tok::DictOpen => CONTAINER_COST,
            Tok::Word(b"obj") => {
                obj_start = lx.i;
                TOKEN_COST
            }
            Tok::Word(b"stream") => {
                let start = lx.i;
                let end = memchr::memmem::find(&bytes[start..], b"endstream")
                    .map_or(bytes.len(), |e| start + e);
                lx.i = end;
                let dict = &bytes[obj_start.min(start)..start];
                let mut cost = (end - start) as u64;
                if memchr::memmem::find(dict, b"/ObjStm").is_some() {
                    cost += object_stream(dict, &bytes[start..end], &mut stream_left, ctx)?;
                }
                cost
            }
            _ => TOKEN_COST,
        };
        if lx.i - last >= 64 * 1024 || pending >= 1 << 20 {
            last = lx.i;
            flush(&mut pending)?;
        }
    }
    flush(&mut pending)
}

/// The charge of the objects in one object stream: decompressed (FlateDecode only, within what is
/// left of the stream budget) and counted. Other filters are left to lopdf's own per-stream bound.
fn object_stream(
    dict: &[u8],
    raw: &[u8],
    stream_left: &mut u64,
    ctx: &Ctx<'_>,
) -> Result<u64, Reason> {
    let flate = memchr::memmem::find(dict, b"/FlateDecode").is_some();
    let filtered = memchr::memmem::find(dict, b"/Filter").is_some();
    let data: Vec<u8> = if !filtered {
        raw.to_vec()
    } else if flate {
        let body = raw
            .strip_prefix(b"\r\n")
            .or_else(|| raw.strip_prefix(b"\n"));
        let mut out = Vec::new();
        let mut z = flate2::read::ZlibDecoder::new(body.unwrap_or(raw)).take(*stream_left + 1);
        if z.read_to_end(&mut out).is_err() && out.is_empty() {
            return Ok(0);
        }
        if out.len() as u64 > *stream_left {
            return Err(Reason::StreamBytes);
        }
        out
    } else {
        return Ok(0);
    };
    *stream_left -= data.len() as u64;
    let mut cost = data.len() as u64;
    let mut lx = Lexer { b: &data, i: 0 };
    let mut n = 0u64;
    while let Some(t) = lx.next(false) {
        cost += match t {
            Tok::Open | Tok::DictOpen => CONTAINER_COST,
            _ => TOKEN_COST,
        };
        n += 1;
        if n.is_multiple_of(65_536) && ctx.stopped() {
            return Err(ctx.reason().unwrap_or(Reason::Deadline));
        }
    }
    Ok(cost)
}

/// An operand of a content-stream operator.
#[derive(Debug, PartialEq)]
pub(crate) enum Operand {
    Num(f32),
    Str(Vec<u8>),
    Name(Vec<u8>),
    Array(Vec<Operand>),
    Other,
}

impl Operand {
    fn cost(&self) -> u64 {
        OPERAND_COST
            + match self {
                Operand::Str(s) | Operand::Name(s) => s.len() as u64,
                Operand::Array(a) => a.iter().map(Operand::cost).sum(),
                _ => 0,
            }
    }
}

/// The operators of a content stream, one at a time: `next` gives an operator and its operands
/// (the first [`MAX_OPERANDS`]), charged to the memory budget while held; `None` at the end or when
/// a bound stops the extraction (nesting past `max_nesting_depth`: `nesting_depth`).
pub(crate) struct Ops<'a, 'c> {
    lx: Lexer<'a>,
    ctx: &'c Ctx<'c>,
    /// Operands of the operator being read, and what they are charged.
    pub operands: Vec<Operand>,
    held: u64,
    /// Open arrays and dictionaries (a dictionary keeps nothing: `None`).
    stack: Vec<Option<Vec<Operand>>>,
    tokens: u64,
}

impl<'a, 'c> Ops<'a, 'c> {
    pub fn new(content: &'a [u8], ctx: &'c Ctx<'c>) -> Self {
        Ops {
            lx: Lexer { b: content, i: 0 },
            ctx,
            operands: Vec::new(),
            held: 0,
            stack: Vec::new(),
            tokens: 0,
        }
    }

    fn add(&mut self, o: Operand) -> bool {
        // An array's items were charged as they were read.
        let cost = match &o {
            Operand::Array(_) => OPERAND_COST,
            o => o.cost(),
        };
        match self.stack.last_mut() {
            Some(Some(arr)) => {
                if !self.ctx.charge(cost) {
                    return false;
                }
                self.held += cost;
                arr.push(o);
            }
            Some(None) => {}
            None if self.operands.len() < MAX_OPERANDS => {
                if !self.ctx.charge(cost) {
                    return false;
                }
                self.held += cost;
                self.operands.push(o);
            }
            None => {}
        }
        true
    }

    /// The next operator (its operands in `self.operands`).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<&'a [u8]> {
        self.operands.clear();
        self.ctx.release(self.held);
        self.held = 0;
        self.stack.clear();
        loop {
            self.tokens += 1;
            if self.tokens.is_multiple_of(4096) && self.ctx.stopped() {
                return None;
            }
            // Whether a value read now is kept (in an array, or among the first operands): strings
            // and numbers that would be dropped are not decoded.
            let keep = match self.stack.last() {
                None => self.operands.len() < MAX_OPERANDS,
                Some(a) => a.is_some(),
            };
            let t = self.lx.next(keep)?;
            let o = match t {
                Tok::Open | Tok::DictOpen => {
                    if self.stack.len() >= self.ctx.limits.max_nesting_depth {
                        self.ctx.stop(Reason::NestingDepth);
                        return None;
                    }
                    let keep = t == Tok::Open && keep;
                    self.stack.push(keep.then(Vec::new));
                    continue;
                }
                Tok::Close | Tok::DictClose => match self.stack.pop() {
                    Some(Some(items)) => Operand::Array(items),
                    Some(None) => Operand::Other,
                    None => continue,
                },
                Tok::Str(_) if !keep => continue,
                Tok::Str(s) => Operand::Str(s),
                Tok::Name(n) if keep => Operand::Name(n.to_vec()),
                Tok::Name(_) => Operand::Other,
                Tok::Word(w) => match w {
                    b"true" | b"false" | b"null" => Operand::Other,
                    _ if w[0].is_ascii_digit() || matches!(w[0], b'+' | b'-' | b'.') => {
                        if !keep {
                            continue;
                        }
                        std::str::from_utf8(w)
                            .ok()
                            .and_then(|s| s.parse::<f32>().ok())
                            .map_or(Operand::Other, Operand::Num)
                    }
                    _ if !self.stack.is_empty() => Operand::Other,
                    b"BI" => {
                        self.skip_inline_image();
                        self.operands.clear();
                        continue;
                    }
                    op => return Some(op),
                },
            };
            if !self.add(o) {
                return None;
            }
        }
    }

    /// Skips an inline image (`BI` dictionary `ID` data `EI`).
    fn skip_inline_image(&mut self) {
        let b = self.lx.b;
        let Some(id) = memchr::memmem::find(&b[self.lx.i..], b"ID") else {
            self.lx.i = b.len();
            return;
        };
        let mut i = self.lx.i + id + 2;
        // The data ends at `EI` between white space (or at the end).
        loop {
            match memchr::memmem::find(&b[i..], b"EI") {
                Some(e) => {
                    let at = i + e;
                    let before = at == 0 || is_white(b[at - 1]);
                    let after = b.get(at + 2).is_none_or(|&c| is_white(c));
                    i = at + 2;
                    if before && after {
                        break;
                    }
                }
                None => {
                    i = b.len();
                    break;
                }
            }
        }
        self.lx.i = i;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::deadline::Deadline;
    use crate::documents::DocLimits;

    fn ops(content: &[u8], limits: &DocLimits) -> (Vec<(String, usize)>, Option<Reason>) {
        let d = Deadline::detached(std::time::Duration::from_secs(30));
        let ctx = Ctx::new(limits, &d);
        let mut ops = Ops::new(content, &ctx);
        let mut v = Vec::new();
        while let Some(op) = ops.next() {
            v.push((String::from_utf8_lossy(op).into_owned(), ops.operands.len()));
        }
        (v, ctx.reason())
    }

    #[test]
    fn operators_and_operands() {
        let (v, r) = ops(
            b"BT /F1 12 Tf [(a) -300 (b\\)c)] TJ 1 0 0 1 5 6 Tm BI /W 1 ID xEIx EI (x) Tj ET",
            &DocLimits::default(),
        );
        assert_eq!(r, None);
        let names: Vec<&str> = v.iter().map(|(o, _)| o.as_str()).collect();
        assert_eq!(names, ["BT", "Tf", "TJ", "Tm", "Tj", "ET"]);
        assert_eq!(v[1].1, 2);
        assert_eq!(v[3].1, 6);
    }

    #[test]
    fn nesting_and_operand_bounds() {
        let deep = format!("{}{} Tj", "[".repeat(500), "]".repeat(500));
        let (_, r) = ops(deep.as_bytes(), &DocLimits::default());
        assert_eq!(r, Some(Reason::NestingDepth));
        let wide = format!("{}Tj", "0 ".repeat(100_000));
        let (v, r) = ops(wide.as_bytes(), &DocLimits::default());
        assert_eq!(r, None);
        assert_eq!(v, [("Tj".to_string(), MAX_OPERANDS)]);
    }
}
