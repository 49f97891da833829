//! Policy consistency, as a property. Random small trees (nested read roots,
//! a write root inside a read root or elsewhere, hard links into and out of the roots, symlinks
//! inside→inside, inside→outside, chains, loops and dangling ones, FIFOs, odd names) under random deny
//! rules drawn from the tree's own names, with `refuse_hardlinks` and `path_display` varied. An oracle
//! written here, independently of the library, says what each tool must answer; every tool must agree
//! with it and with the others.
//!
//! The oracle's rules (see `Model`):
//! - **Deny**: a rule set of the shapes `name`, `name/`, `/anchored/path` (or `a/b`, anchored by its
//!   middle slash), `*.ext` and `dir/*.ext`, matched by a tiny byte-wise gitignore matcher (`*` any bytes
//!   but `/`, `?` one byte, `\x` a literal `x`; no slash: the last component anywhere; a slash: the
//!   whole path; a trailing slash: directories only, yet a rule denies the name in every kind, so
//!   `name/` also denies a file called `name`). An object is denied iff a rule matches its path, or
//!   any parent directory's path, relative to ANY configured root (read roots and the write root)
//!   that contains it.
//! - **Visible** (grep, glob): reachable from a read root that is not itself denied, through real
//!   directories only (symlinks are never followed by walks), not denied, a regular file, and not a
//!   refused hard link (`refuse_hardlinks` and more than one link). FIFOs are counted as
//!   `not_regular`, refused hard links as `denied`, denied objects nowhere.
//! - **Requests** (read_file, stat, list_dir, grep `path`): an absolute path goes to the first root (in
//!   order) that contains it, else OUT_OF_SANDBOX; `NAME:rel` to that root; a plain relative path to
//!   each root in order until one does not answer NOT_FOUND. Per root: a lexical deny check on the
//!   request (DENIED), then resolution like openat2 `RESOLVE_BENEATH` (relative symlinks followed
//!   physically, `..` above the root or an absolute link: OUT_OF_SANDBOX; 40 links: SYMLINK_LOOP;
//!   missing: NOT_FOUND; a non-directory in the middle: NOT_A_FILE), then the gate on the object
//!   reached (deny on its real path, then the hard-link policy: DENIED), and only then the kind
//!   (read_file of a non-file, list_dir of a non-directory: NOT_A_FILE).
//! - **Display**: absolute (the canonical path) or relative (`rel`, `.` for the root, `NAME:rel` with
//!   several roots; absolute when a write root is not the one read root, where a relative path would
//!   name one file to the read tools and another to the write tools), escaped as in `core::names` (`\\`, `\n`, `\r`, `\t`, `\xHH`, `\u{..}`).
//! - **Writes**: with a write root, writing or deleting a name that is denied (lexically, at its real
//!   path, or, for an existing symlink, at its target), also through an in-root symlink to a directory,
//!   answers DENIED and changes nothing on disk. One exception, by design: a delete through such an
//!   alias to a place whose directory is missing answers NOT_FOUND (nothing there resolves, as
//!   read_file answers for the same spelling).
//! - **No trace**: with `refuse_hardlinks` off, grep, glob and list_dir give the same results once every
//!   denied object is removed from the tree.
//!
//! 64 cases run in about 4 s in `cargo test --release` (2 cores); raise with `PROPTEST_CASES`. Failures
//! are shrunk and reported with the policy (roots, write root, rules) in the message.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rootbound::{
    DeleteArgs, ErrorCode, GlobArgs, GrepArgs, GrepResult, ListArgs, ListResult, PathDisplay,
    Policy, ReadArgs, RootSpec, Sandbox, StatArgs, WriteArgs, WritePolicy,
};
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

type Name = Vec<u8>;
/// A path relative to the test's base directory (or to a root), as components.
type P = Vec<Name>;

const DIR_NAMES: &[&[u8]] = &[
    b"src",
    b"cfg",
    b".git",
    b"sub",
    b"-d",
    b"we\nird",
    b"bad\xffd",
    b"g*[b",
    b"x.key",
    b"co:l",
    b"t\tab",
];
const FILE_NAMES: &[&[u8]] = &[
    b"a.txt",
    b"b.rs",
    b"c.key",
    b".env",
    b"-dash.txt",
    b"co:lon.txt",
    b"new\nline.txt",
    b"tab\tx.key",
    b"back\\slash.rs",
    b"bad\xff.txt",
    b"star*.txt",
    b"q?.rs",
    b"br[ack.key",
    b"x.pem",
    b"s:x.txt",
    b"x.key",
    b"\\x41",
    "\u{202e}rtl.txt".as_bytes(),
    b"gone (deleted)",
];
const NEW: &[u8] = b"zz_new.txt";

fn cases(n: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(n);
    ProptestConfig {
        cases: n,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------------
// The generated specification
// ---------------------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
enum EntryKind {
    Regular,
    /// A hard link to the outside file with this index.
    HardOut(usize),
    /// A hard link to another entry (a regular file placed before it), by index.
    HardIn(usize),
    /// A relative symlink to any object of the tree (a directory, a file, another link, itself...).
    Link(usize),
    /// A relative symlink to a directory of the tree (aliases whole subtrees).
    LinkDir(usize),
    /// A symlink to an outside file, absolute or relative.
    LinkOut(usize, bool),
    Dangling,
    Fifo,
}

#[derive(Debug, Clone)]
struct Spec {
    /// Directories: under `S` (else `R`), and their components.
    dirs: Vec<(bool, Vec<usize>)>,
    /// Entries: parent (`R`, `S`, then the directories above), name, kind.
    entries: Vec<(usize, usize, EntryKind)>,
    outside: usize,
    sibling_root: bool,
    /// A read root at one of the directories (nested in `R` or `S`).
    extra_root: Option<usize>,
    extra_first: bool,
    /// The write root: `R`, `S` or one of the directories.
    write_root: Option<usize>,
    /// (shape, a, b, c): indices resolved against the tree's own names.
    rules: Vec<(u8, usize, usize, usize)>,
    refuse_hardlinks: bool,
    relative: bool,
    allow_overwrite: bool,
}

fn spec_strategy() -> impl Strategy<Value = Spec> {
    let dirs = prop::collection::vec(
        (
            prop::bool::weighted(0.25),
            prop::collection::vec(0..DIR_NAMES.len(), 1..=3),
        ),
        0..=6,
    );
    let kind = prop_oneof![
        5 => Just(EntryKind::Regular),
        1 => (0..8usize).prop_map(EntryKind::HardOut),
        1 => (0..32usize).prop_map(EntryKind::HardIn),
        2 => (0..64usize).prop_map(EntryKind::Link),
        2 => (0..16usize).prop_map(EntryKind::LinkDir),
        1 => (0..8usize, any::<bool>()).prop_map(|(k, a)| EntryKind::LinkOut(k, a)),
        1 => Just(EntryKind::Dangling),
        1 => Just(EntryKind::Fifo),
    ];
    let entries = prop::collection::vec((0..16usize, 0..FILE_NAMES.len(), kind), 1..=22);
    let rules = prop::collection::vec((0..5u8, 0..64usize, 0..8usize, 0..8usize), 0..=4);
    (
        dirs,
        entries,
        1..=3usize,
        any::<bool>(),
        prop::option::weighted(0.6, 0..8usize),
        any::<bool>(),
        prop::option::weighted(0.6, 0..10usize),
        rules,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(
                dirs,
                entries,
                outside,
                sibling_root,
                extra_root,
                extra_first,
                write_root,
                rules,
                refuse_hardlinks,
                relative,
                allow_overwrite,
            )| Spec {
                dirs,
                entries,
                outside,
                sibling_root,
                extra_root,
                extra_first,
                write_root,
                rules,
                refuse_hardlinks,
                relative,
                allow_overwrite,
            },
        )
}

// ---------------------------------------------------------------------------------------------------
// The model and its oracle
// ---------------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    Dir,
    /// A regular file: its inode.
    File(usize),
    /// A symlink: absolute targets are relative to the base here (written as base/...).
    Link {
        abs: bool,
        target: P,
    },
    Fifo,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Lit(u8),
    Any,
    Star,
}

#[derive(Debug, Clone)]
struct Rule {
    anchored: bool,
    dir_only: bool,
    comps: Vec<Vec<Tok>>,
}

impl Rule {
    /// The gitignore-style rule, parsed without the library's help (only the shapes generated here).
    fn parse(text: &str) -> Rule {
        let mut t = text;
        let mut anchored = false;
        if let Some(rest) = t.strip_prefix('/') {
            anchored = true;
            t = rest;
        }
        let dir_only = t.ends_with('/');
        if dir_only {
            t = &t[..t.len() - 1];
        }
        anchored |= t.contains('/');
        let comps = t
            .split('/')
            .map(|c| {
                let mut toks = Vec::new();
                let mut chars = c.chars();
                while let Some(ch) = chars.next() {
                    let lit = match ch {
                        '\\' => chars.next().expect("no trailing backslash"),
                        '*' => {
                            toks.push(Tok::Star);
                            continue;
                        }
                        '?' => {
                            toks.push(Tok::Any);
                            continue;
                        }
                        ch => ch,
                    };
                    let mut buf = [0; 4];
                    toks.extend(lit.encode_utf8(&mut buf).bytes().map(Tok::Lit));
                }
                toks
            })
            .collect();
        Rule {
            anchored,
            dir_only,
            comps,
        }
    }

    fn matches(&self, rel: &[Name], is_dir: bool) -> bool {
        if self.dir_only && !is_dir {
            return false;
        }
        if self.anchored {
            rel.len() == self.comps.len()
                && rel.iter().zip(&self.comps).all(|(n, t)| glob_match(t, n))
        } else {
            rel.last().is_some_and(|n| glob_match(&self.comps[0], n))
        }
    }
}

fn glob_match(toks: &[Tok], name: &[u8]) -> bool {
    match toks.split_first() {
        None => name.is_empty(),
        Some((Tok::Star, rest)) => (0..=name.len()).any(|k| glob_match(rest, &name[k..])),
        Some((Tok::Any, rest)) => !name.is_empty() && glob_match(rest, &name[1..]),
        Some((Tok::Lit(b), rest)) => name.first() == Some(b) && glob_match(rest, &name[1..]),
    }
}

/// A name as a literal in a rule: glob characters escaped, bytes that are not UTF-8 as `?`.
fn glob_lit(name: &[u8]) -> String {
    let mut s = String::new();
    for chunk in name.utf8_chunks() {
        for c in chunk.valid().chars() {
            if "\\*?[]{}".contains(c) {
                s.push('\\');
            }
            s.push(c);
        }
        for _ in chunk.invalid() {
            s.push('?');
        }
    }
    s
}

/// The display escape of `core::names`, from its documented table.
fn esc(b: &[u8]) -> String {
    let mut out = String::new();
    for chunk in b.utf8_chunks() {
        for c in chunk.valid().chars() {
            let u = c as u32;
            match c {
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                _ if u < 0x20 || u == 0x7f => out.push_str(&format!("\\x{u:02x}")),
                _ if (0x80..=0x9f).contains(&u)
                    || [0x2028, 0x2029, 0x200e, 0x200f, 0xfeff].contains(&u)
                    || (0x202a..=0x202e).contains(&u)
                    || (0x2066..=0x2069).contains(&u) =>
                {
                    out.push_str(&format!("\\u{{{u:x}}}"))
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

fn join(p: &[Name]) -> Vec<u8> {
    p.join(&b'/')
}

fn cat(a: &[Name], b: &[Name]) -> P {
    a.iter().chain(b).cloned().collect()
}

fn n(s: &[u8]) -> Name {
    s.to_vec()
}

/// What a write of a generated rule's template may name.
#[derive(Debug, Clone)]
enum Template {
    /// Relative to any directory (unanchored rules).
    Anywhere(P),
    /// Relative to any root.
    Anchored(P),
}

/// How a path resolves beneath a root.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Res {
    Obj(P),
    Escape,
    /// Missing: where it would be (the real path of the last directory reached, then the rest of
    /// the request read as text).
    NotFound(P),
    NotDir,
    Loop,
}

/// A request, as the oracle sees it (the string is built from it).
#[derive(Debug, Clone)]
enum Req {
    Abs(P),
    Named(usize, P),
    Plain(P),
}

struct Model {
    nodes: BTreeMap<P, Node>,
    tokens: Vec<String>,
    nlink: Vec<usize>,
    /// Read roots in order: name and path.
    roots: Vec<(String, P)>,
    write: Option<P>,
    rule_text: Vec<String>,
    rules: Vec<Rule>,
    templates: Vec<Vec<Template>>,
    refuse: bool,
    relative: bool,
    allow_overwrite: bool,
}

impl Model {
    fn new(spec: &Spec) -> Model {
        let (r, s, out) = (vec![n(b"R")], vec![n(b"S")], vec![n(b"out")]);
        let mut nodes = BTreeMap::new();
        for p in [&r, &s, &out] {
            nodes.insert(p.clone(), Node::Dir);
        }
        let mut dirs = Vec::new();
        for (under_s, comps) in &spec.dirs {
            let mut p = if *under_s { s.clone() } else { r.clone() };
            for &c in comps {
                p.push(n(DIR_NAMES[c]));
                nodes.entry(p.clone()).or_insert(Node::Dir);
            }
            dirs.push(p);
        }
        let mut inodes: Vec<Vec<P>> = Vec::new();
        for k in 0..spec.outside {
            let p = cat(&out, &[format!("o{k}").into_bytes()]);
            nodes.insert(p.clone(), Node::File(inodes.len()));
            inodes.push(vec![p]);
        }
        let parents: Vec<P> = [r.clone(), s.clone()]
            .into_iter()
            .chain(dirs.iter().cloned())
            .collect();
        let mut placed: Vec<(P, EntryKind)> = Vec::new();
        for (pi, ni, k) in &spec.entries {
            let p = cat(&parents[pi % parents.len()], &[n(FILE_NAMES[*ni])]);
            if !nodes.contains_key(&p) && !placed.iter().any(|(q, _)| *q == p) {
                placed.push((p, k.clone()));
            }
        }
        // Regular files, outside hard links and FIFOs; then hard links inside; then symlinks.
        for (p, k) in &placed {
            let node = match k {
                EntryKind::Regular => {
                    inodes.push(vec![p.clone()]);
                    Node::File(inodes.len() - 1)
                }
                EntryKind::HardOut(o) => {
                    let i = o % spec.outside;
                    inodes[i].push(p.clone());
                    Node::File(i)
                }
                EntryKind::Fifo => Node::Fifo,
                _ => continue,
            };
            nodes.insert(p.clone(), node);
        }
        for (p, k) in &placed {
            if let EntryKind::HardIn(j) = k {
                let target = &placed[j % placed.len()].0;
                let node = match nodes.get(target) {
                    Some(Node::File(i)) => {
                        inodes[*i].push(p.clone());
                        Node::File(*i)
                    }
                    _ => {
                        inodes.push(vec![p.clone()]);
                        Node::File(inodes.len() - 1)
                    }
                };
                nodes.insert(p.clone(), node);
            }
        }
        let mut targets: Vec<P> = nodes.keys().cloned().collect();
        for (p, k) in &placed {
            if matches!(
                k,
                EntryKind::Link(_)
                    | EntryKind::LinkDir(_)
                    | EntryKind::LinkOut(..)
                    | EntryKind::Dangling
            ) {
                targets.push(p.clone());
            }
        }
        targets.sort();
        let dir_targets: Vec<P> = nodes
            .iter()
            .filter(|(_, node)| **node == Node::Dir)
            .map(|(p, _)| p.clone())
            .collect();
        for (p, k) in &placed {
            let parent = &p[..p.len() - 1];
            let node = match k {
                EntryKind::Link(j) => Node::Link {
                    abs: false,
                    target: relative_target(parent, &targets[j % targets.len()]),
                },
                EntryKind::LinkDir(j) => Node::Link {
                    abs: false,
                    target: relative_target(parent, &dir_targets[j % dir_targets.len()]),
                },
                EntryKind::LinkOut(o, abs) => {
                    let t = cat(&out, &[format!("o{}", o % spec.outside).into_bytes()]);
                    if *abs {
                        Node::Link {
                            abs: true,
                            target: t,
                        }
                    } else {
                        Node::Link {
                            abs: false,
                            target: relative_target(parent, &t),
                        }
                    }
                }
                EntryKind::Dangling => Node::Link {
                    abs: false,
                    target: vec![n(b"missing")],
                },
                _ => continue,
            };
            nodes.insert(p.clone(), node);
        }

        let mut roots = vec![("r".to_string(), r.clone())];
        if spec.sibling_root {
            roots.push(("s".to_string(), s.clone()));
        }
        if let (Some(e), false) = (spec.extra_root, dirs.is_empty()) {
            let extra = ("in".to_string(), dirs[e % dirs.len()].clone());
            if spec.extra_first {
                roots.insert(0, extra);
            } else {
                roots.push(extra);
            }
        }
        let write = spec.write_root.map(|w| parents[w % parents.len()].clone());
        let tokens = inodes
            .iter()
            .enumerate()
            .map(|(i, paths)| {
                let inside = paths
                    .iter()
                    .any(|p| roots.iter().any(|(_, r)| p.starts_with(r)));
                format!("{}_{i}", if inside { "TOKEN" } else { "OUTSIDE" })
            })
            .collect();
        let nlink = inodes.iter().map(Vec::len).collect();
        let relative = spec.relative
            && match &write {
                None => true,
                Some(w) => roots.len() == 1 && &roots[0].1 == w,
            };

        let mut m = Model {
            nodes,
            tokens,
            nlink,
            roots,
            write,
            rule_text: Vec::new(),
            rules: Vec::new(),
            templates: Vec::new(),
            refuse: spec.refuse_hardlinks,
            relative,
            allow_overwrite: spec.allow_overwrite,
        };
        m.make_rules(&spec.rules);
        m
    }

    /// Deny rules drawn from the tree's own names and paths.
    fn make_rules(&mut self, specs: &[(u8, usize, usize, usize)]) {
        let all_roots = self.all_roots();
        let names: Vec<Name> = self
            .nodes
            .keys()
            .filter(|p| p.len() > 1 && p[0] != b"out")
            .map(|p| p.last().unwrap().clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let exts: Vec<Name> = names
            .iter()
            .filter_map(|n| {
                let dot = n.iter().rposition(|&b| b == b'.')?;
                (dot + 1 < n.len()).then(|| n[dot + 1..].to_vec())
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        // (node's path relative to a root containing it, whether it is a directory)
        let mut rooted: Vec<(P, bool)> = Vec::new();
        for (p, node) in &self.nodes {
            for r in &all_roots {
                if p.len() > r.len() && p.starts_with(r) {
                    rooted.push((p[r.len()..].to_vec(), *node == Node::Dir));
                }
            }
        }
        let rooted_dirs: Vec<&P> = rooted.iter().filter(|(_, d)| *d).map(|(p, _)| p).collect();
        let lit_path = |p: &P| p.iter().map(|c| glob_lit(c)).collect::<Vec<_>>().join("/");
        for &(shape, a, b, c) in specs {
            let (text, template) = match shape {
                0 if !names.is_empty() => {
                    let name = &names[a % names.len()];
                    (glob_lit(name), vec![Template::Anywhere(vec![name.clone()])])
                }
                1 if !names.is_empty() => {
                    let name = &names[a % names.len()];
                    (
                        format!("{}/", glob_lit(name)),
                        vec![Template::Anywhere(vec![name.clone(), n(NEW)])],
                    )
                }
                2 if !rooted.is_empty() => {
                    let (p, is_dir) = &rooted[a % rooted.len()];
                    // A path with a middle slash is anchored with or without the leading one.
                    let lead = if p.len() > 1 && b % 2 == 0 { "" } else { "/" };
                    let t = if *is_dir {
                        cat(p, &[n(NEW)])
                    } else {
                        p.clone()
                    };
                    (
                        format!("{lead}{}", lit_path(p)),
                        vec![Template::Anchored(t)],
                    )
                }
                3 if !exts.is_empty() => {
                    let e = &exts[a % exts.len()];
                    let mut name = b"zz_new.".to_vec();
                    name.extend_from_slice(e);
                    (
                        format!("*.{}", glob_lit(e)),
                        vec![Template::Anywhere(vec![name])],
                    )
                }
                4 if !rooted_dirs.is_empty() && !exts.is_empty() => {
                    let d = rooted_dirs[(a + c) % rooted_dirs.len()];
                    let e = &exts[b % exts.len()];
                    let mut name = b"zz_new.".to_vec();
                    name.extend_from_slice(e);
                    // A new file the rule names, and a new directory it names, which a write must
                    // not create on its way to a file inside.
                    (
                        format!("{}/*.{}", lit_path(d), glob_lit(e)),
                        vec![
                            Template::Anchored(cat(d, &[name.clone()])),
                            Template::Anchored(cat(d, &[name, n(NEW)])),
                        ],
                    )
                }
                _ => continue,
            };
            self.rules.push(Rule::parse(&text));
            self.rule_text.push(text);
            self.templates.push(template);
        }
    }

    fn all_roots(&self) -> Vec<P> {
        self.roots
            .iter()
            .map(|(_, p)| p.clone())
            .chain(self.write.clone())
            .collect()
    }

    fn describe(&self) -> String {
        format!(
            "roots {:?}, write {:?}, rules {:?}, refuse_hardlinks {}, relative {}",
            self.roots
                .iter()
                .map(|(n, p)| format!("{n}={}", esc(&join(p))))
                .collect::<Vec<_>>(),
            self.write.as_ref().map(|p| esc(&join(p))),
            self.rule_text,
            self.refuse,
            self.relative
        )
    }

    // --- deny and admission ---

    /// `_is_dir` does not matter: a directory-only rule denies the name in every kind.
    fn denied_rel(&self, rel: &[Name], _is_dir: bool) -> bool {
        (1..=rel.len()).any(|k| self.rules.iter().any(|r| r.matches(&rel[..k], true)))
    }

    /// Denied relative to some configured root that contains it.
    fn denied(&self, abs: &[Name], is_dir: bool) -> bool {
        self.all_roots().iter().any(|r| {
            abs.len() > r.len() && abs.starts_with(r) && self.denied_rel(&abs[r.len()..], is_dir)
        })
    }

    fn refused(&self, node: &Node) -> bool {
        self.refuse && matches!(node, Node::File(i) if self.nlink[*i] > 1)
    }

    /// Resolution beneath `root` like openat2 with `RESOLVE_BENEATH`, following every symlink.
    fn resolve(&self, root: &[Name], rel: &[Name]) -> Res {
        let mut cur: P = root.to_vec();
        let mut queue: std::collections::VecDeque<Name> = rel.iter().cloned().collect();
        let mut hops = 0;
        while let Some(c) = queue.pop_front() {
            if c == b"." {
                continue;
            }
            if c == b".." {
                if cur.len() == root.len() {
                    return Res::Escape;
                }
                cur.pop();
                continue;
            }
            let next = cat(&cur, &[c]);
            match self.nodes.get(&next) {
                None => {
                    let mut at = next;
                    for c in queue {
                        match c.as_slice() {
                            b"." => {}
                            b".." => {
                                at.pop();
                            }
                            _ => at.push(c),
                        }
                    }
                    return Res::NotFound(at);
                }
                Some(Node::Dir) => cur = next,
                Some(Node::Link { abs, target }) => {
                    hops += 1;
                    if hops > 40 {
                        return Res::Loop;
                    }
                    if *abs {
                        return Res::Escape;
                    }
                    for t in target.iter().rev() {
                        queue.push_front(t.clone());
                    }
                }
                Some(Node::File(_) | Node::Fifo) => {
                    if !queue.is_empty() {
                        return Res::NotDir;
                    }
                    cur = next;
                }
            }
        }
        Res::Obj(cur)
    }

    /// Whether some step of the request, as resolved through symlinks (or where it would be when
    /// missing), is denied: a request that passes a denied name answers DENIED whether or not that
    /// name exists. A symlink met on the way is walked by its own text too (`l -> z/../a` steps on
    /// `z` although it lands on `a`), from the directory that holds it, with one count of links
    /// (at most 40) for the whole walk.
    fn steps_denied(&self, root: &[Name], rel: &[Name]) -> bool {
        self.steps_denied_at(root, rel, &mut 0)
    }

    fn steps_denied_at(&self, root: &[Name], rel: &[Name], hops: &mut u32) -> bool {
        let mut real: P = root.to_vec();
        for (i, c) in rel.iter().enumerate() {
            if c == b"." {
                continue;
            }
            if c == b".." {
                if real.len() > root.len() {
                    real.pop();
                }
                continue;
            }
            let next = cat(&real, std::slice::from_ref(c));
            if let Some(Node::Link { abs, target }) = self.nodes.get(&next) {
                *hops += 1;
                if *hops > 40 {
                    return false;
                }
                if !*abs && self.steps_denied_at(root, &cat(&real[root.len()..], target), hops) {
                    return true;
                }
            }
            match self.resolve(root, &next[root.len()..]) {
                Res::Obj(p) => {
                    if p.len() > root.len() && self.denied(&p, false) {
                        return true;
                    }
                    real = p;
                }
                _ => {
                    let Some(at) = self.would_be(root, &next[root.len()..], 0) else {
                        return false;
                    };
                    return deepest_points(&at, &rel[i + 1..])
                        .iter()
                        .any(|p| p.len() > root.len() && self.denied(p, false));
                }
            }
        }
        false
    }

    /// Where `rel` would be if it existed (absolute): its deepest existing directory's real path,
    /// then the rest, following dangling relative symlinks (at most 40 hops); `None` where no name
    /// can be checked (out of the root, an absolute link, a parent that is not a directory).
    fn would_be(&self, root: &[Name], rel: &[Name], hops: u32) -> Option<P> {
        if hops > 40 {
            return None;
        }
        let rel = lexical_pop(rel);
        let (name, parent) = rel.split_last()?;
        let real_parent = match self.resolve(root, parent) {
            Res::Obj(p) if self.nodes.get(&p) == Some(&Node::Dir) => p,
            Res::NotFound(_) => {
                let mut p = self.would_be(root, parent, hops + 1)?;
                p.push(name.clone());
                return Some(p);
            }
            _ => return None,
        };
        let at = cat(&real_parent, std::slice::from_ref(name));
        match self.nodes.get(&at) {
            Some(Node::Link { abs: true, .. }) => None,
            Some(Node::Link { abs: false, target }) => {
                self.would_be(root, &cat(&real_parent[root.len()..], target), hops + 1)
            }
            _ => Some(at),
        }
    }

    fn candidates(&self, req: &Req) -> Result<Vec<(usize, P)>, ErrorCode> {
        match req {
            Req::Abs(p) => self
                .roots
                .iter()
                .position(|(_, r)| p.starts_with(r))
                .map(|i| vec![(i, p[self.roots[i].1.len()..].to_vec())])
                .ok_or(ErrorCode::OutOfSandbox),
            Req::Named(i, rel) => Ok(vec![(*i, rel.clone())]),
            Req::Plain(rel) => {
                if let (true, Some(first)) = (self.roots.len() > 1, rel.first()) {
                    if let Some(colon) = first.iter().position(|&b| b == b':') {
                        if let Some(i) = self
                            .roots
                            .iter()
                            .position(|(name, _)| name.as_bytes() == &first[..colon])
                        {
                            let mut rest = rel.clone();
                            rest[0] = first[colon + 1..].to_vec();
                            if rest[0].is_empty() {
                                rest.remove(0);
                            }
                            return Ok(vec![(i, rest)]);
                        }
                    }
                }
                Ok((0..self.roots.len()).map(|i| (i, rel.clone())).collect())
            }
        }
    }

    /// The object a request reaches and admits: (root, real path relative to it, node).
    fn locate(&self, req: &Req) -> Result<(usize, P, Node), ErrorCode> {
        for (i, rel) in self.candidates(req)? {
            let root = &self.roots[i].1;
            let lexical: P = rel.iter().filter(|c| *c != b".").cloned().collect();
            if self.denied(&cat(root, &lexical), false) {
                return Err(ErrorCode::Denied);
            }
            let resolved = self.resolve(root, &rel);
            // As the sandbox does: a failed request, or one that holds `..` or landed elsewhere
            // than its text says (a symlink on the way).
            let steps_checked = match &resolved {
                Res::NotFound(_) | Res::NotDir => true,
                Res::Obj(real) => {
                    rel.iter().any(|c| c == b"..") || *real != cat(root, &lexical_pop(&rel))
                }
                _ => false,
            };
            if steps_checked && self.steps_denied(root, &rel) {
                return Err(ErrorCode::Denied);
            }
            match resolved {
                Res::NotFound(_) => continue,
                Res::Escape => return Err(ErrorCode::OutOfSandbox),
                Res::Loop => return Err(ErrorCode::SymlinkLoop),
                Res::NotDir => return Err(ErrorCode::NotAFile),
                Res::Obj(real) => {
                    let node = self.nodes[&real].clone();
                    if self.denied(&real, node == Node::Dir) || self.refused(&node) {
                        return Err(ErrorCode::Denied);
                    }
                    return Ok((i, real[root.len()..].to_vec(), node));
                }
            }
        }
        Err(ErrorCode::NotFound)
    }

    // --- display ---

    fn display(&self, base: &Path, root: usize, rel: &[Name]) -> String {
        let (name, r) = &self.roots[root];
        if !self.relative {
            let mut b = base.as_os_str().as_bytes().to_vec();
            b.push(b'/');
            b.extend(join(&cat(r, rel)));
            esc(&b)
        } else if self.roots.len() > 1 {
            format!("{name}:{}", esc(&join(rel)))
        } else if rel.is_empty() {
            ".".into()
        } else {
            esc(&join(rel))
        }
    }

    fn request(&self, base: &Path, req: &Req) -> String {
        match req {
            Req::Abs(p) => {
                let mut b = base.as_os_str().as_bytes().to_vec();
                b.push(b'/');
                b.extend(join(p));
                esc(&b)
            }
            Req::Named(i, rel) => format!("{}:{}", self.roots[*i].0, esc(&join(rel))),
            Req::Plain(rel) if rel.is_empty() => ".".into(),
            Req::Plain(rel) => esc(&join(rel)),
        }
    }

    // --- walks and listings ---

    fn children(&self, dir: &P) -> Vec<(&P, &Node)> {
        self.nodes
            .range(dir.clone()..)
            .skip(1)
            .take_while(|(p, _)| p.starts_with(dir))
            .filter(|(p, _)| p.len() == dir.len() + 1)
            .collect()
    }

    /// What a walk of `dir` (real path) through root `root` finds, in order.
    fn walk_from(&self, root: usize, dir: &P, w: &mut Walked) {
        let r = &self.roots[root].1;
        for (p, node) in self.children(dir) {
            if self.denied(p, *node == Node::Dir) {
                continue;
            }
            match node {
                Node::Link { .. } => {}
                Node::Fifo => w.not_regular += 1,
                Node::File(_) if self.refused(node) => w.refused += 1,
                Node::File(i) => w.files.push((root, p[r.len()..].to_vec(), *i)),
                Node::Dir => {
                    w.dirs.push((root, p[r.len()..].to_vec()));
                    self.walk_from(root, p, w);
                }
            }
        }
    }

    fn walk_all(&self) -> Walked {
        let mut w = Walked::default();
        for (i, (_, r)) in self.roots.iter().enumerate() {
            if self.denied(r, true) {
                continue;
            }
            w.dirs.push((i, Vec::new()));
            self.walk_from(i, r, &mut w);
        }
        w
    }

    fn grep_lines(&self, base: &Path, w: &Walked) -> Vec<String> {
        w.files
            .iter()
            .map(|(root, rel, i)| {
                format!("{}:1:{}", self.display(base, *root, rel), self.tokens[*i])
            })
            .collect()
    }

    /// list_dir's entries of the real directory `dir`: (name, kind, size; None for directories).
    fn listing(&self, base: &Path, dir: &P) -> Vec<ListedEntry> {
        self.children(dir)
            .into_iter()
            .filter(|(p, node)| !self.denied(p, **node == Node::Dir) && !self.refused(node))
            .map(|(p, node)| {
                let (kind, size) = match node {
                    Node::Dir => ("dir", None),
                    Node::File(i) => ("file", Some(self.tokens[*i].len() as u64 + 1)),
                    Node::Fifo => ("other", Some(0)),
                    Node::Link { abs, target } => {
                        let mut len = join(target).len();
                        if *abs {
                            len += base.as_os_str().len() + 1;
                        }
                        ("symlink", Some(len as u64))
                    }
                };
                (esc(p.last().unwrap()), kind.to_string(), size)
            })
            .collect()
    }
}

#[derive(Default, Debug)]
struct Walked {
    files: Vec<(usize, P, usize)>,
    dirs: Vec<(usize, P)>,
    not_regular: u64,
    refused: u64,
}

/// The relative symlink target that names `target` from the directory `from`.
fn relative_target(from: &[Name], target: &[Name]) -> P {
    let common = from.iter().zip(target).take_while(|(a, b)| a == b).count();
    let mut t: P = vec![n(b".."); from.len() - common];
    t.extend(target[common..].iter().cloned());
    if t.is_empty() {
        t.push(n(b"."));
    }
    t
}

// ---------------------------------------------------------------------------------------------------
// The tree on disk
// ---------------------------------------------------------------------------------------------------

fn on_disk(base: &Path, p: &[Name]) -> PathBuf {
    base.join(OsStr::from_bytes(&join(p)))
}

fn build(m: &Model, base: &Path) {
    let mut first: BTreeMap<usize, PathBuf> = BTreeMap::new();
    for (p, node) in &m.nodes {
        if *node == Node::Dir {
            std::fs::create_dir(on_disk(base, p)).unwrap();
        }
    }
    for (p, node) in &m.nodes {
        if let Node::File(i) = node {
            let at = on_disk(base, p);
            match first.get(i) {
                Some(f) => std::fs::hard_link(f, &at).unwrap(),
                None => {
                    std::fs::write(&at, format!("{}\n", m.tokens[*i])).unwrap();
                    first.insert(*i, at);
                }
            }
        }
    }
    for (p, node) in &m.nodes {
        let at = on_disk(base, p);
        match node {
            Node::Link { abs, target } => {
                let t = if *abs {
                    on_disk(base, target)
                } else {
                    PathBuf::from(OsStr::from_bytes(&join(target)))
                };
                std::os::unix::fs::symlink(t, &at).unwrap();
            }
            Node::Fifo => rustix::fs::mknodat(
                rustix::fs::CWD,
                at.as_path(),
                rustix::fs::FileType::Fifo,
                rustix::fs::Mode::from_raw_mode(0o644),
                0,
            )
            .unwrap(),
            _ => {}
        }
    }
}

/// Every object under `dir`: kind, and content or link target (no times: only what a write changes).
fn snapshot(dir: &Path, out: &mut BTreeMap<PathBuf, String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        let md = std::fs::symlink_metadata(&p).unwrap();
        let ft = md.file_type();
        let what = if ft.is_symlink() {
            format!("link {:?}", std::fs::read_link(&p).unwrap())
        } else if ft.is_dir() {
            snapshot(&p, out);
            "dir".into()
        } else if ft.is_file() {
            use std::os::unix::fs::MetadataExt;
            format!("file {:?} nlink {}", std::fs::read(&p).unwrap(), md.nlink())
        } else {
            "other".into()
        };
        out.insert(p, what);
    }
}

fn policy(m: &Model, base: &Path) -> Policy {
    let mut p = Policy {
        roots: m
            .roots
            .iter()
            .map(|(name, r)| RootSpec {
                name: name.clone(),
                path: on_disk(base, r),
            })
            .collect(),
        deny: m.rule_text.clone(),
        refuse_hardlinks: m.refuse,
        path_display: if m.relative {
            PathDisplay::Relative
        } else {
            PathDisplay::Absolute
        },
        ..Default::default()
    };
    if let Some(w) = &m.write {
        let mut wp = WritePolicy::new(on_disk(base, w));
        wp.allow_overwrite = m.allow_overwrite;
        wp.allow_delete = true;
        p.write = Some(wp);
    }
    p
}

// ---------------------------------------------------------------------------------------------------
// The tools, all pages
// ---------------------------------------------------------------------------------------------------

const PATTERN: &str = "(TOKEN|OUTSIDE)_[0-9]+";

fn grep_args(path: Option<String>, limit: u64) -> GrepArgs {
    let mut args = GrepArgs::new(PATTERN);
    args.path = path;
    args.hidden = Some(true);
    args.no_ignore = Some(true);
    args.limit = Some(limit);
    args
}

/// Pages of a grep or glob call, followed by `next_cursor`.
fn pages(
    mut call: impl FnMut(Option<String>) -> rootbound::Result<GrepResult>,
) -> Result<Vec<GrepResult>, TestCaseError> {
    let mut out = Vec::new();
    let mut cursor = None;
    loop {
        let page = call(cursor.take()).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let next = page.next_cursor.clone();
        let more = page.truncated;
        out.push(page);
        match next {
            Some(c) if more => cursor = Some(c),
            _ => break,
        }
        prop_assert!(out.len() < 100, "paging does not end");
    }
    Ok(out)
}

fn lines_of(pages: &[GrepResult]) -> Vec<String> {
    pages
        .iter()
        .flat_map(|p| p.matches.lines().map(str::to_string))
        .collect()
}

fn grep_pages(sb: &Sandbox, limit: u64) -> Result<Vec<GrepResult>, TestCaseError> {
    pages(|cursor| {
        sb.grep_search(&{
            let mut args_ = grep_args(None, limit);
            args_.cursor = cursor;
            args_
        })
    })
}

fn glob_pages(sb: &Sandbox, limit: u64) -> Result<Vec<GrepResult>, TestCaseError> {
    pages(|cursor| {
        sb.glob(&{
            let mut args_ = GlobArgs::default();
            args_.pattern = "**".into();
            args_.hidden = Some(true);
            args_.no_ignore = Some(true);
            args_.limit = Some(limit);
            args_.cursor = cursor;
            args_
        })
    })
}

fn list(sb: &Sandbox, path: &str) -> rootbound::Result<ListResult> {
    sb.list_dir(&{
        let mut args_ = ListArgs::default();
        args_.path = Some(path.into());
        args_.hidden = Some(true);
        args_.no_ignore = Some(true);
        args_
    })
}

fn entries_of(l: &ListResult) -> Vec<ListedEntry> {
    l.entries
        .iter()
        .map(|e| {
            let size = (e.kind != "dir").then_some(e.size);
            (e.name.clone(), e.kind.to_string(), size)
        })
        .collect()
}

/// Every marker token in a text.
fn tokens_in(s: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for prefix in ["TOKEN_", "OUTSIDE_"] {
        let mut rest = s;
        while let Some(at) = rest.find(prefix) {
            let tail = &rest[at + prefix.len()..];
            let digits: String = tail.chars().take_while(char::is_ascii_digit).collect();
            out.insert(format!("{prefix}{digits}"));
            rest = tail;
        }
    }
    out
}

fn code<T>(r: rootbound::Result<T>) -> Result<T, ErrorCode> {
    r.map_err(|e| e.code)
}

// ---------------------------------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------------------------------

/// One listed entry: name, kind, size (None for directories, whose size depends on the filesystem).
type ListedEntry = (String, String, Option<u64>);

/// What no-trace compares: every result of the walking tools, with directory sizes left out.
#[derive(Debug, PartialEq)]
struct Observed {
    grep: String,
    grep_pages: Vec<String>,
    glob: String,
    glob_pages: Vec<String>,
    lists: Vec<(String, Vec<ListedEntry>, u64, u64, u64)>,
}

fn observe(sb: &Sandbox, m: &Model, base: &Path, w: &Walked) -> Result<Observed, TestCaseError> {
    let json = |r: &GrepResult| serde_json::to_string(r).unwrap();
    let grep = sb
        .grep_search(&grep_args(None, 100))
        .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    let glob = glob_pages(sb, 100)?;
    prop_assert_eq!(glob.len(), 1);
    let mut lists = Vec::new();
    for (root, rel) in &w.dirs {
        let shown = m.display(base, *root, rel);
        let l = list(sb, &shown).map_err(|e| TestCaseError::fail(format!("{shown}: {e:?}")))?;
        lists.push((shown, entries_of(&l), l.total, l.hidden, l.ignored));
    }
    Ok(Observed {
        grep: json(&grep),
        grep_pages: grep_pages(sb, 7)?.iter().map(json).collect(),
        glob: json(&glob[0]),
        glob_pages: glob_pages(sb, 7)?.iter().map(json).collect(),
        lists,
    })
}

fn check(spec: &Spec) -> Result<(), TestCaseError> {
    let m = Model::new(spec);
    let tmp = tempfile::Builder::new()
        .prefix("rootbound-policy-")
        .tempdir()
        .unwrap();
    let base = std::fs::canonicalize(tmp.path()).unwrap();
    build(&m, &base);
    let sb = Sandbox::new(policy(&m, &base))
        .map_err(|e| TestCaseError::fail(format!("{}: {e:?}", m.describe())))?;
    let ctx = m.describe();
    let w = m.walk_all();
    let visible: BTreeSet<String> = w.files.iter().map(|f| m.tokens[f.2].clone()).collect();

    // grep_search: exactly the visible files' tokens, in walk order, and no other token anywhere.
    let one = sb
        .grep_search(&grep_args(None, 100))
        .map_err(|e| TestCaseError::fail(format!("{ctx}: {e:?}")))?;
    let paged = grep_pages(&sb, 7)?;
    let all_json: String = paged
        .iter()
        .chain([&one])
        .map(|p| serde_json::to_string(p).unwrap())
        .collect();
    let found = tokens_in(&all_json);
    prop_assert_eq!(&found, &visible, "grep tokens; {}", ctx);
    let want = m.grep_lines(&base, &w);
    let got: Vec<String> = one.matches.lines().map(str::to_string).collect();
    prop_assert_eq!(&got, &want, "grep lines; {}", ctx);
    prop_assert_eq!(&lines_of(&paged), &want, "grep pages; {}", ctx);
    prop_assert!(!one.truncated && !one.timed_out);
    let s = one.stats;
    prop_assert_eq!(s.files_searched, w.files.len() as u64, "{}", ctx);
    prop_assert_eq!(s.skipped.not_regular, w.not_regular, "not_regular; {}", ctx);
    prop_assert_eq!(s.skipped.denied, w.refused, "denied count; {}", ctx);
    prop_assert_eq!(
        (
            s.skipped.ignored,
            s.skipped.unreadable,
            s.skipped.binary,
            s.skipped.too_large
        ),
        (0, 0, 0, 0),
        "{}",
        ctx
    );

    // glob `**`: exactly the visible files; each shown path reads back its file, and stats.
    let globbed = glob_pages(&sb, 7)?;
    let shown = lines_of(&globbed);
    let want: Vec<String> = w
        .files
        .iter()
        .map(|(root, rel, _)| m.display(&base, *root, rel))
        .collect();
    prop_assert_eq!(&shown, &want, "glob; {}", ctx);
    let glob_json = serde_json::to_string(&globbed).unwrap();
    prop_assert!(
        tokens_in(&glob_json).is_empty(),
        "tokens in glob results; {}",
        ctx
    );
    for ((_, _, i), path) in w.files.iter().zip(&shown) {
        let r = code(sb.read_file(&ReadArgs::path(path)));
        let want = Ok((format!("{}\n", m.tokens[*i]), path.clone()));
        prop_assert_eq!(
            r.map(|r| (r.content, r.path)),
            want,
            "read back {}; {}",
            path,
            ctx
        );
        let st = code(sb.stat(&{
            let mut args_ = StatArgs::default();
            args_.path = path.clone();
            args_
        }));
        prop_assert_eq!(
            st.map(|s| (s.kind.to_string(), s.path)),
            Ok(("file".to_string(), path.clone())),
            "stat {}; {}",
            path,
            ctx
        );
    }

    // list_dir of every visible directory: no denied or refused entry, and each joined name reads
    // back what the oracle says it names.
    for (root, rel) in &w.dirs {
        let dir_shown = m.display(&base, *root, rel);
        let l = code(list(&sb, &dir_shown));
        let real = cat(&m.roots[*root].1, rel);
        let want = m.listing(&base, &real);
        prop_assert_eq!(
            l.as_ref().map(|l| (entries_of(l), l.path.clone(), l.total)),
            Ok((want.clone(), dir_shown.clone(), want.len() as u64)),
            "list_dir {}; {}",
            dir_shown,
            ctx
        );
        for (p, _) in m.children(&real) {
            let name = esc(p.last().unwrap());
            let joined = if dir_shown.ends_with(':') {
                format!("{dir_shown}{name}")
            } else {
                format!("{dir_shown}/{name}")
            };
            let req = if !m.relative {
                Req::Abs(p.clone())
            } else if m.roots.len() > 1 {
                Req::Named(*root, p[m.roots[*root].1.len()..].to_vec())
            } else {
                Req::Plain(p[m.roots[*root].1.len()..].to_vec())
            };
            check_request(&sb, &m, &base, &req, &joined, &ctx)?;
        }
    }

    // Every object of the tree, by every spelling: absolute, through each read root that contains it
    // (NAME:rel with several roots, and plain rel), including symlink aliases and outside objects.
    for p in m.nodes.keys() {
        let mut reqs = vec![Req::Abs(p.clone())];
        for (i, (_, r)) in m.roots.iter().enumerate() {
            if p.starts_with(r) {
                let rel = p[r.len()..].to_vec();
                if m.roots.len() > 1 {
                    reqs.push(Req::Named(i, rel.clone()));
                }
                reqs.push(Req::Plain(rel));
            }
        }
        for req in &reqs {
            let s = m.request(&base, req);
            check_request(&sb, &m, &base, req, &s, &ctx)?;
        }
    }

    check_writes(&sb, &m, &base, &ctx)?;

    // No trace: the walking tools answer the same once every denied object is gone.
    if !m.refuse {
        let before = observe(&sb, &m, &base, &w)?;
        remove_denied(&m, &base);
        let after = observe(&sb, &m, &base, &w)?;
        prop_assert_eq!(before, after, "denied objects left a trace; {}", ctx);
    }
    Ok(())
}

/// read_file, stat, list_dir and grep (with `path`) of one request, against the oracle.
fn check_request(
    sb: &Sandbox,
    m: &Model,
    base: &Path,
    req: &Req,
    s: &str,
    ctx: &str,
) -> Result<(), TestCaseError> {
    let loc = m.locate(req);
    let shown = |(root, rel, _): &(usize, P, Node)| m.display(base, *root, rel);

    let want = loc.clone().and_then(|l| match &l.2 {
        Node::File(i) => Ok((format!("{}\n", m.tokens[*i]), shown(&l))),
        _ => Err(ErrorCode::NotAFile),
    });
    let got = code(sb.read_file(&ReadArgs::path(s))).map(|r| (r.content, r.path));
    prop_assert_eq!(got, want, "read_file {:?} ({:?}); {}", s, req, ctx);

    let want = loc.clone().map(|l| {
        let kind = match l.2 {
            Node::File(_) => "file",
            Node::Dir => "dir",
            _ => "other",
        };
        (kind.to_string(), shown(&l))
    });
    let got = code(sb.stat(&{
        let mut args_ = StatArgs::default();
        args_.path = s.into();
        args_
    }))
    .map(|r| (r.kind.to_string(), r.path));
    prop_assert_eq!(got, want, "stat {:?} ({:?}); {}", s, req, ctx);

    let want = loc.clone().and_then(|l| match l.2 {
        Node::Dir => Ok((shown(&l), m.listing(base, &cat(&m.roots[l.0].1, &l.1)))),
        _ => Err(ErrorCode::NotAFile),
    });
    let got = code(list(sb, s)).map(|l| (l.path.clone(), entries_of(&l)));
    prop_assert_eq!(got, want, "list_dir {:?} ({:?}); {}", s, req, ctx);

    let want = loc.and_then(|l| match &l.2 {
        Node::File(i) => Ok(vec![format!("{}:1:{}", shown(&l), m.tokens[*i])]),
        Node::Dir => {
            let mut w = Walked::default();
            m.walk_from(l.0, &cat(&m.roots[l.0].1, &l.1), &mut w);
            Ok(m.grep_lines(base, &w))
        }
        _ => Err(ErrorCode::NotAFile),
    });
    let got = code(sb.grep_search(&grep_args(Some(s.into()), 100)))
        .map(|g| g.matches.lines().map(str::to_string).collect::<Vec<_>>());
    prop_assert_eq!(got, want, "grep path {:?} ({:?}); {}", s, req, ctx);
    Ok(())
}

/// With a write root: writing or deleting a denied name answers DENIED and changes nothing.
fn check_writes(sb: &Sandbox, m: &Model, base: &Path, ctx: &str) -> Result<(), TestCaseError> {
    let Some(w) = &m.write else {
        return Ok(());
    };
    let mut before = BTreeMap::new();
    snapshot(base, &mut before);
    // Names relative to the write root: every object under it (a new name in each directory), and
    // each rule's template placed relative to the write root.
    let mut cands: BTreeSet<P> = BTreeSet::new();
    for (p, node) in &m.nodes {
        if p.len() > w.len() && p.starts_with(w) {
            let mut rel = p[w.len()..].to_vec();
            if *node == Node::Dir {
                rel.push(n(NEW));
            }
            cands.insert(rel);
        }
    }
    for t in m.templates.iter().flatten() {
        match t {
            Template::Anywhere(p) => {
                cands.insert(p.clone());
            }
            Template::Anchored(p) => {
                for r in m.all_roots() {
                    if w.starts_with(&r) {
                        let off = &w[r.len()..];
                        if p.len() > off.len() && p.starts_with(off) {
                            cands.insert(p[off.len()..].to_vec());
                        }
                    }
                }
            }
        }
    }
    // The same names reached through a symlink to a directory of the write root.
    let mut reqs: Vec<(P, P)> = cands.iter().map(|c| (c.clone(), c.clone())).collect();
    for (lp, node) in &m.nodes {
        if !(matches!(node, Node::Link { .. }) && lp.len() > w.len() && lp.starts_with(w)) {
            continue;
        }
        let lrel = &lp[w.len()..];
        if let Res::Obj(real) = m.resolve(w, lrel) {
            if m.nodes[&real] == Node::Dir {
                let d = &real[w.len()..];
                for c in &cands {
                    if c.len() > d.len() && c.starts_with(d) {
                        reqs.push((cat(lrel, &c[d.len()..]), c.clone()));
                    }
                }
            }
        }
    }
    for (req, real) in reqs {
        // Only plain directories (existing or not) above the target, and no directory at it.
        let mut plain = true;
        for k in 1..real.len() {
            match m.nodes.get(&cat(w, &real[..k])) {
                None | Some(Node::Dir) => {}
                _ => plain = false,
            }
        }
        let at = cat(w, &real);
        let existing = m.nodes.get(&at);
        if !plain || existing == Some(&Node::Dir) {
            continue;
        }
        let lexical = m.denied(&cat(w, &req), false);
        let mut denied = lexical || m.denied(&at, false);
        if let Some(Node::Link { .. }) = existing {
            if let Res::Obj(t) = m.resolve(w, &real) {
                denied |= m.denied(&t, m.nodes[&t] == Node::Dir);
            }
        }
        if !denied {
            continue;
        }
        let s = esc(&join(&req));
        let got = code(sb.write_file(&{
            let mut args_ = WriteArgs::default();
            args_.path = s.clone();
            args_.content = "PWNED\n".into();
            args_.overwrite = Some(m.allow_overwrite);
            args_
        }))
        .map(|_| ());
        prop_assert_eq!(got, Err(ErrorCode::Denied), "write_file {:?}; {}", s, ctx);
        // A delete makes no directory: through an alias to a place whose directory is missing, the
        // name cannot be resolved and is absent, as read_file says for the same spelling.
        let parent_exists = m.nodes.get(&at[..at.len() - 1]) == Some(&Node::Dir);
        let want = if lexical || parent_exists || m.denied(&at[..at.len() - 1], true) {
            ErrorCode::Denied
        } else {
            ErrorCode::NotFound
        };
        let got = code(sb.delete_file(&{
            let mut args_ = DeleteArgs::default();
            args_.path = s.clone();
            args_
        }))
        .map(|_| ());
        prop_assert_eq!(got, Err(want), "delete_file {:?}; {}", s, ctx);
        let mut after = BTreeMap::new();
        snapshot(base, &mut after);
        if after != before {
            let changed: Vec<_> = after
                .iter()
                .filter(|(k, v)| before.get(*k) != Some(*v))
                .map(|(k, _)| k)
                .chain(before.keys().filter(|k| !after.contains_key(*k)))
                .collect();
            prop_assert!(
                false,
                "a denied write of {:?} changed {:?}; {}",
                s,
                changed,
                ctx
            );
        }
    }
    Ok(())
}

/// Removes every denied object (a root, or a directory holding one, stays, emptied of what is denied).
fn remove_denied(m: &Model, base: &Path) {
    let keep: Vec<P> = m.all_roots();
    for (p, node) in m.nodes.iter().rev() {
        if !m.denied(p, *node == Node::Dir) {
            continue;
        }
        let at = on_disk(base, p);
        if *node == Node::Dir {
            if !keep.iter().any(|r| r.starts_with(p)) {
                std::fs::remove_dir(&at).unwrap();
            }
        } else {
            std::fs::remove_file(&at).unwrap();
        }
    }
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn every_tool_agrees_with_the_policy_oracle(spec in spec_strategy()) {
        check(&spec)?;
    }
}

/// Found by the property (CI, session 10): `R/cfg/cfg/l -> ../../-d/m`, `R/-d/m -> ../a.txt`, rule
/// `-d`. The kernel lands on the permitted `a.txt`, but the walk passes the denied `-d`: DENIED, as
/// when `-d` is missing.
#[test]
fn a_link_through_a_link_in_a_denied_directory_is_denied() {
    use EntryKind::*;
    let spec = Spec {
        dirs: vec![
            (false, vec![4]),
            (false, vec![1, 1]),
            (false, vec![2]),
            (false, vec![1]),
        ],
        entries: vec![
            (0, 6, Regular),
            (2, 8, Link(25)),
            (0, 0, Regular),
            (3, 7, Link(3)),
            (0, 2, Regular),
            (0, 9, Regular),
            (8, 3, Regular),
            (5, 14, Regular),
            (0, 1, Regular),
            (0, 13, Regular),
            (0, 4, Regular),
        ],
        outside: 1,
        sibling_root: false,
        extra_root: None,
        extra_first: false,
        write_root: None,
        rules: vec![(0, 42, 0, 0)],
        refuse_hardlinks: false,
        relative: false,
        allow_overwrite: false,
    };
    let m = Model::new(&spec);
    let link = vec![n(b"cfg"), n(b"cfg"), n(b"tab\tx.key")];
    assert_eq!(
        m.locate(&Req::Plain(link)).map(|_| ()),
        Err(ErrorCode::Denied)
    );
    check(&spec).unwrap();
}

/// Lexical normalisation of a path (`.` dropped, `..` pops, never above the start).
fn lexical_pop(rel: &[Name]) -> P {
    let mut out = P::new();
    for c in rel {
        match c.as_slice() {
            b"." => {}
            b".." => {
                out.pop();
            }
            _ => out.push(c.clone()),
        }
    }
    out
}

/// The deepest paths a walk from `start` along `rest` (read as text: `..` pops) reaches: `start`,
/// the path before each `..`, and the end (as the sandbox checks a missing rest).
fn deepest_points(start: &[Name], rest: &[Name]) -> Vec<P> {
    let mut at = start.to_vec();
    let mut out = vec![at.clone()];
    let mut grew = false;
    for c in rest {
        match c.as_slice() {
            b"." => {}
            b".." => {
                if grew {
                    out.push(at.clone());
                    grew = false;
                }
                at.pop();
            }
            _ => {
                at.push(c.clone());
                grew = true;
            }
        }
    }
    if grew {
        out.push(at);
    }
    out
}
