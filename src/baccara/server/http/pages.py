"""The web casino's pages: one HTML shell for every page, and the files it loads.

The front end in ``baccara/web/`` is plain ES modules, CSS and SVG drawn by script:
there is nothing to build. Each page of the casino — the lobby, a table, the dealer's
console, the player's last rounds, a game's rules, the player's account (loss limits,
reality check, self-exclusion), the back office (the operator's report, the audit
trail) — is a path the browser's own router draws, so each of those paths answers with
the same ``index.html``; the API behind them decides who may read what. The shell goes
out with the strict Content-Security-Policy every answer carries
(:mod:`baccara.server.http.guard`): scripts, styles and connections from this origin only,
no inline script or style.

The interactive API documentation (``/docs``) is Swagger UI from the installed
``swagger-ui-bundle`` package, served by the casino itself under :data:`DOCS_ASSETS` —
never from a CDN, whose floating version would run on the origin where players'
tokens live. Its page has one inline script, FastAPI's own that starts the viewer; the
page's policy allows that script alone, by its hash (:data:`DOCS_SCRIPT_HASH`). The
viewer that package ships (Swagger UI 4) reads OpenAPI 3.0, so it is given the schema
written down to 3.0 (:func:`openapi_30`, at :data:`DOCS_SCHEMA`); ``/openapi.json`` stays
the casino's exact 3.1 schema.
"""

from __future__ import annotations

import base64
import hashlib
import pathlib
import re
from typing import Any

import swagger_ui_bundle  # type: ignore[import-untyped]
from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope

from baccara.server.http import languages, shellwords

WEB = pathlib.Path(__file__).resolve().parents[2] / "web"

HEADERS = {"Cache-Control": "no-cache"}
"""The security headers (CSP, nosniff, referrer, no framing) come from
:class:`baccara.server.http.guard.Guard`, on every answer."""

PAGES = (
    "/",
    "/sign-in",
    "/history",
    "/tables/{table_id}",
    "/multi",
    "/dealer/{table_id}",
    "/rules/{game}",
    "/account",
    "/admin/report",
    "/admin/audit",
    "/admin/dealers",
)
"""The paths the browser's router draws; each is the shell."""

router = APIRouter(include_in_schema=False)


SHELL = (WEB / "index.html").read_text(encoding="utf-8")
"""The page every path draws in, read once: the casino's files do not change under it."""


def shell(request: Request) -> HTMLResponse:
    """The shell in the visitor's language (:func:`languages.negotiate`): its ``<html lang>``
    tells the page which catalog to read until the player picks another."""
    code = languages.negotiate(request.headers.get("accept-language"))
    return HTMLResponse(
        shellwords.localized(SHELL, code), headers={**HEADERS, "Vary": "Accept-Language"}
    )


def catalog_answer(code: str) -> JSONResponse:
    """``GET /i18n/<locale>.json``: the locale's every message, in one answer."""
    return JSONResponse(languages.catalog(code), headers=HEADERS)


for _path in PAGES:
    router.add_api_route(_path, shell, methods=["GET", "HEAD"], response_class=HTMLResponse)
router.add_api_route("/i18n/{code}.json", catalog_answer, methods=["GET"])


class WebFiles(StaticFiles):
    """The front end's files, revalidated on every load (an upgraded casino is seen at once)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response


DOCS = "/docs"
DOCS_ASSETS = "/docs/assets"
"""Where the casino serves Swagger UI's own files (its script, its style sheet)."""
DOCS_SCHEMA = "/docs/openapi-3.0.json"
"""The schema as the viewer reads it: :func:`openapi_30` of ``/openapi.json``."""


def docs_html() -> str:
    """FastAPI's Swagger UI page, every file it loads from this casino."""
    page = get_swagger_ui_html(
        openapi_url=DOCS_SCHEMA,
        title="baccara casino: the API",
        swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
        swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
        swagger_favicon_url="/static/favicon.svg",
    )
    return bytes(page.body).decode()


def _inline_script_hash(html: str) -> str:
    scripts = re.findall(r"<script>(.*?)</script>", html, re.DOTALL)
    assert len(scripts) == 1, "the docs page starts its viewer with one inline script"
    digest = hashlib.sha256(scripts[0].encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


DOCS_PAGE = docs_html()
DOCS_SCRIPT_HASH = _inline_script_hash(DOCS_PAGE)
"""The docs page's inline script by its hash, as its Content-Security-Policy names it."""


def openapi_30(schema: Any) -> Any:
    """An OpenAPI 3.1 schema as OpenAPI 3.0 says the same, for a viewer that reads only
    3.0: ``{"anyOf": [X, {"type": "null"}]}`` is X ``nullable``, a numeric
    ``exclusiveMinimum`` (``Maximum``) a bound with its flag, ``const`` an enum of one.

    >>> openapi_30({"anyOf": [{"type": "integer"}, {"type": "null"}], "exclusiveMinimum": 0})
    {'type': 'integer', 'nullable': True, 'minimum': 0, 'exclusiveMinimum': True}
    """
    if isinstance(schema, list):
        return [openapi_30(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "openapi":
            out[key] = "3.0.3"
        elif key == "anyOf" and isinstance(value, list) and {"type": "null"} in value:
            rest = [openapi_30(v) for v in value if v != {"type": "null"}]
            if len(rest) == 1 and "$ref" not in rest[0]:
                out.update(rest[0])
            else:
                out[key] = rest
            out["nullable"] = True
        elif key in ("exclusiveMinimum", "exclusiveMaximum") and not isinstance(value, bool):
            out["minimum" if key == "exclusiveMinimum" else "maximum"] = value
            out[key] = True
        elif key == "const":
            out["enum"] = [value]
        else:
            out[key] = openapi_30(value)
    return out


def docs_page() -> HTMLResponse:
    return HTMLResponse(DOCS_PAGE, headers=HEADERS)


def docs_schema(request: Request) -> JSONResponse:
    return JSONResponse(openapi_30(request.app.openapi()), headers=HEADERS)


router.add_api_route(DOCS, docs_page, methods=["GET", "HEAD"], response_class=HTMLResponse)
router.add_api_route(DOCS_SCHEMA, docs_schema, methods=["GET"])


def install(app: FastAPI) -> None:
    """Serve the pages at their paths, the front end's files under ``/static`` and the API
    documentation's viewer under :data:`DOCS_ASSETS` (the app is made with ``docs_url`` and
    ``redoc_url`` ``None``: FastAPI's own pages load their viewers from a CDN)."""
    app.include_router(router)
    app.mount("/static", WebFiles(directory=WEB), name="static")
    app.mount(DOCS_ASSETS, WebFiles(directory=swagger_ui_bundle.swagger_ui_path), name="docs")
