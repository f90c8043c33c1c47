"""Rewrite the golden playthroughs after a deliberate change of a procedure or a settlement.

Each game's golden round is dealt through the table engine from seed 2026: two players
each stake 10.00 on every spot, the RedGreen highest bettor peeks, the Mini RedGreen
one sets Green first. Its event log is kept as JSON (``<game>.json``) and as the text
``baccara deal`` prints (``<game>.txt``); tests/test_playthroughs.py deals it again
and replays the stored log, and both must give the same text.
"""

from __future__ import annotations

import json
import pathlib

from baccara.games import game_ids
from baccara.randomness import SeededRandom
from baccara.render.playthrough import round_text
from baccara.table import Round, Table, TableConfig, Viewer
from baccara.table.autoplay import Plan, play

FOLDER = pathlib.Path(__file__).resolve().parent.parent / "tests" / "playthroughs"
SEED = 2026
PLAN = Plan(players=("ann", "bob"), stake=1000, choose="green")


def golden_round(game: str) -> Round:
    table = Table(TableConfig(game, min_bet_cents=100, max_bet_cents=100_000))
    return play(table, PLAN, source=SeededRandom(SEED))


def golden_text(round_: Round) -> str:
    return round_text(round_, f"{round_.spec.id} · golden round · seed {SEED} · as ann saw it",
                      Viewer("ann"))  # fmt: skip


def golden_log(round_: Round) -> str:
    return json.dumps([event.to_dict() for event in round_.events], indent=1) + "\n"


def main() -> None:
    FOLDER.mkdir(exist_ok=True)
    for game in game_ids():
        round_ = golden_round(game)
        (FOLDER / f"{game}.txt").write_text(golden_text(round_))
        (FOLDER / f"{game}.json").write_text(golden_log(round_))


if __name__ == "__main__":
    main()
