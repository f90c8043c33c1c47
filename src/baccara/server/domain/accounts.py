"""Who is asking: Argon2 password hashes, and signed, expiring bearer tokens.

A token is ``payload.signature``: the payload names the user and when the token
expires, the signature is HMAC-SHA256 with a key kept in the database — created on
first start, shared by every server process, surviving restarts — so a forged or
altered token, or an expired one, is refused.
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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from baccara.errors import shown
from baccara.server.db import store
from baccara.server.db.database import Database
from baccara.server.db.models import LoginFailure, Setting, User
from baccara.server.db.store import Credentials
from baccara.server.domain.types import Caller
from baccara.server.errors import AuthError, InvalidCredentials, TooManyAttempts
from baccara.server.settings import Settings

SIGNING_KEY = "token-signing-key"
USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,31}$")
MIN_PASSWORD, MAX_PASSWORD = 8, 128
ROLES = ("admin", "dealer", "player")

_hasher = PasswordHasher()


def check_username(username: object) -> str:
    if not isinstance(username, str) or not USERNAME.fullmatch(username):
        raise InvalidCredentials(
            "username: 3 to 32 letters, digits, '.', '_' or '-', starting with a letter or digit"
        )
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
    return _hasher.hash(check_password(password))


@functools.cache
def _nobody() -> str:
    """Checked against when the username is unknown, so an answer takes as long either way
    and its timing does not tell which usernames exist."""
    return _hasher.hash(secrets.token_hex(16))


def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was hashed from (``None``: nobody's)."""
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
    user_id: int
    username: str
    expires: float


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Tokens:
    """Signs and checks bearer tokens with the database's key."""

    def __init__(self, key: bytes, lifetime: float) -> None:
        self._key = key
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

    def issue(self, user_id: int, username: str, now: float) -> str:
        payload = _b64(json.dumps({"id": user_id, "u": username, "exp": now + self.lifetime},
                                  separators=(",", ":")).encode())  # fmt: skip
        return f"{payload}.{self._sign(payload)}"

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self._key, payload.encode(), hashlib.sha256).digest())

    def check(self, token: str | None, now: float) -> Claims:
        if not token:
            raise AuthError("sign in: no token was sent")
        payload, _, signature = token.partition(".")
        if not signature or not hmac.compare_digest(self._sign(payload), signature):
            raise AuthError("the token is not one this casino signed")
        try:
            data = json.loads(_unb64(payload))
            claims = Claims(int(data["id"]), str(data["u"]), float(data["exp"]))
        except (ValueError, KeyError, TypeError) as error:
            raise AuthError(f"the token cannot be read: {error}") from None
        if claims.expires <= now:
            raise AuthError("the token has expired: sign in again")
        return claims


def credentials(username: str, password: str, role: str) -> Credentials:
    """A new user's checked name, password and role, the password hashed."""
    check_username(username)
    check_password(password)
    check_role(role)
    return Credentials(username, role, hash_password(password))


class Accounts:
    """Signing up and signing in: new users, the limits on failed sign-ins, the tokens, and
    the users they name (each read once per process). The casino's façade calls it."""

    def __init__(self, db: Database, settings: Settings, clock: Callable[[], float]) -> None:
        self.db = db
        self.settings = settings
        self.clock = clock
        self.tokens: Tokens | None = None
        self._callers: dict[int, Caller] = {}

    def load_tokens(self) -> None:
        """The signing key, made on the database's first start (call once, before use)."""
        with self.db.write() as session:
            self.tokens = Tokens.load(session, self.settings.token_hours * 3600)

    def register(self, username: str, password: str, role: str = "player") -> Caller:
        balance = self.settings.starting_balance_cents if role == "player" else 0
        who = credentials(username, password, role)
        with self.db.write() as session:
            user = store.create_user(session, who, balance, self.clock())
            return Caller(user.id, user.username, user.role)

    LOGIN_WINDOW = 15 * 60.0
    """Failed sign-ins are counted over this many seconds."""
    LOGIN_FAILURES: ClassVar[Mapping[str, int]] = {"username": 5, "address": 50}
    """Failures in the window after which further attempts are refused (429)."""

    def login(self, username: str, password: str, address: str = "") -> str:
        """A token for a right password. Wrong ones are rate-limited per username and per
        address; a right one is never counted against either.

        The attempt is counted as a failure before the password is checked (outside any
        transaction: it takes tens of milliseconds) and forgiven once it proves right, so
        attempts racing each other cannot slip past the limit together."""
        now = self.clock()
        with self.db.write() as session:
            since = now - self.LOGIN_WINDOW
            for column, key in (("username", username[:64]), ("address", address[:64])):
                failed = session.scalar(select(func.count(LoginFailure.id)).where(
                    getattr(LoginFailure, column) == key, LoginFailure.at >= since))  # fmt: skip
                if key and (failed or 0) >= self.LOGIN_FAILURES[column]:
                    raise TooManyAttempts(
                        f"too many failed sign-ins for this {column}: wait"
                        f" {round(self.LOGIN_WINDOW / 60)} minutes and try again"
                    )
            attempt = LoginFailure(username=username[:64], address=address[:64], at=now)
            session.add(attempt)
            session.execute(delete(LoginFailure).where(LoginFailure.at < since - 86_400))
            user = session.scalars(select(User).where(User.username == username)).first()
        if not password_matches(user.password_hash if user else None, password) or user is None:
            raise AuthError("wrong username or password")
        with self.db.write() as session:
            session.execute(delete(LoginFailure).where(LoginFailure.id == attempt.id))
        assert self.tokens is not None
        return self.tokens.issue(user.id, user.username, now)

    async def authenticate(self, token: str | None) -> Caller:
        """The user a valid token names. Users are never renamed, removed or given another
        role, so each is read from the database once per process."""
        assert self.tokens is not None
        claims: Claims = self.tokens.check(token, self.clock())
        known = self._callers.get(claims.user_id)
        if known is None:
            known = await asyncio.to_thread(self._caller, claims.user_id)
        if known.username != claims.username:
            raise AuthError("the token's user no longer exists")
        return known

    def _caller(self, user_id: int) -> Caller:
        with self.db.read() as session:
            user = session.get(User, user_id)
            if user is None:
                raise AuthError("the token's user no longer exists")
            known = self._callers[user.id] = Caller(user.id, user.username, user.role)
            return known
