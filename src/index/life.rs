//! Who owns the index's background work, and what a panic in it does.
//!
//! The sandboxes a host holds share an [`Owner`]; the index's threads hold the [`Index`] itself
//! (beside a clone of the core sandbox), never an owner. When the last owner goes, its drop
//! raises the index's stop flag, which the build's walk and file loop, the recording walk and the
//! description rounds check: they end, and let go of the index and the sandbox they held.
//!
//! A panic in background work is caught where the thread starts: the root it served is turned
//! off with the reason, and its queries run unindexed (a query uses only a ready index).

use super::{Index, State};
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// What a host's sandboxes hold: dropping the last one stops the index's background work.
pub(crate) struct Owner(Arc<Index>);

impl Owner {
    pub(crate) fn new(index: Arc<Index>) -> Owner {
        Owner(index)
    }

    /// The index this owner keeps working (what background work and a call's pruner hold).
    pub(crate) fn index(&self) -> &Arc<Index> {
        &self.0
    }
}

impl std::fmt::Debug for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Index { .. }")
    }
}

impl Drop for Owner {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::SeqCst);
    }
}

/// A lock that a panic elsewhere does not make unusable: every holder in the index leaves the
/// state whole between its statements (a panic cannot stop it halfway through an update that
/// matters: flags and sets are replaced, not built in place across calls that can panic).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// [`lock`] as a method.
pub(crate) trait Locked<T> {
    fn locked(&self) -> MutexGuard<'_, T>;
}

impl<T> Locked<T> for Mutex<T> {
    fn locked(&self) -> MutexGuard<'_, T> {
        lock(self)
    }
}

/// Background threads of any index that have started and not ended.
static LIVE_THREADS: AtomicUsize = AtomicUsize::new(0);

/// Counts a thread as live while it exists.
pub(crate) struct Alive;

impl Alive {
    pub(crate) fn new() -> Alive {
        // A rayon worker counts itself in its start handler and out in its exit handler.
        LIVE_THREADS.fetch_add(1, Ordering::SeqCst);
        Alive
    }
}

impl Drop for Alive {
    fn drop(&mut self) {
        LIVE_THREADS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Background threads of every index in the process (the build, its readers, recordings and
/// descriptions) that have not ended (tests).
#[doc(hidden)]
pub fn index_threads_live() -> usize {
    LIVE_THREADS.load(Ordering::SeqCst)
}

/// Background threads of any index that have ended (their work done, or given up).
static ENDED_THREADS: AtomicUsize = AtomicUsize::new(0);

/// How many background threads of any index have ended since the process started (tests: a
/// recording started while another thread is held has ended once this moves).
#[doc(hidden)]
pub fn index_threads_ended() -> usize {
    ENDED_THREADS.load(Ordering::SeqCst)
}

/// Test hooks: the roots (canonical paths) whose index work panics, and whose build reads
/// each file slowly; `HOOKED` spares every other build a lock per file.
static FAULT: Mutex<Option<PathBuf>> = Mutex::new(None);
static SLOW: Mutex<Option<PathBuf>> = Mutex::new(None);
static HOOKED: AtomicBool = AtomicBool::new(false);

/// Makes the index work of the root at canonical path `root` panic (tests); `None` stops it.
#[doc(hidden)]
pub fn index_fault_at(root: Option<&Path>) {
    HOOKED.store(true, Ordering::SeqCst);
    *lock(&FAULT) = root.map(Path::to_path_buf);
}

/// Makes the build of the root at canonical path `root` take 10 ms a file (tests: a build that
/// takes long on a small tree); `None` stops it.
#[doc(hidden)]
pub fn index_slow_at(root: Option<&Path>) {
    HOOKED.store(true, Ordering::SeqCst);
    *lock(&SLOW) = root.map(Path::to_path_buf);
}

static SLOW_READS: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Makes every read (of at most 1 MiB) of a file by the build or a description of the root at
/// canonical path `root` take 300 ms (tests: a large file whose read takes long); `None` stops it.
#[doc(hidden)]
pub fn index_slow_reads_at(root: Option<&Path>) {
    HOOKED.store(true, Ordering::SeqCst);
    *lock(&SLOW_READS) = root.map(Path::to_path_buf);
}

/// Test hook: how far the index clock of each root (canonical path) runs ahead of the real one.
static AHEAD: Mutex<Vec<(PathBuf, Duration)>> = Mutex::new(Vec::new());

/// Moves the index clock of the root at canonical path `root` ahead by `by` (tests): to this
/// root's index its files are `by` older and its background rounds come due `by` sooner, as if the
/// test had slept that long (the racy window of a fresh file, two seconds, without the wait).
#[doc(hidden)]
pub fn index_age_at(root: &Path, by: Duration) {
    HOOKED.store(true, Ordering::SeqCst);
    let mut ahead = lock(&AHEAD);
    match ahead.iter_mut().find(|(p, _)| p == root) {
        Some((_, d)) => *d += by,
        None => ahead.push((root.to_path_buf(), by)),
    }
}

/// How far a test moved this root's index clock ahead.
fn ahead(canonical: &Path) -> Duration {
    if !HOOKED.load(Ordering::Relaxed) {
        return Duration::ZERO;
    }
    let ahead = lock(&AHEAD);
    ahead
        .iter()
        .find(|(p, _)| p == canonical)
        .map_or(Duration::ZERO, |(_, d)| *d)
}

/// Now on this root's index clock, in seconds since the epoch (file ages are measured with it).
pub(crate) fn now_secs(canonical: &Path) -> i64 {
    (std::time::SystemTime::now() + ahead(canonical))
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Now on this root's index clock, as an instant (background rounds are paced with it).
pub(crate) fn instant(canonical: &Path) -> Instant {
    Instant::now() + ahead(canonical)
}

/// Panics if a test asked for a fault in this root's index work.
pub(crate) fn fault_point(canonical: &Path) {
    if HOOKED.load(Ordering::Relaxed) && lock(&FAULT).as_deref() == Some(canonical) {
        panic!("index fault injected");
    }
}

/// Sleeps if a test asked for a slow build of this root.
pub(crate) fn slow_point(canonical: &Path) {
    if HOOKED.load(Ordering::Relaxed) && lock(&SLOW).as_deref() == Some(canonical) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Sleeps before a read of a file if a test asked for slow reads of this root.
pub(crate) fn slow_read_point(canonical: &Path) {
    if HOOKED.load(Ordering::Relaxed) && lock(&SLOW_READS).as_deref() == Some(canonical) {
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
}

/// A point of the index's background work where a test can hold it (see [`index_hold_at`]).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexPoint {
    /// The description thread, after it read the files it chose and before it puts their
    /// descriptions in place.
    Describe,
    /// A recording, after its walk and before it decides whether to keep it.
    Record,
}

/// The hold a test asked for: the root (canonical path), the point, and whether a thread waits
/// there now. One thread is held per arming.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Hold {
    root: PathBuf,
    point: IndexPoint,
    held: bool,
}

static HOLD: Mutex<Option<Hold>> = Mutex::new(None);
static HOLD_MOVED: Condvar = Condvar::new();

/// Makes the next thread of the root at canonical path `root` that reaches `point` wait there
/// until `index_hold_at(None)` (tests: a change lands in the window between what the thread read
/// and what it puts in place, every time, not by luck). `None` releases a held thread and
/// disarms. A held thread still ends when its index stops.
#[doc(hidden)]
pub fn index_hold_at(at: Option<(&Path, IndexPoint)>) {
    HOOKED.store(true, Ordering::SeqCst);
    *lock(&HOLD) = at.map(|(root, point)| Hold {
        root: root.to_path_buf(),
        point,
        held: false,
    });
    HOLD_MOVED.notify_all();
}

/// Waits up to `limit` for a thread to be held at the armed point (tests); false if none came.
#[doc(hidden)]
pub fn index_held(limit: Duration) -> bool {
    let start = Instant::now();
    let mut h = lock(&HOLD);
    loop {
        match &*h {
            Some(hold) if hold.held => return true,
            Some(_) if start.elapsed() < limit => {}
            _ => return false,
        }
        h = HOLD_MOVED
            .wait_timeout(h, Duration::from_millis(10))
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
}

/// Waits here while a test holds `point` of this root's work (never when no test asked, nor
/// once `stop` is raised: a dropped sandbox still ends its work within the 100 ms it promises).
pub(crate) fn hold_point(canonical: &Path, point: IndexPoint, stop: &AtomicBool) {
    if !HOOKED.load(Ordering::Relaxed) {
        return;
    }
    let mut h = lock(&HOLD);
    match h.as_mut() {
        Some(hold) if !hold.held && hold.point == point && hold.root == canonical => {
            hold.held = true;
        }
        _ => return,
    }
    HOLD_MOVED.notify_all();
    // Held until the test disarms (or arms anew), or the index stops.
    while h.as_ref().is_some_and(|hold| hold.held) && !stop.load(Ordering::Relaxed) {
        h = HOLD_MOVED
            .wait_timeout(h, Duration::from_millis(10))
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
}

/// Starts a background thread of the index (nice 19) running `work`; a panic in it turns off
/// the index roots `roots` with the reason, and `after` runs either way (clears the flags that
/// say work is under way).
pub(crate) fn spawn(
    name: &str,
    index: Arc<Index>,
    roots: Vec<usize>,
    work: impl FnOnce() + Send + 'static,
    after: impl FnOnce(&Index) + Send + 'static,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let _alive = Alive::new();
            let _ = rustix::process::setpriority_process(None, 19);
            if let Err(p) = catch_unwind(AssertUnwindSafe(work)) {
                turn_off(&index, &roots, &panic_message(p.as_ref()));
            }
            after(&index);
            ENDED_THREADS.fetch_add(1, Ordering::SeqCst);
        })
        .map(|_| ())
}

/// Turns off roots `roots` of `index` after a panic in their work.
fn turn_off(index: &Index, roots: &[usize], what: &str) {
    for &j in roots {
        if let Some((_, s)) = index.roots.get(j) {
            *lock(s) = State::Off(format!(
                "the index work panicked ({what}); searched unindexed"
            ));
        }
        if let Some(Ok(live)) = index.live.get(j) {
            lock(live).forget();
        }
    }
}

fn panic_message(p: &(dyn Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}
