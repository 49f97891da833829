//! `rootbound._rootbound`: the native half of the `rootbound` Python package.
//!
//! It is deliberately small. A [`Core`] holds one agent's tools ([`rootbound::config::AgentTools`],
//! built from a policy given as JSON or from a config file) and answers `call(name, args_json)` with
//! `(ok, result_json)`: the JSON contract of `rootbound call`, so every argument the library accepts
//! is accepted here without a second list of fields. The Python package (`python/rootbound/`) builds
//! the keyword-argument methods, result objects and exception classes on top of it.
//!
//! Concurrency: every call releases the GIL for its whole duration (`Python::detach`). A call made
//! with `watch=True` (the Python layer passes it from the main thread, where signal handlers run)
//! of a tool that can run long (not one of [`QUICK`]) is executed by a helper thread (one per
//! watching thread, kept for its lifetime) while the calling thread waits in slices of 20 ms and
//! runs `Python::check_signals` between them: a KeyboardInterrupt (or any exception a signal
//! handler raises) cancels the call's budget, waits for the call to return, and propagates.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use rootbound::config::{AgentConfig, AgentTools, Config, ConfigError};
use rootbound::{Error, ErrorCode, Limits, Policy, Profile, Sandbox, SchemaFormat};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

create_exception!(
    _rootbound,
    NativeError,
    PyException,
    "A failure of construction: args are (code, message, details_json)."
);

/// Tools bounded by one file or one directory page, run inline even when watched: a helper-thread
/// hand-off would cost more than they do, and they end within their timeout anyway.
const QUICK: &[&str] = &[
    "stat",
    "read_file",
    "list_dir",
    "list_roots",
    "read_media_file",
    "write_file",
    "edit_file",
    "create_directory",
    "move_file",
    "delete_file",
];

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

/// Where a core's tools came from, to present them in another dialect.
enum Source {
    Sandbox(Sandbox),
    Config(AgentConfig),
}

/// One agent's tools.
#[pyclass(frozen, module = "rootbound._rootbound")]
struct Core {
    /// The tools in the agent's own dialect (config `profile`, else rootbound).
    base: Arc<AgentTools>,
    source: Source,
    /// The same tools in other dialects, built on first use.
    dialects: Mutex<HashMap<&'static str, Arc<AgentTools>>>,
}

fn native_err(e: &Error) -> PyErr {
    let details = e
        .details
        .as_ref()
        .map(|d| Value::Object(d.clone()).to_string())
        .unwrap_or_else(|| "{}".into());
    NativeError::new_err((e.code.as_str(), e.message.clone(), details))
}

/// A config file's problems as an `INVALID_ARGUMENT` with `problems: [{key, message}]`.
fn config_error(e: &ConfigError) -> Error {
    let problems: Vec<Value> = e
        .problems
        .iter()
        .map(|p| serde_json::json!({"key": p.key, "message": p.message}))
        .collect();
    Error::new(ErrorCode::InvalidArgument, e.to_string()).with_detail("problems", problems)
}

fn invalid(msg: impl Into<String>) -> PyErr {
    native_err(&Error::new(ErrorCode::InvalidArgument, msg))
}

fn parse_profile(name: &str) -> PyResult<Profile> {
    Profile::parse(name).ok_or_else(|| {
        invalid(format!(
            "unknown profile '{name}' (one of: {})",
            Profile::names().join(", ")
        ))
    })
}

/// Runs one call: the result JSON, or the error object.
fn run(tools: &AgentTools, name: &str, args: Value, budget: &rootbound::Budget) -> (bool, String) {
    let out = if tools.profile() == Profile::Rootbound {
        tools.call_result_with(name, args, budget)
    } else {
        tools.present_with(name, args, budget).map(|p| p.structured)
    };
    match out {
        Ok(v) => (true, v.to_string()),
        Err(e) => (false, e.to_json().to_string()),
    }
}

/// Runs `run` and catches a panic as an `IO_ERROR`, so a helper thread survives it.
fn run_guarded(
    tools: &AgentTools,
    name: &str,
    args: Value,
    budget: &rootbound::Budget,
) -> (bool, String) {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run(tools, name, args, budget)
    }))
    .unwrap_or_else(|_| {
        let e = Error::new(
            ErrorCode::IoError,
            format!("the {name} call failed internally"),
        );
        (false, e.to_json().to_string())
    })
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
    fn new(base: AgentTools, source: Source) -> Self {
        Core {
            base: Arc::new(base),
            source,
            dialects: Mutex::new(HashMap::new()),
        }
    }

    /// The tools presented in `profile` (None: the agent's own).
    fn tools_for(&self, profile: Option<&str>) -> PyResult<Arc<AgentTools>> {
        let Some(name) = profile else {
            return Ok(Arc::clone(&self.base));
        };
        let p = parse_profile(name)?;
        if p == self.base.profile() {
            return Ok(Arc::clone(&self.base));
        }
        let mut map = self.dialects.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = map.get(p.as_str()) {
            return Ok(Arc::clone(t));
        }
        let tools = match &self.source {
            Source::Sandbox(sb) => AgentTools::from_sandbox(sb.clone()).with_profile(p),
            Source::Config(cfg) => {
                let mut cfg = cfg.clone();
                cfg.profile = p;
                cfg.build().map_err(|e| native_err(&config_error(&e)))?
            }
        };
        let tools = Arc::new(tools);
        map.insert(p.as_str(), Arc::clone(&tools));
        Ok(tools)
    }
}

#[pymethods]
impl Core {
    /// A core over one sandbox built from a policy (the serde form of `rootbound::Policy`).
    #[staticmethod]
    #[pyo3(signature = (policy_json, agent=None))]
    fn from_policy(py: Python<'_>, policy_json: &str, agent: Option<String>) -> PyResult<Self> {
        let policy: Policy = serde_json::from_str(policy_json)
            .map_err(|e| invalid(format!("bad sandbox settings: {e}")))?;
        let sb = py
            .detach(|| Sandbox::new(policy))
            .map_err(|e| native_err(&e))?;
        let sb = match agent {
            Some(a) => sb.with_agent(a),
            None => sb,
        };
        let tools = AgentTools::from_sandbox(sb.clone());
        Ok(Core::new(tools, Source::Sandbox(sb)))
    }

    /// A core over the tools of `agent` (None: the only agent) of a config file.
    #[staticmethod]
    #[pyo3(signature = (path, agent=None))]
    fn from_config(
        py: Python<'_>,
        path: std::path::PathBuf,
        agent: Option<String>,
    ) -> PyResult<Self> {
        let built = py.detach(|| -> Result<(AgentConfig, AgentTools), ConfigError> {
            let cfg = Config::load(&path)?;
            let a = cfg.agent(agent.as_deref())?.clone();
            let tools = a.build()?;
            Ok((a, tools))
        });
        let (cfg, tools) = built.map_err(|e| native_err(&config_error(&e)))?;
        Ok(Core::new(tools, Source::Config(cfg)))
    }

    /// Calls tool `name` with `args_json` (a JSON object): `(True, result_json)` or
    /// `(False, error_json)`. With `profile`, `name` is a tool of that dialect; `engine=True` calls
    /// the engine's own tool whatever the agent's dialect.
    #[pyo3(signature = (name, args_json, budget=None, profile=None, watch=false, engine=false))]
    #[allow(clippy::too_many_arguments)] // the Python signature, one keyword each
    fn call(
        &self,
        py: Python<'_>,
        name: &str,
        args_json: &str,
        budget: Option<&Budget>,
        profile: Option<&str>,
        watch: bool,
        engine: bool,
    ) -> PyResult<(bool, String)> {
        let tools = if engine {
            self.tools_for(Some("rootbound"))?
        } else {
            self.tools_for(profile)?
        };
        let args: Value = match serde_json::from_str(args_json) {
            Ok(v) => v,
            Err(e) => {
                let e = Error::new(
                    ErrorCode::InvalidArgument,
                    format!("bad arguments: not JSON: {e}"),
                );
                return Ok((false, e.to_json().to_string()));
            }
        };
        let budget = budget.map(|b| b.0.clone()).unwrap_or_default();
        if !watch || QUICK.contains(&name) {
            return Ok(py.detach(|| run_guarded(&tools, name, args, &budget)));
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
                Ok(r) => return Ok(r),
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
        let f = SchemaFormat::parse(format).ok_or_else(|| {
            invalid(format!(
                "unknown format '{format}' (one of: openai, anthropic, gemini, mcp)"
            ))
        })?;
        let tools = self.tools_for(profile)?;
        Ok(Value::Array(tools.profile_definitions(f)).to_string())
    }

    /// The agent's name ("" for a plain sandbox).
    #[getter]
    fn agent(&self) -> String {
        self.base.agent().to_string()
    }

    /// The agent's own dialect.
    #[getter]
    fn profile(&self) -> &'static str {
        self.base.profile().as_str()
    }

    /// The engine tools this agent enables.
    fn tool_names(&self) -> Vec<String> {
        self.base
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
fn limit_names() -> Vec<String> {
    match serde_json::to_value(Limits::default()) {
        Ok(Value::Object(m)) => m.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// The default limits, as JSON.
#[pyfunction]
fn default_limits() -> String {
    serde_json::to_string(&Limits::default()).unwrap_or_default()
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
    m.add_function(wrap_pyfunction!(limit_names, m)?)?;
    m.add_function(wrap_pyfunction!(default_limits, m)?)?;
    m.add_function(wrap_pyfunction!(error_codes, m)?)?;
    m.add_function(wrap_pyfunction!(profile_names, m)?)?;
    m.add_function(wrap_pyfunction!(_bench_rust_calls, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
