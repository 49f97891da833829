"""The ``Sandbox`` class: one method per tool over the native core."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from typing import (
    Any,
    Awaitable,
    Callable,
    Dict,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    TypeVar,
    Union,
)

from . import _rootbound
from ._errors import ERRORS, ConfigError, Error, error_from
from ._results import (
    EditResult,
    FsOpResult,
    GrepResult,
    Hit,
    ListResult,
    MediaResult,
    ReadManyResult,
    ReadResult,
    Result,
    RootsResult,
    StatResult,
    TreeResult,
    WriteResult,
)

Budget = _rootbound.Budget

StrPath = Union[str, "os.PathLike[str]"]
Roots = Union[StrPath, Sequence[StrPath], Mapping[str, StrPath]]
Globs = Union[str, Sequence[str]]
R = TypeVar("R", bound=Result)

_MAIN = threading.main_thread()
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_loads = json.loads


def _native(e: Exception) -> Error:
    code, message, details = e.args
    if code == "INVALID_ARGUMENT" and "problems" in (details or ""):
        return ConfigError(message, code=code, details=json.loads(details))
    return ERRORS.get(code, Error)(message, code=code, details=json.loads(details))


def _args(local: Dict[str, Any]) -> Dict[str, Any]:
    """The JSON arguments of a tool method: its keyword arguments that are not None."""
    local.pop("self", None)
    local.pop("budget", None)
    return {k: v for k, v in local.items() if v is not None}


def _roots(roots: Roots) -> List[Dict[str, str]]:
    if isinstance(roots, Mapping):
        return [{"name": str(n), "path": os.fspath(p)} for n, p in roots.items()]
    if isinstance(roots, (str, os.PathLike)):
        return [{"path": os.fspath(roots)}]
    return [{"path": os.fspath(p)} for p in roots]


class Sandbox:
    """File tools confined to operator-chosen roots; every open goes through directory handles.

    ``roots``: a directory, a list of them, or ``{name: directory}``. ``deny``: gitignore-syntax
    rules (``".env"``, ``".git/"``, ``"*.pem"``) that hold for every spelling, alias and tool.
    ``write_root`` enables the write tools there (``allow_overwrite``, ``allow_delete``,
    ``max_write_bytes``, ``create_parents``). Every limit of the policy is a keyword argument
    (``max_read_bytes``, ``max_results``, ``max_bytes``, ``timeout_ms``, ``threads``, ...; see
    ``rootbound.LIMITS``). A root that cannot be opened raises (``root_mode="lenient"`` drops it).

    ``index=True`` (every root) or ``index="auto"`` (roots whose filesystem reports changes) builds
    an n-gram index in the background, so that repeated ``grep_search`` calls open only the files
    that can match; answers are the same without it. It costs a background build (one pass over
    the readable files) and memory (see docs/index.md); keep the Sandbox for the session.
    ``list_roots`` reports its state; ``index_verify="strict"`` checks every pruned file's metadata
    at each query instead of relying on change reports.

    A Sandbox is safe to share between threads; every call releases the GIL for its whole run.
    """

    __slots__ = ("_core",)

    def __init__(
        self,
        roots: Roots,
        *,
        deny: Sequence[str] = (),
        write_root: Optional[StrPath] = None,
        allow_overwrite: bool = False,
        allow_delete: bool = False,
        max_write_bytes: Optional[int] = None,
        create_parents: Optional[bool] = None,
        symlinks: Optional[str] = None,
        root_mode: Optional[str] = None,
        path_display: Optional[str] = None,
        hidden: Optional[bool] = None,
        no_ignore: Optional[bool] = None,
        refuse_hardlinks: Optional[bool] = None,
        agent: Optional[str] = None,
        index: Union[bool, str] = False,
        index_verify: Optional[str] = None,
        **limits: int,
    ) -> None:
        if isinstance(deny, str):
            deny = [deny]
        # The library builds the policy from these options (as for the Node package) and reports
        # a misuse of them (an unknown limit, a write flag without write_root) as UsageError.
        options: Dict[str, Any] = {"roots": _roots(roots), "deny": list(deny), "limits": limits}
        for key, value in (
            ("symlinks", symlinks),
            ("root_mode", root_mode),
            ("path_display", path_display),
            ("hidden", hidden),
            ("no_ignore", no_ignore),
            ("refuse_hardlinks", refuse_hardlinks),
            ("max_write_bytes", max_write_bytes),
            ("create_parents", create_parents),
            ("index", index),
            ("index_verify", index_verify),
        ):
            if value is not None:
                options[key] = value
        if write_root is not None:
            options["write_root"] = os.fspath(write_root)
        options["allow_overwrite"] = bool(allow_overwrite)
        options["allow_delete"] = bool(allow_delete)
        try:
            self._core = _rootbound.Core.from_options(_dumps(options), agent)
        except _rootbound.UsageError as e:
            raise TypeError(f"Sandbox(): {e}") from None
        except _rootbound.NativeError as e:
            raise _native(e) from None

    @classmethod
    def from_config(cls, path: StrPath, agent: Optional[str] = None) -> "Sandbox":
        """The tools of ``agent`` (None: the only agent) in a rootbound config file (TOML, or JSON
        for ``.json``): its roots, deny rules, limits, per-tool settings and dialect (``profile``).
        Every problem of the file is reported at once in ``ConfigError.problems``."""
        self = cls.__new__(cls)
        try:
            self._core = _rootbound.Core.from_config(os.fspath(path), agent)
        except _rootbound.NativeError as e:
            raise _native(e) from None
        return self

    # ---- the agent-loop surface ------------------------------------------------------------

    @property
    def agent(self) -> str:
        """The agent's name (from the config file or ``agent=``; empty otherwise)."""
        return str(self._core.agent)

    @property
    def profile(self) -> str:
        """The dialect ``call`` and ``tools`` use by default (``rootbound`` unless configured)."""
        return str(self._core.profile)

    @property
    def tool_names(self) -> List[str]:
        """The engine tools this sandbox enables (write tools only with a write root)."""
        return list(self._core.tool_names())

    def call(
        self,
        name: str,
        args: Union[Mapping[str, Any], str, None] = None,
        *,
        profile: Optional[str] = None,
        budget: Optional[Budget] = None,
    ) -> Dict[str, Any]:
        """Calls tool ``name`` as an agent loop does: ``args`` a dict or a JSON string, the result a
        dict. A tool failure is returned as ``{"error": {"code", "message", ...}}``, never raised.
        With ``profile`` (or a configured one), ``name`` is a tool of that dialect and the result is
        its structured form (e.g. ``{"content": ...}``)."""
        a = args if isinstance(args, (str, dict)) else dict(args or {})
        _, result = self._core.call(name, a, budget, profile, _watch())
        out: Dict[str, Any] = result
        return out

    async def call_async(
        self,
        name: str,
        args: Union[Mapping[str, Any], str, None] = None,
        *,
        profile: Optional[str] = None,
        budget: Optional[Budget] = None,
    ) -> Dict[str, Any]:
        """``call`` on the event loop's executor; cancelling the awaiting task cancels the call."""
        b = budget if budget is not None else Budget()
        text = args if isinstance(args, str) else _dumps(dict(args or {}))

        def run() -> Dict[str, Any]:
            _, result = self._core.call(name, text, b, profile, False)
            out: Dict[str, Any] = result
            return out

        return await _in_executor(run, b)

    def tools(self, format: str = "openai", profile: Optional[str] = None) -> List[Dict[str, Any]]:
        """The tool definitions to hand to a model: ``format`` is ``openai`` (function calling),
        ``anthropic`` (Messages API), ``gemini`` (function declarations) or ``mcp`` (tools/list);
        ``profile`` a dialect (``rootbound``, ``claude-code``, ``gemini-cli``, ``mcp-filesystem``)."""
        try:
            defs: List[Dict[str, Any]] = _loads(self._core.tools(format, profile))
        except _rootbound.NativeError as e:
            raise _native(e) from None
        return defs

    # ---- typed calls -----------------------------------------------------------------------

    def _invoke(self, tool: str, args: Dict[str, Any], budget: Optional[Budget]) -> Dict[str, Any]:
        ok, out = self._core.call(tool, args, budget, None, _watch(), True)
        data: Dict[str, Any] = out
        if not ok:
            raise error_from(data)
        return data

    async def _invoke_async(
        self, tool: str, args: Dict[str, Any], budget: Optional[Budget]
    ) -> Dict[str, Any]:
        b = budget if budget is not None else Budget()
        text = _dumps(args)

        def run() -> Dict[str, Any]:
            ok, out = self._core.call(tool, text, b, None, False, True)
            data: Dict[str, Any] = out
            if not ok:
                raise error_from(data)
            return data

        return await _in_executor(run, b)

    def read_file(
        self,
        path: str,
        *,
        offset: Optional[int] = None,
        limit: Optional[int] = None,
        start_line: Optional[int] = None,
        max_lines: Optional[int] = None,
        line_numbers: Optional[bool] = None,
        head_lines: Optional[int] = None,
        tail_lines: Optional[int] = None,
        raw: Optional[bool] = None,
        budget: Optional[Budget] = None,
    ) -> ReadResult:
        """Reads a page of a file: bytes from ``offset`` (at most ``limit``, capped by
        ``max_read_bytes``), or lines (``start_line``, ``max_lines``, ``head_lines``,
        ``tail_lines``). ``truncated`` says more remains; continue at ``next_offset``/``next_line``."""
        return ReadResult(self._invoke("read_file", _args(locals()), budget))

    async def read_file_async(self, path: str, **kwargs: Any) -> ReadResult:
        """``read_file`` without blocking the event loop; cancelling the task cancels the call."""
        budget = kwargs.pop("budget", None)
        return ReadResult(await self._invoke_async("read_file", {"path": path, **_nn(kwargs)}, budget))

    def grep_search(
        self,
        pattern: str,
        *,
        patterns: Optional[Sequence[str]] = None,
        path: Optional[str] = None,
        include: Optional[Globs] = None,
        exclude: Optional[Globs] = None,
        type: Optional[str] = None,
        case_insensitive: Optional[bool] = None,
        smart_case: Optional[bool] = None,
        fixed_strings: Optional[bool] = None,
        word: Optional[bool] = None,
        line_regexp: Optional[bool] = None,
        invert: Optional[bool] = None,
        only_matching: Optional[bool] = None,
        max_count: Optional[int] = None,
        max_depth: Optional[int] = None,
        multiline: Optional[bool] = None,
        context: Optional[int] = None,
        before: Optional[int] = None,
        after: Optional[int] = None,
        output_mode: Optional[str] = None,
        output_format: Optional[str] = None,
        hidden: Optional[bool] = None,
        no_ignore: Optional[bool] = None,
        max_filesize: Optional[int] = None,
        offset: Optional[int] = None,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
        max_bytes: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        documents: Optional[bool] = None,
        budget: Optional[Budget] = None,
    ) -> GrepResult:
        """Searches file contents with a regular expression (Rust regex syntax; ripgrep's engine),
        one page at a time: ``matches`` holds ``path:line:text`` lines (``output_format="json"``:
        ``hits``). ``truncated`` says more exist; pass ``cursor=result.next_cursor`` for the next
        page, or use ``iter_grep``. Ctrl-C stops the search within milliseconds (KeyboardInterrupt)."""
        return GrepResult(self._invoke("grep_search", _args(locals()), budget))

    async def grep_search_async(self, pattern: str, **kwargs: Any) -> GrepResult:
        """``grep_search`` without blocking the event loop; cancelling the task cancels the search."""
        budget = kwargs.pop("budget", None)
        args = {"pattern": pattern, **_nn(kwargs)}
        return GrepResult(await self._invoke_async("grep_search", args, budget))

    def iter_grep(
        self, pattern: str, *, page_size: int = 100, budget: Optional[Budget] = None, **kwargs: Any
    ) -> Iterator[Hit]:
        """Every match (and context line) of a search, as ``Hit`` objects, paging by cursor.
        Takes ``grep_search``'s arguments except ``offset``, ``cursor``, ``limit``,
        ``output_mode`` and ``output_format``."""
        for bad in ("offset", "cursor", "limit", "output_mode", "output_format"):
            if bad in kwargs:
                raise TypeError(f"iter_grep() pages itself: {bad!r} is not accepted")
        args = {"pattern": pattern, **_nn(kwargs), "output_format": "json", "limit": page_size}
        while True:
            page = self._invoke("grep_search", args, budget)
            for h in page.get("hits") or ():
                yield Hit(h)
            cursor = page.get("next_cursor")
            if not page.get("truncated") or not cursor:
                return
            if budget is not None and budget.cancelled:
                return
            args["cursor"] = cursor

    def glob(
        self,
        pattern: str,
        *,
        path: Optional[str] = None,
        hidden: Optional[bool] = None,
        no_ignore: Optional[bool] = None,
        sort: Optional[str] = None,
        offset: Optional[int] = None,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        budget: Optional[Budget] = None,
    ) -> GrepResult:
        """Finds files by glob (rg ``-g`` syntax: ``*.rs`` at any depth, ``src/**/*.c`` from the
        root), sorted by path, one path per line in ``matches`` (``result.lines``)."""
        return GrepResult(self._invoke("glob", _args(locals()), budget))

    async def glob_async(self, pattern: str, **kwargs: Any) -> GrepResult:
        """``glob`` without blocking the event loop; cancelling the task cancels the walk."""
        budget = kwargs.pop("budget", None)
        return GrepResult(await self._invoke_async("glob", {"pattern": pattern, **_nn(kwargs)}, budget))

    def iter_glob(
        self, pattern: str, *, page_size: int = 100, budget: Optional[Budget] = None, **kwargs: Any
    ) -> Iterator[str]:
        """Every path a glob matches, paging by cursor (``glob``'s arguments except ``offset``,
        ``cursor``, ``limit``)."""
        for bad in ("offset", "cursor", "limit"):
            if bad in kwargs:
                raise TypeError(f"iter_glob() pages itself: {bad!r} is not accepted")
        args = {"pattern": pattern, **_nn(kwargs), "limit": page_size}
        while True:
            page = self._invoke("glob", args, budget)
            m = page.get("matches") or ""
            yield from m.splitlines()
            cursor = page.get("next_cursor")
            if not page.get("truncated") or not cursor:
                return
            if budget is not None and budget.cancelled:
                return
            args["cursor"] = cursor

    def list_dir(
        self,
        path: Optional[str] = None,
        *,
        hidden: Optional[bool] = None,
        no_ignore: Optional[bool] = None,
        offset: Optional[int] = None,
        limit: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        budget: Optional[Budget] = None,
    ) -> ListResult:
        """One level of a directory (``None``: the roots), entries with kind and size; symlinks
        are reported, not followed."""
        return ListResult(self._invoke("list_dir", _args(locals()), budget))

    async def list_dir_async(self, path: Optional[str] = None, **kwargs: Any) -> ListResult:
        """``list_dir`` without blocking the event loop."""
        budget = kwargs.pop("budget", None)
        return ListResult(await self._invoke_async("list_dir", _nn({"path": path, **kwargs}), budget))

    def stat(self, path: str, *, budget: Optional[Budget] = None) -> StatResult:
        """Kind, size, modification time and (text files up to 1 MiB) line count."""
        return StatResult(self._invoke("stat", _args(locals()), budget))

    async def stat_async(self, path: str, *, budget: Optional[Budget] = None) -> StatResult:
        """``stat`` without blocking the event loop."""
        return StatResult(await self._invoke_async("stat", {"path": path}, budget))

    def read_many_files(
        self,
        paths: Sequence[str],
        *,
        max_bytes: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        budget: Optional[Budget] = None,
    ) -> ReadManyResult:
        """Several files (paths and globs) under one byte budget."""
        args = {"paths": list(paths), "max_bytes": max_bytes, "timeout_ms": timeout_ms}
        return ReadManyResult(self._invoke("read_many_files", _args(args), budget))

    async def read_many_files_async(self, paths: Sequence[str], **kwargs: Any) -> ReadManyResult:
        """``read_many_files`` without blocking the event loop."""
        budget = kwargs.pop("budget", None)
        args = {"paths": list(paths), **_nn(kwargs)}
        return ReadManyResult(await self._invoke_async("read_many_files", args, budget))

    def directory_tree(
        self,
        path: Optional[str] = None,
        *,
        max_depth: Optional[int] = None,
        max_entries: Optional[int] = None,
        exclude: Optional[Globs] = None,
        hidden: Optional[bool] = None,
        no_ignore: Optional[bool] = None,
        timeout_ms: Optional[int] = None,
        budget: Optional[Budget] = None,
    ) -> TreeResult:
        """A breadth-first tree of a directory, capped in depth and entries."""
        return TreeResult(self._invoke("directory_tree", _args(locals()), budget))

    async def directory_tree_async(self, path: Optional[str] = None, **kwargs: Any) -> TreeResult:
        """``directory_tree`` without blocking the event loop."""
        budget = kwargs.pop("budget", None)
        return TreeResult(await self._invoke_async("directory_tree", _nn({"path": path, **kwargs}), budget))

    def list_roots(
        self, path: Optional[str] = None, *, budget: Optional[Budget] = None
    ) -> RootsResult:
        """The roots this sandbox serves (name, path, readable, writable); with ``path``, only the
        read root it resolves in."""
        return RootsResult(self._invoke("list_roots", _args(locals()), budget))

    def read_media_file(self, path: str, *, budget: Optional[Budget] = None) -> MediaResult:
        """An image or audio file (by content, at most 8 MiB) as base64."""
        return MediaResult(self._invoke("read_media_file", _args(locals()), budget))

    def write_file(
        self,
        path: str,
        content: str,
        *,
        overwrite: Optional[bool] = None,
        encoding: Optional[str] = None,
        budget: Optional[Budget] = None,
    ) -> WriteResult:
        """Writes a file under the write root (replacing one needs ``overwrite=True`` and the
        policy's ``allow_overwrite``); ``encoding="base64"`` for bytes."""
        return WriteResult(self._invoke("write_file", _args(locals()), budget))

    def edit_file(
        self,
        path: str,
        *,
        old_string: Optional[str] = None,
        new_string: Optional[str] = None,
        replace_all: Optional[bool] = None,
        expected_replacements: Optional[int] = None,
        edits: Optional[Sequence[Mapping[str, Any]]] = None,
        dry_run: Optional[bool] = None,
        budget: Optional[Budget] = None,
    ) -> EditResult:
        """Replaces exact text in a file under the write root (``old_string``/``new_string``, or a
        list of ``edits``); ``dry_run`` returns the diff without writing."""
        args = _args(locals())
        if "edits" in args:
            args["edits"] = [dict(e) for e in args["edits"]]
        return EditResult(self._invoke("edit_file", args, budget))

    def create_directory(self, path: str, *, budget: Optional[Budget] = None) -> FsOpResult:
        """Creates a directory (and its parents) under the write root."""
        return FsOpResult(self._invoke("create_directory", _args(locals()), budget))

    def move_file(
        self,
        source: str,
        destination: str,
        *,
        overwrite: Optional[bool] = None,
        budget: Optional[Budget] = None,
    ) -> FsOpResult:
        """Moves or renames a file or directory within the write root."""
        return FsOpResult(self._invoke("move_file", _args(locals()), budget))

    def delete_file(self, path: str, *, budget: Optional[Budget] = None) -> WriteResult:
        """Deletes a file under the write root (needs the policy's ``allow_delete``)."""
        return WriteResult(self._invoke("delete_file", _args(locals()), budget))

    def __repr__(self) -> str:
        roots = ", ".join(r.path for r in self.list_roots().roots)
        agent = f", agent={self.agent!r}" if self.agent else ""
        return f"Sandbox([{roots}]{agent})"


def _nn(d: Mapping[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


def _watch() -> bool:
    """Calls from the main thread are watched for signals (KeyboardInterrupt)."""
    return threading.current_thread() is _MAIN


T = TypeVar("T")


async def _in_executor(fn: Callable[[], T], budget: Budget) -> T:
    loop = asyncio.get_running_loop()
    fut: Awaitable[T] = loop.run_in_executor(None, fn)
    try:
        return await fut
    except asyncio.CancelledError:
        budget.cancel()
        raise


__all__ = ["Sandbox", "Budget"]
