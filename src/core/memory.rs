//! One call's memory budget, shared by every thread of the call (DESIGN.md guarantee 9).
//!
//! What a call holds in proportion to its input beyond a small fixed working set per thread (a
//! document being extracted: its bytes, its parsed structures, its text; a search buffer grown past
//! its first size for a long line or a multiline file) is reserved here before it is allocated and
//! given back when it is freed. A reservation that does not fit waits, in arrival order, until the
//! reservations before it are given back, bounded by the call's deadline; only a need larger than
//! the whole budget is refused. So the answer does not depend on the thread count or on scheduling:
//! the same files are searched with the same bounds whatever runs beside them.
//!
//! No thread waits while it holds a reservation (each holds at most one, and waits only before it
//! takes one): a wait ends when the reservations held are given back, never in a cycle.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// How often a waiting reservation looks at the call's deadline and cancel switch.
const WAIT_SLICE: Duration = Duration::from_millis(20);

/// Why a reservation was not made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NoRoom {
    /// The need is larger than the whole budget: it can never be met.
    OverBudget,
    /// The call's deadline passed (or it was cancelled) while waiting for room.
    Expired,
}

/// The bytes one call may hold reserved at once, and what it holds.
#[derive(Debug)]
pub(crate) struct CallMemory {
    cap: u64,
    state: Mutex<State>,
    freed: Condvar,
}

#[derive(Debug, Default)]
struct State {
    held: u64,
    /// The most ever held at once.
    peak: u64,
    /// Tickets of the reservations waiting, in arrival order; only the first may take room.
    queue: VecDeque<u64>,
    next: u64,
}

impl CallMemory {
    /// A budget of `cap` bytes (`u64::MAX`: unbounded, for work outside any call).
    pub fn new(cap: u64) -> Arc<Self> {
        Arc::new(CallMemory {
            cap,
            state: Mutex::default(),
            freed: Condvar::new(),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held leaves plain numbers, still consistent.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The most this budget may hold at once: a larger reservation is refused outright.
    pub fn cap(&self) -> u64 {
        self.cap
    }

    /// The most this budget ever held reserved at once.
    pub fn peak(&self) -> u64 {
        self.state().peak
    }

    /// Reserves `bytes`, waiting (in arrival order) for room while `expired` is false.
    pub fn reserve(
        self: &Arc<Self>,
        bytes: u64,
        expired: impl Fn() -> bool,
    ) -> Result<Reservation, NoRoom> {
        if bytes > self.cap {
            return Err(NoRoom::OverBudget);
        }
        let mut st = self.state();
        let ticket = st.next;
        st.next += 1;
        st.queue.push_back(ticket);
        loop {
            if st.queue.front() == Some(&ticket) && st.held + bytes <= self.cap {
                st.queue.pop_front();
                st.held += bytes;
                st.peak = st.peak.max(st.held);
                // The next in line may fit too.
                self.freed.notify_all();
                return Ok(Reservation {
                    pool: Arc::clone(self),
                    bytes,
                });
            }
            if expired() {
                st.queue.retain(|&t| t != ticket);
                self.freed.notify_all();
                return Err(NoRoom::Expired);
            }
            st = match self.freed.wait_timeout(st, WAIT_SLICE) {
                Ok((g, _)) => g,
                Err(e) => e.into_inner().0,
            };
        }
    }

    fn give_back(&self, bytes: u64) {
        if bytes == 0 {
            return;
        }
        let mut st = self.state();
        st.held = st.held.saturating_sub(bytes);
        drop(st);
        self.freed.notify_all();
    }
}

/// Bytes reserved from a [`CallMemory`], given back when dropped.
#[derive(Debug)]
pub(crate) struct Reservation {
    pool: Arc<CallMemory>,
    bytes: u64,
}

impl Reservation {
    /// Keeps only `bytes` of the reservation (no more than it holds), giving the rest back: for
    /// what stays held once the bulk of the work is freed.
    #[cfg_attr(not(feature = "documents"), allow(dead_code))] // the extraction cache's
    pub fn shrink_to(&mut self, bytes: u64) {
        let keep = bytes.min(self.bytes);
        self.pool.give_back(self.bytes - keep);
        self.bytes = keep;
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.pool.give_back(self.bytes);
    }
}

/// Gives the pages the allocator holds free back to the kernel. glibc's malloc keeps what a
/// thread's arena freed (an index build frees hundreds of MB of growing posting lists, spread over
/// its threads' arenas) and returns it only from the top of each heap: without this, a server
/// that built the Linux tree's index kept ~170 MB of freed pages (BENCHMARKS.md, issue 39).
pub(crate) fn release_free_pages() {
    crate::core::sys::malloc_trim();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[test]
    fn reservations_wait_for_room_in_order_and_never_pass_the_cap() {
        let m = CallMemory::new(100);
        assert_eq!(m.reserve(101, || false).unwrap_err(), NoRoom::OverBudget);
        let mut a = m.reserve(60, || false).unwrap();
        // No room now: the wait ends at the deadline.
        assert_eq!(m.reserve(50, || true).unwrap_err(), NoRoom::Expired);
        let done = Arc::new(AtomicBool::new(false));
        let waiter = {
            let (m, done) = (Arc::clone(&m), Arc::clone(&done));
            std::thread::spawn(move || {
                let r = m.reserve(50, || false).unwrap();
                done.store(true, Ordering::SeqCst);
                drop(r);
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        assert!(!done.load(Ordering::SeqCst), "reserved past the cap");
        a.shrink_to(40);
        waiter.join().unwrap();
        assert!(done.load(Ordering::SeqCst));
        drop(a);
        assert_eq!(m.peak(), 90);
        assert_eq!(m.state().held, 0);
        assert!(m.state().queue.is_empty());
    }
}
