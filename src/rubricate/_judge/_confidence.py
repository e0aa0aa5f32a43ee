"""How sure the judge is: P(criterion met) from token log-probabilities, and what counts as sure.

A verdict's confidence is the judge model's own probability that the criterion is met, read from
the log-probabilities of the token that carries the verdict, in the same call that gave it:

- the embedded model's one-token yes / no: P(yes) / (P(yes) + P(no)), each summed over the
  spellings its grammar allows (`VERDICT_WORDS`), so the verdict at a threshold of 0.5 is the
  greedy answer itself;
- a structured JSON verdict (`"verdict": "pass"`): the mass of the tokens that begin `pass`
  over those that begin `pass`, `fail` or `cannot_evaluate` at the value's first token.

Log-probabilities come in OpenAI's shape (`response_metadata["logprobs"]["content"]`), which
langchain-openai fills when asked (`logprobs=True`) and `ChatLlamaCpp` fills the same way. A
model that gives none leaves the confidence `None`; nothing ever fails for want of it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

__all__ = [
    "FORM_PASS_THRESHOLD",
    "PASS_THRESHOLD",
    "TONE_LIKELIHOOD_WEIGHTS",
    "TONE_PASS_THRESHOLD",
    "TOP_LOGPROBS",
    "UNSURE_BAND",
    "choice_probability",
    "is_unsure",
    "logprob_content",
    "verdict_probabilities",
    "yes_probability",
]

PASS_THRESHOLD = 0.5
"""The embedded judge passes a criterion when its P(yes) is at least this.

0.5 is the greedy answer itself (P(yes) >= P(no) over the words the grammar allows). Fitted on
the development split only, by
    python bench/calibrate.py DATA/realsumm.jsonl DATA/ifeval.jsonl --criteria 250 40 --seed 0
(DATA: the judge-bench folder; bench/results/calibration.json): the threshold nearest 0.5
within one standard error of the best dev balanced accuracy, and 0.5 while fewer than 100 dev
criteria are graded. The run that set it (the judge of commit caaeb56, 250 dev REALSumm
criteria) kept 0.5: best 0.812 at 0.58, standard error 0.023, 0.792 at 0.5;
docs/benchmarks.md#confidence.
"""

FORM_PASS_THRESHOLD = 0.64
"""The embedded judge's bar for a rule on the text's form that no check could read.

On such rules ("each term in bold", "no punctuation at the end of any line") the model says
"yes" far too often: on the format dev files it passed 77% of the rules a text breaks. Its P(yes)
still ranks them (AUROC 0.68), so the cut moves, not the question. Fitted on the format dev
files only, with the layout facts on, by the rule that set `PASS_THRESHOLD` (nearest 0.5 within
one standard error of the best balanced accuracy):
    python bench/calibrate_form.py bench/data/format/dev*.jsonl \\
        --out bench/results/calibration-form-facts.json
(commit ede0828): 0.635 on 749 dev verdicts (best 0.648 at 0.672, standard error 0.017),
balanced accuracy 0.562 -> 0.631, false passes 77% -> 38%. Such verdicts are marked `unsure`
whatever their confidence; docs/benchmarks.md#the-bar-for-a-form-rule-no-check-could-read.
"""

TONE_PASS_THRESHOLD = 0.77
"""The embedded judge's bar for a criterion about tone alone ("The reply is polite", `_tone`).

The model says "yes" to tone: at 0.5 it passed 59% of the dev tone criteria a reply fails ("Not
our problem." as polite). Its P(yes) still ranks them (AUROC 0.80), so the cut
moves. Fitted on every dev file that holds such criteria, by the rule that set `PASS_THRESHOLD`:
    python bench/calibrate_form.py --kind tone bench/data/trivial/dev*.jsonl \
        bench/data/format/dev*.jsonl bench/data/hostile/dev*.jsonl \
        bench/data/lookalike/dev*.jsonl --out bench/results/calibration-tone.json
0.770 on 127 dev verdicts (best 0.776, standard error 0.035): balanced accuracy 0.649 -> 0.744,
false passes 59% -> 16%. Such verdicts are marked `unsure` whatever their confidence;
docs/benchmarks.md#the-bar-for-a-criterion-about-tone.
"""

TONE_LIKELIHOOD_WEIGHTS = (-1.193, 1.081, 0.250)
"""(intercept, weight of logit(P(yes)), weight of the likelihood gain) for a tone criterion.

Where the embedded model can score the output (`tone_likelihood`, `_likelihood`), a criterion
about tone alone passes when `intercept + w_yes * logit(P(yes)) + w_gain * gain >= 0` instead
of at `TONE_PASS_THRESHOLD`: with no gain that is P(yes) >= 0.75, with a gain of +4 nats 0.55,
with -4 nats 0.88. A logistic regression (classes weighted to balance) fitted on the same 127
dev tone criteria as that bar, by
    python bench/tone_likelihood.py bench/data/trivial/dev*.jsonl \\
        bench/data/format/dev*.jsonl bench/data/hostile/dev*.jsonl \\
        bench/data/lookalike/dev*.jsonl --fresh
(`fit` in bench/results/tone-likelihood-dev.json). Out of fold on those criteria (stratified
5-fold, 20 shuffles) it gives balanced accuracy 0.736 against 0.696 for P(yes) alone;
docs/benchmarks.md#the-replys-likelihood-under-the-criterion.
"""

UNSURE_BAND = (0.35, 0.65)
"""A model verdict whose confidence lies in this closed interval is marked `unsure`.

Fitted on the development split by the same command as `PASS_THRESHOLD`: the narrowest band
around the threshold outside which dev verdicts are right at least 90% of the time, holding at
most 30% of them. On the run above the 30% cap decided it: the band holds 29% of dev verdicts,
right 62% of the time, against 86% outside it.
"""

TOP_LOGPROBS = 10
"""Alternatives requested per token: enough to hold both verdict words, small to send back."""

_VERDICT_VALUE = re.compile(r'"verdict"\s*:\s*"')
_LABEL = re.compile(r'"criterion"\s*:\s*"([^"\\]*)"')
_VERDICTS = ("pass", "fail", "cannot_evaluate")


def is_unsure(confidence: float | None) -> bool:
    """True when a confidence lies inside `UNSURE_BAND`; a verdict without one is not unsure."""
    low, high = UNSURE_BAND
    return confidence is not None and low <= confidence <= high


def logprob_content(message: Any) -> list[Mapping[str, Any]] | None:
    """The per-token log-probabilities a chat model attached to `message`, or `None`.

    Accepts OpenAI's `{"content": [...]}` and a bare list of token entries (as some providers
    give), wherever LangChain put them (`response_metadata`; `generation_info` merges into it).
    """
    metadata = getattr(message, "response_metadata", None)
    raw = metadata.get("logprobs") if isinstance(metadata, Mapping) else None
    if isinstance(raw, Mapping):
        raw = raw.get("content")
    if not isinstance(raw, list) or not raw:
        return None
    entries = [e for e in raw if isinstance(e, Mapping) and isinstance(e.get("token"), str)]
    return entries or None


def choice_probability(
    entry: Mapping[str, Any], classify: Callable[[str], str | None], positive: str
) -> float | None:
    """P(`positive`) among the classes `classify` gives a token's alternatives, at one position.

    The alternatives are the entry's `top_logprobs` plus the chosen token. A class none of the
    listed alternatives falls in is at most as likely as the least likely of them, and is given
    that bound, so the result leans toward 0.5 rather than claiming certainty the list cannot
    show. Returns `None` when no class is listed, or when the bound cannot be compared (the only
    token of the other class is the chosen one, itself below every listed alternative).
    """
    listed = _numbers(_alternatives(entry))
    candidates = dict(listed)
    for token, logprob in _numbers([entry]).items():
        candidates.setdefault(token, logprob)
    mass: dict[str, float] = {}
    for token, logprob in candidates.items():
        kind = classify(token)
        if kind is not None:
            mass[kind] = mass.get(kind, 0.0) + math.exp(logprob)
    if not mass:
        return None
    yes = mass.get(positive)
    others = sum(v for k, v in mass.items() if k != positive) or None
    if yes is None or others is None:
        if not listed:
            return None
        bound = math.exp(min(listed.values()))
        known = yes if yes is not None else others
        if known is None or known < bound:
            return None
        yes, others = (yes, bound) if yes is not None else (bound, others)
    assert yes is not None and others is not None
    return yes / (yes + others)


def yes_probability(message: Any) -> float | None:
    """P(yes) of a one-token `yes` / `no` answer, from its first token; `None` without logprobs."""
    content = logprob_content(message)
    if not content:
        return None
    return choice_probability(content[0], _yes_no, "yes")


def verdict_probabilities(message: Any) -> list[tuple[str | None, float | None]]:
    """P(pass) at each `"verdict": "..."` value of a structured answer, in order.

    Each comes with the label of its item (`"criterion": "C2"` before it in the same object) for
    a joint answer, or `None` for a single verdict. Empty when the message has no logprobs (or,
    as with OpenAI tool calls, none for the text that holds the verdict).
    """
    content = logprob_content(message)
    if not content:
        return []
    tokens = [str(entry["token"]) for entry in content]
    starts: list[int] = []
    position = 0
    for token in tokens:
        starts.append(position)
        position += len(token)
    text = "".join(tokens)
    found: list[tuple[str | None, float | None]] = []
    previous_end = 0
    for match in _VERDICT_VALUE.finditer(text):
        value_at = match.end()
        if value_at >= len(text):
            break
        index = _token_at(starts, value_at)
        before = text[starts[index] : value_at]  # the part of the token before the value
        labels = list(_LABEL.finditer(text, previous_end, match.start()))
        label = labels[-1].group(1) if labels else None
        found.append((label, choice_probability(content[index], _value_of(before), "pass")))
        previous_end = match.end()
    return found


def _value_of(before: str) -> Callable[[str], str | None]:
    """Classify a token at the verdict value's position by the verdict word it begins."""

    def classify(token: str) -> str | None:
        if not token.startswith(before):
            return None
        rest = token[len(before) :]
        if not rest:
            return None
        hits = [v for v in _VERDICTS if v.startswith(rest) or rest.startswith(v)]
        return hits[0] if len(hits) == 1 else None

    return classify


def _yes_no(token: str) -> str | None:
    word = token.strip().lower()  # `Yes`, ` yes` and `YES` are all the one answer
    return word if word in ("yes", "no") else None


def _token_at(starts: Sequence[int], offset: int) -> int:
    """Index of the token whose text covers character `offset`."""
    low, high = 0, len(starts) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if starts[middle] <= offset:
            low = middle
        else:
            high = middle - 1
    return low


def _alternatives(entry: Mapping[str, Any]) -> Iterable[Mapping[str, Any]]:
    top = entry.get("top_logprobs")
    return [alt for alt in top if isinstance(alt, Mapping)] if isinstance(top, list) else []


def _numbers(entries: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """`{token: logprob}` of the entries with a usable token and log-probability."""
    found: dict[str, float] = {}
    for alt in entries:
        token, logprob = alt.get("token"), alt.get("logprob")
        if isinstance(token, str) and isinstance(logprob, (int, float)) and _is_number(logprob):
            found.setdefault(token, float(logprob))
    return found


def _is_number(value: Any) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and not math.isnan(value)
        and value <= 0.0 + 1e-9
    )
