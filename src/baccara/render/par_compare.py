"""One PAR sheet with rule variants side by side: ``baccara report GAME --compare V…``.

Each column is a whole exact analysis (:func:`baccara.compare_variants`) under the floor
plan of the request, and each variant's column is followed by its delta from the rules
as given: the house edge, hit frequency, standard deviation and volatility index of
every bet, its theoretical win an hour and its hold, and the worst round's payout. A
bet one column has and another has not (a side bet a rule set adds) shows "—".
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from importlib.metadata import version

from baccara.exact.floor import FloorPlan, floor_flags, on_the_floor
from baccara.exact.model import Analysis
from baccara.exact.round_risk import liability
from baccara.exact.variants import compare_variants
from baccara.exact.volatility import Lattice, volatility_index
from baccara.games import game
from baccara.games.fingerprint import rules_hash
from baccara.games.variant import Variant
from baccara.money import money_text
from baccara.options import plural
from baccara.render.document import Block, Document, Heading, Prose, TableBlock
from baccara.render.par_sections import APPROVAL, nearest_cent, player_edge, share_text
from baccara.render.report_data import ReportRequest, bet_names, option_flags


@dataclass(frozen=True)
class Column:
    """One set of rules on the sheet: its name, its exact figures, each as a number."""

    name: str
    description: str
    figures: dict[str, Fraction]
    rules_hash: str
    names: dict[str, str]
    """Each bet's name as the layout of a table with these rules prints it."""


FIGURES: tuple[tuple[str, str], ...] = (
    ("edge", "house edge"),
    ("hit", "hit frequency"),
    ("sd", "std dev"),
    ("vi", "VI 90 %"),
    ("win", "win an hour, a seat"),
    ("hold", "hold"),
)
"""Each bet's rows, in order: key and words."""

PERCENT = {"edge", "hit", "hold"}
MONEY = {"win", "worst"}


def _column(name: str, description: str, analysis: Analysis, plan: FloorPlan) -> Column:
    spec = game(analysis.game)
    rules = spec.rules_from_options(**dict(analysis.options))
    figures: dict[str, Fraction] = {}
    for bet in analysis.bets:
        floor = on_the_floor(bet, plan)
        figures[f"{bet.bet}/edge"] = bet.house_edge
        figures[f"{bet.bet}/hit"] = bet.hit_frequency
        figures[f"{bet.bet}/sd"] = Fraction(bet.std_dev)
        figures[f"{bet.bet}/vi"] = Fraction(volatility_index(Lattice.of_bet(bet)))
        figures[f"{bet.bet}/win"] = floor.win_per_hour_seat
        figures[f"{bet.bet}/hold"] = floor.hold
    worst = liability(spec, rules, analysis, plan.max_bet_cents, plan.seats, count=False)
    figures["worst"] = Fraction(worst.total_cents)
    return Column(name, description, figures, rules_hash(rules, spec.id), bet_names(spec, rules))


def _text(key: str, value: Fraction | None, delta: bool = False) -> str:
    """A figure as the sheet prints it; a delta of nothing is left blank, as in ``compare``."""
    if value is None:
        return "—"
    if delta and value == 0:
        return ""
    kind = key.rpartition("/")[2]
    sign = "+" if delta and value > 0 else ""
    if kind in PERCENT:
        return f"{sign}{float(value) * 100:.4f} pp" if delta else f"{float(value):.4%}"
    if kind in MONEY:
        cents = nearest_cent(value)
        return ("+" if delta and cents > 0 else "") + money_text(cents)
    return f"{sign}{float(value):.4f}"


def compare_sheet(
    request: ReportRequest,
    variants: Sequence[Variant],
    step: Callable[[str], None] = lambda _: None,
) -> Document:
    """The rules of ``request`` and each of ``variants`` laid over them, on one sheet."""
    spec = game(request.game)
    plan = FloorPlan.for_game(spec, **dict(request.floor))
    step("exact analysis of every variant")
    comparison = compare_variants(spec.id, variants, **dict(request.options))
    columns = [_column("as given", "the rules in force", comparison.base, plan)]
    for result in comparison.variants:
        step(f"variant {result.variant.name}")
        columns.append(
            _column(
                result.variant.name,
                result.variant.description or result.variant.options_text(),
                result.analysis,
                plan,
            )
        )
    base = columns[0].figures
    names = {bet: name for column in columns for bet, name in column.names.items()}
    keys = list(
        dict.fromkeys(key for column in columns for key in column.figures if key != "worst")
    )
    keys.append("worst")
    header = ["Figure", columns[0].name]
    for column in columns[1:]:
        header += [column.name, "Δ"]
    rows = []
    for key in keys:
        bet, _, kind = key.rpartition("/")
        words = dict(FIGURES).get(kind, "")
        label = f"{names.get(bet, bet)}: {words}" if bet else "worst round at the maximum"
        row = [label, _text(key, base.get(key))]
        for column in columns[1:]:
            value = column.figures.get(key)
            delta = None if value is None or key not in base else value - base[key]
            row += [_text(key, value), _text(key, delta, delta=True)]
        rows.append(tuple(row))
    date = request.date or datetime.date.today()
    rules = spec.rules_from_options(**dict(request.options))
    command = (
        f"baccara report {spec.id}"
        + option_flags(spec, rules, comparison.base.options, given=request.options)
        + "".join(f" {flag}" for flag in floor_flags(plan, request.floor))
        + "".join(f" --compare {_spelled(spec.variants, v)}" for v in variants)
        + f" --revision {request.revision} --date {date}"
    )
    blocks: list[Block] = [
        Heading("Document control", "control"),
        TableBlock(
            "control",
            "",
            ("Field", "Value"),
            (
                ("Document", f"PAR sheet comparison: {spec.name} ({spec.id})"),
                ("Revision", str(request.revision)),
                ("Date", date.isoformat()),
                ("Made by", f"baccara {version('baccara')}"),
                ("Command", command),
                *((f"Rules hash: {c.name}", c.rules_hash) for c in columns),
                *APPROVAL,
            ),
            left_columns=2,
        ),
        Heading("The variants side by side", "compare"),
        TableBlock(
            "variant-list",
            "",
            ("Variant", "What changes"),
            tuple((c.name, c.description) for c in columns),
            left_columns=2,
        ),
        TableBlock(
            "compare",
            "Every figure, and its change from the rules as given",
            tuple(header),
            tuple(rows),
        ),
        Prose(
            f"Floor plan: {plan.hands_per_hour} hands an hour, an average bet of "
            f"{money_text(plan.average_bet_cents)}, {plural(plan.seats, 'seat')}, a maximum of "
            f"{money_text(plan.max_bet_cents)}, the drop {share_text(plan.drop_to_handle)} of "
            "the handle (assumptions: see a variant's own sheet). VI 90 %: 1.6449 × std dev. "
            "Δ: the variant less the rules as given (blank: unchanged); pp: percentage "
            "points.",
            "note",
        ),
        *(
            Prose(player_edge(c.name, names.get(bet, bet), edge))
            for c in columns
            for key, edge in c.figures.items()
            for bet, _, kind in [key.rpartition("/")]
            if kind == "edge" and edge < 0
        ),
    ]
    return Document(
        title=f"{spec.name}: PAR sheet, variants compared",
        subtitle=f"{spec.id} — {', '.join(c.name for c in columns)}",
        blocks=tuple(blocks),
        about=(
            ("Revision", f"{request.revision}, {date.isoformat()}"),
            ("Made by", f"baccara {version('baccara')}"),
            ("Command", command),
        ),
    )


def _spelled(named: Sequence[Variant], variant: Variant) -> str:
    """A variant as ``--compare`` takes it: by name if the game or a rule set names it so."""
    if variant in named or dict(variant.options) == {"variant": variant.name}:
        return variant.name
    return f"{variant.name}:{variant.options_text().replace(', ', ',')}"
