"""Small text helpers every renderer shares."""

from __future__ import annotations

import json
from collections.abc import Mapping

from baccara.games.variant import option_value_text
from baccara.options import option_name


def printable(text: str) -> str:
    r"""``text`` safe to print on a terminal: every control character written as an escape.

    An escape code in a paytable's name or a path would otherwise reach the terminal
    raw, and a newline would turn a one-line error into two.

    >>> printable("red\x1b[31m\nname")
    'red\\x1b[31m\\nname'
    """
    return "".join(
        char
        if char.isprintable()
        else char.encode("unicode_escape", "backslashreplace").decode("ascii")
        for char in text
    )


def to_json(data: object) -> str:
    """``data`` as one indented JSON object and a newline: strict JSON, never a bare ``NaN``.

    Reports put ``null`` where a figure does not exist (a mean over no rounds); a
    ``NaN`` reaching here is a bug, and ``allow_nan=False`` makes it fail loudly.
    """
    return json.dumps(data, indent=2, allow_nan=False) + "\n"


def options_text(options: Mapping[str, object]) -> str:
    """The rule options a result was computed under, as a header shows them and as
    ``--option`` takes them: ``decks=8, tie-pays=8, split-aces=yes``.

    A paytable read from a file is shown by its name, which the file chose: it is
    made printable here.

    >>> options_text({"tie_pays": 8, "split_aces": True, "win_bonus_pays": 1.5})
    'tie-pays=8, split-aces=yes, win-bonus-pays=1.5'
    """
    return printable(
        ", ".join(
            f"{option_name(key)}={option_value_text(value)}" for key, value in options.items()
        )
    )
