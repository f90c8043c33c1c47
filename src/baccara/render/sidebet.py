"""Punto Banco side bets and rule sets on screen: their pay lines in words, then the
exact figures, and designed pays side by side.

The figures are the very tables ``baccara analyze`` prints (:mod:`baccara.render.analysis`),
so a bet shown here and the same bet at a table read alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from baccara.exact.model import BetAnalysis
from baccara.exact.sidebet_design import SideBetDesign
from baccara.games.coup_bets import MainRules, PayLine, SideBet
from baccara.options import decimal_text, fraction_text, percent_text, plural
from baccara.render.analysis import bet_summary, bet_table
from baccara.render.text import printable


def pay_words(pays: Fraction) -> str:
    """``40`` → ``"40 to 1"``, ``0`` → ``"push"``: a pay as a felt prints it."""
    return "push" if pays == 0 else f"{fraction_text(pays)} to 1"


def _heading(name: str, bet_id: str, decks: int, description: str) -> list[RenderableType]:
    title = Text.assemble(
        (printable(name), "bold"), f" ({printable(bet_id)}) — {plural(decks, 'deck')}"
    )
    return [title, *([Text(printable(description))] if description else [])]


def _lines(lines: Sequence[PayLine], before: str = "") -> list[str]:
    return [f"  {pay_words(line.pays)}: {before}{line.when.describe()}" for line in lines]


def _text(lines: Sequence[str]) -> Text:
    """Lines of words, each made printable (a file's name or description could hold an
    escape code) and then joined, so the line breaks stay line breaks."""
    return Text("\n".join(printable(line) for line in lines))


def _figures(bets: Sequence[BetAnalysis]) -> list[RenderableType]:
    parts: list[RenderableType] = []
    for bet in bets:
        parts += [Text(""), bet_table(bet), bet_summary(bet)]
    return parts


def print_sidebet(bet: SideBet, decks: int, analysis: BetAnalysis, console: Console) -> None:
    """A side bet's pay lines in words, the first that holds paying, then its exact figures."""
    words = ["Pays (the first line that holds):", *_lines(bet.lines), "  anything else loses"]
    parts = [*_heading(bet.name, bet.id, decks, bet.description), _text(words)]
    console.print(Group(*parts, *_figures([analysis])))


def print_rule_set(
    rules: MainRules, decks: int, tie_pays: Fraction, bets: Sequence[BetAnalysis], console: Console
) -> None:
    """A rule set's pays for the Banker, Player and Tie bets in words, then their figures."""
    banker = (
        f"{pay_words(1 - rules.commission / 100)} ({fraction_text(rules.commission)} % commission)"
    )
    words = [
        "Banker wins:",
        *_lines(rules.banker),
        f"  {'any other: ' if rules.banker else ''}{banker}",
    ]
    words += [
        "Player wins:",
        *_lines(rules.player),
        f"  {'any other: ' if rules.player else ''}1 to 1",
    ]
    words += [f"Tie: {pay_words(tie_pays)}; Banker and Player push"]
    if rules.sidebets:
        words.append(f"Side bets offered: {', '.join(rules.sidebets)}")
    parts = [*_heading(rules.name, rules.id, decks, rules.description), _text(words)]
    console.print(Group(*parts, *_figures(bets)))


def print_sidebet_designs(
    bet: SideBet,
    now: BetAnalysis,
    designs: Sequence[SideBetDesign],
    target: Fraction,
    decks: int,
    console: Console,
) -> None:
    """The designed pays, nearest the target edge first, under the bet's pays now."""
    grid = Table(
        title=f"[bold]{printable(bet.name)}: nearest {percent_text(target, 2)}[/bold]"
        f" — {plural(decks, 'deck')}, pays to 1",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        collapse_padding=True,
    )
    grid.add_column("#", justify="right", no_wrap=True)
    for number in range(1, len(bet.lines) + 1):
        grid.add_column(f"L{number}", justify="right", no_wrap=True)
    for column in ("edge", "exactly", "std dev"):
        grid.add_column(column, justify="right", no_wrap=True)

    def row(label: str, pays: Sequence[Fraction], analysis: BetAnalysis) -> list[str]:
        return [
            label,
            *(fraction_text(pay) for pay in pays),
            percent_text(analysis.house_edge),
            fraction_text(analysis.house_edge),
            decimal_text(analysis.std_dev, 3),
        ]

    grid.add_row(*row("now", [line.pays for line in bet.lines], now), style="dim")
    for number, found in enumerate(designs, start=1):
        grid.add_row(*row(str(number), found.pays, found.analysis))
    console.print(grid)
    legend = [f"L{n} {line.when.describe()}" for n, line in enumerate(bet.lines, start=1)]
    legend.append(f"hit frequency {percent_text(now.hit_frequency)} whatever the pays")
    console.print(_text(legend), style="dim")
