"""The RNG test battery: shuffle as the tables do, count, and test against exact odds.

Each round ``k`` (0, 1, 2, …) of a run deals what two electronic tables deal:

* a shoe of ``decks`` decks shuffled by :func:`baccara.randomness.shuffle` (the
  Fisher–Yates every :class:`~baccara.cards.Shoe` uses) from its own
  :class:`~baccara.fair.FairRandom` stream, and
* a Lo-Ball round from another stream: :func:`~baccara.tiles.shuffled_tiles`, then
  :func:`~baccara.tiles.roll_dice`, in the order the table reads them.

Each stream has a new 32-byte server seed, the client seed :data:`CLIENT_SEED` and the
nonce ``k + 1``, as a table's round has. By default the seeds come from :mod:`secrets`,
as the casino server draws them; a run with ``seed=S`` takes
SHA-256(``"rng-test:S:cards:k"``) and SHA-256(``"rng-test:S:lo-ball:k"``) instead, so
it can be repeated exactly. The shoe's items are the numbers 0 … n−1 in new-deck order
(item i is face i mod 52 of :func:`~baccara.cards.standard_deck`): the same draws
shuffle them as shuffle the cards, and they tell the copies of a card apart.

Rounds are dealt in blocks of :data:`BLOCK`, each reduced at once to counts
(:class:`Tally`), so memory stays flat; blocks can go to worker processes or to an
executor the caller passes, and the counts are integers summed in round order, so
the result does not depend on how many workers dealt it. :func:`battery` turns the
counts into the twelve tests and :func:`run_battery` adds Holm's family-wise verdict.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable, Generator
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from baccara.fair import FairRandom
from baccara.randomness import RandomSource, shuffle
from baccara.sim.executors import on_own_pool, results
from baccara.sim.rng_bounds import (
    MIN_SHUFFLES,
    check_decks,
    check_seed,
    check_shuffles,
    check_workers,
)
from baccara.sim.rng_stats import (
    ChiSquare,
    IntArray,
    binomial_half_p,
    chi_square_fit,
    chi_square_sum,
    dice_total_probabilities,
    holm,
    normal_p,
    permutation_table,
    runs_moments,
    serial_moments,
    z_score,
)
from baccara.tiles import TILE_SET, roll_dice, shuffled_tiles

CLIENT_SEED = "rng-test"
"""The client seed of every round a run deals (the tables take the highest bettor's)."""
ALPHA = 0.01
"""The family-wise level: the battery fails when any Holm-adjusted p-value is below it."""
BLOCK = 1_000
"""Rounds a block: the unit of work of a worker and of the progress bar."""
TILES = len(TILE_SET)
DICE = 3

Source = Callable[[str, int], RandomSource]
"""``source(stream, k)``: the random source of round ``k`` of ``"cards"`` or ``"lo-ball"``."""


@dataclass(frozen=True)
class FairSources:
    """The tables' provably-fair stream, with a new server seed every round.

    ``seed=None`` draws each server seed from :mod:`secrets`, as the server does;
    a number derives them by SHA-256, so the run repeats exactly.
    """

    seed: int | None = None

    def server_seed(self, stream: str, k: int) -> bytes:
        if self.seed is None:
            return secrets.token_bytes(32)
        return hashlib.sha256(f"rng-test:{self.seed}:{stream}:{k}".encode()).digest()

    def __call__(self, stream: str, k: int) -> RandomSource:
        return FairRandom(self.server_seed(stream, k), CLIENT_SEED, k + 1)


class _Recorder:
    """A random source that keeps every draw it hands out (the shuffle's j values)."""

    __slots__ = ("draws", "source")

    def __init__(self, source: RandomSource) -> None:
        self.source = source
        self.draws: list[int] = []

    def randbelow(self, n: int) -> int:
        x = self.source.randbelow(n)
        self.draws.append(x)
        return x


@dataclass(frozen=True)
class Dealt:
    """A block of rounds as dealt: each row one round.

    ``shoes[k, p]`` is the item at position p (item i is face i mod 52 in new-deck
    order); ``draws[k, t]`` the t-th draw of its Fisher–Yates shuffle, below n − t;
    ``tiles[k, p]`` the index in :data:`~baccara.tiles.TILE_SET` of the tile at
    position p; ``dice[k]`` the three dice.
    """

    shoes: IntArray
    draws: IntArray
    tiles: IntArray
    dice: IntArray


def deal(source: Source, decks: int, start: int, count: int) -> Dealt:
    """Deal rounds ``start`` … ``start + count − 1`` through the tables' own shuffle code."""
    n = 52 * decks
    shoes = np.empty((count, n), np.int64)
    draws = np.empty((count, n - 1), np.int64)
    tiles = np.empty((count, TILES), np.int64)
    dice = np.empty((count, DICE), np.int64)
    tile_index = {tile: i for i, tile in enumerate(TILE_SET)}
    for row in range(count):
        k = start + row
        recorder = _Recorder(source("cards", k))
        shoe = list(range(n))
        shuffle(shoe, recorder)
        shoes[row] = shoe
        draws[row] = recorder.draws
        lo_ball = source("lo-ball", k)
        tiles[row] = [tile_index[t] for t in shuffled_tiles(lo_ball)]
        dice[row] = roll_dice(lo_ball, DICE)
    return Dealt(shoes, draws, tiles, dice)


def _is_red(face: IntArray | int) -> Any:
    """Hearts and diamonds: suits 1 and 2 of new-deck order (spades, hearts, diamonds, clubs)."""
    suit = face // 13
    return (suit == 1) | (suit == 2)


def _value(face: IntArray | int) -> Any:
    """The baccarat value of a face: Ace 1, two to nine their pips, ten and faces 0."""
    rank = face % 13 + 1
    return np.where(rank < 10, rank, 0)


def _first_card_term(face: IntArray | int) -> Any:
    """13·value − 45: a first card's value less its mean 45/13, times 13 to stay whole."""
    return 13 * _value(face) - 45


@dataclass(frozen=True)
class Tally:
    """What the tests need from a run of rounds, as exact integer sums.

    Consecutive tallies combine with :meth:`then`; the ends of a run (its first and
    last round's first card and die) let the round-to-round tests span the join.
    """

    rounds: int
    decks: int
    card_position: IntArray
    """``[p, i]``: how often item i was at position p."""
    tile_position: IntArray
    """``[p, t]``: how often tile t was at position p."""
    dice_faces: IntArray
    """``[d, f]``: how often die d (0, 1, 2) showed f + 1."""
    dice_totals: IntArray
    """``[t]``: how often the three dice totalled t + 3."""
    colour_runs: int
    """Runs of red and black cards, summed over the shoes."""
    value_serial: int
    """Σ value[p]·value[p+1] over each shoe's successive cards, summed over the shoes."""
    draw_serial: IntArray
    """``[t]``: Σ u_t·u_{t+1} of successive draws, u_t = 2·draw_t − (n − 1 − t)."""
    first_changes: int
    """Rounds whose first card differs in colour from the round before's."""
    first_serial: int
    """Σ of (13·value − 45) of one round's first card times the next round's."""
    dice_serial: int
    """Σ (2·die − 7) of each die times the next one rolled, round after round."""
    ends: tuple[int, int, int, int]
    """The first card (face) of the first and the last round; the first and the last die."""

    def then(self, later: Tally) -> Tally:
        """This run followed by ``later``."""
        first_face, last_face, first_die, last_die = self.ends
        next_face, later_last_face, next_die, later_last_die = later.ends
        return Tally(
            rounds=self.rounds + later.rounds,
            decks=self.decks,
            card_position=self.card_position + later.card_position,
            tile_position=self.tile_position + later.tile_position,
            dice_faces=self.dice_faces + later.dice_faces,
            dice_totals=self.dice_totals + later.dice_totals,
            colour_runs=self.colour_runs + later.colour_runs,
            value_serial=self.value_serial + later.value_serial,
            draw_serial=self.draw_serial + later.draw_serial,
            first_changes=self.first_changes
            + later.first_changes
            + int(_is_red(last_face) != _is_red(next_face)),
            first_serial=self.first_serial
            + later.first_serial
            + int(_first_card_term(last_face) * _first_card_term(next_face)),
            dice_serial=self.dice_serial
            + later.dice_serial
            + (2 * last_die - 7) * (2 * next_die - 7),
            ends=(first_face, later_last_face, first_die, later_last_die),
        )


def tally(dealt: Dealt, decks: int) -> Tally:
    """Reduce a block of dealt rounds to its counts (numpy, a whole block at a time)."""
    shoes, draws, tiles, dice = dealt.shoes, dealt.draws, dealt.tiles, dealt.dice
    rounds, n = shoes.shape
    faces = shoes % 52
    red = _is_red(faces)
    values = _value(faces)
    u = 2 * draws - np.arange(n - 1, 0, -1)
    first = faces[:, 0]
    first_terms = _first_card_term(first)
    die_terms = (2 * dice - 7).ravel()
    return Tally(
        rounds=rounds,
        decks=decks,
        card_position=_histogram2d(shoes, n),
        tile_position=_histogram2d(tiles, TILES),
        dice_faces=_histogram2d(dice - 1, 6),
        dice_totals=np.bincount(dice.sum(axis=1) - DICE, minlength=5 * DICE + 1).astype(np.int64),
        colour_runs=rounds + int(np.count_nonzero(red[:, 1:] != red[:, :-1])),
        value_serial=int(np.sum(values[:, 1:] * values[:, :-1])),
        draw_serial=np.sum(u[:, 1:] * u[:, :-1], axis=0, dtype=np.int64),
        first_changes=int(np.count_nonzero(red[1:, 0] != red[:-1, 0])),
        first_serial=int(np.sum(first_terms[1:] * first_terms[:-1])),
        dice_serial=int(np.sum(die_terms[1:] * die_terms[:-1])),
        ends=(int(first[0]), int(first[-1]), int(dice[0, 0]), int(dice[-1, -1])),
    )


def _histogram2d(rows: IntArray, classes: int) -> IntArray:
    """``[p, c]``: how often column p of ``rows`` held c."""
    positions = rows.shape[1]
    flat = (np.arange(positions) * classes + rows).ravel()
    return np.bincount(flat, minlength=positions * classes).reshape(positions, classes)


def _tally_block(source: Source, decks: int, start: int, count: int) -> Tally:
    return tally(deal(source, decks, start, count), decks)


def tally_blocks(
    source: Source,
    decks: int,
    rounds: int,
    workers: int = 1,
    *,
    executor: Executor | None = None,
) -> Generator[Tally, None, None]:
    """Deal ``rounds`` rounds block by block, yielding each block's tally in round order.

    Blocks go to ``executor`` when one is given (a pool of processes or threads the
    caller keeps, and shuts down), ``workers`` of its workers kept busy; otherwise, with
    ``workers > 1``, to that many processes started for this run. Closing the iterator
    early (Ctrl-C) stops handing out blocks and stops the processes it started.
    """
    jobs = [(source, decks, start, min(BLOCK, rounds - start)) for start in range(0, rounds, BLOCK)]
    if executor is not None:
        yield from results(executor, _tally_block, jobs, workers, ordered=True)
        return
    if workers == 1 or len(jobs) == 1:
        for job in jobs:
            yield _tally_block(*job)
        return
    yield from on_own_pool(_tally_block, jobs, min(workers, len(jobs)), ordered=True)


def count(
    source: Source,
    decks: int,
    rounds: int,
    workers: int = 1,
    *,
    executor: Executor | None = None,
) -> Tally:
    """The tally of a whole run, dealt as :func:`tally_blocks` deals it."""
    total: Tally | None = None
    for block in tally_blocks(source, decks, rounds, workers, executor=executor):
        total = block if total is None else total.then(block)
    assert total is not None
    return total


Kind = Literal["chi-square", "z", "runs"]


@dataclass(frozen=True)
class CheckResult:
    """One test of the battery: its statistic, its p-value and, after Holm, its verdict."""

    id: str
    name: str
    method: str
    """How the statistic is counted and read, in a few words."""
    kind: Kind
    statistic: float
    """χ² (scaled, for a permutation table), z, or the number of runs."""
    p_value: float
    df: int | None = None
    expected: float | None = None
    """The statistic's exact mean under a fair shuffle, where that reads better than df."""
    holm_p_value: float = 1.0
    passed: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "method": self.method,
            "kind": self.kind,
            "statistic": self.statistic,
            "df": self.df,
            "expected": self.expected,
            "p_value": self.p_value,
            "holm_p_value": self.holm_p_value,
            "passed": self.passed,
        }


def _chi_square_result(test_id: str, name: str, method: str, fit: ChiSquare) -> CheckResult:
    cells = f"{fit.cells:,} cells, ≥ {fit.min_expected:,.1f} expected each"
    return CheckResult(
        test_id, name, f"{method}; {cells}", "chi-square", fit.statistic, fit.p_value, df=fit.df
    )


def _z_result(test_id: str, name: str, method: str, z: float) -> CheckResult:
    return CheckResult(test_id, name, method, "z", z, normal_p(z))


def battery(counts: Tally) -> list[CheckResult]:
    """The twelve tests (eleven with one deck, where a card and its face are one)."""
    n, N, decks = 52 * counts.decks, counts.rounds, counts.decks
    faces = counts.card_position.reshape(n, decks, 52).sum(axis=1)
    results = [
        _chi_square_result(
            "card-position",
            "each card's position in the shoe",
            f"{n} cards × {n} positions, χ² × (n−1)/n",
            permutation_table(counts.card_position, n, N),
        )
    ]
    if decks > 1:
        results.append(
            _chi_square_result(
                "face-position",
                "each face's position in the shoe",
                f"52 faces × {n} positions, χ² × (n−1)/n",
                permutation_table(faces, n, N),
            )
        )
    results += [
        _chi_square_result(
            "first-card",
            "first card dealt",
            "52 faces, 1/52 each",
            chi_square_fit(faces[0].tolist(), [Fraction(1, 52)] * 52),
        ),
        _chi_square_result(
            "tile-position",
            "each Lo-Ball tile's position",
            f"{TILES} tiles × {TILES} positions, χ² × (n−1)/n",
            permutation_table(counts.tile_position, TILES, N),
        ),
        _chi_square_result(
            "dice-faces",
            "dice faces, each of 3 dice",
            "3 dice × 6 faces, 1/6 each",
            _dice_faces(counts.dice_faces),
        ),
        _chi_square_result(
            "dice-totals",
            "dice totals",
            "totals 3–18, exact odds (1 … 27 in 216)",
            chi_square_fit(
                counts.dice_totals.tolist(), list(dice_total_probabilities(DICE).values())
            ),
        ),
    ]
    runs_mean, runs_var = runs_moments(n // 2, n // 2)
    results.append(
        _z_result(
            "colour-runs",
            "red/black runs in the shoe",
            f"Wald–Wolfowitz, exact mean {float(runs_mean):g} a shoe",
            z_score(counts.colour_runs, N * runs_mean, N * runs_var),
        )
    )
    changes = N - 1
    results.append(
        CheckResult(
            "first-card-runs",
            "red/black runs of first cards",
            "round to round: colour changes ~ Binomial(rounds − 1, 1/2), exact",
            "runs",
            float(counts.first_changes + 1),
            binomial_half_p(counts.first_changes, changes),
            expected=changes / 2 + 1,
        )
    )
    results.append(
        _z_result(
            "draw-serial",
            "serial correlation: draws",
            f"lag 1 of the shuffle's {n - 1} draws, each scaled to mean 0, variance 1",
            _draw_serial_z(counts.draw_serial, n, N),
        )
    )
    serial_mean, serial_var = serial_moments([_card_value(i) for i in range(n)])
    results.append(
        _z_result(
            "card-serial",
            "serial correlation: cards in a shoe",
            "lag 1 of baccarat values in the shoe, exact permutation moments",
            z_score(counts.value_serial, N * serial_mean, N * serial_var),
        )
    )
    # One first card's 13·value − 45 has mean 0 and variance 1680 (exactly, from 52 faces).
    results.append(
        _z_result(
            "first-card-serial",
            "serial correlation: first cards",
            "lag 1 of first-card values, round to round",
            z_score(counts.first_serial, Fraction(0), Fraction(1680**2 * (N - 1))),
        )
    )
    # A die's 2·face − 7 has mean 0 and variance 35/3.
    results.append(
        _z_result(
            "dice-serial",
            "serial correlation: dice",
            "lag 1 of every die rolled, round after round",
            z_score(counts.dice_serial, Fraction(0), Fraction(35, 3) ** 2 * (DICE * N - 1)),
        )
    )
    return results


def _card_value(item: int) -> int:
    rank = item % 13 + 1
    return rank if rank < 10 else 0


def _dice_faces(faces: IntArray) -> ChiSquare:
    """Three independent dice, each against 1/6 a face: the sum of three χ²(5)."""
    return chi_square_sum([chi_square_fit(row.tolist(), [Fraction(1, 6)] * 6) for row in faces])


def _draw_serial_z(sums: IntArray, n: int, rounds: int) -> float:
    """z of Σ w_t·w_{t+1}, where w_t = u_t/σ_t is draw t scaled to mean 0 and variance 1.

    Draw t is uniform below m = n − t, so u_t = 2·draw − (m − 1) has mean 0 and variance
    (m² − 1)/3; successive draws are independent, so each product has mean 0 and
    variance 1 and the products are uncorrelated: the sum has variance
    rounds × (n − 2).
    """
    m = np.arange(n, 1, -1, dtype=np.float64)
    sd = np.sqrt((m * m - 1) / 3)
    total = float(np.sum(sums / (sd[:-1] * sd[1:])))
    return total / float(np.sqrt(rounds * (n - 2)))


@dataclass(frozen=True)
class RngReport:
    """A run of the battery and its one verdict."""

    rounds: int
    decks: int
    seed: int | None
    workers: int
    seconds: float
    tests: tuple[CheckResult, ...]
    requested: int = 0
    """The shuffles asked for; more than ``rounds`` when the run was interrupted."""
    alpha: float = ALPHA

    @property
    def complete(self) -> bool:
        return self.rounds >= self.requested

    @property
    def passed(self) -> bool:
        return all(t.passed for t in self.tests)

    @property
    def failed(self) -> tuple[CheckResult, ...]:
        return tuple(t for t in self.tests if not t.passed)

    @property
    def shuffles_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "shuffles": self.rounds,
            "requested_shuffles": max(self.requested, self.rounds),
            "complete": self.complete,
            "decks": self.decks,
            "cards": 52 * self.decks,
            "seed": self.seed,
            "server_seeds": "secrets" if self.seed is None else "sha256",
            "client_seed": CLIENT_SEED,
            "alpha": self.alpha,
            "correction": "holm",
            "passed": self.passed,
            "verdict": "pass" if self.passed else "fail",
            "workers": self.workers,
            "seconds": self.seconds,
            "shuffles_per_second": self.shuffles_per_second,
            "tests": [t.to_dict() for t in self.tests],
        }


def verdict(results: list[CheckResult], alpha: float = ALPHA) -> tuple[CheckResult, ...]:
    """Holm–Bonferroni over every test: each gets its adjusted p-value and passes unless
    that is below ``alpha``."""
    adjusted = holm([r.p_value for r in results])
    return tuple(
        replace(r, holm_p_value=a, passed=a >= alpha)
        for r, a in zip(results, adjusted, strict=True)
    )


def run_battery(
    rounds: int,
    *,
    decks: int = 8,
    seed: int | None = None,
    workers: int = 1,
    executor: Executor | None = None,
    source: Source | None = None,
    progress: Callable[[int], None] | None = None,
) -> RngReport:
    """Deal ``rounds`` rounds, run every test and give the family-wise verdict.

    Blocks are dealt here, in ``workers`` processes, or on the caller's ``executor``
    with ``workers`` of its workers kept busy (see :func:`tally_blocks`); the tallies
    are added in round order, so the verdict is the same every way.

    ``source`` replaces the tables' stream (:class:`FairSources` with ``seed``): the
    tests hand in deliberately broken sources to see the battery catch them.
    ``progress`` is called with the rounds dealt so far after each block.

    Ctrl-C stops the dealing: the blocks dealt so far are tested (the report is marked
    incomplete), unless they are fewer than :data:`MIN_SHUFFLES`, when the interrupt
    goes on up.
    """
    rounds, decks, workers = check_shuffles(rounds), check_decks(decks), check_workers(workers)
    seed = None if seed is None else check_seed(seed)
    workers = min(workers, -(-rounds // BLOCK))  # no more processes than blocks are dealt
    start = time.perf_counter()
    total: Tally | None = None
    blocks = tally_blocks(source or FairSources(seed), decks, rounds, workers, executor=executor)
    try:
        for block in blocks:
            total = block if total is None else total.then(block)
            if progress is not None:
                progress(total.rounds)
    except KeyboardInterrupt:
        blocks.close()  # stop the workers now
        if total is None or total.rounds < MIN_SHUFFLES:
            raise
    assert total is not None
    seconds = time.perf_counter() - start
    tests = verdict(battery(total))
    return RngReport(total.rounds, decks, seed, workers, seconds, tests, requested=rounds)
