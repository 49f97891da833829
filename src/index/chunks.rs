//! A large file described in chunks (`scan::CHUNK`): which of its chunks a line-oriented query
//! holds on, and where they lie, so that its search reads only those. A line-oriented match lies
//! within one line, so within one chunk, and a chunk whose trigrams do not satisfy the query holds
//! no match: the same reasoning that passes a whole file over, applied to its parts.

use super::{entry, Pruner};
use crate::core::dirs::{FileType, Stat};
use std::path::Path;

impl Pruner {
    /// The byte ranges (start, end) of the chunks of file `rel` of root `root` that may hold a
    /// match, in file order, when its search may read only those: the search is line-oriented,
    /// the file is indexed in two or more chunks, holds no NUL byte, and the opened file's
    /// metadata `st` is the indexed one (device, inode, size, times; one link), as a file passed
    /// over must show. The chunks start where the scan that described the file started them
    /// (kept in the index, so no read finds them again). With the ranges, the file's count of
    /// chunks. `None`: search the file whole.
    pub(crate) fn chunks(
        &self,
        root: usize,
        rel: &Path,
        st: &Stat,
    ) -> Option<(Vec<(u64, u64)>, usize)> {
        if !self.lines {
            return None;
        }
        let (ri, _, units) = self.roots.get(root)?.as_ref()?;
        let units = units.as_ref()?;
        let id = *ri.ids.get(rel)?;
        let e = ri.entries.get(id as usize)?;
        if e.nul
            || st.st_nlink > 1
            || !FileType::from_raw_mode(st.st_mode).is_file()
            || entry::stat_key(st) != e.stat
        {
            return None;
        }
        // A file's units are in a row, in file order, and ids grow with them.
        let first = ri.unit_file.partition_point(|&f| f < id);
        let n = ri.unit_file[first..].partition_point(|&f| f == id);
        let holds = |u: usize| units.get(u / 64).is_some_and(|w| w >> (u % 64) & 1 == 1);
        // Every chunk may hold a match: reading them one by one would read the whole file, in
        // more reads.
        if n < 2 || (0..n).all(|c| holds(first + c)) {
            return None;
        }
        let size = e.stat.size;
        let starts = ri.unit_start.get(first..first + n)?;
        let ranges = (0..n)
            .filter(|&c| holds(first + c))
            .map(|c| (starts[c], starts.get(c + 1).copied().unwrap_or(size)));
        Some((ranges.collect(), n))
    }
}

impl Pruner {
    /// Counts `n` chunks a search did not read.
    pub(crate) fn chunks_not_read(&self, n: u64) {
        self.chunks_pruned
            .fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    }

    /// Chunks not read so far.
    pub(crate) fn chunks_pruned(&self) -> u64 {
        self.chunks_pruned
            .load(std::sync::atomic::Ordering::Relaxed)
    }
}
