//! Building one root's table: the files the handle-bound walker yields (path order, the admission
//! gate, the policy's hidden/ignore defaults), each read once through the one open path, its byte
//! trigrams added to the posting lists. A file the index cannot describe gets no entry and is
//! therefore always searched: a file with a byte-order mark (the searcher transcodes it), more than
//! one hard link (another name can change it unseen), one that changed while it was read, or one
//! changed so recently that a later change could keep the same timestamps ("racily clean").

use super::postings::Builder;
use super::query::Trigram;
use super::{Entry, RootIndex, StatKey};
use crate::core::admit::{Gate, RootId};
use crate::core::deadline::Deadline;
use crate::core::dirs::{self, Stat};
use crate::core::open::{Kind, Want};
use crate::core::sandbox::Sandbox;
use crate::walk::{FoundFile, Walk, WalkSkips};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Read;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Files read in parallel per step of the walk (bounds the directory handles held).
const STEP: usize = 256;
/// A file changed this recently (seconds) is not described: its next change could keep its
/// timestamps.
pub(super) const RACY_SECS: i64 = 2;

/// A file's trigrams (per chunk), or why it gets no entry.
struct Scanned {
    rel: PathBuf,
    fact: Option<(StatKey, bool, Vec<Vec<Trigram>>)>,
}

/// A file is described in chunks of whole lines of at least this many bytes (the last may be
/// shorter, a chunk holding one longer line longer): a line-oriented match lies within one line,
/// so within one chunk, and a large file is a candidate only if one chunk holds the query.
pub(crate) const CHUNK: usize = 256 << 10;

/// Trigrams a file's chunks may hold together (16 MiB of them) before the file is described
/// whole instead: what a scan holds stays bounded whatever the file's size.
pub(crate) const MAX_CHUNKED: usize = 1 << 22;

/// A file with a line this long gets no entry: the searcher's buffer (its heap limit, 64 MiB in
/// `search/grep/worker.rs`) may not hold the line, and the unindexed search then records the file
/// as `too_large` rather than searched; only searching it again can say which.
pub(crate) const LONGEST_LINE: usize = 60 << 20;

thread_local! {
    static SEEN: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// What [`scan`] finds in a file.
pub(super) struct ScanFacts {
    /// The sorted distinct trigrams starting in each chunk (at least one chunk).
    pub chunks: Vec<Vec<Trigram>>,
    /// It holds a NUL byte.
    pub nul: bool,
    /// It starts with a byte-order mark.
    pub bom: bool,
    /// Its longest line, in bytes.
    pub longest_line: usize,
}

impl ScanFacts {
    /// Whether the index can describe the file (see [`LONGEST_LINE`]; the searcher transcodes a
    /// file with a byte-order mark).
    fn describable(&self) -> bool {
        !self.bom && self.longest_line < LONGEST_LINE
    }
}

/// Reads `f` whole in blocks, with chunks of `chunk` bytes (see [`CHUNK`]).
pub(super) fn scan(mut f: impl Read, chunk: usize) -> std::io::Result<ScanFacts> {
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        if seen.is_empty() {
            seen.resize(1 << 18, 0);
        }
        let mut chunk = chunk;
        let mut chunks = Vec::new();
        // Trigrams held in finished chunks.
        let mut held = 0usize;
        let mut tris = Vec::new();
        let mut in_chunk = 0usize;
        let mut buf = vec![0u8; 1 << 20];
        let mut carry: Vec<u8> = Vec::new();
        let mut nul = false;
        let mut first = true;
        let mut bom = false;
        let (mut line, mut longest_line) = (0usize, 0usize);
        let finish = |tris: &mut Vec<Trigram>, seen: &mut Vec<u64>| {
            for &t in tris.iter() {
                seen[t as usize / 64] = 0;
            }
            let mut done = std::mem::take(tris);
            done.sort_unstable();
            done
        };
        loop {
            let n = match f.read(&mut buf[carry.len()..]) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
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
                if in_chunk >= chunk && k > 0 && data[k - 1] == b'\n' {
                    let done = finish(&mut tris, &mut seen);
                    held += done.len();
                    chunks.push(done);
                    in_chunk = 0;
                    if held > MAX_CHUNKED {
                        // A file this varied is described whole: its chunks' trigrams together
                        // would grow with its size, a whole file's stay under 2^24.
                        chunk = usize::MAX;
                        for t in chunks.drain(..).flatten() {
                            let (i, b) = (t as usize / 64, 1u64 << (t % 64));
                            if seen[i] & b == 0 {
                                seen[i] |= b;
                                tris.push(t);
                            }
                        }
                    }
                }
                in_chunk += 1;
                let t = super::query::trigram(w);
                let (i, b) = (t as usize / 64, 1u64 << (t % 64));
                if seen[i] & b == 0 {
                    seen[i] |= b;
                    tris.push(t);
                }
            }
            let keep = data.len().min(2);
            carry = data[data.len() - keep..].to_vec();
        }
        chunks.push(finish(&mut tris, &mut seen));
        Ok(ScanFacts {
            chunks,
            nul,
            bom,
            longest_line,
        })
    })
}

/// The distinct trigrams of all `chunks`, sorted.
fn union(chunks: Vec<Vec<Trigram>>) -> Vec<Trigram> {
    if chunks.len() == 1 {
        return chunks.into_iter().next().unwrap_or_default();
    }
    let mut all: Vec<Trigram> = chunks.into_iter().flatten().collect();
    all.sort_unstable();
    all.dedup();
    all
}

// The field types differ between platforms.
#[allow(clippy::unnecessary_cast)]
fn key(st: &Stat) -> StatKey {
    StatKey {
        dev: st.st_dev as u64,
        ino: st.st_ino as u64,
        size: st.st_size as u64,
        mtime: (st.st_mtime as i64, st.st_mtime_nsec as u32),
        ctime: (st.st_ctime as i64, st.st_ctime_nsec as u32),
    }
}

pub(super) fn stat_key(st: &Stat) -> StatKey {
    key(st)
}

fn scan_one(f: FoundFile, now: i64, gate: &Gate, root: RootId) -> Scanned {
    let opened = gate.open(root, f.dir.as_fd(), Path::new(&f.name), &f.rel, Want::Read);
    let fact = (|| {
        let o = opened.ok()?.into_inner();
        if o.kind() != Kind::File || o.stat.st_nlink > 1 {
            return None;
        }
        let before = key(&o.stat);
        if now - before.mtime.0.max(before.ctime.0) < RACY_SECS {
            return None;
        }
        let file = dirs::reader(o.fd);
        let after = dirs::stat_fd(&file).ok();
        let facts = scan(file.try_clone().ok()?, CHUNK).ok()?;
        let after = dirs::stat_fd(&file).ok().or(after)?;
        (key(&after) == before && facts.describable()).then_some((before, facts.nul, facts.chunks))
    })();
    Scanned { rel: f.rel, fact }
}

/// A changed file described again, or why not.
pub(super) enum Description {
    Now(StatKey, bool, Vec<Trigram>),
    /// Not yet: it changed in the last two seconds or while it was read, or the process was out
    /// of descriptors or memory to open it.
    Later,
    /// Not as it is: the build would give it no entry (not a regular file, more than one link, a
    /// byte-order mark), or it cannot be opened.
    Never,
}

/// Describes file `rel` of read root `root` again (a file reported changed since indexing),
/// opened from the root through the gate like any file: its stat, whether it holds a NUL byte and
/// its trigrams.
pub(super) fn describe(sb: &Sandbox, root: usize, rel: &Path) -> Description {
    let Some(r) = sb.roots.get(root) else {
        return Description::Never;
    };
    let o = match sb
        .gate
        .open(RootId::Read(root), r.dir.as_fd(), rel, rel, Want::Read)
    {
        Ok(o) => o.into_inner(),
        // Out of descriptors or memory for a moment: not a fact about the file.
        Err(crate::core::admit::NotAdmitted::Io(e))
            if [
                rustix::io::Errno::MFILE,
                rustix::io::Errno::NFILE,
                rustix::io::Errno::NOMEM,
            ]
            .map(|c| c.raw_os_error())
            .contains(&e.raw_os_error().unwrap_or(0)) =>
        {
            return Description::Later
        }
        Err(_) => return Description::Never,
    };
    if o.kind() != Kind::File || o.stat.st_nlink > 1 {
        return Description::Never;
    }
    let before = key(&o.stat);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    if now - before.mtime.0.max(before.ctime.0) < RACY_SECS {
        return Description::Later;
    }
    let file = dirs::reader(o.fd);
    // A description of a changed file holds for the whole file (it is used in every mode).
    let scanned = file.try_clone().and_then(|f| scan(f, usize::MAX));
    let after = dirs::stat_fd(&file).map(|st| key(&st));
    match (scanned, after) {
        (Ok(facts), _) if !facts.describable() => Description::Never,
        (Ok(facts), Ok(after)) if after == before => {
            Description::Now(before, facts.nul, union(facts.chunks))
        }
        _ => Description::Later,
    }
}

/// Progress of a build, for the status.
#[derive(Default)]
pub(super) struct Progress {
    pub files: AtomicU64,
    /// Why the root is being indexed again, when it was indexed before.
    pub again: Option<String>,
}

/// Builds root `root`'s index; `Err` says why the root is not indexed.
pub(super) fn build_root(
    sb: &Sandbox,
    root: usize,
    pool: &rayon::ThreadPool,
    max_bytes: u64,
    progress: &Progress,
) -> Result<RootIndex, String> {
    let r = &sb.roots[root];
    if sb.gate.root_denied(RootId::Read(root)) {
        return Err("the root is denied".into());
    }
    let fd = sb
        .gate
        .open(
            RootId::Read(root),
            r.dir.as_fd(),
            Path::new(""),
            Path::new(""),
            Want::Dir,
        )
        .map_err(|e| format!("the root cannot be opened: {}", e.into_io()))?
        .into_inner()
        .fd;
    let filter = crate::walk::Filter {
        hidden: sb.policy.hidden,
        no_ignore: sb.policy.no_ignore,
        ..Default::default()
    };
    // The build has no time limit of its own: the memory cap bounds it.
    let deadline = Deadline::detached(Duration::from_secs(u32::MAX as u64));
    let walk = Walk {
        gate: &sb.gate,
        root: RootId::Read(root),
        filter: &filter,
        deadline: Some(&deadline),
        resume_after: None,
        hook: None,
    };
    let mut ids: HashMap<PathBuf, u32> = HashMap::new();
    let mut entries: Vec<Entry> = Vec::new();
    // The file of each unit of the postings (a file's chunks are units in a row).
    let mut unit_file: Vec<u32> = Vec::new();
    let mut post = Builder::default();
    let mut batch: Vec<FoundFile> = Vec::new();
    let mut over = false;
    let mut path_bytes = 0usize;
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    };
    let mut flush = |batch: &mut Vec<FoundFile>| {
        let t = now();
        let scanned: Vec<Scanned> = pool.install(|| {
            std::mem::take(batch)
                .into_par_iter()
                .map(|f| scan_one(f, t, &sb.gate, RootId::Read(root)))
                .collect()
        });
        for s in scanned {
            progress.files.fetch_add(1, Ordering::Relaxed);
            let Some((stat, nul, chunks)) = s.fact else {
                continue;
            };
            let id = entries.len() as u32;
            for c in &chunks {
                post.add(unit_file.len() as u32, c);
                unit_file.push(id);
            }
            path_bytes += s.rel.as_os_str().len() + 64;
            ids.insert(s.rel, id);
            entries.push(Entry { stat, nul });
        }
        let mem = post.memory()
            + path_bytes
            + entries.len() * std::mem::size_of::<Entry>()
            + unit_file.len() * 4;
        mem as u64 <= max_bytes
    };
    let mut on_file = |f: FoundFile, _: &mut WalkSkips| {
        batch.push(f);
        if batch.len() >= STEP && !flush(&mut batch) {
            over = true;
            return false;
        }
        true
    };
    let (_end, _) = walk.run(fd, PathBuf::new(), None, &mut on_file);
    if !over && !batch.is_empty() && !flush(&mut batch) {
        over = true;
    }
    if over {
        return Err(format!("over index_max_bytes ({max_bytes})"));
    }
    let postings = post.finish();
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    let mut ri = RootIndex {
        serial: SERIAL.fetch_add(1, Ordering::Relaxed),
        ids,
        entries,
        unit_file,
        postings,
        path_bytes,
        evaluated: Mutex::default(),
        masks: Mutex::default(),
        describe_room: 0,
    };
    // Changed files described again share the cap with the index: a quarter of the index's
    // memory (at least 16 MiB), and never more than the cap leaves.
    let mem = ri.memory();
    ri.describe_room = (mem / 4)
        .max(16 << 20)
        .min((max_bytes as usize).saturating_sub(mem));
    Ok(ri)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` bytes of varied text: lines of 100 pseudo-random bytes (no NUL, no newline inside).
    fn varied(n: usize) -> Vec<u8> {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        (0..n)
            .map(|i| {
                if i % 101 == 100 {
                    return b'\n';
                }
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((x >> 33) as u8).max(1).max(b'\n' + 1)
            })
            .collect()
    }

    #[test]
    fn chunks_hold_every_trigram_and_stay_bounded() {
        // Small enough: chunks of whole lines, together the whole file's trigrams.
        let text = varied(1 << 20);
        let whole = scan(&text[..], usize::MAX).unwrap().chunks;
        let chunked = scan(&text[..], CHUNK).unwrap().chunks;
        assert_eq!(whole.len(), 1);
        assert!(chunked.len() >= 4, "{}", chunked.len());
        assert_eq!(union(chunked), whole[0]);
        // So varied that its chunks would hold more than MAX_CHUNKED trigrams: described whole.
        let text = varied(24 << 20);
        let whole = scan(&text[..], usize::MAX).unwrap().chunks;
        let chunked = scan(&text[..], CHUNK).unwrap().chunks;
        assert_eq!(chunked.len(), 1);
        assert_eq!(chunked, whole);
    }
}
