//! Deterministic test data: one xorshift generator, and the texts the tests build from it.
#![allow(dead_code)]

use std::path::Path;

/// Marsaglia's xorshift64: the same numbers on every run and machine, no dependency.
pub struct XorShift(u64);

impl XorShift {
    /// A generator from `seed` (a zero seed would stay zero: it is replaced).
    pub fn new(seed: u64) -> XorShift {
        XorShift(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

impl Default for XorShift {
    fn default() -> XorShift {
        XorShift::new(0x9E37_79B9_7F4A_7C15)
    }
}

/// A regex whose scan costs microseconds per byte over [`letters`]: the lazy DFA gives up on it
/// and the scan falls back to the PikeVM, which checks no deadline until it returns.
pub const SLOW: &str = "(?:a|b)[a-j]{500}(?:c|d)z";

/// `len` bytes of pseudo-random `[a-j]` with a newline every `line` bytes (0: none).
pub fn letters(rng: &mut XorShift, len: usize, line: usize) -> Vec<u8> {
    (0..len)
        .map(|j| {
            let x = rng.next_u64();
            if line > 0 && j % line == line - 1 {
                b'\n'
            } else {
                b'a' + (x % 10) as u8
            }
        })
        .collect()
}

/// `files` files `slow{i}.txt` (`{i}` padded to `pad` digits) of `len` bytes of [`letters`] in
/// lines of 1,000 under `dir`: against [`SLOW`], tens of milliseconds (64 KiB) to seconds
/// (256 KiB) of work each.
pub fn slow_files(dir: &Path, files: usize, len: usize, pad: usize) {
    std::fs::create_dir_all(dir).unwrap();
    let mut rng = XorShift::default();
    for i in 0..files {
        let name = format!("slow{i:0pad$}.txt");
        std::fs::write(dir.join(name), letters(&mut rng, len, 1000)).unwrap();
    }
}

/// `n` random bytes without NUL: millions of distinct trigrams.
pub fn noise(rng: &mut XorShift, n: usize) -> Vec<u8> {
    (0..n).map(|_| (rng.next_u64() as u8).max(1)).collect()
}
