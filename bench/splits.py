"""The one rule that splits labelled data into a development half and a frozen test half.

Every choice (prompts, thresholds, cue words, grounding rules) is made on `dev`; `test` is only
ever measured, never looked at while tuning. The split is by a hash of the item id, so it needs no
list of ids, is the same on every machine and for every script, and a new item falls on a fixed
side the moment it gets an id.

    from splits import split_of, in_split
    dev = [item for item in items if in_split(item, "dev")]
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any, Literal

Split = Literal["dev", "test"]
SPLITS: tuple[Split, ...] = ("dev", "test")


def split_of(item_id: str) -> Split:
    """`dev` for half the ids, `test` for the other half, fixed by the id's sha256."""
    return "dev" if hashlib.sha256(item_id.encode("utf-8")).digest()[0] < 128 else "test"


def in_split(item: Mapping[str, Any], split: Split | Literal["all"]) -> bool:
    """True when `item` (a judge-bench line) belongs to `split`; `all` takes every item."""
    return split == "all" or split_of(str(item["id"])) == split


def select(items: Iterable[Mapping[str, Any]], split: Split | Literal["all"]) -> list[Any]:
    """The items of one split, in their original order."""
    return [item for item in items if in_split(item, split)]
