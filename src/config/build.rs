//! Building an agent: opening its roots (every failure reported with the key that configured it)
//! and its sandboxes, and handing them to the router ([`AgentTools`]).

use super::model::key_part;
use super::problems::{ConfigError, Problem};
use super::AgentConfig;
use crate::core::policy::RootMode;
use crate::core::sandbox::Sandbox;
use crate::tools::router::{tool_rank, AgentTools};

impl AgentConfig {
    /// Whether the file sets the agent's `index` (`false` included): `rootbound mcp` indexes as
    /// `"auto"` only when it does not.
    pub fn index_set(&self) -> bool {
        self.index_set
    }

    /// The index a server that indexes by default (`rootbound mcp`) starts for this agent when
    /// the file does not set `index`: `"auto"`, with the file's `index_verify` and `index_dir`
    /// (which a library host, starting no index by default, does not use).
    pub fn unset_index(&self) -> crate::IndexOptions {
        self.unset_index.clone()
    }

    /// Opens every root of this agent and returns its tools. A root that cannot be opened is reported
    /// with the key that configured it (all of them at once), unless the agent's `root_mode` is
    /// `lenient`.
    pub fn build(&self) -> Result<AgentTools, ConfigError> {
        let mut problems = Vec::new();
        let lenient = self
            .plan
            .iter()
            .any(|p| p.policy.root_mode == RootMode::Lenient);
        for (path, key) in &self.origins {
            let is_write = key.ends_with(".write.root");
            if lenient && !is_write {
                continue;
            }
            // Operator-trusted paths from the config file.
            match std::fs::metadata(path) {
                Ok(m) if m.is_dir() => {}
                Ok(_) => problems.push(Problem {
                    key: key.clone(),
                    message: format!("'{}' is not a directory", path.display()),
                }),
                Err(e) => problems.push(Problem {
                    key: key.clone(),
                    message: format!("'{}' cannot be opened: {e}", path.display()),
                }),
            }
        }
        let mut sandboxes = Vec::new();
        let anchors = match problems.is_empty() {
            true => match Sandbox::new(self.anchors.clone()) {
                Ok(a) => Some(a),
                Err(e) => {
                    problems.push(Problem {
                        key: format!("agents.{}", key_part(&self.name)),
                        message: e.message,
                    });
                    None
                }
            },
            false => None,
        };
        if let Some(anchors) = &anchors {
            for p in &self.plan {
                match Sandbox::new(p.policy.clone()) {
                    Ok(sb) => sandboxes.push(
                        sb.reading_only_first(p.content_roots)
                            .anchored_by(anchors)
                            .with_agent(self.name.clone()),
                    ),
                    Err(e) => problems.push(Problem {
                        key: format!("agents.{}", key_part(&self.name)),
                        message: e.message,
                    }),
                }
            }
        }
        // Relative display must mean one object for every tool of the agent: when the write
        // section's sandbox (which knows every read root) shows absolute paths for that reason, so
        // do the read tools' sandboxes.
        // Tools with different read roots would read the same relative path in different places.
        let same_roots = sandboxes
            .windows(2)
            .all(|w| w[0].roots() == w[1].roots() || !w[1].has_read_roots());
        let absolute = !same_roots
            || sandboxes
                .iter()
                .zip(&self.plan)
                .any(|(sb, p)| sb.policy().path_display != p.policy.path_display);
        let relative = self
            .plan
            .iter()
            .any(|p| p.policy.path_display == crate::core::policy::PathDisplay::Relative);
        if let (true, true, Some(anchors)) = (absolute, relative, &anchors) {
            for (sb, p) in sandboxes.iter_mut().zip(&self.plan) {
                let mut policy = p.policy.clone();
                policy.path_display = crate::core::policy::PathDisplay::Absolute;
                match Sandbox::new(policy) {
                    Ok(new) => {
                        *sb = new
                            .reading_only_first(p.content_roots)
                            .anchored_by(anchors)
                            .with_agent(self.name.clone())
                    }
                    Err(e) => problems.push(Problem {
                        key: format!("agents.{}", key_part(&self.name)),
                        message: e.message,
                    }),
                }
            }
        }
        if !problems.is_empty() {
            problems.dedup();
            return Err(ConfigError {
                file: self.file.clone(),
                problems,
            });
        }
        // One search pool per agent (per thread count), not one per sandbox.
        for i in 1..sandboxes.len() {
            let threads = sandboxes[i].policy().limits.threads;
            if let Some(j) = (0..i).find(|&j| sandboxes[j].policy().limits.threads == threads) {
                let (done, rest) = sandboxes.split_at_mut(i);
                rest[0].share_pool_with(&done[j]);
            }
        }
        let routes = self
            .plan
            .iter()
            .enumerate()
            .flat_map(|(i, p)| p.tools.iter().map(move |t| (*t, i)))
            .collect();
        let tools = AgentTools::new(
            self.name.clone(),
            sandboxes.into_iter().map(Into::into).collect(),
            routes,
        )
        .with_profile(self.profile)
        .with_others(self.others.clone());
        Ok(match self.index.clone() {
            Some(o) => tools.with_index_options(o),
            None => tools,
        })
    }

    /// The names of the tools routed to this agent's sandboxes, in listing order. Every write
    /// tool is routed to the write section's sandbox, whose policy may still withhold one
    /// (delete_file without `allow_delete`; edit_file where the write root is not readable): the
    /// built agent's [`AgentTools::tools`](crate::config::AgentTools::tools) lists what is offered.
    pub fn tool_names(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.plan.iter().flat_map(|p| p.tools.clone()).collect();
        v.sort_by_key(|t| tool_rank(t));
        v
    }
}
