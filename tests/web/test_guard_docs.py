"""The API documentation in a browser: Swagger UI drawn from the casino's own files, under a
policy that allows nothing from elsewhere, every operation listed."""

from __future__ import annotations

import pathlib
from urllib.parse import urlsplit

from playwright.sync_api import Page, Request, expect

from tests.server.harness import Server
from tests.web.casino import Watch, shoot


def test_the_docs_page_draws_every_operation_from_this_casino_alone(
    casino: Server, page: Page, watch: Watch, screenshots: pathlib.Path
) -> None:
    asked: list[str] = []

    def note(request: Request) -> None:
        asked.append(request.url)

    page.on("request", note)
    page.goto(f"{casino.url}/docs")
    expect(page.locator(".swagger-ui .information-container .title")).to_contain_text(
        "baccara casino"
    )
    operations = page.locator(".opblock")
    expect(operations.first).to_be_visible()
    schema = casino.client().get("/openapi.json").json()
    expected = sum(  # under each of its tags, or "default"
        len(operation.get("tags") or ["default"])
        for path in schema["paths"].values()
        for method, operation in path.items()
        if method != "parameters"
    )
    expect(operations).to_have_count(expected)
    expect(page.get_by_text("Unable to render this definition")).to_have_count(0)
    page.locator(".opblock-summary", has_text="/api/admin/report").first.click()
    expect(page.get_by_text("Start (ISO date or seconds").first).to_be_visible()
    shoot(page, screenshots, "docs")
    origin = urlsplit(casino.url).netloc
    assert asked and all(urlsplit(url).netloc == origin for url in asked if "://" in url), asked
    assert not watch.problems  # no script error, no Content-Security-Policy violation
