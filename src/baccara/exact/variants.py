"""Rule variants side by side: what each house choice does to every bet's edge, exactly.

A game designer tries a commission of 4 % instead of 5 %, a Tie at 9:1, another
house way or another paytable, and wants the whole design space at once. A
:class:`Variant` is a name and the rule options it changes; :func:`compare_variants`
runs :func:`baccara.analyze` on the base rules and on each variant (its options laid
over the base) and keeps every analysis, so each figure is the one a user gets from
``baccara analyze GAME --option …``.

The same module sweeps the number of decks (:func:`edges_by_decks`) and measures how
far a published figure lies from the exact one in standard errors of a simulation
(:func:`published_gaps`) — the yardstick for "would a simulation have noticed?".
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from baccara.errors import BaccaraError, InvalidOption, shown
from baccara.exact import analyze
from baccara.exact.model import Analysis, BetAnalysis, fraction_str
from baccara.games import game
from baccara.games.bonus import Category
from baccara.games.loball import LoBallRules
from baccara.games.paytable import DEFAULT_PAYTABLE, Paytable
from baccara.games.punto_banco import PuntoBancoRules
from baccara.games.redgreen import RedGreenRules
from baccara.options import fraction_text, option_name

DECKS = tuple(range(1, 9))
"""The shoes a deck sweep deals from: one to eight decks."""

SIMULATION_ROUNDS = tuple(10**k for k in range(5, 10))
"""Simulation sizes a published figure is measured against: 10⁵ … 10⁹ rounds."""

FLAG_SIGMAS = 4
"""A simulation flags an exact value this many standard errors from what it dealt
(the same threshold as ``baccara simulate``)."""


def _key(name: str) -> str:
    """Option names as users type them, either spelling: ``tie_pays`` → ``tie-pays``."""
    return option_name(str(name).strip())


def option_value_text(value: Any) -> str:
    """An option's value as a user would type it: ``yes``, ``K``, ``4``, a paytable's name."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Paytable):
        return value.name
    if isinstance(value, Fraction):
        return fraction_text(value)
    return str(getattr(value, "symbol", value))


@dataclass(frozen=True)
class Variant:
    """A named change of the rules: the options it sets, laid over the base rules."""

    name: str
    options: Mapping[str, Any]
    description: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise BaccaraError(f"a variant needs a name (text), got {shown(self.name)}")
        if not isinstance(self.options, Mapping):
            raise InvalidOption(
                f"variant {self.name}", f"its options are a mapping, got {shown(self.options)}"
            )

    def options_text(self) -> str:
        """``commission=4, tie-pays=9`` — the options as ``--option`` would take them."""
        return ", ".join(f"{_key(k)}={option_value_text(v)}" for k, v in self.options.items())

    def over(self, base: Mapping[str, Any]) -> dict[str, Any]:
        """The base options with this variant's laid over them (either spelling of a name)."""
        merged = {_key(k): v for k, v in base.items()}
        merged.update({_key(k): v for k, v in self.options.items()})
        return merged


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
                    "set": {_key(k): option_value_text(v)
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


def _paytable(name: str, **pays: int) -> Paytable:
    """The shipped paytable with some pays changed: a designer's "what if"."""
    changed = dict(DEFAULT_PAYTABLE.pays)
    changed.update({Category(c): Fraction(p) for c, p in pays.items()})
    return dataclasses.replace(
        DEFAULT_PAYTABLE, name=name, pays=changed, description=f"default with {name}"
    )


HOUSE_WAYS_TRIED: tuple[Variant, ...] = (
    Variant("never-split-aces", {"split_aces": False}),
    Variant("never-split-kings", {"split_kings": False}),
    Variant("never-split-either", {"split_aces": False, "split_kings": False}),
    Variant("kings-unless-q", {"split_kings_unless": "Q"}),
    Variant("kings-unless-8", {"split_kings_unless": "8"}),
    Variant("kings-unless-a", {"split_kings_unless": "A"}),
    Variant("aces-kings-unless-q", {"split_aces_unless": "Q", "split_kings_unless": "Q"}),
    Variant("6-decks", {"decks": 6}),
    Variant("8-decks", {"decks": 8}),
    Variant("1-deck", {"decks": 1}),
)
"""The RedGreen house ways and shoes tried while looking for the seed's published
figures (docs/redgreen.md lists them with what each gives)."""

_USUAL: Mapping[type, tuple[Variant, ...]] = {
    PuntoBancoRules: (
        Variant("commission-4", {"commission": 4}, "Banker pays 0.96 to 1"),
        Variant("tie-9", {"tie_pays": 9}, "Tie pays 9 to 1"),
        Variant("commission-4-tie-9", {"commission": 4, "tie_pays": 9}, "both"),
        Variant("pairs-12", {"pair_pays": 12}, "pairs pay 12 to 1"),
        Variant("6-decks", {"decks": 6}, "a six-deck shoe"),
    ),
    RedGreenRules: (
        Variant("commission-4", {"commission": 4}, "winning Red or Green pays 0.96 to 1"),
        *HOUSE_WAYS_TRIED[:4],
        Variant(
            "bonus-3k-3", {"paytable": _paytable("3K pays 3", three_of_a_kind=3)},
            "Bonus: three of a kind pays 3 to 1",
        ),
        Variant(
            "bonus-fh-10", {"paytable": _paytable("FH pays 10", full_house=10)},
            "Bonus: full house pays 10 to 1",
        ),
    ),
    LoBallRules: (
        Variant("win-bonus-2", {"win_bonus_pays": 2}, "Win-bonus pays 2 to 1"),
        Variant("no-win-bonus", {"win_bonus_pays": 1}, "a zero-point win pays 1 to 1"),
        Variant("play-bonus-3", {"play_bonus_pays": 3}, "Play-bonus pays 3 to 1"),
        Variant("no-play-bonus", {"play_bonus_pays": 0}, "a 27-point hand simply loses"),
        Variant("lo-hi-6", {"lo_hi_pays": 6}, "Lo-Card and Hi-Card pay 6 to 1"),
        Variant("lo-hi-8", {"lo_hi_pays": 8}, "Lo-Card and Hi-Card pay 8 to 1"),
    ),
}  # fmt: skip


def usual_variants(game_id: str) -> tuple[Variant, ...]:
    """The variants a designer of ``game_id`` looks at first (none for an unlisted game)."""
    return _USUAL.get(game(game_id).rules, ())


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
    base = {k: v for k, v in options.items() if _key(k) != "decks"}
    analyses = tuple(analyze(game_id, decks=n, **base) for n in sizes)
    return DeckSweep(game(game_id).id, tuple(a.options["decks"] for a in analyses), analyses)


@dataclass(frozen=True)
class PublishedGap:
    """A published probability against the exact one, in standard errors of simulations.

    A simulation of n rounds estimates the probability p with standard error
    √(p(1 − p)/n), computed here from the exact p (nothing is dealt). The gap in
    standard errors grows as √n: :attr:`rounds_to_flag` is the least n at which a
    simulation would put the published figure :data:`FLAG_SIGMAS` standard errors off.
    """

    bet: str
    outcome: str
    exact: Fraction
    published: Fraction

    @property
    def difference(self) -> Fraction:
        """Published minus exact."""
        return self.published - self.exact

    def standard_error(self, rounds: int) -> float:
        p = float(self.exact)
        return math.sqrt(p * (1 - p) / rounds)

    def sigmas(self, rounds: int) -> float:
        """The published figure's distance from the exact one in standard errors of ``rounds``."""
        return float(self.difference) / self.standard_error(rounds)

    @property
    def rounds_to_flag(self) -> int:
        p = float(self.exact)
        diff = float(self.difference)
        if diff == 0:
            raise BaccaraError("the published figure is exact: no simulation tells them apart")
        return math.ceil(FLAG_SIGMAS**2 * p * (1 - p) / diff**2)


def published_gaps(bet: BetAnalysis) -> tuple[PublishedGap, ...]:
    """Every outcome probability the seed publishes for ``bet``, against the exact one."""
    if bet.published is None:
        return ()
    return tuple(
        PublishedGap(bet.bet, name, bet.outcome(name).probability, published)
        for name, published in bet.published.outcomes
    )
