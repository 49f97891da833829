//! A root's index saved in the cache directory ([`crate::core::cache`]) and loaded at the next
//! start, so that a restart serves indexed answers without reading every file again.
//!
//! A saved index is never trusted blindly. It is bound, in its header, to the format
//! ([`VERSION`]), the root (the device and inode of its directory, its configured and canonical
//! paths) and a hash of the policy that shaped it (the gate's deny rules and roots, hidden and
//! ignore settings, the sizes the build reads and holds, the build's constants, the crate's
//! version); a CRC-32 covers the body. Anything that does not match, or is truncated, corrupted or
//! malformed, is ignored (every length is checked against the bytes left before anything is
//! allocated for it), and the root is built as without one. A loaded index serves as in strict
//! mode until the build that follows it replaces it: its walks are never replayed, and a file is
//! pruned only when a `statat` through its directory's handle shows the (device, inode, size,
//! mtime, ctime) of its entry; a file changed or created while no process watched is searched.

use super::build::next_serial;
use super::build::{max_read, share, threads, CHUNK, LONGEST_LINE, RACY_SECS};
use super::entry::PATH_EXTRA;
use super::life::Locked;
use super::postings::{Data, Postings};
use super::{Built, Entry, Index, IndexDir, RootIndex, StatKey, State};
use crate::core::cache::{CacheDir, Mapped};
use crate::core::sandbox::Sandbox;
use std::collections::HashMap;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

const MAGIC: &[u8; 8] = b"rbindex\0";
/// The format's version: a file of another is ignored. 2: chunks start where `scan`'s rule puts
/// them whatever the reads (a search finds them again from the bytes: `chunks`). 3: the keys
/// include the pseudo-keys of bytes >= 0x80 (`keys.rs`); a version-2 file lacks them and would
/// prune files holding a non-ASCII match. 4: each posting carries its key's position mask
/// (`postings.rs`); a version-3 list has none and would be read as garbage. 5: each unit's start
/// is kept (`RootIndex::unit_start`), no longer found again by a search.
pub(super) const VERSION: u32 = 5;
/// Bytes of an entry beside its path.
const ENTRY_BYTES: usize = 4 + 8 * 5 + 4 * 2 + 1;
/// Bytes of a dictionary slot.
const SLOT_BYTES: usize = 4 + 8 + 4;

/// What a saved index is bound to: the root's identity and the policy's hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Binding {
    root: Vec<u8>,
    policy: u64,
}

/// 64 bits from two CRC-32s of `b` (a file name and a policy's fingerprint, not a defence:
/// the cache directory is the user's own).
fn hash64(b: &[u8]) -> u64 {
    let mut hi = crc32fast::Hasher::new_with_initial(0x9e37_79b9);
    hi.update(b);
    (u64::from(hi.finalize()) << 32) | u64::from(crc32fast::hash(b))
}

/// The binding of read root `root` of `sb`.
#[allow(clippy::unnecessary_cast)]
pub(super) fn binding(sb: &Sandbox, root: usize) -> Option<Binding> {
    let key = sb.root_identity(root)?;
    let p = &sb.policy();
    let policy = format!(
        "{}|{}|{}|{}|{}|{}|{CHUNK}|{LONGEST_LINE}|{RACY_SECS}|{}",
        sb.rules_key(),
        p.hidden,
        p.no_ignore,
        max_read(sb),
        p.limits.index_max_bytes,
        share(
            usize::try_from(p.limits.index_max_bytes).unwrap_or(usize::MAX),
            threads(sb)
        ),
        env!("CARGO_PKG_VERSION"),
    );
    Some(Binding {
        root: key,
        policy: hash64(policy.as_bytes()),
    })
}

/// Whether `name` is a saved index's file name ([`Binding::file_name`]).
fn is_saved_name(name: &str) -> bool {
    let hex = |s: &str| s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit());
    name.strip_suffix(".rbindex")
        .and_then(|n| n.split_once('-'))
        .is_some_and(|(a, b)| hex(a) && hex(b))
}

/// How long a saved index of the same root under another policy (or another version of the
/// crate, which the policy hash includes) is kept after it was last written: a server that runs
/// with that policy writes it at each start, so one this old is most likely left over.
const SUPERSEDED_AGE: std::time::Duration = std::time::Duration::from_secs(7 * 24 * 3600);

/// Whether `name` is the saved index of the same root as `kept` (a saved index's name) under
/// another policy: the same first hash (the root's identity), another second one.
fn superseded_by(name: &str, kept: &str) -> bool {
    is_saved_name(name) && is_saved_name(kept) && name != kept && name[..17] == kept[..17]
}

impl Binding {
    /// The saved index's file name: a hash of the root's identity and the policy's.
    pub(super) fn file_name(&self) -> String {
        format!("{:016x}-{:016x}.rbindex", hash64(&self.root), self.policy)
    }

    fn header(&self, body_len: u64, crc: u32) -> Vec<u8> {
        let mut h = Vec::with_capacity(64 + self.root.len());
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&VERSION.to_le_bytes());
        h.extend_from_slice(&(self.root.len() as u32).to_le_bytes());
        h.extend_from_slice(&self.root);
        h.extend_from_slice(&self.policy.to_le_bytes());
        h.extend_from_slice(&body_len.to_le_bytes());
        h.extend_from_slice(&crc.to_le_bytes());
        h
    }
}

/// Saves `ri` as root `b`'s index in `dir` (a temporary file renamed over the old one), unless
/// `stop` says the index was stopped meanwhile ([`CacheDir::write`]).
pub(super) fn save(
    dir: &CacheDir,
    b: &Binding,
    ri: &RootIndex,
    stop: &dyn Fn() -> bool,
) -> std::io::Result<()> {
    let (dict, data) = ri.postings.parts();
    // Sized at once: grown by doubling, its unused half stood beside the whole index.
    let mut meta = Vec::with_capacity(meta_len(ri));
    let u64s = |m: &mut Vec<u8>, v: &[u64]| v.iter().for_each(|x| m.extend(x.to_le_bytes()));
    u64s(&mut meta, &[ri.built.peak, ri.built.bytes_read]);
    let mut paths: Vec<&Path> = vec![Path::new(""); ri.entries.len()];
    for (p, &id) in &ri.ids {
        if let Some(slot) = paths.get_mut(id as usize) {
            *slot = p;
        }
    }
    u64s(&mut meta, &[ri.entries.len() as u64]);
    for (p, e) in paths.iter().zip(&ri.entries) {
        let p = p.as_os_str().as_bytes();
        meta.extend((p.len() as u32).to_le_bytes());
        meta.extend_from_slice(p);
        let s = &e.stat;
        u64s(&mut meta, &[s.dev, s.ino, s.size, s.mtime.0 as u64]);
        meta.extend(s.mtime.1.to_le_bytes());
        meta.extend(s.ctime.0.to_le_bytes());
        meta.extend(s.ctime.1.to_le_bytes());
        meta.push(u8::from(e.nul));
    }
    u64s(&mut meta, &[ri.unit_file.len() as u64]);
    ri.unit_file
        .iter()
        .for_each(|u| meta.extend(u.to_le_bytes()));
    u64s(&mut meta, &ri.unit_start);
    u64s(&mut meta, &[dict.len() as u64]);
    for (t, (off, len)) in dict {
        meta.extend(t.to_le_bytes());
        meta.extend(off.to_le_bytes());
        meta.extend(len.to_le_bytes());
    }
    u64s(&mut meta, &[data.len() as u64]);
    let mut crc = crc32fast::Hasher::new();
    crc.update(&meta);
    crc.update(data);
    let header = b.header((meta.len() + data.len()) as u64, crc.finalize());
    dir.write(&b.file_name(), &[&header, &meta, data], stop)
}

/// Bytes of [`save`]'s body before the lists.
fn meta_len(ri: &RootIndex) -> usize {
    let paths: usize = ri.ids.keys().map(|p| p.as_os_str().len()).sum();
    8 * 6
        + ri.entries.len() * ENTRY_BYTES
        + paths
        + ri.unit_file.len() * 12
        + ri.postings.parts().0.len() * SLOT_BYTES
}

/// Reads a saved file from its start, every read checked against the bytes left.
struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.buf.len());
        let end = end.ok_or("truncated")?;
        let s = &self.buf[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn left(&self) -> usize {
        self.buf.len() - self.at
    }

    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or_default(),
        ))
    }

    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().unwrap_or_default(),
        ))
    }

    /// A count of items of at least `each` bytes: never more than the bytes left can hold.
    fn count(&mut self, each: usize) -> Result<usize, String> {
        let n = usize::try_from(self.u64()?).map_err(|_| "a count out of range")?;
        if n.checked_mul(each).is_none_or(|b| b > self.left()) {
            return Err("a count larger than the file".into());
        }
        Ok(n)
    }
}

/// Root `b`'s saved index in `dir`, as index `serial`: `Ok(None)` when there is none, `Err` why
/// the one there is ignored.
pub(super) fn load(dir: &CacheDir, b: &Binding, serial: u64) -> Result<Option<RootIndex>, String> {
    let map = match dir.map(&b.file_name()) {
        Ok(Some(m)) => Arc::new(m),
        Ok(None) => return Ok(None),
        Err(e) => return Err(format!("cannot be read: {e}")),
    };
    let mut r = Reader { buf: &map, at: 0 };
    check_header(&mut r, b)?;
    decode(&mut r, &map, serial).map(Some)
}

fn check_header(r: &mut Reader, b: &Binding) -> Result<(), String> {
    if r.take(MAGIC.len()).ok() != Some(MAGIC) {
        return Err("not a saved index".into());
    }
    let version = r.u32()?;
    if version != VERSION {
        return Err(format!("format version {version}, not {VERSION}"));
    }
    let root_len = r.u32()? as usize;
    if r.take(root_len)? != b.root {
        return Err("saved for another root".into());
    }
    if r.u64()? != b.policy {
        return Err("saved under another policy".into());
    }
    let body_len = r.u64()?;
    let crc = r.u32()?;
    if body_len != r.left() as u64 {
        return Err("truncated or extended".into());
    }
    if crc32fast::hash(&r.buf[r.at..]) != crc {
        return Err("checksum mismatch".into());
    }
    Ok(())
}

/// A path of an entry: relative, plain components only.
fn entry_path(b: &[u8]) -> Result<PathBuf, String> {
    let p = Path::new(std::ffi::OsStr::from_bytes(b));
    let plain = !b.is_empty()
        && !b.contains(&0)
        && p.components().all(|c| matches!(c, Component::Normal(_)));
    plain
        .then(|| p.to_path_buf())
        .ok_or_else(|| "an entry with a malformed path".into())
}

fn entry(r: &mut Reader) -> Result<(PathBuf, Entry), String> {
    let n = r.u32()? as usize;
    let path = entry_path(r.take(n)?)?;
    let (dev, ino, size) = (r.u64()?, r.u64()?, r.u64()?);
    let mtime = (r.u64()? as i64, r.u32()?);
    let ctime = (r.u64()? as i64, r.u32()?);
    let nul = r.u8()? != 0;
    let stat = StatKey {
        dev,
        ino,
        size,
        mtime,
        ctime,
    };
    Ok((path, Entry { stat, nul }))
}

/// The start of each unit, checked: a file's first unit starts at 0, the others after the one
/// before and within its size (a search reads a chunk from its start to the next one's).
fn unit_starts(r: &mut Reader, unit_file: &[u32], entries: &[Entry]) -> Result<Vec<u64>, String> {
    let mut starts = Vec::with_capacity(unit_file.len());
    for (u, &f) in unit_file.iter().enumerate() {
        let start = r.u64()?;
        let first = u == 0 || unit_file[u - 1] != f;
        let size = entries.get(f as usize).map_or(0, |e| e.stat.size);
        let fits = if first {
            start == 0
        } else {
            start > starts[u - 1] && start < size
        };
        if !fits {
            return Err("a chunk out of place".into());
        }
        starts.push(start);
    }
    Ok(starts)
}

fn decode(r: &mut Reader, map: &Arc<Mapped>, serial: u64) -> Result<RootIndex, String> {
    let built = Built {
        peak: r.u64()?,
        bytes_read: r.u64()?,
    };
    let n = r.count(ENTRY_BYTES)?;
    let mut ids = HashMap::with_capacity(n);
    let mut entries = Vec::with_capacity(n);
    let mut path_bytes = 0;
    for id in 0..n {
        let (p, e) = entry(r)?;
        path_bytes += p.as_os_str().len() + PATH_EXTRA;
        if ids.insert(p, id as u32).is_some() {
            return Err("an entry twice".into());
        }
        entries.push(e);
    }
    let units = r.count(4)?;
    let mut unit_file = Vec::with_capacity(units);
    for _ in 0..units {
        let f = r.u32()?;
        if f as usize >= n {
            return Err("a unit of no entry".into());
        }
        // A file's units are in a row and ids grow with them, as a build makes them: a search
        // finds a file's units by a binary search (`Pruner::chunks`), which on units out of
        // order could take another file's, their starts then no longer ascending.
        if unit_file.last().is_some_and(|&last| f < last) {
            return Err("units out of order".into());
        }
        unit_file.push(f);
    }
    let unit_start = unit_starts(r, &unit_file, &entries)?;
    let slots = r.count(SLOT_BYTES)?;
    let mut dict = HashMap::with_capacity(slots);
    let mut spans = Vec::with_capacity(slots);
    for _ in 0..slots {
        let (t, off, len) = (r.u32()?, r.u64()?, r.u32()?);
        spans.push((off, len));
        dict.insert(t, (off, len));
    }
    let data_len = r.count(1)?;
    let start = r.at;
    r.take(data_len)?;
    if r.left() != 0
        || spans
            .iter()
            .any(|&(o, l)| o.saturating_add(l as u64) > data_len as u64)
    {
        return Err("lists out of bounds".into());
    }
    let data = Data::Mapped(map.clone(), start..start + data_len);
    Ok(RootIndex {
        serial,
        ids,
        entries,
        unit_file,
        unit_start,
        postings: Postings::from_parts(dict, data),
        path_bytes,
        evaluated: Mutex::default(),
        masks: Mutex::default(),
        describe_room: 0,
        built,
    })
}

/// Keeps `ri`'s lists in the mapping of the file just saved, when its last bytes (where [`save`]
/// puts the lists) are the same bytes (another process may have saved over it since): the heap
/// copy is let go. The file is not decoded again: a second table and dictionary beside `ri`'s
/// would be the build's largest moment after its lists.
pub(super) fn remap(dir: &CacheDir, b: &Binding, mut ri: RootIndex) -> RootIndex {
    let Ok(Some(map)) = dir.map(&b.file_name()) else {
        return ri;
    };
    let (len, n) = (map.len(), ri.postings.parts().1.len());
    let Some(start) = len.checked_sub(n) else {
        return ri;
    };
    ri.postings = ri
        .postings
        .remapped(Data::Mapped(Arc::new(map), start..len));
    ri
}

/// The cache directory `dir` names for `sb`'s index: `None` when none is asked for, `Err` why it
/// is refused (the index then stays in memory only).
pub(super) fn cache_dir(
    sb: &Sandbox,
    dir: &IndexDir,
    outside: &[PathBuf],
) -> Option<Result<CacheDir, String>> {
    let path = match dir {
        IndexDir::Path(p) => p.clone(),
        IndexDir::UserCache => match crate::core::cache::user_cache_dir() {
            Some(p) => p,
            None => return Some(Err("no user cache directory ($HOME is not set)".into())),
        },
        _ => return None,
    };
    Some(sb.open_cache(&path, outside))
}

/// Loads root `i`'s saved index, if the root is building for the first time and one matches:
/// it serves (as in strict mode) while the root is built again.
pub(super) fn load_one(sb: &Sandbox, index: &Index, i: usize) {
    let (Some(Ok(dir)), Some((_, state))) = (&index.cache, index.roots.get(i)) else {
        return;
    };
    let progress = match &*state.locked() {
        State::Building(p) if p.again.is_none() => p.clone(),
        _ => return,
    };
    let Some(b) = binding(sb, i) else {
        return;
    };
    let max = sb.policy().limits.index_max_bytes;
    let note = match load(dir, &b, next_serial()) {
        Ok(None) => return,
        Err(why) => format!("ignored ({why}): built anew"),
        Ok(Some(ri)) if ri.memory() as u64 > max => {
            "ignored (over index_max_bytes): built anew".to_string()
        }
        Ok(Some(ri)) => {
            let mut s = state.locked();
            if matches!(*s, State::Building(_)) {
                *s = State::Refreshing(Arc::new(ri.with_room(max)), progress);
            }
            "loaded: serving while the root is built again".to_string()
        }
    };
    *index.saved[i].locked() = Some(note);
}

/// Saves root `i`'s index `ri`, just built, and keeps its lists in the saved file's mapping;
/// `note` is the status's `snapshot` once saved. Beside `ri`, false when it was to be saved and
/// was not (the status says why): its lists may still be in the build's scratch file
/// ([`unmapped`]).
pub(super) fn save_one(
    sb: &Sandbox,
    index: &Index,
    i: usize,
    ri: RootIndex,
    note: &str,
) -> (RootIndex, bool) {
    let Some(Ok(dir)) = &index.cache else {
        return (ri, true);
    };
    let saved = match binding(sb, i) {
        None => Err("the root cannot be identified".to_string()),
        Some(b) => save(dir, &b, &ri, &|| {
            index.stop.load(std::sync::atomic::Ordering::Relaxed)
        })
        .map(|()| b)
        .map_err(|e| e.to_string()),
    };
    let (note, ri) = match saved {
        Ok(b) => {
            let name = b.file_name();
            dir.remove_superseded(|n| superseded_by(n, &name), SUPERSEDED_AGE);
            (note.to_string(), (remap(dir, &b, ri), true))
        }
        Err(e) => (format!("not saved: {e}"), (ri, false)),
    };
    // A save that crashed before its rename left its temporary file (of any root).
    dir.remove_stale_temps(is_saved_name);
    if let Some(s) = index.saved.get(i) {
        let mut s = s.locked();
        // Why a saved index was ignored stays said.
        *s = Some(match s.as_deref() {
            Some(was) if was.starts_with("ignored") => format!("{was}; {note}"),
            _ => note,
        });
    }
    ri
}

/// `ri`, whose save failed, with its lists on the heap: a build with a cache directory may have
/// merged them into a scratch file of it (`spill`), which, mapped for the index's life, would
/// hold their size of that disk unseen (the file has no name) — on the very disk that may have
/// just refused the save. So the lists are copied and the scratch file let go: the root is then
/// as without a cache directory (its lists on the heap, within `index_max_bytes`). `Err` says why
/// the root is off: the lists and the table do not fit in `max_bytes`.
pub(super) fn unmapped(ri: RootIndex, max_bytes: u64) -> Result<RootIndex, String> {
    let mapped = ri.postings.mapped();
    if mapped == 0 {
        return Ok(ri);
    }
    if (ri.memory() + mapped) as u64 > max_bytes {
        return Err(format!(
            "not saved, and its lists ({mapped} bytes) do not fit on the heap within \
             index_max_bytes ({max_bytes})"
        ));
    }
    let mut ri = ri;
    ri.postings = ri.postings.on_heap();
    Ok(ri.with_room(max_bytes))
}

/// What became of root `i`'s saved index (status `snapshot`).
pub(super) fn note(index: &Index, i: usize) -> Option<String> {
    match &index.cache {
        None => None,
        Some(Err(why)) => Some(format!("not kept: {why}")),
        Some(Ok(_)) => index.saved.get(i)?.locked().clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::IndexOptions;
    use crate::search::matcher::query_of;
    use std::time::Duration;

    /// Builds and saves the index of `dir` in `cache` (once the files' times are 2 s old), then
    /// calls `f` with the cache directory, the root's binding and the saved file's path.
    fn with_saved(dir: &Path, cache: &Path, f: impl FnOnce(&CacheDir, &Binding, &Path)) {
        std::thread::sleep(Duration::from_millis(2100));
        let o = IndexOptions::default().index_dir(IndexDir::Path(cache.into()));
        let sb = Sandbox::builder().root(dir).build_core().unwrap();
        let owner = crate::index::start(&sb, o);
        let index = owner.index();
        assert!(index.wait(&sb, Duration::from_secs(60)));
        let Some(Ok(cd)) = &index.cache else {
            panic!("no cache directory")
        };
        let b = binding(&sb, 0).unwrap();
        f(cd, &b, &cache.join(b.file_name()));
    }

    /// Where a saved file's body (what its checksum covers) starts.
    fn body_start(saved: &[u8]) -> usize {
        16 + u32::from_le_bytes(saved[12..16].try_into().unwrap()) as usize + 20
    }

    /// Makes the checksum of the changed file `bytes` right again and writes it at `path`.
    fn resum(bytes: &mut [u8], body: usize, path: &Path) {
        let crc = crc32fast::hash(&bytes[body..]);
        bytes[body - 4..body].copy_from_slice(&crc.to_le_bytes());
        std::fs::write(path, bytes).unwrap();
    }

    /// A saved file damaged in any way, even with its checksum made right again (a crafted one),
    /// is refused or loaded without a panic, an allocation past its size, or a query that panics.
    #[test]
    fn a_damaged_or_crafted_file_is_refused_without_a_panic() {
        let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        for i in 0..20 {
            let text = format!("alpha{i} beta\n").repeat(i + 1);
            std::fs::write(dir.path().join(format!("f{i}.txt")), text).unwrap();
        }
        with_saved(dir.path(), cache.path(), |cd, b, path| {
            let good = std::fs::read(path).unwrap();
            assert_eq!(load(cd, b, 0).unwrap().unwrap().entries.len(), 20);
            let body = body_start(&good);
            let queries =
                ["alpha1", "beta", "alpha1|zeta"].map(|p| query_of(&[p], Default::default()));
            let mut seed = 7u64;
            let mut rnd = |n: usize| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (seed >> 33) as usize % n.max(1)
            };
            let mut loaded = 0;
            for round in 0..3000 {
                let mut bytes = good.clone();
                let at = body + rnd(good.len() - body);
                match round % 3 {
                    0 => bytes.truncate(at),
                    1 => bytes[at] ^= 1 << rnd(8),
                    _ => {
                        let end = (at + 8).min(bytes.len());
                        bytes[at..end].fill(0xff);
                    }
                }
                let len = (bytes.len() - body) as u64;
                bytes[body - 12..body - 4].copy_from_slice(&len.to_le_bytes());
                resum(&mut bytes, body, path);
                if let Ok(Some(ri)) = load(cd, b, 0) {
                    loaded += 1;
                    for q in &queries {
                        ri.files_for(q, true);
                        ri.files_for(q, false);
                    }
                }
            }
            // Some damage leaves a file that reads (a flipped bit in a list or a timestamp).
            assert!(loaded > 0);
        });
    }

    /// A file's chunk starts are saved as its scan drew them, and a saved file whose starts are
    /// out of place (with its checksum made right) is refused: a search reads a chunk from its
    /// start to the next one's.
    #[test]
    fn chunk_starts_are_kept_and_crafted_ones_refused() {
        let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let text: String = (0..12_000)
            .map(|n| format!("line {n} of a chunked file\n"))
            .collect();
        std::fs::write(dir.path().join("big.txt"), &text).unwrap();
        with_saved(dir.path(), cache.path(), |cd, b, path| {
            let want =
                crate::index::scan::scan_all(text.as_bytes(), crate::index::scan::CHUNK).starts;
            assert!(want.len() > 5, "{want:?}");
            assert_eq!(load(cd, b, 0).unwrap().unwrap().unit_start, want);
            let good = std::fs::read(path).unwrap();
            let body = body_start(&good);
            let saved: Vec<u8> = want.iter().flat_map(|s| s.to_le_bytes()).collect();
            let at = good.windows(saved.len()).position(|w| w == saved).unwrap();
            for bad in [0, want[2], text.len() as u64, u64::MAX] {
                let mut bytes = good.clone();
                bytes[at + 8..at + 16].copy_from_slice(&bad.to_le_bytes());
                resum(&mut bytes, body, path);
                let e = load(cd, b, 0).err().unwrap();
                assert_eq!(e, "a chunk out of place", "start {bad}");
            }
        });
    }

    /// A saved file whose units are out of order (two files' runs of units swapped, their starts
    /// still passing the starts' check: the files are the same bytes), its checksum made right,
    /// is refused: a search finds a file's units by a binary search over them.
    #[test]
    fn units_out_of_order_are_refused() {
        let (dir, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let text: String = (0..12_000)
            .map(|n| format!("line {n} of a chunked file\n"))
            .collect();
        for f in ["a.txt", "b.txt"] {
            std::fs::write(dir.path().join(f), &text).unwrap();
        }
        with_saved(dir.path(), cache.path(), |cd, b, path| {
            let units = load(cd, b, 0).unwrap().unwrap().unit_file.clone();
            let half = units.len() / 2;
            assert!(
                half > 5
                    && units[..half] == vec![0; half][..]
                    && units[half..] == vec![1; half][..]
            );
            let mut bytes = std::fs::read(path).unwrap();
            let saved: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
            let at = bytes.windows(saved.len()).position(|w| w == saved).unwrap();
            let swapped: Vec<u8> = units.iter().flat_map(|u| (1 - u).to_le_bytes()).collect();
            bytes[at..at + saved.len()].copy_from_slice(&swapped);
            let body = body_start(&bytes);
            resum(&mut bytes, body, path);
            assert_eq!(load(cd, b, 0).err().unwrap(), "units out of order");
        });
    }
}
