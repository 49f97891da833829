//! What the table keeps of one file and what that costs: the stat key taken from a file's
//! metadata, and the memory accounted per path beside its bytes and per slot of the path map.
//! The build, the reuse of a loaded index's entries, the snapshot loader and the replay all take
//! them from here, so none of them imports another for them.

use super::StatKey;
use crate::core::dirs::Stat;

/// Memory accounted per slot of the table's path map, and per path beside its bytes.
pub(super) const ID_SLOT: usize = 40;
pub(super) const PATH_EXTRA: usize = 16;

/// What an entry records of a file's metadata: the fields whose sameness shows it unchanged.
// The field types differ between platforms.
#[allow(clippy::unnecessary_cast)]
pub(super) fn stat_key(st: &Stat) -> StatKey {
    StatKey {
        dev: st.st_dev as u64,
        ino: st.st_ino as u64,
        size: st.st_size as u64,
        mtime: (st.st_mtime as i64, st.st_mtime_nsec as u32),
        ctime: (st.st_ctime as i64, st.st_ctime_nsec as u32),
    }
}
