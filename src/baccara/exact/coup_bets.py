"""Exact figures of any Punto Banco bet a file defines, from the coup's facts.

A side bet, or a Banker or Player bet under a rule set's lines, settles on the facts of
the coup alone (:func:`baccara.games.punto_banco.spot_result`), so its exact outcomes
are the counts of :func:`~baccara.exact.coup_facts.fact_counts` summed by what the bet
makes of each set of facts: one outcome per pay line that can hold, and the push and
loss. The count reads the shoe no finer than the bet's terms need (a suited pair needs
the 52 cards; Dragon 7 only the ten values).
"""

from __future__ import annotations

import dataclasses
import functools
from collections import defaultdict
from fractions import Fraction

from baccara.cards import ShoeSpec, composition
from baccara.exact.coup_facts import Level, fact_counts
from baccara.exact.model import BetAnalysis, Outcome, Published
from baccara.games.coup_terms import CoupFacts
from baccara.games.punto_banco import (
    Bet,
    PuntoBancoRules,
    lines_of,
    outcome_name,
    outcome_order,
    spot_net,
)


def level_of(spot: str, rules: PuntoBancoRules) -> Level:
    """How finely the shoe must be counted for ``spot``: no finer than its terms read."""
    return Level.for_terms(
        frozenset().union(*(line.when.names for line in lines_of(spot, rules)))
        | ({"player_pair"} if spot in (Bet.PLAYER_PAIR.value, Bet.BANKER_PAIR.value) else set())
    )


@functools.lru_cache(maxsize=64)
def _counts(shoe: ShoeSpec, level: Level) -> tuple[tuple[CoupFacts, int], ...]:
    return tuple(fact_counts(shoe, level).items())


def spot_analysis(spot: str, rules: PuntoBancoRules, shoe: ShoeSpec) -> BetAnalysis:
    """Every outcome of a bet on ``spot`` dealt from ``shoe``, counted exactly.

    Outcomes are named for what decided them: a pay line by its condition, a Banker or
    Player win at its usual odds ``win``, and ``push`` and ``lose``.
    """
    shoe = shoe if isinstance(shoe, int) else composition(shoe)
    by_name: dict[str, int] = defaultdict(int)
    pays: dict[str, Fraction] = {}
    for facts, count in _counts(shoe, level_of(spot, rules)):
        name = outcome_name(spot, facts, rules)
        by_name[name] += count
        pays[name] = spot_net(spot, facts, rules)
    total = sum(by_name.values())
    outcomes = tuple(
        Outcome(name, by_name[name], total, pays[name])
        for name in dict.fromkeys(outcome_order(spot, rules))
        if name in by_name
    )
    return BetAnalysis(spot, outcomes, _published(spot, rules, shoe))


def _published(spot: str, rules: PuntoBancoRules, shoe: ShoeSpec) -> Published | None:
    """The figure the bet's file cites, for the full shoe of the decks it was printed for;
    a rule set's figure is its Banker bet's, and holds only at the rule set's own
    commission (``variant=ez, commission=5`` is another game)."""
    side = rules.sidebet(spot)
    cited = side.published if side is not None else None
    if spot == Bet.BANKER.value:
        variant = rules.variant
        cited = variant.published if rules.commission == variant.commission else None
    if cited is None or not isinstance(shoe, int) or shoe != cited.decks:
        return None
    return Published(cited.house_edge, cited.source, places=cited.places)


def with_citation(analysis: BetAnalysis, rules: PuntoBancoRules, shoe: ShoeSpec) -> BetAnalysis:
    """``analysis`` with the figure its file cites, if any holds (see :func:`_published`)."""
    cited = _published(analysis.bet, rules, shoe)
    return analysis if cited is None else dataclasses.replace(analysis, published=cited)
