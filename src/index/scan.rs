//! Reading one file for the index: its keys (byte trigrams and the pseudo-keys of bytes >= 0x80,
//! `keys::keys_at` at every position) per chunk of whole lines, whether it holds a
//! NUL byte, starts with a byte-order mark, and its longest line — within a bound of its own. A
//! file whose description would pass the bound is not described (it gets no entry and is always
//! searched): reading stops there.

use super::budget::Budget;
use super::keys::{keys_at, position_bit, UnitKeys};
use super::query::Trigram;
use super::seen::{self, Seen};
use std::io::Read;

/// A file is described in chunks of whole lines of at least this many bytes (the last may be
/// shorter, a chunk holding one longer line longer): a line-oriented match lies within one line,
/// so within one chunk, and a file is a candidate only if one chunk holds the query.
///
/// 32 KiB, not 256 KiB: in a unit of a few hundred KiB a phrase's common trigrams start at every
/// offset mod 8, their position masks are full, and a phrase held apart passes by chance (on the
/// Linux tree 718 of the 1,883 candidates of `struct file_operations` were such files, median 67
/// KB). Smaller units keep the masks sparse, and a `files_with_matches` search reads only the
/// chunks that hold the query, up to the first match. Measured offline over issue 39's 24 queries
/// (`benches/index_prune_sim.sh`): non-matching candidates 9,164 -> 7,893, bytes of candidate
/// units 2.04 GB -> 1.17 GB, for 131 M -> 157 M postings (mapped 271 -> 323 MB); 16 KiB would
/// save more (7,088) for twice the postings' growth, a 16th mask bit less for more.
pub(crate) const CHUNK: usize = 32 << 10;

/// Trigrams a file's chunks may hold together (16 MiB of them) before the file is described
/// whole instead: what a scan holds stays bounded whatever the file's size.
pub(crate) const MAX_CHUNKED: usize = 1 << 22;

/// Distinct trigrams a file described whole may hold (1/16 of the 2^24 there are): a file past
/// this (random or compressed bytes) would hold most queries' trigrams anyway, so it gets no
/// entry, and its description never costs more than 4 MiB.
pub(crate) const MAX_FILE_TRIGRAMS: usize = 1 << 20;

/// A file with a line this long gets no entry (the search's own bound: see the rule it is part of).
pub(crate) use crate::walk::outcome::LONGEST_LINE;

/// The read buffer of one scan.
const BUF: usize = 1 << 20;
/// What a scan holds whatever the file: its buffer and the keys seen in the current chunk with
/// their masks (one per thread, kept between scans).
pub(crate) const FIXED: usize = BUF + seen::BYTES;

thread_local! {
    static SEEN: std::cell::RefCell<Seen> = std::cell::RefCell::new(Seen::default());
}

/// What a scan may hold and read.
pub(crate) struct Room<'a> {
    /// Bytes of trigrams the file's description may hold (its share of the build's cap).
    pub share: usize,
    /// The build's budget, which the scan's memory is taken from as it grows.
    pub all: &'a Budget,
    /// Bytes the scan may read: a file growing past them gets no entry.
    pub max_read: u64,
}

/// What [`scan`] finds in a file.
pub(crate) struct ScanFacts {
    /// The sorted distinct keys starting in each chunk, with their position masks (at least one
    /// chunk).
    pub chunks: Vec<UnitKeys>,
    /// The file offset each chunk starts at (the first at 0): where a search that reads only
    /// some chunks reads them, kept as the scan drew them rather than found again.
    pub starts: Vec<u64>,
    /// It holds a NUL byte.
    pub nul: bool,
    /// It starts with a byte-order mark.
    pub bom: bool,
    /// Its longest line, in bytes.
    pub longest_line: usize,
    /// Bytes of `chunks` taken from [`Room::all`]: given back once they are let go.
    pub held: usize,
}

impl ScanFacts {
    /// Whether the index can describe the file (see [`LONGEST_LINE`]; the searcher transcodes a
    /// file with a byte-order mark).
    pub fn describable(&self) -> bool {
        !self.bom && self.longest_line < LONGEST_LINE
    }
}

/// What came of a scan.
pub(crate) enum Scan {
    Facts(ScanFacts),
    /// Its description would pass [`Room::share`], [`MAX_FILE_TRIGRAMS`] or [`Room::max_read`]:
    /// no entry.
    Unbounded,
    /// The build's budget has no room left for it.
    NoRoom,
}

/// Memory a scan took from the build's budget, given back when the scan fails (on success its
/// chunks' part is the caller's to give back).
struct Held<'a> {
    room: &'a Room<'a>,
    /// Bytes of trigram vectors taken.
    tris: usize,
    fixed: bool,
}

/// Why a scan stops early.
enum Stop {
    Unbounded,
    NoRoom,
}

impl Held<'_> {
    fn take(&mut self, n: usize) -> Result<(), Stop> {
        if self.tris + n > self.room.share {
            return Err(Stop::Unbounded);
        }
        if !self.room.all.take(n) {
            return Err(Stop::NoRoom);
        }
        self.tris += n;
        Ok(())
    }

    fn give(&mut self, n: usize) {
        self.room.all.give(n);
        self.tris -= n;
    }

    /// Room in `v` for one more trigram, taken before it is allocated (the old buffer and the new
    /// coexist while it moves).
    fn grow(&mut self, v: &mut Vec<Trigram>) -> Result<(), Stop> {
        if v.len() < v.capacity() {
            return Ok(());
        }
        let t = std::mem::size_of::<Trigram>();
        let (old, new) = (v.capacity(), (v.capacity() * 2).max(4096));
        self.take(new * t)?;
        v.reserve_exact(new - v.len());
        self.give(old * t);
        // A larger buffer than asked for is accounted as it is.
        let more = (v.capacity() - new) * t;
        self.room.all.force(more);
        self.tris += more;
        Ok(())
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.room
            .all
            .give(self.tris + if self.fixed { FIXED } else { 0 });
    }
}

/// Reads `f` whole in blocks, with chunks of `chunk` bytes (see [`CHUNK`]), within `room`.
pub(crate) fn scan(f: impl Read, chunk: usize, room: &Room<'_>) -> std::io::Result<Scan> {
    if !room.all.take(FIXED) {
        return Ok(Scan::NoRoom);
    }
    let mut held = Held {
        room,
        tris: 0,
        fixed: true,
    };
    match scan_within(f, chunk, &mut held) {
        Ok(Ok(mut facts)) => {
            // The chunks' memory goes with them; the buffer and the bitmap stay the scan's.
            facts.held = std::mem::take(&mut held.tris);
            Ok(Scan::Facts(facts))
        }
        Ok(Err(Stop::Unbounded)) => Ok(Scan::Unbounded),
        Ok(Err(Stop::NoRoom)) => Ok(Scan::NoRoom),
        Err(e) => Err(e),
    }
}

#[inline]
/// Adds `t` to the trigrams of the current chunk unless seen in it already, and `bits` to its
/// position mask.
fn note(
    t: Trigram,
    bits: u8,
    seen: &mut Seen,
    tris: &mut Vec<Trigram>,
    held: &mut Held,
) -> Result<(), Stop> {
    if seen.note(t, bits) {
        held.grow(tris)?;
        tris.push(t);
    }
    Ok(())
}

/// The current chunk's keys, sorted, with their masks; `seen` cleared for the next chunk. The
/// masks' bytes are taken from the budget (a fifth of the keys').
fn finish_chunk(
    tris: &mut Vec<Trigram>,
    seen: &mut Seen,
    held: &mut Held,
) -> Result<UnitKeys, Stop> {
    let mut keys = std::mem::take(tris);
    keys.sort_unstable();
    let masks: Vec<u8> = keys.iter().map(|&t| seen.mask(t)).collect();
    seen.clear(&keys);
    let u = UnitKeys { keys, masks };
    if let Err(why) = held.take(u.masks.capacity()) {
        held.give(u.keys.capacity() * std::mem::size_of::<Trigram>());
        return Err(why);
    }
    Ok(u)
}

fn scan_within(
    mut f: impl Read,
    chunk: usize,
    held: &mut Held,
) -> std::io::Result<Result<ScanFacts, Stop>> {
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        seen.ready();
        let mut tris = Vec::new();
        let r = scan_chunks(&mut f, chunk, held, &mut seen, &mut tris);
        // Cleared on every way out: the table is the thread's, for its next scan.
        seen.clear(&tris);
        if let Ok(Err(_)) | Err(_) = &r {
            let t = std::mem::size_of::<Trigram>();
            held.give(tris.capacity() * t);
        }
        r
    })
}

/// Folds the finished `chunks` into the current chunk's keys (the file is then described whole),
/// giving back each chunk's memory, those not folded too when one fails.
fn fold_chunks(
    chunks: &mut Vec<UnitKeys>,
    seen: &mut Seen,
    tris: &mut Vec<Trigram>,
    held: &mut Held,
) -> Result<(), Stop> {
    let mut rest = std::mem::take(chunks).into_iter();
    while let Some(c) = rest.next() {
        let folded =
            (c.keys.iter().zip(&c.masks)).try_for_each(|(&t, &m)| note(t, m, seen, tris, held));
        held.give(c.bytes());
        if let Err(why) = folded {
            held.give(rest.map(|c| c.bytes()).sum());
            return Err(why);
        }
    }
    Ok(())
}

fn scan_chunks(
    f: &mut impl Read,
    mut chunk: usize,
    held: &mut Held,
    seen: &mut Seen,
    tris: &mut Vec<Trigram>,
) -> std::io::Result<Result<ScanFacts, Stop>> {
    let mut chunks: Vec<UnitKeys> = Vec::new();
    let mut starts = vec![0u64];
    // A failed scan gives back what its finished chunks hold.
    let fail = |chunks: Vec<UnitKeys>,
                held: &mut Held,
                why: Stop|
     -> std::io::Result<Result<ScanFacts, Stop>> {
        held.give(chunks.iter().map(UnitKeys::bytes).sum());
        Ok(Err(why))
    };
    // Trigrams held in finished chunks.
    let mut in_chunks = 0usize;
    let mut in_chunk = 0usize;
    let mut buf = vec![0u8; BUF];
    let mut carry: Vec<u8> = Vec::new();
    let (mut nul, mut first, mut bom) = (false, true, false);
    let (mut line, mut longest_line) = (0usize, 0usize);
    let mut read = 0u64;
    // The file offset of `data[0]`: masks are by offsets in the file, not in the chunk.
    let mut base = 0u64;
    // The byte before `data[0]` (none at the file's start): where a chunk may start depends on the
    // bytes alone, not on how reads split them (a test checks `starts` against the rule).
    let mut before: Option<u8> = None;
    loop {
        let n = match f.read(&mut buf[carry.len()..]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        read += n as u64;
        if read > held.room.max_read {
            // It grew past the size the build reads: not described.
            return fail(chunks, held, Stop::Unbounded);
        }
        buf[..carry.len()].copy_from_slice(&carry);
        let data = &buf[..carry.len() + n];
        for piece in data[carry.len()..].split_inclusive(|&b| b == b'\n') {
            line += piece.len();
            longest_line = longest_line.max(line);
            if piece.ends_with(b"\n") {
                line = 0;
            }
        }
        if first {
            bom = data.starts_with(b"\xEF\xBB\xBF")
                || data.starts_with(b"\xFF\xFE")
                || data.starts_with(b"\xFE\xFF");
            first = false;
        }
        nul |= memchr::memchr(0, data).is_some();
        for (k, w) in data.windows(3).enumerate() {
            // A new chunk starts only just after a line's end.
            let prev = if k > 0 { Some(data[k - 1]) } else { before };
            if in_chunk >= chunk && prev == Some(b'\n') {
                let done = match finish_chunk(tris, seen, held) {
                    Ok(done) => done,
                    Err(why) => return fail(chunks, held, why),
                };
                in_chunks += done.keys.len();
                chunks.push(done);
                starts.push(base + k as u64);
                in_chunk = 0;
                if in_chunks > MAX_CHUNKED {
                    // A file this varied is described whole: its chunks' trigrams together
                    // would grow with its size, a whole file's stay bounded.
                    chunk = usize::MAX;
                    starts.truncate(1);
                    if let Err(why) = fold_chunks(&mut chunks, seen, tris, held) {
                        return fail(chunks, held, why);
                    }
                }
            }
            in_chunk += 1;
            let bit = position_bit(base + k as u64);
            if let Err(why) = keys_at(w, |key| note(key, bit, seen, tris, held)) {
                return fail(chunks, held, why);
            }
            if chunk == usize::MAX && tris.len() > MAX_FILE_TRIGRAMS {
                return fail(chunks, held, Stop::Unbounded);
            }
        }
        let keep = data.len().min(2);
        if data.len() > keep {
            before = Some(data[data.len() - keep - 1]);
        }
        base += (data.len() - keep) as u64;
        carry = data[data.len() - keep..].to_vec();
    }
    // The keys starting at the last two bytes, where no trigram starts (all of a file shorter
    // than 3 bytes): the last chunk's.
    for i in 0..carry.len() {
        let bit = position_bit(base + i as u64);
        if let Err(why) = keys_at(&carry[i..], |k| note(k, bit, seen, tris, held)) {
            return fail(chunks, held, why);
        }
    }
    match finish_chunk(tris, seen, held) {
        Ok(last) => chunks.push(last),
        Err(why) => return fail(chunks, held, why),
    }
    Ok(Ok(ScanFacts {
        chunks,
        starts,
        nul,
        bom,
        longest_line,
        held: 0,
    }))
}

/// The distinct keys of all `chunks` (one file's), sorted, their masks ORed.
pub(crate) fn union(chunks: Vec<UnitKeys>) -> UnitKeys {
    UnitKeys::union(chunks)
}

/// A scan with room for any file (tests, and descriptions, which have a room of their own).
#[cfg(test)]
pub(crate) fn scan_all(f: impl Read, chunk: usize) -> ScanFacts {
    let all = Budget::new(usize::MAX);
    let room = Room {
        share: usize::MAX,
        all: &all,
        max_read: u64::MAX,
    };
    match scan(f, chunk, &room).unwrap() {
        Scan::Facts(f) => f,
        _ => panic!("unbounded"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` bytes of varied text: lines of 100 pseudo-random bytes of `symbols` kinds (no NUL, no
    /// newline inside).
    fn varied(n: usize, symbols: u64) -> Vec<u8> {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        (0..n)
            .map(|i| {
                if i % 101 == 100 {
                    return b'\n';
                }
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                b'\n' + 1 + ((x >> 33) % symbols) as u8
            })
            .collect()
    }

    fn room(all: &Budget, share: usize) -> Room<'_> {
        Room {
            share,
            all,
            max_read: u64::MAX,
        }
    }

    #[test]
    fn chunks_hold_every_trigram_and_stay_bounded() {
        // Small enough: chunks of whole lines, together the whole file's trigrams.
        let text = varied(1 << 20, 240);
        let whole = scan_all(&text[..], usize::MAX).chunks;
        let chunked = scan_all(&text[..], CHUNK).chunks;
        assert_eq!(whole.len(), 1);
        assert!(chunked.len() >= 4, "{}", chunked.len());
        // Masks are by file offsets: the chunks' together hold the whole file's bits.
        let (u, w) = (union(chunked), &whole[0]);
        assert_eq!(u.keys, w.keys);
        let exact = super::super::keys::unit_keys(&text, 0);
        assert_eq!(w.keys, exact.keys);
        for (m, e) in u.masks.iter().zip(&exact.masks) {
            assert_eq!(m & e, *e);
        }
        // Its chunks would hold more than MAX_CHUNKED trigrams, the whole file fewer than
        // MAX_FILE_TRIGRAMS (94 symbols): described whole.
        let text = varied(8 << 20, 94);
        let whole = scan_all(&text[..], usize::MAX).chunks;
        let chunked = scan_all(&text[..], CHUNK).chunks;
        assert_eq!(chunked.len(), 1);
        assert_eq!(chunked, whole);
    }

    /// Hands out a text in reads of pseudo-random lengths (1 to 40 bytes).
    struct Choppy<'a>(&'a [u8], u64);

    impl Read for Choppy<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            self.1 = self.1.wrapping_mul(6364136223846793005).wrapping_add(1);
            let n = ((self.1 >> 40) % 40 + 1) as usize;
            let n = n.min(out.len()).min(self.0.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// Where the chunk after the one starting at `from` starts in a file of `size` bytes, read through
    /// `read_at` (offset, buffer): [`scan`]'s rule, written again from its words: the reference the scan's `starts` are checked against. A chunk
    /// starts at the first place `p` at least `chunk` bytes past the last start where the byte before
    /// is a line's end and a trigram starts (`p + 3 <= size`). `None`: the chunk at `from` is the last.
    fn next_chunk_start(
        read_at: &mut impl FnMut(u64, &mut [u8]) -> std::io::Result<usize>,
        from: u64,
        size: u64,
        chunk: u64,
    ) -> std::io::Result<Option<u64>> {
        // The line end sought is at `at` or after, and before the last trigram's start.
        let mut at = from + chunk - 1;
        let last = size.saturating_sub(3);
        let mut buf = [0u8; 4096];
        while at < last {
            let want = ((last - at) as usize).min(buf.len());
            let n = read_at(at, &mut buf[..want])?;
            if n == 0 {
                return Ok(None);
            }
            if let Some(i) = memchr::memchr(b'\n', &buf[..n]) {
                return Ok(Some(at + i as u64 + 1));
            }
            at += n as u64;
        }
        Ok(None)
    }

    /// The scan's chunk starts are those the rule gives from the bytes alone, however reads split
    /// the file: each chunk's trigrams are those starting between its start and the next.
    #[test]
    fn the_scans_chunk_starts_are_the_rules_from_the_bytes_alone() {
        for (seed, chunk) in [(1u64, 7usize), (2, 16), (3, 33), (4, 64), (5, 5)] {
            let mut x = seed;
            let text: Vec<u8> = (0..3000)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    if (x >> 33) % 6 == 0 {
                        b'\n'
                    } else {
                        b'a' + ((x >> 40) % 4) as u8
                    }
                })
                .collect();
            let facts = scan_all(Choppy(&text, seed), chunk);
            let chunks = facts.chunks;
            let mut read_at = |off: u64, buf: &mut [u8]| {
                let rest = &text[(off as usize).min(text.len())..];
                let n = rest.len().min(buf.len());
                buf[..n].copy_from_slice(&rest[..n]);
                Ok(n)
            };
            let size = text.len() as u64;
            let mut starts = vec![0u64];
            while let Some(p) =
                next_chunk_start(&mut read_at, *starts.last().unwrap(), size, chunk as u64).unwrap()
            {
                starts.push(p);
            }
            assert_eq!(starts.len(), chunks.len(), "chunk {chunk}");
            assert_eq!(facts.starts, starts, "chunk {chunk}");
            for (i, c) in chunks.iter().enumerate() {
                let end = starts.get(i + 1).map_or(text.len(), |&e| e as usize + 2);
                let bytes = &text[starts[i] as usize..end.min(text.len())];
                let mut want: Vec<Trigram> =
                    bytes.windows(3).map(super::super::query::trigram).collect();
                want.sort_unstable();
                want.dedup();
                assert_eq!(c.keys, want, "chunk {chunk}, unit {i}");
                // Each key's own bits, by offsets in the file (a shared slot may add more).
                let exact = super::super::keys::unit_keys(bytes, starts[i]);
                assert_eq!(c.keys, exact.keys);
                let masks = c.masks.iter().zip(&exact.masks);
                assert!(masks.clone().all(|(m, e)| m & e == *e), "unit {i}");
                // Few keys, many slots: hardly any extra bits.
                assert!(masks.filter(|(m, e)| m != e).count() * 20 <= c.keys.len() + 20);
            }
        }
    }

    /// A file with more distinct trigrams than a description may hold, or than its share, is not
    /// described, and reading it stops early; the budget gets back all a scan took, and its peak
    /// stays under the cap however the file looks.
    /// A fold of a file's chunks into one description (past `MAX_CHUNKED`) that runs out of room
    /// gives back the memory of every chunk, those it had not reached too.
    #[test]
    fn a_fold_that_runs_out_of_room_gives_every_chunk_back() {
        let chunks: Vec<UnitKeys> = (0..4u32)
            .map(|c| UnitKeys {
                keys: (0..300).map(|i| (c * 1000 + i) as Trigram).collect(),
                masks: vec![1; 300],
            })
            .collect();
        let bytes: usize = chunks.iter().map(UnitKeys::bytes).sum();
        // Room for the chunks, not for the description they fold into.
        let all = Budget::new(bytes + 1000);
        let r = room(&all, usize::MAX);
        let mut held = Held {
            room: &r,
            tris: 0,
            fixed: false,
        };
        assert!(held.take(bytes).is_ok());
        let (mut seen, mut tris) = (Seen::default(), Vec::new());
        seen.ready();
        let mut chunks = chunks;
        let folded = fold_chunks(&mut chunks, &mut seen, &mut tris, &mut held);
        assert!(matches!(folded, Err(Stop::NoRoom)));
        assert_eq!(held.tris, 0);
        drop(held);
        assert_eq!(all.used(), 0);
    }

    #[test]
    fn a_scan_stays_within_its_room() {
        let random = varied(24 << 20, 245);
        let all = Budget::new(64 << 20);
        let r = scan(&random[..], CHUNK, &room(&all, usize::MAX)).unwrap();
        assert!(matches!(r, Scan::Unbounded));
        assert_eq!(all.used(), 0);
        assert!(all.peak() <= 64 << 20, "{}", all.peak());
        // Its share is 1 MiB: its chunks together pass it.
        let all = Budget::new(usize::MAX);
        let r = scan(&random[..512 << 10], CHUNK, &room(&all, 1 << 20)).unwrap();
        assert!(matches!(r, Scan::Unbounded));
        assert!(all.peak() <= FIXED + (1 << 20), "{}", all.peak());
        // The budget has no room for the file's chunks.
        let all = Budget::new(FIXED + (64 << 10));
        let r = scan(&random[..CHUNK], CHUNK, &room(&all, usize::MAX)).unwrap();
        assert!(matches!(r, Scan::NoRoom));
        assert_eq!(all.used(), 0);
        // A text within its room: described, its chunks' bytes held until given back.
        let text = varied(1 << 20, 240);
        let all = Budget::new(64 << 20);
        let Scan::Facts(f) = scan(&text[..], CHUNK, &room(&all, 32 << 20)).unwrap() else {
            panic!("not described");
        };
        let held: usize = f.chunks.iter().map(UnitKeys::bytes).sum();
        assert_eq!((f.held, all.used()), (held, held));
        // Reading stops past `max_read`.
        let all = Budget::new(usize::MAX);
        let r = Room {
            max_read: 1000,
            ..room(&all, usize::MAX)
        };
        assert!(matches!(
            scan(&text[..], CHUNK, &r).unwrap(),
            Scan::Unbounded
        ));
    }
}
