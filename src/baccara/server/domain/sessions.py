"""Play sessions and reality checks: a player's session runs from their first table
connection to their last, and a player who asked for reality checks is told, once per
check, when one falls due (``responsible.py`` decides when)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import select

from baccara.server.cluster.hub import Hub
from baccara.server.db import store
from baccara.server.db.database import Database
from baccara.server.db.models import PlaySession, User
from baccara.server.domain import responsible
from baccara.server.domain.types import Caller

log = logging.getLogger("baccara.server")


class PlaySessions:
    """Who is connected, their play sessions, and the reality checks they are owed."""

    def __init__(self, db: Database, hub: Hub, clock: Callable[[], float]) -> None:
        self.db = db
        self.hub = hub
        self.clock = clock
        self.connected_users: dict[int, int] = {}
        """Each connected user's number of open table connections."""
        self._reminded: set[tuple[int, float]] = set()

    REALITY_POLL = 5.0
    """Seconds between looks for a reality check that has fallen due."""

    def close_stale(self) -> None:
        """Sessions left open by a previous run end now: nobody is connected yet."""
        with self.db.write() as session:
            for row in session.scalars(select(PlaySession).where(PlaySession.ended_at.is_(None))):
                row.ended_at = self.clock()

    async def connected(self, user: Caller) -> None:
        """A table connection opened: the first one starts a play session."""
        self.connected_users[user.id] = self.connected_users.get(user.id, 0) + 1
        if self.connected_users[user.id] == 1:
            await asyncio.to_thread(self._open_session, user.id)

    async def disconnected(self, user: Caller) -> None:
        self.connected_users[user.id] = self.connected_users.get(user.id, 1) - 1
        if self.connected_users[user.id] <= 0:
            del self.connected_users[user.id]
            await asyncio.to_thread(self._end_session, user.id)

    def _open_session(self, user_id: int) -> None:
        with self.db.write() as session:
            if responsible.open_session(session, user_id) is None:
                now = self.clock()
                session.add(PlaySession(user_id=user_id, started_at=now, acknowledged_at=now))

    def _end_session(self, user_id: int) -> None:
        with self.db.write() as session:
            playing = responsible.open_session(session, user_id)
            if playing is not None:
                playing.ended_at = self.clock()

    def continue_playing(self, user: Caller) -> None:
        """The player has seen the reality check and chooses to go on."""
        with self.db.write() as session:
            playing = responsible.open_session(session, user.id)
            if playing is not None:
                playing.acknowledged_at = self.clock()

    async def reality_checks(self) -> None:
        """Tell each connected player when their reality check falls due (once per check)."""
        while True:
            await asyncio.sleep(self.REALITY_POLL)
            try:
                due = await asyncio.to_thread(self._due_checks)
            except Exception:
                log.exception("reality checks failed")
                continue
            for user_id, message in due.items():
                self.hub.to_users(None, {user_id: message})

    def _due_checks(self) -> dict[int, dict[str, Any]]:
        messages: dict[int, dict[str, Any]] = {}
        now = self.clock()
        connected = list(self.connected_users)
        if not connected:
            return messages
        with self.db.read() as session:
            # One read finds who asked for reality checks; only they are looked at further
            # (a poll must not cost a query per connected player while bets wait for the GIL).
            asked = session.scalars(
                select(User).where(User.id.in_(connected), User.reality_check_minutes.is_not(None))
            ).all()
            for user in asked:
                user_id = user.id
                due = responsible.reality_check_due(session, user, now)
                if due is None or (user_id, due) in self._reminded:
                    continue
                self._reminded.add((user_id, due))
                playing = responsible.open_session(session, user_id)
                assert playing is not None
                wallet = store.wallet(session, user_id)
                messages[user_id] = {
                    "type": "reality-check",
                    "minutes": round((now - playing.started_at) / 60, 1),
                    "net_cents": -responsible.net_loss(session, wallet.id, playing.started_at),
                    "continue": "POST /api/me/reality-check/continue",
                }
        return messages
