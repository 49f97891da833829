//! [`scan_top_level`]: one JSON text read without recursion, for what serde_json cannot tell the
//! transport: whether a text too deep (or with a number out of range) is JSON at all, and the exact
//! text of the members that are echoed (ids, progress tokens).

use serde_json::Value;

/// The members of a request whose exact text the transport may need: the id, a cancellation's
/// `requestId`, a request's progress token. serde_json reads a number outside `i64`/`u64` as an
/// `f64` (or refuses it, like `-1e400`), so their text is taken from the line itself.
pub(crate) const RAW_PATHS: [&[&str]; 3] = [
    &["id"],
    &["params", "requestId"],
    &["params", "_meta", "progressToken"],
];
/// Indexes into [`TopLevel::raw`].
pub(crate) const RAW_ID: usize = 0;
pub(crate) const RAW_REQUEST_ID: usize = 1;
pub(crate) const RAW_TOKEN: usize = 2;

/// The top level of a JSON text, read without recursion.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct TopLevel {
    /// The text is an object.
    pub(crate) object: bool,
    /// Its `id` member: the value when it is a scalar serde_json can read, an empty array standing
    /// in for a container, `null` for a number serde_json refuses (see `raw` for its text).
    pub(crate) id: Option<Value>,
    /// It has a `method` member.
    pub(crate) method: bool,
    /// The exact text of the scalar members at [`RAW_PATHS`] (objects all the way down).
    pub(crate) raw: [Option<String>; 3],
}

/// Checks that `s` is one JSON value at any depth (an explicit stack on the heap, no recursion) and
/// reads its top level; `None` when it is not JSON. Used for texts serde_json refused (for their
/// depth, or a number out of range) and to read the exact text of an id. (Lone surrogate escapes are
/// not checked outside the keys on [`RAW_PATHS`].)
pub(crate) fn scan_top_level(s: &[u8]) -> Option<TopLevel> {
    #[derive(Clone, Copy, PartialEq)]
    enum Want {
        Value,
        ValueOrClose,
        KeyOrClose,
        Key,
        Colon,
        CommaOrClose,
        End,
    }
    std::str::from_utf8(s).ok()?;
    // true: an object, false: an array.
    let mut stack: Vec<bool> = Vec::new();
    // The member key at each open object level, while the path is short enough to matter (None in
    // arrays and below).
    let mut keys: Vec<Option<String>> = Vec::new();
    let mut top = TopLevel::default();
    let mut want = Want::Value;
    let mut i = 0;
    let after = |stack: &Vec<bool>| {
        if stack.is_empty() {
            Want::End
        } else {
            Want::CommaOrClose
        }
    };
    // The path of the value that starts now, when every level is an object member.
    let path_is = |keys: &Vec<Option<String>>, want: &[&str]| {
        keys.len() == want.len() && keys.iter().zip(want).all(|(k, w)| k.as_deref() == Some(*w))
    };
    loop {
        while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
        }
        match want {
            Want::End => return (i == s.len()).then_some(top),
            Want::Value | Want::ValueOrClose => {
                let c = *s.get(i)?;
                if want == Want::ValueOrClose && c == b']' {
                    i += 1;
                    stack.pop();
                    keys.pop();
                    want = after(&stack);
                    continue;
                }
                let is_id = path_is(&keys, RAW_PATHS[RAW_ID]);
                let start = i;
                match c {
                    b'{' | b'[' => {
                        if stack.is_empty() {
                            top.object = c == b'{';
                        }
                        if is_id {
                            top.id = Some(Value::Array(Vec::new()));
                        }
                        top.method |= path_is(&keys, &["method"]);
                        stack.push(c == b'{');
                        keys.push(None);
                        i += 1;
                        want = if c == b'{' {
                            Want::KeyOrClose
                        } else {
                            Want::ValueOrClose
                        };
                        continue;
                    }
                    b'"' => i = string_end(s, i)?,
                    b't' => i = literal_end(s, i, b"true")?,
                    b'f' => i = literal_end(s, i, b"false")?,
                    b'n' => i = literal_end(s, i, b"null")?,
                    b'-' | b'0'..=b'9' => i = number_end(s, i)?,
                    _ => return None,
                }
                let text = &s[start..i];
                if is_id {
                    // A string must be valid (escapes, surrogates); a number serde_json refuses
                    // is still an id whose text can be echoed.
                    top.id = Some(match serde_json::from_slice(text) {
                        Ok(v) => v,
                        Err(_) if c != b'"' => Value::Null,
                        Err(_) => return None,
                    });
                }
                top.method |= path_is(&keys, &["method"]);
                for (slot, path) in top.raw.iter_mut().zip(RAW_PATHS) {
                    if path_is(&keys, path) {
                        // `s` is UTF-8 (checked above) and a scalar starts and ends on ASCII.
                        *slot = Some(String::from_utf8_lossy(text).into_owned());
                    }
                }
                want = after(&stack);
            }
            Want::KeyOrClose | Want::Key => {
                let c = *s.get(i)?;
                if want == Want::KeyOrClose && c == b'}' {
                    i += 1;
                    stack.pop();
                    keys.pop();
                    want = after(&stack);
                    continue;
                }
                if c != b'"' {
                    return None;
                }
                let start = i;
                i = string_end(s, i)?;
                // Only the first levels' keys are read (the paths that matter are short).
                let tracked = keys.len() <= 3 && keys[..keys.len() - 1].iter().all(Option::is_some);
                if let Some(k) = keys.last_mut() {
                    *k = if tracked {
                        Some(serde_json::from_slice(&s[start..i]).ok()?)
                    } else {
                        None
                    };
                }
                want = Want::Colon;
            }
            Want::Colon => {
                if s.get(i) != Some(&b':') {
                    return None;
                }
                i += 1;
                want = Want::Value;
            }
            Want::CommaOrClose => {
                let c = *s.get(i)?;
                i += 1;
                match (*stack.last()?, c) {
                    (true, b',') => want = Want::Key,
                    (false, b',') => want = Want::Value,
                    (true, b'}') | (false, b']') => {
                        stack.pop();
                        keys.pop();
                        want = after(&stack);
                    }
                    _ => return None,
                }
            }
        }
    }
}

/// The index after the string starting with the quote at `i`.
fn string_end(s: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        match *s.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => match *s.get(j + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j += 2,
                b'u' => {
                    let hex = s.get(j + 2..j + 6)?;
                    if !hex.iter().all(u8::is_ascii_hexdigit) {
                        return None;
                    }
                    j += 6;
                }
                _ => return None,
            },
            0..=0x1f => return None,
            _ => j += 1,
        }
    }
}

fn literal_end(s: &[u8], i: usize, lit: &[u8]) -> Option<usize> {
    s[i..].starts_with(lit).then_some(i + lit.len())
}

/// The index after the number starting at `i` (JSON grammar: no leading zeros, no `+`, no bare `.`).
fn number_end(s: &[u8], i: usize) -> Option<usize> {
    let digits = |mut j: usize| {
        let start = j;
        while s.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        (j > start).then_some(j)
    };
    let mut j = i;
    if s.get(j) == Some(&b'-') {
        j += 1;
    }
    j = match s.get(j)? {
        b'0' => j + 1,
        b'1'..=b'9' => digits(j)?,
        _ => return None,
    };
    if s.get(j) == Some(&b'.') {
        j = digits(j + 1)?;
    }
    if matches!(s.get(j), Some(b'e' | b'E')) {
        j += 1;
        if matches!(s.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        j = digits(j)?;
    }
    Some(j)
}
