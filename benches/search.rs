//! In-process benchmarks (issue 5, DESIGN.md §6): full content searches for the ripgrep benchsuite
//! queries, the first page of `mutex_lock`, page 100 by cursor and by offset, `read_file` pages, and the
//! walk alone.
//!
//! Corpus: `$ROOTBOUND_CORPUS`, else `~/.cache/rootbound/linux-source-6.1` (made by
//! `corpora/fetch-linux.sh`). When it is absent the Linux benches are skipped with a message and the
//! small bundled corpus `corpora/default/` is benchmarked instead, so `cargo bench` works anywhere
//! (its numbers only show that the benches run; they say nothing about the §6 targets).
//! Benchmark ids start with the corpus name (`linux/...` or `default/...`).
//!
//! `cargo bench --bench search` runs everything in a few minutes; `cargo bench --bench search -- page`
//! runs the paging benches only, `-- indexed` the searches with the n-gram index. Line counts of the full searches are printed once per query, for
//! comparison with `benches/compare.sh` (`rg -n ... | wc -l`).

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use rootbound::{GlobArgs, GrepArgs, GrepResult, Limits, Policy, ReadArgs, RootSpec, Sandbox};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The ripgrep benchsuite queries: (id, pattern, case-insensitive, word).
const QUERIES: &[(&str, &str, bool, bool)] = &[
    ("literal", "PM_RESUME", false, false),
    ("literal_i", "PM_RESUME", true, false),
    ("literal_w", "PM_RESUME", false, true),
    (
        "alternation",
        "ERR_SYS|PME_TURN_OFF|LINK_REQ_RST|CFG_BME_EVT",
        false,
        false,
    ),
    ("unicode_greek", r"\p{Greek}", false, false),
    ("no_match", "NOMATCH_ROOTBOUND_7f3a91", false, false),
    ("suspend_regex", r"\w+_SUSPEND", false, false),
    ("no_literal", r"\w{5}(\s+\w{5}){4}", false, false),
];

/// A corpus to benchmark and the files its read_file benches use.
struct Corpus {
    name: &'static str,
    root: PathBuf,
    /// The file read_file reads 4 KiB of.
    small_read: &'static str,
    /// The file read_file reads a 1 MiB page of (the whole file when it is smaller).
    large_read: &'static str,
    /// Rough duration of one slow full search (\p{Greek}, the no-literal regex), for the time budget.
    slow_search: Duration,
    /// Rough duration of one literal full search.
    fast_search: Duration,
}

fn linux_corpus() -> Option<Corpus> {
    let root = match std::env::var_os("ROOTBOUND_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => {
            let home = std::env::var_os("HOME").map(PathBuf::from)?;
            home.join(".cache/rootbound/linux-source-6.1")
        }
    };
    if !root.join("MAINTAINERS").is_file() {
        println!(
            "SKIP linux benches: no Linux source tree at {} (run corpora/fetch-linux.sh, or set \
             ROOTBOUND_CORPUS to an extracted linux-source-6.1 tree); benchmarking corpora/default only",
            root.display()
        );
        return None;
    }
    Some(Corpus {
        name: "linux",
        root,
        small_read: "MAINTAINERS",
        large_read: "drivers/gpu/drm/amd/include/asic_reg/dcn/dcn_3_2_0_sh_mask.h",
        slow_search: Duration::from_secs(2),
        fast_search: Duration::from_millis(450),
    })
}

fn default_corpus() -> Option<Corpus> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/default");
    if !root.is_dir() {
        println!("SKIP default benches: {} is missing", root.display());
        return None;
    }
    Some(Corpus {
        name: "default",
        root,
        small_read: "docs.txt",
        large_read: "docs.txt",
        slow_search: Duration::from_millis(20),
        fast_search: Duration::from_millis(5),
    })
}

/// A sandbox over `root` whose caps let one call return every result of a full search.
fn unbounded_sandbox(root: &Path) -> Sandbox {
    let limits = Limits {
        max_results: usize::MAX / 2,
        max_bytes: usize::MAX / 2,
        max_read_bytes: 1 << 20,
        timeout_ms: 3_600_000,
        ..Limits::default()
    };
    Sandbox::new(Policy {
        roots: vec![RootSpec {
            name: String::new(),
            path: root.to_path_buf(),
        }],
        limits,
        ..Policy::default()
    })
    .expect("open the corpus root")
}

/// A sandbox with the default policy, as an agent would get it (only the read cap is raised to 1 MiB).
fn default_sandbox(root: &Path) -> Sandbox {
    Sandbox::builder()
        .root(root)
        .max_read_bytes(1 << 20)
        .build()
        .expect("open the corpus root")
}

fn full_search(sb: &Sandbox, pattern: &str, ci: bool, word: bool) -> GrepResult {
    let r = sb
        .grep_search(&{
            let mut args_ = GrepArgs::default();
            args_.pattern = pattern.to_string();
            args_.case_insensitive = Some(ci);
            args_.word = Some(word);
            args_.limit = Some(u64::MAX / 2);
            args_
        })
        .expect("grep_search");
    assert!(!r.truncated && !r.timed_out, "a full search was cut short");
    r
}

fn bench_full_searches(c: &mut Criterion, corpus: &Corpus) {
    let sb = unbounded_sandbox(&corpus.root);
    let mut g = c.benchmark_group(format!("{}/grep_full", corpus.name));
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1));
    for &(id, pattern, ci, word) in QUERIES {
        let slow = matches!(id, "unicode_greek" | "no_literal");
        let one = if slow {
            corpus.slow_search
        } else {
            corpus.fast_search
        };
        g.measurement_time(one * 12);
        let mut reported = false;
        g.bench_function(id, |b| {
            if !reported {
                // Once per query: the line count (compare with compare.sh) and what was walked.
                let r = full_search(&sb, pattern, ci, word);
                println!(
                    "{}/grep_full/{id}: pattern {pattern:?}{}{}: {} lines, {} files searched, skipped {:?}",
                    corpus.name,
                    if ci { " -i" } else { "" },
                    if word { " -w" } else { "" },
                    r.match_lines,
                    r.stats.files_searched,
                    r.stats.skipped
                );
                reported = true;
            }
            b.iter(|| black_box(full_search(&sb, pattern, ci, word).match_lines))
        });
    }
    g.finish();
}

fn page(sb: &Sandbox, pattern: &str, cursor: Option<&str>, offset: Option<u64>) -> GrepResult {
    sb.grep_search(&{
        let mut args_ = GrepArgs::default();
        args_.pattern = pattern.to_string();
        args_.limit = Some(10);
        args_.cursor = cursor.map(str::to_string);
        args_.offset = offset;
        args_
    })
    .expect("grep_search page")
}

fn bench_paging(c: &mut Criterion, corpus: &Corpus) {
    const PATTERN: &str = "mutex_lock";
    let sb = default_sandbox(&corpus.root);
    // The cursor that leads to page 100: follow pages 1..=99.
    let mut cursor: Option<String> = None;
    for n in 1..=99 {
        let p = page(&sb, PATTERN, cursor.as_deref(), None);
        match p.next_cursor {
            Some(c) if p.truncated => cursor = Some(c),
            _ => panic!("{}: only {n} pages of {PATTERN}", corpus.name),
        }
    }
    let cursor = cursor.expect("cursor to page 100");
    let by_cursor = page(&sb, PATTERN, Some(&cursor), None);
    let by_offset = page(&sb, PATTERN, None, Some(990));
    assert_eq!(
        by_cursor.matches, by_offset.matches,
        "page 100 differs by cursor and by offset"
    );
    assert_eq!(by_cursor.match_lines, 10);

    let mut g = c.benchmark_group(format!("{}/page", corpus.name));
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("mutex_lock_page1", |b| {
        b.iter(|| black_box(page(&sb, PATTERN, None, None).match_lines))
    });
    g.bench_function("mutex_lock_page100_cursor", |b| {
        b.iter(|| black_box(page(&sb, PATTERN, Some(&cursor), None).match_lines))
    });
    g.bench_function("mutex_lock_page100_offset", |b| {
        b.iter(|| black_box(page(&sb, PATTERN, None, Some(990)).match_lines))
    });
    g.finish();
}

fn human(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{}MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{}KiB", bytes >> 10)
    } else {
        format!("{bytes}B")
    }
}

fn bench_read(c: &mut Criterion, corpus: &Corpus) {
    let sb = default_sandbox(&corpus.root);
    let mut g = c.benchmark_group(format!("{}/read_file", corpus.name));
    g.sample_size(50)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (path, limit) in [(corpus.small_read, 4096u64), (corpus.large_read, 1 << 20)] {
        let args = {
            let mut args_ = ReadArgs::default();
            args_.path = path.to_string();
            args_.offset = Some(0);
            args_.limit = Some(limit);
            args_
        };
        let r = sb.read_file(&args).expect("read_file");
        assert_eq!(r.encoding, "utf-8", "{path}");
        let id = human(r.bytes_returned);
        println!(
            "{}/read_file/{id}: {path}, {} of {} bytes",
            corpus.name, r.bytes_returned, r.total_bytes
        );
        g.bench_function(id, |b| {
            b.iter(|| black_box(sb.read_file(&args).expect("read_file").bytes_returned))
        });
    }
    g.finish();
}

fn bench_walk(c: &mut Criterion, corpus: &Corpus) {
    let sb = unbounded_sandbox(&corpus.root);
    let glob = {
        let mut args_ = GlobArgs::default();
        args_.pattern = "**".to_string();
        args_.limit = Some(u64::MAX / 2);
        args_
    };
    // The same walk, plus an open and fstat of every file: grep with max_filesize 0 skips each file
    // after the fstat on its descriptor, before reading it.
    let open_only = {
        let mut args_ = GrepArgs::default();
        args_.pattern = "NOMATCH_ROOTBOUND_7f3a91".to_string();
        args_.max_filesize = Some(0);
        args_.limit = Some(u64::MAX / 2);
        args_
    };
    let r = sb.glob(&glob).expect("glob");
    assert!(!r.truncated);
    println!(
        "{}/walk/glob_all: {} paths; skipped {:?}",
        corpus.name, r.match_lines, r.stats.skipped
    );
    let r = sb.grep_search(&open_only).expect("grep");
    println!(
        "{}/walk/open_fstat_all: {} files opened and skipped as too large, {} empty files searched",
        corpus.name, r.stats.skipped.too_large, r.stats.files_searched
    );

    let mut g = c.benchmark_group(format!("{}/walk", corpus.name));
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("glob_all", |b| {
        b.iter(|| black_box(sb.glob(&glob).expect("glob").match_lines))
    });
    g.bench_function("open_fstat_all", |b| {
        b.iter(|| black_box(sb.grep_search(&open_only).expect("grep").stats))
    });
    g.finish();
}

/// The same full searches with the n-gram index (issue 27): replayed walks, after a first search of
/// each query recorded its walk; and the first page of `mutex_lock`. The index is built (~20 s on
/// the Linux tree) only when a benchmark of this group runs: `cargo bench --bench search -- indexed`.
fn bench_indexed(c: &mut Criterion, corpus: &Corpus) {
    let indexed = std::sync::OnceLock::new();
    let sb = || {
        indexed.get_or_init(|| {
            let sb = unbounded_sandbox(&corpus.root).with_index();
            let started = std::time::Instant::now();
            assert!(sb.wait_for_index(Duration::from_secs(600)), "index build");
            println!(
                "{}/indexed: index built in {:.1?}: {:?}",
                corpus.name,
                started.elapsed(),
                sb.index_status()
            );
            sb
        })
    };
    let mut g = c.benchmark_group(format!("{}/indexed", corpus.name));
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1));
    for &(id, pattern, ci, word) in QUERIES {
        let slow = matches!(id, "unicode_greek" | "no_literal");
        g.measurement_time(if slow {
            corpus.slow_search * 12
        } else {
            corpus.fast_search * 4
        });
        g.bench_function(id, |b| {
            let sb = sb();
            // The first search of a walk key records the walk in the background.
            full_search(sb, pattern, ci, word);
            assert!(sb.wait_for_index(Duration::from_secs(600)));
            b.iter(|| black_box(full_search(sb, pattern, ci, word).match_lines))
        });
    }
    g.bench_function("mutex_lock_page1", |b| {
        let sb = sb();
        page(sb, "mutex_lock", None, None);
        assert!(sb.wait_for_index(Duration::from_secs(600)));
        b.iter(|| black_box(page(sb, "mutex_lock", None, None).match_lines))
    });
    g.finish();
}

/// Reads every file once (a full search for a string that is nowhere), because these machines trim
/// the page cache when idle and a cold first sample would measure the disk.
fn warm_page_cache(corpus: &Corpus) {
    let started = std::time::Instant::now();
    let r = full_search(
        &unbounded_sandbox(&corpus.root),
        "NOMATCH_ROOTBOUND_7f3a91",
        false,
        false,
    );
    println!(
        "{}: page cache warmed ({} files read in {:.1?})",
        corpus.name,
        r.stats.files_searched,
        started.elapsed()
    );
}

fn benches(c: &mut Criterion) {
    // The bundled corpus only stands in when the Linux tree is absent.
    let Some(corpus) = linux_corpus().or_else(default_corpus) else {
        return;
    };
    warm_page_cache(&corpus);
    // Paging and reads first: they are quick and they are the numbers most often asked for.
    bench_paging(c, &corpus);
    bench_read(c, &corpus);
    bench_walk(c, &corpus);
    bench_full_searches(c, &corpus);
    bench_indexed(c, &corpus);
}

criterion_group! {
    name = search;
    config = Criterion::default().without_plots();
    targets = benches
}
criterion_main!(search);
