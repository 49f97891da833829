//! How a file's text is stored, for edit_file and write_file: its encoding (UTF-8, or UTF-16 LE/BE
//! with a byte-order mark, as read_file sniffs it), a UTF-8 byte-order mark and its line endings. An
//! edit is matched against the text as read_file shows it and written back in the same form, so every
//! byte outside the change is kept.

use crate::core::error::{Error, Result};
use std::borrow::Cow;

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
const UTF16LE_BOM: &[u8] = b"\xFF\xFE";
const UTF16BE_BOM: &[u8] = b"\xFE\xFF";
/// The head read_file sniffs for a NUL (binary) before it calls a file UTF-8.
const SNIFF: usize = 8192;

/// The encoding of a file's text as the edit sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Enc {
    /// Bytes edited as they are (UTF-8, or anything read_file does not decode as UTF-16).
    Bytes,
    Utf16Le,
    Utf16Be,
}

impl Enc {
    /// The encoding of a file that starts with `head`, as read_file sniffs it.
    pub(crate) fn sniff(head: &[u8]) -> Enc {
        if head.starts_with(UTF16LE_BOM) {
            Enc::Utf16Le
        } else if head.starts_with(UTF16BE_BOM) {
            Enc::Utf16Be
        } else {
            Enc::Bytes
        }
    }

    /// read_file's name of a UTF-16 encoding.
    pub(crate) fn utf16_name(self) -> Option<&'static str> {
        match self {
            Enc::Utf16Le => Some("utf-16le"),
            Enc::Utf16Be => Some("utf-16be"),
            Enc::Bytes => None,
        }
    }

    /// `text` stored in this encoding, with its byte-order mark (UTF-8 text is stored as it is).
    pub(crate) fn store(self, text: &[u8]) -> Cow<'_, [u8]> {
        let be = match self {
            Enc::Bytes => return Cow::Borrowed(text),
            Enc::Utf16Le => false,
            Enc::Utf16Be => true,
        };
        // Only ever called with text this module decoded or an agent's string: valid UTF-8.
        let s = String::from_utf8_lossy(text);
        let mut out = Vec::with_capacity(2 + s.len() * 2);
        out.extend_from_slice(if be { UTF16BE_BOM } else { UTF16LE_BOM });
        for u in s.encode_utf16() {
            out.extend_from_slice(&if be { u.to_be_bytes() } else { u.to_le_bytes() });
        }
        Cow::Owned(out)
    }

    /// The size of `text` stored in this encoding, without building it.
    pub(crate) fn stored_len(self, text: &[u8]) -> u64 {
        match self {
            Enc::Bytes => text.len() as u64,
            _ => 2 + 2 * String::from_utf8_lossy(text).encode_utf16().count() as u64,
        }
    }
}

/// How a file's text is stored, so replacements can be made as the agent saw it and written back in
/// the same form.
pub(crate) struct Form {
    pub(crate) enc: Enc,
    /// A UTF-8 byte-order mark (kept before the body; a UTF-16 mark is part of [`Enc`]).
    pub(crate) bom: bool,
    /// Every line ends with CRLF (a file of mixed endings is matched byte for byte).
    pub(crate) crlf: bool,
    /// read_file's name of the encoding when it is not plain UTF-8: `utf-8-lossy` (bytes that are
    /// not UTF-8, kept as they are), `binary`, `utf-16le`, `utf-16be`.
    pub(crate) note: Option<&'static str>,
}

/// A file's text as the edits see it: the body (after any byte-order mark) as UTF-8 bytes, and the
/// form to store it back in.
pub(crate) struct Decoded<'a> {
    pub(crate) form: Form,
    pub(crate) body: Cow<'a, [u8]>,
}

impl Form {
    /// Decodes `bytes` for editing. A file read_file decodes as UTF-16 that is not valid UTF-16 (an
    /// odd length, an unpaired surrogate) is refused: an edit could not keep what the file holds.
    pub(crate) fn decode<'a>(bytes: &'a [u8], raw: &str) -> Result<Decoded<'a>> {
        let enc = Enc::sniff(bytes);
        let body: Cow<'a, [u8]> = match enc {
            Enc::Bytes => Cow::Borrowed(bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes)),
            _ => Cow::Owned(utf16(&bytes[2..], enc == Enc::Utf16Be, raw)?.into_bytes()),
        };
        let note = match enc {
            Enc::Bytes if memchr::memchr(0, &bytes[..bytes.len().min(SNIFF)]).is_some() => {
                Some("binary")
            }
            Enc::Bytes if std::str::from_utf8(bytes).is_err() => Some("utf-8-lossy"),
            _ => enc.utf16_name(),
        };
        let form = Form {
            enc,
            bom: enc == Enc::Bytes && bytes.starts_with(UTF8_BOM),
            crlf: all_crlf(&body),
            note,
        };
        Ok(Decoded { form, body })
    }

    /// An agent's text in the file's line endings (a CRLF file's lines are shown with LF).
    pub(crate) fn encode(&self, s: &str) -> Vec<u8> {
        if !self.crlf {
            return s.as_bytes().to_vec();
        }
        let mut out = Vec::with_capacity(s.len() + s.len() / 16);
        let b = s.as_bytes();
        for (i, &c) in b.iter().enumerate() {
            if c == b'\n' && (i == 0 || b[i - 1] != b'\r') {
                out.push(b'\r');
            }
            out.push(c);
        }
        out
    }

    /// The edited body stored back: the byte-order mark and the encoding of the file.
    pub(crate) fn store(&self, body: &[u8]) -> Vec<u8> {
        if self.enc != Enc::Bytes {
            return self.enc.store(body).into_owned();
        }
        let mut out = Vec::with_capacity(body.len() + 3);
        if self.bom {
            out.extend_from_slice(UTF8_BOM);
        }
        out.extend_from_slice(body);
        out
    }

    /// The size of [`Form::store`]'s result.
    pub(crate) fn stored_len(&self, body: &[u8]) -> u64 {
        match self.enc {
            Enc::Bytes => body.len() as u64 + if self.bom { 3 } else { 0 },
            enc => enc.stored_len(body),
        }
    }

    /// A bound on the body (UTF-8 bytes) past which the stored file is surely over `max` bytes, so
    /// no larger body is ever built: UTF-16 stores 3 bytes of UTF-8 in no fewer than 2.
    pub(crate) fn room(&self, max: u64) -> u64 {
        match self.enc {
            Enc::Bytes => max.saturating_sub(if self.bom { 3 } else { 0 }),
            _ => max.saturating_sub(2).saturating_mul(3) / 2,
        }
    }

    /// The text of a file (`body`: as decoded, `whole`: as stored) as read_file shows it, for the
    /// diff: UTF-16 decoded, without its mark; UTF-8 with a mark as read_file shows it; a byte that
    /// is not UTF-8 shown as it decodes in Windows-1252 (Latin-1), never as U+FFFD.
    pub(crate) fn shown<'a>(&self, body: &'a [u8], whole: &'a [u8]) -> Cow<'a, str> {
        match self.enc {
            Enc::Bytes => legacy(whole),
            _ => String::from_utf8_lossy(body),
        }
    }
}

/// Whether every line of `text` ends with CRLF (and one does).
fn all_crlf(text: &[u8]) -> bool {
    memchr::memmem::find(text, b"\r\n").is_some()
        && memchr::memchr_iter(b'\n', text).all(|i| i > 0 && text[i - 1] == b'\r')
}

/// A UTF-16 body decoded, or INVALID_ARGUMENT naming what is not UTF-16 in it.
pub(crate) fn utf16(body: &[u8], be: bool, raw: &str) -> Result<String> {
    let invalid = |what: String| {
        Error::invalid(format!(
            "'{raw}' starts with a UTF-16 byte-order mark but is not valid UTF-16 ({what}); it \
             cannot be edited as text without changing bytes it holds; nothing was written \
             (replace it whole with write_file if that is meant)"
        ))
    };
    if !body.len().is_multiple_of(2) {
        return Err(invalid(format!(
            "an odd number of bytes, {}",
            body.len() + 2
        )));
    }
    let units = body.chunks_exact(2).map(|c| {
        let pair = [c[0], c[1]];
        if be {
            u16::from_be_bytes(pair)
        } else {
            u16::from_le_bytes(pair)
        }
    });
    let mut out = String::with_capacity(body.len() / 2 * 3 / 2);
    let mut at = 2usize;
    for c in char::decode_utf16(units) {
        match c {
            Ok(c) => {
                out.push(c);
                at += c.len_utf16() * 2;
            }
            Err(e) => {
                return Err(invalid(format!(
                    "an unpaired surrogate 0x{:04X} at byte {at}",
                    e.unpaired_surrogate()
                )))
            }
        }
    }
    Ok(out)
}

/// `bytes` as text: UTF-8 where it is UTF-8, and each byte that is not as it decodes in
/// Windows-1252 (the five bytes that code page leaves undefined as the C1 controls of Latin-1).
pub(crate) fn legacy(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 4);
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        out.extend(chunk.invalid().iter().map(|&b| windows_1252(b)));
    }
    Cow::Owned(out)
}

/// One byte as Windows-1252 decodes it.
fn windows_1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž',
        '\u{8F}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}',
        'ž', 'Ÿ',
    ];
    match b {
        0x80..=0x9F => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_files_match_lf_text_and_keep_crlf() {
        let d = Form::decode(b"a\r\nb\r\nc\r\n", "x").unwrap();
        assert!(d.form.crlf);
        assert_eq!(d.form.encode("b\nX\n"), b"b\r\nX\r\n");
        let mixed = Form::decode(b"a\r\nb\nc\r\n", "x").unwrap();
        assert!(!mixed.form.crlf);
    }

    #[test]
    fn utf16_round_trips_and_refuses_what_it_cannot_keep() {
        let le = b"\xFF\xFEh\0\xE9\0\r\0\n\0=\xD8\x00\xDE";
        let d = Form::decode(le, "x").unwrap();
        assert_eq!(d.body.as_ref(), "hé\r\n\u{1F600}".as_bytes());
        assert!(d.form.crlf && d.form.note == Some("utf-16le"));
        assert_eq!(d.form.store(&d.body), le);
        assert_eq!(d.form.stored_len(&d.body), le.len() as u64);
        let be = b"\xFE\xFF\0h\0\xE9";
        let d = Form::decode(be, "x").unwrap();
        assert_eq!(d.form.store(&d.body), be);
        for bad in [
            &b"\xFF\xFEa\0b"[..],
            b"\xFF\xFE\x00\xD8a\0",
            b"\xFE\xFF\xDC\x00",
        ] {
            let e = Form::decode(bad, "x").err().expect("refused");
            assert!(e.message.contains("not valid UTF-16"), "{e}");
        }
    }

    #[test]
    fn legacy_bytes_are_shown_as_windows_1252() {
        assert_eq!(legacy(b"caf\xE9 \x80 \x81 \xC3\xA9"), "café € \u{81} é");
        let d = Form::decode(b"caf\xE9\n", "x").unwrap();
        assert_eq!(d.form.note, Some("utf-8-lossy"));
        assert_eq!(
            Form::decode(b"a\0b", "x").unwrap().form.note,
            Some("binary")
        );
        assert_eq!(
            Form::decode("\u{feff}a".as_bytes(), "x").unwrap().form.note,
            None
        );
    }
}
