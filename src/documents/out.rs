//! The extracted text being built: lines, structure markers and the byte cap.

use super::{DocFormat, Reason};

/// One part of a document (a page, slide, sheet, cell, header...): the line its marker is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// 1-based line of the extracted text holding the `--- ... ---` marker.
    pub line: u64,
    /// The part, as in the marker: `slide 3`, `page 12`, `sheet Data`, `cell 4`, `header`.
    pub label: String,
}

/// The text extracted from one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    /// The format extracted.
    pub format: DocFormat,
    /// The text, with `--- LABEL ---` marker lines before each part.
    pub text: String,
    /// Where each part starts, in order.
    pub sections: Vec<Section>,
    /// A bound cut the extraction: `text` is what was extracted before it.
    pub truncated: bool,
    /// Why (see [`Reason`]); `None` when complete.
    pub reason: Option<Reason>,
    /// Images (pictures, notebook image outputs) skipped.
    pub images_skipped: u64,
    /// Bytes the extractor charged to its memory budget ([`super::DocLimits::max_memory_bytes`]):
    /// parsed structures held while extracting, beside the input and the text.
    pub memory_bytes: u64,
}

impl Extracted {
    /// The label of the part holding 1-based `line` (`None` before the first marker).
    pub fn section_of(&self, line: u64) -> Option<&str> {
        let i = self.sections.partition_point(|s| s.line <= line);
        i.checked_sub(1).map(|i| self.sections[i].label.as_str())
    }

    /// `truncated_reason` as reported by read_file and grep.
    pub fn reason_text(&self) -> Option<String> {
        self.reason.as_ref().map(Reason::describe)
    }
}

pub(crate) struct Out {
    text: String,
    sections: Vec<Section>,
    /// Lines completed so far (the next line's number is `lines + 1`).
    lines: u64,
    cap: u64,
    /// The cap was reached; further text is dropped.
    pub full: bool,
}

impl Out {
    pub fn new(cap: u64) -> Self {
        Out {
            text: String::new(),
            sections: Vec::new(),
            lines: 0,
            cap,
            full: false,
        }
    }

    /// Starts a part: a `--- label ---` line (on a line of its own).
    pub fn marker(&mut self, label: &str) {
        self.marker_as(label, label);
    }

    /// Starts a part named `label` whose marker line shows `shown`.
    pub fn marker_as(&mut self, label: &str, shown: &str) {
        self.end_line();
        let line = self.lines + 1;
        if self.push(&format!("--- {shown} ---\n")) {
            self.sections.push(Section {
                line,
                label: label.to_string(),
            });
        }
    }

    /// Appends text; false (and nothing appended) once the cap would be passed. A NUL becomes
    /// U+FFFD, so that the text is never taken for binary data.
    pub fn push(&mut self, s: &str) -> bool {
        if self.full {
            return false;
        }
        let owned;
        let s = if s.contains('\0') {
            owned = s.replace('\0', "\u{FFFD}");
            owned.as_str()
        } else {
            s
        };
        if (self.text.len() + s.len()) as u64 > self.cap {
            // Keep what fits, cut at a character boundary.
            let room = (self.cap as usize).saturating_sub(self.text.len());
            let mut end = room.min(s.len());
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            self.add(&s[..end]);
            self.full = true;
            return false;
        }
        self.add(s);
        true
    }

    fn add(&mut self, s: &str) {
        self.lines += memchr::memchr_iter(b'\n', s.as_bytes()).count() as u64;
        self.text.push_str(s);
    }

    /// Bytes that may still be written.
    pub fn room(&self) -> u64 {
        self.cap.saturating_sub(self.text.len() as u64)
    }

    /// The text written (for a part extracted on its own before it is added).
    pub fn into_text(mut self) -> String {
        self.end_line();
        self.text
    }

    /// Appends a line (a newline is added).
    pub fn line(&mut self, s: &str) -> bool {
        self.push(s) && self.push("\n")
    }

    /// Ends the current line if it has text.
    pub fn end_line(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.push("\n");
        }
    }

    pub fn finish(
        mut self,
        format: DocFormat,
        reason: Option<Reason>,
        images: u64,
        memory: u64,
    ) -> Extracted {
        if !self.full {
            self.end_line();
        }
        Extracted {
            format,
            text: self.text,
            sections: self.sections,
            truncated: reason.is_some(),
            reason,
            images_skipped: images,
            memory_bytes: memory,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_record_their_lines_and_the_cap_cuts_at_a_char_boundary() {
        let mut o = Out::new(42);
        o.marker("slide 1");
        o.line("héllo");
        o.marker("slide 2");
        o.push("ééééééééééééééééééé");
        let x = o.finish(DocFormat::Pptx, None, 0, 0);
        assert_eq!(x.sections[1].line, 3);
        assert_eq!(x.section_of(2), Some("slide 1"));
        assert_eq!(x.section_of(3), Some("slide 2"));
        assert!(x.text.len() <= 42);
        assert!(x
            .text
            .starts_with("--- slide 1 ---\nhéllo\n--- slide 2 ---\né"));
    }
}
