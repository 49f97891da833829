//! JSON values written as rg writes them (numbers, strings escaped as serde_json does, durations,
//! rg's `Data`), straight into the output buffer: shared by `--json` and `--stats`.

use super::standard::fmt_u64;
use base64::Engine;
use std::time::Duration;

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
pub(super) fn data(buf: &mut Vec<u8>, bytes: &[u8]) {
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
