"""An analysis at one stake on screen: each outcome as it is paid, and the edge it makes."""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from baccara.exact.stakes import BetAtStake, StakeAnalysis
from baccara.money import money_text
from baccara.options import decimal_text, fraction_text, percent_text
from baccara.render.analysis import pays_text
from baccara.render.text import options_text

STAKE_COLUMNS = ("Outcome", "Pays", "Probability", "Won", "Rounded off", "Return")
"""A bet's outcome table at a stake: what the stake wins, and what rounding kept."""


def won_text(cents: int | None) -> str:
    """``23`` → ``"+0.23"``, a loss ``"-0.25"``, nothing ``"0.00"``."""
    if cents is None:
        return ""
    return money_text(cents) if cents <= 0 else f"+{money_text(cents)}"


def stake_rows(bet: BetAtStake) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for o in bet.outcomes:
        kept = o.rounded_off_cents
        rows.append(
            (
                o.name,
                pays_text(o.pays),
                decimal_text(o.probability, 8),
                won_text(o.won_cents),
                decimal_text(kept / 100, 4) if kept else "",
                decimal_text(o.expected_return, 8),
            )
        )
    return rows


def stake_table(bet: BetAtStake) -> Table:
    stake = "" if bet.stake_cents is None else f" at {money_text(bet.stake_cents)}"
    table = Table(title=f"[bold]{bet.bet}{stake}[/bold]", title_justify="left")
    for i, column in enumerate(STAKE_COLUMNS):
        table.add_column(column, justify="left" if i == 0 else "right")
    for row in stake_rows(bet):
        table.add_row(*row)
    table.add_section()
    table.add_row(
        "Total", "", decimal_text(1, 8), "", "",
        Text(decimal_text(bet.expected_return, 8), style="bold"),
    )  # fmt: skip
    return table


def stake_summary(bet: BetAtStake) -> Text:
    """``house edge 2.4337% at 0.25 (exactly …) · 1.0579% at the exact odds …``."""
    where = "per unit" if bet.stake_cents is None else f"at {money_text(bet.stake_cents)}"
    text = Text()
    text.append(f"house edge {percent_text(bet.house_edge)} {where}", style="bold")
    text.append(f" (exactly {fraction_text(bet.house_edge)})")
    if bet.rounding_matters:
        points = decimal_text(bet.rounding_cost * 100, 4)
        text.append(
            f" · {percent_text(bet.exact_edge)} at the exact odds: rounding adds {points} points"
        )
    else:
        text.append(" · the exact odds' edge: no payout is rounded")
    text.append(f" · std dev {decimal_text(bet.std_dev, 4)}")
    text.append(f" · hit frequency {percent_text(bet.hit_frequency)}")
    return text


def stake_renderable(analysis: StakeAnalysis) -> RenderableType:
    parts: list[RenderableType] = [
        Text(f"{analysis.game} — {options_text(analysis.options)}", style="bold"),
    ]
    for bet in analysis.bets:
        parts.append(Text(""))
        parts.append(stake_table(bet))
        parts.append(stake_summary(bet))
    parts.append(Text(""))
    parts.append(Text(analysis.note(), style="dim"))
    return Group(*parts)


def print_stake_analysis(analysis: StakeAnalysis, console: Console) -> None:
    console.print(stake_renderable(analysis))
