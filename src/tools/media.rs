//! read_media_file: an image or a short audio file as base64, with its type sniffed from its bytes.

use crate::core::audit::Fields;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::io::pread_exact;
use crate::core::open::{Kind, Want};
use crate::engine::Within;
use base64::Engine;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Arguments of `read_media_file`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct MediaArgs {
    /// An image (PNG, JPEG, GIF, WebP) or audio file (WAV, MP3, OGG, FLAC) under a root.
    pub path: String,
}

impl MediaArgs {
    /// Arguments for `path`.
    pub fn path(path: &str) -> Self {
        MediaArgs { path: path.into() }
    }
}

/// The result of `read_media_file`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[non_exhaustive]
pub struct MediaResult {
    /// The displayed path.
    pub path: String,
    /// `image` or `audio`.
    pub kind: String,
    /// The MIME type, from the file's first bytes (never from its name).
    pub mime_type: String,
    /// The file's size in bytes.
    pub size: u64,
    /// The file's bytes, base64 (standard alphabet, padded).
    pub data: String,
}

/// Largest media file returned (base64 makes it a third larger).
pub const MAX_MEDIA_BYTES: u64 = 8 * 1024 * 1024;

impl Within<'_> {
    /// Reads an image or audio file as base64 with a sniffed MIME type, up to [`MAX_MEDIA_BYTES`].
    ///
    /// ```
    /// use rootbound::{MediaArgs, Sandbox};
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::write(dir.path().join("x.bin"), b"GIF89a\x01\x00\x01\x00\x00\x00\x00;").unwrap();
    /// let sb = Sandbox::builder().root(dir.path()).build().unwrap();
    /// let r = sb.read_media_file(&MediaArgs::path("x.bin")).unwrap();
    /// assert_eq!(r.mime_type, "image/gif");
    /// ```
    pub fn read_media_file(&self, args: &MediaArgs) -> Result<MediaResult> {
        self.audited(
            "read_media_file",
            Some(&args.path),
            || {
                self.media_inner(args, |_, b| sniff(b))
                    .map(|(r, p)| (r, Some(p)))
            },
            |r| Fields::ok(r.size, 0, false),
        )
    }

    /// The bytes of the regular file `args.path` names, through the same confined open, kind check
    /// and [`MAX_MEDIA_BYTES`] bound as [`Within::read_media_file`], typed by `kind` (a dialect's
    /// rule, e.g. the MCP reference server's: by the name's extension) instead of by the bytes.
    /// `kind` gets the displayed path and the bytes; `None` refuses the file as not media.
    pub(crate) fn read_media_file_typed(
        &self,
        args: &MediaArgs,
        kind: MediaKind,
    ) -> Result<MediaResult> {
        self.audited(
            "read_media_file",
            Some(&args.path),
            || self.media_inner(args, kind).map(|(r, p)| (r, Some(p))),
            |r| Fields::ok(r.size, 0, false),
        )
    }

    fn media_inner(&self, args: &MediaArgs, kind: MediaKind) -> Result<(MediaResult, String)> {
        let raw = args.path.as_str();
        let loc = self.locate(raw, Want::Read)?;
        if loc.opened.kind() != Kind::File {
            return Err(Error::new(
                ErrorCode::NotAFile,
                format!("'{raw}' is not a regular file"),
            ));
        }
        let size = loc.opened.stat.st_size.max(0) as u64;
        if size > MAX_MEDIA_BYTES {
            return Err(Error::new(
                ErrorCode::TooLarge,
                format!("'{raw}' is {size} bytes, over the media limit of {MAX_MEDIA_BYTES} bytes"),
            ));
        }
        let bytes = pread_exact(&loc.opened, 0, size as usize)?;
        let path = self.display(loc.root, &loc.rel);
        let Some((kind, mime)) = kind(&path, &bytes) else {
            return Err(Error::invalid(format!(
                "'{raw}' is not an image (PNG, JPEG, GIF, WebP) or audio file (WAV, MP3, OGG, FLAC) by its content; use read_file for text"
            )));
        };
        let result = MediaResult {
            path,
            kind: kind.into(),
            mime_type: mime.into(),
            size: bytes.len() as u64,
            data: base64::engine::general_purpose::STANDARD.encode(&bytes),
        };
        Ok((result, self.audit_path(loc.root, &loc.rel)))
    }
}

/// How a media read names the kind and MIME type of a file: from its displayed path and its bytes.
pub(crate) type MediaKind = fn(&str, &[u8]) -> Option<(&'static str, &'static str)>;

/// The kind and MIME type of media bytes, from their signature.
pub(crate) fn sniff(b: &[u8]) -> Option<(&'static str, &'static str)> {
    let riff = |tag: &[u8]| b.len() >= 12 && &b[..4] == b"RIFF" && &b[8..12] == tag;
    Some(match b {
        [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, ..] => ("image", "image/png"),
        [0xff, 0xd8, 0xff, ..] => ("image", "image/jpeg"),
        [b'G', b'I', b'F', b'8', b'7' | b'9', b'a', ..] => ("image", "image/gif"),
        _ if riff(b"WEBP") => ("image", "image/webp"),
        _ if riff(b"WAVE") => ("audio", "audio/wav"),
        [b'I', b'D', b'3', ..] => ("audio", "audio/mpeg"),
        [0xff, second, ..] if second & 0xe0 == 0xe0 && second & 0x06 != 0 => {
            ("audio", "audio/mpeg")
        }
        [b'O', b'g', b'g', b'S', ..] => ("audio", "audio/ogg"),
        [b'f', b'L', b'a', b'C', ..] => ("audio", "audio/flac"),
        _ => return None,
    })
}

/// The row of read_media_file.
pub(crate) struct ReadMediaFile;

impl crate::tools::tool::Tool for ReadMediaFile {
    const NAME: &'static str = "read_media_file";
    const TITLE: &'static str = "Read image or audio";
    const ONE_OBJECT: bool = true;
    const READS_CONTENT: bool = true;
    type Args = MediaArgs;
    type Output = MediaResult;

    fn run(w: &Within<'_>, args: &MediaArgs) -> Result<MediaResult> {
        w.read_media_file(args)
    }

    fn describe(_sb: &crate::engine::Engine) -> String {
        format!(
            "Read an image (PNG, JPEG, GIF, WebP) or audio file (WAV, MP3, OGG, FLAC) as base64 with its MIME type, \
             sniffed from the bytes; at most {} bytes.",
            MAX_MEDIA_BYTES
        )
    }

    /// The bytes travel in an image or audio block, not twice: the structured copy leaves them out.
    fn present(
        out: &MediaResult,
        mut structured: serde_json::Value,
    ) -> crate::tools::present::Presented {
        let data = out.data.clone();
        let mime_type = out.mime_type.clone();
        let block = if out.kind == "audio" {
            crate::tools::present::Block::Audio { data, mime_type }
        } else {
            crate::tools::present::Block::Image { data, mime_type }
        };
        if let Some(o) = structured.as_object_mut() {
            o.remove("data");
        }
        crate::tools::present::Presented {
            structured,
            blocks: vec![block],
        }
    }

    fn finish_output(schema: &mut serde_json::Value) {
        // Over MCP the bytes of a media file travel in the image/audio block, not twice: the
        // structured copy leaves `data` out, so the schema does not require it.
        if let Some(serde_json::Value::Array(req)) = schema.get_mut("required") {
            req.retain(|f| f != "data");
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sniffs_by_content() {
        use super::sniff;
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n....").unwrap().1, "image/png");
        assert_eq!(sniff(b"RIFF\0\0\0\0WEBPVP8 ").unwrap().1, "image/webp");
        assert_eq!(sniff(b"RIFF\0\0\0\0WAVEfmt ").unwrap().1, "audio/wav");
        assert_eq!(sniff(b"ID3\x04").unwrap().1, "audio/mpeg");
        assert_eq!(sniff(b"fLaC").unwrap().1, "audio/flac");
        assert!(sniff(b"hello world").is_none());
        assert!(sniff(b"\xff\xd8").is_none(), "too short to be a JPEG");
    }
}
