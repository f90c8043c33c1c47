"""The ``from`` and ``to`` of a back-office period, read one way for every route that takes
them (the report, the void report), so a date one refuses the other cannot take.

Every refusal is the casino's 422 ``invalid_request`` naming the parameter and what was
sent, whether the text is no date at all, a moment outside the calendar, or a ``from``
that is not before its ``to``.

>>> period("2026-11-30", None, 1_800_000_000.0)
(1795996800.0, 1800000001.0)
"""

from __future__ import annotations

import datetime
from typing import Annotated

from fastapi import Query

from baccara.server.errors import InvalidRequest

MAX_MOMENT_TEXT = 40
"""The longest ``from`` or ``to`` read: an ISO date-time with its offset is 32 characters."""
LATEST = datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=datetime.UTC).timestamp()
"""The last moment a period may name (the calendar's last second): past it, before the
epoch, or not a number at all (``nan``, ``inf``) is no time a round was played."""
DEFAULT_SPAN = 86_400.0
"""A period given no ``from`` starts this many seconds (a day) before its end."""

From = Annotated[
    str | None,
    Query(alias="from", max_length=MAX_MOMENT_TEXT,
          description="Start (ISO date or seconds; default: a day before the end)"),
]  # fmt: skip
To = Annotated[
    str | None,
    Query(max_length=MAX_MOMENT_TEXT, description="End, exclusive (default: now)"),
]


def moment(name: str, text: str | None, default: float) -> float:
    """Seconds since the epoch, or an ISO date or date-time (UTC unless it says otherwise),
    from 1970 to the end of 9999; ``default`` when the parameter was not sent."""
    if text is None:
        return default
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = datetime.datetime.fromisoformat(text)
        except ValueError:
            raise InvalidRequest(f"query.{name}: not a date or time: {text!r}"
                                 " (use 2026-11-30 or seconds)") from None  # fmt: skip
        if when.tzinfo is None:
            when = when.replace(tzinfo=datetime.UTC)
        try:
            seconds = when.timestamp()
        except (OverflowError, ValueError):  # an offset that takes it past the calendar
            seconds = -1.0
    if not 0 <= seconds <= LATEST:  # nan and the infinities fail this too
        raise InvalidRequest(f"query.{name}: a moment from 1970 to 9999, got {text!r}")
    return seconds


def period(from_: str | None, to: str | None, now: float) -> tuple[float, float]:
    """The period ``[since, until)``: ``to`` by default just past ``now`` (so a round ended
    this second is in it), ``from`` by default a day before the end, never before 1970."""
    until = moment("to", to, now + 1)
    since = moment("from", from_, max(0.0, until - DEFAULT_SPAN))
    if since >= until:
        raise InvalidRequest(f"query.from: before to, got {from_!r} (to {to!r})")
    return since, until
