"""Exact Punto Banco analysis against published figures and against the plain rules.

Published 8- and 6-deck counts of ordered six-card sequences: the "Probabilities in
8deck / 6deck Baccarat" tables of casinoexploit.com's baccarat page (the same counts
Michael Shackleford publishes at wizardofodds.com/games/baccarat/). Percentages to four
decimals: multiplayerbaccarat.com/odds.html, after E. O. Thorp, *The Mathematics of
Gambling*. Single deck, to two decimals: Wizard of Odds' baccarat house-edge-by-decks
table (Banker 1.01 %, Player 1.29 %, Tie 15.75 %).
"""

from __future__ import annotations

import hashlib
from fractions import Fraction

import pytest

from baccara import analyze
from baccara.cards import Card, Rank, Suit
from baccara.errors import InvalidOption
from baccara.exact.punto_banco import (
    WINNER_CODES,
    all_value_sequences,
    count_by_rules,
    count_winners,
    outcome_table,
    winners,
)
from baccara.games.punto_banco import Winner, deal_coup
from tests.helpers import percent


def test_eight_decks_reproduce_the_published_counts() -> None:
    analysis = analyze("punto-banco", decks=8)
    banker = analysis.bet("banker")
    assert banker.total == 4_998_398_275_503_360
    assert banker.outcome("win").count == 2_292_252_566_437_888
    assert banker.outcome("lose").count == 2_230_518_282_592_256
    assert banker.outcome("push").count == 475_627_426_473_216


@pytest.mark.parametrize(
    ("decks", "banker", "player", "tie", "banker_4pct", "tie_9to1"),
    [
        (8, 1.0579, 1.2351, 14.3596, 0.5993, 4.8440),
        (6, 1.0558, 1.2374, 14.4382, 0.5972, 4.9313),
    ],
)
def test_published_house_edges(
    decks: int, banker: float, player: float, tie: float, banker_4pct: float, tie_9to1: float
) -> None:
    a = analyze("punto-banco", decks=decks)
    assert round(percent(a.bet("banker").house_edge), 4) == banker
    assert round(percent(a.bet("player").house_edge), 4) == player
    assert round(percent(a.bet("tie").house_edge), 4) == tie
    b = analyze("punto-banco", decks=decks, commission=4, tie_pays=9)
    assert round(percent(b.bet("banker").house_edge), 4) == banker_4pct
    assert round(percent(b.bet("tie").house_edge), 4) == tie_9to1


def test_six_decks_reproduce_the_published_counts() -> None:
    banker = analyze("punto-banco", decks=6).bet("banker")
    assert banker.outcome("win").count == 403_095_751_234_560
    assert banker.outcome("lose").count == 392_220_492_728_832
    assert banker.outcome("push").count == 83_552_962_932_288


def test_single_deck_published_edges() -> None:
    a = analyze("punto-banco", decks=1)
    assert a.bet("banker").total == 52 * 51 * 50 * 49 * 48 * 47
    assert round(percent(a.bet("banker").house_edge), 2) == 1.01
    assert round(percent(a.bet("player").house_edge), 2) == 1.29
    assert round(percent(a.bet("tie").house_edge), 2) == 15.75


def test_pair_bets_by_first_principles() -> None:
    """P(two cards share a rank) = (4D − 1)/(52D − 1): 31/415 for eight decks; 11:1 gives 43/415."""
    pair = analyze("punto-banco").bet("player-pair")
    assert pair.outcome("win").probability == Fraction(31, 415)
    assert pair.house_edge == Fraction(43, 415)  # 10.36 %


def test_derived_figures_follow_from_the_outcomes() -> None:
    banker = analyze("punto-banco").bet("banker")
    win, push, lose = (banker.outcome(n).probability for n in ("win", "push", "lose"))
    assert banker.house_edge == lose - win * Fraction(19, 20)
    assert banker.element_of_risk == banker.house_edge / (1 - push)
    assert banker.hit_frequency == win
    assert banker.variance == win * Fraction(361, 400) + lose - banker.house_edge**2


@pytest.mark.slow
@pytest.mark.parametrize("decks", [1, 2, 8])
def test_fast_count_equals_the_plain_recursive_enumeration(decks: int) -> None:
    assert count_winners(decks) == count_by_rules(decks)


@pytest.mark.slow
def test_vectorised_rules_equal_the_plain_rules_on_every_value_sequence() -> None:
    """All 10⁶ sequences of six card values, each dealt through ``deal_coup``."""
    values = all_value_sequences()
    fast = winners(values)
    representative = [Card(Rank(v) if v else Rank.KING, Suit.HEARTS) for v in range(10)]
    code = {w: i for i, w in enumerate(WINNER_CODES)}
    mismatches = 0
    for row, got in zip(values.tolist(), fast.tolist(), strict=True):
        coup = deal_coup(representative[v] for v in row)
        mismatches += code[coup.winner] != got
    assert mismatches == 0
    assert {WINNER_CODES[c] for c in set(fast.tolist())} == set(Winner)


def test_the_whole_outcome_matrix_is_pinned() -> None:
    """The winner of every (Player score, Banker score, fifth value, sixth value) — the table
    the fast count reads — and of all 10⁶ six-value sequences, pinned by SHA-256 after the
    exhaustive test above proved them equal to ``deal_coup``; codes are WINNER_CODES'."""
    assert hashlib.sha256(outcome_table().tobytes()).hexdigest() == (
        "736082916cacf10bd400de361a5b6612135e9ccf97b21596d9b4cc9d1c90358b"
    )
    assert hashlib.sha256(winners(all_value_sequences()).tobytes()).hexdigest() == (
        "dda75bf394a8c5d9a62be107a201ba064f014cad6136102287d5949c80124c7c"
    )


def test_json_shape() -> None:
    data = analyze("punto-banco").to_dict()
    assert data["game"] == "punto-banco"
    assert data["options"] == {"decks": 8, "commission": 5, "tie_pays": 8, "pair_pays": 11,
                               "variant": "classic", "sidebets": []}  # fmt: skip
    assert [b["bet"] for b in data["bets"]] == [
        "banker", "player", "tie", "player-pair", "banker-pair"
    ]  # fmt: skip
    banker = data["bets"][0]
    assert set(banker) >= {
        "bet", "house_edge", "house_edge_exact", "element_of_risk", "std_dev", "hit_frequency",
        "outcomes",
    }  # fmt: skip
    assert banker["house_edge_exact"] == "114753351728/10847218479825"
    win = banker["outcomes"][0]
    assert win == {
        "name": "win",
        "probability": win["probability"],
        "probability_exact": "8954111587648/19524993263685",
        "count": 2292252566437888,
        "pays": 0.95,
        "return": win["return"],
    }
    assert abs(win["return"] - 0.95 * win["probability"]) < 1e-15


@pytest.mark.parametrize(
    "options", [{"decks": 0}, {"commission": 100}, {"tie_pays": "many"}, {"colour": "red"}]
)
def test_analysis_refuses_bad_options(options: dict[str, object]) -> None:
    with pytest.raises(InvalidOption):
        analyze("punto-banco", **options)
