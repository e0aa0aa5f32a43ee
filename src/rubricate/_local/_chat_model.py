"""`ChatLlamaCpp`: a LangChain chat model that runs a GGUF file in-process with llama.cpp.

Why not langchain-community's class of the same name: the judge needs grammar-constrained output
(yes/no, verdict JSON), forced tool calls (`tool_choice="any"`, which that class rejects) and
KV-cache reuse across calls that share a long prompt prefix. This class gives all three:

- one `llama_cpp.Llama` per (file, context settings) is loaded lazily and shared process-wide,
  with a lock around every call, so consecutive calls reuse the longest common token prefix;
- per-call `grammar=` (GBNF) and `json_schema=` constrain decoding, so output always parses;
- tools are shown to the model through its own chat template (Hermes style: `<tools>` in the
  system prompt, `<tool_call>` blocks in the answer, `<tool_response>` for results), and a forced
  tool choice constrains decoding to a call whose arguments match the tool's JSON schema.

Its parts live beside it: loading (`_loading`), messages in (`_messages`) and replies out
(`_replies`), tool calls (`_tool_calls`), structured output (`_structured_output`) and many
conversations in one batched call (`_complete_many`).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.language_models.base import LangSmithParams
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from pydantic import BaseModel, model_validator

from rubricate._local._complete_many import logprobs, replies, traced
from rubricate._local._loading import LoadedModel, ModelKey, cpu_has_amx, load
from rubricate._local._messages import to_chat_messages
from rubricate._local._replies import reply
from rubricate._local._structured_output import StructuredMethod, structured_runnable
from rubricate._local._tool_calls import (
    as_openai_tool,
    grammar_for_call,
    normalize_tool_choice,
    parse_tool_calls,
    structured_call,
)
from rubricate._local._weights import DEFAULT_MODEL, LOCAL_MODEL_ENV, ensure_default_model

__all__ = ["ChatLlamaCpp", "default_local_model"]


_CALL_KWARGS = frozenset(
    {
        "grammar",
        "json_schema",
        "logprobs",
        "top_logprobs",
        "logprob_tokens",
        "max_tokens",
        "stop",
        "temperature",
        "top_p",
        "top_k",
        "repeat_penalty",
        "seed",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "strict",
    }
)


class ChatLlamaCpp(BaseChatModel):
    """A chat model running a GGUF file in-process with llama-cpp-python.

    Deterministic by default (temperature 0). Per call, through `.invoke(messages, **kw)` or
    `.bind(**kw)`: `grammar` (a GBNF string), `json_schema` (a JSON-schema dict), `max_tokens`,
    `stop`, `temperature`, `top_p`, `top_k`, `repeat_penalty`, `seed`, `logprobs`,
    `top_logprobs`, `logprob_tokens`. `bind_tools` and
    `with_structured_output` are grammar-constrained when the answer's shape is forced.

    Example:
        ```python
        from rubricate._local import ChatLlamaCpp

        model = ChatLlamaCpp(model_path="qwen2.5-coder-1.5b-instruct.gguf")
        model.invoke("Is 7 prime? Answer yes or no.", grammar='root ::= "yes" | "no"')
        ```

    """

    supports_grammar: ClassVar[bool] = True
    """Takes per-call `grammar=` and runs one call at a time (read by `rubricate._models`)."""

    model_path: str
    """Path of the GGUF file."""
    model_name: str = ""
    """Name reported in `response_metadata` and traces; defaults to the file's stem."""
    n_ctx: int = 8192
    """Context window in tokens (prompt plus answer)."""
    n_threads: int | None = None
    """CPU threads for generation and prompt processing; `None` uses every core."""
    n_batch: int = 512
    """Prompt tokens processed per batch."""
    weight_repacking: bool | None = None
    """Let llama.cpp repack weights into CPU-specific layouts (its "extra buffer types").

    `None` turns it off on CPUs with AMX, where llama.cpp's AMX kernels crashed the process in our
    measurements (llama-cpp-python 0.3.36), and leaves llama.cpp's default elsewhere.
    """
    temperature: float = 0.0
    """Sampling temperature; 0 is greedy decoding, so the same prompt gives the same answer."""
    max_tokens: int = 512
    """Maximum tokens to generate per call."""
    structured_max_tokens: int = 4096
    """The limit for answers constrained to a JSON schema or a forced tool call, when the call
    sets none: cutting those at `max_tokens` left a 13-criterion verdict (and deepagents'
    grader's `GraderResponse`) truncated and unusable."""
    top_p: float = 0.95
    """Nucleus sampling threshold (only matters when temperature > 0)."""
    top_k: int = 40
    """Top-k sampling cutoff (only matters when temperature > 0)."""
    repeat_penalty: float = 1.0
    """Repetition penalty; 1.0 (off) keeps constrained JSON and short verdicts undistorted."""
    seed: int = 0
    """Sampling seed (only matters when temperature > 0)."""
    grammar_shortcut: bool = True
    """Under greedy decoding, test only the best token against a grammar and mask the whole
    vocabulary only when it is rejected: the same answer as llama.cpp's full mask, faster (see
    `rubricate._local._grammar`). `False` masks every step, for comparison."""
    stop: list[str] | None = None
    """Stop sequences added to every call."""
    multi_sequence: bool = True
    """Let `complete_many` run its conversations as sequences of one llama.cpp batch (shared
    prefixes evaluated once, answers decoded side by side). `False` runs them one after
    another, for comparison; so does a model whose chat format is not its GGUF template."""
    logprobs: bool = False
    """Report each generated token's log-probability in `response_metadata["logprobs"]`, in
    OpenAI's shape (`{"content": [{"token", "logprob", "bytes", "top_logprobs"}, ...]}`).

    Read from the logits llama.cpp samples from, in the same call: no `logits_all=True` copy of
    every prompt position, no second pass (see `rubricate._local._logprobs`). The log-softmax is
    over the whole vocabulary, before any grammar: a grammar-constrained answer's alternatives
    include tokens the grammar would not have allowed."""
    top_logprobs: int | None = None
    """With `logprobs`, also report this many most likely tokens at each step (OpenAI's name)."""
    logprob_tokens: list[str] | None = None
    """With `logprobs`, also report these texts' log-probabilities at every step, whatever their
    rank (each must be one token of the model's vocabulary; others are left out). A judge reads
    P(yes) against P(no) this way even when neither is among the top tokens."""

    @model_validator(mode="after")
    def _default_model_name(self) -> ChatLlamaCpp:
        if not self.model_name:
            self.model_name = Path(self.model_path).stem
        return self

    @property
    def _llm_type(self) -> str:
        return "llamacpp"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {
            "model_path": self.model_path,
            "model_name": self.model_name,
            "n_ctx": self.n_ctx,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "top_p": self.top_p,
            "top_k": self.top_k,
            "repeat_penalty": self.repeat_penalty,
            "seed": self.seed,
        }

    def _get_ls_params(self, stop: list[str] | None = None, **kwargs: Any) -> LangSmithParams:
        params = LangSmithParams(
            ls_provider="llamacpp",
            ls_model_name=self.model_name,
            ls_model_type="chat",
            ls_temperature=kwargs.get("temperature", self.temperature),
            ls_max_tokens=kwargs.get("max_tokens", self.max_tokens),
        )
        if stop or self.stop:
            params["ls_stop"] = [*(self.stop or ()), *(stop or ())]
        return params

    # -- generation -----------------------------------------------------------------------------

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        unknown = set(kwargs) - _CALL_KWARGS
        if unknown:
            raise TypeError(
                f"ChatLlamaCpp got unsupported call arguments {sorted(unknown)}; supported: "
                f"{sorted(_CALL_KWARGS)}"
            )
        tools = [as_openai_tool(t) for t in kwargs.get("tools") or ()]
        choice = normalize_tool_choice(kwargs.get("tool_choice"), tools)
        chat_messages = to_chat_messages(messages)
        loaded = self._loaded()
        grammar_text = grammar_for_call(
            grammar=kwargs.get("grammar"),
            json_schema=kwargs.get("json_schema"),
            tools=tools,
            tool_choice=choice,
            token_syntax=loaded.tool_call_tokens,
        )
        request: dict[str, Any] = {
            "messages": chat_messages,
            "temperature": kwargs.get("temperature", self.temperature),
            "top_p": kwargs.get("top_p", self.top_p),
            "top_k": kwargs.get("top_k", self.top_k),
            "repeat_penalty": kwargs.get("repeat_penalty", self.repeat_penalty),
            "seed": kwargs.get("seed", self.seed),
            "max_tokens": kwargs.get("max_tokens")
            or (self.structured_max_tokens if structured_call(kwargs, choice) else self.max_tokens),
            "stop": [*(self.stop or ()), *(stop or ())],
        }
        if tools and choice != "none":
            request["tools"] = tools
        top_logprobs = kwargs.get("top_logprobs", self.top_logprobs)
        response, cached = loaded.complete(
            request,
            grammar_text,
            shortcut=self.grammar_shortcut and _greedy(request),
            logprobs=(top_logprobs or 0) if kwargs.get("logprobs", self.logprobs) else None,
            logprob_tokens=kwargs.get("logprob_tokens", self.logprob_tokens) or (),
        )

        choice_out = response["choices"][0]
        text: str = choice_out["message"].get("content") or ""
        content, tool_calls, invalid = (
            parse_tool_calls(text, tools) if tools and choice != "none" else (text, [], [])
        )
        if kwargs.get("parallel_tool_calls") is False:
            tool_calls = tool_calls[:1]
        message = reply(
            content,
            model_name=self.model_name,
            usage=response.get("usage") or {},
            cached=cached,
            finish_reason="tool_calls" if tool_calls else choice_out.get("finish_reason"),
            logprobs=choice_out.get("logprobs"),
            tool_calls=tool_calls,
            invalid_tool_calls=invalid,
        )
        return ChatResult(
            generations=[ChatGeneration(message=message)],
            llm_output={"model_name": self.model_name},
        )

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        # llama.cpp computes synchronously for seconds; a worker thread keeps the loop responsive.
        return await asyncio.to_thread(self._generate, messages, stop, None, **kwargs)

    # -- many conversations at once -------------------------------------------------------------

    def clear_cache(self) -> None:
        """Forget every cached prompt (both llama.cpp contexts), so the next call starts cold.

        For measurements: a later call otherwise reuses what an earlier one evaluated.
        """
        self._loaded().clear()

    def can_batch(self) -> bool:
        """Whether `complete_many` runs conversations side by side (loads the model)."""
        return self.multi_sequence and self._loaded().batch_queue() is not None

    def can_continue(self) -> bool:
        """Whether `complete_many` continues a trailing AI message (loads the model).

        True when prompts are built from the GGUF's own chat template, as by default.
        """
        return self._loaded().chat_prompter() is not None

    async def acomplete_many(
        self,
        conversations: Sequence[Sequence[BaseMessage]],
        *,
        choices: Sequence[str] = (),
        max_tokens: int | None = None,
        stop: Sequence[str] = (),
    ) -> list[AIMessage]:
        """`complete_many` in a worker thread (llama.cpp computes synchronously for seconds)."""
        return await asyncio.to_thread(
            self.complete_many, conversations, choices=choices, max_tokens=max_tokens, stop=stop
        )

    def complete_many(
        self,
        conversations: Sequence[Sequence[BaseMessage]],
        *,
        choices: Sequence[str] = (),
        max_tokens: int | None = None,
        stop: Sequence[str] = (),
    ) -> list[AIMessage]:
        """Answer several conversations that share a prefix, greedily, in one batched call.

        Each conversation becomes a sequence of one llama.cpp context: what it shares with a
        sequence already cached (the evidence, or the question a follow-up extends) is not
        evaluated again, and the answers are decoded one step for all at a time. Calls from
        other threads that arrive meanwhile are run in the same batch. The answers are what
        `invoke` gives at temperature 0, bar floating-point rounding (see `bench/batched.py`).

        Args:
            conversations: The message lists to answer. One that ends with an AI message is
                continued from that message's text (a prefill), not answered in a new turn.
            choices: A one-token answer from these words (each must be one token), the
                likeliest; `response_metadata["logprobs"]` then holds every choice's
                log-probability, in OpenAI's shape. Without it, free text.
            max_tokens: Tokens to generate per answer (default `max_tokens`).
            stop: Texts that end an answer (not included).

        Returns:
            One `AIMessage` per conversation, in order, with token usage. LangChain callbacks
            see one chat-model run per conversation.

        """
        if not conversations:
            return []
        return traced(
            self,
            conversations,
            lambda: replies(
                self._loaded(),
                conversations,
                choices=choices,
                max_tokens=max_tokens or self.max_tokens,
                stop=stop,
                model_stop=self.stop or (),
                batch=self.multi_sequence,
                model_name=self.model_name,
                generate=self._generate,
            ),
            params=self._identifying_params,
            llm_output={"model_name": self.model_name},
        )

    async def ascore_many(self, conversations: Sequence[Sequence[BaseMessage]]) -> list[float]:
        """`score_many` in a worker thread."""
        return await asyncio.to_thread(self.score_many, conversations)

    def score_many(self, conversations: Sequence[Sequence[BaseMessage]]) -> list[float]:
        """How likely the model finds each conversation's last AI message after the ones before.

        The summed log-probability of that message's tokens, as the model's own reply to the
        messages before it (the reply's end of turn is not counted, so a reply is scored as a
        text, not as a finished one). Read from the logits of the one batched pass that
        evaluates each conversation, with no decoding; what conversations share is evaluated
        once, as in `complete_many`.

        Raises:
            ValueError: A conversation does not end with an AI message.
            RuntimeError: The model cannot batch (`multi_sequence=False`, or a GGUF without
                a chat template).

        """
        if not conversations:
            return []
        loaded = self._loaded()
        queue = loaded.batch_queue() if self.multi_sequence else None
        prompter = loaded.chat_prompter()
        if queue is None or prompter is None:
            raise RuntimeError(
                "score_many needs the batched context (`multi_sequence=True` and a GGUF with a "
                "chat template)"
            )
        return logprobs(queue, prompter, conversations)

    def _loaded(self) -> LoadedModel:
        threads = self.n_threads or os.cpu_count() or 1
        repack = self.weight_repacking if self.weight_repacking is not None else not cpu_has_amx()
        key = ModelKey(
            path=str(Path(self.model_path).expanduser().resolve()),
            n_ctx=self.n_ctx,
            n_threads=threads,
            n_batch=self.n_batch,
            weight_repacking=repack,
        )
        return load(key)

    # -- tools and structured output ------------------------------------------------------------

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | dict[str, Any] | bool | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind tools the model may call, described to it through its chat template.

        Args:
            tools: LangChain tools, pydantic models, functions or OpenAI tool dicts.
            tool_choice: `None`/`"auto"` lets the model decide; `"none"` hides the tools;
                `"any"`/`"required"`/`True` forces some call; a tool name or
                `{"type": "function", "function": {"name": ...}}` forces that tool. A forced
                call is grammar-constrained: its arguments always match the tool's schema.
            **kwargs: Further call arguments to bind, as for `invoke`.

        Returns:
            A runnable returning an `AIMessage` whose `tool_calls` hold the parsed calls.

        Example:
            ```python
            verdict = model.bind_tools([Verdict], tool_choice="Verdict").invoke(prompt)
            verdict.tool_calls[0]["args"]
            ```

        """
        formatted = [as_openai_tool(t) for t in tools]
        choice = normalize_tool_choice(tool_choice, formatted)
        return self.bind(tools=formatted, tool_choice=choice, **kwargs)

    def with_structured_output(
        self,
        schema: dict[str, Any] | type,
        *,
        include_raw: bool = False,
        method: StructuredMethod = "json_schema",
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, dict[str, Any] | BaseModel]:
        """Return a runnable whose output is constrained to `schema` and parsed.

        Args:
            schema: A pydantic model class, a JSON-schema dict, an OpenAI tool dict or a
                TypedDict.
            include_raw: Return `{"raw": AIMessage, "parsed": ..., "parsing_error": ...}` instead
                of raising when parsing fails, as LangChain's providers do.
            method: `"json_schema"` constrains the answer to JSON matching the schema (fewest
                tokens); `"function_calling"` forces a tool call carrying it (the shape agents
                expect); `"json_mode"` only constrains to some JSON object.
            **kwargs: `strict` is accepted and ignored (the grammar is always strict).

        Returns:
            A runnable producing a pydantic object (for a pydantic schema) or a dict.

        Raises:
            ValueError: An unknown `method` or argument.

        Example:
            ```python
            class Verdict(BaseModel):
                passed: bool
                gap: str

            model.with_structured_output(Verdict).invoke(prompt)  # -> Verdict(...)
            ```

        """
        return structured_runnable(self, schema, include_raw=include_raw, method=method, **kwargs)


def default_local_model(**overrides: Any) -> ChatLlamaCpp:
    """The embedded judge model: the pinned Qwen2.5-Coder-1.5B-Instruct GGUF (`model="local"`).

    The weights are assembled on first use (see `ensure_default_model`); `$RUBRICATE_LOCAL_MODEL`
    points at another GGUF file instead. The model itself loads lazily, on the first call.

    Args:
        **overrides: Field values for `ChatLlamaCpp`, such as `n_ctx=4096` or `max_tokens=64`.

    Returns:
        A `ChatLlamaCpp` for the embedded model.

    Raises:
        LocalModelError: The weights are missing or corrupt.

    Example:
        ```python
        judge = default_local_model(max_tokens=128)
        ```

    """
    path = ensure_default_model()
    if not os.environ.get(LOCAL_MODEL_ENV):
        overrides.setdefault("model_name", DEFAULT_MODEL.name)
    return ChatLlamaCpp(model_path=str(path), **overrides)


def _greedy(request: Mapping[str, Any]) -> bool:
    """Whether a request decodes greedily with nothing between the logits and the argmax.

    Only then may `GreedyGrammar` test just the best token (see `rubricate._local._grammar`).
    """
    return request.get("temperature") == 0 and request.get("repeat_penalty", 1.0) == 1.0
