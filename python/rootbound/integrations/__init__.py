"""Adapters for agent frameworks: thin layers over ``Sandbox.call`` and ``Sandbox.tools`` with no
policy of their own. Each needs its framework installed (the package's optional extras):

- ``rootbound.integrations.openai_agents``: ``pip install 'rootbound[openai-agents]'``
- ``rootbound.integrations.langchain``: ``pip install 'rootbound[langchain]'``
"""

from __future__ import annotations

import copy
import json
from typing import Any, Dict, List, Mapping, Optional

from .._sandbox import Sandbox

__all__ = ["nullable_optional", "drop_none", "definitions", "invoke"]


def nullable_optional(schema: Mapping[str, Any]) -> Dict[str, Any]:
    """A copy of an object schema for strict-mode clients: every property becomes required, and
    each one that was optional also accepts ``null`` (so the model can leave it unset), recursively
    in nested objects. ``drop_none`` undoes it on the arguments before the call."""
    out = copy.deepcopy(dict(schema))
    _nullable(out)
    return out


def _nullable(s: Dict[str, Any]) -> None:
    if s.get("type") == "object" and "properties" not in s:
        s["properties"] = {}  # strict mode wants both, even for a tool without arguments
    props = s.get("properties")
    if isinstance(props, dict):
        required = set(s.get("required") or ())
        for name, p in props.items():
            if not isinstance(p, dict):
                continue
            _nullable(p)
            if name not in required:
                _allow_null(p)
        s["required"] = list(props)
        s["additionalProperties"] = False
    items = s.get("items")
    if isinstance(items, dict):
        _nullable(items)


def _allow_null(p: Dict[str, Any]) -> None:
    t = p.get("type")
    if isinstance(t, str):
        p["type"] = [t, "null"]
    elif isinstance(t, list) and "null" not in t:
        p["type"] = [*t, "null"]
    elif t is None:
        p.setdefault("anyOf", [])  # untyped: leave as is
        return
    if isinstance(p.get("enum"), list) and None not in p["enum"]:
        p["enum"] = [*p["enum"], None]


def drop_none(value: Any) -> Any:
    """Arguments without the ``null`` values a strict-mode model sends for fields it leaves unset."""
    if isinstance(value, dict):
        return {k: drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [drop_none(v) for v in value]
    return value


def definitions(sb: Sandbox, profile: Optional[str] = None) -> List[Dict[str, Any]]:
    """The sandbox's tools as ``{name, description, parameters}`` (the OpenAI function shape's
    inner object)."""
    return [t["function"] for t in sb.tools("openai", profile=profile)]


def invoke(sb: Sandbox, name: str, args: Any, profile: Optional[str] = None) -> str:
    """Calls a tool for a framework: arguments as a dict or JSON text (``null`` fields dropped),
    the result (or the error object, never raised) as JSON text for the model."""
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except ValueError as e:
            err = {"code": "INVALID_ARGUMENT", "message": f"bad arguments: not JSON: {e}"}
            return json.dumps({"error": err})
    result = sb.call(name, drop_none(args or {}), profile=profile)
    return json.dumps(result, ensure_ascii=False)
