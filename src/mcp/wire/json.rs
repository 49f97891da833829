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
    std::str::from_utf8(s).ok()?;
    let mut sc = Scanner {
        s,
        stack: Vec::new(),
        keys: Vec::new(),
        top: TopLevel::default(),
        want: Want::Value,
        i: 0,
    };
    loop {
        while sc.i < s.len() && matches!(s[sc.i], b' ' | b'\t' | b'\n' | b'\r') {
            sc.i += 1;
        }
        match sc.want {
            Want::End => return (sc.i == s.len()).then_some(sc.top),
            Want::Value | Want::ValueOrClose => sc.value()?,
            Want::KeyOrClose | Want::Key => sc.key()?,
            Want::Colon => {
                if s.get(sc.i) != Some(&b':') {
                    return None;
                }
                sc.i += 1;
                sc.want = Want::Value;
            }
            Want::CommaOrClose => sc.comma_or_close()?,
        }
    }
}

/// What the scanner expects next.
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

/// The state of [`scan_top_level`]: each step reads one token at `i` (whitespace skipped) and
/// returns `None` when the text is not JSON.
struct Scanner<'a> {
    s: &'a [u8],
    /// true: an object, false: an array.
    stack: Vec<bool>,
    /// The member key at each open object level, while the path is short enough to matter (None
    /// in arrays and below).
    keys: Vec<Option<String>>,
    top: TopLevel,
    want: Want,
    i: usize,
}

impl Scanner<'_> {
    /// What follows a complete value.
    fn after(&self) -> Want {
        if self.stack.is_empty() {
            Want::End
        } else {
            Want::CommaOrClose
        }
    }

    /// Whether the value that starts now is at the path `want`, every level an object member.
    fn path_is(&self, want: &[&str]) -> bool {
        self.keys.len() == want.len()
            && self
                .keys
                .iter()
                .zip(want)
                .all(|(k, w)| k.as_deref() == Some(*w))
    }

    /// Closes the innermost object or array (its closing byte read).
    fn close(&mut self) {
        self.stack.pop();
        self.keys.pop();
        self.want = self.after();
    }

    /// A value (or, in an array that may end here, its `]`).
    fn value(&mut self) -> Option<()> {
        let s = self.s;
        let c = *s.get(self.i)?;
        if self.want == Want::ValueOrClose && c == b']' {
            self.i += 1;
            self.close();
            return Some(());
        }
        let is_id = self.path_is(RAW_PATHS[RAW_ID]);
        let start = self.i;
        match c {
            b'{' | b'[' => {
                if self.stack.is_empty() {
                    self.top.object = c == b'{';
                }
                if is_id {
                    self.top.id = Some(Value::Array(Vec::new()));
                }
                self.top.method |= self.path_is(&["method"]);
                self.stack.push(c == b'{');
                self.keys.push(None);
                self.i += 1;
                self.want = if c == b'{' {
                    Want::KeyOrClose
                } else {
                    Want::ValueOrClose
                };
                return Some(());
            }
            b'"' => self.i = string_end(s, self.i)?,
            b't' => self.i = literal_end(s, self.i, b"true")?,
            b'f' => self.i = literal_end(s, self.i, b"false")?,
            b'n' => self.i = literal_end(s, self.i, b"null")?,
            b'-' | b'0'..=b'9' => self.i = number_end(s, self.i)?,
            _ => return None,
        }
        let text = &s[start..self.i];
        if is_id {
            // A string must be valid (escapes, surrogates); a number serde_json refuses
            // is still an id whose text can be echoed.
            self.top.id = Some(match serde_json::from_slice(text) {
                Ok(v) => v,
                Err(_) if c != b'"' => Value::Null,
                Err(_) => return None,
            });
        }
        self.top.method |= self.path_is(&["method"]);
        for (n, path) in RAW_PATHS.iter().enumerate() {
            if self.path_is(path) {
                // `s` is UTF-8 (checked above) and a scalar starts and ends on ASCII.
                self.top.raw[n] = Some(String::from_utf8_lossy(text).into_owned());
            }
        }
        self.want = self.after();
        Some(())
    }

    /// A member key (or, in an object that may end here, its `}`).
    fn key(&mut self) -> Option<()> {
        let s = self.s;
        let c = *s.get(self.i)?;
        if self.want == Want::KeyOrClose && c == b'}' {
            self.i += 1;
            self.close();
            return Some(());
        }
        if c != b'"' {
            return None;
        }
        let start = self.i;
        self.i = string_end(s, self.i)?;
        // Only the first levels' keys are read (the paths that matter are short).
        let keys = &mut self.keys;
        let tracked = keys.len() <= 3 && keys[..keys.len() - 1].iter().all(Option::is_some);
        if let Some(k) = keys.last_mut() {
            *k = if tracked {
                Some(serde_json::from_slice(&s[start..self.i]).ok()?)
            } else {
                None
            };
        }
        self.want = Want::Colon;
        Some(())
    }

    /// After a value inside an object or array: a comma or the closing byte.
    fn comma_or_close(&mut self) -> Option<()> {
        let c = *self.s.get(self.i)?;
        self.i += 1;
        match (*self.stack.last()?, c) {
            (true, b',') => self.want = Want::Key,
            (false, b',') => self.want = Want::Value,
            (true, b'}') | (false, b']') => self.close(),
            _ => return None,
        }
        Some(())
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
