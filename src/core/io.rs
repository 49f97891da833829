//! Low-level reads of objects the open path returned (any core [`Handle`]): no path is taken here.

use crate::core::error::{Error, ErrorCode, Result};
use crate::core::handle::{self, Handle};

/// Reads up to `len` bytes of an opened file at `offset`, stopping early only at end of file.
pub(crate) fn pread_exact(
    file: &(impl Handle + ?Sized),
    offset: u64,
    len: usize,
) -> Result<Vec<u8>> {
    let fd = handle::fd(file);
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
