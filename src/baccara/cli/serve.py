"""``baccara serve`` runs the casino; ``baccara user add`` creates a user."""

from __future__ import annotations

import getpass
import signal
import sys
from typing import Annotated

import typer

from baccara.errors import BaccaraError

user_app = typer.Typer(help="The casino's users: players, dealers and admins.")


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    betting_seconds: Annotated[
        float, typer.Option(help="Betting time from a round's first bet.", min=0.1, max=3600)
    ] = 15.0,
    peek_seconds: Annotated[
        float, typer.Option(help="RedGreen: the highest bettor's peek window.", min=0.1, max=3600)
    ] = 10.0,
    choose_seconds: Annotated[
        float,
        typer.Option(help="Mini RedGreen: time to choose the first hand.", min=0.1, max=3600),
    ] = 10.0,
    reveal_delay_ms: Annotated[
        int, typer.Option(help="Pause between cards turned, in milliseconds.", min=0, max=60_000)
    ] = 600,
    starting_balance: Annotated[
        str, typer.Option(help="Play money a new player starts with.")
    ] = "1000.00",
) -> None:
    """Run the casino: the API, the WebSocket tables and the web pages, on DATABASE_URL
    (default: the SQLite file baccara.db here)."""
    import uvicorn

    from baccara.money import parse_amount
    from baccara.server.app import create_app
    from baccara.server.settings import Settings

    balance = parse_amount(starting_balance)
    if not 0 <= balance <= 10**12:
        raise BaccaraError(f"starting-balance: 0 to 10,000,000,000.00, got {starting_balance}")
    settings = Settings(
        betting_seconds=betting_seconds,
        peek_seconds=peek_seconds,
        choose_seconds=choose_seconds,
        reveal_delay_ms=reveal_delay_ms,
        starting_balance_cents=balance,
    )
    print(f"baccara casino at http://{host}:{port}/ (API docs at /docs)", file=sys.stderr)
    # On SIGTERM uvicorn stops gracefully (the casino settles or voids the rounds in play),
    # then raises the signal again; by then the stop went well, so it ends with status 0.
    signal.signal(signal.SIGTERM, _stopped)
    # Table messages are a few hundred bytes, encoded once for every seat at the table;
    # per-connection compression would spend more processor time than it saves in bytes.
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning",
                ws_per_message_deflate=False)  # fmt: skip


def _stopped(signum: int, frame: object) -> None:
    raise SystemExit(0)


@user_app.command("add")
def add_user(
    name: Annotated[str, typer.Argument(help="The username.")],
    role: Annotated[str, typer.Option(help="admin, dealer or player.")] = "player",
) -> None:
    """Create a user; the password is read from standard input (prompted on a terminal)."""
    from baccara.server.auth import check_role, check_username
    from baccara.server.database import Database
    from baccara.server.settings import Settings
    from baccara.server.store import Credentials, create_user

    check_username(name)
    check_role(role)
    if sys.stdin.isatty():
        password = getpass.getpass("Password: ")
        if getpass.getpass("Again: ") != password:
            raise BaccaraError("the two passwords differ")
    else:
        password = sys.stdin.readline().rstrip("\n")
    who = Credentials.check(name, password, role)
    settings = Settings()
    database = Database(settings.database_url)
    try:
        database.migrate()
        import time

        balance = settings.starting_balance_cents if role == "player" else 0
        with database.write() as session:
            create_user(session, who, balance, time.time())
    finally:
        database.dispose()
    typer.echo(f"{role} {name} added")
