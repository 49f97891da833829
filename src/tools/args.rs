//! What a call's arguments mean before they are parsed: the spellings of "not set" that clients
//! and schema converters send, and the scalar strings some clients send for numbers and booleans.
//!
//! Strict-mode clients (OpenAI structured outputs, openai-agents `convert_schemas_to_strict`) make
//! every field required, so a model fills the fields it does not mean to set with `null` or a zero
//! value. The rules, the same in every tool and dialect:
//! - `null` means absent for every optional field, at any depth (a required field stays required).
//! - For the fields a tool lists as [`Unset`] (counts, limits, offsets, paths and globs whose zero
//!   or empty value would ask for nothing), `0`, `""` and `[]` mean absent too. Every other zero is
//!   a real value (`context: 0` is no context; `head_limit: 0` in claude-code is the largest page,
//!   as in Claude Code; a 1-based line number of 0 is refused where the schema says minimum 1).
//! - `"10"` / `"true"` become `10` / `true` for integer and boolean fields.

use serde_json::{Map, Value};

/// The fields of one tool whose zero or empty value means "not set".
pub(crate) type Unset = &'static [&'static str];

/// The call's arguments with every "not set" spelling removed and scalar strings converted (see
/// the module docs). `schema` is the tool's input schema; `unset` its zero-means-absent fields.
pub(crate) fn normalize(mut args: Value, schema: &Value, unset: Unset) -> Value {
    drop_nulls(&mut args, schema, 0);
    let mut args = coerce_scalars(args, schema);
    if let Value::Object(obj) = &mut args {
        obj.retain(|k, v| !(unset.contains(&k.as_str()) && is_zero(v)));
    }
    args
}

/// edit_file with a non-empty `edits` list: an empty `old_string` / `new_string` beside it is a
/// converter's filler, not a second edit (alone, an empty `old_string` still creates a file).
pub(crate) fn edit_pairs(mut args: Value) -> Value {
    if let Value::Object(obj) = &mut args {
        if obj
            .get("edits")
            .and_then(Value::as_array)
            .is_some_and(|e| !e.is_empty())
        {
            for k in ["old_string", "new_string"] {
                if obj.get(k).is_some_and(is_zero) {
                    obj.remove(k);
                }
            }
            if obj.get("replace_all") == Some(&Value::Bool(false)) {
                obj.remove("replace_all");
            }
        }
    }
    args
}

/// grep_search with `patterns` and no `pattern` (or an empty one beside them): the first of
/// `patterns` becomes `pattern` (a line matches any of them either way).
pub(crate) fn grep_patterns(mut args: Value) -> Value {
    if let Value::Object(obj) = &mut args {
        let missing = obj.get("pattern").is_none_or(|p| p.as_str() == Some(""));
        if missing {
            if let Some(Value::Array(ps)) = obj.get_mut("patterns") {
                if !ps.is_empty() {
                    let first = ps.remove(0);
                    obj.insert("pattern".into(), first);
                }
            }
        }
    }
    args
}

/// `0`, `0.0`, `""` or `[]`.
fn is_zero(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// Removes `null` values of the fields `schema` does not require, in nested objects and arrays of
/// objects too.
fn drop_nulls(v: &mut Value, schema: &Value, depth: usize) {
    if depth > 16 {
        return;
    }
    match v {
        Value::Object(obj) => {
            let required = |k: &str| {
                schema
                    .get("required")
                    .and_then(Value::as_array)
                    .is_some_and(|r| r.iter().any(|f| f == k))
            };
            obj.retain(|k, val| !val.is_null() || required(k));
            let props = schema.get("properties").and_then(Value::as_object);
            for (k, val) in obj.iter_mut() {
                if let Some(p) = props.and_then(|p| p.get(k)) {
                    drop_nulls(val, p, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items") {
                items
                    .iter_mut()
                    .for_each(|i| drop_nulls(i, item, depth + 1));
            }
        }
        _ => {}
    }
}

/// Models (and the MCP Inspector's CLI) send `"10"` and `"true"` for integer and boolean arguments:
/// a string that is exactly such a value becomes it, for the fields whose schema says so. Nothing
/// else is converted.
pub(crate) fn coerce_scalars(mut args: Value, schema: &Value) -> Value {
    let (Some(obj), Some(props)) = (args.as_object_mut(), schema.get("properties")) else {
        return args;
    };
    for (key, val) in obj.iter_mut() {
        let Value::String(s) = val else { continue };
        let new = match props
            .get(key)
            .and_then(|p| p.get("type"))
            .and_then(Value::as_str)
        {
            Some("integer") => s.trim().parse::<i64>().ok().map(Value::from),
            Some("boolean") => match s.trim() {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
            _ => None,
        };
        if let Some(n) = new {
            *val = n;
        }
    }
    args
}

/// The portable schema with the zero rule made visible: an [`Unset`] integer field whose minimum
/// was above 0 admits 0 (a strict-mode model can then say "not set"), and says so.
pub(crate) fn admit_zero(mut schema: Value, unset: Unset) -> Value {
    let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
        return schema;
    };
    for name in unset {
        let Some(Value::Object(p)) = props.get_mut(*name) else {
            continue;
        };
        if p.get("type").and_then(Value::as_str) != Some("integer") {
            continue;
        }
        if p.get("minimum")
            .and_then(Value::as_u64)
            .is_some_and(|m| m > 0)
        {
            p.insert("minimum".into(), 0.into());
            append(p, "0 means not set.");
        }
    }
    schema
}

fn append(p: &mut Map<String, Value>, note: &str) {
    let d = p.get("description").and_then(Value::as_str).unwrap_or("");
    let d = if d.is_empty() {
        note.to_string()
    } else {
        format!("{d} {note}")
    };
    p.insert("description".into(), d.into());
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nulls_and_listed_zeros_are_absent_other_zeros_stay() {
        let schema = json!({"type": "object", "required": ["path"], "properties": {
            "path": {"type": "string"}, "limit": {"type": "integer"},
            "context": {"type": "integer"}, "glob": {"type": "string"},
            "opts": {"type": "object", "properties": {"x": {"type": "boolean"}}},
            "edits": {"type": "array", "items": {"type": "object", "required": ["a"],
                "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}}}});
        let v = normalize(
            json!({"path": null, "limit": 0, "context": 0, "glob": "", "opts": {"x": null},
                "edits": [{"a": null, "b": null}]}),
            &schema,
            &["limit", "glob"],
        );
        assert_eq!(
            v,
            json!({"path": null, "context": 0, "opts": {}, "edits": [{"a": null}]})
        );
        let v = normalize(json!({"limit": "10", "context": "0"}), &schema, &["limit"]);
        assert_eq!(v, json!({"limit": 10, "context": 0}));
    }
}
