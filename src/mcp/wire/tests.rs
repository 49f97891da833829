//! The transport's tests: every kind of line, and the reader's limits.

use super::json::{scan_top_level, TopLevel};
use super::*;
use serde_json::json;
use serde_json::Value;
use std::time::Duration;

/// Classifies with no memory bound (the bound has tests of its own).
fn classify(line: &[u8]) -> Inbound {
    super::classify(line, u64::MAX)
}

fn reply(line: &str) -> Value {
    match classify(line.as_bytes()) {
        Inbound::Reply(r) => serde_json::from_slice(&r.to_line()).unwrap(),
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
        Inbound::Message(m, _) => *m,
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
                Inbound::Ignore(_) | Inbound::Message(..)
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
            method: true,
            raw: [Some("\"r\"".into()), None, None],
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
    let mut t = LineTransport::with_limits(server_in, server_out, max, u64::MAX, Duration::ZERO);
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

#[test]
fn ids_keep_their_text() {
    use super::ids::Echo;
    use super::scan::IdText;
    let track = |line: &str| match classify(line.as_bytes()) {
        Inbound::Message(_, t) => t,
        other => panic!("{line}: {other:?}"),
    };
    for (id, echo) in [
        ("7", Echo::Id(rmcp::model::NumberOrString::Number(7))),
        (
            "18446744073709551621",
            Echo::Raw("18446744073709551621".into()),
        ),
        ("-0", Echo::Raw("-0".into())),
        ("0", Echo::Id(rmcp::model::NumberOrString::Number(0))),
        (
            "\"a\\u0041\"",
            Echo::Id(rmcp::model::NumberOrString::String("aA".into())),
        ),
    ] {
        let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
        match track(&line) {
            super::ids::Track::Request { echo: got, .. } => assert_eq!(got, echo, "{id}"),
            other => panic!("{id}: {other:?}"),
        }
    }
    for (id, text) in [
        ("-1e400", "-1e400"),
        ("1.5", "1.5"),
        ("true", "null"),
        ("[1]", "null"),
    ] {
        let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
        match classify(line.as_bytes()) {
            Inbound::Reply(r) => assert_eq!(r.id, text, "{id}"),
            other => panic!("{id}: {other:?}"),
        }
    }
    let _ = IdText::Other;
}

#[test]
fn replies_progress_and_cancellations_name_the_clients_ids() {
    use super::ids::InFlight;
    use rmcp::model::{
        ClientNotification, NumberOrString, ProgressNotificationParam, ProgressToken,
        ServerJsonRpcMessage, ServerNotification, ServerResult,
    };
    let ids = InFlight::default();
    let big = "123456789012345678901234567890";
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":{big},"method":"ping","params":{{"_meta":{{"progressToken":{big}1}}}}}}"#
    );
    let Inbound::Message(m, track) = classify(line.as_bytes()) else {
        panic!("not a message")
    };
    let stand_in = match &track {
        super::ids::Track::Request {
            token: Some((s, raw)),
            ..
        } => {
            assert_eq!(raw, &format!("{big}1"));
            s.clone()
        }
        other => panic!("{other:?}"),
    };
    let JsonRpcMessage::Request(req) = ids.inbound(*m, track).unwrap() else {
        panic!("not a request")
    };
    let NumberOrString::Number(n) = req.id else {
        panic!("{:?}", req.id)
    };
    assert_eq!(ids.waiting(), 1);
    // Progress names the client's token.
    let p = ProgressNotificationParam::new(ProgressToken(NumberOrString::String(stand_in)), 3.0);
    let note = ServerJsonRpcMessage::notification(ServerNotification::ProgressNotification(
        rmcp::model::Notification::new(p),
    ));
    let text = String::from_utf8(ids.outbound(note).unwrap()).unwrap();
    assert!(
        text.contains(&format!("\"progressToken\":{big}1")),
        "{text}"
    );
    // A cancellation by the client's id names the transport's.
    let cancel = format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{big}}}}}"#
    );
    let Inbound::Message(c, t) = classify(cancel.as_bytes()) else {
        panic!("not a message")
    };
    let JsonRpcMessage::Notification(c) = ids.inbound(*c, t).unwrap() else {
        panic!("not a notification")
    };
    let ClientNotification::CancelledNotification(c) = c.notification else {
        panic!("not a cancellation")
    };
    assert_eq!(c.params.request_id, Some(NumberOrString::Number(n)));
    assert_eq!(ids.waiting(), 0, "a cancelled request is not waited for");
    // Its reply, should rmcp still send one, names the client's id.
    let reply = ServerJsonRpcMessage::response(ServerResult::empty(()), NumberOrString::Number(n));
    let text = String::from_utf8(ids.outbound(reply).unwrap()).unwrap();
    assert!(text.contains(&format!("\"id\":{big},")), "{text}");
    // A cancellation of an id not in flight is dropped.
    let Inbound::Message(c, t) = classify(cancel.as_bytes()) else {
        panic!("not a message")
    };
    assert!(ids.inbound(*c, t).is_none());
}

/// A request whose parsed tree would pass the call's memory budget is refused before it is
/// parsed, with its id and the way to raise the budget; a notification is not answered.
#[test]
fn a_request_too_costly_to_parse_is_refused_with_its_id() {
    let zeros = format!("[{}0]", "0,".repeat(1000));
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"grep_search","arguments":{{"x":{zeros}}}}}}}"#
    );
    let room = super::cost::parsed_bytes(line.as_bytes()) - 1;
    let Inbound::Reply(r) = super::classify(line.as_bytes(), room) else {
        panic!("not refused");
    };
    assert_eq!((r.id.as_str(), r.error.code), ("7", -32600));
    assert!(
        r.error.message.contains("--max-call-memory"),
        "{}",
        r.error.message
    );
    assert!(matches!(
        super::classify(line.as_bytes(), room + 1),
        Inbound::Message(..)
    ));
    let note =
        format!(r#"{{"jsonrpc":"2.0","method":"notifications/x","params":{{"x":{zeros}}}}}"#);
    assert!(matches!(
        super::classify(note.as_bytes(), 100),
        Inbound::Ignore(_)
    ));
}

/// A tools/call's arguments reach the handler beside the request, not through rmcp's parse.
#[test]
fn a_calls_arguments_ride_beside_the_request() {
    let line = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":1}}}"#;
    let Inbound::Message(m, _) = classify(line.as_bytes()) else {
        panic!("not a message");
    };
    let JsonRpcMessage::Request(r) = *m else {
        panic!("not a request");
    };
    let ClientRequest::CallToolRequest(call) = r.request else {
        panic!("not a call");
    };
    assert!(call.params.arguments.is_none());
    let a = call.extensions.get::<scan::Arguments>().unwrap();
    assert_eq!(a.take(), Some(json!({"a": 1})));
    assert_eq!(a.take(), None);
}
