"""What counting a Punto Banco side bet is worth: tags, trigger and gain per shoe.

A side bet on a rare total — Dragon 7, Panda 8 — swings far more with the cards left
than the main bets do: take the eights and nines out and the Banker draws more often,
and a three-card 7 comes more often with it. A counter who sees the cards dealt from
a continuous shoe (or an operator watching one) can tell when the bet turns in the
player's favour. This module says how much that is worth, exactly where it can be:

* :class:`DepletedBet` — the exact edge of a bet that reads only card values, dealt
  from any composition of the ten values, fast enough to be asked at every coup of
  thousands of shoes (a test proves it equal to :func:`~baccara.exact.coup_bets.spot_analysis`);
* :func:`best_tags` — the balanced count with tags in −``level``…``level`` whose
  correlation with the bet's exact effects of removal is the highest, found by trying
  every one; and the linear estimate of the true count at which the bet turns positive;
* :func:`play_shoes` — shoes dealt to a cut card, the count kept card by card and the
  bet made at the trigger: the gain per shoe computed from the *exact* edge of every
  depleted shoe the counter bets into (an estimate with little noise), beside what the
  bets actually won (the simulation that confirms it), and what a player who knew the
  exact edge at every coup would win (the ceiling no count passes).

Published anchors (see ``docs/punto-banco-side-bets.md``): Eliot Jacobson's Dragon 7
tags {0,0,0,−1,−1,−1,−1,2,2,0} (A to 9, then tens) and his ceilings for a cut card 14
cards from the end, 0.597 units a shoe for Dragon 7 and 0.237 for Panda 8.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from baccara.errors import InvalidOption
from baccara.exact.coup_facts import Level, _facts_of, value_facts_table
from baccara.exact.punto_banco import cards_of_value, opening_groups
from baccara.games.punto_banco import BANKER_DRAWS_UP_TO, PuntoBancoRules, spot_net

VALUES = 10
CARDS_PER_DECK = 52


class DepletedBet:
    """The exact expectation of one bet on a shoe known by how many cards of each value it holds.

    Everything that does not depend on the shoe — the openings grouped by the values
    they hold and their scores, what the rules make of every fifth and sixth card, what
    the bet pays on each set of facts — is computed once; a shoe then costs a few array
    products. Only bets that read no pair can be asked (their terms read values alone).
    """

    def __init__(self, rules: PuntoBancoRules, bet: str) -> None:
        from baccara.exact.coup_bets import level_of

        if level_of(bet, rules) is not Level.VALUES:
            raise InvalidOption("bet", f"{bet} reads pairs: a count by values cannot follow it")
        self.bet = bet
        held, player, banker, openings = opening_groups()
        self._held = held
        self._openings = openings
        codes = value_facts_table()[player, banker].astype(np.int64)  # (g, 10, 10)
        pays = [spot_net(bet, _facts_of(code, 0), rules) for code in range(int(codes.max()) + 1)]
        by_pay = np.array(pays, dtype=object)[codes]
        self._pays = tuple(
            (pay, by_pay == pay) for pay in sorted(set(pays)) if pay != 0 and (by_pay == pay).any()
        )
        """Each pay the bet can make, and where in (group, fifth, sixth) it is made."""

    def expectation(self, per_value: Sequence[int] | npt.NDArray[np.int64]) -> Fraction:
        """The player's exact expectation per unit staked, dealt from ``per_value`` cards
        of each value (the house edge with its sign turned)."""
        n = np.asarray(per_value, dtype=np.int64)
        total = int(n.sum())
        if total < 6:
            raise InvalidOption("shoe", f"six cards are needed for a coup; {total} are left")
        if total > 1_400:  # beyond about 27 decks perm(total, 6) would pass 2⁶³
            raise InvalidOption("shoe", "at most 1,400 cards: the fast count works in 64 bits")
        held = self._held
        ways = self._openings.copy()
        for times in range(1, 5):  # n·(n−1)·… for each value the opening holds `times` times
            ways *= np.prod(np.where(held >= times, n[None, :] - (times - 1), 1), axis=1)
        ways = np.where((held <= n[None, :]).all(axis=1), ways, 0)
        left = n[None, :] - held
        later = left[:, :, None] * (left[:, None, :] - np.eye(VALUES, dtype=np.int64))
        sequences = ways[:, None, None] * later  # each at most perm(total, 6): inside int64
        # The sequences that make each pay sum to at most perm(total, 6) too; the pays,
        # which a file may set as high as 10,000 to 1, multiply them as exact numbers.
        won = sum(pay * int(sequences[where].sum()) for pay, where in self._pays)
        return Fraction(won) / math.perm(total, 6)


def effects_by_value(depleted: DepletedBet, per_value: Sequence[int]) -> tuple[Fraction, ...]:
    """The exact change in the player's expectation when one card of each value is taken
    out of ``per_value`` (the effect of removal with the player's sign, as counters print it)."""
    full = depleted.expectation(per_value)
    changes = []
    for v in range(VALUES):
        fewer = list(per_value)
        fewer[v] -= 1
        changes.append(depleted.expectation(fewer) - full)
    return tuple(changes)


def correlation(
    effects: Sequence[Fraction], tags: Sequence[int], per_value: Sequence[int]
) -> float:
    """The betting correlation of ``tags`` with the effects: how much of the effects'
    variation over a shoe's cards the count sees, 1 for tags proportional to them."""
    n = np.asarray(per_value, dtype=float)
    e = np.asarray([float(x) for x in effects])
    t = np.asarray(tags, dtype=float)
    e = e - (n @ e) / n.sum()
    norm = math.sqrt(float(n @ (e * e)) * float(n @ (t * t)))
    return float(n @ (e * t)) / norm if norm else 0.0


def best_tags(effects: Sequence[Fraction], per_value: Sequence[int], level: int = 2
              ) -> tuple[int, ...]:  # fmt: skip
    """The balanced tags in −``level``…``level`` (one per value, tens and faces alike) with
    the highest correlation with ``effects``: every one is tried (5¹⁰ at level 2).

    Balanced means a full shoe counts to 0 (Σ cards × tag = 0), so a running count
    divided by the decks left is a true count that means the same at any depth.
    """
    if not 1 <= level <= 3:
        raise InvalidOption("level", f"tags run from −1…1 to −3…3, got level {level}")
    n = np.asarray(per_value, dtype=np.int64)
    e = np.asarray([float(x) for x in effects])
    e = e - float(n @ e) / float(n.sum())
    choices = np.arange(-level, level + 1, dtype=np.int64)
    best: tuple[float, tuple[int, ...]] = (-2.0, (0,) * VALUES)
    head = np.array(list(itertools.product(choices, repeat=5)), dtype=np.int64)  # values 0–4
    for tail in itertools.product(choices.tolist(), repeat=5):  # values 5–9
        tags = np.concatenate([head, np.broadcast_to(np.array(tail), head.shape)], axis=1)
        balanced = tags @ n == 0
        if not balanced.any():
            continue
        tags = tags[balanced & (tags != 0).any(axis=1)]
        if not len(tags):
            continue
        score = (tags @ (n * e)) / np.sqrt((tags * tags) @ n)
        i = int(np.argmax(score))
        if score[i] > best[0]:
            best = (float(score[i]), tuple(int(x) for x in tags[i]))
    return best[1]


def check_tags(tags: Sequence[int], per_value: Sequence[int]) -> None:
    """Refuse tags a true count cannot be kept with: not ten whole numbers, all zero
    (the count never moves), or unbalanced (a full shoe would not count to 0, so the
    running count over the decks left would drift with depth, not with the cards)."""
    if len(tags) != VALUES or any(isinstance(t, bool) or not isinstance(t, int) for t in tags):
        raise InvalidOption("tags", f"ten whole numbers, for tens then Ace … 9, got {list(tags)}")
    if not any(tags):
        raise InvalidOption("tags", "a count whose tags are all 0 never moves")
    drift = sum(n * t for n, t in zip(per_value, tags, strict=True))
    if drift:
        raise InvalidOption(
            "tags",
            f"unbalanced: a full shoe counts to {drift:+d}, not 0 (tens and faces are"
            f" {per_value[0] // per_value[1]} times as many as each other value)",
        )


def linear_trigger(
    base: Fraction, effects: Sequence[Fraction], tags: Sequence[int], per_value: Sequence[int]
) -> float:
    """The true count at which the linear estimate of the player's expectation turns positive.

    Seeing cards whose tags sum to RC moves the expectation by about RC·s per card of the
    full shoe, s = Σ n·e·t / Σ n·t²; with D decks left each card seen weighs N/(52·D)
    times what it did in the full shoe of N cards, so at true count TC = RC/D the
    expectation is about base + TC·s·N/52.
    """
    n = np.asarray(per_value, dtype=float)
    e = np.asarray([float(x) for x in effects])
    t = np.asarray(tags, dtype=float)
    slope = float(n @ (e * t)) / float(n @ (t * t)) * float(n.sum()) / CARDS_PER_DECK
    return math.inf if slope <= 0 else -float(base) / slope


@dataclass(frozen=True)
class CountPlay:
    """What a count earned over simulated shoes, per shoe dealt (in units staked per bet)."""

    shoes: int
    cut_card: int
    trigger: float
    spread: tuple[tuple[float, int], ...]
    """(true count, units bet from it on), rising; below the first, no bet."""
    bets_per_shoe: float
    units_per_shoe: float
    expected_gain: float
    """Per shoe: Σ over the bets made of the exact expectation of the shoe bet into."""
    expected_se: float
    won: float
    """Per shoe: what the bets made actually won, the simulation's own figure."""
    won_se: float
    ceiling: float | None
    """Per shoe: Σ over every coup of the exact expectation where it is positive — what
    a player who knew every card left would win; ``None`` if not computed."""
    edge_by_count: tuple[tuple[int, int, float], ...]
    """(true count rounded down, coups seen there, mean exact expectation there)."""


def deal_values(rng: np.random.Generator, shoe: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """A shuffled shoe of card values."""
    return rng.permutation(shoe)


def _coup_cards(values: Sequence[int], at: int) -> int:
    """How many cards the coup starting at ``at`` deals (four to six), by the tableau."""
    p = (values[at] + values[at + 2]) % 10
    b = (values[at + 1] + values[at + 3]) % 10
    if p >= 8 or b >= 8:
        return 4
    if p <= 5:
        third = values[at + 4]
        return 6 if b <= BANKER_DRAWS_UP_TO[third] else 5
    return 5 if b <= 5 else 4


def play_shoes(
    rules: PuntoBancoRules,
    bet: str,
    tags: Sequence[int],
    trigger: float,
    shoes: int,
    cut_card: int = 14,
    seed: int = 1,
    ceiling: bool = False,
    progress: Callable[[int], None] | None = None,
    spread: Sequence[tuple[float, int]] = (),
) -> CountPlay:
    """Deal ``shoes`` shoes of ``rules.decks`` decks to a cut card ``cut_card`` cards from
    the end; before each coup the counter bets one unit when the true count (running
    count of the cards seen over the decks left) is at least ``trigger`` — or, with a
    ``spread`` of (true count, units) steps, the units of the highest step reached
    (none below the first; ``trigger`` is then the first step's count).

    Each bet made is valued twice: by the exact expectation of the shoe it is made into
    (:class:`DepletedBet`), and by what the coup dealt actually paid. With ``ceiling``
    every coup's exact expectation is computed too (slower: every coup, not only bets).
    """
    check_play(rules, shoes, cut_card)
    steps = check_spread(spread) if spread else ((trigger, 1),)
    trigger = steps[0][0]
    depleted = DepletedBet(rules, bet)
    per_value = np.array(cards_of_value(rules.decks), dtype=np.int64)
    tag = [int(t) for t in tags]  # plain lists: indexing one card at a time, as dealt
    full = np.repeat(np.arange(VALUES, dtype=np.int64), per_value)
    rng = np.random.default_rng(seed)
    expected: list[float] = []
    won: list[float] = []
    bets = units_bet = 0
    top = 0.0
    by_count: dict[int, list[float]] = {}
    for shoe in range(shoes):
        values = deal_values(rng, full).tolist()
        left = per_value.tolist()
        running = 0
        at = 0
        gain = paid = 0.0
        while len(values) - at > cut_card:
            decks_left = (len(values) - at) / CARDS_PER_DECK
            true = running / decks_left
            edge = None
            if ceiling or true >= trigger:
                edge = float(depleted.expectation(left))
                by_count.setdefault(math.floor(true), []).append(edge)
                top += max(edge, 0.0)
            dealt = _coup_cards(values, at)
            if true >= trigger and edge is not None:
                units = next(u for count, u in reversed(steps) if true >= count)
                bets += 1
                units_bet += units
                gain += units * edge
                paid += units * float(_paid(rules, bet, values[at : at + 6]))
            for v in values[at : at + dealt]:
                left[v] -= 1
                running += tag[v]
            at += dealt
        expected.append(gain)
        won.append(paid)
        if progress is not None:
            progress(shoe + 1)
    return CountPlay(
        shoes=shoes,
        cut_card=cut_card,
        trigger=trigger,
        spread=steps,
        bets_per_shoe=bets / shoes,
        units_per_shoe=units_bet / shoes,
        expected_gain=float(np.mean(expected)),
        expected_se=float(np.std(expected) / math.sqrt(shoes)),
        won=float(np.mean(won)),
        won_se=float(np.std(won) / math.sqrt(shoes)),
        ceiling=top / shoes if ceiling else None,
        edge_by_count=tuple(
            (count, len(seen), float(np.mean(seen))) for count, seen in sorted(by_count.items())
        ),
    )


def check_play(rules: PuntoBancoRules, shoes: int, cut_card: int) -> None:
    """Refuse a play of no shoes, or a cut card outside the shoe's six cards from either end."""
    if shoes < 1:
        raise InvalidOption("shoes", f"at least one shoe, got {shoes}")
    if not 6 <= cut_card <= 52 * rules.decks - 6:
        raise InvalidOption("cut-card", f"the cut card lies 6 to {52 * rules.decks - 6} cards"
                            f" from the end, got {cut_card}")  # fmt: skip


def check_spread(spread: Sequence[tuple[float, int]]) -> tuple[tuple[float, int], ...]:
    """A bet spread as steps of (true count, units), the counts finite and rising, the
    units whole and from 1 to 1,000; refused in words otherwise."""
    steps = tuple((float(count), units) for count, units in spread)
    for count, units in steps:
        if not math.isfinite(count):
            raise InvalidOption("spread", f"a true count is a finite number, got {count}")
        if isinstance(units, bool) or not isinstance(units, int) or not 1 <= units <= 1_000:
            raise InvalidOption("spread", f"units are whole numbers 1 to 1,000, got {units!r}")
    if any(b[0] <= a[0] for a, b in itertools.pairwise(steps)):
        raise InvalidOption("spread", "the true counts of a spread rise from step to step")
    return steps


def _paid(rules: PuntoBancoRules, bet: str, six: Sequence[int]) -> Fraction:
    """What one unit on ``bet`` won on the coup those (up to six) values deal."""
    from baccara.cards import Card, Rank, Suit
    from baccara.games.punto_banco import deal_coup

    cards = [Card(Rank(v) if v else Rank.KING, Suit.SPADES) for v in six]
    return spot_net(bet, deal_coup(cards).facts, rules)


PUBLISHED_TAGS: dict[str, tuple[str, tuple[int, ...]]] = {
    "dragon-7": ("Eliot Jacobson's Dragon count", (0, 0, 0, 0, -1, -1, -1, -1, 2, 2)),
    "panda-8": ("Eliot Jacobson's Panda count", (1, 1, 1, -2, -2, -2, -1, -1, -2, 4)),
}
"""Published counts, as tags for tens (and faces), then Ace, 2 … 9 (his order is A … 9, T).
Source: Eliot Jacobson, "Co-Card Counting the Dragon and Panda Side Bets in EZ Baccarat"."""


@dataclass(frozen=True)
class CountStudy:
    """Everything :func:`study` found for one bet (expectations are the player's)."""

    bet: str
    decks: int
    expectation: Fraction
    effects: tuple[Fraction, ...]
    level: int
    tags: tuple[int, ...]
    correlation: float
    linear_trigger: float
    published: tuple[str, tuple[int, ...], float, float] | None
    """(whose, tags, correlation, linear trigger) of a published count for the bet."""
    play: CountPlay

    def to_dict(self) -> dict[str, object]:
        def fraction(value: Fraction) -> dict[str, object]:
            return {"value": float(value), "exact": f"{value.numerator}/{value.denominator}"}

        play = self.play
        return {
            "bet": self.bet,
            "decks": self.decks,
            "expectation": fraction(self.expectation),
            "effects_of_removal": {
                label: fraction(e) for label, e in zip(VALUE_LABELS, self.effects, strict=True)
            },
            "sign": "change in the player's expectation when one card of the value is removed",
            "count": {"level": self.level, "tags": dict(zip(VALUE_LABELS, self.tags, strict=True)),
                      "correlation": self.correlation,
                      "linear_trigger": _finite(self.linear_trigger)},
            "published": None if self.published is None else {
                "whose": self.published[0],
                "tags": dict(zip(VALUE_LABELS, self.published[1], strict=True)),
                "correlation": self.published[2],
                "linear_trigger": _finite(self.published[3]),
            },
            "play": {
                "shoes": play.shoes, "cut_card": play.cut_card, "trigger": play.trigger,
                "spread": [{"true_count": c, "units": u} for c, u in play.spread],
                "bets_per_shoe": play.bets_per_shoe, "units_per_shoe": play.units_per_shoe,
                "expected_gain_per_shoe": play.expected_gain,
                "expected_gain_se": play.expected_se,
                "won_per_shoe": play.won, "won_se": play.won_se,
                "ceiling_per_shoe": play.ceiling,
                "edge_by_true_count": [
                    {"true_count": c, "coups": n, "expectation": e}
                    for c, n, e in play.edge_by_count
                ],
            },
        }  # fmt: skip


def _finite(value: float) -> float | None:
    """A figure for JSON: ``None`` where it is infinite (a count that never turns the bet)."""
    return value if math.isfinite(value) else None


VALUE_LABELS = ("10", "A", "2", "3", "4", "5", "6", "7", "8", "9")
"""The values as a counter names them; 10 stands for tens and faces alike."""


def study(
    rules: PuntoBancoRules,
    bet: str,
    *,
    level: int = 2,
    tags: Sequence[int] | None = None,
    trigger: float | None = None,
    shoes: int = 10_000,
    cut_card: int = 14,
    seed: int = 1,
    ceiling: bool = False,
    progress: Callable[[int], None] | None = None,
    spread: Sequence[tuple[float, int]] = (),
) -> CountStudy:
    """The bet's exact effects of removal, the best balanced count at ``level`` (or the
    ``tags`` given), its linear trigger, and ``shoes`` shoes played at ``trigger`` (by
    default the linear trigger rounded up to a whole true count)."""
    if not 1 <= level <= 3:
        raise InvalidOption("level", f"tags run from −1…1 to −3…3, got level {level}")
    if trigger is not None and not math.isfinite(trigger):
        raise InvalidOption("trigger", f"a true count is a finite number, got {trigger}")
    if seed < 0:
        raise InvalidOption("seed", f"a seed is a whole number of 0 or more, got {seed}")
    check_play(rules, shoes, cut_card)  # before the search for tags, which takes a while
    if spread:
        check_spread(spread)
    depleted = DepletedBet(rules, bet)
    per_value = cards_of_value(rules.decks)
    if tags is not None:
        check_tags(tags, per_value)
    base = depleted.expectation(per_value)
    effects = effects_by_value(depleted, per_value)
    chosen = tuple(tags) if tags is not None else best_tags(effects, per_value, level)
    estimate = linear_trigger(base, effects, chosen, per_value)
    if spread:
        if trigger is not None:
            raise InvalidOption("trigger", "a spread's first step is its trigger: give one")
        trigger = check_spread(spread)[0][0]
    if trigger is None:
        if not math.isfinite(estimate):
            raise InvalidOption("--tags", "this count never moves the bet toward the player")
        trigger = float(math.ceil(estimate))
    published = None
    if bet in PUBLISHED_TAGS:
        whose, theirs = PUBLISHED_TAGS[bet]
        published = (whose, theirs, correlation(effects, theirs, per_value),
                     linear_trigger(base, effects, theirs, per_value))  # fmt: skip
    play = play_shoes(rules, bet, chosen, trigger, shoes, cut_card, seed, ceiling, progress,
                      spread)  # fmt: skip
    return CountStudy(
        bet=bet, decks=rules.decks, expectation=base, effects=effects, level=level,
        tags=chosen, correlation=correlation(effects, chosen, per_value),
        linear_trigger=estimate, published=published, play=play,
    )  # fmt: skip
