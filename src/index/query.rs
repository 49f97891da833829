//! Query analysis: which keys (byte trigrams, and the pseudo-keys of bytes >= 0x80: `keys.rs`) a
//! file must hold for a pattern to match anywhere in it.
//!
//! Pure (no I/O), and no parse of its own: the HIR analysed is the one the search's matcher was
//! built from (`search::matcher::Compiled`: its one parse of the joined `(?:p1)|(?:p2)` form, its
//! one smart-case decision, its case folding: regex-syntax's Unicode simple folding, so `s` also
//! stands for U+017F and `k` for U+212A). The whole HIR is analysed as google/codesearch does
//! (`index/regexp.go`): for every node, whether it can match the empty string, the exact strings it
//! matches when there are few, else the prefixes and suffixes of its matches, and an AND/OR of
//! trigrams every match contains.
//!
//! Soundness is the one property that matters: whenever the matcher finds a match in a text, the
//! text's trigram set satisfies the query (the unit test in `search/query_props.rs` checks it on
//! random patterns and texts, with the matcher and its HIR built by the search's own code). Everything that only restricts matches (the `word` and `line_regexp`
//! wrappers, the stripping of the line terminator from classes, anchors, word boundaries) is left
//! out of the analysis: the query of the bare pattern is weaker, hence still sound.

use super::keys::{class_keys, required};
#[cfg(test)]
pub use super::keys::{text_keys, trigram};
use regex_syntax::hir::{Class, Hir, HirKind};
use std::collections::BTreeSet;

/// A key of the index: a trigram, `b0 << 16 | b1 << 8 | b2`, or a pseudo-key (`keys.rs`).
pub type Trigram = super::keys::Key;

/// A monotone boolean query over trigram presence.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum TriQuery {
    /// Every text may match (nothing is required).
    All,
    /// No text can match.
    None,
    /// The text must hold this trigram.
    Tri(Trigram),
    /// The text must hold these trigrams (at least two) at consecutive offsets somewhere, as far
    /// as their position masks tell (`keys.rs`): the trigrams of one string of 4 bytes or more.
    Seq(Vec<Trigram>),
    /// All of these hold.
    And(Vec<TriQuery>),
    /// At least one of these holds.
    Or(Vec<TriQuery>),
}

/// Above this many nodes a query is replaced by `All` (sound, and bounded to evaluate).
const MAX_NODES: usize = 4096;
/// Exact sets larger than this become trigrams plus prefixes and suffixes.
const MAX_EXACT: usize = 16;
/// Prefix and suffix sets are cut back (to shorter strings) until no larger than this.
const MAX_SET: usize = 32;
/// Classes with more than this many members are "any character".
const MAX_CLASS: usize = 8;

impl TriQuery {
    /// True when nothing is required: every file is a candidate.
    pub fn is_all(&self) -> bool {
        matches!(self, TriQuery::All)
    }

    /// Whether the query holds on a text whose trigrams `has` reports, positions unknown (every
    /// mask full).
    #[cfg(test)]
    pub fn eval(&self, has: &dyn Fn(Trigram) -> bool) -> bool {
        self.eval_masked(&|t| if has(t) { FULL } else { 0 })
    }

    /// Whether the query holds on a text whose keys' position masks `mask` reports (0: absent; a
    /// changed file described again; the property tests).
    pub fn eval_masked(&self, mask: &dyn Fn(Trigram) -> u8) -> bool {
        match self {
            TriQuery::All => true,
            TriQuery::None => false,
            TriQuery::Tri(t) => mask(*t) != 0,
            TriQuery::Seq(v) => seq_holds(v.iter().map(|&t| mask(t))),
            TriQuery::And(v) => v.iter().all(|q| q.eval_masked(mask)),
            TriQuery::Or(v) => v.iter().any(|q| q.eval_masked(mask)),
        }
    }

    fn nodes(&self) -> usize {
        match self {
            TriQuery::And(v) | TriQuery::Or(v) => 1 + v.iter().map(TriQuery::nodes).sum::<usize>(),
            TriQuery::Seq(v) => v.len(),
            _ => 1,
        }
    }

    fn and(self, o: TriQuery) -> TriQuery {
        match (self, o) {
            (TriQuery::None, _) | (_, TriQuery::None) => TriQuery::None,
            (TriQuery::All, q) | (q, TriQuery::All) => q,
            (a, b) => {
                let mut v = Vec::new();
                for q in [a, b] {
                    match q {
                        TriQuery::And(w) => v.extend(w),
                        q => v.push(q),
                    }
                }
                v.sort();
                v.dedup();
                cap(if v.len() == 1 {
                    v.pop().unwrap()
                } else {
                    TriQuery::And(v)
                })
            }
        }
    }

    fn or(self, o: TriQuery) -> TriQuery {
        match (self, o) {
            (TriQuery::All, _) | (_, TriQuery::All) => TriQuery::All,
            (TriQuery::None, q) | (q, TriQuery::None) => q,
            (a, b) => {
                let mut v = Vec::new();
                for q in [a, b] {
                    match q {
                        TriQuery::Or(w) => v.extend(w),
                        q => v.push(q),
                    }
                }
                v.sort();
                v.dedup();
                cap(if v.len() == 1 {
                    v.pop().unwrap()
                } else {
                    TriQuery::Or(v)
                })
            }
        }
    }

    /// AND with: the text holds every key one of `set`'s strings requires (`keys::required`: its
    /// trigrams, or the pseudo-keys of a shorter one). A string that requires nothing (shorter
    /// than 3 bytes, all ASCII) makes the set require nothing; an empty set matches nothing.
    fn and_strings(self, set: &BTreeSet<Vec<u8>>) -> TriQuery {
        let mut or = TriQuery::None;
        for s in set {
            let keys = required(s);
            if keys.is_empty() {
                return self;
            }
            // A string's trigrams lie at consecutive offsets: one sequence node (pseudo-keys, of
            // a string shorter than a trigram, have no order to check).
            let and = if s.len() >= 4 {
                TriQuery::Seq(keys)
            } else {
                keys.into_iter()
                    .fold(TriQuery::All, |q, k| q.and(TriQuery::Tri(k)))
            };
            or = or.or(and);
        }
        self.and(or)
    }
}

/// The mask of a key whose positions are unknown (or that starts at every offset mod 8).
pub const FULL: u8 = 0xFF;

/// Whether trigrams with these position masks (bit `o % 8` for each offset `o` in the file where
/// the trigram starts; 0 when absent) can lie at consecutive offsets `p, p + 1, ...`: some `p % 8`
/// has bit `p + i` set in the `i`-th mask for every `i`. Rotating the `i`-th mask right by `i`
/// brings bit `p + i` to bit `p`. Every occurrence of the string at `p` sets those bits, so a
/// text holding it passes (sound); trigrams present apart rarely agree on all residues.
pub fn seq_holds(masks: impl Iterator<Item = u8>) -> bool {
    let mut a = FULL;
    for (i, m) in masks.enumerate() {
        a &= m.rotate_right((i % 8) as u32);
        if a == 0 {
            return false;
        }
    }
    true
}

/// A query grown past [`MAX_NODES`] requires nothing.
fn cap(q: TriQuery) -> TriQuery {
    if q.nodes() > MAX_NODES {
        TriQuery::All
    } else {
        q
    }
}

/// What is known about the matches of one HIR node (codesearch's `regexpInfo`).
#[derive(Debug, Clone)]
struct Info {
    can_empty: bool,
    /// Every match is one of these strings (`None`: unknown or too many).
    exact: Option<BTreeSet<Vec<u8>>>,
    /// With `exact` unknown: every match starts with one of these.
    prefix: BTreeSet<Vec<u8>>,
    /// With `exact` unknown: every match ends with one of these.
    suffix: BTreeSet<Vec<u8>>,
    /// Every match's trigrams satisfy this.
    matches: TriQuery,
}

fn set_of(s: &[u8]) -> BTreeSet<Vec<u8>> {
    std::iter::once(s.to_vec()).collect()
}

impl Info {
    fn exact(set: BTreeSet<Vec<u8>>) -> Info {
        let can_empty = set.iter().any(Vec::is_empty);
        let mut i = Info {
            can_empty,
            exact: Some(set),
            prefix: BTreeSet::new(),
            suffix: BTreeSet::new(),
            matches: TriQuery::All,
        };
        i.simplify(false);
        i
    }

    /// Any string at all (nothing known).
    fn any(can_empty: bool) -> Info {
        Info {
            can_empty,
            exact: None,
            prefix: set_of(b""),
            suffix: set_of(b""),
            matches: TriQuery::All,
        }
    }

    fn add_exact(&mut self) {
        if let Some(e) = &self.exact {
            let m = std::mem::replace(&mut self.matches, TriQuery::All);
            self.matches = m.and_strings(e);
        }
    }

    /// Records the exact strings' trigrams and replaces them by their 2-byte prefixes and suffixes.
    fn spill_exact(&mut self) {
        self.add_exact();
        if let Some(e) = self.exact.take() {
            for s in e {
                let n = s.len();
                if n < 3 {
                    self.prefix.insert(s.clone());
                    self.suffix.insert(s);
                } else {
                    self.prefix.insert(s[..2].to_vec());
                    self.suffix.insert(s[n - 2..].to_vec());
                }
            }
        }
    }

    /// Keeps the sets small: a large exact set turns into its trigrams plus 2-byte prefixes and
    /// suffixes; prefix and suffix sets record their trigrams and are cut back to short strings.
    fn simplify(&mut self, force: bool) {
        if let Some(e) = &self.exact {
            let min = e.iter().map(Vec::len).min().unwrap_or(usize::MAX);
            let max = e.iter().map(Vec::len).max().unwrap_or(0);
            if e.len() > MAX_EXACT || (min >= 3 && force) || max > 16 {
                self.spill_exact();
            }
        }
        if self.exact.is_none() {
            let p = std::mem::take(&mut self.prefix);
            self.prefix = self.simplify_set(p, false);
            let s = std::mem::take(&mut self.suffix);
            self.suffix = self.simplify_set(s, true);
        }
    }

    fn simplify_set(&mut self, set: BTreeSet<Vec<u8>>, suffix: bool) -> BTreeSet<Vec<u8>> {
        let m = std::mem::replace(&mut self.matches, TriQuery::All);
        self.matches = m.and_strings(&set);
        // Cut to 2 bytes (and shorter while still too many): a trigram needs at most 2 bytes on
        // either side of a junction.
        let mut t = set;
        let mut n = 2;
        loop {
            t = t
                .into_iter()
                .map(|s| {
                    if s.len() > n {
                        if suffix {
                            s[s.len() - n..].to_vec()
                        } else {
                            s[..n].to_vec()
                        }
                    } else {
                        s
                    }
                })
                .collect();
            if t.len() <= MAX_SET || n == 0 {
                return t;
            }
            n -= 1;
        }
    }
}

fn cross(a: &BTreeSet<Vec<u8>>, b: &BTreeSet<Vec<u8>>) -> BTreeSet<Vec<u8>> {
    let mut out = BTreeSet::new();
    for x in a {
        for y in b {
            let mut s = x.clone();
            s.extend_from_slice(y);
            out.insert(s);
        }
    }
    out
}

fn min_len(s: &BTreeSet<Vec<u8>>) -> usize {
    s.iter().map(Vec::len).min().unwrap_or(0)
}

fn concat(x: Info, y: Info) -> Info {
    let mut xy = Info {
        can_empty: x.can_empty && y.can_empty,
        exact: None,
        prefix: BTreeSet::new(),
        suffix: BTreeSet::new(),
        matches: x.matches.clone().and(y.matches.clone()),
    };
    match (&x.exact, &y.exact) {
        (Some(a), Some(b)) if a.len() * b.len() <= 4 * MAX_EXACT => xy.exact = Some(cross(a, b)),
        _ => {
            let mut x = x.clone();
            let mut y = y.clone();
            // Too many exact strings to cross: record them and go on with prefixes/suffixes.
            if x.exact.is_some() && y.exact.is_some() {
                x.spill_exact();
                y.spill_exact();
                xy.matches = xy.matches.and(x.matches.clone()).and(y.matches.clone());
            }
            xy.prefix = match &x.exact {
                Some(e) => cross(e, &y.prefix),
                None => {
                    let mut p = x.prefix.clone();
                    if x.can_empty {
                        p.extend(y.prefix.iter().cloned());
                    }
                    p
                }
            };
            xy.suffix = match &y.exact {
                Some(e) => cross(&x.suffix, e),
                None => {
                    let mut s = y.suffix.clone();
                    if y.can_empty {
                        s.extend(x.suffix.iter().cloned());
                    }
                    s
                }
            };
            // A trigram across the junction of x and y.
            if x.exact.is_none()
                && y.exact.is_none()
                && x.suffix.len() <= MAX_SET
                && y.prefix.len() <= MAX_SET
                && min_len(&x.suffix) + min_len(&y.prefix) >= 3
            {
                let j = cross(&x.suffix, &y.prefix);
                xy.matches = xy.matches.and_strings(&j);
            }
        }
    }
    xy.simplify(false);
    xy
}

fn alternate(mut x: Info, mut y: Info) -> Info {
    let mut xy = Info {
        can_empty: x.can_empty || y.can_empty,
        exact: None,
        prefix: BTreeSet::new(),
        suffix: BTreeSet::new(),
        matches: TriQuery::All,
    };
    match (&x.exact, &y.exact) {
        (Some(a), Some(b)) => {
            let mut u = a.clone();
            u.extend(b.iter().cloned());
            xy.exact = Some(u);
        }
        (Some(a), None) => {
            xy.prefix = a.union(&y.prefix).cloned().collect();
            xy.suffix = a.union(&y.suffix).cloned().collect();
            x.add_exact();
        }
        (None, Some(b)) => {
            xy.prefix = x.prefix.union(b).cloned().collect();
            xy.suffix = x.suffix.union(b).cloned().collect();
            y.add_exact();
        }
        (None, None) => {
            xy.prefix = x.prefix.union(&y.prefix).cloned().collect();
            xy.suffix = x.suffix.union(&y.suffix).cloned().collect();
        }
    }
    xy.matches = x.matches.or(y.matches);
    xy.simplify(false);
    xy
}

/// The strings a class matches, when there are at most [`MAX_CLASS`] of them.
fn class_strings(c: &Class) -> Option<BTreeSet<Vec<u8>>> {
    let mut out = BTreeSet::new();
    match c {
        Class::Unicode(u) => {
            for r in u.iter() {
                let n = r.end() as u32 - r.start() as u32 + 1;
                if out.len() + n as usize > MAX_CLASS {
                    return None;
                }
                for cp in r.start() as u32..=r.end() as u32 {
                    if let Some(ch) = char::from_u32(cp) {
                        let mut b = [0; 4];
                        out.insert(ch.encode_utf8(&mut b).as_bytes().to_vec());
                    }
                }
            }
        }
        Class::Bytes(bc) => {
            for r in bc.iter() {
                let n = r.end() as usize - r.start() as usize + 1;
                if out.len() + n > MAX_CLASS {
                    return None;
                }
                for b in r.start()..=r.end() {
                    out.insert(vec![b]);
                }
            }
        }
    }
    Some(out)
}

fn analyze(h: &Hir) -> Info {
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) => Info::exact(set_of(b"")),
        HirKind::Literal(l) => Info::exact(set_of(&l.0)),
        HirKind::Class(c) => match class_strings(c) {
            Some(s) if s.is_empty() => Info {
                can_empty: false,
                exact: Some(BTreeSet::new()),
                prefix: BTreeSet::new(),
                suffix: BTreeSet::new(),
                matches: TriQuery::None,
            },
            Some(s) => Info::exact(s),
            // Too many members to list: if none is ASCII, every match holds one of its keys.
            None => Info {
                matches: class_keys(c).map_or(TriQuery::All, |keys| {
                    keys.into_iter()
                        .fold(TriQuery::None, |q, k| q.or(TriQuery::Tri(k)))
                }),
                ..Info::any(false)
            },
        },
        HirKind::Capture(c) => analyze(&c.sub),
        HirKind::Repetition(r) => {
            let x = analyze(&r.sub);
            if r.min == 0 {
                if r.max == Some(1) {
                    alternate(x, Info::exact(set_of(b"")))
                } else {
                    Info::any(true)
                }
            } else {
                let copies = r.min.min(3);
                let mut out = x.clone();
                for _ in 1..copies {
                    out = concat(out, x.clone());
                }
                if r.max != Some(copies) {
                    // More copies may follow: anything at all.
                    out = concat(out, Info::any(true));
                }
                out
            }
        }
        HirKind::Concat(v) => {
            let mut it = v.iter();
            let mut acc = match it.next() {
                Some(h) => analyze(h),
                None => return Info::exact(set_of(b"")),
            };
            for h in it {
                acc = concat(acc, analyze(h));
            }
            acc
        }
        HirKind::Alternation(v) => {
            let mut it = v.iter();
            let mut acc = match it.next() {
                Some(h) => analyze(h),
                None => return analyze(&Hir::fail()),
            };
            for h in it {
                acc = alternate(acc, analyze(h));
            }
            acc
        }
    }
}

/// The query of an HIR: what every match's trigrams satisfy.
pub fn hir_query(h: &Hir) -> TriQuery {
    let mut info = analyze(h);
    info.simplify(true);
    let mut q = info.matches.clone();
    if let Some(e) = &info.exact {
        q = q.and_strings(e);
    }
    cap(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::search::matcher::{query_of, MatchFlags as QueryFlags};

    fn patterns_query(p: &[&str], flags: QueryFlags) -> TriQuery {
        query_of(p, flags)
    }

    fn q(p: &str) -> TriQuery {
        patterns_query(&[p], QueryFlags::default())
    }

    fn holds(p: &str, flags: QueryFlags, text: &str) -> bool {
        let t = text_keys(text.as_bytes());
        patterns_query(&[p], flags).eval(&|x| t.binary_search(&x).is_ok())
    }

    #[test]
    fn literals_and_inner_literals() {
        assert!(!q("PM_RESUME").is_all());
        assert!(holds("PM_RESUME", QueryFlags::default(), "x PM_RESUME y"));
        assert!(!holds("PM_RESUME", QueryFlags::default(), "PM_SUSPEND"));
        // Inner literals, which the literal Extractor misses.
        assert!(!q(r"\w+_lock_irq\w*\(").is_all());
        assert!(!holds(
            r"\w+_lock_irq\w*\(",
            QueryFlags::default(),
            "spin_lock("
        ));
        assert!(!q(r"(?:^|\W)PM_RESUME(?:$|\W)").is_all());
        // Non-ASCII classes and short literals require pseudo-keys (`keys.rs`).
        assert!(!q(r"\p{Greek}").is_all());
        assert!(holds(r"\p{Greek}", QueryFlags::default(), "x = α"));
        assert!(!holds(
            r"\p{Greek}",
            QueryFlags::default(),
            "naïve — “quoted”"
        ));
        assert!(!q(r"[^\x00-\x7F]").is_all());
        assert!(!holds(r"[^\x00-\x7F]", QueryFlags::default(), "ascii only"));
        assert!(holds(r"[^\x00-\x7F]", QueryFlags::default(), "😀"));
        assert!(holds("é", QueryFlags::default(), "é"));
        assert!(!holds("é", QueryFlags::default(), "e"));
        assert!(q(r"[\w&&[^a-z]]").is_all());
        assert!(q(".").is_all());
        assert!(q(r"\w{5}(\s+\w{5}){4}").is_all());
        assert_eq!(q("[^\\x00-\\x{10FFFF}]"), TriQuery::None);
    }

    /// A phrase whose trigrams a text holds only apart fails on their position masks; at any
    /// offset, and case-insensitively, the phrase itself holds.
    #[test]
    fn position_masks_prune_a_phrase_held_apart() {
        use crate::index::keys::unit_keys;
        let masked = |p: &str, flags: QueryFlags, text: &str, base: u64| {
            let u = unit_keys(text.as_bytes(), base);
            patterns_query(&[p], flags).eval_masked(&|t| u.mask(t))
        };
        let d = QueryFlags::default();
        let apart = "struct file_lock *f;\nconst struct inode_operations x;\n";
        assert!(holds("struct file_operations", d, apart));
        assert!(!masked("struct file_operations", d, apart, 0));
        let ci = QueryFlags {
            case_insensitive: true,
            ..d
        };
        for base in 0..8 {
            for pad in 0..8 {
                let text = format!("{}const struct FILE_operations x;", "#".repeat(pad));
                assert!(masked("struct file_operations", ci, &text, base));
            }
        }
        assert!(matches!(q("mutex_lock"), TriQuery::Seq(_)));
        // Rotation: the i-th trigram's offset is p + i.
        assert!(seq_holds([0b1, 0b10, 0b100].into_iter()));
        assert!(seq_holds([0x80, 0x01].into_iter()));
        assert!(!seq_holds([0b1, 0b1].into_iter()));
    }

    #[test]
    fn case_folding_covers_long_s_and_kelvin() {
        let ci = QueryFlags {
            case_insensitive: true,
            ..QueryFlags::default()
        };
        assert!(holds("mask", ci, "MAſK"));
        assert!(holds("kmalloc", ci, "\u{212A}MALLOC"));
        assert!(!holds("kmalloc", ci, "vmalloc"));
        let smart = QueryFlags {
            smart_case: true,
            ..QueryFlags::default()
        };
        assert!(holds("kmalloc", smart, "KMALLOC"));
        assert!(!holds("Kmalloc", smart, "kmalloc"));
    }

    #[test]
    fn alternations_and_patterns() {
        let qq = patterns_query(&["ERR_SYS", "PME_TURN_OFF"], QueryFlags::default());
        let t = text_keys(b"PME_TURN_OFF");
        assert!(qq.eval(&|x| t.binary_search(&x).is_ok()));
        let t = text_keys(b"ERR_SY");
        assert!(!qq.eval(&|x| t.binary_search(&x).is_ok()));
        assert!(holds("a(bc|de)f+gh", QueryFlags::default(), "adeffgh"));
    }
}
