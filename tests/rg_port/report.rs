//! The outcome of each case and the results table (`RG_PORT_REPORT=FILE`).

use super::expect::Expect;
use crate::port::runner::Run;
use crate::support::rg::normalize;
use std::fmt::Write as _;

/// What happened to one case.
pub struct Outcome {
    /// `file::name`.
    pub key: String,
    /// The table's expectation.
    pub expect: Expect,
    /// Its runs, in order.
    pub runs: Vec<Run>,
    /// The panic message when rg's test body itself failed.
    pub panic: Option<String>,
}

impl Outcome {
    /// Whether every run agreed with rg (and there was at least one).
    pub fn matches(&self) -> bool {
        self.panic.is_none() && !self.runs.is_empty() && self.runs.iter().all(|r| r.same)
    }

    /// The verdict against the table: None when as expected, else why the suite must fail.
    pub fn failure(&self) -> Option<String> {
        match (self.expect, self.matches()) {
            (Expect::Same, true) | (Expect::Bug(_), false) | (Expect::Deliberate(_), false) => None,
            (Expect::Same, false) => Some(format!("{}: differs from rg\n{}", self.key, self.diff())),
            (Expect::Bug(note), true) => Some(format!(
                "{}: listed as Bug ({note}) but now matches rg: remove it from tests/rg_port/expect.rs",
                self.key
            )),
            (Expect::Deliberate(why), true) => Some(format!(
                "{}: listed as Deliberate ({why}) but now matches rg: remove it from the table and README",
                self.key
            )),
        }
    }

    /// The status word of the table.
    pub fn status(&self) -> &'static str {
        match (self.expect, self.matches()) {
            (Expect::Same, true) => "same",
            (Expect::Same, false) => "FAIL",
            (Expect::Bug(_), false) => "bug",
            (Expect::Bug(_), true) => "FIXED",
            (Expect::Deliberate(_), false) => "deliberate",
            (Expect::Deliberate(_), true) => "STALE",
        }
    }

    /// A note for a new `Bug` entry: the area that likely owns the fix (exit codes: `args`,
    /// output: `print`) and the first differing command line.
    pub fn guess(&self) -> String {
        match self.runs.iter().find(|r| !r.same) {
            Some(r) if r.rg.status.code() != r.ours.status.code() => {
                format!("args: exit codes differ; {}", r.command_line())
            }
            Some(r) => format!("print: output differs; {}", r.command_line()),
            None => "?: rg's test body did not run to the end".into(),
        }
    }

    /// The first differing run, briefly: command, both stdouts and exit codes.
    pub fn diff(&self) -> String {
        if let Some(p) = &self.panic {
            return format!("  rg's test body panicked: {p}\n");
        }
        if self.runs.is_empty() {
            return "  no run (the body returned before running rg)\n".into();
        }
        let Some((i, r)) = self.runs.iter().enumerate().find(|(_, r)| !r.same) else {
            return String::new();
        };
        let mut s = format!(
            "  run {} of {}: {}\n",
            i + 1,
            self.runs.len(),
            r.command_line()
        );
        let (rg, ours) = (normalize(&r.rg.stdout), normalize(&r.ours.stdout));
        if let Some((n, a, b)) = first_difference(&rg, &ours) {
            let _ = writeln!(
                s,
                "  first differing line {n}:\n    rg   {}\n    ours {}",
                brief(a, 300),
                brief(b, 300)
            );
        }
        for (who, o) in [("rg", &r.rg), ("ours", &r.ours)] {
            let _ = writeln!(
                s,
                "  {who}: exit {:?}, stdout {}{}",
                o.status.code(),
                brief(&o.stdout, 400),
                if o.stderr.is_empty() {
                    String::new()
                } else {
                    format!(", stderr {}", brief(&o.stderr, 200))
                }
            );
        }
        s
    }
}

/// The first line (1-based) where two outputs differ, with both versions (empty past the end).
fn first_difference<'a>(a: &'a [u8], b: &'a [u8]) -> Option<(usize, &'a [u8], &'a [u8])> {
    let (mut la, mut lb) = (a.split(|&c| c == b'\n'), b.split(|&c| c == b'\n'));
    for n in 1.. {
        match (la.next(), lb.next()) {
            (None, None) => return None,
            (x, y) if x != y => return Some((n, x.unwrap_or_default(), y.unwrap_or_default())),
            _ => {}
        }
    }
    None
}

/// At most `max` bytes of `b` as an escaped string literal.
pub fn brief(b: &[u8], max: usize) -> String {
    let cut = &b[..b.len().min(max)];
    let mut s = format!("{:?}", String::from_utf8_lossy(cut));
    if b.len() > max {
        let _ = write!(s, "... ({} bytes)", b.len());
    }
    s
}

/// The results as Markdown: a summary, then one section per case that is not plain `same`.
pub fn table(outcomes: &[Outcome], bin: &str, rg: &str) -> String {
    let mut s = format!("# rg port results\n\nrootbound: `{bin}`; rg: {rg}\n\n");
    let count = |st: &str| outcomes.iter().filter(|o| o.status() == st).count();
    for st in ["same", "deliberate", "bug", "FAIL", "FIXED", "STALE"] {
        let _ = writeln!(s, "- {st}: {}", count(st));
    }
    s.push_str("\n| case | status | note |\n|---|---|---|\n");
    for o in outcomes {
        let note = match o.expect {
            Expect::Same => "",
            Expect::Bug(n) | Expect::Deliberate(n) => n,
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} |",
            o.key,
            o.status(),
            note.replace('|', "\\|")
        );
    }
    for o in outcomes.iter().filter(|o| o.status() != "same") {
        let _ = write!(
            s,
            "\n## {} ({})\n\n```\n{}```\n",
            o.key,
            o.status(),
            o.diff()
        );
    }
    s
}
