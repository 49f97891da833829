//! The problems of a configuration file: each one typed with the key path it concerns, and all of
//! them reported at once ([`ConfigError`]).

use std::fmt;
use std::path::{Path, PathBuf};

/// One problem in a configuration file, with the key path it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where: `agents.bot.tools.grep_search.max_results`, `agents.bot.roots[1]`; empty for the whole file.
    pub key: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.key, self.message)
        }
    }
}

/// Every problem found in a configuration file (never just the first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file, when the configuration came from one.
    pub file: Option<PathBuf>,
    /// The problems, in key order.
    pub problems: Vec<Problem>,
}

impl ConfigError {
    /// A single problem at `key` (empty for the whole file).
    pub(crate) fn one(file: Option<&Path>, key: &str, message: impl Into<String>) -> Self {
        ConfigError {
            file: file.map(Path::to_path_buf),
            problems: vec![Problem {
                key: key.into(),
                message: message.into(),
            }],
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.problems.len();
        match &self.file {
            Some(p) => write!(f, "config file '{}'", p.display())?,
            None => f.write_str("configuration")?,
        }
        if n == 1 {
            write!(f, ": {}", self.problems[0])
        } else {
            write!(f, " has {n} problems:")?;
            for p in &self.problems {
                write!(f, "\n  {p}")?;
            }
            Ok(())
        }
    }
}

impl std::error::Error for ConfigError {}
