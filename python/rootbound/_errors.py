"""The exception classes: one per stable error code of the rootbound contract."""

from __future__ import annotations

from typing import Any, ClassVar, Dict, List, Optional, Type


class Error(Exception):
    """A tool call failed: ``.code`` (a stable code such as ``"NOT_FOUND"``), ``.message`` (written
    for the agent: it names only the agent's own argument) and ``.details`` (extra fields of the
    error object, e.g. ``position`` of an invalid pattern).

    ``Error`` is the base of one subclass per code (``except rootbound.NotFound:``); an error whose
    code this version does not know is raised as ``Error`` itself with its ``code`` set.
    """

    CODE: ClassVar[str] = "ERROR"

    code: str
    message: str
    details: Dict[str, Any]

    def __init__(
        self, message: str, *, code: Optional[str] = None, details: Optional[Dict[str, Any]] = None
    ) -> None:
        super().__init__(message)
        self.code = code or self.CODE
        self.message = message
        self.details = dict(details or {})

    def to_dict(self) -> Dict[str, Any]:
        """The contract's error object: ``{"error": {"code", "message", ...details}}``."""
        body: Dict[str, Any] = {"code": self.code, "message": self.message}
        body.update(self.details)
        return {"error": body}

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in self.details.items())
        return f"{type(self).__name__}({self.message!r}{extra})"


class OutOfSandbox(Error):
    """An escape attempt: ``..`` above a root, an absolute path outside every root, a symlink
    leading out, or no roots configured."""

    CODE = "OUT_OF_SANDBOX"


class NotFound(Error):
    """Nothing exists at the path (in any root); a denied object looks the same where it must."""

    CODE = "NOT_FOUND"


class NotAFile(Error):
    """A directory, FIFO, socket or device where a regular file was needed (or the reverse)."""

    CODE = "NOT_A_FILE"


class Denied(Error):
    """A deny rule matched, a hard link under ``refuse_hardlinks``, or a tool or write the policy
    does not permit (e.g. ``delete_file`` without ``allow_delete``)."""

    CODE = "DENIED"


class PermissionDenied(Error):
    """The operating system refused access (EACCES/EPERM), as opposed to an escape."""

    CODE = "PERMISSION_DENIED"


class InvalidArgument(Error):
    """A malformed argument: NUL byte, empty or over-long path, bad glob, bad cursor, unknown field,
    unknown tool; also bad sandbox settings."""

    CODE = "INVALID_ARGUMENT"


class InvalidPattern(Error):
    """A regular expression that does not parse or uses an unsupported feature; ``.position``."""

    CODE = "INVALID_PATTERN"

    @property
    def position(self) -> Optional[int]:
        """Where in the pattern the problem is, when known."""
        p = self.details.get("position")
        return p if isinstance(p, int) else None


class PatternTooLarge(Error):
    """A regular expression over the size, length or DFA limits."""

    CODE = "PATTERN_TOO_LARGE"


class SymlinkLoop(Error):
    """Too many levels of symbolic links."""

    CODE = "SYMLINK_LOOP"


class AlreadyExists(Error):
    """A write would replace an existing file the call did not ask (or was not allowed) to
    overwrite, or the file changed under an edit."""

    CODE = "ALREADY_EXISTS"


class TooLarge(Error):
    """Content over the write size limit."""

    CODE = "TOO_LARGE"


class IoError(Error):
    """Any other I/O failure."""

    CODE = "IO_ERROR"


class Cancelled(Error):
    """The call's budget was cancelled before it started, or where it cannot return a partial
    result."""

    CODE = "CANCELLED"


class ConfigError(InvalidArgument):
    """A config file (``Sandbox.from_config``) has problems; ``.problems`` lists every one as
    ``{"key", "message"}``."""

    @property
    def problems(self) -> List[Dict[str, str]]:
        """Every problem found, with the key that configured it."""
        p = self.details.get("problems")
        return list(p) if isinstance(p, list) else []


ERRORS: Dict[str, Type[Error]] = {
    c.CODE: c
    for c in (
        OutOfSandbox,
        NotFound,
        NotAFile,
        Denied,
        PermissionDenied,
        InvalidArgument,
        InvalidPattern,
        PatternTooLarge,
        SymlinkLoop,
        AlreadyExists,
        TooLarge,
        IoError,
        Cancelled,
    )
}


def error_from(obj: Dict[str, Any], cls: Optional[Type[Error]] = None) -> Error:
    """The exception for an error object ``{"error": {...}}``."""
    body = obj.get("error") if isinstance(obj.get("error"), dict) else obj
    assert isinstance(body, dict)
    code = str(body.get("code", "IO_ERROR"))
    message = str(body.get("message", ""))
    details = {k: v for k, v in body.items() if k not in ("code", "message")}
    klass = cls or ERRORS.get(code, Error)
    return klass(message, code=code, details=details)
