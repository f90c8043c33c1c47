"""The casino as a FastAPI application: the API, the WebSocket per table, the web pages.

``create_app(settings)`` builds it; starting it migrates the database, recovers every
round left in play by a previous run, and starts the table timers.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import pathlib
from collections.abc import AsyncIterator, Callable

from fastapi import FastAPI

from baccara.server.clock import Clock
from baccara.server.domain import monitor
from baccara.server.domain.casino import Casino
from baccara.server.http import notfound, pages
from baccara.server.http.api import (
    admin,
    auth,
    dealer,
    errors,
    games,
    health,
    lobby,
    metrics,
    preferences,
    protections,
    report,
    roster,
    rounds,
    squeeze,
    tables,
    ws,
)
from baccara.server.http.betlane import CasinoApp
from baccara.server.http.forward import Forwarder
from baccara.server.http.guard import Guard
from baccara.server.settings import Settings

WEB = pathlib.Path(__file__).resolve().parent.parent / "web"


def create_app(
    settings: Settings | None = None, clock: Clock | Callable[[], float] | None = None
) -> FastAPI:
    """The casino's application; ``clock`` is its time (a test's, or a function giving the
    time of day), the system's if none."""
    settings = settings or Settings()
    casino = Casino(settings) if clock is None else Casino(settings, clock)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await casino.start()
        try:
            yield
        finally:
            await casino.stop()

    app = CasinoApp(
        title="baccara casino",
        version=importlib.metadata.version("baccara"),
        description="Punto Banco, RedGreen, Mini RedGreen and Lo-Ball at shared tables:"
        " wallets in integer cents, provably fair electronic rounds, live-dealer tables.",
        lifespan=lifespan,
        docs_url=None,  # pages.py serves /docs, with its viewer from this casino, not a CDN
        redoc_url=None,
    )
    app.state.casino = casino
    app.state.metrics = figures = casino.metrics
    monitor.install(casino, figures)
    if settings.bet_lane:
        app.open_lane(casino)  # in front of every layer: bets of the tables dealt here
    app.observe(casino, figures)  # in front of the lane: every request logged and timed
    app.add_middleware(Forwarder, casino=casino)  # inside the Guard: bounded, with its headers
    app.add_middleware(Guard)
    errors.install(app)
    for module in (health, auth, protections, games, tables, rounds, dealer, admin, report,
                   roster, ws, lobby, metrics, preferences, squeeze):  # fmt: skip
        app.include_router(module.router)
    pages.install(app)  # the web casino: its pages and files (after the API's routes)
    notfound.install(app)  # an unknown page, to a browser: the casino's page that says so
    return app
