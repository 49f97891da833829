//! Short posting lists while a root is built: blocks of a few large slabs, not one allocation each.
//!
//! A build's reading threads hold hundreds of thousands of lists each (on the Linux tree about
//! 345,000, 70% of them of at most [`SHORT`] bytes), and with an allocation per list, letting go
//! of a dropped build's lists took most of the time its threads needed to end (BENCHMARKS.md, "a
//! drop at the end of the build's reading"). A block is a power of two from 8 to [`SHORT`] bytes;
//! one outgrown goes on its size's free list, for the next list that grows into that size.
//!
//! A slab is let go only whole. A list that grows leaves its outgrown blocks on the free lists,
//! used again by lists growing through those sizes; when lists grow at one pace (every file with
//! the same trigrams, as a tree an agent wrote can be) none is left to use them, so once the free
//! blocks pass a quarter of the bytes in use (and a slab), the blocks in use move to new slabs and
//! the old ones go ([`Arena::begin_compaction`]). 64 bytes rather than 256 keeps each list's
//! blocks few, and still ended a drop in ~75 ms rather than ~130.

use super::budget::Budget;

/// The longest list a block holds; a longer one moves to a buffer of its own.
pub(super) const SHORT: usize = 64;

/// Block sizes: 8, 16, 32, [`SHORT`].
const SIZES: usize = 4;
const _: () = assert!(8 << (SIZES - 1) == SHORT);

/// The first slab's bytes (a small build takes little of its budget); each next one doubles, up to
/// [`SLAB_MOST`].
const SLAB_FIRST: usize = 4 << 10;
const SLAB_MOST: usize = 256 << 10;

// A block's offset fits in its 24 bits.
const _: () = assert!(SLAB_MOST <= 1 << 24);

/// A block: its slab, and its offset there (the low 24 bits) with its size (`8 << size`, the high
/// 8), packed so that a posting table's slot stays small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Block {
    slab: u32,
    off_size: u32,
}

impl Block {
    fn new(slab: u32, off: u32, size: u8) -> Block {
        Block {
            slab,
            off_size: off | (size as u32) << 24,
        }
    }

    fn off(self) -> usize {
        (self.off_size & 0xff_ffff) as usize
    }

    fn size(self) -> usize {
        (self.off_size >> 24) as usize
    }

    /// Bytes the block holds.
    pub fn len(self) -> usize {
        8 << self.size()
    }
}

/// The blocks' slabs, and the blocks let go, per size.
#[derive(Default)]
pub(super) struct Arena {
    slabs: Vec<Box<[u8]>>,
    /// Bytes of the last slab handed out.
    top: usize,
    /// The first free block of each size; each free block's first 8 bytes name the next one.
    free: [Option<(u32, u32)>; SIZES],
    /// Bytes of the slabs.
    bytes: usize,
    /// Bytes of the blocks handed out and not let go, and of those on the free lists.
    in_use: usize,
    free_bytes: usize,
}

/// Free blocks past which, once they are over a quarter of the bytes in use, the arena is worth
/// compacting ([`Arena::wasteful`]).
const WASTE_MIN: usize = SLAB_MOST;

impl Arena {
    /// Bytes of the slabs, all taken from the budget they were made under.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// A block of at least `need` bytes (at most [`SHORT`]), a new slab's bytes taken from
    /// `budget` before it is allocated; `None` when it does not fit.
    pub fn alloc(&mut self, need: usize, budget: &Budget) -> Option<Block> {
        let size = need
            .max(8)
            .next_power_of_two()
            .trailing_zeros()
            .checked_sub(3)? as u8;
        let s = size as usize;
        if s >= SIZES {
            return None;
        }
        if let Some((slab, off)) = self.free[s] {
            let b = Block::new(slab, off, size);
            let next = self.get(b, 8);
            let word =
                |i: usize| u32::from_le_bytes([next[i], next[i + 1], next[i + 2], next[i + 3]]);
            self.free[s] = Some((word(0), word(4))).filter(|n| n.0 != u32::MAX);
            self.free_bytes -= b.len();
            self.in_use += b.len();
            return Some(b);
        }
        let len = 8 << s;
        if self
            .slabs
            .last()
            .is_none_or(|slab| self.top + len > slab.len())
        {
            let want = self
                .slabs
                .last()
                .map_or(SLAB_FIRST, |slab| (slab.len() * 2).min(SLAB_MOST));
            if self.slabs.len() >= u32::MAX as usize || !budget.take(want) {
                return None;
            }
            self.slabs.push(vec![0; want].into_boxed_slice());
            (self.bytes, self.top) = (self.bytes + want, 0);
        }
        let b = Block::new((self.slabs.len() - 1) as u32, self.top as u32, size);
        self.top += len;
        self.in_use += len;
        Some(b)
    }

    /// Puts `b` on its size's free list.
    pub fn release(&mut self, b: Block) {
        let (slab, off) = self.free[b.size()].unwrap_or((u32::MAX, u32::MAX));
        let head = self.get_mut(b, 8);
        head[..4].copy_from_slice(&slab.to_le_bytes());
        head[4..].copy_from_slice(&off.to_le_bytes());
        self.free[b.size()] = Some((b.slab, b.off() as u32));
        self.in_use -= b.len();
        self.free_bytes += b.len();
    }

    /// The block sizes, largest first.
    pub fn sizes_largest_first() -> impl Iterator<Item = usize> {
        (0..SIZES).rev().map(|s| 8 << s)
    }

    /// Whether the free blocks are many enough to be worth moving the blocks in use to new slabs
    /// and letting the old ones go: lists that grow at one pace leave their outgrown blocks behind
    /// with no list left to grow into them (up to 120 bytes a list that grew long).
    pub fn wasteful(&self) -> bool {
        self.free_bytes >= WASTE_MIN && self.free_bytes > self.in_use / 4
    }

    /// Starts moving the blocks in use to new slabs ([`Arena::alloc`] makes them from here on):
    /// the free lists are forgotten. Returns the first new slab, for [`Arena::end_compaction`].
    pub fn begin_compaction(&mut self) -> usize {
        self.free = [None; SIZES];
        (self.in_use, self.free_bytes) = (0, 0);
        self.top = self.slabs.last().map_or(0, |s| s.len());
        self.slabs.len()
    }

    /// Lets go of the slabs before `first` once every block in use was moved out of them; the
    /// bytes let go, to give back to the budget they were taken from.
    pub fn end_compaction(&mut self, first: usize) -> usize {
        let gone: usize = self.slabs[..first].iter().map(|s| s.len()).sum();
        // Emptied in place: the blocks in the new slabs name them by index.
        self.slabs[..first]
            .iter_mut()
            .for_each(|s| *s = Box::default());
        self.bytes -= gone;
        gone
    }

    /// Gives up a compaction that could not move every block (no room for a new slab): the old
    /// slabs stay, and every byte counts as in use, so it is not tried again at once.
    pub fn abandon_compaction(&mut self) {
        (self.in_use, self.free_bytes) = (self.bytes, 0);
    }

    /// The first `len` bytes of `b`.
    pub fn get(&self, b: Block, len: usize) -> &[u8] {
        let at = b.off();
        &self.slabs[b.slab as usize][at..at + len.min(b.len())]
    }

    /// The first `len` bytes of `b`, to write.
    pub fn get_mut(&mut self, b: Block, len: usize) -> &mut [u8] {
        let at = b.off();
        &mut self.slabs[b.slab as usize][at..at + len.min(b.len())]
    }

    /// Copies the first `len` bytes of `from` to `to`.
    pub fn copy(&mut self, from: Block, to: Block, len: usize) {
        let mut held = [0u8; SHORT];
        let n = len.min(from.len()).min(to.len());
        held[..n].copy_from_slice(self.get(from, n));
        self.get_mut(to, n).copy_from_slice(&held[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks do not overlap, hold what was written, and a block let go is handed out again for
    /// its size; slabs are taken from the budget and grow from 4 KiB.
    #[test]
    fn blocks_hold_their_bytes_and_are_reused_by_size() {
        let (mut a, all) = (Arena::default(), Budget::new(usize::MAX));
        let blocks: Vec<Block> = (0..2000)
            .map(|i| a.alloc(1 + i % SHORT, &all).unwrap())
            .collect();
        for (i, &b) in blocks.iter().enumerate() {
            assert!(b.len() > i % SHORT);
            a.get_mut(b, b.len()).fill(i as u8);
        }
        for (i, &b) in blocks.iter().enumerate() {
            assert!(a.get(b, b.len()).iter().all(|&x| x == i as u8), "block {i}");
        }
        assert_eq!(all.used(), a.bytes());
        assert_eq!(a.slabs[0].len(), SLAB_FIRST);
        let (b16, b64) = (blocks[9], blocks[40]);
        a.release(b16);
        a.release(b64);
        assert_eq!(a.alloc(12, &all), Some(b16));
        assert_eq!(a.alloc(64, &all), Some(b64));
        assert_ne!(a.alloc(64, &all), Some(b64));
        assert_eq!(a.alloc(SHORT + 1, &all), None);
    }

    /// A slab that does not fit in the budget is not made.
    #[test]
    fn a_slab_past_the_budget_is_refused() {
        let (mut a, tight) = (Arena::default(), Budget::new(SLAB_FIRST - 1));
        assert_eq!(a.alloc(8, &tight), None);
        assert_eq!((tight.used(), a.bytes()), (0, 0));
    }
}
