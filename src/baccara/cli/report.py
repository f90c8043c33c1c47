"""``baccara report``: the game mathematician's report as HTML (and PDF), charts included."""

from __future__ import annotations

import contextlib
import pathlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from baccara.cli.common import console, rule_options
from baccara.errors import InvalidOption

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


class Ticker:
    """Advances a Rich progress bar by one step per call and names the step."""

    def __init__(self, progress: Progress, task: TaskID) -> None:
        self._progress, self._task = progress, task

    def __call__(self, label: str) -> None:
        self._progress.update(self._task, advance=1, description=label)

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


def _check_suffix(path: pathlib.Path, name: str, suffixes: tuple[str, ...]) -> pathlib.Path:
    if path.suffix.lower() not in suffixes:
        raise InvalidOption(name, f"write a {suffixes[0]} file, got {path.name!r}")
    return path


def report(
    game: Annotated[str, typer.Argument(help="Game id, e.g. punto-banco.")],
    out: Annotated[
        pathlib.Path | None,
        typer.Option(help="The HTML file to write (default GAME-report.html)."),
    ] = None,
    pdf: Annotated[pathlib.Path | None, typer.Option(help="Also write this PDF.")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A rule option, as KEY=VALUE (repeatable)."),
    ] = None,
    bet: Annotated[
        str | None, typer.Option(help="The bet the bankroll sessions play (default the first).")
    ] = None,
    sessions: Annotated[
        str | None, typer.Option(help="Bankroll sessions to play (default 10,000).")
    ] = None,
    seed: Annotated[str | None, typer.Option(help="Seed of the sessions (default 1).")] = None,
) -> None:
    """Write GAME's mathematics as a self-contained HTML report with charts (and a PDF)."""
    import dataclasses

    from baccara.games import game as game_spec
    from baccara.options import as_int
    from baccara.randomness import check_seed
    from baccara.render.report import (
        DEFAULT_PLAN,
        DEFAULT_SEED,
        STEPS,
        ReportRequest,
        build,
        gather,
    )
    from baccara.render.report_html import write_html

    spec = game_spec(game)
    html_path = _check_suffix(
        out or pathlib.Path(f"{spec.id}-report.html"), "out", (".html", ".htm")
    )
    pdf_path = None if pdf is None else _check_suffix(pdf, "pdf", (".pdf",))
    plan = DEFAULT_PLAN
    if sessions is not None:
        plan = dataclasses.replace(plan, sessions=as_int("sessions", sessions, 1, 1_000_000))
    request = ReportRequest(
        spec.id,
        rule_options(spec, option),
        bet=bet,
        seed=DEFAULT_SEED if seed is None else check_seed(seed),
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
    out_console.print(f"HTML written to {html_path}")
    if pdf_path is not None:
        out_console.print(f"PDF written to {pdf_path}")
