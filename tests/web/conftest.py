"""Fixtures for the browser tests: Debian's Chromium driven by Playwright, and a casino.

Chromium comes from the system (``scripts/system-deps`` installs it with apt-get); these
tests never skip: without it they fail, saying what is missing.
"""

from __future__ import annotations

import pathlib
from collections.abc import Iterator

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    expect,
    sync_playwright,
)

from baccara.server.cluster.hub import SEND_INTERVAL
from baccara.server.settings import Settings
from tests.server.harness import Clock, Server, fresh_sqlite, running
from tests.web.casino import CHROMIUM, DESKTOP, LAUNCH_ARGS, Watch

SCREENSHOTS = pathlib.Path(__file__).resolve().parent / "screenshots"
"""Where the tests leave their screenshots (ignored by git) to be looked at."""

EXPECT_TIMEOUT_MS = 15_000
"""How long an expectation waits for the page to come to it. Playwright's 5 s is ample for
one page on an idle machine; the whole suite runs dozens of casinos and Chromiums on two
cores at once, where a page that does come right has been seen to take longer. A page that
never comes right still fails, only later."""
expect.set_options(timeout=EXPECT_TIMEOUT_MS)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    if not pathlib.Path(CHROMIUM).exists():
        pytest.fail(
            f"missing: chromium ({CHROMIUM}); run scripts/system-deps as root", pytrace=False
        )
    with sync_playwright() as started:
        yield started


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
    try:
        yield launched
    finally:
        launched.close()


def casino_settings(url: str, **changes: object) -> Settings:
    """Timers for a person at a browser: betting closes by Deal long before its timer."""
    values: dict[str, object] = {
        "database_url": url,
        "betting_seconds": 60.0,
        "peek_seconds": 60.0,
        "choose_seconds": 60.0,
        # Cards come apart, so each is turned on its own: well above the hub's interval,
        # within which the events it sends a socket go together.
        "reveal_delay_ms": round(SEND_INTERVAL * 2500),
        **changes,
    }
    return Settings(**values)  # type: ignore[arg-type]


@pytest.fixture
def clock() -> Clock:
    """The casino's clock: real time, which a test may move on (a reality check falls due)."""
    return Clock()


@pytest.fixture
def casino(tmp_path: pathlib.Path, clock: Clock, migrated_sqlite: pathlib.Path) -> Iterator[Server]:
    """A casino with the default tables on a fresh SQLite database, on the test's clock."""
    with running(casino_settings(fresh_sqlite(migrated_sqlite, tmp_path)), clock) as server:
        yield server


@pytest.fixture
def watch() -> Iterator[Watch]:
    """Collects what goes wrong inside the pages; fails the test on a script error or a
    Content-Security-Policy violation."""
    watched = Watch()
    yield watched
    watched.check()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield made
    finally:
        made.close()


@pytest.fixture
def page(context: BrowserContext, watch: Watch) -> Page:
    opened = context.new_page()
    watch.attach(opened)
    return opened


@pytest.fixture
def other(browser: Browser, watch: Watch) -> Iterator[Page]:
    """A second person at the casino (another player, a dealer): a browser context of
    their own, so their own sign-in, watched as :func:`page` is."""
    made = browser.new_context(viewport=DESKTOP)
    opened = made.new_page()
    watch.attach(opened)
    try:
        yield opened
    finally:
        made.close()


@pytest.fixture
def screenshots() -> pathlib.Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
