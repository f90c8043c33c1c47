"""Paytables as data: the shipped default, user files, and every way a file can be wrong."""

from __future__ import annotations

import pathlib
from fractions import Fraction

import pytest

from baccara.cards import parse_cards
from baccara.games.bonus import Category
from baccara.games.paytable import InvalidPaytable, Paytable
from baccara.money import BetResult
from baccara.paytables import load_paytable, shipped_paytables


def test_default_is_the_issues_table() -> None:
    table = load_paytable("default")
    assert "default" in shipped_paytables()
    assert {c.value: p for c, p in table.pays.items()} == {
        "royal_flush": 1000, "straight_flush": 200, "five_of_a_kind": 100,
        "four_of_a_kind": 25, "full_house": 9, "flush": 8, "straight": 8,
        "three_of_a_kind": 4,
    }  # fmt: skip
    assert table.net(Category.TWO_PAIR) == -1
    assert table.in_rank_order


def test_for_one_pays_include_the_stake() -> None:
    table = Paytable.from_toml('basis = "for"\n[pays]\nflush = 9\nstraight = 1\n')
    assert table.pays == {Category.FLUSH: Fraction(8), Category.STRAIGHT: Fraction(0)}


def test_round_trip_through_toml() -> None:
    table = Paytable.from_toml('name = "half"\n[pays]\nroyal_flush = 500\nflush = 7.5\n')
    again = Paytable.from_toml(table.to_toml())
    assert again.pays == table.pays and again.name == "half"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[pays]\nflush = 8\nbroadway = 3\n", "line 3: unknown category 'broadway'"),
        ("[pays]\nflush = -8\n", "line 2: flush: a pay cannot be negative"),
        ('[pays]\nflush = "eight"\n', "line 2: flush: the pay must be a number"),
        ("[pays]\nflush = true\n", "line 2: flush: the pay must be a number"),
        ("[pays]\nflush = nan\n", "line 2: flush: the pay must be a number"),
        ("[pays]\nflush = 8\nflush = 9\n", "line 3"),  # duplicate key
        ("colour = 1\n[pays]\nflush = 8\n", "line 1: unknown key 'colour'"),
        ('basis = "per"\n[pays]\nflush = 8\n', 'line 1: basis must be "to" or "for"'),
        ('basis = "for"\n[pays]\nflush = 0.5\n', "line 3: flush: a pay 'for 1' must be at least 1"),
        ("name = 3\n[pays]\nflush = 8\n", "line 1: name must be text"),
        ('name = "x"\n', "needs a [pays] table"),
        ("[pays\n", "my.toml"),
    ],
)
def test_malformed_paytables_name_the_line(text: str, message: str) -> None:
    with pytest.raises(InvalidPaytable) as caught:
        Paytable.from_toml(text, "my.toml")
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_missing_file_is_a_clear_error(tmp_path: pathlib.Path) -> None:
    with pytest.raises(InvalidPaytable, match="no paytable file"):
        load_paytable(tmp_path / "nope.toml")


def test_user_file_is_loaded(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text("[pays]\nroyal_flush = 250\nfour_of_a_kind = 50\n")
    assert load_paytable(path).pays[Category.FOUR_OF_A_KIND] == 50


def test_settlement_uses_the_live_evaluator() -> None:
    table = load_paytable()
    five_aces = parse_cards(["AS", "AS", "AS", "AH", "AD", "2C"])
    won = table.settle(1000, five_aces)
    assert won.result is BetResult.WIN and won.won == 100_000
    lost = table.settle(1000, parse_cards(["AS", "AD", "3S", "3H", "9D", "2C"]))  # two pair
    assert lost.result is BetResult.LOSE and lost.returned == 0
    pushed = Paytable.from_toml("[pays]\ntwo_pair = 0\n").settle(
        1000, parse_cards(["AS", "AD", "3S", "3H", "9D", "2C"])
    )
    assert pushed.result is BetResult.PUSH and pushed.returned == 1000
    # 7.5 to 1 on 25 cents is 187.5: rounded down to 187.
    half = Paytable.from_toml("[pays]\nflush = 7.5\n")
    assert half.settle(25, parse_cards(["AS", "9S", "7S", "5S", "2S", "3D"])).won == 187


def test_an_unnamed_paytable_goes_by_the_end_of_its_path() -> None:
    """The name heads tables on screen, so it is bounded; a long path is cut at its start."""
    path = "folder/" * 40 + "mine.toml"
    table = Paytable.from_toml("[pays]\nflush = 8\n", path)
    assert table.name.endswith("/mine.toml") and len(table.name) == 100
    assert Paytable.from_toml("[pays]\nflush = 8\n", "mine.toml").name == "mine.toml"
    with pytest.raises(InvalidPaytable, match="line 1: name must be text of 1 to 100 characters"):
        Paytable.from_toml(f'name = "{"x" * 101}"\n[pays]\nflush = 8\n', path)
