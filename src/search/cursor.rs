//! Opaque, query-bound cursors: `resume after (root, path, line)`, plus the index of the next unit
//! and, for an offset page cut by the deadline while it was still skipping, the units still to skip.

use crate::core::error::{Error, Result};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

/// A decoded cursor. Its path is only ever compared with walked paths, never opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cursor {
    pub query: u64,
    pub root: usize,
    pub path: PathBuf,
    /// Units on lines up to and including this one in `path` were returned already (`u64::MAX`: the whole file).
    pub line: u64,
    /// How many units precede the next page (for `next_offset`).
    pub index: u64,
    /// Units still to skip before the page starts: an `offset` page cut by the deadline before it
    /// had skipped them all (0 otherwise).
    pub skip: u64,
}

impl Cursor {
    pub fn encode(&self) -> String {
        let hex: String = self
            .path
            .as_os_str()
            .as_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        // Version 1 has no skip; version 2 (only when there is one) adds it before the path.
        let raw = if self.skip == 0 {
            format!(
                "1.{:016x}.{}.{}.{}.{}",
                self.query, self.root, self.line, self.index, hex
            )
        } else {
            format!(
                "2.{:016x}.{}.{}.{}.{}.{}",
                self.query, self.root, self.line, self.index, self.skip, hex
            )
        };
        // A checksum so a truncated or hand-edited cursor is refused rather than resuming elsewhere.
        let sum = query_hash(&raw);
        URL_SAFE_NO_PAD.encode(format!("{raw}.{sum:016x}"))
    }

    /// Decodes and checks a cursor against the query it must belong to.
    pub fn decode(s: &str, query: u64, roots: usize) -> Result<Cursor> {
        let bad = || {
            Error::invalid("cursor is malformed; pass next_cursor from the previous page unchanged, or use offset")
        };
        if s.len() > 16 * 1024 {
            return Err(bad());
        }
        let raw = URL_SAFE_NO_PAD.decode(s.trim()).map_err(|_| bad())?;
        let raw = String::from_utf8(raw).map_err(|_| bad())?;
        let (body, sum) = raw.rsplit_once('.').ok_or_else(bad)?;
        if u64::from_str_radix(sum, 16).ok() != Some(query_hash(body)) {
            return Err(bad());
        }
        let parts: Vec<&str> = body.split('.').collect();
        let (v, q, root, line, index, skip, hex) = match parts[..] {
            ["1", q, root, line, index, hex] => ("1", q, root, line, index, "0", hex),
            ["2", q, root, line, index, skip, hex] => ("2", q, root, line, index, skip, hex),
            _ => return Err(bad()),
        };
        let skip: u64 = skip.parse().map_err(|_| bad())?;
        if (v == "2") != (skip > 0) || hex.len() % 2 != 0 {
            return Err(bad());
        }
        let q = u64::from_str_radix(q, 16).map_err(|_| bad())?;
        if q != query {
            return Err(Error::invalid(
                "cursor belongs to a different query; cursors only resume the exact search that produced them",
            ));
        }
        let root: usize = root.parse().map_err(|_| bad())?;
        let line: u64 = line.parse().map_err(|_| bad())?;
        let index: u64 = index.parse().map_err(|_| bad())?;
        let bytes = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16))
            .collect::<std::result::Result<Vec<u8>, _>>()
            .map_err(|_| bad())?;
        let path = PathBuf::from(OsStr::from_bytes(&bytes));
        let plain = path.components().all(|c| matches!(c, Component::Normal(_)));
        if root >= roots || path.as_os_str().is_empty() || !plain || Path::new(&path).has_root() {
            return Err(bad());
        }
        Ok(Cursor {
            query,
            root,
            path,
            line,
            index,
            skip,
        })
    }
}

/// FNV-1a over the canonical form of a query: stable across processes and releases of this format.
pub(crate) fn query_hash(canonical: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in canonical.as_bytes() {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// The query a cursor belongs to: `tag` and the JSON of a tool's arguments once `clear` has removed
/// those that only say which page to return (offset, cursor, limit, byte and time caps).
pub(crate) fn args_hash<T: serde::Serialize + Clone>(
    tag: &str,
    args: &T,
    clear: fn(&mut T),
) -> u64 {
    let mut q = args.clone();
    clear(&mut q);
    query_hash(&format!(
        "{tag}{}",
        serde_json::to_string(&q).unwrap_or_default()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_binding() {
        let c = Cursor {
            query: 42,
            root: 1,
            path: "a/b.rs".into(),
            line: 7,
            index: 10,
            skip: 0,
        };
        let s = c.encode();
        assert_eq!(Cursor::decode(&s, 42, 2).unwrap(), c);
        assert!(Cursor::decode(&s, 43, 2).is_err());
        assert!(Cursor::decode(&s, 42, 1).is_err());
        assert!(Cursor::decode(&s[..s.len() - 3], 42, 2).is_err());
        assert!(Cursor::decode("!!!", 42, 2).is_err());
        let owed = Cursor {
            skip: 5,
            ..c.clone()
        };
        assert_eq!(Cursor::decode(&owed.encode(), 42, 2).unwrap(), owed);
        assert_ne!(owed.encode(), s);
        let evil = Cursor {
            query: 42,
            root: 0,
            path: "../x".into(),
            line: 0,
            index: 0,
            skip: 0,
        };
        assert!(Cursor::decode(&evil.encode(), 42, 2).is_err());
    }
}
