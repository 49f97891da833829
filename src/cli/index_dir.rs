//! Says on stderr, once, when the index's cache directory (`--index-dir`, `index_dir` in the
//! config, or the user's cache directory) was refused: the server goes on with the index in
//! memory only (docs/index.md "On disk"), and an operator who asked for a saved index must learn
//! it even with logging off (`ROOTBOUND_LOG=off`), not only from `list_roots`.

use rootbound::config::AgentTools;
use std::collections::BTreeSet;
use std::sync::Mutex;

/// The reasons already said: the HTTP door builds one set of tools per agent, often with the same
/// cache directory, and the operator needs to read each reason once.
static SAID: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// Writes one line to stderr for each refusal of a cache directory among `tools`' sandboxes not
/// said before. The reasons name no path (they are the index status's, which agents see too).
pub(crate) fn say_refusals(tools: &AgentTools) {
    let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
    for why in refusals(tools) {
        if said.insert(why.clone()) {
            eprintln!("{}", notice(&why));
        }
    }
}

/// The reasons the sandboxes' index status gives for not keeping the index on disk.
fn refusals(tools: &AgentTools) -> BTreeSet<String> {
    tools
        .sandboxes()
        .iter()
        .flat_map(|s| s.index_status())
        .filter_map(|st| st.snapshot?.strip_prefix("not kept: ").map(str::to_string))
        .collect()
}

/// The line the operator reads: what happened, why, what it costs and what to do.
fn notice(why: &str) -> String {
    format!(
        "rootbound: warning: the index will not be saved: {why}. It is kept in memory only and \
         built again at every start. To keep it, give --index-dir (or `index_dir` in the config \
         file) a directory outside every root, owned by this user and not writable by group or \
         others (rootbound creates a missing one with mode 0700); --no-index-dir (or \
         `index_dir = false`) keeps it in memory without this warning."
    )
}
