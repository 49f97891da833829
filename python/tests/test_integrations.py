"""The framework adapters, invoked directly (no model, no network)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from rootbound import Sandbox
from rootbound.integrations import drop_none, nullable_optional


def test_nullable_optional_and_drop_none() -> None:
    s = {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "limit": {"type": "integer"},
            "mode": {"type": "string", "enum": ["a", "b"]},
            "edits": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"old": {"type": "string"}, "all": {"type": "boolean"}},
                    "required": ["old"],
                },
            },
        },
        "required": ["path"],
    }
    n = nullable_optional(s)
    assert n["required"] == ["path", "limit", "mode", "edits"]
    assert n["properties"]["path"]["type"] == "string"
    assert n["properties"]["limit"]["type"] == ["integer", "null"]
    assert n["properties"]["mode"]["enum"] == ["a", "b", None]
    assert n["properties"]["edits"]["items"]["properties"]["all"]["type"] == ["boolean", "null"]
    assert s["properties"]["limit"]["type"] == "integer"  # the input is not modified
    assert drop_none({"a": None, "b": [{"c": None, "d": 1}]}) == {"b": [{"d": 1}]}


@pytest.fixture()
def wsb(tree: Path) -> Sandbox:
    return Sandbox(tree, deny=[".env", "*.pem"], write_root=tree / "sub", allow_overwrite=True)


def test_openai_agents_function_tools(wsb: Sandbox, tree: Path) -> None:
    pytest.importorskip("agents")
    from agents import FunctionTool
    from agents.strict_schema import ensure_strict_json_schema

    from rootbound.integrations.openai_agents import function_tools

    tools = function_tools(wsb)
    assert [t.name for t in tools] == [d["function"]["name"] for d in wsb.tools()]
    by_name = {t.name: t for t in tools}
    for t in tools:
        assert isinstance(t, FunctionTool) and t.strict_json_schema
        # the schema is already strict: converting it again changes nothing
        assert ensure_strict_json_schema(json.loads(json.dumps(t.params_json_schema))) == t.params_json_schema
        props = t.params_json_schema["properties"]
        assert t.params_json_schema["required"] == list(props)

    async def invoke(name: str, args: dict) -> dict:  # type: ignore[type-arg]
        # a strict-mode model sends every field, null for the ones it leaves unset
        full = {k: None for k in by_name[name].params_json_schema["properties"]}
        full.update(args)
        out = await by_name[name].on_invoke_tool(None, json.dumps(full))  # type: ignore[arg-type]
        result: dict = json.loads(out)  # type: ignore[type-arg]
        return result

    async def main() -> None:
        r = await invoke("read_file", {"path": "notes.txt"})
        assert r["content"].startswith("alpha")
        g = await invoke("grep_search", {"pattern": "needle", "limit": 2})
        assert g["match_lines"] == 2 and g["truncated"]
        e = await invoke("read_file", {"path": "../outside/secret.txt"})
        assert e["error"]["code"] == "OUT_OF_SANDBOX"  # returned to the model, not raised
        d = await invoke("read_file", {"path": ".env"})
        assert d["error"]["code"] == "DENIED"
        w = await invoke("write_file", {"path": str(tree / "sub" / "new.txt"), "content": "hi"})
        assert w["created"] and (tree / "sub" / "new.txt").read_text() == "hi"
        bad = await by_name["stat"].on_invoke_tool(None, "{oops")  # type: ignore[arg-type]
        assert json.loads(bad)["error"]["code"] == "INVALID_ARGUMENT"

    asyncio.run(main())
    claude = function_tools(wsb, profile="claude-code")
    assert "Read" in [t.name for t in claude]


def test_openai_agents_agent_accepts_tools(wsb: Sandbox) -> None:
    pytest.importorskip("agents")
    from agents import Agent

    from rootbound.integrations.openai_agents import function_tools

    agent = Agent(name="files", instructions="Use the tools.", tools=list(function_tools(wsb)))
    assert len(agent.tools) == len(wsb.tools())


def test_langchain_tools(wsb: Sandbox, tree: Path) -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.tools import BaseTool
    from langchain_core.utils.function_calling import convert_to_openai_tool

    from rootbound.integrations.langchain import langchain_tools

    tools = langchain_tools(wsb)
    by_name = {t.name: t for t in tools}
    assert list(by_name) == [d["function"]["name"] for d in wsb.tools()]
    for t in tools:
        assert isinstance(t, BaseTool)
        spec = convert_to_openai_tool(t)  # what bind_tools sends
        assert spec["function"]["name"] == t.name
        assert spec["function"]["parameters"]["type"] == "object"
    r = json.loads(by_name["read_file"].invoke({"path": "notes.txt", "limit": 5}))
    assert r["content"] == "alpha"
    e = json.loads(by_name["read_file"].invoke({"path": "/etc/passwd"}))
    assert e["error"]["code"] == "OUT_OF_SANDBOX"
    g = json.loads(asyncio.run(by_name["grep_search"].ainvoke({"pattern": "needle", "offset": None})))
    assert g["match_lines"] == 4
    # a tool call as a chat model emits it
    msg = by_name["stat"].invoke(
        {"name": "stat", "args": {"path": "notes.txt"}, "id": "call_1", "type": "tool_call"}
    )
    assert json.loads(msg.content)["size"] == 33
    gem = langchain_tools(wsb, profile="gemini-cli")
    assert "read_file" in [t.name for t in gem]
