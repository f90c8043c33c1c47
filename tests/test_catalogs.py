"""Every language is complete: each catalog has every key, in the same shape.

A missing key is a failing test here, never English showing through on a Chinese page. The
reference is the union of every locale's keys (a key only Chinese has is as wrong as one
only English has), and each message keeps the same placeholders in every language, so a
figure the page passes is never dropped or left as ``{total}``.
"""

from __future__ import annotations

import json
import pathlib
import re
import typing
from typing import Any

import pytest

from baccara.server import errors
from baccara.server.http import languages
from baccara.server.http.api import preferences

WEB = pathlib.Path(languages.CATALOGS).parent
PLURAL_FORMS = {"en": {"one", "other"}, "zh-Hans": {"other"}, "zh-Hant": {"other"}}
"""The CLDR plural categories each locale's Intl.PluralRules picks among for whole numbers
(Unicode CLDR, plurals.xml): English one/other, Chinese other only."""
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def areas(code: str) -> dict[str, dict[str, Any]]:
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted((languages.CATALOGS / code).glob("*.json"))
    }


def texts(entry: Any) -> list[str]:
    return list(entry.values()) if isinstance(entry, dict) else [entry]


def placeholders(entry: Any) -> set[str]:
    return {name for text in texts(entry) for name in PLACEHOLDER.findall(text)}


def test_the_casino_speaks_english_and_both_scripts_of_chinese() -> None:
    assert set(languages.locales()) >= {"en", "zh-Hans", "zh-Hant"}
    assert languages.locales()[0] == "en"


@pytest.mark.parametrize("code", languages.locales())
def test_every_catalog_has_every_key(code: str) -> None:
    everyone = {key for other in languages.locales() for key in languages.catalog(other)}
    mine = set(languages.catalog(code))
    assert sorted(everyone - mine) == [], f"{code} lacks these"


@pytest.mark.parametrize("code", languages.locales())
def test_every_area_file_is_in_every_locale_with_keys_of_its_own_area(code: str) -> None:
    files = areas(code)
    assert set(files) == set(areas("en"))
    for area, entries in files.items():
        assert all(key.startswith(f"{area}.") for key in entries), area


@pytest.mark.parametrize("code", languages.locales())
def test_messages_keep_the_placeholders_and_plural_forms(code: str) -> None:
    english, mine = languages.catalog("en"), languages.catalog(code)
    for key, entry in mine.items():
        assert all(isinstance(text, str) and text for text in texts(entry)), key
        assert placeholders(entry) == placeholders(english[key]), key
        if isinstance(english[key], dict):
            assert isinstance(entry, dict) and set(entry) == PLURAL_FORMS[code], key
            assert "n" in placeholders(entry), key
        else:
            assert isinstance(entry, str), key


def test_every_error_code_the_server_answers_has_its_words() -> None:
    """A refusal is shown in the player's language from its code: every code has a message."""

    def kinds(cls: type) -> list[type]:
        return [sub for child in cls.__subclasses__() for sub in (child, *kinds(child))]

    codes = {kind.code for kind in kinds(errors.ServerError)} | {
        code for _, _, code in errors.STATUS
    }
    catalog = languages.catalog("en")
    assert sorted(code for code in codes if f"errors.{code}" not in catalog) == []


def test_every_key_the_pages_name_is_in_the_catalog() -> None:
    """``t("…")`` in a module and ``data-i18n`` in the shell name keys a catalog has."""
    catalog = languages.catalog("en")
    used: dict[str, str] = {}
    for path in sorted((WEB / "js").rglob("*.js")):
        for key in re.findall(r"""\bt\(\s*["']([\w.-]+)["']""", path.read_text(encoding="utf-8")):
            used.setdefault(key, path.name)
    shell = (WEB / "index.html").read_text(encoding="utf-8")
    for key in re.findall(r'data-i18n="([\w.-]+)"', shell):
        used.setdefault(key, "index.html")
    for pairs in re.findall(r'data-i18n-attr="([^"]+)"', shell):
        for pair in pairs.split(";"):
            used.setdefault(pair.split(":")[1].strip(), "index.html")
    assert {key: where for key, where in used.items() if key not in catalog} == {}


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh-Hans"),
        ("zh-TW,zh;q=0.9", "zh-Hant"),
        ("zh-HK", "zh-Hant"),
        ("zh-Hant-TW", "zh-Hant"),
        ("zh", "zh-Hans"),
        ("en-GB,en;q=0.9", "en"),
        ("fr-FR, zh-TW;q=0.5", "zh-Hant"),
        ("de;q=0.9, en;q=0.1, zh-CN;q=0.5", "zh-Hans"),
        ("zh-CN;q=0, en", "en"),  # q=0 is "not this one"
        ("", "en"),
        ("*", "en"),
        (";;;,q=,zh-TW;q=abc,\x00", "en"),  # malformed ranges are passed over
        ("x" * 5000, "en"),
    ],
)
def test_a_first_visit_reads_the_language_its_browser_asks_for(header: str, code: str) -> None:
    assert languages.negotiate(header) == code


def test_a_player_may_keep_every_language_the_casino_speaks_and_no_other() -> None:
    """The preferences' ``language`` (an enum in the API's schema) is the catalogs' folders."""
    assert set(typing.get_args(preferences.Language)) == set(languages.locales())
