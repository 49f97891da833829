//! Ignore rules for the walker: `.gitignore` (inside a repository), `.ignore`, `.rgignore`,
//! `.git/info/exclude` and a dialect's own rule file (`.geminiignore`) when the call asks for it, read through directory handles with caps on bytes, rules and time, compiled
//! once per content (a bounded cache) and chained root first, as ripgrep applies them.

use crate::core::deadline::Deadline;
use crate::core::dirs::{self, FileType, Stat};
use crate::core::handle::Handle;
use crate::core::open::{self, Want};
use crate::core::sandbox::Sandbox;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;
use std::collections::HashMap;
use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

/// `.rgignore`, read unless `--no-ignore`.
const RGIGNORE: &str = ".rgignore";
/// `.ignore`, read unless `--no-ignore-dot`.
const DOT_IGNORE: &str = ".ignore";
/// `.gitignore`, read in a repository unless `--no-ignore-vcs`.
const GITIGNORE: &str = ".gitignore";
/// Gemini CLI's rule file (gitignore syntax), read when a call names it ([`IgnoreKinds::extra`]).
pub(crate) const GEMINIIGNORE: &str = ".geminiignore";
/// The rule files a call may add to the walker's own ([`IgnoreKinds::extra`]).
pub(crate) const EXTRA_RULE_FILES: [&str; 1] = [GEMINIIGNORE];
/// Every file a walk may read in a directory for its rules: the index's change reports get this
/// list (a change to one of them changes what a walk yields, not a file's content), the extra ones
/// included, since the index serves every call. `.git/info/exclude` is the one rule file read
/// elsewhere; the watcher watches repositories for it.
pub(crate) const RULE_FILES: [&str; 4] = [RGIGNORE, DOT_IGNORE, GITIGNORE, GEMINIIGNORE];

/// Ignore files are read this far and no further (a hostile 10 GB `.gitignore` must cost nothing);
/// a rule cut by this bound is dropped whole.
const MAX_IGNORE_FILE: usize = 1024 * 1024;

/// Rules taken from one ignore file. Compiling globs is the expensive part (about 0.15 ms and 18 KB
/// per `dir/**/*.ext` rule on the 2-core machine), so a hostile file of 44,000 rules cost 6 s and
/// 920 MB on every call.
pub(crate) const MAX_IGNORE_RULES: usize = 10_000;

/// Longest rule kept (bytes); longer lines are dropped.
const MAX_RULE_LEN: usize = 4096;

/// Rules that apply at once to one directory (its ignore files and those of the directories above
/// it within the walk); the walk holds only this chain, so it bounds the compiled rules one call keeps.
pub(crate) const MAX_CHAIN_RULES: usize = 20_000;

/// Rules are compiled in chunks of this many rules (or bytes of rule text), and the deadline is
/// checked between chunks: one chunk costs at most a few tens of milliseconds.
const CHUNK_RULES: usize = 128;
const CHUNK_BYTES: usize = 8 * 1024;

/// The compiled-rules cache keeps at most this many ignore files and this many rules in all.
const CACHE_ENTRIES: usize = 1024;
const CACHE_RULES: usize = 20_000;

/// The budget of one call for ignore files: its deadline, checked while rules compile, and a count
/// of ignore files it applied only in part (reported as `stats.skipped.partial_ignore_files`).
/// It also carries which kinds of ignore file the call reads (`kinds`), since it reaches every place
/// an ignore file is loaded.
#[derive(Clone, Default)]
pub(crate) struct IgnoreBudget {
    pub deadline: Option<Arc<Deadline>>,
    pub partial: Arc<AtomicU64>,
    /// Ignore files read that have more than one link: a write through another name is not
    /// reported as a change of theirs (the index does not record such a walk).
    pub linked: Arc<AtomicU64>,
    pub kinds: IgnoreKinds,
}

/// Kinds of ignore file left unread, as rg's `--no-ignore-vcs`, `--no-ignore-dot`,
/// `--no-ignore-exclude` and `--no-require-git` say (default: every kind is read, `.gitignore` only
/// inside a repository).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct IgnoreKinds {
    /// `.gitignore` and `.git/info/exclude` are not read.
    pub no_vcs: bool,
    /// `.ignore` is not read (rg reads `.rgignore` unless `--no-ignore`).
    pub no_dot: bool,
    /// `.git/info/exclude` is not read.
    pub no_exclude: bool,
    /// `.gitignore` applies outside a repository too.
    pub no_require_git: bool,
    /// Ignore rules match names case-insensitively (rg `--ignore-file-case-insensitive`).
    pub case_insensitive: bool,
    /// A rule file read in every directory besides the walker's own (as rg's `.rgignore`), that
    /// can only hide: one of [`EXTRA_RULE_FILES`], so the watcher knows it. Read with `no_ignore`
    /// off only, like the others.
    pub extra: Option<&'static str>,
}

impl IgnoreBudget {
    fn expired(&self) -> bool {
        self.deadline.as_ref().is_some_and(|d| d.expired())
    }

    /// Ignore files this call applied only in part.
    pub fn partial(&self) -> u64 {
        self.partial.load(Ordering::Relaxed)
    }

    /// Ignore files read that have more than one link.
    pub fn linked(&self) -> u64 {
        self.linked.load(Ordering::Relaxed)
    }
}

/// The compiled rules of one ignore file, in chunks. ripgrep's precedence within a file (the last
/// matching rule wins) holds across chunks when they are asked from the last to the first.
#[derive(Debug, Default)]
pub(crate) struct Rules {
    chunks: Vec<Arc<Gitignore>>,
    /// Rules compiled so far.
    count: usize,
    /// Rules of the file that are not applied (over the caps).
    dropped: usize,
    /// The file was cut by a cap (size, rule count or rule length).
    cut: bool,
    /// Every rule kept has been compiled (false: the deadline stopped compilation; the next call
    /// resumes it from `count`).
    complete: bool,
}

impl Rules {
    fn matched(&self, rel: &Path, is_dir: bool) -> Match<()> {
        for g in self.chunks.iter().rev() {
            match g.matched(rel, is_dir) {
                Match::None => {}
                m => return m.map(|_| ()),
            }
        }
        Match::None
    }
}

/// Identifies one version of one ignore file, for one walk root path (rules are compiled relative to
/// the directory's root-relative path). `ctime` is in the key too: it cannot be set back by hand.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    dev: u64,
    ino: u64,
    size: i64,
    mtime: (i64, i64),
    ctime: (i64, i64),
    rel: PathBuf,
    /// Compiled case-insensitively (the same file compiles to other rules then).
    case_insensitive: bool,
}

impl Key {
    // The field types of `stat` differ between architectures.
    #[allow(clippy::unnecessary_cast)]
    fn new(st: &Stat, rel: &Path, case_insensitive: bool) -> Self {
        Key {
            dev: st.st_dev as u64,
            ino: st.st_ino as u64,
            size: st.st_size as i64,
            mtime: (st.st_mtime as i64, st.st_mtime_nsec as i64),
            ctime: (st.st_ctime as i64, st.st_ctime_nsec as i64),
            rel: rel.to_path_buf(),
            case_insensitive,
        }
    }
}

/// A process-wide cache of compiled ignore files, bounded in entries and rules (least recently used
/// out first). Rules depend only on the file's content and the directory's root-relative path, so
/// sandboxes can share it.
#[derive(Default)]
struct Cache {
    map: HashMap<Key, (Arc<Rules>, u64)>,
    tick: u64,
    rules: usize,
}

static CACHE: LazyLock<Mutex<Cache>> = LazyLock::new(Mutex::default);

impl Cache {
    fn get(key: &Key) -> Option<Arc<Rules>> {
        let mut c = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        c.tick += 1;
        let tick = c.tick;
        c.map.get_mut(key).map(|(r, t)| {
            *t = tick;
            r.clone()
        })
    }

    fn put(key: Key, rules: Arc<Rules>) {
        let mut c = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((old, _)) = c.map.get(&key) {
            // Two calls compiled the same file: keep the one that got further.
            if old.complete || old.count >= rules.count {
                return;
            }
        }
        c.tick += 1;
        let tick = c.tick;
        let count = rules.count;
        if let Some((old, _)) = c.map.insert(key.clone(), (rules, tick)) {
            c.rules -= old.count;
        }
        c.rules += count;
        while c.map.len() > CACHE_ENTRIES || c.rules > CACHE_RULES {
            let Some(oldest) = c
                .map
                .iter()
                .filter(|(k, _)| **k != key)
                .min_by_key(|(_, (_, t))| *t)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            if let Some((old, _)) = c.map.remove(&oldest) {
                c.rules -= old.count;
            }
        }
    }
}

/// The ignore rules of one directory, linked to its parent's.
#[derive(Debug, Default)]
pub(crate) struct IgnoreLevel {
    parent: Option<Arc<IgnoreLevel>>,
    extra: Option<Arc<Rules>>,
    custom: Option<Arc<Rules>>,
    ignore: Option<Arc<Rules>>,
    git: Option<Arc<Rules>>,
    exclude: Option<Arc<Rules>>,
    has_git: bool,
    /// This directory or one above it (within the walk) holds a `.git`.
    in_repo: bool,
    /// Rules applied here and above.
    chain_rules: usize,
    /// The deadline stopped the compilation of rules here or above: nothing below is let through
    /// (the call has timed out and stops at its next file).
    incomplete: bool,
}

impl IgnoreLevel {
    /// Loads `.rgignore`, `.ignore`, `.gitignore` and `.git/info/exclude` of the directory `fd` (at
    /// `rel`), a handle core gave: the admitted directory a walk, tree or listing reads, or one
    /// above a search's start opened for its rules only (`Sandbox::open_for_rules`).
    ///
    /// With `present` (the directory's entries), only files that exist are opened: most directories
    /// have none of them, and three failed opens per directory add up over a large tree.
    pub fn load(
        fd: &(impl Handle + ?Sized),
        rel: &Path,
        has_git: bool,
        parent: Option<Arc<IgnoreLevel>>,
        present: Option<&[(OsString, FileType)]>,
        budget: &IgnoreBudget,
        denied: &dyn Fn(&Path, bool) -> bool,
    ) -> Arc<Self> {
        // A denied `.git` or ignore file is never opened and changes nothing: a denied object is
        // indistinguishable from an absent one.
        let has_git = has_git && !denied(&rel.join(".git"), true);
        let mut chain = parent.as_ref().map_or(0, |p| p.chain_rules);
        let mut incomplete = parent.as_ref().is_some_and(|p| p.incomplete);
        let mut read = |name: &str| {
            if denied(&rel.join(name), false) {
                return None;
            }
            // `.git/info/exclude` is looked up by its first component, `.git`.
            let entry = name.split('/').next().unwrap_or(name);
            let exists = present.is_none_or(|entries| {
                entries
                    .binary_search_by(|(n, _)| n.as_bytes().cmp(entry.as_bytes()))
                    .is_ok()
            });
            let rules = exists
                .then(|| read_rules(fd, rel, Path::new(name), budget))
                .flatten()?;
            if !rules.complete {
                incomplete = true;
                return None;
            }
            if rules.count + chain > MAX_CHAIN_RULES {
                tracing::warn!(
                    file = %rel.join(name).display(),
                    rules = rules.count,
                    above = chain,
                    limit = MAX_CHAIN_RULES,
                    "ignore file not applied: too many ignore rules in this directory and above"
                );
                budget.partial.fetch_add(1, Ordering::Relaxed);
                return None;
            }
            if rules.cut {
                budget.partial.fetch_add(1, Ordering::Relaxed);
            }
            chain += rules.count;
            (!rules.chunks.is_empty()).then_some(rules)
        };
        // A `.gitignore` applies only below a `.git` at its level or above (a repository found
        // deeper stops the climb there), so outside a repository it is not even read: the Linux tree
        // has hundreds of them, and compiling their globs showed in the first-page latency.
        let kinds = budget.kinds;
        let in_repo = kinds.no_require_git || has_git || parent.as_ref().is_some_and(|p| p.in_repo);
        let extra = kinds.extra.filter(|n| EXTRA_RULE_FILES.contains(n));
        let extra = extra.and_then(&mut read);
        let custom = read(RGIGNORE);
        let ignore = if kinds.no_dot { None } else { read(DOT_IGNORE) };
        let git = if in_repo && !kinds.no_vcs {
            read(GITIGNORE)
        } else {
            None
        };
        let exclude = if has_git && !kinds.no_vcs && !kinds.no_exclude {
            read(".git/info/exclude")
        } else {
            None
        };
        Arc::new(IgnoreLevel {
            extra,
            custom,
            ignore,
            git,
            exclude,
            has_git,
            in_repo,
            chain_rules: chain,
            incomplete,
            parent,
        })
    }

    /// The deadline stopped the compilation of rules here or above: nothing below is let through.
    pub fn incomplete(&self) -> bool {
        self.incomplete
    }

    fn levels(&self) -> impl Iterator<Item = &IgnoreLevel> {
        std::iter::successors(Some(self), |l| l.parent.as_deref())
    }

    /// ripgrep's precedence: per kind, the deepest directory that matches wins; then `.rgignore` over
    /// `.ignore` over `.gitignore` over `.git/info/exclude`; the extra rule file hides what it
    /// names whatever the others say, and lets them decide the rest. Git rules apply only inside a repository
    /// (a `.git` at or below the walk root, at or above the path: `require_git`).
    pub fn matched(&self, rel: &Path, is_dir: bool) -> Match<()> {
        if self.incomplete {
            return Match::Ignore(());
        }
        let any_git = self.in_repo;
        let (mut extra, mut custom, mut ign, mut gi, mut ex) = (
            Match::None,
            Match::None,
            Match::None,
            Match::None,
            Match::None,
        );
        let mut saw_git = false;
        for l in self.levels() {
            let m = |g: &Option<Arc<Rules>>| match g {
                Some(g) => g.matched(rel, is_dir),
                None => Match::None,
            };
            if extra.is_none() {
                extra = m(&l.extra);
            }
            if custom.is_none() {
                custom = m(&l.custom);
            }
            if ign.is_none() {
                ign = m(&l.ignore);
            }
            if any_git && !saw_git && gi.is_none() {
                gi = m(&l.git);
            }
            if any_git && !saw_git && ex.is_none() {
                ex = m(&l.exclude);
            }
            saw_git = saw_git || l.has_git;
        }
        // The extra file only hides (as Gemini CLI, which filters by `.gitignore` and
        // `.geminiignore` one after the other): its `!rule` does not bring back what the others hide.
        if extra.is_ignore() {
            return extra;
        }
        custom.or(ign).or(gi).or(ex)
    }

    /// Whether the extra rule file of this directory or one above it hides `rel` (the deepest
    /// that matches wins, as in [`IgnoreLevel::matched`]).
    fn extra_hides(&self, rel: &Path, is_dir: bool) -> bool {
        self.incomplete
            || self
                .levels()
                .map(|l| match &l.extra {
                    Some(g) => g.matched(rel, is_dir),
                    None => Match::None,
                })
                .find(|m| !m.is_none())
                .is_some_and(|m| m.is_ignore())
    }
}

/// Reads and compiles one ignore file, from the cache when this version of it was compiled before
/// (or resuming a compilation an earlier call's deadline stopped).
fn read_rules(
    dir: &(impl Handle + ?Sized),
    rel: &Path,
    name: &Path,
    budget: &IgnoreBudget,
) -> Option<Arc<Rules>> {
    let opened = open::open_for_rules(dir, name, Want::Read).ok()?;
    if opened.kind() != open::Kind::File {
        return None;
    }
    if opened.stat.st_nlink > 1 {
        budget.linked.fetch_add(1, Ordering::Relaxed);
    }
    let key = Key::new(&opened.stat, rel, budget.kinds.case_insensitive);
    let cached = Cache::get(&key);
    if let Some(r) = cached.as_ref().filter(|r| r.complete) {
        return Some(r.clone());
    }
    let bytes = crate::core::io::pread_exact(&opened, 0, MAX_IGNORE_FILE).ok()?;
    let oversize = opened.stat.st_size as u64 > MAX_IGNORE_FILE as u64;
    let rules = Arc::new(compile(rel, &bytes, oversize, cached.as_deref(), budget));
    if rules.cut && rules.complete {
        tracing::warn!(
            file = %rel.join(name).display(),
            kept = rules.count,
            dropped = rules.dropped,
            max_rules = MAX_IGNORE_RULES,
            max_bytes = MAX_IGNORE_FILE,
            "ignore file applied only in part: rules past the cap are not applied"
        );
    }
    // Cache only what was read from the version the key names.
    let same =
        dirs::stat_fd(&opened).is_ok_and(|st| Key::new(&st, rel, key.case_insensitive) == key);
    if same && (rules.complete || rules.count > 0) {
        Cache::put(key, rules.clone());
    }
    Some(rules)
}

/// The rules of an ignore file's text, compiled chunk by chunk from where `resume` stopped, until
/// they are all compiled or the deadline passes.
fn compile(
    rel: &Path,
    bytes: &[u8],
    oversize: bool,
    resume: Option<&Rules>,
    budget: &IgnoreBudget,
) -> Rules {
    let mut bytes = bytes;
    let mut cut = false;
    if oversize {
        // The last line read may be the start of a longer rule: drop it.
        cut = true;
        bytes = match memchr::memrchr(b'\n', bytes) {
            Some(i) => &bytes[..=i],
            None => &[],
        };
    }
    let text = String::from_utf8_lossy(bytes);
    let mut lines = Vec::new();
    let mut dropped = 0;
    for line in text.lines() {
        if line.starts_with('#') || line.trim_end().is_empty() {
            continue;
        }
        if line.len() > MAX_RULE_LEN || lines.len() >= MAX_IGNORE_RULES {
            cut = true;
            dropped += 1;
            continue;
        }
        lines.push(line);
    }
    let mut rules = Rules {
        chunks: resume.map(|r| r.chunks.clone()).unwrap_or_default(),
        count: resume.map_or(0, |r| r.count).min(lines.len()),
        dropped,
        cut,
        complete: false,
    };
    // At least one chunk per call, so that a call whose budget is already spent still brings the
    // cached compilation forward, and paging through the directory advances.
    let resumed_at = rules.count;
    while rules.count < lines.len() {
        if rules.count > resumed_at && budget.expired() {
            return rules;
        }
        let mut b = GitignoreBuilder::new(rel);
        let _ = b.case_insensitive(budget.kinds.case_insensitive);
        let (mut n, mut size) = (0, 0);
        for line in &lines[rules.count..] {
            if n == CHUNK_RULES || (n > 0 && size + line.len() > CHUNK_BYTES) {
                break;
            }
            let _ = b.add_line(None, line);
            n += 1;
            size += line.len();
        }
        if let Ok(g) = b.build() {
            if !g.is_empty() {
                rules.chunks.push(Arc::new(g));
            }
        }
        rules.count += n;
    }
    rules.complete = true;
    rules
}

/// Loads the ignore levels of `rel`'s ancestors (root first), so a search starting below the root sees
/// the same rules as one starting at it.
pub(crate) fn ancestor_levels(
    sb: &Sandbox,
    root: usize,
    rel: &Path,
    no_ignore: bool,
    budget: &IgnoreBudget,
    denied: &dyn Fn(&Path, bool) -> bool,
) -> Option<Arc<IgnoreLevel>> {
    if no_ignore {
        return None;
    }
    let mut level: Option<Arc<IgnoreLevel>> = None;
    let mut prefix = PathBuf::new();
    let mut comps: Vec<_> = rel.components().collect();
    comps.pop(); // the start directory itself is loaded by the walk
    for c in std::iter::once(None).chain(comps.into_iter().map(Some)) {
        if let Some(c) = c {
            prefix.push(c);
        }
        level = Some(level_at(sb, root, &prefix, level, budget, denied)?);
    }
    level
}

/// The rules of the directory at `prefix` (root-relative) below `parent`'s, or `None` when the
/// directory cannot be opened for its rules.
fn level_at(
    sb: &Sandbox,
    root: usize,
    prefix: &Path,
    parent: Option<Arc<IgnoreLevel>>,
    budget: &IgnoreBudget,
    denied: &dyn Fn(&Path, bool) -> bool,
) -> Option<Arc<IgnoreLevel>> {
    let dir = sb.open_for_rules(root, prefix).ok()?;
    let has_git = dirs::stat_entry(&dir, ".git").is_ok();
    Some(IgnoreLevel::load(
        &dir, prefix, has_git, parent, None, budget, denied,
    ))
}

/// Whether the extra rule file of `budget.kinds` hides the object at `rel` (root-relative, as the
/// gate resolved it): a rule in a directory on its way names it or a directory above it, as a walk
/// would have passed it over. For tools that take one path (Gemini CLI's read_file refuses a file
/// its `.geminiignore` names). Fails closed: a directory on the way that cannot be opened for its
/// rules hides what is below it.
pub(crate) fn extra_rules_hide(
    sb: &Sandbox,
    root: usize,
    rel: &Path,
    is_dir: bool,
    budget: &IgnoreBudget,
    denied: &dyn Fn(&Path, bool) -> bool,
) -> bool {
    if budget.kinds.extra.is_none() {
        return false;
    }
    let comps: Vec<_> = rel.components().collect();
    let mut level: Option<Arc<IgnoreLevel>> = None;
    let mut prefix = PathBuf::new();
    for (i, c) in comps.iter().enumerate() {
        let Some(here) = level_at(sb, root, &prefix, level, budget, denied) else {
            return true;
        };
        prefix.push(c);
        let last = i + 1 == comps.len();
        if here.extra_hides(&prefix, !last || is_dir) {
            return true;
        }
        level = Some(here);
    }
    false
}
