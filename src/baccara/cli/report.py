"""``baccara report``: the game mathematician's report as HTML (and PDF), charts included."""

from __future__ import annotations

import contextlib
import pathlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.text import Text

from baccara.cli.common import (
    GameArgument,
    RuleOptions,
    check_destination,
    console,
    rule_options,
)

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


class Ticker:
    """Advances a Rich progress bar by one step per call and names the step."""

    def __init__(self, progress: Progress, task: TaskID) -> None:
        self._progress, self._task = progress, task

    def __call__(self, label: str) -> None:
        self._progress.update(self._task, advance=1, description=label)
        self._progress.refresh()  # each step shown as it starts, however short the last one

    def grow(self, steps: int) -> None:
        """More steps than first counted (the charts, once the report is laid out)."""
        total = self._progress.tasks[0].total or 0
        self._progress.update(self._task, total=total + steps)


@contextlib.contextmanager
def progress_bar(show: bool, total: int) -> Iterator[Ticker]:
    """A bar on stderr while the report is built, only on a terminal; gone when done."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("[bold]report[/bold] {task.description:<42}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=not show,
    )
    with progress:
        task = progress.add_task("starting", total=total)
        yield Ticker(progress, task)


MAX_SESSIONS = 100_000
"""The most bankroll sessions a report plays: every session's path is kept for the fan
chart, 1.6 kB each (10^5 sessions: about 160 MB)."""


def report(
    game: GameArgument,
    out: Annotated[
        pathlib.Path | None,
        typer.Option(
            metavar="FILE.html", help="The HTML file to write.", show_default="GAME-report.html"
        ),
    ] = None,
    pdf: Annotated[
        pathlib.Path | None, typer.Option(metavar="FILE.pdf", help="Also write this PDF.")
    ] = None,
    option: RuleOptions = None,
    bet: Annotated[
        str | None,
        typer.Option(
            metavar="BET", help="The bet the bankroll sessions play.", show_default="the first"
        ),
    ] = None,
    sessions: Annotated[
        str | None,
        typer.Option(
            metavar="N",
            help=f"Bankroll sessions to play, at most {MAX_SESSIONS:,}.",
            show_default="10,000",
        ),
    ] = None,
    seed: Annotated[
        str | None, typer.Option(metavar="S", help="Seed of the sessions.", show_default="1")
    ] = None,
) -> None:
    """Write GAME's mathematics as a self-contained HTML report with charts (and a PDF).

    Every option, and where the files go, is checked before any of the work is done.
    """
    import dataclasses

    from baccara.games import game as game_spec
    from baccara.options import as_int
    from baccara.randomness import check_seed
    from baccara.render.text import printable

    spec = game_spec(game)
    html_path = check_destination(
        out or pathlib.Path(f"{spec.id}-report.html"), "--out", (".html", ".htm")
    )
    pdf_path = None if pdf is None else check_destination(pdf, "--pdf", (".pdf",))
    count = None if sessions is None else as_int("--sessions", sessions, 1, MAX_SESSIONS)
    bet_id = None if bet is None else str(spec.parse_bet(bet).value)
    seed_value = None if seed is None else check_seed(seed, "--seed")
    options = rule_options(spec, option)

    # Only now the heavy part (the exact analyses, matplotlib): a refusal comes at once.
    from baccara.render.report import STEPS, build, gather
    from baccara.render.report_data import DEFAULT_PLAN, DEFAULT_SEED, ReportRequest
    from baccara.render.report_html import write_html

    plan = DEFAULT_PLAN if count is None else dataclasses.replace(DEFAULT_PLAN, sessions=count)
    request = ReportRequest(
        spec.id,
        options,
        bet=bet_id,
        seed=DEFAULT_SEED if seed_value is None else seed_value,
        plan=plan,
    )
    with progress_bar(sys.stderr.isatty(), total=len(STEPS)) as tick:
        document = build(gather(request, step=tick))
        charts = len(list(document.charts()))
        tick.grow(charts * (1 + (pdf_path is not None)))
        write_html(document, html_path, on_chart=tick)
        if pdf_path is not None:
            from baccara.render.report_pdf import write_pdf

            write_pdf(document, pdf_path, on_chart=tick)
    tables = len(document.tables())
    sections = len(list(document.sections()))
    out_console = console()
    out_console.print(f"{spec.name} report: {sections} sections, {tables} tables, {charts} charts")
    # A path is printed whole on one line, however long: it is copied, not read.
    out_console.print(Text(f"HTML written to {printable(str(html_path))}"), soft_wrap=True)
    if pdf_path is not None:
        out_console.print(Text(f"PDF written to {printable(str(pdf_path))}"), soft_wrap=True)
