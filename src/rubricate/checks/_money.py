"""Money: every amount written with a currency symbol, and with the decimals asked for.

"All prices with a currency symbol", "amounts in $ with two decimal places", "use the € sign
for prices". An amount is a number beside a currency symbol (`$12`, `12,50 €`), beside a
currency's name or code (`12 dollars`, `EUR 40`), or written with exactly two decimals
(`4.50`), the shape of a price. A number of anything else (`3 eggs`, `20 minutes`) is none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .._exceptions import CheckUndecided, RubricError
from ._check import TextTest
from ._registry import catalogue_check

__all__ = ["money_format", "percent_sign"]

SYMBOLS = "$€£¥₹"
"""The currency symbols an amount may carry."""

_NUMBER = r"\d{1,3}(?:[,\s.]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?"
_NAMES = (
    r"dollars?|bucks|euros?|pounds?(?: sterling)?|yen|yuan|rupees?|francs?|"
    r"usd|eur|gbp|cad|aud|nzd|chf|jpy|inr|cny"
)
_UNITS = (
    r"%|percent|kg|g|km|m|cm|mm|mi|lb|lbs|oz|l|ml|°|degrees?|hours?|hrs?|minutes?|mins?|"
    r"seconds?|secs?"
)
_AMOUNT = re.compile(
    rf"(?P<before>[{SYMBOLS}])\s?(?P<n1>{_NUMBER})"
    rf"|(?P<n2>{_NUMBER})\s?(?P<after>[{SYMBOLS}])"
    rf"|\b(?P<code>usd|eur|gbp|cad|aud|nzd|chf|jpy|inr|cny)\s?(?P<n3>{_NUMBER})"
    rf"|(?P<n4>{_NUMBER})\s?(?P<name>{_NAMES})\b"
    # Two decimals and no unit: the shape of a price, not a time ("at 12.30") or a version.
    rf"|(?<![\w.:/-])(?<!at )(?<!by )(?P<n5>\d+\.\d{{2}})(?![\w.%°/-]|\s?(?:{_UNITS})\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Amount:
    text: str
    number: str
    symbol: str | None


def _amounts(text: str) -> list[_Amount]:
    found = []
    for match in _AMOUNT.finditer(text):
        symbol = match.group("before") or match.group("after")
        number = next(match.group(g) for g in ("n1", "n2", "n3", "n4", "n5") if match.group(g))
        found.append(_Amount(match.group().strip(), number, symbol))
    return found


def _decimals(number: str) -> int:
    """Digits after the decimal mark: the last `.` or `,` followed by other than three digits."""
    tail = re.search(r"[.,](\d+)$", number)
    if tail is None or (len(tail.group(1)) == 3 and re.search(r"\d[.,]\d{3}$", number)):
        return 0  # "1,000" and "1.000" group thousands
    return len(tail.group(1))


_SYMBOL_RULES = ("required", "ignored", "forbidden")
_BARE_DECIMAL = re.compile(r"(?<![\w.:/-])\d+\.\d+(?![\w.:/%°-])")


@catalogue_check
def money_format(
    symbol: str | None = None, decimals: int | None = None, symbols: str = "required"
) -> TextTest:
    """Every amount of money is written as asked: with a symbol (or none), with N decimals.

    By default every amount carries a currency symbol (the given one), and there is at least
    one. An amount is a number beside a symbol (`$12`, `12,50 €`), a currency name or code
    (`12 dollars`, `EUR 40`), or with exactly two decimals (`4.50`); other numbers are not
    money. For "all prices with a currency symbol", "amounts in € with two decimal places",
    "whole dollars, no cents" (`decimals=0, symbols="ignored"`).

    Args:
        symbol: The symbol every amount must carry (`$`, `€`, `£`, `¥` or `₹`); any of them
            when left out.
        decimals: How many digits every amount has after the decimal mark (`2` for `$4.50`,
            `0` for "whole dollars, no cents").
        symbols: Every amount carries a symbol (`required`, the default); symbols are not
            checked (`ignored`: "two decimal places for all amounts"); or no amount carries
            one (`forbidden`: "prices as plain numbers, no currency sign"). Unless symbols
            are required, a text with no amount found is left to the judge
            (`CheckUndecided`): a bare price ("14") is no amount this check can tell from any
            other number.

    Example:
        ```python
        checks.money_format("$", decimals=2)  # "prices as $X.XX"
        ```

    """
    if symbol is not None and (len(symbol.strip()) != 1 or symbol.strip() not in SYMBOLS):
        raise RubricError(
            f"money_format: `symbol` must be one of {', '.join(SYMBOLS)}, got {symbol!r}",
            field="symbol",
        )
    if decimals is not None and (isinstance(decimals, bool) or not 0 <= decimals <= 4):
        raise RubricError(
            f"money_format: `decimals` must be an int from 0 to 4, got {decimals!r}",
            field="decimals",
        )
    if symbols not in _SYMBOL_RULES:
        raise RubricError(
            f"money_format: `symbols` must be one of {', '.join(_SYMBOL_RULES)}, got {symbols!r}",
            field="symbols",
        )
    if symbol is not None and symbols != "required":
        raise RubricError("money_format: a `symbol` needs `symbols` 'required'", field="symbols")
    if symbols == "ignored" and decimals is None:
        raise RubricError("money_format: with symbols 'ignored', say `decimals`", field="decimals")
    wanted = symbol.strip() if symbol else None
    needs = {
        "required": f"the {wanted} symbol" if wanted else "a currency symbol",
        "forbidden": "no symbol",
        "ignored": f"{decimals} decimal places",
    }

    def test(text: str) -> tuple[bool, str]:
        amounts = _amounts(text)
        if not amounts:
            if symbols != "required":
                raise CheckUndecided("has no amount of money this check can tell from a number")
            return False, f"has no amount of money, needs amounts with {needs[symbols]}"
        if symbols != "required" and decimals is not None:
            # "15.5" beside "49.90": a number that may be money written otherwise
            taken = {amount.number for amount in amounts}
            for number in _BARE_DECIMAL.findall(text):
                if number not in taken and _decimals(number) != decimals:
                    raise CheckUndecided(f"has {number!r}, which may be an amount of money")
        for amount in amounts:
            if symbols == "required" and amount.symbol is None:
                return False, f"has the amount {amount.text!r} without {needs[symbols]}"
            if symbols == "forbidden" and amount.symbol is not None:
                return False, f"has the amount {amount.text!r}, needs it without a symbol"
            if wanted and amount.symbol != wanted:
                return False, f"has the amount {amount.text!r}, needs {needs[symbols]}"
            if decimals is not None and _decimals(amount.number) != decimals:
                return False, f"has the amount {amount.text!r}, needs {decimals} decimal places"
        noun = "amount" if len(amounts) == 1 else "amounts"
        return True, f"has {len(amounts)} {noun} of money, each with {needs[symbols]}"

    return test


# A percentage: a number then "%", "percent", "per cent" or "pct".
_PERCENTAGE = re.compile(
    r"(?<![\w.])\d+(?:[.,]\d+)?\s*(?P<mark>%|percent\b|per\s+cent\b|pct\b)", re.IGNORECASE
)


@catalogue_check
def percent_sign() -> TextTest:
    """Every percentage is written with the `%` sign, and there is at least one.

    A percentage is a number followed by `%`, `percent`, `per cent` or `pct`. For "use the %
    sign for percentages", "percentages always with the % symbol".

    Example:
        ```python
        checks.percent_sign()
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        found = list(_PERCENTAGE.finditer(text))
        if not found:
            return False, "has no percentage, needs percentages with the % sign"
        for match in found:
            if match.group("mark") != "%":
                return False, f"has the percentage {match.group()!r}, needs the % sign"
        return True, f"has {len(found)} percentage{'s' * (len(found) > 1)}, all with the % sign"

    return test
