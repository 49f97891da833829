//! Reading one input line: [`classify`] decides whether it goes to rmcp, gets an error reply at once,
//! or is ignored. Ids are echoed as the client wrote them (see [`Echo`]): serde_json reads an integer
//! past `u64` as a float, so their text comes from the line itself ([`scan_top_level`]).

use super::cost::parsed_bytes;
use super::ids::{Echo, Track};
use super::json::{scan_top_level, TopLevel, RAW_ID, RAW_REQUEST_ID, RAW_TOKEN};
use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, InitializeRequestParams,
    JsonRpcMessage, NumberOrString,
};
use serde::Serialize;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

pub(super) const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const INVALID_PARAMS: i64 = -32602;

/// The `arguments` of a `tools/call` that were not a JSON object. The request reaches the handler
/// without them and with this in its extensions, and the handler reports them as a tool error.
#[derive(Debug, Clone)]
pub(crate) struct BadArguments(pub(crate) Value);

/// The `arguments` object of a `tools/call`, taken out of the request before rmcp parses it and
/// handed to the handler beside it: rmcp's untagged message types buffer a request whole (serde's
/// `Content`) and build its arguments again from that, so a large call would be held three times
/// over at once. Clones share the one value; the handler takes it.
#[derive(Debug, Clone)]
pub(crate) struct Arguments(Arc<Mutex<Option<Value>>>);

impl Arguments {
    fn new(v: Value) -> Self {
        Arguments(Arc::new(Mutex::new(Some(v))))
    }

    /// The arguments, the first time it is asked.
    pub(crate) fn take(&self) -> Option<Value> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// What one input line asks of the server.
#[derive(Debug)]
pub(crate) enum Inbound {
    /// A message for the MCP service, and what the transport keeps about it (a request's id as the
    /// client wrote it, a cancellation's target).
    Message(Box<ClientJsonRpcMessage>, Track),
    /// A JSON-RPC error response to write back at once.
    Reply(ErrorReply),
    /// Nothing to answer (a blank line, a notification or a client response that does not parse);
    /// the text says why, for the log.
    Ignore(&'static str),
}

/// A JSON-RPC error response: `{"jsonrpc": "2.0", "id": ..., "error": {"code": ..., "message": ...}}`
/// (fields in that order, as rmcp writes its own), the id exactly as the request wrote it.
#[derive(Debug)]
pub(crate) struct ErrorReply {
    /// The JSON text of the request's id, or `null` when it cannot be read.
    pub(crate) id: String,
    pub(crate) error: ErrorBody,
}

#[derive(Debug, Serialize)]
pub(crate) struct ErrorBody {
    pub(crate) code: i64,
    pub(crate) message: String,
}

impl ErrorReply {
    /// The reply as one line of JSON (without the newline).
    pub(crate) fn to_line(&self) -> Vec<u8> {
        let mut out = br#"{"jsonrpc":"2.0","id":"#.to_vec();
        out.extend_from_slice(self.id.as_bytes());
        out.extend_from_slice(br#","error":"#);
        // An ErrorBody (an integer and a string) always serializes.
        out.extend_from_slice(&serde_json::to_vec(&self.error).unwrap_or_default());
        out.push(b'}');
        out
    }
}

pub(super) fn error_reply(id: impl Into<String>, code: i64, message: impl Into<String>) -> Inbound {
    Inbound::Reply(ErrorReply {
        id: id.into(),
        error: ErrorBody {
            code,
            message: message.into(),
        },
    })
}

const NULL: &str = "null";

/// An id-like member (an id, a `requestId`, a progress token) as the client wrote it.
#[derive(Debug, PartialEq)]
pub(crate) enum IdText {
    /// A string or an integer (any size): `key` is its text (a string's as serde_json writes it),
    /// `echo` how to write it back.
    Valid { key: String, echo: Echo },
    /// A number that is not an integer (`1.5`, `1e3`, `-1e400`): its exact text.
    NotInteger(String),
    /// Anything else (null, a boolean, a container).
    Other,
}

/// Reads the member `v` (None when absent or unreadable by serde_json) whose exact text, when the
/// line needs scanning, is at `raw` of the scan.
fn id_text(v: Option<&Value>, raw: usize, line: &[u8], scan: &mut Option<TopLevel>) -> IdText {
    let mut exact = || {
        scan.get_or_insert_with(|| scan_top_level(line).unwrap_or_default())
            .raw[raw]
            .clone()
    };
    let text = match v {
        Some(Value::String(s)) => {
            let key = serde_json::to_string(s).unwrap_or_default();
            let echo = Echo::Id(NumberOrString::String(Arc::from(s.as_str())));
            return IdText::Valid { key, echo };
        }
        Some(Value::Number(n)) => match n.as_i64() {
            // serde_json reads `-0` as an integer 0: echo the text, not the value.
            Some(i) if i != 0 => {
                return IdText::Valid {
                    key: i.to_string(),
                    echo: Echo::Id(NumberOrString::Number(i)),
                }
            }
            _ => exact(),
        },
        // A number serde_json refused (out of range): the scan has its text.
        None => exact(),
        Some(_) => return IdText::Other,
    };
    let Some(text) = text else {
        return IdText::Other;
    };
    if !text.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
        return IdText::Other;
    }
    if text.bytes().all(|b| b == b'-' || b.is_ascii_digit()) {
        // Canonical when serde_json writes the same text back: then rmcp's own id will do.
        let echo = match text.parse::<i64>() {
            Ok(i) if i.to_string() == text => Echo::Id(NumberOrString::Number(i)),
            _ => Echo::Raw(text.clone()),
        };
        IdText::Valid { key: text, echo }
    } else {
        IdText::NotInteger(text)
    }
}

impl IdText {
    /// The text to answer with: the id's own when it is a string or a number, else `null`.
    fn reply(&self) -> String {
        match self {
            IdText::Valid { echo, .. } => echo.text(),
            IdText::NotInteger(t) => t.clone(),
            IdText::Other => NULL.into(),
        }
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

/// Classifies one line (without its newline). A line whose parsed tree would take more than
/// `room` bytes (the call's memory budget, `max_call_memory`) is refused before it is parsed.
pub(crate) fn classify(line: &[u8], room: u64) -> Inbound {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Inbound::Ignore("blank line");
    }
    let cost = parsed_bytes(line);
    if cost > room {
        let why = format!(
            "invalid request: parsing it would take about {cost} bytes of memory, over the \
             {room} bytes one request's parse may take of the call's memory budget (raise it \
             with --max-call-memory, or `max_call_memory` in the config file's limits); send \
             fewer, larger JSON values"
        );
        return refused_unparsed(line, why, "notification too large to parse");
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => return refused_by_serde(line, &e),
    };
    let obj = match value {
        Value::Object(o) => o,
        Value::Array(_) => {
            return error_reply(
                NULL,
                INVALID_REQUEST,
                "invalid request: batches are not supported; send one JSON-RPC object per line",
            )
        }
        _ => {
            return error_reply(
                NULL,
                INVALID_REQUEST,
                "invalid request: a JSON-RPC message is a JSON object",
            )
        }
    };
    let mut scan = None;
    if !obj.contains_key("method") {
        return without_method(obj, line, &mut scan);
    }
    if !obj.contains_key("id") {
        return notification(obj, line, &mut scan);
    }
    request(obj, line, &mut scan)
}

/// JSON that serde_json does not take: nested deeper than its recursion limit, or a number out of
/// range (`-1e400`). Answered with the id when there is one.
fn refused_by_serde(line: &[u8], e: &serde_json::Error) -> Inbound {
    if scan_top_level(line).is_none() {
        return error_reply(NULL, PARSE_ERROR, format!("parse error: {e}"));
    }
    let why = if e.to_string().starts_with("recursion limit exceeded") {
        "invalid request: the message nests deeper than 128 levels".to_string()
    } else {
        format!("invalid request: {e}")
    };
    refused_unparsed(line, why, "notification serde_json cannot read")
}

/// A line refused without serde_json's tree (`why`): answered with its id, read by the scan,
/// when it has one; a notification is ignored (`ignored` says why, for the log).
fn refused_unparsed(line: &[u8], why: String, ignored: &'static str) -> Inbound {
    let Some(top) = scan_top_level(line) else {
        return error_reply(NULL, PARSE_ERROR, "parse error: the line is not JSON");
    };
    match top {
        TopLevel {
            object: true,
            id: Some(ref id),
            ..
        } => {
            let id = id.is_string().then(|| id.clone());
            let mut scan = Some(top);
            let text = id_text(id.as_ref(), RAW_ID, line, &mut scan);
            error_reply(text.reply(), INVALID_REQUEST, why)
        }
        TopLevel {
            object: true,
            method: true,
            ..
        } => Inbound::Ignore(ignored),
        _ => error_reply(NULL, INVALID_REQUEST, why),
    }
}

/// An object without a method: a response to a request of ours (never answered), or an invalid
/// request.
fn without_method(
    obj: serde_json::Map<String, Value>,
    line: &[u8],
    scan: &mut Option<TopLevel>,
) -> Inbound {
    if obj.contains_key("result") || obj.contains_key("error") {
        // A response to a request of ours: never answered.
        return match serde_json::from_value::<ClientJsonRpcMessage>(Value::Object(obj)) {
            Ok(m) => Inbound::Message(Box::new(m), Track::None),
            Err(_) => Inbound::Ignore("malformed response from the client"),
        };
    }
    let id = id_text(obj.get("id"), RAW_ID, line, scan);
    error_reply(id.reply(), INVALID_REQUEST, "invalid request: no method")
}

/// A request: checked, given an id (and progress token) of the transport's own, and parsed by rmcp.
fn request(
    mut obj: serde_json::Map<String, Value>,
    line: &[u8],
    scan: &mut Option<TopLevel>,
) -> Inbound {
    let (key, echo) = match id_text(obj.get("id"), RAW_ID, line, scan) {
        IdText::Valid { key, echo } => (key, echo),
        other => {
            return error_reply(
                other.reply(),
                INVALID_REQUEST,
                "invalid request: the id must be a string or an integer",
            )
        }
    };
    let id = echo.text();
    let method = match request_method(&obj) {
        Ok(m) => m,
        Err((code, why)) => return error_reply(id, code, why),
    };
    // The transport gives each request an id of its own (and a progress token rmcp cannot read
    // one of its own): the client's text is kept to answer with.
    obj.insert("id".into(), json!(0));
    let token = stand_in_token(&mut obj, line, scan);
    let (mut bad_arguments, mut arguments) = (None, None);
    if method == "tools/call" {
        match tool_arguments(&mut obj) {
            Ok(bad) => bad_arguments = bad,
            Err(why) => return error_reply(id, INVALID_PARAMS, why),
        }
        arguments = take_arguments(&mut obj);
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
                if let Some(a) = arguments {
                    call.extensions.insert(Arguments::new(a));
                }
            }
            _ => {}
        }
    }
    Inbound::Message(Box::new(msg), Track::Request { key, echo, token })
}

/// A request's method, or what is wrong with its shape (the error code and message).
fn request_method(obj: &serde_json::Map<String, Value>) -> Result<String, (i64, String)> {
    if obj.get("jsonrpc") != Some(&json!("2.0")) {
        return Err((
            INVALID_REQUEST,
            "invalid request: \"jsonrpc\" must be \"2.0\"".into(),
        ));
    }
    let Some(method) = obj["method"].as_str().map(str::to_owned) else {
        return Err((
            INVALID_REQUEST,
            "invalid request: the method must be a string".into(),
        ));
    };
    if obj.contains_key("result") || obj.contains_key("error") {
        return Err((
            INVALID_REQUEST,
            "invalid request: a request has no result or error".into(),
        ));
    }
    if obj
        .get("params")
        .is_some_and(|p| !p.is_object() && !p.is_null())
    {
        return Err((
            INVALID_PARAMS,
            format!("invalid params: the params of {method} must be a JSON object"),
        ));
    }
    Ok(method)
}

/// Replaces a progress token rmcp cannot read (an integer past `i64`) by a stand-in of the
/// transport's own, and returns the stand-in with the client's text.
fn stand_in_token(
    obj: &mut serde_json::Map<String, Value>,
    line: &[u8],
    scan: &mut Option<TopLevel>,
) -> Option<(Arc<str>, String)> {
    let Some(Value::Object(meta)) = obj.get_mut("params").and_then(|p| p.get_mut("_meta")) else {
        return None;
    };
    let t = meta.get("progressToken")?;
    let IdText::Valid {
        echo: Echo::Raw(raw),
        ..
    } = id_text(Some(t), RAW_TOKEN, line, scan)
    else {
        return None;
    };
    let stand_in = super::ids::token_stand_in();
    meta.insert("progressToken".into(), json!(&*stand_in));
    Some((stand_in, raw))
}

/// Checks a `tools/call`'s params and takes out `arguments` that are not an object (the handler
/// reports them as a tool error); the error message when the params name no tool.
fn tool_arguments(obj: &mut serde_json::Map<String, Value>) -> Result<Option<Value>, &'static str> {
    let Some(Value::Object(params)) = obj.get_mut("params") else {
        return Err("invalid params: tools/call needs params with the tool's name");
    };
    if !params.get("name").is_some_and(Value::is_string) {
        return Err("invalid params: tools/call needs the tool's name (a string) in params.name");
    }
    if params
        .get("arguments")
        .is_some_and(|a| !a.is_object() && !a.is_null())
    {
        return Ok(params.remove("arguments"));
    }
    Ok(None)
}

/// Takes a `tools/call`'s `arguments` object out of its params (see [`Arguments`]).
fn take_arguments(obj: &mut serde_json::Map<String, Value>) -> Option<Value> {
    let params = obj.get_mut("params")?.as_object_mut()?;
    params
        .get("arguments")?
        .is_object()
        .then(|| params.remove("arguments"))?
}

/// A notification: never answered, whatever is wrong with it. A cancellation names the request
/// by the client's id; the transport turns it into its own (see [`Track::Cancel`]).
fn notification(
    mut obj: serde_json::Map<String, Value>,
    line: &[u8],
    scan: &mut Option<TopLevel>,
) -> Inbound {
    let shaped = obj.get("jsonrpc") == Some(&json!("2.0"))
        && obj.get("method").is_some_and(Value::is_string)
        && obj
            .get("params")
            .is_none_or(|p| p.is_object() || p.is_null());
    if !shaped {
        return Inbound::Ignore("malformed notification");
    }
    let mut track = Track::None;
    if obj.get("method") == Some(&json!("notifications/cancelled")) {
        if let Some(Value::Object(params)) = obj.get_mut("params") {
            if let Some(target) = params.remove("requestId") {
                track = match id_text(Some(&target), RAW_REQUEST_ID, line, scan) {
                    IdText::Valid { key, .. } => Track::Cancel(key),
                    _ => return Inbound::Ignore("cancellation of an id that is not one"),
                };
            }
        }
    }
    match serde_json::from_value::<ClientJsonRpcMessage>(Value::Object(obj)) {
        Ok(m) => Inbound::Message(Box::new(m), track),
        Err(_) => Inbound::Ignore("malformed notification"),
    }
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
