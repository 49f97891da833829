//! rg's `--json` output: JSON Lines messages `begin`, `match`, `context` and `end` per file with a
//! result, and one `summary` at the end, field for field as rg 13 writes them (strings that are not
//! UTF-8 as `{"bytes": base64}`).

use super::json_value::{data, elapsed, num};
use super::stats::Totals;
use super::State;
use rootbound::rg::{FileHits, HitLineKind};

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
