"""How the judge calls its model: retries, usage, structured answers, log-probabilities.

Also the embedded model's batched calls and structured-output fallbacks. The judge decides
what to ask; this module decides how a question reaches a given chat model and comes back
parsed, whatever the provider supports.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable

from .._exceptions import GraderError
from .._types import Usage
from ._confidence import TOP_LOGPROBS, verdict_probabilities
from ._evidence import message_text
from ._retry import RetryPolicy, call_with_retries, status_code_of

__all__ = ["Meter", "ModelCalls"]

_RUNNABLE_CACHE = 64  # structured-output runnables kept, one per distinct schema
_REASONING_MODEL = re.compile(r"^(o\d|gpt-5)", re.IGNORECASE)
# How OpenAI-compatible servers reject a `response_format` they do not take: 400 or 422 from most,
# 500 from llama-cpp-python's server (its request validation error, wrapped).
_REJECTED_FORMAT_STATUS = frozenset({400, 415, 422, 500})


@dataclass
class Meter:
    """Usage of one evaluation, counted as calls happen so nothing is lost on an error."""

    input_tokens: int = 0
    output_tokens: int = 0
    calls: int = 0

    def count_call(self, calls: int = 1) -> None:
        self.calls += calls

    def add(self, message: Any) -> None:
        usage = getattr(message, "usage_metadata", None) or {}
        self.input_tokens += int(usage.get("input_tokens") or 0)
        self.output_tokens += int(usage.get("output_tokens") or 0)

    def usage(self) -> Usage:
        return Usage(
            input_tokens=self.input_tokens, output_tokens=self.output_tokens, calls=self.calls
        )


class _Owner(Protocol):
    """What the calls read from their judge at call time (settings may change after creation)."""

    model: BaseChatModel
    model_name: str
    retry: RetryPolicy


class ModelCalls:
    """The judge's model calls, with the state they keep between calls of one judge."""

    def __init__(self, owner: _Owner) -> None:
        self._owner = owner
        self._runnables: dict[str, Runnable[Any, Any] | None] = {}
        self.verdict_model = _with_logprobs(owner.model)
        """The model that gives verdicts: a copy asking for log-probabilities, when it can."""
        self.verdict_words: dict[str, Any] = (
            {"logprob_tokens": ["yes", "no"]}
            if "logprob_tokens" in getattr(type(self.verdict_model), "model_fields", {})
            and self.verdict_model is not owner.model
            else {}
        )
        """Both yes/no words' log-probabilities, whatever their rank, where the model can."""
        self.structured_method: str | None = None  # None: the provider's default method
        self._engine_features: tuple[bool, bool] | None = None  # (batches, continues)

    async def invoke(
        self,
        runnable: Runnable[Any, Any],
        messages: list[BaseMessage],
        meter: Meter,
        *,
        permanent: Callable[[BaseException], bool] | None = None,
        **kwargs: Any,
    ) -> Any:
        reply = await call_with_retries(
            lambda: runnable.ainvoke(messages, **kwargs),
            self._owner.retry,
            model=self._owner.model_name,
            on_attempt=meter.count_call,
            permanent=permanent,
        )
        meter.add(reply["raw"] if isinstance(reply, dict) and "raw" in reply else reply)
        return reply

    async def batches(self) -> bool:
        """Whether the model answers many conversations in one batch (`ChatLlamaCpp`)."""
        return (await self._engine())[0]

    async def continues(self) -> bool:
        """Whether the model continues a trailing AI message (a prefill) in `complete_many`."""
        return (await self._engine())[1]

    async def _engine(self) -> tuple[bool, bool]:
        """What the embedded model's engine can do, asked once (it loads the model)."""
        if self._engine_features is None:

            def probe() -> tuple[bool, bool]:
                batches = getattr(self._owner.model, "can_batch", None)
                continues = getattr(self._owner.model, "can_continue", None)
                return (
                    bool(batches is not None and batches()),
                    bool(continues is not None and continues()),
                )

            self._engine_features = await asyncio.to_thread(probe)
        return self._engine_features

    async def invoke_many(
        self,
        conversations: list[list[BaseMessage]],
        meter: Meter,
        *,
        choices: tuple[str, ...] = (),
        stop: tuple[str, ...] = (),
        max_tokens: int | None = None,
    ) -> list[Any]:
        """Answer conversations on the embedded model: batched where it can, else one by one.

        `choices` asks for a one-token answer from those words, with their log-probabilities;
        otherwise free text up to `stop`. Each conversation counts as one call.
        """
        many = getattr(self._owner.model, "acomplete_many", None)
        if many is None:  # a grammar model without batching (third-party, or a test's script)
            if choices:
                grammar = "root ::= " + " | ".join(json.dumps(c) for c in choices)
                return [
                    await self.invoke(
                        self.verdict_model,
                        c,
                        meter,
                        grammar=grammar,
                        max_tokens=max(len(c) for c in choices),
                        **self.verdict_words,
                    )
                    for c in conversations
                ]
            return [
                await self.invoke(
                    self._owner.model, c, meter, stop=list(stop), max_tokens=max_tokens
                )
                for c in conversations
            ]
        replies: list[AIMessage] = await call_with_retries(
            lambda: many(conversations, choices=choices, stop=stop, max_tokens=max_tokens),
            self._owner.retry,
            model=self._owner.model_name,
            on_attempt=lambda: meter.count_call(len(conversations)),
        )
        for reply in replies:
            meter.add(reply)
        return replies

    async def structured(
        self, messages: list[BaseMessage], schema: dict[str, Any], meter: Meter
    ) -> Any:
        """The parsed answer (a dict), or the raw text when it did not parse (a problem later)."""
        return await self.answer(self.structured_runnable(schema), messages, schema, meter)

    async def answer(
        self,
        runnable: Runnable[Any, Any] | None,
        messages: list[BaseMessage],
        schema: dict[str, Any],
        meter: Meter,
    ) -> Any:
        """`_structured` with the schema's runnable already looked up (`None`: unsupported)."""
        return (await self.scored_answer(runnable, messages, schema, meter))[0]

    async def scored_answer(
        self,
        runnable: Runnable[Any, Any] | None,
        messages: list[BaseMessage],
        schema: dict[str, Any],
        meter: Meter,
    ) -> tuple[Any, list[tuple[str | None, float | None]]]:
        """`_answer`, plus P(pass) at each verdict the reply's log-probabilities cover."""
        if runnable is None:
            return await self._json_in_text(messages, schema, meter), []
        try:
            reply = await self.invoke(
                runnable,
                messages,
                meter,
                # Until the provider's own structured output has worked or been replaced, a
                # rejection of it is not retried: it would only be rejected again.
                permanent=_rejects_response_format if self.structured_method is None else None,
            )
        except GraderError as exc:
            fallback = self._fallback_after_rejection(exc, runnable, schema)
            if fallback is not None:
                return await self.scored_answer(fallback, messages, schema, meter)
            if not self._drop_logprobs(exc):
                raise
            plain = self.structured_runnable(schema)
            if plain is None:
                return await self._json_in_text(messages, schema, meter), []
            reply = await self.invoke(plain, messages, meter)
        raw = reply.get("raw") if isinstance(reply, dict) else reply
        scores = verdict_probabilities(raw)
        answers = _tool_answers(raw, schema.get("title"))
        if not isinstance(reply, dict):  # the schema bound as a forced tool: read it ourselves
            if not answers:
                return (message_text(raw) if isinstance(raw, BaseMessage) else None), scores
            return (answers[0] if len(answers) == 1 else _merged(answers)), scores
        if len(answers) > 1:
            # Parallel tool calls: LangChain's parser keeps the first and drops the rest, which
            # would let a `pass` before a contradicting `fail` through. Keep them all.
            return _merged(answers), scores
        if reply.get("parsed") is not None:
            return reply["parsed"], scores
        return (message_text(raw) if isinstance(raw, BaseMessage) else None), scores

    def _drop_logprobs(self, error: GraderError) -> bool:
        """After a provider refused `logprobs` (reasoning models do), ask without them.

        True when `error` is such a refusal: the caller asks again, on a runnable built from
        the plain model. Confidence is then `None`; a verdict never fails for want of it.
        """
        cause = error.__cause__
        if cause is None or "logprob" not in str(cause).lower() or error.status_code != 400:
            return False
        if self.verdict_model is not self._owner.model:
            self.verdict_model = self._owner.model
            self._runnables.clear()
        return True

    def structured_runnable(
        self, schema: dict[str, Any], key: str | None = None
    ) -> Runnable[Any, Any] | None:
        """The runnable that answers under `schema`, built once per schema; `None` if unsupported.

        A model on LangChain's default `with_structured_output` gets the schema bound as a forced
        tool, and the judge reads the tool calls itself: it validates them anyway, and LangChain's
        parser chain cost ~80% of an evaluation's own CPU (bench/overhead.py) while dropping all
        but the first of parallel tool calls. Models with their own structured output (OpenAI,
        Anthropic, the embedded model's grammar) keep it, with `include_raw=True`, unless the
        server rejected it (`_fallback_after_rejection`). `key` is the schema's cache key, when
        the caller already has it.
        """
        key = key or json.dumps(schema, sort_keys=True)
        if key in self._runnables:
            return self._runnables[key]
        runnable: Runnable[Any, Any] | None
        try:
            model = self.verdict_model
            if type(model).with_structured_output is BaseChatModel.with_structured_output:
                runnable = model.bind_tools([schema], tool_choice="any")
            elif self.structured_method is not None:
                runnable = model.with_structured_output(
                    schema, include_raw=True, method=self.structured_method
                )
            else:
                runnable = model.with_structured_output(schema, include_raw=True)
        except NotImplementedError:
            runnable = None
        if len(self._runnables) >= _RUNNABLE_CACHE:
            self._runnables.pop(next(iter(self._runnables)))
        self._runnables[key] = runnable
        return runnable

    def _fallback_after_rejection(
        self, error: GraderError, failed: Runnable[Any, Any], schema: dict[str, Any]
    ) -> Runnable[Any, Any] | None:
        """Tool calling instead, when the server rejected the provider's structured output.

        `ChatOpenAI` asks for `response_format: json_schema` by default, which OpenAI-compatible
        servers do not all take (llama-cpp-python's answers HTTP 500 naming `response_format`);
        a forced tool call is what they do take. The switch is made once for the judge and
        kept. `None` when `error` is not such a rejection, or tool calling failed too.
        """
        if error.__cause__ is None or not _rejects_response_format(error.__cause__):
            return None
        if self.structured_method is None:
            try:  # a `with_structured_output` without this `method` keeps its own
                self._owner.model.with_structured_output(
                    schema, include_raw=True, method="function_calling"
                )
            except (TypeError, ValueError, NotImplementedError):
                return None
            self.structured_method = "function_calling"
            self._runnables.clear()
        fallback = self.structured_runnable(schema)
        return None if fallback is None or fallback is failed else fallback

    async def _json_in_text(
        self, messages: list[BaseMessage], schema: dict[str, Any], meter: Meter
    ) -> Any:
        """For chat models without structured output: ask for JSON in plain text and parse it."""
        instruction = f"Reply with JSON only, matching this JSON schema:\n{json.dumps(schema)}"
        reply = await self.invoke(self._owner.model, [*messages, HumanMessage(instruction)], meter)
        text = message_text(reply).strip()
        start, end = text.find("{"), text.rfind("}")
        try:
            return json.loads(text[start : end + 1]) if 0 <= start < end else text
        except json.JSONDecodeError:
            return text


def _with_logprobs(model: BaseChatModel) -> BaseChatModel:
    """A copy of `model` that asks for token log-probabilities, or `model` when it cannot.

    Models that take OpenAI's `logprobs` / `top_logprobs` settings (langchain-openai's classes,
    the embedded `ChatLlamaCpp`) get them; others are left alone. OpenAI's reasoning models
    refuse them, so they are not asked (and any other refusal is caught: `_drop_logprobs`).
    """
    fields = getattr(type(model), "model_fields", {})
    if "logprobs" not in fields or "top_logprobs" not in fields:
        return model
    name = str(getattr(model, "model_name", None) or getattr(model, "model", "") or "")
    if _REASONING_MODEL.match(name.rsplit("/", 1)[-1]):
        return model
    try:
        return model.model_copy(update={"logprobs": True, "top_logprobs": TOP_LOGPROBS})
    except Exception:  # an unusual model class: no confidence, never a failure
        return model


def _rejects_response_format(error: BaseException) -> bool:
    """True when a server refused the request's `response_format` (it would refuse it again).

    SDKs keep the server's reason in the error's `body`; OpenAI's message omits it.
    """
    said = f"{error} {getattr(error, 'body', '')}"
    return status_code_of(error) in _REJECTED_FORMAT_STATUS and "response_format" in said


def _tool_answers(raw: Any, name: Any) -> list[Any]:
    """The arguments of every tool call in `raw` that answers under the schema's `name`."""
    calls = raw.tool_calls if isinstance(raw, AIMessage) else []
    return [call.get("args") for call in calls if call.get("name") == name]


def _merged(answers: list[Any]) -> Any:
    """Several answers to one question, kept together so that `parse_*` sees any contradiction."""
    if all(isinstance(a, Mapping) and isinstance(a.get("verdicts"), list) for a in answers):
        return {"verdicts": [item for a in answers for item in a["verdicts"]]}
    return answers
