"""The casino's own page for a path it does not have, to a browser.

A browser navigating to an unknown URL (it asks for ``text/html``) gets the casino's
page — its header, "Page not found", a link back to the lobby — with status 404, not
the API's JSON refusal: the shell (``index.html``) with that message already in its
``<main>``, in the language the browser asks for (its words are the catalog's, the
``session`` area's, as the page's own), so it reads the same with scripts off, and the
browser's router, which draws the same view for a path it does not know, takes over
when they are on. The
API's paths (``/api/...``) and the sockets' (``/ws/...``) keep their JSON error
whatever the client accepts.
"""

from __future__ import annotations

import html
import pathlib

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from baccara.server.http import languages, shellwords
from baccara.server.http.api.errors import protocol_refusal

WEB = pathlib.Path(__file__).resolve().parents[2] / "web"
HEADERS = {"Cache-Control": "no-cache"}

KEPT_JSON = ("/api/", "/ws/")
"""Paths whose refusals are always the API's JSON."""
NOT_FOUND_VIEW = (
    '<section class="panel not-found" aria-labelledby="not-found-title">'
    '<h1 id="not-found-title">{title}</h1>'
    "<p>{text}</p>"
    '<p><a href="/" data-link>{back}</a></p></section>'
)
"""What the page says, as the browser's router says it too (``web/js/notfound.js``)."""


def not_found_view(code: str, path: str) -> str:
    """The view's words in the locale ``code``, the path (at most 200 characters) escaped."""
    messages = languages.catalog(code)
    text = shellwords.message(messages, "session.not_found.text", "")
    return NOT_FOUND_VIEW.format(
        title=shellwords.message(messages, "session.not_found.title", ""),
        text=text.replace("{path}", html.escape(path[:200])),
        back=shellwords.message(messages, "session.not_found.back", ""),
    )


def wants_page(request: Request, status: int) -> bool:
    """Whether a refusal of ``request`` is answered with the casino's page: a 404 to a
    browser's navigation, outside the API's and the sockets' paths."""
    path = request.url.path
    accepts = request.headers.get("accept", "")
    return status == 404 and "text/html" in accepts and not path.startswith(KEPT_JSON)


def not_found_page(request: Request) -> HTMLResponse:
    """The shell with "Page not found" in its ``<main>``, status 404, in the language the
    browser asks for."""
    code = languages.negotiate(request.headers.get("accept-language"))
    shell = shellwords.localized((WEB / "index.html").read_text(encoding="utf-8"), code)
    view = not_found_view(code, request.url.path)
    start = shell.index('<main id="main" tabindex="-1">') + len('<main id="main" tabindex="-1">')
    end = shell.index("</main>", start)
    page = shell[:start] + view + shell[end:]
    return HTMLResponse(page, status_code=404, headers={**HEADERS, "Vary": "Accept-Language"})


def install(app: FastAPI) -> None:
    """Answer a path the casino does not have (404, no route) with the page to a browser;
    anything else as the API does (``protocol_refusal``), status kept."""

    async def not_found(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        if wants_page(request, error.status_code):
            return not_found_page(request)
        return protocol_refusal(error)

    app.add_exception_handler(404, not_found)
