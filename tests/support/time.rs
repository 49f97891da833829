//! Wall-clock bounds of the tests. A test never asserts how much work fits in a deadline (a busy
//! machine fits less); where a call must return at once or at its deadline, the bound is
//! [`PROMPT`]: far above what a loaded 2-core machine adds by scheduling, far below the hang or the
//! minutes of work it rules out.
#![allow(dead_code)]

use std::time::Duration;

/// How long a call that must return at once (or at a deadline of a second or less) may take.
pub const PROMPT: Duration = Duration::from_secs(10);

/// Fails the test if `took` is over [`PROMPT`]; `what` names the call.
pub fn assert_prompt(took: Duration, what: &str) {
    assert!(
        took < PROMPT,
        "{what} returned after {took:?}, not promptly"
    );
}
