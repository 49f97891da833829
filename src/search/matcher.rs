//! Regex matcher construction with limits, and errors an agent can act on.

use crate::core::deadline::Deadline;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::policy::Limits;
use grep_matcher::LineTerminator;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use regex_syntax::ast::Ast;
use regex_syntax::hir::Hir;
use std::sync::Arc;

/// Matching flags of a search.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MatchFlags {
    pub case_insensitive: bool,
    pub smart_case: bool,
    pub fixed_strings: bool,
    pub word: bool,
    pub multiline: bool,
    /// Match whole lines only (takes precedence over `word`, as in rg).
    pub line_regexp: bool,
    /// ASCII-only classes and case folding (rg `--no-unicode`; the command line only).
    pub no_unicode: bool,
    /// `$` matches before `\r\n` too (rg `--crlf`; the command line only).
    pub crlf: bool,
    /// With `multiline`, `.` stays within a line (rg `-U` without `--multiline-dotall`; the
    /// command line only: the contract's `multiline` lets `.` match a newline).
    pub no_dotall: bool,
    /// Lines end at NUL bytes (rg `--null-data`; the command line only).
    pub null_data: bool,
}

/// A built matcher and the parse it was built from: the one smart-case decision and the HIR of
/// the joined patterns (before grep-regex's `word`/`line_regexp` wrappers and the stripping of the
/// line terminator, which only restrict matches). The index's trigram query is made from this HIR
/// ([`crate::index::hir_query`]), so the index reads the pattern exactly as the matcher does.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    pub matcher: RegexMatcher,
    /// `None` only where the patterns did not parse, which the matcher's build refuses first.
    pub hir: Option<Arc<Hir>>,
}

/// The joined patterns as grep-regex joins them (`(?:p1)|(?:p2)`, escaped with `fixed_strings`),
/// parsed once: whether they are matched case-insensitively, and their HIR.
struct Parsed {
    case_insensitive: bool,
    hir: Option<Hir>,
}

/// The syntax settings of the translation to HIR, the ones [`builder`] gives grep-regex:
/// `(multi_line, dot_matches_new_line, crlf)`.
fn syntax(flags: MatchFlags) -> (bool, bool, bool) {
    if flags.multiline {
        (true, !flags.no_dotall, flags.crlf)
    } else {
        (flags.crlf, false, flags.crlf)
    }
}

/// The patterns' AST, parsed as grep-regex parses them (its nesting limit).
// The parser's own error, handed on as the parser gives it (its span places the caret).
#[allow(clippy::result_large_err)]
fn parse_ast(pattern: &str) -> std::result::Result<Ast, regex_syntax::ast::Error> {
    regex_syntax::ast::parse::ParserBuilder::new()
        .nest_limit(100)
        .build()
        .parse(pattern)
}

/// The translator from AST to HIR with the search's syntax flags and its one case decision `ci`.
fn translator(flags: MatchFlags, ci: bool) -> regex_syntax::hir::translate::Translator {
    let (multi_line, dot_nl, crlf) = syntax(flags);
    regex_syntax::hir::translate::TranslatorBuilder::new()
        .utf8(false)
        .case_insensitive(ci)
        .multi_line(multi_line)
        .dot_matches_new_line(dot_nl)
        .crlf(crlf)
        .unicode(!flags.no_unicode)
        .build()
}

/// The one case decision of a search: `case_insensitive`, or `smart_case` on patterns with a
/// literal and no uppercase literal (grep-regex's and rg's rule, on the joined patterns' AST;
/// `None`: they do not parse, and the build fails anyway).
fn case_insensitive(flags: MatchFlags, ast: Option<&Ast>) -> bool {
    if flags.case_insensitive {
        return true;
    }
    flags.smart_case
        && ast.is_some_and(|a| {
            let (any_literal, any_upper) = literal_case(a);
            any_literal && !any_upper
        })
}

/// Parses `all` once, as grep-regex will: the joined form, the same nest limit, the same
/// translation settings.
fn parse(all: &[&str], flags: MatchFlags) -> Parsed {
    let joined = all
        .iter()
        .map(|p| match flags.fixed_strings {
            true => format!("(?:{})", regex_syntax::escape(p)),
            false => format!("(?:{p})"),
        })
        .collect::<Vec<_>>()
        .join("|");
    let ast = parse_ast(&joined).ok();
    let ci = case_insensitive(flags, ast.as_ref());
    let hir = ast.and_then(|ast| translator(flags, ci).translate(&joined, &ast).ok());
    Parsed {
        case_insensitive: ci,
        hir,
    }
}

/// grep-regex's `AstAnalysis`: whether the pattern has a literal, and an uppercase one.
fn literal_case(ast: &Ast) -> (bool, bool) {
    use regex_syntax::ast::{ClassSet, ClassSetItem, Literal};
    fn lit(l: &Literal, acc: &mut (bool, bool)) {
        acc.0 = true;
        acc.1 |= l.c.is_uppercase();
    }
    fn set(s: &ClassSet, acc: &mut (bool, bool)) {
        match s {
            ClassSet::Item(i) => item(i, acc),
            ClassSet::BinaryOp(o) => {
                set(&o.lhs, acc);
                set(&o.rhs, acc);
            }
        }
    }
    fn item(i: &ClassSetItem, acc: &mut (bool, bool)) {
        match i {
            ClassSetItem::Literal(l) => lit(l, acc),
            ClassSetItem::Range(r) => {
                lit(&r.start, acc);
                lit(&r.end, acc);
            }
            ClassSetItem::Bracketed(b) => set(&b.kind, acc),
            ClassSetItem::Union(u) => u.items.iter().for_each(|i| item(i, acc)),
            _ => {}
        }
    }
    fn walk(a: &Ast, acc: &mut (bool, bool)) {
        match a {
            Ast::Literal(l) => lit(l, acc),
            Ast::ClassBracketed(b) => set(&b.kind, acc),
            Ast::Repetition(r) => walk(&r.ast, acc),
            Ast::Group(g) => walk(&g.ast, acc),
            Ast::Alternation(x) => x.asts.iter().for_each(|a| walk(a, acc)),
            Ast::Concat(x) => x.asts.iter().for_each(|a| walk(a, acc)),
            _ => {}
        }
    }
    let mut acc = (false, false);
    walk(ast, &mut acc);
    acc
}

/// Builds a matcher for any of several patterns (rg `-e`, OR'ed). The patterns together are bound
/// by `max_pattern_len`; a failure is reported for the first pattern that fails alone, as far as
/// `deadline` lets it look: each pattern is checked alone by parsing, translating and compiling its
/// NFA under the size limit (microseconds for a small one), never by building a whole matcher
/// again (1,000 patterns took 3.6-5.4 s that way, with no deadline).
pub(crate) fn build_any(
    pattern: &str,
    more: &[String],
    flags: MatchFlags,
    limits: &Limits,
    deadline: &Deadline,
) -> Result<Compiled> {
    if more.is_empty() {
        return build(pattern, flags, limits);
    }
    let all: Vec<&str> = std::iter::once(pattern)
        .chain(more.iter().map(String::as_str))
        .collect();
    let total: usize = all.iter().map(|p| p.len()).sum();
    if total > limits.max_pattern_len {
        return Err(Error::new(
            ErrorCode::PatternTooLarge,
            format!(
                "the patterns are {total} bytes together, over the limit of {}",
                limits.max_pattern_len
            ),
        ));
    }
    if !flags.fixed_strings {
        for p in &all {
            check_syntax(p)?;
        }
    }
    let parsed = parse(&all, flags);
    let ci = parsed.case_insensitive;
    let matcher = builder(flags, ci, limits).build_many(&all).map_err(|e| {
        if !matches!(e.kind(), grep_regex::ErrorKind::Regex(_)) {
            // A literal not allowed (a line terminator): said without looking at the patterns.
            return classify("", flags, ci, limits, &e);
        }
        // The error of the first pattern that fails alone, else the combination's size.
        all.iter()
            .take_while(|_| !deadline.expired())
            .find_map(|p| alone(p, flags, ci, limits))
            .unwrap_or_else(|| {
                Error::new(
                    ErrorCode::PatternTooLarge,
                    format!(
                        "the patterns together cannot be compiled within the sandbox's limits ({e}); use fewer or shorter patterns"
                    ),
                )
            })
    })?;
    Ok(Compiled {
        matcher,
        hir: parsed.hir.map(Arc::new),
    })
}

/// The grep-regex builder of a search whose case decision ([`case_insensitive`]) is `ci`:
/// grep-regex is never asked to decide smart case itself.
fn builder(flags: MatchFlags, ci: bool, limits: &Limits) -> RegexMatcherBuilder {
    let mut b = RegexMatcherBuilder::new();
    b.case_insensitive(ci)
        .fixed_strings(flags.fixed_strings)
        .word(flags.word && !flags.line_regexp)
        .whole_line(flags.line_regexp)
        .size_limit(limits.regex_size_limit)
        .dfa_size_limit(limits.dfa_size_limit)
        .nest_limit(100)
        .unicode(!flags.no_unicode);
    // As rg 13's matcher_rust: `crlf` (which makes `$` and `^` see `\r\n`, and sets a `\r\n` line
    // terminator) comes after the line terminator; a multiline search has none. The searcher is
    // given the same terminator ([`terminator`]).
    if flags.multiline {
        b.multi_line(true).dot_matches_new_line(!flags.no_dotall);
        if flags.crlf {
            b.crlf(true);
        }
        b.line_terminator(None);
    } else {
        // With both flags rg's searcher splits at `\r\n` (its `--crlf` wins), so the matcher's
        // terminator is that one too.
        b.line_terminator(Some(if flags.null_data { b'\0' } else { b'\n' }));
        if flags.crlf {
            b.crlf(true).multi_line(true);
        }
    }
    b
}

/// The searcher's line terminator for a search with these settings, rg 13's: `\r\n` with `--crlf`,
/// else NUL with `--null-data`, else `\n`.
pub(crate) fn terminator(null_data: bool, crlf: bool) -> LineTerminator {
    if crlf {
        LineTerminator::crlf()
    } else if null_data {
        LineTerminator::byte(b'\0')
    } else {
        LineTerminator::byte(b'\n')
    }
}

/// `line` without its terminator (both bytes of a `\r\n`), as rg's trim_line_terminator: a
/// line-by-line search looks for matches without it, so look-around cannot see it.
pub(crate) fn trim_terminator(term: LineTerminator, line: &[u8]) -> &[u8] {
    if !term.is_suffix(line) {
        return line;
    }
    let mut end = line.len() - 1;
    if term.is_crlf() && end > 0 && line[end - 1] == b'\r' {
        end -= 1;
    }
    &line[..end]
}

/// Builds the matcher, refusing over-long patterns before parsing and mapping every failure to
/// `INVALID_PATTERN` (with position and hints) or `PATTERN_TOO_LARGE`.
pub(crate) fn build(pattern: &str, flags: MatchFlags, limits: &Limits) -> Result<Compiled> {
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
    let parsed = parse(&[pattern], flags);
    let ci = parsed.case_insensitive;
    let matcher = builder(flags, ci, limits)
        .build(pattern)
        .map_err(|e| classify(pattern, flags, ci, limits, &e))?;
    Ok(Compiled {
        matcher,
        hir: parsed.hir.map(Arc::new),
    })
}

fn check_syntax(pattern: &str) -> Result<()> {
    let mut p = regex_syntax::ast::parse::ParserBuilder::new()
        .nest_limit(100)
        .build();
    match p.parse(pattern) {
        Ok(_) => Ok(()),
        Err(e) => Err(ast_error(&e, 0)),
    }
}

/// An error of the AST parser, with its position in the agent's pattern (`shift`: bytes added in
/// front of it).
fn ast_error(e: &regex_syntax::ast::Error, shift: usize) -> Error {
    use regex_syntax::ast::ErrorKind as K;
    let hint = match e.kind() {
        K::UnsupportedBackreference => {
            " Backreferences are not supported (the engine is linear-time); match the text literally or search twice."
        }
        K::UnsupportedLookAround => {
            " Look-ahead and look-behind are not supported; drop them and filter the matching lines instead."
        }
        K::NestLimitExceeded(_) => {
            return Error::new(
                ErrorCode::PatternTooLarge,
                "pattern nests groups too deeply (limit 100)",
            )
        }
        _ => " Escape regex metacharacters, or set fixed_strings: true to search literally.",
    };
    let pos = e.span().start.offset.saturating_sub(shift);
    Error::new(
        ErrorCode::InvalidPattern,
        format!("invalid regex at byte {pos}: {}.{hint}", e.kind()),
    )
    .with_detail("position", pos)
}

/// Maps a failure of grep-regex's build to a contract error from typed errors.
///
/// grep-regex turns every parse and compile failure into text (`ErrorKind::Regex(String)`), so the
/// typed cause is found by running its stages again with the crates it uses, which report typed
/// errors: the parse of the pattern as grep-regex parses it (inside a non-capturing group, so one
/// more level of nesting), the translation to HIR (regex-syntax `hir::ErrorKind`), then the NFA
/// compilation under the size limit (regex-automata `BuildError::size_limit`). A failure past a clean
/// parse and translation is a compiled-size limit in any case.
fn classify(
    pattern: &str,
    flags: MatchFlags,
    ci: bool,
    limits: &Limits,
    e: &grep_regex::Error,
) -> Error {
    use grep_regex::ErrorKind as G;
    match e.kind() {
        G::Regex(_) => {}
        G::NotAllowed(lit) => {
            return Error::new(
                ErrorCode::InvalidPattern,
                format!(
                    "the pattern contains {lit:?}, which cannot match inside one line; set multiline: true to match across lines"
                ),
            )
        }
        _ => {
            return Error::new(ErrorCode::InvalidPattern, format!("invalid pattern: {e}"));
        }
    }
    alone(pattern, flags, ci, limits).unwrap_or_else(|| {
        Error::new(
            ErrorCode::PatternTooLarge,
            format!(
                "pattern cannot be compiled within the sandbox's limits ({e}); use a shorter or less repetitive pattern"
            ),
        )
    })
}

/// Why `pattern` alone cannot be compiled, from typed errors: its parse (inside a non-capturing
/// group, as grep-regex parses it), its translation to HIR, its NFA under the size limit. `None`
/// when all three pass (the pattern alone fits). `ci`: the search's case decision.
fn alone(pattern: &str, flags: MatchFlags, ci: bool, limits: &Limits) -> Option<Error> {
    let body = if flags.fixed_strings {
        regex_syntax::escape(pattern)
    } else {
        pattern.to_string()
    };
    let wrapped = format!("(?:{body})");
    const SHIFT: usize = 3;
    let ast = match parse_ast(&wrapped) {
        Ok(ast) => ast,
        Err(e) => return Some(ast_error(&e, SHIFT)),
    };
    let hir = match translator(flags, ci).translate(&wrapped, &ast) {
        Ok(hir) => hir,
        Err(e) => {
            let pos = e
                .span()
                .start
                .offset
                .saturating_sub(SHIFT)
                .min(pattern.len());
            return Some(
                Error::new(
                    ErrorCode::InvalidPattern,
                    format!("invalid regex at byte {pos}: {}.", e.kind()),
                )
                .with_detail("position", pos),
            );
        }
    };
    let nfa = |reverse: bool| {
        regex_automata::nfa::thompson::Compiler::new()
            .configure(
                regex_automata::nfa::thompson::Config::new()
                    .nfa_size_limit(Some(limits.regex_size_limit))
                    .reverse(reverse),
            )
            .build_from_hir(&hir)
            .err()
            .and_then(|e| e.size_limit())
    };
    let limit = nfa(false).or_else(|| nfa(true))?;
    Some(Error::new(
        ErrorCode::PatternTooLarge,
        format!(
            "pattern compiles to more than the sandbox's regex size limit ({limit} bytes); use a shorter or less repetitive pattern"
        ),
    ))
}

/// The index's query for `patterns` under `flags`, as a search makes it: from the HIR its matcher
/// was built from (`All` when the matcher cannot be built). For tests.
#[cfg(test)]
pub(crate) fn query_of(patterns: &[&str], flags: MatchFlags) -> crate::index::TriQuery {
    let more: Vec<String> = patterns[1..].iter().map(|p| p.to_string()).collect();
    let deadline = Deadline::detached(std::time::Duration::from_secs(60));
    match build_any(patterns[0], &more, flags, &Limits::default(), &deadline) {
        Ok(Compiled { hir: Some(h), .. }) => crate::index::hir_query(&h),
        _ => crate::index::TriQuery::All,
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
        // One level under the parser's limit, one over once grep-regex wraps it in a group.
        assert_eq!(
            code(&format!("{}a{}", "(".repeat(100), ")".repeat(100))),
            ErrorCode::PatternTooLarge
        );
        assert_eq!(code("a{1000}{1000}"), ErrorCode::PatternTooLarge);
    }

    #[test]
    fn errors_are_classified_from_typed_causes() {
        let err = |p: &str, f: MatchFlags| build(p, f, &Limits::default()).unwrap_err();
        // A literal line terminator in a line-oriented search (grep-regex `NotAllowed`).
        let e = err("a\nb", MatchFlags::default());
        assert_eq!(e.code, ErrorCode::InvalidPattern);
        assert!(e.message.contains("multiline"), "{}", e.message);
        // A translation error (regex-syntax `hir::ErrorKind`), with its position in the pattern.
        let e = err("ab\\p{NoSuchProperty}", MatchFlags::default());
        assert_eq!(e.code, ErrorCode::InvalidPattern);
        assert_eq!(e.to_json()["error"]["position"], 2, "{}", e.message);
        // The compiled size (regex-automata `BuildError::size_limit`).
        let e = err("\\w{5000}", MatchFlags::default());
        assert_eq!(e.code, ErrorCode::PatternTooLarge);
        assert!(e.message.contains("2097152"), "{}", e.message);
        // A long literal with fixed_strings is escaped, and can still be too large.
        let f = MatchFlags {
            fixed_strings: true,
            ..MatchFlags::default()
        };
        assert!(build("a(b", f, &Limits::default()).is_ok());
    }

    /// A failure is classified under the case decision the build made: `\W` is no uppercase
    /// literal, so smart case folds `k` (as grep-regex does), and the folded pattern's program is
    /// what passes the size limit. (Decided again from "any uppercase character", the failure had
    /// no typed cause.)
    #[test]
    fn a_failure_is_classified_under_the_searchs_case_decision() {
        let smart = MatchFlags {
            smart_case: true,
            ..MatchFlags::default()
        };
        let e = build("\\Wk{16000}", smart, &Limits::default()).unwrap_err();
        assert_eq!(e.code, ErrorCode::PatternTooLarge);
        assert!(e.message.contains("compiles to more than"), "{}", e.message);
        // Unfolded, the same pattern fits.
        assert!(build("\\Wk{16000}", MatchFlags::default(), &Limits::default()).is_ok());
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
