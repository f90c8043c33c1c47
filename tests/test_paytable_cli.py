"""``baccara paytable show`` and ``design`` as a designer runs them."""

from __future__ import annotations

import pathlib
from fractions import Fraction

import pytest

from baccara.cards import ShoeComposition
from baccara.errors import InvalidOption
from baccara.exact.bonus import bonus_bet, category_counts
from baccara.exact.paytable_design import design_paytables
from baccara.games.bonus import CATEGORIES
from baccara.paytables import load_paytable
from tests.helpers import assert_refused, run


def test_show_lists_every_category_with_the_edge() -> None:
    result = run("paytable", "show", "default")
    assert result.returncode == 0, result.stderr
    for category in CATEGORIES:
        assert category.value in result.stdout
    assert "3,099,475,687,308" in result.stdout  # C(364, 6)
    assert "house edge 3.5829%" in result.stdout


def test_design_finds_ordered_integer_tables_near_the_target(tmp_path: pathlib.Path) -> None:
    counts = category_counts(ShoeComposition.standard(7))
    target = Fraction(4, 100)
    designs = design_paytables(counts, target, min_hit=Fraction(20, 100), top=5)
    assert len(designs) == 5
    for found in designs:
        assert found.paytable.in_rank_order
        assert all(p.denominator == 1 and p >= 1 for p in found.paytable.pays.values())
        assert abs(found.house_edge - target) < Fraction(1, 10_000)
        assert found.bet.hit_frequency >= Fraction(20, 100)
        assert found.bet.house_edge == bonus_bet(counts, found.paytable).house_edge
    path = tmp_path / "design.toml"
    result = run(
        "paytable", "design", "--target-edge", "4%", "--min-hit", "20", "--save", str(path)
    )
    assert result.returncode == 0, result.stderr
    saved = load_paytable(path)
    assert abs(bonus_bet(counts, saved).house_edge - target) < Fraction(1, 10_000)


def test_design_refuses_impossible_constraints() -> None:
    counts = category_counts(ShoeComposition.standard(7))
    with pytest.raises(InvalidOption, match="min-hit"):
        design_paytables(counts, Fraction(4, 100), min_hit=Fraction(3, 2))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["paytable", "show", "no-such.toml"], "no paytable file 'no-such.toml'"),
        (["paytable", "show", "default", "--decks", "0"], "decks: must be between 1 and 64"),
        (["paytable", "design", "--target-edge", "abc"], "target-edge: must be a number"),
        (["paytable", "design", "--target-edge", "4", "--top", "0"], "top: must be between"),
        (["paytable", "design"], "Missing option '--target-edge'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    assert_refused(run(*args), message)


def test_malformed_user_file_names_the_line(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[pays]\nflush = 8\nstraight = -1\n")
    result = run("paytable", "show", str(path))
    assert result.returncode == 2
    assert f"{path} line 3: straight: a pay cannot be negative" in result.stderr


def test_one_deck_is_one_deck() -> None:
    """Audit finding: ``--decks 1`` printed "1 decks"."""
    shown = run("paytable", "show", "default", "--decks", "1")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[0].rstrip() == "default — 1 deck"
    assert "default — 7 decks" in run("paytable", "show", "default").stdout
