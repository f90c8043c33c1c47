"""What every command shares: the console, reading ``--option KEY=VALUE``, the exit codes."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from baccara.errors import BaccaraError

EXIT_USAGE = 2
"""Every refusal: one line on stderr and this status."""
EXIT_INTERRUPTED = 130
"""Ctrl-C, as shells report it."""


def console() -> Console:
    return Console(highlight=False)


def collect(**given: Any) -> dict[str, Any]:
    """Options the user actually gave, so each game keeps its own defaults for the rest."""
    return {name: value for name, value in given.items() if value is not None}


def parse_assignments(assignments: list[str] | None) -> dict[str, str]:
    """``["decks=6", "tie-pays=9"]`` → ``{"decks": "6", "tie-pays": "9"}``."""
    options: dict[str, str] = {}
    for item in assignments or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise BaccaraError(f"--option wants KEY=VALUE, got {item!r}")
        options[key.strip()] = value.strip()
    return options


def rule_options(assignments: list[str] | None, **given: Any) -> dict[str, Any]:
    """The rule options of a command: its own flags, then ``--option``s, paytable files read.

    ``--option paytable=FILE`` names a file; it is read here, at the command line, so
    the rules receive a paytable and never touch the file system.
    """
    from baccara.paytables import with_paytable_file

    options = collect(**given)
    options.update(parse_assignments(assignments))
    return with_paytable_file(options)
