//! MCP Roots (`rootbound mcp --client-roots`): the roots a client announces narrow the served roots to
//! those inside the operator's roots, never widen them.
//!
//! For each operator root and each client root: a client root inside the operator root becomes a root
//! (opened through the same resolver and admission gate as any agent path, as a directory handle
//! beneath the operator's root, so no rename or symlink swap can move it out); a client root that
//! contains the operator root keeps the operator root; anything else gives nothing. The write root is
//! kept only when a client root contains it. Deny rules keep holding relative to the operator's roots
//! as well (they stay anchors of the gate). The intersection is core's (`core/narrow.rs`: the roots
//! it makes are core's); this module takes the client's list.

use crate::tools::router::AgentTools;
use std::path::{Component, Path, PathBuf};

impl AgentTools {
    /// These tools with their roots narrowed to `client_roots` (absolute paths; see the module docs).
    /// Always narrowed from `self`: calling it on the operator's tools with a new list replaces the
    /// previous narrowing, and no list can reach beyond the operator's roots. An empty list leaves no
    /// root (calls answer `OUT_OF_SANDBOX`).
    ///
    /// ```
    /// use rootbound::config::AgentTools;
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::create_dir(dir.path().join("sub")).unwrap();
    /// std::fs::write(dir.path().join("top.txt"), "x").unwrap();
    /// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
    /// let all = AgentTools::from_sandbox(sb);
    /// let canon = std::fs::canonicalize(dir.path()).unwrap();
    /// let narrow = all.narrowed(&[canon.join("sub"), "/".into()]);
    /// let roots = narrow.sandboxes()[0].roots();
    /// assert_eq!(roots.len(), 2); // sub, and the operator root itself (inside "/")
    /// let only_sub = all.narrowed(&[canon.join("sub")]);
    /// let top = canon.join("top.txt").to_string_lossy().into_owned();
    /// assert!(only_sub.call_result("read_file", serde_json::json!({"path": top})).is_err());
    /// ```
    pub fn narrowed(&self, client_roots: &[PathBuf]) -> AgentTools {
        let client: Vec<PathBuf> = client_roots
            .iter()
            .filter(|c| c.is_absolute())
            .map(|c| lexical(c))
            .collect();
        let client: Vec<&Path> = client.iter().map(PathBuf::as_path).collect();
        AgentTools {
            agent: self.agent.clone(),
            sandboxes: self
                .sandboxes
                .iter()
                .map(|sb| sb.clone().map_core(|c| c.narrowed_to_client(&client)))
                .collect(),
            routes: self.routes.clone(),
            profile: self.profile,
            others: self.others.clone(),
        }
    }
}

/// An absolute client root with `.` and `..` taken lexically, as the reference server's
/// `path.resolve` takes them (`/r/./sub/../sub` is `/r/sub`; `..` at `/` stays there). Safe because
/// the result is only a request: it is matched against the operator's roots and opened through
/// the resolver and the gate like any agent path, so no spelling reaches beyond a root.
fn lexical(c: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for x in c.components() {
        match x {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The local path of a `file://` URI (percent-decoded), as MCP clients announce roots; `None` for any
/// other scheme or a remote host.
///
/// ```
/// use rootbound::file_uri_path;
/// assert_eq!(file_uri_path("file:///home/me/my%20project"), Some("/home/me/my project".into()));
/// assert_eq!(file_uri_path("file://localhost/srv"), Some("/srv".into()));
/// assert_eq!(file_uri_path("https://example.com/x"), None);
/// ```
pub fn file_uri_path(uri: &str) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    let rest = uri.strip_prefix("file://")?;
    let path = match rest.strip_prefix("localhost") {
        Some(p) => p,
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let b = path.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    if out.contains(&0) {
        return None;
    }
    Some(PathBuf::from(std::ffi::OsString::from_vec(out)))
}
