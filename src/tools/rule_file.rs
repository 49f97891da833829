//! Whether a call's extra rule file (a dialect's `.geminiignore`) hides one path: the check of the
//! tools that take a path rather than walk, so they refuse what a walk would have passed over.

use crate::core::admit::RootId;
use crate::core::open::{Kind, Want};
use crate::engine::within::Within;
use crate::walk;

impl Within<'_> {
    /// Whether the rule file of [`Within::rule_file`] hides `raw`. A path the gate refuses, or
    /// that does not exist, is not hidden here: the read that follows gives its own error.
    pub(crate) fn hidden_by_rule_file(&self, raw: &str) -> bool {
        let Some(extra) = self.rule_file() else {
            return false;
        };
        let Ok(loc) = self.locate(raw, Want::Meta) else {
            return false;
        };
        // Rules compile within the call's deadline, as a walk's do.
        let budget = walk::IgnoreBudget {
            deadline: Some(std::sync::Arc::new(self.deadline(None))),
            kinds: walk::IgnoreKinds {
                extra: Some(extra),
                ..Default::default()
            },
            ..Default::default()
        };
        let denied = self.denied_fn(RootId::Read(loc.root));
        let is_dir = loc.opened.kind() == Kind::Dir;
        walk::extra_rules_hide(self, loc.root, &loc.rel, is_dir, &budget, &denied)
    }
}
