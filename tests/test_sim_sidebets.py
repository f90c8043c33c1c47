"""Punto Banco's side bets and rule sets in the simulator, proven against the rules.

The kernel writes each coup's facts and a table made from the rules reads every bet
off them (:mod:`baccara.sim.kernels.coup_outcomes`). So the proof has three parts: the
kernel's facts are :attr:`Coup.facts` of the coup the plain rules deal, coup by coup;
the table settles every set of facts a coup can have exactly as ``spot_result`` does,
named as the exact analysis names it; and the set of facts it covers is the exact
count's. A run of two million coups then agrees with the exact figures.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from baccara import analyze
from baccara.cards import ShoeMode, standard_deck
from baccara.errors import BaccaraError
from baccara.exact.coup_facts import Level, fact_counts
from baccara.games.coup_bets import SHIPPED, first_line
from baccara.games.coup_terms import CoupFacts
from baccara.games.punto_banco import PuntoBancoRules, deal_coup, lines_of, spot_net
from baccara.sim.dealer import BLOCK_ROUNDS, NO_TAGS, NOT_SHOWN
from baccara.sim.kernels.coup_outcomes import (
    FACT_IDS,
    fact_id,
    possible_facts,
    table_for,
)
from baccara.sim.kernels.pile import Pile, new_shoe
from baccara.sim.kernels.plain import plain_rounds
from baccara.sim.kernels.punto_banco import NO_CODES, deal, table_dealer
from baccara.sim.kernels.rng import XoshiroRandom, block_state
from baccara.sim.report import check_bets
from baccara.sim.runs import DealerSpec, count_outcomes, deal_outcomes
from tests.helpers import run

SIDEBETS = tuple(SHIPPED.sidebets)
RULE_SETS: dict[str, dict[str, Any]] = {
    "ez, eight side bets": {"variant": "ez", "sidebets": list(SIDEBETS[:8])},
    "no-commission, the other side bets": {
        "variant": "no-commission",
        "sidebets": [*SIDEBETS[8:], "dragon-7"],
    },
    "classic": {},
}
"""Every shipped rule set, and between them every shipped side bet (a table takes eight)."""

SIGMAS = 5.0
"""A run of 2 × 10⁶ coups is held to 5 standard errors: about one check in 1.7 million
fails by chance, and the 90-odd checks of a run pass together 99.99 % of the time."""


def test_every_shipped_side_bet_is_dealt() -> None:
    dealt = {bet for options in RULE_SETS.values() for bet in options.get("sidebets", [])}
    assert dealt == set(SIDEBETS) and len(SIDEBETS) == 10


def test_fact_ids_pack_every_set_of_facts_apart() -> None:
    """Every set of facts a coup could be said to have, possible or not, has an id of
    its own, and together they are the ids 0 to 25,599."""
    every = itertools.product(range(10), range(10), (2, 3), (2, 3), *[(False, True)] * 6)
    assert sorted(fact_id(CoupFacts(*fields)) for fields in every) == list(range(FACT_IDS))


@pytest.mark.parametrize("decks", [1, 2])
def test_the_facts_a_table_covers_are_the_exact_count_card_by_card(decks: int) -> None:
    """:func:`possible_facts` splits the count by rank into suited pairs or not; the exact
    count over the 52 cards must find exactly those facts (one deck has no suited pair)."""
    assert set(possible_facts(decks)) == set(fact_counts(decks, Level.CARDS))


def test_the_facts_a_table_covers_are_the_same_for_any_shoe_of_two_decks_or_more() -> None:
    assert possible_facts(8) == possible_facts(2) == possible_facts(100)
    assert len(possible_facts(8)) == 1417 and len(possible_facts(1)) == 673


@pytest.mark.parametrize(
    ("seed", "decks", "continuous", "penetration"),
    [(0, 8, False, 0.8), (7, 2, True, 0.75), (20240601, 1, True, 1.0)],
)
def test_the_kernels_facts_are_the_facts_of_the_coup_the_rules_deal(
    seed: int, decks: int, continuous: bool, penetration: float
) -> None:
    """Coup by coup, the kernel's fact id is :attr:`Coup.facts` of ``deal_coup`` from the
    same shoe; and the kernel's tally (what a count reads) is those ids counted."""
    rounds = 20_000
    cut = round(52 * decks * penetration)
    table = table_for(PuntoBancoRules(decks=decks)).codes
    facts = np.empty(rounds, dtype=np.int16)
    seen = np.zeros(FACT_IDS, dtype=np.int64)
    wrong = deal(block_state(seed, 0), new_shoe(decks), rounds, cut, continuous,
                 NO_TAGS, NOT_SHOWN, table, NO_CODES, seen, facts)  # fmt: skip
    pile = Pile(standard_deck() * decks, XoshiroRandom(block_state(seed, 0)))
    plain = []
    for _ in range(rounds):
        if not continuous or pile.position >= cut or pile.left < 6:
            pile.reshuffle()
        plain.append(deal_coup(pile).facts)
    assert wrong == -1 and facts.tolist() == [fact_id(f) for f in plain]
    assert seen.tolist() == np.bincount(facts, minlength=FACT_IDS).tolist()
    suited = sum(f.player_suited_pair or f.banker_suited_pair for f in plain)
    assert (suited > 0) == (decks > 1)


@pytest.mark.parametrize("name", RULE_SETS)
def test_the_table_settles_every_possible_coup_as_spot_result(name: str) -> None:
    """All inputs: for each of the 1,417 sets of facts an eight-deck coup can have, every
    bet's outcome in the table pays what ``spot_result`` pays, and is named by the pay
    line that decided it or else win, push or lose; the outcomes are the analysis's."""
    rules = PuntoBancoRules.from_options(**RULE_SETS[name])
    table = table_for(rules)
    analysis = analyze("punto-banco", **RULE_SETS[name])
    assert table.bets == tuple(analysis.bet_ids) == rules.bet_ids
    assert table.outcomes == tuple(tuple(o.name for o in b.outcomes) for b in analysis.bets)
    for j, (spot, bet) in enumerate(zip(table.bets, analysis.bets, strict=True)):
        pays = {o.name: o.pays for o in bet.outcomes}
        lines = {line.when.describe() for line in lines_of(spot, rules)}
        for facts in possible_facts(rules.decks):
            name_ = table.outcomes[j][table.codes[fact_id(facts), j]]
            net = spot_net(spot, facts, rules)
            assert pays[name_] == net, (spot, facts)
            if name_ in lines:
                line = first_line(lines_of(spot, rules), facts)
                assert line is not None and line.when.describe() == name_, (spot, facts)
            else:
                assert name_ == ("win" if net > 0 else "push" if net == 0 else "lose")
    covered = {fact_id(facts) for facts in possible_facts(rules.decks)}
    assert np.flatnonzero(table.possible).tolist() == sorted(covered)


@pytest.mark.parametrize("name", RULE_SETS)
def test_the_kernel_deals_every_bet_as_the_plain_rules(name: str) -> None:
    """Round by round, every bet's outcome is the one the plain rules code names, and a
    block's count is the count of the rounds dealt."""
    options = RULE_SETS[name]
    dealt = deal_outcomes("punto-banco", 5000, 3, shoe="continuous", **options)
    plain = plain_rounds("punto-banco", 3, 0, 5000, continuous=True, **options)
    for i, (codes, names) in enumerate(zip(dealt.codes.tolist(), plain, strict=True)):
        assert tuple(dealt.outcomes[j][c] for j, c in enumerate(codes)) == names, f"round {i}"
    dealer = DealerSpec.of("punto-banco", **options).dealer()
    codes = np.empty((5000, len(dealer.bets)), dtype=np.int8)
    dealer.deal_block(9, 0, codes)
    counted = dealer.count_block(9, 0, 5000)
    for j, names in enumerate(dealer.outcomes):
        assert (
            counted[j, : len(names)].tolist()
            == np.bincount(codes[:, j], minlength=len(names)).tolist()
        )


@pytest.mark.parametrize("name", RULE_SETS)
def test_two_million_coups_agree_with_the_exact_figures(name: str) -> None:
    """Every outcome of every bet, and every bet's return, within 5 standard errors."""
    rounds = 2 * BLOCK_ROUNDS
    options = RULE_SETS[name]
    labels, counts = count_outcomes("punto-banco", rounds, 2027, **options)
    checks = check_bets(analyze("punto-banco", **options), labels, counts, rounds)
    assert [b.bet for b in checks] == list(PuntoBancoRules.from_options(**options).bet_ids)
    for bet in checks:
        assert sum(o.count for o in bet.outcomes) == rounds, bet.bet
        for outcome in bet.outcomes:
            assert abs(outcome.z) <= SIGMAS, (bet.bet, outcome)
        assert abs(bet.return_z) <= SIGMAS, bet


def test_outcomes_are_matched_by_name_and_a_missing_one_is_flagged() -> None:
    """Perfect Pair dealt from one deck, which has no suited pair, beside the eight-deck
    analysis: the kernel has no suited outcome, so both count 0 against their odds."""
    labels, counts = count_outcomes("punto-banco", 200_000, 1, decks=1, sidebets="perfect-pair")
    assert labels.outcomes[-1] == ("lose",)
    check = check_bets(analyze("punto-banco", sidebets="perfect-pair"), labels, counts, 200_000)
    pair = check[-1]
    assert [(o.name, o.count) for o in pair.outcomes] == [
        ("2 hands suited-paired", 0),
        ("1 hand suited-paired", 0),
        ("lose", 200_000),
    ]
    assert pair.flagged and pair.outcomes[1].flagged and pair.outcomes[1].z < -30


def test_an_outcome_the_analysis_has_not_is_shown_and_flagged() -> None:
    labels, counts = count_outcomes("punto-banco", 100_000, 1, sidebets="perfect-pair")
    one_deck = analyze("punto-banco", decks=1, sidebets="perfect-pair")
    pair = check_bets(one_deck, labels, counts, 100_000)[-1]
    assert [o.name for o in pair.outcomes] == [
        "lose",
        "2 hands suited-paired",
        "1 hand suited-paired",
    ]
    assert pair.outcomes[2].count > 0 and pair.outcomes[2].expected == Fraction(0)
    assert math.isinf(pair.outcomes[2].z) and pair.flagged


def test_simulate_deals_a_rule_set_and_its_side_bets_from_the_command_line() -> None:
    ran = run("simulate", "punto-banco", "--rounds", "200000", "--seed", "4",
              "--option", "variant=ez", "--option", "sidebets=dragon-7+lucky-6", "--json")  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert [b["bet"] for b in report["bets"]][5:] == ["dragon-7", "lucky-6"]
    banker = report["bets"][0]
    assert [o["name"] for o in banker["outcomes"]] == [
        "Banker total 7, Banker 3 cards",
        "win",
        "push",
        "lose",
    ]
    # EZ Baccarat's Banker: 1.0183 % to the house (Wizard of Odds, eight decks).
    assert banker["expected_return"] == pytest.approx(-0.010183, abs=1e-6)


def test_a_coup_no_shoe_deals_is_refused_not_read_as_an_outcome() -> None:
    """Were the kernel ever to deal a coup outside the table, its row would read as some
    outcome; both ways of reading the ids refuse it instead. Shown by a table that
    leaves out a coup every block deals (Player 6 against Banker 7 on two cards each)."""
    full = table_for(PuntoBancoRules())
    facts = next(f for f in possible_facts(8) if (f.player_total, f.banker_total, f.cards,
                 f.player_pair, f.banker_pair) == (6, 7, 4, False, False))  # fmt: skip
    codes = full.codes.copy()
    codes[fact_id(facts)] = -1
    short = dataclasses.replace(full, codes=codes)
    assert full.possible.sum() == short.possible.sum() + 1 == len(possible_facts(8))
    of = table_dealer("punto-banco", 8, short, ShoeMode.RESHUFFLE, 0.8)
    with pytest.raises(BaccaraError, match="no shoe deals"):
        of.deal_run(1000, 1)
    with pytest.raises(BaccaraError, match=f"no shoe deals \\(fact id {fact_id(facts)}\\)"):
        of.count_block(1, 0, 1000)
