//! How names are shown to an agent and read back: one reversible escape, so that one result is always
//! one line and every displayed path names the same object when given back.
//!
//! A file name on Unix is any byte string without `/` and NUL. Results are JSON strings read by a model
//! as lines of text, so a name holding a newline could forge a result line (`x\n/etc/shadow:1:root`),
//! and a name that is not UTF-8 would be shown lossily (two names could collide, and the shown one would
//! not open). Displayed names therefore escape:
//!
//! | in the name | shown as |
//! |---|---|
//! | `\` | `\\` |
//! | newline, carriage return, tab | `\n`, `\r`, `\t` |
//! | other control bytes (0x00–0x1F, 0x7F) and bytes that are not UTF-8 | `\xHH` |
//! | C1 controls, U+2028/U+2029, bidirectional overrides | `\u{HHHH}` |
//!
//! Every path argument is unescaped the same way before use. A backslash followed by anything else is
//! kept as a literal backslash, so an unusual request like `a\b` still means the name `a\b`.

use std::borrow::Cow;
use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;

/// Appends the display form of `bytes` to `out`.
pub(crate) fn escape_into(bytes: &[u8], out: &mut String) {
    if bytes
        .iter()
        .all(|&b| (0x20..0x7f).contains(&b) && b != b'\\')
    {
        // SAFETY-free fast path: printable ASCII without a backslash is shown as it is.
        out.push_str(std::str::from_utf8(bytes).unwrap_or_default());
        return;
    }
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 || c == '\x7f' => {
                    out.push_str(&format!("\\x{:02x}", c as u32));
                }
                c if needs_unicode_escape(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
}

/// The display form of a path.
pub(crate) fn escape_path(p: &Path) -> String {
    let mut s = String::with_capacity(p.as_os_str().len());
    escape_into(p.as_os_str().as_bytes(), &mut s);
    s
}

/// C1 controls, line and paragraph separators, and the bidirectional controls that can make a
/// name read as something else.
fn needs_unicode_escape(c: char) -> bool {
    matches!(c as u32, 0x80..=0x9f | 0x2028 | 0x2029 | 0x200e | 0x200f | 0x202a..=0x202e | 0x2066..=0x2069 | 0xfeff)
}

/// The bytes an agent's path argument stands for: the inverse of [`escape_into`].
pub(crate) fn unescape(raw: &str) -> Cow<'_, [u8]> {
    if !raw.contains('\\') {
        return Cow::Borrowed(raw.as_bytes());
    }
    let b = raw.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let (bytes, used) = escape_at(&raw[i..]).unwrap_or((vec![b'\\'], 1));
        out.extend_from_slice(&bytes);
        i += used;
    }
    Cow::Owned(out)
}

/// Decodes the escape at the start of `s` (which starts with a backslash): its bytes and length.
fn escape_at(s: &str) -> Option<(Vec<u8>, usize)> {
    let b = s.as_bytes();
    match *b.get(1)? {
        b'\\' => Some((vec![b'\\'], 2)),
        b'n' => Some((vec![b'\n'], 2)),
        b'r' => Some((vec![b'\r'], 2)),
        b't' => Some((vec![b'\t'], 2)),
        b'x' => {
            let hex = s.get(2..4)?;
            let v = u8::from_str_radix(hex, 16).ok()?;
            Some((vec![v], 4))
        }
        b'u' if b.get(2) == Some(&b'{') => {
            let end = s[3..].find('}')? + 3;
            let v = u32::from_str_radix(s.get(3..end)?, 16).ok()?;
            let c = char::from_u32(v)?;
            let mut buf = [0u8; 4];
            Some((c.encode_utf8(&mut buf).as_bytes().to_vec(), end + 1))
        }
        _ => None,
    }
}

/// The path an agent's argument names, unescaped.
pub(crate) fn request_path(raw: &str) -> OsString {
    OsString::from_vec(unescape(raw).into_owned())
}

/// One validated directory-entry name: not empty, not `.` or `..`, without `/` or NUL. The single-name
/// `*at` calls of the write tools take this type, so a path with several components (or one that
/// climbs) can never reach them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EntryName(OsString);

impl EntryName {
    /// The name, if it is one plain entry name.
    pub fn new(name: &std::ffi::OsStr) -> Option<Self> {
        let b = name.as_bytes();
        let plain =
            !b.is_empty() && b != b"." && b != b".." && !b.contains(&b'/') && !b.contains(&0);
        plain.then(|| EntryName(name.to_os_string()))
    }

    /// The name for a `*at` call.
    pub fn as_os_str(&self) -> &std::ffi::OsStr {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(b: &[u8]) -> String {
        let mut s = String::new();
        escape_into(b, &mut s);
        s
    }

    #[test]
    fn plain_names_are_unchanged() {
        assert_eq!(shown(b"src/main.rs"), "src/main.rs");
        assert_eq!(
            shown("caf\u{e9}/\u{65e5}.txt".as_bytes()),
            "caf\u{e9}/\u{65e5}.txt"
        );
    }

    #[test]
    fn one_name_is_one_line() {
        let s = shown(b"x\n/etc/shadow:1:root");
        assert!(!s.contains('\n'));
        assert_eq!(s, "x\\n/etc/shadow:1:root");
        assert_eq!(shown(b"a\rb\x1bc\x7f"), "a\\rb\\x1bc\\x7f");
        assert_eq!(
            shown("a\u{85}b\u{2028}c\u{202e}".as_bytes()),
            "a\\u{85}b\\u{2028}c\\u{202e}"
        );
    }

    #[test]
    fn escapes_round_trip() {
        let names: [&[u8]; 8] = [
            b"bad\xff.txt",
            b"bad\xef\xbf\xbd.txt",
            b"back\\slash",
            b"\\x41",
            b"tab\tnew\nline",
            b"\xc3",
            "\u{2028}\u{85}".as_bytes(),
            b"\\u{41}",
        ];
        for n in names {
            assert_eq!(&*unescape(&shown(n)), n, "{:?}", shown(n));
        }
        // Two names that a lossy display would merge stay apart.
        assert_ne!(shown(b"bad\xff.txt"), shown("bad\u{fffd}.txt".as_bytes()));
    }

    #[test]
    fn entry_names_are_single_components() {
        use std::ffi::OsStr;
        assert!(EntryName::new(OsStr::new("a.txt")).is_some());
        for bad in ["", ".", "..", "a/b", "/", "a\0b"] {
            let bad = bad.replace("\\0", "\0");
            assert!(EntryName::new(OsStr::new(&bad)).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn unknown_escapes_stay_literal() {
        assert_eq!(&*unescape("a\\b"), b"a\\b");
        assert_eq!(&*unescape("a\\"), b"a\\");
        assert_eq!(&*unescape("a\\xZZ"), b"a\\xZZ");
        assert_eq!(&*unescape("a\\u{110000}"), b"a\\u{110000}");
    }
}
