"""A card count built from the exact effects of removal, measured by the real rules."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from baccara.cards import Card, Rank, standard_deck
from baccara.errors import InvalidOption
from baccara.games import punto_banco, redgreen
from baccara.sim.counts import CountSystem, simulate_count
from baccara.sim.kernels.pile import Pile
from baccara.sim.kernels.rng import XoshiroRandom, block_state
from baccara.sim.runs import DealerSpec
from tests.helpers import assert_refused, run


def test_tags_follow_the_bettors_side_of_the_effects() -> None:
    # Removing an 8 helps the house by 4 units, a 6 hurts it by 2: the bettor wants 8s gone.
    effects = {rank: Fraction(0) for rank in Rank}
    effects[Rank.EIGHT] = Fraction(4, 1000)
    effects[Rank.SIX] = Fraction(-2, 1000)
    system = CountSystem.from_effects("tie", effects, level=3)
    assert system.tags[Rank.EIGHT] == -3 and system.tags[Rank.SIX] == 2
    assert system.tags[Rank.ACE] == 0
    assert system.mean_tag == Fraction(-1, 13)
    # The kernels index cards in new-deck order, A to K in each of four suits.
    one_suit = [0, 0, 0, 0, 0, 2, 0, -3, 0, 0, 0, 0, 0]
    assert system.card_tags.tolist() == one_suit * 4


def test_a_bet_no_removal_moves_cannot_be_counted() -> None:
    with pytest.raises(InvalidOption, match="nothing to count"):
        CountSystem.from_effects("player-pair", {rank: Fraction(0) for rank in Rank})


@pytest.mark.parametrize("game", ["punto-banco", "redgreen"])
def test_the_kernels_counter_view_is_the_cards_actually_dealt(game: str) -> None:
    """Replay the shoe in plain Python: before each round, the running count of the tags of
    every card dealt since the shuffle, and the cards left, must be what the kernel saw."""
    rng_tags = np.random.default_rng(5).integers(-3, 4, size=13)
    tags = {rank: int(rng_tags[rank - 1]) for rank in Rank}
    card_tags = np.array([tags[c.rank] for c in standard_deck()], dtype=np.int16)
    decks, penetration, rounds, seed = 2, 0.75, 3000, 17
    dealer = DealerSpec.of(game, shoe="continuous", penetration=penetration, decks=decks).dealer()
    codes = np.empty((rounds, len(dealer.bets)), dtype=np.int8)
    shown = np.empty((rounds, 2), dtype=np.int32)
    dealer.deal_block(seed, 0, codes, card_tags, shown)

    pile: Pile[Card] = Pile(standard_deck() * decks, XoshiroRandom(block_state(seed, 0)))
    cut = round(len(pile.items) * penetration)
    reshuffles = 0
    for i in range(rounds):
        if pile.position >= cut or pile.left < 6:
            pile.reshuffle()
            reshuffles += 1
        running = sum(tags[c.rank] for c in pile.items[: pile.position])
        assert (shown[i, 0], shown[i, 1]) == (running, pile.left), f"round {i}"
        if game == "punto-banco":
            punto_banco.deal_coup(pile)
        else:
            redgreen.deal_round(pile, redgreen.RedGreenRules(decks=decks))
    assert reshuffles > 10


def test_counting_the_tie_finds_better_rounds_but_no_edge() -> None:
    """The count sorts rounds: at a high true count the tie is measurably less bad, yet
    betting only then still loses — the known verdict on counting baccarat's tie."""
    report = simulate_count("punto-banco", "tie", 10_000_000, 1)
    every, *by_threshold = report.lines
    high = next(line for line in by_threshold if line.threshold == 4)
    assert high.ci95[0] > every.ci95[1]  # clearly better than betting every round
    assert high.ci95[1] < 0  # and still a losing bet
    exact = -float(report.exact_edge)
    half = (every.ci95[1] - every.ci95[0]) / 2
    assert abs(every.mean - exact) < 2 * half  # flat betting matches the exact edge
    assert sum(n for _, n, _, _ in report.groups) == 10_000_000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["punto-banco", "--count", "tie", "--shoe", "reshuffle"],
            "a count needs a continuous shoe",
        ),
        (["punto-banco", "--count", "tie", "--bet", "tie"], "measure a count or play sessions"),
        (["lo-ball", "--count", "main"], "Lo-Ball reshuffles its 28 tiles"),
        (["punto-banco", "--count", "dragon"], "unknown bet 'dragon'"),
        (["punto-banco", "--count", "tie", "--level", "11"], "level: must be between 1 and 10"),
        (["punto-banco", "--count", "player-pair"], "nothing to count"),
        (["punto-banco", "--count", "tie", "--penetration", "1.5"], "penetration"),
    ],
)
def test_bad_count_input(args: list[str], message: str) -> None:
    assert_refused(run("simulate", *args, "--rounds", "1000"), message)


def test_thresholds_scale_with_the_level() -> None:
    """Tags, and so true counts, scale with the level: at level 1 a true count of 8 never
    comes, at level 10 one of 8 is ordinary. The table's T follow (audit finding)."""
    low = json.loads(run("simulate", "punto-banco", "--count", "tie", "--rounds", "20000",
                         "--seed", "3", "--level", "1", "--json").stdout)  # fmt: skip
    high = json.loads(run("simulate", "punto-banco", "--count", "tie", "--rounds", "20000",
                          "--seed", "3", "--level", "10", "--json").stdout)  # fmt: skip
    assert [line["bet_at_true_count_at_least"] for line in low["strategies"]] == [None, 0, 1, 2, 3]
    assert [line["bet_at_true_count_at_least"] for line in high["strategies"]] == [
        None,
        0,
        3,
        7,
        10,
        13,
        17,
        20,
        27,
    ]
    assert max(abs(g["true_count"]) for g in high["true_counts"]) > 10


def test_a_count_study_cuts_the_shoe_fifteen_cards_from_the_end() -> None:
    """Real baccarat shoes place the cut card 14 to 16 cards from the end, not at 80 %."""
    for decks, penetration in ((8, 401 / 416), (6, 297 / 312)):
        data = json.loads(run("simulate", "punto-banco", "--count", "tie", "--rounds", "5000",
                              "--seed", "1", "--json", "-o", f"decks={decks}").stdout)  # fmt: skip
        assert data["cards_behind_cut"] == 15
        assert data["penetration"] == pytest.approx(penetration)
    told = json.loads(run("simulate", "punto-banco", "--count", "tie", "--rounds", "5000",
                          "--seed", "1", "--json", "--penetration", "0.5").stdout)  # fmt: skip
    assert told["cards_behind_cut"] == 208
