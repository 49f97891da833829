//! The memory a build may account for, shared by the threads that scan files and the one that
//! adds them to the postings: every growth is taken from it *before* it is allocated, so what the
//! build holds never passes the cap, and the highest figure reached is kept for the status.
//!
//! It also carries the build's stop flag (raised when the host's last sandbox goes): every loop of
//! the lists' merges already holds the budget, so each asks [`Budget::stopped`] once a list and
//! ends early, and a drop during the final merge does not wait for the whole of it.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// Bytes a build may hold, those it holds, and the most it held; and the build's stop flag.
pub(crate) struct Budget {
    cap: usize,
    used: AtomicUsize,
    peak: AtomicUsize,
    /// The build's stop flag; none: nothing stops the work that takes from this budget.
    stop: Option<Arc<AtomicBool>>,
}

impl Budget {
    pub fn new(cap: usize) -> Budget {
        Budget {
            cap,
            used: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            stop: None,
        }
    }

    /// This budget, its merges ending early once `stop` is raised.
    pub fn stopping(mut self, stop: Arc<AtomicBool>) -> Budget {
        self.stop = Some(stop);
        self
    }

    /// Whether the work this budget pays for was told to stop (the merges ask once a list: a
    /// relaxed load, nothing beside a list's merge).
    pub fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Takes `n` bytes, if they fit under the cap.
    #[must_use]
    pub fn take(&self, n: usize) -> bool {
        let mut used = self.used.load(Ordering::Relaxed);
        loop {
            let Some(next) = used.checked_add(n).filter(|&x| x <= self.cap) else {
                return false;
            };
            match self
                .used
                .compare_exchange_weak(used, next, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => {
                    self.peak.fetch_max(next, Ordering::Relaxed);
                    return true;
                }
                Err(now) => used = now,
            }
        }
    }

    /// Gives back `n` bytes taken before.
    pub fn give(&self, n: usize) {
        self.used.fetch_sub(n, Ordering::Relaxed);
    }

    /// Adds `n` bytes whether or not they fit (an allocator that gave more than was asked for):
    /// the peak shows it.
    pub fn force(&self, n: usize) {
        let now = self.used.fetch_add(n, Ordering::Relaxed) + n;
        self.peak.fetch_max(now, Ordering::Relaxed);
    }

    /// The cap.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// The most it held at once.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// What it holds now.
    #[cfg(test)]
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }
}

/// Makes room in `v` for one more element, taking the growth from `budget` first (the old and the
/// new buffer coexist while it moves): false when it does not fit.
pub(crate) fn grow<T>(v: &mut Vec<T>, budget: &Budget) -> bool {
    if v.len() < v.capacity() {
        return true;
    }
    let size = std::mem::size_of::<T>().max(1);
    let (old, new) = (v.capacity(), (v.capacity() * 2).max(64));
    if !budget.take(new * size) {
        return false;
    }
    v.reserve_exact(new - v.len());
    budget.give(old * size);
    // A larger buffer than asked for is accounted as it is.
    budget.force((v.capacity() - new) * size);
    true
}

/// Makes room in `m` for one more entry, each accounted as `entry` bytes of its capacity, taking
/// the growth from `budget` first (the old table and the new coexist while it moves): false when
/// it does not fit.
pub(crate) fn grow_map<K: Eq + Hash, V, S: std::hash::BuildHasher>(
    m: &mut HashMap<K, V, S>,
    entry: usize,
    budget: &Budget,
) -> bool {
    if m.len() < m.capacity() {
        return true;
    }
    let (old, want) = (m.capacity(), (m.capacity() * 2).max(64));
    if !budget.take(want * entry) {
        return false;
    }
    m.reserve(want - m.len());
    budget.give(old * entry);
    budget.force(m.capacity().saturating_sub(want) * entry);
    budget.give(want.saturating_sub(m.capacity()) * entry);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_never_passes_its_cap_and_keeps_its_peak() {
        let b = Budget::new(200);
        assert!(b.take(150));
        assert!(!b.take(51));
        assert!(b.take(50));
        b.give(150);
        assert_eq!((b.used(), b.peak()), (50, 200));
        let mut v: Vec<u8> = Vec::new();
        assert!(grow(&mut v, &b), "64 bytes fit beside 50");
        assert_eq!(b.used(), 50 + v.capacity());
        v.extend(std::iter::repeat_n(0, 64));
        assert!(!grow(&mut v, &b), "128 more do not");
        assert_eq!(v.capacity(), 64);
    }
}
