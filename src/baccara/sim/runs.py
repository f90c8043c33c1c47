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

import multiprocessing
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from baccara.cards import ShoeMode, check_penetration
from baccara.games import game
from baccara.options import as_int
from baccara.randomness import check_seed
from baccara.sim.dealer import (
    DEFAULT_PENETRATION,
    Dealer,
    block_count,
    blocks,
)

MAX_ROUNDS = 10**13
"""The most rounds one run deals: each outcome's count stays far inside 64 bits."""
MAX_WORKERS = 256
MAX_HELD_ROUNDS = 10**8
"""The most rounds :func:`deal_outcomes` holds in memory (about half a gigabyte)."""


def check_rounds(rounds: object, name: str = "rounds") -> int:
    return as_int(name, rounds, 1, MAX_ROUNDS)


def check_workers(workers: object, name: str = "workers") -> int:
    return as_int(name, workers, 1, MAX_WORKERS)


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
        penetration: object = DEFAULT_PENETRATION,
        **options: Any,
    ) -> DealerSpec:
        """Validate everything now (an unknown game, a bad option), so workers never refuse."""
        spec = cls(
            game, tuple(options.items()), ShoeMode.parse(shoe), check_penetration(penetration)
        )
        spec.dealer()
        return spec

    def dealer(self) -> Dealer:
        """The game's kernel, from its registry entry, under these rules and this shoe."""
        spec = game(self.game)
        rules = spec.rules_from_options(**dict(self.options))
        dealer: Dealer = spec.loaded("kernel")(spec.id, rules, self.shoe, self.penetration)
        return dealer


def deal_outcomes(
    game: str,
    rounds: int,
    seed: int,
    *,
    shoe: str = "reshuffle",
    penetration: float = DEFAULT_PENETRATION,
    **options: Any,
) -> RoundOutcomes:
    """Deal ``rounds`` rounds of ``game`` and return every bet's outcome in every round.

    ``options`` are the game's rule options as for :func:`baccara.analyze`. The result
    depends only on the arguments; it holds ``rounds × bets`` bytes, so it deals at
    most :data:`MAX_HELD_ROUNDS`; longer runs are counted block by block with
    :func:`count_outcomes`.
    """
    rounds = as_int("rounds", rounds, 1, MAX_HELD_ROUNDS)
    dealer = DealerSpec.of(game, shoe=shoe, penetration=penetration, **options).dealer()
    codes = dealer.deal_run(rounds, check_seed(seed))
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
    jobs = ((seed, block, size) for block, _, size in blocks(rounds))
    if workers == 1 or block_count(rounds) == 1:
        dealer = spec.dealer()
        for _, block, size in jobs:
            yield size, dealer.count_block(seed, block, size)
        return
    # Fork where the platform has it: workers start at once and need no importable
    # __main__; elsewhere spawn, which re-imports baccara in each worker.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = context.Pool(
        min(workers, block_count(rounds)), initializer=_start_worker, initargs=(spec,)
    )
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
    penetration: float = DEFAULT_PENETRATION,
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
