//! Tool schemas every client accepts: schemars' output rewritten to the portable subset.
//!
//! Strict JSON Schema validators (ajv in strict mode, draft-07 and 2020-12), Gemini's function
//! declarations (an OpenAPI 3.0 subset: no type arrays, no `$ref`/`$defs`, no `oneOf`/`const`) and
//! several MCP clients reject constructs schemars emits by default. The rewrite:
//! - inlines `$ref: #/$defs/X` and drops `$defs`;
//! - `type: [T, "null"]` and `anyOf: [X, {type: null}]` become `T` / `X` (optional fields are simply
//!   not `required`);
//! - a `oneOf` of string constants becomes `enum` (the variants' docs join the description);
//! - integer `format`s (`uint64`, ...) go; `minimum` stays (and unsigned integers get `minimum: 0`).
//!
//! [`gemini`] further drops `additionalProperties`, which Gemini's declarations do not take.

use serde_json::{Map, Value};

/// Which side of a call a schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// Arguments: optional fields are simply not required, so `null` is dropped.
    Input,
    /// Results: a field may be `null`, written `anyOf: [T, {type: null}]` (strict validators refuse
    /// type arrays without `allowUnionTypes`).
    Output,
}

/// The portable form of a schemars schema (see the module docs).
pub(crate) fn portable(mut root: Value, side: Side) -> Value {
    let defs = root
        .as_object_mut()
        .and_then(|o| o.remove("$defs"))
        .unwrap_or(Value::Null);
    rewrite(&mut root, &defs, side, 0);
    if side == Side::Input {
        strip(&mut root, "additionalProperties");
    }
    root
}

/// OpenAI's strict-mode form of a portable argument schema: at every object, every property is
/// required and the ones that were optional accept `null` (`type: [T, "null"]`, or
/// `anyOf: [X, {type: null}]` for enums, arrays and objects); `additionalProperties: false`
/// everywhere; keywords strict mode does not take (`minLength`, `maxLength`, `default`) dropped.
pub(crate) fn openai_strict(schema: &Value) -> Value {
    let mut v = schema.clone();
    strictify(&mut v, 0);
    v
}

fn strictify(v: &mut Value, depth: usize) {
    if depth > 32 {
        return;
    }
    match v {
        Value::Array(a) => a.iter_mut().for_each(|c| strictify(c, depth + 1)),
        Value::Object(o) => {
            for k in ["minLength", "maxLength", "default"] {
                o.remove(k);
            }
            for (k, c) in o.iter_mut() {
                if k != "properties" {
                    strictify(c, depth + 1);
                }
            }
            if !matches!(o.get("properties"), Some(Value::Object(_))) {
                if o.get("type").and_then(Value::as_str) == Some("object") {
                    o.insert("additionalProperties".into(), false.into());
                    o.insert("properties".into(), Value::Object(Map::new()));
                    o.insert("required".into(), Value::Array(vec![]));
                }
                return;
            }
            let required: Vec<String> = match o.get("required") {
                Some(Value::Array(r)) => r
                    .iter()
                    .filter_map(|x| x.as_str())
                    .map(String::from)
                    .collect(),
                _ => vec![],
            };
            let Some(Value::Object(props)) = o.get_mut("properties") else {
                return;
            };
            let mut all = Vec::new();
            for (k, p) in props.iter_mut() {
                strictify(p, depth + 1);
                if !required.contains(k) {
                    nullable(p);
                }
                all.push(Value::String(k.clone()));
            }
            o.insert("required".into(), Value::Array(all));
            o.insert("additionalProperties".into(), false.into());
        }
        _ => {}
    }
}

/// `p` also admits `null`.
fn nullable(p: &mut Value) {
    let Value::Object(o) = p else { return };
    let simple = matches!(
        o.get("type").and_then(Value::as_str),
        Some("string" | "integer" | "number" | "boolean")
    ) && !o.contains_key("enum");
    if simple {
        let t = o.get("type").cloned().unwrap_or(Value::Null);
        o.insert("type".into(), Value::Array(vec![t, "null".into()]));
        return;
    }
    let mut inner = std::mem::take(o);
    let mut outer = Map::new();
    if let Some(d) = inner.remove("description") {
        outer.insert("description".into(), d);
    }
    outer.insert(
        "anyOf".into(),
        Value::Array(vec![
            Value::Object(inner),
            serde_json::json!({"type": "null"}),
        ]),
    );
    *o = outer;
}

fn rewrite(v: &mut Value, defs: &Value, side: Side, depth: usize) {
    if depth > 32 {
        return;
    }
    match v {
        Value::Array(items) => items
            .iter_mut()
            .for_each(|i| rewrite(i, defs, side, depth + 1)),
        Value::Object(o) => {
            if side == Side::Input {
                drop_null_branch(o);
            }
            inline_ref(o, defs);
            match side {
                Side::Input => nullable_type(o),
                Side::Output => null_as_branch(o),
            }
            consts_to_enum(o);
            integer_format(o);
            for (_, child) in o.iter_mut() {
                rewrite(child, defs, side, depth + 1);
            }
            if o.get("default").is_some_and(Value::is_null) {
                o.remove("default");
            }
        }
        _ => {}
    }
}

/// `{"$ref": "#/$defs/X", ...}` becomes X's schema, keeping the referring node's own description.
fn inline_ref(o: &mut Map<String, Value>, defs: &Value) {
    let Some(Value::String(r)) = o.get("$ref") else {
        return;
    };
    let Some(name) = r.strip_prefix("#/$defs/") else {
        return;
    };
    let Some(Value::Object(def)) = defs.get(name).cloned() else {
        return;
    };
    o.remove("$ref");
    for (k, val) in def {
        o.entry(k).or_insert(val);
    }
}

/// `anyOf: [X, {type: null}]` (an `Option` of a complex type) becomes X merged into the node.
fn drop_null_branch(o: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = o.get("anyOf") else {
        return;
    };
    let is_null = |b: &Value| b.get("type") == Some(&Value::String("null".into()));
    if !branches.iter().any(is_null) {
        return;
    }
    let rest: Vec<Value> = branches.iter().filter(|b| !is_null(b)).cloned().collect();
    o.remove("anyOf");
    match <[Value; 1]>::try_from(rest) {
        Ok([Value::Object(only)]) => {
            for (k, val) in only {
                o.entry(k).or_insert(val);
            }
        }
        Ok([other]) => {
            o.insert("anyOf".into(), Value::Array(vec![other]));
        }
        Err(rest) => {
            o.insert("anyOf".into(), Value::Array(rest));
        }
    }
}

/// `type: [T, "null"]` becomes `type: T`.
fn nullable_type(o: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = o.get("type") {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        let new = match <[Value; 1]>::try_from(kept) {
            Ok([one]) => one,
            Err(many) => Value::Array(many),
        };
        o.insert("type".into(), new);
    }
}

/// `type: [T, "null"]` becomes `anyOf: [{type: T, ...T's keywords}, {type: "null"}]`.
fn null_as_branch(o: &mut Map<String, Value>) {
    let Some(Value::Array(types)) = o.get("type") else {
        return;
    };
    let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
    let (Ok([t]), true) = (<[Value; 1]>::try_from(kept), types.len() == 2) else {
        return;
    };
    o.remove("type");
    let mut branch = Map::new();
    branch.insert("type".into(), t);
    let keys: Vec<String> = o
        .keys()
        .filter(|k| !matches!(k.as_str(), "description" | "title" | "default" | "anyOf"))
        .cloned()
        .collect();
    for k in keys {
        if let Some(v) = o.remove(&k) {
            branch.insert(k, v);
        }
    }
    let null = serde_json::json!({"type": "null"});
    o.insert(
        "anyOf".into(),
        Value::Array(vec![Value::Object(branch), null]),
    );
}

/// A `oneOf` whose branches are all string constants becomes `type: string, enum: [...]`.
fn consts_to_enum(o: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = o.get("oneOf") else {
        return;
    };
    let mut values = Vec::new();
    let mut docs = Vec::new();
    for b in branches {
        let c = b
            .get("const")
            .or_else(|| b.get("enum").and_then(|e| e.get(0)));
        match c {
            Some(Value::String(s)) => {
                if let Some(Value::String(d)) = b.get("description") {
                    docs.push(format!("`{s}`: {d}"));
                }
                values.push(Value::String(s.clone()));
            }
            _ => return,
        }
    }
    o.remove("oneOf");
    o.insert("type".into(), "string".into());
    o.insert("enum".into(), Value::Array(values));
    if !docs.is_empty() {
        let mut d = o
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        if !d.is_empty() {
            d.push(' ');
        }
        d.push_str(&docs.join("; "));
        o.insert("description".into(), d.into());
    }
}

/// Integer `format`s are not JSON Schema vocabulary that strict validators know: dropped, with the
/// unsigned ones' lower bound kept as `minimum`.
fn integer_format(o: &mut Map<String, Value>) {
    let Some(Value::String(f)) = o.get("format") else {
        return;
    };
    let unsigned = f.starts_with("uint");
    if unsigned || f.starts_with("int") || f == "double" || f == "float" {
        o.remove("format");
        if unsigned {
            o.entry("minimum").or_insert(0.into());
        }
    }
}

/// Gemini's function-declaration subset of a portable schema: no `additionalProperties`.
pub(crate) fn gemini(schema: &Value) -> Value {
    let mut v = schema.clone();
    strip(&mut v, "additionalProperties");
    v
}

fn strip(v: &mut Value, key: &str) {
    match v {
        Value::Object(o) => {
            o.remove(key);
            o.values_mut().for_each(|c| strip(c, key));
        }
        Value::Array(a) => a.iter_mut().for_each(|c| strip(c, key)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn optional_fields_refs_and_formats_are_rewritten() {
        let s = json!({
            "$defs": {"Mode": {"description": "How.", "oneOf": [
                {"const": "a", "description": "A.", "type": "string"},
                {"const": "b", "type": "string"}]}},
            "type": "object",
            "properties": {
                "n": {"type": ["integer", "null"], "format": "uint64", "minimum": 0},
                "m": {"anyOf": [{"$ref": "#/$defs/Mode"}, {"type": "null"}], "description": "Mode."}
            }
        });
        let p = portable(s.clone(), Side::Input);
        assert_eq!(
            p["properties"]["n"],
            json!({"type": "integer", "minimum": 0})
        );
        assert_eq!(p["properties"]["m"]["enum"], json!(["a", "b"]));
        assert_eq!(p["properties"]["m"]["type"], "string");
        assert_eq!(p["properties"]["m"]["description"], "Mode. `a`: A.");
        assert!(p.get("$defs").is_none());
        let text = p.to_string();
        assert!(!text.contains("$ref") && !text.contains("null") && !text.contains("format"));
        let out = portable(s, Side::Output);
        assert_eq!(
            out["properties"]["n"],
            json!({"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]})
        );
        assert_eq!(
            out["properties"]["m"]["anyOf"][0]["enum"],
            json!(["a", "b"])
        );
    }
}
