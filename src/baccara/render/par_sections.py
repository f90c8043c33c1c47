"""The sections a game lab's PAR sheet adds to the mathematics: document control, the
assumptions, volatility, a table's week, operations, real stakes, liability,
correlation and the breakdowns, each a list of blocks from
:class:`~baccara.render.report_data.ReportData`.

Every figure is computed in ``exact/`` (:mod:`~baccara.exact.volatility`,
:mod:`~baccara.exact.table_week`, :mod:`~baccara.exact.floor`,
:mod:`~baccara.exact.round_risk`, :mod:`~baccara.exact.breakdowns`); here it is only
formatted.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from importlib.metadata import version
from typing import TYPE_CHECKING

from baccara.exact.volatility import Interval, Lattice, volatility_index
from baccara.money import format_cents, money_text
from baccara.options import decimal_text, fraction_text, plural
from baccara.render.analysis import cell_text, pays_text
from baccara.render.document import Block, Heading, Prose, TableBlock

if TYPE_CHECKING:
    from baccara.render.report_data import ReportData

BLANK = "________________________________"
"""A field the approving laboratory fills in by hand."""


def one_in(probability: Fraction) -> str:
    """``1 in 12.3`` — how a lab and a player read a rare outcome; ``never`` for 0."""
    if probability <= 0:
        return "never"
    n = 1 / probability
    if n >= 1_000:
        return f"1 in {float(n):,.0f}"
    return f"1 in {float(n):,.2f}"


def share_text(value: Fraction) -> str:
    """``20%``, ``12.5%``: a share as a percentage with the digits it needs."""
    return f"{fraction_text(value * 100)}%"


def _percent(value: Fraction | float, places: int = 4) -> str:
    return f"{float(value):.{places}%}"


def _cents(value: Fraction) -> str:
    """Exact cents as money to the cent, rounded half away from zero for display."""
    whole = int(value + Fraction(1, 2)) if value >= 0 else -int(-value + Fraction(1, 2))
    return money_text(whole)


def control(data: ReportData) -> list[Block]:
    """Document control: what this sheet is, made how and from which rules; blanks for the lab."""
    rows = (
        ("Document", f"PAR sheet: {data.spec.name} ({data.spec.id})"),
        ("Revision", str(data.request.revision)),
        ("Date", data.date.isoformat()),
        ("Made by", f"baccara {version('baccara')}"),
        ("Command", data.command()),
        ("Rules hash (SHA-256)", data.rules_hash),
        ("Rule document", f"seed {data.spec.seed_number} ({data.spec.seed})"),
        ("Approving laboratory", BLANK),
        ("Jurisdiction", BLANK),
        ("Approved by, and date", BLANK),
    )
    return [
        Heading("Document control", "control"),
        TableBlock("control", "", ("Field", "Value"), rows, left_columns=2),
        Prose(
            "The rules hash is over every rule option, every paytable pay and every side "
            "bet's pay lines and conditions (baccara.games.fingerprint.rules_hash): the same "
            "rules give the same hash wherever they are read. The blank fields are the "
            "laboratory's.",
            "note",
        ),
    ]


def assumptions(data: ReportData) -> list[Block]:
    """Every value the rule document does not give, with where it came from."""
    rows = [
        (name, value, source)
        for (name, value, _default), source in zip(
            data.option_values(), data.option_sources(), strict=True
        )
        if source.startswith("assumption")
    ]
    rows += [(a.name, a.value, a.source) for a in data.floor.assumed()]
    return [
        Heading("Assumptions", "assumptions"),
        Prose(
            f"Seed {data.spec.seed_number} does not give these values; each is marked with "
            "where it came from. A value given with an option says so."
        ),
        TableBlock("assumptions", "", ("Figure", "Value", "Source"), tuple(rows), left_columns=3),
    ]


def volatility(data: ReportData) -> list[Block]:
    """Per bet: the volatility index and the intervals of the player's result."""
    summary = []
    blocks: list[Block] = [Heading("Volatility", "volatility")]
    for bet in data.analysis.bets:
        lattice = Lattice.of_bet(bet)
        summary.append(
            (
                bet.bet,
                f"{bet.std_dev:.4f}",
                f"{volatility_index(lattice, Fraction(90, 100)):.4f}",
                f"{volatility_index(lattice, Fraction(95, 100)):.4f}",
                f"{volatility_index(lattice, Fraction(99, 100)):.4f}",
            )
        )
    blocks += [
        TableBlock(
            "volatility",
            "Volatility index of every bet",
            ("Bet", "Std dev", "VI 90 %", "VI 95 %", "VI 99 %"),
            tuple(summary),
        ),
        Prose(
            "Volatility index: z times one hand's standard deviation per unit staked, z the "
            "two-sided normal quantile of the level (1.6449 at 90 %, 1.9600 at 95 %, 2.5758 "
            "at 99 %).",
            "note",
        ),
    ]
    for bet in data.analysis.bets:
        found = data.volatility[bet.bet]
        blocks += [
            Heading(f"{bet.bet}: the player's result after N hands", f"volatility-{bet.bet}", 3),
            TableBlock(
                f"volatility-{bet.bet}",
                "",
                INTERVAL_COLUMNS,
                tuple(_interval_row(i) for i in found),
                left_columns=2,
            ),
        ]
    blocks.append(Prose(INTERVAL_NOTE, "note"))
    return blocks


INTERVAL_COLUMNS = (
    "Hands", "Level", "Player: low", "Player: high", "House: low", "House: high", "Method",
)  # fmt: skip
INTERVAL_NOTE = (
    "Each interval holds the result with at least the stated probability, each tail outside "
    "it at most half the rest, as a share of the handle (units staked). Exact: the "
    "distribution of the sum of N hands, computed from one hand's exact outcomes (an N-fold "
    "convolution); the error shown bounds how far the computed distribution can be from the "
    "true one (the far tails left out and floating-point rounding), and each end is checked "
    "against it. Normal: the normal approximation, used only where the exact sum is too "
    "wide to hold; the error shown is the Berry–Esseen bound (C = 0.4748) on how far its "
    "distribution function can be from the true one, so either tail can be off by that much."
)


def _method(interval: Interval) -> str:
    kind = "exact" if interval.method == "exact" else "normal"
    return f"{kind} (error ≤ {interval.error:.1e})"


def _interval_row(interval: Interval) -> tuple[str, ...]:
    n = interval.hands
    return (
        f"{n:,}",
        f"{float(interval.level):.0%}",
        _percent(interval.low / n, 3),
        _percent(interval.high / n, 3),
        _percent(interval.house_low / n, 3),
        _percent(interval.house_high / n, 3),
        _method(interval),
    )


def week(data: ReportData) -> list[Block]:
    """The house's week at a full table, from the joint model of one round."""
    plan, found = data.floor, data.week
    rounds = found.rounds
    mix = ", ".join(dict.fromkeys(spot for _seat, spot, _stake in found.wagers))
    handle = rounds * sum(stake for _seat, _spot, stake in found.wagers)
    rows = tuple(
        (
            f"{float(i.level):.0%}",
            _cents(i.house_low),
            _cents(i.house_high),
            _percent(i.house_low / handle, 3),
            _percent(i.house_high / handle, 3),
            _method(i),
        )
        for i in found.intervals
    )
    return [
        Heading("A table's week", "week"),
        Prose(
            f"{plural(plan.seats, 'seat')} each bet {money_text(plan.average_bet_cents)} a "
            f"round ({mix}, seat by seat in turn) for {rounds:,} rounds: {plan.week_hours} "
            f"hours at {plan.hands_per_hour} rounds an hour; the house expects to win "
            f"{_cents(found.mean_cents * rounds)} of {money_text(handle)} wagered. Bets on "
            f"one round move together ({TOGETHER.get(data.spec.id, TOGETHER['redgreen'])}), "
            "so each round is one draw from the joint distribution of all its bets, each "
            "paid as the table pays it, rounded down to the cent."
        ),
        TableBlock(
            "week",
            f"The house's win over {rounds:,} rounds",
            ("Level", "Low", "High", "Low, of handle", "High, of handle", "Method"),
            rows,
        ),
        Prose(
            "Exact: from the joint distribution of one round's results, convolved over the "
            "week. Normal (Lo-Ball, whose joint model gives a round's exact mean and "
            "variance): the error shown is the Berry–Esseen bound from the most one round "
            "can move, so either tail can be off by that much. See the note under the "
            "volatility tables.",
            "note",
        ),
    ]


CORRELATED = {
    "punto-banco": "Banker and Player on one coup nearly cancel (ρ near −1); the side bets "
    "move with the hand they read",
    "redgreen": "Red and Green on one deal nearly cancel (ρ near −1); the Bonus reads all six "
    "cards, whichever hand wins",
    "lo-ball": "two seats play against one dealer hand from one set of tiles, one hand at most "
    "holds 1-1 (or 7-7), and the three dice are the table's, apart from the tiles",
}
"""What the correlation table shows of a game, in words."""

TOGETHER = {
    "punto-banco": "a Banker and a Player bet on one coup nearly cancel",
    "redgreen": "a Red and a Green bet on one deal nearly cancel",
    "lo-ball": "Lo-Ball seats play against one dealer hand from one set of tiles",
}
"""How a game's bets on one round move together, for the week's words."""


def operations(data: ReportData) -> list[Block]:
    """Theoretical win per hour per seat and per table, and hold against drop, per bet."""
    plan = data.floor
    rows = tuple(
        (
            f.bet,
            _percent(f.edge_at_average),
            _cents(f.win_per_hour_seat),
            _cents(f.win_per_hour_table),
            _percent(f.hold, 2),
        )
        for f in data.on_floor
    )
    return [
        Heading("Operations", "operations"),
        Prose(
            f"{plan.hands_per_hour} hands an hour, an average bet of "
            f"{money_text(plan.average_bet_cents)}, {plural(plan.seats, 'seat')} occupied; "
            f"the drop is {share_text(plan.drop_to_handle)} of the handle. All are "
            "assumptions (see Assumptions) and every win figure is proportional to them."
        ),
        TableBlock(
            "operations",
            "Theoretical win and hold, every seat on the one bet",
            ("Bet", "Edge as paid", "Win an hour, a seat", "Win an hour, the table", "Hold"),
            rows,
        ),
        Prose(
            "Theoretical win = hands × average bet × the house edge as paid at the average "
            "bet (payouts rounded down to the cent). Hold = win ÷ drop = that edge × handle ÷ "
            "drop: notional per bet, since a table's drop is not kept bet by bet.",
            "note",
        ),
    ]


def real_stakes(data: ReportData) -> list[Block]:
    """The edge as paid at the table's stakes, and where rounding never bites."""
    plan = data.floor
    rows = tuple(
        (
            f.bet,
            _percent(f.house_edge, 5),
            _percent(f.edge_at_min, 5),
            _percent(f.edge_at_average, 5),
            _percent(f.edge_at_max, 5),
            f"{_percent(f.worst_edge, 5)} at {format_cents(f.worst_stake)}",
            "any" if f.step == 1 else f"multiples of {format_cents(f.step)}",
        )
        for f in data.on_floor
    )
    low, avg, high = (
        format_cents(plan.min_bet_cents),
        format_cents(plan.average_bet_cents),
        format_cents(plan.max_bet_cents),
    )
    return [
        Heading("The edge at real stakes", "stakes"),
        Prose(
            "The table pays each winning bet rounded down to the cent (19 to 20 on 1.01 pays "
            "0.95, not 0.9595), so at some stakes the house keeps a little more than the "
            "exact edge. At multiples of a bet's step every payout is whole cents and the "
            "edge is the exact one."
        ),
        TableBlock(
            "stakes",
            f"House edge as paid, stakes {low} to {high}",
            ("Bet", "Exact", f"At {low}", f"At {avg}", f"At {high}", "Worst stake", "No rounding"),
            rows,
        ),
        Prose(
            "Worst stake: the stake from the minimum to the maximum at which rounding costs "
            "the player the most per unit staked. baccara analyze GAME --stake AMOUNT shows "
            "any stake's outcomes as paid.",
            "note",
        ),
    ]


def liability(data: ReportData) -> list[Block]:
    """The most one round pays at the table's maximum, by bet and in total."""
    found = data.liability
    rows = tuple(
        (
            b.bet,
            pays_text(b.top_pays),
            money_text(b.per_seat_cents),
            str(b.seats_paid),
            money_text(b.total_cents),
            decimal_text(b.probability, 10),
            one_in(b.probability),
        )
        for b in found.bets
    )
    together = " or ".join(" and ".join(spots) for spots in found.winners)
    if found.exact:
        total = (
            f"The worst round pays {money_text(found.total_cents)}: every seat on {together} "
            f"at the maximum, all winning at once — probability "
            f"{decimal_text(found.probability, 12)}, {one_in(found.probability)} rounds."
        )
    else:
        total = (
            f"The worst round pays {money_text(found.total_cents)}: every seat's Win-bonus, "
            "the one Lo-Card and the one Hi-Card, and every seat on the side of the dice "
            f"that wins ({' or '.join(spots[-1] for spots in found.winners)}); such a round "
            "can be dealt (one seat holds 1-1, 2-2, "
            "3-3, another 5-5, 6-6, 7-7, the others a triangle such as 1-2, 2-4, 1-4, every "
            "hand scoring 0). Its probability is not counted: it is at most "
            f"{decimal_text(found.probability, 12)} ({one_in(found.probability)}), that of "
            "one seat's Win-bonus and a dice total that is not a triple, which it needs."
        )
    return [
        Heading("Liability", "liability"),
        Prose(
            f"{plural(found.seats, 'seat')}, each at the maximum of "
            f"{money_text(found.max_bet_cents)} on every spot, side bets included (an "
            "assumption: tables often cap side bets lower); payouts as paid, rounded down "
            "to the cent."
        ),
        TableBlock(
            "liability",
            "The most one round pays on each bet",
            (
                "Bet",
                "Top pay",
                "A seat",
                "Seats paid",
                "The table",
                "Probability at a seat",
                "Odds",
            ),
            rows,
        ),
        Prose(total),
    ]


def correlation(data: ReportData) -> list[Block]:
    """ρ between the per-unit results of the bets on one round."""
    found = data.correlations
    size = len(found.labels)
    rows = tuple(
        (found.labels[i], *(f"{found.correlation(i, j):+.6f}" for j in range(size)))
        for i in range(size)
    )
    return [
        Heading("Correlation between the bets on one round", "correlation"),
        TableBlock("correlation", "", ("", *found.labels), rows),
        Prose(
            "ρ between one unit's result on each bet, from the exact covariance of the joint "
            f"distribution of one round: {CORRELATED.get(data.spec.id, CORRELATED['redgreen'])}.",
            "note",
        ),
    ]


def breakdowns(data: ReportData) -> list[Block]:
    """The lab's breakdowns of the game's outcomes."""
    if not data.breakdowns:
        return []
    blocks: list[Block] = [Heading("Breakdowns", "breakdowns")]
    for table in data.breakdowns:
        odds = {i for i, column in enumerate(table.columns) if column == "1 in"}
        texts = set(range(len(table.columns))) - odds
        for row in table.rows:
            texts -= {i for i, v in enumerate(row) if not isinstance(v, str)}
        blocks.append(
            TableBlock(
                f"breakdown-{table.name}",
                table.title[:1].upper() + table.title[1:],
                table.columns,
                tuple(
                    tuple(_odds(v) if i in odds else cell_text(v) for i, v in enumerate(row))
                    for row in table.rows
                ),
                note=table.note,
                left_columns=max(1, len(list(itertools.takewhile(texts.__contains__, range(9))))),
            )
        )
    return blocks


def _odds(value: object) -> str:
    """A "1 in N" cell: N to two places (grouped), or the word the table gives."""
    if isinstance(value, Fraction | int):
        return f"{float(value):,.2f}"
    return str(value)
