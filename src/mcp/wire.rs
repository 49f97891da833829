//! The stdio transport of `rootbound mcp`: newline-delimited JSON-RPC, read and checked here before
//! rmcp sees it, so that every request line gets a reply.
//!
//! rmcp's own stdio transport drops a line that is not JSON (or nests deeper than serde_json's 128
//! levels) without a word, answers a malformed request with an `Invalid request` that has no id, and
//! turns a known method with malformed params (a `tools/call` whose `arguments` is an array) into a
//! custom request that it answers with "method not found". A client waiting on such an id hangs or
//! is misled. Here each line is parsed as a [`Value`] first and then:
//!
//! * not JSON, or a line over [`MAX_LINE`] bytes: `-32700` with `id: null`;
//! * JSON nested deeper than serde_json's recursion limit: read once more without recursion
//!   ([`scan_top_level`]); a request with a readable id gets `-32600` with that id, anything else
//!   that is not JSON `-32700`;
//! * not a JSON-RPC request (no `"jsonrpc": "2.0"`, a method that is not a string, an id that is not
//!   a string or an integer, a batch): `-32600` with the id when it can be read, else `null`;
//! * params of a known method that do not fit it (`tools/call` without a tool name, `params` that
//!   is not an object, ...): `-32602` with the id;
//! * a `tools/call` whose `arguments` is neither an object nor null: passed on without them, the
//!   value riding along as [`BadArguments`] so the handler reports an `INVALID_ARGUMENT` tool error
//!   like any other argument error;
//! * a notification (no `id`) is never answered, valid or not; a response from the client is never
//!   answered either.
//!
//! Replies written here and rmcp's responses go through one writer under one lock, so lines never
//! interleave. Reading happens on its own task, so nothing here is cancelled half-way when rmcp's
//! loop drops a pending `receive`.

use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, InitializeRequestParams,
    JsonRpcMessage, RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use serde::Serialize;
use serde_json::{json, Value};
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, Mutex};

/// The longest line read (its newline included); a longer one is answered with `-32700` and skipped
/// without being held in memory.
pub(crate) const MAX_LINE: usize = 16 * 1024 * 1024;

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const INVALID_PARAMS: i64 = -32602;

/// The `arguments` of a `tools/call` that were not a JSON object. The request reaches the handler
/// without them and with this in its extensions, and the handler reports them as a tool error.
#[derive(Debug, Clone)]
pub(crate) struct BadArguments(pub(crate) Value);

/// What one input line asks of the server.
#[derive(Debug)]
pub(crate) enum Inbound {
    /// A message for the MCP service.
    Message(Box<ClientJsonRpcMessage>),
    /// A JSON-RPC error response to write back at once.
    Reply(ErrorReply),
    /// Nothing to answer (a blank line, a notification or a client response that does not parse);
    /// the text says why, for the log.
    Ignore(&'static str),
}

/// A JSON-RPC error response: `{"jsonrpc": "2.0", "id": ..., "error": {"code": ..., "message": ...}}`
/// (fields in that order, as rmcp writes its own).
#[derive(Debug, Serialize)]
pub(crate) struct ErrorReply {
    jsonrpc: &'static str,
    /// The request's id, or null when it cannot be read.
    pub(crate) id: Value,
    pub(crate) error: ErrorBody,
}

#[derive(Debug, Serialize)]
pub(crate) struct ErrorBody {
    pub(crate) code: i64,
    pub(crate) message: String,
}

fn error_reply(id: Value, code: i64, message: impl Into<String>) -> Inbound {
    Inbound::Reply(ErrorReply {
        jsonrpc: "2.0",
        id,
        error: ErrorBody {
            code,
            message: message.into(),
        },
    })
}

/// The id to answer with: the request's own when it is a string or a number, else `null`.
fn reply_id(id: Option<&Value>) -> Value {
    match id {
        Some(v @ (Value::String(_) | Value::Number(_))) => v.clone(),
        _ => Value::Null,
    }
}

/// Request methods that rmcp parses into a typed request: one of these that comes out as a custom
/// request had params that do not fit the method.
const TYPED_METHODS: [&str; 13] = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
];

/// Classifies one line (without its newline).
pub(crate) fn classify(line: &[u8]) -> Inbound {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Inbound::Ignore("blank line");
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => {
            return match scan_top_level(line) {
                None => error_reply(Value::Null, PARSE_ERROR, "parse error: not valid JSON"),
                Some(top) if top.object && top.id.is_some() => error_reply(
                    reply_id(top.id.as_ref()),
                    INVALID_REQUEST,
                    "invalid request: the message nests deeper than 128 levels",
                ),
                Some(top) if top.object && top.method => {
                    Inbound::Ignore("notification nested deeper than 128 levels")
                }
                Some(_) => error_reply(
                    Value::Null,
                    INVALID_REQUEST,
                    "invalid request: the message nests deeper than 128 levels",
                ),
            };
        }
        Err(e) => return error_reply(Value::Null, PARSE_ERROR, format!("parse error: {e}")),
    };
    let mut obj = match value {
        Value::Object(o) => o,
        Value::Array(_) => {
            return error_reply(
                Value::Null,
                INVALID_REQUEST,
                "invalid request: batches are not supported; send one JSON-RPC object per line",
            )
        }
        _ => {
            return error_reply(
                Value::Null,
                INVALID_REQUEST,
                "invalid request: a JSON-RPC message is a JSON object",
            )
        }
    };

    if !obj.contains_key("method") {
        if obj.contains_key("result") || obj.contains_key("error") {
            // A response to a request of ours: never answered.
            return match serde_json::from_value::<ClientJsonRpcMessage>(Value::Object(obj)) {
                Ok(m) => Inbound::Message(Box::new(m)),
                Err(_) => Inbound::Ignore("malformed response from the client"),
            };
        }
        return error_reply(
            reply_id(obj.get("id")),
            INVALID_REQUEST,
            "invalid request: no method",
        );
    }

    if !obj.contains_key("id") {
        // A notification: never answered, whatever is wrong with it.
        let shaped = obj.get("jsonrpc") == Some(&json!("2.0"))
            && obj.get("method").is_some_and(Value::is_string)
            && obj
                .get("params")
                .is_none_or(|p| p.is_object() || p.is_null());
        if !shaped {
            return Inbound::Ignore("malformed notification");
        }
        return match serde_json::from_value::<ClientJsonRpcMessage>(Value::Object(obj)) {
            Ok(m) => Inbound::Message(Box::new(m)),
            Err(_) => Inbound::Ignore("malformed notification"),
        };
    }

    // A request.
    let id = reply_id(obj.get("id"));
    if serde_json::from_value::<RequestId>(obj["id"].clone()).is_err() {
        return error_reply(
            id,
            INVALID_REQUEST,
            "invalid request: the id must be a string or an integer",
        );
    }
    if obj.get("jsonrpc") != Some(&json!("2.0")) {
        return error_reply(
            id,
            INVALID_REQUEST,
            "invalid request: \"jsonrpc\" must be \"2.0\"",
        );
    }
    let Some(method) = obj["method"].as_str().map(str::to_owned) else {
        return error_reply(
            id,
            INVALID_REQUEST,
            "invalid request: the method must be a string",
        );
    };
    if obj.contains_key("result") || obj.contains_key("error") {
        return error_reply(
            id,
            INVALID_REQUEST,
            "invalid request: a request has no result or error",
        );
    }
    if obj
        .get("params")
        .is_some_and(|p| !p.is_object() && !p.is_null())
    {
        return error_reply(
            id,
            INVALID_PARAMS,
            format!("invalid params: the params of {method} must be a JSON object"),
        );
    }
    let mut bad_arguments = None;
    if method == "tools/call" {
        let Some(Value::Object(params)) = obj.get_mut("params") else {
            return error_reply(
                id,
                INVALID_PARAMS,
                "invalid params: tools/call needs params with the tool's name",
            );
        };
        if !params.get("name").is_some_and(Value::is_string) {
            return error_reply(
                id,
                INVALID_PARAMS,
                "invalid params: tools/call needs the tool's name (a string) in params.name",
            );
        }
        if params
            .get("arguments")
            .is_some_and(|a| !a.is_object() && !a.is_null())
        {
            bad_arguments = params.remove("arguments");
        }
    }
    let mut msg = match serde_json::from_value::<ClientJsonRpcMessage>(Value::Object(obj)) {
        Ok(m) => m,
        Err(_) if TYPED_METHODS.contains(&method.as_str()) => {
            return error_reply(id, INVALID_PARAMS, params_problem(&method, line));
        }
        Err(e) => return error_reply(id, INVALID_REQUEST, format!("invalid request: {e}")),
    };
    if let JsonRpcMessage::Request(req) = &mut msg {
        match &mut req.request {
            ClientRequest::CustomRequest(c) if TYPED_METHODS.contains(&c.method.as_str()) => {
                return error_reply(id, INVALID_PARAMS, params_problem(&method, line));
            }
            ClientRequest::CallToolRequest(call) => {
                if let Some(bad) = bad_arguments {
                    call.extensions.insert(BadArguments(bad));
                }
            }
            _ => {}
        }
    }
    Inbound::Message(Box::new(msg))
}

/// Why the params of a typed method did not parse, as far as it can be told. Only called on that
/// failure, so the line is parsed again here rather than its params kept for every request.
fn params_problem(method: &str, line: &[u8]) -> String {
    let params = serde_json::from_slice::<Value>(line)
        .ok()
        .and_then(|mut v| v.get_mut("params").map(Value::take))
        .unwrap_or(Value::Null);
    let detail = match method {
        "initialize" => serde_json::from_value::<InitializeRequestParams>(params).err(),
        "tools/call" => serde_json::from_value::<CallToolRequestParams>(params).err(),
        _ => None,
    };
    match detail {
        Some(e) => format!("invalid params for {method}: {e}"),
        None => format!("invalid params for {method}"),
    }
}

/// The top level of a JSON text, read without recursion.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct TopLevel {
    /// The text is an object.
    pub(crate) object: bool,
    /// Its `id` member: the value when it is a scalar, an empty array standing in for a container.
    pub(crate) id: Option<Value>,
    /// It has a `method` member.
    pub(crate) method: bool,
}

/// Checks that `s` is one JSON value at any depth (an explicit stack on the heap, no recursion) and
/// reads its top level; `None` when it is not JSON. Used only for texts serde_json refused for their
/// depth. (Lone surrogate escapes are not checked outside the top-level keys and id.)
pub(crate) fn scan_top_level(s: &[u8]) -> Option<TopLevel> {
    #[derive(Clone, Copy, PartialEq)]
    enum Want {
        Value,
        ValueOrClose,
        KeyOrClose,
        Key,
        Colon,
        CommaOrClose,
        End,
    }
    std::str::from_utf8(s).ok()?;
    // true: an object, false: an array.
    let mut stack: Vec<bool> = Vec::new();
    let mut top = TopLevel::default();
    // The key whose value comes next, at the top object's own level.
    let mut key: Option<String> = None;
    let mut want = Want::Value;
    let mut i = 0;
    let after = |stack: &Vec<bool>| {
        if stack.is_empty() {
            Want::End
        } else {
            Want::CommaOrClose
        }
    };
    loop {
        while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
        }
        match want {
            Want::End => return (i == s.len()).then_some(top),
            Want::Value | Want::ValueOrClose => {
                let c = *s.get(i)?;
                if want == Want::ValueOrClose && c == b']' {
                    i += 1;
                    stack.pop();
                    want = after(&stack);
                    continue;
                }
                let member = if stack == [true] { key.take() } else { None };
                let start = i;
                match c {
                    b'{' | b'[' => {
                        if stack.is_empty() {
                            top.object = c == b'{';
                        }
                        if member.as_deref() == Some("id") {
                            top.id = Some(Value::Array(Vec::new()));
                        }
                        top.method |= member.as_deref() == Some("method");
                        stack.push(c == b'{');
                        i += 1;
                        want = if c == b'{' {
                            Want::KeyOrClose
                        } else {
                            Want::ValueOrClose
                        };
                        continue;
                    }
                    b'"' => i = string_end(s, i)?,
                    b't' => i = literal_end(s, i, b"true")?,
                    b'f' => i = literal_end(s, i, b"false")?,
                    b'n' => i = literal_end(s, i, b"null")?,
                    b'-' | b'0'..=b'9' => i = number_end(s, i)?,
                    _ => return None,
                }
                match member.as_deref() {
                    Some("id") => top.id = Some(serde_json::from_slice(&s[start..i]).ok()?),
                    Some("method") => top.method = true,
                    _ => {}
                }
                want = after(&stack);
            }
            Want::KeyOrClose | Want::Key => {
                let c = *s.get(i)?;
                if want == Want::KeyOrClose && c == b'}' {
                    i += 1;
                    stack.pop();
                    want = after(&stack);
                    continue;
                }
                if c != b'"' {
                    return None;
                }
                let start = i;
                i = string_end(s, i)?;
                if stack.len() == 1 {
                    key = Some(serde_json::from_slice(&s[start..i]).ok()?);
                }
                want = Want::Colon;
            }
            Want::Colon => {
                if s.get(i) != Some(&b':') {
                    return None;
                }
                i += 1;
                want = Want::Value;
            }
            Want::CommaOrClose => {
                let c = *s.get(i)?;
                i += 1;
                match (*stack.last()?, c) {
                    (true, b',') => want = Want::Key,
                    (false, b',') => want = Want::Value,
                    (true, b'}') | (false, b']') => {
                        stack.pop();
                        want = after(&stack);
                    }
                    _ => return None,
                }
            }
        }
    }
}

/// The index after the string starting with the quote at `i`.
fn string_end(s: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        match *s.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => match *s.get(j + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j += 2,
                b'u' => {
                    let hex = s.get(j + 2..j + 6)?;
                    if !hex.iter().all(u8::is_ascii_hexdigit) {
                        return None;
                    }
                    j += 6;
                }
                _ => return None,
            },
            0..=0x1f => return None,
            _ => j += 1,
        }
    }
}

fn literal_end(s: &[u8], i: usize, lit: &[u8]) -> Option<usize> {
    s[i..].starts_with(lit).then_some(i + lit.len())
}

/// The index after the number starting at `i` (JSON grammar: no leading zeros, no `+`, no bare `.`).
fn number_end(s: &[u8], i: usize) -> Option<usize> {
    let digits = |mut j: usize| {
        let start = j;
        while s.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        (j > start).then_some(j)
    };
    let mut j = i;
    if s.get(j) == Some(&b'-') {
        j += 1;
    }
    j = match s.get(j)? {
        b'0' => j + 1,
        b'1'..=b'9' => digits(j)?,
        _ => return None,
    };
    if s.get(j) == Some(&b'.') {
        j = digits(j + 1)?;
    }
    if matches!(s.get(j), Some(b'e' | b'E')) {
        j += 1;
        if matches!(s.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        j = digits(j)?;
    }
    Some(j)
}

// ---------------------------------------------------------------------------------------------------
// The transport

type Writer = Pin<Box<dyn AsyncWrite + Send>>;

/// The output side, shared by rmcp's responses and the replies written here.
struct Output {
    writer: Mutex<Option<Writer>>,
}

impl Output {
    /// Writes one message and its newline, then flushes, under the lock.
    async fn write_line(&self, mut line: Vec<u8>) -> io::Result<()> {
        line.push(b'\n');
        let mut guard = self.writer.lock().await;
        let Some(w) = guard.as_mut() else {
            return Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "the transport is closed",
            ));
        };
        w.write_all(&line).await?;
        w.flush().await
    }
}

/// A line read by [`LineReader::next`].
enum Read {
    /// A line is in the buffer (without its newline). The last line may lack one.
    Line,
    /// A line longer than the limit; it is being skipped.
    TooLong,
    /// End of input.
    Eof,
}

struct LineReader<R> {
    read: BufReader<R>,
    buf: Vec<u8>,
    max: usize,
    /// Inside a line that was too long, until its newline.
    discarding: bool,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    async fn next(&mut self) -> io::Result<Read> {
        self.buf.clear();
        loop {
            let avail = self.read.fill_buf().await?;
            if avail.is_empty() {
                let last = !self.discarding && !self.buf.is_empty();
                self.discarding = false;
                return Ok(if last { Read::Line } else { Read::Eof });
            }
            let newline = memchr::memchr(b'\n', avail);
            let take = newline.map_or(avail.len(), |i| i + 1);
            if self.discarding {
                self.read.consume(take);
                self.discarding = newline.is_none();
                continue;
            }
            if self.buf.len() + take > self.max {
                self.buf.clear();
                self.read.consume(take);
                self.discarding = newline.is_none();
                return Ok(Read::TooLong);
            }
            self.buf.extend_from_slice(&avail[..take]);
            self.read.consume(take);
            if newline.is_some() {
                self.buf.pop();
                return Ok(Read::Line);
            }
        }
    }
}

/// Reads lines until the input ends or the service stops listening: messages go to rmcp, replies
/// straight to the output.
///
/// Until the client has sent a request that can start the session (anything but `ping` and
/// `server/discover`), notifications and responses are dropped: rmcp ends the whole session when
/// one arrives before `initialize`, and every later request would go unanswered.
async fn read_loop<R: AsyncRead + Unpin>(
    mut lines: LineReader<R>,
    to_service: mpsc::Sender<ClientJsonRpcMessage>,
    out: Arc<Output>,
) {
    let mut started = false;
    loop {
        let inbound = match lines.next().await {
            Ok(Read::Line) => classify(&lines.buf),
            Ok(Read::TooLong) => error_reply(
                Value::Null,
                PARSE_ERROR,
                format!("parse error: the line is longer than {} bytes", lines.max),
            ),
            Ok(Read::Eof) => break,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the MCP input");
                break;
            }
        };
        match inbound {
            Inbound::Message(m) => {
                match &*m {
                    JsonRpcMessage::Request(r) => {
                        started |= !matches!(
                            r.request,
                            ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_)
                        );
                    }
                    _ if !started => {
                        tracing::debug!("ignored a notification or response before initialize");
                        continue;
                    }
                    _ => {}
                }
                if to_service.send(*m).await.is_err() {
                    break;
                }
            }
            Inbound::Reply(r) => {
                tracing::warn!(
                    id = %r.id,
                    code = r.error.code,
                    message = %r.error.message,
                    "answered a malformed JSON-RPC message"
                );
                let line = serde_json::to_vec(&r).unwrap_or_default();
                if let Err(e) = out.write_line(line).await {
                    tracing::error!(error = %e, "cannot write the MCP output");
                    break;
                }
            }
            Inbound::Ignore(why) => tracing::debug!(why, "ignored an input line"),
        }
    }
}

/// Newline-delimited JSON-RPC over a reader and a writer, every line checked by [`classify`].
pub(crate) struct LineTransport {
    inbound: mpsc::Receiver<ClientJsonRpcMessage>,
    out: Arc<Output>,
    reader: tokio::task::JoinHandle<()>,
}

impl LineTransport {
    /// Starts reading `read` on a task of the current runtime.
    pub(crate) fn new<R, W>(read: R, write: W, max_line: usize) -> Self
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Send + 'static,
    {
        let out = Arc::new(Output {
            writer: Mutex::new(Some(Box::pin(write))),
        });
        let (tx, inbound) = mpsc::channel(16);
        let lines = LineReader {
            read: BufReader::with_capacity(64 * 1024, read),
            buf: Vec::new(),
            max: max_line,
            discarding: false,
        };
        let reader = tokio::spawn(read_loop(lines, tx, Arc::clone(&out)));
        LineTransport {
            inbound,
            out,
            reader,
        }
    }
}

impl Drop for LineTransport {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

impl Transport<RoleServer> for LineTransport {
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl std::future::Future<Output = io::Result<()>> + Send + 'static {
        let out = Arc::clone(&self.out);
        let line = serde_json::to_vec(&item);
        async move { out.write_line(line.map_err(io::Error::other)?).await }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        self.inbound.recv().await
    }

    async fn close(&mut self) -> io::Result<()> {
        self.reader.abort();
        self.inbound.close();
        self.out.writer.lock().await.take();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(line: &str) -> Value {
        match classify(line.as_bytes()) {
            Inbound::Reply(r) => serde_json::to_value(r).unwrap(),
            other => panic!("{line}: expected a reply, got {other:?}"),
        }
    }

    fn code_and_id(line: &str) -> (i64, Value) {
        let v = reply(line);
        assert_eq!(v["jsonrpc"], "2.0", "{v}");
        assert!(v.as_object().unwrap().contains_key("id"), "{v}");
        (v["error"]["code"].as_i64().unwrap(), v["id"].clone())
    }

    fn message(line: &str) -> ClientJsonRpcMessage {
        match classify(line.as_bytes()) {
            Inbound::Message(m) => *m,
            other => panic!("{line}: expected a message, got {other:?}"),
        }
    }

    fn nested(depth: usize) -> String {
        format!("{}{}", "[".repeat(depth), "]".repeat(depth))
    }

    #[test]
    fn parse_errors_and_invalid_requests() {
        for line in ["{not json", "{\"jsonrpc\":\"2.0\",\"id\":1", "\u{1}", "nul"] {
            assert_eq!(code_and_id(line), (-32700, Value::Null), "{line}");
        }
        assert_eq!(
            code_and_id("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} x"),
            (-32700, Value::Null)
        );
        for (line, want) in [
            ("[]", (-32600, Value::Null)),
            (
                "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
                (-32600, Value::Null),
            ),
            ("5", (-32600, Value::Null)),
            ("{}", (-32600, Value::Null)),
            ("{\"id\":4}", (-32600, json!(4))),
            ("{\"id\":8,\"method\":\"tools/list\"}", (-32600, json!(8))),
            (
                "{\"jsonrpc\":\"1.0\",\"id\":\"a\",\"method\":\"ping\"}",
                (-32600, json!("a")),
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":5}",
                (-32600, json!(9)),
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}",
                (-32600, json!(1.5)),
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
                (-32600, Value::Null),
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}",
                (-32600, Value::Null),
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}",
                (-32600, Value::Null),
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"result\":{}}",
                (-32600, json!(3)),
            ),
        ] {
            assert_eq!(code_and_id(line), want, "{line}");
        }
    }

    #[test]
    fn bad_params_of_known_methods() {
        for line in [
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[1]}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":5}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x","_meta":7}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/list","params":[]}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":1}}"#,
        ] {
            assert_eq!(code_and_id(line), (-32602, json!(4)), "{line}");
        }
        let v = reply(r#"{"jsonrpc":"2.0","id":4,"method":"initialize","params":{}}"#);
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("invalid params for initialize: missing field"),
            "{v}"
        );
        // An unknown method goes on to rmcp, which answers -32601 with the id.
        let m = message(r#"{"jsonrpc":"2.0","id":4,"method":"nope"}"#);
        assert!(matches!(m, JsonRpcMessage::Request(_)), "{m:?}");
    }

    #[test]
    fn the_methods_served_parse_into_typed_requests() {
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"stat","arguments":{"path":"a"}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stat","arguments":null}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stat"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"prompts/list"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#,
        ] {
            match message(line) {
                JsonRpcMessage::Request(r) => assert!(
                    !matches!(r.request, ClientRequest::CustomRequest(_)),
                    "{line}: {r:?}"
                ),
                other => panic!("{line}: {other:?}"),
            }
        }
    }

    #[test]
    fn arguments_that_are_not_an_object_ride_along() {
        for args in ["[1,2]", "\"x\"", "7", "true", &nested(100)] {
            let line = format!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"read_file","arguments":{args}}}}}"#
            );
            let JsonRpcMessage::Request(r) = message(&line) else {
                panic!("{line}: not a request")
            };
            let ClientRequest::CallToolRequest(call) = r.request else {
                panic!("{line}: not a tools/call: {:?}", r.request)
            };
            assert_eq!(call.params.name, "read_file");
            assert!(call.params.arguments.is_none());
            let bad = call.extensions.get::<BadArguments>().expect("BadArguments");
            assert_eq!(bad.0, serde_json::from_str::<Value>(args).unwrap());
        }
    }

    #[test]
    fn notifications_and_responses_are_never_answered() {
        for line in [
            "",
            "   ",
            "\r",
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}"#,
            r#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","method":7}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}"#,
            r#"{"jsonrpc":"2.0","result":5}"#,
        ] {
            assert!(
                matches!(
                    classify(line.as_bytes()),
                    Inbound::Ignore(_) | Inbound::Message(_)
                ),
                "{line:?}"
            );
        }
        let deep = format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"x":{}}}}}"#,
            nested(5000)
        );
        assert!(matches!(classify(deep.as_bytes()), Inbound::Ignore(_)));
        let m = message(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        assert!(matches!(m, JsonRpcMessage::Notification(_)), "{m:?}");
    }

    #[test]
    fn deep_nesting_is_answered_with_the_id_when_it_is_json() {
        let args = nested(5000);
        for (line, want) in [
            (
                format!(
                    r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"read_file","arguments":{args}}}}}"#
                ),
                (-32600, json!(3)),
            ),
            (
                format!(r#"{{"params":{{"a":{args}}},"method":"x","id":"late","jsonrpc":"2.0"}}"#),
                (-32600, json!("late")),
            ),
            (
                format!(r#"{{"jsonrpc":"2.0","id":{{"x":{args}}},"method":"x"}}"#),
                (-32600, Value::Null),
            ),
            (args.clone(), (-32600, Value::Null)),
            // Not JSON after all: a parse error.
            (
                format!(r#"{{"jsonrpc":"2.0","id":3,"method":"x","params":{args}"#),
                (-32700, Value::Null),
            ),
            (format!("{args},"), (-32700, Value::Null)),
            ("[".repeat(5000), (-32700, Value::Null)),
        ] {
            assert_eq!(code_and_id(&line), want, "{}", &line[..60.min(line.len())]);
        }
    }

    /// The scanner agrees with serde_json wherever serde_json can decide.
    #[test]
    fn scanner_agrees_with_serde_json() {
        let cases = [
            "null",
            "true",
            "false",
            "0",
            "-0",
            "1.5",
            "-1e10",
            "1E+2",
            "2e-3",
            "01",
            "1.",
            ".5",
            "-",
            "+1",
            "1e",
            "\"\"",
            "\"a\\\"b\"",
            "\"\\u00e9\"",
            "\"\\x\"",
            "\"\\u12\"",
            "\"a\tb\"",
            "[]",
            "[1,]",
            "[,1]",
            "[1 2]",
            "{}",
            "{\"a\":1}",
            "{\"a\" 1}",
            "{\"a\":}",
            "{a:1}",
            "{\"a\":1,}",
            "{\"a\":[{\"b\":[]}]}",
            "[[[]]]",
            "[[]",
            "[]]",
            "{\"a\":1}}",
            " [ 1 , 2 ] ",
            "tru",
            "nulll",
            "\"unterminated",
            "{\"id\":1,\"method\":\"m\"}",
            "[1]x",
            "",
        ];
        for c in cases {
            let serde = serde_json::from_str::<Value>(c).is_ok();
            assert_eq!(scan_top_level(c.as_bytes()).is_some(), serde, "{c:?}");
        }
        assert_eq!(
            scan_top_level(br#"{"x":[1,{"id":2}],"id":"r","method":null}"#),
            Some(TopLevel {
                object: true,
                id: Some(json!("r")),
                method: true
            })
        );
        assert_eq!(
            scan_top_level(br#"{"\u0069d":7}"#).unwrap().id,
            Some(json!(7))
        );
        assert!(!scan_top_level(b"[1]").unwrap().object);
        assert_eq!(scan_top_level(b"\xff"), None);
    }

    async fn run_lines(input: Vec<u8>, max: usize) -> (Vec<Value>, Vec<ClientJsonRpcMessage>) {
        let (client_out, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, mut client_in) = tokio::io::duplex(1 << 16);
        let mut t = LineTransport::new(server_in, server_out, max);
        let writer = tokio::spawn(async move {
            let mut w = client_out;
            w.write_all(&input).await.unwrap();
            // Dropping `w` ends the input.
        });
        let mut got = Vec::new();
        while let Some(m) = t.receive().await {
            got.push(m);
        }
        writer.await.unwrap();
        t.close().await.unwrap();
        let mut text = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut client_in, &mut text)
            .await
            .unwrap();
        for l in text.lines() {
            assert!(l.starts_with(r#"{"jsonrpc":"2.0","id":"#), "{l}");
        }
        let replies = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (replies, got)
    }

    #[tokio::test]
    async fn long_lines_are_answered_and_skipped() {
        let mut input = Vec::new();
        input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
        input.extend_from_slice(&vec![b'x'; 5000]);
        input.extend_from_slice(b"\n{not json\n");
        input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\r\n");
        input.extend_from_slice(&vec![b' '; 3000]);
        input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
        let (replies, got) = run_lines(input, 1024).await;
        let codes: Vec<i64> = replies
            .iter()
            .map(|r| r["error"]["code"].as_i64().unwrap())
            .collect();
        assert_eq!(codes, [-32700, -32700, -32700], "{replies:?}");
        assert!(replies.iter().all(|r| r["id"].is_null()));
        assert!(replies[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("longer than 1024 bytes"));
        let ids: Vec<String> = got
            .iter()
            .map(|m| match m {
                JsonRpcMessage::Request(r) => r.id.to_string(),
                other => panic!("{other:?}"),
            })
            .collect();
        // The unterminated last line is too long as well (3,000 spaces first).
        assert_eq!(ids, ["1", "2"]);
    }

    #[tokio::test]
    async fn notifications_before_the_session_starts_are_dropped() {
        let lines = [
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":9,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ];
        let (replies, got) = run_lines(lines.join("\n").into_bytes(), MAX_LINE).await;
        assert!(replies.is_empty(), "{replies:?}");
        let kinds: Vec<&str> = got
            .iter()
            .map(|m| match m {
                JsonRpcMessage::Request(_) => "request",
                JsonRpcMessage::Notification(_) => "notification",
                _ => "other",
            })
            .collect();
        assert_eq!(kinds, ["request", "request", "notification"]);
    }

    #[tokio::test]
    async fn an_unterminated_last_line_is_read() {
        let (replies, got) = run_lines(
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"
                .to_vec(),
            MAX_LINE,
        )
        .await;
        assert!(replies.is_empty(), "{replies:?}");
        assert_eq!(got.len(), 2);
    }
}
