//! The MCP server (feature `mcp`): the enabled tools of an [`AgentTools`] over the Model Context
//! Protocol, with the official Rust SDK (rmcp). `rootbound mcp` is [`serve_stdio`]; a host with its
//! own rmcp server or transport mounts [`McpServer`], an rmcp [`ServerHandler`].
//!
//! It only translates: each `tools/call` runs [`ToolsWithin::call_result`](crate::config::ToolsWithin::call_result) on Tokio's blocking
//! pool (see [`crate::async_tools`]), and the JSON result comes back as `structuredContent` plus a text
//! rendering for models. Every failure of a call, including an unknown tool or bad arguments, is a
//! tool error (`isError: true`, text starting with the error code), never a protocol error.
//!
//! * **Cancellation.** The client's `notifications/cancelled` (or the session ending, which drops the
//!   call) cancels the call's [`Budget`]: the sandbox stops at its next check instead of its deadline.
//! * **Progress.** When a request carries `_meta.progressToken`, a call still running sends
//!   `notifications/progress` at most every [`PROGRESS_EVERY`]: `progress` is the number of files
//!   searched so far, the message also gives the bytes (see [`Budget::progress`]).
//! * **Calls in flight.** At most [`McpServer::max_in_flight`] calls run at once (by default the
//!   search pool's threads + 4); the others wait their turn, so 1,000 pipelined requests do not
//!   become 1,000 blocking threads.
//!
//! [`serve_stdio`] writes nothing to stdout but protocol messages; logs go to `tracing`. Its
//! transport is our own (`LineTransport`): it reads each line, answers the ones that are not a valid
//! request itself (parse errors, invalid requests, bad params), and hands the rest to rmcp.
//!
//! ```no_run
//! let sb = rootbound::Sandbox::builder().root(".").build().unwrap();
//! let tools = rootbound::config::AgentTools::from_sandbox(sb);
//! rootbound::mcp::serve_stdio(tools).unwrap(); // until the client closes stdin
//! ```

#[cfg(feature = "http")]
pub mod http;
mod roots;
mod wire;

pub use wire::LineTransport;

use crate::async_tools::AsyncTools;
use crate::config::AgentTools;
use crate::{Block, Budget, Error, ErrorCode, Presented, Progress};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities,
    ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{NotificationContext, Peer, RequestContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use roots::ClientRoots;
use serde_json::{json, Value};
use std::io;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// A call still running reports its progress at most this often (when the request asked for it).
pub const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// Calls in flight on top of the search pool's threads, by default.
const IN_FLIGHT_EXTRA: usize = 4;

/// The MCP server of one agent's tools: an rmcp [`ServerHandler`] (tools only; resources and
/// prompts are announced and empty). Cheap to clone; clones share the tools and the bound on calls
/// in flight.
///
/// Mount it on any rmcp transport (`McpServer::new(tools).serve(transport)` with
/// [`rmcp::ServiceExt`]), or run it on stdio with [`McpServer::serve_stdio`].
#[derive(Clone)]
pub struct McpServer {
    tools: AsyncTools,
    listing: Arc<Vec<Tool>>,
    instructions: Arc<str>,
    in_flight: Arc<Semaphore>,
    max_in_flight: usize,
    /// With client roots on: the roots the client announced narrow the tools (see `roots`).
    client_roots: Option<ClientRoots>,
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field("agent", &self.tools.tools().agent())
            .field("tools", &self.listing.len())
            .field("max_in_flight", &self.max_in_flight)
            .finish()
    }
}

impl McpServer {
    /// The server of `tools`, with the default bound on calls in flight (see
    /// [`McpServer::default_max_in_flight`]).
    pub fn new(tools: AgentTools) -> Self {
        let max = Self::default_max_in_flight(&tools);
        McpServer {
            listing: Arc::new(listing(&tools)),
            instructions: instructions(&tools).into(),
            tools: AsyncTools::new(tools),
            in_flight: Arc::new(Semaphore::new(max)),
            max_in_flight: max,
            client_roots: None,
        }
    }

    /// Lets the roots the client announces (`roots/list`, and again on
    /// `notifications/roots/list_changed`) narrow the served roots to those inside the operator's
    /// roots; they never widen them. Off by default (`rootbound mcp --client-roots`).
    pub fn with_client_roots(mut self, on: bool) -> Self {
        self.client_roots = on.then(|| ClientRoots::new(self.tools.shared()));
        self
    }

    /// The handler of one more HTTP session: a clone sharing the tools and the bound on calls in
    /// flight, with client roots of its own (one session's roots never narrow another's).
    #[cfg(feature = "http")]
    fn for_session(&self) -> Self {
        let mut s = self.clone();
        if s.client_roots.is_some() {
            s.client_roots = Some(ClientRoots::new(self.tools.shared()));
        }
        s
    }

    /// The tools a call is served by: the operator's, or as narrowed by the client's roots.
    async fn current_tools(&self, peer: &Peer<RoleServer>) -> Arc<AgentTools> {
        match &self.client_roots {
            Some(c) => c.current(peer).await,
            None => Arc::clone(self.tools.shared()),
        }
    }

    /// At most `n` (at least 1) tool calls run at once; later ones wait in arrival order. A call
    /// cancelled while it waits is answered at once with `CANCELLED`.
    pub fn with_max_in_flight(mut self, n: usize) -> Self {
        let n = n.clamp(1, Semaphore::MAX_PERMITS);
        self.in_flight = Arc::new(Semaphore::new(n));
        self.max_in_flight = n;
        self
    }

    /// The bound on tool calls running at once.
    pub fn max_in_flight(&self) -> usize {
        self.max_in_flight
    }

    /// The default bound: the threads of the largest search pool among the sandboxes of `tools`
    /// (`limits.threads`, 0 = CPUs) plus 4, so the pool stays busy while the calls in flight walk
    /// and assemble their pages, and small calls are not queued behind as many big ones.
    pub fn default_max_in_flight(tools: &AgentTools) -> usize {
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        let threads = tools
            .sandboxes()
            .iter()
            .map(|s| match s.policy().limits.threads {
                0 => cpus,
                n => n,
            })
            .max()
            .unwrap_or(cpus);
        threads.clamp(1, 64) + IN_FLIGHT_EXTRA
    }

    /// The limits the transport reads before a call has a sandbox (`max_request_bytes`,
    /// `max_call_memory`): the first sandbox's, as the HTTP door reads its rows.
    fn limits(&self) -> crate::Limits {
        let first = self.tools().sandboxes().first();
        first.map(|s| s.policy().limits.clone()).unwrap_or_default()
    }

    /// The tools this server calls.
    pub fn tools(&self) -> &AgentTools {
        self.tools.tools()
    }

    /// Serves on this process's stdin and stdout until the client closes stdin, on a Tokio runtime
    /// of its own: one thread for the protocol (a blocking pool sized for the calls in flight runs
    /// the calls), and a thread each to read stdin and write stdout.
    ///
    /// Why one thread: the protocol's work per call is a few microseconds (parse, route, render),
    /// while each hand-off between runtime threads is a futex wake and a context switch. On two
    /// worker threads and Tokio's own stdin and stdout (each read and write a task on the blocking
    /// pool), a `list_roots` round trip was mostly thread switches; see BENCHMARKS.md (`ixpage`).
    pub fn serve_stdio(self) -> io::Result<()> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            // The calls in flight, with a few to spare.
            .max_blocking_threads(self.max_in_flight + 4)
            .enable_all()
            .thread_name("rootbound-mcp")
            .build()?;
        let names: Vec<&str> = self.listing.iter().map(|t| t.name.as_ref()).collect();
        tracing::info!(agent = self.tools().agent(), tools = ?names,
            max_in_flight = self.max_in_flight, "serving MCP on stdio");
        let limits = self.limits();
        // Inside the runtime: the transport starts its reading task on it.
        let (transport, written) = runtime.block_on(async {
            LineTransport::stdio(
                limits.max_request_bytes,
                limits.max_call_memory,
                wire::DRAIN_LIMIT,
            )
        })?;
        let result = runtime.block_on(self.serve_transport(transport));
        // Calls still running were cancelled when the session dropped them; do not wait for them
        // (or for stdin) here.
        runtime.shutdown_timeout(Duration::from_millis(500));
        // The replies queued for stdout are written before the process exits (unless the client
        // stopped reading them).
        written.wait(Duration::from_millis(500));
        result
    }

    /// Serves newline-delimited JSON-RPC read from `read` and written to `write` (a socket, a pipe)
    /// until `read` ends, on the current Tokio runtime. Every input line that is not a valid request
    /// is answered (see [`LineTransport`]).
    pub async fn serve_lines<R, W>(self, read: R, write: W) -> io::Result<()>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Send + 'static,
    {
        let limits = self.limits();
        let transport = LineTransport::with_limits(
            read,
            write,
            limits.max_request_bytes,
            limits.max_call_memory,
            wire::DRAIN_LIMIT,
        );
        self.serve_transport(transport).await
    }

    /// Serves on `transport` until its input ends.
    async fn serve_transport(self, transport: LineTransport) -> io::Result<()> {
        if let Some(c) = &self.client_roots {
            c.follow_input(transport.input_ended());
        }
        let running = self
            .serve(transport)
            .await
            .map_err(|e| io::Error::other(format!("MCP initialization failed: {e}")))?;
        match running.waiting().await {
            Ok(reason) => {
                tracing::info!(?reason, "MCP session ended");
                Ok(())
            }
            Err(e) => Err(io::Error::other(format!("MCP session failed: {e}"))),
        }
    }

    /// Runs one call: waits for a slot, then runs it on the blocking pool, cancelling it when the
    /// client cancels the request, and sending progress when the request asked for it.
    async fn run_call(
        &self,
        name: &str,
        args: Value,
        context: &RequestContext<RoleServer>,
    ) -> Result<Presented, Error> {
        let cancelled = || Error::new(ErrorCode::Cancelled, "the call was cancelled");
        // The slot is held by the blocking call itself: a call whose future is dropped (cancelled)
        // keeps its slot until it has stopped.
        // Biased: a free slot wins over a cancellation already seen, so the call runs with its
        // budget cancelled and leaves its audit line (`CANCELLED`) rather than vanish unaudited.
        let permit = tokio::select! {
            biased;
            permit = Arc::clone(&self.in_flight).acquire_owned() => match permit {
                Ok(p) => p,
                Err(_) => return Err(cancelled()),
            },
            _ = context.ct.cancelled() => return Err(cancelled()),
        };
        // The parsed arguments stay held while the call runs: they count against its memory.
        let budget = Budget::new().holding(wire::value_bytes(&args));
        let tools = self.current_tools(&context.peer).await;
        let call = crate::async_tools::present_holding(tools, name, args, &budget, permit);
        tokio::pin!(call);
        let token = context.meta.get_progress_token();
        let start = tokio::time::Instant::now() + PROGRESS_EVERY;
        let mut tick = tokio::time::interval_at(start, PROGRESS_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut reported = Progress::default();
        let mut cancel_seen = false;
        loop {
            tokio::select! {
                result = &mut call => return result,
                _ = context.ct.cancelled(), if !cancel_seen => {
                    cancel_seen = true;
                    budget.cancel();
                }
                _ = tick.tick(), if token.is_some() && !cancel_seen => {
                    // MCP wants `progress` to increase with every notification: report when the
                    // count of files searched has grown (the bytes ride along in the message).
                    let now = budget.progress();
                    if now.files > reported.files {
                        reported = now;
                        let Some(token) = token.clone() else { continue };
                        let mut p = ProgressNotificationParam::new(token, now.files as f64);
                        p.message = Some(format!(
                            "{} files searched ({} bytes)",
                            now.files, now.bytes
                        ));
                        if let Err(e) = context.peer.notify_progress(p).await {
                            tracing::debug!(error = %e, "cannot send a progress notification");
                        }
                    }
                }
            }
        }
    }
}

impl ServerHandler for McpServer {
    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        if let Some(c) = &self.client_roots {
            c.refresh(context.peer);
        }
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        if let Some(c) = &self.client_roots {
            c.refresh(context.peer);
        }
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
        .with_server_info(
            Implementation::new("rootbound", env!("CARGO_PKG_VERSION"))
                .with_title("rootbound: root-bound file tools"),
        )
        .with_instructions(self.instructions.to_string())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.listing.to_vec()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.to_string();
        // Arguments that are not an object were taken out by the transport and come back here, so the
        // sandbox refuses them like any other bad argument (a tool error, not a protocol error).
        // Over stdio, an object's arguments come beside the request (see `wire::Arguments`).
        let beside = context.extensions.get::<wire::Arguments>();
        let args = match context.extensions.get::<wire::BadArguments>() {
            Some(bad) => bad.0.clone(),
            None => match beside.and_then(wire::Arguments::take) {
                Some(a) => a,
                None => request.arguments.map(Value::Object).unwrap_or(json!({})),
            },
        };
        // Over HTTP, the call (and its audit line) runs in a span naming the caller's token.
        #[cfg(feature = "http")]
        let span = http::call_span(&context.extensions);
        #[cfg(not(feature = "http"))]
        let span = tracing::Span::none();
        let call = tracing::Instrument::instrument(self.run_call(&name, args, &context), span);
        let result = match call.await {
            Ok(presented) => presented_result(presented),
            Err(e) => tool_error(&e),
        };
        Ok(result.into())
    }
}

/// Serves the enabled tools of `tools` on stdin and stdout until the client closes stdin (the
/// `rootbound mcp` command). See [`McpServer::serve_stdio`].
pub fn serve_stdio(tools: AgentTools) -> io::Result<()> {
    McpServer::new(tools).serve_stdio()
}

/// A presented result (see [`crate::Presented`]) as MCP content blocks and structured content.
fn presented_result(p: Presented) -> CallToolResult {
    let blocks = p
        .blocks
        .into_iter()
        .map(|b| match b {
            Block::Text(t) => ContentBlock::text(t),
            Block::Image { data, mime_type } => ContentBlock::image(data, mime_type),
            Block::Audio { data, mime_type } => ContentBlock::audio(data, mime_type),
            Block::Resource {
                uri,
                mime_type,
                blob,
            } => ContentBlock::resource(
                rmcp::model::ResourceContents::blob(blob, uri).with_mime_type(mime_type),
            ),
        })
        .collect();
    let mut r = CallToolResult::success(blocks);
    r.structured_content = Some(p.structured);
    r
}

fn tool_error(e: &Error) -> CallToolResult {
    // A dialect that words its errors as the tool it replaces (mcp-filesystem) gives the text as
    // `said`; the code and rootbound's message stay in the structured error.
    let said = e.details.as_ref().and_then(|d| d.get("said")?.as_str());
    let text = match said {
        Some(s) => s.to_string(),
        None => {
            let mut text = format!("{}: {}", e.code, e.message);
            if let Some(d) = &e.details {
                text.push_str(&format!("\n{}", Value::Object(d.clone())));
            }
            text
        }
    };
    // The error object is structured too; every tool's outputSchema admits it beside the result.
    let mut r = CallToolResult::error(vec![ContentBlock::text(text)]);
    r.structured_content = Some(e.to_json());
    r
}

/// The MCP listing of the enabled tools: schemas, titles, annotations.
fn listing(tools: &AgentTools) -> Vec<Tool> {
    tools
        .profile_tools()
        .into_iter()
        .map(|t| {
            // One rule for the annotations, the tools' own (`ToolInfo::annotations`).
            let ann: ToolAnnotations = serde_json::from_value(t.annotations()).unwrap_or_default();
            let schema = match t.input_schema {
                Value::Object(o) => o,
                _ => serde_json::Map::new(),
            };
            let mut tool = Tool::new(t.name, t.description, schema)
                .with_title(t.title)
                .annotate(ann);
            if let Value::Object(out) = t.output_schema {
                tool = tool.with_raw_output_schema(Arc::new(out));
            }
            tool
        })
        .collect()
}

/// The server's instructions: which tools read, which write, and how errors look.
fn instructions(tools: &AgentTools) -> String {
    let listed = tools.profile_tools();
    let reads: Vec<&str> = listed
        .iter()
        .filter(|t| t.read_only)
        .map(|t| t.name)
        .collect();
    let writes: Vec<&str> = listed
        .iter()
        .filter(|t| !t.read_only)
        .map(|t| t.name)
        .collect();
    let mut instructions = String::new();
    if !reads.is_empty() {
        instructions.push_str(&format!(
            "Read-only file tools confined to the configured roots: {}. Results name canonical paths; \
             when a result says truncated, page with next_offset / next_cursor. ",
            reads.join(", ")
        ));
    }
    if !writes.is_empty() {
        instructions.push_str(&format!(
            "Write tools confined to one write root: {}. write_file creates new files; it replaces one \
             only when the call says overwrite=true and the policy allows it. ",
            writes.join(", ")
        ));
    }
    instructions.push_str("Errors start with a stable code such as OUT_OF_SANDBOX or NOT_FOUND.");
    instructions
}
