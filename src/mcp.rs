//! `rootbound mcp`: the enabled tools over MCP on stdio, with the official Rust SDK (rmcp).
//!
//! It only translates: each `tools/call` goes to [`AgentTools::call_result`] on Tokio's blocking pool
//! (so a slow grep never holds up a read; each call is bounded by its own deadline in the sandbox), and
//! the JSON result comes back as `structuredContent` plus a text rendering for models. Every failure of
//! a call, including an unknown tool or bad arguments, is a tool error (`isError: true`, text starting
//! with the error code), never a protocol error. Nothing is written to stdout but protocol messages;
//! logs go to stderr.
//!
//! The transport is our own ([`wire`]): it reads each line, answers the ones that are not a valid
//! request itself (parse errors, invalid requests, bad params), and hands the rest to rmcp.

mod roots;
mod wire;

use roots::ClientRoots;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use rootbound::config::AgentTools;
use rootbound::{Block, Budget, Error, ErrorCode, Presented};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// The MCP server: the agent's tools and their MCP listing.
struct Server {
    tools: Arc<AgentTools>,
    listing: Vec<Tool>,
    instructions: String,
    /// With `--client-roots`: the roots the client announced narrow `tools` (see [`ClientRoots`]).
    client_roots: Option<ClientRoots>,
}

impl Server {
    fn new(tools: AgentTools) -> Self {
        let listing = tools
            .profile_tools()
            .into_iter()
            .map(|t| {
                let schema = match t.input_schema {
                    Value::Object(o) => o,
                    _ => serde_json::Map::new(),
                };
                let mut ann = ToolAnnotations::new()
                    .read_only(t.read_only)
                    .open_world(false);
                if !t.read_only {
                    ann = ann.destructive(t.destructive);
                } else {
                    ann = ann.idempotent(true);
                }
                let mut tool = Tool::new(t.name, t.description, schema)
                    .with_title(t.title)
                    .annotate(ann);
                if let Value::Object(out) = t.output_schema {
                    tool = tool.with_raw_output_schema(Arc::new(out));
                }
                tool
            })
            .collect();
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
        instructions
            .push_str("Errors start with a stable code such as OUT_OF_SANDBOX or NOT_FOUND.");
        Server {
            tools: Arc::new(tools),
            listing,
            instructions,
            client_roots: None,
        }
    }
}

impl Server {
    /// The tools a call is served by: the operator's, or as narrowed by the client's roots.
    async fn current_tools(&self, peer: &rmcp::service::Peer<RoleServer>) -> Arc<AgentTools> {
        match &self.client_roots {
            Some(c) => c.current(peer).await,
            None => Arc::clone(&self.tools),
        }
    }
}

impl ServerHandler for Server {
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
        .with_instructions(self.instructions.clone())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.listing.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let tools = self.current_tools(&context.peer).await;
        let name = request.name.to_string();
        // Arguments that are not an object were taken out by the transport and come back here, so the
        // sandbox refuses them like any other bad argument (a tool error, not a protocol error).
        let args = match context.extensions.get::<wire::BadArguments>() {
            Some(bad) => bad.0.clone(),
            None => request.arguments.map(Value::Object).unwrap_or(json!({})),
        };
        let task_name = name.clone();
        // The client's notifications/cancelled (or the session ending, which drops this future)
        // cancels the call's budget: the sandbox stops at its next check instead of its deadline.
        let budget = Budget::new();
        let _cancel_if_dropped = CancelOnDrop(budget.clone());
        let call_budget = budget.clone();
        let mut task =
            tokio::task::spawn_blocking(move || tools.present_with(&task_name, args, &call_budget));
        let outcome = tokio::select! {
            joined = &mut task => joined,
            _ = context.ct.cancelled() => {
                budget.cancel();
                task.await
            }
        };
        let result = match outcome {
            Ok(Ok(presented)) => presented_result(presented),
            Ok(Err(e)) => tool_error(&e),
            Err(join) => {
                tracing::error!(tool = %name, error = %join, "tool call panicked");
                tool_error(&Error::new(
                    ErrorCode::IoError,
                    format!("the {name} call failed internally"),
                ))
            }
        };
        Ok(result.into())
    }
}

/// A presented result (see [`rootbound::Presented`]) as MCP content blocks and structured content.
fn presented_result(p: Presented) -> CallToolResult {
    let blocks = p
        .blocks
        .into_iter()
        .map(|b| match b {
            Block::Text(t) => ContentBlock::text(t),
            Block::Image { data, mime_type } => ContentBlock::image(data, mime_type),
            Block::Audio { data, mime_type } => ContentBlock::audio(data, mime_type),
            _ => ContentBlock::text(String::new()),
        })
        .collect();
    let mut r = CallToolResult::success(blocks);
    r.structured_content = Some(p.structured);
    r
}

/// Cancels a budget when dropped (harmless once its call has returned).
struct CancelOnDrop(Budget);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

fn tool_error(e: &Error) -> CallToolResult {
    let mut text = format!("{}: {}", e.code, e.message);
    if let Some(d) = &e.details {
        text.push_str(&format!("\n{}", Value::Object(d.clone())));
    }
    // The error object is structured too; every tool's outputSchema admits it beside the result.
    let mut r = CallToolResult::error(vec![ContentBlock::text(text)]);
    r.structured_content = Some(e.to_json());
    r
}

/// Serves until the client closes stdin. Returns the process exit code.
pub(crate) fn serve(tools: AgentTools, client_roots: bool) -> i32 {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("rootbound-mcp")
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("rootbound: cannot start the async runtime: {e}");
            return 2;
        }
    };
    let names: Vec<&str> = tools
        .profile_tools()
        .iter()
        .map(|t| t.name)
        .collect::<Vec<_>>();
    tracing::info!(agent = tools.agent(), tools = ?names, "serving MCP on stdio");
    let mut server = Server::new(tools);
    if client_roots {
        server.client_roots = Some(ClientRoots::new(&server.tools));
    }
    let code = runtime.block_on(async move {
        let transport =
            wire::LineTransport::new(tokio::io::stdin(), tokio::io::stdout(), wire::MAX_LINE);
        match server.serve(transport).await {
            Ok(running) => match running.waiting().await {
                Ok(reason) => {
                    tracing::info!(?reason, "MCP session ended");
                    0
                }
                Err(e) => {
                    tracing::error!(error = %e, "MCP session failed");
                    1
                }
            },
            Err(e) => {
                eprintln!("rootbound: MCP initialization failed: {e}");
                1
            }
        }
    });
    // Calls still running finish on their own deadline; do not wait for them (or for stdin) here.
    runtime.shutdown_timeout(Duration::from_millis(500));
    code
}
