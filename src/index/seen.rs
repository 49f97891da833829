//! The keys a scan has seen in its current chunk, and their position masks (`keys::position_bit`),
//! in a fixed amount of memory per reading thread.
//!
//! A bit per key says whether it was seen (a key is added to the chunk's list once). The masks
//! are kept in a table of [`SLOTS`] bytes indexed by a hash of the key, not a byte per key (17
//! MiB per thread, more than a small `index_max_bytes` holds): keys that share a slot share its
//! mask, the OR of theirs. A mask with extra bits prunes less, never wrongly (a key's own bits are
//! always among them), and a chunk's keys are far fewer than the slots.

use super::keys::{Key, KEY_SPACE};

/// Slots of the masks' table.
const SLOTS_LOG: u32 = 21;
const SLOTS: usize = 1 << SLOTS_LOG;

/// Bytes a [`Seen`] holds.
pub(crate) const BYTES: usize = KEY_SPACE / 8 + SLOTS;

/// Keys seen and their masks (see the module).
#[derive(Default)]
pub(crate) struct Seen {
    bits: Vec<u64>,
    masks: Vec<u8>,
}

#[inline]
fn slot(k: Key) -> usize {
    (k.wrapping_mul(0x9E37_79B1) >> (32 - SLOTS_LOG)) as usize
}

impl Seen {
    /// Ready for use (allocated the first time).
    pub fn ready(&mut self) {
        if self.bits.is_empty() {
            self.bits.resize(KEY_SPACE / 64, 0);
            self.masks.resize(SLOTS, 0);
        }
    }

    /// Adds `bits` to `k`'s mask: whether `k` was not seen before.
    #[inline]
    pub fn note(&mut self, k: Key, bits: u8) -> bool {
        self.masks[slot(k)] |= bits;
        let (w, b) = (&mut self.bits[k as usize / 64], 1u64 << (k % 64));
        let new = *w & b == 0;
        *w |= b;
        new
    }

    /// `k`'s mask (with the bits of the keys sharing its slot).
    pub fn mask(&self, k: Key) -> u8 {
        self.masks[slot(k)]
    }

    /// Forgets `keys` (every key noted since the last clear), for the next chunk or scan.
    pub fn clear(&mut self, keys: &[Key]) {
        for &k in keys {
            self.bits[k as usize / 64] = 0;
            self.masks[slot(k)] = 0;
        }
    }
}
