//! Shared helpers for the sandbox-core integration tests (attacks_read, race_read, read_modes,
//! cli_contract): temp trees with a root, an outside directory holding a unique canary, and checks that
//! no outside byte, name or host path comes back.
#![allow(dead_code)]

use rootbound::{Error, ErrorCode, PolicyBuilder, Sandbox};
use serde_json::Value;
use std::os::unix::fs::symlink;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A temp directory `base` with `base/data` (the root), `base/outside` and `base/data_evil` (both full
/// of canaries). All paths are canonical.
pub struct World {
    _tmp: tempfile::TempDir,
    pub base: PathBuf,
    pub root: PathBuf,
    pub outside: PathBuf,
    pub canary: String,
}

/// A string that exists nowhere but in the files this test planted outside the root.
pub fn unique_canary(tag: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("CANARY-{tag}-{}-{nanos:x}", std::process::id())
}

impl World {
    pub fn new() -> World {
        let tmp = tempfile::Builder::new()
            .prefix("rootbound-test-")
            .tempdir()
            .expect("tempdir");
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        let root = base.join("data");
        let outside = base.join("outside");
        std::fs::create_dir(&root).unwrap();
        std::fs::create_dir_all(outside.join("subdir")).unwrap();
        std::fs::create_dir(base.join("data_evil")).unwrap();
        let canary = unique_canary("outside");
        for f in [
            outside.join("secret.txt"),
            outside.join("x"),
            outside.join("subdir/deep.txt"),
            base.join("data_evil/x"),
            base.join("top.txt"),
        ] {
            std::fs::write(&f, format!("{canary}\n")).unwrap();
        }
        // A file whose *name* is the canary, so a listing that strays outside shows it.
        std::fs::write(outside.join(&canary), "name canary\n").unwrap();
        World {
            _tmp: tmp,
            base,
            root,
            outside,
            canary,
        }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    pub fn file(&self, rel: &str, content: impl AsRef<[u8]>) -> &Self {
        let p = self.root.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(p, content).unwrap();
        self
    }

    pub fn dir(&self, rel: &str) -> &Self {
        std::fs::create_dir_all(self.root.join(rel)).unwrap();
        self
    }

    /// `rel -> target` (target verbatim: relative or absolute).
    pub fn link(&self, rel: &str, target: impl AsRef<Path>) -> &Self {
        let p = self.root.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        symlink(target, p).unwrap();
        self
    }

    pub fn sandbox(&self) -> Sandbox {
        Sandbox::builder().root(&self.root).build().unwrap()
    }

    pub fn sandbox_with(&self, f: impl FnOnce(PolicyBuilder) -> PolicyBuilder) -> Sandbox {
        f(Sandbox::builder().root(&self.root)).build().unwrap()
    }

    /// Host paths the agent never gave: they must not show up in a message unless the request had them.
    pub fn host_paths(&self) -> Vec<String> {
        vec![
            self.outside.display().to_string(),
            self.root.display().to_string(),
            self.base.display().to_string(),
        ]
    }

    /// Panics if `text` (a result or a message) carries an outside byte.
    pub fn assert_no_canary(&self, text: &str, ctx: &str) {
        assert!(
            !text.contains(&self.canary) && !text.contains("CANARY-"),
            "{ctx}: outside content leaked: {text:?}"
        );
    }

    /// An error's message names no host path the request did not contain and carries no outside bytes.
    pub fn assert_clean_error(&self, err: &Error, request: &str, ctx: &str) {
        self.assert_clean_message(&err.message, request, ctx);
    }

    pub fn assert_clean_message(&self, message: &str, request: &str, ctx: &str) {
        self.assert_no_canary(message, ctx);
        for host in self.host_paths() {
            if !request.contains(&host) {
                assert!(
                    !message.contains(&host),
                    "{ctx}: message names host path {host:?} the agent did not give: {message:?}"
                );
            }
        }
    }
}

/// The JSON error code of a `Sandbox::call` result, if it is an error.
pub fn json_code(v: &Value) -> Option<&str> {
    v.get("error")?.get("code")?.as_str()
}

/// Looks an error code up by its stable string.
pub fn code_from_str(s: &str) -> ErrorCode {
    *ErrorCode::ALL
        .iter()
        .find(|c| c.as_str() == s)
        .unwrap_or_else(|| panic!("unknown error code string {s:?}"))
}

/// `force_portable_resolver` is process-global: every test that depends on the resolver holds this.
static MODE: Mutex<()> = Mutex::new(());

pub fn mode_lock() -> MutexGuard<'static, ()> {
    MODE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` under a fixed resolver mode (`"openat2"` or `"portable"`), holding the mode lock.
pub fn in_mode<R>(portable: bool, f: impl FnOnce(&'static str) -> R) -> R {
    let _g = mode_lock();
    rootbound::force_portable_resolver(portable);
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            rootbound::force_portable_resolver(false);
        }
    }
    let _r = Reset;
    f(if portable { "portable" } else { "openat2" })
}

/// Runs `f` on another thread and fails the test if it has not returned within `limit`
/// (the guard for "never blocks": a hung FIFO read would otherwise hang the whole suite).
pub fn within<R: Send + 'static>(
    limit: Duration,
    what: &str,
    f: impl FnOnce() -> R + Send + 'static,
) -> R {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(limit) {
        Ok(r) => r,
        Err(_) => panic!("{what}: did not return within {limit:?} (blocked?)"),
    }
}

/// Seconds for race tests: `ROOTBOUND_STRESS_SECS` when set, else `default`.
pub fn stress_secs(default: f64) -> Duration {
    let secs = std::env::var("ROOTBOUND_STRESS_SECS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| *s > 0.0)
        .unwrap_or(default);
    Duration::from_secs_f64(secs)
}

// ---------------------------------------------------------------------------------------------------
// Child processes
// ---------------------------------------------------------------------------------------------------

/// Spawns this test binary again, running only `test` with `ROOTBOUND_TEST_CHILD=role`.
pub fn run_child(test: &str, role: &str, uid: Option<u32>) -> Option<std::process::Output> {
    let exe = std::env::current_exe().unwrap();
    let mut cmd = Command::new(exe);
    cmd.args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env("ROOTBOUND_TEST_CHILD", role);
    if let Some(u) = uid {
        cmd.uid(u).gid(u);
    }
    match cmd.output() {
        Ok(o) => Some(o),
        Err(e) => {
            println!("note: could not start the child for {role}: {e}");
            None
        }
    }
}

pub fn assert_child_ok(out: &Option<std::process::Output>, what: &str) {
    let Some(out) = out else {
        super::child::skip(what, "the child process could not be started");
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{what}: child failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    if stdout.contains("SKIP:") {
        super::child::skip(what, &stdout);
        return;
    }
    assert!(
        stdout.contains("CHILD-OK"),
        "{what}: the child did not run its checks:\n{stdout}\n{stderr}"
    );
}

// ---------------------------------------------------------------------------------------------------
// seccomp: make openat2 fail with ENOSYS in a child process
// ---------------------------------------------------------------------------------------------------

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
pub fn deny_openat2() -> bool {
    use std::os::raw::{c_int, c_ulong};
    #[repr(C)]
    struct SockFilter {
        code: u16,
        jt: u8,
        jf: u8,
        k: u32,
    }
    #[repr(C)]
    struct SockFprog {
        len: u16,
        filter: *const SockFilter,
    }
    extern "C" {
        fn prctl(option: c_int, ...) -> c_int;
    }
    const PR_SET_NO_NEW_PRIVS: c_int = 38;
    const PR_SET_SECCOMP: c_int = 22;
    const SECCOMP_MODE_FILTER: c_ulong = 2;
    const LD_W_ABS: u16 = 0x20;
    const JEQ_K: u16 = 0x15;
    const RET_K: u16 = 0x06;
    #[cfg(target_arch = "x86_64")]
    const ARCH: u32 = 0xC000_003E;
    #[cfg(target_arch = "aarch64")]
    const ARCH: u32 = 0xC000_00B7;
    const NR_OPENAT2: u32 = 437;
    const ENOSYS: u32 = 38;
    let prog = [
        SockFilter {
            code: LD_W_ABS,
            jt: 0,
            jf: 0,
            k: 4,
        },
        SockFilter {
            code: JEQ_K,
            jt: 0,
            jf: 3,
            k: ARCH,
        },
        SockFilter {
            code: LD_W_ABS,
            jt: 0,
            jf: 0,
            k: 0,
        },
        SockFilter {
            code: JEQ_K,
            jt: 0,
            jf: 1,
            k: NR_OPENAT2,
        },
        SockFilter {
            code: RET_K,
            jt: 0,
            jf: 0,
            k: 0x0005_0000 | ENOSYS,
        },
        SockFilter {
            code: RET_K,
            jt: 0,
            jf: 0,
            k: 0x7fff_0000,
        },
    ];
    let fprog = SockFprog {
        len: prog.len() as u16,
        filter: prog.as_ptr(),
    };
    // SAFETY: plain prctl calls with a filter program that outlives them.
    unsafe {
        if prctl(
            PR_SET_NO_NEW_PRIVS,
            1 as c_ulong,
            0 as c_ulong,
            0 as c_ulong,
            0 as c_ulong,
        ) != 0
        {
            return false;
        }
        if prctl(
            PR_SET_SECCOMP,
            SECCOMP_MODE_FILTER,
            &fprog as *const SockFprog,
        ) != 0
        {
            return false;
        }
    }
    // Confirm: openat2 now says ENOSYS.
    matches!(
        rustix::fs::openat2(
            rustix::fs::CWD,
            ".",
            rustix::fs::OFlags::RDONLY,
            rustix::fs::Mode::empty(),
            rustix::fs::ResolveFlags::BENEATH,
        ),
        Err(rustix::io::Errno::NOSYS)
    )
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
pub fn deny_openat2() -> bool {
    false
}
