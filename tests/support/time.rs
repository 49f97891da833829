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

/// How long the index's background work (a build, a save, the description of changed files) may
/// take before a test gives up on it. It runs at nice 19: on a machine kept busy by other work it
/// gets little CPU (60 s were not enough beside four busy loops). Waited for by polling, the bound
/// costs nothing when the work ends sooner.
pub const INDEX_WORK: Duration = Duration::from_secs(600);
