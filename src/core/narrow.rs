//! MCP Roots' narrowing, core's half: the roots a client announces, intersected with this
//! sandbox's (see `tools/client_roots.rs` for the rule). A client root inside a root is opened
//! through the resolver and the gate like an agent's path, as a directory handle beneath the
//! operator's root, so no rename or symlink swap can move it out; the roots it makes are core's
//! (`Root`), so this is where they are made.

use crate::core::open::Want;
use crate::core::sandbox::{Root, Sandbox};
use std::path::{Component, Path, PathBuf};

impl Sandbox {
    /// This sandbox's roots intersected with `client` (each absolute and free of `..`): a client
    /// root inside a root becomes a root, one containing a root keeps it, anything else gives
    /// nothing; the write root is kept only when a client root contains it.
    pub(crate) fn narrowed_to_client(&self, client: &[&Path]) -> Sandbox {
        let mut roots: Vec<Root> = Vec::new();
        for r in self.read_roots().iter() {
            for c in client {
                let c = normalize(c);
                if r.canonical.starts_with(&c) {
                    if let Ok(dir) = r.dir.try_clone() {
                        push(&mut roots, r.canonical.clone(), r.name.clone(), dir);
                    }
                } else if c.starts_with(&r.canonical) {
                    // Through the resolver and the gate, as an agent's path: a denied, absent or
                    // non-directory client root gives nothing.
                    let Some(raw) = c.to_str() else { continue };
                    let Ok(loc) = self.locate(raw, Want::Dir) else {
                        continue;
                    };
                    let base = &self.read_roots()[loc.root];
                    let canonical = base.canonical.join(&loc.rel);
                    let name = canonical
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_else(|| base.name.clone());
                    let dir = crate::core::dirs::root_dir(loc.opened);
                    push(&mut roots, canonical, name, dir);
                }
            }
        }
        self.narrowed_to(roots, |w| {
            client.iter().any(|c| w.starts_with(normalize(c)))
        })
    }
}

/// Adds a root at `canonical` unless one is there already, its name made unique among them.
fn push(roots: &mut Vec<Root>, canonical: PathBuf, name: String, dir: crate::core::sys::Dir) {
    if roots.iter().any(|r| r.canonical == canonical) {
        return;
    }
    let mut unique = name.clone();
    let mut n = 2;
    while roots.iter().any(|r| r.name == unique) {
        unique = format!("{name}-{n}");
        n += 1;
    }
    roots.push(Root {
        name: unique,
        configured: canonical.clone(),
        canonical,
        dir,
    });
}

/// `c` without `.` components and trailing separators (it has no `..`).
fn normalize(c: &Path) -> PathBuf {
    c.components()
        .filter(|x| !matches!(x, Component::CurDir))
        .collect()
}
