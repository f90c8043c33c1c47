"""Reality checks told as they fall due: a player at a table's page is sent the check the
moment it is owed, not only when their next bet is refused for it.

The play session itself is counted from bets, in the bet's transaction
(:func:`~baccara.server.domain.responsible.record_play`); an open connection neither
starts nor ends one. What this process keeps is only who is connected here, to know
whom to tell, and which checks it has told them, to tell each once.

It sleeps on the casino's clock until the earliest check it knows is due, and looks
again at least every :attr:`PlaySessions.REALITY_POLL` seconds of it (a bet placed in
another process may have started a session since), so on a test's clock a check is
told when the test moves the clock past it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from sqlalchemy import select

from baccara.server.clock import Clock
from baccara.server.cluster.hub import Hub
from baccara.server.db import store
from baccara.server.db.database import Database
from baccara.server.db.models import User
from baccara.server.domain import responsible
from baccara.server.domain.types import Caller

log = logging.getLogger("baccara.server")


class PlaySessions:
    """Who is connected here, and the reality checks they are owed."""

    def __init__(self, db: Database, hub: Hub, clock: Clock) -> None:
        self.db = db
        self.hub = hub
        self.clock = clock
        self.connected_users: dict[int, int] = {}
        """Each connected user's number of open table connections."""
        self._told: set[tuple[int, float]] = set()
        """The checks told, as (user, when it fell due), of the users connected."""
        self._wake = asyncio.Event()

    REALITY_POLL = 5.0
    """Seconds of the casino's clock between looks for a reality check that has fallen due."""

    async def connected(self, user: Caller) -> None:
        """A table connection opened: its player is told the checks they are owed."""
        self.connected_users[user.id] = self.connected_users.get(user.id, 0) + 1
        self._wake.set()

    async def disconnected(self, user: Caller) -> None:
        self.connected_users[user.id] = self.connected_users.get(user.id, 1) - 1
        if self.connected_users[user.id] <= 0:
            del self.connected_users[user.id]
            self._told = {told for told in self._told if told[0] != user.id}

    def continue_playing(self, user: Caller) -> None:
        """The player has seen the reality check and chooses to go on."""
        with self.db.write() as session:
            responsible.continue_playing(session, user.id, self.clock.now())

    async def reality_checks(self) -> None:
        """Tell each connected player when their reality check falls due (once per check)."""
        while True:
            self._wake.clear()
            upcoming: float | None = None
            try:
                due, upcoming = await asyncio.to_thread(self._due_checks)
            except Exception:
                log.exception("reality checks failed")
                due = {}
            for user_id, message in due.items():
                self.hub.to_users(None, {user_id: message})
            now = self.clock.now()
            until = now + self.REALITY_POLL
            if upcoming is not None:
                until = min(until, upcoming)
            with contextlib.suppress(TimeoutError):
                async with self.clock.timeout_at(until):
                    await self._wake.wait()

    def _due_checks(self) -> tuple[dict[int, dict[str, Any]], float | None]:
        """The messages for the checks now due and not yet told, and when the next one
        known falls due."""
        messages: dict[int, dict[str, Any]] = {}
        upcoming: float | None = None
        now = self.clock.now()
        connected = list(self.connected_users)
        if not connected:
            return messages, upcoming
        with self.db.read() as session:
            # One read finds who asked for reality checks; only they are looked at further
            # (a look must not cost a query per connected player while bets wait for the GIL).
            asked = session.scalars(
                select(User).where(User.id.in_(connected), User.reality_check_minutes.is_not(None))
            ).all()
            for user in asked:
                user_id = user.id
                due = responsible.next_reality_check(session, user, now)
                if due is None or (user_id, due) in self._told:
                    continue
                if due > now:
                    upcoming = due if upcoming is None else min(upcoming, due)
                    continue
                self._told.add((user_id, due))
                playing = responsible.open_session(session, user_id, now)
                assert playing is not None
                wallet = store.wallet(session, user_id)
                messages[user_id] = {
                    "type": "reality-check",
                    "minutes": round((now - playing.started_at) / 60, 1),
                    "net_cents": -responsible.net_loss(session, wallet.id, playing.started_at),
                    "continue": "POST /api/me/reality-check/continue",
                }
        return messages, upcoming
