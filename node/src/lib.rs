//! `rootbound` for Node.js: the native half of the npm package (napi-rs).
//!
//! Deliberately small, like the Python binding: a [`Core`] holds one agent's tools
//! ([`rootbound::config::host::HostTools`], built from the constructor's options or a config
//! file; the library turns options into a policy, for both bindings) and answers
//! `call(name, args, budget)` with a promise of `{ ok, value }`: the JSON contract of
//! `rootbound call`, passed as JS objects (napi's serde-json conversion, no JSON text in between),
//! so every argument the library accepts is accepted here without a second list of fields. The
//! JS layer (`index.js`) builds the camelCase methods, result types and error classes on top.
//!
//! Concurrency: a call never runs on the JS thread. It is queued to the threads of [`pool`]
//! (plain threads, not libuv's pool) and settles its promise through a threadsafe function when
//! done. A [`Budget`] (cancel switch plus deadline) travels with each call; the JS layer cancels
//! it when the caller's `AbortSignal` fires.

mod pool;

use napi::bindgen_prelude::*;
use napi_derive::napi;
use rootbound::config::host::{self, HostOptions, HostTools, OpenError};
use rootbound::config::AgentTools;
use rootbound::{Error as RbError, ErrorCode, Profile};
use serde_json::Value;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// A deadline plus a cancel switch, shared by the calls made with it.
#[napi]
pub struct Budget(rootbound::Budget);

#[napi]
impl Budget {
    /// A budget with an optional timeout in milliseconds (the policy's timeout still applies).
    #[napi(constructor)]
    pub fn new(timeout_ms: Option<f64>) -> Result<Self> {
        let b = rootbound::Budget::new();
        match timeout_ms {
            None => Ok(Budget(b)),
            Some(t) if t.is_finite() && t >= 0.0 => {
                Ok(Budget(b.with_timeout(Duration::from_secs_f64(t / 1000.0))))
            }
            Some(_) => Err(napi::Error::new(
                Status::InvalidArg,
                "timeoutMs must be a finite number of milliseconds >= 0",
            )),
        }
    }

    /// Cancels every call running or yet to run with this budget. Idempotent.
    #[napi]
    pub fn cancel(&self) {
        self.0.cancel();
    }

    /// Whether the budget was cancelled.
    #[napi(getter)]
    pub fn cancelled(&self) -> bool {
        self.0.is_cancelled()
    }

    /// How far the calls made with this budget got: files searched (grep) or listed (glob), and
    /// bytes searched, summed over the calls.
    #[napi]
    pub fn progress(&self) -> Progress {
        let p = self.0.progress();
        Progress {
            files: p.files as f64,
            bytes: p.bytes as f64,
        }
    }
}

/// A [`Budget`]'s progress counters.
#[napi(object)]
pub struct Progress {
    pub files: f64,
    pub bytes: f64,
}

/// What a call settles with: `ok` false means `value` is the contract's `{ error: {...} }`.
#[napi(object)]
pub struct Outcome {
    pub ok: bool,
    pub value: Value,
}

/// One agent's tools ([`HostTools`]: built, cached per dialect and called by the library), until
/// [`Core::close`] lets them go: `None` from then on, and every use answers [`closed`].
#[napi]
pub struct Core(Mutex<Option<HostTools>>);

/// What every use of a closed core answers: `CANCELLED`, the code of a call stopped by its host
/// before it started (the contract has no code of its own for a closed sandbox).
fn closed() -> RbError {
    RbError::new(ErrorCode::Cancelled, "the sandbox is closed")
}

/// A construction or lookup failure as a thrown JS error whose message is the contract's error
/// object's code and message; `index.js` turns it into the matching `RootboundError` class.
fn thrown(e: &RbError) -> napi::Error {
    napi::Error::new(
        Status::GenericFailure,
        format!("{}: {}", e.code.as_str(), e.message),
    )
}

/// A construction's result: the core, or the contract's `{ error: {...} }` (with its details,
/// e.g. a config file's `problems`), which `index.js` throws as a `RootboundError`, or
/// `{ usage }`, a misuse of the options that `index.js` throws as a `TypeError`.
type Opened = Either<Core, Value>;

fn opened(r: std::result::Result<HostTools, OpenError>) -> Opened {
    match r {
        Ok(h) => Either::A(Core(Mutex::new(Some(h)))),
        Err(OpenError::Usage(msg)) => Either::B(serde_json::json!({ "usage": msg })),
        Err(OpenError::Refused(e)) => Either::B(e.to_json()),
    }
}

impl Core {
    /// The tools, or `None` once closed. The lock is held only to clone a handle or read a name:
    /// a call runs on the handle it cloned, never under it.
    fn tools_now(&self) -> MutexGuard<'_, Option<HostTools>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The handle of the tools in dialect `profile` (none: the agent's own).
    fn dialect(&self, profile: Option<&str>) -> std::result::Result<Arc<AgentTools>, RbError> {
        self.tools_now()
            .as_ref()
            .ok_or_else(closed)?
            .dialect(profile)
    }

    /// `f` of the tools, or the closed error thrown.
    fn read<T>(&self, f: impl FnOnce(&HostTools) -> T) -> Result<T> {
        self.tools_now()
            .as_ref()
            .map(f)
            .ok_or_else(|| thrown(&closed()))
    }
}

#[napi]
impl Core {
    /// The tools of a sandbox built from its options (the library's `HostOptions` in snake case:
    /// `roots`, `deny`, modes, `limits`, `write_root` and its flags), optionally named as `agent`
    /// for the audit log.
    #[napi(ts_return_type = "Core | { error: Record<string, unknown> } | { usage: string }")]
    pub fn from_options(options: Value, agent: Option<String>) -> Opened {
        let options: HostOptions = match serde_json::from_value(options) {
            Ok(o) => o,
            Err(e) => {
                let e = RbError::new(
                    ErrorCode::InvalidArgument,
                    format!("bad sandbox settings: {e}"),
                );
                return Either::B(e.to_json());
            }
        };
        opened(HostTools::open(options, agent))
    }

    /// The tools of `agent` (none: the only agent) in a rootbound config file (TOML, or JSON).
    #[napi(ts_return_type = "Core | { error: Record<string, unknown> } | { usage: string }")]
    pub fn from_config(path: String, agent: Option<String>) -> Opened {
        opened(
            HostTools::from_config(std::path::Path::new(&path), agent.as_deref())
                .map_err(OpenError::Refused),
        )
    }

    /// Calls tool `name` with `args` (an object of the contract's fields) on a call thread within
    /// `budget`. `profile`: a dialect's tool name and structured result; `engine`: the native
    /// tools whatever the configured dialect (the typed methods use it). Never rejects for a tool
    /// failure: that is `{ ok: false, value: { error } }`.
    #[napi(ts_return_type = "Promise<Outcome>")]
    pub fn call<'e>(
        &self,
        env: &'e Env,
        name: String,
        args: Value,
        budget: &Budget,
        profile: Option<String>,
        engine: Option<bool>,
    ) -> Result<Object<'e>> {
        let dialect = if engine.unwrap_or(false) {
            Some("rootbound")
        } else {
            profile.as_deref()
        };
        // Closed: `None`, and the call answers the closed error as a tool failure, settled the
        // way every call is (`call` never rejects for it).
        let open = self.tools_now().as_ref().map(|h| h.dialect(dialect));
        let tools = open.transpose().map_err(|e| thrown(&e))?;
        let budget = budget.0.clone();
        let (deferred, promise) = env.create_deferred()?;
        pool::submit(Box::new(move || {
            let done = match &tools {
                Some(tools) => host::call(tools, &name, args, &budget),
                None => Err(closed().to_json()),
            };
            let out = match done {
                Ok(value) => Outcome { ok: true, value },
                Err(value) => Outcome { ok: false, value },
            };
            deferred.resolve(move |_| Ok(out));
        }))
        .map_err(|e| napi::Error::new(Status::GenericFailure, e))?;
        Ok(promise)
    }

    /// The tool definitions in `format` (openai, anthropic, gemini, mcp), of `profile` (none: the
    /// agent's own dialect).
    #[napi]
    pub fn tools(&self, format: String, profile: Option<String>) -> Result<Value> {
        self.read(|t| t.definitions(&format, profile.as_deref()))?
            .map_err(|e| thrown(&e))
    }

    /// The agent's name (from the config file or `agent`; empty otherwise).
    #[napi(getter)]
    pub fn agent(&self) -> Result<String> {
        self.read(|t| t.base().agent().to_string())
    }

    /// The dialect `call` and `tools` use by default.
    #[napi(getter)]
    pub fn profile(&self) -> Result<String> {
        self.read(|t| t.base().profile().as_str().to_string())
    }

    /// The engine tools this core enables (write tools only with a write root).
    #[napi]
    pub fn tool_names(&self) -> Result<Vec<String>> {
        self.read(|t| {
            t.base()
                .tools()
                .iter()
                .map(|t| t.name.to_string())
                .collect()
        })
    }

    /// Lets go of the tools: every later use answers the closed error (`CANCELLED`). Calls
    /// already running hold the tools until they settle; when the last handle goes, the
    /// index's stop flag is raised and its threads end at their next check. Idempotent.
    #[napi]
    pub fn close(&self) {
        // Taken out under the lock, dropped after it: the drop raises the index's stop flag.
        let tools = self.tools_now().take();
        drop(tools);
    }
}

/// For the benchmarks (BENCHMARKS.md): `n` calls of engine tool `name` made on this thread in a
/// Rust loop exactly as a Rust host makes them (`AgentTools::call` with a JSON value, the result
/// dropped); the seconds each call took, in order. Blocks the caller; not part of the API.
#[napi(js_name = "_benchRustCalls")]
pub fn bench_rust_calls(core: &Core, name: String, args: Value, n: u32) -> Result<Vec<f64>> {
    let tools = core.dialect(Some("rootbound")).map_err(|e| thrown(&e))?;
    Ok((0..n)
        .map(|_| {
            let t = std::time::Instant::now();
            let v = tools.call(&name, args.clone());
            std::hint::black_box(&v);
            drop(v);
            t.elapsed().as_secs_f64()
        })
        .collect())
}

/// The names of the policy's limits (`max_read_bytes`, `timeout_ms`, ...).
#[napi]
pub fn limit_names() -> Vec<String> {
    host::limit_names().into_iter().map(String::from).collect()
}

/// The policy's default limits.
#[napi]
pub fn default_limits() -> Value {
    host::default_limits()
}

/// Every stable error code of the contract (`OUT_OF_SANDBOX`, `NOT_FOUND`, ...).
#[napi]
pub fn error_codes() -> Vec<String> {
    ErrorCode::ALL
        .iter()
        .map(|c| c.as_str().to_string())
        .collect()
}

/// The tool dialects (`rootbound`, `claude-code`, ...).
#[napi]
pub fn profile_names() -> Vec<String> {
    Profile::names().into_iter().map(String::from).collect()
}

/// How many call threads are alive (for tests: they must not grow without bound).
#[napi]
pub fn call_threads() -> u32 {
    pool::live() as u32
}

/// How many calls are running on the call threads now (for tests: a cancelled call must end).
#[napi]
pub fn running_calls() -> u32 {
    pool::busy() as u32
}

/// How many background threads of any index of the process are alive (for tests: a closed
/// sandbox's index work must end).
#[napi]
pub fn index_threads_live() -> u32 {
    rootbound::index_threads_live() as u32
}

/// Makes the index build of the root at canonical path `root` take 10 ms a file, or stops
/// (`null`) (for tests: a build that takes long on a small tree). Process-wide.
#[napi]
pub fn index_slow_at(root: Option<String>) {
    rootbound::index_slow_at(root.as_deref().map(std::path::Path::new));
}
