"""``baccara report``: every game's report is rendered and its tables read back from the HTML
and checked against ``baccara.analyze`` and the other calls a user makes."""

from __future__ import annotations

import json
import pathlib
import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest

import baccara
from baccara import analyze, effect_of_removal
from baccara.render.report import ReportRequest, build, gather
from baccara.render.report_html import write_html
from baccara.sim.sessions import SessionPlan
from tests.helpers import assert_refused, run

GAMES = ("punto-banco", "redgreen", "redgreen-mini", "lo-ball")
SMALL = SessionPlan(stake=1000, bankroll=100_000, hands=60, sessions=300)
"""Sessions enough to draw a fan chart, few enough for a test."""


class Tables(HTMLParser):
    """Every ``<table id=…>`` of a page as rows of cell texts (a ``<br>`` is a newline)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.svgs = 0
        self._table: list[list[str]] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._table = self.tables.setdefault(str(dict(attrs)["id"]), [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "br" and self._cell is not None:
            self._cell.append("\n")
        elif tag == "svg":
            self.svgs += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._table = None
        elif tag in ("td", "th") and self._table is not None and self._cell is not None:
            self._table[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def percent_cell(text: str) -> Fraction:
    """``"1.0579%"`` → 0.010579 as an exact decimal (the cell is rounded to 4 places)."""
    return Fraction(text.strip().removesuffix("%")) / 100


def close(cell: str, exact: Fraction) -> bool:
    """A percentage cell shows ``exact`` rounded to four decimal places of a percent."""
    return abs(percent_cell(cell) - exact) <= Fraction(1, 2 * 10**6)


def render(game: str, folder: pathlib.Path) -> tuple[str, Tables]:
    """The game's whole report, charts drawn, written as HTML and read back."""
    document = build(gather(ReportRequest(game, plan=SMALL)))
    path = write_html(document, folder / "report.html")
    text = path.read_text(encoding="utf-8")
    parsed = Tables()
    parsed.feed(text)
    assert parsed.svgs == len(list(document.charts())) >= 4
    return text, parsed


@pytest.mark.parametrize("game", GAMES)
def test_each_games_report_is_its_analysis(game: str, tmp_path: pathlib.Path) -> None:
    """One rendering per game (the charts are the slow part), every table checked."""
    text, page = render(game, tmp_path)
    check_outcome_tables(game, page)
    check_summary(game, page)
    check_effect_of_removal(game, page)
    check_decks(game, text, page)
    check_variants(game, page)
    check_no_network(text)


def check_outcome_tables(game: str, page: Tables) -> None:
    analysis = analyze(game)
    for bet in analysis.bets:
        header, *rows, total = page.tables[f"bet-{bet.bet}"]
        assert header == ["Outcome", "Pays", "Combinations", "Probability", "Return"]
        assert [row[0] for row in rows] == [o.name for o in bet.outcomes]
        for row, outcome in zip(rows, bet.outcomes, strict=True):
            assert int(row[2].replace(",", "")) == outcome.count
            assert abs(float(row[3]) - float(outcome.probability)) <= 5e-9
            assert abs(float(row[4]) - float(outcome.expected_return)) <= 5e-9
        assert int(total[2].replace(",", "")) == bet.total
        assert abs(float(total[4]) + float(bet.house_edge)) <= 5e-9


def check_summary(game: str, page: Tables) -> None:
    header, *rows = page.tables["summary"]
    assert header[:6] == ["Bet", "House edge", "Exactly", "Element of risk", "Std dev",
                          "Hit frequency"]  # fmt: skip
    for row, bet in zip(rows, analyze(game).bets, strict=True):
        assert row[0] == bet.bet
        assert Fraction(row[2]) == bet.house_edge
        assert close(row[1], bet.house_edge) and close(row[3], bet.element_of_risk)
        assert close(row[5], bet.hit_frequency)
        assert float(row[4]) == pytest.approx(bet.std_dev, abs=5e-5)


def check_effect_of_removal(game: str, page: Tables) -> None:
    eor = effect_of_removal(game)
    header, _full, *rows, weighted = page.tables["removal"]
    assert header == ["Removed", "Share", *eor.bets]
    assert [row[0] for row in rows] == [r.label for r in eor.removals]
    for row, removal in zip(rows, eor.removals, strict=True):
        for cell, effect in zip(row[2:], eor.effects(removal), strict=True):
            assert abs(Fraction(cell) - effect * 100) <= Fraction(1, 2 * 10**5)
    assert weighted[2:] == ["0"] * len(eor.bets)


def check_decks(game: str, text: str, page: Tables) -> None:
    if game == "lo-ball":
        assert "decks" not in page.tables and "no number of decks to vary" in text
        return
    header, *rows = page.tables["decks"]
    assert [row[0] for row in rows] == [str(n) for n in range(1, 9)]
    for decks in (1, 8):
        analysis = analyze(game, decks=decks)
        row = rows[decks - 1]
        for cell, bet in zip(row[1:], header[1:], strict=True):
            assert close(cell, analysis.bet(bet).house_edge)


def check_variants(game: str, page: Tables) -> None:
    header, base, *rows = page.tables["variants"]
    assert base[0] == "as given"
    variants = baccara.game(game).variants
    assert [row[0] for row in rows] == [v.name for v in variants]
    for row, variant in zip(rows, variants, strict=True):
        analysis = analyze(game, **variant.options)
        for cell, bet in zip(row[1:], header[1:], strict=True):
            edge, _, change = cell.partition("\n")
            assert close(edge, analysis.bet(bet).house_edge)
            moved = analysis.bet(bet).house_edge - analyze(game).bet(bet).house_edge
            assert (change != "") == (moved != 0)


def check_no_network(text: str) -> None:
    """Self-contained: no script, stylesheet, image or font fetched from anywhere."""
    assert "<script" not in text and "<link" not in text
    for url in re.findall(r'(?:src|href)="([^"]*)"', text):
        assert url.startswith(("#", "data:")), url
    assert not re.search(r"url\((?!#)", text)


def test_redgreen_sets_the_published_push_in_standard_errors() -> None:
    document = build(gather(ReportRequest("redgreen", plan=SMALL)))
    gap = document.tables()["published-gap"]
    assert [row[0] for row in gap.rows] == [f"{10**k:,}" for k in range(5, 10)]
    # (29.5057 % − 29.4807 %) ÷ √(p(1−p)/n): 5.48 standard errors at 10⁸ rounds.
    assert gap.rows[3][2] == "+5.48 flagged" and gap.rows[2][2] == "+1.73"
    ways = document.tables()["house-ways"]
    names = [row[0] for row in ways.rows]
    assert names[0] == "as given" and "never-split-aces" in names


def test_loball_report_has_its_points_tables() -> None:
    document = build(gather(ReportRequest("lo-ball", plan=SMALL)))
    tables = document.tables()
    points = analyze("lo-ball").table("points")
    shown = tables["table-points"].rows
    assert [int(r[1]) for r in shown] == [row[1] for row in points.rows]
    assert {"points", "grid"} <= {c.key for c in document.charts()}


def test_the_command_writes_html_and_pdf(tmp_path: pathlib.Path) -> None:
    html, pdf = tmp_path / "pb.html", tmp_path / "pb.pdf"
    result = run("report", "punto-banco", "--out", str(html), "--pdf", str(pdf),
                 "--sessions", "300", "--option", "tie-pays=9")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # no progress bar off a terminal
    assert f"HTML written to {html}" in result.stdout and f"PDF written to {pdf}" in result.stdout
    text = html.read_text(encoding="utf-8")
    assert "tie-pays=9" in text and "baccara analyze punto-banco --option tie-pays=9" in text
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-")
    assert len(re.findall(rb"/Type /Page\b", data)) >= 5


def test_report_sessions_are_what_simulate_plays() -> None:
    """The fan chart's sessions are ``baccara simulate --bet`` with the same seed."""
    plan = SessionPlan(stake=1000, bankroll=100_000, hands=200, sessions=400)
    document = build(gather(ReportRequest("lo-ball", bet="dice-lo", seed=7, plan=plan)))
    shown = dict(document.tables()["sessions"].rows)
    args = ("--sessions", "400", "--seed", "7")
    simulated = run("simulate", "lo-ball", "--bet", "dice-lo", "--hands", "200", *args, "--json")
    data = json.loads(simulated.stdout)
    assert shown["percentile 50"] == f"{data['percentiles']['p50'] / 100:+.2f}"
    assert shown["mean result"] == f"{data['mean_result'] / 100:+.2f}"
    assert shown["risk of ruin"] == f"{data['risk_of_ruin']:.2%}"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["punto-banco", "--out", "report.txt"], "--out: write a .html or .htm file"),
        (["punto-banco", "--pdf", "report.png"], "--pdf: write a .pdf file"),
        (["punto-banco", "--bet", "dragon"], "unknown bet 'dragon'"),
        (["punto-banco", "--sessions", "0"], "--sessions: must be between 1 and 100,000"),
        (["punto-banco", "--option", "decks=0"], "decks: must be between 1 and 100"),
        (["chemin-de-fer"], "unknown game 'chemin-de-fer'"),
    ],
)
def test_bad_requests_are_refused(args: list[str], message: str, tmp_path: pathlib.Path) -> None:
    result = (
        run("report", *args)
        if "--out" in args
        else run("report", *args, "--out", str(tmp_path / "r.html"))
    )
    assert_refused(result, message)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "missing/r.html"], "--out: no folder 'missing' to write 'r.html' in"),
        (["--out", "."], "--out: write a .html or .htm file"),
        (["--out", "folder.html"], "--out: 'folder.html' is a folder; name a file to write"),
        (["--out", "fifo.html"], "--out: 'fifo.html' is a pipe or a socket"),
        (["--pdf", "missing/r.pdf"], "--pdf: no folder 'missing' to write 'r.pdf' in"),
        (["--sessions", "100001"], "--sessions: must be between 1 and 100,000, got 100001"),
        (["--sessions", "1e999999999"], "--sessions: must be between 1 and 100,000"),
        (["--seed", "1e-99999999"], "--seed: must be a whole number"),
        (["--bet", "\x1b[31m"], "unknown bet '\\x1b[31m'"),
    ],
)
def test_destinations_and_numbers_are_checked_before_the_work(
    args: list[str], message: str, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A missing folder, a folder or a FIFO as --out was found only after the whole report
    was computed (a traceback, or a wait for a reader for ever)."""
    import os
    import time

    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder.html").mkdir()
    os.mkfifo(tmp_path / "fifo.html")
    start = time.perf_counter()
    assert_refused(run("report", "punto-banco", *args), message)
    assert time.perf_counter() - start < 1


def test_a_hostile_paytable_name_and_file_name_are_written_as_text(tmp_path: pathlib.Path) -> None:
    """A name's escape codes reached the HTML raw; a file named ``[bold]r.html`` was printed
    as ``r.html`` (and ``[/bold]…`` would be a MarkupError) once the report was written."""
    table = tmp_path / "evil.toml"
    table.write_text('name = "\\u001b[31m<b>&"\n[pays]\nflush = 8\n')
    out = tmp_path / "[bold]r.html"
    result = run("report", "redgreen", "-o", f"paytable={table}", "--sessions", "10",
                 "--out", str(out), "--pdf", str(tmp_path / "r.pdf"))  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert f"HTML written to {out}" in result.stdout
    html = out.read_text()
    assert "\x1b" not in html and "paytable=\\x1b[31m&lt;b&gt;&amp;" in html
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF")
