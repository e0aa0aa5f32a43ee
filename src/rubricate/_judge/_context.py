"""Which criteria the judge grades against the request, and which on the output alone.

A small judge answers from the request when a criterion restates it: asked whether "the poem
is about spring", the embedded 1.5B model gives a winter poem P(yes) 0.84 when the task reads
"Write a haiku about spring", 0.11 when it reads "Write a short poem", and 0.06 with no task.
The same happens with a source quoted in the request ("the summary mentions the car ban" passes
a summary that leaves it out) and with a request for a language or a tone. So a criterion about
what the output says or how it says it is graded on the output alone, and only a criterion that
refers to what was asked or to what happened before the output (the request, the person who
asked, the conversation, tools, a source) sees the task and the transcript.

Reading a criterion this way errs on the side of the context: a criterion that merely uses one
of these words ("tells annotators to label answers as correct") is graded as before, with the
request in view, which is the judge's behaviour without this split.
"""

from __future__ import annotations

import re

from .._types import Evidence

__all__ = ["needs_context", "output_only"]

# Each alternative is one way people point past the output; see the module docstring.
_REFERS_PAST_THE_OUTPUT = re.compile(
    r"\b(?:"
    # the request itself
    r"request\w*|ask|asks|asked|asking|(?:the|their|his|her|original|every|each|all)\s+questions?|"
    r"questions?\s+(?:asked|posed|raised)|prompts?|tasks?|instruct\w*|brief|"
    r"quer(?:y|ies)|assignment|requirements?|specification|spec|"
    # the person who asked
    r"users?|user's|customers?|customer's|clients?|client's|requester|"
    # how the output relates to what was asked
    r"relevan\w*|irrelevan\w*|topic|on-topic|off-topic|correct\w*|incorrect\w*|wrong\w*|"
    r"accura\w*|inaccura\w*|complete|completely|incomplete|fully|address\w*|"
    r"respond\w*\s+to|repl(?:y|ies|ied)\s+to|follow\w*|compl(?:y|ies|iance|ied)|"
    r"fulfil\w*|satisf\w*|adher\w*|ignor\w*|"
    # what happened before the output, or what it draws on
    r"conversation|transcript|chat|history|tools?|called|calls|ran|executed|searched|agent|"
    r"earlier|previous\w*|context|sources?|articles?|documents?|original|input|provided|"
    r"passage|excerpt|faithful\w*|hallucinat\w*|invent\w*|made\s+up|grounded|supported"
    r")\b",
    re.IGNORECASE,
)


def needs_context(description: str) -> bool:
    """Whether a criterion refers to the request or to what happened before the output.

    True for "answers the user's question", "stays on topic", "the facts are correct", "only
    uses the provided article"; False for "the poem is about spring", "is written in Spanish",
    "mentions the refund amount", which the output alone decides.
    """
    return _REFERS_PAST_THE_OUTPUT.search(description) is not None


def output_only(evidence: Evidence) -> Evidence:
    """The same evidence without the task and the transcript: what the output alone shows."""
    return Evidence(output=evidence.output)
