"""`with_structured_output` for `ChatLlamaCpp`: a schema as a constrained call plus its parser.

Why not LangChain's default: the embedded model constrains decoding to the schema (a JSON-schema
grammar, or a forced tool call whose arguments match it), so the answer always parses; the
parser here only turns it into the pydantic object or dict the caller asked for.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage
from langchain_core.output_parsers import (
    BaseOutputParser,
    JsonOutputKeyToolsParser,
    JsonOutputParser,
    PydanticOutputParser,
    PydanticToolsParser,
)
from langchain_core.runnables import Runnable, RunnableMap, RunnablePassthrough
from pydantic import BaseModel

from rubricate._local._tool_calls import as_openai_tool, json_schema_of

__all__ = ["StructuredMethod", "structured_runnable"]

StructuredMethod = Literal["json_schema", "function_calling", "json_mode"]


def structured_runnable(
    model: BaseChatModel,
    schema: dict[str, Any] | type,
    *,
    include_raw: bool,
    method: StructuredMethod,
    **kwargs: Any,
) -> Runnable[LanguageModelInput, dict[str, Any] | BaseModel]:
    """`model` bound to answer in `schema`, piped into the parser for it.

    `model.bind(json_schema=...)` and `model.bind_tools(..., tool_choice=name)` must constrain
    decoding, as `ChatLlamaCpp`'s do. See `ChatLlamaCpp.with_structured_output` for the arguments.
    """
    kwargs.pop("strict", None)
    if kwargs:
        raise ValueError(f"with_structured_output got unsupported arguments {sorted(kwargs)}")
    is_pydantic = isinstance(schema, type) and issubclass(schema, BaseModel)
    parser: BaseOutputParser[Any]
    llm: Runnable[LanguageModelInput, AIMessage]
    traced = {"kwargs": {"method": method}, "schema": schema}
    if method == "function_calling":
        tool = as_openai_tool(schema)
        name = tool["function"]["name"]
        llm = model.bind_tools([tool], tool_choice=name, ls_structured_output_format=traced)
        if is_pydantic:
            parser = PydanticToolsParser(tools=[schema], first_tool_only=True)  # type: ignore[list-item]
        else:
            parser = JsonOutputKeyToolsParser(key_name=name, first_tool_only=True)
    elif method in ("json_schema", "json_mode"):
        json_schema = json_schema_of(schema) if method == "json_schema" else {"type": "object"}
        llm = model.bind(json_schema=json_schema, ls_structured_output_format=traced)
        parser = (
            PydanticOutputParser(pydantic_object=schema)  # type: ignore[arg-type]
            if is_pydantic
            else JsonOutputParser()
        )
    else:
        raise ValueError(
            f"`method` must be 'json_schema', 'function_calling' or 'json_mode', got {method!r}"
        )
    if not include_raw:
        return llm | parser
    parse_assign = RunnablePassthrough.assign(
        parsed=itemgetter("raw") | parser, parsing_error=lambda _: None
    )
    parse_none = RunnablePassthrough.assign(parsed=lambda _: None)
    with_fallback = parse_assign.with_fallbacks([parse_none], exception_key="parsing_error")
    return RunnableMap(raw=llm) | with_fallback
