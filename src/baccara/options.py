"""Reading rule options: one place that turns user input into validated values.

Rules are frozen dataclasses built from keyword options (from Python, the CLI or
HTTP). Each option is converted and range-checked here, and a bad one raises
:class:`~baccara.errors.InvalidOption` naming it, so every front end refuses bad
input the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
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


def rules_from_options(cls: type[R], game: str, options: Mapping[str, Any]) -> R:
    """Build a rules dataclass from keyword options, refusing unknown names.

    Option names may use dashes (``tie-pays``) or underscores (``tie_pays``).
    """
    fields = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    kwargs: dict[str, Any] = {}
    for key, value in options.items():
        name = key.replace("-", "_")
        if name not in fields:
            known = ", ".join(sorted(f.replace("_", "-") for f in fields))
            raise InvalidOption(key, f"not an option of {game}; its options are: {known}")
        kwargs[name] = value
    return cls(**kwargs)


def fraction_text(value: Fraction) -> str:
    """Show an exact option value plainly: ``5``, ``2.5``, ``1/3``."""
    if value.denominator == 1:
        return str(value.numerator)
    decimal = Decimal(value.numerator) / Decimal(value.denominator)
    if Fraction(decimal) == value:
        return str(decimal.normalize())
    return f"{value.numerator}/{value.denominator}"
