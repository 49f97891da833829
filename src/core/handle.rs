//! What the layers above hold of an object core opened: a handle (`Opened`, an `Admitted` one,
//! a walk's `DirFd`) that they hand to core's functions (`io::pread_exact`, `dirs::stat_fd`,
//! `dirs::stat_entry`, `open::open_for_rules`...), never a descriptor. The descriptor inside is
//! core's alone: [`Handle`]'s one method takes a [`Key`] that only this module makes, so the
//! compiler keeps every layer above from reaching it, and `tests/gate/layout.rs` keeps raw
//! descriptor types out of their text.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

/// Proof that core is asking for a descriptor: only [`fd`] makes one.
pub(crate) struct Key(());

/// An open object whose descriptor only core reaches (through [`fd`]).
pub(crate) trait Handle {
    /// The object's descriptor. Callable only with a [`Key`], that is from core's [`fd`].
    fn descriptor(&self, key: Key) -> BorrowedFd<'_>;
}

/// The descriptor of `h`, for core's own calls.
pub(in crate::core) fn fd<H: Handle + ?Sized>(h: &H) -> BorrowedFd<'_> {
    h.descriptor(Key(()))
}

impl Handle for OwnedFd {
    fn descriptor(&self, _: Key) -> BorrowedFd<'_> {
        self.as_fd()
    }
}

impl Handle for crate::core::sys::File {
    fn descriptor(&self, _: Key) -> BorrowedFd<'_> {
        self.as_fd()
    }
}

impl Handle for BorrowedFd<'_> {
    fn descriptor(&self, _: Key) -> BorrowedFd<'_> {
        self.as_fd()
    }
}
