//! rg's `--json` messages against ours, parsed, without their timings (the harness is in
//! [`super::tests`]).

use super::tests::{args, have_rg, ours, theirs, tree, with};
use super::*;

/// rg's JSON, parsed, with the timings taken out.
fn json_lines(bytes: &[u8]) -> Vec<serde_json::Value> {
    fn strip(v: &mut serde_json::Value) {
        if let Some(o) = v.as_object_mut() {
            o.remove("elapsed");
            o.remove("elapsed_total");
            for (_, x) in o.iter_mut() {
                strip(x);
            }
        }
    }
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            strip(&mut v);
            v
        })
        .collect()
}

#[test]
fn json_messages() {
    if !have_rg() {
        return;
    }
    let t = tree();
    let json = PrintOpts {
        json: true,
        line_number: true,
        ..PrintOpts::default()
    };
    let cases: Vec<(Vec<&str>, GrepArgs)> = vec![
        (vec!["--json", "static"], args("static")),
        (
            vec!["--json", "-C1", "m"],
            with(args("m"), |a| {
                a.context = Some(1);
            }),
        ),
        (
            vec!["--json", "static", "bin.dat"],
            with(args("static"), |a| {
                a.path = Some("bin.dat".into());
            }),
        ),
        (vec!["--json", "caf"], args("caf")),
        (
            vec!["--json", "-v", "-C1", "m", "mc.txt"],
            with(args("m"), |a| {
                a.invert = Some(true);
                a.context = Some(1);
                a.path = Some("mc.txt".into());
            }),
        ),
    ];
    for (flags, a) in cases {
        let mine = ours(t.path(), a, json.clone());
        let rg = theirs(t.path(), &flags);
        let (a, b) = (json_lines(&mine), json_lines(&rg));
        if let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) {
            panic!(
                "rg {flags:?}: message {i} differs\n--- ours\n{:?}\n--- rg\n{:?}",
                a.get(i),
                b.get(i)
            );
        }
    }
}
