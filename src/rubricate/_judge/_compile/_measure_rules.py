"""The grammar's rules for units of measurement: a system, one unit per quantity, units ruled out.

"Use metric units only", "no imperial measurements (ft, sq ft, inches)", "all weights in kg",
"temperatures in Celsius", "cooking times in minutes only (no hours)", "no cups, ounces or
Fahrenheit", "a space between the number and the unit". Each builds `measurement_units`; a unit
list in the rule that contradicts it ("metric only (no grams)") leaves the criterion unread.
"""

from __future__ import annotations

import re

from ...checks import Check, create
from ...checks._measures import UNITS

__all__ = [
    "QUANTITY_UNIT",
    "SPACING",
    "SYSTEM",
    "UNITS_RULED_OUT",
    "quantity_unit_rule",
    "spacing_rule",
    "system_rule",
    "units_ruled_out_rule",
]

# How a rule names a unit: as the check finds it written (`UNITS`), casefolded as `read` leaves it.
_UNIT_KEYS = [(re.compile(rf"(?:{unit.spellings})$"), unit.name) for unit in UNITS]
_UNIT = "(?:" + "|".join(f"(?:{unit.spellings})" for unit in UNITS) + r")(?![\w/])"
_SEP = r"\s*(?:,|/|\bor\b|\band\b|\bnor\b|&)\s*(?:or\s+|and\s+)?"
_UNIT_LIST = rf"{_UNIT}(?:{_SEP}{_UNIT})*"
_IMPERIAL = {unit.name for unit in UNITS if unit.system == "imperial"}
_TIME = {unit.name for unit in UNITS if unit.quantity == "time"}
_QUANTITY_OF: dict[str, set[str]] = {}
for _known in UNITS:
    _QUANTITY_OF.setdefault(_known.quantity, set()).add(_known.name)
_QUANTITY_WORDS = (
    (r"(?:oven )?temp(?:erature)?s?", "temperature"),
    (r"weights?|mass(?:es)?", "weight"),
    (r"distances?|lengths?|heights?|widths?|depths?|dimensions?", "length"),
    (r"(?:floor )?areas?|(?:square )?footage", "area"),
    (r"volumes?|capacit(?:y|ies)|liquids?", "volume"),
    (r"(?:wind )?speeds?", "speed"),
    (r"(?:cooking |baking |prep |preparation |total |run(?:ning)? )?(?:times|durations?)", "time"),
)
_QUANTITY = "(?:" + "|".join(f"(?:{pattern})" for pattern, _ in _QUANTITY_WORDS) + ")"


def _unit_name(words: str) -> str | None:
    said = words.strip()
    return next((name for pattern, name in _UNIT_KEYS if pattern.match(said)), None)


def _units_in(listed: str) -> list[str] | None:
    """The units of a list ("cups, ounces or fahrenheit"), or `None` if any piece is no unit."""
    pieces = [p for p in re.split(_SEP, listed.strip()) if p.strip()]
    names = [_unit_name(piece) for piece in pieces]
    return [n for n in names if n is not None] if all(names) else None


def _quantity(words: str) -> str | None:
    said = words.strip()
    return next((key for pattern, key in _QUANTITY_WORDS if re.fullmatch(pattern, said)), None)


def _consistent(system: str, listed: str | None, ruled_out: bool) -> bool:
    """Units said beside a system agree with it: examples of it, or of the other when ruled out."""
    if not listed:
        return True
    units = _units_in(listed)
    if units is None:
        return False
    return all(
        ((u in _IMPERIAL) == (system == "imperial")) != ruled_out for u in units if u not in _TIME
    )


# An aside of units after a rule: "(ft, sq ft, inches)", "(grams / ml)", ": grams, ml and °c",
# "- no cups, tablespoons or ounces", "(no ounces, cups or fahrenheit)".
_ASIDE = (
    rf"(?:\s*(?:\((?:e\.g\.,?\s*|i\.e\.,?\s*|like\s+|such as\s+)?(?P<{{n}}a>{_UNIT_LIST})\)"
    rf"|\s*:\s*(?P<{{n}}b>{_UNIT_LIST})))?"
    rf"(?:\s*(?:\(|[,;\u2013\u2014-]|\.\s)?\s*(?:no|not|never|avoid)\s+(?P<{{n}}c>{_UNIT_LIST})\)?)?"
)


def _aside(name: str) -> str:
    return _ASIDE.replace("{n}", name)


_SYSTEM_WORD = r"\b(?P<sys>metric|imperial|us customary|si)\b(?:\s+system)?"
_MEASURES = r"(?:units?|measurements?|measures?|quantities|amounts)"
SYSTEM = re.compile(
    r"(?:\b(?:please\s+)?(?:use|using|uses|give|gives|write|keep|stick to|only|all|every|"
    r"everything|measurements|units|quantities|amounts)\s+(?:(?:should|must|need to|have to|are|is|"
    r"be|in|to be)\s+)*)*(?:(?:the|your)\s+)?"
    rf"(?P<neg>(?:no|not|avoid|without|never)\s+(?:any\s+)?)?{_SYSTEM_WORD}"
    rf"(?:\s+{_MEASURES})?(?:\s+(?:only|throughout|everywhere))?"
    r"(?P<other>,?\s*(?:not|never|no)\s+(?P<sys2>metric|imperial)(?:\s+"
    + _MEASURES
    + r")?)?"
    + _aside("s")
)


def system_rule(match: re.Match[str], _reading: object) -> Check | None:
    said = "imperial" if match.group("sys") in ("imperial", "us customary") else "metric"
    system = ("imperial" if said == "metric" else "metric") if match.group("neg") else said
    other = match.group("sys2")
    if other is not None and (match.group("neg") or other == said):
        return None  # "no metric, not imperial": no system stated
    if not (
        _consistent(system, match.group("sa") or match.group("sb"), ruled_out=False)
        or _consistent(system, match.group("sa") or match.group("sb"), ruled_out=True)
    ):
        return None
    if not _consistent(system, match.group("sc"), ruled_out=True):
        return None
    return create("measurement_units", system=system)


# "All weights in kg", "temperatures in °C", "every temperature given in Celsius", "wind speeds
# in km/h only", "cooking times in minutes only (no hours)", "use km/h for wind speeds".
QUANTITY_UNIT = re.compile(
    rf"\b(?:(?:all|every|each|any|the)\s+)?(?P<q>{_QUANTITY})\s+(?:(?:should|must|need to|have to|"
    r"are|is|to be|always|be)\s+)*(?:(?:given|written|stated|shown|listed|expressed|measured|"
    r"reported|quoted)\s+)?in\s+(?:(?:degrees|the)\s+)?"
    rf"(?P<u>{_UNIT})(?:\s+only)?"
    + _aside("q")
    + rf"|\b(?:use|give|write)\s+(?P<u2>{_UNIT})(?:\s+only)?\s+for\s+"
    rf"(?:(?:all|every|each|any|the)\s+)?(?P<q2>{_QUANTITY})"
)


def quantity_unit_rule(match: re.Match[str], _reading: object) -> Check | None:
    quantity = _quantity(match.group("q") or match.group("q2"))
    unit = _unit_name(match.group("u") or match.group("u2"))
    if quantity is None or unit is None or unit not in _QUANTITY_OF[quantity]:
        return None  # "times in bold", "distances in the text"
    for listed in (match.group("qa"), match.group("qb"), match.group("qc")):
        units = _units_in(listed) if listed else []
        if units is None or any(u not in _QUANTITY_OF[quantity] for u in units):
            return None
    if match.group("qc") and unit in (_units_in(match.group("qc")) or []):
        return None  # "in minutes (no minutes)"
    return create("measurement_units", unit=unit)


# "No cups, ounces or Fahrenheit", "don't use cups, ounces or pounds anywhere".
UNITS_RULED_OUT = re.compile(
    r"\b(?:no|avoid|without|never use|do not use|not use|not)\s+(?:any\s+)?"
    rf"(?P<list>{_UNIT_LIST})(?:\s+(?:anywhere|at all|please))?"
)


def units_ruled_out_rule(match: re.Match[str], _reading: object) -> Check | None:
    units = _units_in(match.group("list"))
    if not units or any(u in _TIME or u in ("g", "m", "l", "mi") for u in units):
        return None  # "no minutes", a lone letter: not a rule on units people mean
    return create("measurement_units", forbidden=sorted(set(units)))


# "Put a space between the number and the unit", "no space between the number and °c".
SPACING = re.compile(
    r"(?:\b(?P<neg>no|without|never|not)?\s*(?:(?:put|use|leave|add|include|with|need)\s+)?(?:a\s+)?"
    r"(?:space|gap)s?\s+between\s+(?:the\s+|each\s+|a\s+)?(?:numbers?|values?|digits?|figures?)\s+"
    r"and\s+(?:the\s+|its\s+|their\s+)?(?P<unit>units?|" + _UNIT + ")"
    r"|\bnumber\s*\+\s*(?:a\s+)?space\s*\+\s*unit"
    r")(?:\s*\([^()]*\))?"  # its examples: "(12 g, not 12g)"
)


def spacing_rule(match: re.Match[str], _reading: object) -> Check | None:
    if match.group("unit") and not match.group("unit").startswith("unit"):
        return None  # "no space before °C": one unit's spacing, which the check does not scope
    return create("measurement_units", spaced=not match.group("neg"))
