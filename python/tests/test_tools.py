"""Every tool through the binding: typed methods, result objects, call(), tools(), iterators."""

from __future__ import annotations

import base64
import gc
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

import rootbound
from rootbound import Sandbox, _rootbound

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)


def test_read_file_bytes_and_lines(sb: Sandbox, tree: Path) -> None:
    r = sb.read_file("notes.txt")
    assert isinstance(r, rootbound.ReadResult)
    assert r.content == (tree / "notes.txt").read_text()
    assert r.path == str(tree / "notes.txt")
    assert r.truncated is False and r.encoding == "utf-8" and r.start_line is None
    assert "ReadResult(" in repr(r) and r.to_dict()["content"] == r.content
    assert r["total_bytes"] == r.total_bytes == len(r.content)
    # byte pages concatenate to the file
    parts, off = [], 0
    while True:
        p = sb.read_file("notes.txt", offset=off, limit=7)
        parts.append(p.content)
        if not p.truncated:
            break
        off = p.next_offset
    assert "".join(parts) == r.content
    lines = sb.read_file("notes.txt", start_line=2, max_lines=2, line_numbers=True)
    assert lines.start_line == 2 and lines.end_line == 3 and "needle one" in lines.content
    assert sb.read_file("notes.txt", tail_lines=1).content.strip() == "needle two"


def test_grep_search_modes(sb: Sandbox, tree: Path) -> None:
    g = sb.grep_search("needle")
    assert isinstance(g, rootbound.GrepResult)
    assert g.match_lines == 4 and not g.truncated and not g.timed_out
    assert all(line.split(":")[0].startswith(str(tree)) for line in g.lines)
    assert isinstance(g.stats, rootbound.Stats) and g.stats.files_searched >= 4
    assert isinstance(g.stats.skipped, rootbound.Skipped)
    c = sb.grep_search("needle", output_mode="count")
    assert c.total == 4
    j = sb.grep_search("needle", output_format="json", include="*.txt")
    assert j.hits is not None and all(isinstance(h, rootbound.Hit) for h in j.hits)
    assert {h.path for h in j.hits} == {str(tree / "notes.txt"), str(tree / "sub" / "ok.txt")}
    f = sb.grep_search("mutex_lock", output_mode="files_with_matches", type="rust")
    assert sorted(f.lines) == [str(tree / "src" / "lib.rs"), str(tree / "src" / "main.rs")]
    ctx = sb.grep_search("one", context=1, path="notes.txt")
    assert ctx.match_lines == 1 and "-1-alpha" in ctx.matches
    ci = sb.grep_search("NEEDLE", case_insensitive=True, fixed_strings=True, word=True)
    assert ci.match_lines == 4


def test_grep_paging_by_cursor_and_iter_grep(sb: Sandbox) -> None:
    whole = sb.grep_search("needle", output_format="json").hits
    assert whole is not None
    got, cursor = [], None
    while True:
        page = sb.grep_search("needle", output_format="json", limit=1, cursor=cursor)
        got.extend(page.hits or [])
        if not page.truncated:
            break
        cursor = page.next_cursor
    assert got == whole
    assert list(sb.iter_grep("needle", page_size=1)) == whole
    with pytest.raises(TypeError):
        list(sb.iter_grep("needle", cursor="x"))


def test_glob_and_iter_glob(sb: Sandbox, tree: Path) -> None:
    g = sb.glob("*.rs")
    assert g.lines == [str(tree / "src" / "lib.rs"), str(tree / "src" / "main.rs")]
    assert list(sb.iter_glob("*", page_size=2)) == sb.glob("*", limit=100).lines
    assert str(tree / ".env") not in sb.glob("*", hidden=True).lines  # denied: never listed


def test_list_dir_stat_tree_roots(sb: Sandbox, tree: Path) -> None:
    ls = sb.list_dir()
    names = [e.name for e in ls.entries]
    assert "notes.txt" in names and "src" in names and ".env" not in names
    assert all(isinstance(e, rootbound.Entry) for e in ls.entries)
    sub = sb.list_dir("sub")
    assert [e.name for e in sub.entries] == ["ok.txt"]  # key.pem denied
    st = sb.stat("notes.txt")
    assert st.kind == "file" and st.size == 33 and st.lines == 4
    assert sb.stat("src").kind == "dir"
    t = sb.directory_tree(max_depth=2)
    assert t.tree["kind"] == "dir" and t.entries >= 5
    roots = sb.list_roots().roots
    assert [r.path for r in roots] == [str(tree)] and roots[0].readable


def test_read_many_and_media(sb: Sandbox, tree: Path) -> None:
    m = sb.read_many_files(["notes.txt", "src/*.rs", "missing.txt"])
    paths = [f.path for f in m.files]
    assert str(tree / "notes.txt") in paths and str(tree / "src" / "main.rs") in paths
    missing = [f for f in m.files if f.error]
    assert missing and missing[0].error["code"] == "NOT_FOUND"
    (tree / "dot.png").write_bytes(PNG)
    img = sb.read_media_file("dot.png")
    assert img.mime_type == "image/png" and base64.b64decode(img.data) == PNG


def test_write_tools(tmp_path: Path) -> None:
    root = tmp_path / "w"
    root.mkdir()
    sb = Sandbox(root, write_root=root, allow_overwrite=True, allow_delete=True, deny=[".git/"])
    assert "delete_file" in sb.tool_names
    w = sb.write_file("a/b.txt", "hello\n")
    assert w.created and (root / "a" / "b.txt").read_text() == "hello\n"
    e = sb.edit_file("a/b.txt", old_string="hello", new_string="bye")
    assert e.replacements == 1 and (root / "a" / "b.txt").read_text() == "bye\n"
    e2 = sb.edit_file("a/b.txt", edits=[{"old_string": "bye", "new_string": "ciao"}], dry_run=True)
    assert e2.dry_run and "ciao" in e2.diff and (root / "a" / "b.txt").read_text() == "bye\n"
    assert sb.create_directory("c/d").created and (root / "c" / "d").is_dir()
    mv = sb.move_file("a/b.txt", "c/d/b.txt")
    assert mv.moved_from and (root / "c" / "d" / "b.txt").exists()
    d = sb.delete_file("c/d/b.txt")
    assert d.deleted and not (root / "c" / "d" / "b.txt").exists()
    with pytest.raises(rootbound.Denied):
        sb.write_file(".git/config", "x")
    ro = Sandbox(root)
    assert "write_file" not in ro.tool_names
    with pytest.raises(TypeError):
        Sandbox(root, allow_delete=True)
    # The library reports the misuse (for the Node package alike), in snake case.
    with pytest.raises(TypeError, match="max_write_bytes need write_root"):
        Sandbox(root, max_write_bytes=3)


def test_dir_only_deny_rule_forbids_a_file_of_that_name(tmp_path: Path) -> None:
    sb = Sandbox(tmp_path, write_root=tmp_path, deny=[".git/"])
    with pytest.raises(rootbound.Denied):
        sb.write_file(".git", "[core]\nfsmonitor = evil\n")


def test_call_dict_and_json_and_errors_returned(sb: Sandbox) -> None:
    r = sb.call("read_file", {"path": "notes.txt", "limit": 5})
    assert r["content"] == "alpha" and r["truncated"] is True
    assert sb.call("stat", '{"path": "notes.txt"}')["size"] == 33
    assert sb.call("read_file", {"path": "../x"})["error"]["code"] == "OUT_OF_SANDBOX"
    assert sb.call("read_file", "{not json")["error"]["code"] == "INVALID_ARGUMENT"
    assert sb.call("no_such_tool", {})["error"]["code"] == "INVALID_ARGUMENT"
    assert sb.call("grep_search", {"pattern": "needle", "bogus": 1})["error"]["code"] == "INVALID_ARGUMENT"
    # strings from models are coerced, as in the JSON contract
    assert sb.call("read_file", {"path": "notes.txt", "limit": "5"})["content"] == "alpha"


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "gemini", "mcp"])
@pytest.mark.parametrize("profile", rootbound.PROFILES)
def test_tools_every_format_and_profile(sb: Sandbox, fmt: str, profile: str) -> None:
    defs = sb.tools(fmt, profile=profile)
    assert defs
    for d in defs:
        inner = d["function"] if fmt == "openai" else d
        assert inner["name"] and inner["description"]
        schema = inner.get("parameters") or inner.get("input_schema") or inner.get("inputSchema")
        assert schema["type"] == "object"
    with pytest.raises(rootbound.InvalidArgument):
        sb.tools("yaml")
    with pytest.raises(rootbound.InvalidArgument):
        sb.tools("openai", profile="nope")


def test_call_in_a_dialect(sb: Sandbox, tree: Path) -> None:
    r = sb.call("Read", {"file_path": str(tree / "notes.txt")}, profile="claude-code")
    assert "needle one" in r["content"]
    g = sb.call("Grep", {"pattern": "needle", "path": str(tree)}, profile="claude-code")
    assert "content" in g
    out = sb.call("read_text_file", {"path": "/etc/passwd"}, profile="mcp-filesystem")
    assert out["error"]["code"] == "OUT_OF_SANDBOX"


def test_named_roots_and_limits(tree: Path, tmp_path: Path) -> None:
    sb = Sandbox({"code": tree / "src", "docs": tree}, max_read_bytes=4, path_display="relative")
    assert [r.name for r in sb.list_roots().roots] == ["code", "docs"]
    r = sb.read_file("notes.txt")
    assert r.content == "alph" and r.truncated
    assert r.path == "docs:notes.txt"
    with pytest.raises(TypeError):
        Sandbox(tree, max_reed_bytes=4)  # a typo is refused
    with pytest.raises(TypeError, match=r"unknown option\(s\) max_reed_bytes \(limits are: "):
        Sandbox(tree, max_reed_bytes=4)
    with pytest.raises(rootbound.InvalidArgument):
        Sandbox(tree, max_results="many")  # type: ignore[arg-type]
    assert rootbound.LIMITS["max_read_bytes"] == 65536


def test_from_config(tree: Path, tmp_path: Path) -> None:
    cfg = tmp_path / "rootbound.toml"
    cfg.write_text(
        f"""
[agents.reader]
roots = ["{tree}"]
deny = [".env"]
[agents.reader.tools.read_file]
[agents.reader.tools.grep_search]
[agents.claude]
roots = ["{tree}"]
profile = "claude-code"
[agents.claude.tools.read_file]
[agents.claude.tools.grep_search]
[agents.claude.tools.glob]
"""
    )
    with pytest.raises(rootbound.ConfigError):
        Sandbox.from_config(cfg)  # two agents: name one
    reader = Sandbox.from_config(cfg, agent="reader")
    assert reader.agent == "reader"
    assert reader.tool_names == ["read_file", "grep_search"]
    assert reader.read_file("notes.txt").content.startswith("alpha")
    assert reader.call("stat", {"path": "notes.txt"})["error"]["code"] in ("DENIED", "INVALID_ARGUMENT")
    claude = Sandbox.from_config(cfg, agent="claude")
    assert claude.profile == "claude-code"
    assert [t["name"] for t in claude.tools("anthropic")][:3] == ["Read", "Grep", "Glob"]
    assert "needle" in claude.call("Read", {"file_path": str(tree / "notes.txt")})["content"]
    bad = tmp_path / "bad.toml"
    bad.write_text('[agents.x]\nroots = ["/nonexistent/dir/xyz"]\nbogus_key = 1\n')
    with pytest.raises(rootbound.ConfigError) as ei:
        Sandbox.from_config(bad)
    assert ei.value.problems and all("key" in p for p in ei.value.problems)


def test_result_objects_behave(sb: Sandbox) -> None:
    st = sb.stat("notes.txt")
    with pytest.raises(AttributeError):
        st.size = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        st.no_such_field
    assert json.loads(json.dumps(st.to_dict())) == st.to_dict()
    assert st == sb.stat("notes.txt")


def test_version() -> None:
    assert rootbound.__version__
    assert set(rootbound.ERROR_CODES) <= set(rootbound.ERRORS)


def test_runs_against_the_installed_wheel() -> None:
    """Under .ci/run (ROOTBOUND_PY_INSTALLED=1) the package comes from the venv, not the tree."""
    if os.environ.get("ROOTBOUND_PY_INSTALLED") != "1":
        pytest.skip("not under .ci/run")
    assert "site-packages" in rootbound.__file__
    assert "site-packages" in rootbound._rootbound.__file__


def test_every_tool_has_a_method_with_the_contracts_argument_names(tmp_path: Path) -> None:
    # The tool table is the library's; a tool added there without a method here (or with an
    # argument the method does not take under the same name) fails this test.
    import inspect

    sb = Sandbox(tmp_path, write_root=tmp_path, allow_overwrite=True, allow_delete=True)
    tools = sb.tools(format="mcp")
    assert {t["name"] for t in tools} == set(sb.tool_names)
    for t in tools:
        method = getattr(Sandbox, t["name"], None)
        assert callable(method), f"Sandbox has no method {t['name']}"
        params = inspect.signature(method).parameters
        missing = set(t["inputSchema"].get("properties", {})) - set(params)
        assert not missing, f"{t['name']} lacks {sorted(missing)}"


def test_index_keyword_serves_the_same_answers(tree: Path) -> None:
    plain = Sandbox(tree)
    indexed = Sandbox(tree, index=True)
    state = indexed.call("list_roots")["roots"][0]["index"]["state"]
    assert state in ("building", "ready")
    assert "index" not in plain.call("list_roots")["roots"][0]
    args = {"pattern": "needle", "output_mode": "content"}
    for _ in range(2):  # during the build, then likely from the index
        got, want = indexed.call("grep_search", args), plain.call("grep_search", args)
        got.get("stats", {}).pop("index", None)  # what the index did; the rest is the same
        assert got == want
    auto = Sandbox(tree, index="auto", index_verify="strict")
    assert "index" in auto.call("list_roots")["roots"][0]
    with pytest.raises(TypeError):
        Sandbox(tree, index="sometimes")
    with pytest.raises(TypeError):
        Sandbox(tree, index_verify="strict")


def test_dropping_an_indexed_sandbox_ends_its_index_work(tmp_path: Path) -> None:
    # 3,000 files at 10 ms each (the test hook): a build of 30 s at least, so the drop comes
    # while it runs; the threads' end is the stop, not the build finishing.
    for i in range(3000):
        (tmp_path / f"f{i:04}.txt").write_text(f"line {i} of a file to index\n")
    root = os.path.realpath(tmp_path)
    _rootbound._index_slow_at(root)
    try:
        until = time.monotonic() + 60
        while _rootbound._index_threads_live() > 0 and time.monotonic() < until:
            time.sleep(0.01)
        sb = Sandbox(str(tmp_path), index=True, threads=1)
        index: dict[str, Any] = {}
        while time.monotonic() < until:
            index = sb.call("list_roots")["roots"][0]["index"]
            if index.get("files", 0) >= 20:
                break
            time.sleep(0.01)
        # At least 15 s of the build left, against the 10 s allowed below (generous for a busy
        # machine: the stop is asserted, not its speed).
        assert index["state"] == "building" and index["files"] < 1500, index
        assert _rootbound._index_threads_live() > 0
        del sb
        gc.collect()
        until = time.monotonic() + 10
        while _rootbound._index_threads_live() > 0 and time.monotonic() < until:
            time.sleep(0.005)
        assert _rootbound._index_threads_live() == 0, "index threads still live after the drop"
    finally:
        _rootbound._index_slow_at(None)
