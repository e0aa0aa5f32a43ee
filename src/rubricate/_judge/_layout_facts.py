"""What code measured of an output's layout, shown to the judge of a format rule no check reads.

The embedded 1.5B model counts and locates badly: on format rules the phrase grammar could not
read ("max 5 bullets under each day", "each definition under 25 words"), its verdicts were close
to chance. Given the output's pieces top to bottom, each with exact counts, it only has to find
the piece the rule is about and compare. On those rules of the format dev files, with and
without in one run (`bench/layout_facts.py`): balanced accuracy 0.59 -> 0.66 on dev-g, where it
was chosen, and 0.49 -> 0.63 on dev-h after, at 1.76x the time on them. The whole judge on the
blind test splits: 0.829 -> 0.851 and 0.708 -> 0.734 (docs/benchmarks.md, "Layout facts").
"""

from __future__ import annotations

from ..checks._units import (
    Block,
    blocks,
    emojis,
    has_word,
    heading_text,
    highlights,
    paragraphs,
    sentences,
    table_cells,
    urls,
    words,
)

__all__ = ["LAYOUT_FACTS_PREAMBLE", "layout_facts"]

LAYOUT_FACTS_PREAMBLE = "The output's layout, measured by code (exact counts):"
_MAX_BLOCKS = 40
_MAX_SPANS = 8
_OPENING_WORDS = 4
_LINE_WORDS = 8
"""A lone line of at most this many words, not ending a sentence, is shown as a line: a label,
a greeting or a title, quoted whole."""


def layout_facts(output: str) -> str:
    """The layout of `output` as short lines of exact counts: the whole, each piece, the marks."""
    lines = [line for line in output.splitlines() if has_word(line)]
    whole = (
        f"Whole output: {_count(len(words(output)), 'word')}, "
        f"{_count(len(sentences(output)), 'sentence')}, {_count(len(lines), 'line')}, "
        f"{_count(len(paragraphs(output)), 'paragraph')}."
    )
    pieces = blocks(output)
    rows = [f"{n}. {_describe(block)}" for n, block in enumerate(pieces[:_MAX_BLOCKS], start=1)]
    if len(pieces) > _MAX_BLOCKS:
        rows.append(f"... {len(pieces) - _MAX_BLOCKS} more blocks")
    spans = highlights(output)
    found = emojis(output)
    marks = [
        "Bold: " + _quoted([s.text for s in spans if s.marks == "**"]),
        "Italics: " + _quoted([s.text for s in spans if s.marks == "*"]),
        f"Emojis: {len(found)}" + (f" ({' '.join(found[:_MAX_SPANS])})" if found else ""),
        f"Exclamation marks: {output.count('!')}",
        f"Links: {len(urls(output))}",
    ]
    return "\n".join([whole, "Blocks, top to bottom:", *rows, ". ".join(marks) + "."])


def _describe(block: Block) -> str:
    body = "\n".join(block.lines)
    if block.kind == "heading":
        level = len(block.lines[0].lstrip()) - len(block.lines[0].lstrip().lstrip("#"))
        return f'heading, level {level}: "{heading_text(block.lines[0])}"'
    if block.kind in ("bullets", "numbered"):
        counts = ", ".join(str(len(words(item))) for item in block.items)
        name = "bulleted" if block.kind == "bullets" else "numbered"
        return f"{name} list of {_count(len(block.items), 'item')} (words per item: {counts})"
    if block.kind == "code":
        tag = block.lines[0].strip().lstrip("`~").strip()
        tagged = f" tagged {tag}" if tag else " without a language tag"
        return f"code block{tagged}, {_count(max(len(block.lines) - 2, 0), 'line')}"
    if block.kind == "table":
        columns = " | ".join(cell.strip() for cell in table_cells(block.lines[0]))
        return f"table, columns: {columns}; {_count(max(len(block.lines) - 2, 0), 'row')}"
    text = body.strip()
    if len(block.lines) == 1 and len(words(body)) <= _LINE_WORDS and text[-1:] not in ".!?":
        return f'line of {_count(len(words(body)), "word")}: "{text}"'
    opening = _first_words(body, _OPENING_WORDS)
    return (
        f"paragraph: {_count(len(sentences(body)), 'sentence')}, "
        f"{_count(len(words(body)), 'word')}, {_count(len(block.lines), 'line')}, "
        f'starts "{opening}", ends with "{text[-1:]}"'
    )


def _first_words(text: str, n: int) -> str:
    """The first `n` whitespace-separated tokens of `text`, with `…` when more follow."""
    tokens = text.split()
    return " ".join(tokens[:n]) + (" …" if len(tokens) > n else "")


def _quoted(spans: list[str]) -> str:
    return "; ".join(f'"{span}"' for span in spans[:_MAX_SPANS]) if spans else "none"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
