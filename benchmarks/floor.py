"""The floor of this stack: the least any casino on it must do to take a bet.

A raw ASGI application under uvicorn (the same server, HTTP parser and event loop as
``baccara serve``) that, for ``POST /bets``, checks a bearer token's HMAC, parses the
JSON body, and runs one SQLite transaction in write-ahead-log mode with
``synchronous=NORMAL`` (as the casino's database): the Idempotency-Key taken by a unique
key, and the stake debited only if the wallet holds it. Nothing else — no table, no
round, no ledger, no event, no socket — so what ``baccara serve`` takes bets at, as a
share of this, is what its casino costs on top of the bare minimum, measured side by
side on the same machine in the same run (:mod:`benchmarks.load` prints both).

    FLOOR_DB=/tmp/floor.db python -m uvicorn benchmarks.floor:app --port 8100 --http httptools
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import sqlite3
from typing import Any

KEY = b"the floor's signing key"
PLAYERS = 1000
START_CENTS = 100_000_000


def token(user_id: int) -> str:
    """A token the floor accepts: the user's id, signed as the casino signs its tokens."""
    payload = base64.urlsafe_b64encode(json.dumps({"id": user_id}).encode()).rstrip(b"=")
    signature = base64.urlsafe_b64encode(hmac.new(KEY, payload, hashlib.sha256).digest())
    return f"{payload.decode()}.{signature.rstrip(b'=').decode()}"


def _user(authorization: bytes) -> int | None:
    scheme, _, signed = authorization.decode("latin-1").partition(" ")
    payload, _, signature = signed.partition(".")
    if scheme.lower() != "bearer" or not signature:
        return None
    expected = base64.urlsafe_b64encode(hmac.new(KEY, payload.encode(), hashlib.sha256).digest())
    if not hmac.compare_digest(expected.rstrip(b"=").decode(), signature):
        return None
    user_id = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["id"]
    return int(user_id)


def _open(path: str) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.executescript(
        """
        CREATE TABLE IF NOT EXISTS wallets (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS bets (user_id INTEGER NOT NULL, key TEXT NOT NULL,
                                         amount INTEGER NOT NULL, PRIMARY KEY (user_id, key));
        """
    )
    connection.executemany(
        "INSERT OR IGNORE INTO wallets VALUES (?, ?)",
        [(n, START_CENTS) for n in range(1, PLAYERS + 1)],
    )
    return connection


_databases: list[sqlite3.Connection] = []
"""The database, opened as the server starts (importing this module opens nothing)."""


def _place(user_id: int, key: str, amount: int) -> int:
    """One transaction: the key taken, the stake debited; 201, or 409 / 402 and nothing."""
    db = _databases[0]
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("INSERT INTO bets VALUES (?, ?, ?)", (user_id, key, amount))
        debited = db.execute(
            "UPDATE wallets SET balance = balance - ? WHERE id = ? AND balance >= ?",
            (amount, user_id, amount),
        ).rowcount
    except sqlite3.IntegrityError:
        db.execute("ROLLBACK")
        return 409
    if not debited:
        db.execute("ROLLBACK")
        return 402
    db.execute("COMMIT")
    return 201


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            _databases.append(_open(os.environ["FLOOR_DB"]))
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    headers = dict(scope["headers"])
    user_id = _user(headers.get(b"authorization", b""))
    status = 401
    if user_id is not None and scope["path"] == "/bets":
        bet = json.loads(body)
        status = _place(user_id, headers[b"idempotency-key"].decode(), int(bet["amount_cents"]))
    answer = json.dumps({"status": status}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(answer)).encode())]})  # fmt: skip
    await send({"type": "http.response.body", "body": answer})
