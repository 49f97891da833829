//! The `mcp-filesystem` dialect: the tools and argument names of the MCP reference filesystem server
//! (modelcontextprotocol/servers `src/filesystem/index.ts`), so rootbound can replace it. Every
//! result is `{content: string}` as there (read_media_file: `{content: [media block]}`).

mod edit;
mod fuzzy;
mod lines;
mod listing;
mod media;
mod text;
pub(super) mod words;

use super::{input_of, parse, text, Def, Presented};
use crate::core::error::{Error, ErrorCode};
use crate::engine::Within;
use crate::tools::api::Edit;
use crate::tools::api::EditArgs;
use crate::tools::api::MkdirArgs;
use crate::tools::api::MoveArgs;
use crate::tools::api::ReadArgs;
use crate::tools::api::ReadManyArgs;
use crate::tools::api::RootsArgs;
use crate::tools::api::StatArgs;
use crate::tools::ToolName;
use edit::{exists, fenced_patch, hunks, insert_at_start};
use listing::{list, search, tree};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use std::sync::OnceLock;
use text::DIFF_CONTEXT;

/// read_text_file's (and read_file's) arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ReadText {
    /// The file's path (absolute, inside an allowed directory).
    path: String,
    /// If provided, returns only the last N lines of the file.
    #[schemars(range(min = 1))]
    tail: Option<u64>,
    /// If provided, returns only the first N lines of the file.
    #[schemars(range(min = 1))]
    head: Option<u64>,
}

/// Arguments that are one path.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct PathOnly {
    /// The path (absolute, inside an allowed directory).
    path: String,
}

/// read_multiple_files' arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ReadMultiple {
    /// Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories.
    #[schemars(length(min = 1))]
    paths: Vec<String>,
}

/// write_file's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Write {
    /// The file's path (inside the write root).
    path: String,
    /// The text to write.
    content: String,
}

/// One edit.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct EditOp {
    /// Text to search for - must match exactly.
    #[serde(rename = "oldText")]
    old_text: String,
    /// Text to replace with.
    #[serde(rename = "newText")]
    new_text: String,
}

/// edit_file's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct EditFile {
    /// The file's path (inside the write root).
    path: String,
    /// The edits, applied in order, all or nothing.
    edits: Vec<EditOp>,
    /// Preview changes using git-style diff format.
    #[serde(rename = "dryRun")]
    dry_run: Option<bool>,
}

/// list_directory_with_sizes' arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ListSizes {
    /// The directory's path.
    path: String,
    /// Sort entries by name or size.
    #[serde(rename = "sortBy")]
    sort_by: Option<SortBy>,
}

/// The order of list_directory_with_sizes.
#[derive(Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(super) enum SortBy {
    /// By name.
    Name,
    /// Largest first.
    Size,
}

/// directory_tree's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Tree {
    /// The directory's path.
    path: String,
    /// Glob patterns of entries to leave out.
    #[serde(rename = "excludePatterns")]
    exclude_patterns: Option<Vec<String>>,
}

/// move_file's arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Move {
    /// The path to move (inside the write root).
    source: String,
    /// The new path (inside the write root); it must not exist.
    destination: String,
}

/// search_files' arguments.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Search {
    /// The directory to search in.
    path: String,
    /// A glob pattern, e.g. '*.ext' or '**/*.ext'.
    pattern: String,
    /// Glob patterns of paths to leave out.
    #[serde(rename = "excludePatterns")]
    exclude_patterns: Option<Vec<String>>,
}

/// list_allowed_directories' arguments: none needed.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoArgs {
    /// Only the allowed directory this path is in (an error outside them); omit for all.
    path: Option<String>,
}

fn def(
    name: &'static str,
    title: &'static str,
    description: &'static str,
    engine: ToolName,
    run: super::Run,
    input: Value,
) -> Def {
    Def {
        name,
        aliases: &[],
        title,
        description,
        engine,
        run,
        input,
        output: super::text_output(false),
        unset: match name {
            "read_file" | "read_text_file" => &["head", "tail"],
            "list_directory_with_sizes" => &["sortBy"],
            "directory_tree" | "search_files" => &["excludePatterns"],
            _ => &[],
        },
    }
    .finish()
}

/// The reference's `idempotentHint`, tool by tool: said for its write tools, unsaid for its reads
/// (where the engine says `true`).
pub(super) fn pinned_idempotent(tool: &str) -> Option<Option<bool>> {
    Some(match tool {
        "write_file" | "create_directory" => Some(true),
        "edit_file" | "move_file" => Some(false),
        _ => None,
    })
}

/// The reference's `destructiveHint`: fixed per tool, where the engine's follows the write policy
/// (a client that gates on it sees the reference's values).
pub(super) fn pinned_destructive(tool: &str) -> Option<bool> {
    match tool {
        "write_file" | "edit_file" | "move_file" => Some(true),
        "create_directory" => Some(false),
        _ => None,
    }
}

pub(super) fn defs() -> &'static [Def] {
    static DEFS: OnceLock<Vec<Def>> = OnceLock::new();
    DEFS.get_or_init(|| {
        let mut media = def(
            "read_media_file",
            "Read Media File",
            "Read a file and return it as a base64-encoded content block with its MIME type (by the name's \
             extension). Image and audio files are returned as image/audio content; any other file type is \
             returned as an embedded resource.",
            ToolName::ReadMediaFile, |sb, a| media::media(sb, parse(a)?),
            input_of::<PathOnly>(),
        );
        media.output = media::output();
        vec![
            def("read_file", "Read File (Deprecated)",
                "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.",
                ToolName::ReadFile, |sb, a| read(sb, parse(a)?), input_of::<ReadText>()),
            def("read_text_file", "Read Text File",
                "Read the contents of a file as text. Use 'head' to read only the first N lines or 'tail' for the \
                 last N lines. A file larger than the server's read limit is cut, with a note saying so.",
                ToolName::ReadFile, |sb, a| read(sb, parse(a)?), input_of::<ReadText>()),
            media,
            def("read_multiple_files", "Read Multiple Files",
                "Read the contents of multiple files at once. Each file's content is returned with its path; a failed \
                 read of one file does not stop the others. All files share one byte budget.",
                ToolName::ReadManyFiles, |sb, a| read_multiple(sb, parse(a)?), input_of::<ReadMultiple>()),
            def("write_file", "Write File",
                "Create a new file or overwrite an existing one (when the server's policy allows replacing files).",
                ToolName::WriteFile, |sb, a| write(sb, parse(a)?), input_of::<Write>()),
            def("edit_file", "Edit File",
                "Make edits to a text file: each edit replaces an exact text (oldText must occur once). Returns a \
                 git-style diff; dryRun previews without writing.",
                ToolName::EditFile, |sb, a| edit(sb, parse(a)?), input_of::<EditFile>()),
            def("create_directory", "Create Directory",
                "Create a directory (and missing parents); an existing directory is fine.",
                ToolName::CreateDirectory, |sb, a| create_directory(sb, parse(a)?), input_of::<PathOnly>()),
            def("list_directory", "List Directory",
                "List the files and directories in a path, with [FILE] and [DIR] prefixes.",
                ToolName::ListDir, |sb, a| list_directory(sb, parse(a)?), input_of::<PathOnly>()),
            def("list_directory_with_sizes", "List Directory with Sizes",
                "List the files and directories in a path with their sizes, [FILE]/[DIR] prefixes and totals.",
                ToolName::ListDir, |sb, a| list_with_sizes(sb, parse(a)?), input_of::<ListSizes>()),
            def("directory_tree", "Directory Tree",
                "A recursive tree of files and directories as JSON: name, type (file/directory), children. Bounded in \
                 depth and entries by the server; what is left out is said after the JSON.",
                ToolName::DirectoryTree, |sb, a| tree(sb, parse(a)?), input_of::<Tree>()),
            def("move_file", "Move File",
                "Move or rename a file or directory. If the destination exists, the operation fails.",
                ToolName::MoveFile, |sb, a| move_file(sb, parse(a)?), input_of::<Move>()),
            def("search_files", "Search Files",
                "Recursively search for files and directories whose path matches a glob pattern ('*.ext', \
                 '**/*.ext'). Returns full paths.",
                ToolName::Glob, |sb, a| search(sb, parse(a)?), input_of::<Search>()),
            def("get_file_info", "Get File Info",
                "Metadata of a file or directory: size, creation, modification and access times, permissions, type.",
                ToolName::Stat, |sb, a| file_info(sb, parse(a)?), input_of::<PathOnly>()),
            def("list_allowed_directories", "List Allowed Directories",
                "Returns the list of directories this server may access (subdirectories included).",
                ToolName::ListRoots, |sb, a| allowed_directories(sb, parse(a)?), input_of::<NoArgs>()),
        ]
    })
}

fn write(sb: &Within<'_>, a: Write) -> Result<Presented, Error> {
    let path = home(sb, a.path.clone())?;
    missing_parent(sb, &path)?;
    super::write_replacing(sb, path, a.content)?;
    Ok(text(format!("Successfully wrote to {}", a.path), None))
}

/// The reference writes into an existing directory only (a missing one is `ENOENT`), where the
/// engine's write creates missing parents inside the write root.
fn missing_parent(sb: &Within<'_>, path: &str) -> Result<(), Error> {
    let Some(parent) = std::path::Path::new(path)
        .parent()
        .and_then(|p| p.to_str())
        .filter(|p| !p.is_empty())
    else {
        return Ok(());
    };
    match sb.stat(&StatArgs {
        path: parent.to_string(),
    }) {
        Err(e) if e.code == ErrorCode::NotFound => Err(Error::new(
            ErrorCode::NotFound,
            format!("'{path}' is in a directory that does not exist; create_directory it first"),
        )),
        // Anything else (outside the roots, a file as parent) is the write's to report.
        _ => Ok(()),
    }
}

/// The reference's text for a tool it does not have (its SDK's).
pub(super) fn unknown_tool(name: &str, e: Error) -> Error {
    e.with_detail("said", format!("MCP error -32602: Tool {name} not found"))
}

fn edit(sb: &Within<'_>, a: EditFile) -> Result<Presented, Error> {
    let path = home(sb, a.path)?;
    let body = if a.edits.is_empty() {
        // The reference applies no edit and answers the diff of the file with itself: the
        // header without hunks. The file must still be a file the edit could write.
        let st = sb.stat(&StatArgs { path: path.clone() })?;
        if st.kind != "file" {
            return Err(Error::new(
                ErrorCode::InvalidArgument,
                format!("'{path}' is not a regular file"),
            ));
        }
        String::new()
    } else {
        // As the reference, the texts are read with CRLF as LF; the engine writes them in
        // the file's own line endings.
        let edits: Vec<Edit> = a
            .edits
            .into_iter()
            .map(|e| Edit {
                old_string: e.old_text.replace("\r\n", "\n"),
                new_string: e.new_text.replace("\r\n", "\n"),
                replace_all: None,
            })
            .collect();
        let inserts = edits.iter().any(|e| e.old_string.is_empty());
        let tried = if inserts && exists(sb, &path)? {
            insert_at_start(sb, &path, edits.clone(), a.dry_run)
        } else {
            sb.edit_file_with_context(
                &EditArgs {
                    path: path.clone(),
                    edits: Some(edits.clone()),
                    dry_run: a.dry_run,
                    ..Default::default()
                },
                DIFF_CONTEXT,
            )
            .map(|r| r.diff.unwrap_or_default())
        };
        // The engine's exact, unique match first (it reads only what it needs); where it finds an
        // oldText nowhere or more than once, the reference's first occurrence and trimmed lines.
        let diff = match tried {
            Err(e) if fuzzy::may_fall_back(&e) => fuzzy::edit(sb, &path, &edits, a.dry_run, e)?,
            other => other?,
        };
        hunks(&diff)
    };
    Ok(text(fenced_patch(&path, &body), None))
}

fn create_directory(sb: &Within<'_>, a: PathOnly) -> Result<Presented, Error> {
    let path = home(sb, a.path.clone())?;
    // An existing directory is success, as `mkdir -p` (a root included, which the engine's
    // create_directory refuses as a path without a name to create).
    let exists = sb
        .stat(&StatArgs { path: path.clone() })
        .is_ok_and(|r| r.kind == "dir");
    if !exists {
        sb.create_directory(&MkdirArgs { path })?;
    }
    Ok(text(
        format!("Successfully created directory {}", a.path),
        None,
    ))
}

fn list_directory(sb: &Within<'_>, a: PathOnly) -> Result<Presented, Error> {
    list(sb, home(sb, a.path)?, None)
}

fn list_with_sizes(sb: &Within<'_>, a: ListSizes) -> Result<Presented, Error> {
    list(
        sb,
        home(sb, a.path)?,
        Some(a.sort_by.unwrap_or(SortBy::Name)),
    )
}

fn move_file(sb: &Within<'_>, a: Move) -> Result<Presented, Error> {
    sb.move_file(&MoveArgs {
        source: home(sb, a.source.clone())?,
        destination: home(sb, a.destination.clone())?,
        overwrite: None,
    })?;
    Ok(text(
        format!("Successfully moved {} to {}", a.source, a.destination),
        None,
    ))
}

/// The reference's `getFileStats` lines in its order (size, created, modified, accessed,
/// isDirectory, isFile, permissions), then rootbound's type (and lines of a small text file). The
/// times are RFC 3339 UTC; `created` is the birth time where the filesystem keeps one, else the
/// epoch, as Node's `birthtime` then; `permissions` the last three octal digits of the mode.
fn file_info(sb: &Within<'_>, a: PathOnly) -> Result<Presented, Error> {
    use crate::tools::stat_list::rfc3339;
    let (r, (created, accessed, mode)) = sb.stat_more(
        &StatArgs {
            path: home(sb, a.path)?,
        },
        |o| {
            let created = crate::core::dirs::birth_time(o).unwrap_or(0);
            (created, o.stat.st_atime, o.stat.st_mode)
        },
    )?;
    let octal = format!("{:o}", mode);
    let mut out = format!(
        "size: {}\ncreated: {}\nmodified: {}\naccessed: {}\nisDirectory: {}\nisFile: {}\npermissions: {}\ntype: {}",
        r.size,
        rfc3339(created),
        r.mtime,
        rfc3339(accessed),
        r.kind == "dir",
        r.kind == "file",
        &octal[octal.len().saturating_sub(3)..],
        r.kind
    );
    if let Some(l) = r.lines {
        out.push_str(&format!("\nlines: {l}"));
    }
    Ok(text(out, None))
}

/// The reference takes no arguments; `path` is rootbound's, so that the schema declares a
/// property (see [`Within::list_roots`]): strict-mode clients send it empty or null.
fn allowed_directories(sb: &Within<'_>, a: NoArgs) -> Result<Presented, Error> {
    let path = match a.path.filter(|p| !p.is_empty()) {
        Some(p) => Some(home(sb, p)?),
        None => None,
    };
    let r = sb.list_roots(&RootsArgs { path })?;
    let mut dirs: Vec<String> = Vec::new();
    for e in &r.roots {
        let d = if e.readable {
            e.path.clone()
        } else {
            format!("{} (write only)", e.path)
        };
        // The write root is listed once even when it is also a read root.
        if !dirs.contains(&d) {
            dirs.push(d);
        }
    }
    Ok(text(
        format!("Allowed directories:\n{}", dirs.join("\n")),
        None,
    ))
}

fn read(sb: &Within<'_>, a: ReadText) -> Result<Presented, Error> {
    if a.head.is_some() && a.tail.is_some() {
        return Err(Error::invalid(
            "Cannot specify both head and tail parameters simultaneously",
        ));
    }
    // `head` reads bytes from the start (the lines as they are, `\r` kept, as the reference's
    // headFile); `tail` the engine's last lines.
    let path = home(sb, a.path)?;
    let (r, window) = match sb.read_file(&ReadArgs {
        path: path.clone(),
        tail_lines: a.tail,
        ..Default::default()
    }) {
        Ok(r) => (r, false),
        // The engine counts lines of UTF-8 text only; a UTF-16 file's tail is cut from its end.
        Err(e) if e.message.starts_with(super::UTF16_LINE_MODE) => lines::utf16_end(sb, path)?,
        Err(e) => return Err(e),
    };
    if r.binary {
        return Ok(text(crate::tools::render::read(&r), None));
    }
    // The reference returns the whole file (or the lines asked for): only a cut made by the
    // server's read limit is worth a note.
    let (content, cut) = match (a.head, a.tail) {
        (Some(h), _) => {
            let (text, all) = lines::head(&r.content, h);
            (text, r.truncated && !all)
        }
        (None, Some(n)) => lines::tail(&r.content, n, window),
        (None, None) => (r.content.clone(), r.truncated),
    };
    let mut out = super::with_extraction_note(&r, content);
    if cut {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!(
            "[cut at the server's read limit: {} of {} bytes shown; use head/tail for other parts]",
            r.bytes_returned, r.total_bytes
        ));
    }
    Ok(text(out, None))
}

fn read_multiple(sb: &Within<'_>, a: ReadMultiple) -> Result<Presented, Error> {
    if a.paths.is_empty() {
        // The reference's schema says `min(1)`: an input validation error, not a tool's.
        return Err(Error::invalid(
            "bad arguments: paths must hold at least one path",
        ));
    }
    let r = sb.read_many_files(&ReadManyArgs {
        paths: a
            .paths
            .into_iter()
            .map(|p| home(sb, p))
            .collect::<Result<_, _>>()?,
        max_bytes: None,
        timeout_ms: None,
    })?;
    let parts: Vec<String> = r
        .files
        .iter()
        .map(|f| {
            if let Some(e) = &f.error {
                format!("{}: Error - {}", f.path, words::per_file(sb, &f.path, e))
            } else if f.binary {
                format!(
                    "{}: Error - binary file ({} bytes); use read_media_file",
                    f.path, f.total_bytes
                )
            } else {
                let mut s = format!("{}:\n{}\n", f.path, f.content.as_deref().unwrap_or(""));
                if f.truncated {
                    s.push_str(&format!(
                        "[truncated: {} of {} bytes shown]\n",
                        f.bytes_returned, f.total_bytes
                    ));
                }
                s
            }
        })
        .collect();
    Ok(text(parts.join("\n---\n"), None))
}

/// The reference's `expandHome`: `~` and `~/x` name the home directory (`$HOME`). Here the expansion
/// is used only when it lands inside a root; otherwise the call is refused saying so, rather than
/// letting `~` reach the resolver as a literal name.
pub(super) fn home(sb: &Within<'_>, path: String) -> Result<String, Error> {
    if path != "~" && !path.starts_with("~/") {
        return Ok(path);
    }
    let Some(h) = std::env::var_os("HOME").filter(|h| !h.is_empty()) else {
        return Err(Error::new(
            ErrorCode::OutOfSandbox,
            format!("'{path}' names the home directory, but HOME is not set; give an absolute path inside an allowed directory"),
        ));
    };
    let expanded = std::path::Path::new(&h).join(path[1..].trim_start_matches('/'));
    let expanded = expanded.to_string_lossy().trim_end_matches('/').to_string();
    let expanded = if expanded.is_empty() {
        "/".to_string()
    } else {
        expanded
    };
    let roots = sb.list_roots(&RootsArgs::default())?;
    // Component-wise (`Path::starts_with`), so `/home/me-evil` is not inside `/home/me`; the
    // resolver still decides containment of the expanded path as for any absolute path.
    let inside = roots
        .roots
        .iter()
        .any(|r| std::path::Path::new(&expanded).starts_with(&r.path));
    if !inside {
        return Err(Error::new(
            ErrorCode::OutOfSandbox,
            format!(
                "'{path}' expands to '{expanded}' (the home directory), which is not inside an allowed directory; use list_allowed_directories"
            ),
        ));
    }
    Ok(expanded)
}
