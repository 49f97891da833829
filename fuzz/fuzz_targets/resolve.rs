//! Fuzz target `resolve`: a small tree layout plus raw request paths, checked against a reference
//! resolver with openat2 `RESOLVE_BENEATH` semantics.
//!
//! Input: text lines (see `fuzz/README.md`):
//!
//! ```text
//! d PATH            a directory (parents must exist)
//! f PATH            a regular file (content `inside-<n>\n`, unique)
//! l PATH TARGET     a symlink; TARGET is verbatim after placeholder expansion
//! r REQUEST         a request path, given to read_file, stat and list_dir
//! m portable        use the portable (cap-std) resolver instead of openat2
//! m never           symlink mode `never`
//! ```
//!
//! Placeholders in TARGET and REQUEST: `@R` the root's absolute path, `@O` a directory outside the
//! root, `@S` the sibling `<root>_evil` (the root's name as a prefix), `@B` their common parent, `@0` a
//! NUL byte, `@L` a 4096-byte path. Every file outside the root holds a unique `CANARY-...` line.
//! The deny rule `z` is in force (any component named `z`).
//!
//! Properties: no panic; no canary byte or outside name in any result; every opened object is one an
//! independent `lstat` walk of the root reaches (same `(dev, ino)`); the outcome (the object opened, or
//! the error code) equals the reference resolver's.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;
use rootbound::{ErrorCode, ListArgs, ReadArgs, Sandbox, StatArgs, SymlinkMode};
use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const NAMES: [&str; 9] = ["a", "b", "c", "d", "z", "é", "x\\y", "k:s", "root"];
const MAX_NODES: usize = 32;
const MAX_REQUESTS: usize = 8;
const DENY: &str = "z";

struct Env {
    base: PathBuf,
    root: PathBuf,
    outside: PathBuf,
    sibling: PathBuf,
}

fn env() -> &'static Env {
    static ENV: OnceLock<Env> = OnceLock::new();
    ENV.get_or_init(|| {
        let base = common::scratch("resolve");
        let root = base.join("root");
        let outside = base.join("outside");
        let sibling = base.join("root_evil");
        for (tag, dir) in [("out", &outside), ("sib", &sibling), ("base", &base)] {
            std::fs::create_dir_all(dir.join("dd")).unwrap();
            for n in NAMES {
                if dir == &base && n == "root" {
                    continue;
                }
                let canary = format!("CANARY-{tag}-{n}\n");
                std::fs::write(dir.join(n), &canary).unwrap();
                std::fs::write(dir.join("dd").join(n), &canary).unwrap();
            }
            std::fs::write(dir.join(format!("CANARY-NAME-{tag}")), "CANARY-named\n").unwrap();
        }
        Env {
            base,
            root,
            outside,
            sibling,
        }
    })
}

#[derive(Debug, Clone, PartialEq)]
enum Node {
    Dir,
    File(usize),
    Link(String),
}

#[derive(Default)]
struct Model {
    nodes: BTreeMap<Vec<String>, Node>,
}

impl Model {
    fn is_dir(&self, p: &[String]) -> bool {
        p.is_empty() || self.nodes.get(p) == Some(&Node::Dir)
    }
    fn children(&self, dir: &[String]) -> BTreeSet<String> {
        self.nodes
            .keys()
            .filter(|k| k.len() == dir.len() + 1 && k.starts_with(dir))
            .map(|k| k[dir.len()].clone())
            .collect()
    }
}

fn expand(s: &str, e: &Env) -> String {
    s.replace("@R", &e.root.to_string_lossy())
        .replace("@O", &e.outside.to_string_lossy())
        .replace("@S", &e.sibling.to_string_lossy())
        .replace("@B", &e.base.to_string_lossy())
        .replace("@0", "\0")
        .replace("@L", &"a/".repeat(2048))
}

/// The kernel errors the reference resolver can give.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Errno {
    Xdev,
    Noent,
    Notdir,
    Loop,
    Nametoolong,
}

/// openat2(RESOLVE_BENEATH) path walk over the model: `..` is physical, `..` at the root and absolute
/// symlinks are escapes (checked when met, left to right), at most 40 symlinks in all, a trailing `/`
/// (of the request or of a trailing symlink's body) demands a directory.
struct Reference<'a> {
    m: &'a Model,
    never: bool,
    links: u32,
    must_dir: bool,
    /// The walk met a component named as the deny rule (in the request or a symlink's body).
    stepped: bool,
}

impl Reference<'_> {
    fn resolve(&mut self, rel: &str) -> Result<Vec<String>, Errno> {
        let rel = if rel.is_empty() { "." } else { rel };
        let mut cur = Vec::new();
        self.walk(rel, &mut cur, true)?;
        if self.must_dir && !self.m.is_dir(&cur) {
            return Err(Errno::Notdir);
        }
        Ok(cur)
    }

    fn walk(&mut self, path: &str, cur: &mut Vec<String>, is_final: bool) -> Result<(), Errno> {
        if path.starts_with('/') {
            return Err(Errno::Xdev);
        }
        let comps: Vec<&str> = path.split('/').filter(|c| !c.is_empty()).collect();
        if is_final && path.ends_with('/') && !comps.is_empty() {
            self.must_dir = true;
        }
        for (i, c) in comps.iter().enumerate() {
            let last = i + 1 == comps.len();
            match *c {
                "." => {}
                ".." => {
                    if cur.is_empty() {
                        return Err(Errno::Xdev);
                    }
                    cur.pop();
                }
                // A component over NAME_MAX (only a symlink body can hold one: requests are
                // validated) cannot exist: the lookup says ENAMETOOLONG.
                name if name.len() > 255 => return Err(Errno::Nametoolong),
                name => {
                    self.stepped |= name == DENY;
                    let mut p = cur.clone();
                    p.push(name.to_string());
                    match self.m.nodes.get(&p) {
                        None => return Err(Errno::Noent),
                        Some(Node::Link(t)) => {
                            if self.never {
                                return Err(Errno::Loop);
                            }
                            self.links += 1;
                            if self.links > 40 {
                                return Err(Errno::Loop);
                            }
                            let t = t.clone();
                            // A body that names the denied name (`d/z` with `d` missing too) may
                            // be refused by its text, as a request's text is.
                            self.stepped |= t.split('/').any(|c| c == DENY);
                            self.walk(&t, cur, is_final && last)?;
                        }
                        Some(_) => *cur = p,
                    }
                }
            }
            if !last && !self.m.is_dir(cur) {
                return Err(Errno::Notdir);
            }
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Expect {
    Code(ErrorCode),
    /// Resolved to this object, which a deny rule covers: DENIED, except that list_dir's
    /// `O_DIRECTORY` open refuses a non-directory first (NOT_A_FILE).
    DeniedAt(Vec<String>),
    Opened(Vec<String>),
}

fn denied(comps: &[String]) -> bool {
    comps.iter().any(|c| c == DENY)
}

/// What the sandbox must do with `raw`, up to the object opened.
fn expect(m: &Model, e: &Env, raw: &str, never: bool, may_deny: &mut bool) -> Expect {
    // Validation before any I/O.
    if raw.is_empty()
        || raw.contains('\0')
        || raw.len() > 4096
        || raw.split('/').any(|c| c.len() > 255)
    {
        return Expect::Code(ErrorCode::InvalidArgument);
    }
    // Root selection: an absolute request must start, component-wise, with the root.
    let rel = if raw.starts_with('/') {
        let comps: Vec<&str> = raw
            .split('/')
            .filter(|c| !c.is_empty() && *c != ".")
            .collect();
        let root_s = e.root.to_string_lossy().into_owned();
        let root_comps: Vec<&str> = root_s.split('/').filter(|c| !c.is_empty()).collect();
        if !comps.starts_with(&root_comps) {
            return Expect::Code(ErrorCode::OutOfSandbox);
        }
        let mut rest = comps[root_comps.len()..].join("/");
        if raw.ends_with('/') && !rest.is_empty() {
            rest.push('/');
        }
        rest
    } else {
        raw.to_string()
    };
    // The kernel refuses a path of PATH_MAX (4096, with its NUL) bytes or more: ENAMETOOLONG (so does
    // the portable resolver).
    if rel.len() >= 4096 {
        return Expect::Code(ErrorCode::InvalidArgument);
    }
    // The lexical deny check (`.` dropped, `..` pops) comes first, on every step of the walk: a
    // request that steps on a denied name (`z/../a`) is DENIED whether or not `z` exists.
    let mut lex: Vec<String> = Vec::new();
    for c in rel.split('/').filter(|c| !c.is_empty() && *c != ".") {
        if c == ".." {
            lex.pop();
        } else {
            lex.push(c.to_string());
            if denied(&lex) {
                return Expect::Code(ErrorCode::Denied);
            }
        }
    }
    let mut r = Reference {
        m,
        never,
        links: 0,
        must_dir: false,
        stepped: false,
    };
    let res = r.resolve(&rel);
    if r.stepped {
        // The walk stepped on a denied name through a symlink's body: the library may refuse the
        // request for it (DENIED is never a leak), whatever the walk then reached.
        *may_deny = true;
    }
    match res {
        Ok(p) if denied(&p) => Expect::DeniedAt(p),
        Ok(p) => Expect::Opened(p),
        Err(Errno::Xdev) => Expect::Code(ErrorCode::OutOfSandbox),
        Err(Errno::Noent) => Expect::Code(ErrorCode::NotFound),
        Err(Errno::Notdir) => Expect::Code(ErrorCode::NotAFile),
        Err(Errno::Loop) if never => Expect::Code(ErrorCode::OutOfSandbox),
        Err(Errno::Loop) => Expect::Code(ErrorCode::SymlinkLoop),
        Err(Errno::Nametoolong) => Expect::Code(ErrorCode::InvalidArgument),
    }
}

/// Parses the layout, builds it under the root, returns the model, requests and modes.
fn build(data: &[u8], e: &Env) -> Option<(Model, Vec<String>, bool, bool)> {
    let text = String::from_utf8_lossy(data);
    if text.contains("CANARY") {
        return None; // a request naming the canary would be echoed back in an error message
    }
    let _ = std::fs::remove_dir_all(&e.root);
    std::fs::create_dir(&e.root).unwrap();
    let mut m = Model::default();
    let (mut reqs, mut portable, mut never) = (Vec::new(), false, false);
    let mut next_file = 0;
    for line in text.split('\n') {
        let (op, rest) = line.split_once(' ').unwrap_or((line, ""));
        match op {
            "d" | "f" | "l" if m.nodes.len() < MAX_NODES => {
                let (path, target) = match op {
                    "l" => match rest.split_once(' ') {
                        Some((p, t)) => (p, Some(expand(t, e))),
                        None => continue,
                    },
                    _ => (rest, None),
                };
                let comps: Vec<String> = path.split('/').map(str::to_string).collect();
                let ok_name = |c: &String| {
                    !c.is_empty() && c != "." && c != ".." && !c.contains('\0') && c.len() <= 255
                };
                if !comps.iter().all(ok_name)
                    || m.nodes.contains_key(&comps)
                    || !m.is_dir(&comps[..comps.len() - 1])
                {
                    continue;
                }
                let disk = comps.iter().fold(e.root.clone(), |p, c| p.join(c));
                let node = match (op, target) {
                    ("d", _) => std::fs::create_dir(&disk).ok().map(|_| Node::Dir),
                    ("f", _) => {
                        next_file += 1;
                        std::fs::write(&disk, format!("inside-{next_file}\n"))
                            .ok()
                            .map(|_| Node::File(next_file))
                    }
                    (_, Some(t)) if !t.is_empty() && !t.contains('\0') => {
                        std::os::unix::fs::symlink(&t, &disk)
                            .ok()
                            .map(|_| Node::Link(t))
                    }
                    _ => None,
                };
                if let Some(n) = node {
                    m.nodes.insert(comps, n);
                }
            }
            "r" if reqs.len() < MAX_REQUESTS => reqs.push(expand(rest, e)),
            "m" => match rest {
                "portable" => portable = true,
                "never" => never = true,
                _ => {}
            },
            _ => {}
        }
    }
    Some((m, reqs, portable, never))
}

/// Every object an `lstat` walk of the root reaches (symlinks not followed), by `(dev, ino)`.
fn reachable(root: &Path) -> BTreeMap<(u64, u64), PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(p) = stack.pop() {
        let md = std::fs::symlink_metadata(&p).unwrap();
        out.insert((md.dev(), md.ino()), p.clone());
        if md.is_dir() {
            for ent in std::fs::read_dir(&p).unwrap() {
                stack.push(ent.unwrap().path());
            }
        }
    }
    out
}

/// The inverse of rootbound's name escape for the names this target makes (`\\`, `\n`, `\t`, `\r`,
/// `\xHH` for single bytes that are ASCII here, `\u{HHHH}`).
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.peek().copied() {
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('x') => {
                it.next();
                let hex: String = it.by_ref().take(2).collect();
                out.push(u8::from_str_radix(&hex, 16).map_or('?', char::from));
                continue;
            }
            Some('u') => {
                // `\u{HHHH}`: C1 controls, line separators, bidirectional controls.
                it.next();
                let hex: String = it.by_ref().skip(1).take_while(|&c| c != '}').collect();
                let c = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32);
                out.push(c.unwrap_or('?'));
                continue;
            }
            _ => {
                out.push('\\');
                continue;
            }
        }
        it.next();
    }
    out
}

fn check_opened(
    shown: &str,
    e: &Env,
    walk: &BTreeMap<(u64, u64), PathBuf>,
    want: &[String],
    ctx: &str,
) {
    let want_path = want.iter().fold(e.root.clone(), |p, c| p.join(c));
    // Displayed paths are escaped (README, security contract 6): undo it to compare and to stat.
    let shown = unescape(shown);
    assert_eq!(Path::new(&shown), want_path, "{ctx}: opened another object");
    let md =
        std::fs::symlink_metadata(&shown).unwrap_or_else(|err| panic!("{ctx}: {shown}: {err}"));
    assert!(
        walk.contains_key(&(md.dev(), md.ino())),
        "{ctx}: {shown} is not reachable by a walk of the root"
    );
}

fn run(data: &[u8]) {
    let e = env();
    let Some((m, reqs, portable, never)) = build(data, e) else {
        return;
    };
    if reqs.is_empty() {
        return;
    }
    rootbound::force_portable_resolver(portable);
    let mode = if never {
        SymlinkMode::Never
    } else {
        SymlinkMode::Inside
    };
    let sb = Sandbox::builder()
        .root(&e.root)
        .deny(DENY)
        .symlinks(mode)
        .build()
        .expect("sandbox");
    let walk = reachable(&e.root);
    for raw in &reqs {
        // Requests are unescaped like displayed names (src/core/names.rs): `x\\y` names `x\y`. The
        // reference resolves the unescaped request; byte escapes (`\xHH`, `\u{..}`, which can
        // spell a separator or a non-UTF-8 byte) and long escaped requests (whose length limits
        // apply before unescaping) are not modelled.
        if raw.contains('\\') && (raw.contains("\\x") || raw.contains("\\u") || raw.len() > 200) {
            continue;
        }
        let mut may_deny = false;
        let resolved = expect(&m, e, &unescape(raw), never, &mut may_deny);
        let refused = |err: Option<&rootbound::Error>| {
            may_deny && err.is_some_and(|err| err.code == ErrorCode::Denied)
        };
        let want = match resolved {
            Expect::DeniedAt(_) => Expect::Code(ErrorCode::Denied),
            w => w,
        };
        let shown: String = raw.chars().take(200).collect();
        let ctx = format!(
            "request {shown:?} ({} bytes; portable {portable}, never {never}), expected {want:?}",
            raw.len()
        );

        let read = sb.read_file(&ReadArgs::path(raw));
        let text = match &read {
            Ok(r) => serde_json::to_string(r).unwrap(),
            Err(err) => err.to_string(),
        };
        assert!(!text.contains("CANARY"), "{ctx}: read leaked {text}");
        match (&want, &read) {
            _ if refused(read.as_ref().err()) => {}
            (Expect::Code(c), Err(err)) => {
                assert_eq!(*c, err.code, "{ctx}: read gave {}", short(err))
            }
            (Expect::Opened(p), Ok(r)) => {
                let Some(Node::File(id)) = m.nodes.get(p) else {
                    panic!("{ctx}: read a non-file: {r:?}");
                };
                assert_eq!(r.content, format!("inside-{id}\n"), "{ctx}");
                check_opened(&r.path, e, &walk, p, &ctx);
            }
            (Expect::Opened(p), Err(err)) => {
                assert!(
                    m.is_dir(p) && err.code == ErrorCode::NotAFile,
                    "{ctx}: read gave {}",
                    short(err)
                );
            }
            (Expect::Code(_), Ok(r)) => panic!("{ctx}: read gave {r:?}"),
            (Expect::DeniedAt(_), _) => unreachable!("mapped to a code above"),
        }

        let stat = sb.stat(&{ let mut args_ = StatArgs::default(); args_.path = raw.clone(); args_ });
        let text = match &stat {
            Ok(r) => serde_json::to_string(r).unwrap(),
            Err(err) => err.to_string(),
        };
        assert!(!text.contains("CANARY"), "{ctx}: stat leaked {text}");
        match (&want, &stat) {
            _ if refused(stat.as_ref().err()) => {}
            (Expect::Code(c), Err(err)) => {
                assert_eq!(*c, err.code, "{ctx}: stat gave {}", short(err))
            }
            (Expect::Opened(p), Ok(s)) => {
                let kind = if m.is_dir(p) { "dir" } else { "file" };
                assert_eq!(s.kind, kind, "{ctx}");
                check_opened(&s.path, e, &walk, p, &ctx);
            }
            (_, r) => panic!("{ctx}: stat gave {r:?}"),
        }

        let list = sb.list_dir(&{ let mut args_ = ListArgs::default(); args_.path = Some(raw.clone()); args_.hidden = Some(true); args_.no_ignore = Some(true); args_ });
        let text = match &list {
            Ok(r) => serde_json::to_string(r).unwrap(),
            Err(err) => err.to_string(),
        };
        assert!(!text.contains("CANARY"), "{ctx}: list_dir leaked {text}");
        // A denied object is DENIED for list_dir too, file or not: the gate runs before the kind
        // check (a denied object is indistinguishable from an absent one, never NOT_A_FILE).
        match (&want, &list) {
            _ if refused(list.as_ref().err()) => {}
            (Expect::Code(c), Err(err)) => {
                assert_eq!(*c, err.code, "{ctx}: list_dir gave {}", short(err))
            }
            (Expect::Opened(p), Ok(l)) => {
                assert!(m.is_dir(p), "{ctx}: listed a file");
                check_opened(&l.path, e, &walk, p, &ctx);
                // Entry names are shown escaped (src/core/names.rs): `x\\y` is the name `x\y`.
                let got: BTreeSet<String> = l.entries.iter().map(|x| unescape(&x.name)).collect();
                let mut exp = m.children(p);
                exp.remove(DENY);
                assert_eq!(got, exp, "{ctx}: list_dir entries");
            }
            (Expect::Opened(p), Err(err)) => {
                assert!(
                    !m.is_dir(p) && err.code == ErrorCode::NotAFile,
                    "{ctx}: list_dir gave {}",
                    short(err)
                );
            }
            (Expect::Code(_), Ok(l)) => panic!("{ctx}: list_dir gave {l:?}"),
            (Expect::DeniedAt(_), _) => unreachable!("mapped to a code above"),
        }
    }
    rootbound::force_portable_resolver(false);
}

fuzz_target!(|data: &[u8]| run(data));

/// An error for a failure message, cut short (a 4 KiB request is echoed in it).
fn short(err: &rootbound::Error) -> String {
    let s = err.to_string();
    s.chars().take(300).collect()
}
