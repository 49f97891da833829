//! Child processes of the tests: a wait with a bound (a hung child fails its test instead of
//! hanging the suite), a run with its output in files, and the one way to skip a check, which CI
//! does not allow.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Whether this run is CI (`CI` set, as `.ci/run` and hosted CI set it): there a test that cannot
/// run its checks fails instead of skipping.
pub fn ci() -> bool {
    std::env::var_os("CI").is_some()
}

/// Says that `what` did not run and why; under CI, fails the test instead.
pub fn skip(what: &str, why: &str) {
    assert!(!ci(), "{what} must run under CI, but did not: {why}");
    println!("SKIPPED: {what}: {why}");
}

/// Waits for `child` for at most `limit`; past it, kills and reaps it and answers `None`.
pub fn wait_within(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    // Polls often at first (most children are quick), then every 20 ms.
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(s) = child.try_wait().expect("wait for a child") {
            return Some(s);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// Runs `cmd` with stdin closed and stdout and stderr in files under `scratch` (a client that
/// writes much never blocks on a full pipe): its status, stdout and stderr. Fails the test,
/// with the stderr so far, if `what` runs past `limit`.
pub fn run_logged(
    cmd: &mut Command,
    scratch: &Path,
    limit: Duration,
    what: &str,
) -> (ExitStatus, String, String) {
    let out_path = scratch.join("child.out");
    let err_path = scratch.join("child.err");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("run {what}: {e}"));
    let status = wait_within(&mut child, limit);
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let Some(status) = status else {
        panic!("{what} did not finish in {limit:?}; stderr:\n{stderr}");
    };
    (status, stdout, stderr)
}

/// Sets one resource limit (soft and hard) in the child `cmd` will start, as a caller capping
/// the process would: the tests that prove a refusal under little memory or few descriptors.
pub fn limit(cmd: &mut Command, resource: rustix::process::Resource, n: u64) {
    use std::os::unix::process::CommandExt;
    // SAFETY: only async-signal-safe work (one setrlimit call) between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let lim = rustix::process::Rlimit {
                current: Some(n),
                maximum: Some(n),
            };
            rustix::process::setrlimit(resource, lim).map_err(std::io::Error::from)
        });
    }
}
