"""``baccara serve``, ``baccara user add`` and ``user add-many`` as a user runs them, bad
input first.

No server is started here: ``serve`` hands its checked settings to
:func:`baccara.cli.serve.start`, which the tests replace. (tests/server/ starts real
ones.) ``user add`` writes to an SQLite file of the test's own.
"""

from __future__ import annotations

import json
import pathlib
import time
from typing import Any

import pytest
from sqlalchemy import select

from baccara.server.db.database import Database
from baccara.server.db.models import User
from baccara.server.settings import Settings
from tests.helpers import assert_refused, run


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> list[Any]:
    """What ``serve`` would start the casino with, instead of starting it."""
    calls: list[Any] = []
    monkeypatch.setattr("baccara.cli.serve.start", lambda *args: calls.append(args))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'casino.db'}")
    return calls


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "0"], "--port: must be between 1 and 65,535, got 0"),
        (["--port", "65536"], "--port: must be between 1 and 65,535"),
        (["--port", "80.5"], "--port: must be a whole number, got '80.5'"),
        (["--port", "9" * 5000], "--port: must be a whole number of at most 64 characters"),
        (["--host", "a..b"], "--host: must be an IP address or a host name, got 'a..b'"),
        (["--host", "x" * 300], "--host: must be an IP address or a host name"),
        (["--host", "\x1b[31m"], "--host: must be an IP address or a host name, got '\\x1b[31m'"),
        (["--betting-seconds", "0.5"], "--betting-seconds: must be in [1, 3600], got 0.5"),
        (["--betting-seconds", "nan"], "--betting-seconds: must be a number, got 'nan'"),
        (["--peek-seconds", "1e999999999"], "--peek-seconds: must be in [1, 3600]"),
        (["--choose-seconds", "3600.0000000000001"], "--choose-seconds: must be a number with"),
        (["--reveal-delay-ms", "60001"], "--reveal-delay-ms: must be between 0 and 60,000"),
        (["--reveal-delay-ms", "0.5"], "--reveal-delay-ms: must be a whole number"),
        (["--starting-balance", "-0.01"], "--starting-balance: must be between 0.00 and"),
        (["--starting-balance", "10000000000.01"], "--starting-balance: must be between 0.00"),
        (["--starting-balance", "0.001"], "--starting-balance: must be an amount with at most 2"),
        (
            ["--forwarded-allow-ips", "*"],
            "--forwarded-allow-ips: must be a comma-separated list"
            " of IP addresses or networks (10.0.0.0/24), got '*'",
        ),
        (["--forwarded-allow-ips", "10.0.0.0/33"], "--forwarded-allow-ips: must be a comma-"),
        (["--forwarded-allow-ips", "proxy.internal"], "got 'proxy.internal'"),
        (["--forwarded-allow-ips", "10.0.0.1,,10.0.0.2"], "--forwarded-allow-ips: must be a"),
        (["--upstream", "3/2"], "--upstream: must be INDEX/SERVERS with the index from 1 to"),
        (["--upstream", "two"], "--upstream: must be INDEX/SERVERS, this process's place"),
        (
            ["--forwarded-allow-ips", ",".join(["10.0.0.1"] * 65)],
            "--forwarded-allow-ips: must be at most 64 addresses",
        ),
    ],
)
def test_serve_refuses_before_starting(started: list[Any], args: list[str], message: str) -> None:
    """``--betting-seconds 0.5`` was accepted, then refused by every table once the server
    ran; ``nan`` passed the range check; ``--starting-balance 0`` was refused although the
    message offered 0, and anything over 1,000,000.00 too although it offered more."""
    assert_refused(run("serve", *args), message)
    assert started == []


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("BACCARA_TOKEN_HOURS", "abc", "BACCARA_TOKEN_HOURS: input should be a valid number"),
        (
            "BACCARA_UPSTREAM",
            "2/1",
            "BACCARA_UPSTREAM: value error, the index counts from 1 to the",
        ),
        ("BACCARA_UPSTREAM", "1", "BACCARA_UPSTREAM: string should match pattern"),
        ("BACCARA_DEFAULT_TABLES", "maybe", "BACCARA_DEFAULT_TABLES: input should be a valid"),
        ("DATABASE_URL", "mysql://u:secret@host/db", "in SQLite or PostgreSQL, not 'mysql'"),
        ("DATABASE_URL", "not a url", "DATABASE_URL: not a database URL"),
        ("DATABASE_URL", "postgresql+nodriver://h/d", "DATABASE_URL: no driver"),
        ("FORWARDED_ALLOW_IPS", "*", "FORWARDED_ALLOW_IPS: value error, a comma-separated list"),
        ("BACCARA_FORWARDED_ALLOW_IPS", "::1/200", "BACCARA_FORWARDED_ALLOW_IPS: value error"),
    ],
)
def test_serve_names_a_bad_setting_of_the_environment(
    started: list[Any], monkeypatch: pytest.MonkeyPatch, variable: str, value: str, message: str
) -> None:
    """A ValidationError or an SQLAlchemy error was a traceback; a password in the URL is
    never shown."""
    monkeypatch.setenv(variable, value)
    result = run("serve")
    assert_refused(result, message)
    assert "secret" not in result.stderr and started == []


def test_serve_starts_with_what_was_typed(started: list[Any]) -> None:
    result = run("serve", "--host", " localhost ", "--port", "8080.0", "--betting-seconds", "1",
                 "--peek-seconds", "2.5", "--choose-seconds", "3600", "--reveal-delay-ms", "0",
                 "--starting-balance", "0")  # fmt: skip
    assert result.returncode == 0, result.stderr
    ((settings, host, port),) = started
    assert (host, port) == ("localhost", 8080)
    assert isinstance(settings, Settings)
    assert (settings.betting_seconds, settings.peek_seconds, settings.choose_seconds) == (
        1,
        2.5,
        3600,
    )
    assert (settings.reveal_delay_ms, settings.starting_balance_cents) == (0, 0)
    run("serve", "--host", "::1", "--starting-balance", "10000000000")
    assert started[1][0].starting_balance_cents == 10**12 and started[1][1] == "::1"


def test_serve_believes_x_forwarded_for_from_the_proxies_it_is_given(
    started: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a proxy on this host by default; ``--forwarded-allow-ips`` over the environment."""
    run("serve")
    assert started[0][0].forwarded_allow_ips == "127.0.0.1, ::1"
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "10.0.0.7")
    run("serve")
    run("serve", "--forwarded-allow-ips", " 10.1.0.0/16 , fd00::/8,10.0.0.1/32 ")
    run("serve", "--forwarded-allow-ips", "")
    assert [s.forwarded_allow_ips for s, _, _ in started[1:]] == [
        "10.0.0.7", "10.1.0.0/16, fd00::/8, 10.0.0.1", ""]  # fmt: skip


@pytest.fixture
def database(monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> str:
    url = f"sqlite:///{tmp_path / 'casino.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    return url


def _user(url: str, name: str) -> tuple[str, int, bool]:
    """A user's role, balance and whether ``password1`` is their password."""
    from baccara.server.db.database import Database
    from baccara.server.db.ledger import balance
    from baccara.server.db.store import user_named, wallet
    from baccara.server.domain.accounts import password_matches

    db = Database(url)
    try:
        with db.read() as session:
            user = user_named(session, name)
            matches = password_matches(user.password_hash, "password1")
            return user.role, balance(session, wallet(session, user.id)), matches
    finally:
        db.dispose()


def test_user_add_reads_the_password_from_the_first_line(database: str) -> None:
    result = run("user", "add", "ann", stdin="password1\r\nignored\n")
    assert (result.returncode, result.stdout) == (0, "player ann added\n"), result.stderr
    assert _user(database, "ann") == ("player", 100_000, True)
    assert run("user", "add", "deb", "--role", "dealer", stdin=b"password1").returncode == 0
    assert _user(database, "deb") == ("dealer", 0, True)


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["bob\n"], "password1\n", "username: 3 to 32 letters"),
        (["b"], "password1\n", "username: 3 to 32 letters"),
        (["bob", "--role", "\x1b[31mgod"], "password1\n", "role: one of admin, dealer, player"),
        (["bob"], b"\xff\xfepassword1\n", "password: standard input is not UTF-8 text"),
        (["bob"], b"", "password: none on standard input"),
        (["bob"], b"\n", "password: 8 to 128 characters"),
        (["bob"], b"p" * 129 + b"\n", "password: a line of standard input is over 128"),
        (["bob"], b"p" * 1_000_000, "password: a line of standard input is over 128 characters"),
    ],
)
def test_user_add_refuses_bad_names_roles_and_passwords(
    database: str, args: list[str], stdin: str | bytes, message: str
) -> None:
    """``bob\\n`` was a valid name (the pattern's ``$`` matched before the newline); random
    bytes were a UnicodeDecodeError; a line with no end was read whole."""
    assert_refused(run("user", "add", *args, stdin=stdin), message)


def test_user_add_refuses_a_name_taken_and_a_database_it_cannot_open(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run("user", "add", "ann", stdin="password1\n").returncode == 0
    assert_refused(run("user", "add", "ann", stdin="password1\n"), "the username 'ann' is taken")
    monkeypatch.setenv("DATABASE_URL", "sqlite:////no/such/folder/casino.db")
    assert_refused(
        run("user", "add", "bob", stdin="password1\n"),
        "DATABASE_URL: cannot open the database: unable to open database file",
    )


def test_user_add_many_makes_players_signed_in_with_one_hash(
    database: str, tmp_path: pathlib.Path
) -> None:
    """A load test's crowd: every player with the starting balance, the password of a real
    account (the same Argon2 parameters), and a token the casino accepts."""
    from baccara.server.domain.accounts import Tokens, hash_password

    tokens = tmp_path / "tokens.json"
    result = run("user", "add-many", "crowd-", "--count", "25", "--tokens", str(tokens),
                 stdin="password1\n")  # fmt: skip
    assert result.stdout == "25 players added, crowd-1 to crowd-25\n", result.stderr
    assert tokens.stat().st_mode & 0o777 == 0o600
    made = json.loads(tokens.read_text())
    assert [m["username"] for m in made] == [f"crowd-{n}" for n in range(1, 26)]
    assert _user(database, "crowd-25") == ("player", 100_000, True)
    db = Database(database)
    try:
        with db.read() as session:
            hashes = {u.password_hash for u in session.scalars(select(User))}
            checker = Tokens.load(session, 3600)
    finally:
        db.dispose()
    (shared,) = hashes  # one hash, with the parameters of every sign-up's
    assert shared.split("$")[:4] == hash_password("password1").split("$")[:4]
    for m in made:
        claims = checker.check(m["token"], time.time())
        assert (claims.user_id, claims.username) == (m["id"], m["username"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["crowd-", "--count", "0"], "--count: must be between 1 and 10,000, got 0"),
        (["crowd-", "--count", "10001"], "--count: must be between 1 and 10,000"),
        (["crowd-", "--count", "2.5"], "--count: must be a whole number"),
        (["a" * 30, "--count", "100"], "username: 3 to 32 letters"),  # a300 is 33 long
        (["bad name", "--count", "2"], "username: 3 to 32 letters"),
        (["a", "--count", "100"], "username: 3 to 32 letters"),  # a1 is too short
    ],
)
def test_user_add_many_refuses_bad_input(database: str, args: list[str], message: str) -> None:
    assert_refused(run("user", "add-many", *args, stdin="password1\n"), message)
    assert _users(database) == 0


def test_user_add_many_is_all_or_nothing(database: str, tmp_path: pathlib.Path) -> None:
    """A name taken refuses the whole crowd, and leaves no tokens' file; an existing file is
    never overwritten."""
    assert run("user", "add", "crowd-7", stdin="password1\n").returncode == 0
    tokens = tmp_path / "tokens.json"
    assert_refused(
        run("user", "add-many", "crowd-", "--count", "9", "--tokens", str(tokens),
            stdin="password1\n"),
        "the username 'crowd-7' is taken",
    )  # fmt: skip
    assert _users(database) == 1 and not tokens.exists()
    tokens.write_text("mine")
    assert_refused(
        run("user", "add-many", "other-", "--count", "2", "--tokens", str(tokens),
            stdin="password1\n"),
        "exists; name a new file",
    )  # fmt: skip
    assert _users(database) == 1 and tokens.read_text() == "mine"


def _users(url: str) -> int:
    db = Database(url)
    try:
        db.migrate()
        with db.read() as session:
            return len(session.scalars(select(User)).all())
    finally:
        db.dispose()


def test_user_add_many_never_writes_its_tokens_over_the_database(database: str) -> None:
    """The tokens' file is made once the database's files exist, so naming the database
    (new, or its write-ahead log) is refused, and the casino opens as before."""
    path = database.removeprefix("sqlite:///")
    for target in (path, f"{path}-wal"):
        assert_refused(
            run("user", "add-many", "crowd-", "--count", "3", "--tokens", target,
                stdin="password1\n"),
            "exists; name a new file",
        )  # fmt: skip
        assert _users(database) == 0
    assert run("user", "add", "ann", stdin="password1\n").returncode == 0
    assert _user(database, "ann") == ("player", 100_000, True)
