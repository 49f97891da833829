//! Images and audio as Gemini CLI's read_file and read_many_files return them: inline data
//! (`inlineData {mimeType, data}`, utils/fileUtils.ts `processSingleFileContent`), which over MCP
//! is an image or audio content block. The bytes come from the engine's read_media_file, with its
//! type sniffed from them and its size limit.

use super::*;
use crate::tools::api::MediaArgs;
use crate::tools::present::Block;

/// Names Gemini CLI reads as images or audio (its `detectFileType` goes by the MIME type of the
/// name; SVG is read as text).
const MEDIA_EXTENSIONS: [&str; 14] = [
    "png", "jpg", "jpeg", "gif", "webp", "bmp", "ico", "mp3", "wav", "ogg", "flac", "aac", "m4a",
    "opus",
];

/// Whether `path` names an image or audio file, as Gemini CLI decides it (by the extension).
pub(super) fn by_name(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| MEDIA_EXTENSIONS.iter().any(|m| ext.eq_ignore_ascii_case(m)))
}

/// The file `path` as an image or audio block, with its size and its kind (`image` or `audio`):
/// `None` when its bytes are of no image or audio type the engine knows (it is then read as
/// Gemini CLI reads any other file). A file over the engine's media limit is refused (`TOO_LARGE`).
pub(super) fn inline(sb: &Within<'_>, path: &str) -> Result<Option<(Block, u64, String)>, Error> {
    let m = match sb.read_media_file(&MediaArgs::path(path)) {
        Ok(m) => m,
        Err(e) if e.code == ErrorCode::InvalidArgument => return Ok(None),
        Err(e) => return Err(e),
    };
    let block = if m.kind == "audio" {
        Block::Audio {
            data: m.data,
            mime_type: m.mime_type,
        }
    } else {
        Block::Image {
            data: m.data,
            mime_type: m.mime_type,
        }
    };
    Ok(Some((block, m.size, m.kind)))
}

/// read_file's answer for a media file: the block alone (Gemini CLI's `llmContent` is the inline
/// data alone); the structured result says what was read, as Gemini CLI's `returnDisplay`.
pub(super) fn read_file_answer(sb: &Within<'_>, path: &str) -> Result<Option<Presented>, Error> {
    let Some((block, _, kind)) = inline(sb, path)? else {
        return Ok(None);
    };
    let name = path.rsplit('/').next().unwrap_or(path);
    let mut p = text(format!("Read {kind} file: {name}"), Some(false));
    p.blocks = vec![block];
    Ok(Some(p))
}

/// A result of text and media blocks: the structured `content` is the text blocks joined.
pub(super) fn mixed(blocks: Vec<Block>, truncated: bool) -> Presented {
    let texts: Vec<&str> = blocks
        .iter()
        .filter_map(|b| match b {
            Block::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    let mut p = text(texts.join("\n"), Some(truncated));
    p.blocks = blocks;
    p
}
