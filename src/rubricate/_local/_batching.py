"""Concurrent batched requests on one loaded model, run together on its `SequencePool`.

`ChatLlamaCpp.complete_many` sends one request (one evaluation's prompts). While the model is
busy, requests from other evaluations wait here; the first to get the model then runs every
waiting request as one call, so `grade -j 4` on the embedded model decodes four items' questions
and gaps side by side instead of one after another.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rubricate._local._sequences import Completion, Prompt, SequencePool

__all__ = ["BatchQueue", "ChatPrompter"]


class ChatPrompter:
    """Chat messages to prompt tokens, exactly as `Llama.create_chat_completion` makes them.

    Only for a model whose chat format is the template in its GGUF metadata (llama-cpp-python's
    default); `for_model` returns `None` otherwise, and batching is then not offered.
    """

    def __init__(self, llama: Any, formatter: Any) -> None:
        self._llama = llama
        self._formatter = formatter

    @classmethod
    def for_model(cls, llama: Any) -> ChatPrompter | None:
        from llama_cpp import llama_chat_format

        metadata = getattr(llama, "metadata", None)
        template = metadata.get("tokenizer.chat_template") if isinstance(metadata, dict) else None
        if template is None or getattr(llama, "chat_handler", None) is not None:
            return None
        if getattr(llama, "chat_format", None) not in (None, "chat_template.default"):
            return None
        model = llama._model
        eos, bos = llama.token_eos(), llama.token_bos()
        formatter = llama_chat_format.Jinja2ChatFormatter(
            template=template,
            eos_token=model.token_get_text(eos) if eos != -1 else "",
            bos_token=model.token_get_text(bos) if bos != -1 else "",
            stop_token_ids=[eos],
        )
        return cls(llama, formatter)

    def tokens(self, messages: Sequence[Mapping[str, Any]]) -> tuple[int, ...]:
        """The prompt's tokens; a trailing assistant message is continued, not closed.

        That is a prefill: the answer starts with that text and the model goes on from it,
        so a question's sequence extends by the prefill's few tokens rather than by a new turn.
        """
        messages = list(messages)
        prefill = ""
        last = messages[-1] if messages else {}
        if last.get("role") == "assistant" and not last.get("tool_calls"):
            prefill = str(last.get("content") or "")
            messages = messages[:-1]
        result = self._formatter(messages=messages)
        return tuple(
            self._llama.tokenize(
                (result.prompt + prefill).encode("utf-8"),
                add_bos=not result.added_special,
                special=True,
            )
        )

    def single_token(self, text: str) -> int | None:
        found = self._llama.tokenize(text.encode("utf-8"), add_bos=False, special=False)
        return int(found[0]) if len(found) == 1 else None


@dataclass
class _Request:
    prompts: list[Prompt]
    done: threading.Event = field(default_factory=threading.Event)
    result: list[Completion] = field(default_factory=list)
    error: BaseException | None = None


@dataclass
class BatchQueue:
    """Requests waiting for the model, and the pool that runs them."""

    pool: SequencePool
    lock: threading.Lock
    """The model's lock: one llama.cpp computation at a time on these CPU threads."""
    _waiting: list[_Request] = field(default_factory=list)
    _guard: threading.Lock = field(default_factory=threading.Lock)

    def run(self, prompts: list[Prompt]) -> list[Completion]:
        """Complete `prompts` (sharing a prefix), together with whatever else is waiting."""
        request = _Request(prompts)
        with self._guard:
            self._waiting.append(request)
        with self.lock:
            if not request.done.is_set():
                with self._guard:
                    taken, self._waiting = self._waiting, []
                try:
                    results = self.pool.complete([r.prompts for r in taken])
                    for r, completions in zip(taken, results, strict=True):
                        r.result = completions
                except BaseException as exc:
                    for r in taken:
                        r.error = exc
                finally:
                    for r in taken:
                        r.done.set()
        if request.error is not None:
            raise request.error
        return request.result
