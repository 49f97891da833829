//! read_media_file as the reference serves it: the MIME type from the name's extension (its table),
//! an image or audio block for those types and any other file as an embedded `resource` (a blob
//! with its `file://` URI). The bytes come through the engine's media read: the same confined open,
//! regular files only, the same size bound; only how the file is typed differs from the engine's,
//! which sniffs the bytes.

use super::super::{Block, Presented};
use super::{home, PathOnly};
use crate::core::error::Error;
use crate::engine::Within;
use crate::tools::api::MediaArgs;
use serde_json::{json, Value};

/// The reference's table (`index.ts`), by lower-cased extension.
const TYPES: [(&str, &str); 11] = [
    ("png", "image/png"),
    ("jpg", "image/jpeg"),
    ("jpeg", "image/jpeg"),
    ("gif", "image/gif"),
    ("webp", "image/webp"),
    ("bmp", "image/bmp"),
    ("svg", "image/svg+xml"),
    ("mp3", "audio/mpeg"),
    ("wav", "audio/wav"),
    ("ogg", "audio/ogg"),
    ("flac", "audio/flac"),
];

/// Node's `path.extname` of the last component, without its dot: none for a name without a dot
/// or whose only dot leads (`.bashrc`).
fn extension(path: &str) -> Option<&str> {
    let name = path.rsplit('/').next()?;
    let at = name.rfind('.').filter(|&i| i > 0)?;
    Some(&name[at + 1..])
}

/// The block kind and MIME type of `path` by its extension, as the reference: `resource` and
/// `application/octet-stream` for any other name.
fn by_extension(path: &str, _bytes: &[u8]) -> Option<(&'static str, &'static str)> {
    let ext = extension(path).map(str::to_ascii_lowercase);
    let mime = TYPES
        .iter()
        .find(|(e, _)| Some(*e) == ext.as_deref())
        .map_or("application/octet-stream", |(_, m)| m);
    let kind = match mime.split('/').next() {
        Some("image") => "image",
        Some("audio") => "audio",
        _ => "resource",
    };
    Some((kind, mime))
}

/// Node's `pathToFileURL(path).href` for an absolute path: `file://` and the path with the bytes a
/// URL path cannot hold percent-encoded (controls, space, non-ASCII, and `"#%<>?\`{}`).
fn file_url(path: &str) -> String {
    let mut out = String::from("file://");
    for &b in path.as_bytes() {
        if b <= b' ' || b >= 0x7f || b"\"#%<>?\\`{}".contains(&b) {
            out.push_str(&format!("%{b:02X}"));
        } else {
            out.push(b as char);
        }
    }
    out
}

pub(super) fn media(sb: &Within<'_>, a: PathOnly) -> Result<Presented, Error> {
    let r = sb.read_media_file_typed(
        &MediaArgs {
            path: home(sb, a.path)?,
        },
        by_extension,
    )?;
    let (item, block) = match r.kind.as_str() {
        "image" | "audio" => (
            json!({"type": r.kind, "data": r.data, "mimeType": r.mime_type}),
            if r.kind == "audio" {
                Block::Audio {
                    data: r.data,
                    mime_type: r.mime_type,
                }
            } else {
                Block::Image {
                    data: r.data,
                    mime_type: r.mime_type,
                }
            },
        ),
        _ => {
            let uri = file_url(&r.path);
            (
                json!({"type": "resource", "resource":
                    {"uri": uri, "mimeType": r.mime_type, "blob": r.data}}),
                Block::Resource {
                    uri,
                    mime_type: r.mime_type,
                    blob: r.data,
                },
            )
        }
    };
    Ok(Presented {
        structured: json!({ "content": [item] }),
        blocks: vec![block],
    })
}

/// The reference's output schema: a list of image/audio blocks or embedded resources.
pub(super) fn output() -> Value {
    let str_field = |d: &str| json!({"type": "string", "description": d});
    let media = json!({"type": "object", "description": "An image or audio block.",
        "required": ["type", "data", "mimeType"],
        "properties": {
            "type": {"type": "string", "enum": ["image", "audio"], "description": "The block type."},
            "data": str_field("Base64 data."),
            "mimeType": str_field("The MIME type.")}});
    let resource = json!({"type": "object", "description": "Any other file, as an embedded resource.",
        "required": ["type", "resource"],
        "properties": {
            "type": {"type": "string", "enum": ["resource"], "description": "The block type."},
            "resource": {"type": "object", "description": "The file's bytes.",
                "required": ["uri", "blob"],
                "properties": {
                    "uri": str_field("The file's file:// URI."),
                    "mimeType": str_field("The MIME type (application/octet-stream)."),
                    "blob": str_field("Base64 data.")}}}});
    super::super::result_or_error_flat(json!({
        "content": {"type": "array", "description": "One media or resource block.",
            "items": {"type": "object", "description": "A content block.",
                "anyOf": [media, resource]}}
    }))
}

#[cfg(test)]
mod tests {
    #[test]
    fn types_by_extension_and_urls_as_node() {
        use super::{by_extension, extension, file_url};
        assert_eq!(extension("/d/a.tar.GZ"), Some("GZ"));
        assert_eq!(extension("/d/.bashrc"), None);
        assert_eq!(extension("/d.x/noext"), None);
        assert_eq!(by_extension("/d/A.JPG", b""), Some(("image", "image/jpeg")));
        assert_eq!(
            by_extension("/d/x.bin", b""),
            Some(("resource", "application/octet-stream"))
        );
        assert_eq!(
            file_url("/d/my café #1.bin"),
            "file:///d/my%20caf%C3%A9%20%231.bin"
        );
    }
}
