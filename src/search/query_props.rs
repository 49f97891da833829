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

/// An atom: a pattern and strings it matches, mostly the pattern's own spelling, sometimes
/// another of them (a case variant, another member of a class).
fn variant(l: &str, vs: &[&str]) -> BoxedStrategy<(String, String)> {
    let l = l.to_string();
    let vs: Vec<String> = vs.iter().map(|v| v.to_string()).collect();
    prop_oneof![3 => Just(vs[0].clone()), 1 => prop::sample::select(vs)]
        .prop_map(move |v| (l.clone(), v))
        .boxed()
}

/// A pattern with a string it (usually) matches: atoms over a small alphabet with case variants
/// (including U+017F and U+212A), classes, anchors, repetitions and alternations.
fn atom() -> impl Strategy<Value = (String, String)> {
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
        6 => big_class(),
        2 => variant("€", &["€"]),
        2 => variant("😀", &["😀"]),
        1 => variant("ß", &["ß", "ẞ"]),
        1 => variant("\\x{E9}", &["é", "É"]),
        // Bytes with Unicode off (a text's U+E000..U+E003 stand for the bytes 0xE9, 0xFF, 0x80
        // and 0x88: see `bytes`).
        1 => variant("(?-u:\\xE9)", &["\u{E000}"]),
        1 => variant("(?-u:[\\x80-\\xFF])", &["\u{E000}", "\u{E001}", "é", "\u{E002}"]),
        // Nine bytes from the lowest non-ASCII one: too many to list, so their byte keys.
        1 => variant("(?-u:[\\x80-\\x88])", &["\u{E002}", "\u{E003}"]),
    ]
}

/// A class of many non-ASCII members (more than the query lists as strings), so what every
/// match holds is one of the class's own keys (`keys::class_keys`), not keys of listed strings
/// that the text's keys would share any defect with. Its members are mostly two-byte characters,
/// whose pair key is taken at the second-to-last byte of a text they end.
fn big_class() -> BoxedStrategy<(String, String)> {
    prop_oneof![
        // Two leads with a few second bytes each: their pair keys.
        2 => variant("[àáâãäåāăą]", &["à", "ą", "Ä", "Ą", "å", "ā"]),
        // One lead with exactly `PER_LEAD` (8) second bytes, so pair keys, and another lead.
        2 => variant("[абвгдежзαβγ]", &["з", "а", "γ", "α", "Ж"]),
        // One lead with nine second bytes: its byte key.
        1 => variant("[абвгдежзи]", &["и", "а", "з"]),
        // Two second bytes on each of 28 leads: 56 pair keys (at most `MAX_KEYS`)...
        1 => variant(&leads_class(0), &["\u{100}", "\u{7C1}", "\u{441}", "\u{101}"]),
        // ... and with 15 three-byte characters too, over it: the leads' byte keys.
        1 => variant(&leads_class(15), &["\u{7C1}", "\u{1000}", "\u{F000}", "\u{100}"]),
    ]
    .boxed()
}

/// A class of 56 + `three` pair keys: the characters `lead 0x80` and `lead 0x81` for every
/// two-byte lead 0xC4..=0xDF, and `lead 0x80 0x80` for `three` three-byte leads from 0xE1.
fn leads_class(three: u32) -> String {
    let mut s = String::from("[");
    for lead in 0xC4u32..=0xDF {
        for second in 0..2 {
            s.push(char::from_u32((lead & 0x1F) << 6 | second).unwrap());
        }
    }
    for lead in 0xE1u32..0xE1 + three {
        s.push(char::from_u32((lead & 0xF) << 12).unwrap());
    }
    s.push(']');
    s
}

/// A generated text's bytes: U+E000..U+E003 become the lone bytes 0xE9, 0xFF, 0x80 and 0x88
/// (Latin-1 and invalid UTF-8, as in a file that is not UTF-8).
fn bytes(t: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for ch in t.chars() {
        match ch {
            '\u{E000}' => out.push(0xE9),
            '\u{E001}' => out.push(0xFF),
            '\u{E002}' => out.push(0x80),
            '\u{E003}' => out.push(0x88),
            c => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out
}

/// A pattern and a string it (usually) matches; sometimes a large non-ASCII class alone, so
/// that nothing but the class's keys is required of a text its member ends.
fn pattern() -> impl Strategy<Value = (String, String)> {
    prop_oneof![6 => composed(), 1 => big_class()]
}

fn composed() -> impl Strategy<Value = (String, String)> {
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
    p.eval(q, n, to, &|| false)
        .is_none_or(|b| b.iter().any(|&w| w != 0))
}

/// Text around a match: ASCII and non-ASCII characters, Latin-1 and invalid bytes.
fn noise() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        12 => "[abcksABCKS \n]".prop_map(|s| s.to_string()),
        2 => prop::sample::select(vec![
            "ſ", "\u{212A}", "é", "€", "α", "😀", "ą", "à", "з", "γ", "и", "\u{7C1}", "\u{F000}",
            "\u{E000}", "\u{E001}", "\u{E002}", "\u{E003}",
        ])
        .prop_map(|s| s.to_string()),
    ];
    prop::collection::vec(ch, 0..12).prop_map(|v| v.concat())
}

/// Text after a match: often none, so the match's last character ends the text, where a key is
/// taken from fewer than three bytes (`keys::keys_at`).
fn tail() -> impl Strategy<Value = String> {
    prop_oneof![1 => Just(String::new()), 2 => noise()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]
    #[test]
    fn a_match_implies_the_query(
        pe in prop::collection::vec(pattern(), 1..=2),
        pick in any::<prop::sample::Index>(),
        pre in noise(), post in tail(),
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

/// Whether the query of `p` (default flags) holds on the keys of `text`.
fn holds(p: &str, text: &str) -> bool {
    let (_, q) = built(&[p.to_string()], MatchFlags::default()).unwrap();
    let keys = text_keys(text.as_bytes());
    q.eval(&|x| keys.binary_search(&x).is_ok())
}

/// The bounds of a large class's keys (`keys::class_keys`): a lead with up to `PER_LEAD` (8)
/// second bytes keeps their pair keys, and a class of up to `MAX_KEYS` (64) keys keeps them all,
/// so a character sharing only a lead byte with the class is pruned; one past either bound, the
/// lead's byte key stands for them (fewer keys to look up, sound, and that character is then a
/// candidate). The soundness property cannot see these bounds: either side of them is sound.
#[test]
fn large_classes_keep_pair_keys_up_to_their_bounds() {
    // D0 B0..B7 and three of CE: pair keys. `и` is D0 B8.
    assert!(holds("[абвгдежзαβγ]", "з"));
    assert!(!holds("[абвгдежзαβγ]", "и"));
    // D0 B0..B8: nine second bytes, so the byte key of D0, which `й` (D0 B9) holds.
    assert!(holds("[абвгдежзи]", "и"));
    assert!(holds("[абвгдежзи]", "й"));
    // 64 pair keys: `Ă` (C4 82) shares the lead C4 with `Ā` and `ā` only.
    assert!(holds(&leads_class(8), "\u{1000}"));
    assert!(!holds(&leads_class(8), "Ă"));
    // 65: the leads' byte keys.
    assert!(holds(&leads_class(9), "Ă"));
}
