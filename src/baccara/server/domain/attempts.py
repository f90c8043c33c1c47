"""How often one may try: failed sign-ins, and sign-ups, counted in the database.

Counted in the database, not in memory, so a limit holds across restarts and across the
server processes of one casino. An address is the client's as the server sees it
(``request.client.host``: behind a proxy, the one ``--forwarded-allow-ips`` trusts says
who the client is).

**Signing in.** A failure counts against its (username, address) pair, against its
address, and against the username:

* :data:`PAIR_FAILURES` failures of one pair in :data:`WINDOW` lock that pair until the
  oldest of them leaves the window: one address guessing one password is stopped, and
  the owner, signing in from anywhere else, is not;
* :data:`ADDRESS_FAILURES` failures from one address, whatever the names, lock that
  address the same way (one address trying many names);
* failures for one username from many addresses *slow it down*: once it has
  :data:`SLOW_AFTER` failures in the window, an attempt from an address that has failed
  for it waits its turn, :func:`username_delay` seconds after the username's last failed
  attempt, growing with the failures and never more than :data:`MAX_DELAY`. An address
  that has not failed for the username — the owner at home — is never made to wait.

**Signing up.** At most :data:`SIGN_UPS_PER_HOUR` accounts an hour and
:data:`SIGN_UPS_PER_DAY` a day from one address (the settings may change both): each costs
a password hash, and a flood of accounts is how one person fills every seat.

A refusal is a 429 whose Retry-After says when the next attempt can be made.
"""

from __future__ import annotations

import hashlib
import math

from sqlalchemy import ColumnElement, delete, func, select, text
from sqlalchemy.orm import Session

from baccara.server.db.models import LoginFailure, SignUp
from baccara.server.errors import TooManyAttempts, TooManySignUps

WINDOW = 15 * 60.0
"""Failed sign-ins are counted over this many seconds."""
PAIR_FAILURES = 5
"""Failures of one (username, address) pair in the window that lock the pair."""
ADDRESS_FAILURES = 50
"""Failures from one address, for any usernames, in the window that lock the address."""
SLOW_AFTER = 5
"""Failures of one username (from any addresses) in the window after which it slows down."""
MAX_DELAY = 30.0
"""The longest an attempt on a username under attack waits after the last one, seconds."""
KEPT = 86_400.0
"""How long a failure or a sign-up is kept at most: the longest window counted."""
SIGN_UPS_PER_HOUR = 5
SIGN_UPS_PER_DAY = 20
HOUR, DAY = 3600.0, 86_400.0
FIELD = 64
"""How much of a username or an address is kept (the columns' length)."""


def username_delay(failures: int) -> float:
    """How long after the last failed attempt a username with ``failures`` in the window
    takes the next one from an address that has failed for it: doubling from one second
    at :data:`SLOW_AFTER` failures, at most :data:`MAX_DELAY`; none below.

    >>> [username_delay(n) for n in (4, 5, 6, 9, 100)]
    [0.0, 1.0, 2.0, 16.0, 30.0]
    """
    if failures < SLOW_AFTER:
        return 0.0
    return min(MAX_DELAY, 2.0 ** min(failures - SLOW_AFTER, 16))


def _wait(seconds: float) -> str:
    """How long to wait, as a person reads it (the Retry-After has the seconds).

    >>> _wait(0.2), _wait(90), _wait(3595), _wait(71_996)
    ('1 second', '90 seconds', '60 minutes', '20 hours')
    """
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds > 2 * size:
            count = math.ceil(seconds / size)
            return f"{count} {unit}s"
    whole = max(1, math.ceil(seconds))
    return f"{whole} second{'s' if whole != 1 else ''}"


def check_sign_in(session: Session, key: str, address: str, now: float) -> None:
    """Refuse (429) a sign-in for the username ``key`` from ``address`` that a limit stops
    now; else count it as a failure, until the password proves right (:func:`forgive`).

    Counting it before the password is checked (tens of milliseconds, outside any
    transaction) is what stops attempts racing each other past a limit together."""
    key, address = key[:FIELD], address[:FIELD]
    _one_at_a_time(session, f"sign-in {key}", f"sign-in from {address}")
    since = now - WINDOW
    recent = LoginFailure.at > since  # one made a window ago has just left it
    pair = _failures(session, LoginFailure.username == key, LoginFailure.address == address,
                     recent)  # fmt: skip
    if pair and len(pair) >= PAIR_FAILURES:
        raise TooManyAttempts(
            f"too many failed sign-ins for this username from this address: wait"
            f" {_wait(pair[-PAIR_FAILURES] + WINDOW - now)} and try again",
            retry_after=pair[-PAIR_FAILURES] + WINDOW - now,
        )
    if address:
        from_address = _failures(session, LoginFailure.address == address, recent)
        if len(from_address) >= ADDRESS_FAILURES:
            until = from_address[-ADDRESS_FAILURES] + WINDOW
            raise TooManyAttempts(
                f"too many failed sign-ins from this address: wait {_wait(until - now)}"
                " and try again",
                retry_after=until - now,
            )
    if pair:  # this address has failed for the username: it waits its turn
        of_name = _failures(session, LoginFailure.username == key, recent)
        due = of_name[-1] + username_delay(len(of_name))
        if due > now:
            raise TooManyAttempts(
                f"this username has had many failed sign-ins: wait {_wait(due - now)}"
                " and try again",
                retry_after=due - now,
            )
    session.execute(delete(LoginFailure).where(LoginFailure.at < now - KEPT))


def count_attempt(session: Session, key: str, address: str, now: float) -> int:
    """Count a sign-in as failed (until :func:`forgive`): the row's id."""
    attempt = LoginFailure(username=key[:FIELD], address=address[:FIELD], at=now)
    session.add(attempt)
    session.flush()
    return attempt.id


def forgive(session: Session, attempt: int) -> None:
    """The attempt proved right: it is not a failure."""
    session.execute(delete(LoginFailure).where(LoginFailure.id == attempt))


def _one_at_a_time(session: Session, *names: str) -> None:
    """Attempts on the same names wait for each other's transaction, so twenty sent at once
    are counted as if one after another. On SQLite one write transaction runs at a time
    already; on PostgreSQL each name takes a transaction-scoped advisory lock (in one order,
    so two attempts never wait on each other)."""
    if session.get_bind().dialect.name != "postgresql":
        return
    for name in sorted(set(names)):
        digest = hashlib.sha256(f"baccara {name}".encode()).digest()
        key = int.from_bytes(digest[:8], "big", signed=True)
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def _failures(session: Session, *where: ColumnElement[bool]) -> list[float]:
    """When each failure matching ``where`` was, oldest first."""
    return list(session.scalars(select(LoginFailure.at).where(*where).order_by(LoginFailure.at)))


def check_sign_up(session: Session, address: str, now: float, per_hour: int, per_day: int) -> int:
    """Refuse (429) a sign-up from ``address`` over the limits; else count it: the row's id."""
    address = address[:FIELD]
    _one_at_a_time(session, f"sign-up from {address}")
    for window, limit, name in ((HOUR, per_hour, "an hour"), (DAY, per_day, "a day")):
        count = session.scalar(select(func.count(SignUp.id)).where(
            SignUp.address == address, SignUp.at > now - window)) or 0  # fmt: skip
        if count >= limit:
            oldest = session.scalars(
                select(SignUp.at).where(SignUp.address == address, SignUp.at > now - window)
                .order_by(SignUp.at.desc()).offset(limit - 1).limit(1)
            ).first()  # fmt: skip
            retry = (oldest if oldest is not None else now) + window - now
            raise TooManySignUps(
                f"at most {limit} new accounts {name} from one address: wait {_wait(retry)}"
                " and try again",
                retry_after=retry,
            )
    sign_up = SignUp(address=address, at=now)
    session.add(sign_up)
    session.execute(delete(SignUp).where(SignUp.at < now - KEPT))
    session.flush()
    return sign_up.id


def uncount_sign_up(session: Session, sign_up: int) -> None:
    """A sign-up that made no account (the server was too busy to hash its password)."""
    session.execute(delete(SignUp).where(SignUp.id == sign_up))
