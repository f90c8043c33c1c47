"""Reading paytable files: the one place baccara opens a paytable a user names.

The rules (``games/``) know only :class:`~baccara.games.paytable.Paytable` values and
the shipped ones by name; a file is read here, by the command line or a Python
caller, and handed to the rules as a value. The server never reads a file a user
names.
"""

from __future__ import annotations

import pathlib
from collections.abc import Mapping
from typing import Any

from baccara.games.paytable import SHIPPED, InvalidPaytable, Paytable

DEFAULT_PAYTABLE = "default"


def shipped_paytables() -> tuple[str, ...]:
    """Names of the paytables baccara ships (``default`` …)."""
    return tuple(sorted(SHIPPED))


def load_paytable(spec: str | pathlib.Path = DEFAULT_PAYTABLE) -> Paytable:
    """A shipped paytable by name, or a TOML file by path."""
    if isinstance(spec, str) and spec in SHIPPED:
        return SHIPPED[spec]
    path = pathlib.Path(spec)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        shipped = ", ".join(shipped_paytables())
        raise InvalidPaytable(
            f"no paytable file {str(spec)!r} (shipped paytables: {shipped})"
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidPaytable(f"cannot read paytable {str(spec)!r}: {error}") from None
    return Paytable.from_toml(text, str(path))


def with_paytable_file(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with a ``paytable`` named by path replaced by the file's paytable.

    What the command line calls before building rules, so ``--option paytable=my.toml``
    works while the rules themselves read no file.
    """
    result = dict(options)
    value = result.get("paytable")
    if isinstance(value, str | pathlib.Path) and str(value).strip() not in SHIPPED:
        result["paytable"] = load_paytable(value)
    return result
