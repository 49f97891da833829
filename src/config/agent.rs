//! Reading the agents of a file: each `[agents.NAME]` table into an [`AgentConfig`]: the agent's own
//! settings, its tool sections (each tool's roots and limits), its write section, and the plan of
//! sandboxes (one per distinct policy).

use super::model::{join, Node, AGENT_KEYS, WRITE_KEYS};
use super::reader::Cx;
use super::schema::{limit_keys, tool_settings};
use super::{AgentConfig, SandboxPlan, READ_TOOLS, WRITE_TOOLS};
use crate::core::policy::{
    Limits, PathDisplay, Policy, RootMode, RootSpec, SymlinkMode, WritePolicy,
};
use crate::DenyRules;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The roots met while reading one agent.
#[derive(Default)]
struct Roots {
    /// The agent's roots: the union of its own and its tools', in order of first appearance.
    union: Vec<RootSpec>,
    /// Every root path (and the write root) with the key that configured it first.
    origins: Vec<(PathBuf, String)>,
    /// A `roots` key failed to validate (reported once; no "no roots" follow-up for it).
    failed: bool,
}

impl Roots {
    fn add(&mut self, roots: &[(RootSpec, String)]) {
        for (r, k) in roots {
            if !self.union.iter().any(|u| u.path == r.path) {
                self.union.push(r.clone());
            }
            if !self.origins.iter().any(|(p, _)| *p == r.path) {
                self.origins.push((r.path.clone(), k.clone()));
            }
        }
    }
}

/// One enabled read tool.
struct ToolPlan {
    tool: &'static str,
    /// Its own roots; `None`: the agent's (the union).
    roots: Option<Vec<RootSpec>>,
    limits: Limits,
    /// The key of its section.
    key: String,
}

impl Cx<'_> {
    /// The whole file: `agents`, each agent read on its own (a bad one does not hide the others).
    pub(super) fn file(&mut self, root: &Node) -> BTreeMap<String, AgentConfig> {
        let mut agents = BTreeMap::new();
        let Some(top) = self.table("", root, &["agents"]) else {
            return agents;
        };
        let Some(list) = top.get("agents") else {
            self.err(
                "agents",
                "missing: define at least one agent ([agents.NAME])",
            );
            return agents;
        };
        let Some(list) = self.table_any("agents", list) else {
            return agents;
        };
        if list.is_empty() {
            self.err("agents", "no agents defined");
        }
        for (name, node) in list {
            let key = join("agents", name);
            if name.is_empty() {
                self.err(&key, "an agent name cannot be empty");
                continue;
            }
            if let Some(a) = self.agent(name, &key, node) {
                agents.insert(name.clone(), a);
            }
        }
        agents
    }

    fn agent(&mut self, name: &str, key: &str, node: &Node) -> Option<AgentConfig> {
        let before = self.problems.len();
        let t = self.table(key, node, AGENT_KEYS)?;
        let mut roots = Roots::default();
        let base = self.agent_policy(key, t, &mut roots);
        let tools = match t.get("tools") {
            Some(n) => self.tools(key, n, &base.limits, &mut roots),
            None => Vec::new(),
        };
        let write = match t.get("write") {
            Some(n) => self.write(&join(key, "write"), n, &mut roots.origins),
            None => None,
        };
        if tools.is_empty() && write.is_none() && self.problems.len() == before {
            self.err(
                key,
                format!(
                    "enables no tools: add a [{key}.tools.read_file] section (or grep_search, glob, list_dir, stat), \
                     or a [{key}.write] section"
                ),
            );
        }
        for tp in &tools {
            if tp.roots.is_none() && roots.union.is_empty() && !roots.failed {
                self.err(
                    &tp.key,
                    format!("no roots: set 'roots' here or at {}", join(key, "roots")),
                );
            }
        }
        if self.problems.len() > before {
            return None;
        }
        // Every root of the agent, and its write root, anchors the deny rules of every sandbox.
        let anchors = Policy {
            roots: roots.union.clone(),
            write: write.clone(),
            root_mode: crate::core::policy::RootMode::Lenient,
            ..base.clone()
        };
        let (index, unset_index) = self.index(key, t);
        Some(AgentConfig {
            name: name.to_string(),
            anchors,
            plan: plan(&base, tools, write, &roots.union),
            profile: self.profile(&join(key, "profile"), t.get("profile")),
            index,
            unset_index,
            index_set: t.contains_key("index"),
            origins: roots.origins,
            others: Vec::new(),
            file: None,
        })
    }

    /// The agent's own settings: the policy every tool starts from (its roots go into `roots`).
    fn agent_policy(&mut self, key: &str, t: &BTreeMap<String, Node>, roots: &mut Roots) -> Policy {
        let mut base = Policy::default();
        if let Some(n) = t.get("roots") {
            match self.roots(&join(key, "roots"), n) {
                Some(r) => roots.add(&r),
                None => roots.failed = true,
            }
        }
        if let Some(n) = t.get("deny") {
            let k = join(key, "deny");
            if let Some(globs) = self.strings(&k, n) {
                for (i, g) in globs.iter().enumerate() {
                    if let Err(e) = DenyRules::new(std::slice::from_ref(g)) {
                        self.err(&format!("{k}[{i}]"), e.message);
                    }
                }
                base.deny = globs;
            }
        }
        let symlinks = [
            ("inside", SymlinkMode::Inside),
            ("never", SymlinkMode::Never),
        ];
        self.choose(key, t, "symlinks", &symlinks, &mut base.symlinks);
        let display = [
            ("absolute", PathDisplay::Absolute),
            ("relative", PathDisplay::Relative),
        ];
        self.choose(key, t, "path_display", &display, &mut base.path_display);
        let modes = [("strict", RootMode::Strict), ("lenient", RootMode::Lenient)];
        self.choose(key, t, "root_mode", &modes, &mut base.root_mode);
        for (field, slot) in [
            ("hidden", &mut base.hidden),
            ("no_ignore", &mut base.no_ignore),
            ("refuse_hardlinks", &mut base.refuse_hardlinks),
        ] {
            self.flag(&join(key, field), t.get(field), slot);
        }
        if let Some(n) = t.get("limits") {
            let k = join(key, "limits");
            if let Some(lt) = self.table(&k, n, &limit_keys()) {
                self.limits(&k, lt, &mut base.limits);
            }
        }
        base
    }

    /// `[agents.NAME.tools]`: each enabled read tool with its roots and limits, in listing order (so
    /// the union of roots has a documented order).
    fn tools(&mut self, key: &str, n: &Node, base: &Limits, roots: &mut Roots) -> Vec<ToolPlan> {
        let tk = join(key, "tools");
        let Some(tt) = self.table_any(&tk, n) else {
            return Vec::new();
        };
        for tool in tt.keys() {
            if READ_TOOLS.contains(&tool.as_str()) {
                continue;
            }
            let hint = if WRITE_TOOLS.contains(&tool.as_str()) {
                format!(
                    "; write tools are configured by a [{}] section",
                    join(key, "write")
                )
            } else {
                String::new()
            };
            self.err(
                &join(&tk, tool),
                format!(
                    "unknown tool (expected one of: {}){hint}",
                    READ_TOOLS.join(", ")
                ),
            );
        }
        READ_TOOLS
            .iter()
            .filter_map(|tool| {
                let tn = tt.get(*tool)?;
                self.tool(join(&tk, tool), tool, tn, base, roots)
            })
            .collect()
    }

    /// One tool's section: `roots` and the limit settings the table gives this tool.
    fn tool(
        &mut self,
        k: String,
        tool: &'static str,
        tn: &Node,
        base: &Limits,
        roots: &mut Roots,
    ) -> Option<ToolPlan> {
        let settings = tool_settings(tool);
        let mut allowed = vec!["roots"];
        allowed.extend(settings.iter().map(|(s, _)| s.key));
        let st = self.table(&k, tn, &allowed)?;
        let mut own = None;
        if let Some(rn) = st.get("roots") {
            match self.roots(&join(&k, "roots"), rn) {
                Some(r) => {
                    roots.add(&r);
                    own = Some(r.into_iter().map(|(s, _)| s).collect());
                }
                None => roots.failed = true,
            }
        }
        let mut limits = base.clone();
        for (s, field) in settings {
            if let Some(v) = st.get(s.key) {
                self.limit(&join(&k, s.key), v, field, s.unit, &mut limits);
            }
        }
        Some(ToolPlan {
            tool,
            roots: own,
            limits,
            key: k,
        })
    }

    /// `[agents.NAME.write]` at `k` (its root goes into `origins`).
    fn write(
        &mut self,
        k: &str,
        n: &Node,
        origins: &mut Vec<(PathBuf, String)>,
    ) -> Option<WritePolicy> {
        let wt = self.table(k, n, WRITE_KEYS)?;
        let root = match wt.get("root") {
            Some(r) => self.path(&join(k, "root"), r),
            None => {
                self.err(k, "missing key 'root' (the write directory)");
                None
            }
        }?;
        let mut w = WritePolicy::new(root.clone());
        if let Some(v) = wt.get("max_write_bytes") {
            if let Some(n) = self.uint(&join(k, "max_write_bytes"), v) {
                w.max_write_bytes = n;
            }
        }
        for (field, slot) in [
            ("allow_overwrite", &mut w.allow_overwrite),
            ("allow_delete", &mut w.allow_delete),
            ("create_parents", &mut w.create_parents),
        ] {
            self.flag(&join(k, field), wt.get(field), slot);
        }
        origins.push((root, join(k, "root")));
        Some(w)
    }

    /// The key `field` of the table `t` at `key`, one of `choices` by name, when present, into `slot`.
    fn choose<T: Copy>(
        &mut self,
        key: &str,
        t: &BTreeMap<String, Node>,
        field: &str,
        choices: &[(&str, T)],
        slot: &mut T,
    ) {
        if let Some(v) = t
            .get(field)
            .and_then(|n| self.pick(&join(key, field), n, choices))
        {
            *slot = v;
        }
    }

    /// A boolean key, when present, into `slot`.
    fn flag(&mut self, key: &str, node: Option<&Node>, slot: &mut bool) {
        if let Some(b) = node.and_then(|n| self.boolean(key, n)) {
            *slot = b;
        }
    }
}

/// One sandbox per distinct policy: read tools whose policies are equal share one; the write
/// section gets its own, which knows every read root of the agent (it serves no read tool): the gate
/// matches deny rules against every root that holds an object, and a write must not make readable
/// what no read tool could reach, as with `--root`/`--write-root` on the command line.
fn plan(
    base: &Policy,
    tools: Vec<ToolPlan>,
    write: Option<WritePolicy>,
    union: &[RootSpec],
) -> Vec<SandboxPlan> {
    let mut plan: Vec<SandboxPlan> = Vec::new();
    // The roots of the tools that show what files hold, first (union order), then the others.
    let content = |r: &RootSpec| {
        tools.iter().any(|tp| {
            crate::ToolName::parse(tp.tool).is_some_and(|t| t.reads_content())
                && tp.roots.as_deref().unwrap_or(union).contains(r)
        })
    };
    let (mut write_roots, rest): (Vec<RootSpec>, Vec<RootSpec>) =
        union.iter().cloned().partition(|r| content(r));
    let content_roots = write_roots.len();
    write_roots.extend(rest);
    for tp in tools {
        let policy = Policy {
            roots: tp.roots.unwrap_or_else(|| union.to_vec()),
            limits: tp.limits,
            write: None,
            ..base.clone()
        };
        match plan.iter_mut().find(|p| p.policy == policy) {
            Some(p) => p.tools.push(tp.tool),
            None => plan.push(SandboxPlan {
                tools: vec![tp.tool],
                content_roots: policy.roots.len(),
                policy,
            }),
        }
    }
    if let Some(w) = write {
        // Every write tool goes to the write sandbox; each row says whether that policy offers
        // it (delete_file: allow_delete; edit_file: a readable write root).
        plan.push(SandboxPlan {
            tools: WRITE_TOOLS.to_vec(),
            content_roots,
            policy: Policy {
                roots: write_roots,
                write: Some(w),
                ..base.clone()
            },
        });
    }
    plan
}

impl Cx<'_> {
    /// `index = true | false | "auto"`, `index_verify = "events" | "strict"` and `index_dir`.
    /// The agent's index (`None`: none), and the one `rootbound mcp` starts when the file does not
    /// set `index` (`"auto"`, with the file's `index_verify` and `index_dir`).
    fn index(
        &mut self,
        key: &str,
        t: &BTreeMap<String, Node>,
    ) -> (Option<crate::IndexOptions>, crate::IndexOptions) {
        use crate::{IndexOptions, IndexVerify, IndexWhen};
        let ik = join(key, "index");
        let when = match t.get("index") {
            None | Some(Node::Bool(false)) => None,
            Some(Node::Bool(true)) => Some(IndexWhen::Always),
            Some(Node::Str(s)) if s == "auto" => Some(IndexWhen::Auto),
            Some(n) => {
                self.err(
                    &ik,
                    format!("expected true, false or \"auto\", found {}", n.kind()),
                );
                None
            }
        };
        let mut verify = IndexVerify::Events;
        let verifies = [
            ("events", IndexVerify::Events),
            ("strict", IndexVerify::Strict),
        ];
        self.choose(key, t, "index_verify", &verifies, &mut verify);
        let off = matches!(t.get("index"), Some(Node::Bool(false)));
        let dir = self.index_dir(key, t);
        for k in ["index_verify", "index_dir"] {
            if off && t.contains_key(k) {
                self.err(
                    &join(key, k),
                    "has no effect with index = false: remove it, or set index = true or \"auto\"",
                );
            }
        }
        let options = |w| {
            IndexOptions::default()
                .when(w)
                .verify(verify)
                .index_dir(dir.clone())
        };
        (when.map(options), options(IndexWhen::Auto))
    }

    /// `index_dir = "/ABSOLUTE/PATH" | true | false`: where the index is saved (true, the
    /// default: the user's cache directory; false: not saved).
    fn index_dir(&mut self, key: &str, t: &BTreeMap<String, Node>) -> crate::IndexDir {
        use crate::IndexDir;
        let k = join(key, "index_dir");
        let dir = match t.get("index_dir") {
            None | Some(Node::Bool(true)) => IndexDir::UserCache,
            Some(Node::Bool(false)) => IndexDir::None,
            Some(Node::Str(s)) if std::path::Path::new(s).is_absolute() => IndexDir::Path(s.into()),
            Some(Node::Str(_)) => {
                self.err(&k, "expected an absolute path");
                IndexDir::None
            }
            Some(n) => {
                self.err(
                    &k,
                    format!(
                        "expected an absolute path, true or false, found {}",
                        n.kind()
                    ),
                );
                IndexDir::None
            }
        };
        dir
    }

    /// `profile = "NAME"`: one of the dialects (see [`crate::Profile`]).
    fn profile(&mut self, key: &str, node: Option<&Node>) -> crate::Profile {
        let names = crate::Profile::names();
        node.and_then(|n| self.choice(key, n, &names))
            .and_then(|p| crate::Profile::parse(&p))
            .unwrap_or_default()
    }
}
