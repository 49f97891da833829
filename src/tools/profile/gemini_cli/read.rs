//! read_file and read_many_files as Gemini CLI answers them (read-file.ts, read-many-files.ts,
//! utils/fileUtils.ts `processSingleFileContent`).

use super::*;
use crate::tools::present::Block;

/// An SVG larger than this is not shown (Gemini CLI's `SVG_MAX_SIZE_BYTES`).
const MAX_SVG_BYTES: u64 = 1024 * 1024;

/// Gemini CLI's schema check of a field that says `minimum: 1` (its words).
pub(super) fn at_least_one(field: &str, v: Option<u64>) -> Result<(), Error> {
    match v {
        Some(0) => Err(Error::invalid(format!("params/{field} must be >= 1"))),
        _ => Ok(()),
    }
}

pub(super) fn read(sb: &Within<'_>, a: Read) -> Result<Presented, Error> {
    // `minimum: 1` in the schema, as in Gemini CLI, which refuses 0 in its words. (`end_line` is
    // an unset-able field: a strict-mode client's 0 for it means "not set", args.rs.)
    at_least_one("start_line", a.start_line)?;
    let start = a.start_line.unwrap_or(1);
    let lines = match a.end_line {
        Some(e) if e < start => {
            return Err(Error::invalid("start_line cannot be greater than end_line"))
        }
        Some(e) => e - start + 1,
        None => READ_LINES,
    };
    let path = a.file_path;
    if sb.hidden_by_rule_file(&path) {
        // Gemini CLI refuses a file its .geminiignore names, in these words.
        return Err(Error::invalid(format!(
            "File path '{path}' is ignored by configured ignore patterns."
        )));
    }
    // An image or audio file comes back as inline data (an image or audio block).
    if super::media::by_name(&path) {
        if let Some(p) = super::media::read_file_answer(sb, &path)? {
            return Ok(p);
        }
    }
    let r = sb.read_file(&ReadArgs {
        path: path.clone(),
        start_line: Some(start),
        max_lines: Some(lines),
        ..Default::default()
    })?;
    let size = r.document.as_ref().map_or(r.total_bytes, |d| d.file_bytes);
    if size > MAX_FILE_BYTES {
        return Err(Error::new(
            ErrorCode::TooLarge,
            format!(
                "File size exceeds the 20MB limit: {path} ({:.2}MB)",
                size as f64 / (1024.0 * 1024.0)
            ),
        ));
    }
    if path.to_ascii_lowercase().ends_with(".svg") && size > MAX_SVG_BYTES {
        // Gemini CLI reads an SVG as text up to 1 MB only.
        let name = path.rsplit('/').next().unwrap_or(&path);
        let out = format!("Cannot display content of SVG file larger than 1MB: {name}");
        return Ok(text(out, Some(false)));
    }
    if r.binary {
        return Ok(text(
            format!("Cannot display content of binary file: {}", r.path),
            Some(false),
        ));
    }
    if r.document.is_some() {
        let out = super::super::with_extraction_note(&r, r.content.clone());
        return Ok(text(out, Some(r.truncated)));
    }
    // Gemini CLI splits the file on line ends, so its count of lines is the count of line ends plus
    // one (a file ending in a line end has an empty last line), and shows the lines it picked joined
    // by "\n".
    let ends_nl = |s: &str| s.ends_with('\n');
    let total = if !r.truncated && !r.content.is_empty() {
        r.end_line.unwrap_or(start) + u64::from(ends_nl(&r.content))
    } else {
        // The last line, with the lines before it counted, says both.
        let t = sb.read_file(&ReadArgs {
            path,
            tail_lines: Some(1),
            line_numbers: Some(true),
            ..Default::default()
        })?;
        let last = t.end_line.unwrap_or(0);
        last + u64::from(t.content.is_empty() || ends_nl(&t.content))
    };
    let first = (start - 1).min(total);
    let mut end = (start - 1 + lines).min(total);
    if r.truncated {
        // A page the engine's byte cap cut ends at its last line.
        end = end.min(r.end_line.unwrap_or(first));
    }
    let mut content = r.content.replace("\r\n", "\n");
    if end < total && content.ends_with('\n') {
        content.pop();
    }
    let mut cut = false;
    if content.chars().count() > MAX_LINE_CHARS {
        content = content
            .split('\n')
            .map(|l| {
                let (l, c) = cut_line(l);
                cut |= c;
                l
            })
            .collect::<Vec<_>>()
            .join("\n");
    }
    let more = end < total;
    if first == 0 && !more && !cut {
        return Ok(text(content, Some(false)));
    }
    let out = format!(
        "\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines {}-{end} of {total} total lines.\n\
         Action: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a \
         subsequent 'read_file' call. For example, to read the next section of the file, use start_line: {}.\n\n\
         --- FILE CONTENT (truncated) ---\n{content}",
        first + 1,
        end + 1
    );
    Ok(text(out, Some(more)))
}

pub(super) fn read_many(sb: &Within<'_>, a: ReadMany) -> Result<Presented, Error> {
    let _ = a.recursive;
    let filtering = a.file_filtering_options.unwrap_or_default();
    let sb = &super::gemini_rules(sb, filtering.respect_gemini_ignore);
    let mut exclude = a.exclude.unwrap_or_default();
    if a.use_default_excludes != Some(false) {
        // Gemini CLI's default excludes (its core ones; the operator's rules do the rest).
        exclude.extend(GLOB_EXCLUDES.iter().map(|d| d.to_string()));
    }
    let exclude = super::super::globs(&exclude)?;
    let include = a.include.clone();
    let r = sb.read_many_files(&ReadManyArgs {
        paths: a.include,
        max_bytes: None,
        timeout_ms: None,
    })?;
    let mut out = String::new();
    let mut blocks = Vec::new();
    let mut media_bytes = 0;
    let mut skipped = Vec::new();
    let mut ignored = 0;
    for f in &r.files {
        if super::super::excluded(&exclude, &f.path) {
            continue;
        }
        // A file named by path (a glob's walk left such files out already) that .geminiignore
        // names is left out and counted, as Gemini CLI's filterFilesWithReport does.
        if f.error.is_none() && sb.hidden_by_rule_file(&f.path) {
            ignored += 1;
            continue;
        }
        if let Some(e) = &f.error {
            skipped.push(format!(
                "{}: {}",
                f.path,
                e["message"].as_str().unwrap_or("")
            ));
            continue;
        }
        if !asset_requested(&f.path, &include) {
            skipped.push(format!(
                "{}: asset file (image/pdf/audio) was not explicitly requested by name or extension",
                f.path
            ));
            continue;
        }
        if super::media::by_name(&f.path) {
            // Inline data, as Gemini CLI's parts: the text so far, then the block. All media of a
            // call share one budget, the engine's limit for one media file.
            match super::media::inline(sb, &f.path) {
                Ok(Some((block, size, _)))
                    if media_bytes + size <= crate::tools::api::MAX_MEDIA_BYTES =>
                {
                    media_bytes += size;
                    if !out.is_empty() {
                        blocks.push(Block::Text(std::mem::take(&mut out)));
                    }
                    blocks.push(block);
                    continue;
                }
                Ok(Some(_)) => {
                    skipped.push(format!(
                        "{}: over this call's {} bytes of media; read it with read_file",
                        f.path,
                        crate::tools::api::MAX_MEDIA_BYTES
                    ));
                    continue;
                }
                Ok(None) => {}
                Err(e) => {
                    skipped.push(format!("{}: {}", f.path, e.message));
                    continue;
                }
            }
        }
        if f.binary {
            skipped.push(format!("{}: binary file", f.path));
            continue;
        }
        out.push_str(&format!("--- {} ---\n\n", f.path));
        if let Some(notice) = &f.notice {
            // A document whose extraction failed or was cut says so (never an empty success).
            out.push_str(notice);
            out.push('\n');
        }
        let (body, cut) = first_lines(f.content.as_deref().unwrap_or(""));
        if cut {
            out.push_str(CUT_WARNING);
        }
        out.push_str(&body);
        if f.truncated {
            out.push_str(&format!(
                "\n[truncated at {} of {} bytes: read the rest with read_file]",
                f.bytes_returned, f.total_bytes
            ));
        }
        out.push_str("\n\n");
    }
    if out.is_empty() && blocks.is_empty() {
        out.push_str("No files matching the criteria were found or all were skipped.");
    } else if out.is_empty() {
        // After inline data, Gemini CLI's closing part stands alone.
        out.push_str("\n--- End of content ---");
    } else {
        out.push_str("--- End of content ---");
    }
    if ignored > 0 {
        skipped.push(format!(
            "{ignored} file(s): ignored by project ignore files"
        ));
    }
    if !skipped.is_empty() {
        out.push_str(&format!("\nSkipped:\n{}", skipped.join("\n")));
    }
    blocks.push(Block::Text(out));
    Ok(super::media::mixed(blocks, r.truncated))
}

/// Whether an asset (a PDF, read as text, or an image or audio file, read as inline data) is read
/// by read_many_files: as in Gemini CLI, only when a pattern names its extension or its name.
fn asset_requested(path: &str, include: &[String]) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return true;
    };
    if !ext.eq_ignore_ascii_case("pdf") && !super::media::by_name(name) {
        return true;
    }
    let ext = format!(".{}", ext.to_lowercase());
    include
        .iter()
        .any(|p| p.to_lowercase().contains(&ext) || p.contains(stem))
}

/// What read_many_files puts before a file it cut (Gemini CLI's read-many-files.ts).
const CUT_WARNING: &str = "[WARNING: This file was truncated. To view the full content, use the \
    'read_file' tool on this specific file.]\n\n";

/// A file's text as Gemini CLI's read_many_files shows it: split on line ends, the first 2,000
/// lines joined by `\n`, each cut after 2,000 characters; and whether anything was left out.
fn first_lines(content: &str) -> (String, bool) {
    let content = content.replace("\r\n", "\n");
    let lines: Vec<&str> = content.split('\n').collect();
    let mut cut = lines.len() as u64 > READ_LINES;
    let body = lines
        .iter()
        .take(READ_LINES as usize)
        .map(|l| {
            let (l, c) = cut_line(l);
            cut |= c;
            l
        })
        .collect::<Vec<_>>()
        .join("\n");
    (body, cut)
}
