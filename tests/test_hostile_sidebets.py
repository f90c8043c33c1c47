"""The side-bet commands and options, fed what a hostile user types (see test_hostile_cli).

``count``'s every option and argument, ``analyze --sidebet``, ``paytable check`` and
``paytable design``'s side-bet options: each either refused in one line at once or
answered, never a traceback or a hang.
"""

from __future__ import annotations

import pathlib
import tempfile

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from baccara.options import as_int
from tests.helpers import run
from tests.hostile import any_text, number_text
from tests.hostile_run import HOSTILE, outcome, read, warm

COUNT = ["count", "punto-banco", "dragon-7", "-o", "variant=ez", "--shoes", "2"]
"""A small study, but for the option under test."""

COUNT_FLAGS = ("--level", "--tags", "--trigger", "--spread", "--shoes", "--cut-card", "--seed",
               "--option")  # fmt: skip

FED = {
    ("count", "GAME"),
    ("count", "BET"),
    *(("count", flag) for flag in COUNT_FLAGS),
    ("analyze", "--sidebet"),
    ("paytable check", "FILE..."),
    ("paytable design", "--within"),
    ("paytable design", "SIDEBET"),
}
"""What this module feeds hostile input: (command, option or argument)."""


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    warm()
    run(*COUNT)  # the count's modules and the Dragon 7 fast edge, in the forks' parent
    run("paytable", "show", "dragon-7")


@pytest.mark.slow
@pytest.mark.parametrize("flag", COUNT_FLAGS)
@settings(HOSTILE, max_examples=15)
@given(value=st.one_of(number_text(), any_text()))
def test_count_options(flag: str, value: str) -> None:
    if flag == "--shoes":
        assume(read(lambda: as_int("shoes", value, 1, 3)) is not None or not _small(value))
    if flag == "--level":  # level 3 searches 7¹⁰ counts: a result, but a slow one
        assume(read(lambda: as_int("level", value, 3, 3)) is None)
    ran = outcome(*COUNT, flag, value)
    if ran.returncode == 0:
        assert "gain per shoe" in ran.stdout


def _small(value: str) -> bool:
    """Whether ``value`` reads as a whole number of shoes that would take long to deal."""
    try:
        return int(value.strip()) > 3
    except ValueError:
        return False


@pytest.mark.slow
@pytest.mark.parametrize("argument", ["GAME", "BET"])
@settings(HOSTILE, max_examples=15)
@given(value=any_text())
def test_count_arguments(argument: str, value: str) -> None:
    args = ["count", "--", value, "dragon-7"] if argument == "GAME" else [*COUNT[:2], "--", value]
    ran = outcome(*args, "-o", "variant=ez", "--shoes", "2")
    if ran.returncode == 0:
        assert "gain per shoe" in ran.stdout


@pytest.mark.slow
@settings(HOSTILE, max_examples=15)
@given(value=any_text())
def test_analyze_sidebet(value: str) -> None:
    ran = outcome("analyze", "punto-banco", "--sidebet", value)
    if ran.returncode == 0:
        assert "house edge" in ran.stdout


@pytest.mark.slow
@settings(HOSTILE, max_examples=20)
@given(data=st.binary(max_size=300), name=any_text())
def test_random_bytes_and_names_as_bet_files(data: bytes, name: str) -> None:
    """Random bytes as a side-bet file, and any name: checked, shown or refused, alike."""
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "random.toml"
        path.write_bytes(data)
        checked = outcome("paytable", "check", str(path))
        added = outcome("analyze", "punto-banco", "--sidebet", str(path))
        assert checked.returncode == added.returncode or checked.returncode == 0
        outcome("paytable", "check", "--", name)


@pytest.mark.slow
@settings(HOSTILE, max_examples=15)
@given(within=number_text(), bet=any_text())
def test_paytable_design_of_a_side_bet(within: str, bet: str) -> None:
    ran = outcome("paytable", "design", "--target-edge", "5", "dragon-7", "--within", within,
                  "--top", "1", results=(0, 1))  # fmt: skip
    if ran.returncode == 0:
        assert "dragon-7" in ran.stdout or "Dragon 7" in ran.stdout
    outcome("paytable", "design", "--target-edge", "5", "--top", "1", "--", bet, results=(0, 1))
