"""The game mathematician's report (a "PAR sheet"): gather every figure, then lay it out.

:func:`gather` makes the same public calls a user can make — :func:`baccara.analyze`,
:func:`baccara.effect_of_removal`, :func:`baccara.edges_by_decks`,
:func:`baccara.compare_variants` and :func:`baccara.play_sessions` (what
``baccara simulate --bet`` plays) — and :func:`build` turns them into a
:class:`~baccara.render.document.Document` that the HTML and PDF writers lay out.
Nothing in the report is computed anywhere else, so each of its tables can be
checked against those calls, and the report says which command reproduces what.
It holds no date: the same command writes the same report.

>>> request = ReportRequest("lo-ball", plan=SessionPlan(1000, 100_000, 20, 50))
>>> document = build(gather(request))
>>> document.tables()["bet-main"].rows[0][:3]
('win-bonus (0 points)', '1.5 to 1', '204,050')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import version
from typing import Any

from baccara.cards import ShoeComposition
from baccara.exact import EffectOfRemoval, analyze, effect_of_removal
from baccara.exact.bonus import category_counts
from baccara.exact.model import Analysis
from baccara.exact.variants import Comparison, DeckSweep, compare_variants, edges_by_decks
from baccara.games import GameSpec, game
from baccara.games.bonus import Category
from baccara.games.paytable import SHIPPED, Paytable
from baccara.games.variant import option_value_text
from baccara.money import format_cents
from baccara.options import option_name
from baccara.render import report_sections as sections
from baccara.render.document import Document
from baccara.render.text import printable
from baccara.sim.api import Sessions, play_sessions
from baccara.sim.sessions import SessionPlan

DEFAULT_PLAN = SessionPlan(stake=1000, bankroll=100_000, hands=200, sessions=10_000)
"""The night the fan chart plays: 10.00 a hand, 1000.00 to start, 200 hands, 10,000 nights
— the defaults of ``baccara simulate --bet``."""

DEFAULT_SEED = 1
"""The report's sessions are seeded, so the same report comes out every time."""

STEPS = (
    "exact analysis",
    "effect of removal",
    "house edge by decks",
    "rule variants",
    "bankroll sessions",
)
"""What :func:`gather` computes, in order; each is reported to ``step`` when it starts."""


@dataclass(frozen=True)
class ReportRequest:
    """Which game, under which rules, and how to play the report's bankroll sessions.

    ``options`` are rule options as :func:`baccara.analyze` takes them; ``bet`` is the
    bet the sessions play (the game's first bet by default).
    """

    game: str
    options: Mapping[str, Any] = field(default_factory=dict)
    bet: str | None = None
    seed: int = DEFAULT_SEED
    plan: SessionPlan = DEFAULT_PLAN


@dataclass(frozen=True)
class ReportData:
    """Every figure the report shows, each from a call a user can make."""

    request: ReportRequest
    spec: GameSpec
    analysis: Analysis
    rules: Any
    removal: EffectOfRemoval
    decks: DeckSweep | None
    variants: Comparison
    sessions: Sessions
    bonus: tuple[Mapping[Category, int], Paytable] | None

    @property
    def session_bet(self) -> str:
        return self.sessions.bet

    def option_values(self) -> list[tuple[str, str, str]]:
        """Each rule option as a user types it: name, value in force, the default.

        A paytable read from a file goes by the name the file gave it, control
        characters escaped.
        """
        defaults = self.spec.rules()
        return [
            (
                option_name(name),
                printable(option_value_text(getattr(self.rules, name))),
                option_value_text(getattr(defaults, name)),
            )
            for name in self.analysis.options
        ]

    def option_sources(self) -> list[str]:
        """Where each option's default comes from: the seed, or an assumption and its source."""
        return [
            self.spec.assumption(name) or f"seed {self.spec.seed_number}"
            for name in self.analysis.options
        ]

    def option_flags(self) -> str:
        """The ``--option``s that give these rules (those that differ from the defaults).

        A paytable read from a file shows as ``paytable=FILE``: the report knows its
        name, not where it was read from.
        """
        paytable = getattr(self.rules, "paytable", None)
        from_file = isinstance(paytable, Paytable) and paytable.name not in SHIPPED
        return "".join(
            f" --option {name}={'FILE' if name == 'paytable' and from_file else value}"
            for name, value, default in self.option_values()
            if value != default
        )

    def command(self) -> str:
        """The ``baccara report`` command that writes this report (where to aside), the
        sessions' bet, number and seed spelled out.

        The command sets no stake, bankroll or hands; a report whose sessions were
        planned otherwise (from Python) says so instead.
        """
        plan = self.sessions.plan
        if (plan.stake, plan.bankroll, plan.hands) != (
            DEFAULT_PLAN.stake, DEFAULT_PLAN.bankroll, DEFAULT_PLAN.hands,
        ):  # fmt: skip
            money = format_cents
            return (
                f"none: sessions of {plan.hands:,} hands at {money(plan.stake)} from "
                f"{money(plan.bankroll)} were planned in Python (ReportRequest.plan)"
            )
        return (
            f"baccara report {self.spec.id}{self.option_flags()} --bet {self.session_bet}"
            f" --sessions {plan.sessions} --seed {self.sessions.seed}"
        )


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
    )


def build(data: ReportData) -> Document:
    """Lay the figures out as a document: rules, bets, published figures, charts, variants."""
    blocks = [
        *sections.rules(data),
        *sections.summary(data),
        *sections.bets(data),
        *sections.published(data),
        *sections.decks(data),
        *sections.removal(data),
        *sections.loball(data),
        *sections.bonus(data),
        *sections.variants(data),
        *sections.sessions(data),
        *sections.method(data),
    ]
    options = ", ".join(f"{name}={value}" for name, value, _ in data.option_values())
    rtp = " · ".join(f"{b.bet} {float(1 - b.house_edge):.4%}" for b in data.analysis.bets)
    return Document(
        title=f"{data.spec.name}: the game's mathematics",
        subtitle=f"{data.spec.id} — {options}",
        blocks=tuple(blocks),
        about=(
            ("Return to player", rtp),
            ("Made by", f"baccara {version('baccara')}"),
            ("Command", data.command()),
        ),
    )
