"""The casino's packages come with the ``server`` extra; the commands that need them say so.

``pip install baccara`` gives the analysis, the simulator and the command line;
``pip install "baccara[server]"`` adds what ``baccara serve`` and ``baccara user`` run
on. Without it those two refuse in one line (exit 2) instead of failing on an import.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from importlib.util import find_spec
from typing import ParamSpec, TypeVar

from baccara.errors import BaccaraError

P = ParamSpec("P")
T = TypeVar("T")

SERVER_MODULES = (
    "fastapi",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "argon2",
    "psycopg",
    "pydantic_settings",
    "httpx",
)
"""What the ``server`` extra installs, by the name each is imported under."""


def missing_server_modules() -> list[str]:
    """The server extra's modules that cannot be imported here, in :data:`SERVER_MODULES` order.

    >>> missing_server_modules()
    []
    """
    return [name for name in SERVER_MODULES if not _importable(name)]


def _importable(name: str) -> bool:
    try:
        return find_spec(name) is not None
    except (ImportError, ValueError):  # a package that is there only in part
        return False


def require_server() -> None:
    """Refuse, naming the extra, when any of the casino's packages is missing."""
    missing = missing_server_modules()
    if missing:
        raise BaccaraError(
            f"the casino needs packages that are not installed ({', '.join(missing)}):"
            ' pip install "baccara[server]"'
        )


def needs_server(command: Callable[P, T]) -> Callable[P, T]:
    """``command``, refused by :func:`require_server` first (its signature kept for Typer)."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        require_server()
        return command(*args, **kwargs)

    return wrapper
