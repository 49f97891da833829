//! XLSX: sheet by sheet in workbook order (`--- sheet NAME ---`, ` (hidden)` for hidden sheets), each
//! row as one line of tab-separated cells (gaps kept as empty cells), shared strings resolved,
//! booleans as TRUE/FALSE, a formula without a cached value as `=FORMULA`.

use super::ooxml::{part, rels};
use super::out::Out;
use super::xml::Ev;
use super::zip::Zip;
use super::{Ctx, Reason};

/// Excel's last column (XFD): a cell reference past it is treated as the next cell.
const MAX_COL: usize = 16_384;

/// What one held string costs the memory budget beside its bytes (a `String` in a `Vec`).
const STRING_COST: u64 = std::mem::size_of::<String>() as u64;

pub(crate) fn xlsx(bytes: &[u8], ctx: &Ctx<'_>, out: &mut Out) {
    let zip = match Zip::open(bytes, ctx) {
        Ok(z) => z,
        Err(r) => return ctx.stop(r),
    };
    let book = rels(&zip, "", ctx)
        .into_iter()
        .find(|r| r.kind == "officeDocument")
        .map(|r| r.target)
        .unwrap_or_else(|| "xl/workbook.xml".into());
    let book_rels = rels(&zip, &book, ctx);
    let mut sheets = Vec::new();
    match part(&zip, &book, ctx) {
        Some(mut x) => {
            while let Some(ev) = x.next() {
                if let Ev::Start(t) | Ev::Empty(t) = ev {
                    if t.name() == b"sheet" {
                        let name = t.attr(b"name").unwrap_or_default();
                        let hidden = t.attr(b"state").is_some_and(|s| s != "visible");
                        let id = t.qattr(b"r:id").unwrap_or_default();
                        sheets.push((name, hidden, id));
                    }
                }
            }
        }
        None => {
            if !ctx.stopped() {
                ctx.stop(Reason::Malformed("xlsx: no workbook part".into()));
            }
            return;
        }
    }
    let sst_name = book_rels
        .iter()
        .find(|r| r.kind == "sharedStrings")
        .map(|r| r.target.clone())
        .unwrap_or_else(|| "xl/sharedStrings.xml".into());
    let shared = shared_strings(&zip, &sst_name, ctx);
    for (name, hidden, id) in sheets {
        if ctx.stopped() || out.full {
            break;
        }
        let Some(rel) = book_rels.iter().find(|r| r.id == id) else {
            continue;
        };
        let label = format!("sheet {name}{}", if hidden { " (hidden)" } else { "" });
        out.marker(&label);
        sheet(&zip, &rel.target, &shared, ctx, out);
    }
}

fn shared_strings(zip: &Zip<'_>, name: &str, ctx: &Ctx<'_>) -> Vec<String> {
    let mut v = Vec::new();
    let Some(mut x) = part(zip, name, ctx) else {
        return v;
    };
    let (mut cur, mut in_t, mut skip) = (String::new(), 0usize, 0usize);
    while let Some(ev) = x.next() {
        match ev {
            Ev::Start(t) => match t.name() {
                b"t" => in_t += 1,
                b"rPh" => skip += 1,
                _ => {}
            },
            Ev::Text(s) if in_t > 0 && skip == 0 => {
                if !ctx.charge(s.len() as u64) {
                    break;
                }
                cur.push_str(&s);
            }
            Ev::End(n) => match n.as_slice() {
                b"t" => in_t = in_t.saturating_sub(1),
                b"rPh" => skip = skip.saturating_sub(1),
                b"si" => {
                    if !ctx.charge(STRING_COST) {
                        break;
                    }
                    v.push(std::mem::take(&mut cur));
                }
                _ => {}
            },
            Ev::Empty(t) if t.name() == b"si" => {
                if !ctx.charge(STRING_COST) {
                    break;
                }
                v.push(String::new());
            }
            _ => {}
        }
    }
    v
}

/// The 0-based column of a cell reference such as `BC12`.
fn column(r: &str) -> Option<usize> {
    let mut col = 0usize;
    let mut any = false;
    for c in r.chars().take_while(char::is_ascii_alphabetic) {
        col = col * 26 + (c.to_ascii_uppercase() as usize - 'A' as usize + 1);
        any = true;
        if col > MAX_COL {
            return None;
        }
    }
    any.then(|| col - 1)
}

#[derive(Default)]
struct Cell {
    kind: String,
    col: Option<usize>,
    v: Option<String>,
    f: Option<String>,
    inline: String,
}

fn sheet(zip: &Zip<'_>, name: &str, shared: &[String], ctx: &Ctx<'_>, out: &mut Out) {
    let Some(mut x) = part(zip, name, ctx) else {
        return;
    };
    let mut row = Row::default();
    let mut cell: Option<Cell> = None;
    // Which child's text is being read: v, f, or t inside is.
    let mut field: Option<&'static str> = None;
    while let Some(ev) = x.next() {
        match ev {
            Ev::Empty(t) if t.name() == b"c" => {
                // No value; it still holds its column.
                let col = t.attr(b"r").as_deref().and_then(column);
                row.place(col, String::new());
            }
            Ev::Start(t) if t.name() == b"c" => {
                cell = Some(Cell {
                    kind: t.attr(b"t").unwrap_or_default(),
                    col: t.attr(b"r").as_deref().and_then(column),
                    ..Default::default()
                });
            }
            Ev::Start(t) => match t.name() {
                b"v" => field = Some("v"),
                b"f" => field = Some("f"),
                b"t" if cell.is_some() => field = Some("t"),
                _ => {}
            },
            Ev::Text(s) => {
                if let (Some(f), Some(c)) = (field, cell.as_mut()) {
                    match f {
                        "v" => c.v.get_or_insert_with(String::new).push_str(&s),
                        "f" => c.f.get_or_insert_with(String::new).push_str(&s),
                        _ => c.inline.push_str(&s),
                    }
                }
            }
            Ev::End(n) => match n.as_slice() {
                b"v" | b"f" | b"t" => field = None,
                b"c" => {
                    if let Some(c) = cell.take() {
                        let col = c.col;
                        // A row is never built past the text still allowed: a shared string is
                        // one copy in the table, but one more for every cell that refers to it.
                        let room = out.room().saturating_sub(row.bytes);
                        let (v, cut) = value(c, shared, room);
                        row.place(col, v);
                        if cut {
                            row.cut = true;
                        }
                    }
                }
                b"row" => {
                    let mut r = std::mem::take(&mut row);
                    while r.cells.last().is_some_and(String::is_empty) {
                        r.cells.pop();
                    }
                    out.line(&r.cells.join("\t"));
                    if r.cut {
                        // The row was cut at the text bound.
                        out.full = true;
                    }
                    if out.full {
                        return;
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }
}

/// One row being built: its cells, their bytes, and whether a value was cut at the text bound.
#[derive(Default)]
struct Row {
    cells: Vec<String>,
    bytes: u64,
    cut: bool,
}

impl Row {
    fn place(&mut self, col: Option<usize>, v: String) {
        let row = &mut self.cells;
        let col = col.filter(|&c| c >= row.len()).unwrap_or(row.len());
        while row.len() < col {
            row.push(String::new());
            self.bytes += 1;
        }
        self.bytes += v.len() as u64 + 1;
        if memchr::memchr3(b'\t', b'\n', b'\r', v.as_bytes()).is_some() {
            row.push(v.replace(['\t', '\n', '\r'], " "));
        } else {
            row.push(v);
        }
    }
}

/// At most `room` bytes of `s` (cut at a character boundary), and whether it was cut.
fn head(s: &str, room: u64) -> (String, bool) {
    if s.len() as u64 <= room {
        return (s.to_string(), false);
    }
    let mut end = room as usize;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    (s[..end].to_string(), true)
}

/// The shown value of a cell, at most `room` bytes of it (and whether it was cut).
fn value(c: Cell, shared: &[String], room: u64) -> (String, bool) {
    let v = match (c.kind.as_str(), c.v) {
        ("s", Some(v)) => {
            let s = v.trim().parse::<usize>().ok().and_then(|i| shared.get(i));
            return head(s.map_or("", String::as_str), room);
        }
        ("b", Some(v)) => if v.trim() == "1" { "TRUE" } else { "FALSE" }.into(),
        ("inlineStr", _) => c.inline,
        (_, Some(v)) => v,
        (_, None) => c.f.map(|f| format!("={f}")).unwrap_or_default(),
    };
    if v.len() as u64 > room {
        return head(&v, room);
    }
    (v, false)
}

#[cfg(test)]
mod tests {
    #[test]
    fn columns() {
        assert_eq!(super::column("A1"), Some(0));
        assert_eq!(super::column("AA10"), Some(26));
        assert_eq!(super::column("XFD1"), Some(16_383));
        assert_eq!(super::column("ZZZZ1"), None);
        assert_eq!(super::column("12"), None);
    }
}
