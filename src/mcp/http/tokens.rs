//! Bearer tokens of the HTTP door: the token file, and matching a presented token in constant time.
//!
//! A token is a secret: it appears in no log, error or `Debug` output; only its NAME does. The file
//! holds either one token (its name is `token`, its agent the default one), or lines
//! `NAME TOKEN [AGENT]` (`#` starts a comment): each token then serves its AGENT, or the default
//! agent when the line has two fields.

use std::io;
use std::path::Path;

/// The shortest token accepted: a short secret can be guessed over the network.
pub const MIN_TOKEN_LEN: usize = 16;

/// The file's size that is certainly not a token file.
const MAX_FILE: u64 = 1024 * 1024;

/// One line of a token file: who (NAME), the secret, and the agent it serves (`None`: the default).
#[derive(Clone)]
pub struct TokenLine {
    /// The name the token is known by in logs and audit lines.
    pub name: String,
    secret: Vec<u8>,
    /// The config file's agent this token serves; `None` for the default agent.
    pub agent: Option<String>,
}

impl std::fmt::Debug for TokenLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenLine")
            .field("name", &self.name)
            .field("agent", &self.agent)
            .finish_non_exhaustive()
    }
}

impl TokenLine {
    /// A token named `name` serving `agent` (`None`: the default agent). Refused when the secret is
    /// shorter than [`MIN_TOKEN_LEN`] or holds whitespace or control characters.
    pub fn new(name: &str, secret: &str, agent: Option<&str>) -> Result<TokenLine, String> {
        if secret.len() < MIN_TOKEN_LEN {
            return Err(format!(
                "token '{name}' is shorter than {MIN_TOKEN_LEN} characters"
            ));
        }
        if !secret.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(format!(
                "token '{name}' holds characters other than printable ASCII"
            ));
        }
        Ok(TokenLine {
            name: name.to_string(),
            secret: secret.as_bytes().to_vec(),
            agent: agent.map(str::to_string),
        })
    }
}

/// Reads a token file. Refused when the file is readable or writable by group or others (it holds
/// secrets), when it is not a regular file, and when a line is malformed, a name or a token
/// repeats. Errors name the line number, never its text.
pub fn read_token_file(path: &Path) -> Result<Vec<TokenLine>, String> {
    let shown = path.display();
    let text = read_private(path).map_err(|e| format!("token file {shown}: {e}"))?;
    parse(&text).map_err(|e| format!("token file {shown}: {e}"))
}

/// The file's text, when only its owner may read or write it.
fn read_private(path: &Path) -> io::Result<String> {
    use std::io::Read;
    use std::os::unix::fs::PermissionsExt;
    // The operator names this file (never an agent); opened once, checked on the open handle.
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    if meta.permissions().mode() & 0o077 != 0 {
        return Err(io::Error::other(
            "group or others may access it: it holds secrets (chmod 600)",
        ));
    }
    if meta.len() > MAX_FILE {
        return Err(io::Error::other("larger than 1 MiB"));
    }
    let mut text = String::new();
    file.take(MAX_FILE).read_to_string(&mut text)?;
    Ok(text)
}

/// The tokens of a token file's text.
pub(crate) fn parse(text: &str) -> Result<Vec<TokenLine>, String> {
    let lines: Vec<(usize, Vec<&str>)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("")))
        .map(|(n, l)| (n, l.split_whitespace().collect::<Vec<_>>()))
        .filter(|(_, fields)| !fields.is_empty())
        .collect();
    let tokens = match lines.as_slice() {
        [] => return Err("no token in it".into()),
        [(n, fields)] if fields.len() == 1 => {
            vec![TokenLine::new("token", fields[0], None).map_err(|e| format!("line {n}: {e}"))?]
        }
        _ => lines
            .iter()
            .map(|(n, fields)| {
                match fields.as_slice() {
                    [name, secret] => TokenLine::new(name, secret, None),
                    [name, secret, agent] => TokenLine::new(name, secret, Some(agent)),
                    _ => Err("expected NAME TOKEN [AGENT]".to_string()),
                }
                .map_err(|e| format!("line {n}: {e}"))
            })
            .collect::<Result<_, _>>()?,
    };
    for (i, t) in tokens.iter().enumerate() {
        for u in &tokens[..i] {
            if u.name == t.name {
                return Err(format!("the name '{}' is given twice", t.name));
            }
            if ct_eq(&u.secret, &t.secret) {
                return Err(format!("tokens '{}' and '{}' are the same", u.name, t.name));
            }
        }
    }
    Ok(tokens)
}

/// The index of the token equal to `presented`, compared in constant time: every token is compared,
/// each over its whole length, whatever matches.
pub(crate) fn find(tokens: &[TokenLine], presented: &[u8]) -> Option<usize> {
    let mut found = None;
    for (i, t) in tokens.iter().enumerate() {
        if ct_eq(&t.secret, presented) {
            found = Some(i);
        }
    }
    found
}

/// `a == b` in time that depends on the lengths only, not on where the bytes differ.
fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    let mut diff = (a.len() ^ b.len()) as u64;
    for (i, x) in a.iter().enumerate() {
        // Compare against a byte of `b` at the same place, or 0 past its end: the loop runs over
        // the whole secret either way.
        let y = b.get(i).copied().unwrap_or(0);
        diff |= u64::from(x ^ y);
    }
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "aaaaaaaaaaaaaaaaaaaa";
    const B: &str = "bbbbbbbbbbbbbbbbbbbb";

    #[test]
    fn one_token_or_named_lines() {
        let one = parse(&format!("{A}\n")).unwrap();
        assert_eq!(
            (one[0].name.as_str(), one[0].agent.as_deref()),
            ("token", None)
        );
        let lines = parse(&format!("# team\nalice {A} docs\nbob {B}\n")).unwrap();
        assert_eq!(lines[0].agent.as_deref(), Some("docs"));
        assert_eq!(lines[1].agent, None);
        assert_eq!(find(&lines, B.as_bytes()), Some(1));
        assert_eq!(find(&lines, b"bbbbbbbbbbbbbbbbbbb"), None);
        assert_eq!(find(&lines, b"bbbbbbbbbbbbbbbbbbbbb"), None);
        assert_eq!(find(&lines, b""), None);
    }

    #[test]
    fn bad_files_are_refused_without_their_secrets() {
        for text in [
            "",
            "tiny-secret",
            &format!("alice {A}\nalice {B}"),
            &format!("alice {A}\nbob {A}"),
            &format!("alice {A} docs extra"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(!e.contains(A) && !e.contains("tiny-secret"), "{e}");
        }
    }
}
