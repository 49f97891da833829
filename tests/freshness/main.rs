//! A freshness fuzzer for the n-gram index: random sequences of changes under a root (`ops.rs`:
//! create, append, truncate, same-size rewrite with the old mtime put back, rename over, directory
//! rename and swap, symlink swaps inside and out of the root, chmod, hard links, ignore files and
//! `.git/info/exclude`, an aged directory renamed in, rootbound's own write_file / edit_file /
//! move_file) interleaved with grep_search calls followed over cursor pages, waits for the index's
//! background work, restarts (the indexed sandbox dropped and the root indexed again, from its
//! saved index when its build had ended and saved one) and two-second pauses after which changed
//! files may be described again. Every answer of the indexed sandbox must equal the unindexed
//! sandbox's on the same root, as JSON, with one field taken out of the indexed answer:
//! `stats.index` (what the index did: roots indexed, files pruned, walks replayed). Nothing else
//! may differ (results, counts, skips, truncation, cursors, errors).
//!
//! Bounded for CI: `ROOTBOUND_FRESHNESS_CASES` cases (default 8), up to
//! `ROOTBOUND_FRESHNESS_STEPS` steps each (default 30); `ROOTBOUND_FRESHNESS_SECS=600` runs new
//! cases until that many seconds have passed; `ROOTBOUND_FRESHNESS_SETTLE` weighs the two-second
//! step (default 1). A failure is shrunk and printed as the step list.
//! Each case waits 2.1 s once, for its first tree to age past the index's racy window (a file
//! changed in the two seconds before it is read gets no entry).
//!
//! Mutation check (docs/index.md, "The freshness fuzzer"; `tools/freshness_mutants.sh`): each kind
//! of change handling in the index was switched off in turn; the table there says which the fuzzer
//! caught (22 of 26), and why the others cannot be (redundant handling, multigrain timestamps).

mod hold;
mod ops;

use ops::{Op, Place, Query, Text};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};
use rootbound::{IndexDir, IndexOptions, Sandbox, WritePolicy};
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// One case: the first tree's texts, whether the build is slowed (so that queries and changes
/// meet it while building), and the steps.
#[derive(Debug, Clone)]
struct Case {
    seed: Vec<Text>,
    slow_build: bool,
    steps: Vec<Op>,
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn case(steps: usize, settle: u32, hold: u32) -> impl Strategy<Value = Case> {
    (
        prop::collection::vec(ops::text_strategy(), 1..8),
        prop::bool::weighted(0.3),
        prop::collection::vec(ops::op(settle, hold), 1..=steps),
    )
        .prop_map(|(seed, slow_build, steps)| Case {
            seed,
            slow_build,
            steps,
        })
}

fn sandbox(root: &std::path::Path) -> Sandbox {
    let mut w = WritePolicy::new(root);
    w.allow_overwrite = true;
    w.create_parents = true;
    Sandbox::builder()
        .root(root)
        .deny("secret*")
        .write(w)
        .threads(2)
        .build()
        .unwrap()
}

/// The answer of `sb` as JSON, without what may legitimately differ between an indexed and an
/// unindexed sandbox: `stats.index`.
fn answer(sb: &Sandbox, args: &Value) -> Value {
    let mut v = sb.call("grep_search", args.clone());
    if let Some(s) = v.pointer_mut("/stats").and_then(Value::as_object_mut) {
        if let Some(ix) = s.remove("index") {
            let n = |k: &str| ix[k].as_u64().unwrap_or(0);
            PRUNED.fetch_add(n("files_pruned"), Relaxed);
            REPLAYED.fetch_add(n("walks_replayed"), Relaxed);
        }
    }
    v
}

/// What the index did over the whole run: a fuzzer whose indexed sandbox never pruned nor
/// replayed would compare the unindexed search with itself.
static PRUNED: AtomicU64 = AtomicU64::new(0);
static REPLAYED: AtomicU64 = AtomicU64::new(0);
/// Restarts that served from the saved index.
static LOADED: AtomicU64 = AtomicU64::new(0);
/// Held steps whose thread was held (the others found nothing to describe or record).
static HELD: AtomicU64 = AtomicU64::new(0);

/// How long background index work may take before the case fails (a busy CI machine).
const WAIT: Duration = Duration::from_secs(120);

struct World {
    place: Place,
    off: Sandbox,
    on: Option<Sandbox>,
    slow: bool,
    /// Where the index is saved, outside the root: a restart loads it when its build had ended.
    cache: tempfile::TempDir,
}

impl World {
    fn on(&self) -> &Sandbox {
        self.on.as_ref().unwrap()
    }

    fn index(&mut self) {
        let root = self.place.root.canonicalize().unwrap();
        rootbound::index_slow_at(self.slow.then_some(root.as_path()));
        let o = IndexOptions::default().index_dir(IndexDir::Path(self.cache.path().into()));
        self.on = Some(sandbox(&self.place.root).with_index_options(o));
    }

    fn wait(&self) -> Result<(), TestCaseError> {
        prop_assert!(self.on().wait_for_index(WAIT), "index work over {WAIT:?}");
        Ok(())
    }

    /// Both answers to `q`, page after page.
    fn query(&self, q: &Query) -> Result<(), TestCaseError> {
        let mut args = q.args();
        for page in 0..q.pages {
            let want = answer(&self.off, &args);
            let got = answer(self.on(), &args);
            prop_assert_eq!(&want, &got, "page {} of {}", page, args);
            if q.settle {
                self.wait()?;
                let again = answer(self.on(), &args);
                prop_assert_eq!(&want, &again, "settled, page {} of {}", page, args);
            }
            match want["next_cursor"].as_str() {
                Some(c) => args["cursor"] = c.into(),
                None => break,
            }
        }
        Ok(())
    }

    fn step(&mut self, op: &Op) -> Result<(), TestCaseError> {
        match op {
            Op::Query(q) => self.query(q)?,
            Op::Wait => self.wait()?,
            Op::Restart(wait) => {
                self.on = None;
                self.index();
                // Loading happens on the index's own thread, before the build: once the wait is
                // over, a loaded index has been replaced, so it is counted by its status first.
                let loaded = |sb: &Sandbox| sb.index_status().iter().any(|s| s.from_snapshot);
                let t = Instant::now();
                while !loaded(self.on()) && t.elapsed() < Duration::from_millis(300) {
                    std::thread::sleep(Duration::from_millis(5));
                }
                if loaded(self.on()) {
                    LOADED.fetch_add(1, Relaxed);
                }
                if *wait {
                    self.wait()?;
                }
            }
            Op::Settle(q) => {
                std::thread::sleep(Duration::from_millis(2100));
                // The query starts the description of what changed, in the background: the
                // steps that follow race with it (a change reported while a file is read must
                // keep its description out); later queries prune by what was put in place.
                self.query(q)?;
            }
            Op::Hold(h) => self.hold(h)?,
            _ => self.change(op),
        }
        Ok(())
    }

    fn change(&mut self, op: &Op) {
        let tools = self.on().clone();
        self.place.change(op, &tools);
    }

    /// File `f` given every word and indexed so, with `z` (where the held step moves its
    /// directory) cleared: old enough for the build to read (the racy window), the root is
    /// indexed again from its saved index.
    fn index_with_every_word(&mut self, f: ops::F) -> Result<(), TestCaseError> {
        let z = self.place.root.join(ops::DIRS[hold::Z]);
        let _ = std::fs::remove_dir_all(z);
        self.change(&Op::Write(f, hold::every_word()));
        std::thread::sleep(Duration::from_millis(2100));
        self.step(&Op::Restart(true))
    }

    /// A background thread held at a point while `h.during` is made: the change lands in the
    /// window between what the thread read and what it puts in place, every time. Then the
    /// query is asked again, replayed once the work is over (a replay prunes by what was put in
    /// place, with no `statat`: a description or recording that should have been dropped shows).
    fn hold(&mut self, h: &hold::Hold) -> Result<(), TestCaseError> {
        use rootbound::IndexPoint;
        let settled = Query {
            settle: true,
            ..h.query.clone()
        };
        let asked = Query {
            settle: false,
            ..h.query.clone()
        };
        if let Some(f) = h.indexed {
            self.index_with_every_word(f)?;
        }
        if h.describe {
            // A recorded walk to replay, changed files, and the racy window past them.
            self.query(&settled)?;
            h.before.iter().for_each(|op| self.change(op));
            if h.indexed.is_some() {
                // A recording finds the other file at the indexed path (no change to it is
                // reported: its directory is new), so the description chooses it.
                self.query(&asked)?;
                self.wait()?;
            }
            std::thread::sleep(Duration::from_millis(2100));
        } else {
            h.before.iter().for_each(|op| self.change(op));
        }
        let root = self.place.root.canonicalize().unwrap();
        let point = [IndexPoint::Record, IndexPoint::Describe][usize::from(h.describe)];
        rootbound::index_hold_at(Some((&root, point)));
        // Starts the description of the changed files, or a recording of the query's walk.
        let asked_ok = self.query(&asked);
        if asked_ok.is_ok() && rootbound::index_held(Duration::from_secs(3)) {
            HELD.fetch_add(1, Relaxed);
            h.during.iter().for_each(|op| self.change(op));
            if h.describe {
                // A recording of the new shape while the description waits (it verifies the
                // paths before the description is in place).
                let ended = rootbound::index_threads_ended();
                let asked_again = self.query(&asked);
                let t = Instant::now();
                while rootbound::index_threads_ended() == ended
                    && t.elapsed() < Duration::from_secs(3)
                {
                    std::thread::sleep(Duration::from_millis(5));
                }
                asked_again.inspect_err(|_| rootbound::index_hold_at(None))?;
            }
        }
        rootbound::index_hold_at(None);
        asked_ok?;
        self.query(&settled)
    }
}

fn run(case: &Case) -> Result<(), TestCaseError> {
    // A hold left armed by a failed case is not this case's.
    rootbound::index_hold_at(None);
    let t = tempfile::tempdir().unwrap();
    let place = Place::new(t.path(), &case.seed);
    std::thread::sleep(Duration::from_millis(2100));
    let off = sandbox(&place.root);
    let mut w = World {
        place,
        off,
        on: None,
        slow: case.slow_build,
        cache: tempfile::tempdir().unwrap(),
    };
    w.index();
    for op in &case.steps {
        w.step(op)?;
    }
    // A last look at everything once the index has caught up.
    w.wait()?;
    for pattern in 0..ops::PATTERNS.len() {
        w.query(&Query::everything(pattern))?;
    }
    drop(w);
    rootbound::index_slow_at(None);
    Ok(())
}

#[test]
fn indexed_answers_stay_the_unindexed_ones_through_any_changes() {
    let cases = env("ROOTBOUND_FRESHNESS_CASES", 8) as u32;
    let steps = env("ROOTBOUND_FRESHNESS_STEPS", 30) as usize;
    let secs = env("ROOTBOUND_FRESHNESS_SECS", 0);
    // The weight of the two-second step (against 60 for the others).
    let settle = env("ROOTBOUND_FRESHNESS_SETTLE", 1) as u32;
    // The weight of the held step (two seconds or more each).
    let hold = env("ROOTBOUND_FRESHNESS_HOLD", 2) as u32;
    let start = Instant::now();
    let mut ran = 0u64;
    loop {
        let config = Config {
            cases,
            max_shrink_iters: env("ROOTBOUND_FRESHNESS_SHRINK", 200) as u32,
            // Each shrink step is a case (2 s at least): a failure is reported within minutes.
            max_shrink_time: 240_000,
            failure_persistence: None,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        match runner.run(&case(steps, settle, hold), |c| run(&c)) {
            Ok(()) => ran += u64::from(cases),
            Err(TestError::Fail(why, c)) => panic!("{why}\nminimal case: {c:#?}"),
            Err(e) => panic!("{e}"),
        }
        if start.elapsed().as_secs() >= secs {
            break;
        }
    }
    let (pruned, replayed) = (PRUNED.load(Relaxed), REPLAYED.load(Relaxed));
    let (loaded, held) = (LOADED.load(Relaxed), HELD.load(Relaxed));
    eprintln!(
        "freshness: {ran} cases in {:?}: {pruned} files pruned, {replayed} walks replayed, \
         {loaded} restarts from the saved index, {held} threads held",
        start.elapsed()
    );
    assert!(pruned > 0 && replayed > 0, "the index served no query");
}
