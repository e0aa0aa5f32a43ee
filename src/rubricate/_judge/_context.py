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

# Each group is one way people point past the output; see the module docstring. Words that
# also have an everyday sense in what an output reports ("died following a battle", "made up of
# volunteers", "flights were grounded", "supported the bill", "a task force") count only in the
# sense that points at the request, the conversation or a source: each extra match evaluates
# the output a second time, with the request in view.
_DETERMINER = r"(?:the|this|that|these|those|all|every|each|any|its|their|his|her|our|given)"
_RELATIONS = (
    # the request itself
    r"request\w*|ask|asks|asked|asking|" + _DETERMINER + r"\s+(?:\w+\s+)?questions?|"
    r"questions?\s+(?:asked|posed|raised)|prompts?|task(?!\s+force)s?|instruct\w*|"
    r"the\s+brief|quer(?:y|ies)|assignment|requirements?|specification|spec|directions|(?:was|were)\s+told",
    # the person who asked
    r"users?|user's|customers?|customer's|clients?|client's|requester",
    # how the output relates to what was asked
    r"relevan\w*|irrelevan\w*|topic|on-topic|off-topic|correct\w*|incorrect\w*|wrong\w*|"
    r"accura\w*|inaccura\w*|incomplete|completeness|(?:is|are|be|was|were)\s+(?:\w+\s+)?complete|"
    r"address(?:es|ed|ing)?\s+(?:all|both|every|each|the\s+(?:main|key|core|whole)|its|their)|"
    r"respond\w*\s+to|repl(?:y|ies|ied)\s+to|compl(?:y|ies|iance|ied)|fulfil\w*|satisf\w*|"
    r"adher\w*|follow(?:s|ed|ing)?\s+(?:" + _DETERMINER + r"\s+)?(?:\w+\s+)?"
    r"(?:instructions?|directions?|guidelines?|rules?|brief|template|format|steps?|constraints?)|"
    r"ignor\w*\s+(?:any|part|parts|some|none|no)\b",
    # what happened before the output, or what it draws on
    r"conversation|transcript|chat|context|input|agent|tools?|"
    r"(?:called|calls|invoked|used|uses|ran|runs|executed|executes)\s+(?:the\s+|a\s+|an\s+)?"
    r"(?:\w+\s+)?(?:apis?|functions?|endpoints?|commands?|tests?|scripts?|code|query|queries|"
    r"search|searches)|searched\s+(?:the\s+)?(?:web|internet|docs|documentation|codebase|files?)|"
    r"(?:earlier|previous|prior)\s+(?:\w+\s+)?(?:messages?|turns?|answers?|responses?|"
    r"replies|drafts?|steps?|instructions?)|earlier\s+in\b|"
    # "the text", "the email" or "the data" is as often the output itself as a source
    r"(?:the|this|that|given|provided|original|attached|supplied|reference|source)\s+"
    r"(?:articles?|documents?|sources?|passages?|excerpts?)|"
    r"(?:given|provided|original|attached|supplied|reference|source)\s+"
    r"(?:texts?|data|information|materials?|transcripts?|emails?|notes?|reports?)|"
    r"(?:information|data|text|material|facts|details|context)\s+(?:provided|given|supplied)|"
    r"faithful\w*|hallucinat\w*|"
    r"(?:invent|invents|invented|inventing|made\s+up|makes?\s+up|making\s+up|fabricat\w*)"
    r"(?!\s+of\b)\s+(?:any\s+|no\s+|new\s+)?(?:\w+\s+)?(?:facts?|details?|information|claims?|"
    r"numbers?|figures?|quotes?|citations?|sources?|names?|data|statistics)|"
    r"(?:un)?(?:supported|grounded|backed)\s+(?:by|in)\s+(?:the\s+)?(?:sources?|articles?|texts?|"
    r"context|documents?|evidence|passages?|inputs?|data|material)",
)
_REFERS_PAST_THE_OUTPUT = re.compile(r"\b(?:" + "|".join(_RELATIONS) + r")\b", re.IGNORECASE)


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
