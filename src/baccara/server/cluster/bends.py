"""The squeeze as the table watches it: the squeezer's bending of a card, relayed live.

The squeezer's page sends on its table socket ``{"type":"bend","position":"player.0",
"corner":"br","lift":420}`` as the card is peeled (a corner of ``tl tr bl br t b l r``,
``lift`` 0 to 1000); everyone else at the table — in every process, over the bus — gets
``{"type":"bend","table_id":…,"round_id":…,"position":…,"corner":…,"lift":…}``: how far
which card is bent, never its face, which reaches the others only by its
``card-exposed``. A bend is not money and not the round's: it is not logged, and one
lost changes nothing (the log records who squeezed what, and how the squeeze ended).

Only the squeezer of the squeeze in play bends, and only a card of it still face down;
anything else — another player, a watcher, a card turned already, a malformed message —
changes nothing and is answered on that socket with ``{"type":"refused","code":
"not_squeezing" | "bad_bend","detail":…}``, at most :data:`REFUSALS_PER_SECOND`. A squeezer
is relayed at most :data:`BENDS_PER_SECOND` at a table, however many sockets they bend on
there (each socket alone would multiply it): a bend that comes sooner waits for its turn,
and a newer one takes its place (the card is where the last bend says).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from baccara.server.observe.logs import get_logger
from baccara.table import Round

if TYPE_CHECKING:
    from baccara.server.cluster.hub import Connection, Hub

log = get_logger()

CORNERS = frozenset({"tl", "tr", "bl", "br", "t", "b", "l", "r"})
"""Where the card is lifted from: a corner, or the middle of an edge."""
MAX_LIFT = 1000
"""A card peeled all the way (``lift`` runs 0 to it)."""
BENDS_PER_SECOND = 20
"""Bends one squeezer has relayed in a second, at most (a page sends about 15)."""
REFUSALS_PER_SECOND = 1
"""Refusals one socket is sent in a second, at most: a page that bends out of turn is
told, not flooded."""
MAX_TEXT = 200
"""Characters of a bend message, at most: a longer text is not one."""

RoundOf = Callable[[int], "tuple[int, Round] | None"]
"""The table's round in play and its id, as this process deals or follows it."""


@dataclass(frozen=True)
class Bend:
    position: str
    corner: str
    lift: int


class Refusal(Exception):
    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code, self.detail = code, detail


def parse(text: str) -> Bend | None:
    """The bend ``text`` asks for; ``None`` when it is no bend message (a ping, another
    message type: not this module's); :class:`Refusal` ``bad_bend`` when it is one, but
    malformed."""
    if not text.startswith("{") or '"bend"' not in text[:MAX_TEXT]:
        return None
    if len(text) > MAX_TEXT:
        raise Refusal("bad_bend", f"a bend is at most {MAX_TEXT} characters")
    try:
        data = json.loads(text)
    except ValueError:
        raise Refusal("bad_bend", "a bend is a JSON object") from None
    if not isinstance(data, dict) or data.get("type") != "bend":
        return None
    position, corner, lift = data.get("position"), data.get("corner"), data.get("lift")
    if set(data) != {"type", "position", "corner", "lift"}:
        raise Refusal("bad_bend", "a bend has a position, a corner and a lift, and nothing else")
    if not isinstance(position, str) or not 1 <= len(position) <= 16:
        raise Refusal("bad_bend", 'position: a card of the squeeze, as "player.0"')
    if not isinstance(corner, str) or corner not in CORNERS:
        raise Refusal("bad_bend", f"corner: one of {' '.join(sorted(CORNERS))}")
    if isinstance(lift, bool) or not isinstance(lift, int) or not 0 <= lift <= MAX_LIFT:
        raise Refusal("bad_bend", f"lift: a whole number from 0 to {MAX_LIFT}")
    return Bend(position, corner, lift)


@dataclass
class _Pace:
    """What the relay keeps of one squeezer at one table, over all their sockets there:
    when it last relayed, and the newest bend waiting for its turn with its socket."""

    relayed_at: float = -1.0
    waiting: tuple[Connection, Bend] | None = None
    timer: asyncio.TimerHandle | None = None


@dataclass
class Bends:
    """The relay of one process (see the module's docstring). ``publish`` tells the other
    processes (the bus; ``None`` when no other process serves the tables)."""

    hub: Hub
    round_of: RoundOf
    publish: Callable[[dict[str, Any]], None] | None = None
    _paces: dict[tuple[int, str], _Pace] = field(default_factory=dict)
    _refused_at: dict[Connection, float] = field(default_factory=dict)
    _sending: set[asyncio.Task[None]] = field(default_factory=set)

    def read(self, connection: Connection, text: str) -> bool:
        """Take ``text`` if it is a bend (relayed or refused); ``False``: not a bend."""
        try:
            bend = parse(text)
            if bend is None:
                return False
            self._check(connection, bend)
        except Refusal as refusal:
            self._refuse(connection, refusal)
            return True
        key = (connection.table_id, connection.username)
        pace = self._paces.setdefault(key, _Pace())
        due = pace.relayed_at + 1 / BENDS_PER_SECOND
        now = self.hub.clock.monotonic()
        if now >= due:
            self._relay(connection, pace, bend, now)
            return True
        pace.waiting = (connection, bend)  # the newest takes the place of one still waiting
        if pace.timer is None:
            loop = asyncio.get_running_loop()
            pace.timer = loop.call_later(due - now, self._flush, key)
        return True

    def gone(self, connection: Connection) -> None:
        """The socket closed: forget it, and any bend of its still waiting (and its user's
        pace at the table once their last socket there has closed)."""
        self._refused_at.pop(connection, None)
        key = (connection.table_id, connection.username)
        pace = self._paces.get(key)
        if pace is None:
            return
        if pace.waiting is not None and pace.waiting[0] is connection:
            pace.waiting = None
        if not any(c.username == connection.username for c in self.hub.at(connection.table_id)):
            if pace.timer is not None:
                pace.timer.cancel()
            del self._paces[key]

    def _check(self, connection: Connection, bend: Bend) -> tuple[int, Round]:
        found = self.round_of(connection.table_id)
        round_ = found[1] if found is not None else None
        bending = round_.bending() if round_ is not None else None
        if bending is None:
            raise Refusal("not_squeezing", "there is no squeeze now")
        squeezer, held = bending
        if not connection.username or connection.username != squeezer:
            raise Refusal("not_squeezing", "only the squeezer bends the cards")
        if bend.position not in held:
            raise Refusal(
                "not_squeezing", f"{bend.position} is not a face-down card of the squeeze"
            )
        assert found is not None
        return found

    def _refuse(self, connection: Connection, refusal: Refusal) -> None:
        now = self.hub.clock.monotonic()
        if now < self._refused_at.get(connection, -1.0) + 1 / REFUSALS_PER_SECOND:
            return
        self._refused_at[connection] = now
        connection.push({"type": "refused", "code": refusal.code, "detail": refusal.detail})

    def _flush(self, key: tuple[int, str]) -> None:
        pace = self._paces.get(key)
        if pace is None:
            return
        pace.timer = None
        waiting, pace.waiting = pace.waiting, None
        if waiting is None:
            return
        connection, bend = waiting
        with contextlib.suppress(Refusal):  # the squeeze ended meanwhile: nothing to show
            self._relay(connection, pace, bend, self.hub.clock.monotonic())

    def _relay(self, connection: Connection, pace: _Pace, bend: Bend, now: float) -> None:
        round_id, _ = self._check(connection, bend)
        pace.relayed_at = now
        message = {"type": "bend", "table_id": connection.table_id, "round_id": round_id,
                   "position": bend.position, "corner": bend.corner, "lift": bend.lift}  # fmt: skip
        self.hub.broadcast(connection.table_id, message, but=connection.username)
        if self.publish is not None:
            note = {"t": connection.table_id, "m": [message], "x": connection.username}
            task = asyncio.create_task(asyncio.to_thread(self._publish, note))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    def _publish(self, note: dict[str, Any]) -> None:
        assert self.publish is not None
        try:
            self.publish(note)
        except Exception:  # a bend lost changes nothing: the next one shows where the card is
            log.warning("a bend could not be told to the other processes", exc_info=True)
