"""Effect of removal: what taking one card (or tile) out of a full shoe does to each bet.

For every bet the *effect of removal* of a rank is the exact change in the house
edge when one card of that rank is gone and the next round is dealt from the rest:

    effect(r) = house edge(shoe − one r) − house edge(full shoe)

A positive effect means the removal is good for the house (bad for the bettor).
Blackjack and baccarat literature usually prints the opposite sign — the change in
the *player's* expectation — so a published table compares as ``−effect``.

A count is built on these numbers: a card seen dealt moves the edge by about its
effect, and a running count tags each rank in proportion to it. Because removing a
card nobody has seen leaves every probability unchanged (the next round is dealt
from a uniformly shuffled rest either way), the effects weighted by each rank's
share of the shoe sum to exactly zero: Σ_r (n_r / N) · effect(r) = 0. That is the
"balanced count" check; :attr:`EffectOfRemoval.weighted_sums` computes it and the
tests prove it exactly for every bet of every game.

Conventions per game (see ``docs/effect-of-removal.md``):

* Punto Banco: all 13 ranks, one card from the ``decks``-deck shoe. Ten, Jack, Queen
  and King are all worth 0 and act alike on the main bets; the pair bets read ranks.
* RedGreen (and Mini): all 13 ranks from the seven-deck shoe, for Red, Green and the
  Bonus. A rank's card is taken from one suit (spades); the full shoe treats the four
  suits alike, so any suit gives the same shoe up to relabelling suits and the same
  edge — the tests prove it for all 52 cards, so this equals the four-suit average.
* Lo-Ball: each of the 28 tiles, the round dealt from the other 27 (the set is
  reshuffled whole every round, so this is a designer's view, not a count). The dice
  bets never meet a tile: their effect is zero.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from baccara.cards import Card, Rank, ShoeComposition, Suit
from baccara.exact.model import BetAnalysis, fraction_str
from baccara.games.spec import GameSpec, Role

REMOVED_SUIT = Suit.SPADES
"""The suit of the card taken out for a rank; every suit gives the same edges."""


@dataclass(frozen=True)
class Removal:
    """One card (or tile) taken out: its label, how much of the shoe it is, the edges after."""

    label: str
    share: Fraction
    edges: tuple[Fraction, ...]


@dataclass(frozen=True)
class EffectOfRemoval:
    """Every bet's house edge on the full shoe and after each single removal, exactly."""

    game: str
    options: Mapping[str, Any]
    removed: str  # "rank" or "tile"
    bets: tuple[str, ...]
    full_edges: tuple[Fraction, ...]
    removals: tuple[Removal, ...]
    notes: tuple[str, ...] = ()

    def effects(self, removal: Removal) -> tuple[Fraction, ...]:
        """Change of each bet's house edge when ``removal`` is taken out (+ favours the house)."""
        return tuple(
            after - before for after, before in zip(removal.edges, self.full_edges, strict=True)
        )

    def effect(self, label: str, bet: str) -> Fraction:
        """The effect of removing ``label`` (``"A"``, ``"10"``, ``"1-1"``…) on ``bet``."""
        for removal in self.removals:
            if removal.label == label:
                return self.effects(removal)[self.bets.index(bet)]
        raise KeyError(label)

    @property
    def weighted_sums(self) -> tuple[Fraction, ...]:
        """Σ share × effect per bet: the effect of removing a card nobody saw, exactly 0."""
        sums = [Fraction(0)] * len(self.bets)
        for removal in self.removals:
            for i, effect in enumerate(self.effects(removal)):
                sums[i] += removal.share * effect
        return tuple(sums)

    def to_dict(self) -> dict[str, Any]:
        def edge(value: Fraction) -> dict[str, Any]:
            return {"house_edge": float(value), "house_edge_exact": fraction_str(value)}

        def effect(value: Fraction) -> dict[str, Any]:
            return {"points": float(value * 100), "exact": fraction_str(value)}

        return {
            "game": self.game,
            "options": dict(self.options),
            "removed": self.removed,
            "sign": "change in the house edge; + favours the house",
            "bets": list(self.bets),
            "full_shoe": {b: edge(e) for b, e in zip(self.bets, self.full_edges, strict=True)},
            "effects": [
                {
                    "removed": r.label,
                    "share": fraction_str(r.share),
                    "bets": {
                        bet: {**effect(change), **edge(after)}
                        for bet, change, after in zip(
                            self.bets, self.effects(r), r.edges, strict=True
                        )
                    },
                }
                for r in self.removals
            ],
            "weighted_sum": {
                b: effect(s) for b, s in zip(self.bets, self.weighted_sums, strict=True)
            },
            "notes": list(self.notes),
        }


def edges(bets: tuple[BetAnalysis, ...]) -> tuple[Fraction, ...]:
    return tuple(b.house_edge for b in bets)


def by_rank(
    game: str,
    options: Mapping[str, Any],
    full: ShoeComposition,
    deal: Callable[[ShoeComposition | None], tuple[BetAnalysis, ...]],
    notes: tuple[str, ...],
) -> EffectOfRemoval:
    """Remove one card of each rank from ``full`` in turn; ``deal(None)`` is the full shoe."""
    base = deal(None)
    removals = []
    for rank in Rank:
        card = Card(rank, REMOVED_SUIT)
        after = deal(full.without(card))
        share = Fraction(full.per_rank[rank - 1], full.total)
        removals.append(Removal(rank.symbol, share, edges(after)))
    return EffectOfRemoval(
        game=game,
        options=options,
        removed="rank",
        bets=tuple(b.bet for b in base),
        full_edges=edges(base),
        removals=tuple(removals),
        notes=notes,
    )


def effect_of_removal(game: str, **options: Any) -> EffectOfRemoval:
    """The exact effect of removing one card of each rank (each tile for Lo-Ball) on every bet.

    ``options`` are the game's rule options, as for :func:`~baccara.exact.analyze`.

    >>> eor = effect_of_removal("punto-banco")
    >>> eor.effect("K", "tie") == eor.effect("10", "tie"), eor.effect("5", "player-pair")
    (True, Fraction(0, 1))
    """
    from baccara.games import game as game_spec

    spec = game_spec(game)
    return removal_of(spec, spec.rules_from_options(**options))


def removal_of(spec: GameSpec, rules: object) -> EffectOfRemoval:
    """The registry's ``removal`` role of ``spec``'s game under ``rules``, checked: the
    accessor lives here, beside the result it promises (see :mod:`baccara.exact.roles`)."""
    return spec.call(Role.REMOVAL, EffectOfRemoval, spec.id, rules)
