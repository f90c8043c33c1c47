"""The PAR sheet's sections as a rendered report shows them, read back from its HTML and
checked against figures computed here (tests/test_report.py renders each game once and
calls :func:`check_par_sheet`)."""

from __future__ import annotations

import datetime
import math
from fractions import Fraction
from typing import Any

import baccara
from baccara import analyze
from baccara.exact.floor import FloorPlan
from baccara.exact.joint import house_win_mean, house_win_variance
from baccara.exact.loball_worst import worst_tiles_probability
from baccara.exact.stakes import bet_at_stake, won_at_stake
from baccara.games import game as game_spec
from baccara.games.fingerprint import rules_hash
from baccara.games.loball import LoBallRules

Rows = list[list[str]]


def percent(cell: str) -> Fraction:
    return Fraction(cell.strip().replace(",", "").removesuffix("%")) / 100


def money(cell: str) -> Fraction:
    return Fraction(cell.strip().removeprefix("at most ").replace(",", ""))


NAMES = {
    "punto-banco": {"player-pair": "Player Pair", "tie": "Tie", "banker-pair": "Banker Pair",
                    "player": "Player", "banker": "Banker"},
    "redgreen": {"red": "Red", "bonus": "Bonus", "green": "Green"},
    "lo-ball": {"main": "Main", "lo-card": "Lo-Card", "hi-card": "Hi-Card",
                "dice-lo": "Dice-Lo", "dice-hi": "Dice-Hi"},
}  # fmt: skip
"""Each bet as the sheet names it: the name on the table's layout, not the id commands take."""
NAMES["redgreen-mini"] = NAMES["redgreen"]


def name(game: str, bet: str) -> str:
    return NAMES[game][bet]


def check_par_sheet(game: str, tables: dict[str, Rows], text: str, date: datetime.date) -> None:
    spec = game_spec(game)
    analysis = analyze(game)
    plan = FloorPlan.for_game(spec)
    check_control(game, tables["control"], date)
    assert [row[0] for row in tables["compliance"][1:]][:3] == [
        "Nevada Gaming Regulation 14.230",
        "Maryland COMAR 36.05.03.20",
        "Maryland COMAR 36.05.03.25",
    ]
    check_assumptions(game, tables["assumptions"], plan)
    check_odds(analysis, tables)
    check_volatility(game, analysis, tables)
    check_operations(analysis, tables["operations"], plan)
    check_stakes(analysis, tables["stakes"], plan)
    check_week(game, tables["week"], plan)
    check_liability(game, analysis, tables["liability"], plan, text)
    check_correlation(game, tables["correlation"])
    check_breakdowns(game, analysis, tables, text)


def check_control(game: str, rows: Rows, date: datetime.date) -> None:
    control = {row[0]: row[1] for row in rows[1:]}
    assert control["Revision"] == "1" and control["Date"] == date.isoformat()
    assert control["Rules hash (SHA-256)"] == rules_hash(game_spec(game).rules(), game)
    assert control["Made by"] == f"baccara {baccara.__version__}"
    for blank in ("Approving laboratory", "Jurisdiction", "Approved by, and date"):
        assert set(control[blank]) == {"_"}


def check_assumptions(game: str, rows: Rows, plan: FloorPlan) -> None:
    """Every default the seed does not give and every floor figure, each sourced."""
    spec = game_spec(game)
    names = [row[0] for row in rows[1:]]
    assumed = [name.replace("_", "-") for name, _ in spec.assumed]
    assert names == [*assumed, "Pace", "Average bet", "Minimum bet", "Maximum bet",
                     "Seats occupied", "A week's play", "Drop", "A week's bets",
                     "Liability"]  # fmt: skip
    assert all(row[2].startswith("assumption: ") for row in rows[1:])
    pace = rows[1 + len(assumed)]
    assert pace[1] == f"{spec.floor.hands_per_hour} hands an hour" and pace[2] == spec.floor.source


def check_odds(analysis: Any, tables: dict[str, Rows]) -> None:
    """ "1 in N" beside every outcome: N = 1 / its probability."""
    for bet in analysis.bets:
        header, *rows, _total = tables[f"bet-{bet.bet}"]
        assert header[-2:] == ["True odds", "Odds"]
        for row, outcome in zip(rows, bet.outcomes, strict=True):
            if outcome.count == 0:
                assert row[-1] == "never"
                continue
            if outcome.probability < 1:  # COMAR's true odds: against, (1 − p) / p to 1
                against = Fraction(row[-2].removesuffix(" to 1").replace(",", ""))
                assert abs(against - (1 - outcome.probability) / outcome.probability) <= Fraction(
                    1, 200
                )
            shown = Fraction(row[-1].removeprefix("1 in ").replace(",", ""))
            places = Fraction(1, 2) if 1 / outcome.probability >= 1000 else Fraction(1, 200)
            assert abs(shown - 1 / outcome.probability) <= places, (row, outcome)


def _cdf_quantiles(outcomes: list[tuple[Fraction, Fraction]], hands: int,
                   tails: list[Fraction]) -> list[Fraction]:  # fmt: skip
    """The smallest sum with P(S ≤ x) ≥ t for each t: the exact distribution of ``hands``
    hands of a three-outcome bet, summed over every (wins, losses) with its multinomial."""
    (a, pa), (b, pb), (c, pc) = outcomes
    law: dict[Fraction, Fraction] = {}
    for i in range(hands + 1):
        for j in range(hands + 1 - i):
            k = hands - i - j
            weight = math.comb(hands, i) * math.comb(hands - i, j)
            value = i * a + j * b + k * c
            law[value] = law.get(value, Fraction(0)) + weight * pa**i * pb**j * pc**k
    found, running, ordered = [], Fraction(0), sorted(law.items())
    targets = iter(tails)
    target = next(targets)
    for value, p in ordered:
        running += p
        while running >= target:
            found.append(value)
            target = next(targets, Fraction(2))
    return found


def check_volatility(game: str, analysis: Any, tables: dict[str, Rows]) -> None:
    """The volatility index is z·σ; Banker's and Player's 100-hand intervals are the exact
    quantiles counted here over every (wins, losses) of 100 hands."""
    header, *rows = tables["volatility"]
    assert header == ["Bet", "Std dev", "VI 90 %", "VI 95 %", "VI 99 %"]
    z = {2: 1.6448536, 3: 1.9599640, 4: 2.5758293}
    for row, bet in zip(rows, analysis.bets, strict=True):
        assert row[0] == name(game, bet.bet)
        for column, factor in z.items():
            assert abs(float(row[column]) - factor * bet.std_dev) <= 6e-5
    for bet in analysis.bets:
        header, *rows = tables[f"volatility-{bet.bet}"]
        assert [(r[0], r[1]) for r in rows] == [
            (f"{n:,}", level) for n in (100, 1_000, 10_000, 100_000, 1_000_000)
            for level in ("90%", "95%", "99%")
        ]  # fmt: skip
        for row in rows:
            hands = int(row[0].replace(",", ""))
            low, high = percent(row[2]) * hands, percent(row[3]) * hands
            assert (percent(row[4]), percent(row[5])) == (-percent(row[3]), -percent(row[2]))
            assert low <= high and row[6].startswith(("exact", "normal"))
            if hands == 1_000_000:  # near the normal one by now: a sanity bound
                # 3 σ, not 2.58: a 1000:1 Bonus is still skewed after a million hands
                spread = 3 * bet.std_dev * math.sqrt(hands) + 2 + hands * 5e-6
                centre = float(bet.expected_return) * hands
                assert centre - spread <= float(low) <= float(high) <= centre + spread
        if len(bet.outcomes) == 3 and bet.bet in ("banker", "player", "red"):
            outcomes = [(o.pays, o.probability) for o in bet.outcomes]
            tails = [Fraction(5, 100), Fraction(95, 100)]
            low, high = _cdf_quantiles(outcomes, 100, tails)
            first = rows[0]  # 100 hands, 90 %
            assert (percent(first[2]) * 100, percent(first[3]) * 100) == (low, high)


def check_operations(analysis: Any, rows: Rows, plan: FloorPlan) -> None:
    header, *rows = rows
    assert header[0] == "Bet"
    for row, bet in zip(rows, analysis.bets, strict=True):
        per_seat = plan.hands_per_hour * plan.average_bet_cents * bet.house_edge / 100
        assert abs(money(row[2]) - per_seat) <= Fraction(1, 200)
        assert abs(money(row[3]) - per_seat * plan.seats) <= Fraction(1, 200)
        assert abs(percent(row[4]) - bet.house_edge / plan.drop_to_handle) <= Fraction(1, 10**4)


def check_stakes(analysis: Any, rows: Rows, plan: FloorPlan) -> None:
    """The edges as paid at the limits, and the worst stake found by trying every stake
    from the minimum up to 30.00."""
    for row, bet in zip(rows[1:], analysis.bets, strict=True):
        assert abs(percent(row[2]) - bet_at_stake(bet, plan.min_bet_cents).house_edge) <= Fraction(
            1, 10**7
        )
        edges = {s: bet_at_stake(bet, s).house_edge for s in range(plan.min_bet_cents, 3_001)}
        worst = max(edges, key=lambda s: (edges[s], -s))
        edge, _, stake = row[5].partition(" at ")
        assert money(stake) * 100 == worst and abs(percent(edge) - edges[worst]) <= Fraction(
            1, 10**7
        )
        rounds = any((100 * o.pays).denominator != 1 for o in bet.outcomes)
        assert (row[6] != "any") == rounds or row[6].startswith("multiples")


def check_week(game: str, rows: Rows, plan: FloorPlan) -> None:
    """The week's interval holds the expected win and is near the normal one (a full
    week: thousands of rounds)."""
    spec = game_spec(game)
    mix = spec.floor.mix
    wagers = [
        (s, mix[(s - 1) % len(mix)], plan.average_bet_cents) for s in range(1, plan.seats + 1)
    ]
    rules = spec.rules()
    rounds = plan.hands_per_week
    mean = float(house_win_mean(game, rules, wagers, as_paid=True)) * rounds / 100
    sd = math.sqrt(float(house_win_variance(game, rules, wagers, as_paid=True)) * rounds) / 100
    z = {"90%": 1.6448536, "95%": 1.9599640, "99%": 2.5758293}
    handle = rounds * plan.seats * plan.average_bet_cents / 100
    certain = [row for row in rows[1:] if row[7] == "certain (Bernstein)"]
    assert len(certain) == (3 if game == "lo-ball" else 0)  # only beside normal rows
    for row in rows[1:]:
        low, high = float(money(row[1])), float(money(row[2]))
        assert low < mean < high
        drop = handle * float(plan.drop_to_handle)  # win to drop: COMAR 36.05.03.25
        assert abs(float(percent(row[5])) - low / drop) <= 5e-5
        assert abs(float(percent(row[6])) - high / drop) <= 5e-5
        if row in certain:  # Bernstein: x = LM/3 + √((LM/3)² + 2Lnσ²), M = 1.5 a seat + |μ|
            tail = math.log(2 / (1 - float(percent(row[0]))))
            reach = tail * (plan.seats * plan.average_bet_cents * 1.5 / 100 + mean / rounds) / 3
            x = reach + math.sqrt(reach**2 + 2 * tail * sd**2)
            assert abs(low - (mean - x)) <= 0.01 and abs(high - (mean + x)) <= 0.01
            continue
        assert abs(low - (mean - z[row[0]] * sd)) <= 0.05 * sd + 1
        assert abs(high - (mean + z[row[0]] * sd)) <= 0.05 * sd + 1


def check_liability(game: str, analysis: Any, rows: Rows, plan: FloorPlan, text: str) -> None:
    for row, bet in zip(rows[1:], analysis.bets, strict=True):
        top = max(o.pays for o in bet.outcomes)
        per_seat = won_at_stake(plan.max_bet_cents, top)
        assert money(row[2]) * 100 == per_seat
        seats = 1 if bet.bet in ("lo-card", "hi-card") else plan.seats
        assert int(row[3]) == seats and money(row[4]) * 100 == seats * per_seat
    if game.startswith("redgreen"):  # every seat on the winning side and the Bonus's 1000:1
        total = plan.seats * (
            1000 * plan.max_bet_cents + won_at_stake(plan.max_bet_cents, Fraction(19, 20))
        )
        assert f"The worst round pays {total // 100:,}.00" in text
    if game == "lo-ball":  # every seat's Win-bonus, 1-1 and 7-7 held, a dice side: counted
        total = (
            plan.seats * won_at_stake(plan.max_bet_cents, Fraction(3, 2))
            + 2 * won_at_stake(plan.max_bet_cents, Fraction(7))
            + plan.seats * plan.max_bet_cents
        )
        assert f"The worst round pays {total // 100:,}.00" in text
        tiles = worst_tiles_probability(LoBallRules(), plan.max_bet_cents, plan.seats)
        assert tiles is not None and tiles > 0
        odds = 1 / (tiles * Fraction(210, 216))  # either side of the dice, not a triple
        assert f"1 in {float(odds):,.0f} rounds: every deal of the tiles" in text


def check_correlation(game: str, rows: Rows) -> None:
    labels = rows[0][1:]
    grid = [[float(c) for c in row[1:]] for row in rows[1:]]
    for i in range(len(labels)):
        assert grid[i][i] == 1.0
        for j in range(len(labels)):
            assert grid[i][j] == grid[j][i] and -1 <= grid[i][j] <= 1
    pairs = {"punto-banco": ("Banker", "Player"), "lo-ball": ("Dice-Lo", "Dice-Hi")}
    a, b = pairs.get(game, ("Red", "Green"))
    assert grid[labels.index(a)][labels.index(b)] < -0.9  # the two sides nearly cancel


def check_breakdowns(game: str, analysis: Any, tables: dict[str, Rows], text: str) -> None:
    """The breakdowns add up to the bets: Punto Banco's Banker win on 6 (Wizard of Odds,
    "Super 6": 0.053864) and wins by total; RedGreen's front × back to the Red bet. A
    variant that hands a bet to the player is said so (Lo-Ball's Lo-Card at 8 to 1), and
    only then."""
    if game != "lo-ball":
        assert "gives the player the edge" not in text
    if game == "punto-banco":
        special = {row[0]: row for row in tables["breakdown-special-wins"][1:]}
        assert round(float(Fraction(special["Banker wins with a 6"][2])), 6) == 0.053864
        _header, *rows = tables["breakdown-wins-by-total"]
        player = sum(int(r[1].replace(",", "")) for r in rows if r[0] != "all")
        assert player == analysis.bet("player").outcome("win").count
    elif game.startswith("redgreen"):
        _header, *rows = tables["breakdown-red-front-back"]
        red = analysis.bet("red")
        for result in ("win", "push", "lose"):
            deals = sum(int(r[3].replace(",", "")) for r in rows if r[-1] == result)
            assert deals == red.outcome(result).count
    else:  # Lo-Ball's points and grid, shown once, in their own section
        lo8 = baccara.analyze("lo-ball", lo_hi_pays=8).bet("lo-card").house_edge
        assert lo8 < 0  # 8 to 1 on a 3-in-28 tile: the player's game
        assert (
            f"Under lo-hi-8, Lo-Card gives the player the edge: the house edge is {float(lo8):.4%}."
            in text
        )
        assert "table-points" in tables and "breakdown-points" not in tables
