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
import math
from collections.abc import Callable
from fractions import Fraction
from importlib.metadata import version
from typing import TYPE_CHECKING

from baccara.exact.stakes import won_at_stake
from baccara.exact.volatility import Interval, Lattice, volatility_index
from baccara.money import format_cents, money_text
from baccara.options import decimal_text, fraction_text, plural
from baccara.render.analysis import cell_text, pays_text
from baccara.render.document import Block, Heading, Prose, TableBlock

if TYPE_CHECKING:
    from baccara.render.report_data import ReportData

BLANK = "________________________________"
"""A field the approving laboratory fills in by hand."""

APPROVAL = (
    ("Approving laboratory", BLANK),
    ("Jurisdiction", BLANK),
    ("Approved by, and date", BLANK),
)
"""The rows of document control the laboratory fills in, on every sheet."""


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


def player_edge(variant: str, bet: str, edge: Fraction) -> str:
    """A variant under which a bet favours the player, said outright: a regulator reads a
    negative edge as a game the house cannot deal. The full sheet and the comparison
    sheet both say it so."""
    return f"Under {variant}, {bet} gives the player the edge: the house edge is {float(edge):.4%}."


def true_odds(probability: Fraction) -> str:
    """``9.51 to 1``: the odds against an outcome, as a pay is written ("—" if certain or
    impossible)."""
    if probability <= 0 or probability >= 1:
        return "—"
    against = (1 - probability) / probability
    return f"{float(against):,.2f} to 1"


def _percent(value: Fraction | float, places: int = 4) -> str:
    return f"{float(value):.{places}%}"


def nearest_cent(value: Fraction) -> int:
    """Exact cents to the nearest whole cent, halves away from zero: for display only
    (a theoretical win is a fraction of a cent; money paid is rounded down)."""
    whole = int(abs(value) + Fraction(1, 2))
    return whole if value >= 0 else -whole


def _cents(value: Fraction) -> str:
    return money_text(nearest_cent(value))


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
        *APPROVAL,
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


REGULATIONS: tuple[tuple[str, str, str], ...] = (
    ("Nevada Gaming Regulation 14.230",
     "statistical evaluation of the theoretical percentages",
     "Every bet at a glance; The outcomes of every bet; How these figures were made"),
    ("Maryland COMAR 36.05.03.20",
     "true odds, payout odds and house advantage of each wager",
     "The outcomes of every bet (Pays, True odds); Every bet at a glance (house edge)"),
    ("Maryland COMAR 36.05.03.25",
     "win-to-drop outside a 95 % confidence interval investigated",
     "A table's week (win to drop at 90, 95 and 99 %)"),
    ("Volatility", "volatility index; confidence intervals after 10² to 10⁶ hands",
     "Volatility"),
    ("Operations", "hands an hour, average bet, theoretical win, hold against drop",
     "Operations; Assumptions"),
    ("Cent rounding", "the edge at the table's stakes as paid", "The edge at real stakes"),
    ("Liability", "the most one round pays at the maximum bets", "Liability"),
)  # fmt: skip
"""What a laboratory's submission asks, and where this sheet answers it."""


def compliance(data: ReportData) -> list[Block]:
    """Where each requirement of a laboratory's submission is answered in this sheet."""
    return [
        Heading("What this sheet answers", "compliance"),
        TableBlock(
            "compliance",
            "",
            ("Requirement", "Asks for", "Answered in"),
            REGULATIONS,
            left_columns=3,
        ),
        Prose(
            "The jurisdiction's own text governs; this table only points to where each "
            "figure is. The laboratory's and the jurisdiction's fields are in Document "
            "control.",
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
    mix = ", ".join(dict.fromkeys(data.bet_name(spot) for _seat, spot, _stake in data.week.wagers))
    rows += [
        (
            "A week's bets",
            f"one bet a seat, {mix} in turn",
            "assumption: the bets players favour at this game, one a seat "
            "(baccara's default for this game)",
        ),
        (
            "Liability",
            "every seat at the maximum on every spot",
            "assumption: side bets at the main bets' maximum; tables often cap them lower",
        ),
    ]
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
                data.bet_name(bet.bet),
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
            Heading(
                f"{data.bet_name(bet.bet)}: the player's result after N hands",
                f"volatility-{bet.bet}",
                3,
            ),
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
    if interval.method == "bernstein":
        return "certain (Bernstein)"
    return f"{interval.method} (error ≤ {interval.error:.1e})"


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
    mix = ", ".join(dict.fromkeys(data.bet_name(spot) for _seat, spot, _stake in found.wagers))
    handle = rounds * sum(stake for _seat, _spot, stake in found.wagers)
    drop = handle * plan.drop_to_handle
    rows = tuple(
        (
            f"{float(i.level):.0%}",
            _cents(i.house_low),
            _cents(i.house_high),
            _percent(i.house_low / handle, 3),
            _percent(i.house_high / handle, 3),
            _percent(i.house_low / drop, 2),
            _percent(i.house_high / drop, 2),
            _method(i),
        )
        for pair in itertools.zip_longest(found.intervals, found.certain)  # level by level
        for i in pair
        if i is not None
    )
    normal = [i for i in found.intervals if i.method != "exact"]
    notes = [
        "Win to drop: the win over the drop, the drop "
        f"{share_text(plan.drop_to_handle)} of the handle (an assumption): the confidence "
        "interval a table's actual win-to-drop is held to (COMAR 36.05.03.25).",
    ]
    if normal:
        worst = max(i.error for i in normal)
        tails = min((1 - i.level) / 2 for i in normal)
        verdict = (
            "the normal rows' tails are not certified to the level: read them as the "
            "normal approximation's, and hold a week's win-to-drop to the certain rows"
            if worst >= tails
            else "each normal row's tail is within that of the level"
        )
        notes.append(
            "Normal: this game's joint model gives one round's exact mean and variance, "
            "not its whole distribution; the error shown is the Berry–Esseen bound on the "
            f"distribution function, from the most one round can move. At {worst:.1e} "
            f"{verdict}."
        )
    if found.certain:
        notes.append(
            "Certain (Bernstein): from the same mean, standard deviation and bound, "
            "Bernstein's inequality puts at most the level's tail outside each end, so the "
            "interval holds the week's result at least that often, whatever the round's "
            "distribution — a guaranteed bound, wider than the true interval, never narrower."
        )
    if not normal:
        notes.append(
            "Exact: the joint distribution of one round's results, convolved over the week; "
            "the error shown bounds how far the computed distribution can be from the true one."
        )
    return [
        Heading("A table's week", "week"),
        Prose(
            f"{plural(plan.seats, 'seat')} each bet {money_text(plan.average_bet_cents)} a "
            f"round ({mix}, seat by seat in turn: an assumption) for {rounds:,} rounds: "
            f"{plan.week_hours} hours at {plan.hands_per_hour} rounds an hour; the house "
            f"expects to win {_cents(found.mean_cents * rounds)} of {money_text(handle)} "
            f"wagered. Bets on one round move together "
            f"({TOGETHER.get(data.spec.id, TOGETHER['redgreen'])}), so each round is one draw "
            "from the joint distribution of all its bets, each paid as the table pays it, "
            f"rounded down to the cent. One round: the house's mean {_cents(found.mean_cents)}, "
            f"standard deviation {_cents(Fraction(math.sqrt(found.variance_cents)))}"
            + (
                f", and a round moves it by at most {_cents(found.bound_cents)} either way."
                if found.bound_cents is not None
                else "."
            )
        ),
        TableBlock(
            "week",
            f"The house's win over {rounds:,} rounds",
            (
                "Level",
                "Low",
                "High",
                "Low, of handle",
                "High, of handle",
                "Low, of drop",
                "High, of drop",
                "Method",
            ),
            rows,
        ),
        *(Prose(note, "note") for note in notes),
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
            data.bet_name(f.bet),
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
            data.bet_name(f.bet),
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
            "The table pays each winning bet rounded down to the cent"
            f"{_rounding_example(data)}, so at some stakes the house keeps a little more "
            "than the exact edge. At multiples of a bet's step every payout is whole cents "
            "and the edge is the exact one."
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


def _rounding_example(data: ReportData) -> str:
    """`` (0.95 to 1 on 1.01 pays 0.95, not 0.9595)``: the rounding at this game's first
    bet that rounds, or nothing if every payout is whole cents at every stake."""
    for bet in data.analysis.bets:
        for outcome in bet.outcomes:
            if outcome.pays > 0 and outcome.pays.denominator > 1:
                stake = data.floor.min_bet_cents + 1
                exact = stake * outcome.pays / 100
                return (
                    f" ({pays_text(outcome.pays)} on {format_cents(stake)} pays "
                    f"{format_cents(won_at_stake(stake, outcome.pays))}, not "
                    f"{float(exact):.4f})"
                )
    return ""


def liability(data: ReportData) -> list[Block]:
    """The most one round pays at the table's maximum, by bet and in total."""
    found = data.liability
    rows = tuple(
        (
            data.bet_name(b.bet),
            pays_text(b.top_pays),
            money_text(b.per_seat_cents),
            str(b.seats_paid),
            money_text(b.total_cents),
            decimal_text(b.probability, 10),
            one_in(b.probability),
        )
        for b in found.bets
    )
    if found.shared:
        total = (
            f"The worst round pays {money_text(found.total_cents)}: every seat's bets on "
            f"{_together(found.winners, data.bet_name)} at the maximum, all winning at once — "
            "probability "
            f"{_chance(found.probability)}, {one_in(found.probability)} rounds."
        )
    else:
        total = _own_hands_worst(data)
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


def _chance(probability: Fraction) -> str:
    """A round's probability: twelve decimals, or five significant digits
    (``2.9876e-12``) below one in a million, where twelve decimals show six or fewer."""
    if 0 < probability < Fraction(1, 10**6):
        return f"{float(probability):.4e}"
    return decimal_text(probability, 12)


def _own_hands_worst(data: ReportData) -> str:
    """Lo-Ball's worst round in words: which payouts come together, and how often."""
    found = data.liability
    main = next(b for b in found.bets if b.bet == "main")
    parts = {
        "main": f"every seat's main wager at its best pay, the {' or '.join(main.best)}",
        "lo-card": "the Lo-Card of the seat holding 1-1",
        "hi-card": "the Hi-Card of the seat holding 7-7",
    }
    named = [parts[spot] for spot in found.winners[0] if spot in parts]
    sides = [data.bet_name(w[-1]) for w in found.winners if w and w[-1] not in parts]
    if sides:
        named.append(f"every seat on the side of the dice that wins ({' or '.join(sides)})")
    together = "; ".join(named)
    paid = money_text(found.total_cents)
    if not found.exact:
        return (
            f"The worst round pays {paid}: {together}. Its probability is not counted: with "
            "a plain win paying as much as the best, every hand below the dealer's makes it, "
            "too many deals to list. It is "
            f"at most {_chance(found.probability)} ({one_in(found.probability)}), that of one "
            "seat's best main outcome and the dice, which it needs."
        )
    if found.probability == 0:
        return (
            f"No round pays {paid}, every spot's most at once ({together}): no deal makes "
            "these payouts together, every deal counted. The total bounds the worst round "
            "from above."
        )
    return (
        f"The worst round pays {paid}: {together}. Probability "
        f"{_chance(found.probability)}, {one_in(found.probability)} rounds: every deal of "
        "the tiles that makes it counted, times the dice's chance."
    )


def _together(winners: tuple[tuple[str, ...], ...], name: Callable[[str], str]) -> str:
    """``Bonus and the winning side (Red or Green)``: the spots every worst round shares,
    then the choices, each by ``name``."""
    shared = [name(spot) for spot in winners[0] if all(spot in w for w in winners)]
    choices = [" and ".join(name(s) for s in w if name(s) not in shared) for w in winners]
    choices = [c for c in choices if c]
    if not choices:
        return " and ".join(shared)
    either = " or ".join(choices)
    return " and ".join(shared) + f" and the winning side ({either})" if shared else either


def correlation(data: ReportData) -> list[Block]:
    """ρ between the per-unit results of the bets on one round."""
    found = data.correlations
    size = len(found.labels)
    labels = [_wager_label(label, data.bet_name) for label in found.labels]
    rows = tuple(
        (labels[i], *(f"{found.correlation(i, j):+.6f}" for j in range(size))) for i in range(size)
    )
    return [
        Heading("Correlation between the bets on one round", "correlation"),
        TableBlock("correlation", "", ("", *labels), rows),
        Prose(
            "ρ between one unit's result on each bet, from the exact covariance of the joint "
            f"distribution of one round: {CORRELATED.get(data.spec.id, CORRELATED['redgreen'])}.",
            "note",
        ),
    ]


def _wager_label(label: str, name: Callable[[str], str]) -> str:
    """``seat 1 Main``: a wager's label with its bet (the last word, an id) by ``name``."""
    seat, _, bet = label.rpartition(" ")
    return f"{seat} {name(bet)}" if seat else name(bet)


def breakdowns(data: ReportData) -> list[Block]:
    """The lab's breakdowns of the game's outcomes."""
    shown = {t.name for t in data.analysis.tables if t.on_screen}
    tables = [t for t in data.breakdowns if t.name not in shown]
    if not data.breakdowns:
        return []
    blocks: list[Block] = [Heading("Breakdowns", "breakdowns")]
    if len(tables) < len(data.breakdowns):
        blocks.append(
            Prose(
                "The points of one hand and the player's points against the dealer's are in "
                "Points and the dealer against the player."
            )
        )
    for table in tables:
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
                left_columns=max(
                    1, len(list(itertools.takewhile(texts.__contains__, range(len(table.columns)))))
                ),
            )
        )
    return blocks


def _odds(value: object) -> str:
    """A "1 in N" cell: N to two places (grouped), or the word the table gives."""
    if isinstance(value, Fraction | int):
        return f"{float(value):,.2f}"
    return str(value)
