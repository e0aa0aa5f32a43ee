"""Text checks on given words and answers: keywords present or forbidden, one of fixed answers."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ._check import TextTest
from ._phrases import listed, normalize, required_phrases, shortened
from ._registry import catalogue_check
from ._units import highlights, phrase_pattern

__all__ = [
    "bold_keywords",
    "keywords_forbidden",
    "keywords_present",
    "one_of",
]


@catalogue_check
def keywords_present(keywords: Sequence[str]) -> TextTest:
    """Every keyword or phrase appears at least once.

    Matched case-insensitively as whole words (`cat` is not found in `category`); whitespace
    inside a phrase matches any whitespace.

    Args:
        keywords: The words or phrases that must all appear (one string is a list of one).

    Example:
        ```python
        checks.keywords_present(["privacy", "data retention"])
        ```

    """
    phrases, patterns = _keywords("keywords_present", keywords)

    def test(text: str) -> tuple[bool, str]:
        missing = [phrase for phrase, pattern in patterns if not pattern.search(text)]
        if missing:
            return False, f"is missing {listed(missing)}"
        return True, f"has {listed(phrases)}"

    return test


@catalogue_check
def keywords_forbidden(keywords: Sequence[str]) -> TextTest:
    """None of the keywords or phrases appears.

    Matched as in `keywords_present`: case-insensitively, as whole words.

    Args:
        keywords: The words or phrases that must not appear (one string is a list of one).

    Example:
        ```python
        checks.keywords_forbidden(["delve", "tapestry"])
        ```

    """
    phrases, patterns = _keywords("keywords_forbidden", keywords)

    def test(text: str) -> tuple[bool, str]:
        found = [(phrase, len(pattern.findall(text))) for phrase, pattern in patterns]
        present = [f"{phrase!r} {_times(count)}" for phrase, count in found if count]
        if present:
            return False, f"has the forbidden {', '.join(present)}"
        return True, f"has none of {listed(phrases, 'or')}"

    return test


@catalogue_check
def bold_keywords(keywords: Sequence[str]) -> TextTest:
    """Every keyword or phrase appears in bold (`**...**`) at least once.

    For "bold the word 'sunlight'" or "put 'Deadline' in bold". Matched as in
    `keywords_present`, inside the text of a bold span.

    Args:
        keywords: The words or phrases that must each be in bold somewhere.

    Example:
        ```python
        checks.bold_keywords(["deadline"])
        ```

    """
    phrases, patterns = _keywords("bold_keywords", keywords)

    def test(text: str) -> tuple[bool, str]:
        bold = [span.text for span in highlights(text) if span.marks == "**"]
        missing = [
            phrase for phrase, pattern in patterns if not any(pattern.search(s) for s in bold)
        ]
        if not missing:
            return True, f"has {listed(phrases)} in bold"
        plain = [p for p, pattern in patterns if p in missing and pattern.search(text)]
        absent = [p for p in missing if p not in plain]
        said = [f"{listed(plain)} not in bold"] if plain else []
        said += [f"no {listed(absent, 'or')} at all"] if absent else []
        return False, "has " + " and ".join(said)

    return test


def _keywords(
    check: str, keywords: Sequence[str]
) -> tuple[list[str], list[tuple[str, re.Pattern[str]]]]:
    """The keywords, checked, each with the pattern that finds it (plural and possessive too)."""
    phrases = required_phrases(check, "keywords", keywords)
    return phrases, [(phrase, phrase_pattern(phrase, inflected=True)) for phrase in phrases]


@catalogue_check
def one_of(options: Sequence[str], contains: bool = False) -> TextTest:
    """The whole text is one of a fixed set of answers.

    Compared after trimming the text, with any run of whitespace equal to one space and letter
    case ignored. With `contains`, it is enough that one option appears in the text as whole
    words (as in `keywords_present`).

    Args:
        options: The accepted answers (one string is a list of one).
        contains: Accept a text that contains an option instead of being one.

    Example:
        ```python
        checks.one_of(["My answer is yes.", "My answer is no.", "My answer is maybe."])
        ```

    """
    answers = required_phrases("one_of", "options", options)
    folded = {answer.casefold() for answer in answers}
    patterns = [phrase_pattern(answer) for answer in answers]

    def test(text: str) -> tuple[bool, str]:
        found = normalize(text)
        if contains:
            hit = next((a for a, p in zip(answers, patterns, strict=True) if p.search(text)), None)
            if hit is not None:
                return True, f"contains the answer {hit!r}"
            return False, f"contains none of {listed(answers, 'or')}"
        if found.casefold() in folded:
            return True, f"is the answer {found!r}"
        return False, f"is {shortened(found)!r}, needs to be one of {listed(answers, 'or')}"

    return test


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"
