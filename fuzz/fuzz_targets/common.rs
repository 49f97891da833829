//! Shared by the fuzz targets: one scratch directory per process under /dev/shm (or the temp dir),
//! removed at exit; leftovers of processes that died (a crash skips exit hooks) are removed at start.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

static DIR: OnceLock<PathBuf> = OnceLock::new();

extern "C" {
    fn atexit(cb: extern "C" fn()) -> std::os::raw::c_int;
}

extern "C" fn cleanup() {
    if let Some(d) = DIR.get() {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// A fresh, canonical, empty directory for this process.
pub fn scratch(tag: &str) -> PathBuf {
    let base = if Path::new("/dev/shm").is_dir() {
        PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    let prefix = format!("rb-fuzz-{tag}-");
    if let Ok(rd) = std::fs::read_dir(&base) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let pid = name
                .strip_prefix(&prefix)
                .and_then(|p| p.parse::<u32>().ok());
            if pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    let dir = base.join(format!("{prefix}{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir(&dir).expect("scratch directory");
    let dir = std::fs::canonicalize(&dir).unwrap();
    if DIR.set(dir.clone()).is_ok() {
        // SAFETY: registers a plain extern "C" function with no arguments.
        unsafe { atexit(cleanup) };
    }
    dir
}
