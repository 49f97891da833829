//! Offline, exact simulation of ways to prune more candidates (issue 39's median rows), run by
//! hand: `IXSIM_ROOT=DIR IXSIM_FILES=LIST IXSIM_QUERIES=TSV IXSIM_TRUTH=DIR cargo test --release
//! --lib index::prune_sim -- --ignored --nocapture` (`benches/index_prune_sim.sh` prepares the
//! inputs). Not part of the index: it reads files with `std::fs` (operator-given paths only).
//!
//! For every query the candidates are counted under several schemes of units and masks: the
//! chunk size (`scan::CHUNK`), the position mask's modulus (8 today: bit `offset mod 8`) and an
//! optional line mask (bit `line mod L` of every line a key starts on; a line-oriented match has
//! all its keys on one line, so a unit whose required keys share no line residue cannot hold
//! one). Each scheme refines the keys' presence, so each is sound by construction; the counts are
//! of files with at least one passing unit (and the bytes of passing units, what the chunked
//! reader would read). `postings` counts the postings (distinct keys per unit) and their
//! delta-varint bytes for each chunk size over the whole tree.

// In a test module of its own: tests may reach the layers above the index (the matcher's parse).
#[cfg(test)]
mod tests {
    use super::super::keys::{keys_at, Key, KEY_SPACE};
    use super::super::query::TriQuery;
    use crate::search::matcher::{query_of, MatchFlags};
    use std::collections::{BTreeSet, HashMap};

    /// One way of describing units: chunk size, position modulus, line modulus (1: no line mask).
    #[derive(Clone, Copy, Debug)]
    struct Scheme {
        chunk: usize,
        pos: u32,
        line: u32,
    }

    /// The tree (`IXSIM_ROOT`) and its files' paths, one a line (`IXSIM_FILES`).
    fn tree() -> (std::path::PathBuf, Vec<String>) {
        let files = std::fs::read_to_string(env("IXSIM_FILES"))
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        (std::path::PathBuf::from(env("IXSIM_ROOT")), files)
    }

    fn env(k: &str) -> String {
        std::env::var(k).unwrap_or_else(|_| panic!("set {k}"))
    }

    fn full(bits: u32) -> u64 {
        if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        }
    }

    fn rotr(m: u64, r: u32, bits: u32) -> u64 {
        let r = r % bits;
        if r == 0 {
            m
        } else {
            ((m >> r) | (m << (bits - r))) & full(bits)
        }
    }

    /// Where the scan's chunks start in `text` (`scan::scan_chunks`'s rule): at the first `i` at
    /// least `chunk` trigram starts after the last start, just after a line's end, where a trigram
    /// starts.
    fn chunk_starts(text: &[u8], chunk: usize) -> Vec<usize> {
        let mut starts = vec![0];
        let mut in_chunk = 0usize;
        let n = text.len();
        let mut i = 0;
        while i + 3 <= n {
            if in_chunk >= chunk && i > 0 && text[i - 1] == b'\n' {
                starts.push(i);
                in_chunk = 0;
            }
            in_chunk += 1;
            i += 1;
        }
        starts
    }

    /// Per unit, a key's position and line masks.
    type Masks = HashMap<Key, (u64, u64)>;

    /// The query's line mask on a unit (0: the unit cannot hold a match).
    fn eval(q: &TriQuery, m: &Masks, s: Scheme) -> u64 {
        let lfull = full(s.line);
        match q {
            TriQuery::All => lfull,
            TriQuery::None => 0,
            TriQuery::Tri(t) => m.get(t).map_or(0, |x| x.1),
            TriQuery::Seq(v) => {
                let mut a = full(s.pos);
                let mut l = lfull;
                for (i, t) in v.iter().enumerate() {
                    let (p, lm) = m.get(t).copied().unwrap_or((0, 0));
                    a &= rotr(p, i as u32, s.pos);
                    l &= lm;
                    if a == 0 || l == 0 {
                        return 0;
                    }
                }
                l
            }
            TriQuery::And(v) => {
                let mut l = lfull;
                for q in v {
                    l &= eval(q, m, s);
                    if l == 0 {
                        return 0;
                    }
                }
                l
            }
            TriQuery::Or(v) => v.iter().fold(0, |l, q| l | eval(q, m, s)),
        }
    }

    fn keys_of(q: &TriQuery, out: &mut BTreeSet<Key>) {
        match q {
            TriQuery::Tri(t) => {
                out.insert(*t);
            }
            TriQuery::Seq(v) => out.extend(v.iter().copied()),
            TriQuery::And(v) | TriQuery::Or(v) => v.iter().for_each(|q| keys_of(q, out)),
            _ => {}
        }
    }

    fn schemes() -> Vec<(&'static str, Scheme)> {
        let s = |chunk: usize, pos, line| Scheme {
            chunk: chunk << 10,
            pos,
            line,
        };
        vec![
            ("256K, pos%8 (4839d2d)", s(256, 8, 1)),
            ("64K, pos%8", s(64, 8, 1)),
            ("32K, pos%8 (ixprune)", s(32, 8, 1)),
            ("16K, pos%8", s(16, 8, 1)),
            ("8K, pos%8", s(8, 8, 1)),
            ("256K, pos%16", s(256, 16, 1)),
            ("256K, pos%32", s(256, 32, 1)),
            ("256K, pos%8, line%8", s(256, 8, 8)),
            ("256K, pos%8, line%16", s(256, 8, 16)),
            ("256K, pos%8, line%64", s(256, 8, 64)),
            ("64K, pos%8, line%8", s(64, 8, 8)),
            ("32K, pos%16", s(32, 16, 1)),
            ("64K, pos%16, line%8", s(64, 16, 8)),
            ("256K, pos%16, line%8", s(256, 16, 8)),
        ]
    }

    /// Per query and scheme: candidates, non-matching candidates, bytes of passing units.
    #[derive(Default, Clone, Copy)]
    struct Count {
        cand: u64,
        wrong: u64,
        bytes: u64,
    }

    #[test]
    #[ignore]
    fn prune_sim() {
        let (root, files) = tree();
        let truth_dir = std::path::PathBuf::from(env("IXSIM_TRUTH"));
        let mut queries = Vec::new();
        for line in std::fs::read_to_string(env("IXSIM_QUERIES"))
            .unwrap()
            .lines()
        {
            let mut it = line.splitn(3, '\t');
            let (i, ci, p) = (it.next().unwrap(), it.next().unwrap(), it.next().unwrap());
            let flags = MatchFlags {
                case_insensitive: ci == "1",
                ..MatchFlags::default()
            };
            let q = query_of(&[p], flags);
            let truth: BTreeSet<String> =
                std::fs::read_to_string(truth_dir.join(format!("{i}.txt")))
                    .unwrap()
                    .lines()
                    .filter(|l| !l.is_empty())
                    .map(str::to_string)
                    .collect();
            if std::env::var("IXSIM_SHOW").is_ok() {
                eprintln!("{p}: {q:?}");
            }
            queries.push((p.to_string(), q, truth));
        }
        let mut qkeys = BTreeSet::new();
        for (_, q, _) in &queries {
            keys_of(q, &mut qkeys);
        }
        // Key -> whether a query needs it.
        let mut wanted = vec![false; KEY_SPACE];
        for &k in &qkeys {
            wanted[k as usize] = true;
        }
        let schemes = schemes();
        let why: Vec<usize> = std::env::var("IXSIM_WHY")
            .unwrap_or_default()
            .split(',')
            .filter_map(|s| s.parse().ok())
            .collect();
        use rayon::prelude::*;
        let per_file: Vec<(Vec<Vec<Count>>, Vec<String>)> = files
            .par_iter()
            .map(|rel| {
                let mut counts = vec![vec![Count::default(); schemes.len()]; queries.len()];
                let mut notes = Vec::new();
                let Ok(text) = std::fs::read(root.join(rel)) else {
                    return (counts, notes);
                };
                // Occurrences of the queries' keys: (key, offset, line).
                let mut occ: Vec<(Key, usize, u32)> = Vec::new();
                let mut line = 0u32;
                for i in 0..text.len() {
                    let _ = keys_at(&text[i..(i + 3).min(text.len())], |k| {
                        if wanted[k as usize] {
                            occ.push((k, i, line));
                        }
                        Ok::<(), ()>(())
                    });
                    if text[i] == b'\n' {
                        line += 1;
                    }
                }
                let mut starts_of: HashMap<usize, Vec<usize>> = HashMap::new();
                for (si, (_, s)) in schemes.iter().enumerate() {
                    let starts = starts_of
                        .entry(s.chunk)
                        .or_insert_with(|| chunk_starts(&text, s.chunk))
                        .clone();
                    let mut units: Vec<Masks> = vec![Masks::new(); starts.len()];
                    for &(k, off, ln) in &occ {
                        let u = starts.partition_point(|&st| st <= off) - 1;
                        let e = units[u].entry(k).or_insert((0, 0));
                        e.0 |= 1u64 << (off as u64 % s.pos as u64);
                        e.1 |= 1u64 << (ln % s.line);
                    }
                    for (qi, (_, q, truth)) in queries.iter().enumerate() {
                        let mut pass = false;
                        let mut bytes = 0u64;
                        for (u, m) in units.iter().enumerate() {
                            if eval(q, m, *s) != 0 {
                                pass = true;
                                let end = starts.get(u + 1).copied().unwrap_or(text.len());
                                bytes += (end - starts[u]) as u64;
                            }
                        }
                        if pass {
                            let hit = truth.contains(rel);
                            let c = &mut counts[qi][si];
                            c.cand += 1;
                            c.wrong += !hit as u64;
                            c.bytes += if starts.len() > 1 {
                                bytes
                            } else {
                                text.len() as u64
                            };
                            if si == 0 && !hit && why.contains(&qi) {
                                notes.push(why_note(qi, q, &units, &starts, &text, rel));
                            }
                        }
                    }
                }
                (counts, notes)
            })
            .collect();
        let mut total = vec![vec![Count::default(); schemes.len()]; queries.len()];
        let mut notes = Vec::new();
        for (c, n) in per_file {
            for (qi, row) in c.iter().enumerate() {
                for (si, x) in row.iter().enumerate() {
                    let t = &mut total[qi][si];
                    t.cand += x.cand;
                    t.wrong += x.wrong;
                    t.bytes += x.bytes;
                }
            }
            notes.extend(n);
        }
        println!("# candidates (non-matching) [MB of passing units] per query and scheme");
        print!("query\tmatch");
        for (name, _) in &schemes {
            print!("\t{name}");
        }
        println!();
        for (qi, (p, _, truth)) in queries.iter().enumerate() {
            print!("{p}\t{}", truth.len());
            for c in &total[qi] {
                print!("\t{} ({}) [{:.1}]", c.cand, c.wrong, c.bytes as f64 / 1e6);
            }
            println!();
        }
        if let Ok(path) = std::env::var("IXSIM_NOTES") {
            std::fs::write(path, notes.join("\n")).unwrap();
        }
    }

    /// Why a non-matching file passes today's scheme: its size, units, the passing units' sizes,
    /// and per required key of the passing units how many residues its mask has (8: saturated).
    fn why_note(
        qi: usize,
        q: &TriQuery,
        units: &[Masks],
        starts: &[usize],
        text: &[u8],
        rel: &str,
    ) -> String {
        let mut keys = BTreeSet::new();
        keys_of(q, &mut keys);
        let mut passing = Vec::new();
        for (u, m) in units.iter().enumerate() {
            let s = Scheme {
                chunk: 0,
                pos: 8,
                line: 1,
            };
            if eval(q, m, s) != 0 {
                let end = starts.get(u + 1).copied().unwrap_or(text.len());
                let sat: Vec<u32> = keys
                    .iter()
                    .filter_map(|k| m.get(k).map(|x| x.0.count_ones()))
                    .collect();
                let full = sat.iter().filter(|&&c| c == 8).count();
                passing.push(format!(
                    "unit{u}:{}B keys_present={} saturated={}",
                    end - starts[u],
                    sat.len(),
                    full
                ));
            }
        }
        format!(
            "{qi}\t{rel}\t{}\t{}\t{}",
            text.len(),
            units.len(),
            passing.join(" ")
        )
    }

    /// Postings (distinct keys per unit) and their delta-varint bytes over the whole tree, per chunk
    /// size, unit ids given in the files' order.
    #[test]
    #[ignore]
    fn prune_sim_postings() {
        let (root, files) = tree();
        let sizes: Vec<usize> = std::env::var("IXSIM_CHUNKS")
            .unwrap_or("256,64,32,16,8".into())
            .split(',')
            .map(|s| s.parse::<usize>().unwrap() << 10)
            .collect();
        let varint = |v: u32| match v {
            0..=0x7F => 1u64,
            0x80..=0x3FFF => 2,
            0x4000..=0x1F_FFFF => 3,
            0x20_0000..=0xFFF_FFFF => 4,
            _ => 5,
        };
        for &chunk in &sizes {
            // Last unit (+1) each key was posted in.
            let mut last = vec![0u32; KEY_SPACE];
            let mut unit = 0u32;
            let (mut postings, mut id_bytes, mut units, mut keys) = (0u64, 0u64, 0u64, 0u64);
            for rel in &files {
                let Ok(text) = std::fs::read(root.join(rel)) else {
                    continue;
                };
                let starts = chunk_starts(&text, chunk);
                units += starts.len() as u64;
                let mut next = 1;
                unit += 1;
                for i in 0..text.len() {
                    if next < starts.len() && i == starts[next] {
                        unit += 1;
                        next += 1;
                    }
                    let _ = keys_at(&text[i..(i + 3).min(text.len())], |k| {
                        let l = &mut last[k as usize];
                        if *l != unit {
                            if *l == 0 {
                                keys += 1;
                            }
                            postings += 1;
                            id_bytes += varint(unit - *l);
                            *l = unit;
                        }
                        Ok::<(), ()>(())
                    });
                }
            }
            println!(
            "chunk {} KiB: units {units}, keys {keys}, postings {postings}, id bytes {:.1} MB, \
             +1 mask byte {:.1} MB, +2 {:.1} MB",
            chunk >> 10,
            id_bytes as f64 / 1e6,
            (id_bytes + postings) as f64 / 1e6,
            (id_bytes + 2 * postings) as f64 / 1e6,
        );
        }
    }
}
