//! Runs one command line with `rg` and with `rootbound grep` in the same directory and compares
//! what matters: stdout byte for byte and the exit code (and, where rg's test asks for it, whether
//! stderr is empty).
//!
//! rg runs with `--sort path` put in front of the arguments (unless the case sorts itself): rg is
//! multithreaded, so its order of files is otherwise unspecified, while `rootbound grep` always
//! prints files in rg's `--sort path` order. rootbound gets exactly the case's arguments.

use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// What a run compares beyond stdout and the exit code.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    /// stdout and the exit code.
    Output,
    /// Also: both wrote to stderr, or neither did (rg's `assert_non_empty_stderr`).
    Stderr,
}

/// One command line run by both programs.
pub struct Run {
    /// The case's arguments (as given to rootbound; rg also got `--sort path` first).
    pub args: Vec<OsString>,
    /// The directory it ran in, relative to the case's directory when inside it.
    pub cwd: PathBuf,
    /// Bytes given on stdin, if any.
    pub stdin: Option<Vec<u8>>,
    /// What rg did.
    pub rg: Output,
    /// What rootbound did.
    pub ours: Output,
    /// Whether they agree on what the mode compares.
    pub same: bool,
}

impl Run {
    /// The command line as a person would type it (`rg` stands for either program).
    pub fn command_line(&self) -> String {
        let mut s = String::from("rg");
        for a in &self.args {
            let a = a.to_string_lossy();
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=,:+@%^".contains(c));
            if plain {
                s.push(' ');
                s.push_str(&a);
            } else if a.chars().any(char::is_control) {
                // bash's $'...' quoting keeps the line one line.
                let esc: String = a
                    .chars()
                    .map(|c| match c {
                        '\n' => "\\n".to_string(),
                        '\r' => "\\r".to_string(),
                        '\'' | '\\' => format!("\\{c}"),
                        c if c.is_control() => format!("\\x{:02x}", c as u32),
                        c => c.to_string(),
                    })
                    .collect();
                s.push_str(&format!(" $'{esc}'"));
            } else {
                s.push_str(&format!(" '{}'", a.replace('\'', "'\\''")));
            }
        }
        if !self.cwd.as_os_str().is_empty() {
            s = format!("(cd {}) {s}", self.cwd.display());
        }
        if self.stdin.is_some() {
            s.push_str(" < stdin");
        }
        s
    }
}

/// The program compared with rg: `ROOTBOUND_BIN` when set (to try another branch's build),
/// else the one cargo built for this test.
pub fn ours_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| match std::env::var_os("ROOTBOUND_BIN") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_BIN_EXE_rootbound")),
    })
}

/// `rg --version`'s first line, or None when rg cannot be run.
pub fn rg_version() -> Option<String> {
    let o = Command::new("rg").arg("--version").output().ok()?;
    let s = String::from_utf8_lossy(&o.stdout);
    Some(s.lines().next().unwrap_or("").to_string())
}

/// An empty home directory for both programs: no `~/.gitconfig` excludes file or
/// `$XDG_CONFIG_HOME/git/ignore` can change what rg searches (rootbound never reads them).
fn empty_home() -> &'static Path {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let t = tempfile::Builder::new()
            .prefix("rg-port-home-")
            .tempdir()
            .expect("tempdir");
        t.keep()
    })
}

/// Runs the case's command line with both programs in `cwd`.
pub fn run_both(cwd: &Path, args: &[OsString], mode: Mode, stdin: Option<&[u8]>) -> Run {
    let sorts = args.iter().any(|a| {
        let a = a.to_string_lossy();
        a.starts_with("--sort") || a == "--no-sort-files"
    });
    let mut rg_args: Vec<OsString> = Vec::new();
    if !sorts {
        rg_args.extend(["--sort", "path"].map(OsString::from));
    }
    rg_args.extend(args.iter().cloned());
    let rg = exec(Path::new("rg"), &[], &rg_args, cwd, stdin);
    let ours = exec(ours_bin(), &[OsStr::new("grep")], args, cwd, stdin);
    let code = |o: &Output| o.status.code();
    let mut same = normalize(&rg.stdout) == normalize(&ours.stdout) && code(&rg) == code(&ours);
    if mode == Mode::Stderr {
        same &= rg.stderr.is_empty() == ours.stderr.is_empty();
    }
    let case_dir = cwd
        .ancestors()
        .find(|a| {
            a.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("rg-port-"))
        })
        .unwrap_or(cwd);
    Run {
        args: args.to_vec(),
        cwd: cwd.strip_prefix(case_dir).unwrap_or(cwd).to_path_buf(),
        stdin: stdin.map(<[u8]>::to_vec),
        rg,
        ours,
        same,
    }
}

/// Runs one program with a 60 s limit (a hang is reported as exit code None and `<timeout>` on
/// stderr rather than blocking the suite).
fn exec(bin: &Path, pre: &[&OsStr], args: &[OsString], cwd: &Path, stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(bin);
    cmd.args(pre)
        .args(args)
        .current_dir(cwd)
        .env_remove("RIPGREP_CONFIG_PATH")
        .env_remove("XDG_CONFIG_HOME")
        .env("HOME", empty_home())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => panic!("cannot run {}: {e}", bin.display()),
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
    let start = Instant::now();
    let (status, timed_out): (ExitStatus, bool) = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break (s, false);
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            break (child.wait().expect("wait"), true);
        }
        std::thread::sleep(Duration::from_millis(2));
    };
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
