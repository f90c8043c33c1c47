"""Golden playthroughs: one stored round per game id, replayed exactly.

A failure here means a rule, a shuffle or a settlement changed. If the change is
deliberate, run ``python scripts/regenerate_playthroughs.py`` and review the diff.
"""

from __future__ import annotations

import pathlib

import pytest

from baccara.errors import UnknownGame
from baccara.games import game_ids
from baccara.render.playthrough import playthrough
from tests.helpers import assert_refused, run

FOLDER = pathlib.Path(__file__).resolve().parent / "playthroughs"
SEED = 2026


def test_every_game_has_a_playthrough() -> None:
    assert set(game_ids()) == set(game_ids())
    assert {p.stem for p in FOLDER.glob("*.txt")} == set(game_ids())


@pytest.mark.parametrize("game", game_ids())
def test_playthrough_replays_exactly(game: str) -> None:
    assert playthrough(game, SEED) == (FOLDER / f"{game}.txt").read_text()


def test_unseeded_rounds_use_the_secure_shuffle() -> None:
    text = playthrough("punto-banco")
    assert "secure shuffle" in text.splitlines()[0]
    assert len({playthrough("punto-banco") for _ in range(5)}) > 1


def test_unknown_game() -> None:
    with pytest.raises(UnknownGame):
        playthrough("faro", 1)


def test_deal_command() -> None:
    result = run("deal", "punto-banco", "--seed", str(SEED))
    assert result.returncode == 0
    assert result.stdout == (FOLDER / "punto-banco.txt").read_text()
    result = run("deal", "lo-ball", "--seed", "3", "--stake", "2.50")
    assert "stake     2.50" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["deal", "faro"], "unknown game 'faro'"),
        (["deal", "punto-banco", "--stake", "0"], "--stake: must be between 0.01 and 1000000.00"),
        (["deal", "punto-banco", "--stake", "1.005"], "at most 2 decimal places, got '1.005'"),
        (["deal", "punto-banco", "--stake", "ten"], "--stake: must be an amount, got 'ten'"),
        (["deal", "punto-banco", "--stake", "1e999990"], "got 1e999990"),
        (["deal", "punto-banco", "--seed", "1e-99999999"], "--seed: must be a whole number"),
        (["deal", "punto-banco", "--seed", "x"], "seed: must be a whole number"),
    ],
)
def test_deal_refuses_bad_input(args: list[str], message: str) -> None:
    assert_refused(run(*args), message)
