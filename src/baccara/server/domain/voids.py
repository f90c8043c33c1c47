"""Voids at the live tables, per dealer: the back office's watch on a dealer who voids the
rounds the house would lose.

A void refunds every bet, so a dealer who voids the hands that go against their
friends turns the house's edge into the players'. Each round that ended in the period
at a live table is put to its **dealer**: whoever called no more bets or dealt its
first card, or — a round no one dealt — whoever voided it. A dealer's **void share** is
the rounds they dealt that were voided by a person (not by the casino on a restart)
over all the rounds they dealt. A round no one bet on (a table closed before its first
bet) refunds nothing and is left out.

The flag: a dealer who dealt at least ``min_rounds`` rounds in the period, voided at
least :data:`MIN_VOIDS` of them, and whose share is more than :data:`FLAG_RATIO` times
the median share of the *other* dealers with at least ``min_rounds`` rounds is flagged.
The median of the others, not of all: with two dealers, one voiding half their rounds,
the median of both would hide them. A dealer with no peer to compare with is never
flagged, and the few voids that a misdeal now and then explains do not reach
:data:`MIN_VOIDS` when the others void none.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from baccara.server.db.models import Bet, CasinoTable, RoundEvent, User
from baccara.server.db.models import Round as RoundRow
from baccara.table.events import TABLE

FLAG_RATIO = 2
"""A flagged dealer's void share is more than this many times their peers' median."""
MIN_VOIDS = 3
"""Fewer voids than this in the period are never flagged."""
MIN_ROUNDS = 20
"""The default of how many rounds a dealer must have dealt to be compared at all."""
MAX_ROUNDS_LISTED = 1000
"""Voided rounds listed in one report, newest first; the rest are counted."""
KINDS = ("betting-closed", "card-dealt", "round-voided")


@dataclass
class VoidTally:
    rounds: int = 0
    voided: int = 0
    voided_stakes: int = 0

    def add(self, voided: bool, stakes: int) -> None:
        self.rounds += 1
        if voided:
            self.voided += 1
            self.voided_stakes += stakes

    @property
    def share(self) -> float:
        return self.voided / self.rounds if self.rounds else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "voided": self.voided,
                "voided_stakes_cents": self.voided_stakes,
                "void_share": round(self.share, 4)}  # fmt: skip


@dataclass
class DealerTally(VoidTally):
    tables: dict[int, VoidTally] = field(default_factory=lambda: defaultdict(VoidTally))


@dataclass(frozen=True)
class Handled:
    """One round as the report reads it: who dealt it, who voided it and why."""

    round_id: int
    table_id: int
    nonce: int
    ended_at: float
    dealer: str | None
    voided_by: str | None
    reason: str


def _rounds(session: Session, since: float, until: float) -> list[Handled]:
    """Every round that ended in [since, until) at a live table, from the staff's events."""
    rows = session.execute(
        select(RoundRow.id, RoundRow.table_id, RoundRow.nonce, RoundRow.ended_at,
               RoundEvent.kind, RoundEvent.data)
        .join(CasinoTable, CasinoTable.id == RoundRow.table_id)
        .join(RoundEvent, RoundEvent.round_id == RoundRow.id)
        .where(CasinoTable.mode == "live", RoundRow.state.in_(("settled", "voided")),
               RoundRow.ended_at >= since, RoundRow.ended_at < until,
               RoundEvent.kind.in_(KINDS))
        .order_by(RoundRow.id, RoundEvent.seq)
    ).all()  # fmt: skip
    found: dict[int, dict[str, Any]] = {}
    for round_id, table_id, nonce, ended_at, kind, data in rows:
        entry = found.setdefault(round_id, {"table_id": table_id, "nonce": nonce,
                                            "ended_at": ended_at, "dealer": None,
                                            "voided_by": None, "reason": ""})  # fmt: skip
        event = json.loads(data)
        by = event.get("by")
        if kind == "round-voided":
            if by != TABLE:
                entry["voided_by"] = by
                entry["reason"] = event.get("reason", "")
        elif by != TABLE and entry["dealer"] is None:
            entry["dealer"] = by
    return [
        Handled(round_id, e["table_id"], e["nonce"], e["ended_at"],
                e["dealer"] if e["dealer"] is not None else e["voided_by"], e["voided_by"],
                e["reason"])
        for round_id, e in found.items()
    ]  # fmt: skip


def _stakes(session: Session, round_ids: list[int]) -> dict[int, int]:
    """What was staked on each round (the bets a void refunded)."""
    stakes: dict[int, int] = {}
    for start in range(0, len(round_ids), 500):  # a bounded IN list
        chunk = round_ids[start : start + 500]
        rows = session.execute(
            select(Bet.round_id, func.sum(Bet.amount_cents))
            .where(Bet.round_id.in_(chunk), Bet.status == "placed")
            .group_by(Bet.round_id))  # fmt: skip
        stakes.update({round_id: int(total) for round_id, total in rows})
    return stakes


def flagged(share: float, voided: int, peers: list[float]) -> tuple[bool, float | None]:
    """Whether a dealer with this share and count is flagged against their peers' shares,
    and the peers' median (``None`` without peers).

    >>> flagged(0.25, 5, [0.0, 0.05])
    (True, 0.025)
    >>> flagged(0.04, 1, [0.0])
    (False, 0.0)
    """
    if not peers:
        return False, None
    median = statistics.median(peers)
    return voided >= MIN_VOIDS and share > FLAG_RATIO * median, median


def report(session: Session, since: float, until: float, min_rounds: int) -> dict[str, Any]:
    """Voids per dealer and per table at the live tables over [since, until), the voided
    rounds listed, and each dealer flagged or not (see the module)."""
    found = [r for r in _rounds(session, since, until) if r.dealer is not None]
    stakes = _stakes(session, [r.round_id for r in found])
    handled = [r for r in found if stakes.get(r.round_id)]  # nothing staked: nothing to void
    dealers: dict[str, DealerTally] = defaultdict(DealerTally)
    tables: dict[int, VoidTally] = defaultdict(VoidTally)
    for r in handled:
        assert r.dealer is not None
        was_voided, staked = r.voided_by is not None, stakes.get(r.round_id, 0)
        dealers[r.dealer].add(was_voided, staked)
        dealers[r.dealer].tables[r.table_id].add(was_voided, staked)
        tables[r.table_id].add(was_voided, staked)
    roles = {name: role for name, role in session.execute(
        select(User.username, User.role).where(User.username.in_(list(dealers))))}  # fmt: skip
    games = {tid: name for tid, name in session.execute(
        select(CasinoTable.id, CasinoTable.game).where(CasinoTable.id.in_(list(tables))))}  # fmt: skip
    compared = {name: t.share for name, t in dealers.items() if t.rounds >= min_rounds}
    rows = []
    for name, tally in sorted(dealers.items()):
        peers = [share for other, share in compared.items() if other != name]
        flag, median = (
            flagged(tally.share, tally.voided, peers) if name in compared else (False, None)
        )
        rows.append({
            "dealer": name,
            "role": roles.get(name, ""),
            **tally.to_dict(),
            "peer_median_share": None if median is None else round(median, 4),
            "flagged": flag,
            "tables": [{"table_id": tid, **t.to_dict()} for tid, t in sorted(tally.tables.items())],
        })  # fmt: skip
    listed = sorted((r for r in handled if r.voided_by is not None),
                    key=lambda r: (r.ended_at, r.round_id), reverse=True)  # fmt: skip
    return {
        "from": since,
        "to": until,
        "min_rounds": min_rounds,
        "min_voids": MIN_VOIDS,
        "flag_ratio": FLAG_RATIO,
        "dealers": rows,
        "tables": [
            {"table_id": tid, "game": games.get(tid, ""), **t.to_dict()}
            for tid, t in sorted(tables.items())
        ],
        "voided_rounds": [
            {
                "round_id": r.round_id,
                "table_id": r.table_id,
                "nonce": r.nonce,
                "ended_at": r.ended_at,
                "dealer": r.dealer,
                "voided_by": r.voided_by,
                "reason": r.reason,
                "stakes_cents": stakes.get(r.round_id, 0),
            }
            for r in listed[:MAX_ROUNDS_LISTED]
        ],
        "more_voided_rounds": max(0, len(listed) - MAX_ROUNDS_LISTED),
    }
