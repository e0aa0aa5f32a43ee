"""Checks on code in the text: how SQL keywords are written."""

from __future__ import annotations

import re

from .._exceptions import CheckUndecided
from ._check import TextTest
from ._phrases import choice
from ._registry import catalogue_check

__all__ = ["sql_keywords"]

# Reserved words a style rule on "SQL keywords" means; not function names (`count`, `sum`),
# which style guides disagree on, nor words that are often names (`key`, `date`).
_KEYWORDS = frozenset(
    [
        "select",
        "from",
        "where",
        "join",
        "inner",
        "left",
        "right",
        "full",
        "outer",
        "cross",
        "on",
        "group",
        "by",
        "order",
        "having",
        "limit",
        "offset",
        "insert",
        "into",
        "values",
        "update",
        "set",
        "delete",
        "create",
        "table",
        "view",
        "index",
        "alter",
        "drop",
        "and",
        "or",
        "not",
        "null",
        "is",
        "in",
        "exists",
        "between",
        "like",
        "distinct",
        "union",
        "all",
        "as",
        "case",
        "when",
        "then",
        "else",
        "end",
        "with",
        "desc",
        "asc",
        "primary",
        "foreign",
        "references",
        "default",
        "returning",
    ]
)
_FENCED = re.compile(
    r"^[ \t]*```[ \t]*(?P<tag>[\w+-]*)[^\n]*\n(?P<code>.*?)^[ \t]*```", re.M | re.S
)
_STATEMENT = re.compile(
    r"^\s*(?:select|with|insert|update|delete|create|alter|drop)\b", re.IGNORECASE
)
# Comments and quoted strings and names hold words that are no keywords: `'on hold'`.
_NOT_CODE = re.compile(r"--[^\n]*|/\*.*?\*/|'(?:[^']|'')*'|\"[^\"]*\"|`[^`]*`", re.S)
_WORD = re.compile(r"(?<![\w.])[A-Za-z_]+(?![\w(])")
_CASES = ("upper", "lower")


@catalogue_check
def sql_keywords(case: str = "upper") -> TextTest:
    """SQL keywords (`SELECT`, `FROM`, `WHERE`, `JOIN`, `AND`...) are all in one letter case.

    The SQL is every fenced code block tagged `sql` (or untagged and starting with a
    statement), else the whole text when it starts with one; comments and quoted strings are
    left out, and so are function names (`count`, `sum`). A text with no SQL raises
    `CheckUndecided`: the judge decides what the rule means there.

    Args:
        case: `upper` (`SELECT`) or `lower` (`select`).

    Example:
        ```python
        checks.sql_keywords("upper")  # "SQL keywords in uppercase"
        ```

    """
    wanted = choice("sql_keywords", "case", case, _CASES)

    def test(text: str) -> tuple[bool, str]:
        blocks = [
            m.group("code")
            for m in _FENCED.finditer(text)
            if m.group("tag").casefold() in ("sql", "postgresql", "mysql", "sqlite", "tsql")
            or (not m.group("tag") and _STATEMENT.match(m.group("code")))
        ]
        if not blocks and _STATEMENT.match(text):
            blocks = [text]
        if not blocks:
            raise CheckUndecided("the text has no SQL in a code block")
        found = [
            word
            for block in blocks
            for word in _WORD.findall(_NOT_CODE.sub(" ", block))
            if word.casefold() in _KEYWORDS
        ]
        wrong = [w for w in found if w != (w.upper() if wanted == "upper" else w.lower())]
        if wrong:
            return False, f"has the keyword {wrong[0]!r}, needs SQL keywords in {wanted} case"
        return True, f"has its {len(found)} SQL keywords in {wanted} case"

    return test
