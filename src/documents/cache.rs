//! The per-process cache of extracted text, keyed by the file's identity and version
//! (device, inode, size, mtime) plus the format and bounds, and bounded in bytes (oldest out first).
//! An extraction cut by the deadline is not cached: another call with more time may do better.

use super::{extract_within, DocFormat, DocLimits, Extracted, Reason};
use crate::core::deadline::Deadline;
use crate::core::error::Result;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

/// Bytes of extracted text the cache holds at most.
pub(crate) const CACHE_BYTES: u64 = 64 << 20;

/// A file's identity and version, from `fstat` on the opened descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct FileKey {
    dev: u64,
    ino: u64,
    size: i64,
    mtime: (i64, i64),
}

impl FileKey {
    pub fn of(st: &crate::core::dirs::Stat) -> Self {
        #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
        FileKey {
            dev: st.st_dev as u64,
            ino: st.st_ino as u64,
            size: st.st_size as i64,
            mtime: (st.st_mtime as i64, st.st_mtime_nsec as i64),
        }
    }
}

type Key = (FileKey, DocFormat, DocLimits);

#[derive(Default)]
struct Cache {
    map: HashMap<Key, Arc<Extracted>>,
    order: VecDeque<Key>,
    bytes: u64,
}

fn cache() -> &'static Mutex<Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The extracted text of the file `key`, from the cache or by reading it with `load` (the caller's
/// gated read of the whole file) and extracting it.
pub(crate) fn cached_extract(
    key: FileKey,
    format: DocFormat,
    limits: &DocLimits,
    deadline: &Deadline,
    load: impl FnOnce() -> Result<Vec<u8>>,
) -> Result<Arc<Extracted>> {
    let key = (key, format, limits.clone());
    if let Some(hit) = cache().lock().ok().and_then(|c| c.map.get(&key).cloned()) {
        return Ok(hit);
    }
    let bytes = load()?;
    let x = Arc::new(extract_within(&bytes, format, limits, deadline));
    drop(bytes);
    let size = x.text.len() as u64 + 256;
    if x.reason != Some(Reason::Deadline) && size <= CACHE_BYTES / 4 {
        if let Ok(mut c) = cache().lock() {
            if !c.map.contains_key(&key) {
                c.bytes += size;
                c.map.insert(key.clone(), Arc::clone(&x));
                c.order.push_back(key);
                while c.bytes > CACHE_BYTES {
                    let Some(old) = c.order.pop_front() else {
                        break;
                    };
                    if let Some(v) = c.map.remove(&old) {
                        c.bytes -= v.text.len() as u64 + 256;
                    }
                }
            }
        }
    }
    Ok(x)
}
