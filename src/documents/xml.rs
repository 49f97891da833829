//! A bounded XML event reader over quick-xml: element depth and count are capped, the deadline is
//! checked, and only the five predefined entities and character references are resolved. A DTD is
//! skipped unread; any other entity reference is dropped, never expanded (no billion laughs, no
//! external entities).

use super::{Ctx, Reason};
use quick_xml::events::{BytesStart, Event};
use std::io::BufRead;

/// An element start (or empty element) with its local name.
pub(crate) struct Tag {
    start: BytesStart<'static>,
}

impl Tag {
    /// The local name (without the namespace prefix).
    pub fn name(&self) -> &[u8] {
        self.start.local_name().into_inner().as_bytes()
    }

    /// The value of the attribute whose local name is `local`.
    pub fn attr(&self, local: &[u8]) -> Option<String> {
        self.start
            .attributes()
            .flatten()
            .find(|a| a.key.local_name().as_ref().as_bytes() == local)
            .map(
                |a| match a.normalized_value(quick_xml::XmlVersion::Implicit1_0) {
                    Ok(v) => v.into_owned(),
                    Err(_) => a.value.to_string(),
                },
            )
    }

    /// The value of the attribute with exactly the (prefixed) name `qname`.
    pub fn qattr(&self, qname: &[u8]) -> Option<String> {
        self.start
            .attributes()
            .flatten()
            .find(|a| a.key.as_ref().as_bytes() == qname)
            .map(|a| a.value.to_string())
    }
}

/// One event, simplified.
pub(crate) enum Ev {
    Start(Tag),
    Empty(Tag),
    /// The local name of the element that ends.
    End(Vec<u8>),
    Text(String),
}

pub(crate) struct Xml<'c, R: BufRead> {
    r: quick_xml::Reader<R>,
    ctx: &'c Ctx<'c>,
    depth: usize,
    buf: Vec<u8>,
    done: bool,
}

impl<'c, R: BufRead> Xml<'c, R> {
    pub fn new(src: R, ctx: &'c Ctx<'c>) -> Self {
        let mut r = quick_xml::Reader::from_reader(src);
        let cfg = r.config_mut();
        cfg.check_end_names = false;
        cfg.allow_dangling_amp = true;
        cfg.allow_unmatched_ends = true;
        Xml {
            r,
            ctx,
            depth: 0,
            buf: Vec::new(),
            done: false,
        }
    }

    /// The next event; `None` at the end of the document or when a bound stops extraction (the
    /// reason is recorded in the context).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Ev> {
        loop {
            if self.done {
                return None;
            }
            self.buf.clear();
            let ev = match self.r.read_event_into(&mut self.buf) {
                Ok(ev) => ev,
                Err(e) => {
                    // A bound hit inside the zip reader surfaces here as an I/O error; keep that
                    // reason. Anything else is a damaged part.
                    self.ctx.stop(Reason::Malformed(format!("xml: {e}")));
                    self.done = true;
                    return None;
                }
            };
            let out = match ev {
                Event::Start(s) => {
                    let s = s.into_owned();
                    self.depth += 1;
                    if !self.count() {
                        return None;
                    }
                    if self.depth > self.ctx.limits.max_xml_depth {
                        self.ctx.stop(Reason::XmlDepth);
                        self.done = true;
                        return None;
                    }
                    Ev::Start(Tag { start: s })
                }
                Event::Empty(s) => {
                    let s = s.into_owned();
                    if !self.count() {
                        return None;
                    }
                    Ev::Empty(Tag { start: s })
                }
                Event::End(e) => {
                    self.depth = self.depth.saturating_sub(1);
                    Ev::End(e.local_name().into_inner().as_bytes().to_vec())
                }
                Event::Text(t) => Ev::Text(t.xml10_content().into_owned()),
                Event::CData(t) => Ev::Text(t.to_string()),
                Event::GeneralRef(r) => {
                    let c = match r.resolve_char_ref() {
                        Ok(Some(c)) => Some(c),
                        Ok(None) => match &*r {
                            "amp" => Some('&'),
                            "lt" => Some('<'),
                            "gt" => Some('>'),
                            "quot" => Some('"'),
                            "apos" => Some('\''),
                            // Any other entity is never expanded.
                            _ => None,
                        },
                        Err(_) => None,
                    };
                    match c {
                        Some(c) => Ev::Text(c.to_string()),
                        None => continue,
                    }
                }
                Event::Eof => {
                    self.done = true;
                    return None;
                }
                // Declarations, DTDs, comments, processing instructions: skipped unread.
                _ => continue,
            };
            return Some(out);
        }
    }

    /// Counts one element against the bound and checks the deadline; false when stopped.
    fn count(&mut self) -> bool {
        let left = self.ctx.elements.get();
        if left == 0 {
            self.ctx.stop(Reason::XmlElements);
            self.done = true;
            return false;
        }
        self.ctx.elements.set(left - 1);
        if left.is_multiple_of(1024) && self.ctx.stopped() {
            self.done = true;
            return false;
        }
        true
    }
}
