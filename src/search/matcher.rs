//! Regex matcher construction with limits, and errors an agent can act on.

use crate::core::error::{Error, ErrorCode, Result};
use crate::core::policy::Limits;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};

/// Matching flags of a search.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MatchFlags {
    pub case_insensitive: bool,
    pub smart_case: bool,
    pub fixed_strings: bool,
    pub word: bool,
    pub multiline: bool,
}

/// Builds the matcher, refusing over-long patterns before parsing and mapping every failure to
/// `INVALID_PATTERN` (with position and hints) or `PATTERN_TOO_LARGE`.
pub(crate) fn build(pattern: &str, flags: MatchFlags, limits: &Limits) -> Result<RegexMatcher> {
    if pattern.len() > limits.max_pattern_len {
        return Err(Error::new(
            ErrorCode::PatternTooLarge,
            format!(
                "pattern is {} bytes, over the limit of {}",
                pattern.len(),
                limits.max_pattern_len
            ),
        ));
    }
    if !flags.fixed_strings {
        check_syntax(pattern)?;
    }
    let mut b = RegexMatcherBuilder::new();
    b.case_insensitive(flags.case_insensitive)
        .case_smart(flags.smart_case && !flags.case_insensitive)
        .fixed_strings(flags.fixed_strings)
        .word(flags.word)
        .size_limit(limits.regex_size_limit)
        .dfa_size_limit(limits.dfa_size_limit)
        .nest_limit(100);
    if flags.multiline {
        b.multi_line(true).dot_matches_new_line(true);
    } else {
        b.line_terminator(Some(b'\n'));
    }
    b.build(pattern)
        .map_err(|e| map_build_error(&e.to_string()))
}

fn check_syntax(pattern: &str) -> Result<()> {
    let mut p = regex_syntax::ast::parse::ParserBuilder::new()
        .nest_limit(100)
        .build();
    if let Err(e) = p.parse(pattern) {
        use regex_syntax::ast::ErrorKind as K;
        let pos = e.span().start.offset;
        let hint = match e.kind() {
            K::UnsupportedBackreference => {
                " Backreferences are not supported (the engine is linear-time); match the text literally or search twice."
            }
            K::UnsupportedLookAround => {
                " Look-ahead and look-behind are not supported; drop them and filter the matching lines instead."
            }
            K::NestLimitExceeded(_) => {
                return Err(Error::new(
                    ErrorCode::PatternTooLarge,
                    "pattern nests groups too deeply (limit 100)",
                ))
            }
            _ => " Escape regex metacharacters, or set fixed_strings: true to search literally.",
        };
        return Err(Error::new(
            ErrorCode::InvalidPattern,
            format!("invalid regex at byte {pos}: {}.{hint}", e.kind()),
        )
        .with_detail("position", pos));
    }
    Ok(())
}

fn map_build_error(msg: &str) -> Error {
    let lower = msg.to_lowercase();
    if lower.contains("size limit") || lower.contains("too big") || lower.contains("nest limit") {
        Error::new(
            ErrorCode::PatternTooLarge,
            "pattern compiles to more than the sandbox's regex size limit; use a shorter or less repetitive pattern",
        )
    } else {
        // Keep only the first line: the rest repeats the pattern with a caret, which is fine but long.
        let first = msg
            .lines()
            .find(|l| l.starts_with("error:"))
            .unwrap_or(msg.lines().next().unwrap_or(""));
        Error::new(
            ErrorCode::InvalidPattern,
            format!("invalid pattern: {first}"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(p: &str) -> ErrorCode {
        build(p, MatchFlags::default(), &Limits::default())
            .unwrap_err()
            .code
    }

    #[test]
    fn pathological_patterns_are_refused() {
        assert_eq!(code("(a)\\1"), ErrorCode::InvalidPattern);
        assert_eq!(code("(?=a)"), ErrorCode::InvalidPattern);
        assert_eq!(code("a{100000}"), ErrorCode::PatternTooLarge);
        assert_eq!(code("\\w{5000}"), ErrorCode::PatternTooLarge);
        assert_eq!(
            code(&format!("{}a{}", "(".repeat(300), ")".repeat(300))),
            ErrorCode::PatternTooLarge
        );
        assert_eq!(code("a("), ErrorCode::InvalidPattern);
    }

    #[test]
    fn benchmark_patterns_compile() {
        for p in [
            "PM_RESUME",
            "\\p{Greek}",
            "\\w+_SUSPEND",
            "\\w{5}(\\s+\\w{5}){4}",
            "ERR_SYS|PME_TURN_OFF",
        ] {
            build(p, MatchFlags::default(), &Limits::default()).unwrap();
        }
    }
}
