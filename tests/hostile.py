"""What a hostile user types: the strategies the bad-input property tests draw from.

Issue 15's classes of failure, each as a generator: random text (control characters,
escape codes, lone surrogates as a shell hands over undecodable bytes), numbers with
huge and tiny exponents, digit strings past Python's 4,300-digit limit, the special
spellings (``nan``, ``1/0``, ``１２``), and values of every Python type for the API.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

SPECIAL = (
    "", " ", "-", "+", ".", "e", "1e", "e5", "8.", ".5", "-0", "+8", " 8 ", "0x10", "1_000",
    "１２", "٣", "nan", "NaN", "inf", "-inf", "Infinity", "1/0", "0/0", "1/3", "-1/3", "3/1",
    "1e999999999", "-1e999999999", "1e-999999999", "9" * 5000, "1" + "0" * 4400,
    "0." + "0" * 60 + "1", "1e+308", "1e309", "4.9e-324", "2.5%", "\x1b[31m8", "8\n9",
    "[/bold]", "[bold]8", ":smile:", "\udcff", "100.0001", "92233720368547758.07",
    "9223372036854775807", "9223372036854775808", "18446744073709551616",
)  # fmt: skip
"""Spellings that broke, or could break, a number reader."""

_ANY_CHARACTER = st.characters(exclude_categories=(), exclude_characters="\x00")
"""Every code point but NUL (no argument on a command line can hold one), lone surrogates
included: Python hands undecodable bytes of argv over as surrogates."""


def exponents() -> st.SearchStrategy[str]:
    """Decimal numbers with exponents from tiny to astronomical."""
    mantissa = st.one_of(
        st.integers(-999, 999).map(str),
        st.decimals(allow_nan=False, allow_infinity=False, places=3).map(str),
    )
    exponent = st.one_of(st.integers(-40, 40), st.integers(-(10**12), 10**12))
    return st.builds(
        lambda m, e, letter: f"{m}{letter}{e}", mantissa, exponent, st.sampled_from("eE")
    )


def number_text() -> st.SearchStrategy[str]:
    """Anything a user might type where a number is wanted, well formed or not."""
    return st.one_of(
        st.sampled_from(SPECIAL),
        exponents(),
        st.integers(-(10**40), 10**40).map(str),
        st.fractions(max_denominator=10**15).map(str),
        st.floats().map(repr),
        st.integers(30, 6000).map(lambda n: "9" * n),
        st.text(_ANY_CHARACTER, max_size=20),
        st.text("0123456789.eE+-/%", max_size=25),
    )


def any_text() -> st.SearchStrategy[str]:
    """Text for options that are not numbers (a bet, a shoe, a key): random and special."""
    return st.one_of(st.sampled_from(SPECIAL), st.text(_ANY_CHARACTER, max_size=30))


def file_name() -> st.SearchStrategy[str]:
    """A name to write to, relative to the test's own folder (no "/": nothing outside it)."""
    return st.one_of(
        st.sampled_from(["", ".", "..", "plot.png", "plot.svg", "x.toml", "a.PNG", "x" * 300]),
        st.text(st.characters(codec="utf-8", exclude_characters="/\x00"), max_size=20),
        st.text(st.characters(codec="utf-8", exclude_characters="/\x00"), max_size=10).map(
            lambda name: name + ".png"
        ),
    )


def _huge_integers(digits: int) -> st.SearchStrategy[int]:
    """Integers of ``digits`` to 6,000 digits, past Python's 4,300-digit limit for text.

    Built from their number of digits: Hypothesis itself writes the integers it draws
    as text, and fails on one past the limit.
    """
    return st.builds(
        lambda n, tail: 10 ** (n - 1) + tail, st.integers(digits, 6000), st.integers(0, 10**6)
    )


def any_value() -> st.SearchStrategy[Any]:
    """A value of any type a Python caller might pass by mistake (or on purpose)."""
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        _huge_integers(40),
        st.floats(),
        st.fractions(),
        st.builds(Fraction, st.integers(-10, 10), _huge_integers(13)),
        st.decimals(),
        st.sampled_from([Decimal("sNaN"), Decimal("NaN"), Decimal("1E+999999999"), Decimal("-0")]),
        number_text(),
        st.binary(max_size=10),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
        st.builds(object),
        st.sampled_from([complex(1, 1), range(3), frozenset(), type, print]),
    )


def lines_of_input(tokens: tuple[str, ...] = ("up", "K", "7")) -> st.SearchStrategy[bytes]:
    """Standard input as a hostile user pipes it: lines of what the command takes
    (``tokens``), random text, bytes that are no UTF-8, lines far too long, with or
    without a last newline, or nothing at all."""
    line = st.one_of(
        st.sampled_from(tokens).map(str.encode),
        st.text(_ANY_CHARACTER, max_size=30).map(lambda t: t.encode("utf-8", "surrogatepass")),
        st.binary(max_size=20),
        st.integers(30, 200_000).map(lambda n: b"9" * n),
    )
    return st.builds(
        lambda lines, end: b"\n".join(lines) + end,
        st.lists(line, max_size=12),
        st.sampled_from([b"\n", b"", b"\r\n"]),
    )
