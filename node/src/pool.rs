//! The threads that run the calls: a small elastic pool of plain threads, so no call runs on the
//! JS thread and none takes one of libuv's four pool threads (which `fs` and `dns` need).
//!
//! A job is queued; when no worker is idle, a new one is started (up to [`MAX_WORKERS`]; beyond
//! that jobs wait in the queue). A worker idle for [`IDLE_EXIT`] ends, so an idle process keeps
//! no threads. The searches themselves run on rootbound's shared pool; these threads only wait
//! for them, so many of them cost little.

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

pub type Job = Box<dyn FnOnce() + Send>;

/// At most this many calls run at once; more wait in the queue.
const MAX_WORKERS: usize = 64;

/// A worker idle this long ends.
const IDLE_EXIT: Duration = Duration::from_secs(10);

struct Pool {
    tx: Sender<Job>,
    rx: Receiver<Job>,
    /// Jobs sent and not yet taken by a worker.
    queued: AtomicUsize,
    idle: AtomicUsize,
    live: AtomicUsize,
    /// Jobs running now.
    busy: AtomicUsize,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        let (tx, rx) = crossbeam_channel::unbounded();
        Pool {
            tx,
            rx,
            queued: AtomicUsize::new(0),
            idle: AtomicUsize::new(0),
            live: AtomicUsize::new(0),
            busy: AtomicUsize::new(0),
        }
    })
}

/// Runs `job` on a worker thread. Fails only when no thread can be started and none is alive.
pub fn submit(job: Job) -> Result<(), String> {
    let p = pool();
    let queued = p.queued.fetch_add(1, Ordering::AcqRel) + 1;
    p.tx.send(job)
        .map_err(|_| "the call queue is closed".to_string())?;
    // Idle workers will take the queued jobs; start one more when there are fewer of them. A
    // stale count only delays a job until some worker is free, it never loses it.
    if p.idle.load(Ordering::Acquire) < queued {
        if p.live.fetch_add(1, Ordering::AcqRel) >= MAX_WORKERS {
            p.live.fetch_sub(1, Ordering::AcqRel);
        } else if std::thread::Builder::new()
            .name("rootbound-node".into())
            .spawn(|| work(pool()))
            .is_err()
            && p.live.fetch_sub(1, Ordering::AcqRel) == 1
        {
            return Err("cannot start a call thread".into());
        }
    }
    Ok(())
}

fn work(p: &Pool) {
    loop {
        p.idle.fetch_add(1, Ordering::AcqRel);
        let got = p.rx.recv_timeout(IDLE_EXIT);
        p.idle.fetch_sub(1, Ordering::AcqRel);
        match got {
            Ok(job) => {
                p.queued.fetch_sub(1, Ordering::AcqRel);
                p.busy.fetch_add(1, Ordering::AcqRel);
                job();
                p.busy.fetch_sub(1, Ordering::AcqRel);
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    p.live.fetch_sub(1, Ordering::AcqRel);
    // A job queued while this worker decided to end must still find a thread.
    if !p.rx.is_empty() && p.idle.load(Ordering::Acquire) == 0 {
        let _ = submit(Box::new(|| {}));
    }
}

/// Worker threads alive now.
pub fn live() -> usize {
    pool().live.load(Ordering::Acquire)
}

/// Calls running now (queued ones not counted).
pub fn busy() -> usize {
    pool().busy.load(Ordering::Acquire)
}
