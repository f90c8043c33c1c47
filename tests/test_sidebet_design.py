"""Designing a Punto Banco side bet's pays for a target edge (``exact/sidebet_design.py``,
``baccara paytable design SIDEBET``).

Every designed table's edge is checked against the exact analysis ``baccara analyze``
prints, and the search against brute force over the same menus where that is small
enough to run.
"""

from __future__ import annotations

import itertools
import math
import pathlib
from fractions import Fraction

import pytest

from baccara.errors import InvalidOption
from baccara.exact.coup_bets import spot_analysis
from baccara.exact.sidebet_design import (
    GROUP_LIMIT,
    _groups,
    _searched_menus,
    design_sidebet,
    line_counts,
    menu,
    thinned,
    with_pays,
)
from baccara.games.coup_bets import SHIPPED, PayLine, SideBet
from baccara.games.coup_terms import Condition
from baccara.games.punto_banco import PuntoBancoRules
from baccara.options import fraction_text
from baccara.paytables import load_sidebet
from tests.helpers import assert_refused, run

VALUE_BETS = ("dragon-7", "panda-8", "lucky-6", "dragon-bonus-banker", "big")
"""Shipped side bets that read values only, so their counts take milliseconds."""


def _edge(bet: SideBet, decks: int = 8) -> Fraction:
    return spot_analysis(bet.id, PuntoBancoRules(sidebets=(bet,)), decks).house_edge


@pytest.mark.parametrize("name", VALUE_BETS)
def test_line_counts_price_the_bet_as_the_analysis_does(name: str) -> None:
    bet = SHIPPED.sidebets[name]
    counts = line_counts(bet, 8)
    assert counts.house_edge([line.pays for line in bet.lines]) == _edge(bet)
    doubled = [2 * line.pays for line in bet.lines]
    assert counts.house_edge(doubled) == _edge(with_pays(bet, doubled))


def test_a_line_that_earlier_lines_cover_counts_nothing() -> None:
    dragon = SHIPPED.sidebets["dragon-7"]
    any_banker_win = Condition.read({"winner": "banker"})
    covered = SideBet("covered", "Covered", (PayLine(any_banker_win, Fraction(1)), dragon.lines[0]))
    counts = line_counts(covered, 8)
    assert counts.counts[1] == 0 and counts.counts[0] > line_counts(dragon, 8).counts[0]
    assert counts.house_edge([Fraction(1), Fraction(40)]) == _edge(covered)


def test_menus_run_from_one_to_five_times_the_pay_in_halves_below_ten() -> None:
    assert menu(Fraction(40)) == tuple(Fraction(n) for n in range(1, 201))
    assert menu(Fraction(2)) == tuple(Fraction(n, 2) for n in range(1, 21))
    assert menu(Fraction(0)) == (Fraction(0),)  # a push stays a push
    assert Fraction(27, 50) in menu(Fraction(27, 50))  # the pay now is always searched
    assert max(menu(Fraction(9_000))) == 10_000  # never past the largest pay a file takes


def test_thinning_keeps_the_ends_and_the_pay_now_and_about_halves_the_menu() -> None:
    values = menu(Fraction(40))
    for keep in (Fraction(1), Fraction(40), Fraction(77), Fraction(200)):
        fewer = thinned(values, keep)
        assert {keep, values[0], values[-1]} <= set(fewer)
        assert len(fewer) <= len(values) // 2 + 2
    for size in range(2, 8):  # every thinning shrinks, down to the pay now alone
        small = tuple(Fraction(n) for n in range(1, size + 1))
        for keep in small:
            assert keep in thinned(small, keep) and len(thinned(small, keep)) < size
    assert thinned((Fraction(1), Fraction(2)), Fraction(2)) == (Fraction(2),)


def test_one_line_is_searched_whole_and_the_nearest_comes_first() -> None:
    dragon = SHIPPED.sidebets["dragon-7"]
    target = Fraction(5, 100)
    designs = design_sidebet(dragon, 8, target, top=3)
    counts = line_counts(dragon, 8)
    every = sorted(menu(Fraction(40)), key=lambda pay: abs(counts.house_edge([pay]) - target))
    assert [d.pays for d in designs] == [(pay,) for pay in every[:3]]
    assert designs[0].pays == (Fraction(41),)
    assert designs[0].house_edge == _edge(designs[0].bet)


def test_two_lines_agree_with_brute_force_over_the_same_menus() -> None:
    """Lucky 6's 60 × 100 tables, every one priced exactly: with ``within=0`` the
    search's five are the five nearest of them all."""
    lucky = SHIPPED.sidebets["lucky-6"]
    target = Fraction(3, 100)
    counts = line_counts(lucky, 8)
    menus = [menu(line.pays) for line in lucky.lines]
    every = sorted(
        itertools.product(*menus), key=lambda pays: abs(counts.house_edge(pays) - target)
    )
    designs = design_sidebet(lucky, 8, target, top=5, within=Fraction(0))
    assert [abs(d.house_edge - target) for d in designs] == [
        abs(counts.house_edge(pays) - target) for pays in every[:5]
    ]
    for found in designs:
        assert found.house_edge == _edge(found.bet)


def test_on_target_the_least_change_to_the_pays_comes_first() -> None:
    bonus = SHIPPED.sidebets["dragon-bonus-banker"]
    target, within = Fraction(5, 100), Fraction(1, 10_000)
    designs = design_sidebet(bonus, 8, target, top=5, within=within)
    now = [line.pays for line in bonus.lines]

    def moved(pays: tuple[Fraction, ...]) -> Fraction:
        return sum((abs(p - q) / q for p, q in zip(pays, now, strict=True) if q), Fraction(0))

    assert all(abs(d.house_edge - target) <= within for d in designs)
    assert [moved(d.pays) for d in designs] == sorted(moved(d.pays) for d in designs)
    assert moved(designs[0].pays) <= Fraction(1)  # two lines moved a little, not eight
    assert designs[0].pays[1] == 0  # the natural tie still pushes
    for found in designs:
        assert found.house_edge == _edge(found.bet)
        assert found.analysis.hit_frequency == _hit(bonus)


def _hit(bet: SideBet) -> Fraction:
    return spot_analysis(bet.id, PuntoBancoRules(sidebets=(bet,)), 8).hit_frequency


def test_many_lines_are_thinned_to_fit_and_still_hit_the_target() -> None:
    """Twelve lines, a win by 4 to 9 points on either side: the menus multiply past 10¹⁶,
    so they are thinned until each group of lines holds at most GROUP_LIMIT tables."""
    lines = tuple(
        PayLine(Condition.read({"winner": side, "margin": margin}), Fraction(margin - 2))
        for side in ("banker", "player")
        for margin in range(4, 10)
    )
    bet = SideBet("margins", "Margins", lines)
    menus = _searched_menus(bet)
    assert math.prod(len(menu(line.pays)) for line in lines) > 10**16
    for group in _groups(menus):
        assert math.prod(len(menus[i]) for i in group) <= GROUP_LIMIT
    assert all(line.pays in options for line, options in zip(lines, menus, strict=True))
    target = Fraction(4, 100)
    best = design_sidebet(bet, 8, target, top=1)[0]
    assert abs(best.house_edge - target) < Fraction(1, 10_000)
    assert best.house_edge == _edge(best.bet)


@pytest.mark.parametrize(
    ("target", "top", "within", "name"),
    [
        (Fraction(1), 5, Fraction(0), "target-edge"),
        (Fraction(-1), 5, Fraction(0), "target-edge"),
        (Fraction(1, 20), 0, Fraction(0), "top"),
        (Fraction(1, 20), 5, Fraction(-1, 100), "within"),
    ],
)
def test_design_refuses_what_cannot_be_searched(
    target: Fraction, top: int, within: Fraction, name: str
) -> None:
    with pytest.raises(InvalidOption, match=name):
        design_sidebet(SHIPPED.sidebets["dragon-7"], 8, target, top=top, within=within)


# --- at the command line ------------------------------------------------------------------


def test_design_saves_the_nearest_as_a_file_that_reads_back(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "panda.toml"
    result = run("paytable", "design", "--target-edge", "5%", "panda-8", "--top", "3",
                 "--save", str(path))  # fmt: skip
    assert result.returncode == 0, result.stderr
    saved = load_sidebet(path)
    edge = _edge(saved)
    assert SHIPPED.sidebets["panda-8"].published is not None
    assert saved.published is None  # the figure printed for 25 to 1 is not this table's
    assert saved.id == "panda-8-designed"  # its own id: never read as the shipped bet
    assert saved.lines[0].when == SHIPPED.sidebets["panda-8"].lines[0].when
    rows = [line.split() for line in result.stdout.splitlines() if line.strip()[:2] in ("no", "1 ")]
    assert rows[0][:2] == ["now", "25"]
    assert rows[1][0] == "1" and Fraction(rows[1][1]) == saved.lines[0].pays
    assert fraction_text(edge) in result.stdout  # the exact edge, printed for the saved table
    assert f"exactly {fraction_text(edge)}" in path.read_text().splitlines()[0]
    assert f"Saved paytable #1 to {path}" in result.stdout


def test_design_at_other_decks_prices_at_those_decks(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "d7.toml"
    result = run("paytable", "design", "--target-edge", "4", "dragon-7", "--decks", "6",
                 "--save", str(path))  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "8 decks" not in result.stdout and "6 decks" in result.stdout
    saved = load_sidebet(path)
    assert fraction_text(_edge(saved, 6)) in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ez"], "SIDEBET: 'ez' is a rule set"),
        (["default"], "SIDEBET: 'default' is a Bonus paytable"),
        (["dragon-8"], "no paytable file 'dragon-8'"),
        (["dragon-7", "--min-hit", "3"], "--min-hit: a side bet's hit frequency"),
        (["dragon-7", "--within", "abc"], "--within: must be a number"),
        (["dragon-7", "--decks", "0"], "--decks: must be between 1 and 100"),
        (["dragon-7", "--save", "/"], "--save: '/' is a folder"),
        (["--within", "1"], "--within: applies to a side bet's design"),
    ],
)
def test_design_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    assert_refused(run("paytable", "design", "--target-edge", "5", *args), message)
