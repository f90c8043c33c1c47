"""When two usernames are one: the same without regard to case, or alike to the eye.

A username's *key* is the Unicode skeleton (UTS #39) of its case-folded NFKC form,
case-folded again: ``BOSS``, ``Boss`` and ``b0ss`` all have the key ``boss``, and the
database keeps each key once (``users.name_key`` is unique), so no one can sign up as
a name that reads as another player's at the table. The character map is Unicode's own
confusables data, as the ``confusable_homoglyphs`` package ships it, maintained
upstream rather than a list kept here. Case is folded first, so that every spelling of
a name has one key; the look-alikes caught are then those of the folded name (``0`` and
``o``, ``1`` and ``l``, ``rn`` and ``m``), and a capital ``I`` is an ``i``, not an ``l``.

The casino's records name some actors that are not users (``table`` for what the
procedure does by itself, ``dealer``, ``house`` for the house's account...): those names,
and every name with the same key, are reserved.

>>> name_key("B0SS") == name_key("boss")
True
>>> name_key("modern")
'rnodern'
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

from baccara.server.db.ledger import HOUSE
from baccara.table.events import DEALER, TABLE
from baccara.table.view import STAFF

RESERVED = frozenset({
    TABLE, STAFF, DEALER, HOUSE,
    "admin", "administrator", "banker", "casino", "croupier", "operator", "player", "root",
    "server", "support", "system",
})  # fmt: skip
"""Names the casino's records and pages use for actors that are not users: ``table`` is
the ``by`` of what a procedure does by itself, ``staff`` what a player is shown of a
dealer's or an admin's act, ``dealer`` a live table's dealer and a hand, ``house`` the
house's account, ``player`` and ``banker`` hands and bets; the rest are what a player
could take for the casino speaking."""

_MARK = "\u200e"
"""The left-to-right mark the package wraps right-to-left characters in: not part of them."""


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character's prototype: what it is confused with, by Unicode's confusables.

    The package's data lists, for each line ``source → prototype`` of the standard's
    file, the prototype under the source and the source under the prototype. A source has
    one prototype; a prototype is never a source; so a character whose one entry has more
    than one of its own is a source, one with several entries is a prototype. Where both
    have just each other, the longer one (a prototype may be several characters, a
    source never is), or else the lower one, stands for both: it is the same pair either
    way, which is all a key needs."""
    linked: dict[str, set[str]] = {}
    for key, entries in confusables.confusables_data.items():
        linked.setdefault(key.replace(_MARK, ""), set()).update(
            entry["c"].replace(_MARK, "") for entry in entries
        )
    prototypes = {}
    for char, others in linked.items():
        if len(char) != 1 or len(others) != 1:
            continue  # a prototype of several characters, or of several sources
        (other,) = others
        if len(linked.get(other, ())) > 1 or len(other) > 1:
            prototypes[char] = other
        else:
            prototypes[char] = min(char, other)
    return prototypes


def skeleton(text: str) -> str:
    """``text`` with each character replaced by its prototype (UTS #39's skeleton)."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(username: str) -> str:
    """What makes two usernames one: see the module's docstring."""
    return skeleton(unicodedata.normalize("NFKC", username).casefold()).casefold()


@functools.cache
def _reserved_keys() -> frozenset[str]:
    return frozenset(name_key(name) for name in RESERVED)


def reserved(username: str) -> bool:
    """Whether ``username`` is, or reads as, a name the casino keeps for itself."""
    return name_key(username) in _reserved_keys()
