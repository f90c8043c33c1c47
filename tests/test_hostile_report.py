"""``baccara report`` and ``baccara compare`` fed what a hostile user types (issue 15).

A report takes seconds to compute and draw; here, in the forked copy that runs each
command, its computations are replaced by a document that names what was asked
(:func:`_light_report`). What is tested is what the command reads — every option,
the files it writes — and that it refuses at once, before any work; the figures
themselves are tests/test_report.py's. ``compare`` runs whole: it is quick.
"""

from __future__ import annotations

import html
import pathlib
import tempfile
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import baccara
from baccara.cli.compare import parse_variant
from baccara.cli.report import MAX_REVISION, MAX_SESSIONS, compared, floor_options, sheet_date
from baccara.exact.variants import compare_variants
from baccara.games import GAMES
from baccara.games.variant import Variant
from baccara.options import as_int, option_name
from baccara.randomness import check_seed
from tests.hostile import any_text, file_name, number_text
from tests.hostile_run import HOSTILE, api, outcome, read, strict_json, warm

_KEYS = st.sampled_from(sorted({option_name(f) for s in GAMES.values() for f in s.rules.OPTIONS}))
VARIANTS = st.one_of(
    any_text(),
    st.builds(
        lambda name, items: f"{name}:{','.join(f'{k}={v}' for k, v in items)}",
        st.one_of(any_text(), st.sampled_from(["v", " tie 9 ", "[/bold]"])),
        st.lists(
            st.tuples(st.one_of(_KEYS, any_text()), st.one_of(number_text(), any_text())),
            max_size=3,
        ),
    ),
)
"""``--variant`` text: random, or NAME:KEY=VALUE,… with real keys and hostile values."""

FLOOR = {
    "--hands-per-hour": "hands_per_hour",
    "--average-bet": "average_bet_cents",
    "--min-bet": "min_bet_cents",
    "--max-bet": "max_bet_cents",
    "--seats": "seats",
    "--week-hours": "week_hours",
    "--drop-to-handle": "drop_to_handle",
}
"""The floor plan's options and the field each sets."""

FED = {
    *(("report", flag) for flag in ("--out", "--pdf", "--option", "--bet", "--sessions", "--seed")),
    *(("report", flag) for flag in (*FLOOR, "--revision", "--date", "--compare")),
    ("compare", "--variant"),
    ("compare", "--option"),
}
"""What this module feeds hostile input: (command, option or argument)."""


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    warm()


def _light_report() -> None:
    """In the fork: the report is a document naming what was asked, not the mathematics."""
    from baccara.render import par_compare, report
    from baccara.render.document import Document

    def gather(request: Any, step: Any = None) -> Any:
        return request

    def build(request: Any) -> Document:
        asked = (
            f"bet={request.bet} sessions={request.plan.sessions} seed={request.seed}"
            f" options={sorted(request.options)} floor={sorted(request.floor.items())}"
            f" revision={request.revision} date={request.date}"
        )
        return Document(title="light", subtitle=asked, blocks=())

    def compare_sheet(request: Any, variants: Any, step: Any = None) -> Document:
        names = ",".join(sorted(v.name for v in variants))
        return Document(title="light", subtitle=f"compared={names}", blocks=())

    report.gather = gather  # type: ignore[assignment]
    report.build = build  # type: ignore[assignment]
    par_compare.compare_sheet = compare_sheet  # type: ignore[assignment]


def report(*args: str, cwd: str) -> tuple[int, str]:
    """``baccara report ARGS`` in ``cwd``: its status and the HTML it wrote (if it did)."""
    ran = outcome("report", *args, cwd=cwd, before=_light_report)
    written = [p for p in pathlib.Path(cwd).rglob("*.htm*") if p.is_file()]
    if ran.returncode != 0:
        assert written == [], "a refused report wrote a file"
        return 2, ""
    (page,) = written
    return 0, html.unescape(page.read_text(encoding="utf-8"))


NUMBERS = {
    "--sessions": lambda v: as_int("--sessions", v, 1, MAX_SESSIONS),
    "--seed": lambda v: check_seed(v, "--seed"),
}


@pytest.mark.slow
@pytest.mark.parametrize("flag", list(NUMBERS))
@HOSTILE
@given(value=number_text())
def test_report_numbers(flag: str, value: str) -> None:
    expected = read(lambda: NUMBERS[flag](value))
    with tempfile.TemporaryDirectory() as folder:
        status, page = report("punto-banco", flag, value, cwd=folder)
    assert status == (2 if expected is None else 0)
    if expected is not None:
        assert f"{flag.removeprefix('--')}={expected}" in page


@pytest.mark.slow
@pytest.mark.parametrize("flag", list(FLOOR))
@HOSTILE
@given(value=st.one_of(number_text(), any_text()))
def test_report_floor_plan(flag: str, value: str) -> None:
    """A floor figure is read as the command reads it, checked against the game's table
    (Mini RedGreen: seven seats), and reaches the sheet; anything else is refused at once."""
    spec = GAMES["redgreen-mini"]
    expected = read(lambda: floor_options(spec, **{FLOOR[flag]: value})[FLOOR[flag]])
    with tempfile.TemporaryDirectory() as folder:
        status, page = report("redgreen-mini", flag, value, cwd=folder)
    assert status == (2 if expected is None else 0)
    if expected is not None:
        assert f"({FLOOR[flag]!r}, {expected!r})" in page


@pytest.mark.slow
@HOSTILE
@given(value=st.one_of(number_text(), any_text(), st.dates().map(str)))
def test_report_revision_and_date(value: str) -> None:
    revision = read(lambda: as_int("--revision", value, 1, MAX_REVISION))
    day = read(lambda: sheet_date(value))
    with tempfile.TemporaryDirectory() as folder:
        status, page = report("lo-ball", "--revision", value, cwd=folder)
        assert status == (2 if revision is None else 0)
        if revision is not None:
            assert f"revision={revision} " in page
    with tempfile.TemporaryDirectory() as folder:
        status, page = report("lo-ball", "--date", value, cwd=folder)
        assert status == (2 if day is None else 0)
        if day is not None:
            assert f"date={day}" in page


@pytest.mark.slow
@pytest.mark.parametrize("game", ["punto-banco", "redgreen"])
@HOSTILE
@given(texts=st.lists(st.one_of(VARIANTS, st.sampled_from(["ez", "no-commission", "tie-9",
                                                             "commission-4", "bonus-fh-10"])),
                      min_size=1, max_size=3))  # fmt: skip
def test_report_compare(game: str, texts: list[str]) -> None:
    """Variants by name, by rule set or spelled out: compared, or refused before any work."""
    spec = GAMES[game]
    expected = read(lambda: ",".join(sorted(v.name for v in compared(spec, texts))))
    flags = [item for text in texts for item in ("--compare", text)]
    with tempfile.TemporaryDirectory() as folder:
        status, page = report(game, *flags, cwd=folder)
    assert status == (2 if expected is None else 0)
    if expected is not None:
        assert f"compared={expected}" in page


@pytest.mark.slow
@HOSTILE
@given(value=st.one_of(any_text(), st.sampled_from(GAMES["lo-ball"].bet_ids)))
def test_report_bet(value: str) -> None:
    expected = read(lambda: GAMES["lo-ball"].parse_bet(value).value)
    with tempfile.TemporaryDirectory() as folder:
        status, page = report("lo-ball", "--bet", value, cwd=folder)
    assert status == (2 if expected is None else 0)
    if expected is not None:
        assert f"bet={expected} " in page


@pytest.mark.slow
@HOSTILE
@given(key=any_text(), value=st.one_of(any_text(), number_text()))
def test_report_option(key: str, value: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        status, page = report("redgreen", "-o", f"{key}={value}", cwd=folder)
    if status == 0:
        assert option_name(key.strip()) in page or key.strip() in page


@pytest.mark.slow
@pytest.mark.parametrize(("flag", "suffix"), [("--out", ".html"), ("--pdf", ".pdf")])
@HOSTILE
@given(name=st.one_of(file_name(), file_name().map(lambda n: n + ".html" if n else n)))
def test_report_destinations(flag: str, suffix: str, name: str) -> None:
    """Any name to write to: refused at once, or written there."""
    with tempfile.TemporaryDirectory() as folder:
        (pathlib.Path(folder) / "taken.html").mkdir()
        ran = outcome("report", "punto-banco", flag, name + suffix, cwd=folder,
                      before=_light_report)  # fmt: skip
        if ran.returncode == 0:
            assert (pathlib.Path(folder) / (name + suffix)).stat().st_size > 0


# --- compare -----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game", ["punto-banco", "redgreen", "lo-ball"])
@HOSTILE
@given(text=VARIANTS)
def test_compare_variant(game: str, text: str) -> None:
    """The comparison is the one the library makes of the variant read from the same text."""
    spec = GAMES[game]
    parsed = read(lambda: parse_variant(spec, text))
    expected = None
    if parsed is not None:
        expected = api(lambda: compare_variants(game, [Variant(*parsed)]).to_dict())
    ran = outcome("compare", game, "--variant", text, "--json")
    assert ran.returncode == (2 if expected is None else 0)
    if expected is not None:
        assert strict_json(ran.stdout) == expected


@pytest.mark.slow
@HOSTILE
@given(key=any_text(), value=st.one_of(any_text(), number_text()))
def test_compare_option(key: str, value: str) -> None:
    ran = outcome("compare", "lo-ball", "-o", f"{key}={value}", "--json")
    if ran.returncode == 0:
        options = {key.strip(): value.strip()}
        assert strict_json(ran.stdout)["bets"]["main"]["house_edge_exact"] == str(
            baccara.analyze("lo-ball", **options).bet("main").house_edge
        )
