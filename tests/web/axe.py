"""axe-core, the accessibility engine, run on a page the browser tests have open.

The engine is ``axe.min.js`` as the axe-playwright-python package ships it (installed with
the test extra), injected into the page: nothing is fetched, so the check runs offline.
A violation is reported with the rule, its impact and the elements it was found on, so a
failing test says what is wrong and where.
"""

from __future__ import annotations

import importlib.resources
from functools import cache
from typing import Any

from playwright.sync_api import Page

SERIOUS = ("serious", "critical")
"""The impacts a page may not have: axe-core's two worst."""
ALWAYS = ("heading-order", "landmark-unique", "label-content-name-mismatch")
"""Rules reported whatever their impact: headings that skip a level and landmarks of one
name confuse a screen reader's lists of them as much as a serious violation does, and a
control whose name does not contain its visible text (WCAG 2.5.3) cannot be spoken to.
axe-core runs the last one only when asked: it is asked."""


@cache
def engine() -> str:
    """axe-core's script, read once from the package that ships it."""
    return (importlib.resources.files("axe_playwright_python") / "axe.min.js").read_text("utf-8")


def violations(page: Page, impacts: tuple[str, ...] = SERIOUS) -> list[str]:
    """axe-core's violations of the page as it stands, of the given impacts, one line per
    element: ``rule (impact): target — what to fix``."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(engine())
    found: list[dict[str, Any]] = page.evaluate(
        """(rules) => axe.run(document, {
             resultTypes: ["violations"],
             rules: Object.fromEntries(rules.map((id) => [id, { enabled: true }])),
           }).then((r) => r.violations)""",
        list(ALWAYS),
    )
    lines = []
    for rule in found:
        if rule["impact"] not in impacts and rule["id"] not in ALWAYS:
            continue
        for node in rule["nodes"]:
            target = " ".join(str(t) for t in node["target"])
            summary = (node.get("failureSummary") or rule["help"]).replace("\n", " ")
            lines.append(f"{rule['id']} ({rule['impact']}): {target} — {summary}")
    return lines


def assert_accessible(page: Page, where: str) -> None:
    """No serious or critical violation on the page as it stands."""
    found = violations(page)
    assert not found, f"{where}: {len(found)} serious or critical\n" + "\n".join(found)
