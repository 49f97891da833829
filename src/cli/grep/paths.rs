//! Path arguments of `rootbound grep`, as rg treats them: each is searched in turn and its results
//! are shown under the argument's own spelling (`./dir` gives `./dir/a.rs`). Without `--root` or
//! `--config`, the current directory is the root, and an argument outside it (absolute, or through
//! `..`) gets a sandbox of its own rooted at its parent directory: still opened and walked through
//! handles, never followed out of that root by a symlink.

use rootbound::rg::RgOptions;
use rootbound::{Kind, PathDisplay, Policy, RootSpec, Sandbox, StatArgs};
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

/// How the library's path of a result becomes the path rg would print: the library shows paths
/// relative to the root (`dir/a.rs`); rg shows them under the argument (`./dir/a.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathPrefix {
    /// The argument's path as the library shows it (`dir`; empty for the root itself).
    pub lib: String,
    /// The argument as given, which replaces `lib`.
    pub shown: Vec<u8>,
}

impl PathPrefix {
    /// The path to print for the library's `lib_path`, appended to `out`: the argument's bytes, then
    /// the rest of the path as raw bytes (the library escapes names that are not printable UTF-8;
    /// rg prints the bytes). Paths that do not start with the argument's (there are none when the
    /// search ran on that argument) are printed as [`raw`] prints them.
    pub(crate) fn apply(&self, lib_path: &[u8], out: &mut Vec<u8>) {
        let lib = self.lib.as_bytes();
        let rest = if lib.is_empty() {
            Some(lib_path)
        } else if lib_path == lib {
            out.extend_from_slice(&self.shown);
            return;
        } else {
            lib_path
                .strip_prefix(lib)
                .and_then(|r| r.strip_prefix(b"/"))
        };
        match rest {
            Some(rest) => {
                out.extend_from_slice(&self.shown);
                if !self.shown.ends_with(b"/") {
                    out.push(b'/');
                }
                raw(rest, out);
            }
            None => raw(lib_path, out),
        }
    }
}

/// The bytes rg prints for a path the library shows as `lib_path` (its escapes undone), appended to
/// `out`; for results without a [`PathPrefix`].
pub(crate) fn raw(lib_path: &[u8], out: &mut Vec<u8>) {
    match std::str::from_utf8(lib_path) {
        Ok(s) => out.extend_from_slice(&RgOptions::raw_path(s)),
        Err(_) => out.extend_from_slice(lib_path),
    }
}

/// One path argument, ready to search.
pub(crate) struct Target {
    /// Index into [`Targets::sandboxes`].
    pub sandbox: usize,
    /// The path handed to the library (`None`: the whole root).
    pub path: Option<String>,
    /// How its results' paths are shown (`None`: as the library shows them).
    pub prefix: Option<PathPrefix>,
    /// The argument as given, for messages.
    pub arg: OsString,
    /// Why the argument cannot be searched (its own root could not be opened): reported for it
    /// alone, as rg reports a missing path and goes on.
    pub error: Option<rootbound::Error>,
}

/// The sandboxes the arguments are searched in, and the arguments in order.
pub(crate) struct Targets {
    pub sandboxes: Vec<Sandbox>,
    pub targets: Vec<Target>,
}

impl Targets {
    /// Whether the search covers one file only (rg then omits the path from each line).
    pub(crate) fn is_one_file(&self) -> bool {
        match self.targets.as_slice() {
            [t] if t.error.is_none() => t.path.as_ref().is_some_and(|p| {
                let args = {
                    let mut a = StatArgs::default();
                    a.path = p.clone();
                    a
                };
                self.sandboxes[t.sandbox]
                    .stat(&args)
                    .is_ok_and(|s| s.kind == Kind::File)
            }),
            _ => false,
        }
    }
}

/// Where a path argument lies, found from its text alone (no filesystem access).
enum Place {
    /// Under the current directory: this root-relative path.
    Inside(PathBuf),
    /// Elsewhere: its own root (the argument's parent, or the argument itself when it has no last
    /// name, as `..` or `/`) and the name to search in it.
    Outside(PathBuf, Option<OsString>),
}

/// Where `arg` lies: by its text, or, when its text leads out (`..`, an absolute path), by where it
/// really is. `../cwd/sub/dir` is the current directory's `sub/dir`, so the rules anchored at the
/// current directory hold for it as they do for `sub/dir`; only a path that really lies elsewhere
/// gets a root of its own.
fn place(arg: &Path, cwd: Option<&Path>) -> Place {
    match place_by_text(arg, cwd) {
        Place::Outside(root, name) => match real_place_under(arg, cwd) {
            Some(rel) => Place::Inside(rel),
            None => Place::Outside(root, name),
        },
        inside => inside,
    }
}

/// `arg`'s path from the current directory when it really lies there: its parent directory
/// resolved (its last name kept as written, so a symlink argument is searched as a symlink, as the
/// same name typed from here would be). `None` when it lies elsewhere or cannot be resolved. The
/// arguments are the operator's own, so resolving them with the host's calls is allowed.
fn real_place_under(arg: &Path, cwd: Option<&Path>) -> Option<PathBuf> {
    let cwd = std::fs::canonicalize(cwd?).ok()?;
    let real = match (arg.components().next_back(), arg.parent()) {
        (Some(Component::Normal(name)), Some(parent)) => {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            std::fs::canonicalize(parent).ok()?.join(name)
        }
        _ => std::fs::canonicalize(arg).ok()?,
    };
    real.strip_prefix(&cwd).ok().map(Path::to_path_buf)
}

fn place_by_text(arg: &Path, cwd: Option<&Path>) -> Place {
    let arg = match (arg.is_absolute(), cwd) {
        (true, Some(cwd)) => match arg.strip_prefix(cwd) {
            Ok(rel) => rel,
            Err(_) => return outside(arg),
        },
        (true, None) => return outside(arg),
        (false, _) => arg,
    };
    let mut rel = PathBuf::new();
    for c in arg.components() {
        match c {
            Component::CurDir => {}
            Component::Normal(n) => rel.push(n),
            // `..` (or a prefix): resolved by the filesystem, not by text.
            _ => return outside(arg),
        }
    }
    Place::Inside(rel)
}

fn outside(arg: &Path) -> Place {
    let ends_in_name = matches!(arg.components().next_back(), Some(Component::Normal(_)));
    match (arg.parent(), arg.file_name()) {
        (Some(parent), Some(name)) if ends_in_name => {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            Place::Outside(parent.to_path_buf(), Some(name.to_os_string()))
        }
        _ => Place::Outside(arg.to_path_buf(), None),
    }
}

/// The library's text for a root-relative path (empty: the root itself).
fn lib_text(rel: &Path) -> String {
    RgOptions::path_arg(rel.as_os_str())
}

/// Builds the targets of `args` in the current-directory sandbox `cwd_sb`: arguments under the
/// current directory are searched there; with `own_roots`, others get a sandbox of their own (built
/// from `base`'s policy with that root), and without it they are handed to `cwd_sb` as written (the
/// configured roots decide).
pub(crate) fn targets(
    cwd_sb: Sandbox,
    args: &[OsString],
    own_roots: bool,
) -> Result<Targets, String> {
    let mut out = Targets {
        sandboxes: vec![cwd_sb],
        targets: Vec::new(),
    };
    if args.is_empty() {
        out.targets.push(Target {
            sandbox: 0,
            path: None,
            prefix: None,
            arg: OsString::from("./"),
            error: None,
        });
        return Ok(out);
    }
    let cwd = std::env::current_dir().ok();
    for arg in args {
        let shown = arg.as_bytes().to_vec();
        if !own_roots {
            // The configured roots' own display (`--relative-paths` or canonical) holds.
            out.targets.push(Target {
                sandbox: 0,
                prefix: None,
                path: Some(RgOptions::path_arg(arg)),
                arg: arg.clone(),
                error: None,
            });
            continue;
        }
        let target = match place(Path::new(arg), cwd.as_deref()) {
            Place::Inside(rel) => {
                let lib = lib_text(&rel);
                Target {
                    sandbox: 0,
                    path: (!lib.is_empty()).then(|| lib.clone()),
                    prefix: Some(PathPrefix { lib, shown }),
                    arg: arg.clone(),
                    error: None,
                }
            }
            Place::Outside(root, name) => {
                let policy = own_root_policy(out.sandboxes[0].policy(), &root);
                let (sandbox, error) = match Sandbox::new(policy) {
                    Ok(sb) => {
                        let denied = outside_denied(&sb, Path::new(arg), cwd.as_deref());
                        out.sandboxes.push(sb);
                        let error = denied.then(|| {
                            rootbound::Error::new(
                                rootbound::ErrorCode::Denied,
                                format!(
                                    "'{}' is denied by the sandbox policy",
                                    Path::new(arg).display()
                                ),
                            )
                        });
                        (out.sandboxes.len() - 1, error)
                    }
                    Err(e) => (0, Some(e)),
                };
                let lib = name
                    .as_deref()
                    .map(OsStr::new)
                    .map(|n| lib_text(Path::new(n)));
                Target {
                    sandbox,
                    prefix: Some(PathPrefix {
                        lib: lib.clone().unwrap_or_default(),
                        shown,
                    }),
                    path: lib,
                    arg: arg.clone(),
                    error,
                }
            }
        };
        out.targets.push(resolved(&out.sandboxes, target));
    }
    Ok(out)
}

/// `target` with the library's own name for its path as the prefix to replace: a symlink argument
/// (`lnk` -> `realdir`) has its results shown by the library under the target's name
/// (`realdir/a.rs`), and rg shows them under the argument (`lnk/a.rs`).
fn resolved(sandboxes: &[Sandbox], mut target: Target) -> Target {
    let (Some(path), Some(prefix), None) = (&target.path, &mut target.prefix, &target.error) else {
        return target;
    };
    let mut args = StatArgs::default();
    args.path = path.clone();
    if let Ok(st) = sandboxes[target.sandbox].stat(&args) {
        prefix.lib = st.path;
    }
    target
}

/// Whether the deny rules refuse an argument outside the current directory, seen as the user wrote
/// it and where it really is. Its own sandbox is rooted at its parent, so the rules there see only
/// what lies below that parent: `../other/.git/config` under `--deny .git/` must still be refused
/// for the `.git` above it. The rules are matched against the written path (without its leading
/// `..` and `/`), against its real (canonical) path from `/`, and, when that lies under the current
/// directory, against the real path from there (where anchored rules are anchored).
fn outside_denied(sb: &Sandbox, arg: &Path, cwd: Option<&Path>) -> bool {
    let deny = &sb.policy().deny;
    if deny.is_empty() {
        return false;
    }
    let Ok(rules) = rootbound::DenyRules::new(deny) else {
        return true;
    };
    let written: PathBuf = arg
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n),
            _ => None,
        })
        .collect();
    let Some((_, root)) = sb.roots().into_iter().next() else {
        return rules.is_denied(&written, false);
    };
    let real = match arg.file_name() {
        Some(name)
            if arg
                .components()
                .next_back()
                .is_some_and(|c| matches!(c, Component::Normal(_))) =>
        {
            root.join(name)
        }
        _ => root,
    };
    let from_top = real.strip_prefix("/").unwrap_or(&real);
    let cwd_real = cwd.and_then(|c| std::fs::canonicalize(c).ok());
    let from_cwd = cwd_real.as_deref().and_then(|c| real.strip_prefix(c).ok());
    let denied = [Some(written.as_path()), Some(from_top), from_cwd]
        .into_iter()
        .flatten()
        .any(|p| rules.is_denied(p, false));
    denied
}

/// `base` with `root` as its one root (limits and symlink rules kept). Of the deny rules, those that
/// name a path (`/secret.txt`, `sub/*.sh`) are anchored at the current directory, which this root
/// does not lie under (arguments that really lie there are searched in the current directory's
/// sandbox), so they cannot match here; only the rules that deny a name anywhere (`.git/`, `*.pem`)
/// are kept. Matched against this root they would deny unrelated paths below it.
fn own_root_policy(base: &Policy, root: &Path) -> Policy {
    let mut p = base.clone();
    p.deny.retain(|g| {
        let g = g.trim();
        let g = g.strip_prefix('!').unwrap_or(g);
        g.starts_with("**/") || !g.trim_end_matches('/').contains('/')
    });
    p.roots = vec![RootSpec {
        name: String::new(),
        path: root.to_path_buf(),
    }];
    p.path_display = PathDisplay::Relative;
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(lib: &str, arg: &str, path: &str) -> String {
        let p = PathPrefix {
            lib: lib.into(),
            shown: arg.as_bytes().to_vec(),
        };
        let mut out = Vec::new();
        p.apply(path.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn results_are_shown_under_the_argument_as_rg_shows_them() {
        assert_eq!(shown("dir", "./dir", "dir/a.rs"), "./dir/a.rs");
        assert_eq!(shown("dir", "dir/", "dir/a.rs"), "dir/a.rs");
        assert_eq!(shown("", ".", "a.rs"), "./a.rs");
        assert_eq!(shown("", "./", "sub/a.rs"), "./sub/a.rs");
        assert_eq!(shown("a.rs", "./a.rs", "a.rs"), "./a.rs");
        assert_eq!(shown("foo", "/tmp/x/foo", "foo/b"), "/tmp/x/foo/b");
        // A sibling whose name starts with the argument's is not under it.
        assert_eq!(shown("dir", "./dir", "dir2/a"), "dir2/a");
        // The library's escapes are undone: rg prints the name's bytes.
        assert_eq!(shown("dir", "./dir", "dir/a\\\\b\\tc"), "./dir/a\\b\tc");
    }

    #[test]
    fn arguments_outside_the_current_directory_get_their_own_root() {
        let cwd = Path::new("/work/x");
        assert!(
            matches!(place_by_text(Path::new("./a/b"), Some(cwd)), Place::Inside(p) if p == Path::new("a/b"))
        );
        assert!(
            matches!(place_by_text(Path::new("/work/x/a"), Some(cwd)), Place::Inside(p) if p == Path::new("a"))
        );
        assert!(
            matches!(place_by_text(Path::new("."), Some(cwd)), Place::Inside(p) if p.as_os_str().is_empty())
        );
        assert!(matches!(place_by_text(Path::new("../y/f"), Some(cwd)),
            Place::Outside(r, Some(n)) if r == Path::new("../y") && n == "f"));
        assert!(matches!(place_by_text(Path::new("/etc"), Some(cwd)),
            Place::Outside(r, Some(n)) if r == Path::new("/") && n == "etc"));
        assert!(matches!(place_by_text(Path::new(".."), Some(cwd)),
            Place::Outside(r, None) if r == Path::new("..")));
        assert!(
            matches!(place_by_text(Path::new("/"), Some(cwd)), Place::Outside(r, None) if r == Path::new("/"))
        );
    }
}
