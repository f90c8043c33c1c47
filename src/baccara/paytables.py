"""Finding paytable files: the ones shipped with baccara, or any file a user names."""

from __future__ import annotations

import functools
import importlib.resources
import pathlib

from baccara.games.paytable import InvalidPaytable, Paytable

DEFAULT_PAYTABLE = "default"


def shipped_paytables() -> tuple[str, ...]:
    """Names of the paytables in the package (``default`` …)."""
    folder = importlib.resources.files("baccara.data.paytables")
    return tuple(
        sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))
    )


def load_paytable(spec: str | pathlib.Path = DEFAULT_PAYTABLE) -> Paytable:
    """A shipped paytable by name, or a TOML file by path."""
    if isinstance(spec, str) and spec in shipped_paytables():
        resource = importlib.resources.files("baccara.data.paytables") / f"{spec}.toml"
        return Paytable.from_toml(resource.read_text(encoding="utf-8"), f"{spec}.toml")
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


@functools.cache
def default_paytable() -> Paytable:
    """The shipped default Bonus paytable (read once; paytables are immutable)."""
    return load_paytable(DEFAULT_PAYTABLE)
