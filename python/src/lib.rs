//! `rootbound._rootbound`: the native half of the `rootbound` Python package.
//!
//! It is deliberately small. A [`Core`] holds one agent's tools ([`rootbound::config::host::HostTools`],
//! built from the constructor's options given as JSON or from a config file; the library turns
//! the options into a policy, for both bindings) and answers `call(name, args)` with
//! `(ok, result)`: the JSON contract of `rootbound call`, so every argument the library accepts
//! is accepted here without a second list of fields. `args` is a dict (converted to a JSON value
//! here, no JSON text in between) or a JSON string; `result` is the result's JSON value built as
//! Python objects (dict, list, str, int, float, bool, None), exactly what `json.loads` of the
//! result text gives. The Python package (`python/rootbound/`) builds the keyword-argument methods,
//! result objects and exception classes on top of it.
//!
//! Concurrency: every call releases the GIL for its whole duration (`Python::detach`). A call made
//! with `watch=True` (the Python layer passes it from the main thread, where signal handlers run)
//! of a tool that can run long (not [`quick`]) must still turn Ctrl-C into
//! KeyboardInterrupt. On Unix, while SIGINT has Python's default handler, the call runs inline
//! with the module's signal pipe as Python's wakeup fd (`signal.set_wakeup_fd`; see [`wake`]): a
//! watcher thread cancels the call's budget when a SIGINT byte arrives, and after the call the
//! host's wakeup fd is restored, the bytes that came meanwhile are passed on to it, and
//! `Python::check_signals` raises. Otherwise (a custom SIGINT handler, no Unix), the call is
//! executed by a helper thread (one per watching thread, kept for its lifetime) while the calling
//! thread waits in slices of 20 ms and runs `Python::check_signals` between them: a
//! KeyboardInterrupt (or any exception a signal handler raises) cancels the call's budget, waits
//! for the call to return, and propagates.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use rootbound::config::host::{self, HostOptions, HostTools, OpenError};
use rootbound::config::AgentTools;
use rootbound::{Error, ErrorCode, Profile};
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::Duration;

create_exception!(
    _rootbound,
    NativeError,
    PyException,
    "A failure of construction: args are (code, message, details_json)."
);

create_exception!(
    _rootbound,
    UsageError,
    PyException,
    "A misuse of the sandbox's options (an unknown limit, a write flag without a write root)."
);

/// Whether a tool is bounded by one file or one directory page: it runs inline even when watched
/// (a helper-thread hand-off would cost more than it does, and it ends within its timeout anyway).
/// A dialect's name is not a native tool's: it counts as one that can run long.
fn quick(name: &str) -> bool {
    rootbound::ToolName::parse(name).is_some_and(|t| t.works_on_one_object())
}

/// How often a watched call looks for pending signals (KeyboardInterrupt).
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// A deadline plus a cancel switch, shared by its clones: pass it to calls, pull it from any thread.
#[pyclass(frozen, module = "rootbound._rootbound")]
struct Budget(rootbound::Budget);

#[pymethods]
impl Budget {
    /// A budget with an optional timeout in seconds (the policy's timeout still applies).
    #[new]
    #[pyo3(signature = (timeout=None))]
    fn new(timeout: Option<f64>) -> PyResult<Self> {
        let b = rootbound::Budget::new();
        match timeout {
            None => Ok(Budget(b)),
            Some(t) if t.is_finite() && t >= 0.0 => {
                Ok(Budget(b.with_timeout(Duration::from_secs_f64(t))))
            }
            Some(_) => Err(pyo3::exceptions::PyValueError::new_err(
                "timeout must be a finite number of seconds >= 0",
            )),
        }
    }

    /// Cancels every call running or yet to run with this budget. Idempotent; any thread.
    fn cancel(&self) {
        self.0.cancel();
    }

    /// Whether the budget was cancelled.
    #[getter]
    fn cancelled(&self) -> bool {
        self.0.is_cancelled()
    }

    /// (files, bytes) searched so far by the calls made with this budget.
    fn progress(&self) -> (u64, u64) {
        let p = self.0.progress();
        (p.files, p.bytes)
    }
}

/// One agent's tools ([`HostTools`]: built, cached per dialect and called by the library).
#[pyclass(frozen, module = "rootbound._rootbound")]
struct Core(HostTools);

fn native_err(e: &Error) -> PyErr {
    let details = e
        .details
        .as_ref()
        .map(|d| Value::Object(d.clone()).to_string())
        .unwrap_or_else(|| "{}".into());
    NativeError::new_err((e.code.as_str(), e.message.clone(), details))
}

fn invalid(msg: impl Into<String>) -> PyErr {
    native_err(&Error::new(ErrorCode::InvalidArgument, msg))
}

/// Nesting beyond which an argument value is left to `json.dumps` (which reports a cycle).
const MAX_DEPTH: usize = 64;

/// A Python argument value as JSON, for the values `json.dumps` writes as themselves (dict with
/// str keys, list, tuple, str, int, float, bool, None); `None` for anything else, which the caller
/// hands to `json.dumps` so its text (or its error) is what it always was.
fn py_to_json(obj: &Bound<'_, PyAny>, depth: usize) -> Option<Value> {
    if depth > MAX_DEPTH {
        return None;
    }
    if obj.is_none() {
        return Some(Value::Null);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Some(Value::String(s.to_cow().ok()?.into_owned()));
    }
    // bool before int: bool is a subclass of int.
    if let Ok(b) = obj.cast::<PyBool>() {
        return Some(Value::Bool(b.is_true()));
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        if let Ok(v) = i.extract::<i64>() {
            return Some(Value::from(v));
        }
        return i.extract::<u64>().ok().map(Value::from);
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        // NaN and the infinities go to json.dumps, whose text the parser refuses as before.
        return serde_json::Number::from_f64(f.value()).map(Value::Number);
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut m = serde_json::Map::new();
        for (k, v) in d.iter() {
            let k = k.cast::<PyString>().ok()?.to_cow().ok()?.into_owned();
            m.insert(k, py_to_json(&v, depth + 1)?);
        }
        return Some(Value::Object(m));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        return l
            .iter()
            .map(|v| py_to_json(&v, depth + 1))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array);
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        return t
            .iter()
            .map(|v| py_to_json(&v, depth + 1))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array);
    }
    None
}

/// A JSON value as the Python objects `json.loads` makes of its text.
fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let items = a
                .iter()
                .map(|x| json_to_py(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        Value::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(PyString::new(py, k), json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

static JSON_DUMPS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// A call's arguments: a JSON string parsed, or a Python value converted (through `json.dumps`
/// for values the converter does not take). `Ok(Err(message))`: not JSON, reported as the call's
/// `INVALID_ARGUMENT` as always; `Err(e)`: `json.dumps` raised.
fn call_args(args: &Bound<'_, PyAny>) -> PyResult<Result<Value, String>> {
    let py = args.py();
    let parse = |text: &str| -> Result<Value, String> {
        serde_json::from_str(text).map_err(|e| format!("bad arguments: not JSON: {e}"))
    };
    if let Ok(s) = args.cast::<PyString>() {
        return Ok(parse(&s.to_cow()?));
    }
    if let Some(v) = py_to_json(args, 0) {
        return Ok(Ok(v));
    }
    let dumps = JSON_DUMPS.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
        Ok(py.import("json")?.getattr("dumps")?.unbind())
    })?;
    let kw = PyDict::new(py);
    kw.set_item("ensure_ascii", false)?;
    kw.set_item("separators", (",", ":"))?;
    let text = dumps
        .bind(py)
        .call((args,), Some(&kw))?
        .cast_into::<PyString>()?;
    Ok(parse(&text.to_cow()?))
}

/// Runs one call through the library: `(ok, result or error object)`.
fn run_guarded(
    tools: &AgentTools,
    name: &str,
    args: Value,
    budget: &rootbound::Budget,
) -> (bool, Value) {
    match host::call(tools, name, args, budget) {
        Ok(v) => (true, v),
        Err(v) => (false, v),
    }
}

/// A call's outcome as `(ok, result)` with the result as Python objects.
fn to_py(py: Python<'_>, (ok, v): (bool, Value)) -> PyResult<(bool, Py<PyAny>)> {
    Ok((ok, json_to_py(py, &v)?.unbind()))
}

type Job = Box<dyn FnOnce() + Send>;

thread_local! {
    /// The helper thread of this (Python main) thread for watched calls; it exits when the
    /// sender is dropped with the thread.
    static HELPER: crossbeam_channel::Sender<Job> = {
        let (tx, rx) = crossbeam_channel::unbounded::<Job>();
        std::thread::Builder::new()
            .name("rootbound-call".into())
            .spawn(move || {
                for job in rx {
                    job();
                }
            })
            .expect("spawn the rootbound call thread");
        tx
    };
}

impl Core {
    /// The tools presented in `profile` (None: the agent's own).
    fn tools_for(&self, profile: Option<&str>) -> PyResult<Arc<AgentTools>> {
        self.0.dialect(profile).map_err(|e| native_err(&e))
    }
}

#[pymethods]
impl Core {
    /// A core over one sandbox built from its options (the library's `HostOptions` as JSON:
    /// `roots`, `deny`, modes, `limits`, `write_root` and its flags). A misuse of the options
    /// raises `UsageError` (the Python layer raises it as a TypeError).
    #[staticmethod]
    #[pyo3(signature = (options_json, agent=None))]
    fn from_options(py: Python<'_>, options_json: &str, agent: Option<String>) -> PyResult<Self> {
        let options: HostOptions = serde_json::from_str(options_json)
            .map_err(|e| invalid(format!("bad sandbox settings: {e}")))?;
        match py.detach(|| HostTools::open(options, agent)) {
            Ok(h) => Ok(Core(h)),
            Err(OpenError::Usage(msg)) => Err(UsageError::new_err(msg)),
            Err(OpenError::Refused(e)) => Err(native_err(&e)),
        }
    }

    /// A core over the tools of `agent` (None: the only agent) of a config file.
    #[staticmethod]
    #[pyo3(signature = (path, agent=None))]
    fn from_config(
        py: Python<'_>,
        path: std::path::PathBuf,
        agent: Option<String>,
    ) -> PyResult<Self> {
        py.detach(|| HostTools::from_config(&path, agent.as_deref()))
            .map(Core)
            .map_err(|e| native_err(&e))
    }

    /// Calls tool `name` with `args` (a dict, or a JSON object as a string): `(True, result)` or
    /// `(False, error)`, each the JSON value as Python objects. With `profile`, `name` is a tool of
    /// that dialect; `engine=True` calls the engine's own tool whatever the agent's dialect.
    #[pyo3(signature = (name, args, budget=None, profile=None, watch=false, engine=false))]
    #[allow(clippy::too_many_arguments)] // the Python signature, one keyword each
    fn call(
        &self,
        py: Python<'_>,
        name: &str,
        args: &Bound<'_, PyAny>,
        budget: Option<&Budget>,
        profile: Option<&str>,
        watch: bool,
        engine: bool,
    ) -> PyResult<(bool, Py<PyAny>)> {
        let tools = if engine {
            self.tools_for(Some("rootbound"))?
        } else {
            self.tools_for(profile)?
        };
        let args: Value = match call_args(args)? {
            Ok(v) => v,
            Err(message) => {
                let e = Error::new(ErrorCode::InvalidArgument, message);
                return to_py(py, (false, e.to_json()));
            }
        };
        let budget = budget.map(|b| b.0.clone()).unwrap_or_default();
        if !watch || quick(name) {
            let out = py.detach(|| run_guarded(&tools, name, args, &budget));
            return to_py(py, out);
        }
        if let Some(watched) = wake::Inline::enter(py, &budget) {
            // A signal that came before the pipe was in place is pending: raise it now.
            if let Err(e) = py.check_signals() {
                drop(watched);
                budget.cancel();
                return Err(e);
            }
            let out = py.detach(|| run_guarded(&tools, name, args, &budget));
            drop(watched);
            if let Err(e) = py.check_signals() {
                budget.cancel();
                return Err(e);
            }
            return to_py(py, out);
        }
        let (tx, rx) = crossbeam_channel::bounded(1);
        {
            let budget = budget.clone();
            let name = name.to_string();
            let job: Job = Box::new(move || {
                let _ = tx.send(run_guarded(&tools, &name, args, &budget));
            });
            HELPER
                .with(|h| h.send(job))
                .map_err(|_| invalid("the call thread is gone"))?;
        }
        loop {
            match py.detach(|| rx.recv_timeout(SIGNAL_POLL)) {
                Ok(r) => return to_py(py, r),
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        budget.cancel();
                        // The call stops at its next check; wait for it so nothing runs on.
                        let _ = py.detach(|| rx.recv_timeout(Duration::from_secs(10)));
                        return Err(e);
                    }
                }
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => {
                    return Err(invalid("the call thread stopped"));
                }
            }
        }
    }

    /// The tool definitions (JSON list) in `format` (openai, anthropic, gemini, mcp) for `profile`.
    #[pyo3(signature = (format="openai", profile=None))]
    fn tools(&self, format: &str, profile: Option<&str>) -> PyResult<String> {
        self.0
            .definitions(format, profile)
            .map(|v| v.to_string())
            .map_err(|e| native_err(&e))
    }

    /// The agent's name ("" for a plain sandbox).
    #[getter]
    fn agent(&self) -> String {
        self.0.base().agent().to_string()
    }

    /// The agent's own dialect.
    #[getter]
    fn profile(&self) -> &'static str {
        self.0.base().profile().as_str()
    }

    /// The engine tools this agent enables.
    fn tool_names(&self) -> Vec<String> {
        self.0
            .base()
            .tools()
            .iter()
            .map(|t| t.name.to_string())
            .collect()
    }
}

/// For the benchmarks (python/bench/bench.py): `n` calls of `name` made in a Rust loop exactly as
/// a Rust host makes them (`AgentTools::call` with a JSON value, the result dropped), GIL released;
/// returns the seconds each call took, in order. Not part of the API.
#[pyfunction]
fn _bench_rust_calls(
    py: Python<'_>,
    core: &Core,
    name: &str,
    args_json: &str,
    n: usize,
) -> PyResult<Vec<f64>> {
    let args: Value =
        serde_json::from_str(args_json).map_err(|e| invalid(format!("not JSON: {e}")))?;
    let tools = core.tools_for(Some("rootbound"))?;
    Ok(py.detach(|| {
        (0..n)
            .map(|_| {
                let t = std::time::Instant::now();
                let v = tools.call(name, args.clone());
                std::hint::black_box(&v);
                drop(v);
                t.elapsed().as_secs_f64()
            })
            .collect()
    }))
}

/// The limit settings a policy accepts (keys of `limits`), in table order.
#[pyfunction]
fn limit_names() -> Vec<&'static str> {
    host::limit_names()
}

/// The default limits, as JSON.
#[pyfunction]
fn default_limits() -> String {
    host::default_limits().to_string()
}

/// How many background threads of any index of the process are alive (tests: a dropped
/// Sandbox's index work must end). Not part of the API.
#[pyfunction]
fn _index_threads_live() -> usize {
    rootbound::index_threads_live()
}

/// Makes the index build of the root at canonical path `root` take 10 ms a file, or stops
/// (`None`) (tests: a build that takes long on a small tree). Process-wide. Not part of the API.
#[pyfunction]
#[pyo3(signature = (root=None))]
fn _index_slow_at(root: Option<String>) {
    rootbound::index_slow_at(root.as_deref().map(std::path::Path::new));
}

/// Every error code, in documentation order.
#[pyfunction]
fn error_codes() -> Vec<&'static str> {
    ErrorCode::ALL.iter().map(|c| c.as_str()).collect()
}

/// Every dialect name.
#[pyfunction]
fn profile_names() -> Vec<&'static str> {
    Profile::names()
}

#[pymodule]
fn _rootbound(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Budget>()?;
    m.add_class::<Core>()?;
    m.add("NativeError", m.py().get_type::<NativeError>())?;
    m.add("UsageError", m.py().get_type::<UsageError>())?;
    m.add_function(wrap_pyfunction!(limit_names, m)?)?;
    m.add_function(wrap_pyfunction!(default_limits, m)?)?;
    m.add_function(wrap_pyfunction!(error_codes, m)?)?;
    m.add_function(wrap_pyfunction!(profile_names, m)?)?;
    m.add_function(wrap_pyfunction!(_bench_rust_calls, m)?)?;
    m.add_function(wrap_pyfunction!(_index_threads_live, m)?)?;
    m.add_function(wrap_pyfunction!(_index_slow_at, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

/// Ctrl-C for calls that run inline on the main thread (Unix): Python's C-level signal handler
/// writes the signal's number to the wakeup fd (`signal.set_wakeup_fd`); during a watched call
/// that fd is the write end of this module's pipe, whose read end one long-lived thread watches.
/// A SIGINT byte cancels the running call's budget (the call returns at its next check and the
/// binding raises the KeyboardInterrupt); every byte is passed on to the wakeup fd the host had
/// set, once it is back in place after the call. Used only while SIGINT has Python's default
/// handler (whose KeyboardInterrupt is certain); other signals' handlers run when the call returns.
#[cfg(unix)]
mod wake {
    use super::*;
    use std::os::fd::RawFd;

    /// The running inline call: its budget and the signal bytes that came during it.
    struct Slot {
        budget: rootbound::Budget,
        bytes: Vec<u8>,
    }

    /// At most this many signal bytes are kept for the host's fd per call (a pipe drops the rest
    /// too).
    const MAX_BYTES: usize = 4096;

    struct Watcher {
        /// The process that made it: after a fork the thread is gone and a new watcher is made.
        pid: u32,
        rfd: RawFd,
        wfd: RawFd,
        /// Only a holder of this lock reads the pipe, so every byte lands in the slot it came in.
        slot: Mutex<Option<Slot>>,
    }

    static WATCHER: Mutex<Option<Arc<Watcher>>> = Mutex::new(None);

    /// `set_wakeup_fd`, `getsignal`, `default_int_handler` of `_signal` (the C module; the
    /// `signal` module's `getsignal` wraps it in an enum lookup that costs ~8 µs a call here), and
    /// the keyword arguments `{"warn_on_full_buffer": False}`.
    static SIGNAL: PyOnceLock<[Py<PyAny>; 4]> = PyOnceLock::new();

    fn signal_fns(py: Python<'_>) -> PyResult<&[Py<PyAny>; 4]> {
        SIGNAL.get_or_try_init(py, || {
            let m = py.import("_signal")?;
            let kw = PyDict::new(py);
            kw.set_item("warn_on_full_buffer", false)?;
            Ok([
                m.getattr("set_wakeup_fd")?.unbind(),
                m.getattr("getsignal")?.unbind(),
                m.getattr("default_int_handler")?.unbind(),
                kw.into_any().unbind(),
            ])
        })
    }

    /// Reads what the pipe holds (it is non-blocking), into `into` up to [`MAX_BYTES`]; whether a
    /// SIGINT byte was among it.
    fn drain(rfd: RawFd, mut into: Option<&mut Vec<u8>>) -> bool {
        let mut sigint = false;
        let mut buf = [0u8; 256];
        loop {
            // SAFETY: reads into a live buffer of its length from a descriptor this module owns.
            let n = unsafe { libc::read(rfd, buf.as_mut_ptr().cast(), buf.len()) };
            if n <= 0 {
                if n < 0
                    && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
                {
                    continue;
                }
                return sigint;
            }
            let got = &buf[..n as usize];
            sigint |= got.contains(&(libc::SIGINT as u8));
            if let Some(v) = into.as_deref_mut() {
                let room = MAX_BYTES.saturating_sub(v.len());
                v.extend_from_slice(&got[..got.len().min(room)]);
            }
        }
    }

    fn watch(w: &Watcher) {
        loop {
            let mut p = libc::pollfd {
                fd: w.rfd,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            let r = unsafe { libc::poll(&mut p, 1, -1) };
            if r < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return;
            }
            if p.revents & libc::POLLIN == 0 {
                return; // POLLERR, POLLHUP, POLLNVAL: the pipe is unusable
            }
            let mut slot = w.slot.lock().unwrap_or_else(|e| e.into_inner());
            match slot.as_mut() {
                Some(s) => {
                    if drain(w.rfd, Some(&mut s.bytes)) {
                        s.budget.cancel();
                    }
                }
                // A byte between calls (a signal at the instant a call ended): its handler runs
                // at the call's check; nothing to cancel.
                None => {
                    drain(w.rfd, None);
                }
            }
        }
    }

    fn set_flags(fd: RawFd) -> bool {
        // SAFETY: fcntl on a descriptor this module just made.
        unsafe {
            let fl = libc::fcntl(fd, libc::F_GETFL);
            let fd_fl = libc::fcntl(fd, libc::F_GETFD);
            fl >= 0
                && fd_fl >= 0
                && libc::fcntl(fd, libc::F_SETFL, fl | libc::O_NONBLOCK) == 0
                && libc::fcntl(fd, libc::F_SETFD, fd_fl | libc::FD_CLOEXEC) == 0
        }
    }

    /// The process's watcher, made (pipe and thread) on first use and again after a fork.
    fn watcher() -> Option<Arc<Watcher>> {
        let mut g = WATCHER.lock().unwrap_or_else(|e| e.into_inner());
        let pid = std::process::id();
        if let Some(w) = g.as_ref() {
            if w.pid == pid {
                return Some(Arc::clone(w));
            }
            // A forked child: the thread did not come along; its pipe is this process's to close.
            // SAFETY: the descriptors were made by this module and nothing else in this process
            // uses them.
            unsafe {
                libc::close(w.rfd);
                libc::close(w.wfd);
            }
            *g = None;
        }
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe writes two descriptors into the array.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return None;
        }
        let w = Arc::new(Watcher {
            pid,
            rfd: fds[0],
            wfd: fds[1],
            slot: Mutex::new(None),
        });
        let spawned = set_flags(fds[0]) && set_flags(fds[1]) && {
            let t = Arc::clone(&w);
            std::thread::Builder::new()
                .name("rootbound-signals".into())
                .spawn(move || watch(&t))
                .is_ok()
        };
        if !spawned {
            // SAFETY: the descriptors were just made and nothing else has them.
            unsafe {
                libc::close(fds[0]);
                libc::close(fds[1]);
            }
            return None;
        }
        *g = Some(Arc::clone(&w));
        Some(w)
    }

    /// One inline call's hold on the wakeup fd; dropping it puts the host's back.
    pub(super) struct Inline {
        w: Arc<Watcher>,
        /// The host's wakeup fd (-1: none).
        old: i32,
    }

    impl Inline {
        /// Puts the pipe in place for a call with `budget`; `None` when the call cannot be
        /// watched this way (SIGINT not Python's default handler, not the main interpreter's main
        /// thread, no pipe or thread): the caller falls back to the helper thread.
        pub(super) fn enter(py: Python<'_>, budget: &rootbound::Budget) -> Option<Inline> {
            let [set_fd, getsignal, default, kw] = signal_fns(py).ok()?;
            let h = getsignal.bind(py).call1((libc::SIGINT,)).ok()?;
            if !h.is(default) {
                return None;
            }
            let w = watcher()?;
            let kw = kw.bind(py).cast::<PyDict>().ok()?;
            let old: i32 = set_fd
                .bind(py)
                .call((w.wfd,), Some(kw))
                .ok()?
                .extract()
                .ok()?;
            {
                let mut slot = w.slot.lock().unwrap_or_else(|e| e.into_inner());
                drain(w.rfd, None);
                *slot = Some(Slot {
                    budget: budget.clone(),
                    bytes: Vec::new(),
                });
            }
            let old = if old == w.wfd { -1 } else { old };
            Some(Inline { w, old })
        }
    }

    impl Drop for Inline {
        fn drop(&mut self) {
            Python::attach(|py| {
                if let Ok([set_fd, ..]) = signal_fns(py) {
                    let set_fd = set_fd.bind(py);
                    if set_fd.call1((self.old,)).is_err() && self.old != -1 {
                        // The host's fd is no longer valid (closed meanwhile): leave none.
                        let _ = set_fd.call1((-1,));
                    }
                }
            });
            let bytes = {
                let mut slot = self.w.slot.lock().unwrap_or_else(|e| e.into_inner());
                let mut bytes = slot.take().map(|s| s.bytes).unwrap_or_default();
                drain(self.w.rfd, Some(&mut bytes));
                bytes
            };
            if self.old >= 0 && !bytes.is_empty() {
                // What Python's handler would have written there; the fd is non-blocking (Python
                // requires it) and a full pipe drops bytes, as Python's handler does.
                // SAFETY: writes from a live buffer of its length.
                let _ = unsafe { libc::write(self.old, bytes.as_ptr().cast(), bytes.len()) };
            }
        }
    }
}

/// No signal pipe off Unix: watched calls use the helper thread.
#[cfg(not(unix))]
mod wake {
    use super::*;

    pub(super) struct Inline;

    impl Inline {
        pub(super) fn enter(_py: Python<'_>, _budget: &rootbound::Budget) -> Option<Inline> {
            None
        }
    }
}
