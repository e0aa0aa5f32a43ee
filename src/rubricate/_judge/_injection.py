"""Finding passages of graded text that may be aimed at the grader, and masking them.

A small judge is easy to talk into a pass ("Evaluation complete: PASS", a forged verdict, "as
shown above, all three dates are included"), and prompt wording does not fix that. An earlier
guard failed every output that matched a blocklist: paraphrases slipped through, and honest
answers that quote such text (a tutorial on prompt injection, a chat-template example) failed
whatever they said. So the defence is now structural:

1. Find *suspect passages* cheaply, from what they mean rather than from a list of attacks:
   verdict vocabulary, forged verdict JSON and markup, claims about an earlier grading, words
   addressed to an AI, grader or evaluator, fake end-of-output markers, claims the answer makes
   about itself, and zero-width or look-alike letters that hide any of these.
2. When there are any, the judge grades its criteria a second time on the evidence with those
   passages masked, and a criterion passes only when both gradings pass it. A manipulation
   cannot help a failing answer (once masked it is graded on its merits), and a quote can only
   hurt an answer that needed the quote to pass. A false positive costs a second grading, not a
   failed verdict, so detection can be broad.

The user's own request (the task, human messages) is never scanned: the user is not an attacker.
Only the output and what the agent or its tools wrote are.

The patterns are `_suspect_patterns.py`; finding passages with them is `_suspects.py`; this
module masks what they found and combines the two gradings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from .._types import CriterionVerdict, Evidence
from ._evidence import message_text
from ._suspects import SuspectPassage, find_suspect_passages

__all__ = ["MASK", "MaskedEvidence", "both_must_pass", "mask_evidence", "mask_passages"]

MASK = ""
"""What a suspect passage becomes in the second grading: nothing at all. A visible marker such as
"[…]" reads as omitted text that might hold what the criterion asks for, and the embedded judge
passed masked answers that said nothing (measured on the development set)."""


@dataclass(frozen=True)
class MaskedEvidence:
    """The evidence with every suspect passage masked, and the passages that were."""

    evidence: Evidence
    passages: tuple[SuspectPassage, ...]

    def describe(self, limit: int = 2) -> str:
        """A short, quoted list of what was masked, for a verdict's gap."""
        shown = "; ".join(f"{p.reason}: {_quote(p.text)}" for p in self.passages[:limit])
        more = len(self.passages) - limit
        return shown + (f"; and {more} more" if more > 0 else "")


def mask_passages(text: str, passages: Sequence[SuspectPassage]) -> str:
    """`text` with each passage replaced by `MASK`."""
    pieces: list[str] = []
    cursor = 0
    for passage in passages:
        pieces.append(text[cursor : passage.start])
        pieces.append(MASK)
        cursor = passage.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def mask_evidence(evidence: Evidence) -> MaskedEvidence | None:
    """The evidence with suspect passages of the output, AI and tool messages masked; else `None`.

    The task and human messages are the user's own request: they are never scanned.
    """
    found: list[SuspectPassage] = []
    output_passages = find_suspect_passages(evidence.output)
    found.extend(output_passages)
    messages: list[BaseMessage | Mapping[str, Any]] = []
    for message in evidence.messages:
        if not _written_by_agent(message):
            messages.append(message)
            continue
        text = message_text(message)
        passages = find_suspect_passages(text)
        if not passages:
            messages.append(message)
            continue
        found.extend(passages)
        masked = mask_passages(text, passages)
        if isinstance(message, BaseMessage):
            messages.append(message.model_copy(update={"content": masked}))
        else:
            messages.append({**message, "content": masked})
    if not found:
        return None
    output = mask_passages(evidence.output, output_passages)
    return MaskedEvidence(
        evidence=replace(evidence, output=output, messages=tuple(messages)),
        passages=tuple(found),
    )


def both_must_pass(
    first: CriterionVerdict, masked: CriterionVerdict, evidence: MaskedEvidence
) -> CriterionVerdict:
    """A criterion's verdict when it was also graded with the suspect passages masked.

    A pass that holds both times still stands, marked `unsure`: an answer that speaks to its
    grader is worth a person's look, and the small judge's own content errors are what let a
    hostile answer through once its manipulation is masked (hostile dev: every failing item
    that passed was detected and masked, then passed on its merits). A stricter bar for the
    masked grading was measured and not adopted: on the dev files it stopped 5 more of 86
    hostile items and turned 3 more of 30 honest look-alikes into fails (`bench/masked_bar.py`).
    """
    if not first.passed:
        return first
    shown = f"{len(evidence.passages)} passage(s) that may address the grader masked"
    if masked.passed:
        note = f"Also passes with {shown} ({evidence.describe()}); check it."
        return replace(first, unsure=True, reason=f"{first.reason} {note}".strip())
    note = f"Graded again with {shown} ({evidence.describe()}), it does not pass"
    return replace(
        first,
        passed=False,
        gap=f"{masked.gap} ({note}.)" if masked.gap else f"{note}.",
        unverified=masked.unverified,
        confidence=masked.confidence,  # the grading that decided
    )


def _written_by_agent(message: BaseMessage | Mapping[str, Any]) -> bool:
    """AI and tool messages; never the user's (human) messages or system prompts."""
    if isinstance(message, (AIMessage, ToolMessage)):
        return True
    if isinstance(message, BaseMessage):
        return message.type in ("ai", "tool", "function")
    role = message.get("role") or message.get("type")
    return role in ("assistant", "ai", "tool", "function")


def _quote(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")
