//! `rootbound` for Node.js: the native half of the npm package (napi-rs).
//!
//! Deliberately small, like the Python binding: a [`Core`] holds one agent's tools
//! ([`rootbound::config::AgentTools`], built from a policy object or a config file) and answers
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
use rootbound::config::{AgentConfig, AgentTools, Config, ConfigError};
use rootbound::{Error as RbError, ErrorCode, Limits, Policy, Profile, Sandbox, SchemaFormat};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
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

/// Where a core's tools came from, to present them in another dialect.
enum Source {
    Sandbox(Sandbox),
    Config(Box<AgentConfig>),
}

/// One agent's tools.
#[napi]
pub struct Core {
    /// The tools in the agent's own dialect (config `profile`, else rootbound).
    base: Arc<AgentTools>,
    source: Source,
    /// The same tools in other dialects, built on first use.
    dialects: Mutex<HashMap<&'static str, Arc<AgentTools>>>,
}

/// A config file's problems as an `INVALID_ARGUMENT` with `problems: [{key, message}]`.
fn config_error(e: &ConfigError) -> RbError {
    let problems: Vec<Value> = e
        .problems
        .iter()
        .map(|p| serde_json::json!({"key": p.key, "message": p.message}))
        .collect();
    RbError::new(ErrorCode::InvalidArgument, e.to_string()).with_detail("problems", problems)
}

fn invalid(msg: impl Into<String>) -> RbError {
    RbError::new(ErrorCode::InvalidArgument, msg)
}

/// A construction or lookup failure as a thrown JS error whose message is the contract's error
/// object's code and message; `index.js` turns it into the matching `RootboundError` class.
fn thrown(e: &RbError) -> napi::Error {
    napi::Error::new(
        Status::GenericFailure,
        format!("{}: {}", e.code.as_str(), e.message),
    )
}

fn parse_profile(name: &str) -> std::result::Result<Profile, RbError> {
    Profile::parse(name).ok_or_else(|| {
        invalid(format!(
            "unknown profile '{name}' (one of: {})",
            Profile::names().join(", ")
        ))
    })
}

fn run(tools: &AgentTools, name: &str, args: Value, budget: &rootbound::Budget) -> Outcome {
    let out = if tools.profile() == Profile::Rootbound {
        tools.within(budget).call_result(name, args)
    } else {
        tools
            .within(budget)
            .present(name, args)
            .map(|p| p.structured)
    };
    match out {
        Ok(value) => Outcome { ok: true, value },
        Err(e) => Outcome {
            ok: false,
            value: e.to_json(),
        },
    }
}

/// [`run`], with a panic (a bug) reported as an `IO_ERROR` instead of taking down the process.
fn run_guarded(tools: &AgentTools, name: &str, args: Value, budget: &rootbound::Budget) -> Outcome {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run(tools, name, args, budget)
    }))
    .unwrap_or_else(|_| {
        let e = RbError::new(
            ErrorCode::IoError,
            format!("the {name} call failed internally"),
        );
        Outcome {
            ok: false,
            value: e.to_json(),
        }
    })
}

impl Core {
    fn new(base: AgentTools, source: Source) -> Self {
        Core {
            base: Arc::new(base),
            source,
            dialects: Mutex::new(HashMap::new()),
        }
    }

    fn tools_for(&self, profile: Option<&str>) -> std::result::Result<Arc<AgentTools>, RbError> {
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
                let mut cfg = AgentConfig::clone(cfg);
                cfg.profile = p;
                cfg.build().map_err(|e| config_error(&e))?
            }
        };
        let tools = Arc::new(tools);
        map.insert(p.as_str(), Arc::clone(&tools));
        Ok(tools)
    }
}

/// A construction's result: the core, or the contract's `{ error: {...} }` (with its details,
/// e.g. a config file's `problems`), which `index.js` throws as a `RootboundError`.
type Opened = Either<Core, Value>;

#[napi]
impl Core {
    /// The tools of a policy object (the contract's policy: `roots`, `deny`, `limits`, `write`,
    /// ...), optionally named as `agent` for the audit log.
    #[napi(ts_return_type = "Core | { error: Record<string, unknown> }")]
    pub fn from_policy(policy: Value, agent: Option<String>) -> Opened {
        let policy: Policy = match serde_json::from_value(policy) {
            Ok(p) => p,
            Err(e) => return Either::B(invalid(format!("bad sandbox settings: {e}")).to_json()),
        };
        match Sandbox::new(policy) {
            Ok(sb) => {
                let sb = match agent {
                    Some(a) => sb.with_agent(a),
                    None => sb,
                };
                let tools = AgentTools::from_sandbox(sb.clone());
                Either::A(Core::new(tools, Source::Sandbox(sb)))
            }
            Err(e) => Either::B(e.to_json()),
        }
    }

    /// The tools of `agent` (none: the only agent) in a rootbound config file (TOML, or JSON).
    #[napi(ts_return_type = "Core | { error: Record<string, unknown> }")]
    pub fn from_config(path: String, agent: Option<String>) -> Opened {
        let built = (|| -> std::result::Result<(AgentConfig, AgentTools), ConfigError> {
            let cfg = Config::load(std::path::Path::new(&path))?;
            let a = cfg.agent(agent.as_deref())?.clone();
            let tools = a.build()?;
            Ok((a, tools))
        })();
        match built {
            Ok((cfg, tools)) => Either::A(Core::new(tools, Source::Config(Box::new(cfg)))),
            Err(e) => Either::B(config_error(&e).to_json()),
        }
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
        let tools = self.tools_for(dialect).map_err(|e| thrown(&e))?;
        let budget = budget.0.clone();
        let (deferred, promise) = env.create_deferred()?;
        pool::submit(Box::new(move || {
            let out = run_guarded(&tools, &name, args, &budget);
            deferred.resolve(move |_| Ok(out));
        }))
        .map_err(|e| napi::Error::new(Status::GenericFailure, e))?;
        Ok(promise)
    }

    /// The tool definitions in `format` (openai, anthropic, gemini, mcp), of `profile` (none: the
    /// agent's own dialect).
    #[napi]
    pub fn tools(&self, format: String, profile: Option<String>) -> Result<Value> {
        let f = SchemaFormat::parse(&format).ok_or_else(|| {
            thrown(&invalid(format!(
                "unknown format '{format}' (one of: openai, anthropic, gemini, mcp)"
            )))
        })?;
        let tools = self.tools_for(profile.as_deref()).map_err(|e| thrown(&e))?;
        Ok(Value::Array(tools.profile_definitions(f)))
    }

    /// The agent's name (from the config file or `agent`; empty otherwise).
    #[napi(getter)]
    pub fn agent(&self) -> String {
        self.base.agent().to_string()
    }

    /// The dialect `call` and `tools` use by default.
    #[napi(getter)]
    pub fn profile(&self) -> String {
        self.base.profile().as_str().to_string()
    }

    /// The engine tools this core enables (write tools only with a write root).
    #[napi]
    pub fn tool_names(&self) -> Vec<String> {
        self.base
            .tools()
            .iter()
            .map(|t| t.name.to_string())
            .collect()
    }
}

/// The names of the policy's limits (`max_read_bytes`, `timeout_ms`, ...).
#[napi]
pub fn limit_names() -> Vec<String> {
    match serde_json::to_value(Limits::default()) {
        Ok(Value::Object(m)) => m.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// The policy's default limits.
#[napi]
pub fn default_limits() -> Value {
    serde_json::to_value(Limits::default()).unwrap_or(Value::Null)
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
