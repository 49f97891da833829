"""Typed result objects: attribute access over the tool's JSON result, ``repr`` and ``to_dict()``.

Each class declares the fields of its tool's result (see README.md, "The tools"). A field the
result does not carry (an optional one, e.g. ``total`` outside count mode) reads as ``None``; a
field a newer library adds is still reachable with ``result["name"]`` and in ``to_dict()``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Dict, Iterator, List, Mapping, Optional, Tuple, Type


class Result:
    """Base of every result object: a read-only view of the result's JSON object."""

    __slots__ = ("_data",)
    _fields: ClassVar[Tuple[str, ...]] = ()
    _nested: ClassVar[Dict[str, Type["Result"]]] = {}

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        names: List[str] = []
        for klass in reversed(cls.__mro__):
            for n in getattr(klass, "__annotations__", {}):
                if not n.startswith("_") and n not in names:
                    names.append(n)
        cls._fields = tuple(names)

    def __init__(self, data: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_data", dict(data))

    def __getattr__(self, name: str) -> Any:
        data = object.__getattribute__(self, "_data")
        try:
            value = data[name]
        except KeyError:
            if name in type(self)._fields:
                return None
            raise AttributeError(f"{type(self).__name__} has no field {name!r}") from None
        nested = type(self)._nested.get(name)
        if nested is not None:
            if isinstance(value, list):
                return [nested(v) if isinstance(v, dict) else v for v in value]
            if isinstance(value, dict):
                return nested(value)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def get(self, key: str, default: Any = None) -> Any:
        """The raw JSON value of ``key``, or ``default``."""
        return self._data.get(key, default)

    def to_dict(self) -> Dict[str, Any]:
        """The result's JSON object (a copy)."""
        return dict(self._data)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Result):
            return type(self) is type(other) and self._data == other._data
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        parts = []
        for k, v in self._data.items():
            r = repr(v)
            if len(r) > 60:
                r = r[:57] + "..."
            parts.append(f"{k}={r}")
        return f"{type(self).__name__}({', '.join(parts)})"


class Skipped(Result):
    """Files a search left out, by reason."""

    binary: int
    too_large: int
    ignored: int
    denied: int
    unreadable: int
    not_regular: int


class Stats(Result):
    """What a search looked at."""

    _nested = {"skipped": Skipped}
    files_searched: int
    skipped: Skipped


class Hit(Result):
    """One line of a grep page in ``output_format="json"``: a match or a context line."""

    path: str
    line: int
    column: Optional[int]
    text: str
    kind: str


class FileCount(Result):
    """A file's count of matching lines (``output_mode="count"``)."""

    path: str
    count: int


class GrepResult(Result):
    """A page of ``grep_search`` (and of ``glob``, one path per line in ``matches``).

    ``truncated`` is the signal that more exists; continue with ``cursor=next_cursor``.
    """

    _nested = {"stats": Stats, "hits": Hit, "counts": FileCount}
    matches: str
    match_lines: int
    next_offset: Optional[int]
    next_cursor: Optional[str]
    truncated: bool
    timed_out: bool
    stats: Stats
    total: Optional[int]
    hits: Optional[List[Hit]]
    counts: Optional[List[FileCount]]
    files: Optional[List[str]]

    @property
    def lines(self) -> List[str]:
        """``matches`` split into its lines (one result per line; names are escaped, never split)."""
        m: str = self._data.get("matches") or ""
        return m.splitlines()


class ReadResult(Result):
    """A page of ``read_file``: byte mode, or line mode with ``start_line``/``end_line``/``next_line``."""

    path: str
    content: str
    bytes_returned: int
    offset: int
    next_offset: Optional[int]
    total_bytes: int
    truncated: bool
    encoding: str
    binary: Optional[bool]
    start_line: Optional[int]
    end_line: Optional[int]
    next_line: Optional[int]
    timed_out: Optional[bool]
    document: Optional[Dict[str, Any]]


class Entry(Result):
    """One entry of ``list_dir``."""

    name: str
    kind: str
    size: Optional[int]


class ListResult(Result):
    """A page of ``list_dir``."""

    _nested = {"entries": Entry}
    path: str
    entries: List[Entry]
    offset: int
    next_offset: Optional[int]
    total: int
    truncated: bool
    hidden: int
    ignored: int


class StatResult(Result):
    """``stat``: kind, size, modification time, line count (text files up to 1 MiB)."""

    path: str
    kind: str
    size: int
    mtime: str
    mtime_unix: int
    lines: Optional[int]


class ManyFile(Result):
    """One file of ``read_many_files`` (``error`` set when it could not be read)."""

    path: str
    content: Optional[str]
    bytes_returned: int
    total_bytes: Optional[int]
    truncated: bool
    next_offset: Optional[int]
    encoding: Optional[str]
    binary: Optional[bool]
    error: Optional[Dict[str, Any]]


class ReadManyResult(Result):
    """``read_many_files``: the files, one byte budget for all."""

    _nested = {"files": ManyFile}
    files: List[ManyFile]
    bytes_returned: int
    truncated: bool


class TreeResult(Result):
    """``directory_tree``: a breadth-first tree (``tree`` is the JSON node with ``children``)."""

    path: str
    tree: Dict[str, Any]
    entries: int
    truncated: bool
    timed_out: bool
    omitted: Dict[str, int]


class RootEntry(Result):
    """One root of ``list_roots``."""

    name: str
    path: str
    writable: bool
    readable: bool


class RootsResult(Result):
    """``list_roots``."""

    _nested = {"roots": RootEntry}
    roots: List[RootEntry]


class MediaResult(Result):
    """``read_media_file``: an image or audio file as base64 ``data``."""

    path: str
    kind: str
    mime_type: str
    size: int
    data: str


class WriteResult(Result):
    """``write_file`` and ``delete_file``."""

    path: str
    bytes_written: Optional[int]
    created: Optional[bool]
    replaced: Optional[bool]
    deleted: Optional[bool]


class EditResult(Result):
    """``edit_file``: replacements made (or that would be, with ``dry_run``) and a unified diff."""

    path: str
    replacements: int
    size: int
    created: bool
    dry_run: bool
    diff: str


class FsOpResult(Result):
    """``create_directory`` and ``move_file``."""

    path: str
    created: Optional[bool]
    moved_from: Optional[str]
    replaced: Optional[bool]
