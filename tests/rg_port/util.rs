//! The API of ripgrep 13's `tests/util.rs` (`Dir`, `TestCommand`), re-made so that rg's test bodies
//! run here nearly verbatim: `Dir` builds the tree in a temporary directory, `TestCommand` collects
//! the arguments, and every call that would run rg (`stdout`, `pipe`, `output`, `assert_err`, ...)
//! runs both `rg` and `rootbound grep` through [`super::runner`] and records the comparison.
//! What rg's test then asserts about the output is left out: rg itself is the oracle.

use super::runner::{self, Mode, Run};
use std::cell::RefCell;
use std::ffi::{OsStr, OsString};
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::rc::Rc;

/// A test's directory, and the record of the runs made in it.
#[derive(Clone)]
pub struct Dir {
    /// Where the test's files are made and where commands run (unless `current_dir` says else).
    dir: PathBuf,
    /// Keeps the temporary directory alive as long as a clone of this `Dir` is.
    _tmp: Rc<tempfile::TempDir>,
    /// Every run of both programs made by the test, in order.
    runs: Rc<RefCell<Vec<Run>>>,
}

impl Dir {
    /// An empty directory under the system's temporary directory (never inside this repository:
    /// rg would read the worktree's `.gitignore` above it).
    pub fn new(name: &str) -> Dir {
        let tmp = tempfile::Builder::new()
            .prefix(&format!("rg-port-{name}-"))
            .tempdir()
            .expect("tempdir");
        Dir {
            dir: tmp.path().to_path_buf(),
            _tmp: Rc::new(tmp),
            runs: Rc::new(RefCell::new(Vec::new())),
        }
    }

    /// The runs recorded so far.
    pub fn take_runs(&self) -> Vec<Run> {
        std::mem::take(&mut self.runs.borrow_mut())
    }

    /// rg's tests ask this to skip what only the default engine does; PCRE2 is never used here.
    pub fn is_pcre2(&self) -> bool {
        false
    }

    /// Creates `name` holding `contents`.
    pub fn create<P: AsRef<Path>>(&self, name: P, contents: &str) {
        self.create_bytes(name, contents.as_bytes());
    }

    /// Creates `name` holding `contents`, reporting failure (e.g. a name the file system refuses).
    pub fn try_create<P: AsRef<Path>>(&self, name: P, contents: &str) -> io::Result<()> {
        self.try_create_bytes(name, contents.as_bytes())
    }

    /// Creates `name` as a sparse file of `filesize` zero bytes.
    pub fn create_size<P: AsRef<Path>>(&self, name: P, filesize: u64) {
        let path = self.dir.join(name);
        File::create(&path)
            .and_then(|f| f.set_len(filesize))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    /// Creates `name` holding `contents`.
    pub fn create_bytes<P: AsRef<Path>>(&self, name: P, contents: &[u8]) {
        let path = self.dir.join(name.as_ref());
        self.try_create_bytes(name, contents)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    /// Creates `name` holding `contents`, reporting failure.
    pub fn try_create_bytes<P: AsRef<Path>>(&self, name: P, contents: &[u8]) -> io::Result<()> {
        let mut file = File::create(self.dir.join(name))?;
        file.write_all(contents)?;
        file.flush()
    }

    /// Removes the file `name`.
    pub fn remove<P: AsRef<Path>>(&self, name: P) {
        fs::remove_file(self.dir.join(name)).expect("remove");
    }

    /// Creates the directory `path` and its parents.
    pub fn create_dir<P: AsRef<Path>>(&self, path: P) {
        fs::create_dir_all(self.dir.join(path)).expect("create_dir");
    }

    /// A command running in this directory with no arguments yet.
    pub fn command(&self) -> TestCommand {
        TestCommand {
            dir: self.clone(),
            args: Vec::new(),
            cwd: self.dir.clone(),
        }
    }

    /// The directory's absolute path.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Makes `target` a symlink to `src`, both inside this directory. As in rg's tests, the link
    /// holds the absolute path of `src`.
    pub fn link_dir<S: AsRef<Path>, T: AsRef<Path>>(&self, src: S, target: T) {
        let (src, target) = (self.dir.join(src), self.dir.join(target));
        let _ = fs::remove_file(&target);
        std::os::unix::fs::symlink(&src, &target).expect("symlink");
    }

    /// Same as [`Dir::link_dir`] (on Unix a symlink does not care what it points to).
    pub fn link_file<S: AsRef<Path>, T: AsRef<Path>>(&self, src: S, target: T) {
        self.link_dir(src, target);
    }
}

/// The arguments of one command line, given to both programs when the test "runs rg".
pub struct TestCommand {
    dir: Dir,
    args: Vec<OsString>,
    cwd: PathBuf,
}

/// What rg's tests reach through `cmd.cmd()`: only `output()` is used by the ported cases.
pub struct RawCommand<'a>(&'a mut TestCommand);

impl RawCommand<'_> {
    /// Runs both programs without rg's success check; rg's output is returned. rg's tests use it
    /// to look at stderr, so both must have written to stderr or neither.
    pub fn output(&mut self) -> io::Result<Output> {
        Ok(self.0.run(Mode::Stderr, None))
    }
}

impl TestCommand {
    /// The underlying command, as rg's tests call it.
    pub fn cmd(&mut self) -> RawCommand<'_> {
        RawCommand(self)
    }

    /// Adds one argument.
    pub fn arg<A: AsRef<OsStr>>(&mut self, arg: A) -> &mut TestCommand {
        self.args.push(arg.as_ref().to_os_string());
        self
    }

    /// Adds arguments.
    pub fn args<I, A>(&mut self, args: I) -> &mut TestCommand
    where
        I: IntoIterator<Item = A>,
        A: AsRef<OsStr>,
    {
        for a in args {
            self.arg(a);
        }
        self
    }

    /// Runs in `dir` instead of the test's directory.
    pub fn current_dir<P: AsRef<Path>>(&mut self, dir: P) -> &mut TestCommand {
        self.cwd = dir.as_ref().to_path_buf();
        self
    }

    /// Runs both; rg's stdout is returned so the rest of the test can go on with it.
    pub fn stdout(&mut self) -> String {
        let o = self.run(Mode::Output, None);
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// Runs both with `input` on stdin.
    pub fn pipe(&mut self, input: &[u8]) -> String {
        let o = self.run(Mode::Output, Some(input));
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// Runs both; rg's output.
    pub fn output(&mut self) -> Output {
        self.run(Mode::Output, None)
    }

    /// Runs both (rg's test expects a failure: the exit codes are compared like any other run).
    pub fn assert_err(&mut self) {
        self.run(Mode::Output, None);
    }

    /// Runs both (the exit codes are compared like any other run).
    pub fn assert_exit_code(&mut self, _expected_code: i32) {
        self.run(Mode::Output, None);
    }

    /// Runs both; besides stdout and the exit code, both must have written to stderr or neither.
    pub fn assert_non_empty_stderr(&mut self) {
        self.run(Mode::Stderr, None);
    }

    fn run(&mut self, mode: Mode, stdin: Option<&[u8]>) -> Output {
        let run = runner::run_both(&self.cwd, &self.args, mode, stdin);
        let rg = run.rg.clone();
        self.dir.runs.borrow_mut().push(run);
        rg
    }
}

/// rg's helper: the lines sorted (the ported cases compare whole outputs instead; kept so bodies
/// that use it still read as upstream).
#[allow(dead_code)]
pub fn sort_lines(lines: &str) -> String {
    let mut lines: Vec<&str> = lines.trim().lines().collect();
    lines.sort();
    format!("{}\n", lines.join("\n"))
}
