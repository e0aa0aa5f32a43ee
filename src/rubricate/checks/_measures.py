"""Measurements: the units a text measures in ("metric units only", "all weights in kg").

A measurement is a number followed by a unit (`200 g`, `12-inch`, `425°F`, `3 ½ cups`), or a
unit word a person measures with after "a", "half a" or "the last" ("a cup of milk"). Each unit
has one quantity (temperature, weight, length, area, volume, speed, time) and one system: metric,
imperial (with US customary), or neither (minutes and hours belong to both). A number with
"degrees" and no scale is a temperature in an unknown unit: the rule cannot be decided on it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .._exceptions import CheckUndecided, RubricError
from ._check import TextTest
from ._registry import catalogue_check

__all__ = ["UNITS", "UNIT_NAMES", "Measurement", "Unit", "measurement_units", "measurements"]


@dataclass(frozen=True)
class Unit:
    """A unit of measurement: its name, what it measures, its system and how it is written."""

    name: str
    quantity: str
    system: str  # "metric", "imperial" or "any"
    spellings: str  # a regex; abbreviations are matched only right after a number


# Each unit once: its name as the check reports it, and how people write it.
UNITS: tuple[Unit, ...] = (
    Unit("°C", "temperature", "metric", r"°\s?c\b|℃|degrees? (?:celsius|centigrade|c\b)|celsius"),
    Unit("°F", "temperature", "imperial", r"°\s?f\b|℉|degrees? (?:fahrenheit|f\b)|fahrenheit"),
    Unit("mg", "weight", "metric", r"mg|milligram(?:me)?s?"),
    Unit("kg", "weight", "metric", r"kgs?|kilo(?:gram(?:me)?)?s?"),
    Unit("g", "weight", "metric", r"(?-i:g)|grams?|grammes?"),
    Unit("t", "weight", "metric", r"tonnes?|metric tons?"),
    Unit("oz", "weight", "imperial", r"oz|ounces?"),
    Unit("lb", "weight", "imperial", r"lbs?|pounds?(?! sterling)"),
    Unit("st", "weight", "imperial", r"stones?"),
    Unit("km/h", "speed", "metric", r"km/h|kmh|kph|km per hour|kilomet(?:re|er)s (?:per|an) hour"),
    Unit("m/s", "speed", "metric", r"m/s|met(?:re|er)s per second"),
    Unit("mph", "speed", "imperial", r"mph|miles (?:per|an) hour"),
    Unit("mm", "length", "metric", r"mm|millimet(?:re|er)s?"),
    Unit("cm", "length", "metric", r"cm|centimet(?:re|er)s?"),
    Unit("km", "length", "metric", r"km|kilomet(?:re|er)s?"),
    Unit("m", "length", "metric", r"(?-i:m)|met(?:re|er)s?"),
    Unit("in", "length", "imperial", r"in\.|inch(?:es)?|″"),
    Unit("ft", "length", "imperial", r"ft|feet|foot"),
    Unit("yd", "length", "imperial", r"yds?|yards?"),
    Unit("mi", "length", "imperial", r"mi|miles?"),
    Unit("m²", "area", "metric", r"m²|sq\.? ?m|square met(?:re|er)s?|hectares?"),
    Unit("sq ft", "area", "imperial", r"sq\.? ?ft|ft²|square (?:feet|foot)|acres?"),
    Unit("ml", "volume", "metric", r"ml|millilit(?:re|er)s?|cl|dl"),
    Unit("l", "volume", "metric", r"(?-i:[lL])|lit(?:re|er)s?"),
    Unit("fl oz", "volume", "imperial", r"fl\.? ?oz|fluid ounces?"),
    Unit("cup", "volume", "imperial", r"cups?"),
    Unit("tbsp", "volume", "imperial", r"tbsps?|tbs|tablespoons?"),
    Unit("tsp", "volume", "imperial", r"tsps?|teaspoons?"),
    Unit("pt", "volume", "imperial", r"pints?"),
    Unit("qt", "volume", "imperial", r"quarts?|qts?"),
    Unit("gal", "volume", "imperial", r"gallons?|gal"),
    Unit("s", "time", "any", r"secs?|seconds?"),
    Unit("min", "time", "any", r"mins?|minutes?"),
    Unit("h", "time", "any", r"h|hrs?|hours?"),
    Unit("day", "time", "any", r"days?"),
)
UNIT_NAMES = {unit.name for unit in UNITS}
"""The names `measurement_units` takes for `unit` and `forbidden`."""

_BY_NAME = {unit.name: unit for unit in UNITS}
# A unit word said without a number, as people measure with it: "a cup of milk", "half a
# teaspoon", "the last mile". Only words (not "g" or "in"), and only units nobody uses in
# another sense ("foot" and "pound" have others).
_BARE = {"cup", "tbsp", "tsp", "oz", "fl oz", "pt", "qt", "gal", "mi"}
_NUMBER = r"\d+(?:[.,]\d+)?(?:\s?(?:/|⁄)\s?\d+)?|[½¼¾⅓⅔⅛]"
_RANGE = rf"(?:{_NUMBER})(?:\s?[½¼¾⅓⅔])?(?:\s?(?:-|–|to)\s?(?:{_NUMBER}))?"
_MEASURE = re.compile(
    rf"(?<![\w.,/$€£¥₹])(?P<n>{_RANGE})(?P<gap>\s?-?\s?)(?P<unit>"
    + "|".join(f"(?P<u{i}>{unit.spellings})" for i, unit in enumerate(UNITS))
    + r")(?![\w²/])",
    re.IGNORECASE,
)
_BARE_MEASURE = re.compile(
    r"\b(?:an?|half an?|one|per|every|each|the (?:last|first|final|next))\s+(?P<unit>"
    + "|".join(f"(?P<u{i}>{unit.spellings})" for i, unit in enumerate(UNITS) if unit.name in _BARE)
    + r")\b",
    re.IGNORECASE,
)
# Degrees with no scale ("bake at 350 degrees"): a temperature in a unit nobody can tell.
_DEGREES = re.compile(
    r"(?<![\w.,])\d+(?:\.\d+)?\s?(?:°|degrees?)(?!\s?(?:[cfk]\b|celsius|centigrade|fahrenheit|"
    r"kelvin|of (?:latitude|longitude|arc)|angle))",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Measurement:
    """A measurement found in a text: as written, its unit, and whether a space parts them."""

    text: str
    unit: Unit
    spaced: bool | None  # None: a compound ("12-inch") or a unit word with no number


def _unit(match: re.Match[str]) -> Unit:
    return next(
        UNITS[int(group[1:])]
        for group, value in match.groupdict().items()
        if value is not None and group[0] == "u" and group[1:].isdigit()
    )


def _spaced(gap: str) -> bool | None:
    return None if "-" in gap else " " in gap


def measurements(text: str) -> list[Measurement]:
    """The measurements of `text`, in the order they come."""
    found = [
        (match.start(), Measurement(match.group().strip(), _unit(match), _spaced(match["gap"])))
        for match in _MEASURE.finditer(text)
    ]
    found += [
        (match.start(), Measurement(match.group().strip(), _unit(match), spaced=None))
        for match in _BARE_MEASURE.finditer(text)
    ]
    return [measurement for _, measurement in sorted(found, key=lambda pair: pair[0])]


_SYSTEMS = ("metric", "imperial")


@catalogue_check
def measurement_units(
    system: str | None = None,
    unit: str | None = None,
    forbidden: Sequence[str] = (),
    spaced: bool | None = None,
) -> TextTest:
    """The text measures in the units asked for: a system, one unit per quantity, or not some.

    A measurement is a number and a unit (`200 g`, `12-inch`, `425°F`), or a unit word after
    "a" or "half a" ("a cup of milk"). Minutes, hours and days are in both systems. A rule no
    measurement can settle (no temperature in "temperatures in °C", or "350 degrees" with no
    scale) is left to the judge (`CheckUndecided`).

    Args:
        system: Every measurement is `metric` or every one is `imperial` (US customary too):
            "metric units only", "no imperial measurements".
        unit: Every measurement of this unit's quantity is in this unit: `kg` for "all weights
            in kg", `°C` for "temperatures in Celsius", `min` for "times in minutes only".
        forbidden: Units no measurement may use: "no cups, ounces or Fahrenheit".
        spaced: Every number is parted from its unit by a space (`True`: "12 g, not 12g") or
            touches it (`False`: "24°C, not 24 °C").

    Example:
        ```python
        checks.measurement_units(system="metric")  # "use metric units only"
        ```

    """
    if system is not None and system not in _SYSTEMS:
        raise RubricError(
            f"measurement_units: `system` must be 'metric' or 'imperial', got {system!r}",
            field="system",
        )
    names = [unit] if unit is not None else []
    for name in [*names, *forbidden]:
        if name not in _BY_NAME:
            raise RubricError(
                f"measurement_units: unknown unit {name!r}; use one of "
                f"{', '.join(sorted(UNIT_NAMES))}",
                field="unit" if name == unit else "forbidden",
            )
    if system is None and unit is None and not forbidden and spaced is None:
        raise RubricError(
            "measurement_units: say `system`, `unit`, `forbidden` or `spaced`", field="system"
        )
    wanted = _BY_NAME[unit] if unit is not None else None
    banned = {_BY_NAME[name] for name in forbidden}

    def test(text: str) -> tuple[bool, str]:
        found = measurements(text)
        unscaled = _DEGREES.search(text)
        for measurement in found:
            used = measurement.unit
            if used in banned:
                return False, f"has {measurement.text!r}, in {used.name}, which is ruled out"
            if system and used.system not in (system, "any"):
                article = "an" if used.system == "imperial" else "a"
                return (
                    False,
                    f"has {measurement.text!r}, {article} {used.system} unit, needs {system}",
                )
            if wanted and used.quantity == wanted.quantity and used != wanted:
                return False, f"has {measurement.text!r}, needs every {used.quantity} in {unit}"
            if spaced is not None and measurement.spaced not in (None, spaced):
                gap = "a space" if spaced else "no space"
                return False, f"has {measurement.text!r}, needs {gap} before the unit"
        asks_temperature = (
            system
            or (wanted and wanted.quantity == "temperature")
            or any(u.quantity == "temperature" for u in banned)
        )
        if unscaled and asks_temperature:
            raise CheckUndecided(f"has {unscaled.group()!r}, a temperature with no scale")
        if wanted and not any(m.unit.quantity == wanted.quantity for m in found):
            raise CheckUndecided(f"has no {wanted.quantity} written with a unit this check knows")
        if (system or spaced is not None) and not any(
            m.unit.system != "any" if spaced is None else m.spaced is not None for m in found
        ):
            raise CheckUndecided("has no measurement written with a unit this check knows")
        counted = "1 measurement" if len(found) == 1 else f"{len(found)} measurements"
        return True, f"has {counted}, all as asked"

    return test
