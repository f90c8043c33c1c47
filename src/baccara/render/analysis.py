"""An analysis on screen, laid out the way published game analyses are.

One table per bet: outcome, pays, combinations, probability, return, with the
total in the last row and the house edge in its lower-right cell.
"""

from __future__ import annotations

from fractions import Fraction

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from baccara.exact.model import Analysis, BetAnalysis, Cell, DataTable
from baccara.exact.removal import EffectOfRemoval
from baccara.options import decimal_text, fraction_text, percent_text
from baccara.render.text import options_text


def pays_text(pays: Fraction) -> str:
    """``19/20`` → ``"0.95 to 1"``, ``-1`` → ``"-1"``, ``0`` → ``"push"``."""
    if pays == 0:
        return "0"
    if pays < 0:
        return fraction_text(pays)
    return f"{fraction_text(pays)} to 1"


OUTCOME_COLUMNS = ("Outcome", "Pays", "Combinations", "Probability", "Return")
"""The columns of a bet's outcome table, on screen and in the report."""


def outcome_label(name: str) -> str:
    """An outcome as a document prints it: a Bonus category's id in words
    (``royal_flush`` → ``royal flush``); the commands keep the id a paytable file uses."""
    return name.replace("_", " ")


def outcome_rows(bet: BetAnalysis) -> list[tuple[str, ...]]:
    """One row per outcome, as printed: exact counts, 8-decimal probability and return."""
    return [
        (
            outcome.name,
            pays_text(outcome.pays),
            f"{outcome.count:,}",
            decimal_text(outcome.probability, 8),
            decimal_text(outcome.expected_return, 8),
        )
        for outcome in bet.outcomes
    ]


def total_row(bet: BetAnalysis) -> tuple[str, ...]:
    """The last row: every combination, probability 1, and the bet's expected return."""
    return ("Total", "", f"{bet.total:,}", decimal_text(1, 8), decimal_text(bet.expected_return, 8))


def bet_table(bet: BetAnalysis) -> Table:
    """A bet's outcomes. On a narrow terminal the outcome's name wraps first (a side bet's
    pay line is a sentence), so the figures keep every digit while the table can fit."""
    table = Table(title=f"[bold]{bet.bet}[/bold]", title_justify="left", show_footer=False)
    for i, column in enumerate(OUTCOME_COLUMNS):
        table.add_column(column, justify="left" if i == 0 else "right", no_wrap=i > 0)
    for row in outcome_rows(bet):
        table.add_row(*row)
    table.add_section()
    *first, last = total_row(bet)
    table.add_row(*first, Text(last, style="bold"))
    return table


def edge_text(bet: BetAnalysis) -> str:
    """``house edge 1.0579%`` — the bold start of a bet's summary line."""
    return f"house edge {percent_text(bet.house_edge)}"


def figures_text(bet: BetAnalysis) -> str:
    """The rest of the summary line: the exact edge, element of risk, std dev, hit frequency."""
    return (
        f" (exactly {fraction_text(bet.house_edge)})"
        f" · element of risk {percent_text(bet.element_of_risk)}"
        f" · std dev {decimal_text(bet.std_dev, 4)}"
        f" · hit frequency {percent_text(bet.hit_frequency)}"
    )


def published_lines(bet: BetAnalysis) -> list[str]:
    """The seed's figures beside ours, one line each: the edge, then any outcome it prints.

    A published figure is quoted with the document's own precision, and the exact one
    with two digits more, so a reader sees both that they agree and how they round.
    """
    published = bet.published
    if published is None:
        return []
    lines = []
    for figure in published.figures(bet):
        verdict = (
            "the same to the digits published"
            if figure.agrees
            else "computed minus published "
            + percent_text(figure.exact - figure.printed, published.places + 2, signed=True)
        )
        name = "" if figure.name == "house edge" else f"{figure.name} "
        source = f" ({published.source})" if figure.name == "house edge" else ""
        lines.append(
            f"published {name}{figure.printed_text()}{source},"
            f" computed {figure.exact_text()}: {verdict}"
        )
    return lines


def bet_summary(bet: BetAnalysis) -> Text:
    text = Text()
    text.append(edge_text(bet), style="bold")
    text.append(figures_text(bet))
    for line in published_lines(bet):
        text.append(f"\n{line}")
    return text


def cell_text(value: Cell) -> str:
    """Counts with thousands separators, exact fractions as 8-decimal floats, text as is."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    return decimal_text(value, 8)


def data_table(data: DataTable) -> Table:
    table = Table(title=f"[bold]{data.title}[/bold]", title_justify="left")
    for i, column in enumerate(data.columns):
        table.add_column(column, justify="left" if i == 0 else "right")
    for row in data.rows:
        table.add_row(*(cell_text(v) for v in row))
    return table


def analysis_renderable(analysis: Analysis) -> RenderableType:
    options = options_text(analysis.options)
    parts: list[RenderableType] = [
        Text(f"{analysis.game} — {options}", style="bold"),
        Text(f"Combinations are {analysis.sample_space}.", style="dim"),
    ]
    for bet in analysis.bets:
        parts.append(Text(""))
        parts.append(bet_table(bet))
        parts.append(bet_summary(bet))
    for data in analysis.tables:
        if not data.on_screen:
            continue
        parts.append(Text(""))
        parts.append(data_table(data))
        if data.note:
            parts.append(Text(data.note))
    for note in analysis.notes:
        parts.append(Text(""))
        parts.append(Text(note, style="dim"))
    return Group(*parts)


def print_analysis(analysis: Analysis, console: Console) -> None:
    console.print(analysis_renderable(analysis))


def points_text(value: Fraction) -> str:
    """A change of edge in percentage points, signed; an exact zero prints as ``0``."""
    return "0" if value == 0 else decimal_text(value * 100, 5, signed=True)


def effect_columns(eor: EffectOfRemoval) -> tuple[str, ...]:
    return ("Removed", "Share", *eor.bets)


def effect_rows(
    eor: EffectOfRemoval,
) -> tuple[tuple[str, ...], list[tuple[str, ...]], tuple[str, ...]]:
    """The full-shoe edges, one row per removal in % points, and the weighted sums."""
    whole = "set" if eor.removed == "tile" else "shoe"
    full = (f"full {whole} edge", "", *(percent_text(e) for e in eor.full_edges))
    rows = [
        (
            removal.label,
            fraction_text(removal.share),
            *(points_text(e) for e in eor.effects(removal)),
        )
        for removal in eor.removals
    ]
    weighted = ("weighted sum", "", *(points_text(s) for s in eor.weighted_sums))
    return full, rows, weighted


EFFECT_SIGN_NOTE = (
    "+ raises the house edge (the removal is bad for the bettor); the bettor's "
    "expectation moves by the opposite amount. Weighted sum: Σ share × effect, the "
    "effect of removing a card (or tile) nobody saw — exactly 0 when it prints 0."
)


def effect_of_removal_table(eor: EffectOfRemoval) -> Table:
    """Rank (or tile) × bet: the change of each bet's house edge when one is removed."""
    table = Table(
        title=f"[bold]one {eor.removed} removed: change of house edge, % points[/bold]",
        title_justify="left",
    )
    for i, column in enumerate(effect_columns(eor)):
        table.add_column(column, justify="left" if i == 0 else "right")
    full, rows, weighted = effect_rows(eor)
    table.add_row(*full)
    table.add_section()
    for row in rows:
        table.add_row(*row)
    table.add_section()
    table.add_row(*weighted)
    return table


def effect_of_removal_renderable(eor: EffectOfRemoval) -> RenderableType:
    options = options_text(eor.options)
    parts: list[RenderableType] = [
        Text(f"{eor.game} — {options}", style="bold"),
        effect_of_removal_table(eor),
        Text(EFFECT_SIGN_NOTE),
    ]
    parts.extend(Text(note, style="dim") for note in eor.notes)
    return Group(*parts)


def print_effect_of_removal(eor: EffectOfRemoval, console: Console) -> None:
    console.print(effect_of_removal_renderable(eor))
