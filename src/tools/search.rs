//! The rows of the search tools (grep_search and glob): their engine is `search/`; here is what the
//! tool surface says about them.

use crate::core::error::Result;
use crate::engine::Engine as Sandbox;
use crate::engine::Within;
use crate::search::contract::GlobArgs;
use crate::search::contract::GrepArgs;
use crate::search::contract::GrepResult;
use crate::tools::tool::Tool;
use serde_json::Value;

/// The row of grep_search.
pub(crate) struct GrepSearch;

impl Tool for GrepSearch {
    const NAME: &'static str = "grep_search";
    const TITLE: &'static str = "Search file contents";
    const READS_CONTENT: bool = true;
    const UNSET: crate::tools::args::Unset = &[
        "patterns",
        "path",
        "include",
        "exclude",
        "type",
        "max_count",
        "max_depth",
        "output_mode",
        "output_format",
        "max_filesize",
        "offset",
        "cursor",
        "limit",
        "max_bytes",
        "timeout_ms",
    ];
    type Args = GrepArgs;
    type Output = GrepResult;

    fn run(w: &Within<'_>, args: &GrepArgs) -> Result<GrepResult> {
        w.grep_search(args)
    }

    fn describe(sb: &Sandbox) -> String {
        format!(
            "Search file contents under the allowed roots with a regular expression (Rust regex syntax; no backreferences \
             or look-around), like ripgrep: .gitignore and hidden files are skipped unless no_ignore/hidden. Results are \
             in path order as 'path:line:text' lines; limit defaults to 10 (at most {}). When truncated is true, pass \
             next_cursor as cursor to get the next page. stats counts files skipped (binary, too large, ignored). \
             rg-style options: patterns (more patterns, OR'ed), invert, only_matching, max_count per file, line_regexp, \
             max_depth, output_mode files_without_match; output_format 'json' returns hits [{{path, line, column, text, kind}}] \
             (counts or files in those modes) instead of text.{}",
            sb.policy().limits.max_results,
            if cfg!(feature = "documents") {
                " documents=true also searches PPTX, DOCX, XLSX, PDF and .ipynb files as their extracted text \
                 (as read_file returns it): 'path:line:[slide 3] text', line numbers in the extracted text."
            } else {
                ""
            }
        )
    }

    fn render(out: &GrepResult) -> String {
        crate::tools::render::search(false, out)
    }

    fn prepare(args: Value) -> Value {
        crate::tools::args::grep_patterns(args)
    }

    fn finish_input(schema: &mut Value) {
        // `patterns` alone is a search too (see `tools/args.rs`).
        if let Some(Value::Array(req)) = schema.get_mut("required") {
            req.retain(|f| f != "pattern");
        }
        if let Some(Value::String(d)) = schema.pointer_mut("/properties/pattern/description") {
            d.push_str(" Required unless patterns is given.");
        }
    }
}

/// The row of glob.
pub(crate) struct Glob;

impl Tool for Glob {
    const NAME: &'static str = "glob";
    const TITLE: &'static str = "Find files by name";
    const UNSET: crate::tools::args::Unset =
        &["path", "offset", "cursor", "limit", "sort", "timeout_ms"];
    type Args = GlobArgs;
    type Output = GrepResult;

    fn run(w: &Within<'_>, args: &GlobArgs) -> Result<GrepResult> {
        w.glob(args)
    }

    fn describe(sb: &Sandbox) -> String {
        format!(
            "Find files by name with a glob (e.g. '*.rs' at any depth, 'src/**/*.c' from the root), sorted by path \
             (or sort 'modified': newest first, paged by offset=next_offset), one per line; limit defaults to 10 \
             (at most {}); page with cursor=next_cursor while truncated is true.",
            sb.policy().limits.max_results
        )
    }

    fn render(out: &GrepResult) -> String {
        crate::tools::render::search(true, out)
    }
}
