//! A Rust agent loop with rootbound: hand the tool definitions to the model, dispatch its tool calls,
//! feed the JSON results back. The model is simulated by a fixed list of tool calls.
//!
//! ```text
//! cargo run --example agent_loop -- [DIR | agents.toml]
//! ```

use rootbound::config::{AgentTools, Config};
use rootbound::Sandbox;
use serde_json::{json, Value};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let arg = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    // Either one root from the command line, or an agent from a config file.
    let tools: AgentTools = if arg.ends_with(".toml") || arg.ends_with(".json") {
        Config::load(&arg)?.agent(None)?.build()?
    } else {
        let sandbox = Sandbox::builder().root(&arg).deny(".env").build()?;
        AgentTools::from_sandbox(sandbox.with_agent("example"))
    };

    // 1. The request to the model carries the tool definitions (OpenAI function-calling shape).
    let defs: Vec<Value> = tools.tool_definitions();
    let mut messages = vec![json!({"role": "user", "content": "Where is main defined?"})];
    let _request = json!({"model": "any", "messages": messages, "tools": defs});
    println!(
        "offering {} tools: {:?}",
        defs.len(),
        defs.iter()
            .map(|d| d["function"]["name"].as_str().unwrap_or(""))
            .collect::<Vec<_>>()
    );

    // 2. What a model might answer with: tool calls, arguments as JSON text.
    let model_calls = [
        ("call_1", "glob", r#"{"pattern": "*.rs", "limit": 5}"#),
        (
            "call_2",
            "grep_search",
            r#"{"pattern": "fn main", "limit": 3}"#,
        ),
        (
            "call_3",
            "read_file",
            r#"{"path": "Cargo.toml", "limit": 200}"#,
        ),
        ("call_4", "read_file", r#"{"path": "../../etc/passwd"}"#), // refused: OUT_OF_SANDBOX
    ];

    // 3. Dispatch each call; `call` always returns JSON (the result, or {"error": {...}}).
    for (id, name, arguments) in model_calls {
        let args: Value = serde_json::from_str(arguments).unwrap_or(Value::Null);
        let result = tools.call(name, args);
        match result.get("error") {
            Some(e) => println!("{name}: error {} ({})", e["code"], e["message"]),
            None => println!("{name}: ok, truncated={}", result["truncated"]),
        }
        // 4. The result goes back to the model as a tool message; the loop continues with its answer.
        messages.push(json!({"role": "tool", "tool_call_id": id, "content": result.to_string()}));
    }
    println!("{} messages for the next model turn", messages.len());
    Ok(())
}
