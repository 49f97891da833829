//! The soundness property of the index's query: whenever a search's matcher finds a match in a
//! text, the text's keys (trigrams and pseudo-keys) satisfy the query made from that matcher's own parse
//! ([`Compiled::hir`]), and for a line-oriented search so do those of one of the text's chunks
//! (`index::scan`). Matcher and query come from one build, so a change to how the matcher reads a
//! pattern (its smart-case decision, its flags) is a change to the query too. The keys carry
//! their position masks (offsets in the whole text, chunks included), evaluated both by the
//! query's own evaluator and by posting lists built from the chunks, per chunk and (multiline) per
//! file.

use crate::core::deadline::Deadline;
use crate::core::policy::Limits;
use crate::index::keys::{unit_keys, UnitKeys};
use crate::index::postings::Postings;
use crate::index::{hir_query, query::text_keys, scan_all};
use crate::search::matcher::{build_any, Compiled, MatchFlags};
use grep_matcher::Matcher;
use proptest::prelude::*;

/// The search's own build of `patterns` under `f`: its matcher, and its query.
fn built(patterns: &[String], f: MatchFlags) -> Option<(Compiled, crate::index::TriQuery)> {
    let deadline = Deadline::detached(std::time::Duration::from_secs(60));
    let c = build_any(
        &patterns[0],
        &patterns[1..],
        f,
        &Limits::default(),
        &deadline,
    )
    .ok()?;
    let q = hir_query(c.hir.as_deref()?);
    Some((c, q))
}

/// A pattern with a string it (usually) matches: atoms over a small alphabet with case variants
/// (including U+017F and U+212A), classes, anchors, repetitions and alternations.
fn atom() -> impl Strategy<Value = (String, String)> {
    fn variant(l: &'static str, vs: &'static [&'static str]) -> BoxedStrategy<(String, String)> {
        // Mostly the pattern's own spelling, sometimes another case variant.
        prop_oneof![3 => Just(vs[0]), 1 => prop::sample::select(vs)]
            .prop_map(move |v| (l.to_string(), v.to_string()))
            .boxed()
    }
    prop_oneof![
        4 => variant("a", &["a", "A"]),
        4 => variant("b", &["b", "B"]),
        4 => variant("c", &["c", "C"]),
        4 => variant("k", &["k", "K", "\u{212A}"]),
        4 => variant("s", &["s", "S", "ſ"]),
        4 => variant("K", &["K", "k", "\u{212A}"]),
        4 => variant("S", &["S", "s", "ſ"]),
        1 => variant("ſ", &["ſ", "s", "S"]),
        1 => variant("\u{212A}", &["\u{212A}", "k", "K"]),
        4 => variant("é", &["é", "É"]),
        1 => variant(".", &["a", "k", "é", " "]),
        1 => variant("[a-c]", &["a", "b", "c", "B"]),
        1 => variant("[^a]", &["b", "k", " ", "A"]),
        1 => variant("[kK]", &["k", "K", "\u{212A}"]),
        1 => variant("\\w", &["a", "s", "ſ"]),
        1 => variant("\\s", &[" ", "\n"]),
        // A line's end: a multiline match across lines, and so across chunks.
        1 => variant("\\n", &["\n"]),
        1 => variant("\\b", &[""]),
        1 => variant("\\x20", &[" "]),
        1 => variant("$", &[""]),
        // Non-ASCII: classes too large to list (keys of their lead pairs or lead bytes), small
        // ones, literals shorter than a trigram, one to four bytes per character.
        2 => variant("\\p{Greek}", &["α", "Ω", "ϐ", "ἀ", "\u{1D200}"]),
        1 => variant("\\p{Han}", &["中", "\u{2E80}", "\u{20000}", "〇"]),
        2 => variant("[^\\x00-\\x7F]", &["é", "α", "€", "😀", "\u{80}", "\u{10FFFF}"]),
        1 => variant("[α-ω]", &["β", "Σ", "ς"]),
        1 => variant("[€—]", &["€", "—"]),
        // Nine members, a few per lead byte: their pair keys (of 2-byte characters, which may
        // end a text).
        2 => variant("[àáâãäåāăą]", &["à", "ą", "Ä", "Ą"]),
        1 => variant("[\\u{80}-\\u{10FFFF}&&\\p{So}]", &["©", "😀", "☃"]),
        2 => variant("€", &["€"]),
        2 => variant("😀", &["😀"]),
        1 => variant("ß", &["ß", "ẞ"]),
        1 => variant("\\x{E9}", &["é", "É"]),
        // Bytes with Unicode off (a text's U+E000 and U+E001 stand for the bytes 0xE9 and 0xFF:
        // see `bytes`).
        1 => variant("(?-u:\\xE9)", &["\u{E000}"]),
        1 => variant("(?-u:[\\x80-\\xFF])", &["\u{E000}", "\u{E001}", "é"]),
    ]
}

/// A generated text's bytes: U+E000 and U+E001 become the lone bytes 0xE9 and 0xFF (Latin-1 and
/// invalid UTF-8, as in a file that is not UTF-8).
fn bytes(t: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for ch in t.chars() {
        match ch {
            '\u{E000}' => out.push(0xE9),
            '\u{E001}' => out.push(0xFF),
            c => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out
}

fn pattern() -> impl Strategy<Value = (String, String)> {
    let leaf = prop::collection::vec(atom(), 1..6).prop_map(|v| {
        let (p, t): (Vec<_>, Vec<_>) = v.into_iter().unzip();
        (p.concat(), t.concat())
    });
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(|v| {
                let (p, t): (Vec<_>, Vec<_>) = v.into_iter().unzip();
                (p.concat(), t.concat())
            }),
            (
                prop::collection::vec(inner.clone(), 2..4),
                any::<prop::sample::Index>()
            )
                .prop_map(|(v, i)| {
                    let t = v[i.index(v.len())].1.clone();
                    let p: Vec<_> = v.into_iter().map(|x| x.0).collect();
                    (format!("(?:{})", p.join("|")), t)
                }),
            (
                inner.clone(),
                prop::sample::select(vec![
                    ("*", 0usize, 3usize),
                    ("+", 1, 3),
                    ("?", 0, 1),
                    ("{2}", 2, 2),
                    ("{1,3}", 1, 3),
                    ("{0,2}", 0, 2),
                    ("{4,}", 4, 5)
                ]),
                any::<prop::sample::Index>()
            )
                .prop_map(|((p, t), (r, lo, hi), i)| {
                    let n = lo + i.index(hi - lo + 1);
                    (format!("(?:{p}){r}"), t.repeat(n))
                }),
        ]
    })
}

/// Whether lists built from `units` (one file's chunks) say some unit, or with `whole` the file
/// (its units together), may hold `q`.
fn lists_hold(units: &[UnitKeys], q: &crate::index::TriQuery, whole: bool) -> bool {
    let p = Postings::of_units(units);
    let to = vec![0u32; units.len()];
    let (n, to) = if whole {
        (1, Some(&to[..]))
    } else {
        (units.len(), None)
    };
    p.eval(q, n, to).is_none_or(|b| b.iter().any(|&w| w != 0))
}

fn noise() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            "[abcksABCKS \n]".prop_map(|s| s.to_string()),
            Just("ſ".to_string()),
            Just("\u{212A}".to_string()),
            Just("é".to_string()),
            Just("€".to_string()),
            Just("α".to_string()),
            Just("😀".to_string()),
            Just("ą".to_string()),
            Just("\u{E000}".to_string()),
            Just("\u{E001}".to_string()),
        ],
        0..12,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]
    #[test]
    fn a_match_implies_the_query(
        pe in prop::collection::vec(pattern(), 1..=2),
        pick in any::<prop::sample::Index>(),
        pre in noise(), post in noise(),
        ci in any::<bool>(), smart in any::<bool>(), fixed in any::<bool>(), ml in any::<bool>(),
        word in prop::bool::weighted(0.2), line in prop::bool::weighted(0.1),
        no_unicode in prop::bool::weighted(0.1), chunk in 1usize..24, shift in 0usize..8,
    ) {
        let f = MatchFlags {
            case_insensitive: ci, smart_case: smart, fixed_strings: fixed, multiline: ml,
            word, line_regexp: line, no_unicode, ..MatchFlags::default()
        };
        let pats: Vec<String> = pe.iter().map(|x| x.0.clone()).collect();
        // The match at every offset mod 8 (the masks' residues).
        let pad = "z".repeat(shift);
        let t = bytes(&format!("{pad}{pre}{}{post}", pe[pick.index(pe.len())].1));
        let Some((c, q)) = built(&pats, f) else { return Ok(()); };
        let m = c.matcher;
        // Line-oriented searches look for matches line by line; a multiline one in the whole text.
        let texts: Vec<&[u8]> = if ml { vec![&t[..]] } else { t.split(|&b| b == b'\n').collect() };
        for piece in texts {
            if m.is_match(piece).unwrap() {
                let keys = text_keys(&t);
                prop_assert!(q.eval(&|x| keys.binary_search(&x).is_ok()),
                    "patterns {:?} match {:?} but the query {:?} does not hold", pats, t, q);
                let whole = unit_keys(&t, 0);
                prop_assert!(q.eval_masked(&|x| whole.mask(x)),
                    "patterns {:?} match {:?} but the masked query {:?} does not hold", pats, t, q);
                let chunks = scan_all(&t[..], chunk).chunks;
                // A multiline match may straddle chunks: the file's units together hold it.
                prop_assert!(lists_hold(&chunks, &q, true),
                    "patterns {:?} match {:?} but its lists do not hold {:?}", pats, t, q);
                if !ml {
                    // A line lies within one chunk of the text, so one chunk holds the query.
                    prop_assert!(
                        chunks.iter().any(|c| q.eval_masked(&|x| c.mask(x))),
                        "patterns {:?} match a line of {:?} but no chunk of {} bytes holds {:?}",
                        pats, t, chunk, q
                    );
                    prop_assert!(lists_hold(&chunks, &q, false),
                        "patterns {:?} match a line of {:?} but no unit's lists of {} bytes hold {:?}",
                        pats, t, chunk, q);
                }
            }
        }
    }

    /// Literal-heavy patterns actually prune (the property above is trivially true of `All`).
    #[test]
    fn literals_are_required(w in "[a-z]{3,8}") {
        let q = crate::search::matcher::query_of(&[w.as_str()], MatchFlags::default());
        prop_assert!(!q.is_all());
    }
}
