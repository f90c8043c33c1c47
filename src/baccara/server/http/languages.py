"""The casino's languages: which one a visitor reads first, and every one's message catalog.

Every word the web casino shows comes from a catalog, ``baccara/web/i18n/<locale>/<area>.json``
(an area a part of the casino: ``common``, ``table``, ``errors``…); a locale is a folder there,
so adding Vietnamese is adding ``vi/`` with every key. The page asks for its locale's catalog
merged in one answer (``GET /i18n/<locale>.json``) before it draws anything.

A first visit reads in the language its browser asks for (``Accept-Language``): the shell of
every page goes out with ``<html lang=…>`` set from it, and the page keeps to it until the
player picks another in the header (remembered per player). Chinese is told apart by script,
as readers choose it: Taiwan, Hong Kong and Macau read Traditional characters, everyone else
Simplified, and an explicit ``zh-Hant``/``zh-Hans`` decides.
"""

from __future__ import annotations

import functools
import json
import pathlib
import re
from typing import Any

from baccara.server.errors import NotFound

CATALOGS = pathlib.Path(__file__).resolve().parents[2] / "web" / "i18n"
DEFAULT = "en"
"""The language of a visitor whose browser asks for none the casino has."""

TRADITIONAL_REGIONS = frozenset({"tw", "hk", "mo"})
"""Where Chinese is read in Traditional characters when the browser names a region, not a script."""

_RANGE = re.compile(
    r"^\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$"
)


@functools.cache
def locales() -> tuple[str, ...]:
    """The casino's locales: a folder of catalogs each, the default first."""
    found = sorted(path.name for path in CATALOGS.iterdir() if path.is_dir())
    return (DEFAULT, *(code for code in found if code != DEFAULT))


def _match(tag: str, available: tuple[str, ...]) -> str | None:
    """The locale that serves a language tag (``zh-TW`` → ``zh-Hant``), or ``None``."""
    by_lower = {code.lower(): code for code in available}
    parts = tag.lower().split("-")
    if "-".join(parts) in by_lower:
        return by_lower["-".join(parts)]
    if parts[0] == "zh":
        script = "hant" if ("hant" in parts or TRADITIONAL_REGIONS & set(parts[1:])) else "hans"
        return by_lower.get(f"zh-{script}")
    return by_lower.get(parts[0])


def negotiate(header: str | None, available: tuple[str, ...] | None = None) -> str:
    """The locale to read in, from an ``Accept-Language`` header: the most preferred
    language range the casino has (by its ``q``, then its order), else :data:`DEFAULT`.
    A malformed range is passed over, as the header's own rules ask of a reader.

    >>> negotiate("zh-TW,zh;q=0.9,en;q=0.8", ("en", "zh-Hans", "zh-Hant"))
    'zh-Hant'
    >>> negotiate("fr-CH, fr;q=0.9, *;q=0.5", ("en", "zh-Hans"))
    'en'
    """
    available = available or locales()
    ranges: list[tuple[float, int, str]] = []
    for place, item in enumerate((header or "")[:1000].split(",")[:40]):
        found = _RANGE.match(item)
        if not found:
            continue
        try:
            quality = float(found.group(2)) if found.group(2) is not None else 1.0
        except ValueError:
            continue
        if 0 < quality <= 1:
            ranges.append((-quality, place, found.group(1)))
    for _, _, tag in sorted(ranges):
        code = DEFAULT if tag == "*" else _match(tag, available)
        if code is not None:
            return code
    return DEFAULT


@functools.cache
def catalog(code: str) -> dict[str, Any]:
    """Every message of one locale, its areas merged (each area's keys start with its name)."""
    if code not in locales():
        raise NotFound(
            f"no catalog for the locale {code[:40]!r}: the casino has {', '.join(locales())}"
        )
    merged: dict[str, Any] = {}
    for path in sorted((CATALOGS / code).glob("*.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged
