//! A small process-wide cache of compiled matchers, so that an agent repeating or paging a search
//! does not pay for compiling its regex again (compiling is most of a small search's time).
//!
//! Memory stays bounded: at most [`ENTRIES`] matchers, only for patterns up to [`MAX_PATTERN`]
//! bytes, and each compiled program is within the sandbox's `regex_size_limit`. A cached matcher is
//! never searched with: every call gets a clone, and a clone of a regex starts with empty scratch
//! space (lazy-DFA caches) of its own, dropped with the call, so no search's caches outlive it.

use crate::core::deadline::Deadline;
use crate::core::error::Result;
use crate::core::policy::Limits;
use crate::search::matcher::{self, Compiled, MatchFlags};
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

/// Matchers kept at most.
pub(crate) const ENTRIES: usize = 16;

/// Patterns (all of a search's together) longer than this are compiled and not kept: long patterns
/// are rarely repeated, and they compile to the largest programs.
pub(crate) const MAX_PATTERN: usize = 1024;

/// What a compiled matcher depends on: the patterns, the flags and the limits it was built under.
#[derive(PartialEq, Eq)]
struct Key {
    patterns: Vec<String>,
    /// The flags and the limits, as text (new flags take part without being listed here).
    config: String,
}

#[derive(Default)]
struct Cache {
    entries: Vec<(Key, Compiled, u64)>,
    tick: u64,
}

static COMPILED: LazyLock<Mutex<Cache>> = LazyLock::new(Mutex::default);

/// [`build_any_within`] under a deadline of the policy's `timeout_ms` from now, bound to no call:
/// for the command line's `-r` replacer, which the operator gives.
pub(crate) fn build_any(
    pattern: &str,
    more: &[String],
    flags: MatchFlags,
    limits: &Limits,
) -> Result<Compiled> {
    let deadline = Deadline::detached(Duration::from_millis(limits.timeout_ms));
    build_any_within(pattern, more, flags, limits, &deadline)
}

/// [`matcher::build_any`] within the call's deadline, from the cache when the same search was
/// compiled before.
pub(crate) fn build_any_within(
    pattern: &str,
    more: &[String],
    flags: MatchFlags,
    limits: &Limits,
    deadline: &Deadline,
) -> Result<Compiled> {
    let size = pattern.len() + more.iter().map(String::len).sum::<usize>();
    if size > MAX_PATTERN {
        return matcher::build_any(pattern, more, flags, limits, deadline);
    }
    let key = Key {
        patterns: std::iter::once(pattern)
            .chain(more.iter().map(String::as_str))
            .map(str::to_owned)
            .collect(),
        config: format!(
            "{flags:?} {} {} {}",
            limits.max_pattern_len, limits.regex_size_limit, limits.dfa_size_limit
        ),
    };
    if let Some(m) = get(&key) {
        return Ok(m);
    }
    let m = matcher::build_any(pattern, more, flags, limits, deadline)?;
    put(key, m.clone());
    Ok(m)
}

fn get(key: &Key) -> Option<Compiled> {
    let mut compiled = COMPILED.lock().unwrap_or_else(|e| e.into_inner());
    compiled.tick += 1;
    let tick = compiled.tick;
    let (_, m, used) = compiled.entries.iter_mut().find(|(k, _, _)| k == key)?;
    *used = tick;
    Some(m.clone())
}

fn put(key: Key, m: Compiled) {
    let mut compiled = COMPILED.lock().unwrap_or_else(|e| e.into_inner());
    if compiled.entries.iter().any(|(k, _, _)| *k == key) {
        return;
    }
    compiled.tick += 1;
    let tick = compiled.tick;
    if compiled.entries.len() >= ENTRIES {
        if let Some(oldest) = (0..compiled.entries.len()).min_by_key(|&i| compiled.entries[i].2) {
            compiled.entries.swap_remove(oldest);
        }
    }
    compiled.entries.push((key, m, tick));
}

/// How many matchers the cache holds (for tests).
#[cfg(test)]
pub(crate) fn len() -> usize {
    COMPILED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entries
        .len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use grep_matcher::Matcher;

    fn matches(m: &Compiled, text: &str) -> bool {
        m.matcher.is_match(text.as_bytes()).unwrap()
    }

    #[test]
    fn a_cached_matcher_keeps_the_flags_it_was_built_with() {
        let limits = Limits::default();
        let ci = MatchFlags {
            case_insensitive: true,
            ..Default::default()
        };
        let plain = MatchFlags::default();
        for _ in 0..2 {
            assert!(matches(
                &build_any("MemoCase", &[], ci, &limits).unwrap(),
                "memocase"
            ));
            assert!(!matches(
                &build_any("MemoCase", &[], plain, &limits).unwrap(),
                "memocase"
            ));
            let word = MatchFlags {
                word: true,
                ..Default::default()
            };
            assert!(!matches(
                &build_any("memo", &[], word, &limits).unwrap(),
                "memoise"
            ));
            assert!(matches(
                &build_any("memo", &[], plain, &limits).unwrap(),
                "memoise"
            ));
        }
        // Several patterns are a different search from the first one alone.
        let more = ["other".to_string()];
        assert!(matches(
            &build_any("memo", &more, plain, &limits).unwrap(),
            "other"
        ));
        assert!(!matches(
            &build_any("memo", &[], plain, &limits).unwrap(),
            "other"
        ));
        // Other limits are another key: a tighter size limit is not bypassed by the cache.
        let big = "\\w{3}";
        assert!(build_any(big, &[], plain, &limits).is_ok());
        let tight = Limits {
            regex_size_limit: 1000,
            ..Limits::default()
        };
        assert!(build_any(big, &[], plain, &tight).is_err());
    }

    #[test]
    fn the_cache_is_bounded_and_errors_are_not_kept() {
        let limits = Limits::default();
        for i in 0..3 * ENTRIES {
            build_any(
                &format!("memo_bound_{i}"),
                &[],
                MatchFlags::default(),
                &limits,
            )
            .unwrap();
        }
        assert!(len() <= ENTRIES);
        for _ in 0..2 {
            assert!(build_any("memo(", &[], MatchFlags::default(), &limits).is_err());
        }
        // A long pattern is compiled but not kept.
        let long = "x".repeat(MAX_PATTERN + 1);
        let m = build_any(&long, &[], MatchFlags::default(), &limits).unwrap();
        assert!(matches(&m, &long));
        let compiled = COMPILED.lock().unwrap();
        assert!(compiled
            .entries
            .iter()
            .all(|(k, _, _)| k.patterns[0] != long));
    }
}
