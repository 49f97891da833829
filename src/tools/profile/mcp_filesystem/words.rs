//! The reference server's error texts. A client written against the reference matches its failures
//! by their text (`ENOENT: ...`, `Access denied - ...`, `Destination already exists: ...`), so the
//! dialect says them in those words. Only the words change: the stable code and rootbound's own
//! message stay in the structured error (`{"error": {"code", "message", "said"}}`), and each text is
//! made from the code and the agent's own arguments alone (plus the allowed directories, which
//! list_allowed_directories and every tool description already show), so it says nothing that
//! rootbound's message did not. Codes without a counterpart in the reference (a deny rule, a bound,
//! a timeout) keep rootbound's `CODE: message`.

use crate::core::error::{Error, ErrorCode};
use crate::engine::Within;
use crate::tools::api::RootsArgs;
use crate::tools::api::StatArgs;
use serde_json::Value;

/// The arguments an error text names, taken from a call before it runs (the arguments are moved
/// into the call; a write's content is not kept).
pub(crate) struct Named {
    tool: &'static str,
    path: Option<String>,
    source: Option<String>,
    destination: Option<String>,
    old_texts: Vec<String>,
}

impl Named {
    pub(crate) fn of(tool: &'static str, args: &Value) -> Named {
        let s = |k: &str| args.get(k).and_then(Value::as_str).map(str::to_string);
        let old_texts = match tool {
            "edit_file" => args
                .get("edits")
                .and_then(Value::as_array)
                .map(|v| {
                    v.iter()
                        .map(|e| e["oldText"].as_str().unwrap_or_default().to_string())
                        .collect()
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        Named {
            tool,
            path: s("path"),
            source: s("source"),
            destination: s("destination"),
            old_texts,
        }
    }
}

/// `e` with the reference's text for it (the `said` detail, which the MCP server shows in place of
/// `CODE: message`), when the reference has one.
pub(crate) fn in_reference_words(sb: &Within<'_>, named: &Named, e: Error) -> Error {
    match said(sb, named, &e) {
        Some(text) => e.with_detail("said", text),
        None => e,
    }
}

/// The reference's text for a per-file failure of read_multiple_files (`<path>: Error - <text>`).
pub(super) fn per_file(sb: &Within<'_>, path: &str, e: &Value) -> String {
    let code = ErrorCode::ALL
        .iter()
        .copied()
        .find(|c| Some(c.as_str()) == e["code"].as_str())
        .unwrap_or(ErrorCode::IoError);
    let message = e["message"].as_str().unwrap_or_default();
    let named = Named {
        tool: "read_text_file",
        path: Some(path.to_string()),
        source: None,
        destination: None,
        old_texts: Vec::new(),
    };
    said(sb, &named, &Error::new(code, message)).unwrap_or_else(|| message.to_string())
}

fn said(sb: &Within<'_>, n: &Named, e: &Error) -> Option<String> {
    let path = named_path(n, &e.message);
    let lists = matches!(
        n.tool,
        "list_directory" | "list_directory_with_sizes" | "directory_tree" | "search_files"
    );
    // Node's syscall names, as the reference's errors carry them.
    let call = if lists {
        "scandir"
    } else if n.tool == "get_file_info" {
        "stat"
    } else {
        "open"
    };
    Some(match e.code {
        ErrorCode::InvalidArgument if e.message.starts_with("bad arguments") => format!(
            "MCP error -32602: Input validation error: Invalid arguments for tool {}: {}",
            n.tool, e.message
        ),
        ErrorCode::InvalidArgument
            if e.message.starts_with("Cannot specify both head and tail") =>
        {
            e.message.clone()
        }
        ErrorCode::NotFound if n.tool == "edit_file" && e.message.contains("was not found in") => {
            format!(
                "Could not find exact match for edit:\n{}",
                failed_edit(n, &e.message)?
            )
        }
        ErrorCode::NotFound if n.tool == "move_file" => format!(
            "ENOENT: no such file or directory, rename '{}' -> '{}'",
            n.source.as_deref()?,
            n.destination.as_deref()?
        ),
        ErrorCode::NotFound => format!("ENOENT: no such file or directory, {call} '{path}'"),
        ErrorCode::OutOfSandbox => format!(
            "Access denied - path outside allowed directories: {path} not in {}",
            allowed(sb).join(", ")
        ),
        ErrorCode::AlreadyExists if n.tool == "move_file" => {
            format!("Destination already exists: {}", n.destination.as_deref()?)
        }
        ErrorCode::AlreadyExists if n.tool == "create_directory" => {
            format!("EEXIST: file already exists, mkdir '{path}'")
        }
        ErrorCode::AlreadyExists => format!("EEXIST: file already exists, {call} '{path}'"),
        ErrorCode::NotAFile if n.tool == "write_file" => {
            format!("Refusing to write: not a regular file: {path}")
        }
        ErrorCode::NotAFile if lists => format!("ENOTDIR: not a directory, scandir '{path}'"),
        // Reading a directory; a FIFO or device has no reference text (the reference would block).
        ErrorCode::NotAFile if is_dir(sb, &path) => {
            "EISDIR: illegal operation on a directory, read".to_string()
        }
        ErrorCode::PermissionDenied => format!("EACCES: permission denied, {call} '{path}'"),
        _ => return None,
    })
}

/// The path the error is about: the path a `~` expands to, the argument rootbound's message starts
/// by quoting (for a move, source or destination), else the call's `path`.
fn named_path(n: &Named, message: &str) -> String {
    // The reference names `~/x` by what it expands to.
    let home = message
        .split_once("expands to '")
        .and_then(|(_, rest)| rest.split_once("' (the home directory)"))
        .map(|(p, _)| p.to_string());
    let given = [&n.path, &n.source, &n.destination];
    let quoted = given
        .into_iter()
        .flatten()
        .find(|p| message.starts_with(&format!("'{p}'")))
        .cloned();
    home.or(quoted)
        .or_else(|| n.path.clone())
        .unwrap_or_default()
}

/// The oldText of the edit that found no match (`edit K of N: ...` says which, when there are
/// several).
fn failed_edit(n: &Named, message: &str) -> Option<String> {
    let k = message
        .strip_prefix("edit ")
        .and_then(|r| r.split_once(' '))
        .and_then(|(k, _)| k.parse::<usize>().ok())
        .unwrap_or(1);
    n.old_texts.get(k.checked_sub(1)?).cloned()
}

/// The allowed directories as list_allowed_directories shows them.
fn allowed(sb: &Within<'_>) -> Vec<String> {
    let mut dirs: Vec<String> = Vec::new();
    for r in sb
        .list_roots(&RootsArgs::default())
        .map(|r| r.roots)
        .unwrap_or_default()
    {
        if !dirs.contains(&r.path) {
            dirs.push(r.path);
        }
    }
    dirs
}

fn is_dir(sb: &Within<'_>, path: &str) -> bool {
    sb.stat(&StatArgs {
        path: path.to_string(),
    })
    .is_ok_and(|r| r.kind == "dir")
}
