//! grep_search as Gemini CLI prints it: per-file blocks, auto-context, `exclude_pattern`.

use super::*;
use crate::engine::Within;

/// Longest line grep_search and read_file show, in characters (Gemini CLI's
/// MAX_LINE_LENGTH_TEXT_FILE); longer ones end in `... [truncated]`.
pub(super) const MAX_LINE_CHARS: usize = 2000;

/// A line cut to [`MAX_LINE_CHARS`] characters as Gemini CLI cuts it, and whether it was.
pub(super) fn cut_line(line: &str) -> (String, bool) {
    match line.char_indices().nth(MAX_LINE_CHARS) {
        Some((at, _)) => (format!("{}... [truncated]", &line[..at]), true),
        None => (line.to_string(), false),
    }
}

/// The searched directory (or file) as the engine shows paths, when hits can be shown relative to
/// it as Gemini CLI shows them: `dir_path`, or with no `dir_path` the one root (Gemini CLI searches
/// its target directory). None with several roots and no `dir_path`: paths are then shown as the
/// engine shows them.
fn search_base(sb: &Within<'_>, dir: Option<&str>) -> Option<String> {
    let dir = match dir {
        Some(d) => d,
        None if sb.roots().len() == 1 => ".",
        None => return None,
    };
    sb.stat(&StatArgs { path: dir.into() })
        .ok()
        .map(|st| st.path)
}

/// A hit's path as Gemini CLI shows it: relative to the searched directory `base`, the file's name
/// when `base` is the file itself, else as the engine shows it.
fn shown_path<'a>(path: &'a str, base: Option<&str>) -> &'a str {
    let Some(base) = base.map(|d| d.trim_end_matches('/')) else {
        return path;
    };
    if path == base {
        return path.rsplit('/').next().unwrap_or(path);
    }
    path.strip_prefix(base)
        .and_then(|rest| rest.strip_prefix('/'))
        .filter(|rest| !rest.is_empty())
        .unwrap_or(path)
}

pub(super) fn grep(sb: &Within<'_>, a: Grep) -> Result<Presented, Error> {
    // total_max_matches and max_matches_per_file of 0 were taken as not set (args.rs: a
    // strict-mode client sends 0 for what it leaves unset; the schema admits 0 and says so).
    let names_only = a.names_only == Some(true);
    // Gemini CLI searches its target directory when no dir_path is given and says so as ".".
    let where_ = a.dir_path.clone().unwrap_or_else(|| ".".into());
    let limit = a.total_max_matches.unwrap_or(MAX_MATCHES);
    let mut args = GrepArgs {
        pattern: a.pattern.clone(),
        path: a.dir_path.clone(),
        include: a.include_pattern.clone().map(Globs::One),
        case_insensitive: Some(a.case_sensitive != Some(true)),
        fixed_strings: a.fixed_strings,
        // Zero is unset for these (see the auto-context below): a `before: 0` beside `context`
        // must not cut the context that the call without it shows.
        context: a.context.filter(|&n| n > 0),
        before: a.before.filter(|&n| n > 0),
        after: a.after.filter(|&n| n > 0),
        no_ignore: a.no_ignore,
        output_mode: Some(if names_only {
            OutputMode::FilesWithMatches
        } else {
            OutputMode::Content
        }),
        output_format: Some(OutputFormat::Json),
        max_count: a.max_matches_per_file,
        limit: Some(limit),
        ..Default::default()
    };
    let filter = a
        .include_pattern
        .as_deref()
        .map(|g| format!(" (filter: \"{g}\")"))
        .unwrap_or_default();
    let head = format!("for pattern \"{}\" in path \"{where_}\"{filter}", a.pattern);
    let limited = format!(" (results limited to {limit} matches for performance)");
    if names_only {
        let (files, truncated) = match a.exclude_pattern.as_deref() {
            Some(exclude) => {
                let (hits, _, truncated) = excluding(sb, args, exclude)?;
                let mut files: Vec<String> = hits
                    .into_iter()
                    .filter(|h| h.kind == HitKind::Match)
                    .map(|h| h.path)
                    .collect();
                files.dedup();
                (files, truncated)
            }
            None => {
                let r = sb.grep_search(&args)?;
                (r.files.unwrap_or_default(), r.truncated)
            }
        };
        if files.is_empty() {
            return Ok(text(format!("No matches found {head}."), Some(false)));
        }
        let base = search_base(sb, a.dir_path.as_deref());
        let dir = base.as_deref();
        let mut shown: Vec<&str> = files.iter().map(|f| shown_path(f, dir)).collect();
        shown.sort_unstable();
        let out = format!(
            "Found {} files with matches {head}{}:\n{}",
            shown.len(),
            if truncated { limited.as_str() } else { "" },
            shown.join("\n")
        );
        return Ok(text(out, Some(truncated)));
    }
    let run = |args: GrepArgs| -> Result<(Vec<Hit>, u64, bool), Error> {
        match a.exclude_pattern.as_deref() {
            Some(exclude) => excluding(sb, args, exclude),
            None => {
                let r = sb.grep_search(&args)?;
                Ok((r.hits.unwrap_or_default(), r.match_lines, r.truncated))
            }
        }
    };
    let (mut hits, mut count, mut truncated) = run(args.clone())?;
    if count == 0 {
        return Ok(text(format!("No matches found {head}."), Some(false)));
    }
    // Gemini CLI's auto-context: 1 to 3 matches and no context asked for are shown with 50 lines
    // around a single match, 15 around each of two or three.
    // A zero counts as not asked for (Gemini CLI reads only `undefined` so): strict-mode clients
    // send 0 for every optional number the model leaves unset, and the call must then answer as
    // the same call without those fields does.
    let unset = |n: Option<u64>| n.unwrap_or(0) == 0;
    if count <= 3 && unset(a.context) && unset(a.before) && unset(a.after) {
        args.context = Some(if count == 1 { 50 } else { 15 });
        (hits, count, truncated) = run(args)?;
    }
    let base = search_base(sb, a.dir_path.as_deref());
    let dir = base.as_deref();
    let term = if count == 1 { "match" } else { "matches" };
    let mut out = format!("Found {count} {term} {head}");
    if count >= limit {
        out.push_str(&limited);
    }
    out.push_str(":\n---\n");
    let mut last: Option<&str> = None;
    for h in &hits {
        if last != Some(h.path.as_str()) {
            if last.is_some() {
                out.push_str("---\n");
            }
            out.push_str(&format!("File: {}\n", shown_path(&h.path, dir)));
            last = Some(&h.path);
        }
        let sep = if h.kind == HitKind::Context { '-' } else { ':' };
        let (line, _) = cut_line(h.text.trim_end());
        out.push_str(&format!("L{}{sep} {line}\n", h.line));
    }
    out.push_str("---");
    if truncated && count < limit {
        out.push_str("\n(more results were cut by the server's output limits: narrow the search)");
    }
    Ok(text(out, Some(truncated)))
}

/// Most pages one grep_search with `exclude_pattern` reads to fill its answer: a pattern that
/// excludes nearly every line ends the search here (the answer says it was limited), not at the end
/// of the tree.
const MAX_EXCLUDE_PAGES: usize = 50;

/// grep_search with Gemini CLI's `exclude_pattern`: lines (matches and context) that also match
/// `exclude` are left out, and left-out matches do not count toward `total_max_matches`. Pages are
/// read as hits until the answer is full, the search ends, or the call's one budget is spent: the
/// kept hits, the matches among them, and whether more were left.
fn excluding(
    sb: &Within<'_>,
    args: GrepArgs,
    exclude: &str,
) -> Result<(Vec<Hit>, u64, bool), Error> {
    let flags = MatchFlags {
        case_insensitive: args.case_insensitive.unwrap_or(false),
        ..MatchFlags::default()
    };
    let limits = &sb.policy().limits;
    let exclude = matcher_cache::build_any_within(exclude, &[], flags, limits, &sb.deadline(None))
        .map_err(|e| Error::invalid(format!("exclude_pattern: {}", e.message)))?
        .matcher;
    let wanted = args.limit.unwrap_or(MAX_MATCHES);
    // Every page runs under the call's one budget.
    let budget = std::time::Duration::from_millis(sb.policy().limits.timeout_ms);
    excluding_pages(&sb.split(budget), args, &exclude, wanted)
}

/// The pages of [`excluding`], within `sb`'s budget.
fn excluding_pages(
    sb: &Within<'_>,
    mut args: GrepArgs,
    exclude: &grep_regex::RegexMatcher,
    wanted: u64,
) -> Result<(Vec<Hit>, u64, bool), Error> {
    args.output_mode = Some(OutputMode::Content);
    args.output_format = Some(OutputFormat::Json);
    let mut kept: Vec<Hit> = Vec::new();
    let (mut matches, mut more, mut timed_out) = (0u64, false, false);
    for _ in 0..MAX_EXCLUDE_PAGES {
        let page = sb.grep_search(&args)?;
        timed_out |= page.timed_out;
        for h in page.hits.into_iter().flatten() {
            if exclude.is_match(h.text.as_bytes()).unwrap_or(false) {
                continue;
            }
            if h.kind == HitKind::Match {
                if matches == wanted {
                    more = true;
                    break;
                }
                matches += 1;
            }
            kept.push(h);
        }
        match page.next_cursor {
            Some(c) if page.truncated && !more && !timed_out => {
                args.cursor = Some(c);
                args.offset = None;
            }
            _ => {
                more |= page.truncated;
                break;
            }
        }
        if args.cursor.is_some() && sb.budget().spent() {
            timed_out = true;
            more = true;
            break;
        }
    }
    // When the answer is full, trailing context lines may lead up to the next match, which is not
    // shown: they go too.
    while kept.last().is_some_and(|h| h.kind == HitKind::Context) && more {
        kept.pop();
    }
    Ok((kept, matches, more || timed_out))
}
