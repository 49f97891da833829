//! Request validation and root selection. No I/O happens here: this turns an agent's path string into
//! candidate `(root, relative path)` pairs, or refuses it.

use crate::core::error::{Error, ErrorCode, Result};
use crate::core::names;
use crate::core::policy::Limits;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

/// The anchor points of one root, for matching absolute and root-named requests.
pub(crate) struct RootPaths<'a> {
    pub configured: &'a Path,
    pub canonical: &'a Path,
    /// The root's name, for `NAME:rel` requests (the form relative display uses with several roots).
    pub name: &'a str,
}

/// A request path: the agent's argument unescaped (see [`crate::core::names`]) and checked before any
/// I/O: NUL, empty, over-long path or component.
pub(crate) fn request(raw: &str, limits: &Limits) -> Result<PathBuf> {
    if raw.is_empty() {
        return Err(Error::invalid(
            "path is empty; give a path relative to a root, or '.'",
        ));
    }
    let path = names::request_path(raw);
    let bytes = path.as_bytes();
    if bytes.contains(&0) {
        return Err(Error::invalid("path contains a NUL byte"));
    }
    if bytes.len() > limits.max_path_len {
        return Err(Error::invalid(format!(
            "path is {} bytes, over the limit of {}",
            bytes.len(),
            limits.max_path_len
        )));
    }
    if bytes
        .split(|&b| b == b'/')
        .any(|c| c.len() > limits.max_component_len)
    {
        return Err(Error::invalid(format!(
            "a path component is over {} bytes",
            limits.max_component_len
        )));
    }
    Ok(PathBuf::from(path))
}

/// The roots to try for `path` (a [`request`]), each with the path relative to it.
///
/// `NAME:rel` names one root when there are several and one of them is called `NAME`. Another
/// relative request gives every root in order. An absolute request is accepted only when it starts,
/// component by component, with a root's configured or canonical path; the rest is then relative to
/// that root (and may still be refused by the open path, e.g. `<root>/../x`).
pub(crate) fn candidates(
    raw: &str,
    path: &Path,
    roots: &[RootPaths<'_>],
) -> Result<Vec<(usize, PathBuf)>> {
    if roots.is_empty() {
        return Err(Error::new(
            ErrorCode::OutOfSandbox,
            "no roots are configured for this agent: every path is refused",
        ));
    }
    let trailing = path.as_os_str().as_bytes().ends_with(b"/");
    if !path.has_root() {
        if let Some((i, rest)) = named(path, roots) {
            return Ok(vec![(i, keep_trailing_slash(trailing, rest))]);
        }
        return Ok((0..roots.len())
            .map(|i| (i, keep_trailing_slash(trailing, path.to_path_buf())))
            .collect());
    }
    for (i, r) in roots.iter().enumerate() {
        for anchor in [r.canonical, r.configured] {
            if let Ok(rest) = path.strip_prefix(anchor) {
                return Ok(vec![(
                    i,
                    keep_trailing_slash(trailing, relative_rest(rest)),
                )]);
            }
        }
    }
    Err(Error::new(
        ErrorCode::OutOfSandbox,
        format!("'{raw}' is outside every root; give a path relative to a root"),
    ))
}

/// `NAME:rest` where `NAME` is one of several roots' names: that root and `rest`.
fn named(path: &Path, roots: &[RootPaths<'_>]) -> Option<(usize, PathBuf)> {
    if roots.len() < 2 {
        return None;
    }
    let b = path.as_os_str().as_bytes();
    let colon = b.iter().position(|&c| c == b':' || c == b'/')?;
    if b[colon] != b':' {
        return None;
    }
    let i = roots
        .iter()
        .position(|r| r.name.as_bytes() == &b[..colon])?;
    let rest = Path::new(std::ffi::OsStr::from_bytes(&b[colon + 1..]));
    Some((i, relative_rest(rest)))
}

/// `Path::strip_prefix` drops a trailing `.`-free remainder; `CurDir`-only rests mean the root itself.
fn relative_rest(rest: &Path) -> PathBuf {
    rest.components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

/// A trailing `/` must survive: `file.txt/` is not `file.txt`, and `link/` must resolve the link.
fn keep_trailing_slash(trailing: bool, mut rel: PathBuf) -> PathBuf {
    if trailing
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
                name: "r",
            })
            .collect()
    }

    #[test]
    fn sibling_with_root_prefix_is_outside() {
        let r = [(Path::new("/srv/data"), Path::new("/srv/data"))];
        let e = candidates("", Path::new("/srv/data_evil/x"), &roots(&r)).unwrap_err();
        assert_eq!(e.code, ErrorCode::OutOfSandbox);
    }

    #[test]
    fn absolute_inside_maps_to_relative() {
        let r = [(Path::new("/a/link"), Path::new("/real/data"))];
        let c = candidates(
            "/real/data/sub/f",
            Path::new("/real/data/sub/f"),
            &roots(&r),
        )
        .unwrap();
        assert_eq!(c, vec![(0, PathBuf::from("sub/f"))]);
        let c = candidates("/a/link/f", Path::new("/a/link/f"), &roots(&r)).unwrap();
        assert_eq!(c, vec![(0, PathBuf::from("f"))]);
        let c = candidates(
            "/real/data/../data/f",
            Path::new("/real/data/../data/f"),
            &roots(&r),
        )
        .unwrap();
        assert_eq!(c, vec![(0, PathBuf::from("../data/f"))]);
    }

    #[test]
    fn a_root_named_by_its_name() {
        let rs = [
            RootPaths {
                configured: Path::new("/a"),
                canonical: Path::new("/a"),
                name: "docs",
            },
            RootPaths {
                configured: Path::new("/b"),
                canonical: Path::new("/b"),
                name: "src",
            },
        ];
        let c = candidates("", Path::new("src:lib/a.rs"), &rs).unwrap();
        assert_eq!(c, vec![(1, PathBuf::from("lib/a.rs"))]);
        let c = candidates("", Path::new("src:"), &rs).unwrap();
        assert_eq!(c, vec![(1, PathBuf::new())]);
        // Not a root's name, or a colon after a slash: an ordinary relative name in every root.
        assert_eq!(candidates("", Path::new("x:y"), &rs).unwrap().len(), 2);
        assert_eq!(candidates("", Path::new("d/src:y"), &rs).unwrap().len(), 2);
    }

    #[test]
    fn trailing_slash_is_kept() {
        let r = [(Path::new("/r"), Path::new("/r"))];
        let c = candidates("link/", Path::new("link/"), &roots(&r)).unwrap();
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
                request(bad, &l).unwrap_err().code,
                ErrorCode::InvalidArgument
            );
        }
        assert!(request("a/b/../c", &l).is_ok());
        assert_eq!(
            request("a\\x00b", &l).unwrap_err().code,
            ErrorCode::InvalidArgument
        );
        assert_eq!(
            request("bad\\xff", &l).unwrap().as_os_str().as_bytes(),
            b"bad\xff"
        );
    }
}
