"""``baccara serve``, ``baccara user add`` and ``user add-many`` fed what a hostile user
types (issue 15).

No server is started: in the forked copy that runs each command,
:func:`baccara.cli.serve.start` is replaced by one that prints the settings it was
given, so a command that would have started the casino shows what it read instead.
``user add`` and ``user add-many`` write to a fresh SQLite file.
"""

from __future__ import annotations

import json
import os
import pathlib
import tempfile
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from baccara.cli.serve import balance, check_host, choice, lease, place, proxies, seconds
from baccara.options import as_int
from baccara.server.settings import LogFormat, LogLevel, Settings
from tests.hostile import any_text, file_name, lines_of_input, number_text
from tests.hostile_run import HOSTILE, outcome, read

FED = {
    *(("serve", flag) for flag in ("--host", "--port", "--betting-seconds", "--peek-seconds",
                                   "--choose-seconds", "--reveal-delay-ms", "--starting-balance",
                                   "--lease-seconds", "--log-level", "--log-format",
                                   "--forwarded-allow-ips", "--upstream")),
    ("user add", "NAME"),
    ("user add", "--role"),
    ("user add", "standard input"),
    ("user add-many", "PREFIX"),
    ("user add-many", "--count"),
    ("user add-many", "--tokens"),
    ("user add-many", "standard input"),
}  # fmt: skip
"""What this module feeds hostile input: (command, option or argument)."""


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """Import the server's settings, database and password hashing once, so each forked
    command starts warm."""
    import baccara.server.app
    import baccara.server.db.store  # noqa: F401


def _no_server() -> None:
    """In the fork: starting the casino prints what it would start with."""
    import baccara.cli.serve

    def start(settings: Any, host: str, port: int) -> None:
        print(json.dumps({"host": host, "port": port, **settings.model_dump()}))

    baccara.cli.serve.start = start


def serve(*args: str) -> dict[str, Any] | None:
    """What ``baccara serve ARGS`` would start the casino with, or ``None`` if it refused."""
    with tempfile.TemporaryDirectory() as folder:
        ran = outcome("serve", *args, cwd=folder, before=_no_server,
                      env={"DATABASE_URL": f"sqlite:///{folder}/casino.db"})  # fmt: skip
    if ran.returncode == 2:
        return None
    started: dict[str, Any] = json.loads(ran.stdout)
    return started


SETTINGS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "--port": ("port", lambda v: as_int("--port", v, 1, 65_535)),
    "--betting-seconds": ("betting_seconds", lambda v: seconds("--betting-seconds", v, 15)),
    "--peek-seconds": ("peek_seconds", lambda v: seconds("--peek-seconds", v, 10)),
    "--choose-seconds": ("choose_seconds", lambda v: seconds("--choose-seconds", v, 10)),
    "--reveal-delay-ms": ("reveal_delay_ms", lambda v: as_int("--reveal-delay-ms", v, 0, 60_000)),
    "--starting-balance": ("starting_balance_cents", lambda v: balance("--starting-balance", v)),
    "--host": ("host", check_host),
    "--lease-seconds": ("lease_seconds", lease),
    "--log-level": ("log_level", lambda v: choice("--log-level", v, LogLevel)),
    "--log-format": ("log_format", lambda v: choice("--log-format", v, LogFormat)),
    "--forwarded-allow-ips": ("forwarded_allow_ips", lambda v: _proxies(v)),
    "--upstream": ("upstream", place),
}
"""Each option of serve: the setting it makes, and how the library reads it."""


def _proxies(text: str) -> str:
    """The proxies as the settings keep them: checked by the option, then written out."""
    return Settings(forwarded_allow_ips=proxies(text)).forwarded_allow_ips


@pytest.mark.slow
@pytest.mark.parametrize("flag", list(SETTINGS))
@HOSTILE
@given(value=st.one_of(number_text(), any_text()))
def test_serve(flag: str, value: str) -> None:
    """Every setting refused at once, or the casino started with the value read."""
    key, parse = SETTINGS[flag]
    expected = read(lambda: parse(value))
    started = serve(flag, value)
    assert (started is None) == (expected is None)
    if started is not None:
        assert started[key] == expected


@pytest.mark.slow
@HOSTILE
@given(
    variable=st.sampled_from(["DATABASE_URL", "BACCARA_TOKEN_HOURS", "BACCARA_DEFAULT_TABLES",
                              "BACCARA_STARTING_BALANCE_CENTS", "BACCARA_BETTING_SECONDS",
                              "BACCARA_LEASE_SECONDS", "BACCARA_NODE_URL", "BACCARA_BET_LANE",
                              "BACCARA_LOG_LEVEL", "BACCARA_LOG_FORMAT",
                              "BACCARA_METRICS_SCRAPE_ADDRESSES", "BACCARA_FORWARDED_ALLOW_IPS",
                              "FORWARDED_ALLOW_IPS", "BACCARA_SIGN_UPS_PER_HOUR",
                              "BACCARA_SIGN_UPS_PER_DAY"]),
    value=st.one_of(any_text(), number_text()).filter(lambda v: "\x00" not in v),
)  # fmt: skip
def test_serve_environment(variable: str, value: str) -> None:
    """Any value in the environment: named in one line, or used."""
    value = value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    with tempfile.TemporaryDirectory() as folder:
        outcome("serve", cwd=folder, before=_no_server, env={variable: value})


@pytest.mark.slow
@HOSTILE
@given(
    name=st.one_of(any_text(), st.sampled_from(["ann", "ann\n", "a" * 33, "_ann", "ann.b-c_d"])),
    role=st.one_of(any_text(), st.sampled_from(["admin", "dealer", "player", "Player"])),
    password=st.one_of(
        lines_of_input(("a long password", "password1", "")), st.binary(max_size=300)
    ),
)
def test_user_add(name: str, role: str, password: bytes) -> None:
    """Any name, role and bytes as the password: the user added, or refused in one line."""
    from baccara.server.domain.accounts import check_password, check_role, check_username

    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/casino.db"
        ran = outcome("user", "add", "--role", role, "--", name, stdin=password, cwd=folder,
                      env={"DATABASE_URL": url})  # fmt: skip
        typed = _first_line(password)  # not text: no password, refused
        valid = (
            read(lambda: check_username(name)) is not None
            and read(lambda: check_role(role)) is not None
            and typed is not None
            and read(lambda: check_password(typed)) is not None
        )
        if ran.returncode == 0:
            assert ran.stdout == f"{role} {name} added\n"
            assert (pathlib.Path(folder) / "casino.db").stat().st_size > 0
        assert ran.returncode == (0 if valid else 2), (name, role, password[:80])


@pytest.mark.slow
@HOSTILE
@given(
    prefix=st.one_of(any_text(), st.sampled_from(["crowd-", "a" * 31, "_x", "load"])),
    count=st.one_of(number_text(), st.integers(1, 3).map(str)),
    tokens=st.one_of(st.none(), file_name()),
    password=st.one_of(lines_of_input(("a long password", "")), st.binary(max_size=300)),
)
def test_user_add_many(prefix: str, count: str, tokens: str | None, password: bytes) -> None:
    """Any prefix, count, file and password: the players made (and their tokens written),
    or refused in one line with nobody made and no file left."""
    from baccara.cli.serve import MAX_MANY
    from baccara.server.domain.accounts import check_password, check_username

    number = read(lambda: as_int("--count", count, 1, MAX_MANY))
    assume(number is None or number <= 5)  # a valid crowd is made: keep it small
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/casino.db"
        options = ["--count", count, *(["--tokens", tokens] if tokens is not None else [])]
        ran = outcome("user", "add-many", *options, "--", prefix, stdin=password, cwd=folder,
                      env={"DATABASE_URL": url})  # fmt: skip
        typed = _first_line(password)
        valid = (
            number is not None
            and read(lambda: check_username(f"{prefix}1")) is not None
            and read(lambda: check_username(f"{prefix}{number}")) is not None
            and typed is not None
            and read(lambda: check_password(typed)) is not None
        )
        written = sorted(os.listdir(folder))
        if ran.returncode == 0:
            assert ran.stdout == f"{number:,} players added, {prefix}1 to {prefix}{number}\n"
            if tokens is not None:
                made = json.loads((pathlib.Path(folder) / tokens).read_text())
                assert [m["username"] for m in made] == [f"{prefix}{n}" for n in
                                                          range(1, number + 1)]  # fmt: skip
        else:
            assert written in ([], ["casino.db"]), written  # no tokens' file left
        creatable = tokens is None or (tokens not in ("", ".", "..")
                                       and len(tokens.encode()) <= 255)  # fmt: skip
        assert ran.returncode == (0 if valid and creatable else 2), (prefix, count, tokens)


def _first_line(stdin: bytes) -> str | None:
    """The password ``read_password`` takes from standard input, or ``None`` if not text."""
    try:
        return stdin.split(b"\n")[0].removesuffix(b"\r").decode()
    except UnicodeDecodeError:
        return None


def test_no_database_is_left_behind() -> None:
    """The tests wrote their databases in folders of their own, none here."""
    assert not os.path.exists("baccara.db")
