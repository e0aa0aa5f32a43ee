"""Tools for the embedded model: OpenAI tool specs, the grammars that force a call, and parsing.

Tools are shown through the model's own chat template (Hermes style: `<tools>` in the system
prompt, `<tool_call>` blocks in the answer); a forced tool choice constrains decoding to a call
whose arguments match the tool's JSON schema.
"""

from __future__ import annotations

import contextlib
import copy
import json
import re
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langchain_core.messages import (
    InvalidToolCall,
    ToolCall,
)
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel

from rubricate._local._loading import import_llama_cpp

__all__ = [
    "ToolChoice",
    "as_openai_tool",
    "gbnf_literal",
    "grammar_for_call",
    "json_schema_grammar",
    "json_schema_of",
    "new_call_id",
    "normalize_tool_choice",
    "parse_tool_calls",
    "structured_call",
    "tool_call_grammar",
]

ToolChoice = Literal["auto", "none", "any"] | str
"""Normalized tool choice: `"auto"`, `"none"`, `"any"` (some tool must be called) or a tool name."""

_TOOL_CALL_RE = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|\Z)", re.DOTALL)
_FENCED_RE = re.compile(r"\A```(?:json)?\s*(.*?)\s*```\Z", re.DOTALL)


def as_openai_tool(tool: Any) -> dict[str, Any]:
    formatted = convert_to_openai_tool(tool)
    function = formatted["function"]
    function.setdefault("parameters", {"type": "object", "properties": {}})
    return formatted


def normalize_tool_choice(choice: Any, tools: Sequence[Mapping[str, Any]]) -> ToolChoice:
    """Reduce the many spellings of a tool choice to "auto", "none", "any" or a tool name."""
    names = [tool["function"]["name"] for tool in tools]
    if choice is None or choice == "auto":
        return "auto"
    if choice in ("none", False):
        return "none"
    if choice in ("any", "required", True):
        if not names:
            raise ValueError(f"`tool_choice={choice!r}` forces a tool call but no tools are bound")
        return names[0] if len(names) == 1 else "any"
    name: Any = choice
    if isinstance(choice, Mapping):
        function = choice.get("function")
        name = function.get("name") if isinstance(function, Mapping) else choice.get("name")
    if isinstance(name, str) and name in names:
        return name
    raise ValueError(
        f"`tool_choice` must be 'auto', 'none', 'any', 'required', a bound tool's name or "
        f"{{'type': 'function', 'function': {{'name': ...}}}}; got {choice!r} "
        f"(bound tools: {names})"
    )


def grammar_for_call(
    *,
    grammar: str | None,
    json_schema: Mapping[str, Any] | None,
    tools: Sequence[Mapping[str, Any]],
    tool_choice: ToolChoice,
    token_syntax: bool,
) -> str | None:
    forced = [
        tool for tool in tools if tool_choice == "any" or tool["function"]["name"] == tool_choice
    ]
    given = [name for name, value in (("grammar", grammar), ("json_schema", json_schema)) if value]
    if forced:
        given.append(f"tool_choice={tool_choice!r}")
    if len(given) > 1:
        raise ValueError(f"{' and '.join(given)} each constrain the answer; pass only one")
    if grammar is not None:
        return grammar
    if json_schema is not None:
        return json_schema_grammar(json_schema)
    if forced:
        return tool_call_grammar(forced, token_syntax=token_syntax)
    return None


def json_schema_grammar(schema: Mapping[str, Any]) -> str:
    """GBNF for JSON matching `schema`, by llama-cpp-python's converter.

    Raises:
        ValueError: The converter cannot handle the schema (`not`, untyped `maxLength`,
            unanchored `pattern`...).

    """
    try:
        return str(_llama_grammar().json_schema_to_gbnf(json.dumps(schema)))
    except (AssertionError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(
            f"`json_schema` cannot be turned into a grammar by llama-cpp-python: {exc!s}"
        ) from exc


def tool_call_grammar(tools: Sequence[Mapping[str, Any]], *, token_syntax: bool = True) -> str:
    """GBNF for exactly one Hermes-style `<tool_call>` to one of `tools`, with valid arguments.

    The literal framing matches what the chat template renders for past calls, so a forced call
    reads to the model like the calls it was trained on. With `token_syntax`, `<tool_call>` is
    matched as the special token the model emits, not as the characters of its text.

    Raises:
        ValueError: A tool's parameters cannot be turned into a grammar.

    """
    converter = _llama_grammar().SchemaConverter(
        prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False
    )
    open_tag, close_tag = (
        ("<tool_call>", "</tool_call>") if token_syntax else ('"<tool_call>"', '"</tool_call>"')
    )
    alternatives = []
    for index, tool in enumerate(tools):
        function = tool["function"]
        parameters = _namespaced_defs(function["parameters"], f"t{index}-")
        try:
            parameters = converter.resolve_refs(parameters, "")
            args_rule = converter.visit(parameters, f"tool{index}-args")
        except (AssertionError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(
                f"The parameters of tool {function['name']!r} cannot be turned into a grammar "
                f"by llama-cpp-python: {exc!s}"
            ) from exc
        prefix = '\n{"name": ' + json.dumps(function["name"]) + ', "arguments": '
        suffix = "}\n"
        alternatives.append(
            f"{open_tag} {gbnf_literal(prefix)} {args_rule} {gbnf_literal(suffix)} {close_tag}"
        )
    rules = str(converter.format_grammar())
    return rules + "\nroot ::= " + " | ".join(f"( {alt} )" for alt in alternatives) + "\n"


def gbnf_literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _namespaced_defs(schema: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    """Prefix `$defs` names so two tools' same-named definitions get distinct grammar rules."""
    renamed = copy.deepcopy(dict(schema))
    renames: dict[str, str] = {}
    for key in ("$defs", "definitions"):
        if isinstance(defs := renamed.get(key), dict):
            renamed[key] = {prefix + name: value for name, value in defs.items()}
            renames.update({f"#/{key}/{name}": f"#/{key}/{prefix}{name}" for name in defs})

    def rewrite(node: Any) -> Any:
        if isinstance(node, dict):
            return {
                k: renames.get(v, v) if k == "$ref" and isinstance(v, str) else rewrite(v)
                for k, v in node.items()
            }
        if isinstance(node, list):
            return [rewrite(item) for item in node]
        return node

    result: dict[str, Any] = rewrite(renamed)
    return result


def parse_tool_calls(
    text: str, tools: Sequence[Mapping[str, Any]]
) -> tuple[str, list[ToolCall], list[InvalidToolCall]]:
    """Split an answer into prose and `<tool_call>` blocks.

    Small models sometimes answer a tool request with the bare call JSON, fenced or not; an
    answer that is nothing but such an object naming a bound tool counts as a call too.
    """
    names = {tool["function"]["name"] for tool in tools}
    calls: list[ToolCall] = []
    invalid: list[InvalidToolCall] = []
    blocks = list(_TOOL_CALL_RE.finditer(text))
    if not blocks:
        stripped = text.strip()
        fenced = _FENCED_RE.match(stripped)
        candidate = fenced.group(1) if fenced else stripped
        parsed = _call_object(candidate, names)
        if parsed is not None:
            calls.append(parsed)
            return "", calls, invalid
        return text, calls, invalid
    for block in blocks:
        raw = block.group(1)
        parsed = _call_object(raw, names)
        if parsed is not None:
            calls.append(parsed)
            continue
        name = None
        with contextlib.suppress(ValueError, AttributeError):
            name = json.loads(raw, strict=False).get("name")
        invalid.append(
            InvalidToolCall(
                type="invalid_tool_call",
                name=name if isinstance(name, str) else None,
                args=raw,
                id=new_call_id(),
                error=(
                    "not a JSON object with a bound tool's `name` and an `arguments` object "
                    f"(bound tools: {sorted(names)})"
                ),
            )
        )
    content = _TOOL_CALL_RE.sub("", text).strip()
    return content, calls, invalid


def _call_object(raw: str, names: set[str]) -> ToolCall | None:
    # `strict=False`: llama-cpp-python's schema grammar lets strings hold raw control characters
    # (a newline in a `gap`), which strict JSON rejects; a forced call the grammar allowed must
    # parse, or agents read it as "malformed or truncated" (langchain's message for it).
    try:
        data = json.loads(raw, strict=False)
    except ValueError:
        # Qwen2.5's template shows the call format as `{{"name": ...}}`, and the model copies it.
        if not (raw.startswith("{{") and raw.endswith("}}")):
            return None
        try:
            data = json.loads(raw[1:-1], strict=False)
        except ValueError:
            return None
    if not isinstance(data, dict) or data.get("name") not in names:
        return None
    args = data.get("arguments", data.get("parameters", {}))
    if isinstance(args, str):
        try:
            args = json.loads(args, strict=False)
        except ValueError:
            return None
    if not isinstance(args, dict):
        return None
    return ToolCall(type="tool_call", name=data["name"], args=args, id=new_call_id())


def new_call_id() -> str:
    return f"call_{uuid.uuid4().hex[:24]}"


def json_schema_of(schema: dict[str, Any] | type) -> dict[str, Any]:
    """The JSON schema to constrain output to, keeping `$defs` and property order."""
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        return schema.model_json_schema()
    if isinstance(schema, dict) and (
        "properties" in schema or "type" in schema or "$ref" in schema
    ):
        if schema.get("type") == "function" and "function" in schema:
            parameters: dict[str, Any] = schema["function"].get("parameters", {})
            return parameters
        return schema
    parameters = as_openai_tool(schema)["function"]["parameters"]
    return parameters


def structured_call(kwargs: Mapping[str, Any], tool_choice: Any) -> bool:
    """True when the answer is constrained to a JSON schema or to a forced tool call."""
    forced = tool_choice not in (None, "auto", "none") and bool(kwargs.get("tools"))
    return kwargs.get("json_schema") is not None or forced


def _llama_grammar() -> Any:
    """llama-cpp-python's grammar module (GBNF helpers and the JSON-schema converter)."""
    return import_llama_cpp("llama_cpp.llama_grammar")
