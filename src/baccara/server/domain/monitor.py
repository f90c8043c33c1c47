"""What the casino reports as it runs: round by round to the log, and to the metrics.

The hub hands :class:`RoundWatch` each table's new events once they are committed
(:attr:`~baccara.server.cluster.hub.Hub.listeners`), before any socket gets them, so
what is logged and counted is what the database holds — a bet rolled back is never
counted as placed — and a bet placed through the bet lane counts exactly as one placed
through the route: both are a ``bet-placed`` event in the round's log. From those
events come a round's transitions from one state to the next, its settlement (how many
bets, how much staked and paid) and its void (with the reason).

Only what every player may already see is logged: a state, counts and sums in cents,
a void's reason. No card, no hand and no seed is ever written, so nothing of a round
in play leaks through the log. Events of tables dealt by another process (which this
one follows to keep its sockets up to date) are that process's to report.

:func:`install` wires it, the database's errors and the gauges read at each scrape.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlalchemy import event

from baccara.server.cluster.hub import Segment
from baccara.server.observe.logs import get_logger
from baccara.server.observe.metrics import Gauges, Metrics
from baccara.table import Phase
from baccara.table.events import BetPlaced, RoundSettled, RoundVoided

if TYPE_CHECKING:
    from sqlalchemy.engine import ExceptionContext

    from baccara.server.domain.casino import Casino
    from baccara.server.domain.types import Live

log = get_logger()


class RoundWatch:
    """Logs and counts the committed events of the tables this process deals."""

    def __init__(self, casino: Casino, metrics: Metrics) -> None:
        self.casino = casino
        self.metrics = metrics
        self._state: dict[int, tuple[int, Phase]] = {}
        """Each table's round and the state it was last seen in."""

    def __call__(self, table_id: int, segments: Sequence[Segment]) -> None:
        live = self.casino.tables.get(table_id)
        if live is None:  # another process deals it; this one only follows it
            return
        for segment in segments:
            self._saw(live, segment)

    def _saw(self, live: Live, segment: Segment) -> None:
        table_id, round_id, round_ = live.table_id, segment.round_id, segment.round_
        game = live.table.spec.id
        for item in round_.events[segment.since :]:
            if isinstance(item, BetPlaced):
                self.metrics.bets_placed.labels(str(table_id), game).inc()
            elif isinstance(item, RoundSettled):
                staked = sum(p.stake for p in item.payouts)
                paid = sum(p.returned for p in item.payouts)
                self.metrics.settlement_seconds.observe(max(0.0, self.casino.clock() - item.at))
                log.info("round settled", table=table_id, round=round_id, game=game,
                         bets=len(item.payouts), staked_cents=staked, paid_cents=paid)  # fmt: skip
            elif isinstance(item, RoundVoided):
                log.info("round voided", table=table_id, round=round_id, game=game,
                         reason=item.reason, by=item.by, bets=len(item.payouts),
                         refunded_cents=sum(p.returned for p in item.payouts))  # fmt: skip
        seen = self._state.get(table_id)
        before = seen[1] if seen is not None and seen[0] == round_id else None
        now = round_.phase  # (from None: a new round, or one resumed when this process started)
        if before is not now:
            self._state[table_id] = (round_id, now)
            log.info("round state", table=table_id, round=round_id, game=game,
                     from_state=before.value if before else None, to_state=now.value)  # fmt: skip


def rounds_by_state(casino: Casino) -> dict[str, int]:
    """How many rounds are in each state at the tables this process deals."""
    counts = dict.fromkeys((phase.value for phase in Phase), 0)
    for live in list(casino.tables.values()):
        round_ = live.table.round
        if round_ is not None:
            counts[round_.phase.value] += 1
    return counts


def install(casino: Casino, metrics: Metrics) -> None:
    """Report ``casino``'s rounds, its database's errors and its gauges to ``metrics``
    and the log."""
    casino.hub.listeners.append(RoundWatch(casino, metrics))

    def database_error(context: ExceptionContext) -> None:
        error = context.original_exception
        kind = type(error).__name__
        metrics.database_errors.labels(kind).inc()
        if context.is_disconnect:
            log.warning("database connection lost", kind=kind)

    event.listen(casino.db.engine, "handle_error", database_error)
    metrics.watch(Gauges(
        rounds=lambda: rounds_by_state(casino),
        sockets=lambda: sum(len(c) for c in list(casino.hub.connections.values())),
        tables_held=lambda: len(casino.tables),
    ))  # fmt: skip
