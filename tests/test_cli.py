"""The ``baccara`` command as a user runs it: its output and exit codes, run in this
process through :func:`baccara.cli.main` (``tests.helpers.run``); the few checks that
need a process of their own are in ``test_smoke.py``."""

from __future__ import annotations

import json

import pytest

from tests.helpers import assert_refused, run


def test_analyze_prints_the_published_table() -> None:
    result = run("analyze", "punto-banco")
    assert result.returncode == 0, result.stderr
    assert "4,998,398,275,503,360" in result.stdout
    assert "house edge 1.0579%" in result.stdout
    assert "house edge 14.3596%" in result.stdout


def test_analyze_json_is_one_object_with_the_options_used() -> None:
    result = run("analyze", "punto-banco", "--decks", "6", "--commission", "4", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["options"]["decks"] == 6 and data["options"]["commission"] == 4
    banker = next(b for b in data["bets"] if b["bet"] == "banker")
    assert round(banker["house_edge"] * 100, 4) == 0.5972


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["analyze", "chemin-de-fer"], "unknown game 'chemin-de-fer'"),
        (["analyze", "punto-banco", "--decks", "0"], "decks: must be between 1 and 100"),
        (["analyze", "punto-banco", "--decks", "eight"], "decks: must be a whole number"),
        (["analyze", "punto-banco", "--commission", "100"], "commission: must be in [0, 100)"),
        (["analyze", "punto-banco", "--commission", "-1"], "commission: must be in [0, 100)"),
        (["analyze", "punto-banco", "--tie-pays", "lots"], "tie-pays: must be a number"),
        (["analyze", "punto-banco", "--option", "colour=red"], "colour: not an option"),
        (["analyze", "punto-banco", "--option", "decks"], "--option wants KEY=VALUE"),
        (["analyze", "punto-banco", "--frobnicate"], "No such option"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(args: list[str], message: str) -> None:
    assert_refused(run(*args), message)


def test_games_lists_punto_banco() -> None:
    result = run("games")
    assert result.returncode == 0
    assert "punto-banco" in result.stdout.split()
