"""Reading rule options: one place that turns user input into validated values.

Rules are frozen dataclasses built from keyword options (from Python, the CLI or
HTTP). Each option is converted and range-checked here, and a bad one raises
:class:`~baccara.errors.InvalidOption` naming it, so every front end refuses bad
input the same way.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, TypeVar

from baccara.errors import InvalidOption

R = TypeVar("R")


def as_int(name: str, value: object, low: int, high: int) -> int:
    """A whole number in ``[low, high]``; ``"8"`` is accepted, ``8.5`` and ``"x"`` are not."""
    if isinstance(value, bool):
        raise InvalidOption(name, f"must be a whole number, got {value!r}")
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise InvalidOption(name, f"must be a whole number, got {value!r}") from None
    elif isinstance(value, Fraction | float | Decimal) and value == int(value):
        value = int(value)
    if not isinstance(value, int):
        raise InvalidOption(name, f"must be a whole number, got {value!r}")
    if not low <= value <= high:
        raise InvalidOption(name, f"must be between {low} and {high}, got {value}")
    return value


def as_fraction(
    name: str,
    value: object,
    low: Fraction | int,
    high: Fraction | int,
    *,
    high_inclusive: bool = True,
) -> Fraction:
    """An exact number in ``[low, high]`` (or ``[low, high)``).

    Accepts ints, Fractions, decimal strings (``"4.5"``), ratios (``"19/20"``) and
    floats (read through their shortest decimal form, so ``0.1`` is exactly 1/10).

    >>> as_fraction("commission", "2.5", 0, 100)
    Fraction(5, 2)
    """
    if isinstance(value, bool):
        raise InvalidOption(name, f"must be a number, got {value!r}")
    try:
        if isinstance(value, Fraction | int):
            number = Fraction(value)
        elif isinstance(value, float | Decimal | str):
            text = str(value).strip()
            number = Fraction(Decimal(text)) if "/" not in text else Fraction(text)
        else:
            raise TypeError
    except (TypeError, ValueError, ZeroDivisionError, InvalidOperation, OverflowError):
        raise InvalidOption(name, f"must be a number, got {value!r}") from None
    too_high = number > high if high_inclusive else number >= high
    if number < low or too_high:
        bracket = "]" if high_inclusive else ")"
        raise InvalidOption(name, f"must be in [{low}, {high}{bracket}, got {number}")
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
    raise InvalidOption(name, f"must be yes or no, got {value!r}")


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


def option_name(field_name: str) -> str:
    """How users write a rules field: ``tie_pays`` → ``tie-pays``."""
    return field_name.replace("_", "-")


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
        name = str(key).replace("-", "_")
        if name not in parsers:
            known = ", ".join(sorted(option_name(f) for f in parsers))
            raise InvalidOption(str(key), f"not an option of {game}; its options are: {known}")
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
        wrong_bool = isinstance(value, bool) and expected is not bool
        if wrong_bool or not isinstance(value, expected):
            raise InvalidOption(
                option_name(field.name),
                f"must be a {expected.__name__}, got {value!r}"
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
