"""The game registry is the one map from a game id to its code, and every entry is whole.

Sources for the table facts: seed 000 (RedGreen: 12 players six a side and three
dealers; Mini: 7 players and one dealer), seed 001 (Lo-Ball: at most 7 players, per
RULES-NOTES.md), and the online practice of letting anyone bet behind at Punto Banco.
"""

from __future__ import annotations

import inspect
import pathlib

import pytest

import baccara
from baccara.errors import InvalidBet, UnknownGame
from baccara.games import GAMES, Equipment, game, game_ids

ROOT = pathlib.Path(__file__).resolve().parent.parent
ROLES = ("analyzer", "removal", "kernel", "plain_kernel")


def test_the_games_in_the_order_users_see_them() -> None:
    assert game_ids() == ("punto-banco", "redgreen", "redgreen-mini", "lo-ball")
    assert [spec.name for spec in GAMES.values()] == [
        "Punto Banco",
        "RedGreen",
        "Mini RedGreen",
        "Lo-Ball",
    ]
    assert baccara.GAMES is GAMES


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("role", ROLES)
def test_every_role_names_a_function_that_exists(game_id: str, role: str) -> None:
    function = game(game_id).loaded(role)
    assert callable(function)
    assert inspect.signature(function).parameters, f"{game_id} {role} takes no arguments"


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_has_its_document_and_rules(game_id: str) -> None:
    spec = game(game_id)
    assert (ROOT / spec.doc).is_file()
    assert spec.rules.from_options() == spec.rules()
    assert spec.bet_ids == tuple(b.value for b in spec.bets)
    assert spec.parse_bet(spec.bet_ids[0]).value == spec.bet_ids[0]
    with pytest.raises(InvalidBet, match="unknown bet 'dragon'"):
        spec.parse_bet("dragon")


def test_table_facts_from_the_seeds() -> None:
    pb, rg, mini, lo = (game(g).table for g in game_ids())
    assert not pb.seat_required and rg.seat_required and mini.seat_required and lo.seat_required
    assert (rg.seats, rg.seats_per_side, rg.dealers, rg.highest_bettor_may_peek) == (12, 6, 3, True)
    assert (mini.seats, mini.dealers, mini.highest_bettor_chooses_first_hand) == (7, 1, True)
    assert lo.seats == 7 and lo.equipment is Equipment.TILES_AND_DICE
    assert pb.equipment is rg.equipment is Equipment.CARDS


@pytest.mark.parametrize("bad", ["faro", "", "PUNTO-BANCO"])
def test_an_unknown_game_names_the_known_ones(bad: str) -> None:
    with pytest.raises(UnknownGame, match="choose one of: punto-banco, redgreen"):
        game(bad)


def test_an_unhashable_game_id_is_an_unknown_game() -> None:
    with pytest.raises(UnknownGame):
        game(["punto-banco"])  # type: ignore[arg-type]
