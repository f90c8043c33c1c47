"""How often one may try: failed sign-ins, and sign-ups, counted in the database.

Counted in the database, not in memory, so a limit holds across restarts and across the
server processes of one casino. An address is the client's as the server sees it
(``request.client.host``: behind a proxy, the one ``--forwarded-allow-ips`` trusts says
who the client is), counted as the connections count it
(:func:`~baccara.server.domain.addresses.client_key`: an IPv6 client by its /64, which it
may pick any address of).

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
  attempt, growing with the failures and never more than :data:`MAX_DELAY`; once they
  came from :data:`SLOW_AFTER` addresses or more, so does an attempt from any address,
  a fresh one too, so a botnet gets one guess a turn between its addresses, not a few an
  address. An address that signed in as that user in the last :data:`KNOWN_FOR` seconds
  never waits a turn (its own pair's lock still holds), nor, while the failures come
  from fewer addresses, one that has not failed for the username: the owner at home
  signs in at once, and the owner on an address the casino has not seen them on is at
  most slowed (a wait of at most :data:`MAX_DELAY`, while many addresses guess).

A wrong current password given for a new password (``PUT /api/me/password``) is a wrong
password like any other: it is counted and limited the same way, against the user's name.

**Signing up.** At most :data:`SIGN_UPS_PER_HOUR` accounts an hour and
:data:`SIGN_UPS_PER_DAY` a day from one address (the settings may change both): each costs
a password hash, and a flood of accounts is how one person fills every seat. The limits
are looked at before the name is, and a sign-up refused for its name (taken, or a
look-alike of one) counts too, apart: at most :data:`NAMES_REFUSED_PER_HOUR` an hour from
one address, so nobody learns for free which usernames exist.

A refusal is a 429 whose Retry-After says when the next attempt can be made.
"""

from __future__ import annotations

import hashlib
import math

from sqlalchemy import ColumnElement, delete, func, select, text, update
from sqlalchemy.orm import Session

from baccara.server.db.models import LoginFailure, SignIn, SignUp
from baccara.server.domain.addresses import client_key
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
KNOWN_FOR = 30 * 86_400.0
"""How long an address a user signed in from is one they are known on (30 days)."""
SIGN_UPS_PER_HOUR = 5
SIGN_UPS_PER_DAY = 20
NAMES_REFUSED_PER_HOUR = 20
"""Sign-ups refused for their name (taken, a look-alike) from one address in an hour, at
most: a newcomer trying a few names has room, a list of names to check has none."""
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
    key, address = key[:FIELD], client_key(address)[:FIELD]
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
    of_name = _failures(session, LoginFailure.username == key, recent)
    if (len(of_name) >= SLOW_AFTER and (pair or _many_addresses(session, key, since))
            and not _known(session, key, address, now)):  # fmt: skip
        due = of_name[-1] + username_delay(len(of_name))  # it waits its turn
        if due > now:
            raise TooManyAttempts(
                f"this username has had many failed sign-ins: wait {_wait(due - now)}"
                " and try again",
                retry_after=due - now,
            )
    session.execute(delete(LoginFailure).where(LoginFailure.at < now - KEPT))


def count_attempt(session: Session, key: str, address: str, now: float) -> int:
    """Count a sign-in as failed (until :func:`forgive`): the row's id."""
    attempt = LoginFailure(username=key[:FIELD], address=client_key(address)[:FIELD], at=now)
    session.add(attempt)
    session.flush()
    return attempt.id


def forgive(session: Session, attempt: int) -> None:
    """The attempt proved right: it is not a failure."""
    session.execute(delete(LoginFailure).where(LoginFailure.id == attempt))


def signed_in(session: Session, key: str, address: str, now: float) -> None:
    """The username ``key`` signed in from ``address``: an address it is known on, for
    :data:`KNOWN_FOR` (one row a pair, its time the latest)."""
    key, address = key[:FIELD], client_key(address)[:FIELD]
    session.execute(delete(SignIn).where(SignIn.at <= now - KNOWN_FOR))
    known = session.scalars(
        select(SignIn).where(SignIn.username == key, SignIn.address == address)
    ).first()  # fmt: skip
    if known is None:
        session.add(SignIn(username=key, address=address, at=now))
    else:
        known.at = now


def _many_addresses(session: Session, key: str, since: float) -> bool:
    """Whether :data:`SLOW_AFTER` addresses or more failed for the username ``key`` since."""
    addresses = session.scalar(select(func.count(func.distinct(LoginFailure.address))).where(
        LoginFailure.username == key, LoginFailure.at > since))  # fmt: skip
    return (addresses or 0) >= SLOW_AFTER


def _known(session: Session, key: str, address: str, now: float) -> bool:
    """Whether the username ``key`` signed in from ``address`` in the last :data:`KNOWN_FOR`."""
    found = session.scalars(select(SignIn.id).where(
        SignIn.username == key, SignIn.address == address, SignIn.at > now - KNOWN_FOR)).first()  # fmt: skip
    return found is not None


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


def check_sign_up(session: Session, address: str, now: float, per_hour: int, per_day: int) -> None:
    """Refuse (429) a sign-up from ``address`` over the limits: the accounts it made an
    hour and a day, and the sign-ups refused for their name an hour. Looked at before the
    name is, and counted after (:func:`count_sign_up`), in the same transaction."""
    address = client_key(address)[:FIELD]
    _one_at_a_time(session, f"sign-up from {address}")
    session.execute(delete(SignUp).where(SignUp.at < now - KEPT))
    limits = ((HOUR, per_hour, False, f"at most {per_hour} new accounts an hour"),
              (DAY, per_day, False, f"at most {per_day} new accounts a day"),
              (HOUR, NAMES_REFUSED_PER_HOUR, True,
               f"at most {NAMES_REFUSED_PER_HOUR} usernames refused an hour"))  # fmt: skip
    for window, limit, refused, what in limits:
        made = (SignUp.address == address, SignUp.at > now - window, SignUp.refused == refused)
        count = session.scalar(select(func.count(SignUp.id)).where(*made)) or 0
        if count >= limit:
            oldest = session.scalars(
                select(SignUp.at).where(*made).order_by(SignUp.at.desc()).offset(limit - 1)
                .limit(1)
            ).first()  # fmt: skip
            retry = (oldest if oldest is not None else now) + window - now
            raise TooManySignUps(
                f"{what} from one address: wait {_wait(retry)} and try again",
                retry_after=retry,
            )


def count_sign_up(session: Session, address: str, now: float, refused: bool = False) -> int:
    """Count a sign-up from ``address`` (``refused``: for its name): the row's id."""
    sign_up = SignUp(address=client_key(address)[:FIELD], at=now, refused=refused)
    session.add(sign_up)
    session.flush()
    return sign_up.id


def uncount_sign_up(session: Session, sign_up: int) -> None:
    """A sign-up that made no account (the server was too busy to hash its password)."""
    session.execute(delete(SignUp).where(SignUp.id == sign_up))


def refuse_sign_up(session: Session, sign_up: int) -> None:
    """A sign-up counted, whose name another took before its account was made: it counts
    as one refused for its name, as it would have been a moment later."""
    session.execute(update(SignUp).where(SignUp.id == sign_up).values(refused=True))
