//! Front ends and dialects: the MCP server (JSON-RPC, ids, bounds, the official SDKs), the
//! profiles (claude-code, gemini-cli, mcp-filesystem, codex), schemas and client converters, the
//! config file, and the CLI (`call`, `grep`).
//!
//! One test binary per group of behaviour (each file below is a module); tests that must own
//! their process (descriptors, rlimits, the process-global resolver switch, pool threads) keep
//! binaries of their own.

#[path = "../support/mod.rs"]
mod support;

mod cli_contract;
mod cli_grep;
mod cli_print;
mod client_converters;
mod config;
mod dialect_encodings;
mod dialect_fixes;
mod dialect_gemini_suite;
mod dialects;
mod mcp_bound;
mod mcp_filesystem_suite;
mod mcp_http;
mod mcp_http_bounds;
mod mcp_ids;
mod mcp_index_dir;
mod mcp_jsonrpc;
mod mcp_python;
mod mcp_request_memory;
mod mcp_sdk;
mod schemas;
mod strict_calls;
