//! The `rootbound` command: `call` (JSON in, JSON out), `read` and `grep` for people, `schema`, `mcp`.

mod cli;

fn main() {
    std::process::exit(cli::main());
}

/// `rootbound mcp`: the library's MCP server on stdio. Returns the process exit code.
#[cfg(feature = "mcp")]
fn serve_mcp(
    tools: rootbound::config::AgentTools,
    client_roots: bool,
    max_in_flight: Option<usize>,
) -> i32 {
    let mut server = rootbound::mcp::McpServer::new(tools).with_client_roots(client_roots);
    if let Some(n) = max_in_flight {
        server = server.with_max_in_flight(n);
    }
    match server.serve_stdio() {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("rootbound: {e}");
            1
        }
    }
}
