//! The keys the index records for a text, and the keys every match of a non-ASCII class holds.
//!
//! A text's keys are its byte trigrams plus two kinds of pseudo-key for bytes of 0x80 and above,
//! which make searches for non-ASCII characters prunable even when they are shorter than a
//! trigram (`é`, `\p{Greek}`, `[^\x00-\x7F]`):
//! - a *pair* key for every adjacent byte pair whose first byte is >= 0x80 (the first two bytes of
//!   a multi-byte UTF-8 character: its lead byte and the continuation that says which block it is
//!   in), `PSEUDO | b0 << 8 | b1`, at least `PSEUDO + 0x8000`;
//! - a *byte* key for every byte >= 0x80 (a character's lead byte, or a Latin-1 byte), `PSEUDO |
//!   b`, from `PSEUDO + 0x80` to `PSEUDO + 0xFF`.
//!
//! Trigrams are below 2^24 = `PSEUDO`, so no key of one kind equals one of another, and all keys
//! are below [`KEY_SPACE`]. [`keys_at`] is the one definition: the build's scan, the description
//! of a changed file and the tests' evaluator all call it at every position of a text, the last
//! two included (where no trigram starts), so a file of one or two bytes has its keys too.
//!
//! Soundness rests on one fact: the keys of a string are among the keys of every text that holds
//! it (each key is a run of the string's own adjacent bytes), so a query that requires the keys
//! of a string every match holds is satisfied by every text with a match.

use regex_syntax::hir::Class;
use std::collections::BTreeSet;

/// A key: a byte trigram (`b0 << 16 | b1 << 8 | b2`) or a pseudo-key (above).
pub type Key = u32;

/// Where pseudo-keys start: above every trigram.
const PSEUDO: Key = 1 << 24;

/// Every key is below this (the scan's bitmap of keys seen has this many bits).
pub(crate) const KEY_SPACE: usize = (PSEUDO as usize) + (1 << 16);

/// A class's pair keys of one lead byte are replaced by the lead's byte key past this many.
const PER_LEAD: usize = 8;
/// A class needing more keys than this requires one of its lead bytes' keys instead.
const MAX_KEYS: usize = 64;

/// The trigram of three bytes.
pub fn trigram(b: &[u8]) -> Key {
    (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32
}

fn pair_key(b0: u8, b1: u8) -> Key {
    PSEUDO | (b0 as u32) << 8 | b1 as u32
}

fn byte_key(b: u8) -> Key {
    PSEUDO | b as u32
}

/// Hands `f` the keys starting at `w[0]`, given the bytes from there to at most two further (`w`
/// shorter than 3 bytes at a text's end): the trigram, and for a byte >= 0x80 its byte key and
/// its pair key with the next byte.
#[inline]
pub(crate) fn keys_at<E>(w: &[u8], mut f: impl FnMut(Key) -> Result<(), E>) -> Result<(), E> {
    if w.len() >= 3 {
        f(trigram(w))?;
    }
    if w[0] >= 0x80 {
        f(byte_key(w[0]))?;
        if w.len() >= 2 {
            f(pair_key(w[0], w[1]))?;
        }
    }
    Ok(())
}

/// A key's position mask: bit `o % 8` for every offset `o` in the file (not in its chunk, so
/// the masks of a file's chunks together are the whole file's) where the key starts. A string's
/// trigrams lie at consecutive offsets, so a text holding the string has masks that agree
/// (`query::seq_holds`); trigrams found apart usually do not.
#[inline]
pub(crate) fn position_bit(offset: u64) -> u8 {
    1 << (offset % 8)
}

/// A unit's distinct keys, sorted, each with its position mask (`masks[i]` is `keys[i]`'s).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct UnitKeys {
    pub keys: Vec<Key>,
    pub masks: Vec<u8>,
}

impl UnitKeys {
    /// The position mask of `k` (0: absent).
    pub fn mask(&self, k: Key) -> u8 {
        match self.keys.binary_search(&k) {
            Ok(i) => self.masks.get(i).copied().unwrap_or(0),
            Err(_) => 0,
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.keys.capacity() * std::mem::size_of::<Key>() + self.masks.capacity()
    }

    /// The keys of `units` (parts of one file, as masks are by file offsets) together: each
    /// key once, its masks ORed.
    pub fn union(units: Vec<UnitKeys>) -> UnitKeys {
        if units.len() == 1 {
            return units.into_iter().next().unwrap_or_default();
        }
        let all = (units.into_iter())
            .flat_map(|u| u.keys.into_iter().zip(u.masks))
            .collect();
        UnitKeys::from_pairs(all)
    }

    /// Keys with masks, in any order and repeated: each key once, its masks ORed.
    fn from_pairs(mut v: Vec<(Key, u8)>) -> UnitKeys {
        v.sort_unstable_by_key(|p| p.0);
        let mut out = UnitKeys::default();
        for (k, m) in v {
            match out.masks.last_mut() {
                Some(l) if out.keys.last() == Some(&k) => *l |= m,
                _ => {
                    out.keys.push(k);
                    out.masks.push(m);
                }
            }
        }
        out
    }
}

/// Every key of `text` starting at file offset `base`, with its position mask (what the scan
/// records for a unit of one file at `base`; the tests' evaluator).
#[cfg(test)]
pub fn unit_keys(text: &[u8], base: u64) -> UnitKeys {
    let mut v: Vec<(Key, u8)> = Vec::new();
    for i in 0..text.len() {
        let bit = position_bit(base + i as u64);
        let _ = keys_at(&text[i..(i + 3).min(text.len())], |k| {
            v.push((k, bit));
            Ok::<(), ()>(())
        });
    }
    UnitKeys::from_pairs(v)
}

/// Every key of `text`, sorted and deduplicated (what the scan records for a text of one chunk).
pub fn text_keys(text: &[u8]) -> Vec<Key> {
    let mut v = Vec::new();
    for i in 0..text.len() {
        let _ = keys_at(&text[i..(i + 3).min(text.len())], |k| {
            v.push(k);
            Ok::<(), ()>(())
        });
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// The keys a query requires of a text holding `s`: its trigrams, or for a string shorter than a
/// trigram its pseudo-keys (none for ASCII: then nothing is required).
pub(crate) fn required(s: &[u8]) -> Vec<Key> {
    if s.len() >= 3 {
        s.windows(3).map(trigram).collect()
    } else {
        text_keys(s)
    }
}

/// For a class too large to list (see `query::class_strings`) whose members are all non-ASCII:
/// keys of which every match holds one. A match of a Unicode class is the UTF-8 encoding of one
/// member (the matcher matches no other bytes), so it starts with one of the lead byte pairs of
/// the class's UTF-8 sequences; a match of a byte class (Unicode off) is one of its bytes. A
/// lead with many pairs stands for them by its byte key, and a class with too many keys by its
/// lead bytes' keys alone (weaker, still sound). `None`: some member is ASCII (no key).
pub(crate) fn class_keys(c: &Class) -> Option<Vec<Key>> {
    // Lead byte -> the second bytes following it (none for a one-byte match).
    let mut leads: std::collections::BTreeMap<u8, BTreeSet<u8>> = Default::default();
    match c {
        Class::Unicode(u) => {
            for r in u.iter() {
                for seq in regex_syntax::utf8::Utf8Sequences::new(r.start(), r.end()) {
                    let s = seq.as_slice();
                    if s.len() < 2 || s[0].start < 0x80 {
                        return None;
                    }
                    for b0 in s[0].start..=s[0].end {
                        leads.entry(b0).or_default().extend(s[1].start..=s[1].end);
                    }
                }
            }
        }
        Class::Bytes(b) => {
            for r in b.iter() {
                if r.start() < 0x80 {
                    return None;
                }
                for b0 in r.start()..=r.end() {
                    leads.entry(b0).or_default();
                }
            }
        }
    }
    let mut keys = Vec::new();
    for (&b0, seconds) in &leads {
        if seconds.is_empty() || seconds.len() > PER_LEAD {
            keys.push(byte_key(b0));
        } else {
            keys.extend(seconds.iter().map(|&b1| pair_key(b0, b1)));
        }
    }
    if keys.len() > MAX_KEYS {
        keys = leads.keys().map(|&b0| byte_key(b0)).collect();
    }
    Some(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_short_and_non_ascii_texts() {
        // ASCII: trigrams only; nothing for a text shorter than 3 bytes.
        assert_eq!(text_keys(b"abcd"), vec![trigram(b"abc"), trigram(b"bcd")]);
        assert!(text_keys(b"ab").is_empty());
        // `é` alone (two bytes): its lead's byte key, the pair, the continuation's byte key.
        assert_eq!(
            text_keys("é".as_bytes()),
            vec![byte_key(0xA9), byte_key(0xC3), pair_key(0xC3, 0xA9)]
        );
        // A Latin-1 byte at a text's end.
        assert!(text_keys(b"ab\xE9").contains(&byte_key(0xE9)));
        // Kinds never collide, and all lie in the key space.
        let all = text_keys("\u{10FFFF}\u{FF}\x7F\u{80}".as_bytes());
        assert!(all.iter().all(|&k| (k as usize) < KEY_SPACE));
        assert!(pair_key(0x80, 0) > byte_key(0xFF));
    }
}
