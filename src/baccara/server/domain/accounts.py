"""Who is asking: Argon2 password hashes, and signed, expiring bearer tokens.

A token is ``payload.signature``: the payload names the user, when the token
expires, its own id and the user's token generation it was issued in; the signature
is HMAC-SHA256 with a key kept in the database — created on first start, shared by
every server process, surviving restarts — so a forged or altered token, or an
expired one, is refused.

A token can be revoked before it expires, and the database says so to every process:
signing out records the token's id (until it would have expired); signing out
everywhere, a new password or a new role moves the user's generation on, which every
older token of theirs carries. What the database says of a user is read once and
re-read after :data:`TOKEN_RECHECK` seconds, so a revocation made by another process
(which also tells this one at once, through the hub) is obeyed within that time even
when the telling is lost, while a bet checks its token without a database read.

A WebSocket never carries a token in its URL (where proxies and logs keep it): it
opens with a ticket (:meth:`Tokens.ticket`) — signed with a key of its own, so a
ticket is never a token nor a token a ticket — that expires after
:data:`TICKET_SECONDS` and opens one socket, whichever process it reaches.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from baccara.errors import shown
from baccara.server.db import store, usernames
from baccara.server.db.database import Database
from baccara.server.db.models import RevokedToken, Setting, UsedTicket, User
from baccara.server.db.store import Credentials
from baccara.server.domain import attempts, dealers
from baccara.server.domain.passwords import PasswordPool
from baccara.server.domain.types import Caller
from baccara.server.errors import (
    AuthError,
    Forbidden,
    InvalidCredentials,
    PasswordsBusy,
    UsernameTaken,
)
from baccara.server.settings import Settings

SIGNING_KEY = "token-signing-key"
USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,31}$")
MIN_PASSWORD, MAX_PASSWORD = 8, 128
ROLES = ("admin", "dealer", "player")
TOKEN_RECHECK = 2.0
"""Seconds for which what the database says of a user's tokens is trusted unread."""
TICKET_SECONDS = 30.0
"""How long a WebSocket ticket may wait before it opens its socket."""

_hasher = PasswordHasher()


def check_username(username: object) -> str:
    """A username anyone may take: well formed, and none of the names the casino's records
    use for itself (:data:`~baccara.server.db.usernames.RESERVED`), in any case or look-alike.
    Whether another user has it is the database's to say (``store.check_name_free``)."""
    if not isinstance(username, str) or not USERNAME.fullmatch(username):
        raise InvalidCredentials(
            "username: 3 to 32 letters, digits, '.', '_' or '-', starting with a letter or digit"
        )
    if usernames.reserved(username):
        raise UsernameTaken(f"the username {username!r} is reserved: the casino's records use it")
    return username


def check_password(password: object) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise InvalidCredentials(f"password: {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return password


def check_role(role: object) -> str:
    if role not in ROLES:
        raise InvalidCredentials(f"role: one of {', '.join(ROLES)}, not {shown(role)}")
    return str(role)


def hash_password(password: str) -> str:
    """Argon2, at 64 MiB: in the server, only ever on the :class:`PasswordPool`'s threads."""
    return _hasher.hash(check_password(password))


@functools.cache
def _nobody() -> str:
    """Checked against when the username is unknown, so an answer takes as long either way
    and its timing does not tell which usernames exist."""
    return _hasher.hash(secrets.token_hex(16))


def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was hashed from (``None``: nobody's). As
    costly as a hash: in the server, only on the :class:`PasswordPool`'s threads."""
    if stored is None:
        with contextlib.suppress(VerificationError, InvalidHashError):
            _hasher.verify(_nobody(), password)
        return False
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


@dataclass(frozen=True)
class Claims:
    """What a token (or a WebSocket ticket, which names its token) says."""

    user_id: int
    username: str
    expires: float
    generation: int = 0
    """The user's token generation the token was issued in."""
    token_id: str = ""
    """The token's own id, by which it alone is signed out."""


@dataclass(frozen=True)
class Ticket:
    """What a WebSocket ticket says: its token's claims, and its own nonce and expiry."""

    claims: Claims
    nonce: str
    expires: float


@dataclass(frozen=True)
class Revocation:
    """Tokens of one user just revoked: those issued before ``generation``, or the one
    whose id is ``token_id``. The hub closes their sockets; the other processes are told."""

    user_id: int
    generation: int | None = None
    token_id: str | None = None


@dataclass(frozen=True)
class Standing:
    """What the database said of a user's tokens when this process last read it."""

    caller: Caller
    generation: int
    revoked: frozenset[str]
    read_at: float


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Tokens:
    """Signs and checks bearer tokens with the database's key."""

    def __init__(self, key: bytes, lifetime: float) -> None:
        self._key = key
        self._ticket_key = hmac.new(key, b"websocket-ticket", hashlib.sha256).digest()
        self.lifetime = lifetime

    @classmethod
    def load(cls, session: Session, lifetime: float) -> Tokens:
        """The shared key, created (once, whichever process gets there first) if missing."""
        stored = session.get(Setting, SIGNING_KEY)
        if stored is None:
            try:
                with session.begin_nested():
                    session.add(Setting(name=SIGNING_KEY, value=secrets.token_hex(32)))
            except IntegrityError:
                pass
            stored = session.scalars(select(Setting).where(Setting.name == SIGNING_KEY)).one()
        return cls(bytes.fromhex(stored.value), lifetime)

    def issue(self, user_id: int, username: str, now: float, generation: int = 0) -> str:
        payload = _b64(json.dumps({"id": user_id, "u": username, "exp": now + self.lifetime,
                                   "g": generation, "j": secrets.token_hex(12)},
                                  separators=(",", ":")).encode())  # fmt: skip
        return f"{payload}.{self._sign(payload)}"

    def _sign(self, payload: str, key: bytes | None = None) -> str:
        return _b64(hmac.new(key or self._key, payload.encode(), hashlib.sha256).digest())

    def check(self, token: str | None, now: float) -> Claims:
        if not token:
            raise AuthError("sign in: no token was sent")
        data, signature = self._read(token, self._key, "token")
        claims = _claims(data, "token", "exp", signature)
        if claims.expires <= now:
            raise AuthError("the token has expired: sign in again")
        return claims

    def ticket(self, claims: Claims, now: float) -> str:
        """A WebSocket ticket for the holder of the token ``claims`` were read from: it
        names that token and when it expires, so the socket closes when the token is
        revoked or expires, and the ticket never outlives it."""
        body = {"id": claims.user_id, "u": claims.username, "g": claims.generation,
                "j": claims.token_id, "te": claims.expires, "n": secrets.token_hex(16),
                "exp": min(now + TICKET_SECONDS, claims.expires)}  # fmt: skip
        payload = _b64(json.dumps(body, separators=(",", ":")).encode())
        return f"{payload}.{self._sign(payload, self._ticket_key)}"

    def check_ticket(self, ticket: str | None, now: float) -> Ticket:
        """What a ticket this casino signed says, if neither it nor its token has expired
        (whether it was used already is the database's to say)."""
        if not ticket:
            raise AuthError("a table's socket opens with a ticket: ask POST /api/ws-ticket")
        data, _ = self._read(ticket, self._ticket_key, "ticket")
        claims = _claims(data, "ticket", "te")
        try:
            nonce, expires = str(data["n"]), float(data["exp"])
        except (ValueError, KeyError, TypeError) as error:
            raise AuthError(f"the ticket cannot be read: {error}") from None
        if claims.expires <= now:
            raise AuthError("the ticket's token has expired: sign in again")
        if expires <= now:
            raise AuthError("the ticket has expired: ask POST /api/ws-ticket for another")
        return Ticket(claims, nonce, expires)

    def _read(self, signed: str, key: bytes, what: str) -> tuple[dict[str, Any], str]:
        """The payload of a token or ticket this casino signed, and its signature."""
        payload, _, signature = signed.partition(".")
        if not signature or not hmac.compare_digest(self._sign(payload, key), signature):
            raise AuthError(f"the {what} is not one this casino signed")
        try:
            data = json.loads(_unb64(payload))
        except ValueError as error:
            raise AuthError(f"the {what} cannot be read: {error}") from None
        if not isinstance(data, dict):
            raise AuthError(f"the {what} cannot be read")
        return data, signature


def _claims(data: dict[str, Any], what: str, expires: str, signature: str = "") -> Claims:
    """What a token's payload says, or a ticket's of its token (its expiry under
    ``expires``). A token issued before tokens could be revoked carries neither a
    generation (it is of the first, 0) nor an id: its id is taken from its signature,
    which is its own, so it too can be signed out alone."""
    try:
        token_id = str(data["j"]) if "j" in data or not signature else _old_token_id(signature)
        return Claims(int(data["id"]), str(data["u"]), float(data[expires]),
                      int(data.get("g", 0)), token_id)  # fmt: skip
    except (ValueError, KeyError, TypeError) as error:
        raise AuthError(f"the {what} cannot be read: {error}") from None


def _old_token_id(signature: str) -> str:
    """The id of a token issued without one: as long as the ids :meth:`Tokens.issue`
    draws, and never one of them (those are hex; this carries a ``~``)."""
    return "~" + hashlib.sha256(signature.encode()).hexdigest()[:23]


def credentials(username: str, password: str, role: str) -> Credentials:
    """A new user's checked name, password and role, the password hashed (on the caller's
    thread: for ``baccara user add`` and the casino's own users)."""
    check_username(username)
    check_password(password)
    check_role(role)
    return Credentials(username, role, hash_password(password))


@dataclass(frozen=True)
class Made:
    """A player :func:`add_players` made, and a token they are signed in with."""

    id: int
    username: str
    token: str


def crowd_names(prefix: str, count: int) -> list[str]:
    """The names of :func:`add_players`' crowd, PREFIX1 … PREFIXcount, each checked as any
    username is."""
    return [check_username(f"{prefix}{n}") for n in range(1, count + 1)]


def add_players(
    db: Database,
    settings: Settings,
    names: list[str],
    password: str,
    now: float,
    before_commit: Callable[[list[Made]], None] | None = None,
) -> list[Made]:
    """Players of the :func:`crowd_names` ``names``, each with the starting balance and a
    token, in one transaction (all of them, or none if a name is taken or
    ``before_commit``, handed them before the commit, raises).

    They share one password, hashed once with the parameters of every sign-up, so a load
    test's crowd costs one Argon2 hash, and no account is weaker than a real one.
    """
    hashed = hash_password(password)
    with db.write() as session:
        tokens = Tokens.load(session, settings.token_hours * 3600)
        users = [store.create_user(session, Credentials(name, "player", hashed),
                                   settings.starting_balance_cents, now)
                 for name in names]  # fmt: skip
        made = [Made(u.id, u.username, tokens.issue(u.id, u.username, now, u.token_generation))
                for u in users]  # fmt: skip
        if before_commit is not None:
            before_commit(made)
        return made


def _named(session: Session, username: str, key: str) -> User | None:
    """The user ``username`` names: theirs exactly, else the one it is without regard to
    case (two names made before keys were kept may differ only in case: each is its own)
    — never a look-alike's."""
    found = session.scalars(
        select(User).where(or_(User.username == username, User.name_key == key))
    ).all()  # fmt: skip
    exact = [user for user in found if user.username == username]
    same = [user for user in found if user.username.casefold() == username.casefold()]
    return next(iter(exact or same), None)


class Accounts:
    """Signing up and signing in: new users, the limits on failed sign-ins, the tokens and
    their revocation, and the users they name (re-read every :data:`TOKEN_RECHECK`
    seconds, and at once when told of a revocation). The casino's façade calls it."""

    def __init__(self, db: Database, settings: Settings, clock: Callable[[], float]) -> None:
        self.db = db
        self.settings = settings
        self.clock = clock
        self.tokens: Tokens | None = None
        self.passwords = PasswordPool()
        """Where every password is hashed and checked, never the threads of the requests."""
        self._known: dict[int, Standing] = {}
        """What the database said of each user's tokens (see the module's docstring)."""
        self._revisions: dict[int, int] = {}
        """How many times each user's standing was forgotten: a read begun before a
        revocation is not kept after it."""

    def load_tokens(self) -> None:
        """The signing key, made on the database's first start (call once, before use)."""
        with self.db.write() as session:
            self.tokens = Tokens.load(session, self.settings.token_hours * 3600)

    def register(self, username: str, password: str, role: str = "player") -> Caller:
        """A new user, made by the casino itself (staff, tests): no limit on how many, and
        the password hashed on the caller's thread. The API's sign-up is :meth:`sign_up`."""
        balance = self.settings.starting_balance_cents if role == "player" else 0
        who = credentials(username, password, role)
        with self.db.write() as session:
            user = store.create_user(session, who, balance, self.clock())
            return Caller(user.id, user.username, user.role)

    async def sign_up(self, username: str, password: str, address: str) -> Caller:
        """A new player from ``address``, within the sign-ups an address may make
        (:func:`attempts.check_sign_up`), the password hashed on the password pool.

        The limits are looked at before the name, so an address past them learns nothing of
        which names exist; a name that is taken is then refused before the hash, counted as
        a sign-up refused for its name (:data:`attempts.NAMES_REFUSED_PER_HOUR`). One the
        pool has no room to hash now (503) is never counted; one whose name another takes
        while its password is hashed counts as refused for its name, as it would have been
        a moment later."""
        check_username(username)
        check_password(password)
        balance = self.settings.starting_balance_cents

        def check() -> int | UsernameTaken:
            now = self.clock()
            with self.db.write() as session:
                attempts.check_sign_up(session, address, now, self.settings.sign_ups_per_hour,
                                       self.settings.sign_ups_per_day)  # fmt: skip
                try:
                    store.check_name_free(session, username)
                except UsernameTaken as taken:  # counted: the refusal is raised once it is
                    attempts.count_sign_up(session, address, now, refused=True)
                    return taken
                return attempts.count_sign_up(session, address, now)

        def uncount(sign_up: int, refused: bool) -> None:
            with self.db.write() as session:
                if refused:
                    attempts.refuse_sign_up(session, sign_up)
                else:
                    attempts.uncount_sign_up(session, sign_up)

        def create(hashed: str) -> Caller:
            with self.db.write() as session:
                who = Credentials(username, "player", hashed)
                user = store.create_user(session, who, balance, self.clock())
                return Caller(user.id, user.username, user.role)

        self.passwords.check_room()
        counted = await asyncio.to_thread(check)
        if isinstance(counted, UsernameTaken):
            raise counted
        try:
            hashed = await self.passwords.run(hash_password, password)
        except PasswordsBusy:  # the room went while the sign-up was counted
            await asyncio.to_thread(uncount, counted, False)
            raise
        try:
            return await asyncio.to_thread(create, hashed)
        except UsernameTaken:  # another took the name meanwhile
            await asyncio.to_thread(uncount, counted, True)
            raise

    async def sign_in(self, username: str, password: str, address: str = "") -> str:
        """A token for a right password. Wrong ones are limited per (username, address),
        per address, and slow a username down (:mod:`~baccara.server.domain.attempts`);
        a right one is never counted against any. The username is matched without regard
        to case (``BOSS`` signs in as ``boss``), never to a look-alike.

        The attempt is counted as a failure before the password is checked (on the
        password pool, outside any transaction) and forgiven once it proves right, so
        attempts racing each other cannot slip past a limit together. One the pool has no
        room to check now (503) is never counted."""
        now = self.clock()
        key = usernames.name_key(username)

        def count() -> tuple[int, User | None]:
            with self.db.write() as session:
                attempts.check_sign_in(session, key, address, now)
                attempt = attempts.count_attempt(session, key, address, now)
                return attempt, _named(session, username, key)

        def forgive(right: bool) -> None:
            with self.db.write() as session:
                attempts.forgive(session, attempt)
                if right:
                    attempts.signed_in(session, key, address, now)

        self.passwords.check_room()
        attempt, user = await asyncio.to_thread(count)
        stored = user.password_hash if user is not None else None
        try:
            right = await self.passwords.run(password_matches, stored, password)
        except PasswordsBusy:  # the room went while the attempt was counted: not a failure
            await asyncio.to_thread(forgive, False)
            raise
        if not right or user is None:
            raise AuthError("wrong username or password")
        await asyncio.to_thread(forgive, True)
        assert self.tokens is not None
        return self.tokens.issue(user.id, user.username, now, user.token_generation)

    async def authenticate(self, token: str | None) -> Caller:
        """The user a valid token names, unless the token was revoked."""
        return (await self.signed_in(token))[0]

    async def signed_in(self, token: str | None) -> tuple[Caller, Claims]:
        """The user a valid, unrevoked token names, and what the token says."""
        assert self.tokens is not None
        claims = self.tokens.check(token, self.clock())
        return await self.admit(claims), claims

    async def admit(self, claims: Claims) -> Caller:
        """The user ``claims`` name, if their token has not been revoked. What the database
        says of them is read on first use and again once it is :data:`TOKEN_RECHECK`
        seconds old, or when the token is of a newer generation than the one known."""
        now = self.clock()
        known = self._known.get(claims.user_id)
        if (known is None or not known.read_at <= now < known.read_at + TOKEN_RECHECK
                or claims.generation > known.generation):  # fmt: skip
            known = await self._refresh(claims.user_id)
        if known.caller.username != claims.username:
            raise AuthError("the token's user no longer exists")
        if claims.generation != known.generation:
            raise AuthError("the token was revoked (signed out everywhere, a new password or"
                            " role): sign in again")  # fmt: skip
        if claims.token_id in known.revoked:
            raise AuthError("the token was signed out: sign in again")
        return known.caller

    async def _refresh(self, user_id: int) -> Standing:
        revision = self._revisions.get(user_id, 0)
        standing = await asyncio.to_thread(self._standing, user_id)
        if self._revisions.get(user_id, 0) == revision:
            self._known[user_id] = standing
        return standing

    def _standing(self, user_id: int) -> Standing:
        now = self.clock()
        with self.db.read() as session:
            user = session.get(User, user_id)
            if user is None:
                raise AuthError("the token's user no longer exists")
            revoked = session.scalars(select(RevokedToken.token_id).where(
                RevokedToken.user_id == user_id, RevokedToken.expires > now)).all()  # fmt: skip
            caller = Caller(user.id, user.username, user.role)
            return Standing(caller, user.token_generation, frozenset(revoked), now)

    def forget(self, user_id: int) -> None:
        """Drop what is known of the user's tokens (they were revoked, here or in another
        process): the next check reads the database. Call on the event loop."""
        self._known.pop(user_id, None)
        self._revisions[user_id] = self._revisions.get(user_id, 0) + 1

    # --- revoking tokens (each in its own transaction; the caller tells the hub) ---------

    def sign_out(self, claims: Claims) -> Revocation:
        """Revoke this one token: it is refused from now on, the user's others are not."""
        now = self.clock()
        with self.db.write() as session:
            session.execute(delete(RevokedToken).where(RevokedToken.expires <= now))
            # one statement that a second sign-out of the token, at once, leaves as it is
            dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
            session.execute(dialect.insert(RevokedToken).values(
                token_id=claims.token_id, user_id=claims.user_id, expires=claims.expires,
            ).on_conflict_do_nothing())  # fmt: skip
        return Revocation(claims.user_id, token_id=claims.token_id)

    def sign_out_everywhere(self, user_id: int) -> Revocation:
        """Revoke every token the user holds, this one included."""
        with self.db.write() as session:
            return Revocation(user_id, generation=_next_generation(session, user_id))

    def change_password(
        self, claims: Claims, current: str, new: str, address: str = ""
    ) -> tuple[str, Revocation]:
        """Set a new password, given the current one, and revoke every token of the user's:
        the answer is a fresh token for the device that asked. A wrong current password, or
        a new one that cannot be used, changes nothing. A wrong current password is a
        failed sign-in of the user's from ``address`` (:func:`attempts.check_sign_in`), so
        a stolen token cannot guess the password without limit (429 with Retry-After)."""
        check_password(new)
        key, now = usernames.name_key(claims.username), self.clock()
        with self.db.write() as session:
            attempts.check_sign_in(session, key, address, now)
            attempt = attempts.count_attempt(session, key, address, now)
            user = session.get(User, claims.user_id)
            stored = user.password_hash if user is not None else None
        if not password_matches(stored, current):
            raise Forbidden("the current password is wrong: the password is unchanged")
        with self.db.write() as session:
            attempts.forgive(session, attempt)
        hashed = hash_password(new)
        with self.db.write() as session:
            user = session.get(User, claims.user_id)
            if user is None or user.password_hash != stored:
                raise Forbidden("the password changed meanwhile: sign in again")
            user.password_hash = hashed
            generation = _next_generation(session, claims.user_id)
        assert self.tokens is not None
        token = self.tokens.issue(claims.user_id, claims.username, self.clock(), generation)
        return token, Revocation(claims.user_id, generation=generation)

    def change_role(
        self, session: Session, username: str, role: str
    ) -> tuple[Revocation | None, list[int]]:
        """Give a user another role, in the caller's transaction; every token of theirs is
        revoked, since each was issued for the role they had (``None``: the same role).
        A dealer who deals no more keeps none of their tables, which are answered for the
        audit trail (the table each was assigned to: none when they were no dealer)."""
        check_role(role)
        user = store.user_named(session, username)
        if user.role == role:
            return None, []
        unassigned = dealers.unassign(session, user.id) if user.role == "dealer" else []
        user.role = role
        return Revocation(user.id, generation=_next_generation(session, user.id)), unassigned

    def ticket(self, claims: Claims) -> str:
        assert self.tokens is not None
        return self.tokens.ticket(claims, self.clock())

    async def read_ticket(self, ticket: str | None) -> tuple[Caller, Ticket]:
        """The user a WebSocket ticket names, if it has not expired and its token was not
        revoked; the ticket is not used yet (:meth:`use_ticket`), so a socket refused for
        another reason (no such table, too many sockets) leaves it good."""
        assert self.tokens is not None
        read = self.tokens.check_ticket(ticket, self.clock())
        return await self.admit(read.claims), read

    async def use_ticket(self, ticket: Ticket) -> None:
        """Use the ticket up: a second socket with it is refused, in this process or any
        other."""
        await asyncio.to_thread(self._use_ticket, ticket.nonce, ticket.expires)

    def _use_ticket(self, nonce: str, expires: float) -> None:
        now = self.clock()
        try:
            with self.db.write() as session:
                session.execute(delete(UsedTicket).where(UsedTicket.expires <= now))
                session.add(UsedTicket(nonce=nonce, expires=expires))
        except IntegrityError:
            raise AuthError("the ticket was used already: ask POST /api/ws-ticket for another"
                            ) from None  # fmt: skip


def _next_generation(session: Session, user_id: int) -> int:
    """Move the user's token generation on, in one statement: two revocations at once in
    two processes each get a generation of their own, the later one revoking both."""
    session.flush()
    generation = session.scalar(
        update(User).where(User.id == user_id)
        .values(token_generation=User.token_generation + 1)
        .returning(User.token_generation)
        .execution_options(synchronize_session=False)
    )  # fmt: skip
    if generation is None:
        raise AuthError("the token's user no longer exists")
    return int(generation)
