//! Low-level reads on descriptors the open path returned: no path is taken here.

use crate::core::error::{Error, ErrorCode, Result};
use std::os::fd::OwnedFd;

/// Reads up to `len` bytes at `offset`, stopping early only at end of file.
pub(crate) fn pread_exact(fd: &OwnedFd, offset: u64, len: usize) -> Result<Vec<u8>> {
    let mut buf = vec![0u8; len];
    let mut got = 0;
    while got < len {
        match crate::core::sys::pread(fd, &mut buf[got..], offset + got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) => {
                let e = e.reason();
                return Err(Error::new(ErrorCode::IoError, format!("read failed: {e}")));
            }
        }
    }
    buf.truncate(got);
    Ok(buf)
}
