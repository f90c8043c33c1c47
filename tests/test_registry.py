"""The game registry is the one map from a game id to its code, and every entry is whole.

Sources for the table facts: seed 000 (RedGreen: 12 players six a side and three
dealers; Mini: 7 players and one dealer), seed 001 (Lo-Ball: at most 7 players, per
RULES-NOTES.md), and the online practice of letting anyone bet behind at Punto Banco.
"""

from __future__ import annotations

import dataclasses
import pathlib
from collections.abc import Callable
from fractions import Fraction

import pytest

import baccara
from baccara.cards import ShoeComposition, ShoeMode
from baccara.errors import BaccaraError, InvalidBet, UnknownGame
from baccara.exact import roles as exact_roles
from baccara.exact.removal import removal_of
from baccara.exact.roles import analysis_of, bets_dealt_from, round_model_of
from baccara.games import GAMES, Equipment, GameSpec, TableFacts, game, game_ids
from baccara.games import spec as spec_module
from baccara.games.spec import MisregisteredRole, Role
from baccara.randomness import SeededRandom
from baccara.sim.kernels.rng import XoshiroRandom, block_state
from baccara.sim.roles import kernel_of, plain_rounds_of
from baccara.table import roles as table_roles
from baccara.table.roles import procedure_of

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_the_games_in_the_order_users_see_them() -> None:
    assert game_ids() == ("punto-banco", "redgreen", "redgreen-mini", "lo-ball")
    assert [spec.name for spec in GAMES.values()] == [
        "Punto Banco",
        "RedGreen",
        "Mini RedGreen",
        "Lo-Ball",
    ]
    assert baccara.GAMES is GAMES


def _analysis(spec: GameSpec) -> None:
    analysis = analysis_of(spec, spec.rules())
    assert analysis.game == spec.id
    assert {bet.bet for bet in analysis.bets} == set(spec.bet_ids)


def _removal(spec: GameSpec) -> None:
    effects = removal_of(spec, spec.rules())
    assert effects.game == spec.id and set(effects.bets) == set(spec.bet_ids)


def _kernel(spec: GameSpec) -> None:
    dealer = kernel_of(spec, spec.rules(), ShoeMode.RESHUFFLE, 0.8)
    assert dealer.game == spec.id and set(dealer.bets) == set(spec.bet_ids)


def _plain_kernel(spec: GameSpec) -> None:
    rng = XoshiroRandom(block_state(1, 0))
    rounds = list(plain_rounds_of(spec, rng, 3, False, 0.8, spec.rules()))
    assert len(rounds) == 3 and all(len(names) == len(spec.bet_ids) for names in rounds)


def _procedure(spec: GameSpec) -> None:
    dealt = procedure_of(spec).deal(SeededRandom(1), [1], spec.rules())
    assert dealt and all(isinstance(code, str) for _, code in dealt)


def _depleted(spec: GameSpec) -> None:
    """From a full shoe, the depleted analysis is the game's own analysis."""
    rules = spec.rules()
    bets = bets_dealt_from(spec, rules, ShoeComposition.standard(rules.decks))
    analysis = analysis_of(spec, rules)
    assert {b.bet: b.house_edge for b in bets} == {
        b.bet: b.house_edge for b in analysis.bets if b.bet in {d.bet for d in bets}
    }
    assert bets


def _joint(spec: GameSpec) -> None:
    model = round_model_of(spec, spec.rules())
    assert model.house_mean([]) == model.house_variance([]) == Fraction(0)


ACCESSORS: dict[Role, Callable[[GameSpec], None]] = {
    Role.ANALYZER: _analysis,
    Role.REMOVAL: _removal,
    Role.KERNEL: _kernel,
    Role.PLAIN_KERNEL: _plain_kernel,
    Role.PROCEDURE: _procedure,
    Role.DEPLETED: _depleted,
    Role.JOINT: _joint,
}
"""Each role through the accessor its callers use, and a look at what it served."""

DECLARED = [(game_id, role) for game_id in game_ids() for role in game(game_id).roles]


def test_every_role_has_its_accessor_here() -> None:
    """A role added to the registry without a check below fails here."""
    assert set(ACCESSORS) == set(Role)


@pytest.mark.parametrize(("game_id", "role"), DECLARED, ids=[f"{g}-{r.value}" for g, r in DECLARED])
def test_every_declared_role_loads_as_what_its_accessor_promises(game_id: str, role: Role) -> None:
    """Every registry entry is loaded, called and checked by its accessor, as a table,
    the analysis or the simulator would: a wrong entry fails here, not at a table."""
    ACCESSORS[role](game(game_id))


def test_only_lo_ball_does_without_a_role_and_it_is_the_depleted_shoe() -> None:
    """Lo-Ball reshuffles its 28 tiles every round: no shoe to deplete."""
    assert {g: set(Role) - set(game(g).roles) for g in game_ids()} == {
        "punto-banco": set(), "redgreen": set(), "redgreen-mini": set(),
        "lo-ball": {Role.DEPLETED},
    }  # fmt: skip
    with pytest.raises(BaccaraError, match="Lo-Ball has no depleted"):
        game("lo-ball").load(Role.DEPLETED)


def _bet_names(rules: object, shoe: ShoeComposition) -> tuple[str, ...]:
    """The shape of a ``depleted`` role, returning bet names instead of their analyses."""
    return game("punto-banco").bet_ids


def _entry(**paths: str) -> GameSpec:
    return dataclasses.replace(game("punto-banco"), **paths)


def test_a_path_that_does_not_import_names_the_game_and_role() -> None:
    spec = _entry(procedure="baccara.table.procedures.faro:PROCEDURE")
    with pytest.raises(
        MisregisteredRole, match=r"punto-banco's procedure, .*faro.*does not import"
    ):
        procedure_of(spec)
    with pytest.raises(MisregisteredRole, match=r"punto-banco's joint, .* does not import"):
        round_model_of(_entry(joint="baccara.exact.joint_punto_banco:no_such_model"), object())


def test_an_entry_of_the_wrong_kind_is_refused_by_its_accessor() -> None:
    """The wrong object, a function of the wrong shape, or one returning the wrong
    thing: each is refused where it is loaded, naming the game and the role."""
    rules = game("punto-banco").rules()
    with pytest.raises(
        MisregisteredRole, match=r"punto-banco's procedure, .* not a table procedure"
    ):
        procedure_of(_entry(procedure="baccara.games.registry:GAMES"))
    with pytest.raises(MisregisteredRole, match=r"punto-banco's analyzer, .* not a function"):
        analysis_of(_entry(analyzer="baccara.games.registry:GAMES"), rules)
    with pytest.raises(MisregisteredRole, match=r"punto-banco's analyzer, .* does not take"):
        analysis_of(_entry(analyzer="baccara.exact.joint_punto_banco:round_model"), rules)
    with pytest.raises(
        MisregisteredRole, match="returned a value of type EffectOfRemoval, not Analysis"
    ):
        analysis_of(_entry(analyzer="baccara.exact.punto_banco:effect_of_removal"), rules)
    with pytest.raises(MisregisteredRole, match=r"punto-banco's joint, .* not a round model"):
        round_model_of(_entry(joint="baccara.exact.punto_banco:bet_analyses"), rules)
    with pytest.raises(MisregisteredRole, match=r"punto-banco's depleted, .* not all BetAnalysis"):
        bets_dealt_from(
            _entry(depleted=f"{__name__}:_bet_names"),
            rules,
            ShoeComposition.standard(8),
        )


def test_a_role_is_named_by_a_module_and_a_name() -> None:
    with pytest.raises(
        BaccaraError, match=r"punto-banco's kernel is named .* 'package.module:name'"
    ):
        _entry(kernel="baccara.sim.kernels.punto_banco.dealer")


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
    dealt = procedure_of(spec).deal(SeededRandom(1), [1, 2], spec.rules())
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
    assert [f["roads"] for f in (pb, rg, mini, lb)] == [True, True, True, True]
    assert all(f["tagline"] for f in (pb, rg, mini, lb))
    assert pb["option_labels"]["pair_pays"] == "Player Pair and Banker Pair pay"
    assert mini["option_labels"] == rg["option_labels"]
    assert set(lb["option_labels"]) == set(game("lo-ball").rules.OPTIONS)


def test_a_layout_lays_every_bet_once() -> None:
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


def test_an_accessor_loads_and_checks_an_entry_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A round built for every stored round read, a report's model for every round: the
    entry is imported and checked the first time, and the checked object served after."""
    spec = game("punto-banco")
    rules = spec.rules()
    procedure, model = procedure_of(spec), round_model_of(spec, rules)

    def never(*args: object) -> object:
        raise AssertionError("loaded or checked again")

    monkeypatch.setattr(spec_module.importlib, "import_module", never)
    monkeypatch.setattr(spec_module.inspect, "signature", never)
    monkeypatch.setattr(table_roles, "_CheckedProcedure", Never)
    monkeypatch.setattr(exact_roles, "_CheckedRoundModel", Never)
    assert procedure_of(spec) is procedure
    assert type(round_model_of(spec, rules)) is type(model)
    monkeypatch.undo()
    with pytest.raises(MisregisteredRole, match="not a table procedure"):  # not the game's
        procedure_of(_entry(procedure="baccara.games.registry:GAMES"))  # checked one


class _Refusing(type):
    def __instancecheck__(cls, instance: object) -> bool:
        raise AssertionError("checked again")


class Never(metaclass=_Refusing):
    """A type whose ``isinstance`` check fails the test: nothing may ask it."""


def test_a_function_whose_arguments_cannot_be_checked_is_refused() -> None:
    """A function written in C may have no signature to read: the entry is refused with
    the game and the role named, never with the inspection's own error."""
    rules = game("punto-banco").rules()
    with pytest.raises(MisregisteredRole, match=r"punto-banco's analyzer, builtins:max, has no"):
        analysis_of(_entry(analyzer="builtins:max"), rules)
