"""The game mathematician's report (a "PAR sheet"): gather every figure, then lay it out.

:func:`gather` makes the same public calls a user can make — :func:`baccara.analyze`,
:func:`baccara.effect_of_removal`, :func:`baccara.edges_by_decks`,
:func:`baccara.compare_variants` and :func:`baccara.play_sessions` (what
``baccara simulate --bet`` plays) — and :func:`build` turns them into a
:class:`~baccara.render.document.Document` that the HTML and PDF writers lay out.
Nothing in the report is computed anywhere else, so each of its tables can be
checked against those calls, and the report says which command reproduces what.
It is dated (``--date``, today by default) and numbered (``--revision``), and prints the
command that writes it again, digit for digit.

>>> from baccara.sim.sessions import SessionPlan
>>> request = ReportRequest("lo-ball", plan=SessionPlan(1000, 100_000, 20, 50))
>>> document = build(gather(request))
>>> document.tables()["bet-main"].rows[0][:3]
('win-bonus (0 points)', '1.5 to 1', '204,050')
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from importlib.metadata import version

from baccara.cards import ShoeComposition
from baccara.exact import analyze, effect_of_removal
from baccara.exact.bonus import category_counts
from baccara.exact.breakdowns import breakdowns
from baccara.exact.floor import FloorPlan, on_the_floor
from baccara.exact.round_risk import correlations, liability
from baccara.exact.table_week import table_week
from baccara.exact.variants import compare_variants, edges_by_decks
from baccara.exact.volatility import Lattice, intervals
from baccara.games import game
from baccara.games.fingerprint import rules_hash
from baccara.games.paytable import Paytable
from baccara.render import par_sections as par
from baccara.render import report_sections as sections
from baccara.render.document import Document
from baccara.render.report_data import ReportData, ReportRequest
from baccara.sim.api import play_sessions

STEPS = (
    "exact analysis",
    "effect of removal",
    "house edge by decks",
    "rule variants",
    "bankroll sessions",
    "volatility",
    "the table's week, liability and correlation",
    "breakdowns",
)
"""What :func:`gather` computes, in order; each is reported to ``step`` when it starts."""


def gather(request: ReportRequest, step: Callable[[str], None] = lambda _: None) -> ReportData:
    """Compute everything the report shows; ``step`` hears each of :data:`STEPS` as it starts."""
    spec = game(request.game)
    options = dict(request.options)
    step(STEPS[0])
    analysis = analyze(spec.id, **options)
    rules = spec.rules_from_options(**options)
    bet = request.bet or analysis.bets[0].bet
    if bet not in analysis.bet_ids:
        spec.parse_bet(bet)  # refuses, naming the bets
    step(STEPS[1])
    removal = effect_of_removal(spec.id, **options)
    step(STEPS[2])
    decks = edges_by_decks(spec.id, **options)
    step(STEPS[3])
    variants = compare_variants(spec.id, spec.variants, **options)
    step(STEPS[4])
    sessions = play_sessions(
        spec.id,
        bet,
        stake_cents=request.plan.stake,
        bankroll_cents=request.plan.bankroll,
        hands=request.plan.hands,
        sessions=request.plan.sessions,
        seed=request.seed,
        options=options,
        keep_paths=request.plan.sessions,
    )
    bonus = None
    if "bonus" in analysis.bet_ids and isinstance(getattr(rules, "paytable", None), Paytable):
        bonus = (category_counts(ShoeComposition.standard(rules.decks)), rules.paytable)
    floor = FloorPlan.for_game(spec, **dict(request.floor))
    step(STEPS[5])
    volatility = {b.bet: intervals(Lattice.of_bet(b)) for b in analysis.bets}
    step(STEPS[6])
    week = table_week(spec, rules, analysis, floor)
    risk = liability(spec, rules, analysis, floor.max_bet_cents, floor.seats)
    moving = correlations(spec, rules)
    step(STEPS[7])
    tables = breakdowns(spec.id, rules)
    return ReportData(
        request=request,
        spec=spec,
        analysis=analysis,
        rules=rules,
        removal=removal,
        decks=decks,
        variants=variants,
        sessions=sessions,
        bonus=bonus,
        floor=floor,
        on_floor=tuple(on_the_floor(b, floor) for b in analysis.bets),
        liability=risk,
        correlations=moving,
        volatility=volatility,
        week=week,
        breakdowns=tables,
        date=request.date or datetime.date.today(),
        rules_hash=rules_hash(rules, spec.id),
    )


def build(data: ReportData) -> Document:
    """Lay the figures out as a document: rules, bets, published figures, charts, variants."""
    blocks = [
        *par.control(data),
        *par.compliance(data),
        *sections.rules(data),
        *par.assumptions(data),
        *sections.summary(data),
        *sections.bets(data),
        *sections.published(data),
        *par.volatility(data),
        *par.operations(data),
        *par.week(data),
        *par.real_stakes(data),
        *par.liability(data),
        *par.correlation(data),
        *par.breakdowns(data),
        *sections.decks(data),
        *sections.removal(data),
        *sections.loball(data),
        *sections.bonus(data),
        *sections.variants(data),
        *sections.sessions(data),
        *sections.method(data),
    ]
    options = ", ".join(f"{name}={value}" for name, value, _ in data.option_values())
    rtp = " · ".join(
        f"{data.bet_name(b.bet)} {float(1 - b.house_edge):.4%}" for b in data.analysis.bets
    )
    return Document(
        title=f"{data.spec.name}: PAR sheet",
        subtitle=f"{data.spec.id} — {options}",
        blocks=tuple(blocks),
        about=(
            ("Return to player", rtp),
            ("Revision", f"{data.request.revision}, {data.date.isoformat()}"),
            ("Made by", f"baccara {version('baccara')}"),
            ("Command", data.command()),
        ),
    )
