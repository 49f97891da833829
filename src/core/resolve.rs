//! Request validation and root selection. No I/O happens here: this turns an agent's path string into
//! candidate `(root, relative path)` pairs, or refuses it.

use crate::core::error::{Error, ErrorCode, Result};
use crate::core::policy::Limits;
use std::path::{Component, Path, PathBuf};

/// The anchor points of one root, for matching absolute requests.
pub(crate) struct RootPaths<'a> {
    pub configured: &'a Path,
    pub canonical: &'a Path,
}

/// Checks a raw path argument before any I/O: NUL, empty, over-long path or component.
pub(crate) fn validate(raw: &str, limits: &Limits) -> Result<()> {
    if raw.is_empty() {
        return Err(Error::invalid(
            "path is empty; give a path relative to a root, or '.'",
        ));
    }
    if raw.contains('\0') {
        return Err(Error::invalid("path contains a NUL byte"));
    }
    if raw.len() > limits.max_path_len {
        return Err(Error::invalid(format!(
            "path is {} bytes, over the limit of {}",
            raw.len(),
            limits.max_path_len
        )));
    }
    if raw.split('/').any(|c| c.len() > limits.max_component_len) {
        return Err(Error::invalid(format!(
            "a path component is over {} bytes",
            limits.max_component_len
        )));
    }
    Ok(())
}

/// The roots to try for `raw`, each with the path relative to it.
///
/// A relative request gives every root in order. An absolute request is accepted only when it starts,
/// component by component, with a root's configured or canonical path; the rest is then relative to
/// that root (and may still be refused by the open path, e.g. `<root>/../x`).
pub(crate) fn candidates(raw: &str, roots: &[RootPaths<'_>]) -> Result<Vec<(usize, PathBuf)>> {
    let path = Path::new(raw);
    if roots.is_empty() {
        return Err(Error::new(
            ErrorCode::OutOfSandbox,
            "no roots are configured for this agent: every path is refused",
        ));
    }
    if !path.has_root() {
        return Ok((0..roots.len())
            .map(|i| (i, keep_trailing_slash(raw, path.to_path_buf())))
            .collect());
    }
    for (i, r) in roots.iter().enumerate() {
        for anchor in [r.canonical, r.configured] {
            if let Ok(rest) = path.strip_prefix(anchor) {
                return Ok(vec![(i, keep_trailing_slash(raw, relative_rest(rest)))]);
            }
        }
    }
    Err(Error::new(
        ErrorCode::OutOfSandbox,
        format!("'{raw}' is outside every root; give a path relative to a root"),
    ))
}

/// `Path::strip_prefix` drops a trailing `.`-free remainder; `CurDir`-only rests mean the root itself.
fn relative_rest(rest: &Path) -> PathBuf {
    rest.components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

/// A trailing `/` must survive: `file.txt/` is not `file.txt`, and `link/` must resolve the link.
fn keep_trailing_slash(raw: &str, mut rel: PathBuf) -> PathBuf {
    if raw.ends_with('/')
        && !rel.as_os_str().is_empty()
        && !rel.as_os_str().as_encoded_bytes().ends_with(b"/")
    {
        let mut s = rel.into_os_string();
        s.push("/");
        rel = PathBuf::from(s);
    }
    rel
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roots<'a>(p: &'a [(&'a Path, &'a Path)]) -> Vec<RootPaths<'a>> {
        p.iter()
            .map(|(a, b)| RootPaths {
                configured: a,
                canonical: b,
            })
            .collect()
    }

    #[test]
    fn sibling_with_root_prefix_is_outside() {
        let r = [(Path::new("/srv/data"), Path::new("/srv/data"))];
        let e = candidates("/srv/data_evil/x", &roots(&r)).unwrap_err();
        assert_eq!(e.code, ErrorCode::OutOfSandbox);
    }

    #[test]
    fn absolute_inside_maps_to_relative() {
        let r = [(Path::new("/a/link"), Path::new("/real/data"))];
        let c = candidates("/real/data/sub/f", &roots(&r)).unwrap();
        assert_eq!(c, vec![(0, PathBuf::from("sub/f"))]);
        let c = candidates("/a/link/f", &roots(&r)).unwrap();
        assert_eq!(c, vec![(0, PathBuf::from("f"))]);
        let c = candidates("/real/data/../data/f", &roots(&r)).unwrap();
        assert_eq!(c, vec![(0, PathBuf::from("../data/f"))]);
    }

    #[test]
    fn trailing_slash_is_kept() {
        let r = [(Path::new("/r"), Path::new("/r"))];
        let c = candidates("link/", &roots(&r)).unwrap();
        assert_eq!(c[0].1.as_os_str(), "link/");
    }

    #[test]
    fn validation_rejects_before_io() {
        let l = Limits::default();
        for bad in [
            "",
            "a\0b",
            &"x".repeat(5000),
            &format!("a/{}", "y".repeat(300)),
        ] {
            assert_eq!(
                validate(bad, &l).unwrap_err().code,
                ErrorCode::InvalidArgument
            );
        }
        assert!(validate("a/b/../c", &l).is_ok());
    }
}
