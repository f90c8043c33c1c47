"""A mirror: a table another process deals, followed from its log.

A process whose WebSockets watch a table it does not deal keeps a read-only copy of
the table's round in play, loaded from the database on first use. When the holder
notifies new events (:mod:`baccara.server.cluster.notify`), the mirror reads them from
the database and hands them to the hub as segments, so each connection here gets its
own view of them exactly as it would from the holder. A mirror never writes: only the
process holding the table's lease deals it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from sqlalchemy import select

from baccara.server.cluster.hub import Segment
from baccara.server.db import store
from baccara.server.db.database import Database
from baccara.server.db.models import CasinoTable
from baccara.server.db.models import Round as RoundRow
from baccara.table import Round


@dataclass
class Mirror:
    """A table another process deals, followed from its log for this process's WebSockets."""

    table_id: int
    live_mode: bool
    round_id: int | None = None
    round: Round | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    notified: list[list[int]] = field(default_factory=list)
    """Segments ``[round_id, since]`` notified and not yet read."""
    reader: asyncio.Task[None] | None = None
    """The task reading them, while there are any."""

    @classmethod
    def load(cls, db: Database, table_id: int) -> Mirror | None:
        """A table dealt elsewhere, as its log stands now (``None`` if it is not open)."""
        with db.read() as session:
            row = session.get(CasinoTable, table_id)
            if row is None or row.status != "open":
                return None
            last = session.scalars(select(RoundRow).where(RoundRow.table_id == table_id)
                                   .order_by(RoundRow.nonce.desc()).limit(1)).first()  # fmt: skip
            mirror = cls(table_id, row.mode == "live")
            if last is not None:
                mirror.round_id = last.id
                mirror.round = Round.read(store.load_events(session, last.id))
            return mirror

    def follow(self, db: Database, segments: list[list[int]]) -> list[Segment]:
        """Read the new events the notified segments name into the mirror (each round
        once, from where the mirror stands).

        A notification can be missed (its process died between a commit and the next
        notification it sent): the round the mirror holds is read to its end before a
        newer one, and a newer round is sent whole, so its sockets miss nothing of either.
        """
        rounds = {round_id for round_id, _ in segments}
        if (
            self.round is not None
            and self.round_id is not None
            and max(rounds, default=0) > self.round_id
        ):
            rounds.add(self.round_id)
        out: list[Segment] = []
        with db.read() as session:
            for round_id in sorted(rounds):
                if self.round_id == round_id and self.round is not None:
                    held = self.round.follow(
                        store.load_events(session, round_id, since=len(self.round.events))
                    )
                    out.append(Segment(self.round, round_id, held))
                elif self.round_id is None or round_id > self.round_id:
                    self.round = Round.read(store.load_events(session, round_id))
                    self.round_id = round_id
                    out.append(Segment(self.round, round_id, 0))
        return out
