//! `rootbound grep`: search like rg, through the sandbox. The flags live in [`args`], what they mean
//! in [`settings`], path arguments in [`paths`]; what is printed, and how, lives in [`print`]. This
//! module runs the search per path argument and turns the outcome into rg's exit code and messages.

mod args;
mod paths;
mod print;
mod settings;

pub(crate) use args::GrepCmd;

use super::{sandbox_of, usage, EXIT_USAGE};
use paths::Targets;
use print::PrintOpts;
use rootbound::rg::RgOptions;
use rootbound::{Error, ErrorCode, GlobArgs, GrepArgs, Sandbox, StatArgs};
use settings::{Action, Env, Settings};
use std::io::Write;

/// The command's `max_filesize` when `--max-filesize` is not given: rg searches files of any size.
const ANY_SIZE: u64 = 1 << 50;

/// rg's message when the default path held nothing to search.
const NOTHING_SEARCHED: &str = "No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped.";

/// What the runs of all path arguments add up to.
#[derive(Default)]
struct Outcome {
    matched: bool,
    searched: u64,
    /// A message was printed for a path (rg's "errored": exit 2 unless `-q` found a match).
    errored: bool,
}

pub(crate) fn run(g: GrepCmd) -> i32 {
    let GrepCmd {
        rg: flags,
        mut opts,
    } = g;
    if flags.type_list {
        return match settings::type_list(&flags) {
            Ok(list) => {
                let _ = std::io::stdout().lock().write_all(list.as_bytes());
                0
            }
            Err(e) => usage(&e),
        };
    }
    // `--max-columns`/`-M` is rg's (omit long lines when printing); the library's line cut is lifted
    // so lines print whole, as rg prints them.
    let max_columns = opts.limits.take("max_columns");
    let s = match settings::settings(&flags, &Env::current(), max_columns) {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    // For people: pages large enough that the page loop rarely turns, a day's budget, whole lines
    // and files of any size (rg has no size limit unless --max-filesize).
    opts.limits.or_default("max_results", 10_000);
    opts.limits.or_default("max_bytes", 4 * 1024 * 1024);
    opts.limits.or_default("timeout_ms", 24 * 3600 * 1000);
    opts.limits.or_default("max_columns", 1 << 30);
    opts.limits.or_default("max_filesize", ANY_SIZE);
    let own_roots = opts.config.is_none() && opts.roots.is_empty();
    let sb = if opts.config.is_some() {
        // The config's limits hold; the page loop still prints every match.
        let tools = match opts.tools(None) {
            Ok(t) => t,
            Err(e) => return usage(&e),
        };
        match sandbox_of(&tools, "grep_search") {
            Ok(sb) => sb.clone(),
            Err(e) => return usage(&e),
        }
    } else if !own_roots {
        match opts.sandbox(None) {
            Ok(s) => s,
            Err(e) => return usage(&e),
        }
    } else {
        // rg prints paths relative to the current directory; so do we when the root is ".".
        let mut p = opts.policy(Some("."));
        p.path_display = rootbound::PathDisplay::Relative;
        match Sandbox::new(p) {
            Ok(s) => s,
            Err(e) => return usage(&e.message),
        }
    };
    if s.action == Action::Never {
        return 1;
    }
    let targets = match paths::targets(sb, &s.paths, own_roots) {
        Ok(t) => t,
        Err(e) => return usage(&e),
    };
    let out = match s.action {
        Action::Files => list_files(&targets, &s),
        _ => search(&targets, &s),
    };
    let out = match out {
        Ok(o) => o,
        Err(code) => return code,
    };
    let mut errored = out.errored;
    // rg says so for a search of the default path, not for --files.
    if s.action == Action::Search && s.paths.is_empty() && out.searched == 0 {
        if !s.no_messages {
            eprintln!("{NOTHING_SEARCHED}");
        }
        errored = true;
    }
    // rg: a match wins over errors only with -q.
    if out.matched && (s.print.quiet || !errored) {
        0
    } else if errored {
        EXIT_USAGE
    } else {
        1
    }
}

/// Whether an error concerns one path argument (rg reports it and goes on) rather than the whole
/// search (a bad pattern or flag: reported once, exit 2).
fn is_path_error(e: &Error) -> bool {
    !matches!(
        e.code,
        ErrorCode::InvalidPattern | ErrorCode::PatternTooLarge | ErrorCode::InvalidArgument
    )
}

/// rg's message for a path that could not be searched: `PATH: No such file or directory (os error
/// 2)` for the common cases, else the sandbox's explanation.
fn path_message(arg: &std::ffi::OsStr, e: &Error) -> String {
    let arg = arg.to_string_lossy();
    match e.code {
        // (A root of its own that cannot be opened says so in its message.)
        ErrorCode::NotFound => format!("{arg}: No such file or directory (os error 2)"),
        _ if e
            .message
            .ends_with("No such file or directory (os error 2)") =>
        {
            format!("{arg}: No such file or directory (os error 2)")
        }
        ErrorCode::PermissionDenied => format!("{arg}: Permission denied (os error 13)"),
        _ => format!("{arg}: {}", e.message),
    }
}

/// Reports `e` for target `arg`: a path error is printed as rg prints it (unless `--no-messages`)
/// and the run goes on; any other error ends the run with exit 2.
fn report(arg: &std::ffi::OsStr, e: &Error, s: &Settings, out: &mut Outcome) -> Result<(), i32> {
    if !is_path_error(e) {
        eprintln!("rootbound: {}", e.message);
        return Err(EXIT_USAGE);
    }
    report_path(arg, e, s, out);
    Ok(())
}

/// Reports `e` as rg reports a path it cannot search (unless `--no-messages`); the run goes on.
fn report_path(arg: &std::ffi::OsStr, e: &Error, s: &Settings, out: &mut Outcome) {
    if !s.no_messages {
        eprintln!("{}", path_message(arg, e));
    }
    out.errored = true;
}

fn search(targets: &Targets, s: &Settings) -> Result<Outcome, i32> {
    let mut print_opts: PrintOpts = s.print.clone();
    print_opts.with_filename = s.with_filename.unwrap_or_else(|| !targets.is_one_file());
    let mut stdout = std::io::BufWriter::with_capacity(256 * 1024, std::io::stdout().lock());
    let mut outcome = Outcome::default();
    for t in &targets.targets {
        if let Some(e) = &t.error {
            let _ = stdout.flush();
            report_path(&t.arg, e, s, &mut outcome);
            continue;
        }
        let mut args: GrepArgs = s.args.clone();
        args.path = t.path.clone();
        args.limit = Some(targets.sandboxes[t.sandbox].policy().limits.max_results as u64);
        print_opts.path_prefix = t.prefix.clone();
        let sb = &targets.sandboxes[t.sandbox];
        // With --stats rg reads everything even under -q (the counts are printed).
        let result = if s.print.quiet && !s.print.stats {
            quiet_search(sb, args, &s.rg).map(Ok)
        } else {
            print::search(sb, &args, &s.rg, &print_opts, &mut stdout)
        };
        match result {
            Ok(Ok(summary)) => {
                outcome.matched |= summary.matched;
                outcome.searched += summary.searched;
                if outcome.matched && s.print.quiet && !s.print.stats {
                    break;
                }
            }
            // A closed pipe (e.g. `| head`) is not an error.
            Ok(Err(_)) => return Err(0),
            Err(e) => {
                let _ = stdout.flush();
                report(&t.arg, &e, s, &mut outcome)?;
            }
        }
    }
    // Under --json, rg closes with a summary message.
    if print::finish(&print_opts, &mut stdout).is_err() {
        return Err(0);
    }
    let _ = stdout.flush();
    Ok(outcome)
}

/// `-q`: whether `args` matches anywhere, stopping at the first file with a match (nothing is
/// printed, so the printer is not involved): pages of one file at a time until a match or the end.
fn quiet_search(sb: &Sandbox, mut args: GrepArgs, rg: &RgOptions) -> Result<print::Summary, Error> {
    args.limit = Some(1);
    let mut summary = print::Summary::default();
    loop {
        let page = rootbound::rg::grep_search(sb, &args, rg)?;
        summary.searched += page.stats.files_searched;
        if page.match_lines > 0 {
            summary.matched = true;
            return Ok(summary);
        }
        match page.next_cursor {
            Some(c) if page.truncated => args.cursor = Some(c),
            _ => return Ok(summary),
        }
    }
}

/// Whether `--max-filesize` leaves out the file `path` (as the search would: larger than the limit).
/// Only looked at when the limit was lowered from the command's "any size".
fn too_large(sb: &Sandbox, path: &str) -> bool {
    let max = sb.policy().limits.max_filesize;
    if max >= ANY_SIZE {
        return false;
    }
    let mut args = StatArgs::default();
    args.path = path.to_string();
    sb.stat(&args).is_ok_and(|st| st.size > max)
}

/// `--files`: the files a search would look at, one per line (or NUL-terminated with `--null`).
fn list_files(targets: &Targets, s: &Settings) -> Result<Outcome, i32> {
    let mut stdout = std::io::BufWriter::with_capacity(256 * 1024, std::io::stdout().lock());
    let mut outcome = Outcome::default();
    let mut line = Vec::new();
    for t in &targets.targets {
        if let Some(e) = &t.error {
            let _ = stdout.flush();
            report_path(&t.arg, e, s, &mut outcome);
            continue;
        }
        let sb = &targets.sandboxes[t.sandbox];
        let mut args = GlobArgs::default();
        args.pattern = "**".into();
        args.path = t.path.clone();
        args.hidden = s.args.hidden;
        args.no_ignore = s.args.no_ignore;
        args.limit = Some(sb.policy().limits.max_results as u64);
        loop {
            let page = match rootbound::rg::glob(sb, &args, &s.rg) {
                Ok(p) => p,
                Err(e) => {
                    let _ = stdout.flush();
                    report(&t.arg, &e, s, &mut outcome)?;
                    break;
                }
            };
            outcome.searched += page.match_lines;
            outcome.matched |= page.match_lines > 0;
            for path in page.matches.lines() {
                if too_large(sb, path) {
                    continue;
                }
                line.clear();
                match &t.prefix {
                    Some(p) => p.apply(path.as_bytes(), &mut line),
                    None => paths::raw(path.as_bytes(), &mut line),
                }
                print::separate(&s.print, &mut line);
                line.push(if s.print.null { b'\0' } else { b'\n' });
                if !s.print.quiet && stdout.write_all(&line).is_err() {
                    return Err(0);
                }
            }
            match page.next_cursor {
                Some(c) if page.truncated => args.cursor = Some(c),
                _ => break,
            }
        }
    }
    let _ = stdout.flush();
    Ok(outcome)
}
