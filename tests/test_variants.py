"""Rule variants and deck sweeps (``baccara.exact.variants``), exactly.

The variants themselves are registry data: each game's usual ones are
``GAMES[id].variants``, RedGreen's house ways and ranking among them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from baccara import analyze
from baccara.errors import BaccaraError, InvalidOption
from baccara.exact.variants import compare_variants, edges_by_decks
from baccara.games import game
from baccara.games.variant import Variant
from tests.helpers import percent


def test_commission_and_tie_variants_give_the_published_edges() -> None:
    """Banker at 4 % commission 0.5993 %, Tie at 9:1 4.8440 % (eight decks; the figures
    test_punto_banco_analysis checks against the published tables)."""
    c = compare_variants("punto-banco", game("punto-banco").variants)
    by_name = {r.variant.name: r for r in c.variants}
    assert round(percent(c.edge(by_name["commission-4"], "banker")), 4) == 0.5993
    assert round(percent(c.edge(by_name["tie-9"], "tie")), 4) == 4.8440
    both = by_name["commission-4-tie-9"]
    assert c.edge(both, "banker") == c.edge(by_name["commission-4"], "banker")
    assert c.change(by_name["tie-9"], "banker") == 0


def test_a_tie_paying_one_more_moves_its_edge_by_its_probability() -> None:
    """Exactly: paying 9 instead of 8 gives back one unit every time the tie comes."""
    c = compare_variants("punto-banco", [Variant("tie-9", {"tie-pays": "9"})])
    p_tie = analyze("punto-banco").bet("tie").outcome("win").probability
    assert c.change(c.variants[0], "tie") == -p_tie


def test_variants_lie_over_the_base_options() -> None:
    """Six decks as the base and 4 % commission as the variant: the six-deck 0.5972 %."""
    c = compare_variants("punto-banco", [Variant("c4", {"commission": 4})], decks="6")
    assert c.base.options["decks"] == 6
    assert round(percent(c.edge(c.variants[0], "banker")), 4) == 0.5972
    assert c.variants[0].analysis.options["decks"] == 6


def test_either_spelling_of_an_option_overrides_the_base() -> None:
    c = compare_variants("punto-banco", [Variant("t", {"tie_pays": 9})], **{"tie-pays": "8"})
    assert c.variants[0].analysis.options["tie_pays"] == 9


def test_lo_ball_win_bonus_at_two_to_one() -> None:
    """45607/3767400, as the README's Python API example shows for win_bonus_pays=2."""
    c = compare_variants("lo-ball", game("lo-ball").variants)
    win_bonus = next(r for r in c.variants if r.variant.name == "win-bonus-2")
    assert c.edge(win_bonus, "main") == Fraction(45607, 3767400)
    assert c.change(win_bonus, "lo-card") == 0


@pytest.mark.parametrize(
    ("name", "win", "tie", "edge"),
    [
        ("never-split-aces", 34.7836, 30.4328, 1.7392),
        ("never-split-kings", 34.9088, 30.1823, 1.7454),
        ("never-split-either", 34.4744, 31.0511, 1.7237),
        ("kings-unless-q", 35.2268, 29.5463, 1.7613),
        ("deuces-top", 35.2597, 29.4807, 1.7630),
    ],
)
def test_house_way_variants_give_what_docs_redgreen_records(
    name: str, win: float, tie: float, edge: float
) -> None:
    """The table "Other house ways, and the ladder" in docs/redgreen.md; the ladder's
    29.4807 % is the push this project printed before it ranked 2s as the seed does."""
    c = compare_variants("redgreen", game("redgreen").variants)
    result = next(r for r in c.variants if r.variant.name == name)
    red = result.analysis.bet("red")
    assert round(percent(red.outcome("win").probability), 4) == win
    assert round(percent(red.outcome("push").probability), 4) == tie
    assert round(percent(red.house_edge), 4) == edge


def test_only_the_seeds_own_rules_carry_its_published_figures() -> None:
    """Every other house way, ranking or commission is another game: the seed's figures
    (seven decks, its house way and ranking, 5 %) stay with its own rules, and with a
    Bonus paytable variant, which does not touch Red and Green."""
    c = compare_variants("redgreen", game("redgreen").variants)
    assert c.base.bet("red").published is not None
    for result in c.variants:
        red = result.analysis.bet("red")
        touches_red = "paytable" not in result.variant.options
        assert (red.published is None) == touches_red, result.variant.name
    other_base = compare_variants("redgreen", [Variant("back", {"split-aces": "yes"})],
                                  split_aces="no")  # fmt: skip
    assert other_base.base.bet("red").published is None
    assert other_base.variants[0].analysis.bet("red").published is not None


def test_a_paytable_variant_moves_only_the_bonus() -> None:
    c = compare_variants("redgreen", game("redgreen").variants)
    lean = next(r for r in c.variants if r.variant.name == "bonus-3k-3")
    three = analyze("redgreen").bet("bonus").outcome("three_of_a_kind").probability
    assert c.change(lean, "bonus") == three  # one unit less on every three of a kind
    assert c.change(lean, "red") == 0
    assert lean.variant.options_text() == "paytable=3K pays 3"


def test_a_refused_variant_is_named() -> None:
    with pytest.raises(InvalidOption, match="variant tie-x: tie-pays: must be a number"):
        compare_variants("punto-banco", [Variant("tie-x", {"tie-pays": "lots"})])
    with pytest.raises(InvalidOption, match="variant d: split-aces: not an option of punto-banco"):
        compare_variants("punto-banco", [Variant("d", {"split-aces": "no"})])


def test_two_variants_of_one_name_are_refused() -> None:
    twice = [Variant("x", {"decks": 6}), Variant("x", {"decks": 4})]
    with pytest.raises(BaccaraError, match="two variants are named 'x'"):
        compare_variants("punto-banco", twice)


def test_to_dict_gives_edges_and_changes_exactly() -> None:
    data = compare_variants("punto-banco", [Variant("tie-9", {"tie-pays": 9})]).to_dict()
    tie = data["variants"][0]["bets"]["tie"]
    assert data["variants"][0]["set"] == {"tie-pays": "9"}
    assert Fraction(tie["change_exact"]) == Fraction(tie["house_edge_exact"]) - Fraction(
        data["bets"]["tie"]["house_edge_exact"]
    )
    assert round(tie["house_edge"] * 100, 4) == 4.8440


def test_edges_by_decks_are_the_analysis_at_each_size() -> None:
    sweep = edges_by_decks("punto-banco", commission="4", decks="2")
    assert sweep is not None and sweep.decks == tuple(range(1, 9))
    for n in (1, 6):
        expected = analyze("punto-banco", decks=n, commission=4).bet("banker").house_edge
        assert sweep.edges("banker")[n - 1] == expected
    assert edges_by_decks("lo-ball") is None
