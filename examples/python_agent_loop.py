"""An agent loop over rootbound from Python, without a model or network: a scripted "model" asks
for tools the way a chat-completions model does (name + JSON arguments), the loop dispatches each
call to the sandbox with `sb.call` and feeds the result back. Swap `scripted_model` for a real
client (`openai.chat.completions.create(..., tools=sb.tools("openai"))`) and nothing else changes.

    pip install .            # from a clone of the repository
    python examples/python_agent_loop.py [DIRECTORY]

It also shows the typed API (results as objects, errors as exceptions, paging, a budget) and is
checked with `mypy --strict` by the Python tests.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any, Dict, Iterator, List, Optional, Tuple

import rootbound
from rootbound import Budget, Sandbox

ToolCall = Tuple[str, str]  # (name, JSON arguments), as a model sends them


def scripted_model(history: List[Dict[str, Any]]) -> Optional[ToolCall]:
    """Stands in for the model: explore, search, read a hit, try an escape, then stop."""
    step = sum(1 for m in history if m["role"] == "tool")
    if step == 0:
        return ("list_dir", "{}")
    if step == 1:
        return ("grep_search", json.dumps({"pattern": "TODO|FIXME", "limit": 5}))
    if step == 2:
        last = history[-1]["content"]
        hit = json.loads(last).get("matches", "").split("\n")[0]
        path = hit.split(":")[0] if hit else "README.md"
        return ("read_file", json.dumps({"path": path, "start_line": 1, "max_lines": 5}))
    if step == 3:
        return ("read_file", json.dumps({"path": "../../etc/passwd"}))
    return None


def agent_loop(sb: Sandbox, task: str) -> List[Dict[str, Any]]:
    tools = sb.tools("openai")  # hand these to the model
    history: List[Dict[str, Any]] = [
        {"role": "system", "content": f"{len(tools)} tools available"},
        {"role": "user", "content": task},
    ]
    while (call := scripted_model(history)) is not None:
        name, args = call
        result = sb.call(name, args)  # errors come back as {"error": ...}, never raised
        history.append({"role": "tool", "name": name, "content": json.dumps(result)})
        status = result["error"]["code"] if "error" in result else "ok"
        print(f"{name}({args}) -> {status}")
    return history


def first_hits(sb: Sandbox, pattern: str, n: int) -> Iterator[rootbound.Hit]:
    for i, hit in enumerate(sb.iter_grep(pattern, page_size=50)):
        if i == n:
            return
        yield hit


def typed_tour(sb: Sandbox) -> None:
    page: rootbound.GrepResult = sb.grep_search("fn|def", limit=3)
    print(f"{page.match_lines} lines, truncated={page.truncated}, searched {page.stats.files_searched}")
    for hit in first_hits(sb, "import", 3):
        print(f"  {hit.path}:{hit.line}: {hit.text[:60]}")
    try:
        sb.read_file("/etc/shadow")
    except rootbound.OutOfSandbox as e:
        print(f"refused: {e.code}: {e.message}")
    budget = Budget(timeout=2.0)
    listing: rootbound.ListResult = sb.list_dir(budget=budget)
    names: List[str] = [e.name for e in listing.entries]
    print(f"{listing.total} entries, first: {names[:3]}")

    async def concurrently() -> int:
        pages = await asyncio.gather(*(sb.grep_search_async(p, limit=1) for p in ["a", "e", "i"]))
        return sum(p.match_lines for p in pages)

    print(f"async pages: {asyncio.run(concurrently())} lines")


def main(argv: List[str]) -> int:
    root = argv[1] if len(argv) > 1 else "."
    sb = Sandbox(root, deny=[".env", ".git/", "*.pem"], max_read_bytes=16384)
    agent_loop(sb, "Find a TODO and show me the file it is in.")
    typed_tour(sb)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
