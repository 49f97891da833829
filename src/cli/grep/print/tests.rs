//! The printers against rg 13, byte for byte: each case runs [`search`] with the [`PrintOpts`] and
//! [`GrepArgs`] that rg's flags stand for, and `rg` with those flags in the same tree (run by the
//! tests' shared runner, `tests/support/rg.rs`: the same clean environment as every rg comparison).

use super::*;
use rootbound::rg::{BinaryMode, RgOptions};
use rootbound::{PathDisplay, Policy};
use std::path::Path;

/// The tests' bounded wait for a child, which the runner uses (`super::child` from it).
#[path = "../../../../tests/support/child.rs"]
mod child;
#[path = "../../../../tests/support/rg.rs"]
mod rg_support;
use rg_support::have_rg;

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, b: &[u8]| {
        let p = dir.path().join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, b).unwrap();
    };
    w(
        "a.txt",
        b"hello static world\nfoo\n   static x static\nbar\nbaz\nqux static_thing\n\tstatic tab\n",
    );
    w("b/c.rs", b"fn main() {\n    static X: u8 = 1;\n}\n");
    w("b/d.rs", b"nothing here\n");
    w("e.txt", b"no newline at end static");
    w("f.txt", b"crlf static\r\nline\r\n");
    w(
        "long.txt",
        format!(
            "{} static {} static end\nshort static\n",
            "x".repeat(40),
            "y".repeat(30)
        )
        .as_bytes(),
    );
    w("bin.dat", b"static first\nbin\0ary static\n");
    w("late.dat", &{
        let mut v = b"static early\n".repeat(10_000);
        v.extend_from_slice(b"nul\0here static\n");
        v
    });
    w("utf.txt", "caf\u{e9} static \u{2603}\n".as_bytes());
    w("latin.txt", b"caf\xe9 static\n");
    w(
        "ctx.txt",
        b"1\n2 m\n3\n4\n5\n6\n7 m\n8\n9\n10\n11\n12\n13 m\n",
    );
    w("mc.txt", b"a m\nb m\nc\nd m\ne\n");
    dir
}

/// Runs the printer as `rootbound grep` would, over the whole tree or one `path`.
fn ours(root: &Path, mut args: GrepArgs, rg: &RgOptions, opts: PrintOpts) -> Vec<u8> {
    let p = Policy::builder()
        .root(root)
        .path_display(PathDisplay::Relative)
        .policy();
    let sb = Sandbox::new(p).unwrap();
    args.timeout_ms = Some(60_000);
    let mut out = Vec::new();
    let s = search(&sb, &args, rg, &opts, &mut out).unwrap().unwrap();
    let _ = s;
    finish(&opts, &mut out).unwrap();
    out
}

/// rg with `flags` over the tree, files in path order, through the tests' one rg runner.
fn theirs(root: &Path, flags: &[&str]) -> Vec<u8> {
    let mut args = rg_support::os(&["--sort", "path"]);
    args.extend(rg_support::os(flags));
    rg_support::rg(root, &args, None).stdout
}

fn args(pattern: &str) -> GrepArgs {
    GrepArgs::new(pattern)
}

fn with(mut a: GrepArgs, f: impl FnOnce(&mut GrepArgs)) -> GrepArgs {
    f(&mut a);
    a
}

/// rg's flags, our arguments and options: the same bytes.
fn same(flags: &[&str], a: GrepArgs, o: PrintOpts) {
    same_rg(flags, a, &RgOptions::default(), o)
}

fn same_rg(flags: &[&str], a: GrepArgs, rg: &RgOptions, o: PrintOpts) {
    if !have_rg() {
        return;
    }
    let t = tree();
    let mine = ours(t.path(), a, rg, o);
    let rg = theirs(t.path(), flags);
    if mine != rg {
        let (a, b) = (String::from_utf8_lossy(&mine), String::from_utf8_lossy(&rg));
        let at = a.split('\n').zip(b.split('\n')).position(|(x, y)| x != y);
        let at = at.unwrap_or(a.split('\n').count().min(b.split('\n').count()));
        panic!(
            "rg {flags:?}: first difference at line {at}\n--- ours\n{:?}\n--- rg\n{:?}",
            a.split('\n').skip(at).take(3).collect::<Vec<_>>(),
            b.split('\n').skip(at).take(3).collect::<Vec<_>>()
        );
    }
}

fn std_opts() -> PrintOpts {
    PrintOpts {
        with_filename: true,
        line_number: true,
        ..PrintOpts::default()
    }
}

#[test]
fn line_numbers_and_paths() {
    same(&["-n", "-H", "static"], args("static"), std_opts());
    same(
        &["-N", "-H", "static"],
        args("static"),
        PrintOpts {
            line_number: false,
            ..std_opts()
        },
    );
    same(
        &["-n", "--no-filename", "static"],
        args("static"),
        PrintOpts {
            with_filename: false,
            ..std_opts()
        },
    );
}

#[test]
fn column_null_trim() {
    same(
        &["-n", "-H", "--column", "static"],
        args("static"),
        PrintOpts {
            column: true,
            ..std_opts()
        },
    );
    same(
        &["-n", "-H", "--null", "static"],
        args("static"),
        PrintOpts {
            null: true,
            ..std_opts()
        },
    );
    same(
        &["-n", "-H", "--trim", "static"],
        args("static"),
        PrintOpts {
            trim: true,
            ..std_opts()
        },
    );
}

#[test]
fn heading_and_colour() {
    same(
        &["-n", "--heading", "static"],
        args("static"),
        PrintOpts {
            heading: true,
            ..std_opts()
        },
    );
    same(
        &["-n", "-H", "--color", "always", "static"],
        args("static"),
        PrintOpts {
            color: true,
            ..std_opts()
        },
    );
    same(
        &["-n", "--heading", "--column", "--color", "always", "static"],
        args("static"),
        PrintOpts {
            color: true,
            heading: true,
            column: true,
            ..std_opts()
        },
    );
    same(
        &["-n", "--heading", "-C1", "--color", "always", "m"],
        with(args("m"), |a| {
            a.context = Some(1);
        }),
        PrintOpts {
            color: true,
            heading: true,
            ..std_opts()
        },
    );
}

#[test]
fn colour_specs() {
    let sets: [&[&str]; 4] = [
        &[
            "match:fg:blue",
            "path:none",
            "line:style:underline",
            "column:bg:0x1f",
        ],
        &["match:none", "path:fg:255,0,10"],
        &["match:style:intense", "line:fg:cyan", "line:style:bold"],
        &[
            "match:fg:yellow",
            "match:bg:white",
            "match:style:nobold",
            "column:fg:red",
        ],
    ];
    for set in sets {
        let mut flags = vec!["-n", "-H", "--column", "--color", "always"];
        for c in set {
            flags.extend(["--colors", c]);
        }
        flags.push("static");
        same(
            &flags,
            args("static"),
            PrintOpts {
                color: true,
                column: true,
                colors: set.iter().map(|c| c.to_string()).collect(),
                ..std_opts()
            },
        );
    }
}

#[test]
fn max_columns() {
    for color in [false, true] {
        let c: &[&str] = if color { &["--color", "always"] } else { &[] };
        same(
            &[&["-n", "-H", "-M", "30", "static"], c].concat(),
            args("static"),
            PrintOpts {
                max_columns: Some(30),
                color,
                ..std_opts()
            },
        );
        same(
            &[
                &["-n", "-H", "-M", "30", "--max-columns-preview", "static"],
                c,
            ]
            .concat(),
            args("static"),
            PrintOpts {
                max_columns: Some(30),
                max_columns_preview: true,
                color,
                ..std_opts()
            },
        );
    }
}

#[test]
fn only_matching_vimgrep_replace() {
    same(
        &["-n", "-H", "-o", "stat\\w+"],
        args("stat\\w+"),
        PrintOpts {
            only_matching: true,
            ..std_opts()
        },
    );
    same(
        &[
            "-n", "-H", "-o", "--color", "always", "--column", "stat\\w+",
        ],
        args("stat\\w+"),
        PrintOpts {
            only_matching: true,
            color: true,
            column: true,
            ..std_opts()
        },
    );
    same(
        &["--vimgrep", "static"],
        args("static"),
        PrintOpts {
            vimgrep: true,
            column: true,
            ..std_opts()
        },
    );
    same(
        &["-n", "-H", "-r", "<$1|${n}>", "(s)t(?P<n>a)tic"],
        args("(s)t(?P<n>a)tic"),
        PrintOpts {
            replace: Some("<$1|${n}>".into()),
            ..std_opts()
        },
    );
    same(
        &["-n", "-H", "-o", "-r", "[$1]", "(st)atic"],
        args("(st)atic"),
        PrintOpts {
            replace: Some("[$1]".into()),
            only_matching: true,
            ..std_opts()
        },
    );
    same(
        &["-n", "-H", "--color", "always", "-r", "S", "static"],
        args("static"),
        PrintOpts {
            replace: Some("S".into()),
            color: true,
            ..std_opts()
        },
    );
}

#[test]
fn context_separators() {
    same(
        &["-n", "-H", "-C1", "m"],
        with(args("m"), |a| {
            a.context = Some(1);
        }),
        std_opts(),
    );
    same(
        &[
            "-n",
            "-H",
            "-A1",
            "--context-separator",
            "==",
            "--field-context-separator",
            "~",
            "--field-match-separator",
            "=",
            "m",
        ],
        with(args("m"), |a| {
            a.after = Some(1);
        }),
        PrintOpts {
            context_separator: Some("==".into()),
            field_context_separator: "~".into(),
            field_match_separator: "=".into(),
            ..std_opts()
        },
    );
    same(
        &["-n", "-H", "-B2", "--no-context-separator", "m"],
        with(args("m"), |a| {
            a.before = Some(2);
        }),
        PrintOpts {
            context_separator: None,
            ..std_opts()
        },
    );
}

#[test]
fn summaries() {
    let mode = |m| {
        with(args("static"), |a| {
            a.output_mode = Some(m);
        })
    };
    same(&["-c", "-H", "static"], mode(OutputMode::Count), std_opts());
    same(
        &["--count-matches", "-H", "static"],
        mode(OutputMode::Count),
        PrintOpts {
            count_matches: true,
            ..std_opts()
        },
    );
    same(
        &["-l", "static"],
        mode(OutputMode::FilesWithMatches),
        std_opts(),
    );
    same(
        &["-l", "--null", "static"],
        mode(OutputMode::FilesWithMatches),
        PrintOpts {
            null: true,
            ..std_opts()
        },
    );
    same(
        &["--files-without-match", "static"],
        mode(OutputMode::FilesWithoutMatch),
        std_opts(),
    );
    same(
        &["-c", "-H", "--color", "always", "static"],
        mode(OutputMode::Count),
        PrintOpts {
            color: true,
            ..std_opts()
        },
    );
}

#[test]
fn multiline_matches() {
    let multi = |p: &str| with(args(p), |a| a.multiline = Some(true));
    for color in [false, true] {
        let c: &[&str] = if color { &["--color", "always"] } else { &[] };
        same(
            &[&["-n", "-H", "-U", "static\\nbar"], c].concat(),
            multi("static\\nbar"),
            PrintOpts {
                color,
                ..std_opts()
            },
        );
        same(
            &[&["-n", "-H", "-U", "--column", "x static\\nbar\\nb"], c].concat(),
            multi("x static\\nbar\\nb"),
            PrintOpts {
                color,
                column: true,
                ..std_opts()
            },
        );
    }
    same(
        &["-n", "-H", "-U", "-o", "static\\nbar"],
        multi("static\\nbar"),
        PrintOpts {
            only_matching: true,
            ..std_opts()
        },
    );
}

#[test]
fn inverted_context_shows_matches() {
    let inv = || {
        with(args("m"), |a| {
            a.invert = Some(true);
            a.context = Some(1);
        })
    };
    same(
        &[
            "-n", "-H", "-v", "-C1", "--color", "always", "--column", "m",
        ],
        inv(),
        PrintOpts {
            color: true,
            column: true,
            ..std_opts()
        },
    );
    same(&["-n", "-H", "-v", "-C1", "m"], inv(), std_opts());
}

#[test]
fn max_count_with_context() {
    // rg 13 shows the matches among the last match's trailing context as matches.
    same(
        &["-n", "-H", "-m1", "-A3", "m"],
        with(args("m"), |a| {
            a.max_count = Some(1);
            a.after = Some(3);
        }),
        std_opts(),
    );
}

#[test]
fn quiet_prints_nothing() {
    same(
        &["-q", "static"],
        args("static"),
        PrintOpts {
            quiet: true,
            ..std_opts()
        },
    );
}

#[test]
fn named_binary_files() {
    let named = |p: &str, m| {
        with(args("static"), |a| {
            a.path = Some(p.into());
            a.output_mode = Some(m);
        })
    };
    for p in ["bin.dat", "late.dat"] {
        same(
            &["-n", "-H", "static", p],
            named(p, OutputMode::Content),
            std_opts(),
        );
        same(
            &["-c", "static", p],
            named(p, OutputMode::Count),
            PrintOpts {
                with_filename: false,
                ..std_opts()
            },
        );
    }
    // --binary: files the walk finds are searched as named ones.
    let binary = with(args("static"), |a| {
        a.output_mode = Some(OutputMode::Content)
    });
    let mut rg = RgOptions::default();
    rg.binary = BinaryMode::Binary;
    same_rg(&["-n", "-H", "--binary", "static"], binary, &rg, std_opts());
    let text = named("bin.dat", OutputMode::Content);
    let mut rg = RgOptions::default();
    rg.binary = BinaryMode::Text;
    same_rg(
        &["-n", "-H", "-a", "static", "bin.dat"],
        text,
        &rg,
        std_opts(),
    );
}
