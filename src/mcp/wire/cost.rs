//! What parsing a request costs in memory, told before it is parsed ([`parsed_bytes`], from the
//! line) and after ([`value_bytes`], from the tree), so that one request's parse is bounded by
//! the call's memory budget (DESIGN.md guarantee 9), not only by its length: a 16 MiB line of
//! `[0,0,0,...]` is 8 million JSON values, and serde_json's tree of them takes 32 bytes each plus
//! the slack of a growing `Vec`, about 0.5 GB, before rmcp or the tool sees a byte of it.

use serde_json::Value;

/// What one value of the tree may take: serde_json's `Value`, twice over for the spare capacity
/// of the `Vec` that holds it while the array grows.
const PER_VALUE: u64 = 2 * std::mem::size_of::<Value>() as u64;

/// What one object member takes beside its value: the key's `String` and its share of the
/// `BTreeMap`'s nodes (eleven slots a node, about two thirds of them used).
const PER_MEMBER: u64 = 96;

/// An upper estimate of the memory the tree of `line` takes once parsed: [`PER_VALUE`] for each
/// value, [`PER_MEMBER`] for each object member, and the line's length for the text of its
/// strings. One pass over the bytes with no allocation, so it is cheap beside the parse it guards.
pub(crate) fn parsed_bytes(line: &[u8]) -> u64 {
    let (mut values, mut members) = (1u64, 0u64);
    let mut i = 0;
    while i < line.len() {
        match line[i] {
            b'"' => i = string_end(line, i + 1),
            b',' | b'[' | b'{' => values += 1,
            b':' => members += 1,
            _ => {}
        }
        i += 1;
    }
    values
        .saturating_mul(PER_VALUE)
        .saturating_add(members.saturating_mul(PER_MEMBER))
        .saturating_add(line.len() as u64)
}

/// The index of the quote that closes the string whose text starts at `from` (or the end of the
/// line, for one that is never closed: the parse refuses the line then).
fn string_end(line: &[u8], mut from: usize) -> usize {
    while let Some(k) = memchr::memchr2(b'"', b'\\', &line[from..]) {
        let at = from + k;
        if line[at] == b'"' {
            return at;
        }
        // An escape: the next byte is part of it, whatever it is.
        from = at + 2;
        if from >= line.len() {
            break;
        }
    }
    line.len()
}

/// The memory the parsed tree `v` holds, counted as [`parsed_bytes`] counts it (so at most that
/// estimate of its line): what a call's arguments keep of its memory budget while it runs.
pub(crate) fn value_bytes(v: &Value) -> u64 {
    let mut total = 0u64;
    // An explicit stack: the tree may be as deep as serde_json allows (128), or deeper when built
    // by a host.
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        total = total.saturating_add(PER_VALUE);
        match v {
            Value::String(s) => total = total.saturating_add(s.len() as u64),
            Value::Array(a) => stack.extend(a.iter()),
            Value::Object(o) => {
                for (k, v) in o {
                    total = total.saturating_add(PER_MEMBER + k.len() as u64);
                    stack.push(v);
                }
            }
            _ => {}
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The estimate from the line is never below the count from the tree, for every shape: a
    /// refusal before the parse then covers all that the call would hold after it.
    #[test]
    fn the_line_estimate_covers_the_tree() {
        let lines = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":[0,0,0,[],{}]}}}"#,
            r#"[0,1,2,3,4,5,6,7,8,9]"#,
            r#"{"a\"b,[{":"c\\","d":["e,:{[",1.5e3,null,true,{"f":{}}]}"#,
            r#""a string with, commas: and [brackets]""#,
            "[[[[[[]]]]]]",
        ];
        for line in lines {
            let v: Value = serde_json::from_str(line).unwrap();
            assert!(
                parsed_bytes(line.as_bytes()) >= value_bytes(&v),
                "{line}: {} < {}",
                parsed_bytes(line.as_bytes()),
                value_bytes(&v)
            );
        }
    }

    /// A long line of small values is many times its length; a long string is about its length.
    #[test]
    fn values_cost_more_than_their_text() {
        let zeros = format!("[{}0]", "0,".repeat(1 << 20));
        assert!(parsed_bytes(zeros.as_bytes()) > 30 * zeros.len() as u64);
        let text = format!("\"{}\"", "x".repeat(1 << 20));
        assert!(parsed_bytes(text.as_bytes()) < 2 * text.len() as u64);
    }
}
