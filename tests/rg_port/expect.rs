//! What each ported case is expected to do. A case not listed must behave as rg (`Same`).
//!
//! - `Deliberate(why)`: rootbound differs on purpose (README "Differences from ripgrep"). The case
//!   still runs and must still differ: if it starts to match rg, the entry is stale and the suite
//!   fails.
//! - `Bug(note)`: a known difference not fixed yet; the note starts with the area that owns the
//!   fix (`args:` flags, paths, exit codes, filters; `print:` output format, binary files, JSON).
//!   The difference is reported without failing; once the case matches rg the suite fails until
//!   the entry is removed, so the table never claims a bug that is gone.

/// The expectation of one case.
#[derive(Clone, Copy, Debug)]
pub enum Expect {
    /// Must match rg.
    Same,
    /// Differs on purpose, for the reason given.
    Deliberate(&'static str),
    /// Differs, not yet fixed.
    Bug(&'static str),
}

use Expect::{Bug, Deliberate};

/// Cases (`file::name`) that are not `Same`.
const TABLE: &[(&str, Expect)] = &[
    ("feature::f1_sjis", Deliberate(ENCODING)),
    ("feature::f1_utf16_auto", Bug("print: line numbers without -n; rg 'Шерлок Холмс'")),
    ("feature::f1_utf16_explicit", Deliberate(ENCODING)),
    ("feature::f1_eucjp", Deliberate(ENCODING)),
    ("feature::f7", Bug("print: output differs; rg -fpat sherlock")),
    ("feature::f7_stdin", Bug("print: line numbers without -n; rg -f- < stdin")),
    ("feature::f20_no_filename", Bug("print: output differs; rg --no-filename --no-filename Sherlock")),
    ("feature::f34_only_matching", Bug("print: line numbers without -n; rg -o Sherlock")),
    ("feature::f34_only_matching_line_column", Bug("print: output differs; rg -o --column -n Sherlock")),
    ("feature::f45_relative_cwd", Bug("args: flag --ignore-file not accepted")),
    ("feature::f45_precedence_with_others", Bug("args: flag --ignore-file not accepted")),
    ("feature::f45_precedence_internal", Bug("args: flag --ignore-file not accepted")),
    ("feature::f68_no_ignore_vcs", Bug("print: line numbers without -n; rg --no-ignore-vcs test")),
    ("feature::f70_smart_case", Bug("print: line numbers without -n; rg -S sherlock")),
    ("feature::f89_files_with_matches", Bug("print: output differs; rg --null --files-with-matches Sherlock")),
    ("feature::f89_files_without_match", Bug("print: output differs; rg --null --files-without-match Sherlock")),
    ("feature::f89_count", Bug("print: output differs; rg --null --count Sherlock")),
    ("feature::f89_files", Bug("args: flag --null not accepted")),
    ("feature::f89_match", Bug("print: output differs; rg --null -C1 Sherlock")),
    ("feature::f109_max_depth", Bug("print: line numbers without -n; rg --maxdepth 2 far")),
    ("feature::f109_case_sensitive_part1", Bug("args: flag --case-sensitive not accepted")),
    ("feature::f109_case_sensitive_part2", Bug("args: flag --case-sensitive not accepted")),
    ("feature::f129_matches", Bug("print: line numbers without -n; rg -M26 test")),
    ("feature::f129_context", Bug("print: line numbers without -n; rg -M20 -C1 test")),
    ("feature::f129_replace", Bug("print: output differs; rg -M26 -rfoo test")),
    ("feature::f159_max_count", Bug("print: line numbers without -n; rg -m1 test")),
    ("feature::f159_max_count_zero", Bug("args: exit 1 vs ours 2; rg -m0 test")),
    ("feature::f243_column_line", Bug("print: output differs; rg --column test")),
    ("feature::f263_sort_files", Bug("print: line numbers without -n; rg --sort-files test")),
    ("feature::f275_pathsep", Bug("args: flag --path-separator not accepted")),
    ("feature::f362_dfa_size_limit", Bug(r"print: output differs; rg --dfa-size-limit 10 'For\s' sherlock")),
    ("feature::f411_single_threaded_search_stats", Bug("args: flag --stats not accepted")),
    ("feature::f411_parallel_search_stats", Bug("args: flag --stats not accepted")),
    ("feature::f416_crlf", Bug("args: exit 0 vs ours 1; rg --crlf 'Sherlock$' sherlock")),
    ("feature::f416_crlf_multiline", Bug("args: exit 0 vs ours 1; rg --crlf -U 'Sherlock$' sherlock")),
    ("feature::f416_crlf_only_matching", Bug("args: exit 0 vs ours 1; rg --crlf -o 'Sherlock$' sherlock")),
    ("feature::f419_zero_as_shortcut_for_null", Bug("print: output differs; rg -0 --count Sherlock")),
    ("feature::f740_passthru", Bug("args: flag --passthru not accepted")),
    ("feature::f948_exit_code_match", Bug("print: line numbers without -n; rg .")),
    ("feature::f917_trim", Bug("print: output differs; rg -n -B1 -A2 --trim Holmeses sherlock")),
    ("feature::f917_trim_match", Bug(r"print: output differs; rg -n -B1 -A2 --trim '\s+Holmeses' sherlock")),
    ("feature::f993_null_data", Bug("args: flag --null-data not accepted")),
    ("feature::f1078_max_columns_preview1", Bug("print: output differs; rg -M46 --max-columns-preview 'exhibited|dusted|has to have it'")),
    ("feature::f1078_max_columns_preview2", Bug("print: output differs; rg -M43 --max-columns-preview -rxxx 'exhibited|dusted|has to have it'")),
    ("feature::f1138_no_ignore_dot", Bug("args: flag --ignore-file not accepted")),
    ("feature::f1207_auto_encoding", Bug("args: flag -a not accepted")),
    ("feature::f1207_ignore_encoding", Bug(r"args: exit 0 vs ours 1; rg --encoding none -a '\x00' foo")),
    ("feature::f1414_no_require_git", Bug("args: flag --sort not accepted")),
    ("feature::f1420_no_ignore_exclude", Bug("args: flag --sort not accepted")),
    ("feature::f1466_no_ignore_files", Bug("args: flag --ignore-file not accepted")),
    ("feature::f1404_nothing_searched_warning", Bug("args: exit 2 vs ours 1; rg needle")),
    ("feature::f1404_nothing_searched_ignored", Bug("args: flag --no-messages not accepted")),
    ("feature::f1842_field_context_separator", Bug("print: output differs; rg -n -A1 'Doctor Watsons' sherlock")),
    ("feature::f1842_field_match_separator", Bug("print: output differs; rg -n 'Doctor Watsons' sherlock")),
    ("feature::no_context_sep", Bug("print: output differs; rg -A1 --no-context-separator foo test")),
    ("feature::no_context_sep_overrides", Bug("print: output differs; rg -A1 --context-separator AAA --no-context-separator foo test")),
    ("feature::no_context_sep_overridden", Bug("print: output differs; rg -A1 --no-context-separator --context-separator AAA foo test")),
    ("feature::context_sep", Bug("print: output differs; rg -A1 --context-separator AAA foo test")),
    ("feature::context_sep_default", Bug("print: output differs; rg -A1 foo test")),
    ("feature::context_sep_empty", Bug("print: output differs; rg -A1 --context-separator '' foo test")),
    ("misc::single_file", Bug("print: output differs; rg Sherlock sherlock")),
    ("misc::dir", Bug("print: line numbers without -n; rg Sherlock")),
    ("misc::line_numbers", Bug("print: output differs; rg -n Sherlock sherlock")),
    ("misc::columns", Bug("print: output differs; rg --column Sherlock sherlock")),
    ("misc::with_filename", Bug("print: line numbers without -n; rg -H Sherlock sherlock")),
    ("misc::with_heading", Bug("print: output differs; rg --with-filename --heading Sherlock sherlock")),
    ("misc::with_heading_default", Bug("print: output differs; rg -j1 --heading Sherlock")),
    ("misc::inverted", Bug("print: output differs; rg -v Sherlock sherlock")),
    ("misc::inverted_line_numbers", Bug("print: output differs; rg -n -v Sherlock sherlock")),
    ("misc::case_insensitive", Bug("print: output differs; rg -i sherlock sherlock")),
    ("misc::word", Bug("print: output differs; rg -w as sherlock")),
    ("misc::line", Bug("print: output differs; rg -x 'Watson|and exhibited clearly, with a label attached.' sherlock")),
    ("misc::literal", Bug("print: output differs; rg -F '()' file")),
    ("misc::quiet", Bug("args: flag -q not accepted")),
    ("misc::replace", Bug("print: output differs; rg -r FooBar Sherlock sherlock")),
    ("misc::replace_groups", Bug("print: output differs; rg -r '$2, $1' '([A-Z][a-z]+) ([A-Z][a-z]+)' sherlock")),
    ("misc::replace_named_groups", Bug("print: output differs; rg -r '$last, $first' '(?P<first>[A-Z][a-z]+) (?P<last>[A-Z][a-z]+)' sherlock")),
    ("misc::replace_with_only_matching", Bug(r"print: output differs; rg -o -r '$1' 'of (\w+)' sherlock")),
    ("misc::file_types", Bug("print: line numbers without -n; rg -t rust Sherlock")),
    ("misc::file_types_all", Bug("print: line numbers without -n; rg -t all Sherlock")),
    ("misc::file_types_negate", Bug("print: line numbers without -n; rg -T rust Sherlock")),
    ("misc::file_types_negate_all", Bug("print: line numbers without -n; rg -T all Sherlock")),
    ("misc::file_type_add", Bug("print: line numbers without -n; rg --type-add 'wat:*.wat' -t wat Sherlock")),
    ("misc::file_type_add_compose", Bug("print: line numbers without -n; rg --type-add 'wat:*.wat' --type-add combo:include:wat,py -t combo Sherlock")),
    ("misc::glob", Bug("print: line numbers without -n; rg -g '*.rs' Sherlock")),
    ("misc::glob_negate", Bug("print: line numbers without -n; rg -g '!*.rs' Sherlock")),
    ("misc::glob_case_insensitive", Bug("print: line numbers without -n; rg --iglob '*.html' Sherlock")),
    ("misc::glob_case_sensitive", Bug("print: line numbers without -n; rg --glob '*.html' Sherlock")),
    ("misc::glob_always_case_insensitive", Bug("print: line numbers without -n; rg --glob-case-insensitive --glob '*.html' Sherlock")),
    ("misc::byte_offset_only_matching", Bug("args: flag -b not accepted")),
    ("misc::count_matches", Bug("print: output differs; rg --count-matches the")),
    ("misc::count_matches_inverted", Bug("args: flag --count-matches not accepted")),
    ("misc::count_matches_via_only", Bug("print: output differs; rg --count --only-matching the")),
    ("misc::include_zero", Bug("args: flag --include-zero not accepted")),
    ("misc::after_context", Bug("print: output differs; rg -A 1 Sherlock sherlock")),
    ("misc::after_context_line_numbers", Bug("print: output differs; rg -A 1 -n Sherlock sherlock")),
    ("misc::before_context", Bug("print: output differs; rg -B 1 Sherlock sherlock")),
    ("misc::before_context_line_numbers", Bug("print: output differs; rg -B 1 -n Sherlock sherlock")),
    ("misc::context", Bug("print: output differs; rg -C 1 'world|attached' sherlock")),
    ("misc::context_line_numbers", Bug("print: output differs; rg -C 1 -n 'world|attached' sherlock")),
    ("misc::max_filesize_parse_no_suffix", Bug("print: output differs; rg --max-filesize 50 --files")),
    ("misc::max_filesize_parse_k_suffix", Bug("print: output differs; rg --max-filesize 4K --files")),
    ("misc::max_filesize_parse_m_suffix", Bug("print: output differs; rg --max-filesize 1M --files")),
    ("misc::ignore_hidden", Bug("args: exit 2 vs ours 1; rg Sherlock")),
    ("misc::no_ignore_hidden", Bug("print: line numbers without -n; rg --hidden Sherlock")),
    ("misc::ignore_git", Bug("args: exit 2 vs ours 1; rg Sherlock")),
    ("misc::ignore_generic", Bug("args: exit 2 vs ours 1; rg Sherlock")),
    ("misc::ignore_ripgrep", Bug("args: exit 2 vs ours 1; rg Sherlock")),
    ("misc::no_ignore", Bug("print: line numbers without -n; rg --no-ignore Sherlock")),
    ("misc::ignore_git_parent", Deliberate(PARENT_IGNORE)),
    ("misc::ignore_git_parent_stop", Bug("print: line numbers without -n; (cd foo/bar) rg Sherlock")),
    ("misc::ignore_git_parent_stop_file", Bug("print: line numbers without -n; (cd foo/bar) rg Sherlock")),
    ("misc::ignore_ripgrep_parent_no_stop", Deliberate(PARENT_IGNORE)),
    ("misc::no_parent_ignore_git", Bug("print: line numbers without -n; (cd foo) rg --no-ignore-parent Sherlock")),
    ("misc::symlink_nofollow", Bug("args: exit 2 vs ours 1; (cd foo/bar) rg Sherlock")),
    ("misc::symlink_follow", Deliberate(FOLLOW)),
    ("misc::unrestricted1", Bug("print: line numbers without -n; rg -u Sherlock")),
    ("misc::unrestricted2", Bug("print: line numbers without -n; rg -uu Sherlock")),
    ("misc::unrestricted3", Bug("args: exit 0 vs ours 1; rg -uuu foo")),
    ("misc::vimgrep", Bug("print: output differs; rg --vimgrep 'Sherlock|Watson'")),
    ("misc::vimgrep_no_line", Bug("print: output differs; rg --vimgrep -N 'Sherlock|Watson'")),
    ("misc::vimgrep_no_line_no_column", Bug("print: line numbers without -n; rg --vimgrep -N --no-column 'Sherlock|Watson'")),
    ("misc::binary_convert", Bug("args: exit 0 vs ours 1; rg --no-mmap foo file")),
    ("misc::binary_convert_mmap", Bug("args: exit 0 vs ours 1; rg --mmap foo file")),
    ("misc::binary_quit", Bug("args: exit 1 vs ours 2; rg --no-mmap foo -gfile")),
    ("misc::binary_quit_mmap", Bug("args: exit 1 vs ours 2; rg --mmap foo -gfile")),
    ("misc::binary_search_mmap", Bug("args: exit 0 vs ours 1; rg -a --mmap foo file")),
    ("misc::binary_search_no_mmap", Bug("args: exit 0 vs ours 1; rg -a --no-mmap foo file")),
    ("misc::files", Bug("args: flag --files not accepted")),
    ("misc::type_list", Bug("print: output differs; rg --type-list")),
    ("regression::r16", Bug("args: exit 2 vs ours 1; rg xyz")),
    ("regression::r25", Bug("print: line numbers without -n; rg test")),
    ("regression::r30", Bug("print: line numbers without -n; rg test")),
    ("regression::r64", Bug("args: flag --files not accepted")),
    ("regression::r65", Bug("args: exit 2 vs ours 1; rg xyz")),
    ("regression::r67", Bug("print: line numbers without -n; rg test")),
    ("regression::r87", Bug("args: exit 2 vs ours 1; rg test")),
    ("regression::r90", Bug("print: line numbers without -n; rg test")),
    ("regression::r93", Bug(r"print: line numbers without -n; rg '(\d{1,3}\.){3}\d{1,3}'")),
    ("regression::r99", Bug("print: output differs; rg -j1 --heading test")),
    ("regression::r105_part1", Bug("print: output differs; rg --vimgrep test")),
    ("regression::r105_part2", Bug("print: output differs; rg --column test")),
    ("regression::r127", Bug("print: line numbers without -n; rg Sherlock")),
    ("regression::r131", Bug("args: exit 2 vs ours 1; rg test")),
    ("regression::r137", Deliberate(ABS_SYMLINK)),
    ("regression::r156", Bug(r"print: output differs; rg -N '#(?:parse|include)\s*\(\s*(?:'|'\'')[./A-Za-z_-]+(?:'|'\'')' testcase.txt")),
    ("regression::r184", Bug("print: line numbers without -n; rg test")),
    ("regression::r199", Bug(r"print: line numbers without -n; rg --smart-case '\btest\b'")),
    ("regression::r206", Bug("print: line numbers without -n; rg test -g '*.txt'")),
    ("regression::r210", Bug("print: output differs; rg -H test 'foo�bar'")),
    ("regression::r251", Bug("print: line numbers without -n; rg -i 'привет'")),
    ("regression::r256", Deliberate(ABS_SYMLINK)),
    ("regression::r256_j1", Deliberate(ABS_SYMLINK)),
    ("regression::r270", Bug("print: line numbers without -n; rg -e -test")),
    ("regression::r279", Bug("args: flag -q not accepted")),
    ("regression::r391", Deliberate(FOLLOW)),
    ("regression::r405", Bug("print: line numbers without -n; rg -g '!/foo/**' test")),
    ("regression::r428_color_context_path", Bug("print: output differs; rg -A1 -H --no-heading -N --colors=match:none --color=always foo")),
    ("regression::r451_only_matching_as_in_issue", Bug("print: output differs; rg --only-matching '[0-9]+' digits.txt")),
    ("regression::r451_only_matching", Bug("print: output differs; rg --only-matching --column '[0-9]' digits.txt")),
    ("regression::r483_matching_no_stdout", Bug("args: flag --quiet not accepted")),
    ("regression::r483_non_matching_exit_code", Bug("args: exit 1 vs ours 2; rg --quiet --files --glob '*.py'")),
    ("regression::r493", Bug(r"print: output differs; rg -o '\b '\''re \b' input.txt")),
    ("regression::r506_word_not_parenthesized", Bug("print: output differs; rg -w -o 'min|max' wb.txt")),
    ("regression::r553_switch", Bug("print: line numbers without -n; rg -i sherlock")),
    ("regression::r553_flag", Bug("print: output differs; rg -C 1 'world|attached' sherlock")),
    ("regression::r568_leading_hyphen_option_args", Bug("print: output differs; rg -e-baz -e -baz file")),
    ("regression::r599", Bug("print: output differs; rg --color ansi --colors path:none --colors line:none --colors match:fg:red --colors match:style:nobold --line-number '^$' input.txt")),
    ("regression::r693_context_in_contextless_mode", Bug("args: flag --sort-files not accepted")),
    ("regression::r807", Bug("print: line numbers without -n; rg --hidden test")),
    ("regression::r900", Bug("args: flag -f not accepted")),
    ("regression::r1064", Bug("print: line numbers without -n; rg 'a(.*c)'")),
    ("regression::r1098", Bug("args: exit 2 vs ours 1; rg test")),
    ("regression::r1159_exit_status", Bug("print: line numbers without -n; rg test")),
    ("regression::r1163", Bug("print: line numbers without -n; rg ^test123")),
    ("regression::r1164", Bug("args: flag --ignore-file-case-insensitive not accepted")),
    ("regression::r1173", Bug("args: exit 2 vs ours 1; rg test")),
    ("regression::r1174", Bug("args: exit 2 vs ours 1; rg test")),
    ("regression::r1176_literal_file", Bug("print: output differs; rg -F -f patterns test")),
    ("regression::r1176_line_regex", Bug("print: output differs; rg -x -f patterns test")),
    ("regression::r1203_reverse_suffix_literal", Bug(r"print: output differs; rg '\d\d\d00' test")),
    ("regression::r1223_no_dir_check_for_default_path", Deliberate(STDIN)),
    ("regression::r1259_drop_last_byte_nonl", Bug("print: output differs; rg -f patterns-nonl test")),
    ("regression::r1311_multi_line_term_replace", Bug("print: output differs; rg -U '-r?' -n '")),
    ("regression::r1319", Bug("print: line numbers without -n; rg 'TTGAGTCCAGGAG[ATCG]{2}C'")),
    ("regression::r1334_crazy_literals", Bug("print: output differs; rg -Ff patterns corpus")),
    ("regression::r1380", Bug("print: output differs; rg -A2 -m1 d foo")),
    ("regression::r1389_bad_symlinks_no_biscuit", Deliberate(ABS_SYMLINK)),
    ("regression::r1446_respect_excludes_in_worktree", Bug("print: output differs; rg --sort path --files repotree")),
    ("regression::r1537", Bug("print: line numbers without -n; rg ';(.*,){1}'")),
    ("regression::r1559", Bug("print: line numbers without -n; rg 'TaskID +int'")),
    ("regression::r1638", Bug("print: output differs; rg --column x")),
    ("regression::r1739_replacement_lineterm_match", Bug("print: output differs; rg '-r${0}f' '.*' test")),
    ("regression::r1765", Bug("print: output differs; rg 'x?' --crlf --color always")),
    ("regression::r1866", Bug(r"print: output differs; rg --multiline --vimgrep 'foobar\nfoobar\nfoo|quux' test")),
    ("regression::r1868_context_passthru_override", Bug("print: output differs; rg -C1 bar test")),
    ("regression::r1878", Bug("print: output differs; rg -U --no-mmap ^baz test")),
    ("binary::after_match1_implicit", Bug("print: output differs; rg --no-mmap -n 'Project Gutenberg EBook' -g hay")),
    ("binary::after_match1_explicit", Bug("print: no binary-file line; rg --no-mmap -n 'Project Gutenberg EBook' hay")),
    ("binary::after_match1_stdin", Deliberate(STDIN)),
    ("binary::after_match1_implicit_binary", Bug("print: no binary-file line; rg --no-mmap -n --binary 'Project Gutenberg EBook' -g hay")),
    ("binary::after_match1_implicit_text", Bug("args: flag --no-mmap not accepted")),
    ("binary::after_match1_explicit_text", Bug("print: output differs; rg --no-mmap -n --text 'Project Gutenberg EBook' hay")),
    ("binary::after_match1_implicit_path", Bug("args: flag --no-mmap not accepted")),
    ("binary::after_match1_implicit_quiet", Bug("args: flag --no-mmap not accepted")),
    ("binary::after_match1_implicit_count", Bug("args: flag --no-mmap not accepted")),
    ("binary::after_match1_implicit_count_binary", Bug("args: exit 0 vs ours 1; rg --no-mmap -c --binary 'Project Gutenberg EBook' -g hay")),
    ("binary::after_match1_explicit_count", Bug("args: exit 0 vs ours 1; rg --no-mmap -c 'Project Gutenberg EBook' hay")),
    ("binary::after_match2_implicit", Bug("print: output differs; rg --no-mmap -n 'Project Gutenberg EBook|a medical student' -g hay")),
    ("binary::after_match2_implicit_text", Bug("print: output differs; rg --no-mmap -n --text 'Project Gutenberg EBook|a medical student' -g hay")),
    ("binary::before_match1_implicit", Bug("args: exit 1 vs ours 2; rg --no-mmap -n Heaven -g hay")),
    ("binary::before_match1_explicit", Bug("args: exit 0 vs ours 1; rg --no-mmap -n Heaven hay")),
    ("binary::before_match1_implicit_binary", Bug("args: exit 0 vs ours 2; rg --no-mmap -n --binary Heaven -g hay")),
    ("binary::before_match1_implicit_text", Bug("args: exit 0 vs ours 2; rg --no-mmap -n --text Heaven -g hay")),
    ("binary::before_match2_implicit", Bug("args: exit 1 vs ours 2; rg --no-mmap -n 'a medical student' -g hay")),
    ("binary::before_match2_explicit", Bug("args: exit 0 vs ours 1; rg --no-mmap -n 'a medical student' hay")),
    ("binary::before_match2_implicit_text", Bug("args: exit 0 vs ours 2; rg --no-mmap -n --text 'a medical student' -g hay")),
    ("json::basic", Bug("print: output differs; rg --json -B1 'Sherlock Holmes' sherlock")),
    ("json::notutf8", Bug(r"print: output differs; rg --json '(?-u)\xFF'")),
    ("json::notutf8_file", Bug(r"print: output differs; rg --json '(?-u)\xFF'")),
    ("json::crlf", Bug("args: exit 0 vs ours 1; rg --json --crlf 'Sherlock$' sherlock")),
    ("json::r1095_missing_crlf", Bug("print: output differs; rg --json test")),
    ("json::r1095_crlf_empty_match", Bug("print: output differs; rg -U --json '")),
    ("multiline::overlap1", Bug("print: output differs; rg -n -U 'abc")),
    ("multiline::overlap2", Bug("print: output differs; rg -n -U 'abc")),
    ("multiline::dot_no_newline", Bug("args: exit 1 vs ours 0; rg -n -U 'of this world.+detective work' sherlock")),
    ("multiline::dot_all", Bug("print: output differs; rg -n -U --multiline-dotall 'of this world.+detective work' sherlock")),
    ("multiline::only_matching", Bug(r"args: exit 0 vs ours 2; rg -n -U --only-matching 'Watson|Sherlock\p{Any}+?Holmes' sherlock")),
    ("multiline::vimgrep", Bug(r"print: output differs; rg -n -U --vimgrep 'Watson|Sherlock\p{Any}+?Holmes' sherlock")),
    ("multiline::stdin", Deliberate(STDIN)),
    ("multiline::context", Bug(r"print: output differs; rg -n -U -C1 'detective work\p{Any}+?result of luck' sherlock")),

];

/// rootbound reads no ignore file above the directory it searches from (README, security 5).
const PARENT_IGNORE: &str =
    "no ignore files from the parents of the root: rg reads .gitignore/.ignore above the cwd";
/// `-L` is refused: the walker never follows symlinks.
const FOLLOW: &str =
    "-L/--follow refused: the walker never follows symlinks (one could lead out of the root)";
/// rg's tests make absolute symlinks; the sandbox resolves a link only beneath the root, and an
/// absolute target is refused even when it points back inside.
const ABS_SYMLINK: &str =
    "absolute symlinks are refused (resolved beneath the root only), even to a file inside it";
/// `-E` takes UTF-8 (and `none`/`auto`) only.
const ENCODING: &str =
    "-E with an encoding other than UTF-8 is refused (UTF-16 with a BOM is still decoded)";
/// rootbound grep searches files through the sandbox only.
const STDIN: &str =
    "stdin is never searched: with no path, rootbound grep searches the current directory";

/// rg tests left out of the port, with the reason (README "Differences from ripgrep").
pub const NOT_PORTED: &[(&str, &str)] = &[
    ("feature::f196_persistent_config", CONFIG),
    (
        "feature::f362_u64_to_narrow_usize_overflow",
        "32-bit targets only",
    ),
    ("feature::f1155_auto_hybrid_regex", PCRE2),
    ("json::r1412_look_behind_match_missing", PCRE2),
    ("misc::preprocessing", PRE),
    ("misc::preprocessing_glob", PRE),
    ("misc::compressed_gzip", ZIP),
    ("misc::compressed_bzip2", ZIP),
    ("misc::compressed_xz", ZIP),
    ("misc::compressed_lz4", ZIP),
    ("misc::compressed_lzma", ZIP),
    ("misc::compressed_brotli", ZIP),
    ("misc::compressed_zstd", ZIP),
    ("misc::compressed_uncompress", ZIP),
    ("misc::compressed_failing_gzip", ZIP),
    ("regression::r1401_look_ahead_only_matching_1", PCRE2),
    ("regression::r1401_look_ahead_only_matching_2", PCRE2),
    ("regression::r1412_look_behind_no_replacement", PCRE2),
    ("regression::r1573", PCRE2),
];

/// Why config-file cases are not ported.
const CONFIG: &str =
    "RIPGREP_CONFIG_PATH: rootbound grep reads no rg config file (its config is --config)";
/// Why PCRE2 cases are not ported.
const PCRE2: &str = "PCRE2 only (-P, look-around): rootbound has rg's default engine only";
/// Why preprocessor cases are not ported.
const PRE: &str = "--pre runs a program per file: refused, a sandbox does not run commands";
/// Why decompression cases are not ported.
const ZIP: &str = "-z runs decompression programs: refused, a sandbox does not run commands";

/// The expectation of `file::name`.
pub fn of(key: &str) -> Expect {
    TABLE
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(Expect::Same, |(_, e)| *e)
}

/// Table entries that name no ported case (a typo or a renamed case).
pub fn unknown(keys: &[String]) -> Vec<&'static str> {
    TABLE
        .iter()
        .map(|(k, _)| *k)
        .filter(|k| !keys.iter().any(|x| x == k))
        .collect()
}
