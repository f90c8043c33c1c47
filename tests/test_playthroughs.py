"""Golden playthroughs: one stored round per game id, dealt through the table engine.

Each golden is kept twice: its event log (``<game>.json``) and the text ``baccara
deal`` prints (``<game>.txt``). Dealing the round again must give the same log, and
replaying the stored log must give the same text — replay equals live. A failure
means a procedure, a shuffle or a settlement changed; if that was deliberate, run
``python -m scripts.regenerate_playthroughs`` and review the diff.
"""

from __future__ import annotations

import json

import pytest
from scripts.regenerate_playthroughs import FOLDER, golden_log, golden_round, golden_text

from baccara.games import game_ids
from baccara.table import Round, event_from_dict


def test_every_game_has_a_playthrough() -> None:
    assert {p.stem for p in FOLDER.glob("*.txt")} == set(game_ids())
    assert {p.stem for p in FOLDER.glob("*.json")} == set(game_ids())


@pytest.mark.parametrize("game", game_ids())
def test_dealing_again_gives_the_stored_log_and_text(game: str) -> None:
    round_ = golden_round(game)
    assert golden_log(round_) == (FOLDER / f"{game}.json").read_text()
    assert golden_text(round_) == (FOLDER / f"{game}.txt").read_text()


@pytest.mark.parametrize("game", game_ids())
def test_the_stored_log_replays_to_the_same_text(game: str) -> None:
    stored = json.loads((FOLDER / f"{game}.json").read_text())
    replayed = Round.replay([event_from_dict(e) for e in stored], source=_unused())  # type: ignore[arg-type]
    assert golden_text(replayed) == (FOLDER / f"{game}.txt").read_text()


def _unused() -> object:
    """A replay reads every card from the log; the source is never drawn from."""

    class Refuses:
        def randbelow(self, n: int) -> int:
            raise AssertionError("a replay drew a card")

    return Refuses()


def test_goldens_cover_the_peek_the_choice_and_both_sides() -> None:
    text = {game: (FOLDER / f"{game}.txt").read_text() for game in game_ids()}
    assert "ann peeks at red: " in text["redgreen"] and "??" not in text["redgreen"]
    assert "green is set first (chosen)" in text["redgreen-mini"]
    assert "per side" in text["redgreen"] and "per side" not in text["redgreen-mini"]
    assert "die 3 rolled: " in text["lo-ball"] and "Banker third card" in text["punto-banco"]
