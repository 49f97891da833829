//! Typed errors with stable codes: the part of the API an agent sees when a call fails.

use serde_json::{json, Value};
use std::fmt;

/// The stable error codes of the tool contract: the `code` of every error result, listed with what
/// an agent should do next in README.md ("Error codes" under "The tools").
///
/// The string form ([`ErrorCode::as_str`]) never changes between releases; agents and tests match on it.
///
/// ```
/// use rootbound::ErrorCode;
/// assert_eq!(ErrorCode::OutOfSandbox.as_str(), "OUT_OF_SANDBOX");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// An escape attempt, an absolute path outside every root, a symlink leading out, or no roots at all.
    OutOfSandbox,
    /// Nothing exists at the path (in any root).
    NotFound,
    /// The path names a directory, FIFO, socket or device where a regular file was needed (or the reverse).
    NotAFile,
    /// A deny rule of the policy matched the object.
    Denied,
    /// The operating system refused access (EACCES/EPERM), as opposed to an escape.
    PermissionDenied,
    /// A malformed argument: NUL byte, empty or over-long path, bad glob, bad cursor, unknown field.
    InvalidArgument,
    /// A regular expression that does not parse (or uses an unsupported feature).
    InvalidPattern,
    /// A regular expression over the size, length or DFA limits.
    PatternTooLarge,
    /// Too many levels of symbolic links.
    SymlinkLoop,
    /// The write would replace an existing file that the call did not ask to overwrite.
    AlreadyExists,
    /// Content over the write size limit.
    TooLarge,
    /// Any other I/O failure.
    IoError,
    /// The caller cancelled the call's [`crate::Budget`] (before it started, or where it cannot return
    /// a partial result).
    Cancelled,
}

impl ErrorCode {
    /// The stable string form, e.g. `"NOT_FOUND"`.
    ///
    /// ```
    /// assert_eq!(rootbound::ErrorCode::SymlinkLoop.as_str(), "SYMLINK_LOOP");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::OutOfSandbox => "OUT_OF_SANDBOX",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::NotAFile => "NOT_A_FILE",
            ErrorCode::Denied => "DENIED",
            ErrorCode::PermissionDenied => "PERMISSION_DENIED",
            ErrorCode::InvalidArgument => "INVALID_ARGUMENT",
            ErrorCode::InvalidPattern => "INVALID_PATTERN",
            ErrorCode::PatternTooLarge => "PATTERN_TOO_LARGE",
            ErrorCode::SymlinkLoop => "SYMLINK_LOOP",
            ErrorCode::AlreadyExists => "ALREADY_EXISTS",
            ErrorCode::TooLarge => "TOO_LARGE",
            ErrorCode::IoError => "IO_ERROR",
            ErrorCode::Cancelled => "CANCELLED",
        }
    }

    /// Every code, in documentation order.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::OutOfSandbox,
        ErrorCode::NotFound,
        ErrorCode::NotAFile,
        ErrorCode::Denied,
        ErrorCode::PermissionDenied,
        ErrorCode::InvalidArgument,
        ErrorCode::InvalidPattern,
        ErrorCode::PatternTooLarge,
        ErrorCode::SymlinkLoop,
        ErrorCode::AlreadyExists,
        ErrorCode::TooLarge,
        ErrorCode::IoError,
        ErrorCode::Cancelled,
    ];
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A tool failure: a stable [`ErrorCode`], a message for the agent, and optional structured hints.
///
/// Messages name only what the agent gave (its own argument) and never a host path it did not give.
///
/// ```
/// use rootbound::{Error, ErrorCode};
/// let e = Error::new(ErrorCode::NotFound, "no file 'a.txt' in any root");
/// assert_eq!(e.to_json()["error"]["code"], "NOT_FOUND");
/// ```
#[derive(Debug, Clone, thiserror::Error)]
#[error("{code}: {message}")]
pub struct Error {
    /// The stable code.
    pub code: ErrorCode,
    /// What went wrong and what to do next.
    pub message: String,
    /// Extra structured fields merged into the error object (e.g. `position` for a pattern error).
    pub details: Option<serde_json::Map<String, Value>>,
}

impl Error {
    /// A new error with a code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
            details: None,
        }
    }

    /// Adds a structured detail field.
    pub fn with_detail(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.details
            .get_or_insert_with(Default::default)
            .insert(key.to_string(), value.into());
        self
    }

    /// The JSON shape of the contract: `{"error": {"code", "message", ...details}}`.
    pub fn to_json(&self) -> Value {
        let mut obj = serde_json::Map::new();
        obj.insert("code".into(), json!(self.code.as_str()));
        obj.insert("message".into(), json!(self.message));
        if let Some(d) = &self.details {
            for (k, v) in d {
                obj.insert(k.clone(), v.clone());
            }
        }
        json!({ "error": Value::Object(obj) })
    }

    /// The call's budget was cancelled.
    pub(crate) fn cancelled() -> Self {
        Error::new(ErrorCode::Cancelled, "the call was cancelled by its caller")
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        Error::new(ErrorCode::InvalidArgument, message)
    }

    /// Maps an OS error from opening `shown` (the agent's own spelling) to a contract error.
    pub(crate) fn from_os(err: &std::io::Error, shown: &str) -> Self {
        use crate::core::sys::Errno;
        let errno = err.raw_os_error().map(Errno::from_raw_os_error);
        let (code, what) = match errno {
            Some(Errno::NOENT) => (ErrorCode::NotFound, "does not exist in any root"),
            Some(Errno::XDEV) => (ErrorCode::OutOfSandbox, "leads outside the sandbox roots"),
            Some(Errno::LOOP) => (
                ErrorCode::SymlinkLoop,
                "has too many levels of symbolic links",
            ),
            Some(Errno::ACCESS) | Some(Errno::PERM) => (
                ErrorCode::PermissionDenied,
                "exists but the operating system refused access",
            ),
            Some(Errno::NOTDIR) => (ErrorCode::NotAFile, "uses a file as if it were a directory"),
            Some(Errno::ISDIR) => (ErrorCode::NotAFile, "is a directory"),
            Some(Errno::NXIO) | Some(Errno::NODEV) | Some(Errno::OPNOTSUPP) => {
                (ErrorCode::NotAFile, "is not a regular file")
            }
            Some(Errno::NAMETOOLONG) => (ErrorCode::InvalidArgument, "is too long"),
            None if err.kind() == std::io::ErrorKind::PermissionDenied => {
                // cap-std reports an escape as PermissionDenied with no OS code.
                (ErrorCode::OutOfSandbox, "leads outside the sandbox roots")
            }
            _ => (ErrorCode::IoError, "could not be read"),
        };
        let msg = if code == ErrorCode::IoError {
            format!("'{shown}' {what}: {}", io_kind(err))
        } else {
            format!("'{shown}' {what}")
        };
        Error::new(code, msg)
    }

    /// Maps a failed call of core's syscall layer on what the agent spelled `shown` to a contract
    /// error: the code and message come from its errno alone (as [`Error::from_os`]), so the
    /// call's own names never reach the agent.
    pub(crate) fn from_sys(err: &crate::core::sys::SysError, shown: &str) -> Self {
        Self::from_os(&err.to_io(), shown)
    }
}

/// An OS error's description without any path in it.
fn io_kind(err: &std::io::Error) -> String {
    match err.raw_os_error() {
        Some(n) => crate::core::sys::Errno::from_raw_os_error(n).to_string(),
        None => format!("{:?}", err.kind()),
    }
}

/// Shorthand for results of the crate.
pub type Result<T> = std::result::Result<T, Error>;
