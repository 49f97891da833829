//! `rootbound grep`: search like rg, through the sandbox. Arguments and the run live here; what is
//! printed, and how, lives in [`print`].

mod print;

use super::{sandbox_of, usage, SandboxOpts, EXIT_USAGE};
use clap::Args;
use print::PrintOpts;
use rootbound::{GrepArgs, OutputMode, Sandbox};
use std::io::Write;

#[derive(Args)]
pub(crate) struct GrepCmd {
    /// The regular expression.
    pattern: String,
    /// Files or directories to search (default: the whole root).
    paths: Vec<String>,
    #[arg(short = 'i', long)]
    ignore_case: bool,
    #[arg(short = 'S', long)]
    smart_case: bool,
    #[arg(short = 'F', long)]
    fixed_strings: bool,
    #[arg(short = 'w', long)]
    word_regexp: bool,
    #[arg(short = 'U', long)]
    multiline: bool,
    /// Accepted for rg compatibility: line numbers are always shown.
    #[arg(short = 'n', long)]
    line_number: bool,
    #[arg(short = 'l', long)]
    files_with_matches: bool,
    #[arg(short = 'c', long)]
    count: bool,
    #[arg(short = 'A', long)]
    after_context: Option<u64>,
    #[arg(short = 'B', long)]
    before_context: Option<u64>,
    #[arg(short = 'C', long)]
    context: Option<u64>,
    /// Include/exclude glob (`!` prefix excludes), repeatable.
    #[arg(short = 'g', long = "glob")]
    globs: Vec<String>,
    #[arg(short = 't', long = "type")]
    types: Vec<String>,
    #[arg(long)]
    hidden: bool,
    #[arg(long)]
    no_ignore: bool,
    /// Also search documents (PPTX, DOCX, XLSX, PDF, .ipynb) as their extracted text; each line
    /// shows its part, e.g. `deck.pptx:12:[slide 3] text`
    #[arg(long)]
    documents: bool,
    /// Show the lines that do not match.
    #[arg(short = 'v', long)]
    invert_match: bool,
    /// Show each match (path:line:match) instead of the whole line.
    #[arg(short = 'o', long)]
    only_matching: bool,
    /// At most this many matching lines per file.
    #[arg(short = 'm', long)]
    max_count: Option<u64>,
    /// Match whole lines only.
    #[arg(short = 'x', long)]
    line_regexp: bool,
    /// Descend at most this many directory levels.
    #[arg(long)]
    max_depth: Option<u64>,
    /// Print the files searched without a match.
    #[arg(long)]
    files_without_match: bool,
    #[command(flatten)]
    opts: SandboxOpts,
}

pub(crate) fn run(g: GrepCmd) -> i32 {
    let mut opts = g.opts.clone();
    // For people: pages large enough that the page loop rarely turns, and a day's budget.
    opts.limits.or_default("max_results", 10_000);
    opts.limits.or_default("max_bytes", 4 * 1024 * 1024);
    opts.limits.or_default("timeout_ms", 24 * 3600 * 1000);
    if opts.config.is_some() {
        // The config's limits hold; the page loop below still prints every match.
        let tools = match opts.tools(None) {
            Ok(t) => t,
            Err(e) => return usage(&e),
        };
        return match sandbox_of(&tools, "grep_search") {
            Ok(sb) => grep_with(sb, &g),
            Err(e) => usage(&e),
        };
    }
    let roots_given = !opts.roots.is_empty();
    let sb = match opts.sandbox(Some(".")) {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    if !roots_given {
        // rg prints paths relative to the current directory; so do we when the root is ".".
        let mut p = sb.policy().clone();
        p.path_display = rootbound::PathDisplay::Relative;
        return grep_with(
            &match Sandbox::new(p) {
                Ok(s) => s,
                Err(e) => return usage(&e.message),
            },
            &g,
        );
    }
    grep_with(&sb, &g)
}

fn grep_with(sb: &Sandbox, g: &GrepCmd) -> i32 {
    let (mut include, mut exclude) = (Vec::new(), Vec::new());
    for glob in &g.globs {
        match glob.strip_prefix('!') {
            Some(x) => exclude.push(x.to_string()),
            None => include.push(glob.clone()),
        }
    }
    let mode = if g.files_without_match {
        OutputMode::FilesWithoutMatch
    } else if g.files_with_matches {
        OutputMode::FilesWithMatches
    } else if g.count {
        OutputMode::Count
    } else {
        OutputMode::Content
    };
    let base = {
        let mut args_ = GrepArgs::default();
        args_.pattern = g.pattern.clone();
        args_.include = (!include.is_empty()).then_some(rootbound::Globs::Many(include));
        args_.exclude = (!exclude.is_empty()).then_some(rootbound::Globs::Many(exclude));
        args_.file_type = (!g.types.is_empty()).then(|| g.types.join(","));
        args_.case_insensitive = Some(g.ignore_case);
        args_.smart_case = Some(g.smart_case);
        args_.fixed_strings = Some(g.fixed_strings);
        args_.word = Some(g.word_regexp);
        args_.multiline = Some(g.multiline);
        args_.context = g.context;
        args_.before = g.before_context;
        args_.after = g.after_context;
        args_.output_mode = Some(mode);
        args_.hidden = Some(g.hidden);
        args_.no_ignore = Some(g.no_ignore);
        args_.documents = g.documents.then_some(true);
        args_.invert = Some(g.invert_match);
        args_.only_matching = Some(g.only_matching);
        args_.max_count = g.max_count;
        args_.line_regexp = Some(g.line_regexp);
        args_.max_depth = g.max_depth;
        args_.limit = Some(sb.policy().limits.max_results as u64);
        args_
    };
    let paths: Vec<Option<String>> = if g.paths.is_empty() {
        vec![None]
    } else {
        g.paths.iter().cloned().map(Some).collect()
    };
    // Until the rg flag surface fills it: line numbers and paths, as this command always showed.
    let print_opts = PrintOpts {
        line_number: true,
        with_filename: true,
        only_matching: g.only_matching && !g.invert_match,
        ..PrintOpts::default()
    };
    let mut out = std::io::BufWriter::with_capacity(256 * 1024, std::io::stdout().lock());
    let mut found = false;
    for path in paths {
        let mut args = base.clone();
        args.path = path;
        match print::search(sb, &args, &print_opts, &mut out) {
            Ok(Ok(summary)) => found |= summary.matched,
            Ok(Err(_)) => return 0, // a closed pipe (e.g. `| head`) is not an error
            Err(e) => {
                let _ = out.flush();
                eprintln!("rootbound: {}: {}", e.code, e.message);
                return EXIT_USAGE;
            }
        }
    }
    if print::finish(&print_opts, &mut out).is_err() {
        return 0;
    }
    let _ = out.flush();
    if found {
        0
    } else {
        1
    }
}
