//! rg's `--json` output: JSON Lines messages `begin`, `match`, `context` and `end` per file with a
//! result, and one `summary` at the end, field for field as rg 13 writes them (strings that are not
//! UTF-8 as `{"bytes": base64}`).

use super::standard::fmt_u64;
use super::stats::Totals;
use super::State;
use base64::Engine;
use rootbound::rg::{FileHits, HitLineKind};
use std::time::Duration;

/// Writes one file's messages into `buf` (nothing for a file with no line to show), and returns
/// the counts its `end` message gave (rg's summary sums those: files without output do not count).
pub(super) fn file(buf: &mut Vec<u8>, f: &FileHits<'_>, path: &[u8]) -> Totals {
    let start = buf.len();
    let mut any = false;
    for l in f.lines() {
        let kind = match l.kind {
            HitLineKind::Break => continue,
            HitLineKind::Match => "match",
            HitLineKind::Context => "context",
        };
        if !any {
            any = true;
            buf.extend_from_slice(b"{\"type\":\"begin\",\"data\":{\"path\":");
            data(buf, path);
            buf.extend_from_slice(b"}}\n");
        }
        buf.extend_from_slice(b"{\"type\":\"");
        buf.extend_from_slice(kind.as_bytes());
        buf.extend_from_slice(b"\",\"data\":{\"path\":");
        data(buf, path);
        buf.extend_from_slice(b",\"lines\":");
        data(buf, l.bytes);
        buf.extend_from_slice(b",\"line_number\":");
        if l.line_number == 0 {
            buf.extend_from_slice(b"null");
        } else {
            num(buf, l.line_number);
        }
        buf.extend_from_slice(b",\"absolute_offset\":");
        num(buf, l.offset);
        buf.extend_from_slice(b",\"submatches\":[");
        for (i, &(s, e)) in l.submatches.iter().enumerate() {
            if i > 0 {
                buf.push(b',');
            }
            buf.extend_from_slice(b"{\"match\":");
            data(buf, &l.bytes[s..e]);
            buf.extend_from_slice(b",\"start\":");
            num(buf, s as u64);
            buf.extend_from_slice(b",\"end\":");
            num(buf, e as u64);
            buf.push(b'}');
        }
        buf.extend_from_slice(b"]}}\n");
    }
    if !any {
        return Totals::default();
    }
    let t = Totals::of(f, (buf.len() - start) as u64);
    buf.extend_from_slice(b"{\"type\":\"end\",\"data\":{\"path\":");
    data(buf, path);
    buf.extend_from_slice(b",\"binary_offset\":");
    match f.binary_offset {
        Some(o) => num(buf, o),
        None => buf.extend_from_slice(b"null"),
    }
    buf.extend_from_slice(b",\"stats\":");
    t.write_json(buf, false);
    buf.extend_from_slice(b"}}\n");
    t
}

/// rg's closing `summary` message (its keys sorted, as rg's `json!` writes them).
pub(super) fn summary(buf: &mut Vec<u8>, st: &State) {
    let t = st.totals;
    buf.extend_from_slice(b"{\"data\":{\"elapsed_total\":");
    elapsed(buf, st.started.elapsed(), true);
    buf.extend_from_slice(b",\"stats\":");
    t.write_json(buf, true);
    buf.extend_from_slice(b"},\"type\":\"summary\"}\n");
}

/// A duration as rg writes it: `{"secs","nanos","human"}`, or with sorted keys.
pub(super) fn elapsed(buf: &mut Vec<u8>, d: Duration, sorted: bool) {
    let human = format!("{:0.6}s", d.as_secs_f64());
    let (secs, nanos) = (d.as_secs(), u64::from(d.subsec_nanos()));
    if sorted {
        buf.extend_from_slice(b"{\"human\":");
        string(buf, &human);
        buf.extend_from_slice(b",\"nanos\":");
        num(buf, nanos);
        buf.extend_from_slice(b",\"secs\":");
        num(buf, secs);
    } else {
        buf.extend_from_slice(b"{\"secs\":");
        num(buf, secs);
        buf.extend_from_slice(b",\"nanos\":");
        num(buf, nanos);
        buf.extend_from_slice(b",\"human\":");
        string(buf, &human);
    }
    buf.push(b'}');
}

pub(super) fn num(buf: &mut Vec<u8>, n: u64) {
    let mut tmp = [0u8; 20];
    buf.extend_from_slice(fmt_u64(n, &mut tmp));
}

/// rg's `Data`: `{"text": "..."}` for UTF-8, `{"bytes": "<base64>"}` otherwise.
fn data(buf: &mut Vec<u8>, bytes: &[u8]) {
    match std::str::from_utf8(bytes) {
        Ok(s) => {
            buf.extend_from_slice(b"{\"text\":");
            string(buf, s);
        }
        Err(_) => {
            buf.extend_from_slice(b"{\"bytes\":\"");
            let b64 = base64::engine::general_purpose::STANDARD.encode(bytes);
            buf.extend_from_slice(b64.as_bytes());
            buf.push(b'"');
        }
    }
    buf.push(b'}');
}

/// A JSON string, escaped as serde_json escapes it.
pub(super) fn string(buf: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    buf.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0..=0x1f => b"",
            _ => continue,
        };
        buf.extend_from_slice(&bytes[start..i]);
        if esc.is_empty() {
            buf.extend_from_slice(b"\\u00");
            buf.push(HEX[(b >> 4) as usize]);
            buf.push(HEX[(b & 0xf) as usize]);
        } else {
            buf.extend_from_slice(esc);
        }
        start = i + 1;
    }
    buf.extend_from_slice(&bytes[start..]);
    buf.push(b'"');
}
