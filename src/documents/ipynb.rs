//! Jupyter notebooks: each cell as `--- cell N [TYPE] ---` and its source, then its outputs' text
//! under `--- cell N output ---` (stream text, `text/plain` results, `ename: evalue` for errors).
//! Image outputs are skipped and counted.

use super::out::Out;
use super::{Ctx, Reason};
use serde_json::Value;

/// A JSON string or an array of strings (nbformat's multiline strings).
fn text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

pub(crate) fn ipynb(bytes: &[u8], ctx: &Ctx<'_>, out: &mut Out) {
    let nb: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => return ctx.stop(Reason::Malformed(format!("ipynb: {e}"))),
    };
    // nbformat 4 keeps cells at the top; nbformat 3 in worksheets, with `input` for code.
    let cells: Vec<&Value> = match nb.get("cells").and_then(Value::as_array) {
        Some(c) => c.iter().collect(),
        None => nb
            .get("worksheets")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|w| w.get("cells").and_then(Value::as_array))
            .flatten()
            .collect(),
    };
    for (i, cell) in cells.iter().enumerate() {
        if ctx.stopped() || out.full {
            return;
        }
        let n = i + 1;
        let kind = cell.get("cell_type").and_then(Value::as_str).unwrap_or("?");
        out.marker_as(&format!("cell {n}"), &format!("cell {n} [{kind}]"));
        let src = text(cell.get("source").or_else(|| cell.get("input")));
        out.push(&src);
        out.end_line();
        let outputs = cell.get("outputs").and_then(Value::as_array);
        let mut marked = false;
        for o in outputs.into_iter().flatten() {
            let mut body = String::new();
            match o.get("output_type").and_then(Value::as_str) {
                Some("stream") => body = text(o.get("text")),
                Some("error") => {
                    let name = o.get("ename").and_then(Value::as_str).unwrap_or("");
                    let value = o.get("evalue").and_then(Value::as_str).unwrap_or("");
                    body = format!("{name}: {value}");
                }
                _ => {
                    // execute_result, display_data (nbformat 3: pyout, display_data).
                    let data = o.get("data").unwrap_or(o);
                    if let Some(map) = data.as_object() {
                        for k in map.keys() {
                            if k.starts_with("image/") || k == "png" || k == "jpeg" {
                                ctx.image();
                            }
                        }
                        body = text(data.get("text/plain").or_else(|| data.get("text")));
                    }
                }
            }
            if body.is_empty() {
                continue;
            }
            if !marked {
                out.marker(&format!("cell {n} output"));
                marked = true;
            }
            out.push(&body);
            out.end_line();
        }
    }
}
