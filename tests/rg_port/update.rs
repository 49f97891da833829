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
    let mut out: Vec<String> = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("const TABLE") {
            out.push(line.to_string());
            // One entry per item: `    ("key", Bug(..)),` or rustfmt's wrapped form from a line
            // `    (` to a line `    ),`.
            while let Some(line) = lines.next() {
                if line == "];" {
                    out.extend(added.iter().cloned());
                    out.push(line.to_string());
                    break;
                }
                let mut entry = vec![line.to_string()];
                if line == "    (" {
                    for l in lines.by_ref() {
                        entry.push(l.to_string());
                        if l == "    )," {
                            break;
                        }
                    }
                }
                let joined = entry.join("\n");
                let is_fixed = fixed
                    .iter()
                    .any(|k| joined.contains(&format!("{k:?},")) && joined.contains("Bug("));
                if !is_fixed {
                    out.extend(entry);
                }
            }
        } else {
            out.push(line.to_string());
        }
    }
    std::fs::write(&path, out.join("\n") + "\n")?;
    let mut log: Vec<String> = fixed
        .iter()
        .map(|k| format!("removed {k} (now matches rg)"))
        .collect();
    log.extend(added.iter().map(|l| format!("added {}", l.trim())));
    Ok(log.join("\n"))
}
