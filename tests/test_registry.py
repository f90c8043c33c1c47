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
from baccara.errors import BaccaraError, InvalidBet, UnknownGame
from baccara.games import GAMES, Equipment, TableFacts, game, game_ids
from baccara.randomness import SeededRandom

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


@pytest.mark.parametrize("game_id", game_ids())
def test_the_hands_named_are_the_hands_the_procedure_deals(game_id: str) -> None:
    """The registry's hands (what the API groups a round's cards by) are where the
    game's own procedure deals, in its dealing order; a tile game names none."""
    spec = game(game_id)
    dealt = spec.loaded("procedure").deal(SeededRandom(1), [1, 2], spec.rules())
    dealt_to = tuple(dict.fromkeys(position.split(".")[0] for position, _ in dealt))
    if spec.table.equipment is Equipment.CARDS:
        assert dealt_to == spec.table.hands
    else:
        assert spec.table.hands == ()
        assert dealt_to[:3] == ("dealer", "seat1", "seat2")


def test_a_card_game_must_name_its_hands() -> None:
    with pytest.raises(BaccaraError, match="names the hands it deals"):
        TableFacts(seats=7, dealers=1, equipment=Equipment.CARDS, seat_required=False)


def test_a_new_casino_deals_punto_banco_live() -> None:
    assert [g for g in game_ids() if game(g).table.default_live_table] == ["punto-banco"]


@pytest.mark.parametrize("game_id", game_ids())
def test_every_usual_variant_is_rules_the_game_accepts(game_id: str) -> None:
    """Each listed variant builds rules that differ from the defaults; RedGreen's two
    tables share theirs, as they share their rules."""
    spec = game(game_id)
    assert spec.variants
    for variant in spec.variants:
        assert spec.rules_from_options(**variant.over({})) != spec.rules(), variant.name
    assert len({v.name for v in spec.variants}) == len(spec.variants)
    assert hash(spec) == hash(game(game_id))
    assert game("redgreen-mini").variants == game("redgreen").variants


@pytest.mark.parametrize("bad", ["faro", "", "PUNTO-BANCO"])
def test_an_unknown_game_names_the_known_ones(bad: str) -> None:
    with pytest.raises(UnknownGame, match="choose one of: punto-banco, redgreen"):
        game(bad)


def test_an_unhashable_game_id_is_an_unknown_game() -> None:
    with pytest.raises(UnknownGame):
        game(["punto-banco"])  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", game_ids())
def test_public_facts_are_plain_data_that_add_to_the_rules_without_replacing_any(
    game_id: str,
) -> None:
    import json

    from baccara.server.domain.views import rules_json

    facts = game(game_id).public_facts()
    assert json.loads(json.dumps(facts)) == facts
    served = rules_json(game_id)
    assert {key: served[key] for key in facts} == facts


def test_the_public_facts_are_what_each_table_shows() -> None:
    """Seed 000: six seats a side at RedGreen; Banker (5 % on a win) and Red and Green
    carry the commission; Punto Banco lays its pairs above Player and Banker."""
    pb, rg, mini, lb = (game(g).public_facts() for g in game_ids())
    assert [(s["bet"], s["row"]) for s in pb["spots"]] == [
        ("player-pair", 1), ("tie", 1), ("banker-pair", 1), ("player", 2), ("banker", 2),
    ]  # fmt: skip
    assert [h["name"] for h in pb["hands"]] == ["Player", "Banker"]
    assert (pb["commission_on"], rg["commission_on"]) == (["banker"], ["red", "green"])
    assert (rg["seats_per_side"], mini["seats_per_side"], lb["seats_per_side"]) == (6, None, None)
    assert [f["felt"] for f in (pb, rg, mini, lb)] == [
        "scored-hands", "set-hands", "set-hands", "seats-against-dealer",
    ]  # fmt: skip
    assert (lb["hands"], lb["piece"], lb["dice"], pb["piece"], pb["dice"]) == (
        [], "tile", True, "card", False,
    )  # fmt: skip
    assert [f["roads"] for f in (pb, rg, mini, lb)] == [True, False, False, False]
    assert all(f["tagline"] for f in (pb, rg, mini, lb))
    assert pb["option_labels"]["pair_pays"] == "Player Pair and Banker Pair pay"
    assert mini["option_labels"] == rg["option_labels"]
    assert set(lb["option_labels"]) == set(game("lo-ball").rules.OPTIONS)


def test_a_layout_lays_every_bet_once() -> None:
    import dataclasses

    from baccara.games.spec import Spot

    spec = game("redgreen")
    with pytest.raises(BaccaraError, match="lays"):
        dataclasses.replace(spec, spots=spec.spots[:2])
    with pytest.raises(BaccaraError, match="lays"):
        dataclasses.replace(spec, spots=(*spec.spots, Spot("red", "Red again", 2)))
    with pytest.raises(BaccaraError, match="commission"):
        dataclasses.replace(spec, commission_on=("bonus", "tie"))
    with pytest.raises(BaccaraError, match="options it does not take"):
        dataclasses.replace(spec, option_labels=(("tie_pays", "Tie pays"),))
