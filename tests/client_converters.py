"""Every client's schema converter accepts every tool of every profile (run by tests/frontends/client_converters.rs).

Usage: python tests/client_converters.py PATH/TO/rootbound EMPTY_TEMP_DIR [--only google-genai]
(the second form runs the google-genai conversion alone: for the venv with google-genai 3.6.1)

No model and no network: each client's own conversion code is run on the tools `rootbound mcp` lists.
Per profile (with a read root and a write root, so every tool is listed):
- google-genai: `_mcp_utils.mcp_to_gemini_tools` (what `generate_content(tools=[session])` does);
- langchain-mcp-adapters: `load_mcp_tools`, then langchain-core `convert_to_openai_tool` (strict and
  not) and langchain-google-genai `convert_to_genai_function_declarations`, with no warning logged;
- openai-agents: `MCPUtil.to_function_tool` with `convert_schemas_to_strict` True (the tool must come
  out strict, not silently fall back) and False; `ensure_strict_json_schema` leaves
  `schema --format openai-strict` unchanged;
- pydantic-ai: the OpenAI transformer (strict, and `is_strict_compatible`) and the Google one;
- a call shaped by openai-agents' strict schema (every field sent, the unset ones as zero values or
  null) does what the minimal call does, through MCP.
Prints one line per client and profile, then "ALL OK".
"""

import asyncio
import copy
import json
import logging
import os
import subprocess
import sys
import warnings

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

PROFILES = ["rootbound", "claude-code", "gemini-cli", "mcp-filesystem", "codex"]


class Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record)


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def tree(tmp):
    root = os.path.join(tmp, "root")
    os.makedirs(os.path.join(root, "src"))
    with open(os.path.join(root, "src", "lib.rs"), "w") as f:
        f.write("".join(f"fn f{i}() {{}} // needle {i}\n" for i in range(9)))
    return os.path.realpath(root)


def supported(binary, profile):
    out = subprocess.run([binary, "schema", "--profile", profile, "--root", "."],
                         capture_output=True, text=True)
    return "unknown profile" not in out.stderr


def google_genai(tools, profile):
    from google.genai import _mcp_utils
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        converted = _mcp_utils.mcp_to_gemini_tools(tools)
    check(len(converted) == len(tools), "google-genai lost a tool")
    for t in converted:
        decl = t.function_declarations[0]
        check(decl.parameters is not None, f"{profile} {decl.name}: no parameters")
    print(f"google-genai {profile}: {len(converted)} tools OK")


def openai_agents(tools, profile, strict_defs):
    from agents.mcp import MCPUtil
    from agents.strict_schema import ensure_strict_json_schema

    from agents.mcp import MCPServerStdio
    # Not connected: converting reads the server's settings, calls go through our own session.
    server = MCPServerStdio(params={"command": "rootbound", "args": ["mcp"]}, name="rootbound")

    strict_schemas = {}
    for t in tools:
        for strict in (True, False):
            ft = MCPUtil.to_function_tool(t, server, convert_schemas_to_strict=strict)
            # Every tool comes out strict: openai-agents refuses an "open" object (no properties,
            # no additionalProperties: false) and that key is what google-genai cannot read, so
            # every input schema declares at least one property.
            check(t.inputSchema.get("properties"),
                  f"{profile} {t.name}: an object schema with no properties is open to openai-agents")
            check(ft.strict_json_schema == strict,
                  f"{profile} {t.name}: strict={strict} came out {ft.strict_json_schema}")
            if strict:
                strict_schemas[t.name] = ft.params_json_schema
        mine = strict_defs[t.name]
        check(ensure_strict_json_schema(copy.deepcopy(mine)) == mine,
              f"{profile} {t.name}: openai-agents changes our openai-strict form")
    print(f"openai-agents {profile}: {len(tools)} tools strict and non-strict OK")
    return strict_schemas


def pydantic_ai(tools, profile):
    from pydantic_ai.profiles.google import GoogleJsonSchemaTransformer
    from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer
    for t in tools:
        tr = OpenAIJsonSchemaTransformer(copy.deepcopy(t.inputSchema), strict=True)
        tr.walk()
        check(tr.is_strict_compatible, f"{profile} {t.name}: not strict-compatible for pydantic-ai")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            GoogleJsonSchemaTransformer(copy.deepcopy(t.inputSchema)).walk()
    print(f"pydantic-ai {profile}: {len(tools)} tools OK")


async def langchain(session, tools, profile):
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from langchain_google_genai._function_utils import convert_to_genai_function_declarations
    from langchain_mcp_adapters.tools import load_mcp_tools
    lc = await load_mcp_tools(session)
    check(len(lc) == len(tools), "langchain-mcp-adapters lost a tool")
    log = Collect()
    logging.getLogger().addHandler(log)
    try:
        for t in lc:
            convert_to_openai_tool(t)
            convert_to_openai_tool(t, strict=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            convert_to_genai_function_declarations(lc)
    finally:
        logging.getLogger().removeHandler(log)
    check(not log.records,
          f"{profile}: warnings: {[r.getMessage() for r in log.records][:5]}")
    print(f"langchain {profile}: {len(lc)} tools, OpenAI strict/non-strict and Gemini without warnings OK")


def zero_of(schema):
    """What a model under openai-agents' strict schema sends for a field it does not mean to set."""
    t = schema.get("type")
    if "enum" in schema or t == "boolean" or "anyOf" in schema and not t:
        return None
    if t in ("integer", "number"):
        return schema.get("minimum", 0)  # a 1-based line number: its first line
    if t == "string":
        return ""
    if t == "array":
        return []
    if t == "object":
        return {}
    return None


MINIMAL = {
    "rootbound": {"read_file": {"path": "src/lib.rs"}, "grep_search": {"pattern": "needle 1"}},
    "claude-code": {"Read": {"file_path": "src/lib.rs"}, "Grep": {"pattern": "needle 1"}},
    "gemini-cli": {"read_file": {"file_path": "src/lib.rs"}, "grep_search": {"pattern": "needle 1"}},
    "mcp-filesystem": {"read_text_file": {"path": "src/lib.rs"}},
    "codex": {"read_file": {"file_path": "src/lib.rs"}, "grep_files": {"pattern": "needle 1"}},
}


async def strict_calls(session, profile, root, original, strict_schemas):
    n = 0
    for name, base in MINIMAL.get(profile, {}).items():
        base = {k: (os.path.join(root, v) if "/" in v else v) for k, v in base.items()}
        schema = strict_schemas[name]
        required = set(original[name].get("required", []))
        full = dict(base)
        for k, p in schema["properties"].items():
            if k not in full and k not in required:
                full[k] = zero_of(p)
        want = await session.call_tool(name, base)
        got = await session.call_tool(name, full)
        text = lambda r: "\n".join(c.text for c in r.content if c.type == "text")
        check(not got.isError, f"{profile} {name} {json.dumps(full)}: {text(got)}")
        check(text(got) == text(want), f"{profile} {name}: {text(got)!r} != {text(want)!r}")
        n += 1
    print(f"strict-shaped calls {profile}: {n} OK")


async def run_profile(binary, profile, root, out):
    args = ["mcp", "--profile", profile, "--root", root, "--write-root", root, "--allow-overwrite"]
    strict_defs = json.loads(subprocess.run(
        [binary, "schema", "--format", "openai-strict", "--profile", profile, "--root", root,
         "--write-root", root, "--allow-overwrite"], capture_output=True, text=True, check=True).stdout)
    strict_defs = {d["function"]["name"]: d["function"]["parameters"] for d in strict_defs}
    params = StdioServerParameters(command=binary, args=args)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            tools = (await s.list_tools()).tools
            check(tools, f"{profile}: no tools")
            for t in tools:
                check("additionalProperties" not in json.dumps(t.inputSchema),
                      f"{profile} {t.name}: additionalProperties in the MCP inputSchema")
            google_genai(tools, profile)
            strict_schemas = openai_agents(tools, profile, strict_defs)
            pydantic_ai(tools, profile)
            await langchain(s, tools, profile)
            original = {t.name: t.inputSchema for t in tools}
            await strict_calls(s, profile, root, original, strict_schemas)


async def google_genai_only(binary, profile, root):
    """The google-genai conversion alone (a virtualenv holding only mcp and a pinned google-genai)."""
    args = ["mcp", "--profile", profile, "--root", root, "--write-root", root, "--allow-overwrite"]
    async with stdio_client(StdioServerParameters(command=binary, args=args)) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            google_genai((await s.list_tools()).tools, profile)


async def main():
    binary, tmp = sys.argv[1], sys.argv[2]
    only_genai = sys.argv[3:] == ["--only", "google-genai"]
    if only_genai:
        from importlib.metadata import version
        print(f"google-genai version {version('google-genai')}")
    root = tree(tmp)
    for profile in PROFILES:
        if not supported(binary, profile):
            print(f"{profile}: not offered by this build, skipped")
            continue
        if only_genai:
            await google_genai_only(binary, profile, root)
        else:
            await run_profile(binary, profile, root, sys.stdout)
    print("ALL OK")


if __name__ == "__main__":
    asyncio.run(main())
