//! The layout of src/ is part of the design (README "Layout"): each folder is a layer that may use
//! only the layers below it, no tool module imports another tool's search, and no file grows past a
//! size a reader can hold. This test reads the sources as text and fails when a change breaks a rule.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers a folder of src/ may name through `crate::<module>` paths (its own included).
/// Folders not listed (the front ends: mcp, cli, main.rs, lib.rs) may use everything.
const ALLOWED: &[(&str, &[&str])] = &[
    ("core", &["core"]),
    ("walk", &["core", "walk"]),
    ("index", &["core", "walk", "index"]),
    // The engine (the public `Sandbox`: core's handle and the index) and a call's `Within` on it,
    // which search's tools and the other tools both take.
    ("engine", &["core", "walk", "index", "engine"]),
    (
        "search",
        &["core", "walk", "documents", "index", "engine", "search"],
    ),
    ("documents", &["core", "documents"]),
    (
        "tools",
        &[
            "core",
            "walk",
            "index",
            "engine",
            "search",
            "documents",
            "tools",
        ],
    ),
    // The config file sets the index's options (`index = "auto"`), as it sets the tools'.
    ("config", &["core", "index", "engine", "tools", "config"]),
];

/// Lines of code (outside `#[cfg(test)]` modules) a source file may hold.
const MAX_LINES: usize = 600;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without comments and without its unit-test items: an item after a
/// `#[cfg(test)]` line is skipped to its end (its braces matched, strings and comments aside), and
/// what follows it is read again. A `use` spanning several lines comes as one line, numbered by its
/// first. Each line keeps its 1-based number.
fn code(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut i = 0;
    let mut open_use: Option<usize> = None;
    while i < lines.len() {
        let t = lines[i].trim_start();
        if t.starts_with("#[cfg(test)]") {
            i = end_of_item(&lines, i + 1);
            continue;
        }
        if !t.starts_with("//") {
            match open_use {
                Some(k) => {
                    out[k].1.push(' ');
                    out[k].1.push_str(t);
                }
                None => out.push((i + 1, lines[i].to_string())),
            }
            let k = out.len() - 1;
            let starts_use = open_use.is_none()
                && (t.starts_with("use ")
                    || t.starts_with("pub use ")
                    || t.starts_with("pub(crate) use "));
            if starts_use || open_use.is_some() {
                open_use = (!t.trim_end().ends_with(';')).then_some(k);
            }
        }
        i += 1;
    }
    out
}

/// The index of the first line after the item that starts at or after line `from` (further
/// attributes included): to its `;` when it has no body, else to the brace closing its body.
fn end_of_item(lines: &[&str], from: usize) -> usize {
    let mut depth = 0usize;
    // Parentheses and brackets open: a `;` in them (`[u8; 4]` in a signature) ends nothing.
    let mut nest = 0usize;
    let mut opened = false;
    let mut in_block_comment = false;
    // A string may run over several lines (a `\` at a line's end continues it); a raw string
    // (`r#"…"#`, here its count of `#`) has no escapes and may hold `"`.
    let mut in_str = false;
    let mut raw: Option<usize> = None;
    for (i, line) in lines.iter().enumerate().skip(from) {
        let t = line.trim_start();
        if !opened && depth == 0 && !in_str && raw.is_none() && t.starts_with("#[") {
            continue;
        }
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if in_block_comment {
                if c == '*' && chars.peek() == Some(&'/') {
                    chars.next();
                    in_block_comment = false;
                }
                continue;
            }
            if let Some(hashes) = raw {
                if c == '"' && chars.clone().take(hashes).filter(|c| *c == '#').count() == hashes {
                    if hashes > 0 {
                        chars.nth(hashes - 1);
                    }
                    raw = None;
                }
                continue;
            }
            if in_str {
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => in_str = false,
                    _ => {}
                }
                continue;
            }
            match c {
                '/' if chars.peek() == Some(&'/') => break,
                '/' if chars.peek() == Some(&'*') => {
                    chars.next();
                    in_block_comment = true;
                }
                '"' => in_str = true,
                // `r"`, `r#"` (after `b` or `c` too); not a raw name (`r#type`).
                'r' if {
                    let hashes = chars.clone().take_while(|c| *c == '#').count();
                    chars.clone().nth(hashes) == Some('"')
                } =>
                {
                    let hashes = chars.clone().take_while(|c| *c == '#').count();
                    chars.nth(hashes);
                    raw = Some(hashes);
                }
                // A char literal ('{', '\'', '\\'); a lifetime ('a) has no closing quote.
                '\'' => {
                    let rest: String = chars.clone().take(3).collect();
                    if rest.starts_with('\\') {
                        chars.next();
                        chars.next();
                        chars.next();
                    } else if rest.chars().nth(1) == Some('\'') {
                        chars.next();
                        chars.next();
                    }
                }
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => {
                    depth = depth.saturating_sub(1);
                    if opened && depth == 0 {
                        return i + 1;
                    }
                }
                '(' | '[' => nest += 1,
                ')' | ']' => nest = nest.saturating_sub(1),
                ';' if !opened && depth == 0 && nest == 0 => return i + 1,
                _ => {}
            }
        }
    }
    lines.len()
}

/// The `crate::<module>` names a line uses: lower-case first segments, and a re-exported name
/// (`crate::Sandbox`, `crate::GrepArgs`) as the module that defines it (see [`reexports`]).
fn crate_modules(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    let reexported = reexports();
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + 7..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.starts_with(|c: char| c.is_ascii_lowercase()) {
            out.push(name);
        } else if let Some(m) = reexported.get(&name) {
            out.push(m.clone());
        }
    }
    // `use crate::{core::x, search::y, Sandbox}` groups.
    if let Some(i) = line.find("crate::{") {
        for part in line[i + 8..].split([',', '{', '}']) {
            let part = part.trim();
            let first = part.split("::").next().unwrap_or("");
            if first.starts_with(|c: char| c.is_ascii_lowercase()) && part.contains("::") {
                out.push(first.to_string());
            } else if let Some(m) = reexported.get(first) {
                out.push(m.clone());
            }
        }
    }
    out
}

/// The names src/lib.rs re-exports at the crate root, each with the top-level module defining it.
fn reexports() -> BTreeMap<String, String> {
    static MAP: std::sync::OnceLock<BTreeMap<String, String>> = std::sync::OnceLock::new();
    MAP.get_or_init(|| {
        let text = std::fs::read_to_string(src().join("lib.rs")).unwrap();
        let mut map = BTreeMap::new();
        for (_, line) in code(&text) {
            let Some(rest) = line.trim_start().strip_prefix("pub use ") else {
                continue;
            };
            let rest = rest.trim_start_matches("crate::");
            let module = rest.split("::").next().unwrap_or("").to_string();
            if let Some(inner) = rest.trim_end_matches(';').strip_suffix("::*") {
                // A glob of an inline module (`tools::api::*`): the names its `pub use`s give.
                for n in inline_module_names(inner) {
                    map.insert(n, module.clone());
                }
                continue;
            }
            let names = match rest.split_once('{') {
                Some((_, g)) => g.trim_end_matches([';', '}', ' ']).to_string(),
                None => rest
                    .rsplit("::")
                    .next()
                    .unwrap_or("")
                    .trim_end_matches(';')
                    .to_string(),
            };
            for n in names.split(',') {
                // `Engine as Sandbox` re-exports the engine under the name a caller writes.
                let n = n.rsplit(" as ").next().unwrap_or(n).trim();
                if !n.is_empty() && !n.contains("::") {
                    map.insert(n.to_string(), module.clone());
                }
            }
        }
        map
    })
    .clone()
}

/// The names the `pub use` lines of inline module `path` (`tools::api`: `mod api { … }` in
/// src/tools/mod.rs) give.
fn inline_module_names(path: &str) -> Vec<String> {
    let (parent, name) = path.rsplit_once("::").unwrap_or(("", path));
    let file = src().join(parent.replace("::", "/")).join("mod.rs");
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let head = format!("mod {name} {{");
    text.lines()
        .skip_while(|l| {
            !l.trim_start()
                .trim_start_matches("pub(crate) ")
                .starts_with(&head)
        })
        .skip(1)
        .take_while(|l| l.trim() != "}")
        .filter_map(|l| l.trim().strip_prefix("pub use "))
        .flat_map(|u| {
            let names = match u.split_once('{') {
                Some((_, g)) => g.trim_end_matches([';', '}', ' ']).to_string(),
                None => u
                    .rsplit("::")
                    .next()
                    .unwrap_or("")
                    .trim_end_matches(';')
                    .into(),
            };
            names
                .split(',')
                .map(|n| n.rsplit(" as ").next().unwrap_or(n).trim().to_string())
                .filter(|n| !n.is_empty())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn each_layer_uses_only_the_layers_below_it() {
    let root = src();
    let mut files = Vec::new();
    sources(&root, &mut files);
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut bad = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap();
        let Some(layer) = rel.components().next().and_then(|c| c.as_os_str().to_str()) else {
            continue;
        };
        let Some(ok) = allowed.get(layer) else {
            continue;
        };
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in code(&text) {
            for m in crate_modules(&line) {
                if !ok.contains(&m.as_str()) {
                    bad.push(format!("{}:{n}: {layer} uses crate::{m}", rel.display()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "layering broken:\n{}", bad.join("\n"));
}

#[test]
fn the_glob_tool_does_not_depend_on_grep() {
    let text = std::fs::read_to_string(src().join("search/glob.rs")).unwrap();
    let uses: Vec<_> = code(&text)
        .into_iter()
        .filter(|(_, l)| l.contains("search::grep") || l.contains("grep::"))
        .collect();
    assert!(uses.is_empty(), "glob imports grep: {uses:?}");
}

/// The module path of a source file under src/ (`search/grep/mod.rs` -> `search::grep`).
fn module_of(rel: &Path) -> String {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// The modules of `modules` that a line of module `of` names, through `crate::` or `super::` paths
/// (grouped uses included). A module naming one of its own ancestors is Rust's parent-child pattern,
/// not an edge; a path is resolved to the longest module it starts with.
fn module_uses(of: &str, line: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let parent = of.rsplit_once("::").map_or("", |(p, _)| p);
    let mut out = BTreeSet::new();
    for (prefix, base) in [("crate::", String::new()), ("super::", parent.to_string())] {
        let mut rest = line;
        while let Some(i) = rest.find(prefix) {
            rest = &rest[i + prefix.len()..];
            let path: String = rest
                .chars()
                .take_while(|c| {
                    c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '{' | ',' | ' ')
                })
                .collect();
            let (head, group) = match path.split_once('{') {
                Some((h, g)) => (h.trim_end_matches(':').to_string(), Some(g.to_string())),
                None => (path.trim_end_matches(':').to_string(), None),
            };
            let join = |tail: &str| {
                [base.as_str(), head.as_str(), tail]
                    .iter()
                    .filter(|s| !s.is_empty())
                    .map(|s| s.trim())
                    .collect::<Vec<_>>()
                    .join("::")
            };
            let paths: Vec<String> = match group {
                Some(g) => g.split(',').map(|t| join(t.trim())).collect(),
                None => vec![join("")],
            };
            for p in paths {
                let mut m = p.as_str();
                while !modules.contains(m) {
                    match m.rsplit_once("::") {
                        Some((up, _)) => m = up,
                        None => break,
                    }
                }
                let ancestor = of == m || of.starts_with(&format!("{m}::"));
                if modules.contains(m) && !ancestor {
                    out.insert(m.to_string());
                }
            }
        }
    }
    out
}

/// The import circles among `graph`'s modules (each circle once, as found by a depth-first walk).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        out: &mut Vec<Vec<String>>,
    ) {
        if let Some(i) = stack.iter().position(|s| s == m) {
            out.push(stack[i..].to_vec());
            return;
        }
        if !done.insert(m.to_string()) {
            return;
        }
        stack.push(m.to_string());
        for next in graph.get(m).into_iter().flatten() {
            visit(next, graph, stack, done, out);
        }
        stack.pop();
    }
    let mut out = Vec::new();
    let mut done = BTreeSet::new();
    for m in graph.keys() {
        visit(m, graph, &mut Vec::new(), &mut done, &mut out);
    }
    out
}

/// The import graph of the modules under `src/<dir>`.
fn import_graph(dir: &str) -> BTreeMap<String, BTreeSet<String>> {
    let root = src();
    let mut files = Vec::new();
    sources(&root.join(dir), &mut files);
    let of = |f: &PathBuf| module_of(f.strip_prefix(&root).unwrap());
    let modules: BTreeSet<String> = files.iter().map(of).collect();
    files
        .iter()
        .map(|f| {
            let m = of(f);
            let text = std::fs::read_to_string(f).unwrap();
            let uses = code(&text)
                .into_iter()
                .flat_map(|(_, l)| module_uses(&m, &l, &modules))
                .filter(|u| *u != m)
                .collect();
            (m, uses)
        })
        .collect()
}

/// Search's modules form layers too: the contract at the bottom, the per-file search and its record,
/// the page, the pipeline. A circle means two modules cannot be read, or changed, one at a time.
#[test]
fn search_has_no_import_circles() {
    let graph = import_graph("search");
    assert!(graph["search::grep::pipeline"].contains("search::grep::worker"));
    assert!(
        graph["search::contract"].is_empty(),
        "the contract is a leaf: {:?}",
        graph["search::contract"]
    );
    let found = circles(&graph);
    assert!(found.is_empty(), "import circles in src/search: {found:?}");
}

/// Core's modules form layers too: the syscall layer at the bottom, the gate above the opens, the
/// sandbox's admission calls apart from the gate (so the gate does not name the sandbox holding it).
#[test]
fn core_has_no_import_circles() {
    let graph = import_graph("core");
    let found = circles(&graph);
    assert!(found.is_empty(), "import circles in src/core: {found:?}");
    assert!(graph["core::admission"].contains("core::admit"));
}

/// The tools' modules form layers too: the router and the dialects' names below the dialect
/// table, a dialect's edit apart from the text it reads (the rule found both circles once the
/// imports through lib.rs were written out).
#[test]
fn tools_has_no_import_circles() {
    let graph = import_graph("tools");
    let found = circles(&graph);
    assert!(found.is_empty(), "import circles in src/tools: {found:?}");
    assert!(graph["tools::router"].contains("tools::profile::kind"));
}

#[test]
fn no_source_file_is_too_long_to_read() {
    let root = src();
    let mut files = Vec::new();
    sources(&root, &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let n = code(&std::fs::read_to_string(f).unwrap()).len();
            (n > MAX_LINES)
                .then(|| format!("{} ({n} lines)", f.strip_prefix(&root).unwrap().display()))
        })
        .collect();
    assert!(long.is_empty(), "split these files: {long:?}");
}

/// Lines a function may span, from its `fn` line to its closing brace, outside test items.
const MAX_FN_LINES: usize = 120;

/// The functions over [`MAX_FN_LINES`] still to split, each with why it waits (file, function).
/// An entry that no longer applies fails the rule, so the list only shrinks.
const LONG_FNS: &[(&str, &str, &str)] = &[];

/// The name of the function an item line declares (`pub(crate) const unsafe fn name<…>(`), if any.
fn fn_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    loop {
        let word = rest.split([' ', '(']).next().unwrap_or("");
        match word {
            "pub" if rest.starts_with("pub(") => rest = &rest[rest.find(')')? + 1..],
            "pub" | "const" | "async" | "unsafe" | "default" => rest = &rest[word.len()..],
            "extern" => rest = rest[6..].trim_start().trim_start_matches(|c| c != ' '),
            "fn" => {
                let name = rest[2..].trim_start();
                let end = name
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(name.len());
                return (end > 0 && rest[2..].starts_with(' ')).then(|| &name[..end]);
            }
            _ => return None,
        }
        rest = rest.trim_start();
    }
}

/// The functions of a source text spanning more than `max` lines (name, first line, lines), those
/// in `#[cfg(test)]` items aside. A function nested in another is measured too.
fn long_functions(text: &str, max: usize) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        if t.starts_with("#[cfg(test)]") {
            i = end_of_item(&lines, i + 1);
            continue;
        }
        if !t.starts_with("//") {
            if let Some(name) = fn_name(t) {
                let n = end_of_item(&lines, i) - i;
                if n > max {
                    out.push((name.to_string(), i + 1, n));
                }
            }
        }
        i += 1;
    }
    out
}

#[test]
fn no_function_is_too_long_to_read() {
    let root = src();
    let mut files = Vec::new();
    sources(&root, &mut files);
    let mut long = Vec::new();
    let mut listed = BTreeSet::new();
    for f in &files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for (name, line, n) in long_functions(&std::fs::read_to_string(f).unwrap(), MAX_FN_LINES) {
            if LONG_FNS.iter().any(|(r, m, _)| *r == rel && *m == name) {
                listed.insert((rel.clone(), name));
            } else {
                long.push(format!("{rel}:{line} fn {name} ({n} lines)"));
            }
        }
    }
    assert!(
        long.is_empty(),
        "split these functions (at most {MAX_FN_LINES} lines each):\n{}",
        long.join("\n")
    );
    let stale: Vec<_> = LONG_FNS
        .iter()
        .filter(|(r, m, _)| !listed.contains(&(r.to_string(), m.to_string())))
        .collect();
    assert!(
        stale.is_empty(),
        "these are within {MAX_FN_LINES} lines now (or gone): take them off LONG_FNS: {stale:?}"
    );
}

/// What names a filesystem call (or the types that make one): outside src/core/ none may appear.
/// The last three catch a path opened through a type core lends out (`core::dirs::File` reads an
/// admitted descriptor; it must not open a path).
const FS_CALLS: &[&str] = &[
    "rustix::fs",
    "libc::",
    "std::fs",
    "cap_std",
    "cap_fs_ext",
    "File::open",
    "File::create",
    "OpenOptions",
];

/// The files outside src/core/ that may name one, each for a path that no agent chose.
const FS_EXCEPTIONS: &[(&str, &str, &str)] = &[
    // The config file's own path comes from the operator's command line.
    (
        "config/mod.rs",
        "std::fs",
        "reads the operator's config file",
    ),
    // The roots a config file names are the operator's, checked to be directories before use.
    (
        "config/build.rs",
        "std::fs",
        "checks the operator's configured roots exist",
    ),
    // `rootbound grep` is the operator's own command: its working directory, the paths it is
    // given, its `-f`/`--ignore-file` files.
    (
        "cli/grep/paths.rs",
        "std::fs",
        "canonicalizes the operator's working directory",
    ),
    (
        "cli/grep/settings.rs",
        "std::fs",
        "reads the operator's pattern and ignore files",
    ),
    // The HTTP door's token file comes from the operator's command line (never from an agent).
    (
        "mcp/http/tokens.rs",
        "std::fs",
        "reads the operator's token file",
    ),
    (
        "mcp/http/tokens.rs",
        "File::open",
        "opens the operator's token file",
    ),
    // Unit tests of the rg printers make their fixture tree.
    (
        "cli/grep/print/tests.rs",
        "std::fs",
        "builds a test fixture",
    ),
];

/// The lines outside src/core/ that name a filesystem call and are not listed in `FS_EXCEPTIONS`.
fn fs_calls_outside_core(root: &Path, files: &[PathBuf]) -> Vec<String> {
    let mut bad = Vec::new();
    for f in files {
        let rel = f.strip_prefix(root).unwrap();
        if rel.starts_with("core") {
            continue;
        }
        let name = rel.to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in code(&text) {
            for token in FS_CALLS {
                let excepted = FS_EXCEPTIONS
                    .iter()
                    .any(|(file, t, _)| *file == name && t == token);
                if line.contains(token) && !excepted {
                    bad.push(format!("{name}:{n}: {}", line.trim()));
                }
            }
        }
    }
    bad
}

#[test]
fn only_core_makes_filesystem_calls() {
    let root = src();
    let mut files = Vec::new();
    sources(&root, &mut files);
    let bad = fs_calls_outside_core(&root, &files);
    assert!(
        bad.is_empty(),
        "filesystem calls outside src/core/ (go through core, or list a justified exception):\n{}",
        bad.join("\n")
    );
    // Every exception still names a file that makes such a call (else it is stale).
    for (file, token, why) in FS_EXCEPTIONS {
        let text = std::fs::read_to_string(root.join(file)).unwrap_or_default();
        assert!(
            text.lines()
                .any(|l| !l.trim_start().starts_with("//") && l.contains(token)),
            "stale exception {file} ({why})"
        );
    }
}

/// What names a syscall inside src/core/: the filesystem calls above and anything of rustix (its
/// errno and process calls too), which only the syscall layer names, so that each call is made
/// once, with its flags forced there, and fails with the call and its names kept.
const CORE_SYSCALLS: &[&str] = &[
    "rustix::",
    "libc::",
    "std::fs",
    "cap_std",
    "cap_fs_ext",
    "File::open",
    "File::create",
    "OpenOptions",
];

/// The syscall layer of src/core/ (a file, or a folder once it grows).
fn is_syscall_layer(rel: &str) -> bool {
    rel == "core/sys.rs" || rel.starts_with("core/sys/")
}

/// The files of src/core/ besides the syscall layer that may name a syscall, each with why. None
/// today: a new one needs a reason no wrapper in `core/sys.rs` can serve.
const CORE_SYSCALL_EXCEPTIONS: &[(&str, &str, &str)] = &[];

/// The lines of a file (`rel` from src/) in src/core/ but outside its syscall layer that name a
/// syscall and are not listed in `CORE_SYSCALL_EXCEPTIONS`.
fn syscalls_outside_the_layer(rel: &str, text: &str) -> Vec<String> {
    if !rel.starts_with("core/") || is_syscall_layer(rel) {
        return Vec::new();
    }
    let excepted = |token: &&str| {
        CORE_SYSCALL_EXCEPTIONS
            .iter()
            .any(|(file, t, _)| *file == rel && t == token)
    };
    code(text)
        .into_iter()
        .filter(|(_, l)| CORE_SYSCALLS.iter().any(|t| l.contains(t) && !excepted(t)))
        .map(|(n, l)| format!("{rel}:{n}: {}", l.trim()))
        .collect()
}

/// One syscall layer (libpathrs-style): inside src/core/ only `core/sys.rs` names rustix, `std::fs`
/// or cap-std; every other file of core calls its wrappers.
#[test]
fn only_the_syscall_layer_makes_syscalls_in_core() {
    let bad: Vec<String> = source_texts()
        .iter()
        .flat_map(|(rel, text)| syscalls_outside_the_layer(rel, text))
        .collect();
    assert!(
        bad.is_empty(),
        "a syscall named in src/core/ outside its syscall layer (add or use a wrapper in \
         core/sys.rs, or list a justified exception):\n{}",
        bad.join("\n")
    );
    for (file, token, why) in CORE_SYSCALL_EXCEPTIONS {
        let text = std::fs::read_to_string(src().join(file)).unwrap_or_default();
        assert!(
            code(&text).iter().any(|(_, l)| l.contains(token)),
            "stale exception {file} ({why})"
        );
    }
}

/// The thread-local state the crate keeps, each with why it holds nothing of a call: a call's
/// budget (deadline, cancel switch, progress) travels down the call as a value (`Within`), so that
/// no call sees another's budget and no layer can miss it.
const THREAD_LOCALS: &[(&str, &str)] = &[
    (
        "search/grep/worker.rs",
        "a search thread's reusable read buffer",
    ),
    ("index/scan.rs", "an index build thread's reusable buffers"),
    (
        "cli/grep/print/mod.rs",
        "the command line's printer state, one command per process",
    ),
];

/// Every source file under `src/`: its path from there (with `/`) and its text.
fn source_texts() -> Vec<(String, String)> {
    let root = src();
    let mut files = Vec::new();
    sources(&root, &mut files);
    files
        .iter()
        .map(|f| {
            let rel = f
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(f).unwrap())
        })
        .collect()
}

/// What only the search may say about a pattern or a file, and where it says it: the
/// index reads a pattern through the matcher's own parse (no parser, no case rule of its own),
/// and what a file without a match records is one rule in `walk/outcome.rs`, with the one
/// longest-line bound. Each entry: a word, and the one file (`None`: no file) whose code may name it.
const ONE_HOME: &[(&str, Option<&str>)] = &[
    // A parse of the agent's pattern, or the escaping and joining that precedes it.
    ("regex_syntax::ast", Some("search/matcher.rs")),
    ("ParserBuilder", Some("search/matcher.rs")),
    ("TranslatorBuilder", Some("search/matcher.rs")),
    ("regex_syntax::parse", None),
    ("regex_syntax::escape", Some("search/matcher.rs")),
    // The smart-case decision: ours, once; grep-regex is never asked to make its own.
    ("is_uppercase", Some("search/matcher.rs")),
    ("case_smart(", None),
    // The outcome of a file without a match, and the bounds it rests on.
    ("fn no_match_outcome", Some("walk/outcome.rs")),
    ("const LONGEST_LINE", Some("walk/outcome.rs")),
];

/// Files (under src/, by their path there) whose code names a word of [`ONE_HOME`] outside its
/// home. The command line's tools (`tools/profile/`) compare names, not patterns: not looked at.
fn homeless(texts: &[(String, String)]) -> Vec<String> {
    let mut bad = Vec::new();
    for (rel, text) in texts {
        if rel.starts_with("tools/profile/") {
            continue;
        }
        for (n, line) in code(text) {
            for (word, home) in ONE_HOME {
                if line.contains(word) && *home != Some(rel.as_str()) {
                    bad.push(format!("{rel}:{n}: {word} (its home: {home:?})"));
                }
            }
        }
    }
    bad
}

#[test]
fn the_index_reads_patterns_and_outcomes_through_the_searchs_rules() {
    let texts = source_texts();
    let bad = homeless(&texts);
    assert!(
        bad.is_empty(),
        "a second home for a rule the index relies on:\n{}",
        bad.join("\n")
    );
    // Each rule is at home, and the index's pruner and the search's worker both apply the outcome.
    let has = |file: &str, word: &str| {
        texts
            .iter()
            .any(|(r, t)| r == file && code(t).iter().any(|(_, l)| l.contains(word)))
    };
    assert!(has("search/matcher.rs", "fn case_insensitive("));
    assert!(has("walk/outcome.rs", "fn no_match_outcome"));
    assert!(has("index/mod.rs", ".no_match_outcome("));
    assert!(has("search/grep/worker.rs", "reading.too_large("));
    assert!(has("search/grep/worker.rs", "v.outcome"));
    // A live walk and a replayed one take each entry through one rule of deadline, cursor and
    // skips (`walk/pace.rs`: `arrive`, or `arrive_lent` for a replay's recorded paths, both
    // `arrive_at`), and neither looks at the clock on its own.
    for f in ["walk/mod.rs", "search/grep/walk_side.rs"] {
        assert!(
            has(f, "pace.arrive(") || has(f, "pace.arrive_lent("),
            "{f} does not walk at the walk's pace"
        );
        assert!(!has(f, "expired"), "{f} reads the deadline on its own");
    }
    // The rule sees a violation: the index parsing on its own, grep-regex deciding smart case.
    let planted = |rel: &str, line: &str| homeless(&[(rel.to_string(), format!("{line}\n"))]);
    assert_eq!(
        planted(
            "index/query.rs",
            "let p = regex_syntax::ast::parse::ParserBuilder::new();"
        )
        .len(),
        2
    );
    assert_eq!(planted("search/matcher.rs", "b.case_smart(true);").len(), 1);
    assert_eq!(
        planted("index/scan.rs", "pub(crate) const LONGEST_LINE: usize = 1;").len(),
        1
    );
}

#[test]
fn no_call_state_is_thread_local() {
    let mut found = Vec::new();
    for (rel, text) in source_texts() {
        if code(&text).iter().any(|(_, l)| l.contains("thread_local!")) {
            found.push(rel);
        }
    }
    let allowed: Vec<&str> = THREAD_LOCALS.iter().map(|(f, _)| *f).collect();
    let bad: Vec<&String> = found
        .iter()
        .filter(|f| !allowed.contains(&f.as_str()))
        .collect();
    assert!(
        bad.is_empty(),
        "thread-local state in {bad:?}: pass a call's state down as a value, or list why it holds \
         nothing of a call"
    );
    for f in allowed {
        assert!(found.iter().any(|x| x == f), "stale entry {f}");
    }
}

/// The lines of `text` that match on a tool's name: a `ToolName::X =>` arm (or `ToolName::X |`),
/// where a tool's fact would live outside its row.
fn tool_matches(text: &str) -> Vec<usize> {
    code(text)
        .into_iter()
        .filter(|(_, l)| {
            l.split("ToolName::").skip(1).any(|rest| {
                let after = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
                let after = after.trim_start_matches([')', ' ']);
                after.starts_with("=>") || (after.starts_with('|') && !after.starts_with("||"))
            })
        })
        .map(|(i, _)| i)
        .collect()
}

/// Each tool's facts live in its row (`tools/tool.rs`, the table in `tools/catalog.rs`): nothing
/// else matches on a tool's name to say something about it.
#[test]
fn no_code_matches_on_a_tool_outside_its_row() {
    let mut bad = Vec::new();
    for (rel, text) in source_texts() {
        if rel == "tools/catalog.rs" {
            continue;
        }
        bad.extend(
            tool_matches(&text)
                .into_iter()
                .map(|i| format!("{rel}:{i}")),
        );
    }
    assert!(
        bad.is_empty(),
        "a match on a tool's name at {bad:?}: put the fact in the tool's row (a `Tool` item)"
    );
}

/// The gate's two halves, which outside src/core/ may only be reached through an admission that
/// applies both (`Sandbox::admit_listed`, `Sandbox::open_found`, `Sandbox::reopened`): a site
/// calling one could forget the other.
const GATE_HALVES: &[&str] = &[".denied(", ".links_ok("];

/// The lines of a file (`rel` from src/) that call a half of the gate outside src/core/.
fn gate_halves_outside_core(rel: &str, text: &str) -> Vec<String> {
    if rel.starts_with("core/") {
        return Vec::new();
    }
    code(text)
        .into_iter()
        .filter(|(_, l)| GATE_HALVES.iter().any(|h| l.contains(h)))
        .map(|(n, l)| format!("{rel}:{n}: {}", l.trim()))
        .collect()
}

/// An entry is admitted whole: no layer above core checks the deny rules or the hard-link policy
/// by hand, where it could check one and forget the other (docs/DESIGN.md, "One gate").
#[test]
fn only_core_calls_a_half_of_the_gate() {
    let bad: Vec<String> = source_texts()
        .iter()
        .flat_map(|(rel, text)| gate_halves_outside_core(rel, text))
        .collect();
    assert!(
        bad.is_empty(),
        "a deny or hard-link check by hand outside src/core/ (admit through the sandbox: \
         `admit_listed`, `open_found`, `reopened`; `denied_fn` for ignore files):\n{}",
        bad.join("\n")
    );
}

/// Whether `word` stands in `line` as a whole identifier (no identifier character either side).
fn has_word(line: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(word).any(|(i, _)| {
        !line[..i].chars().next_back().is_some_and(ident)
            && !line[i + word.len()..].chars().next().is_some_and(ident)
    })
}

/// The lines of a file (`rel` from src/) outside src/core/ that name the admission gate: its type
/// `Gate`, or a sandbox's `gate` field (through which its methods are called).
fn gate_named_outside_core(rel: &str, text: &str) -> Vec<String> {
    if rel.starts_with("core/") {
        return Vec::new();
    }
    code(text)
        .into_iter()
        .filter(|(_, l)| {
            has_word(l, "Gate")
                || l.match_indices(".gate").any(|(i, _)| {
                    !l[i + 5..]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
        })
        .map(|(n, l)| format!("{rel}:{n}: {}", l.trim()))
        .collect()
}

/// The gate is core's: the layers above reach it only through the sandbox's admission calls
/// (`src/core/admit.rs`), which answer with an admitted object or a refusal, so no tool, walk or
/// index asks a policy question of its own (docs/DESIGN.md, "One gate").
#[test]
fn only_core_names_the_gate() {
    let bad: Vec<String> = source_texts()
        .iter()
        .flat_map(|(rel, text)| gate_named_outside_core(rel, text))
        .collect();
    assert!(
        bad.is_empty(),
        "the admission gate named outside src/core/ (use the sandbox's admission calls: \
         `open_found`, `admit_root`, `admitted_roots`, `admit_listed`, `reopened`, `denied_fn`; a \
         write's refusals come from `target`, `dir_target`, `edit_target`, `move_targets`):\n{}",
        bad.join("\n")
    );
}

/// The lines of a file (`rel` from src/) outside src/core/ that take the lock between writes and
/// moves themselves: `mutate::shared`/`mutate::exclusive`, the names brought in by a `use` of
/// `core::mutate`, or the lock itself (`WRITES`; not a tool row's `const WRITES`).
fn write_guards_outside_core(rel: &str, text: &str) -> Vec<String> {
    if rel.starts_with("core/") {
        return Vec::new();
    }
    code(text)
        .into_iter()
        .filter(|(_, l)| {
            let t = l.trim_start();
            let used = (t.starts_with("use ") || t.starts_with("pub(crate) use "))
                && l.contains("mutate")
                && (has_word(l, "shared") || has_word(l, "exclusive"));
            used || l.contains("mutate::shared")
                || l.contains("mutate::exclusive")
                || l.contains("WRITES.read")
                || l.contains("WRITES.write")
        })
        .map(|(n, l)| format!("{rel}:{n}: {}", l.trim()))
        .collect()
}

/// A write's share of the lock against moves is taken in core when its destination is admitted
/// and travels in the destination (`Dest`; a move's two ends in one `MovePair` holding it alone):
/// no write tool has a lock to remember.
#[test]
fn no_write_tool_takes_the_write_lock() {
    let bad: Vec<String> = source_texts()
        .iter()
        .flat_map(|(rel, text)| write_guards_outside_core(rel, text))
        .collect();
    assert!(
        bad.is_empty(),
        "the write lock taken outside src/core/ (it comes with `Sandbox::target` and \
         `Sandbox::move_targets`):\n{}",
        bad.join("\n")
    );
}

/// The lines of `text` that make a trait object of `Any` (`dyn Any`, `dyn std::any::Any`) other than
/// a panic's payload (`dyn Any + Send`, what `catch_unwind` hands over).
fn any_objects(text: &str) -> Vec<usize> {
    code(text)
        .into_iter()
        .filter(|(_, l)| {
            l.match_indices("dyn ").any(|(i, _)| {
                let rest = l[i + 4..].trim_start();
                let rest = ["std::any::", "core::any::"]
                    .iter()
                    .find_map(|p| rest.strip_prefix(p))
                    .unwrap_or(rest);
                let Some(bounds) = rest.strip_prefix("Any") else {
                    return false;
                };
                if bounds.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                    return false;
                }
                let end = bounds
                    .find(['>', ')', ',', ';', '=', '{'])
                    .unwrap_or(bounds.len());
                let extra: Vec<&str> = bounds[..end]
                    .split('+')
                    .map(str::trim)
                    .filter(|b| !b.is_empty() && *b != "'static")
                    .collect();
                extra != ["Send"]
            })
        })
        .map(|(n, _)| n)
        .collect()
}

/// No value is typed away as `Any` and downcast back: the compiler checks every type (the index
/// was once kept so in core's sandbox, which cannot name it; the engine holds it typed). A panic's
/// payload is the one `Any` there is.
#[test]
fn no_value_is_typed_away_as_any() {
    let bad: Vec<String> = source_texts()
        .iter()
        .flat_map(|(rel, text)| {
            any_objects(text)
                .into_iter()
                .map(move |n| format!("{rel}:{n}"))
        })
        .collect();
    assert!(
        bad.is_empty(),
        "a `dyn Any` that is not a panic's payload at {bad:?}: hold the value with its type"
    );
}

/// The fields of struct `name` in `text` that code outside core could name: every `pub` one but
/// `pub(in crate::core)`, `pub(super)` (from a module of core) and `pub(self)`.
fn open_fields(text: &str, name: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let head = format!("struct {name} {{");
    // `pub struct`, `pub(crate) struct`...: the struct's own visibility is not the question.
    let declares = |l: &&str| {
        let l = l.trim_start();
        let l = match l.strip_prefix("pub(") {
            Some(rest) => rest.split_once(')').map_or(l, |(_, r)| r.trim_start()),
            None => l.strip_prefix("pub ").unwrap_or(l),
        };
        l.starts_with(&head)
    };
    let Some(start) = lines.iter().position(declares) else {
        return vec![format!("no `{head}`")];
    };
    lines[start + 1..]
        .iter()
        .map(|l| l.trim())
        .take_while(|l| *l != "}")
        .filter(|l| {
            l.starts_with("pub")
                && !["pub(in crate::core)", "pub(super)", "pub(self)"]
                    .iter()
                    .any(|p| l.starts_with(p))
        })
        .map(String::from)
        .collect()
}

/// Core's sandbox keeps its fields: the layers above ask it questions through its methods
/// (locate, open, admit, display, the mutations, the accessors), so what it holds can change
/// without them, and no tool reaches past the gate into a root's handle by a field.
#[test]
fn core_sandbox_has_no_field_seen_outside_core() {
    let text = std::fs::read_to_string(src().join("core/sandbox.rs")).unwrap();
    let open = open_fields(&text, "Sandbox");
    assert!(
        open.is_empty(),
        "fields of core's `Sandbox` visible outside src/core/: {open:?} (make them private and \
         add a method that answers what the layer above asks)"
    );
}

/// What core keeps of a root, and the calls that hand its roots out whole: the layers above
/// name none of them (they ask `core/roots.rs`: `root_name`, `root_canonical`, `root_identity`,
/// `open_in_root`, `reopen`, `open_for_rules`...).
const ROOT_INNARDS: &[&str] = &[".read_roots()", ".write_root_entry()", "RootDir"];

/// Whether `line` names core's `Root` type: the word `Root`, not in a string (`b"Root"`, a PDF's
/// key) nor part of another name (`RootId`, `RootIndex`).
fn names_root_type(line: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices("Root").any(|(i, _)| {
        let before = line[..i].chars().next_back();
        !before.is_some_and(|c| ident(c) || c == '"')
            && !line[i + 4..]
                .chars()
                .next()
                .is_some_and(|c| ident(c) || c == '"')
    })
}

/// The lines of a file (`rel` from src/) outside src/core/ that reach a root's innards.
fn root_innards_outside_core(rel: &str, text: &str) -> Vec<String> {
    if rel.starts_with("core/") {
        return Vec::new();
    }
    code(text)
        .into_iter()
        .filter(|(_, l)| ROOT_INNARDS.iter().any(|w| l.contains(w)) || names_root_type(l))
        .map(|(n, l)| format!("{rel}:{n}: {}", l.trim()))
        .collect()
}

/// A root is core's like the sandbox holding it: its fields (the directory handle, the paths it
/// was known by) are private to core, and no layer above takes the list of roots to read them, so
/// no tool, walk or index opens from a root's handle past the gate, and what a root holds can
/// change without them.
#[test]
fn code_above_core_asks_of_a_root_and_reads_none() {
    let text = std::fs::read_to_string(src().join("core/sandbox.rs")).unwrap();
    let open = open_fields(&text, "Root");
    assert!(
        open.is_empty(),
        "fields of core's `Root` visible outside src/core/: {open:?}"
    );
    let bad: Vec<String> = source_texts()
        .iter()
        .flat_map(|(rel, text)| root_innards_outside_core(rel, text))
        .collect();
    assert!(
        bad.is_empty(),
        "a root's innards reached outside src/core/ (ask core: `root_name`, `root_canonical`, \
         `open_in_root`, `reopen`, `open_for_rules`...):\n{}",
        bad.join("\n")
    );
    // The rule sees one: a field read through the list of roots, a root built by hand.
    let reads = "let r = &sb.read_roots()[0];\nlet d = Root { name, dir };\n\
                 use crate::core::sandbox::{Root, Sandbox};\n// read_roots()\n\
                 let n = sb.root_name(0);\nlet h = sb.has_read_roots();\nlet c = RootId::Read(0);\nlet t = d.get(b\"Root\");\n";
    assert_eq!(root_innards_outside_core("index/x.rs", reads).len(), 3);
    assert!(root_innards_outside_core("core/x.rs", reads).is_empty());
    let root =
        "pub(crate) struct Root {\n    pub name: String,\n    pub(in crate::core) dir: Dir,\n}\n";
    assert_eq!(open_fields(root, "Root"), ["pub name: String,"]);
}

/// Raw descriptor types and traits, and the calls that take a descriptor out of a handle: core's
/// alone (`src/core/handle.rs`). The layers above hold core's handles (`Opened`, an `Admitted` one,
/// a walk's `DirFd`) and hand them to core's functions whole.
const RAW_FD_WORDS: &[&str] = &[
    "OwnedFd",
    "BorrowedFd",
    "AsFd",
    "AsRawFd",
    "RawFd",
    "FromRawFd",
    "IntoRawFd",
];
const RAW_FD_PATHS: &[&str] = &[
    ".as_fd()",
    ".as_raw_fd()",
    ".into_raw_fd()",
    "std::os::fd",
    "std::os::unix::io",
];

/// The lines of a file (`rel` from src/) outside src/core/ that name a raw descriptor.
fn raw_descriptors_outside_core(rel: &str, text: &str) -> Vec<String> {
    if rel.starts_with("core/") {
        return Vec::new();
    }
    code(text)
        .into_iter()
        .filter(|(_, l)| {
            RAW_FD_WORDS.iter().any(|w| has_word(l, w))
                || RAW_FD_PATHS.iter().any(|p| l.contains(p))
        })
        .map(|(n, l)| format!("{rel}:{n}: {}", l.trim()))
        .collect()
}

/// Admission is carried to the end: no layer above core holds a descriptor, so none can open,
/// stat or read past the gate with one, nor hand one to code that does. The descriptor of an
/// opened object is a field core keeps (the compiler then refuses `opened.fd` above core; this
/// rule keeps it kept), and core's handles give it only to core (`core::handle::fd`).
#[test]
fn no_layer_above_core_touches_a_descriptor() {
    let text = std::fs::read_to_string(src().join("core/open.rs")).unwrap();
    let mut bad: Vec<String> = open_fields(&text, "Opened")
        .into_iter()
        .filter(|f| f.contains("fd"))
        .map(|f| format!("core/open.rs: `Opened`'s descriptor open to the crate: {f}"))
        .collect();
    bad.extend(
        source_texts()
            .iter()
            .flat_map(|(rel, text)| raw_descriptors_outside_core(rel, text)),
    );
    assert!(
        bad.is_empty(),
        "a raw descriptor outside src/core/ (hand core's handle to a core function: \
         `io::pread_exact`, `dirs::stat_fd`, `dirs::stat_entry`, `dirs::read_entries`, \
         `Sandbox::open_found`, `IgnoreLevel::load`...):\n{}",
        bad.join("\n")
    );
}

/// Where a file (`rel` from src/) declares a type named `Admitted` (a struct, enum, union, trait
/// or type alias, or a name imported as one), outside comments.
fn admitted_types(rel: &str, text: &str) -> Vec<String> {
    let declares = |l: &str| {
        ["struct", "enum", "union", "trait", "type", "as"]
            .iter()
            .any(|k| {
                l.split_whitespace()
                    .collect::<Vec<_>>()
                    .windows(2)
                    .any(|w| {
                        w[0] == *k
                            && w[1]
                                .split(|c: char| !c.is_alphanumeric() && c != '_')
                                .next()
                                == Some("Admitted")
                    })
            })
    };
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//") && declares(l))
        .map(|(n, l)| format!("{rel}:{}: {}", n + 1, l.trim()))
        .collect()
}

/// One type says the gate said yes: `core::admit::Admitted`. A second type of that name (a
/// listing's own, a write's own) would let a reader, or a signature, take one for the other.
#[test]
fn one_type_is_named_admitted() {
    let all: Vec<String> = source_texts()
        .iter()
        .flat_map(|(rel, text)| admitted_types(rel, text))
        .collect();
    assert!(
        all.len() == 1 && all[0].starts_with("core/admit.rs:"),
        "exactly one type named `Admitted` in src/, in core/admit.rs: {all:?}"
    );
}

/// Where `text` cites an issue by number (the word, in any case, maybe plural, then a space and a
/// number, maybe after `#`): its 1-based lines.
fn issue_citations(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.to_ascii_lowercase();
            l.match_indices("issue").any(|(i, _)| {
                let rest = l[i + 5..].trim_start_matches('s');
                let rest = rest.strip_prefix(' ').unwrap_or("").trim_start_matches('#');
                rest.starts_with(|c: char| c.is_ascii_digit())
            })
        })
        .map(|(n, _)| n + 1)
        .collect()
}

/// A test says what it guards, not which ticket asked for it: an issue number means nothing to a
/// reader without the tracker, and goes stale when the issue closes.
#[test]
fn no_test_cites_an_issue_number() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    texts(&repo.join("tests"), &mut files);
    texts(&repo.join("python/tests"), &mut files);
    let bad: Vec<String> = files
        .iter()
        .filter(|f| f.extension().is_some_and(|x| x != "md"))
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            let shown = f.strip_prefix(repo).unwrap_or(f).display().to_string();
            issue_citations(&text)
                .into_iter()
                .map(move |n| format!("{shown}:{n}"))
        })
        .collect();
    assert!(bad.is_empty(), "a test cites an issue by number at {bad:?}");
    // Spelt `ISSUE_` here so that this file cites nothing itself.
    let cites =
        "// (ISSUE_ 39)\n// Issue_ #12\n// the ISSUE_s 4 and 5\n// an ISSUE_\n// ISSUE_-free\n"
            .replace("ISSUE_", "issue")
            .replace("Issue_", "Issue");
    assert_eq!(issue_citations(&cites), [1, 2, 3]);
}

#[test]
fn the_rules_see_a_violation() {
    // The checks above must be able to fail: a core line naming tools is caught, a grouped use too.
    assert_eq!(
        crate_modules("use crate::tools::read::ReadArgs;"),
        ["tools"]
    );
    assert!(
        crate_modules("use crate::{core::open, search::page::Page};")
            .contains(&"search".to_string())
    );
    // A re-exported name counts as the module defining it: `crate::GrepArgs` is search's.
    assert_eq!(crate_modules("let s: crate::Sandbox = x;"), ["engine"]);
    assert_eq!(crate_modules("fn f(w: &crate::Within) {}"), ["engine"]);
    assert_eq!(crate_modules("fn f(a: &crate::GrepArgs) {}"), ["search"]);
    // A name lib.rs takes by a glob of `tools::api` is the tools' too.
    assert_eq!(crate_modules("fn f(a: &crate::ReadArgs) {}"), ["tools"]);
    assert!(crate_modules("use crate::{Kind, GrepArgs};").contains(&"search".to_string()));
    // A use over several lines is one line; the code after a test module is read.
    let after = "fn a() {}\n#[cfg(test)]\nmod t {\n    fn x() { let _ = ('{', \"}\"); }\n}\n\
                 use crate::{\n    core::open,\n    search::page::Page,\n};\n";
    let lines = code(after);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[1].0, 6);
    assert!(crate_modules(&lines[1].1).contains(&"search".to_string()));
    assert_eq!(code("#[cfg(test)]\nmod t;\nfn b() {}\n").len(), 1);
    // A function over the line cap is caught, after a test module too; one at the cap, one in a
    // test module, and a signature with `;` in a type are measured to their closing brace.
    let body = |name: &str, n: usize| {
        format!(
            "pub(crate) fn {name}(a: [u8; 2]) {{\n{}}}\n",
            "    let _ = '{';\n".repeat(n - 2)
        )
    };
    let text = format!(
        "{}#[cfg(test)]\nmod t {{\n{}}}\n{}{}",
        body("at_cap", MAX_FN_LINES),
        body("in_tests", MAX_FN_LINES + 5),
        body("over", MAX_FN_LINES + 1),
        "fn x();\n",
    );
    assert_eq!(
        long_functions(&text, MAX_FN_LINES),
        [("over".to_string(), 2 * MAX_FN_LINES + 9, MAX_FN_LINES + 1)]
    );
    // A string over two lines, and raw strings holding `"` and `\`, hide their braces.
    let strings = r##"fn s() {
    let _ = "{ \
        }";
    let _ = (r#"}"{"#, r"\", br"}");
}
fn t() {}
"##;
    assert_eq!(end_of_item(&strings.lines().collect::<Vec<_>>(), 0), 5);
    assert_eq!(
        fn_name("    pub(in crate::a) const unsafe fn f<T>("),
        Some("f")
    );
    assert_eq!(fn_name("extern \"C\" fn g()"), Some("g"));
    assert_eq!(fn_name("let fnord = 1;"), None);
    // A filesystem call in a tool is caught; the same line in core is not.
    let dir = tempfile::tempdir().unwrap();
    for layer in ["tools", "core"] {
        std::fs::create_dir(dir.path().join(layer)).unwrap();
        std::fs::write(
            dir.path().join(layer).join("x.rs"),
            "fn f(d: &Dir) { rustix::fs::unlinkat(d, \"a\", AtFlags::empty()); }\n",
        )
        .unwrap();
    }
    let files = [dir.path().join("tools/x.rs"), dir.path().join("core/x.rs")];
    let bad = fs_calls_outside_core(dir.path(), &files);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(bad[0].starts_with("tools/x.rs:1:"));
    assert_eq!(
        code("fn a() {}\n// crate::tools\n#[cfg(test)]\nmod t {}").len(),
        1
    );
    // Inside core, a syscall named outside the syscall layer is caught (an errno too), in a test
    // module or in the layer it is not.
    let sys = "use rustix::io::Errno;\nfn g(d: &Dir) { let _ = rustix::fs::fstat(d); }\n\
               #[cfg(test)]\nmod t { fn h() { std::fs::write(\"a\", \"b\").unwrap(); } }\n";
    assert_eq!(syscalls_outside_the_layer("core/open.rs", sys).len(), 2);
    assert!(syscalls_outside_the_layer("core/sys.rs", sys).is_empty());
    assert!(syscalls_outside_the_layer("core/sys/open.rs", sys).is_empty());
    assert!(syscalls_outside_the_layer("tools/x.rs", sys).is_empty());
    // The circle finder sees a circle through a grouped `super::` use and a `crate::` path, and
    // not a child naming its parent.
    let modules: BTreeSet<String> = ["s", "s::a", "s::b", "s::c"].map(String::from).into();
    let a = module_uses("s::a", "use super::{b::X, Y};", &modules);
    assert_eq!(a, ["s::b".to_string()].into());
    let b = module_uses("s::b", "let x = crate::s::a::f();", &modules);
    let c = module_uses("s::c", "use super::Z;", &modules);
    assert!(c.is_empty());
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("s::a".to_string(), a),
        ("s::b".to_string(), b),
        ("s::c".to_string(), c),
    ]
    .into();
    assert_eq!(circles(&graph).len(), 1);
    // A match arm on a tool is seen; naming one (a dialect's engine) or `||` is not.
    let arms =
        "match t {\n    ToolName::ReadFile => 1,\n    ToolName::Glob | ToolName::Stat => 2,\n}\n\
                engine: ToolName::Glob,\nif a == ToolName::Stat || b {}\nSome(ToolName::Stat) => 3,\n";
    assert_eq!(tool_matches(arms), [2, 3, 7]);
    // A half of the gate called in a tool is seen, in core or a comment it is not.
    let halves = "// gate.denied(root, rel, false)\nif gate.denied(id, &rel, d) {}\n\
                  let ok = self.gate.links_ok(&st);\n";
    assert_eq!(gate_halves_outside_core("tools/x.rs", halves).len(), 2);
    assert!(gate_halves_outside_core("core/x.rs", halves).is_empty());
    // The gate named in a tool or a walk is seen (its type, a method called through the field, a
    // field of that type, after a test module too); in core, in a comment, or as part of another
    // name (`Gated`, `.gates`) it is not.
    let gate =
        "// Gate::open\nuse crate::core::admit::{Gate, RootId};\nstruct W<'a> { gate: &'a Gate }\n\
                #[cfg(test)]\nmod t {}\nlet ok = self.gate.root_denied(id);\nlet g = &sb.gate;\n\
                struct Gated;\nlet n = self.gates.len();\n";
    let seen = gate_named_outside_core("walk/x.rs", gate);
    assert_eq!(seen.len(), 4, "{seen:?}");
    assert!(gate_named_outside_core("core/x.rs", gate).is_empty());
    // The write lock taken in a tool is seen, by path or by a grouped use; `shared` elsewhere is not.
    let guards = "use crate::core::mutate::{publish, shared, Existing};\nlet _w = shared();\n\
                  let _alone = mutate::exclusive();\nlet t = self.tools.shared();\n\
                  use crate::core::mutate::{\n    self,\n    exclusive,\n};\nlet g = WRITES.read();\n\
                  const WRITES: bool = true;\n";
    let seen = write_guards_outside_core("tools/x.rs", guards);
    assert_eq!(seen.len(), 4, "{seen:?}");
    assert!(write_guards_outside_core("core/x.rs", guards).is_empty());
    // A value typed away as `Any` is seen (a field, a cast); a panic's payload, a comment or
    // another name starting with `Any` is not.
    let any = "struct S { index: Option<Arc<dyn std::any::Any + Send + Sync>> }\n\
               let w = i as Arc<dyn Any + Send + Sync>;\nfn m(p: &(dyn Any + Send)) {}\n\
               let p: Option<Box<dyn std::any::Any + Send + 'static>> = None;\n// dyn Any\n\
               let x: &dyn AnyMap = &m;\nlet b: Box<dyn Any> = Box::new(1);\n";
    assert_eq!(any_objects(any), [1, 2, 7]);
    // A field of core's sandbox open to the crate (or the world) is seen; one kept in core is not.
    let handle = "pub struct Sandbox {\n    pub(crate) policy: Arc<Policy>,\n    \
                  pub(in crate::core) gate: Arc<Gate>,\n    agent: String,\n    pub pool: P,\n}\n\
                  pub struct Other {\n    pub x: u8,\n}\n";
    assert_eq!(open_fields(handle, "Sandbox").len(), 2);
    // A raw descriptor above core is seen (a type, a trait, a call taking one out, the module,
    // after a test module too); in core, in a comment, in a test module or inside another name
    // (`OwnedFds`) it is not. A descriptor field open to the crate is seen.
    let fds = "use std::os::fd::{AsFd, BorrowedFd};\nfn f(o: &Opened) -> i32 { o.fd.as_raw_fd() }\n\
               // OwnedFd\n#[cfg(test)]\nmod t { fn g(x: OwnedFd) {} }\nstruct OwnedFds;\n\
               fn h(d: &dyn std::os::fd::AsFd) {}\nlet b = dir.as_fd();\nlet o = dirs::stat_fd(&opened);\n";
    let seen = raw_descriptors_outside_core("walk/x.rs", fds);
    assert_eq!(seen.len(), 4, "{seen:?}");
    assert!(raw_descriptors_outside_core("core/x.rs", fds).is_empty());
    let opened = "pub(crate) struct Opened {\n    pub fd: OwnedFd,\n    pub stat: Stat,\n}\n";
    assert_eq!(
        open_fields(opened, "Opened"),
        ["pub fd: OwnedFd,", "pub stat: Stat,"]
    );
    // A second type named `Admitted` is seen (a struct, an alias, an import renamed to it); a
    // use of the name, another name ending in it, or a comment is not.
    let twice = "pub(crate) struct Admitted<T>(T);\npub(crate) type Admitted = Admitted<Opened>;\n\
                 pub(crate) enum Admitted {\nuse crate::core::admit::Listed as Admitted;\n\
                 pub(crate) struct NameAdmitted<'g> {\nfn f(a: Admitted<Opened>) {}\n// struct Admitted\n";
    assert_eq!(admitted_types("search/x.rs", twice).len(), 4);
}

/// Every repository file that a doc, or a comment in a source, test or script, names by path (under
/// `src/`, `tests/`, `docs/` or `tools/`, with a source or doc extension) exists: a moved file
/// leaves no reader looking for it. Paths under `src/` may be written from there (`tools/mod.rs`).
#[test]
fn every_file_named_by_path_exists() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !repo.join(".git").exists() {
        // The packaged crate leaves out tools/ and scripts that the docs name: only a checkout
        // holds every file.
        println!("SKIPPED: every_file_named_by_path_exists: not a git checkout");
        return;
    }
    let mut files = Vec::new();
    for dir in ["src", "tests", "docs", "tools", "examples", "benches"] {
        texts(&repo.join(dir), &mut files);
    }
    files.extend(["README.md", "BENCHMARKS.md", "Cargo.toml"].map(|f| repo.join(f)));
    let mut missing = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        // In code, only comments: string literals name files of the test's own fixture trees.
        let text = if f.extension().is_some_and(|x| x == "md") {
            text
        } else {
            let comment =
                |l: &&str| l.trim_start().starts_with("//") || l.trim_start().starts_with('#');
            text.lines().filter(comment).collect::<Vec<_>>().join("\n")
        };
        for name in named_paths(&text) {
            if !repo.join(&name).exists() && !repo.join("src").join(&name).exists() {
                let shown = f.strip_prefix(repo).unwrap_or(f).display().to_string();
                missing.push(format!("{shown}: {name}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "named but not in the repository:\n{}",
        missing.join("\n")
    );
}

fn texts(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap_or_default().to_string_lossy();
        if p.is_dir() {
            // Generated or third-party trees, and the port of ripgrep's tests (which names ripgrep's
            // files), are not ours to check.
            if !matches!(&*name, "node_modules" | "rg_port") {
                texts(&p, out);
            }
        } else if p.extension().is_some_and(|x| {
            ["rs", "md", "py", "sh", "mjs", "toml"].contains(&&*x.to_string_lossy())
        }) {
            out.push(p);
        }
    }
}

/// Repository-relative paths in `text`: `src/`, `tests/`, `docs/` or `tools/` followed by path
/// characters and ending in a source or doc extension.
fn named_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    for prefix in ["src/", "tests/", "docs/", "tools/"] {
        let mut from = 0;
        while let Some(i) = text[from..].find(prefix).map(|i| i + from) {
            from = i + prefix.len();
            // Only at a word start: `fuzz/tests/...` names a file of another tree.
            if i > 0 && (b[i - 1].is_ascii_alphanumeric() || b"/_.-'".contains(&b[i - 1])) {
                continue;
            }
            let end = text[i..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || "/_.-".contains(c)))
                .map_or(text.len(), |e| i + e);
            let name = text[i..end].trim_end_matches('.');
            if [".rs", ".md", ".py", ".sh", ".mjs"]
                .iter()
                .any(|x| name.ends_with(x))
            {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// The `impl` blocks of `text` (a file's code, tests left out) that add methods to core's
/// sandbox, or let the engine pass for it: a block headed `impl Sandbox` where `Sandbox` is core's
/// (named so by a `use` of `core::sandbox`), `impl crate::core::sandbox::Sandbox`, or
/// `impl Deref for Engine`. Their lines, 1-based.
fn core_sandbox_impls(text: &str) -> Vec<usize> {
    let lines = code(text);
    let core_named = lines.iter().any(|(_, l)| {
        let l = l.trim();
        l.starts_with("use crate::core::sandbox::")
            && (l.contains("::Sandbox;") || l.contains(" Sandbox,") || l.contains("{Sandbox"))
            && !l.contains("Sandbox as ")
    });
    lines
        .iter()
        .filter(|(_, l)| {
            let l = l.trim_start();
            (core_named && (l.starts_with("impl Sandbox {") || l.starts_with("impl Sandbox<")))
                || l.starts_with("impl crate::core::sandbox::Sandbox")
                || (l.starts_with("impl") && l.contains("Deref for Engine"))
        })
        .map(|(n, _)| *n)
        .collect()
}

/// Core's sandbox offers locate, open, admit, display and the mutations; the tools' methods are
/// the engine's or its `Within`'s, so a method is found in the layer that owns it and
/// core's type cannot grow a corridor through every layer again.
#[test]
fn only_core_adds_methods_to_its_sandbox() {
    let bad: Vec<String> = source_texts()
        .iter()
        .filter(|(rel, _)| !rel.starts_with("core/"))
        .flat_map(|(rel, text)| {
            core_sandbox_impls(text)
                .into_iter()
                .map(move |n| format!("src/{rel}:{n}"))
        })
        .collect();
    assert!(
        bad.is_empty(),
        "methods added to core's `Sandbox` (or the engine dereferencing to it) outside src/core/ \
         at {bad:?}: give the method to the engine (`Engine`, `Within`) or make it a function \
         taking what it needs"
    );
    // The rule sees one.
    let one = "use crate::core::sandbox::Sandbox;\nimpl Sandbox {\n    fn f(&self) {}\n}\n";
    assert_eq!(core_sandbox_impls(one), [2]);
    let aliased = "use crate::core::sandbox::Sandbox as Core;\nimpl Sandbox {}\n";
    assert!(core_sandbox_impls(aliased).is_empty());
    assert_eq!(
        core_sandbox_impls("impl std::ops::Deref for Engine {\n}\n"),
        [1]
    );
}

/// The argument and result types of the catalog's rows (`Variant => module::Row: method(Args) ->
/// Out`): each row's module with the two type names (their last path segment).
fn catalog_rows(text: &str) -> Vec<(String, String, String)> {
    text.lines()
        .filter(|l| !l.contains('$'))
        .filter_map(|l| {
            let (_, row) = l.trim().split_once(" => ")?;
            let (path, sig) = row.split_once(": ")?;
            let (_, types) = sig.split_once('(')?;
            let (args, out) = types.split_once(") -> ")?;
            let last = |t: &str| {
                t.trim()
                    .trim_end_matches(',')
                    .rsplit("::")
                    .next()
                    .unwrap()
                    .into()
            };
            Some((path.split("::").next()?.to_string(), last(args), last(out)))
        })
        .collect()
}

/// A new read tool touches at most three files of src/: its module, its row in
/// `tools/catalog.rs`, and `tools/mod.rs` (its `mod` line and its types in `tools::api`, which
/// lib.rs re-exports whole). So every row's argument and result types come from `tools::api`
/// (grep's and glob's from search's contract), and lib.rs names none of them; a plain result
/// renders as JSON by default (`Tool::render`), so `tools/render.rs` need not change either.
#[test]
fn a_new_tool_needs_no_line_of_lib_rs() {
    let read = |f: &str| std::fs::read_to_string(src().join(f)).unwrap();
    let rows = catalog_rows(&read("tools/catalog.rs"));
    assert!(
        rows.len() >= 14,
        "the catalog's rows were not read: {rows:?}"
    );
    let api = inline_module_names("tools::api");
    let lib: Vec<String> = code(&read("lib.rs")).into_iter().map(|(_, l)| l).collect();
    let named_in_lib = |t: &str| {
        lib.iter().any(|l| {
            l.split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w == t)
        })
    };
    for (module, args, out) in &rows {
        for t in [args, out] {
            if module == "search" {
                continue;
            }
            assert!(
                api.contains(t),
                "{t} (a row of module {module}) is not in `tools::api` (src/tools/mod.rs)"
            );
            assert!(
                !named_in_lib(t),
                "lib.rs names {t}: re-export it through `tools::api`, so a new tool leaves lib.rs alone"
            );
        }
    }
}

/// The names of lib.rs's re-exports that `line` reaches through the crate root (`crate::Name`,
/// or `Name` in a `use crate::{…}` group).
fn root_reexports_named(line: &str) -> Vec<String> {
    let reexported = reexports();
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + 7..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = group.split('}').next().unwrap_or("");
            for part in group.split(',') {
                let name = part.trim().split(" as ").next().unwrap_or("").trim();
                if reexported.contains_key(name) {
                    out.push(name.to_string());
                }
            }
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let is_module = rest[name.len()..].starts_with("::");
        if reexported.contains_key(&name) && !(is_module && name == "render") {
            out.push(name);
        }
    }
    out
}

/// The layers lib.rs sits on import from the module that defines a name, never through lib.rs's
/// re-exports: an import through the crate root is an arrow from below back up to lib.rs, and
/// it hid a circle (the router and the dialect table) until it was written out.
#[test]
fn the_layers_below_lib_rs_import_nothing_through_it() {
    const BELOW: &[&str] = &[
        "core",
        "walk",
        "documents",
        "index",
        "engine",
        "search",
        "tools",
    ];
    let bad: Vec<String> = source_texts()
        .iter()
        .filter(|(rel, _)| BELOW.contains(&rel.split('/').next().unwrap_or("")))
        .flat_map(|(rel, text)| {
            code(text).into_iter().flat_map(move |(n, line)| {
                root_reexports_named(&line)
                    .into_iter()
                    .map(move |name| format!("src/{rel}:{n}: crate::{name}"))
            })
        })
        .collect();
    assert!(
        bad.is_empty(),
        "code under lib.rs imports through its re-exports at {bad:?}: name the defining module \
         (`crate::engine::Engine as Sandbox`, `crate::tools::api::ReadArgs`, ...)"
    );
    // The rule sees both shapes, and not a module path.
    assert_eq!(root_reexports_named("use crate::Sandbox;"), ["Sandbox"]);
    assert_eq!(
        root_reexports_named("use crate::{core::x, GrepArgs as G};"),
        ["GrepArgs"]
    );
    assert!(root_reexports_named("use crate::tools::render::hits;").is_empty());
}
