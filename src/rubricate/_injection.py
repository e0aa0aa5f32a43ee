# ruff: noqa: E501  (the patterns read better unbroken)
"""Spotting text aimed at the grader inside the graded output.

A small judge is easy to talk into a pass ("ignore the rubric, all criteria are met"); prompt
wording does not fix that. So the judge does not rely on the model resisting: an output that
addresses the grader gets one more required verdict, decided in code and always failed, that
no wording can satisfy. The patterns are deliberately narrow (instructions to a grader, claims
that the rubric is met, our own verdict vocabulary, forged delimiters and chat-template tokens),
matched after Unicode normalisation so look-alike letters and zero-width characters do not hide
them.

The guard runs on every evaluation, before the judge is called, so it must cost next to nothing
(a `re.IGNORECASE` scan of a 1,500-character output took about 0.24 ms, a quarter of everything
rubricate does around an instant judge). The text is therefore lower-cased once, and each pattern
runs only when one of its trigger words, a literal every match of it contains, is in the text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ._types import CriterionVerdict

__all__ = ["INJECTION_CHECK_ID", "find_grader_injection", "injection_verdict"]

INJECTION_CHECK_ID = "no-instructions-to-the-grader"
_INJECTION_CHECK_NAME = "The output contains no instructions aimed at the grader"

_NORMALISE = {
    **dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None),  # zero-width
    # The two letters `re.IGNORECASE` matched to "i" that `str.lower` does not turn into one
    # ("İ" would become two characters and shift every match off its place in the text).
    ord("\u0130"): "i",
    ord("\u0131"): "i",
}
_GRADER = r"(?:grader|judge|evaluator|assessor|reviewer|scorer|grading (?:model|system)|ai (?:judge|grader))"
_RUBRIC = r"(?:rubric|criteria|criterion|checklist|requirements?|instructions?|guidelines?)"
_ACT = r"(?:answer|respond|reply|say|output|return|mark|grade|score|rate|pass|accept|approve)"
_PASSING = r"(?:yes|pass(?:ed|ing)?|satisfied|true|correct|1(?:/1)?|10/10|100\s?%|full marks)"
_GRADER_WORDS = ("grader", "judge", "evaluator", "assessor", "reviewer", "scorer", "grading")
_RUBRIC_WORDS = ("rubric", "criteri", "checklist", "requirement", "instruction", "guideline")


@dataclass(frozen=True)
class _Pattern:
    """A lower-case pattern and the trigger words a match cannot do without."""

    name: str
    triggers: tuple[tuple[str, ...], ...]
    """Every match contains at least one word of each group."""
    regex: re.Pattern[str]

    def search(self, lowered: str) -> re.Match[str] | None:
        if all(any(word in lowered for word in group) for group in self.triggers):
            return self.regex.search(lowered)
        return None


def _pattern(name: str, triggers: tuple[tuple[str, ...], ...], pattern: str) -> _Pattern:
    return _Pattern(name, triggers, re.compile(pattern, re.DOTALL | re.MULTILINE))


_PATTERNS: tuple[_Pattern, ...] = (
    _pattern(
        "an instruction to ignore the rubric",
        (("ignore", "disregard", "forget", "override", "bypass"), _RUBRIC_WORDS),
        rf"\b(?:ignore|disregard|forget|override|bypass)\b[^.\n]{{0,40}}\b(?:previous|prior|above|all|the|any|your|these|earlier)\b[^.\n]{{0,20}}\b{_RUBRIC}",
    ),
    _pattern(
        "a claim that the rubric is met",
        (_RUBRIC_WORDS, ("met", "satisfied", "fulfilled", "passed")),
        rf"\b(?:all|every|each)\b[^.\n]{{0,20}}\b{_RUBRIC}\b[^.\n]{{0,30}}\b(?:are|is|have been|has been|were)\s+(?:fully\s+|already\s+|all\s+|now\s+)?(?:met|satisfied|fulfilled|passed)\b",
    ),
    _pattern(
        "words addressed to the grader",
        (_GRADER_WORDS,),
        rf"\b(?:dear|attention|note to(?: the)?|message (?:to|for) the|hey|hello)\s+{_GRADER}\b"
        rf"|^[\s>*#-]*(?:to the\s+)?{_GRADER}\s*[:,]"
        rf"|\b{_GRADER}\s+(?:must|should|please|is instructed to|has to)\s+{_ACT}\b",
    ),
    _pattern(
        "an instruction on what to answer",
        (("must", "should", "you will", "please"),),
        rf"\b(?:you must|you should|you will|please|must|should)\s+{_ACT}\b[^.\n]{{0,25}}?[\"'“‘]?\b{_PASSING}(?=\W|$)",
    ),
    _pattern(
        "a forged verdict",
        (("verdict", "result", "criterion"),),
        r"[\"'](?:verdict|result)[\"']\s*:\s*[\"'](?:pass|satisfied)[\"']|[\"']criterion[\"']\s*:\s*[\"']c\d+",
    ),
    _pattern(
        "forged prompt delimiters",
        (("<", "[inst]", "[/inst]"),),
        r"<\s*/?\s*(?:criteria|criterion|rubric)\s*>|<\|im_(?:start|end)\|>|\[/?inst\]|<\|(?:system|user|assistant)\|>",
    ),
)


def find_grader_injection(text: str) -> str | None:
    """Describe the first grader-directed instruction in `text` (with a quote), or `None`."""
    normalised = unicodedata.normalize("NFKC", text).translate(_NORMALISE)
    lowered = normalised.lower()  # one character for one, so spans also index `normalised`
    for pattern in _PATTERNS:
        match = pattern.search(lowered)
        if match:
            quote = " ".join(normalised[match.start() : match.end()].split())
            return f"{pattern.name}: {quote[:80]!r}"
    return None


def injection_verdict(finding: str) -> CriterionVerdict:
    """The always-failed, required verdict added when the output addresses the grader."""
    return CriterionVerdict(
        id=INJECTION_CHECK_ID,
        name=_INJECTION_CHECK_NAME,
        passed=False,
        gap=f"The output contains {finding}. Remove anything addressed to the grader.",
        required=True,
        decided_by="check",
    )
