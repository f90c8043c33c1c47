"""Who is asking: Argon2 password hashes, and signed, expiring bearer tokens.

A token is ``payload.signature``: the payload names the user and when the token
expires, the signature is HMAC-SHA256 with a key kept in the database — created on
first start, shared by every server process, surviving restarts — so a forged or
altered token, or an expired one, is refused.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from baccara.errors import shown
from baccara.server.db.models import Setting
from baccara.server.db.store import Credentials
from baccara.server.errors import AuthError, InvalidCredentials

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
