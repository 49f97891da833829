//! One `tracing` event per call, target `rootbound::audit`.

use std::time::Instant;

/// What an audit event records about one call.
pub(crate) struct Audit<'a> {
    pub agent: &'a str,
    pub tool: &'static str,
    pub started: Instant,
}

/// Where the call was aimed: a resolved root-relative path, or the agent's raw request when resolution failed.
pub(crate) enum Target<'a> {
    Path(String),
    Request(&'a str),
    None,
}

impl Audit<'_> {
    pub fn emit(
        &self,
        target: Target<'_>,
        bytes: u64,
        matches: u64,
        truncated: bool,
        result: &str,
    ) {
        let elapsed_ms = self.started.elapsed().as_secs_f64() * 1000.0;
        match target {
            Target::Path(p) => tracing::info!(
                target: "rootbound::audit",
                agent = self.agent, tool = self.tool, path = %p, bytes, matches, truncated, result, elapsed_ms
            ),
            Target::Request(r) => tracing::info!(
                target: "rootbound::audit",
                agent = self.agent, tool = self.tool, request = ?r, bytes, matches, truncated, result, elapsed_ms
            ),
            Target::None => tracing::info!(
                target: "rootbound::audit",
                agent = self.agent, tool = self.tool, bytes, matches, truncated, result, elapsed_ms
            ),
        }
    }
}
