"""rootbound: root-bound, in-process file tools for LLM agents.

``read_file``, ``grep_search``, ``glob``, ``list_dir``, ``stat`` and the everyday tools, confined to
directories the operator chose: every open goes through a directory handle (``openat2`` with
``RESOLVE_BENEATH`` on Linux), deny rules hold for every spelling and alias, every call is bounded.

>>> import rootbound
>>> sb = rootbound.Sandbox("/srv/project", deny=[".env", ".git/"])      # doctest: +SKIP
>>> page = sb.grep_search("mutex_lock", include="*.c", limit=20)       # doctest: +SKIP
>>> sb.call("read_file", {"path": "../etc/passwd"})["error"]["code"]   # doctest: +SKIP
'OUT_OF_SANDBOX'
"""

from __future__ import annotations

from typing import Dict, List

from . import _rootbound
from ._errors import (
    AlreadyExists,
    Cancelled,
    ConfigError,
    Denied,
    Error,
    InvalidArgument,
    InvalidPattern,
    IoError,
    NotAFile,
    NotFound,
    OutOfSandbox,
    PatternTooLarge,
    PermissionDenied,
    SymlinkLoop,
    TooLarge,
    ERRORS,
)
from ._results import (
    EditResult,
    Entry,
    FileCount,
    FsOpResult,
    GrepResult,
    Hit,
    ListResult,
    ManyFile,
    MediaResult,
    ReadManyResult,
    ReadResult,
    Result,
    RootEntry,
    RootsResult,
    Skipped,
    StatResult,
    Stats,
    TreeResult,
    WriteResult,
)
from ._sandbox import Budget, Sandbox

__version__: str = _rootbound.__version__

#: The limit settings ``Sandbox(...)`` takes as keyword arguments, with their defaults.
LIMITS: Dict[str, int] = {
    k: v for k, v in __import__("json").loads(_rootbound.default_limits()).items()
}

#: Every error code the library can return, in documentation order.
ERROR_CODES: List[str] = list(_rootbound.error_codes())

#: Every dialect ``Sandbox.tools(profile=...)`` and ``Sandbox.call(profile=...)`` accept.
PROFILES: List[str] = list(_rootbound.profile_names())

# An error code newer than this module still gets a class of its own.
for _code in ERROR_CODES:
    if _code not in ERRORS:
        _name = "".join(p.capitalize() for p in _code.split("_"))
        ERRORS[_code] = type(_name, (Error,), {"CODE": _code, "__doc__": f"Error code {_code}."})
        globals()[_name] = ERRORS[_code]

__all__ = [
    "Sandbox",
    "Budget",
    "Error",
    "OutOfSandbox",
    "NotFound",
    "NotAFile",
    "Denied",
    "PermissionDenied",
    "InvalidArgument",
    "InvalidPattern",
    "PatternTooLarge",
    "SymlinkLoop",
    "AlreadyExists",
    "TooLarge",
    "IoError",
    "Cancelled",
    "ConfigError",
    "Result",
    "GrepResult",
    "Hit",
    "FileCount",
    "Stats",
    "Skipped",
    "ReadResult",
    "ListResult",
    "Entry",
    "StatResult",
    "ReadManyResult",
    "ManyFile",
    "TreeResult",
    "RootsResult",
    "RootEntry",
    "MediaResult",
    "WriteResult",
    "EditResult",
    "FsOpResult",
    "LIMITS",
    "ERROR_CODES",
    "PROFILES",
]
