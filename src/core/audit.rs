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

/// What a successful call reports besides its target.
pub(crate) struct Fields {
    pub bytes: u64,
    pub matches: u64,
    pub truncated: bool,
    pub result: &'static str,
}

impl Fields {
    pub fn ok(bytes: u64, matches: u64, truncated: bool) -> Self {
        Fields {
            bytes,
            matches,
            truncated,
            result: "ok",
        }
    }
}

impl crate::core::sandbox::Sandbox {
    /// Runs one tool call within `budget` and emits its audit event: `path=` when the call
    /// resolved a path (the root-relative name `run` returns), else `request=` with the agent's
    /// argument verbatim.
    pub(crate) fn audited<T>(
        &self,
        budget: &crate::core::deadline::Budget,
        tool: &'static str,
        request: Option<&str>,
        run: impl FnOnce() -> crate::core::error::Result<(T, Option<String>)>,
        fields: impl FnOnce(&T) -> Fields,
    ) -> crate::core::error::Result<T> {
        let audit = Audit {
            agent: &self.agent,
            tool,
            started: Instant::now(),
        };
        let asked = || request.map_or(Target::None, Target::Request);
        // Every tool call passes here: one started with a cancelled budget does nothing.
        let outcome = if budget.is_cancelled() {
            Err(crate::core::error::Error::cancelled())
        } else {
            run()
        };
        match outcome {
            Ok((value, path)) => {
                let f = fields(&value);
                let target = path.map_or_else(asked, Target::Path);
                let result = if f.result == "timed_out" && budget.is_cancelled() {
                    "cancelled"
                } else {
                    f.result
                };
                audit.emit(target, f.bytes, f.matches, f.truncated, result);
                Ok(value)
            }
            Err(e) => {
                audit.emit(asked(), 0, 0, false, e.code.as_str());
                Err(e)
            }
        }
    }
}
