"""``baccara report``: the game mathematician's report as HTML (and PDF), charts included."""

from __future__ import annotations

import contextlib
import datetime
import pathlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, Any

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

    from baccara.games import GameSpec
    from baccara.games.variant import Variant


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


MAX_REVISION = 10_000

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
    hands_per_hour: Annotated[
        str | None,
        typer.Option(metavar="N", help="Hands a table deals an hour.", show_default="the game's"),
    ] = None,
    average_bet: Annotated[
        str | None, typer.Option(metavar="AMOUNT", help="Average bet.", show_default="25")
    ] = None,
    min_bet: Annotated[
        str | None, typer.Option(metavar="AMOUNT", help="Table minimum.", show_default="1")
    ] = None,
    max_bet: Annotated[
        str | None,
        typer.Option(metavar="AMOUNT", help="Table maximum a spot.", show_default="500"),
    ] = None,
    seats: Annotated[
        str | None, typer.Option(metavar="N", help="Seats occupied.", show_default="all")
    ] = None,
    week_hours: Annotated[
        str | None,
        typer.Option(metavar="H", help="Hours a table deals in a week.", show_default="112"),
    ] = None,
    drop_to_handle: Annotated[
        str | None,
        typer.Option(metavar="SHARE", help="Drop as a share of handle.", show_default="0.2"),
    ] = None,
    revision: Annotated[
        str | None, typer.Option(metavar="N", help="The sheet's revision.", show_default="1")
    ] = None,
    date: Annotated[
        str | None,
        typer.Option(metavar="YYYY-MM-DD", help="The sheet's date.", show_default="today"),
    ] = None,
    compare: Annotated[
        list[str] | None,
        typer.Option(
            "--compare",
            metavar="VARIANT",
            help="Write one sheet of these variants side by side (repeatable): a variant's "
            "name, a rule set, or NAME:KEY=VALUE[,KEY=VALUE].",
        ),
    ] = None,
) -> None:
    """Write GAME's PAR sheet as a self-contained HTML report with charts (and a PDF).

    Every option, and where the files go, is checked before any of the work is done.
    """
    import dataclasses

    from baccara.errors import InvalidOption
    from baccara.games import game as game_spec
    from baccara.options import as_int, plural
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
    floor = floor_options(
        spec,
        hands_per_hour=hands_per_hour,
        average_bet_cents=average_bet,
        min_bet_cents=min_bet,
        max_bet_cents=max_bet,
        seats=seats,
        week_hours=week_hours,
        drop_to_handle=drop_to_handle,
    )
    number = 1 if revision is None else as_int("--revision", revision, 1, MAX_REVISION)
    day = None if date is None else sheet_date(date)
    variants = None if compare is None else compared(spec, compare)
    if variants is not None:
        for flag, value in (("--bet", bet), ("--sessions", sessions), ("--seed", seed)):
            if value is not None:
                raise InvalidOption(
                    flag, "sets the bankroll sessions, which a --compare sheet does not play"
                )

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
        floor=floor,
        revision=number,
        date=day,
    )
    with progress_bar(sys.stderr.isatty(), total=len(STEPS)) as tick:
        if variants is None:
            document = build(gather(request, step=tick))
        else:
            from baccara.render.par_compare import compare_sheet

            document = compare_sheet(request, variants, step=tick)
        charts = len(list(document.charts()))
        tick.grow(charts * (1 + (pdf_path is not None)))
        write_html(document, html_path, on_chart=tick)
        if pdf_path is not None:
            from baccara.render.report_pdf import write_pdf

            write_pdf(document, pdf_path, on_chart=tick)
    tables = len(document.tables())
    sections = len(list(document.sections()))
    out_console = console()
    kind = "report" if variants is None else f"comparison of {plural(len(variants), 'variant')}"
    out_console.print(f"{spec.name} {kind}: {sections} sections, {tables} tables, {charts} charts")
    # A path is printed whole on one line, however long: it is copied, not read.
    out_console.print(Text(f"HTML written to {printable(str(html_path))}"), soft_wrap=True)
    if pdf_path is not None:
        out_console.print(Text(f"PDF written to {printable(str(pdf_path))}"), soft_wrap=True)


MAX_COMPARED = 8
"""Variants on one comparison sheet: each is a column and a delta beside the rules as given."""


def floor_options(spec: GameSpec, **given: str | None) -> dict[str, Any]:
    """The floor plan's options given on the command line, read and checked together."""
    from baccara.exact.floor import (
        MOST_BET,
        MOST_HANDS_PER_HOUR,
        MOST_WEEK_HOURS,
        OPTION_OF,
        FloorPlan,
    )
    from baccara.money import parse_amount
    from baccara.options import as_fraction, as_int

    read: dict[str, Any] = {}
    for name, text in given.items():
        if text is None:
            continue
        flag = OPTION_OF[name]
        if name.endswith("_cents"):
            read[name] = parse_amount(text, flag, MOST_BET)
        elif name == "drop_to_handle":
            read[name] = as_fraction(flag, text, 0, 1, low_inclusive=False)
        else:
            high = {"hands_per_hour": MOST_HANDS_PER_HOUR, "week_hours": MOST_WEEK_HOURS}
            read[name] = as_int(flag, text, 1, high.get(name, spec.table.seats))
    FloorPlan.for_game(spec, **read)  # checked together (minimum ≤ average ≤ maximum)
    return read


def sheet_date(text: str) -> datetime.date:
    """``2026-12-07``: a calendar date, ISO form; anything else is refused in one line."""
    from baccara.errors import InvalidOption, shown

    try:
        if len(text) != 10:
            raise ValueError
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise InvalidOption("--date", f"wants a date as YYYY-MM-DD, got {shown(text)}") from None


def compared(spec: GameSpec, texts: list[str]) -> tuple[Variant, ...]:
    """Each ``--compare`` as a variant: one of the game's named variants, a rule set the
    game takes (``ez`` at Punto Banco), or ``NAME:KEY=VALUE[,KEY=VALUE]``."""
    from baccara.cli.compare import parse_variant
    from baccara.errors import InvalidOption, shown
    from baccara.games.variant import Variant

    if not texts or len(texts) > MAX_COMPARED:
        raise InvalidOption("--compare", f"takes 1 to {MAX_COMPARED} variants, got {len(texts)}")
    named = {v.name: v for v in spec.variants}
    rule_sets = _rule_sets(spec)
    found: list[Variant] = []
    for text in texts:
        if ":" in text:
            found.append(Variant(*parse_variant(spec, text)))
        elif text in named:
            found.append(named[text])
        elif text in rule_sets:
            found.append(Variant(text, {"variant": text}, rule_sets[text]))
        else:
            known = ", ".join([*named, *rule_sets])
            raise InvalidOption(
                "--compare",
                f"{shown(text)} is not a variant of {spec.name}: name one of {known}, or give"
                " NAME:KEY=VALUE[,KEY=VALUE]",
            )
    names = [v.name for v in found]
    if len(set(names)) != len(names):
        raise InvalidOption("--compare", "names a variant twice")
    return tuple(found)


def _rule_sets(spec: GameSpec) -> dict[str, str]:
    """The rule sets a game's ``variant`` option takes, by id (Punto Banco's ez…)."""
    if "variant" not in spec.rules.OPTIONS:
        return {}
    from baccara.games.coup_bets import SHIPPED

    def words(id_: str) -> str:
        rules = SHIPPED.variants[id_]
        bets = [SHIPPED.sidebets[b] if isinstance(b, str) else b for b in rules.sidebets]
        offered = "; ".join(f"{b.name} pays {b.pays_text().replace(chr(10), '; ')}" for b in bets)
        return f"{rules.name}: {rules.description}" + (f". Side bets: {offered}" if offered else "")

    return {id_: words(id_) for id_ in SHIPPED.variants if id_ != "classic"}
