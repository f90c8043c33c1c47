"""Reading bet files: the one place baccara opens a paytable, side bet or rule set a user names.

The rules (``games/``) know only values — a :class:`~baccara.games.paytable.Paytable`,
a :class:`~baccara.games.coup_bets.SideBet`, a :class:`~baccara.games.coup_bets.MainRules`
— and the shipped ones by name; a file is read here, by the command line or a Python
caller, and handed to the rules as a value. The server never reads a file a user
names.

Every file is read the same way: only a regular file, no more than
:data:`MAX_PAYTABLE_BYTES` of it, and only UTF-8 text, so ``/dev/zero``, a FIFO or a
folder is refused at once and never read.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from typing import Any

from baccara.errors import shown
from baccara.files import UnreadableFile, read_regular_file
from baccara.games.coup_bets import SHIPPED as SHIPPED_BETS
from baccara.games.coup_bets import MainRules, PayLine, SideBet, line_where
from baccara.games.paytable import SHIPPED, InvalidPaytable, Paytable, _line_of

DEFAULT_PAYTABLE = "default"

MAX_PAYTABLE_BYTES = 64 * 1024
"""The largest bet file read; the shipped ones are under 1 KiB."""

RULE_SET_KEYS = frozenset({"commission", "tie_pays", "sidebets", "banker", "player"})
"""Keys only a rule set has: how :func:`load_bet_file` tells one from a side bet."""

BetFile = Paytable | SideBet | MainRules
"""What a bet file holds: a Bonus paytable, a Punto Banco side bet or a rule set."""


def shipped_paytables() -> tuple[str, ...]:
    """Names of the paytables baccara ships (``default`` …)."""
    return tuple(sorted(SHIPPED))


def load_paytable(spec: str | os.PathLike[str] = DEFAULT_PAYTABLE) -> Paytable:
    """A shipped Bonus paytable by name, or a TOML file by path."""
    if isinstance(spec, str) and spec in SHIPPED:
        return SHIPPED[spec]
    shipped = f"shipped paytables: {', '.join(shipped_paytables())}"
    return Paytable.from_toml(_read_text(spec, "paytable", shipped), os.fspath(spec))


def load_sidebet(spec: str | os.PathLike[str]) -> SideBet:
    """A shipped Punto Banco side bet by id (``dragon-7``), or a side-bet TOML file by path."""
    if isinstance(spec, str) and spec.strip() in SHIPPED_BETS.sidebets:
        return SHIPPED_BETS.sidebets[spec.strip()]
    shipped = f"shipped side bets: {', '.join(SHIPPED_BETS.sidebets)}"
    text = _read_text(spec, "side bet", shipped)
    _check_kind(text, os.fspath(spec), "side bet")
    return _checked_sidebet(SideBet.from_toml(text, os.fspath(spec)), text, os.fspath(spec))


def load_variant(spec: str | os.PathLike[str]) -> MainRules:
    """A shipped Punto Banco rule set by id (``ez``), or a rule-set TOML file by path.

    The side bets a rule-set file offers must be shipped ones: a table is told of any
    other by its own file (``--sidebet``), so a rule set never names a file.
    """
    if isinstance(spec, str) and spec.strip() in SHIPPED_BETS.variants:
        return SHIPPED_BETS.variants[spec.strip()]
    shipped = f"shipped rule sets: {', '.join(SHIPPED_BETS.variants)}"
    source = os.fspath(spec)
    text = _read_text(spec, "rule set", shipped)
    _check_kind(text, source, "rule set")
    return _checked_rule_set(MainRules.from_toml(text, source), text, source)


def load_bet_file(spec: str | os.PathLike[str]) -> BetFile:
    """Whatever ``spec`` names: a shipped Bonus paytable, side bet or rule set, or a file.

    A file is told by its keys: a side bet has an ``id`` and ``[[pays]]`` lines, a rule
    set any of ``commission``, ``tie_pays``, ``sidebets``, ``[[banker]]`` or
    ``[[player]]``, and a Bonus paytable a ``[pays]`` table. A file that says none of
    these (or is not TOML at all) is read as a Bonus paytable, as it always was, whose
    reader then names the line at fault.
    """
    if isinstance(spec, str):
        name = spec.strip()
        if name in SHIPPED:
            return SHIPPED[name]
        if name in SHIPPED_BETS.sidebets:
            return SHIPPED_BETS.sidebets[name]
        if name in SHIPPED_BETS.variants:
            return SHIPPED_BETS.variants[name]
    shipped = (
        f"shipped paytables: {', '.join(shipped_paytables())};"
        f" side bets: {', '.join(SHIPPED_BETS.sidebets)};"
        f" rule sets: {', '.join(SHIPPED_BETS.variants)}"
    )
    source = os.fspath(spec)
    text = _read_text(spec, "paytable", shipped)
    kind = file_kind(text)
    if kind == "side bet":
        return _checked_sidebet(SideBet.from_toml(text, source), text, source)
    if kind == "rule set":
        return _checked_rule_set(MainRules.from_toml(text, source), text, source)
    return Paytable.from_toml(text, source)


def file_kind(text: str) -> str:
    """What a bet file's keys say it is: ``"side bet"``, ``"rule set"``, ``"paytable"``
    (a Bonus paytable), or ``"unknown"`` for text that is not TOML or says none of these."""
    try:
        data = tomllib.loads(text)
    except (ValueError, RecursionError):
        return "unknown"
    if RULE_SET_KEYS & set(data):
        return "rule set"
    if isinstance(data.get("pays"), list) or ("id" in data and "pays" not in data):
        return "side bet"
    if isinstance(data.get("pays"), dict):
        return "paytable"
    return "unknown"


_HOW = {
    "side bet": "a side bet (--sidebet FILE)",
    "rule set": "a rule set (--option variant=FILE)",
    "paytable": "a Bonus paytable (--option paytable=FILE)",
}


def _check_kind(text: str, source: str, wanted: str) -> None:
    """Refuse a file of another kind than ``wanted`` by saying what it is and where it goes,
    rather than by the first key the wrong reader does not know."""
    kind = file_kind(text)
    if kind not in (wanted, "unknown"):
        raise InvalidPaytable(f"{source} is {_HOW[kind]}, not a {wanted}")


def _checked_sidebet(bet: SideBet, text: str, source: str) -> SideBet:
    """``bet`` as a file defines it, if it cannot be mistaken for a shipped bet and every
    pay line can pay; refused naming the file and the line if not."""
    if bet.id in SHIPPED_BETS.sidebets:
        where = f"{source} line {_line_of(text, 'id')}" if _line_of(text, "id") else source
        raise InvalidPaytable(
            f"{where}: id {bet.id!r} is the shipped {SHIPPED_BETS.sidebets[bet.id].name}'s;"
            " give your side bet an id of its own"
        )
    _check_reachable(bet.lines, "pays", None, text, source)
    return bet


def _checked_rule_set(rules: MainRules, text: str, source: str) -> MainRules:
    """``rules``, if every line can change a win's pay and every side bet is shipped."""
    _check_reachable(rules.banker, "banker", "banker", text, source)
    _check_reachable(rules.player, "player", "player", text, source)
    return _with_shipped_sidebets(rules, text, source)


def _check_reachable(
    lines: tuple[PayLine, ...], key: str, side: str | None, text: str, source: str
) -> None:
    """Refuse a pay line no coup reaches: its condition never holds (of a win of
    ``side``), or only where an earlier line pays first — a line a player would read on
    the felt and never be paid."""
    from baccara.games.punto_banco import unreachable_line

    number = unreachable_line(lines, side)
    if number is not None:
        which = f"{side.capitalize()} win" if side else "coup"
        raise InvalidPaytable(
            f"{line_where(text, source, key, number)}: this line can never pay: no {which}"
            f" has {lines[number].when.describe()}"
            + (" that an earlier line does not already take" if number else "")
        )


def _with_shipped_sidebets(rules: MainRules, text: str, source: str) -> MainRules:
    """``rules``, if every side bet it offers is shipped; refused naming the file if not."""
    for name in rules.sidebets:
        if name not in SHIPPED_BETS.sidebets:
            line = _line_of(text, "sidebets")
            where = f"{source} line {line}" if line else source
            raise InvalidPaytable(
                f"{where}: sidebets: {shown(name)} is not a shipped side bet"
                f" ({', '.join(SHIPPED_BETS.sidebets)}); offer your own with --sidebet FILE"
            )
    return rules


def _read_text(spec: object, what: str, shipped: str) -> str:
    """The UTF-8 text of the file ``spec`` names, refused in one line calling it a ``what``."""
    if not isinstance(spec, str | os.PathLike):
        raise InvalidPaytable(
            f"a {what} is a shipped name ({shipped}) or a file path, got {shown(spec)}"
        )
    path = os.fspath(spec)
    if not isinstance(path, str):
        raise InvalidPaytable(f"a {what} file path is text, got {shown(spec)}")
    try:
        data = read_regular_file(path, MAX_PAYTABLE_BYTES)
    except UnreadableFile as error:
        if error.missing:
            raise InvalidPaytable(f"no {what} file {shown(path)} ({shipped})") from None
        raise InvalidPaytable(f"cannot read {what} {shown(path)}: {error.reason}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidPaytable(
            f"cannot read {what} {path!r}: not UTF-8 text ({error.reason})"
        ) from None


def with_paytable_file(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with a ``paytable`` or ``variant`` named by path replaced by what the
    file holds.

    What the command line calls before building rules, so ``--option paytable=my.toml``
    and ``--option variant=my-rules.toml`` work while the rules themselves read no file.
    A name that is neither shipped nor a file is refused here with the shipped names.
    """
    result = dict(options)
    value = result.get("paytable")
    if isinstance(value, str | os.PathLike) and str(value).strip() not in SHIPPED:
        result["paytable"] = load_paytable(value)
    value = result.get("variant")
    if isinstance(value, str | os.PathLike):
        result["variant"] = load_variant(value)
    return result
