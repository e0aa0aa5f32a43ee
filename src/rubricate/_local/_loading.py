"""The process-wide llama.cpp instances: one per (file, context settings), shared, freed at exit.

Every `ChatLlamaCpp` with the same key uses one `LoadedModel`: its `Llama` (loaded lazily, with
a lock around every call, so consecutive calls reuse the longest common prompt prefix), its
grammar cache, and the multi-sequence context `complete_many` batches on.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubricate._exceptions import LocalModelError
from rubricate._local._batching import BatchQueue, ChatPrompter
from rubricate._local._grammar import GreedyGrammar, grammar_sampler
from rubricate._local._logprobs import LogprobRecorder
from rubricate._local._sequences import SequencePool

__all__ = ["LOADED", "LoadedModel", "ModelKey", "cpu_has_amx", "import_llama_cpp", "load"]


@dataclass(frozen=True)
class ModelKey:
    path: str
    n_ctx: int
    n_threads: int
    n_batch: int
    weight_repacking: bool


@dataclass
class LoadedModel:
    """One llama.cpp context, shared by every `ChatLlamaCpp` with the same key."""

    llama: Any
    llama_cpp: Any
    tool_call_tokens: bool
    """Whether `<tool_call>` is a single token, so grammars can name it as one."""
    n_threads: int
    lock: threading.Lock = field(default_factory=threading.Lock)
    grammars: dict[str, Any] = field(default_factory=dict)
    _prompter: ChatPrompter | None = None
    _queue: BatchQueue | None = None
    _ready: set[str] = field(default_factory=set)
    """Which of the lazily built parts (`prompter`, `queue`) have been tried."""

    def chat_prompter(self) -> ChatPrompter | None:
        """Builds prompt tokens from the GGUF's chat template; `None` if it has none."""
        if "prompter" not in self._ready:
            with self.lock:
                if "prompter" not in self._ready:
                    self._prompter = ChatPrompter.for_model(self.llama)
                    self._ready.add("prompter")
        return self._prompter

    def batch_queue(self) -> BatchQueue | None:
        """The multi-sequence context's queue, created on first use; `None` if not possible."""
        if "queue" not in self._ready and self.chat_prompter() is not None:
            with self.lock:
                if "queue" not in self._ready:
                    pool = SequencePool(self.llama, self.llama_cpp, n_threads=self.n_threads)
                    self._queue = BatchQueue(pool=pool, lock=self.lock)
                    self._ready.add("queue")
        return self._queue

    def clear(self) -> None:
        """Forget every cached prompt, in both contexts (the model's own and the batch's)."""
        with self.lock:
            self.llama.reset()
            self.llama._ctx.kv_cache_clear()
            if self._queue is not None:
                self._queue.pool.clear()

    def complete(
        self,
        request: Mapping[str, Any],
        grammar: str | None,
        *,
        shortcut: bool = False,
        logprobs: int | None = None,
        logprob_tokens: Sequence[str] = (),
    ) -> tuple[Any, int]:
        """Run one chat completion; return the response and how many prompt tokens were reused.

        Nothing here resets the context, so llama.cpp keeps the KV cache of the previous call
        and only evaluates the prompt from the first token that differs. `shortcut` decodes
        `grammar` with `GreedyGrammar`; only a greedy request may ask for it. `logprobs` (the
        number of alternatives per token) records log-probabilities into the response's
        `choices[0]["logprobs"]`, in OpenAI's shape, with `logprob_tokens` among the
        alternatives at every step.
        """
        with self.lock, contextlib.ExitStack() as stack:
            processors: list[Any] = []
            recorder = (
                LogprobRecorder(top=logprobs, always=self._single_tokens(logprob_tokens))
                if logprobs is not None
                else None
            )
            if recorder is not None:
                processors.append(recorder)  # first: it must see the raw logits
            constraint: dict[str, Any] = {}
            if grammar is not None and shortcut:
                processors.append(
                    stack.enter_context(GreedyGrammar(self.llama_cpp, self.llama, grammar))
                )
            elif grammar is not None:
                constraint["grammar"] = self._grammar(grammar)
            if processors:
                constraint["logits_processor"] = self.llama_cpp.LogitsProcessorList(processors)
            previous = list(self.llama.input_ids[: self.llama.n_tokens])
            try:
                response = self.llama.create_chat_completion(**request, **constraint)
            except ValueError as exc:
                if "context window" in str(exc):
                    raise ValueError(
                        f"{exc}. Shorten the prompt or lower `max_tokens`, or create the model "
                        f"with a larger `n_ctx`."
                    ) from exc
                raise
            usage = response.get("usage") or {}
            prompt_tokens = usage.get("prompt_tokens", 0)
            if recorder is not None:
                choice = response["choices"][0]
                content = recorder.content(
                    self.llama,
                    usage.get("completion_tokens", 0),
                    choice["message"].get("content") or "",
                )
                choice["logprobs"] = {"content": content}
            current = list(self.llama.input_ids[:prompt_tokens])
            return response, _reused_prefix(previous, current)

    def complete_tokens(
        self, tokens: list[int], *, max_tokens: int, stop: list[str]
    ) -> tuple[Any, int]:
        """Greedy completion of a token prompt; the response and the prompt tokens reused."""
        with self.lock:
            previous = list(self.llama.input_ids[: self.llama.n_tokens])
            response = self.llama.create_completion(
                tokens,
                max_tokens=max_tokens,
                stop=stop or None,
                temperature=0.0,
                repeat_penalty=1.0,
            )
            return response, _reused_prefix(previous, tokens)

    def _single_tokens(self, texts: Sequence[str]) -> tuple[int, ...]:
        """The token ids of those `texts` that are one token each."""
        ids = [self.llama.tokenize(t.encode("utf-8"), add_bos=False, special=False) for t in texts]
        return tuple(int(found[0]) for found in ids if len(found) == 1)

    def _grammar(self, text: str) -> Any:
        """Compile and validate a GBNF grammar once, for sampled (non-greedy) decoding."""
        if (compiled := self.grammars.get(text)) is not None:
            return compiled
        self.llama_cpp.llama_sampler_free(grammar_sampler(self.llama_cpp, self.llama, text))
        compiled = self.llama_cpp.LlamaGrammar.from_string(text, verbose=False)
        self.grammars[text] = compiled
        return compiled


LOADED: dict[ModelKey, LoadedModel] = {}
_LOAD_LOCK = threading.Lock()


@atexit.register
def _close_all() -> None:
    """Free the models before interpreter teardown.

    Left to `Llama.__del__` at shutdown, llama-cpp-python prints a spurious
    "Exception ignored ... 'NoneType' object is not callable" after every run.
    """
    for loaded in LOADED.values():
        with contextlib.suppress(Exception):
            if loaded._queue is not None:
                loaded._queue.pool.close()  # its context before the weights it runs on
            loaded.llama.close()
    LOADED.clear()
    # llama-cpp-python keeps two /dev/null handles open for its whole life; closed here, they
    # stop showing up as ResourceWarnings at exit.
    utils = sys.modules.get("llama_cpp._utils")
    for name in ("outnull_file", "errnull_file"):
        with contextlib.suppress(Exception):
            getattr(utils, name).close()


def load(key: ModelKey) -> LoadedModel:
    with _LOAD_LOCK:
        if (loaded := LOADED.get(key)) is not None:
            return loaded
        llama_cpp = import_llama_cpp()
        if not Path(key.path).is_file():
            raise LocalModelError(
                f"Model file {key.path!r} does not exist. Pass the path of a GGUF file as "
                "`model_path`, or use `default_local_model()` for the embedded model."
            )
        try:
            with contextlib.ExitStack() as stack:
                if not key.weight_repacking:
                    stack.enter_context(_without_extra_buffer_types(llama_cpp))
                llama = llama_cpp.Llama(
                    model_path=key.path,
                    n_ctx=key.n_ctx,
                    n_threads=key.n_threads,
                    n_threads_batch=key.n_threads,
                    n_batch=key.n_batch,
                    verbose=False,
                )
        except Exception as exc:
            raise LocalModelError(
                f"llama.cpp could not load {key.path!r}: {exc}. The file may be truncated or not "
                f"a GGUF model that llama-cpp-python {llama_cpp.__version__} supports; for the "
                "embedded model delete it so that it is assembled again. Create the model with "
                "`n_ctx` lower if memory ran out."
            ) from exc
        tool_call_tokens = len(llama.tokenize(b"<tool_call>", add_bos=False, special=True)) == 1
        loaded = LoadedModel(
            llama=llama,
            llama_cpp=llama_cpp,
            tool_call_tokens=tool_call_tokens,
            n_threads=key.n_threads,
        )
        LOADED[key] = loaded
        return loaded


def import_llama_cpp(module: str = "llama_cpp") -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise LocalModelError(
            f"The local model needs llama-cpp-python, which cannot be imported ({exc}). "
            "Install it with `pip install 'rubricate[local]'`."
        ) from exc


@contextlib.contextmanager
def _without_extra_buffer_types(llama_cpp: Any) -> Iterator[None]:
    """Load with `use_extra_bufts=False`, which `Llama()` does not expose.

    `Llama.__init__` starts from `llama_model_default_params()`; swapping that function while the
    load lock is held is the only hook. It turns off the AMX and repacked weight layouts.
    """
    low = llama_cpp.llama_cpp
    original = low.llama_model_default_params

    def params() -> Any:
        value = original()
        value.use_extra_bufts = False
        return value

    low.llama_model_default_params = params
    try:
        yield
    finally:
        low.llama_model_default_params = original


@functools.cache
def cpu_has_amx() -> bool:
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return any(
        line.startswith("flags") and "amx_int8" in line.split() for line in cpuinfo.splitlines()
    )


def _reused_prefix(previous: Sequence[int], current: Sequence[int]) -> int:
    """How many prompt tokens llama.cpp could keep from the previous call's KV cache."""
    n = min(len(previous), len(current))
    same = 0
    while same < n and previous[same] == current[same]:
        same += 1
    # llama.cpp re-evaluates the last prompt token when the whole prompt was cached.
    return min(same, max(len(current) - 1, 0))
