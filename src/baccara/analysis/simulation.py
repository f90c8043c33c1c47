"""Monte Carlo simulation of every game by its real rules, in compiled kernels.

A run of ``rounds`` rounds is cut into blocks of :data:`BLOCK_ROUNDS`; block ``b`` of a
run seeded ``S`` is dealt from its own generator stream, seeded from
``SeedSequence(S, spawn_key=(b,))``, and starts from a full shoe. So a run is fixed by
(game, rules, shoe mode, rounds, seed) alone: blocks can be dealt by any number of
worker processes, in any order, and the sum is the same. Counting per block keeps
memory flat however many rounds are dealt.

The kernels decide only which outcome each bet had; what an outcome pays, and its
exact probability, come from :func:`baccara.analyze`. Outcome names and order are
the analysis's, so ``codes[i, j]`` reads as ``analysis.bets[j].outcomes[code]``.

>>> dealt = deal_outcomes("punto-banco", 5, seed=1)
>>> dealt.bets
('banker', 'player', 'tie', 'player-pair', 'banker-pair')
>>> dealt.codes.shape, dealt.outcomes[0]
((5, 5), ('win', 'push', 'lose'))
"""

from __future__ import annotations

import enum
import multiprocessing
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from baccara.analysis.kernels.pile import new_shoe
from baccara.analysis.kernels.rng import block_state
from baccara.analysis.registry import analyzable_games
from baccara.errors import InvalidOption, UnknownGame
from baccara.options import as_fraction, as_int

BLOCK_ROUNDS = 1 << 20
"""Rounds per block: the unit of seeding, of work for a worker, and of progress."""

MAX_ROUNDS = 10**13
MAX_SEED = 2**63 - 1
MAX_WORKERS = 256


class ShoeMode(enum.Enum):
    """How the shoe is handled between rounds."""

    RESHUFFLE = "reshuffle"
    """A full, freshly shuffled shoe every round: the seeds' procedure for all three games."""
    CONTINUOUS = "continuous"
    """One shoe dealt round after round until the cut card, then reshuffled."""

    @classmethod
    def parse(cls, value: ShoeMode | str) -> ShoeMode:
        if isinstance(value, ShoeMode):
            return value
        try:
            return cls(str(value).strip().lower())
        except ValueError:
            known = ", ".join(m.value for m in cls)
            raise InvalidOption("shoe", f"must be one of {known}, got {value!r}") from None


def check_rounds(rounds: object) -> int:
    return as_int("rounds", rounds, 1, MAX_ROUNDS)


def check_seed(seed: object) -> int:
    return as_int("seed", seed, 0, MAX_SEED)


def check_workers(workers: object) -> int:
    return as_int("workers", workers, 1, MAX_WORKERS)


def check_penetration(penetration: object) -> float:
    """The fraction of the shoe dealt before the cut card comes out, in (0, 1]."""
    try:
        value = as_fraction("penetration", penetration, 0, 1)
    except InvalidOption:
        value = None
    if value is None or value == 0:
        raise InvalidOption("penetration", f"must be in (0, 1], got {penetration!r}")
    return float(value)


@dataclass(frozen=True)
class RoundOutcomes:
    """Each round's outcome of every bet.

    ``codes[i, j]`` indexes ``outcomes[j]``: the outcome of bet ``bets[j]`` in round
    ``i``, named as in the exact analysis of the same rules.
    """

    game: str
    bets: tuple[str, ...]
    outcomes: tuple[tuple[str, ...], ...]
    codes: npt.NDArray[np.int8]


DealBlock = Callable[
    [npt.NDArray[np.uint64], npt.NDArray[np.int8], npt.NDArray[np.int16], npt.NDArray[np.int32]],
    None,
]

NO_TAGS = np.zeros(52, dtype=np.int16)
"""Tags of a count nobody keeps (card index → tag)."""
NOT_SHOWN = np.zeros((0, 2), dtype=np.int32)
"""No rows: the kernels skip the counter's view."""


@dataclass(frozen=True)
class Dealer:
    """One game's kernel set up for one set of rules and one shoe mode.

    ``deal(state, codes, tags, shown)`` fills ``codes`` (rounds × bets) from a full
    shoe with the generator ``state``; given rows in ``shown`` it also writes, before
    each round, the running count of ``tags`` since the shuffle and the cards left.
    """

    game: str
    bets: tuple[str, ...]
    outcomes: tuple[tuple[str, ...], ...]
    deal: DealBlock

    def deal_block(
        self,
        seed: int,
        block: int,
        codes: npt.NDArray[np.int8],
        tags: npt.NDArray[np.int16] = NO_TAGS,
        shown: npt.NDArray[np.int32] = NOT_SHOWN,
    ) -> None:
        """Deal block ``block`` of the run seeded ``seed`` into ``codes`` (and ``shown``)."""
        self.deal(block_state(seed, block), codes, tags, shown)

    def deal_run(self, rounds: int, seed: int) -> npt.NDArray[np.int8]:
        """Every bet's outcome code in each of ``rounds`` rounds of the run seeded ``seed``."""
        codes = np.empty((rounds, len(self.bets)), dtype=np.int8)
        for block, start, size in blocks(rounds):
            self.deal_block(seed, block, codes[start : start + size])
        return codes

    def count_block(self, seed: int, block: int, rounds: int) -> npt.NDArray[np.int64]:
        """How often each outcome of each bet came in the block: (bets × most outcomes)."""
        codes = np.empty((rounds, len(self.bets)), dtype=np.int8)
        self.deal_block(seed, block, codes)
        counts = np.zeros((len(self.bets), max(map(len, self.outcomes))), dtype=np.int64)
        _count(codes, counts)
        return counts


@njit(cache=True)
def _count(codes: npt.NDArray[np.int8], counts: npt.NDArray[np.int64]) -> None:
    for i in range(codes.shape[0]):
        for j in range(codes.shape[1]):
            counts[j, codes[i, j]] += 1


def _punto_banco(options: dict[str, Any], shoe: ShoeMode, penetration: float) -> Dealer:
    from baccara.analysis.kernels import punto_banco as kernel
    from baccara.games.punto_banco import GAME_ID, PuntoBancoRules

    rules = PuntoBancoRules.from_options(**options)
    cut = round(52 * rules.decks * penetration)
    continuous = shoe is ShoeMode.CONTINUOUS

    def deal(
        state: npt.NDArray[np.uint64],
        codes: npt.NDArray[np.int8],
        tags: npt.NDArray[np.int16],
        shown: npt.NDArray[np.int32],
    ) -> None:
        kernel.deal(state, new_shoe(rules.decks), codes, cut, continuous, tags, shown)

    return Dealer(GAME_ID, kernel.BETS, kernel.OUTCOMES, deal)


def _redgreen(game: str, options: dict[str, Any], shoe: ShoeMode, penetration: float) -> Dealer:
    from baccara.analysis.kernels import redgreen as kernel
    from baccara.analysis.redgreen import redgreen_rules

    rules = redgreen_rules(**options)
    tables = kernel.tables(rules)
    cut = round(52 * rules.decks * penetration)
    continuous = shoe is ShoeMode.CONTINUOUS

    def deal(
        state: npt.NDArray[np.uint64],
        codes: npt.NDArray[np.int8],
        tags: npt.NDArray[np.int16],
        shown: npt.NDArray[np.int32],
    ) -> None:
        shoe_cards = new_shoe(rules.decks)
        kernel.deal(
            state, shoe_cards, codes, cut, continuous, tables.calls, tables.bonus_map, tags, shown
        )

    return Dealer(game, kernel.BETS, tables.outcomes, deal)


def _loball(options: dict[str, Any], shoe: ShoeMode, penetration: float) -> Dealer:
    from baccara.analysis.kernels import loball as kernel
    from baccara.games.loball import GAME_ID, LoBallRules

    LoBallRules.from_options(**options)  # the payouts do not change a deal, but are checked
    if shoe is ShoeMode.CONTINUOUS:
        raise InvalidOption(
            "shoe",
            "Lo-Ball reshuffles its 28 tiles before every round (seed 001),"
            " so there is no continuous shoe to deal",
        )

    def deal(
        state: npt.NDArray[np.uint64],
        codes: npt.NDArray[np.int8],
        tags: npt.NDArray[np.int16],
        shown: npt.NDArray[np.int32],
    ) -> None:
        # The tile set is reshuffled every round: there is never anything to count.
        kernel.deal(state, kernel.new_set(), codes)

    return Dealer(GAME_ID, kernel.BETS, kernel.OUTCOMES, deal)


@dataclass(frozen=True)
class DealerSpec:
    """Everything that fixes a dealer, in a form worker processes can be sent.

    >>> DealerSpec.of("lo-ball", shoe="continuous")
    Traceback (most recent call last):
    ...
    baccara.errors.InvalidOption: shoe: Lo-Ball reshuffles its 28 tiles before every round (seed 001), so there is no continuous shoe to deal
    """

    game: str
    options: tuple[tuple[str, Any], ...]
    shoe: ShoeMode
    penetration: float

    @classmethod
    def of(
        cls,
        game: str,
        *,
        shoe: ShoeMode | str = ShoeMode.RESHUFFLE,
        penetration: object = 0.8,
        **options: Any,
    ) -> DealerSpec:
        """Validate everything now (an unknown game, a bad option), so workers never refuse."""
        spec = cls(
            game, tuple(options.items()), ShoeMode.parse(shoe), check_penetration(penetration)
        )
        spec.dealer()
        return spec

    def dealer(self) -> Dealer:
        options = dict(self.options)
        if self.game == "punto-banco":
            return _punto_banco(options, self.shoe, self.penetration)
        if self.game in ("redgreen", "redgreen-mini"):
            return _redgreen(self.game, options, self.shoe, self.penetration)
        if self.game == "lo-ball":
            return _loball(options, self.shoe, self.penetration)
        raise UnknownGame(self.game, analyzable_games())


def blocks(rounds: int) -> list[tuple[int, int, int]]:
    """``(block, first round, rounds in it)`` for a run of ``rounds``."""
    return [
        (b, start, min(BLOCK_ROUNDS, rounds - start))
        for b, start in enumerate(range(0, rounds, BLOCK_ROUNDS))
    ]


def deal_outcomes(
    game: str,
    rounds: int,
    seed: int,
    *,
    shoe: str = "reshuffle",
    penetration: float = 0.8,
    **options: Any,
) -> RoundOutcomes:
    """Deal ``rounds`` rounds of ``game`` and return every bet's outcome in every round.

    ``options`` are the game's rule options as for :func:`baccara.analyze`. The result
    depends only on the arguments; it holds ``rounds × bets`` bytes, so for long runs
    count block by block with :func:`count_outcomes` instead.
    """
    dealer = DealerSpec.of(game, shoe=shoe, penetration=penetration, **options).dealer()
    codes = dealer.deal_run(check_rounds(rounds), check_seed(seed))
    return RoundOutcomes(dealer.game, dealer.bets, dealer.outcomes, codes)


# --- counting a long run, in blocks and worker processes ------------------------------------

_worker_dealer: Dealer | None = None


def _start_worker(spec: DealerSpec) -> None:
    global _worker_dealer
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    _worker_dealer = spec.dealer()


def _count_in_worker(job: tuple[int, int, int]) -> tuple[int, npt.NDArray[np.int64]]:
    seed, block, rounds = job
    assert _worker_dealer is not None
    return rounds, _worker_dealer.count_block(seed, block, rounds)


def count_blocks(
    spec: DealerSpec, rounds: int, seed: int, workers: int = 1
) -> Iterator[tuple[int, npt.NDArray[np.int64]]]:
    """Deal a run block by block, yielding ``(rounds in the block, its counts)`` as each ends.

    With ``workers > 1`` blocks are dealt in that many processes and come back in the
    order they finish; the total is the same whatever the order. Closing the iterator
    early (Ctrl-C) stops the workers.
    """
    rounds, seed, workers = check_rounds(rounds), check_seed(seed), check_workers(workers)
    jobs = [(seed, block, size) for block, _, size in blocks(rounds)]
    if workers == 1 or len(jobs) == 1:
        dealer = spec.dealer()
        for _, block, size in jobs:
            yield size, dealer.count_block(seed, block, size)
        return
    # Fork where the platform has it: workers start at once and need no importable
    # __main__; elsewhere spawn, which re-imports baccara in each worker.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = context.Pool(min(workers, len(jobs)), initializer=_start_worker, initargs=(spec,))
    try:
        yield from pool.imap_unordered(_count_in_worker, jobs)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def count_outcomes(
    game: str,
    rounds: int,
    seed: int,
    *,
    workers: int = 1,
    shoe: str = "reshuffle",
    penetration: float = 0.8,
    **options: Any,
) -> tuple[RoundOutcomes, npt.NDArray[np.int64]]:
    """How often each outcome of each bet came in ``rounds`` rounds: the totals of
    :func:`deal_outcomes` without holding every round.

    Returns the outcome labels (with an empty ``codes``) and the counts, (bets × most outcomes).
    """
    spec = DealerSpec.of(game, shoe=shoe, penetration=penetration, **options)
    dealer = spec.dealer()
    total = np.zeros((len(dealer.bets), max(map(len, dealer.outcomes))), dtype=np.int64)
    for _, counts in count_blocks(spec, rounds, seed, workers):
        total += counts
    labels = RoundOutcomes(
        dealer.game, dealer.bets, dealer.outcomes, np.empty((0, len(dealer.bets)), np.int8)
    )
    return labels, total
