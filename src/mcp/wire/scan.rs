//! Reading one input line: [`classify`] decides whether it goes to rmcp, gets an error reply at once,
//! or is ignored; [`scan_top_level`] reads a line too deep for serde_json without recursion.

use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, InitializeRequestParams,
    JsonRpcMessage, RequestId,
};
use serde::Serialize;
use serde_json::{json, Value};

pub(super) const PARSE_ERROR: i64 = -32700;
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

pub(super) fn error_reply(id: Value, code: i64, message: impl Into<String>) -> Inbound {
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
