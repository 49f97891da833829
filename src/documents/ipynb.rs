//! Jupyter notebooks: each cell as `--- cell N [TYPE] ---` and its source, then its outputs' text
//! under `--- cell N output ---` (stream text, `text/plain` results, `ename: evalue` for errors).
//! Image outputs are skipped and counted.
//!
//! The notebook is read as a stream, never as a tree of values: one cell at a time is held (its
//! strings, up to the text still allowed, charged to the memory budget), everything else is skipped
//! unread with the deadline checked as it goes. A 40 MB array of numbers costs no memory, and cells
//! before a damaged spot are kept.

use super::out::Out;
use super::{Ctx, Reason};
use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use std::cell::{Cell, RefCell};
use std::fmt;

/// Values skipped or read between two checks of the deadline.
const CHECK_EVERY: u64 = 4096;

/// What every part of the walk shares: the bounds, the output, and the room left in this cell.
struct Walk<'a, 'c> {
    ctx: &'a Ctx<'c>,
    out: RefCell<&'a mut Out>,
    cells: Cell<usize>,
    seen_cells: Cell<bool>,
    /// Bytes the current cell may still hold (the text still allowed).
    left: Cell<u64>,
    /// A string of the current cell was cut at the text bound.
    cut: Cell<bool>,
    /// Bytes the current cell holds (charged; given back once it is written).
    held: Cell<u64>,
    ticks: Cell<u64>,
}

type E = serde_json::Error;

impl Walk<'_, '_> {
    /// One more value seen; an error (which ends the walk) once a bound stopped extraction.
    fn tick(&self) -> Result<(), E> {
        let t = self.ticks.get() + 1;
        self.ticks.set(t);
        if (t.is_multiple_of(CHECK_EVERY) && self.ctx.stopped()) || self.out.borrow().full {
            return Err(E::custom("extraction bound"));
        }
        Ok(())
    }

    /// Appends `s` to `acc`, up to the room left in the cell, charged to the memory budget.
    fn take(&self, acc: &mut String, s: &str) -> Result<(), E> {
        let left = self.left.get();
        let mut n = s.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        while !s.is_char_boundary(n) {
            n -= 1;
        }
        if n < s.len() {
            self.cut.set(true);
        }
        if !self.ctx.charge(n as u64) {
            return Err(E::custom("extraction bound"));
        }
        self.left.set(left - n as u64);
        self.held.set(self.held.get() + n as u64);
        acc.push_str(&s[..n]);
        Ok(())
    }
}

/// Skips any value, checking the bounds as it goes.
struct Skip<'w, 'a, 'c>(&'w Walk<'a, 'c>);

impl<'de> DeserializeSeed<'de> for Skip<'_, '_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        // Not `deserialize_ignored_any`: serde_json skips that in one call, with no deadline check.
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Skip<'_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_bool<X: serde::de::Error>(self, _: bool) -> Result<(), X> {
        Ok(())
    }
    fn visit_i64<X: serde::de::Error>(self, _: i64) -> Result<(), X> {
        Ok(())
    }
    fn visit_u64<X: serde::de::Error>(self, _: u64) -> Result<(), X> {
        Ok(())
    }
    fn visit_f64<X: serde::de::Error>(self, _: f64) -> Result<(), X> {
        Ok(())
    }
    fn visit_str<X: serde::de::Error>(self, _: &str) -> Result<(), X> {
        Ok(())
    }
    fn visit_unit<X: serde::de::Error>(self) -> Result<(), X> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        loop {
            self.0.tick().map_err(A::Error::custom)?;
            if a.next_element_seed(Skip(self.0))?.is_none() {
                return Ok(());
            }
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        loop {
            self.0.tick().map_err(A::Error::custom)?;
            if a.next_key_seed(Skip(self.0))?.is_none() {
                return Ok(());
            }
            a.next_value_seed(Skip(self.0))?;
        }
    }
}

/// A JSON string or an array of strings (nbformat's multiline strings), appended to `acc`; any other
/// value is skipped.
struct Text<'w, 'a, 'c, 's>(&'w Walk<'a, 'c>, &'s mut String);

impl<'de> DeserializeSeed<'de> for Text<'_, '_, '_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Text<'_, '_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string or an array of strings")
    }
    fn visit_str<X: serde::de::Error>(self, s: &str) -> Result<(), X> {
        self.0.take(self.1, s).map_err(X::custom)
    }
    fn visit_bool<X: serde::de::Error>(self, _: bool) -> Result<(), X> {
        Ok(())
    }
    fn visit_i64<X: serde::de::Error>(self, _: i64) -> Result<(), X> {
        Ok(())
    }
    fn visit_u64<X: serde::de::Error>(self, _: u64) -> Result<(), X> {
        Ok(())
    }
    fn visit_f64<X: serde::de::Error>(self, _: f64) -> Result<(), X> {
        Ok(())
    }
    fn visit_unit<X: serde::de::Error>(self) -> Result<(), X> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        let (w, acc) = (self.0, self.1);
        loop {
            w.tick().map_err(A::Error::custom)?;
            if a.next_element_seed(Piece(w, &mut *acc))?.is_none() {
                return Ok(());
            }
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<(), A::Error> {
        Skip(self.0).visit_map(a)
    }
}

/// One element of a multiline string: a string is appended, anything else skipped.
struct Piece<'w, 'a, 'c, 's>(&'w Walk<'a, 'c>, &'s mut String);

impl<'de> DeserializeSeed<'de> for Piece<'_, '_, '_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Piece<'_, '_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<X: serde::de::Error>(self, s: &str) -> Result<(), X> {
        self.0.take(self.1, s).map_err(X::custom)
    }
    fn visit_bool<X: serde::de::Error>(self, _: bool) -> Result<(), X> {
        Ok(())
    }
    fn visit_i64<X: serde::de::Error>(self, _: i64) -> Result<(), X> {
        Ok(())
    }
    fn visit_u64<X: serde::de::Error>(self, _: u64) -> Result<(), X> {
        Ok(())
    }
    fn visit_f64<X: serde::de::Error>(self, _: f64) -> Result<(), X> {
        Ok(())
    }
    fn visit_unit<X: serde::de::Error>(self) -> Result<(), X> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, a: A) -> Result<(), A::Error> {
        Skip(self.0).visit_seq(a)
    }
    fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<(), A::Error> {
        Skip(self.0).visit_map(a)
    }
}

/// What a map's keys select: `f` is called with each key; it reads the value or skips it.
fn each_key<'de, A: MapAccess<'de>>(
    w: &Walk<'_, '_>,
    mut a: A,
    mut f: impl FnMut(&str, &mut A) -> Result<bool, A::Error>,
) -> Result<(), A::Error> {
    loop {
        w.tick().map_err(A::Error::custom)?;
        let mut key = String::new();
        // Keys are charged like any held string (a key of megabytes is possible).
        let Some(()) = a.next_key_seed(Key(&mut key))? else {
            return Ok(());
        };
        if !f(&key, &mut a)? {
            a.next_value_seed(Skip(w))?;
        }
    }
}

/// A map key, held up to 256 bytes (the keys looked for are short).
struct Key<'s>(&'s mut String);

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<X: serde::de::Error>(self, s: &str) -> Result<(), X> {
        let mut n = s.len().min(256);
        while !s.is_char_boundary(n) {
            n -= 1;
        }
        self.0.push_str(&s[..n]);
        Ok(())
    }
}

/// The visitor methods that skip every scalar (strings included).
macro_rules! skip_scalars {
    () => {
        fn visit_str<X: serde::de::Error>(self, _: &str) -> Result<(), X> {
            Ok(())
        }
        fn visit_bool<X: serde::de::Error>(self, _: bool) -> Result<(), X> {
            Ok(())
        }
        fn visit_i64<X: serde::de::Error>(self, _: i64) -> Result<(), X> {
            Ok(())
        }
        fn visit_u64<X: serde::de::Error>(self, _: u64) -> Result<(), X> {
            Ok(())
        }
        fn visit_f64<X: serde::de::Error>(self, _: f64) -> Result<(), X> {
            Ok(())
        }
        fn visit_unit<X: serde::de::Error>(self) -> Result<(), X> {
            Ok(())
        }
    };
}

/// A seed whose visitor handles maps with `$map` and skips anything else.
macro_rules! map_seed {
    ($name:ident <$($l:lifetime),*> ($($field:ident: $ty:ty),*), |$s:ident, $a:ident| $map:block) => {
        struct $name<$($l),*>($($ty),*);
        impl<'de, $($l),*> DeserializeSeed<'de> for $name<$($l),*> {
            type Value = ();
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                d.deserialize_any(self)
            }
        }
        impl<'de, $($l),*> Visitor<'de> for $name<$($l),*> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            skip_scalars!();
            fn visit_seq<A: SeqAccess<'de>>(self, a: A) -> Result<(), A::Error> {
                Skip(self.0).visit_seq(a)
            }
            fn visit_map<A: MapAccess<'de>>(self, $a: A) -> Result<(), A::Error> {
                let $s = self;
                $map
            }
        }
    };
}

/// A seed whose visitor calls `$elem` for each element of an array and skips anything else.
macro_rules! seq_seed {
    ($name:ident <$($l:lifetime),*> ($($ty:ty),*), |$s:ident, $a:ident| $elem:expr) => {
        struct $name<$($l),*>($($ty),*);
        impl<'de, $($l),*> DeserializeSeed<'de> for $name<$($l),*> {
            type Value = ();
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                d.deserialize_any(self)
            }
        }
        impl<'de, $($l),*> Visitor<'de> for $name<$($l),*> {
            type Value = ();
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array")
            }
            skip_scalars!();
            fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<(), A::Error> {
                Skip(self.0).visit_map(a)
            }
            #[allow(unused_mut)]
            fn visit_seq<A: SeqAccess<'de>>(mut self, mut $a: A) -> Result<(), A::Error> {
                let $s = &mut self;
                loop {
                    $s.0.tick().map_err(A::Error::custom)?;
                    if $elem.is_none() {
                        return Ok(());
                    }
                }
            }
        }
    };
}

// The notebook: nbformat 4 keeps cells at the top; nbformat 3 in worksheets (read only when no
// top-level `cells` came before them).
map_seed!(Top<'w, 'a, 'c>(w: &'w Walk<'a, 'c>), |s, a| {
    let w = s.0;
    each_key(w, a, |k, a| match k {
        "cells" => {
            w.seen_cells.set(true);
            a.next_value_seed(Cells(w)).map(|()| true)
        }
        "worksheets" if !w.seen_cells.get() => a.next_value_seed(Sheets(w)).map(|()| true),
        _ => Ok(false),
    })
});

seq_seed!(Sheets<'w, 'a, 'c>(&'w Walk<'a, 'c>), |s, a| a.next_element_seed(Sheet(s.0))?);

map_seed!(Sheet<'w, 'a, 'c>(w: &'w Walk<'a, 'c>), |s, a| {
    let w = s.0;
    each_key(w, a, |k, a| match k {
        "cells" => a.next_value_seed(Cells(w)).map(|()| true),
        _ => Ok(false),
    })
});

seq_seed!(Cells<'w, 'a, 'c>(&'w Walk<'a, 'c>), |s, a| a.next_element_seed(CellSeed(s.0))?);

/// One cell, held until its end (Jupyter writes `outputs` before `source`), then written.
#[derive(Default)]
struct CellText {
    kind: Option<String>,
    source: Option<String>,
    input: Option<String>,
    outputs: String,
}

struct CellSeed<'w, 'a, 'c>(&'w Walk<'a, 'c>);

impl<'de> DeserializeSeed<'de> for CellSeed<'_, '_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let w = self.0;
        w.left.set(w.out.borrow().room());
        w.cut.set(false);
        let mut cell = CellText::default();
        d.deserialize_any(CellVisitor(w, &mut cell))?;
        w.write(cell);
        Ok(())
    }
}

struct CellVisitor<'w, 'a, 'c, 's>(&'w Walk<'a, 'c>, &'s mut CellText);

impl<'de> Visitor<'de> for CellVisitor<'_, '_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a cell")
    }
    skip_scalars!();
    fn visit_seq<A: SeqAccess<'de>>(self, a: A) -> Result<(), A::Error> {
        Skip(self.0).visit_seq(a)
    }
    fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<(), A::Error> {
        let (w, cell) = (self.0, self.1);
        each_key(w, a, |k, a| {
            let slot = match k {
                "cell_type" => &mut cell.kind,
                "source" => &mut cell.source,
                "input" => &mut cell.input,
                "outputs" => {
                    return a
                        .next_value_seed(OutputList(w, &mut cell.outputs))
                        .map(|()| true)
                }
                _ => return Ok(false),
            };
            let acc = slot.get_or_insert_with(String::new);
            a.next_value_seed(Text(w, acc)).map(|()| true)
        })
    }
}

seq_seed!(OutputList<'w, 'a, 'c, 's>(&'w Walk<'a, 'c>, &'s mut String), |s, a| {
    let mut o = OutputText::default();
    let more = a.next_element_seed(OutputSeed(s.0, &mut o))?;
    if more.is_some() {
        o.render(s.0, s.1);
    }
    more
});

/// One output's fields (nbformat 3 keeps `text/plain`, `text` and images at the top).
#[derive(Default)]
struct OutputText {
    kind: String,
    text: Option<String>,
    ename: String,
    evalue: String,
    plain: Option<String>,
    images: u64,
    /// `data`: absent, an object (its `text/plain`, `text` and image count), or something else.
    data: Option<Data>,
}

fn is_image(k: &str) -> bool {
    k.starts_with("image/") || k == "png" || k == "jpeg"
}

impl OutputText {
    /// Appends this output's text (if any) to `acc`, each on its own lines.
    fn render(self, w: &Walk<'_, '_>, acc: &mut String) {
        let body = match self.kind.as_str() {
            "stream" => self.text.unwrap_or_default(),
            "error" => format!("{}: {}", self.ename, self.evalue),
            _ => {
                let (plain, text, images) = match self.data {
                    Some(d) if d.object => (d.plain, d.text, d.images),
                    Some(_) => (None, None, 0),
                    None => (self.plain, self.text, self.images),
                };
                for _ in 0..images {
                    w.ctx.image();
                }
                plain.or(text).unwrap_or_default()
            }
        };
        if body.is_empty() {
            return;
        }
        acc.push_str(&body);
        if !acc.ends_with('\n') {
            acc.push('\n');
        }
    }
}

map_seed!(OutputSeed<'w, 'a, 'c, 's>(w: &'w Walk<'a, 'c>, o: &'s mut OutputText), |s, a| {
    let (w, o) = (s.0, s.1);
    each_key(w, a, |k, a| {
        if is_image(k) {
            o.images += 1;
        }
        match k {
            "output_type" => a.next_value_seed(Text(w, &mut o.kind)).map(|()| true),
            "text" => {
                let acc = o.text.get_or_insert_with(String::new);
                a.next_value_seed(Text(w, acc)).map(|()| true)
            }
            "ename" => a.next_value_seed(Text(w, &mut o.ename)).map(|()| true),
            "evalue" => a.next_value_seed(Text(w, &mut o.evalue)).map(|()| true),
            "text/plain" => {
                let acc = o.plain.get_or_insert_with(String::new);
                a.next_value_seed(Text(w, acc)).map(|()| true)
            }
            "data" => {
                let mut d = Data::default();
                a.next_value_seed(DataSeed(w, &mut d))?;
                o.data = Some(d);
                Ok(true)
            }
            _ => Ok(false),
        }
    })
});

#[derive(Default)]
struct Data {
    object: bool,
    plain: Option<String>,
    text: Option<String>,
    images: u64,
}

map_seed!(DataSeed<'w, 'a, 'c, 's>(w: &'w Walk<'a, 'c>, d: &'s mut Data), |s, a| {
    let (w, d) = (s.0, s.1);
    d.object = true;
    each_key(w, a, |k, a| {
        if is_image(k) {
            d.images += 1;
        }
        let slot = match k {
            "text/plain" => &mut d.plain,
            "text" => &mut d.text,
            _ => return Ok(false),
        };
        let acc = slot.get_or_insert_with(String::new);
        a.next_value_seed(Text(w, acc)).map(|()| true)
    })
});

impl Walk<'_, '_> {
    /// Writes one cell: its marker and source, then its outputs under their own marker.
    fn write(&self, cell: CellText) {
        let n = self.cells.get() + 1;
        self.cells.set(n);
        let mut out = self.out.borrow_mut();
        let kind = cell.kind.as_deref().unwrap_or("?");
        out.marker_as(&format!("cell {n}"), &format!("cell {n} [{kind}]"));
        out.push(cell.source.or(cell.input).as_deref().unwrap_or(""));
        out.end_line();
        if !cell.outputs.is_empty() {
            out.marker(&format!("cell {n} output"));
            out.push(&cell.outputs);
        }
        if self.cut.get() {
            // A string of the cell was cut at the text bound.
            out.full = true;
        }
        self.ctx.release(self.held.replace(0));
    }
}

pub(crate) fn ipynb(bytes: &[u8], ctx: &Ctx<'_>, out: &mut Out) {
    let w = Walk {
        ctx,
        out: RefCell::new(out),
        cells: Cell::new(0),
        seen_cells: Cell::new(false),
        left: Cell::new(0),
        cut: Cell::new(false),
        held: Cell::new(0),
        ticks: Cell::new(0),
    };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let run = Top(&w).deserialize(&mut de).and_then(|()| de.end());
    if let Err(e) = run {
        // A bound ends the walk with an error of our own: its reason is already recorded.
        if !ctx.stopped() && !w.out.borrow().full {
            ctx.stop(Reason::Malformed(format!("ipynb: {e}")));
        }
    }
}
