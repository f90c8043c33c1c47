"""The browser's reading of a Punto Banco coup is the engine's, term by term and bet by bet.

Verify re-settles a round in the browser from its cards and the pay lines the casino
publishes (coupterms.js, settlement.js). Over thousands of coups — dealt from an eight-deck
shoe, and from a narrow pool of cards where pairs, suited pairs, naturals and three-card
totals come every few coups — every term of :data:`baccara.games.coup_terms.TERMS` reads
the same in Node as in Python, and every shipped side bet, under every shipped rule set,
pays what the table's procedure pays, to the cent.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

from baccara.cards import Card, Shoe
from baccara.games.coup_bets import SHIPPED
from baccara.games.coup_terms import TERMS
from baccara.games.punto_banco import Coup, PuntoBancoRules, deal_coup
from baccara.randomness import SeededRandom
from baccara.server.domain.views import rules_json
from baccara.table.procedures.base import Wager
from baccara.table.procedures.punto_banco import PROCEDURE
from tests.web.node import in_node, module

NARROW = [Card.parse(f"{rank}{suit}") for rank in ("A", "6", "7", "8", "9", "K") for suit in "SH"]
"""Twelve cards drawn with replacement: a pair in about one hand in six, half of them suited."""

STAKES = (1, 99, 12345)
"""Odd cents, so a 0.54 or 1:2 pay is rounded down."""


EIGHT_DECKS = [card for card in Shoe(8, SeededRandom(7))]


def _coups(count: int) -> list[Coup]:
    """Half from a full eight-deck shoe (six cards from it, as a fresh shoe deals them),
    half from :data:`NARROW`."""
    picks = random.Random(2026)
    coups = [deal_coup(picks.sample(EIGHT_DECKS, 6)) for _ in range(count // 2)]
    coups += [deal_coup(picks.choice(NARROW) for _ in range(6)) for _ in range(count - len(coups))]
    return coups


def _dealt(coup: Coup) -> dict[str, str]:
    """The coup's cards by position, in the order they were dealt."""
    positions = ["player.0", "banker.0", "player.1", "banker.1"]
    if len(coup.player) == 3:
        positions.append("player.2")
    if len(coup.banker) == 3:
        positions.append("banker.2")
    by_position = {"player": list(coup.player), "banker": list(coup.banker)}
    return {p: by_position[p.split(".")[0]][int(p.split(".")[1])].code for p in positions}


PRELUDE = f"""
const terms = await import({module("coupterms.js")});
const settlement = await import({module("settlement.js")});
const facts = (dealt) => {{
  const cards = new Map(dealt);
  const hand = (name) => settlement.ordered(cards, name).map(settlement.card);
  const score = (cards) => cards.reduce((sum, c) => sum + (c.rank < 10 ? c.rank : 0), 0) % 10;
  return terms.coupFacts(hand("player"), hand("banker"), score);
}};
"""


def test_every_term_reads_a_coup_as_the_engine_reads_it() -> None:
    coups = _coups(4000)
    read = in_node(PRELUDE, """
        return { names: Object.keys(terms.TERMS), values: args.map((dealt) => {
          const f = facts(dealt);
          return Object.fromEntries(Object.entries(terms.TERMS).map(([name, term]) => [name, term(f)]));
        }) };""", [list(_dealt(coup).items()) for coup in coups])  # fmt: skip
    assert read["names"] == list(TERMS)
    expected = [{name: term.read(coup.facts) for name, term in TERMS.items()} for coup in coups]
    assert read["values"] == expected
    seen = {name: {json.dumps(row[name]) for row in expected} for name in TERMS}
    assert seen["suited_pairs"] == {"0", "1", "2"} and seen["natural"] == {
        '"none"', '"player"', '"banker"', '"both"'
    }  # fmt: skip
    assert seen["cards"] == {"4", "5", "6"} and len(seen["margin"]) == 10


def _payouts(coup: Coup, rules: PuntoBancoRules) -> list[dict[str, Any]]:
    wagers = [Wager(f"{spot}-{stake}", "ann", 1, spot, stake)
              for spot in rules.bet_ids for stake in STAKES]  # fmt: skip
    _, payouts = PROCEDURE.settle(_dealt(coup), wagers, [1], rules)
    return [dataclasses.asdict(p) for p in payouts]


def test_every_side_bet_under_every_rule_set_pays_what_the_table_paid() -> None:
    """Each shipped rule set with every shipped side bet, over 800 coups: the browser's
    settlement — from the ids in the round's options and the lines the casino publishes —
    pays every wager what the table's procedure paid (result, winnings, commission)."""
    served = json.loads(json.dumps(rules_json("punto-banco")))
    everything = "+".join(SHIPPED.sidebets)
    coups = _coups(800)
    cases = []
    for variant in SHIPPED.variants:
        options = {"variant": variant, "sidebets": everything}
        rules = PuntoBancoRules.from_options(**options)
        cases.append(
            [options, [[list(_dealt(coup).items()), _payouts(coup, rules)] for coup in coups]]
        )
    paid = in_node(PRELUDE, """
        const [served, cases] = args;
        return cases.map(([options, coups]) => {
          const rules = settlement.rulesFor("punto-banco", options, served);
          return coups.map(([dealt, expected]) => {
            const wagers = expected.map((p) => ({ bet_id: p.bet_id, player: p.player, seat: p.seat, spot: p.spot, amount: p.stake }));
            return settlement.settleRound("punto-banco", new Map(dealt), wagers, rules).payouts;
          });
        });""", [served, cases])  # fmt: skip
    for (options, expected), got in zip(cases, paid, strict=True):
        assert got == [payouts for _, payouts in expected], options
    results = {p["result"] for _, expected in cases for _, payouts in expected for p in payouts}
    assert results == {"win", "push", "lose"}


def test_a_rule_set_brings_its_side_bets_unless_the_table_names_its_own() -> None:
    """As ``PuntoBancoRules.from_options``: EZ Baccarat brings Dragon 7 and Panda 8 and no
    commission; ``sidebets`` and ``commission`` given beside it override it."""
    served = json.loads(json.dumps(rules_json("punto-banco")))
    given = [{"variant": "ez"}, {"variant": "ez", "sidebets": "none"},
             {"variant": "no-commission", "commission": 2}, {"sidebets": ["big"]}]  # fmt: skip
    read = in_node(PRELUDE, """
        return args[1].map((options) => {
          const rules = settlement.rulesFor("punto-banco", options, args[0]);
          return [rules.bets, rules.commission.n.toString(), rules.commission.d.toString()];
        });""", [served, given])  # fmt: skip
    expected = []
    for options in given:
        rules = PuntoBancoRules.from_options(**options)
        commission = rules.commission
        expected.append(
            [list(rules.bet_ids), str(commission.numerator), str(commission.denominator)]
        )
    assert read == expected
    assert read[0][0][-2:] == ["dragon-7", "panda-8"] and read[1][0][-1] == "banker-pair"


def test_a_line_reading_a_term_the_page_does_not_know_is_refused() -> None:
    refused = in_node(PRELUDE, """
        try { terms.holds({ dealer_total: [7] }, {}); return null; } catch (error) { return error.message; }""",
        None)  # fmt: skip
    assert refused == "a pay line reads a term this page does not know: dealer_total"


def test_cards_are_equal_as_the_engine_compares_them() -> None:
    """A suited pair is one card twice (rank and suit): 10 of hearts twice is, 10 and K not."""
    hands = [["10H", "10H"], ["10H", "TH"], ["10H", "KH"], ["10H", "10S"]]
    assert [Card.parse(a) == Card.parse(b) for a, b in hands] == [True, True, False, False]
    read = in_node(PRELUDE, """
        return args.map(([a, b]) => facts([["player.0", a], ["banker.0", "2S"], ["player.1", b], ["banker.1", "3S"]]).player_suited_pair);""",
        hands)  # fmt: skip
    assert read == [True, True, False, False]


def test_a_pay_line_reads_in_english_as_the_casino_words_it() -> None:
    """The page words each line from its terms (so Chinese reads it too); in English every
    shipped line's condition is the casino's own words for it, the name its analysis gives
    the outcome the line decides."""
    served = json.loads(json.dumps(rules_json("punto-banco")))
    catalog = served["catalog"]
    lines = [line for bet in catalog["sidebets"] for line in bet["lines"]]
    lines += [line for rules in catalog["rule_sets"] for line in rules["banker"] + rules["player"]]
    words = in_node(f"const layouts = await import({module('layouts.js')});", """
        layouts.learnGames([args[0]]);
        return args[1].map((line) => [layouts.conditionText("punto-banco", line.when), layouts.lineText("punto-banco", line)]);""",
        [served, lines])  # fmt: skip
    assert [condition for condition, _ in words] == [line["condition"] for line in lines]
    texts = dict(zip([line["text"] for line in lines], [text for _, text in words], strict=True))
    assert texts["40 to 1: Banker wins, Banker total 7, Banker 3 cards"] == (
        "40 to 1: Banker wins, Banker total 7, Banker 3 cards"
    )
    assert texts["0.54 to 1: 5 to 6 cards dealt"] == "0.54 to 1: 5 to 6 cards dealt"
    assert texts["push: Banker total 7, Banker 3 cards"] == "push: Banker total 7, Banker 3 cards"
    assert texts["0.5 to 1: Banker total 6"] == "1 to 2: Banker total 6"  # the felt's words for 1:2
