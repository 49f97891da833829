//! A bounded zip reader for Office Open XML packages: the central directory is read (entries capped),
//! an entry is inflated through a reader that charges every byte to the extraction's uncompressed
//! budget, refuses to run past the entry's declared size, and checks the deadline. Only `stored` and
//! `deflate` entries are read; encrypted entries and nested archives are never opened.

use super::{Ctx, Reason};
use flate2::read::DeflateDecoder;
use std::io::{self, Read};

pub(crate) struct Entry {
    pub name: String,
    method: u16,
    flags: u16,
    csize: u64,
    usize_: u64,
    offset: u64,
}

pub(crate) struct Zip<'a> {
    data: &'a [u8],
    pub entries: Vec<Entry>,
}

fn u16_at(b: &[u8], i: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(i..i + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], i: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(i..i + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], i: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(i..i + 8)?.try_into().ok()?))
}

fn bad(what: &str) -> Reason {
    Reason::Malformed(format!("zip: {what}"))
}

impl<'a> Zip<'a> {
    /// Reads the central directory. A directory with more than `max_zip_entries` entries is cut
    /// there (reason `zip_entries`, noted: the entries before the cut are still extracted).
    pub fn open(data: &'a [u8], ctx: &Ctx<'_>) -> Result<Zip<'a>, Reason> {
        let eocd = find_eocd(data).ok_or_else(|| bad("no end of central directory"))?;
        let mut cd_off = u32_at(data, eocd + 16).ok_or_else(|| bad("short"))? as u64;
        let mut cd_size = u32_at(data, eocd + 12).ok_or_else(|| bad("short"))? as u64;
        if cd_off == 0xFFFF_FFFF || cd_size == 0xFFFF_FFFF {
            // Zip64: the locator sits just before the end record.
            let loc = eocd.checked_sub(20).ok_or_else(|| bad("zip64 locator"))?;
            if u32_at(data, loc) != Some(0x0706_4b50) {
                return Err(bad("zip64 locator"));
            }
            let rec = u64_at(data, loc + 8).ok_or_else(|| bad("zip64 locator"))? as usize;
            if u32_at(data, rec) != Some(0x0606_4b50) {
                return Err(bad("zip64 end record"));
            }
            cd_size = u64_at(data, rec + 40).ok_or_else(|| bad("zip64 end record"))?;
            cd_off = u64_at(data, rec + 48).ok_or_else(|| bad("zip64 end record"))?;
        }
        let end = cd_off
            .checked_add(cd_size)
            .filter(|&e| e <= data.len() as u64)
            .ok_or_else(|| bad("central directory out of the file"))?;
        let cd = &data[cd_off as usize..end as usize];
        let mut entries = Vec::new();
        let mut p = 0usize;
        while p + 46 <= cd.len() {
            if u32_at(cd, p) != Some(0x0201_4b50) {
                break;
            }
            if entries.len() >= ctx.limits.max_zip_entries {
                // The entries read so far are still extracted (the main part is usually among the
                // first); the rest of the package is left out, and the result says so.
                ctx.note(Reason::ZipEntries);
                break;
            }
            if ctx.stopped() {
                break;
            }
            let g16 = |i| u16_at(cd, p + i).unwrap_or(0);
            let g32 = |i| u32_at(cd, p + i).unwrap_or(0);
            let (nlen, elen, clen) = (g16(28) as usize, g16(30) as usize, g16(32) as usize);
            let name_b = cd
                .get(p + 46..p + 46 + nlen)
                .ok_or_else(|| bad("entry name"))?;
            let extra = cd.get(p + 46 + nlen..p + 46 + nlen + elen).unwrap_or(&[]);
            let mut e = Entry {
                name: String::from_utf8_lossy(name_b).into_owned(),
                method: g16(10),
                flags: g16(8),
                csize: g32(20) as u64,
                usize_: g32(24) as u64,
                offset: g32(42) as u64,
            };
            zip64_extra(extra, &mut e);
            if !ctx.charge(std::mem::size_of::<Entry>() as u64 + nlen as u64) {
                break;
            }
            entries.push(e);
            p += 46 + nlen + elen + clen;
        }
        Ok(Zip { data, entries })
    }

    pub fn find(&self, name: &str) -> Option<&Entry> {
        let name = name.trim_start_matches('/');
        self.entries.iter().find(|e| e.name == name).or_else(|| {
            self.entries
                .iter()
                .find(|e| e.name.eq_ignore_ascii_case(name))
        })
    }

    /// A bounded reader of entry `name` (`None`: no such entry, or it cannot be read: the reason is
    /// recorded for a damaged or encrypted one).
    pub fn read<'z>(&'z self, name: &str, ctx: &'z Ctx<'z>) -> Option<EntryReader<'z>> {
        let e = self.find(name)?;
        if ctx.stopped() {
            return None;
        }
        if e.flags & 1 != 0 {
            ctx.stop(bad("encrypted entry"));
            return None;
        }
        let lh = e.offset as usize;
        if u32_at(self.data, lh) != Some(0x0403_4b50) {
            ctx.stop(bad("bad local header"));
            return None;
        }
        let nlen = u16_at(self.data, lh + 26)? as usize;
        let elen = u16_at(self.data, lh + 28)? as usize;
        let start = lh.checked_add(30 + nlen + elen)?;
        let end = (start as u64).checked_add(e.csize);
        let Some(body) = end
            .filter(|&end| end <= self.data.len() as u64)
            .map(|end| &self.data[start..end as usize])
        else {
            ctx.stop(bad("entry data out of the file"));
            return None;
        };
        let inner: Box<dyn Read + 'z> = match e.method {
            0 => Box::new(body),
            8 => Box::new(DeflateDecoder::new(body)),
            m => {
                ctx.stop(bad(&format!("compression method {m}")));
                return None;
            }
        };
        Some(EntryReader {
            inner,
            ctx,
            declared: e.usize_,
            got: 0,
            since_check: 0,
        })
    }
}

fn zip64_extra(mut extra: &[u8], e: &mut Entry) {
    while extra.len() >= 4 {
        let id = u16_at(extra, 0).unwrap_or(0);
        let len = u16_at(extra, 2).unwrap_or(0) as usize;
        let body = extra.get(4..4 + len).unwrap_or(&[]);
        if id == 1 {
            let mut i = 0;
            for field in [&mut e.usize_, &mut e.csize, &mut e.offset] {
                if *field == 0xFFFF_FFFF {
                    if let Some(v) = u64_at(body, i) {
                        *field = v;
                        i += 8;
                    }
                }
            }
        }
        extra = extra.get(4 + len..).unwrap_or(&[]);
    }
}

fn find_eocd(data: &[u8]) -> Option<usize> {
    if data.len() < 22 {
        return None;
    }
    let lowest = data.len().saturating_sub(22 + 65_535);
    (lowest..=data.len() - 22)
        .rev()
        .find(|&i| data[i..i + 4] == [0x50, 0x4b, 0x05, 0x06])
}

/// Reads one entry: every byte is charged to the extraction's budget, the entry may not grow past
/// its declared size, and the deadline is checked every 64 KiB. Hitting a bound records the reason
/// and ends the stream with an error.
pub(crate) struct EntryReader<'z> {
    inner: Box<dyn Read + 'z>,
    ctx: &'z Ctx<'z>,
    declared: u64,
    got: u64,
    since_check: usize,
}

impl EntryReader<'_> {
    fn stop(&self, r: Reason) -> io::Result<usize> {
        self.ctx.stop(r);
        Err(io::Error::other("extraction bound"))
    }
}

impl Read for EntryReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ctx.stopped() || buf.is_empty() {
            return if buf.is_empty() {
                Ok(0)
            } else {
                Err(io::Error::other("extraction stopped"))
            };
        }
        let left = self.ctx.remaining.get();
        // Never decompress more than the budget (or the declared size) allows, plus one byte to
        // notice an entry that lies about its size or a budget that is spent.
        let room = left.min(self.declared.saturating_sub(self.got)) + 1;
        let want = buf.len().min(room.min(usize::MAX as u64) as usize);
        let n = self.inner.read(&mut buf[..want])?;
        self.got += n as u64;
        if self.got > self.declared {
            return self.stop(bad("entry larger than its declared size"));
        }
        if n as u64 > left {
            return self.stop(Reason::UncompressedBytes);
        }
        self.ctx.remaining.set(left - n as u64);
        self.since_check += n;
        if self.since_check >= 64 * 1024 {
            self.since_check = 0;
            if self.ctx.stopped() {
                return Err(io::Error::other("extraction stopped"));
            }
        }
        Ok(n)
    }
}
