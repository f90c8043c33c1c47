"""The operator's view: what each table won against what the mathematics says it should.

For every round settled in the period, per table and per game: the handle (total
staked), the actual win (stakes − payouts), the **theoretical win** (Σ stake × the exact
house edge of that bet at that stake under that table's rules, as the stake is paid:
``baccara.exact.stakes``), and the standard deviation of the win — per round from the
exact joint distribution of the round's outcomes, each wager paid as it is settled
(``baccara.exact.joint``, ``as_paid``), then summed over rounds as variances. How many
standard deviations the actual win lies from the theoretical is ``z``; a table beyond
±3 σ is flagged: the first sign of a faulty shoe, a cheating dealer or a bug.

As paid: a payout is rounded down to the cent, so a 1-cent Banker win pays nothing and
the Banker's edge on one cent is the chance of losing, 44.62 %, not 1.06 %. A table
taking such stakes wins that much more, and the report expects it to.

Rounding of the report: the theoretical win and the standard deviation are computed
exactly (as fractions) and rounded to the nearest cent only when reported (half away
from zero).
"""

from __future__ import annotations

import functools
import json
import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from baccara.games import game
from baccara.server.db.models import Bet, CasinoTable, Payout
from baccara.server.db.models import Round as RoundRow

if TYPE_CHECKING:
    from baccara.exact.model import Analysis

FLAG_SIGMAS = 3


@functools.lru_cache(maxsize=64)
def _analysis(game_id: str, options: str) -> Analysis:
    from baccara.exact import analyze

    return analyze(game_id, **json.loads(options))


@functools.lru_cache(maxsize=4096)
def expected_win(game_id: str, options: str, spot: str, stake: int) -> Fraction:
    """The house's expected win, in cents, on ``stake`` cents on ``spot`` as it is paid."""
    from baccara.exact.stakes import bet_at_stake

    return -bet_at_stake(_analysis(game_id, options).bet(spot), stake).expected_cents


@functools.lru_cache(maxsize=64)
def _rules(game_id: str, options: str) -> Any:
    return game(game_id).rules_from_options(**json.loads(options))


def cents(value: Fraction | float) -> int:
    """Nearest cent, halves away from zero (the report's one rounding rule)."""
    value = Fraction(value)
    rounded = math.floor(abs(value) + Fraction(1, 2))
    return rounded if value >= 0 else -rounded


@dataclass
class Tally:
    rounds: int = 0
    handle: int = 0
    actual: int = 0
    theoretical: Fraction = field(default_factory=Fraction)
    variance: Fraction = field(default_factory=Fraction)

    def add(self, other: Tally) -> None:
        self.rounds += other.rounds
        self.handle += other.handle
        self.actual += other.actual
        self.theoretical += other.theoretical
        self.variance += other.variance

    def to_dict(self) -> dict[str, Any]:
        sd = math.sqrt(self.variance)
        z = (self.actual - float(self.theoretical)) / sd if sd > 0 else 0.0
        return {
            "rounds": self.rounds,
            "handle_cents": self.handle,
            "actual_win_cents": self.actual,
            "theoretical_win_cents": cents(self.theoretical),
            "theoretical_win_exact": f"{self.theoretical.numerator}/{self.theoretical.denominator}",
            "sd_cents": cents(sd),
            "z": round(z, 4),
            "hold_pct": round(100 * self.actual / self.handle, 4) if self.handle else None,
            "flagged": abs(z) > FLAG_SIGMAS,
        }


def round_tally(
    game_id: str, options: str, wagers: Iterable[tuple[int | None, str, int, int]]
) -> Tally:
    """One round: (seat, spot, stake, returned) of every bet on it."""
    from baccara.exact.joint import house_win_variance

    bets = list(wagers)
    stakes = sum(stake for _, _, stake, _ in bets)
    returned = sum(back for *_, back in bets)
    return Tally(
        rounds=1,
        handle=stakes,
        actual=stakes - returned,
        theoretical=sum((expected_win(game_id, options, spot, stake)
                         for _, spot, stake, _ in bets), Fraction(0)),
        variance=house_win_variance(game_id, _rules(game_id, options),
                                    [(seat, spot, stake) for seat, spot, stake, _ in bets],
                                    as_paid=True),
    )  # fmt: skip


def report(session: Session, since: float, until: float) -> dict[str, Any]:
    """Every table and every game over the settled rounds that ended in [since, until)."""
    tables = {row.id: row for row in session.scalars(select(CasinoTable))}
    rows = session.execute(
        select(RoundRow.id, RoundRow.table_id, Bet.seat, Bet.spot, Bet.amount_cents,
               Payout.returned_cents)
        .join(Bet, Bet.round_id == RoundRow.id)
        .join(Payout, Payout.bet_id == Bet.id)
        .where(RoundRow.state == "settled", RoundRow.ended_at >= since,
               RoundRow.ended_at < until, Bet.status == "placed")
        .order_by(RoundRow.id)
    ).all()  # fmt: skip
    by_round: dict[int, list[tuple[int | None, str, int, int]]] = defaultdict(list)
    table_of: dict[int, int] = {}
    for round_id, table_id, seat, spot, stake, back in rows:
        by_round[round_id].append((seat, spot, stake, back))
        table_of[round_id] = table_id
    per_table: dict[int, Tally] = defaultdict(Tally)
    per_game: dict[str, Tally] = defaultdict(Tally)
    for round_id, wagers in by_round.items():
        table = tables[table_of[round_id]]
        tally = round_tally(table.game, table.options, wagers)
        per_table[table.id].add(tally)
        per_game[table.game].add(tally)
    casino = Tally()
    for tally in per_game.values():
        casino.add(tally)
    return {
        "from": since,
        "to": until,
        "flag_sigmas": FLAG_SIGMAS,
        "tables": [
            {
                "table_id": tid,
                "game": tables[tid].game,
                "mode": tables[tid].mode,
                "options": json.loads(tables[tid].options),
                **tally.to_dict(),
            }
            for tid, tally in sorted(per_table.items())
        ],
        "games": [{"game": g, **t.to_dict()} for g, t in sorted(per_game.items())],
        "casino": casino.to_dict(),
    }
