//! DOCX and PPTX: paragraphs, runs, tabs, breaks and tables of WordprocessingML and DrawingML, which
//! share their element names (`p`, `r`, `t`, `tab`, `br`, `tbl`, `tr`, `tc`); plus the package's
//! relationships, slide order, notes, headers and footers.

use super::out::Out;
use super::xml::{Ev, Tag, Xml};
use super::zip::Zip;
use super::{Ctx, Reason};
use std::io::BufReader;

/// Opens part `name` of the package as a bounded XML reader.
pub(crate) fn part<'z>(
    zip: &'z Zip<'_>,
    name: &str,
    ctx: &'z Ctx<'z>,
) -> Option<Xml<'z, BufReader<super::zip::EntryReader<'z>>>> {
    zip.read(name, ctx)
        .map(|r| Xml::new(BufReader::with_capacity(32 * 1024, r), ctx))
}

/// A relationship of a part: id, type (last path segment) and resolved target part name.
pub(crate) struct Rel {
    pub id: String,
    pub kind: String,
    pub target: String,
}

/// The relationships of part `name` (from `dir/_rels/file.rels`), targets resolved to part names.
pub(crate) fn rels(zip: &Zip<'_>, name: &str, ctx: &Ctx<'_>) -> Vec<Rel> {
    let (dir, file) = name.rsplit_once('/').unwrap_or(("", name));
    let rels_name = if dir.is_empty() {
        format!("_rels/{file}.rels")
    } else {
        format!("{dir}/_rels/{file}.rels")
    };
    let mut out = Vec::new();
    let Some(mut x) = part(zip, &rels_name, ctx) else {
        return out;
    };
    while let Some(ev) = x.next() {
        if let Ev::Start(t) | Ev::Empty(t) = ev {
            if t.name() != b"Relationship" || t.attr(b"TargetMode").as_deref() == Some("External") {
                continue;
            }
            let (Some(id), Some(target)) = (t.attr(b"Id"), t.attr(b"Target")) else {
                continue;
            };
            let kind = t.attr(b"Type").unwrap_or_default();
            let kind = kind.rsplit('/').next().unwrap_or("").to_string();
            let cost = std::mem::size_of::<Rel>() + id.len() + kind.len() + target.len();
            if !ctx.charge(cost as u64) {
                break;
            }
            out.push(Rel {
                id,
                kind,
                target: join(dir, &target),
            });
        }
    }
    out
}

/// Resolves a relationship target against the directory of its source part.
fn join(dir: &str, target: &str) -> String {
    let mut parts: Vec<&str> = if target.starts_with('/') {
        Vec::new()
    } else {
        dir.split('/').filter(|s| !s.is_empty()).collect()
    };
    for seg in target.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// The relationship id of an element (`r:id`: the attribute with a prefix and local name `id`).
fn rid(t: &Tag) -> Option<String> {
    t.qattr(b"r:id").or_else(|| t.attr(b"id"))
}

/// Turns WordprocessingML / DrawingML events into lines: paragraphs end lines, table rows become
/// tab-separated lines, runs' tabs and breaks are kept.
#[derive(Default)]
pub(crate) struct Flow {
    in_t: usize,
    in_r: usize,
    skip: usize,
    line: String,
    tables: Vec<(Vec<String>, String)>,
    /// Text is dropped while set (a shape the caller does not want).
    pub mute: bool,
    /// Prefix of the next line written (e.g. `# ` for a slide title).
    pub prefix: &'static str,
    /// Something was written.
    pub wrote: bool,
}

const SKIPPED: [&[u8]; 4] = [b"instrText", b"delText", b"Fallback", b"rPh"];

impl Flow {
    fn text(&mut self, s: &str) {
        if self.mute || self.skip > 0 {
            return;
        }
        match self.tables.last_mut() {
            Some((_, cell)) => cell.push_str(s),
            None => self.line.push_str(s),
        }
    }

    fn end_para(&mut self, out: &mut Out) {
        match self.tables.last_mut() {
            Some((_, cell)) => {
                if !cell.is_empty() && !cell.ends_with(' ') {
                    cell.push(' ');
                }
            }
            None => self.flush(out),
        }
    }

    /// Writes the pending line (even an empty paragraph).
    fn flush(&mut self, out: &mut Out) {
        if self.mute {
            self.line.clear();
            return;
        }
        let line = std::mem::take(&mut self.line);
        if self.prefix.is_empty() || line.is_empty() {
            out.line(&line);
        } else {
            out.line(&format!("{}{line}", self.prefix));
        }
        self.wrote = true;
    }

    /// Feeds one event.
    pub fn on(&mut self, ev: &Ev, out: &mut Out, ctx: &Ctx<'_>) {
        match ev {
            Ev::Start(t) => {
                let n = t.name();
                if SKIPPED.contains(&n) {
                    self.skip += 1;
                }
                match n {
                    b"t" => self.in_t += 1,
                    b"r" => self.in_r += 1,
                    b"tbl" => self.tables.push(Default::default()),
                    b"pic" => ctx.image(),
                    b"br" | b"cr" => self.brk(out),
                    b"tab" if self.in_r > 0 => self.text("\t"),
                    _ => {}
                }
            }
            Ev::Empty(t) => match t.name() {
                b"br" | b"cr" => self.brk(out),
                b"tab" if self.in_r > 0 => self.text("\t"),
                b"p" => self.end_para(out),
                b"pic" => ctx.image(),
                _ => {}
            },
            Ev::Text(s) => {
                if self.in_t > 0 {
                    self.text(s);
                }
            }
            Ev::End(n) => {
                let n = n.as_slice();
                if SKIPPED.contains(&n) {
                    self.skip = self.skip.saturating_sub(1);
                }
                match n {
                    b"t" => self.in_t = self.in_t.saturating_sub(1),
                    b"r" => self.in_r = self.in_r.saturating_sub(1),
                    b"p" => self.end_para(out),
                    b"tc" => {
                        if let Some((row, cell)) = self.tables.last_mut() {
                            let c = std::mem::take(cell);
                            // A row of many empty cells holds a String per cell until it ends.
                            let cost = std::mem::size_of::<String>() + c.len();
                            if ctx.charge(cost as u64) {
                                row.push(c.trim().replace(['\t', '\n'], " "));
                            }
                        }
                    }
                    b"tr" => {
                        if let Some((row, _)) = self.tables.last_mut() {
                            let line = std::mem::take(row).join("\t");
                            if self.tables.len() == 1 {
                                if !self.mute {
                                    out.line(&line);
                                    self.wrote = true;
                                }
                            } else {
                                // A nested table: its rows go into the enclosing cell.
                                let n = self.tables.len();
                                let cell = &mut self.tables[n - 2].1;
                                cell.push_str(&line.replace('\t', " "));
                                cell.push(' ');
                            }
                        }
                    }
                    b"tbl" => {
                        self.tables.pop();
                    }
                    _ => {}
                }
            }
        }
    }

    fn brk(&mut self, out: &mut Out) {
        if self.tables.is_empty() {
            self.flush(out);
        } else {
            self.text(" ");
        }
    }

    /// Writes what is pending at the end of a part.
    pub fn finish(&mut self, out: &mut Out) {
        if !self.line.is_empty() {
            self.flush(out);
        }
    }
}

/// Extracts one part with a [`Flow`] into its own buffer; written under `label` if it has text.
fn flow_part(zip: &Zip<'_>, name: &str, label: &str, ctx: &Ctx<'_>, out: &mut Out) {
    let Some(mut x) = part(zip, name, ctx) else {
        return;
    };
    let mut sub = Out::new(out.room());
    let mut flow = Flow::default();
    while let Some(ev) = x.next() {
        flow.on(&ev, &mut sub, ctx);
    }
    flow.finish(&mut sub);
    let text = sub.into_text();
    if !text.trim().is_empty() || label == "body" {
        out.marker(label);
        out.push(&text);
    }
}

/// DOCX: headers, the body (paragraphs, tables as tab-separated rows), footnotes, endnotes, footers.
pub(crate) fn docx(bytes: &[u8], ctx: &Ctx<'_>, out: &mut Out) {
    let zip = match Zip::open(bytes, ctx) {
        Ok(z) => z,
        Err(r) => return ctx.stop(r),
    };
    let main = main_part(&zip, ctx, "word/document.xml");
    if zip.find(&main).is_none() {
        return ctx.stop(Reason::Malformed("docx: no main document part".into()));
    }
    let rels = rels(&zip, &main, ctx);
    let numbered = |kind: &str| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = rels
            .iter()
            .filter(|r| r.kind == kind)
            .map(|r| {
                let digits: String = r.target.chars().filter(char::is_ascii_digit).collect();
                let label = if digits.is_empty() {
                    kind.to_string()
                } else {
                    format!("{kind} {digits}")
                };
                (label, r.target.clone())
            })
            .collect();
        v.sort();
        v
    };
    for (label, target) in numbered("header") {
        flow_part(&zip, &target, &label, ctx, out);
    }
    flow_part(&zip, &main, "body", ctx, out);
    for kind in ["footnotes", "endnotes"] {
        for (label, target) in numbered(kind) {
            flow_part(&zip, &target, &label, ctx, out);
        }
    }
    for (label, target) in numbered("footer") {
        flow_part(&zip, &target, &label, ctx, out);
    }
}

/// The package's main part (from `_rels/.rels`), or `default`.
fn main_part(zip: &Zip<'_>, ctx: &Ctx<'_>, default: &str) -> String {
    rels(zip, "", ctx)
        .into_iter()
        .find(|r| r.kind == "officeDocument")
        .map(|r| r.target)
        .unwrap_or_else(|| default.to_string())
}

/// PPTX: each slide in presentation order (`--- slide N ---`, ` (hidden)` when hidden), its shapes'
/// text in document order (titles as `# Title`), tables as tab-separated rows, then its notes
/// (`--- slide N notes ---`). Pictures are counted as skipped images.
pub(crate) fn pptx(bytes: &[u8], ctx: &Ctx<'_>, out: &mut Out) {
    let zip = match Zip::open(bytes, ctx) {
        Ok(z) => z,
        Err(r) => return ctx.stop(r),
    };
    let pres = main_part(&zip, ctx, "ppt/presentation.xml");
    let rels = rels(&zip, &pres, ctx);
    let mut order = Vec::new();
    if let Some(mut x) = part(&zip, &pres, ctx) {
        while let Some(ev) = x.next() {
            if let Ev::Start(t) | Ev::Empty(t) = ev {
                if t.name() == b"sldId" {
                    if let Some(id) = rid(&t) {
                        order.push(id);
                    }
                }
            }
        }
    } else if !ctx.stopped() {
        return ctx.stop(Reason::Malformed("pptx: no presentation part".into()));
    }
    for (i, id) in order.iter().enumerate() {
        if ctx.stopped() || out.full {
            break;
        }
        let Some(rel) = rels.iter().find(|r| &r.id == id) else {
            continue;
        };
        slide(&zip, &rel.target, i + 1, ctx, out);
    }
}

fn slide(zip: &Zip<'_>, name: &str, n: usize, ctx: &Ctx<'_>, out: &mut Out) {
    let Some(mut x) = part(zip, name, ctx) else {
        return;
    };
    let mut marked = false;
    shapes(&mut x, ctx, out, false, |out, t| {
        if !marked {
            marked = true;
            let hidden = t.is_some_and(|t| t.attr(b"show").as_deref() == Some("0"));
            let label = format!("slide {n}{}", if hidden { " (hidden)" } else { "" });
            out.marker(&label);
        }
    });
    if !marked {
        out.marker(&format!("slide {n}"));
    }
    let notes = rels(zip, name, ctx)
        .into_iter()
        .find(|r| r.kind == "notesSlide");
    if let Some(notes) = notes {
        if let Some(mut x) = part(zip, &notes.target, ctx) {
            let mut sub = Out::new(out.room());
            shapes(&mut x, ctx, &mut sub, true, |_, _| {});
            let text = sub.into_text();
            if !text.trim().is_empty() {
                out.marker(&format!("slide {n} notes"));
                out.push(&text);
            }
        }
    }
}

/// Walks a slide (or notes) part: shape by shape; `notes`: only the body placeholder's text.
/// `first` is called once with the root element (to write the slide's marker).
fn shapes<R: std::io::BufRead>(
    x: &mut Xml<'_, R>,
    ctx: &Ctx<'_>,
    out: &mut Out,
    notes: bool,
    mut first: impl FnMut(&mut Out, Option<&Tag>),
) {
    let mut flow = Flow::default();
    let mut started = false;
    let mut sp_depth = 0usize;
    while let Some(ev) = x.next() {
        if !started {
            if let Ev::Start(t) = &ev {
                first(out, Some(t));
                started = true;
                flow.mute = notes;
                continue;
            }
        }
        match &ev {
            Ev::Start(t) if t.name() == b"sp" => {
                sp_depth += 1;
                flow.prefix = "";
                flow.mute = notes;
            }
            Ev::Start(t) | Ev::Empty(t) if t.name() == b"ph" && sp_depth > 0 => {
                let kind = t.attr(b"type").unwrap_or_default();
                if matches!(kind.as_str(), "title" | "ctrTitle") && !notes {
                    flow.prefix = "# ";
                }
                if notes {
                    flow.mute = kind != "body";
                }
            }
            Ev::End(n) if n == b"sp" => {
                flow.finish(out);
                sp_depth = sp_depth.saturating_sub(1);
                flow.prefix = "";
                flow.mute = notes;
            }
            _ => {}
        }
        flow.on(&ev, out, ctx);
    }
    if !started {
        first(out, None);
    }
    flow.finish(out);
}
