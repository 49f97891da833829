//! The search thread pool of a sandbox, and the round-robin queue that keeps calls sharing it fair.
//!
//! Every `grep_search` on a sandbox (and on its clones) runs its file batches on one
//! `rayon::ThreadPool`: built on first use with `limits.threads` threads (0 = one per CPU), or
//! supplied by the caller (`PolicyBuilder::thread_pool`, `Sandbox::with_thread_pool`) and then shared
//! with whatever else the caller runs on it. No OS thread is created per call.
//!
//! Fairness: a call does not put its batches on the pool's queue directly. It appends them to its own
//! lane and spawns one ticket per batch; a ticket runs the next batch of the lane with the fewest
//! batches running (the longest-waiting such lane first). So a call that arrives while a huge one
//! keeps every thread busy gets the next thread that frees up, and is not queued behind the huge
//! call's whole window; batches are kept short (about 4 ms of searching, see `search::grep`) so that
//! a thread frees up soon.
//!
//! Overrun: a scan that checks no budget until it ends keeps its pool thread after its call has
//! returned (see `search::grep::pipeline`). While every pool thread is held so, a new call would make
//! no progress; it gets a spill thread of its own instead (one per such call, at most twice the
//! pool's size at once; past that, or when no thread can be started, it searches on the calling
//! thread, and its bound is then its timeout plus one scan). The spill thread ends with its call
//! (or with the scan that holds it).

use std::collections::VecDeque;
use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// A unit of work for the pool: one batch of one call.
pub(crate) type Task = Box<dyn FnOnce() + Send + 'static>;

/// The pool slot of a sandbox: the pool (built lazily unless supplied) and its fair queue.
pub(crate) struct SearchPool {
    /// Threads to build the pool with when none was supplied (0 = CPUs).
    threads: usize,
    /// `None` inside when the pool could not be built: searches then run on the calling thread.
    pool: OnceLock<Option<Arc<rayon::ThreadPool>>>,
    fair: Arc<Fair>,
    /// Spill threads running.
    spills: Arc<AtomicUsize>,
}

impl fmt::Debug for SearchPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchPool")
            .field("threads", &self.threads)
            .field("built", &self.pool.get().map(|p| p.is_some()))
            .finish()
    }
}

impl SearchPool {
    /// A slot whose pool is built on first use with `threads` threads (0 = CPUs).
    pub fn lazy(threads: usize) -> Self {
        SearchPool {
            threads,
            pool: OnceLock::new(),
            fair: Arc::new(Fair::default()),
            spills: Arc::default(),
        }
    }

    /// A slot holding a pool the caller supplied.
    pub fn supplied(pool: Arc<rayon::ThreadPool>) -> Self {
        SearchPool {
            threads: pool.current_num_threads(),
            pool: OnceLock::from(Some(pool)),
            fair: Arc::new(Fair::default()),
            spills: Arc::default(),
        }
    }

    /// Where a call's batches run: on the pool; on the calling thread when the caller is itself a
    /// thread of this pool (waiting there for tasks queued behind it could deadlock a small pool) or
    /// when the pool cannot be built; on a spill thread while every pool thread is held by the scan
    /// of a call that has returned.
    pub fn executor(&self) -> Executor {
        let Some(pool) = self.pool() else {
            return Executor::Inline;
        };
        if pool.current_thread_index().is_some() {
            return Executor::Inline;
        }
        let threads = pool.current_num_threads();
        if self.fair.overrun() < threads {
            return Executor::Pool {
                pool: Arc::clone(pool),
                fair: Arc::clone(&self.fair),
                lane: self.fair.lane(),
            };
        }
        self.spill(2 * threads).unwrap_or(Executor::Inline)
    }

    /// A thread for one call, if fewer than `max` are running.
    fn spill(&self, max: usize) -> Option<Executor> {
        struct Count(Arc<AtomicUsize>);
        impl Drop for Count {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::SeqCst);
            }
        }
        let count = Count(Arc::clone(&self.spills));
        if self.spills.fetch_add(1, Ordering::SeqCst) >= max {
            return None;
        }
        let (tx, rx) = crossbeam_channel::unbounded::<Task>();
        std::thread::Builder::new()
            .name("rootbound-spill".into())
            .spawn(move || {
                let _count = count;
                for task in rx {
                    task();
                }
            })
            .ok()?;
        Some(Executor::Spill(tx))
    }

    fn pool(&self) -> Option<&Arc<rayon::ThreadPool>> {
        self.pool
            .get_or_init(|| {
                let threads = match self.threads {
                    0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
                    n => n,
                }
                .clamp(1, 64);
                match rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|i| format!("rootbound-search-{i}"))
                    .build()
                {
                    Ok(p) => Some(Arc::new(p)),
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot start the search threads; searching on the calling thread");
                        None
                    }
                }
            })
            .as_ref()
    }
}

/// Where one call runs its batches.
pub(crate) enum Executor {
    Pool {
        pool: Arc<rayon::ThreadPool>,
        fair: Arc<Fair>,
        lane: u64,
    },
    /// A thread of this call's own (see the module docs); it ends when this is dropped.
    Spill(crossbeam_channel::Sender<Task>),
    Inline,
}

impl Executor {
    /// Threads that search this call's batches.
    pub fn threads(&self) -> usize {
        match self {
            Executor::Pool { pool, .. } => pool.current_num_threads(),
            Executor::Spill(_) | Executor::Inline => 1,
        }
    }

    /// Runs `task` on the pool (in this call's turn) or, inline, right now.
    pub fn spawn(&self, task: Task) {
        match self {
            Executor::Pool { pool, fair, lane } => {
                fair.push(*lane, task);
                let fair = Arc::clone(fair);
                pool.spawn(move || fair.run_next());
            }
            Executor::Spill(tx) => {
                // The thread lives until this sender is dropped.
                let _ = tx.send(task);
            }
            Executor::Inline => task(),
        }
    }

    /// The call is over (`expired`: its budget ran out): drops its batches that have not started
    /// (their tickets find nothing, or another call's batch) and counts those still running as
    /// overrunning until they end.
    pub fn forget(&self, expired: bool) {
        if let Executor::Pool { fair, lane, .. } = self {
            fair.forget(*lane, expired);
        }
    }
}

/// The lanes (calls) with tasks queued or running. A free thread serves the lane with the fewest
/// tasks running, the longest-waiting of those first: a call that just arrived gets the next free
/// thread, and calls that are all busy take turns.
#[derive(Default)]
pub(crate) struct Fair {
    next_lane: AtomicU64,
    ring: Mutex<Ring>,
}

#[derive(Default)]
struct Ring {
    lanes: VecDeque<Lane>,
}

struct Lane {
    id: u64,
    queued: VecDeque<Task>,
    running: usize,
    /// Its call has returned: from this instant on, its running tasks count as overrunning.
    over: Option<Instant>,
}

/// A task still running this long after its call completed its page is overrunning: it is inside a
/// scan that checks no budget until it ends (a task whose call is over otherwise stops at its next
/// check, within microseconds to a few milliseconds). A task still running when its call's budget
/// ran out is overrunning at once: it already let the call's grace period pass.
const OVERRUN_AFTER: Duration = Duration::from_millis(50);

impl Fair {
    fn lane(&self) -> u64 {
        self.next_lane.fetch_add(1, Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Ring> {
        // A panic never happens while the lock is held; be robust to it anyway.
        self.ring.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Tasks overrunning their call (see [`OVERRUN_AFTER`]).
    fn overrun(&self) -> usize {
        self.lock()
            .lanes
            .iter()
            .filter(|l| l.over.is_some_and(|t| Instant::now() >= t))
            .map(|l| l.running)
            .sum()
    }

    fn push(&self, lane: u64, task: Task) {
        let mut ring = self.lock();
        match ring.lanes.iter_mut().find(|l| l.id == lane) {
            Some(l) => l.queued.push_back(task),
            None => ring.lanes.push_back(Lane {
                id: lane,
                queued: VecDeque::from([task]),
                running: 0,
                over: None,
            }),
        }
    }

    /// Takes the next task to run, and runs it with its lane's count of running tasks raised.
    fn run_next(&self) {
        let picked = {
            let mut ring = self.lock();
            let best = ring
                .lanes
                .iter()
                .enumerate()
                .filter(|(_, l)| !l.queued.is_empty())
                .min_by_key(|(_, l)| l.running)
                .map(|(i, _)| i);
            best.and_then(|i| {
                let mut lane = ring.lanes.remove(i)?;
                let task = lane.queued.pop_front()?;
                lane.running += 1;
                let id = lane.id;
                ring.lanes.push_back(lane);
                Some((id, task))
            })
        };
        let Some((id, task)) = picked else { return };
        struct Done<'a>(&'a Fair, u64);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                let mut ring = self.0.lock();
                if let Some(i) = ring.lanes.iter().position(|l| l.id == self.1) {
                    let lane = &mut ring.lanes[i];
                    lane.running -= 1;
                    if lane.running == 0 && lane.queued.is_empty() {
                        ring.lanes.remove(i);
                    }
                }
            }
        }
        let _done = Done(self, id);
        task();
    }

    /// The lane's call has returned (`expired`: because its budget ran out): its queued tasks are
    /// dropped, and its running ones count as overrunning (see [`OVERRUN_AFTER`]).
    fn forget(&self, lane: u64, expired: bool) {
        let dropped = {
            let mut ring = self.lock();
            match ring.lanes.iter().position(|l| l.id == lane) {
                Some(i) if ring.lanes[i].running == 0 => ring.lanes.remove(i).map(|l| l.queued),
                Some(i) => {
                    let lane = &mut ring.lanes[i];
                    let now = Instant::now();
                    lane.over = Some(if expired { now } else { now + OVERRUN_AFTER });
                    Some(std::mem::take(&mut lane.queued))
                }
                None => None,
            }
        };
        // The tasks (and the descriptors they hold) are dropped outside the lock.
        drop(dropped);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex as M;

    fn logger(log: &Arc<M<Vec<(&'static str, i32)>>>, lane: &'static str, i: i32) -> Task {
        let log = Arc::clone(log);
        Box::new(move || log.lock().unwrap().push((lane, i)))
    }

    #[test]
    fn lanes_take_turns_and_idle_lanes_go_first() {
        let fair = Fair::default();
        let log = Arc::new(M::new(Vec::new()));
        let (a, b) = (fair.lane(), fair.lane());
        for i in 0..3 {
            fair.push(a, logger(&log, "a", i));
        }
        fair.push(b, logger(&log, "b", 0));
        for _ in 0..4 {
            fair.run_next();
        }
        assert_eq!(
            *log.lock().unwrap(),
            vec![("a", 0), ("b", 0), ("a", 1), ("a", 2)]
        );
        assert!(fair.lock().lanes.is_empty());
        // A lane with a task running waits behind one with none.
        let (c, d) = (fair.lane(), fair.lane());
        fair.push(c, logger(&log, "c", 0));
        fair.push(c, logger(&log, "c", 1));
        fair.lock().lanes[0].running = 1;
        fair.push(d, logger(&log, "d", 0));
        fair.run_next();
        assert_eq!(log.lock().unwrap().last(), Some(&("d", 0)));
        fair.lock().lanes[0].running = 0;
        fair.forget(c, false);
        assert!(fair.lock().lanes.is_empty());
        // A call that returns while its task runs: the task is overrun until it ends.
        let fair = Arc::new(fair);
        let e = fair.lane();
        let inner = Arc::clone(&fair);
        let seen = Arc::new(M::new(None));
        let s2 = Arc::clone(&seen);
        fair.push(e, logger(&log, "e", 1));
        fair.push(
            e,
            Box::new(move || {
                inner.forget(e, false);
                let straggler = inner.overrun();
                std::thread::sleep(OVERRUN_AFTER);
                *s2.lock().unwrap() = Some((straggler, inner.overrun()));
            }),
        );
        fair.lock().lanes[0].queued.rotate_left(1);
        fair.run_next();
        assert_eq!(*seen.lock().unwrap(), Some((0, 1)));
        assert_eq!(fair.overrun(), 0);
        assert!(fair.lock().lanes.is_empty(), "the queued task was dropped");
        assert_eq!(log.lock().unwrap().len(), 5);
    }
}
