"""Reading paytable files: the one place baccara opens a paytable a user names.

The rules (``games/``) know only :class:`~baccara.games.paytable.Paytable` values and
the shipped ones by name; a file is read here, by the command line or a Python
caller, and handed to the rules as a value. The server never reads a file a user
names.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from baccara.errors import shown
from baccara.files import UnreadableFile, read_regular_file
from baccara.games.paytable import SHIPPED, InvalidPaytable, Paytable

DEFAULT_PAYTABLE = "default"

MAX_PAYTABLE_BYTES = 64 * 1024
"""The largest paytable file read; the shipped one is under 400 bytes."""


def shipped_paytables() -> tuple[str, ...]:
    """Names of the paytables baccara ships (``default`` …)."""
    return tuple(sorted(SHIPPED))


def load_paytable(spec: str | os.PathLike[str] = DEFAULT_PAYTABLE) -> Paytable:
    """A shipped paytable by name, or a TOML file by path.

    Only a regular file is read, and no more than :data:`MAX_PAYTABLE_BYTES` of it:
    ``/dev/zero``, a FIFO or a directory is refused at once, never read.
    """
    if isinstance(spec, str) and spec in SHIPPED:
        return SHIPPED[spec]
    if not isinstance(spec, str | os.PathLike):
        raise InvalidPaytable(
            f"a paytable is a shipped name ({', '.join(shipped_paytables())}) or a file path,"
            f" got {shown(spec)}"
        )
    path = os.fspath(spec)
    if not isinstance(path, str):
        raise InvalidPaytable(f"a paytable file path is text, got {shown(spec)}")
    data = _read_small_regular_file(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidPaytable(
            f"cannot read paytable {path!r}: not UTF-8 text ({error.reason})"
        ) from None
    return Paytable.from_toml(text, path)


def _read_small_regular_file(path: str) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most :data:`MAX_PAYTABLE_BYTES`."""
    try:
        return read_regular_file(path, MAX_PAYTABLE_BYTES)
    except UnreadableFile as error:
        if error.missing:
            shipped = ", ".join(shipped_paytables())
            raise InvalidPaytable(
                f"no paytable file {shown(path)} (shipped paytables: {shipped})"
            ) from None
        raise InvalidPaytable(f"cannot read paytable {shown(path)}: {error.reason}") from None


def with_paytable_file(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with a ``paytable`` named by path replaced by the file's paytable.

    What the command line calls before building rules, so ``--option paytable=my.toml``
    works while the rules themselves read no file.
    """
    result = dict(options)
    value = result.get("paytable")
    if isinstance(value, str | os.PathLike) and str(value).strip() not in SHIPPED:
        result["paytable"] = load_paytable(value)
    return result
