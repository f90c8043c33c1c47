"""Reading rule options: one place that turns user input into validated values.

Rules are frozen dataclasses built from keyword options (from Python, the CLI or
HTTP). Each option is converted and range-checked here, and a bad one raises
:class:`~baccara.errors.InvalidOption` naming it, so every front end refuses bad
input the same way.

Numbers are read exactly, and *bounded before they are built*: text is at most
:data:`MAX_NUMBER_TEXT` characters, a number of :data:`HUGE` or more is known to be
out of every range from its exponent alone, and one with more than
:data:`MAX_PLACES` decimal places is refused. So ``1e999999999`` or ``1e-99999999``
is answered at once instead of building a billion-digit integer. A refusal shows
what was typed, not what it was converted to.

The few helpers that write such values back as text (``fraction_text``,
``percent_text``, ``plural``) live here too, below every layer that prints them.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import numbers
import re
import typing
from collections.abc import Callable, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

from baccara.errors import InvalidOption, shown

R = TypeVar("R")

MAX_NUMBER_TEXT = 64
"""The longest text read as a number (a 64-digit number is far beyond any option's range)."""

MAX_PLACES = 12
"""Most decimal places an exact option may have; a ratio ``a/b`` may have ``b`` up to 10^12."""

HUGE_EXPONENT = 30
HUGE = 10**HUGE_EXPONENT
"""Numbers this large or larger are out of every option's range; they are never built."""

_DECIMAL = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?", re.ASCII)
_RATIO = re.compile(r"([+-]?\d+)/(\d+)", re.ASCII)


def _text_of(value: object) -> str | None:
    """The text to read a number from, or ``None`` for a value that is not one."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, float):
        # The shortest decimal form: 0.1 is read as exactly 1/10.
        return repr(value) if math.isfinite(value) else None
    if isinstance(value, Decimal):
        return str(value) if value.is_finite() else None
    return None


def read_number(
    name: str, value: object, *, kind: str = "a number", places: int = MAX_PLACES
) -> Fraction | float:
    """``value`` as an exact :class:`~fractions.Fraction`, bounded before it is built.

    Accepts ints, Fractions, finite floats (read through their shortest decimal form,
    so ``0.1`` is exactly 1/10), Decimals and text: decimals (``"4.5"``, ``"1e6"``) and
    ratios (``"19/20"``), ASCII digits only. A number of :data:`HUGE` or more comes
    back as ``±math.inf``, which any range check then refuses; one with more than
    ``places`` decimal places (or a ratio whose denominator passes ``10**places``) is
    refused here. ``kind`` names what was expected in the refusal.

    >>> read_number("tie-pays", "8.5"), read_number("tie-pays", "1e999999999")
    (Fraction(17, 2), inf)
    >>> read_number("commission", "1e-99999999")
    Traceback (most recent call last):
    ...
    baccara.errors.InvalidOption: commission: must be a number with at most 12 decimal places, got '1e-99999999'
    """
    if isinstance(value, bool):
        raise InvalidOption(name, f"must be {kind}, got {value!r}")
    if isinstance(value, numbers.Integral):  # int, and numpy's integers
        return _bounded(name, Fraction(int(value)), value, kind, places)
    if isinstance(value, Fraction):
        return _bounded(name, value, value, kind, places)
    text = _text_of(value)
    if text is None:
        raise InvalidOption(name, f"must be {kind}, got {shown(value)}")
    if len(text) > MAX_NUMBER_TEXT:
        raise InvalidOption(
            name, f"must be {kind} of at most {MAX_NUMBER_TEXT} characters, got {shown(value)}"
        )
    ratio = _RATIO.fullmatch(text)
    if ratio is not None:
        numerator, denominator = int(ratio[1]), int(ratio[2])
        if denominator == 0:
            raise InvalidOption(name, f"must be {kind}, got {shown(value)} (a division by zero)")
        return _bounded(name, Fraction(numerator, denominator), value, kind, places)
    match = _DECIMAL.fullmatch(text)
    if match is None or not (match[2] or match[3]):
        raise InvalidOption(name, f"must be {kind}, got {shown(value)}")
    sign, whole, part = match[1], match[2], match[3] or ""
    digits = (whole + part).lstrip("0")
    significant = digits.rstrip("0")
    if not significant:
        return Fraction(0)
    # value = ±significant × 10**exponent, with no trailing zero left in ``significant``
    exponent = int(match[4] or 0) - len(part) + (len(digits) - len(significant))
    if exponent + len(significant) > HUGE_EXPONENT:
        return -math.inf if sign == "-" else math.inf
    if exponent < -places:
        raise InvalidOption(name, _too_precise(kind, places, value))
    number = (
        Fraction(int(significant) * 10**exponent)
        if exponent >= 0
        else Fraction(int(significant), 10**-exponent)
    )
    return -number if sign == "-" else number


def _bounded(
    name: str, number: Fraction, value: object, kind: str, places: int
) -> Fraction | float:
    if abs(number) >= HUGE:
        return -math.inf if number < 0 else math.inf
    if number.denominator > 10**places:
        raise InvalidOption(name, _too_precise(kind, places, value))
    return number


def _too_precise(kind: str, places: int, value: object) -> str:
    if places == 0:
        return f"must be {kind}, got {shown(value)}"
    return f"must be {kind} with at most {places} decimal places, got {shown(value)}"


def typed(value: object, number: Fraction | float) -> str:
    """What the user gave, for a range refusal: the text as typed, else the number read.

    ``--commission 100.0001`` is refused as ``got 100.0001``, not ``got 1000001/10000``.
    """
    if isinstance(value, str):
        return value.strip()
    if isinstance(number, Fraction):
        return fraction_text(number)
    return shown(value)


def as_int(name: str, value: object, low: int, high: int) -> int:
    """A whole number in ``[low, high]``; ``"8"``, ``"8.0"`` and ``"1e6"`` are read, ``8.5`` is not.

    >>> as_int("decks", "0", 1, 100)
    Traceback (most recent call last):
    ...
    baccara.errors.InvalidOption: decks: must be between 1 and 100, got 0
    """
    number = read_number(name, value, kind="a whole number", places=0)
    if not low <= number <= high:
        raise InvalidOption(
            name, f"must be between {low:,} and {high:,}, got {typed(value, number)}"
        )
    return int(number)


def as_fraction(
    name: str,
    value: object,
    low: Fraction | int,
    high: Fraction | int,
    *,
    high_inclusive: bool = True,
    low_inclusive: bool = True,
) -> Fraction:
    """An exact number in ``[low, high]`` (or with either end open), read by :func:`read_number`.

    >>> as_fraction("commission", "2.5", 0, 100)
    Fraction(5, 2)
    """
    number = read_number(name, value)
    too_low = number < low if low_inclusive else number <= low
    too_high = number > high if high_inclusive else number >= high
    if too_low or too_high or not isinstance(number, Fraction):
        opening = "[" if low_inclusive else "("
        closing = "]" if high_inclusive else ")"
        interval = (
            f"{opening}{fraction_text(Fraction(low))}, {fraction_text(Fraction(high))}{closing}"
        )
        raise InvalidOption(name, f"must be in {interval}, got {typed(value, number)}")
    return number


_TRUE = frozenset({"yes", "true", "on", "1"})
_FALSE = frozenset({"no", "false", "off", "0"})


def as_bool(name: str, value: object) -> bool:
    """A switch: ``True``/``False``, or ``yes``/``no``, ``on``/``off``, ``true``/``false``, ``1``/``0``.

    >>> as_bool("split-aces", "off")
    False
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
    raise InvalidOption(name, f"must be yes or no, got {shown(value)}")


Parser = Callable[[str, object], Any]
"""Reads one option: ``parser(option name, value)`` returns the typed value or raises."""


def whole_number(low: int, high: int) -> Parser:
    """A parser for a whole number in ``[low, high]``."""
    return lambda name, value: as_int(name, value, low, high)


def number(low: Fraction | int, high: Fraction | int, *, high_inclusive: bool = True) -> Parser:
    """A parser for an exact number in ``[low, high]`` (or ``[low, high)``)."""
    return lambda name, value: as_fraction(name, value, low, high, high_inclusive=high_inclusive)


def switch() -> Parser:
    """A parser for a yes/no option."""
    return as_bool


E = TypeVar("E", bound=enum.Enum)


def choice(kind: type[E]) -> Parser:
    """A parser for one of a closed set of values, written by their ``value``s.

    >>> import enum
    >>> class Side(enum.Enum):
    ...     LEFT = "left"
    >>> choice(Side)("side", "LEFT")
    <Side.LEFT: 'left'>
    """

    def parse(name: str, value: object) -> E:
        if isinstance(value, kind):
            return value
        if isinstance(value, str):
            text = value.strip().lower()
            for member in kind:
                if member.value == text:
                    return member
        allowed = ", ".join(str(member.value) for member in kind)
        raise InvalidOption(name, f"must be one of {allowed}, got {shown(value)}")

    return parse


def option_name(field_name: str) -> str:
    """How users write a rules field: ``tie_pays`` → ``tie-pays``."""
    return field_name.replace("_", "-")


def known_options(parsers: Mapping[str, Parser]) -> str:
    """The options a game takes, as users write them, for a refusal to list."""
    return ", ".join(sorted(option_name(field) for field in parsers))


def field_of(game: str, key: str, parsers: Mapping[str, Parser]) -> str:
    """The rules field option ``key`` names (``tie-pays`` → ``tie_pays``); refuse one ``game`` lacks."""
    name = key.replace("-", "_")
    if name not in parsers:
        raise InvalidOption(
            key, f"not an option of {game}; its options are: {known_options(parsers)}"
        )
    return name


def rules_from_options(
    cls: type[R], game: str, options: Mapping[str, Any], parsers: Mapping[str, Parser]
) -> R:
    """Build a rules dataclass from keyword options: text, numbers or typed values.

    Option names may use dashes (``tie-pays``) or underscores (``tie_pays``); an
    unknown name, or one given twice in both spellings, is refused. Each value goes
    through its field's parser, so ``"4.5"`` becomes ``Fraction(9, 2)`` here and only
    here: the dataclass itself accepts nothing but its declared types.
    """
    kwargs: dict[str, Any] = {}
    for key, value in options.items():
        name = field_of(game, str(key), parsers)
        if name in kwargs:
            raise InvalidOption(option_name(name), "given twice")
        kwargs[name] = parsers[name](option_name(name), value)
    return cls(**kwargs)


_FIELD_TYPES: dict[type, dict[str, Any]] = {}


def _field_types(cls: type) -> dict[str, Any]:
    if cls not in _FIELD_TYPES:
        _FIELD_TYPES[cls] = typing.get_type_hints(cls)
    return _FIELD_TYPES[cls]


def check_fields(rules: object, parsers: Mapping[str, Parser]) -> None:
    """Refuse a rules dataclass built with a value of the wrong type or out of range.

    Called from ``__post_init__``: ``PuntoBancoRules(commission="4")`` is refused (text
    is read by ``from_options``, not by the constructor), ``PuntoBancoRules(decks=0)``
    too, both as :class:`~baccara.errors.InvalidOption` naming the option.
    """
    types = _field_types(type(rules))
    for field in dataclasses.fields(rules):  # type: ignore[arg-type]
        value = getattr(rules, field.name)
        expected = types[field.name]
        expected = typing.get_origin(expected) or expected  # tuple[X, ...]: a tuple
        wrong_bool = isinstance(value, bool) and expected is not bool
        if wrong_bool or not isinstance(value, expected):
            raise InvalidOption(
                option_name(field.name),
                f"must be a {expected.__name__}, got {shown(value)}"
                " (from_options reads text and other numbers)",
            )
        parsers[field.name](option_name(field.name), value)


def fraction_text(value: Fraction) -> str:
    """Show an exact option value plainly: ``5``, ``2.5``, ``1/3``."""
    if value.denominator == 1:
        return str(value.numerator)
    decimal = Decimal(value.numerator) / Decimal(value.denominator)
    if Fraction(decimal) == value:
        return str(decimal.normalize())
    return f"{value.numerator}/{value.denominator}"


def decimal_text(value: Fraction | float, places: int, *, signed: bool = False) -> str:
    """``value`` to ``places`` decimals; one that rounds to zero prints as plain zero.

    Python writes a tiny negative number as ``-0.0000``: a sign on a figure that shows
    nothing. Here it is ``0.0000``, with or without ``signed``.

    >>> decimal_text(-0.000001, 4), decimal_text(0.25, 2, signed=True)
    ('0.0000', '+0.25')
    """
    text = f"{float(value):+.{places}f}" if signed else f"{float(value):.{places}f}"
    return f"{0:.{places}f}" if float(text) == 0 else text


def percent_text(value: Fraction | float, places: int = 4, *, signed: bool = False) -> str:
    """``value`` as a percentage: ``Fraction(1, 40)`` → ``"2.5000%"``, never ``"-0.0000%"``.

    >>> percent_text(Fraction(1, 40)), percent_text(-1e-9), percent_text(0.0125, 2, signed=True)
    ('2.5000%', '0.0000%', '+1.25%')
    """
    return decimal_text(float(value) * 100, places, signed=signed) + "%"


def plural(count: int, word: str) -> str:
    """``plural(1, "deck")`` → ``"1 deck"``; ``plural(8, "deck")`` → ``"8 decks"``.

    >>> plural(1, "round"), plural(2_000_000, "round")
    ('1 round', '2,000,000 rounds')
    """
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"
