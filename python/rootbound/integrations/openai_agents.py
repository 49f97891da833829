"""Tools for the OpenAI Agents SDK (``pip install 'rootbound[openai-agents]'``).

>>> from agents import Agent
>>> from rootbound import Sandbox
>>> from rootbound.integrations.openai_agents import function_tools
>>> sb = Sandbox("/srv/project", deny=[".env"])                   # doctest: +SKIP
>>> agent = Agent(name="coder", tools=function_tools(sb))         # doctest: +SKIP

Each tool is a ``FunctionTool`` in strict mode: every parameter is required, and the optional
ones accept ``null`` (dropped before the call), so the schemas pass the SDK's strict conversion
unchanged. A tool error is returned to the model as the contract's error object (JSON text); the
call runs on the event loop's executor and is cancelled with its task.
"""

from __future__ import annotations

from typing import Any, List, Optional

from agents import FunctionTool
from agents.tool_context import ToolContext

from .._sandbox import Budget, Sandbox
from . import definitions, drop_none, nullable_optional

__all__ = ["function_tools"]


def function_tools(
    sb: Sandbox, *, profile: Optional[str] = None, strict: bool = True
) -> List[FunctionTool]:
    """The sandbox's tools (in ``profile``'s dialect, default the sandbox's) as ``FunctionTool``s."""
    tools: List[FunctionTool] = []
    for d in definitions(sb, profile):
        params = nullable_optional(d["parameters"]) if strict else dict(d["parameters"])
        tools.append(
            FunctionTool(
                name=d["name"],
                description=d["description"],
                params_json_schema=params,
                on_invoke_tool=_invoker(sb, d["name"], profile),
                strict_json_schema=strict,
            )
        )
    return tools


def _invoker(sb: Sandbox, name: str, profile: Optional[str]) -> Any:
    import json

    async def on_invoke(ctx: ToolContext[Any], args_json: str) -> str:
        try:
            args = json.loads(args_json) if args_json.strip() else {}
        except ValueError as e:
            err = {"code": "INVALID_ARGUMENT", "message": f"bad arguments: not JSON: {e}"}
            return json.dumps({"error": err})
        result = await sb.call_async(name, drop_none(args), profile=profile, budget=Budget())
        return json.dumps(result, ensure_ascii=False)

    return on_invoke
