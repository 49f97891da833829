//! The limit settings of a configuration file, read from the one table of limit fields
//! ([`LIMITS`]): the keys of `[agents.NAME.limits]` are the table's field names, and the settings a
//! tool section accepts are the table's [`ToolKey`]s for that tool. Nothing here lists a field by
//! name, so a row added to the table is a config key (and a tool setting, and a CLI flag) at once.

use super::model::{join, Node};
use super::reader::Cx;
use crate::core::policy::Limits;
use std::collections::BTreeMap;

pub use crate::core::limits::{LimitField, LimitType, ToolKey, ToolUnit, LIMITS};

/// The keys of `[agents.NAME.limits]`: every limit field, in table order.
pub(super) fn limit_keys() -> Vec<&'static str> {
    LIMITS.iter().map(|f| f.name).collect()
}

/// The settings a tool's section accepts besides `roots`, each with the field it sets, in table
/// order (a tool with no row has none).
pub(super) fn tool_settings(tool: &str) -> Vec<(&'static ToolKey, &'static LimitField)> {
    LIMITS
        .iter()
        .flat_map(|f| {
            f.tools
                .iter()
                .filter(move |k| k.tool == tool)
                .map(move |k| (k, f))
        })
        .collect()
}

impl Cx<'_> {
    /// `[agents.NAME.limits]`: each key sets its field (an unknown key is reported by `table`).
    pub(super) fn limits(&mut self, key: &str, t: &BTreeMap<String, Node>, l: &mut Limits) {
        for (k, v) in t {
            if let Some(f) = LimitField::named(k) {
                self.limit(&join(key, k), v, f, ToolUnit::Same, l);
            }
        }
    }

    /// The value at `key` for the field `f`, written in `unit`, set in `l` when it is valid.
    pub(super) fn limit(
        &mut self,
        key: &str,
        v: &Node,
        f: &LimitField,
        unit: ToolUnit,
        l: &mut Limits,
    ) {
        let value = match (unit, f.ty) {
            (ToolUnit::Seconds, _) => self.secs(key, v),
            (ToolUnit::Same, LimitType::U64) => self.uint(key, v),
            (ToolUnit::Same, LimitType::Usize) => self.usize(key, v).map(|n| n as u64),
        };
        if let Some(n) = value {
            if !f.set(l, n) {
                self.err(key, "too large");
            }
        }
    }
}
