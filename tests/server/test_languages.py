"""The casino's languages over HTTP: the shell in the language a first visit asks for, and
each locale's catalog in one answer (the page reads both before it draws anything)."""

from __future__ import annotations

import pytest

from baccara.server.http import languages
from tests.server.harness import Server


@pytest.mark.parametrize(
    ("accept", "code"),
    [
        ("zh-TW,zh;q=0.9", "zh-Hant"),
        ("zh-CN", "zh-Hans"),
        ("en-US", "en"),
        (None, "en"),
        ("fr", "en"),
    ],
)
def test_every_page_is_served_in_the_language_its_browser_asks_for(
    sqlite_server: Server, accept: str | None, code: str
) -> None:
    headers = {"Accept-Language": accept} if accept else {}
    for path in ("/", "/tables/1", "/account"):
        answer = sqlite_server.client().get(path, headers=headers)
        assert answer.status_code == 200
        assert f'<html lang="{code}" data-locale="{code}">' in answer.text
        assert answer.headers["vary"] == "Accept-Language"  # a cache keeps one per language
        assert "content-security-policy" in answer.headers


def test_a_catalog_is_every_message_of_its_locale(sqlite_server: Server) -> None:
    client = sqlite_server.client()
    for code in languages.locales():
        answer = client.get(f"/i18n/{code}.json")
        assert answer.status_code == 200
        assert answer.json() == languages.catalog(code)
    assert client.get("/i18n/zh-Hant.json").json()["common.nav.lobby"] == "大廳"


@pytest.mark.parametrize("code", ["fr", "EN", "..%2Fen", "en%00", "x" * 300])
def test_no_catalog_for_a_locale_the_casino_does_not_have(sqlite_server: Server, code: str) -> None:
    answer = sqlite_server.client().get(f"/i18n/{code}.json")
    assert answer.status_code == 404
    assert answer.json()["error"] in ("not_found", "http")
