//! Runs one command line with `rg` and with `rootbound grep` in the same directory and compares
//! what matters: stdout byte for byte and the exit code (and, where rg's test asks for it, whether
//! stderr is empty).
//!
//! rg runs with `--sort path` put in front of the arguments (unless the case sorts itself): rg is
//! multithreaded, so its order of files is otherwise unspecified, while `rootbound grep` always
//! prints files in rg's `--sort path` order. rootbound gets exactly the case's arguments. Both run
//! through tests/support/rg.rs, in its clean environment, with its timings blanked.

use crate::support;
use crate::support::rg::normalize;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Output;

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

/// Runs the case's command line with both programs in `cwd`.
pub fn run_both(cwd: &Path, args: &[OsString], mode: Mode, stdin: Option<&[u8]>) -> Run {
    let rg = support::rg::rg(cwd, &support::rg::sorted_by_path(args), stdin);
    let ours = support::rg::rootbound_grep(cwd, args, stdin);
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
