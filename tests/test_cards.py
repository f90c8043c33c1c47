"""Cards, shoes, tiles, dice and the shuffle."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from baccara.cards import Card, Rank, Shoe, Suit, standard_deck
from baccara.errors import InvalidCards, InvalidOption
from baccara.randomness import SecureRandom, SeededRandom, shuffle
from baccara.tiles import TILE_SET, Tile, roll_dice, shuffled_tiles


class ScriptedRandom:
    """A RandomSource that answers from a fixed script, to enumerate every shuffle path."""

    def __init__(self, script: tuple[int, ...]) -> None:
        self.script = list(script)

    def randbelow(self, n: int) -> int:
        value = self.script.pop(0)
        assert 0 <= value < n
        return value


def test_fisher_yates_gives_every_order_exactly_once() -> None:
    """Over all equally likely draw sequences, each of the 4! orders comes out once: no bias."""
    draws = itertools.product(range(4), range(3), range(2))  # randbelow(4), (3), (2)
    orders = Counter()
    for script in draws:
        items = ["a", "b", "c", "d"]
        shuffle(items, ScriptedRandom(script))
        orders[tuple(items)] += 1
    assert len(orders) == 24
    assert set(orders.values()) == {1}


def test_seeded_shuffles_repeat_and_secure_ones_differ() -> None:
    a, b = Shoe(8, SeededRandom(42)), Shoe(8, SeededRandom(42))
    assert [a.draw() for _ in range(30)] == [b.draw() for _ in range(30)]
    c, d = Shoe(8, SecureRandom()), Shoe(8, SecureRandom())
    assert list(c) != list(d)  # equal only with probability 1/416!-ish


def test_shoe_holds_decks_times_each_card() -> None:
    shoe = Shoe(8, SeededRandom(1))
    assert len(shoe) == 416
    counts = Counter(shoe)
    assert len(counts) == 52 and set(counts.values()) == {8}
    assert len(shoe) == 0
    with pytest.raises(InvalidCards, match="empty"):
        shoe.draw()


def test_cut_card_reached_at_penetration() -> None:
    shoe = Shoe(1, SeededRandom(3), penetration=0.75)
    for _ in range(38):
        shoe.draw()
    assert not shoe.cut_card_reached
    shoe.draw()
    assert shoe.cut_card_reached and shoe.dealt == 39


@pytest.mark.parametrize("decks", [0, -1, 1.5, "8", True])
def test_shoe_refuses_bad_deck_counts(decks: object) -> None:
    with pytest.raises(InvalidOption, match="decks"):
        Shoe(decks, SeededRandom(0))  # type: ignore[arg-type]


def test_card_parsing_round_trips_every_card() -> None:
    for card in standard_deck():
        assert Card.parse(card.code) == card
    assert Card.parse("td") == Card(Rank.TEN, Suit.DIAMONDS)


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "AX", "10"])
def test_card_parsing_refuses_nonsense(text: str) -> None:
    with pytest.raises(InvalidCards):
        Card.parse(text)


def test_baccarat_values() -> None:
    assert [r.baccarat_value for r in Rank] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]


def test_tile_set_is_the_seeds_28_tiles() -> None:
    seed_list = (
        "1-1, 1-2, 1-3, 1-4, 1-5, 1-6, 1-7, 2-2, 2-3, 2-4, 2-5, 2-6, 2-7, 3-3, 3-4, 3-5, 3-6, 3-7,"
        " 4-4, 4-5, 4-6, 4-7, 5-5, 5-6, 5-7, 6-6, 6-7, 7-7"
    )
    assert [str(t) for t in TILE_SET] == seed_list.split(", ")
    assert sorted(shuffled_tiles(SeededRandom(5))) == list(TILE_SET)


@pytest.mark.parametrize("text", ["0-1", "8-8", "x", "1-2-3"])
def test_tile_parsing_refuses_nonsense(text: str) -> None:
    with pytest.raises(InvalidCards):
        Tile.parse(text)


def test_dice_are_fair_faces() -> None:
    rolls = [roll_dice(SeededRandom(s)) for s in range(200)]
    assert all(len(r) == 3 and all(1 <= d <= 6 for d in r) for r in rolls)
    assert {d for r in rolls for d in r} == {1, 2, 3, 4, 5, 6}
