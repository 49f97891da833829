//! `rootbound mcp --http ADDR`: the MCP server over Streamable HTTP (see `rootbound::mcp::http`).

use clap::Args;
#[cfg(feature = "mcp")]
use rootbound::config::AgentTools;
use std::path::PathBuf;

/// The flags of the HTTP transport.
#[derive(Args, Clone, Default)]
pub(crate) struct HttpFlags {
    /// Serve MCP over Streamable HTTP at ADDR (e.g. 127.0.0.1:8765; port 0 picks a free one) at the
    /// path /mcp, instead of stdio. An address that is not loopback needs --http-token-file.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<String>,
    /// Bearer tokens (the file must be private to its owner): one token, or lines
    /// `NAME TOKEN [AGENT]` each admitting a caller to an agent of --config (default: --agent).
    #[arg(long, value_name = "FILE", requires = "http")]
    pub http_token_file: Option<PathBuf>,
    /// A Host header value to admit besides loopback names and the bound address (repeatable), as
    /// `name` (any port) or `name:port`.
    #[arg(long, value_name = "HOST", requires = "http")]
    pub http_allowed_host: Vec<String>,
    /// An Origin to admit (repeatable), e.g. `https://app.example:443`; a request with any other
    /// Origin is refused (403).
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    pub http_allowed_origin: Vec<String>,
    /// Seconds a request's headers, and then its body, may take to arrive (default: the limit
    /// `--http-read-timeout-ms`, 30 s).
    #[arg(long, value_name = "SECS", requires = "http")]
    pub http_read_timeout: Option<u64>,
}

/// Serves over HTTP; `tools_of(agent)` builds the tools of a config file's agent (`None`: the
/// default one). Returns the exit code.
#[cfg(feature = "http")]
pub(crate) fn serve(
    flags: &HttpFlags,
    tools_of: &dyn Fn(Option<&str>) -> Result<AgentTools, String>,
    client_roots: bool,
    max_in_flight: Option<usize>,
) -> i32 {
    match bind(flags, tools_of, client_roots, max_in_flight) {
        Ok(bound) => match bound.serve() {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("rootbound: {e}");
                1
            }
        },
        Err(e) => super::usage(&e),
    }
}

#[cfg(all(feature = "mcp", not(feature = "http")))]
pub(crate) fn serve(
    _: &HttpFlags,
    _: &dyn Fn(Option<&str>) -> Result<AgentTools, String>,
    _: bool,
    _: Option<usize>,
) -> i32 {
    super::usage("this rootbound was built without the `http` feature")
}

#[cfg(feature = "http")]
fn bind(
    flags: &HttpFlags,
    tools_of: &dyn Fn(Option<&str>) -> Result<AgentTools, String>,
    client_roots: bool,
    max_in_flight: Option<usize>,
) -> Result<rootbound::mcp::http::BoundHttp, String> {
    use rootbound::mcp::http::{read_token_file, HttpOptions, HttpServer};
    use rootbound::mcp::McpServer;
    use std::collections::HashMap;
    use std::net::ToSocketAddrs;

    let addr_text = flags.http.as_deref().unwrap_or_default();
    let addr = addr_text
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| format!("--http {addr_text}: not an address (expected HOST:PORT)"))?;
    let handler = |tools: AgentTools| {
        let mut s = McpServer::new(tools).with_client_roots(client_roots);
        if let Some(n) = max_in_flight {
            s = s.with_max_in_flight(n);
        }
        s
    };
    let lines = match &flags.http_token_file {
        Some(f) => read_token_file(f)?,
        None => Vec::new(),
    };
    // The default agent; when every token names its agent, the first one's stands in.
    let default = match tools_of(None) {
        Ok(t) => t,
        Err(e) => match lines.iter().find_map(|l| l.agent.as_deref()) {
            Some(a) if lines.iter().all(|l| l.agent.is_some()) => tools_of(Some(a))?,
            _ => return Err(e),
        },
    };
    let default_name = default.agent().to_string();
    // The server-wide bounds are the default agent's limits (rows `http_*` of the limits table).
    let mut options = HttpOptions::from_limits(
        &default
            .sandboxes()
            .first()
            .map(|s| s.policy().limits.clone())
            .unwrap_or_default(),
    );
    // One handler (one engine) per agent, shared by the tokens that name it.
    let mut agents: HashMap<String, McpServer> = HashMap::new();
    agents.insert(default_name.clone(), handler(default));
    let mut server = HttpServer::new(agents[&default_name].clone());
    let shown: Vec<String> = lines.iter().map(|l| l.name.clone()).collect();
    for line in lines {
        let agent = line.agent.clone().unwrap_or_else(|| default_name.clone());
        if !agents.contains_key(&agent) {
            let tools =
                tools_of(Some(&agent)).map_err(|e| format!("token '{}': {e}", line.name))?;
            agents.insert(agent.clone(), handler(tools));
        }
        server = server.token(line, Some(agents[&agent].clone()));
    }
    options.allowed_hosts = flags.http_allowed_host.clone();
    options.allowed_origins = flags.http_allowed_origin.clone();
    if let Some(secs) = flags.http_read_timeout {
        options.read_timeout = std::time::Duration::from_secs(secs.max(1));
    }
    let bound = server
        .options(options)
        .bind(addr)
        .map_err(|e| format!("--http {addr}: {e}"))?;
    let local = bound.local_addr().map_err(|e| e.to_string())?;
    // On stderr for people and for scripts that asked for port 0 (stdout stays silent).
    eprintln!(
        "rootbound: serving MCP over HTTP at http://{local}/mcp ({})",
        match shown.len() {
            0 => "no tokens: loopback only".to_string(),
            _ => format!("tokens: {}", shown.join(", ")),
        }
    );
    Ok(bound)
}
