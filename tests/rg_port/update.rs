//! `RG_PORT_UPDATE=1`: brings tests/rg_port/expect.rs up to date with a run, for whoever merges a
//! fix: `Bug` entries of cases that now match rg are removed, and cases that differ without an
//! entry get a `Bug` entry (area guessed from the first differing run: `args` when the exit codes
//! differ, else `print`). Stale `Deliberate` entries are left for a person (README lists them too).
//! Review the diff before committing it.

use super::report::Outcome;
use std::path::Path;

/// Rewrites the table; returns what changed, one line per entry.
pub fn rewrite_table(outcomes: &[Outcome]) -> std::io::Result<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rg_port/expect.rs");
    let text = std::fs::read_to_string(&path)?;
    let fixed: Vec<&str> = outcomes
        .iter()
        .filter(|o| o.status() == "FIXED")
        .map(|o| o.key.as_str())
        .collect();
    let added: Vec<String> = outcomes
        .iter()
        .filter(|o| o.status() == "FAIL")
        .map(|o| format!("    ({:?}, Bug({:?})),", o.key, o.guess()))
        .collect();
    let mut out = Vec::new();
    let mut in_table = false;
    for line in text.lines() {
        if line.starts_with("const TABLE") {
            in_table = true;
        } else if in_table && line == "];" {
            out.extend(added.iter().cloned());
            in_table = false;
        } else if in_table
            && fixed
                .iter()
                .any(|k| line.starts_with(&format!("    ({k:?}, Bug(")))
        {
            continue;
        }
        out.push(line.to_string());
    }
    std::fs::write(&path, out.join("\n") + "\n")?;
    let mut log: Vec<String> = fixed
        .iter()
        .map(|k| format!("removed {k} (now matches rg)"))
        .collect();
    log.extend(added.iter().map(|l| format!("added {}", l.trim())));
    Ok(log.join("\n"))
}
