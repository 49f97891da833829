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

mod wire;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use rootbound::config::AgentTools;
use rootbound::{Budget, Error, ErrorCode, ReadResult};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// The MCP server: the agent's tools and their MCP listing.
struct Server {
    tools: Arc<AgentTools>,
    listing: Vec<Tool>,
    instructions: String,
}

impl Server {
    fn new(tools: AgentTools) -> Self {
        let listing = tools
            .tools()
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
        let names: Vec<&str> = tools.tools().iter().map(|t| t.name).collect();
        let reads: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| !rootbound::config::WRITE_TOOLS.contains(n))
            .collect();
        let writes: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| rootbound::config::WRITE_TOOLS.contains(n))
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
        }
    }
}

impl ServerHandler for Server {
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
        let tools = Arc::clone(&self.tools);
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
        let mut task = tokio::task::spawn_blocking(move || {
            tools.call_result_with(&task_name, args, &call_budget)
        });
        let outcome = tokio::select! {
            joined = &mut task => joined,
            _ = context.ct.cancelled() => {
                budget.cancel();
                task.await
            }
        };
        let result = match outcome {
            Ok(Ok(value)) if name == "read_media_file" => media_result(value),
            Ok(Ok(value)) => {
                let text = render(&name, &value);
                let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
                r.structured_content = Some(value);
                r
            }
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

/// An image or audio file as the matching MCP content block; the structured result keeps the
/// metadata and leaves the bytes to the block.
fn media_result(mut value: Value) -> CallToolResult {
    let data = value["data"].as_str().unwrap_or_default().to_string();
    let mime = value["mime_type"].as_str().unwrap_or_default().to_string();
    let block = if value["kind"] == "audio" {
        ContentBlock::audio(data, mime)
    } else {
        ContentBlock::image(data, mime)
    };
    if let Some(o) = value.as_object_mut() {
        o.remove("data");
    }
    let mut r = CallToolResult::success(vec![block]);
    r.structured_content = Some(value);
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

/// The text a model reads: content as text, matches as lines, and a footer telling how to go on.
fn render(tool: &str, v: &Value) -> String {
    match tool {
        "read_file" => render_read(v),
        "grep_search" | "glob" => render_search(tool, v),
        "list_dir" => render_list(v),
        "stat" => render_stat(v),
        "write_file" | "delete_file" => render_write(v),
        "edit_file" => render_edit(v),
        _ => serde_json::to_string_pretty(v).unwrap_or_default(),
    }
}

fn render_edit(v: &Value) -> String {
    let verb = if v["dry_run"] == true {
        "would change"
    } else {
        "changed"
    };
    let mut out = format!(
        "{} {} ({} replacement(s), {} bytes now)\n",
        verb,
        v["path"].as_str().unwrap_or(""),
        v["replacements"],
        v["size"]
    );
    if let Some(d) = v["diff"].as_str() {
        out.push_str(d);
    }
    out
}

fn render_read(v: &Value) -> String {
    let Ok(r) = serde_json::from_value::<ReadResult>(v.clone()) else {
        return serde_json::to_string_pretty(v).unwrap_or_default();
    };
    let mut out = if r.binary {
        format!("[binary file: {} bytes; content not shown]", r.total_bytes)
    } else {
        r.content.clone()
    };
    if let Some(notice) = r.truncation_notice() {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&notice);
    }
    out
}

fn render_search(tool: &str, v: &Value) -> String {
    let matches = v["matches"].as_str().unwrap_or("");
    let n = v["match_lines"].as_u64().unwrap_or(0);
    let mut out = String::new();
    if matches.is_empty() {
        out.push_str(if tool == "glob" {
            "No files matched.\n"
        } else {
            "No matches.\n"
        });
    } else {
        out.push_str(matches);
        if !matches.ends_with('\n') {
            out.push('\n');
        }
    }
    let mut footer = vec![format!(
        "{n} {}",
        match (tool == "glob", n == 1) {
            (true, true) => "path",
            (true, false) => "paths",
            (false, true) => "result",
            (false, false) => "results",
        }
    )];
    if v["truncated"].as_bool() == Some(true) {
        let mut how = "truncated: more results exist".to_string();
        if let Some(c) = v["next_cursor"].as_str() {
            how.push_str(&format!("; call again with cursor=\"{c}\""));
        }
        if let Some(o) = v["next_offset"].as_u64() {
            how.push_str(&format!(" (or offset={o})"));
        }
        footer.push(how);
    } else {
        footer.push("complete".into());
    }
    if v["timed_out"].as_bool() == Some(true) {
        footer.push("timed out: the page holds what was found before the deadline".into());
    }
    if let Some(t) = v["total"].as_u64() {
        footer.push(format!("total={t}"));
    }
    if let Some(st) = v.get("stats") {
        let mut s = format!(
            "files searched={}",
            st["files_searched"].as_u64().unwrap_or(0)
        );
        if let Some(sk) = st["skipped"].as_object() {
            let parts: Vec<String> = sk
                .iter()
                .filter(|(_, c)| c.as_u64().unwrap_or(0) > 0)
                .map(|(k, c)| format!("{k}={c}"))
                .collect();
            if !parts.is_empty() {
                s.push_str(&format!("; skipped: {}", parts.join(", ")));
            }
        }
        footer.push(s);
    }
    out.push_str(&format!("[{}]", footer.join("; ")));
    out
}

fn render_list(v: &Value) -> String {
    let mut out = String::new();
    if let Some(p) = v["path"].as_str() {
        out.push_str(&format!("{p}:\n"));
    }
    for e in v["entries"].as_array().into_iter().flatten() {
        let name = e["name"].as_str().unwrap_or("");
        let kind = e["kind"].as_str().unwrap_or("");
        let size = e["size"].as_u64().unwrap_or(0);
        match kind {
            "dir" => out.push_str(&format!("{name}/\n")),
            "file" => out.push_str(&format!("{name}\t{size} bytes\n")),
            other => out.push_str(&format!("{name}\t({other})\n")),
        }
    }
    let mut footer = vec![format!(
        "{} of {} entries",
        v["entries"].as_array().map_or(0, Vec::len),
        v["total"].as_u64().unwrap_or(0)
    )];
    if v["truncated"].as_bool() == Some(true) {
        footer.push(format!(
            "truncated: call again with offset={}",
            v["next_offset"].as_u64().unwrap_or(0)
        ));
    }
    for k in ["hidden", "ignored"] {
        let c = v[k].as_u64().unwrap_or(0);
        if c > 0 {
            footer.push(format!("{c} {k} entries left out"));
        }
    }
    out.push_str(&format!("[{}]", footer.join("; ")));
    out
}

fn render_stat(v: &Value) -> String {
    let mut out = String::new();
    for k in ["path", "kind", "size", "mtime", "lines"] {
        match &v[k] {
            Value::Null => {}
            Value::String(s) => out.push_str(&format!("{k}: {s}\n")),
            other => out.push_str(&format!("{k}: {other}\n")),
        }
    }
    out
}

fn render_write(v: &Value) -> String {
    let path = v["path"].as_str().unwrap_or("");
    if v["deleted"].as_bool() == Some(true) {
        return format!("deleted {path}");
    }
    let how = if v["replaced"].as_bool() == Some(true) {
        "replaced"
    } else {
        "created"
    };
    format!(
        "{how} {path} ({} bytes)",
        v["bytes_written"].as_u64().unwrap_or(0)
    )
}

/// Serves until the client closes stdin. Returns the process exit code.
pub(crate) fn serve(tools: AgentTools) -> i32 {
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
    let names: Vec<&str> = tools.tools().iter().map(|t| t.name).collect::<Vec<_>>();
    tracing::info!(agent = tools.agent(), tools = ?names, "serving MCP on stdio");
    let server = Server::new(tools);
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
