//! The typed reader: walks the tree ([`super::model::Node`]) and turns each value into its Rust type,
//! recording a [`Problem`] with the key path for every one that does not fit (and going on, so that
//! every problem is found). The agent table is read in [`super::agent`], the limit fields in
//! [`super::schema`].

use super::model::{join, Node};
use super::problems::Problem;
use crate::core::policy::RootSpec;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The reader: the problems so far, the environment for `${VAR}`, the directory relative paths
/// resolve against.
pub(super) struct Cx<'a> {
    pub(super) problems: Vec<Problem>,
    pub(super) env: &'a dyn Fn(&str) -> Option<String>,
    pub(super) base: PathBuf,
}

impl Cx<'_> {
    pub(super) fn err(&mut self, key: &str, message: impl Into<String>) {
        self.problems.push(Problem {
            key: key.to_string(),
            message: message.into(),
        });
    }

    pub(super) fn expected(&mut self, key: &str, what: &str, node: &Node) {
        self.err(key, format!("expected {what}, found {}", node.kind()));
    }

    /// A table whose keys are all in `allowed` (unknown keys are reported).
    pub(super) fn table<'n>(
        &mut self,
        key: &str,
        node: &'n Node,
        allowed: &[&str],
    ) -> Option<&'n BTreeMap<String, Node>> {
        let Node::Table(t) = node else {
            self.expected(key, "a table", node);
            return None;
        };
        for k in t.keys() {
            if !allowed.contains(&k.as_str()) {
                self.err(
                    &join(key, k),
                    format!("unknown key (expected one of: {})", allowed.join(", ")),
                );
            }
        }
        Some(t)
    }

    pub(super) fn string(&mut self, key: &str, node: &Node) -> Option<String> {
        match node {
            Node::Str(s) => self.expand(key, s),
            _ => {
                self.expected(key, "a string", node);
                None
            }
        }
    }

    /// Expands `${VAR}` from the environment.
    pub(super) fn expand(&mut self, key: &str, s: &str) -> Option<String> {
        let mut out = String::new();
        let mut rest = s;
        let mut ok = true;
        while let Some(i) = rest.find("${") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            let Some(end) = after.find('}') else {
                self.err(key, format!("unterminated '${{' in {s:?}"));
                return None;
            };
            let name = &after[..end];
            let valid = !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !name.as_bytes()[0].is_ascii_digit();
            if !valid {
                self.err(key, format!("'${{{name}}}' is not a valid variable name"));
                ok = false;
            } else {
                match (self.env)(name) {
                    Some(v) => out.push_str(&v),
                    None => {
                        self.err(key, format!("environment variable {name} is not set"));
                        ok = false;
                    }
                }
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        ok.then_some(out)
    }

    pub(super) fn path(&mut self, key: &str, node: &Node) -> Option<PathBuf> {
        let s = self.string(key, node)?;
        if s.is_empty() {
            self.err(key, "empty path");
            return None;
        }
        let p = PathBuf::from(&s);
        Some(if p.is_absolute() {
            p
        } else {
            self.base.join(p)
        })
    }

    pub(super) fn uint(&mut self, key: &str, node: &Node) -> Option<u64> {
        match node {
            Node::Int(i) if *i >= 0 => Some(*i as u64),
            Node::Int(_) => {
                self.err(key, "expected a non-negative integer, found a negative one");
                None
            }
            _ => {
                self.expected(key, "an integer", node);
                None
            }
        }
    }

    pub(super) fn usize(&mut self, key: &str, node: &Node) -> Option<usize> {
        let n = self.uint(key, node)?;
        match usize::try_from(n) {
            Ok(n) => Some(n),
            Err(_) => {
                self.err(key, "too large");
                None
            }
        }
    }

    pub(super) fn boolean(&mut self, key: &str, node: &Node) -> Option<bool> {
        match node {
            Node::Bool(b) => Some(*b),
            _ => {
                self.expected(key, "a boolean", node);
                None
            }
        }
    }

    /// Seconds (integer or float) as milliseconds.
    pub(super) fn secs(&mut self, key: &str, node: &Node) -> Option<u64> {
        let s = match node {
            Node::Int(i) => *i as f64,
            Node::Float(f) => *f,
            _ => {
                self.expected(key, "a number of seconds", node);
                return None;
            }
        };
        if !(s > 0.0 && s <= 1e9) {
            self.err(key, "expected a positive number of seconds");
            return None;
        }
        Some(((s * 1000.0).round() as u64).max(1))
    }

    pub(super) fn choice(&mut self, key: &str, node: &Node, choices: &[&str]) -> Option<String> {
        let s = self.string(key, node)?;
        if choices.contains(&s.as_str()) {
            Some(s)
        } else {
            self.err(
                key,
                format!("expected one of {}, found {s:?}", quoted(choices)),
            );
            None
        }
    }

    /// One of `choices` by its name (`symlinks = "never"`).
    pub(super) fn pick<T: Copy>(
        &mut self,
        key: &str,
        node: &Node,
        choices: &[(&str, T)],
    ) -> Option<T> {
        let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
        let s = self.choice(key, node, &names)?;
        choices.iter().find(|(n, _)| *n == s).map(|(_, v)| *v)
    }

    pub(super) fn strings(&mut self, key: &str, node: &Node) -> Option<Vec<String>> {
        let Node::Arr(a) = node else {
            self.expected(key, "an array of strings", node);
            return None;
        };
        let mut out = Vec::new();
        let mut ok = true;
        for (i, n) in a.iter().enumerate() {
            match self.string(&format!("{key}[{i}]"), n) {
                Some(s) => out.push(s),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// `roots = ["dir", {name = "n", path = "dir"}]`, each remembered with its key.
    pub(super) fn roots(&mut self, key: &str, node: &Node) -> Option<Vec<(RootSpec, String)>> {
        let Node::Arr(a) = node else {
            self.expected(key, "an array of directories", node);
            return None;
        };
        if a.is_empty() {
            self.err(
                key,
                "empty list (omit the key to use the agent's roots, or leave the tool out)",
            );
            return None;
        }
        let mut out = Vec::new();
        let mut ok = true;
        for (i, n) in a.iter().enumerate() {
            let k = format!("{key}[{i}]");
            let spec = match n {
                Node::Table(_) => {
                    let t = self.table(&k, n, &["name", "path"]);
                    let name = t
                        .and_then(|t| t.get("name"))
                        .and_then(|v| self.string(&join(&k, "name"), v));
                    match t.and_then(|t| t.get("path")) {
                        Some(p) => self.path(&join(&k, "path"), p).map(|path| RootSpec {
                            name: name.unwrap_or_default(),
                            path,
                        }),
                        None => {
                            self.err(&k, "missing key 'path'");
                            None
                        }
                    }
                }
                _ if matches!(n, Node::Str(_)) => self.path(&k, n).map(|path| RootSpec {
                    name: String::new(),
                    path,
                }),
                _ => {
                    self.expected(&k, "a directory path or a {name, path} table", n);
                    None
                }
            };
            match spec {
                Some(s) => out.push((s, k)),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// A table with arbitrary keys.
    pub(super) fn table_any<'n>(
        &mut self,
        key: &str,
        node: &'n Node,
    ) -> Option<&'n BTreeMap<String, Node>> {
        match node {
            Node::Table(t) => Some(t),
            _ => {
                self.expected(key, "a table", node);
                None
            }
        }
    }
}

fn quoted(choices: &[&str]) -> String {
    choices
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect::<Vec<_>>()
        .join(" or ")
}
