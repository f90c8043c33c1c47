"""``baccara serve`` runs the casino; ``baccara user add`` creates a user, ``baccara user
add-many`` a crowd of players for a load test.

Everything is read and checked before the server starts or the database is opened:
the address and port, each timer against what a table accepts, the starting balance
by the bounded amount reader, ``DATABASE_URL`` and the ``BACCARA_…`` settings of the
environment, a user's name, role and password. A refusal is one line, naming what
was typed (or the variable that was set), and no server is left half started.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import getpass
import ipaddress
import json
import os
import re
import signal
import sys
from collections.abc import Callable
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from baccara.cli.common import interruptible, read_line, stdin_is_terminal
from baccara.errors import BaccaraError, InvalidOption, shown

if TYPE_CHECKING:
    from baccara.server.domain.accounts import Made
    from baccara.server.settings import Settings

E = TypeVar("E", bound=Enum)
user_app = typer.Typer(help="The casino's users: players, dealers and admins.")

HOST_NAME = re.compile(
    r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*",
    re.ASCII,
)
"""A host name as DNS spells it: labels of letters, digits and inner hyphens."""


def serve(
    host: Annotated[
        str, typer.Option(metavar="ADDRESS", help="IP address or host name to listen on.")
    ] = "127.0.0.1",
    port: Annotated[
        str | None,
        typer.Option(metavar="PORT", help="Port to listen on, 1 to 65535.", show_default="8000"),
    ] = None,
    betting_seconds: Annotated[
        str | None,
        typer.Option(
            metavar="SECONDS", help="Betting time from a round's first bet.", show_default="15"
        ),
    ] = None,
    peek_seconds: Annotated[
        str | None,
        typer.Option(
            metavar="SECONDS", help="RedGreen: the highest bettor's peek window.", show_default="10"
        ),
    ] = None,
    choose_seconds: Annotated[
        str | None,
        typer.Option(
            metavar="SECONDS",
            help="Mini RedGreen: time to choose the first hand.",
            show_default="10",
        ),
    ] = None,
    reveal_delay_ms: Annotated[
        str | None,
        typer.Option(
            metavar="MS", help="Pause between cards turned, 0 to 60,000.", show_default="600"
        ),
    ] = None,
    starting_balance: Annotated[
        str | None,
        typer.Option(
            metavar="AMOUNT", help="Play money a new player starts with.", show_default="1000.00"
        ),
    ] = None,
    lease_seconds: Annotated[
        str | None,
        typer.Option(
            metavar="SECONDS",
            help="Several processes on PostgreSQL: how soon the others take over the tables"
            " of one that stopped answering, 0.5 to 300.",
            show_default="10",
        ),
    ] = None,
    upstream: Annotated[
        str | None,
        typer.Option(
            metavar="INDEX/SERVERS",
            help="Several processes behind nginx: this one's place among the servers of"
            " nginx's baccara_tables upstream, such as 2/3; it deals the tables nginx"
            " routes to it.",
            show_default="none: tables shared fairly",
        ),
    ] = None,
    log_level: Annotated[
        str | None,
        typer.Option(
            metavar="LEVEL",
            help="The least severe event logged: debug, info, warning or error.",
            show_default="info",
        ),
    ] = None,
    log_format: Annotated[
        str | None,
        typer.Option(
            metavar="FORMAT",
            help="json (one object a line) or console (for a person), on standard error.",
            show_default="console on a terminal, else json",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            metavar="ADDRESSES",
            help="The proxies whose X-Forwarded-For names the client: IP addresses or"
            " networks, comma-separated (FORWARDED_ALLOW_IPS).",
            show_default="127.0.0.1, ::1",
        ),
    ] = None,
) -> None:
    """Run the casino: the API, the WebSocket tables and the web pages, on DATABASE_URL
    (default: the SQLite file baccara.db here). Timers are 1 to 3,600 seconds."""
    from baccara.options import as_int
    from baccara.server.settings import MAX_REVEAL_DELAY_MS, LogFormat, LogLevel

    address = check_host(host)
    number = as_int("--port", "8000" if port is None else port, 1, 65_535)
    settings = load_settings(
        betting_seconds=seconds("--betting-seconds", betting_seconds, 15),
        peek_seconds=seconds("--peek-seconds", peek_seconds, 10),
        choose_seconds=seconds("--choose-seconds", choose_seconds, 10),
        reveal_delay_ms=as_int(
            "--reveal-delay-ms", "600" if reveal_delay_ms is None else reveal_delay_ms,
            0, MAX_REVEAL_DELAY_MS,
        ),
        starting_balance_cents=balance("--starting-balance", starting_balance),
        **({} if lease_seconds is None else {"lease_seconds": lease(lease_seconds)}),
        **({} if upstream is None else {"upstream": place(upstream)}),
        **({} if log_level is None else {"log_level": choice("--log-level", log_level, LogLevel)}),
        **({} if log_format is None else {"log_format": choice("--log-format", log_format,
                                                               LogFormat)}),
        **({} if forwarded_allow_ips is None else {"forwarded_allow_ips":
                                                   proxies(forwarded_allow_ips)}),
    )  # fmt: skip
    start(settings, address, number)


def start(settings: Settings, host: str, port: int) -> None:
    """Start the casino (what ``serve`` does once every setting is checked)."""
    import uvicorn

    from baccara.server.app import create_app
    from baccara.server.http.transport import uvicorn_options
    from baccara.server.observe import logs

    logs.configure(settings.log_level, settings.log_format)
    if not settings.node_url:
        settings = settings.model_copy(update={"node_url": node_url(host, port)})
    print(f"baccara casino at http://{host}:{port}/ (API docs at /docs)", file=sys.stderr)
    # On SIGTERM uvicorn stops gracefully (the casino settles or voids the rounds in play),
    # then raises the signal again; by then the stop went well, so it ends with status 0.
    signal.signal(signal.SIGTERM, _stopped)
    app = create_app(settings)
    collect_rarely()
    # uvicorn logs through the casino's configuration (one stream, one format); its access
    # line, which would show each query string, is the casino's "request" event instead.
    # Connections are bounded, timed and counted by the casino's own protocols.
    uvicorn.run(app, host=host, port=port, log_config=None, log_level=None, access_log=False,
                **uvicorn_options(settings))  # fmt: skip


GC_THRESHOLDS = (20_000, 20, 20)
"""The cycle collector's thresholds while serving (Python's default is 700, 10, 10)."""


def collect_rarely() -> None:
    """Keep the cycle collector from holding up bets.

    Nearly all of a casino's garbage is freed by reference counting the moment it is
    dropped; the collector is for cycles. At the default thresholds, under 500 bets a
    second, it ran some 90 times a second and a full collection — walking every live
    object: every connection's, every module's — 25 times in 40 s, each holding every
    bet for 10-70 ms. So what start-up loaded, which lives as long as the process, is
    frozen (never walked again), and the collector runs on 20,000 new objects instead of
    700: a handful of collections a minute, a full one every few minutes under load.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def node_url(host: str, port: int) -> str:
    """Where the other server processes reach this one (unless ``BACCARA_NODE_URL`` says):
    this machine's name when it listens on every interface, else the address it listens on."""
    import socket

    if host in ("0.0.0.0", "::"):
        host = socket.gethostname()
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def _stopped(signum: int, frame: object) -> None:
    raise SystemExit(0)


def check_host(text: str) -> str:
    """An IP address (``127.0.0.1``, ``::``) or a host name (``localhost``) to listen on."""
    host = text.strip()
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    if HOST_NAME.fullmatch(host) is None:
        raise InvalidOption("--host", f"must be an IP address or a host name, got {shown(text)}")
    return host


def seconds(flag: str, text: str | None, default: int) -> float:
    """A timer in seconds, exactly as a table accepts it: 1 to 3,600."""
    from baccara.options import as_fraction
    from baccara.table.config import MAX_TIMER, MIN_TIMER

    return float(as_fraction(flag, str(default) if text is None else text, MIN_TIMER, MAX_TIMER))


def lease(text: str) -> float:
    """``--lease-seconds``: 0.5 to 300."""
    from baccara.options import as_fraction
    from baccara.server.settings import MAX_LEASE_SECONDS, MIN_LEASE_SECONDS

    return float(as_fraction("--lease-seconds", text, Fraction(MIN_LEASE_SECONDS),
                             MAX_LEASE_SECONDS))  # fmt: skip


def place(text: str) -> str:
    """``--upstream``: INDEX/SERVERS, the index from 1."""
    from baccara.server.cluster.placement import Upstream

    try:
        return str(Upstream.parse(text))
    except BaccaraError as error:
        raise BaccaraError(f"--upstream: {error}") from None


def proxies(text: str) -> str:
    """``--forwarded-allow-ips``: IP addresses or networks, comma-separated (none: no
    proxy is believed)."""
    from baccara.server.settings import scrape_networks

    try:
        scrape_networks(text)
    except ValueError as error:
        raise InvalidOption("--forwarded-allow-ips",
                            f"must be {error}, got {shown(text)}") from None  # fmt: skip
    return text


def choice(flag: str, text: str, values: type[E]) -> E:
    """One of ``values`` (an enum of the settings: ``LogLevel``, ``LogFormat``), as typed in
    any case."""
    try:
        return values(text.strip().lower())
    except ValueError:
        allowed = ", ".join(v.value for v in values)
        raise InvalidOption(flag, f"must be one of {allowed}, got {shown(text)}") from None


def balance(flag: str, text: str | None) -> int:
    """The starting balance in cents: 0 to :data:`MAX_STARTING_BALANCE_CENTS`."""
    from baccara.money import parse_amount
    from baccara.server.settings import MAX_STARTING_BALANCE_CENTS

    text = "1000.00" if text is None else text
    return parse_amount(text, flag, MAX_STARTING_BALANCE_CENTS, minimum=0)


def load_settings(**given: Any) -> Settings:
    """The server's settings: ``given`` (already checked) over the environment's.

    A ``BACCARA_…`` variable or ``DATABASE_URL`` the settings refuse is named in one line.
    """
    from pydantic import ValidationError

    from baccara.server.db.database import check_url
    from baccara.server.settings import Settings

    try:
        settings = Settings(**given)
    except ValidationError as error:
        first = error.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "settings"
        variable = "DATABASE_URL" if field == "database_url" else f"BACCARA_{field.upper()}"
        if field.isupper():  # a setting of two names: the one set
            variable = field if field in os.environ else field.removeprefix("BACCARA_")
        raise BaccaraError(
            f"{variable}: {first['msg'].lower()}, got {shown(first.get('input'))}"
        ) from None
    check_url(settings.database_url)
    return settings


@user_app.command("add")
@interruptible
def add_user(
    name: Annotated[
        str,
        typer.Argument(
            metavar="NAME",
            help="3 to 32 letters, digits, '.', '_' or '-' (first a letter or digit).",
        ),
    ],
    role: Annotated[str, typer.Option(metavar="ROLE", help="admin, dealer or player.")] = "player",
) -> None:
    """Create a user; the password is the first line of standard input (asked for twice on a
    terminal), 8 to 128 characters."""
    import time

    from sqlalchemy.exc import OperationalError

    from baccara.server.db.database import Database, unavailable
    from baccara.server.db.store import create_user
    from baccara.server.domain.accounts import check_role, check_username, credentials

    check_username(name)
    check_role(role)
    who = credentials(name, read_password(), role)
    settings = load_settings()
    database = Database(settings.database_url)
    try:
        database.migrate()
        balance_cents = settings.starting_balance_cents if role == "player" else 0
        with database.write() as session:
            create_user(session, who, balance_cents, time.time())
    except OperationalError as error:
        raise unavailable(error) from None
    finally:
        database.dispose()
    typer.echo(f"{role} {name} added")


MAX_MANY = 10_000
"""Players ``user add-many`` makes at once: a load test's crowd, not a casino's sign-ups."""


@user_app.command("add-many")
@interruptible
def add_many(
    prefix: Annotated[
        str,
        typer.Argument(
            metavar="PREFIX",
            help="The players are PREFIX1, PREFIX2, …: a username's letters, up to 26 of them.",
        ),
    ],
    count: Annotated[
        str, typer.Option(metavar="N", help=f"How many players, 1 to {MAX_MANY:,}.")
    ] = "100",
    tokens: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Write each player's id, name and a signed-in token to this new JSON file "
            "(readable by its owner only).",
        ),
    ] = None,
) -> None:
    """Create players for a load test, each with the starting balance; the one password
    they share is the first line of standard input.

    The password is hashed once, with the same Argon2 parameters as every sign-up (64 MiB),
    and that hash is given to all of them: a thousand players cost one hash, not a
    thousand, and no account is weaker than a real one. With ``--tokens`` they need not
    sign in either (each sign-in would check the password again).
    """
    import time

    from sqlalchemy.exc import OperationalError

    from baccara.server.db.database import Database, unavailable
    from baccara.server.domain.accounts import add_players, check_password, crowd_names

    how_many = _count(count)
    names = crowd_names(prefix, how_many)  # every name checked before anything is opened
    password = check_password(read_password())
    settings = load_settings()
    database = Database(settings.database_url)
    written: list[str] = []
    try:
        database.migrate()  # the database's files exist now: a tokens' file never is one
        write = _tokens_writer(tokens, written) if tokens is not None else None
        made = add_players(database, settings, names, password, time.time(), write)
    except BaseException as error:
        for path in written:  # nobody was made: no file either
            with contextlib.suppress(OSError):
                os.unlink(path)
        if isinstance(error, OperationalError):
            raise unavailable(error) from None
        raise
    finally:
        database.dispose()
    typer.echo(f"{how_many:,} players added, {made[0].username} to {made[-1].username}")


def _tokens_writer(path: str, written: list[str]) -> Callable[[list[Made]], None]:
    """What writes the players' tokens to the new file ``path``, before their transaction
    commits: if the file cannot be written whole, nobody is made. ``written`` learns of
    the file as soon as it exists, so that a failure after removes it."""

    def write(made: list[Made]) -> None:
        out = _new_file(path)
        written.append(path)
        try:
            with out:
                json.dump([dataclasses.asdict(player) for player in made], out)
                out.flush()
                os.fsync(out.fileno())
        except OSError as error:
            raise BaccaraError(f"--tokens: cannot write {shown(path)}: "
                               f"{error.strerror or error}") from None  # fmt: skip

    return write


def _count(text: str) -> int:
    from baccara.options import as_int

    return as_int("--count", text, 1, MAX_MANY)


def _new_file(path: str) -> Any:
    """A new file for the tokens, its owner's alone (tokens are as good as passwords)."""
    try:
        return os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w")
    except FileExistsError:
        raise BaccaraError(f"--tokens: {shown(path)} exists; name a new file") from None
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise BaccaraError(f"--tokens: cannot create {shown(path)}: {reason}") from None


def read_password() -> str:
    """The new password: asked twice on a terminal, else the first line of standard input."""
    from baccara.server.domain.accounts import MAX_PASSWORD

    if stdin_is_terminal():
        password = getpass.getpass("Password: ")
        if getpass.getpass("Again: ") != password:
            raise BaccaraError("password: the two entries differ")
        return password
    line = read_line("password", MAX_PASSWORD)
    if line is None:
        raise BaccaraError("password: none on standard input (give it on the first line)")
    return line
