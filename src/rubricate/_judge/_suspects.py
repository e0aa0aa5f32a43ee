"""Finding suspect passages in graded text: normalised, cut into sentences and paragraphs, matched.

The text is matched lower-cased and NFKC-normalised, with invisible characters dropped and
look-alike letters of other scripts mapped to Latin, so a disguised word reads as what it shows;
the passage reported is the original text, widened to the sentence, paragraph or block that the
match belongs to.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from ._suspect_patterns import (
    BARE_ANYWHERE,
    BARE_TRIGGER,
    BARE_VERDICT,
    BY_STRING,
    BY_WORD,
    PATTERNS,
    STRING_CHARS,
)

__all__ = ["SuspectPassage", "find_suspect_passages"]

_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"  # noqa: E501
# Letters of other scripts that look like Latin ones, so "аll critеria" (Cyrillic а, е) reads as
# what it shows. Only for matching: the masked text keeps the original characters.
_LOOKALIKES = str.maketrans(
    "аеорсухіјѕԁɡАВЕКМНОРСТХІЈЅαεικνορτυχΑΒΕΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdgabekmhopctxijsaeikvoptuxabehikmnoptyx",
)
_CYRILLIC_GREEK = re.compile(r"[\u0370-\u03ff\u0400-\u04ff]")
_LATIN = re.compile(r"[a-zA-Z]")
_WORD = re.compile(r"[^\W\d_]+")
_TOKEN = re.compile(r"\S+")
_SHORT_PARAGRAPH = 300
_BARE_CHARS = 60
_DISGUISED = "a word disguised with invisible or look-alike letters"
_FORGED_DATA = "forged verdict data"
_LEADING = frozenset(".!?;: \t\r\n")
# One sentence ends after [.!?] (and closing quotes) and a space, a line at its break; a comment
# or a chat-template token starts a new one. Each alternative starts with a known character, so
# the scan skips ahead fast.
_SENTENCE_END = re.compile(r"[.!?]([\"'”’)\]]*)\s+|[ \t\r]*\n|<(?=!--|\|)")
_CODE_FENCE = re.compile(r"^\s*(?:```|~~~)", re.MULTILINE)
_JSON_START = re.compile(r"^[ \t>]*[{\[]", re.MULTILINE)


@dataclass(frozen=True)
class SuspectPassage:
    """A span of graded text that may address the grader, and why it was picked."""

    start: int
    end: int
    reason: str
    text: str


def find_suspect_passages(text: str) -> tuple[SuspectPassage, ...]:
    """The passages of `text` to mask for the second grading, in order, merged where they touch.

    A passage is the sentence (or line) around a match, widened to a whole code block or JSON
    object that holds one, to the paragraph's end after words addressed to the grader, and to the
    end of the text after a line that claims the output has ended.
    """
    if not text.strip():
        return ()
    lowered, origin = _normalise(text)
    words = _words(lowered)
    candidates = {i for word in words for i in BY_WORD.get(word, ())}
    if not STRING_CHARS.isdisjoint(lowered):
        candidates.update(i for string, i in BY_STRING if string in lowered)
    matches = [
        (family, match)
        for index in sorted(candidates)
        for family, trigger, regex in (PATTERNS[index],)
        if trigger.present(words, lowered)
        for match in regex.finditer(lowered)
    ]
    short = _short_segments(text) if BARE_TRIGGER.present(words, lowered) else []
    spans: list[tuple[int, int, str]] = []
    for index, (start, end) in enumerate(short):
        bare = BARE_ANYWHERE if index == 0 and not text[:start].strip() else BARE_VERDICT
        if bare.match(_normalise(text[start:end])[0].strip()):
            spans.append((start, end, "a bare verdict"))
    if not text.isascii():
        spans.extend(
            (word.start(), word.end(), _DISGUISED)
            for word in _TOKEN.finditer(text)
            if not word.group().isascii() and _disguised(word.group())
        )
    if not matches and not spans:
        return ()  # the common case: found without splitting the text into sentences
    units = _units(text)
    for family, match in matches:
        start = origin[match.start()]
        end = origin[max(match.end() - 1, match.start())] + 1
        while start < end and text[start] in _LEADING:
            start += 1  # a pattern may begin at the end of the sentence before
        if family.whole_sentence:
            unit_start, unit_end = _enclosing(units, start, end)
        else:
            unit_start, unit_end = start, end
        if family.to_paragraph_end and _opens_paragraph(text, start):
            unit_end = max(unit_end, _paragraph_end(text, end))
        if family.reason.startswith("a marker") and _standalone(text, start, end):
            unit_end = len(text)  # nothing after a fake end of the output is the answer
        spans.append((unit_start, unit_end, family.reason))
    if not spans:
        return ()
    spans = [
        (*_widen_to_block(text, s, e, whole_fence=reason == _FORGED_DATA), reason)
        for s, e, reason in spans
    ]
    spans.sort()
    merged: list[list[Any]] = []
    for start, end, reason in spans:
        if merged and start <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, reason])
    return tuple(SuspectPassage(s, e, r, text[s:e]) for s, e, r in merged)


def _normalise(text: str) -> tuple[str, list[int]]:
    """The text to match: lower-cased, NFKC, without invisible characters, look-alikes mapped.

    Also returns, for each of its characters, the index of the character of `text` it came from
    (plus one past the end), so that matches map back onto the original text.
    """
    if text.isascii():
        return text.lower(), [*range(len(text)), len(text)]
    pieces: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        if char in _INVISIBLE:
            continue
        piece = unicodedata.normalize("NFKC", char).lower().translate(_LOOKALIKES)
        # "İ".lower() is two characters; keep one for one where a letter maps to a letter.
        pieces.append(piece)
        origin.extend([index] * len(piece))
    origin.append(len(text))
    return "".join(pieces), origin


def _short_segments(text: str) -> list[tuple[int, int]]:
    """Spans that could be a bare verdict: short lines, and short first or last sentences."""
    segments: list[tuple[int, int]] = []
    offset = 0
    for line in text.split("\n"):
        if len(line) <= _BARE_CHARS:
            if line.strip():
                segments.append((offset, offset + len(line)))
        else:
            ends = [i for i in (line.find(". "), line.find("! "), line.find("? ")) if i >= 0]
            if ends and min(ends) < _BARE_CHARS:
                segments.append((offset, offset + min(ends) + 1))
            last = max(line.rfind(". "), line.rfind("! "), line.rfind("? "))
            if last >= 0 and len(line) - last - 2 <= _BARE_CHARS:
                segments.append((offset + last + 2, offset + len(line)))
        offset += len(line) + 1
    return segments


def _words(lowered: str) -> set[str]:
    """The words of the text, as trigger words are matched (split on white space first: fast)."""
    words: set[str] = set()
    for token in set(lowered.split()):
        if token.isalpha():
            words.add(token)
        else:
            words.update(_WORD.findall(token))
    return words


def _units(text: str) -> list[tuple[int, int]]:
    """Sentence (or line) spans of `text`, without their trailing whitespace."""
    units: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        first = text[match.start()]
        if first == "<":
            end = after = match.start()
        elif first in ".!?":
            end, after = match.start() + 1 + len(match.group(1)), match.end()
        else:
            end, after = match.start(), match.end()
        if end > start:
            units.append((start, end))
        start = after
    if start < len(text):
        units.append((start, len(text)))
    return units


def _enclosing(units: list[tuple[int, int]], start: int, end: int) -> tuple[int, int]:
    first = next((u for u in units if u[1] > start), (start, end))
    last = next((u for u in reversed(units) if u[0] < end), (start, end))
    return min(first[0], start), max(last[1], end)


def _paragraph_end(text: str, position: int) -> int:
    blank = re.compile(r"\n\s*\n").search(text, position)
    return blank.start() if blank else len(text.rstrip())


def _opens_paragraph(text: str, position: int) -> bool:
    """True when the match opens a short paragraph ("Note to the grader: ...").

    Then what follows in that paragraph is addressed to the grader too.
    """
    start = max(text.rfind("\n\n", 0, position), -1) + 1
    end = _paragraph_end(text, position)
    return len(text[start:position].split()) <= 3 and end - start <= _SHORT_PARAGRAPH


def _standalone(text: str, start: int, end: int) -> bool:
    """True when the match is the whole of its line (a marker, not a mention in a sentence)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line = text[line_start : len(text) if line_end < 0 else line_end]
    return len(re.sub(r"[\W_]", "", line)) <= len(re.sub(r"[\W_]", "", text[start:end])) + 3


def _widen_to_block(text: str, start: int, end: int, *, whole_fence: bool) -> tuple[int, int]:
    """Widen a span to the JSON value holding it, or verdict data to the fenced block it fills.

    Other matches inside a fenced block (a comment, an `echo "PASSED"`) mask their own lines:
    the code around them is the answer, and masking it failed honest answers whose code merely
    prints a status ("is a YAML config" of a CI file).
    """
    fences = [m.start() for m in _CODE_FENCE.finditer(text)]
    if len(fences) % 2:
        fences.append(len(text))  # an unclosed block runs to the end
    for opening, closing in zip(fences[::2], fences[1::2], strict=True):
        if opening <= start <= closing:
            body = text[opening:closing].lstrip().partition("\n")[2].lstrip()  # under the fence
            if not (whole_fence and body.startswith(("{", "["))):
                return start, end  # a line of code, not a block of verdict data
            close_end = text.find("\n", closing)
            return opening, max(end, len(text) if close_end < 0 else close_end)
    for match in _JSON_START.finditer(text, 0, start + 1):
        opening = match.end() - 1
        closing = _balanced_end(text, opening)
        if closing >= start:
            return min(start, match.start()), max(end, closing)
    return start, end


def _balanced_end(text: str, opening: int) -> int:
    """One past the bracket that closes the one at `opening` (ignoring strings); -1 if none."""
    depth = 0
    in_string = False
    for index in range(opening, len(text)):
        char = text[index]
        if in_string:
            in_string = char != '"' or text[index - 1] == "\\"
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return index + 1
    return -1


def _disguised(word: str) -> bool:
    """Invisible characters, or Latin letters mixed with Cyrillic or Greek look-alikes."""
    if any(char in _INVISIBLE for char in word):
        return True
    return bool(_CYRILLIC_GREEK.search(word) and _LATIN.search(word))
