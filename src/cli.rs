//! Command-line front end. It only translates: every filesystem access goes through `Sandbox`.

mod grep;
mod http;
#[cfg(feature = "mcp")]
mod index_dir;
mod limits;

use clap::{Args, Parser, Subcommand};
use limits::LimitFlags;
use rootbound::config::{AgentTools, Config};
use rootbound::{Policy, RootSpec, Sandbox, SymlinkMode, WritePolicy};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::PathBuf;

/// Exit codes: 0 success, 1 a tool error (JSON on stdout), 2 usage or configuration error (stderr).
const EXIT_TOOL: i32 = 1;
const EXIT_USAGE: i32 = 2;

#[derive(Parser)]
#[command(
    name = "rootbound",
    version,
    about = "Root-bound read/grep/glob tools for LLM agents"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

/// The help of `call`'s TOOL, listing the tools from the tool table.
fn call_tool_help() -> String {
    let join = |names: &mut dyn Iterator<Item = &str>| names.collect::<Vec<_>>().join(", ");
    format!(
        "The tool: {}; with --write-root also {} (edit_file where the write root is readable, \
         delete_file with --allow-delete). With --profile, that dialect's tool names \
         (`rootbound schema --profile NAME` lists them).",
        join(&mut rootbound::ToolName::read_names()),
        join(&mut rootbound::ToolName::write_names()),
    )
}

#[derive(Subcommand)]
enum Cmd {
    /// Call one tool: arguments as JSON (positional, or stdin when absent); the result JSON on stdout.
    Call {
        #[arg(help = call_tool_help())]
        tool: String,
        /// The arguments as a JSON object.
        args: Option<String>,
        #[command(flatten)]
        profile: ProfileOpt,
        /// Print compact JSON even on a terminal.
        #[arg(long, conflicts_with = "pretty")]
        compact: bool,
        /// Print indented JSON even when piped.
        #[arg(long)]
        pretty: bool,
        #[command(flatten)]
        opts: SandboxOpts,
    },
    /// Print a file's content (paged by --offset/--limit) for people.
    Read {
        path: String,
        #[arg(long)]
        offset: Option<u64>,
        #[arg(long)]
        limit: Option<u64>,
        #[command(flatten)]
        opts: SandboxOpts,
    },
    /// Search like rg: every match as path:line:text. The current directory is the root unless --root.
    Grep(Box<grep::GrepCmd>),
    /// Print the tool definitions in a vendor's shape (default: OpenAI function calling).
    Schema {
        #[command(flatten)]
        profile: ProfileOpt,
        /// openai, openai-strict (OpenAI strict mode: every field required, optional ones nullable), anthropic, gemini or mcp.
        #[arg(long, value_name = "FORMAT", default_value = "openai")]
        format: String,
        #[command(flatten)]
        opts: SandboxOpts,
    },
    /// Serve the enabled tools over MCP (stdio, or Streamable HTTP with --http). Logs go to stderr.
    Mcp {
        #[command(flatten)]
        profile: ProfileOpt,
        /// Let the roots the client announces (MCP Roots) narrow the served roots; they never
        /// widen them.
        #[arg(long)]
        client_roots: bool,
        #[command(flatten)]
        opts: SandboxOpts,
        /// Tool calls run at once (the rest wait their turn); default: the search threads + 4.
        #[arg(long, value_name = "N")]
        max_in_flight: Option<usize>,
        /// Index every root, whatever its filesystem. Without --index or --no-index, the server
        /// indexes the roots whose filesystem reports changes (a config file's `index` decides
        /// when it sets it): an n-gram index built in the background, so that repeated
        /// grep_search calls open only the files that can match (answers are the same without
        /// it; see docs/index.md). `list_roots` reports its state.
        #[arg(long, conflicts_with = "no_index")]
        index: bool,
        /// No index: every search walks and reads the tree. Overrides a config file's `index`.
        #[arg(long)]
        no_index: bool,
        /// `events` (default) replays repeated walks where the filesystem reports changes;
        /// `strict` walks and checks every pruned file's metadata at each query.
        #[arg(long, value_name = "MODE", conflicts_with = "no_index", value_parser = ["events", "strict"])]
        index_verify: Option<String>,
        /// Where each root's index is saved, to be loaded at the next start instead of built
        /// (default: $XDG_CACHE_HOME/rootbound, else ~/.cache/rootbound). Created with mode 0700;
        /// refused when writable by group or others or inside a root.
        #[arg(
            long,
            value_name = "DIR",
            conflicts_with_all = ["no_index_dir", "no_index"]
        )]
        index_dir: Option<std::path::PathBuf>,
        /// Do not save the index (every start builds it).
        #[arg(long, conflicts_with = "no_index")]
        no_index_dir: bool,
        #[command(flatten)]
        http: http::HttpFlags,
    },
}

/// `--profile NAME`: the dialect the tools are presented in.
#[derive(Args, Clone, Default)]
pub(crate) struct ProfileOpt {
    /// The tool dialect: rootbound (default), claude-code, gemini-cli, mcp-filesystem or codex. Overrides
    /// the config file's `profile`.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
}

impl ProfileOpt {
    /// The tools of `opts` in the chosen dialect.
    fn tools(&self, opts: &SandboxOpts) -> Result<AgentTools, String> {
        self.tools_for(opts, false)
    }

    /// `serving`: a long-lived server, where the config file's `index` takes effect.
    fn tools_for(&self, opts: &SandboxOpts, serving: bool) -> Result<AgentTools, String> {
        let tools = opts.tools_for(None, serving)?;
        match &self.profile {
            None => Ok(tools),
            Some(name) => match rootbound::Profile::parse(name) {
                Some(p) => Ok(tools.with_profile(p)),
                None => Err(format!(
                    "unknown profile '{name}' (expected one of: {})",
                    rootbound::Profile::names().join(", ")
                )),
            },
        }
    }
}

/// Flags that build the sandbox, shared by every subcommand.
#[derive(Args, Clone, Default)]
pub(crate) struct SandboxOpts {
    /// A config file (TOML, or JSON by the .json extension) defining agents and their tools; replaces
    /// --root, --deny, --write-root and the limit flags.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "roots", "deny", "no_symlinks", "relative_paths", "write_root", "allow_overwrite",
        "allow_delete", "max_write_bytes",
    ])]
    pub config: Option<PathBuf>,
    /// The agent of the config file to serve (may be omitted when the file defines exactly one).
    #[arg(long, value_name = "NAME", requires = "config")]
    pub agent: Option<String>,
    /// A read root (repeatable; tried in order). NAME=DIR names it.
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<String>,
    /// A deny rule in gitignore syntax (repeatable).
    #[arg(long = "deny", value_name = "GLOB")]
    pub deny: Vec<String>,
    /// The limit flags, one per limit field (`--max-read-bytes`, `--timeout-ms`, `-j`...).
    #[command(flatten)]
    pub limits: LimitFlags,
    /// Refuse every symlink instead of following in-root ones.
    #[arg(long)]
    pub no_symlinks: bool,
    /// Show root-relative paths instead of canonical absolute ones.
    #[arg(long)]
    pub relative_paths: bool,
    /// The write root: enables write_file (create-only unless --allow-overwrite), create_directory,
    /// move_file, and edit_file where the write root is readable, all confined to it. It grants no
    /// read: give it (or a directory above it) as a --root too for that.
    #[arg(long, value_name = "DIR")]
    pub write_root: Option<PathBuf>,
    /// Let write_file, edit_file and move_file replace existing files (each call must also say
    /// overwrite: true, or be an edit).
    #[arg(long, requires = "write_root")]
    pub allow_overwrite: bool,
    /// Enable delete_file (regular files under the write root only).
    #[arg(long, requires = "write_root")]
    pub allow_delete: bool,
    /// Largest write_file content in bytes (default 5 MiB).
    #[arg(long, value_name = "N", requires = "write_root")]
    pub max_write_bytes: Option<u64>,
}

impl SandboxOpts {
    pub(crate) fn policy(&self, default_root: Option<&str>) -> Policy {
        let mut p = Policy::default();
        let roots: Vec<String> = if self.roots.is_empty() {
            default_root
                .map(|r| vec![r.to_string()])
                .unwrap_or_default()
        } else {
            self.roots.clone()
        };
        for r in roots {
            let (name, path) = match r.split_once('=') {
                Some((n, p)) if !n.is_empty() && !n.contains('/') => (n.to_string(), p.to_string()),
                _ => (String::new(), r),
            };
            p.roots.push(RootSpec {
                name,
                path: PathBuf::from(path),
            });
        }
        p.deny = self.deny.clone();
        self.limits.apply(&mut p.limits);
        if self.no_symlinks {
            p.symlinks = SymlinkMode::Never;
        }
        if self.relative_paths {
            p.path_display = rootbound::PathDisplay::Relative;
        }
        if let Some(dir) = &self.write_root {
            let mut w = WritePolicy::new(dir);
            w.allow_overwrite = self.allow_overwrite;
            w.allow_delete = self.allow_delete;
            if let Some(n) = self.max_write_bytes {
                w.max_write_bytes = n;
            }
            p.write = Some(w);
        }
        p
    }

    pub(crate) fn sandbox(&self, default_root: Option<&str>) -> Result<Sandbox, String> {
        let policy = self.policy(default_root);
        if policy.roots.is_empty() && policy.write.is_none() {
            return Err(
                "no roots: give --root DIR (repeatable), --write-root DIR, or --config FILE".into(),
            );
        }
        Sandbox::new(policy).map_err(|e| e.message)
    }

    /// The tools: from the config file's agent with --config, else one sandbox from the flags.
    pub(crate) fn tools(&self, default_root: Option<&str>) -> Result<AgentTools, String> {
        self.tools_for(default_root, false)
    }

    /// The config file's `index` starts an index only for a server (`serving`), which indexes as
    /// `"auto"` when the file does not set it: a one-shot command would exit before it is ready.
    fn tools_for(&self, default_root: Option<&str>, serving: bool) -> Result<AgentTools, String> {
        match &self.config {
            Some(file) => {
                let config = Config::load(file).map_err(|e| e.to_string())?;
                let mut agent = config
                    .agent(self.agent.as_deref())
                    .map_err(|e| e.to_string())?
                    .clone();
                if !serving {
                    agent.index = None;
                } else if !agent.index_set() {
                    agent.index = Some(agent.unset_index());
                }
                agent.build().map_err(|e| e.to_string())
            }
            None => self.sandbox(default_root).map(AgentTools::from_sandbox),
        }
    }
}

/// The sandbox serving `tool` (a usage error when the config's agent does not enable it).
fn sandbox_of<'a>(tools: &'a AgentTools, tool: &str) -> Result<&'a Sandbox, String> {
    tools
        .sandbox_for(tool)
        .ok_or_else(|| format!("agent '{}' does not enable the {tool} tool", tools.agent()))
}

pub fn main() -> i32 {
    init_tracing();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_USAGE } else { 0 };
        }
    };
    match cli.cmd {
        Cmd::Call {
            tool,
            args,
            profile,
            compact,
            pretty,
            opts,
        } => {
            let pretty =
                pretty || (!compact && std::io::IsTerminal::is_terminal(&std::io::stdout()));
            call(&tool, args, &profile, pretty, &opts)
        }
        Cmd::Read {
            path,
            offset,
            limit,
            opts,
        } => read(&path, offset, limit, &opts),
        Cmd::Grep(g) => grep::run(*g),
        // Like `call`: no roots is a usage error, not the current directory.
        Cmd::Schema {
            profile,
            format,
            opts,
        } => {
            let Some(f) = rootbound::SchemaFormat::parse(&format) else {
                return usage(&format!(
                    "unknown format '{format}' (expected openai, openai-strict, anthropic, gemini or mcp)"
                ));
            };
            match profile.tools(&opts) {
                Ok(t) => print_json_as(&Value::Array(t.profile_definitions(f)), 0, true),
                Err(e) => usage(&e),
            }
        }
        #[cfg(feature = "mcp")]
        Cmd::Mcp {
            profile,
            client_roots,
            max_in_flight,
            opts,
            index,
            no_index,
            index_verify,
            index_dir,
            no_index_dir,
            http,
        } => {
            let choice = IndexChoice {
                on: index,
                off: no_index,
                verify: index_verify,
                dir: index_dir,
                no_dir: no_index_dir,
            };
            let tools_of = |agent: Option<&str>| -> Result<AgentTools, String> {
                let tools = mcp_tools(&profile, &opts, agent, &choice)?;
                index_dir::say_refusals(&tools);
                Ok(tools)
            };
            if http.http.is_some() {
                return http::serve(&http, &tools_of, client_roots, max_in_flight);
            }
            match tools_of(None) {
                Ok(t) => crate::serve_mcp(t, client_roots, max_in_flight),
                Err(e) => usage(&e),
            }
        }
        #[cfg(not(feature = "mcp"))]
        Cmd::Mcp { .. } => usage("this rootbound was built without the `mcp` feature"),
    }
}

/// `rootbound mcp`'s index flags.
#[cfg(feature = "mcp")]
struct IndexChoice {
    /// --index: every root.
    on: bool,
    /// --no-index.
    off: bool,
    /// --index-verify.
    verify: Option<String>,
    /// --index-dir.
    dir: Option<std::path::PathBuf>,
    /// --no-index-dir.
    no_dir: bool,
}

/// The tools `rootbound mcp` serves for `agent` of the config file (`None`: --agent, or the only
/// one), with the index chosen: --index (every root) or --no-index override the config file's
/// `index`; when neither is given and the file does not set it, roots whose filesystem reports
/// changes are indexed (`"auto"`).
#[cfg(feature = "mcp")]
fn mcp_tools(
    profile: &ProfileOpt,
    opts: &SandboxOpts,
    agent: Option<&str>,
    choice: &IndexChoice,
) -> Result<AgentTools, String> {
    let mut opts = opts.clone();
    if let Some(a) = agent {
        if opts.config.is_none() {
            return Err(format!(
                "agent '{a}' needs --config FILE, the file defining it"
            ));
        }
        opts.agent = Some(a.to_string());
    }
    let flagged =
        choice.on || choice.off || choice.verify.is_some() || choice.dir.is_some() || choice.no_dir;
    // A flag overrides the config file's `index`, which then does not start one of its own.
    let tools = profile.tools_for(&opts, !flagged)?;
    if !flagged {
        return Ok(match opts.config {
            Some(_) => tools,
            None => tools.with_index_options(auto_index()),
        });
    }
    if choice.off {
        return Ok(tools);
    }
    let verify = match choice.verify.as_deref() {
        Some("strict") => rootbound::IndexVerify::Strict,
        _ => rootbound::IndexVerify::Events,
    };
    let when = match choice.on {
        true => rootbound::IndexWhen::Always,
        false => rootbound::IndexWhen::Auto,
    };
    let dir = match &choice.dir {
        _ if choice.no_dir => rootbound::IndexDir::None,
        // Relative to the operator's working directory.
        Some(d) => rootbound::IndexDir::Path(std::path::absolute(d).unwrap_or(d.clone())),
        None => rootbound::IndexDir::UserCache,
    };
    let o = rootbound::IndexOptions::default()
        .when(when)
        .verify(verify)
        .index_dir(dir);
    Ok(tools.with_index_options(o))
}

/// The index a server starts when nothing chooses: the roots whose filesystem reports changes,
/// saved in the user's cache directory.
fn auto_index() -> rootbound::IndexOptions {
    rootbound::IndexOptions::default()
        .when(rootbound::IndexWhen::Auto)
        .index_dir(rootbound::IndexDir::UserCache)
}

fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("ROOTBOUND_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // No colour codes in log files (an MCP client usually captures stderr to a file).
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

fn usage(msg: &str) -> i32 {
    eprintln!("rootbound: {msg}");
    EXIT_USAGE
}

/// JSON on stdout, indented when `pretty`.
fn print_json_as(v: &Value, code: i32, pretty: bool) -> i32 {
    let mut out = std::io::stdout().lock();
    let _ = if pretty {
        serde_json::to_writer_pretty(&mut out, v)
    } else {
        serde_json::to_writer(&mut out, v)
    };
    let _ = writeln!(out);
    code
}

fn call(
    tool: &str,
    args: Option<String>,
    profile: &ProfileOpt,
    pretty: bool,
    opts: &SandboxOpts,
) -> i32 {
    let text = match args {
        Some(a) => a,
        None => {
            let mut s = String::new();
            if let Err(e) = std::io::stdin()
                .take(64 * 1024 * 1024)
                .read_to_string(&mut s)
            {
                return usage(&format!("cannot read arguments from stdin: {e}"));
            }
            s
        }
    };
    let args: Value = if text.trim().is_empty() {
        Value::Object(Default::default())
    } else {
        match serde_json::from_str(&text) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) => return usage("arguments must be a JSON object"),
            Err(e) => return usage(&format!("arguments are not valid JSON: {e}")),
        }
    };
    let tools = match profile.tools(opts) {
        Ok(t) => t,
        Err(e) => return usage(&e),
    };
    // The native surface prints the engine's JSON (media data included); a dialect its structured
    // result (what MCP sends as structuredContent).
    let result = if tools.profile() == rootbound::Profile::Rootbound {
        tools.call_result(tool, args)
    } else {
        tools.present(tool, args).map(|p| p.structured)
    };
    match result {
        Ok(v) => print_json_as(&v, 0, pretty),
        Err(e) => print_json_as(&e.to_json(), EXIT_TOOL, pretty),
    }
}

fn read(path: &str, offset: Option<u64>, limit: Option<u64>, opts: &SandboxOpts) -> i32 {
    let tools = match opts.tools(Some(".")) {
        Ok(t) => t,
        Err(e) => return usage(&e),
    };
    let sb = match sandbox_of(&tools, "read_file") {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    let args = {
        let mut args_ = rootbound::ReadArgs::default();
        args_.path = path.into();
        args_.offset = offset;
        args_.limit = limit;
        args_
    };
    match sb.read_file(&args) {
        Ok(r) => {
            // The shared renderer: the same words a model reads over MCP.
            let mut out = std::io::stdout().lock();
            let text = rootbound::render::read(&r);
            let _ = out.write_all(text.as_bytes());
            if r.binary || r.truncated {
                let _ = writeln!(out);
            }
            0
        }
        Err(e) => {
            eprintln!("rootbound: {}: {}", e.code, e.message);
            EXIT_TOOL
        }
    }
}
