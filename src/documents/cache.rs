//! The per-process cache of extracted text, keyed by the file's identity and version
//! (device, inode, size, mtime) plus the format and bounds, and bounded in bytes (oldest out first).
//! An extraction cut by the deadline is not cached: another call with more time may do better.
//!
//! An extraction holds what it reserved from the call's memory budget (`core::memory`): first a
//! try with small bounds ([`DocLimits::first_try`]: the document's bytes and about 12 MiB), and,
//! when one of those bounds was reached, the full extraction with everything the full bounds let
//! it hold ([`DocLimits::footprint`], 224 MiB at most by default). No reservation is held while
//! another is waited for, and either way the text is the one the full bounds give, whatever the
//! threads beside it hold. The text then stays reserved while the caller uses it.

use super::{extract_tried, refused, DocFormat, DocLimits, Extracted, Reason};
use crate::core::deadline::Deadline;
use crate::core::error::Result;
use crate::core::memory::{NoRoom, Reservation};
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

/// A document's text and the reservation of the call's memory budget that holds it.
pub(crate) struct Held {
    doc: Arc<Extracted>,
    _reserved: Option<Reservation>,
    /// The call's memory budget had no room for the extraction (nothing was extracted).
    pub no_room: Option<NoRoom>,
}

impl Held {
    /// A text that holds no reservation (an extraction refused before it began).
    pub fn unreserved(x: Extracted) -> Held {
        Held {
            doc: Arc::new(x),
            _reserved: None,
            no_room: None,
        }
    }
}

impl std::ops::Deref for Held {
    type Target = Extracted;

    fn deref(&self) -> &Extracted {
        &self.doc
    }
}

/// The extracted text of the file `key`, from the cache or by reading it with `load` (the caller's
/// gated read of the whole file) and extracting it within the call's memory budget.
pub(crate) fn cached_extract(
    key: FileKey,
    format: DocFormat,
    limits: &DocLimits,
    deadline: &Deadline,
    load: impl Fn() -> Result<Vec<u8>>,
) -> Result<Held> {
    let size = key.size.max(0) as u64;
    let key = (key, format, limits.clone());
    if let Some(hit) = cache().lock().ok().and_then(|c| c.map.get(&key).cloned()) {
        return Ok(match deadline.reserve(hit.text.len() as u64) {
            Ok(r) => Held {
                doc: hit,
                _reserved: Some(r),
                no_room: None,
            },
            Err(no) => unreserved(format, no),
        });
    }
    let first = limits.first_try();
    let mut tried = None;
    if first != *limits {
        tried = match extract_reserved(size, format, &first, deadline, &load)? {
            Ok((x, false, held)) => Some((x, held)),
            Ok((_, true, _)) => None,
            Err(no) => return Ok(unreserved(format, no)),
        };
    }
    let (x, mut held) = match tried {
        Some(t) => t,
        None => match extract_reserved(size, format, limits, deadline, &load)? {
            Ok((x, _, held)) => (x, held),
            Err(no) => return Ok(unreserved(format, no)),
        },
    };
    held.shrink_to(x.text.len() as u64);
    let x = Arc::new(x);
    cache_put(key, &x);
    Ok(Held {
        doc: x,
        _reserved: Some(held),
        no_room: None,
    })
}

/// An empty extraction for a document the call's memory budget had no room for (not cached): its
/// need is over the whole budget (`memory_bytes`), or the deadline passed while it waited.
fn unreserved(format: DocFormat, no: NoRoom) -> Held {
    let reason = match no {
        NoRoom::OverBudget => Reason::MemoryBytes,
        NoRoom::Expired => Reason::Deadline,
    };
    Held {
        no_room: Some(no),
        ..Held::unreserved(refused(format, reason))
    }
}

type Tried = std::result::Result<(Extracted, bool, Reservation), NoRoom>;

/// Reserves what an extraction within `limits` may hold (waiting for room), then reads the
/// document and extracts it: the text, whether a bound on bytes was reached, and the reservation.
fn extract_reserved(
    size: u64,
    format: DocFormat,
    limits: &DocLimits,
    deadline: &Deadline,
    load: &dyn Fn() -> Result<Vec<u8>>,
) -> Result<Tried> {
    let held = match deadline.reserve(limits.footprint(size)) {
        Ok(h) => h,
        Err(no) => return Ok(Err(no)),
    };
    let bytes = load()?;
    let (x, cramped) = extract_tried(&bytes, format, limits, deadline);
    Ok(Ok((x, cramped, held)))
}

/// Keeps `x` for later calls, unless the deadline cut it or it is large.
fn cache_put(key: Key, x: &Arc<Extracted>) {
    let size = x.text.len() as u64 + 256;
    if x.reason != Some(Reason::Deadline) && size <= CACHE_BYTES / 4 {
        if let Ok(mut c) = cache().lock() {
            if !c.map.contains_key(&key) {
                c.bytes += size;
                c.map.insert(key.clone(), Arc::clone(x));
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
}
