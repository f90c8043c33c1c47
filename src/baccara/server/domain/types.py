"""The values the casino's parts pass each other: the signed-in caller, an open table
this process deals, and what a transaction sends once it has committed."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from baccara.server.cluster.hub import Segment
from baccara.table import Mode, Round, Table


@dataclass
class Live:
    """One open table this process deals: its engine, its lock, the database id of the
    round in play, and the generation of the table's lease (the fencing token)."""

    table_id: int
    table: Table
    generation: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    round_id: int | None = None
    closed: bool = False
    moved: bool = False
    """Closed because another process deals it now (not because the table was closed)."""
    give_back: bool = False
    """nginx routes the table to another live process: at the end of the round in play
    its lease is released instead of the next round opened, for that process to deal."""
    outbox: Outbox | None = None
    """What the transaction running on the table sends once it commits, while it runs
    (the runner sets it): a bet puts the player's new balance in it."""

    @property
    def round(self) -> Round | None:
        return self.table.round

    @property
    def live_mode(self) -> bool:
        return self.table.config.mode is Mode.LIVE

    def fingerprint(self) -> tuple[object, int, tuple[tuple[int, str], ...], int | None]:
        """What an action may change in memory: to tell whether a failed one did."""
        round_ = self.table.round
        events = len(round_.events) if round_ is not None else 0
        return (round_, events, tuple(sorted(self.table.seats.items())), self.round_id)

    def deadline(self) -> float | None:
        """When the table next has something to do by itself: a timer of the round in play
        or, while it waits for its first bet, the end of a betting window its seated
        players sit out (``Table.seat_deadline``), whichever comes first."""
        round_ = self.table.round
        if round_ is None or round_.phase.over:
            return None
        dues = [d for d in (round_.deadline(), self.table.seat_deadline()) if d is not None]
        return min(dues) if dues else None


@dataclass
class Outbox:
    """What to send once a transaction has committed."""

    segments: list[Segment] = field(default_factory=list)
    balances: dict[int, int] = field(default_factory=dict)
    notes: list[dict[str, Any]] = field(default_factory=list)
    """Messages for everyone watching the table (its seats after a stand-up)."""
    handed_over: bool = False
    """The table's lease was released at the end of its round (:attr:`Live.give_back`)."""


@dataclass(frozen=True)
class Caller:
    """The signed-in user, as every route sees them."""

    id: int
    username: str
    role: str
