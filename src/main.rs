//! The `rootbound` command: `call` (JSON in, JSON out), `read` and `grep` for people, `schema`, `mcp`.

mod cli;
#[cfg(feature = "mcp")]
mod mcp;

fn main() {
    std::process::exit(cli::main());
}
