"""The shell's fixed words and the casino's 404 page, written by the server in the language
the browser asks for: read before a script runs, or with none, they are never English on a
Chinese page."""

from __future__ import annotations

import pytest

from baccara.server.http import languages
from tests.server.harness import Server


@pytest.mark.parametrize(
    ("accept", "code", "noscript", "heading"),
    [
        ("zh-CN", "zh-Hans", "请开启 JavaScript", "找不到页面"),
        ("zh-TW", "zh-Hant", "請開啟 JavaScript", "找不到頁面"),
        ("en", "en", "please turn JavaScript on", "Page not found"),
    ],
)
def test_the_shell_and_the_404_page_are_written_in_the_visitors_language(
    sqlite_server: Server, accept: str, code: str, noscript: str, heading: str
) -> None:
    words = languages.catalog(code)
    client = sqlite_server.client()
    page = client.get("/", headers={"Accept-Language": accept})
    assert noscript in page.text
    missing = client.get(
        "/no/such/page", headers={"Accept-Language": accept, "Accept": "text/html"}
    )
    assert missing.status_code == 404 and missing.headers["vary"] == "Accept-Language"
    assert f'<h1 id="not-found-title">{heading}</h1>' in missing.text
    assert "/no/such/page" in missing.text
    for answer in (page, missing):
        assert f'<html lang="{code}" data-locale="{code}">' in answer.text
        assert f'<title data-i18n="common.title">{words["common.title"]}</title>' in answer.text
        assert f'aria-label="{words["common.nav_label"]}"' in answer.text


def test_the_404_page_shows_the_path_as_text(sqlite_server: Server) -> None:
    odd = sqlite_server.client().get(
        "/<b>x", headers={"Accept-Language": "zh-TW", "Accept": "text/html"}
    )
    assert odd.status_code == 404
    assert "&lt;b&gt;x" in odd.text and "<b>x" not in odd.text  # the path is text, never markup
