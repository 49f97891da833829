//! The MCP server over Streamable HTTP (feature `http`; `rootbound mcp --http ADDR`): rmcp's
//! transport ([`StreamableHttpService`]) on hyper, serving [`McpServer`] handlers (the same tools,
//! dialects, progress and cancellation as stdio) behind a door that admits only whom the operator
//! named (DESIGN.md guarantee 11):
//!
//! * **Where.** Loopback addresses only, unless bearer tokens are on.
//! * **Who.** With tokens, every request carries `Authorization: Bearer TOKEN`; the token is found
//!   in constant time, and a request without a known one is answered 401 (`WWW-Authenticate:
//!   Bearer`) before anything else is read. Each token serves one agent's handler; the token's NAME,
//!   never the token, names it in logs and audit lines.
//! * **Sessions.** Each token has its own rmcp service and so its own session table: a session id
//!   opened with one token is unknown (404) to every other. The handlers of one agent are clones that
//!   share its tools (one search pool, one index, one bound on calls in flight).
//! * **Host and Origin.** rmcp checks both (403): the Host against loopback names, the bound address
//!   and `allow_host`s; a request that carries an Origin must name an `allow_origin` (none by
//!   default: browsers are not clients of this server). rmcp checks them when the request reaches
//!   it, after the door's own checks: a request with a known token and a refused Host that is also
//!   past a bound (a body too large, a session past the limit) gets that bound's refusal (413,
//!   429) rather than 403. Nothing runs either way.
//! * **Bounds** (rows `http_*` of the limits table): a request body over
//!   [`HttpOptions::max_body_bytes`] is refused (413) before it is read whole; headers and body
//!   must arrive within [`HttpOptions::read_timeout`] (else the connection is closed, or 408); at
//!   most [`HttpOptions::max_connections`] connections, and per token (from its agent's limits)
//!   `http_requests_per_token` POST requests (their response streams included) at once (429) and
//!   `http_sessions_per_token` sessions (an `initialize` past it: 429 with JSON-RPC error
//!   [`SESSION_LIMIT_CODE`]); a session's standalone GET stream takes no request slot, but a
//!   token holds at most `http_sessions_per_token` GET streams at once (429 past it, and the
//!   connection closed): streams last as long as their session, and without their own bound one
//!   session's idle streams could hold every connection and lock every other token out.
//! * **Ids.** A request's id comes back exactly as the client wrote it (`-0`, integers past `i64`),
//!   as over stdio (`ids`).
//! * **Malformed bodies.** A POST body is classified like a stdio line first: not JSON is `-32700`,
//!   not a JSON-RPC request `-32600`, bad params `-32602`, as a JSON-RPC error with HTTP 400.
//! * **Closed streams.** When a client closes a request's response stream before its answer, the
//!   call is cancelled (`notifications/cancelled` on its session), as if the client had said so.

mod body;
mod ids;
mod tokens;

pub use tokens::{read_token_file, TokenLine, MIN_TOKEN_LEN};

use super::wire::{classify, Inbound, Track};
use super::McpServer;
use crate::Limits;
use body::{read_whole, BodyError, Held};
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::http::{header, request::Parts, HeaderValue, Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use ids::{Forget, Renamed};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::convert::Infallible;
use std::io;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The path the MCP endpoint is served at (`http://HOST:PORT/mcp`).
pub const ENDPOINT: &str = "/mcp";

const SESSION_HEADER: &str = "mcp-session-id";

/// The JSON-RPC error code of an `initialize` refused because its token holds
/// `http_sessions_per_token` sessions already (HTTP 429; `data.code` is `SESSION_LIMIT`).
pub const SESSION_LIMIT_CODE: i64 = -32005;

/// The server-wide bounds of the HTTP door, and the allowed hosts and origins. The bounds of each
/// token (`http_requests_per_token`, `http_sessions_per_token`) are its agent's limits.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// The largest request body (limit `http_max_body_bytes`, 16 MiB).
    pub max_body_bytes: usize,
    /// The time a request's headers, and then its body, may take to arrive (limit
    /// `http_read_timeout_ms`, 30 s).
    pub read_timeout: Duration,
    /// Connections served at once (limit `http_max_connections`, 256); more wait to be accepted.
    pub max_connections: usize,
    /// Host header values admitted besides loopback names and the bound address.
    pub allowed_hosts: Vec<String>,
    /// Origin header values admitted (`https://app.example:443`); none by default.
    pub allowed_origins: Vec<String>,
}

impl HttpOptions {
    /// The server-wide bounds of `limits` (the default agent's), no extra hosts or origins.
    pub fn from_limits(limits: &Limits) -> Self {
        HttpOptions {
            max_body_bytes: limits.http_max_body_bytes,
            read_timeout: Duration::from_millis(limits.http_read_timeout_ms.max(1)),
            max_connections: limits.http_max_connections,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
        }
    }
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions::from_limits(&Limits::default())
    }
}

/// The MCP server over Streamable HTTP: one default agent's handler, and the tokens that admit
/// callers (none: loopback only, every caller serves the default agent).
pub struct HttpServer {
    default: McpServer,
    tokens: Vec<(TokenLine, Option<McpServer>)>,
    options: HttpOptions,
}

impl HttpServer {
    /// A server of `default` (the agent of callers without tokens, and of tokens naming no agent).
    pub fn new(default: McpServer) -> Self {
        HttpServer {
            default,
            tokens: Vec::new(),
            options: HttpOptions::default(),
        }
    }

    /// Admits the bearer token `line`, serving `server` (`None`: the default agent). With at least
    /// one token, every request must carry one.
    pub fn token(mut self, line: TokenLine, server: Option<McpServer>) -> Self {
        self.tokens.push((line, server));
        self
    }

    /// Sets the bounds and the allowed hosts and origins.
    pub fn options(mut self, options: HttpOptions) -> Self {
        self.options = options;
        self
    }

    /// Binds `addr` (port 0: any free port). Refused for an address that is not loopback unless
    /// tokens are on.
    pub fn bind(self, addr: SocketAddr) -> io::Result<BoundHttp> {
        if !addr.ip().is_loopback() && self.tokens.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!(
                    "{addr} is not a loopback address: serving it needs bearer tokens (--http-token-file)"
                ),
            ));
        }
        let listener = TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        let local = listener.local_addr()?;
        Ok(BoundHttp {
            door: Door::new(self, local),
            listener,
        })
    }
}

/// An [`HttpServer`] bound to its address, ready to serve.
pub struct BoundHttp {
    door: Door,
    listener: TcpListener,
}

impl BoundHttp {
    /// The address bound (with the port chosen when 0 was asked).
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until the process ends, on a Tokio runtime of its own (2 worker threads; a blocking
    /// pool sized for the calls in flight of every agent).
    pub fn serve(self) -> io::Result<()> {
        let blocking = self.door.max_in_flight() + 4;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .max_blocking_threads(blocking)
            .enable_all()
            .thread_name("rootbound-http")
            .build()?;
        runtime.block_on(self.run())
    }

    /// Serves on the current Tokio runtime until the process ends (or an accept fails for good).
    pub async fn run(self) -> io::Result<()> {
        let listener = tokio::net::TcpListener::from_std(self.listener)?;
        let door = Arc::new(self.door);
        let connections = Arc::new(Semaphore::new(door.options.max_connections.max(1)));
        loop {
            let Ok(permit) = Arc::clone(&connections).acquire_owned().await else {
                return Ok(());
            };
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of descriptors and the like: others are still being served; try again.
                    tracing::warn!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            tokio::spawn(Arc::clone(&door).connection(stream, permit));
        }
    }
}

/// Who a request comes from: the token's name (or `anonymous`), its service, its slots, its
/// sessions.
struct Caller {
    name: Arc<str>,
    service: StreamableHttpService<McpServer, LocalSessionManager>,
    slots: Arc<Semaphore>,
    /// Its GET streams open at once (as many as it may hold sessions).
    streams: Arc<Semaphore>,
    /// rmcp's session table of this caller (a session leaves it when it ends).
    sessions: Arc<LocalSessionManager>,
    max_sessions: usize,
    /// Held while a session is opened, so that two `initialize`s cannot both pass the cap.
    opening: tokio::sync::Mutex<()>,
    renamed: Arc<Renamed>,
    /// The most a request's parsed JSON may take: its agent's `max_call_memory`, divided by
    /// [`RMCP_PARSE_COPIES`].
    parse_room: u64,
}

/// The limits of `handler`'s agent (the HTTP rows are agent-wide: no tool section sets them).
fn agent_limits(handler: &McpServer) -> Limits {
    handler
        .tools()
        .sandboxes()
        .first()
        .map(|s| s.policy().limits.clone())
        .unwrap_or_default()
}

/// How many trees of a request rmcp's Streamable HTTP service holds at once while it parses the
/// body itself (serde's buffered `Content` for its untagged message types, then the typed request
/// and its arguments): a body the transport's estimate puts at 250 MB peaked at 757 MB resident.
/// So the door lets a body's parse take a quarter of the call's memory budget; over stdio the
/// transport parses once and hands the arguments over itself (`wire::Arguments`).
const RMCP_PARSE_COPIES: u64 = 4;

/// The name of the caller of a request, in its `http::request::Parts` extensions (rmcp hands the
/// parts to the handler).
#[derive(Clone)]
struct CallerName(Arc<str>);

/// Everything the serving loop shares.
struct Door {
    /// With tokens: one caller per token, in the order of `tokens`. Without: the anonymous caller.
    callers: Vec<Caller>,
    tokens: Vec<TokenLine>,
    options: HttpOptions,
    in_flight: usize,
}

/// What a response holds until it is sent: the caller's request slot, and the stand-in of its id
/// (boxed: a reply is moved through every early return).
type Hold = Box<(Option<OwnedSemaphorePermit>, Option<Forget>)>;

type Reply = Response<Held<Hold>>;

impl Door {
    fn new(server: HttpServer, local: SocketAddr) -> Door {
        let mut config = StreamableHttpServerConfig::default()
            .with_allowed_origins(server.options.allowed_origins.clone())
            .enforce_origin_validation()
            .with_max_request_body_bytes(server.options.max_body_bytes);
        let mut hosts = config.allowed_hosts.clone();
        if !local.ip().is_unspecified() {
            hosts.push(local.ip().to_string());
        }
        hosts.extend(server.options.allowed_hosts.iter().cloned());
        config = config.with_allowed_hosts(hosts);
        let caller = |name: &str, handler: McpServer| {
            let limits = agent_limits(&handler);
            let sessions = Arc::new(LocalSessionManager::default());
            Caller {
                name: name.into(),
                service: StreamableHttpService::new(
                    move || Ok(handler.for_session()),
                    Arc::clone(&sessions),
                    config.clone(),
                ),
                slots: Arc::new(Semaphore::new(limits.http_requests_per_token.max(1))),
                streams: Arc::new(Semaphore::new(limits.http_sessions_per_token.max(1))),
                sessions,
                max_sessions: limits.http_sessions_per_token.max(1),
                opening: tokio::sync::Mutex::new(()),
                renamed: Arc::default(),
                parse_room: limits.max_call_memory / RMCP_PARSE_COPIES,
            }
        };
        let mut in_flight = server.default.max_in_flight();
        let (tokens, callers) = if server.tokens.is_empty() {
            (
                Vec::new(),
                vec![caller("anonymous", server.default.clone())],
            )
        } else {
            server
                .tokens
                .into_iter()
                .map(|(line, handler)| {
                    let handler = handler.unwrap_or_else(|| server.default.clone());
                    in_flight += handler.max_in_flight();
                    let c = caller(&line.name, handler);
                    (line, c)
                })
                .unzip()
        };
        Door {
            callers,
            tokens,
            options: server.options,
            in_flight,
        }
    }

    fn max_in_flight(&self) -> usize {
        self.in_flight
    }

    /// Serves one connection: headers within the read timeout, then its requests.
    async fn connection(
        self: Arc<Self>,
        stream: tokio::net::TcpStream,
        _slot: OwnedSemaphorePermit,
    ) {
        let door = Arc::clone(&self);
        let service = hyper::service::service_fn(move |req| {
            let door = Arc::clone(&door);
            async move { Ok::<_, Infallible>(door.route(req).await) }
        });
        let served = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(self.options.read_timeout)
            .serve_connection(TokioIo::new(stream), service)
            .await;
        if let Err(e) = served {
            tracing::debug!(error = %e, "HTTP connection ended");
        }
    }

    /// One request: the endpoint, the token, a slot, the body; then rmcp.
    async fn route(&self, req: Request<Incoming>) -> Reply {
        if req.uri().path() != ENDPOINT {
            return plain(StatusCode::NOT_FOUND, "Not Found: the MCP endpoint is /mcp");
        }
        let caller = match self.authenticate(req.headers()) {
            Ok(c) => c,
            Err(reply) => return reply,
        };
        // A slot is a request that runs something (a POST). A session's standalone stream (GET)
        // lasts as long as the session and runs nothing: counting it as a request would let idle
        // clients of one token lock its calls out. Streams have a bound of their own instead:
        // each holds a connection for as long as it is open, and one session may open any number
        // of them, so without it a single client could hold every connection of the server.
        let slot = if req.method() == Method::POST {
            let Ok(slot) = Arc::clone(&caller.slots).try_acquire_owned() else {
                return plain(StatusCode::TOO_MANY_REQUESTS, "Too Many Requests");
            };
            Some(slot)
        } else if req.method() == Method::GET {
            let Ok(slot) = Arc::clone(&caller.streams).try_acquire_owned() else {
                let mut r = plain(
                    StatusCode::TOO_MANY_REQUESTS,
                    "Too Many Requests: this token holds as many event streams as it may hold \
                     sessions (http_sessions_per_token); close one first",
                );
                // The refused stream's connection goes back at once, not after the idle timeout.
                r.headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
                return r;
            };
            Some(slot)
        } else {
            None
        };
        let (mut parts, body) = req.into_parts();
        parts
            .extensions
            .insert(CallerName(Arc::clone(&caller.name)));
        let method = parts.method.clone();
        if method != Method::POST {
            let response = caller
                .service
                .handle(Request::from_parts(parts, Full::new(Bytes::new())))
                .await;
            let (mut response_parts, body) = response.into_parts();
            // A session ended by DELETE: 200, as the reference server answers; rmcp says 202,
            // which the Python SDK takes for a failure (it accepts 200 and 204 only).
            if method == Method::DELETE && response_parts.status == StatusCode::ACCEPTED {
                response_parts.status = StatusCode::OK;
            }
            let held = Held::new(body, Box::new((slot, None)), None);
            return self.audit(caller, &method, response_parts, held);
        }
        let (bytes, inbound) = match self.post_body(&parts, body, caller.parse_room).await {
            Ok(b) => b,
            Err(reply) => return reply,
        };
        let session = parts
            .headers
            .get(SESSION_HEADER)
            .and_then(|v| v.to_str().ok());
        let opening = match session {
            None if opens_session(&inbound) => match caller.room_for_a_session(&inbound).await {
                Ok(guard) => Some(guard),
                Err(reply) => return reply,
            },
            _ => None,
        };
        let rewritten = ids::rewrite(bytes, &inbound, session, &caller.renamed);
        let abandoned = cancel_on_close(&caller.service, &parts, &rewritten.body);
        // rmcp parses the body again: the tree read here is not kept beside its own.
        drop(inbound);
        let response = caller
            .service
            .handle(Request::from_parts(parts, Full::new(rewritten.body)))
            .await;
        drop(opening);
        let (response_parts, body) = response.into_parts();
        let hold = Box::new((slot, rewritten.forget));
        let held = Held::new(body, hold, abandoned).with_swaps(rewritten.swaps);
        self.audit(caller, &method, response_parts, held)
    }

    /// Logs the request's audit line (the token's name, never the token): the response.
    fn audit(
        &self,
        caller: &Caller,
        method: &Method,
        parts: hyper::http::response::Parts,
        body: Held<Hold>,
    ) -> Reply {
        tracing::info!(target: "rootbound::audit", token = %caller.name, http = %method,
            status = parts.status.as_u16());
        Response::from_parts(parts, body)
    }

    /// The caller a request's `Authorization` names (the anonymous one without tokens), or 401.
    fn authenticate(&self, headers: &hyper::HeaderMap) -> Result<&Caller, Reply> {
        if self.tokens.is_empty() {
            return Ok(&self.callers[0]);
        }
        let presented = headers
            .get(header::AUTHORIZATION)
            .map(HeaderValue::as_bytes)
            .and_then(|v| {
                let (scheme, token) = v.split_at_checked(7)?;
                scheme.eq_ignore_ascii_case(b"bearer ").then_some(token)
            });
        let Some(token) = presented else {
            return Err(unauthorized(r#"Bearer realm="rootbound""#));
        };
        match tokens::find(&self.tokens, token.trim_ascii()) {
            Some(i) => Ok(&self.callers[i]),
            None => Err(unauthorized(
                r#"Bearer realm="rootbound", error="invalid_token""#,
            )),
        }
    }

    /// A POST's body, read whole within the bounds and checked to be one JSON-RPC message; with
    /// what it was found to be.
    /// A body whose parsed JSON would take more than `room` (the caller's `max_call_memory`) is
    /// refused unparsed.
    async fn post_body(
        &self,
        parts: &Parts,
        body: Incoming,
        room: u64,
    ) -> Result<(Bytes, Inbound), Reply> {
        let declared = parts
            .headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        let o = &self.options;
        let bytes = match read_whole(declared, body, o.max_body_bytes, o.read_timeout).await {
            Ok(b) => b,
            Err(BodyError::TooLarge) => {
                return Err(plain(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "Payload Too Large: the request body exceeds the limit",
                ))
            }
            Err(BodyError::TooSlow) => {
                return Err(plain(StatusCode::REQUEST_TIMEOUT, "Request Timeout"))
            }
            Err(BodyError::Broken) => return Err(plain(StatusCode::BAD_REQUEST, "Bad Request")),
        };
        match classify(&bytes, room) {
            Inbound::Reply(reply) => Err(json(StatusCode::BAD_REQUEST, reply.to_line())),
            inbound => Ok((bytes, inbound)),
        }
    }
}

/// Whether `inbound` opens a session (an `initialize` request).
fn opens_session(inbound: &Inbound) -> bool {
    use rmcp::model::{ClientRequest, JsonRpcMessage};
    matches!(inbound, Inbound::Message(m, _) if matches!(&**m,
        JsonRpcMessage::Request(r) if matches!(r.request, ClientRequest::InitializeRequest(_))))
}

impl Caller {
    /// Room for one more session of this caller: a guard to hold while it is opened, or the
    /// refusal (429 with JSON-RPC error [`SESSION_LIMIT_CODE`], naming the request's id).
    async fn room_for_a_session(
        &self,
        inbound: &Inbound,
    ) -> Result<tokio::sync::MutexGuard<'_, ()>, Reply> {
        let guard = self.opening.lock().await;
        let open = self.sessions.sessions.read().await.len();
        if open < self.max_sessions {
            return Ok(guard);
        }
        let id = match inbound {
            Inbound::Message(_, Track::Request { echo, .. }) => echo.text(),
            _ => "null".to_string(),
        };
        let max = self.max_sessions;
        let message = format!(
            "SESSION_LIMIT: this token holds {max} open sessions, its most \
             (http_sessions_per_token); end one you no longer use (DELETE /mcp with its \
             Mcp-Session-Id), or wait until an idle one expires (5 minutes), then initialize again"
        );
        let error = serde_json::json!({"code": SESSION_LIMIT_CODE, "message": message,
            "data": {"code": "SESSION_LIMIT", "limit": max}});
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{error}}}"#);
        tracing::info!(target: "rootbound::audit", token = %self.name, http = "POST",
            status = 429, "a session past http_sessions_per_token refused");
        Err(json(StatusCode::TOO_MANY_REQUESTS, body.into_bytes()))
    }
}

/// What to do when the response stream of the request in `body` is closed before its end: tell the
/// session that the request is cancelled. `None` for a message that is not a request in a session.
fn cancel_on_close(
    service: &StreamableHttpService<McpServer, LocalSessionManager>,
    parts: &Parts,
    body: &Bytes,
) -> Option<Box<dyn FnOnce() + Send + Sync>> {
    parts.headers.get(SESSION_HEADER)?;
    let message: serde_json::Value = serde_json::from_slice(body).ok()?;
    let id = message.get("id")?.clone();
    message.get("method")?;
    let cancel = serde_json::json!({
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "the client closed the response stream"},
    });
    let mut request = Request::post(ENDPOINT)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream");
    for name in [
        header::HOST.as_str(),
        SESSION_HEADER,
        "mcp-protocol-version",
    ] {
        if let Some(v) = parts.headers.get(name) {
            request = request.header(name, v);
        }
    }
    let request = request
        .body(Full::new(Bytes::from(cancel.to_string())))
        .ok()?;
    let service = service.clone();
    Some(Box::new(move || {
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = service.handle(request).await;
            });
        }
    }))
}

/// The tracing span a tool call of an HTTP caller runs in: the audit line of the call carries the
/// token's name (`http{token=NAME}`). Disabled for calls that did not come over HTTP.
pub(super) fn call_span(extensions: &rmcp::model::Extensions) -> tracing::Span {
    match extensions
        .get::<Parts>()
        .and_then(|p| p.extensions.get::<CallerName>())
    {
        Some(CallerName(name)) => tracing::info_span!("http", token = %name),
        None => tracing::Span::none(),
    }
}

fn plain(status: StatusCode, text: &'static str) -> Reply {
    reply(
        status,
        "text/plain; charset=utf-8",
        Bytes::from_static(text.as_bytes()),
    )
}

fn json(status: StatusCode, body: Vec<u8>) -> Reply {
    reply(status, "application/json", Bytes::from(body))
}

fn unauthorized(challenge: &'static str) -> Reply {
    let mut r = plain(StatusCode::UNAUTHORIZED, "Unauthorized");
    r.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static(challenge),
    );
    r
}

fn reply(status: StatusCode, content_type: &'static str, body: Bytes) -> Reply {
    let mut r = Response::new(Held::new(
        Full::new(body).boxed(),
        Box::new((None, None)),
        None,
    ));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
}
