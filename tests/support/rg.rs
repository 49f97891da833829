//! The one way the tests run ripgrep (`rg`) beside rootbound and compare the two: the integration
//! tests and the binary's printer tests (`src/cli/grep/print/tests.rs`) include this module.
//!
//! Both programs run in the same clean environment ([`rg`], [`rootbound_grep`]): no rg config file
//! (`RIPGREP_CONFIG_PATH` unset, and `--no-config` for rg), an empty `HOME` and no
//! `XDG_CONFIG_HOME` (so no `~/.gitconfig` excludes file or `$XDG_CONFIG_HOME/git/ignore` changes
//! what rg searches; rootbound never reads them), no `ROOTBOUND_LOG`, the C locale, stdin empty
//! unless bytes are given, and a 60 s limit (a hang is reported as exit code None and `<timeout>`
//! on stderr rather than blocking the suite).
//!
//! rg is multithreaded, so its order of files is unspecified unless told to sort;
//! [`sorted_by_path`] adds `--sort path`, the order `rootbound grep` and the library always use.
//! What differs from run to run (timings) is blanked by [`normalize`] and [`json_messages`].
//!
//! Without `rg` the differential tests say that they skip ([`have_rg`]), unless `CI` is set.
//! `ROOTBOUND_BIN=path` compares another build of rootbound ([`ours_bin`]).
#![allow(dead_code)]

use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

/// Whether ripgrep is here for the differential tests. Under CI it must be (`.ci/run` installs it);
/// elsewhere (a packaged crate's `cargo test`) they say that they skip.
pub fn have_rg() -> bool {
    let ok = rg_version().is_some();
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "ripgrep (rg) must be installed under CI: apt-get install ripgrep"
        );
        eprintln!(
            "SKIPPED: ripgrep (rg) is not installed; the differential test against it did not run"
        );
    }
    ok
}

/// `rg --version`'s first line, or None when rg cannot be run.
pub fn rg_version() -> Option<String> {
    let o = Command::new("rg").arg("--version").output().ok()?;
    let s = String::from_utf8_lossy(&o.stdout);
    Some(s.lines().next().unwrap_or("").to_string())
}

/// The program compared with rg: `ROOTBOUND_BIN` when set (to try another branch's build),
/// else the one cargo built for this test.
pub fn ours_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| match std::env::var_os("ROOTBOUND_BIN") {
        Some(p) => PathBuf::from(p),
        // Set for integration tests; the binary's own unit tests (the printer's) compare through
        // [`rg`] only and never ask for it.
        None => match option_env!("CARGO_BIN_EXE_rootbound") {
            Some(p) => PathBuf::from(p),
            None => panic!("set ROOTBOUND_BIN: this test was not built with the rootbound binary"),
        },
    })
}

/// Arguments as `OsString`s.
pub fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

/// `args` with `--sort path` in front, unless they choose an order themselves.
pub fn sorted_by_path(args: &[OsString]) -> Vec<OsString> {
    let sorts = args.iter().any(|a| {
        let a = a.to_string_lossy();
        a.starts_with("--sort") || a == "--no-sort-files"
    });
    let mut v: Vec<OsString> = Vec::new();
    if !sorts {
        v.extend(["--sort", "path"].map(OsString::from));
    }
    v.extend(args.iter().cloned());
    v
}

/// `rg --no-config ARGS` in `dir`.
pub fn rg(dir: &Path, args: &[OsString], stdin: Option<&[u8]>) -> Output {
    exec(
        Path::new("rg"),
        &[OsStr::new("--no-config")],
        args,
        dir,
        stdin,
    )
}

/// `rootbound grep ARGS` in `dir`.
pub fn rootbound_grep(dir: &Path, args: &[OsString], stdin: Option<&[u8]>) -> Output {
    exec(ours_bin(), &[OsStr::new("grep")], args, dir, stdin)
}

/// rg's matches in the form the library's `grep_search` prints with relative paths:
/// `path:line:text` lines (`-n -H`), files in path order. rg notes a binary file found after some
/// matches with a WARNING line; the library counts it in `stats.skipped.binary` instead, so that
/// line is left out.
pub fn rg_lines(root: &Path, flags: &[&str]) -> String {
    let mut args = os(&["--sort", "path", "-n", "-H"]);
    args.extend(os(flags));
    let out = rg(root, &args, None);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.contains(": WARNING: stopped searching binary file"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The files rg would search under `root` (`--files`), in path order.
pub fn rg_files(root: &Path, flags: &[&str]) -> String {
    let mut args = os(&["--files", "--sort", "path"]);
    args.extend(os(flags));
    String::from_utf8(rg(root, &args, None).stdout).unwrap()
}

/// An empty home directory for both programs.
fn empty_home() -> &'static Path {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let t = tempfile::Builder::new()
            .prefix("rg-support-home-")
            .tempdir()
            .expect("tempdir");
        t.keep()
    })
}

/// Runs one program in the clean environment described above.
fn exec(bin: &Path, pre: &[&OsStr], args: &[OsString], cwd: &Path, stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(bin);
    cmd.args(pre)
        .args(args)
        .current_dir(cwd)
        .env_remove("RIPGREP_CONFIG_PATH")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("ROOTBOUND_LOG")
        .env("HOME", empty_home())
        .env("LC_ALL", "C")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => panic!(
            "cannot run {}: {e} (the differential tests need ripgrep: apt-get install ripgrep)",
            bin.display()
        ),
    };
    let feeder = stdin.map(|input| {
        let mut pipe = child.stdin.take().expect("stdin");
        let input = input.to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        })
    });
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("stdout")));
    let err = drain(Box::new(child.stderr.take().expect("stderr")));
    let waited = super::child::wait_within(&mut child, Duration::from_secs(60));
    let timed_out = waited.is_none();
    // Killed and reaped past the bound: `wait` gives the status it was reaped with.
    let status: ExitStatus = waited.unwrap_or_else(|| child.wait().expect("wait"));
    if let Some(f) = feeder {
        let _ = f.join();
    }
    let mut stderr = err.join().unwrap_or_default();
    if timed_out {
        stderr.extend_from_slice(b"<timeout>");
    }
    Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr,
    }
}

/// Output with the timings blanked out: `--json`'s `"elapsed":{...}` and `"elapsed_total":{...}`
/// objects and `--stats`'s `N seconds` lines are the only parts of rg's output that change from
/// run to run.
pub fn normalize(out: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(out.len());
    let mut i = 0;
    while i < out.len() {
        let key = [&b"\"elapsed\":{"[..], b"\"elapsed_total\":{"]
            .into_iter()
            .find(|k| out[i..].starts_with(k));
        if let Some(key) = key {
            let end = out[i..]
                .iter()
                .position(|&b| b == b'}')
                .map_or(out.len(), |p| i + p + 1);
            v.extend_from_slice(key);
            v.push(b'}');
            i = end;
        } else {
            v.push(out[i]);
            i += 1;
        }
    }
    v.split_inclusive(|&b| b == b'\n')
        .flat_map(|line| {
            let text = String::from_utf8_lossy(line);
            let timing = text.trim_end().ends_with("seconds") || text.contains(" seconds spent ");
            let first = text.split(' ').next().unwrap_or("");
            if timing && first.parse::<f64>().is_ok() {
                text.replacen(first, "T", 1).into_bytes()
            } else {
                line.to_vec()
            }
        })
        .collect()
}

/// `--json` output as parsed messages, each without its `elapsed` and `elapsed_total` timings.
pub fn json_messages(bytes: &[u8]) -> Vec<serde_json::Value> {
    fn strip(v: &mut serde_json::Value) {
        if let Some(o) = v.as_object_mut() {
            o.remove("elapsed");
            o.remove("elapsed_total");
            o.values_mut().for_each(strip);
        }
    }
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            strip(&mut v);
            v
        })
        .collect()
}

/// Equality with a readable report: the first line that differs.
pub fn assert_same(ours: &str, theirs: &str, what: &str) {
    if ours == theirs {
        return;
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (ours.lines().collect(), theirs.lines().collect());
    let i = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let cut = |v: &[&str]| v.get(i).map(|l| l.chars().take(200).collect::<String>());
    panic!(
        "{what}: {} vs {} lines; first difference at line {i}:\n ours: {:?}\n   rg: {:?}",
        a.len(),
        b.len(),
        cut(&a),
        cut(&b)
    );
}

/// Ignore files or a `.git` above the temporary directory would change what rg searches (rootbound
/// reads none there): the names found, to be reported.
pub fn foreign_ignore_files() -> Vec<PathBuf> {
    let tmp = std::env::temp_dir();
    let names = [".git", ".gitignore", ".ignore", ".rgignore"];
    tmp.ancestors()
        .flat_map(|d| names.iter().map(move |n| d.join(n)))
        .filter(|p| p.exists())
        .collect()
}
