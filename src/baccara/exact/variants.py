"""Rule variants side by side: what each house choice does to every bet's edge, exactly.

A game designer tries a commission of 4 % instead of 5 %, a Tie at 9:1, another
house way or another paytable, and wants the whole design space at once. A
:class:`~baccara.games.variant.Variant` is a name and the rule options it changes (each
game's registry entry lists the ones tried first, ``GAMES[id].variants``);
:func:`compare_variants` runs :func:`baccara.analyze` on the base rules and on each variant (its options laid
over the base) and keeps every analysis, so each figure is the one a user gets from
``baccara analyze GAME --option …``.

The same module sweeps the number of decks (:func:`edges_by_decks`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from baccara.errors import BaccaraError, InvalidOption, shown
from baccara.exact import analyze
from baccara.exact.model import Analysis, fraction_str
from baccara.games import game
from baccara.games.variant import Variant, option_key, option_value_text

DECKS = tuple(range(1, 9))
"""The shoes a deck sweep deals from: one to eight decks."""


@dataclass(frozen=True)
class VariantResult:
    """One variant and the exact analysis of the rules it makes."""

    variant: Variant
    analysis: Analysis


@dataclass(frozen=True)
class Comparison:
    """The base rules and every variant, analysed exactly; edges read per bet."""

    game: str
    base: Analysis
    variants: tuple[VariantResult, ...]

    @property
    def bets(self) -> tuple[str, ...]:
        return tuple(self.base.bet_ids)

    def edge(self, result: VariantResult, bet: str) -> Fraction:
        return result.analysis.bet(bet).house_edge

    def change(self, result: VariantResult, bet: str) -> Fraction:
        """How far the variant moves ``bet``'s house edge from the base (+ is worse for the bettor)."""
        return self.edge(result, bet) - self.base.bet(bet).house_edge

    def to_dict(self) -> dict[str, Any]:
        def edge(value: Fraction) -> dict[str, Any]:
            return {"house_edge": float(value), "house_edge_exact": fraction_str(value)}

        return {
            "game": self.game,
            "options": dict(self.base.options),
            "bets": {b.bet: edge(b.house_edge) for b in self.base.bets},
            "variants": [
                {
                    "name": r.variant.name,
                    "set": {option_key(k): option_value_text(v)
                            for k, v in r.variant.options.items()},
                    "options": dict(r.analysis.options),
                    "bets": {
                        bet: {
                            **edge(self.edge(r, bet)),
                            "change": float(self.change(r, bet)),
                            "change_exact": fraction_str(self.change(r, bet)),
                        }
                        for bet in self.bets
                    },
                }
                for r in self.variants
            ],
        }  # fmt: skip


def compare_variants(game_id: str, variants: Iterable[Variant], **base_options: Any) -> Comparison:
    """Analyse the base rules and every variant laid over them.

    A variant whose options the game refuses raises :class:`InvalidOption` naming
    the variant; two variants of one name are refused too.

    >>> tie9 = Variant("tie-9", {"tie-pays": "9"})
    >>> c = compare_variants("punto-banco", [tie9])
    >>> f"{float(c.change(c.variants[0], 'tie')):+.4%}"
    '-9.5156%'
    """
    spec = game(game_id)
    if isinstance(variants, str | bytes) or not isinstance(variants, Iterable):
        raise InvalidOption("variants", f"must be a list of Variant, got {shown(variants)}")
    variants = list(variants)
    for variant in variants:
        if not isinstance(variant, Variant):
            raise InvalidOption("variants", f"each must be a Variant, got {shown(variant)}")
    base = analyze(spec.id, **base_options)
    results: list[VariantResult] = []
    seen: set[str] = set()
    for variant in variants:
        if variant.name in seen:
            raise BaccaraError(f"two variants are named {variant.name!r}")
        seen.add(variant.name)
        try:
            analysis = analyze(spec.id, **variant.over(base_options))
        except InvalidOption as error:
            raise InvalidOption(f"variant {variant.name}: {error.option}", error.message) from None
        results.append(VariantResult(variant, analysis))
    return Comparison(spec.id, base, tuple(results))


@dataclass(frozen=True)
class DeckSweep:
    """Every bet's exact house edge dealt from 1, 2, … decks, the other rules unchanged."""

    game: str
    decks: tuple[int, ...]
    analyses: tuple[Analysis, ...]

    @property
    def bets(self) -> tuple[str, ...]:
        return tuple(self.analyses[0].bet_ids)

    def edges(self, bet: str) -> tuple[Fraction, ...]:
        return tuple(a.bet(bet).house_edge for a in self.analyses)


def deals_from_decks(game_id: str) -> bool:
    """Whether the game's rules have a number of decks (Lo-Ball deals one tile set)."""
    rules = game(game_id).rules
    return any(f.name == "decks" for f in dataclasses.fields(rules))  # type: ignore[arg-type]


MAX_SIZES = 100
"""The most shoes one sweep deals from."""


def edges_by_decks(game_id: str, sizes: Sequence[int] = DECKS, **options: Any) -> DeckSweep | None:
    """The exact analysis at each number of decks in ``sizes``, the other ``options`` kept
    (a ``decks`` among them is swept over); ``None`` for a game without decks.

    An unknown game raises :class:`~baccara.errors.UnknownGame`, a bad option or size
    :class:`~baccara.errors.InvalidOption`.

    >>> sweep = edges_by_decks("punto-banco", sizes=[1, 8])
    >>> [f"{float(e):.4%}" for e in sweep.edges("banker")]
    ['1.0117%', '1.0579%']
    """
    if not deals_from_decks(game_id):
        return None
    if (
        isinstance(sizes, str | bytes)
        or not isinstance(sizes, Sequence)
        or not 1 <= len(sizes) <= MAX_SIZES
    ):
        raise InvalidOption(
            "sizes", f"must be a list of 1 to {MAX_SIZES} numbers of decks, got {shown(sizes)}"
        )
    base = {k: v for k, v in options.items() if option_key(k) != "decks"}
    analyses = tuple(analyze(game_id, decks=n, **base) for n in sizes)
    return DeckSweep(game(game_id).id, tuple(a.options["decks"] for a in analyses), analyses)
