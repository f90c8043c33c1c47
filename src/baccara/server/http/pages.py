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
"""

from __future__ import annotations

import pathlib

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope

WEB = pathlib.Path(__file__).resolve().parents[2] / "web"

HEADERS = {"Cache-Control": "no-cache"}
"""The security headers (CSP, nosniff, referrer, no framing) come from
:class:`baccara.server.http.guard.Guard`, on every answer."""

PAGES = (
    "/",
    "/sign-in",
    "/history",
    "/tables/{table_id}",
    "/dealer/{table_id}",
    "/rules/{game}",
    "/account",
    "/admin/report",
    "/admin/audit",
)
"""The paths the browser's router draws; each is the shell."""

router = APIRouter(include_in_schema=False)


def shell() -> FileResponse:
    return FileResponse(WEB / "index.html", media_type="text/html", headers=HEADERS)


for _path in PAGES:
    router.add_api_route(_path, shell, methods=["GET", "HEAD"], response_class=HTMLResponse)


class WebFiles(StaticFiles):
    """The front end's files, revalidated on every load (an upgraded casino is seen at once)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response


def install(app: FastAPI) -> None:
    """Serve the pages at their paths and the front end's files under ``/static``."""
    app.include_router(router)
    app.mount("/static", WebFiles(directory=WEB), name="static")
