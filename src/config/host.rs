//! What a language binding (the Python and Node packages) builds one agent's tools from.
//!
//! Both bindings take the same options (roots, deny rules, the policy's modes, any limit, a write
//! root and its flags) in their own spelling, convert them to a [`HostOptions`], and open a
//! [`HostTools`] from it or from a config file. Everything past the spelling lives here, once: how
//! the options become a [`Policy`], which misuses are the caller's programming errors
//! ([`OpenError::Usage`], a `TypeError` in both languages), the dialect cache, and a call that
//! reports a panic as an error instead of unwinding into the host.

use super::{AgentTools, Config, ConfigError, LIMITS};
use crate::core::deadline::Budget;
use crate::core::error::{Error, ErrorCode};
use crate::core::policy::{
    Limits, PathDisplay, Policy, RootMode, RootSpec, SymlinkMode, WritePolicy,
};
use crate::index::{IndexOptions, IndexVerify, IndexWhen};
use crate::tools::profile::{Profile, SchemaFormat};
use crate::Sandbox;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A sandbox's options as a binding's constructor takes them (`new Sandbox(roots, {...})`,
/// `Sandbox(roots, ...)`), in snake case. Unset modes keep the policy's defaults.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HostOptions {
    /// The read roots, in order (an empty name: the directory's own).
    pub roots: Vec<RootSpec>,
    /// Deny rules (gitignore syntax).
    pub deny: Vec<String>,
    /// Symlink handling.
    pub symlinks: Option<SymlinkMode>,
    /// Strict or lenient root opening.
    pub root_mode: Option<RootMode>,
    /// How paths are shown.
    pub path_display: Option<PathDisplay>,
    /// Search hidden files by default.
    pub hidden: Option<bool>,
    /// Ignore ignore files by default.
    pub no_ignore: Option<bool>,
    /// Refuse files with more than one hard link.
    pub refuse_hardlinks: Option<bool>,
    /// Limits by name (`max_read_bytes`, ...); the others keep their defaults.
    pub limits: Map<String, Value>,
    /// The write root: enables the write tools.
    pub write_root: Option<PathBuf>,
    /// Allow replacing files (needs `write_root`).
    pub allow_overwrite: bool,
    /// Allow delete_file (needs `write_root`).
    pub allow_delete: bool,
    /// Largest write, in bytes (needs `write_root`).
    pub max_write_bytes: Option<u64>,
    /// Create missing parent directories (default true).
    pub create_parents: Option<bool>,
    /// The n-gram index: `true` (every root), `"auto"` (roots whose filesystem reports changes)
    /// or `false`/unset (none, the default: it costs a background build and memory).
    pub index: Option<IndexKey>,
    /// With an index: `"events"` (default) or `"strict"`.
    pub index_verify: Option<String>,
}

/// The `index` option: a boolean, or the word `"auto"`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum IndexKey {
    /// `true`: every root; `false`: none.
    On(bool),
    /// `"auto"`.
    Mode(String),
}

/// Why a binding could not open its tools.
#[derive(Debug, Clone)]
pub enum OpenError {
    /// The options themselves are wrong (an unknown limit, a write flag without a write root): a
    /// programming error of the caller, raised as a `TypeError` by both bindings.
    Usage(String),
    /// The options are well formed but refused (a root that cannot be opened, a bad deny rule, a
    /// config file's problems): a `RootboundError` with the contract's code.
    Refused(Error),
}

impl HostOptions {
    /// The index these options ask for (`None`: none).
    pub fn index_options(&self) -> Result<Option<IndexOptions>, OpenError> {
        let verify = match self.index_verify.as_deref() {
            None | Some("events") => IndexVerify::Events,
            Some("strict") => IndexVerify::Strict,
            Some(v) => {
                return Err(OpenError::Usage(format!(
                    "index_verify: expected \"events\" or \"strict\", found \"{v}\""
                )))
            }
        };
        let when = match &self.index {
            None | Some(IndexKey::On(false)) => None,
            Some(IndexKey::On(true)) => Some(IndexWhen::Always),
            Some(IndexKey::Mode(m)) if m == "auto" => Some(IndexWhen::Auto),
            Some(IndexKey::Mode(m)) => {
                return Err(OpenError::Usage(format!(
                    "index: expected true, false or \"auto\", found \"{m}\""
                )))
            }
        };
        match when {
            None if self.index_verify.is_some() => Err(OpenError::Usage(
                "index_verify needs index (true or \"auto\")".into(),
            )),
            None => Ok(None),
            Some(w) => Ok(Some(IndexOptions::default().when(w).verify(verify))),
        }
    }

    /// The policy these options ask for.
    pub fn policy(self) -> Result<Policy, OpenError> {
        let limits = limits_of(self.limits)?;
        let write = match self.write_root {
            Some(root) => Some(WritePolicy {
                allow_overwrite: self.allow_overwrite,
                allow_delete: self.allow_delete,
                max_write_bytes: self
                    .max_write_bytes
                    .unwrap_or(WritePolicy::new("").max_write_bytes),
                create_parents: self.create_parents.unwrap_or(true),
                root,
            }),
            None if self.allow_overwrite || self.allow_delete || self.max_write_bytes.is_some() => {
                return Err(OpenError::Usage(
                    "allow_overwrite, allow_delete and max_write_bytes need write_root".into(),
                ))
            }
            None => None,
        };
        let d = Policy::default();
        Ok(Policy {
            roots: self.roots,
            deny: self.deny,
            symlinks: self.symlinks.unwrap_or(d.symlinks),
            root_mode: self.root_mode.unwrap_or(d.root_mode),
            path_display: self.path_display.unwrap_or(d.path_display),
            hidden: self.hidden.unwrap_or(d.hidden),
            no_ignore: self.no_ignore.unwrap_or(d.no_ignore),
            refuse_hardlinks: self.refuse_hardlinks.unwrap_or(d.refuse_hardlinks),
            limits,
            write,
        })
    }
}

/// The limits named in `given` over the defaults; an unknown name is a usage error, a bad value
/// (a string, a number out of range) an `INVALID_ARGUMENT`.
fn limits_of(given: Map<String, Value>) -> Result<Limits, OpenError> {
    let mut unknown: Vec<&str> = given
        .keys()
        .map(String::as_str)
        .filter(|k| LIMITS.iter().all(|f| f.name != *k))
        .collect();
    if !unknown.is_empty() {
        unknown.sort_unstable();
        let names: Vec<&str> = LIMITS.iter().map(|f| f.name).collect();
        return Err(OpenError::Usage(format!(
            "unknown option(s) {} (limits are: {})",
            unknown.join(", "),
            names.join(", ")
        )));
    }
    serde_json::from_value(Value::Object(given))
        .map_err(|e| OpenError::Refused(invalid(format!("bad sandbox settings: {e}"))))
}

fn invalid(msg: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidArgument, msg)
}

/// A config file's problems as an `INVALID_ARGUMENT` with `problems: [{key, message}]`.
pub fn config_error(e: &ConfigError) -> Error {
    let problems: Vec<Value> = e
        .problems
        .iter()
        .map(|p| serde_json::json!({"key": p.key, "message": p.message}))
        .collect();
    invalid(e.to_string()).with_detail("problems", problems)
}

/// A dialect by name, or `INVALID_ARGUMENT` naming the dialects.
pub fn parse_profile(name: &str) -> Result<Profile, Error> {
    Profile::parse(name).ok_or_else(|| {
        invalid(format!(
            "unknown profile '{name}' (one of: {})",
            Profile::names().join(", ")
        ))
    })
}

/// One agent's tools as a binding holds them: its own dialect, and the others built on first use.
pub struct HostTools {
    /// The tools in the agent's own dialect (config `profile`, else rootbound).
    base: Arc<AgentTools>,
    dialects: Mutex<HashMap<&'static str, Arc<AgentTools>>>,
}

impl HostTools {
    fn new(base: AgentTools) -> Self {
        HostTools {
            base: Arc::new(base),
            dialects: Mutex::new(HashMap::new()),
        }
    }

    /// The tools of a sandbox with these options, named `agent` in the audit log. Opens the roots
    /// (file system work: a binding runs it off its interpreter's lock).
    pub fn open(options: HostOptions, agent: Option<String>) -> Result<Self, OpenError> {
        let index = options.index_options()?;
        let sb = Sandbox::new(options.policy()?).map_err(OpenError::Refused)?;
        let sb = match agent {
            Some(a) => sb.with_agent(a),
            None => sb,
        };
        let sb = match index {
            Some(o) => sb.with_index_options(o),
            None => sb,
        };
        Ok(Self::new(AgentTools::from_sandbox(sb)))
    }

    /// The tools of `agent` (none: the only agent) in a config file (TOML, or JSON).
    pub fn from_config(path: &Path, agent: Option<&str>) -> Result<Self, Error> {
        let built = (|| -> Result<AgentTools, ConfigError> {
            let cfg = Config::load(path)?;
            cfg.agent(agent)?.build()
        })();
        Ok(Self::new(built.map_err(|e| config_error(&e))?))
    }

    /// The tools in the agent's own dialect.
    pub fn base(&self) -> &AgentTools {
        &self.base
    }

    /// The tools presented in `profile` (none: the agent's own).
    pub fn dialect(&self, profile: Option<&str>) -> Result<Arc<AgentTools>, Error> {
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
        // The agent's own sandboxes in another dialect: the same roots, search pool and index. A
        // dialect built again (from the config) would open the roots again and start an index of
        // its own: a second build of the tree, a second memory cap, two saves of one cache file.
        let tools = AgentTools {
            agent: self.base.agent.clone(),
            sandboxes: self.base.sandboxes.clone(),
            routes: self.base.routes.clone(),
            profile: p,
            others: self.base.others.clone(),
        };
        let tools = Arc::new(tools);
        map.insert(p.as_str(), Arc::clone(&tools));
        Ok(tools)
    }

    /// The tool definitions in `format` (openai, anthropic, gemini, mcp) of `profile`.
    pub fn definitions(&self, format: &str, profile: Option<&str>) -> Result<Value, Error> {
        let f = SchemaFormat::parse(format).ok_or_else(|| {
            invalid(format!(
                "unknown format '{format}' (one of: openai, anthropic, gemini, mcp)"
            ))
        })?;
        Ok(Value::Array(self.dialect(profile)?.profile_definitions(f)))
    }
}

/// Calls `name` on `tools` within `budget`: the result, or the contract's `{ error }` object. A
/// dialect's tools answer with their structured result. A panic (a bug) comes back as an
/// `IO_ERROR` rather than unwinding into the host's thread.
pub fn call(tools: &AgentTools, name: &str, args: Value, budget: &Budget) -> Result<Value, Value> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let within = tools.within(budget);
        let out = if tools.profile() == Profile::Rootbound {
            within.call_result(name, args)
        } else {
            within.present(name, args).map(|p| p.structured)
        };
        out.map_err(|e| e.to_json())
    }))
    .unwrap_or_else(|_| {
        let e = Error::new(
            ErrorCode::IoError,
            format!("the {name} call failed internally"),
        );
        Err(e.to_json())
    })
}

/// The limits' names (`max_read_bytes`, `timeout_ms`, ...), in table order.
pub fn limit_names() -> Vec<&'static str> {
    LIMITS.iter().map(|f| f.name).collect()
}

/// The default limits as the contract's JSON object.
pub fn default_limits() -> Value {
    serde_json::to_value(Limits::default()).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn options(v: Value) -> HostOptions {
        serde_json::from_value(v).unwrap()
    }

    fn usage(v: Value) -> String {
        match options(v).policy() {
            Err(OpenError::Usage(m)) => m,
            other => panic!("not a usage error: {other:?}"),
        }
    }

    #[test]
    fn options_give_the_policy_the_bindings_built_before() {
        // What the Python and Node layers assembled as policy JSON for the same options.
        let got = options(json!({
            "roots": [{"path": "/r"}, {"name": "b", "path": "/b"}],
            "deny": [".env"],
            "symlinks": "never",
            "path_display": "relative",
            "hidden": true,
            "limits": {"max_results": 7, "timeout_ms": 900},
            "write_root": "/w",
            "allow_delete": true,
            "create_parents": false,
        }))
        .policy()
        .unwrap();
        let want: Policy = serde_json::from_value(json!({
            "roots": [{"path": "/r"}, {"name": "b", "path": "/b"}],
            "deny": [".env"],
            "symlinks": "never",
            "path_display": "relative",
            "hidden": true,
            "limits": {"max_results": 7, "timeout_ms": 900},
            "write": {"root": "/w", "allow_overwrite": false, "allow_delete": true, "create_parents": false},
        }))
        .unwrap();
        assert_eq!(got, want);
        let plain = options(json!({"roots": [{"path": "/r"}]}))
            .policy()
            .unwrap();
        assert_eq!(plain.limits, Limits::default());
        assert_eq!(plain.write, None);
        assert_eq!(plain.symlinks, Policy::default().symlinks);
    }

    #[test]
    fn write_flags_without_a_write_root_are_usage_errors() {
        for flag in [
            json!({"allow_overwrite": true}),
            json!({"allow_delete": true}),
            json!({"max_write_bytes": 10}),
        ] {
            assert!(usage(flag).contains("need write_root"));
        }
        // false flags are the defaults, not a request.
        let ok = options(json!({"allow_overwrite": false, "allow_delete": false}));
        assert!(ok.policy().is_ok());
    }

    #[test]
    fn an_unknown_limit_is_a_usage_error_naming_it_and_the_limits() {
        let m = usage(json!({"limits": {"max_resultz": 3, "max_results": 3}}));
        assert!(m.contains("max_resultz"), "{m}");
        assert!(
            m.contains("limits are: ") && m.contains("max_read_bytes"),
            "{m}"
        );
        // A known limit with a bad value is refused with the contract's code, not a usage error.
        match options(json!({"limits": {"max_results": "many"}})).policy() {
            Err(OpenError::Refused(e)) => assert_eq!(e.code, ErrorCode::InvalidArgument),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_unknown_option_does_not_deserialize() {
        assert!(serde_json::from_value::<HostOptions>(json!({"writeroot": "/w"})).is_err());
    }

    #[test]
    fn a_root_that_cannot_open_is_refused_with_its_code() {
        let o = options(json!({"roots": [{"path": "/nonexistent-rootbound-host-test"}]}));
        match HostTools::open(o, None) {
            Err(OpenError::Refused(e)) => assert_eq!(e.code, ErrorCode::InvalidArgument),
            Err(OpenError::Usage(m)) => panic!("usage: {m}"),
            Ok(_) => panic!("opened a missing root"),
        }
    }

    #[test]
    fn dialects_are_cached_and_an_unknown_one_is_invalid() {
        let dir = std::env::temp_dir();
        let o = options(json!({"roots": [{"path": dir}]}));
        let h = HostTools::open(o, Some("bot".into())).unwrap();
        assert_eq!(h.base().agent(), "bot");
        let a = h.dialect(Some("claude-code")).unwrap();
        let b = h.dialect(Some("claude-code")).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert!(Arc::ptr_eq(
            &h.dialect(None).unwrap(),
            &h.dialect(Some("rootbound")).unwrap()
        ));
        let e = h.dialect(Some("nope")).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(h.definitions("yaml", None).is_err());
        let defs = h.definitions("openai", None).unwrap();
        assert_eq!(defs.as_array().unwrap().len(), h.base().tools().len());
    }

    #[test]
    fn a_call_answers_with_the_error_object_not_a_panic() {
        let dir = std::env::temp_dir();
        let h = HostTools::open(options(json!({"roots": [{"path": dir}]})), None).unwrap();
        let err = call(
            h.base(),
            "read_file",
            json!({"path": "../../etc/passwd"}),
            &Budget::new(),
        )
        .unwrap_err();
        assert!(err["error"]["code"].is_string(), "{err}");
    }
}
