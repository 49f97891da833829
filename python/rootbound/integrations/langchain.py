"""Tools for LangChain / LangGraph (``pip install 'rootbound[langchain]'``).

>>> from rootbound import Sandbox
>>> from rootbound.integrations.langchain import langchain_tools
>>> tools = langchain_tools(Sandbox("/srv/project"))               # doctest: +SKIP
>>> model.bind_tools(tools)                                        # doctest: +SKIP

Each tool is a ``StructuredTool`` whose ``args_schema`` is the tool's JSON schema; it returns the
result (or the error object, never raised) as JSON text, synchronously or with ``ainvoke`` (on the
executor, cancelled with its task).
"""

from __future__ import annotations

import json
from typing import Any, List, Optional

from langchain_core.tools import StructuredTool

from .._sandbox import Budget, Sandbox
from . import definitions, drop_none

__all__ = ["langchain_tools"]


def langchain_tools(sb: Sandbox, *, profile: Optional[str] = None) -> List[StructuredTool]:
    """The sandbox's tools (in ``profile``'s dialect, default the sandbox's) as ``StructuredTool``s."""
    out: List[StructuredTool] = []
    for d in definitions(sb, profile):
        name = d["name"]

        def run(_name: str = name, **kwargs: Any) -> str:
            return json.dumps(sb.call(_name, drop_none(kwargs), profile=profile), ensure_ascii=False)

        async def arun(_name: str = name, **kwargs: Any) -> str:
            r = await sb.call_async(_name, drop_none(kwargs), profile=profile, budget=Budget())
            return json.dumps(r, ensure_ascii=False)

        out.append(
            StructuredTool(
                name=name,
                description=d["description"],
                args_schema=d["parameters"],
                func=run,
                coroutine=arun,
            )
        )
    return out
