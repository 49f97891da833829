//! A cooperative deadline: checked between files, in sinks and inside long reads.

use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A wall-clock budget shared by every worker of one call.
///
/// ```
/// let d = rootbound::Deadline::after(std::time::Duration::from_millis(0));
/// assert!(d.expired());
/// ```
#[derive(Debug)]
pub struct Deadline {
    at: Instant,
    hit: AtomicBool,
}

impl Deadline {
    /// A deadline `budget` from now.
    pub fn after(budget: Duration) -> Self {
        Deadline {
            at: Instant::now() + budget,
            hit: AtomicBool::new(false),
        }
    }

    /// Whether the budget is spent (sticky once true).
    pub fn expired(&self) -> bool {
        if self.hit.load(Ordering::Relaxed) {
            return true;
        }
        if Instant::now() >= self.at {
            self.hit.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// Whether the deadline was ever observed as expired.
    pub fn was_hit(&self) -> bool {
        self.hit.load(Ordering::Relaxed)
    }
}

/// A reader that fails with `TimedOut` once the deadline passes, so a search inside one huge file
/// stops within one buffer of its budget.
pub(crate) struct DeadlineReader<'a, R> {
    pub inner: R,
    pub deadline: &'a Deadline,
}

impl<R: Read> Read for DeadlineReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.deadline.expired() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "deadline"));
        }
        self.inner.read(buf)
    }
}
