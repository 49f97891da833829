//! Ripgrep 13's own integration tests (feature, misc, regression, binary, json,
//! multiline), ported as a differential test. Each case builds rg's tree in a temporary directory
//! and runs rg's command lines with both `rg` and `rootbound grep`; stdout and exit codes must
//! agree unless tests/rg_port/expect.rs says the case differs on purpose (`Deliberate`) or has a
//! known, not yet fixed difference (`Bug`, reported but not failing).
//!
//! `RG_PORT_CASE=substr` runs the cases whose `file::name` contains it; `RG_PORT_REPORT=FILE`
//! writes the results table; `ROOTBOUND_BIN=path` compares another build; `RG_PORT_UPDATE=1`
//! rewrites the table in tests/rg_port/expect.rs to fit the run (see `update`). Without `rg` the
//! test is skipped, unless `CI` is set.

#[path = "rg_port/mod.rs"]
mod port;
#[path = "rg_port/report.rs"]
mod report;
mod support;
#[path = "rg_port/update.rs"]
mod update;

use port::{cases, expect, util::Dir};
use report::Outcome;
use std::panic::{catch_unwind, AssertUnwindSafe};

#[test]
fn ripgrep_tests_agree_with_rg() {
    let Some(version) = support::rg::rg_version() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "rg is not installed (CI is set: .ci/run installs it)"
        );
        eprintln!("rg_port: rg not found, skipped");
        return;
    };
    if !version.starts_with("ripgrep 13.") {
        eprintln!("rg_port: expected ripgrep 13, found {version}; differences may be rg's");
    }
    let foreign = support::rg::foreign_ignore_files();
    if !foreign.is_empty() {
        eprintln!("rg_port: rg will also read {foreign:?} (above the temporary directory)");
    }
    let filter = std::env::var("RG_PORT_CASE").unwrap_or_default();
    let all = cases::all();
    let keys: Vec<String> = all
        .iter()
        .map(|c| format!("{}::{}", c.file, c.name))
        .collect();
    let unknown = expect::unknown(&keys);
    assert!(
        unknown.is_empty(),
        "expect.rs names no such case: {unknown:?}"
    );

    let mut outcomes = Vec::new();
    for (case, key) in all.iter().zip(&keys) {
        if !key.contains(&filter) {
            continue;
        }
        let dir = Dir::new(case.name);
        let cmd = dir.command();
        let body = dir.clone();
        let panic = catch_unwind(AssertUnwindSafe(|| (case.run)(body, cmd)))
            .err()
            .map(|p| {
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default()
            });
        outcomes.push(Outcome {
            key: key.clone(),
            expect: expect::of(key),
            runs: dir.take_runs(),
            panic,
        });
    }
    assert!(
        !outcomes.is_empty(),
        "RG_PORT_CASE={filter:?} selects no case"
    );

    let bin = support::rg::ours_bin().display().to_string();
    let table = report::table(&outcomes, &bin, &version);
    if let Some(path) = std::env::var_os("RG_PORT_REPORT") {
        std::fs::write(&path, &table).expect("write RG_PORT_REPORT");
    }
    let summary: String = table
        .lines()
        .take_while(|l| !l.starts_with('|'))
        .collect::<Vec<_>>()
        .join("\n");
    println!("{summary}\nnot ported: {}", expect::NOT_PORTED.len());
    for o in outcomes.iter().filter(|o| o.status() == "bug") {
        println!("known bug {}\n{}", o.key, o.diff());
    }
    if std::env::var_os("RG_PORT_UPDATE").is_some() {
        assert!(
            filter.is_empty(),
            "RG_PORT_UPDATE needs every case (unset RG_PORT_CASE)"
        );
        let log = update::rewrite_table(&outcomes).expect("rewrite tests/rg_port/expect.rs");
        println!("tests/rg_port/expect.rs updated:\n{log}");
        return;
    }
    let failures: Vec<String> = outcomes.iter().filter_map(Outcome::failure).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases are not as tests/rg_port/expect.rs says:\n\n{}",
        failures.len(),
        outcomes.len(),
        failures.join("\n")
    );
}

/// Timings are the only run-to-run noise blanked before comparing; everything else is kept.
#[test]
fn only_timings_are_blanked() {
    let json = br#"{"type":"end","data":{"path":{"text":"a"},"binary_offset":null,"stats":{"elapsed":{"secs":0,"nanos":25,"human":"0.000025s"},"searches":1}}}
"#;
    let want = br#"{"type":"end","data":{"path":{"text":"a"},"binary_offset":null,"stats":{"elapsed":{},"searches":1}}}
"#;
    assert_eq!(support::rg::normalize(json), want.to_vec());
    let summary = br#"{"data":{"elapsed_total":{"human":"0.003710s","nanos":3710284,"secs":0},"stats":{"bytes_printed":494}},"type":"summary"}"#;
    let want = br#"{"data":{"elapsed_total":{},"stats":{"bytes_printed":494}},"type":"summary"}"#;
    assert_eq!(support::rg::normalize(summary), want.to_vec());
    let stats =
        b"2 matches\n367 bytes searched\n0.000025 seconds spent searching\n0.002044 seconds\n";
    let want = b"2 matches\n367 bytes searched\nT seconds spent searching\nT seconds\n";
    assert_eq!(support::rg::normalize(stats), want.to_vec());
    let text = b"sherlock:0.5 seconds\nx:1:elapsed\n";
    assert_eq!(support::rg::normalize(text), text.to_vec());
}
