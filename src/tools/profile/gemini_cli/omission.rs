//! Gemini CLI's omission-placeholder check (omissionPlaceholderDetector.ts): a line that is only
//! `(rest of methods ...)`, `// unchanged code ...` and the like stands for text the model left out,
//! and writing it would put the placeholder in the file instead of that text.

/// The phrases before `...` that Gemini CLI takes for a placeholder (lower case, spaces single).
const OMITTED_PREFIXES: [&str; 7] = [
    "rest of",
    "rest of method",
    "rest of methods",
    "rest of code",
    "unchanged code",
    "unchanged method",
    "unchanged methods",
];

/// The placeholder a line is, normalized (`rest of methods ...`), if it is one.
fn placeholder(line: &str) -> Option<String> {
    let mut text = line.trim();
    if let Some(rest) = text.strip_prefix("//") {
        text = rest.trim();
    }
    if text.len() >= 2 && text.starts_with('(') && text.ends_with(')') {
        text = text[1..text.len() - 1].trim();
    }
    let at = text.find("...")?;
    let prefix = text[..at]
        .to_lowercase()
        .split([' ', '\t', '\n', '\r'])
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let suffix = text[at + 3..].trim();
    let dots_only = suffix.chars().all(|c| c == '.');
    (OMITTED_PREFIXES.contains(&prefix.as_str()) && dots_only).then(|| format!("{prefix} ..."))
}

/// Every placeholder line of `text`, in order.
pub(super) fn placeholders(text: &str) -> Vec<String> {
    text.split('\n').filter_map(placeholder).collect()
}

#[cfg(test)]
mod tests {
    use super::placeholders;

    /// Gemini CLI's own cases (omissionPlaceholderDetector.test.ts).
    #[test]
    fn as_gemini_cli_detects_them() {
        for (text, want) in [
            ("(rest of methods ...)", vec!["rest of methods ..."]),
            ("(rest of code ...)", vec!["rest of code ..."]),
            ("(unchanged code ...)", vec!["unchanged code ..."]),
            ("// rest of methods ...", vec!["rest of methods ..."]),
            ("(Rest Of Methods ...)", vec!["rest of methods ..."]),
            (
                "class Example {\n  run() {}\n  (rest of methods ...)\n  (unchanged code ...)\n}",
                vec!["rest of methods ...", "unchanged code ..."],
            ),
            (
                "const note = \"(rest of methods ...)\";\nconsole.log(note);",
                vec![],
            ),
            ("return value; // rest of methods ...", vec![]),
            ("const message = \"loading...\";", vec![]),
        ] {
            assert_eq!(placeholders(text), want, "{text:?}");
        }
    }
}
