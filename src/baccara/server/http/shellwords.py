"""The shell's fixed words in the visitor's language, written by the server.

The page puts its catalog's words into the shell's ``data-i18n`` elements once its script
runs (``web/js/i18n.js``); the server writes the same words into the shell it sends, so
what is read before the script runs, or without it (the ``<noscript>`` note, the casino's
404 page, the title a tab shows), is in the visitor's language too, never English on a
Chinese page.

>>> localized('<html lang="en"><p data-i18n="common.sign_in">Sign in</p></html>', "zh-Hans")
'<html lang="zh-Hans" data-locale="zh-Hans"><p data-i18n="common.sign_in">登录</p></html>'
"""

from __future__ import annotations

import functools
import html
import re
from typing import Any

from baccara.server.http import languages

_TEXT = re.compile(
    r'(?P<open><(?P<tag>[a-z][a-z0-9]*)\b[^>]*?\sdata-i18n="(?P<key>[\w.-]+)"[^>]*>)'
    r"(?P<text>[^<]*)(?P<close></(?P=tag)>)"
)
"""An element whose whole text is one message: ``<span data-i18n="key">words</span>``."""
_ATTRIBUTES = re.compile(r'<[a-z][a-z0-9]*\b[^>]*?\sdata-i18n-attr="(?P<pairs>[^"]+)"[^>]*>')
"""A tag whose attributes are messages: ``data-i18n-attr="aria-label:key;title:key2"``."""


def message(messages: dict[str, Any], key: str, fallback: str) -> str:
    """A plain message of the catalog, escaped for HTML (the shell's words have no plural)."""
    found = messages.get(key)
    return html.escape(found, quote=True) if isinstance(found, str) else fallback


def _attributes(messages: dict[str, Any], tag: str, pairs: str) -> str:
    for pair in pairs.split(";"):
        attribute, _, key = (part.strip() for part in pair.partition(":"))
        if not re.fullmatch(r"[a-z-]+", attribute) or not key:
            continue
        value = message(messages, key, "")
        if not value:
            continue
        present = re.compile(rf'(\s{attribute}=")[^"]*(")')
        found = present.search(tag)
        if found:
            tag = tag[: found.end(1)] + value + tag[found.start(2) :]
        else:
            tag = tag.replace(" data-i18n-attr=", f' {attribute}="{value}" data-i18n-attr=', 1)
    return tag


@functools.lru_cache(maxsize=16)
def localized(shell: str, code: str) -> str:
    """The shell in ``code``: ``<html lang>`` and ``data-locale`` (which catalog the page
    reads), each ``data-i18n`` element's text and each ``data-i18n-attr`` attribute from
    that locale's catalog; a key the catalog lacks keeps the shell's English."""
    messages = languages.catalog(code)
    page = shell.replace('<html lang="en">', f'<html lang="{code}" data-locale="{code}">', 1)
    page = _TEXT.sub(
        lambda m: m["open"] + message(messages, m["key"], m["text"]) + m["close"], page
    )
    return _ATTRIBUTES.sub(lambda m: _attributes(messages, m.group(0), m["pairs"]), page)
