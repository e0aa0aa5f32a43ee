"""Token log-probabilities read from the logits llama.cpp computes anyway, at no extra call.

llama-cpp-python returns `logprobs` only from a model created with `logits_all=True`, which keeps
a row of ~151k logits for every prompt token (memory, and time to copy them). The one row that
matters for a generated token is the one it was sampled from, and llama-cpp-python hands exactly
that row to every logits processor. `LogprobRecorder` is such a processor: it changes nothing,
and keeps each step's log-softmax top candidates plus the log-probability of the token that was
then chosen. The result has the shape OpenAI's `logprobs.content` has, so one reader in
`rubricate._judge._confidence` serves the embedded model and remote ones alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy comes with llama-cpp-python (the `local` extra), imported on first use
    import numpy as np
    import numpy.typing as npt

__all__ = ["LogprobRecorder"]


@dataclass
class _Step:
    top_ids: list[int]
    top_logprobs: list[float]
    chosen: int | None = None
    chosen_logprob: float | None = None


@dataclass
class LogprobRecorder:
    """A llama-cpp-python logits processor that records log-probabilities and changes nothing.

    Put it first in `logits_processor`, so that it sees the model's raw logits (before a grammar
    or a penalty); one instance serves one completion. `top` is how many alternatives to keep
    per step (OpenAI's `top_logprobs`); the tokens in `always` are reported at every step too,
    after those, whatever their rank. A grammar-constrained answer needs that: the raw top
    tokens of a yes/no question are `Yes` and `No`, which a lower-case grammar never picks,
    while the `yes` and `no` it does pick between can both rank below the tenth.
    """

    top: int
    always: tuple[int, ...] = ()
    steps: list[_Step] = field(default_factory=list)
    _prompt_tokens: int | None = None
    _last: Any = None
    """The latest step's logits, until the next step names the token it chose."""
    _last_normaliser: float = 0.0
    error: str | None = None
    """Why recording stopped, if it did: a recorder must never break the completion."""

    def __call__(
        self, input_ids: npt.NDArray[np.intc], scores: npt.NDArray[np.single]
    ) -> npt.NDArray[np.single]:
        if self.error is not None:
            return scores
        try:
            self._record(input_ids, scores)
        except Exception as exc:  # inside a C callback: never let it escape
            self.error = f"{type(exc).__name__}: {exc}"
        return scores

    def _record(self, input_ids: npt.NDArray[np.intc], scores: npt.NDArray[np.single]) -> None:
        import numpy as np

        if self._prompt_tokens is None:
            self._prompt_tokens = len(input_ids)
        elif self.steps and self.steps[-1].chosen is None and len(input_ids):
            # Every step after the first comes after llama.cpp evaluated the previous choice.
            self._resolve(int(input_ids[-1]))
        # A copy: llama.cpp reuses the buffer. The log-softmax is kept as logits plus one
        # normaliser (a log-sum-exp in float64 over float32 exponentials), never as a new array.
        logits = np.array(scores, dtype=np.float32)
        peak = float(logits.max())
        normaliser = peak + math.log(float(np.exp(logits - peak).sum(dtype=np.float64)))
        self._last, self._last_normaliser = logits, normaliser
        k = max(0, min(self.top, len(logits)))
        if k:
            top = np.argpartition(logits, len(logits) - k)[len(logits) - k :]
            top = top[np.argsort(-logits[top], kind="stable")]
        else:
            top = np.empty(0, dtype=np.intp)
        ids = [int(i) for i in top]
        ids += [i for i in self.always if i not in ids and 0 <= i < len(logits)]
        self.steps.append(
            _Step(top_ids=ids, top_logprobs=[float(logits[i]) - normaliser for i in ids])
        )

    def _resolve(self, token: int) -> None:
        step = self.steps[-1]
        step.chosen = token
        if self._last is not None and 0 <= token < len(self._last):
            step.chosen_logprob = float(self._last[token]) - self._last_normaliser

    def content(self, llama: Any, completion_tokens: int, text: str) -> list[dict[str, Any]]:
        """The record as OpenAI's `logprobs.content`: one entry per generated token.

        `completion_tokens` and `text` are the completion's own (from its usage and message);
        the last token is identified from the text it left when no later step saw it (the
        completion ended on its length or a stop sequence). A step that chose the end of the
        answer is not a token of it and is left out, as OpenAI does. A token that cannot be
        identified (cut by a stop sequence) ends the list early rather than guessing.
        """
        steps = self.steps[:completion_tokens]
        if steps and steps[-1].chosen is None:
            done = b"".join(_piece(llama, s.chosen) for s in steps[:-1] if s.chosen is not None)
            rest = text.encode("utf-8")[len(done) :]
            ids = llama.tokenize(rest, add_bos=False, special=True) if rest else []
            if len(ids) == 1:
                self._resolve(int(ids[0]))
        entries: list[dict[str, Any]] = []
        for step in steps:
            if step.chosen is None or step.chosen_logprob is None:
                break
            piece = _piece(llama, step.chosen)
            entries.append(
                {
                    "token": piece.decode("utf-8", errors="replace"),
                    "logprob": step.chosen_logprob,
                    "bytes": list(piece),
                    "top_logprobs": [
                        {
                            "token": (alt := _piece(llama, i)).decode("utf-8", errors="replace"),
                            "logprob": lp,
                            "bytes": list(alt),
                        }
                        for i, lp in zip(step.top_ids, step.top_logprobs, strict=True)
                    ],
                }
            )
        return entries


def _piece(llama: Any, token: int) -> bytes:
    return bytes(llama.detokenize([token], special=True))
