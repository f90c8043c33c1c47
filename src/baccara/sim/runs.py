"""Monte Carlo simulation of every game by its real rules, in compiled kernels.

A run of ``rounds`` rounds is cut into blocks of :data:`BLOCK_ROUNDS`; block ``b`` of a
run seeded ``S`` is dealt from its own generator stream, seeded from
``SeedSequence(S, spawn_key=(b,))``, and starts from a full shoe. So a run is fixed by
(game, rules, shoe mode, rounds, seed) alone: blocks can be dealt by any number of
worker processes, or on an executor the caller passes, in any order, and the sum is
the same. Counting per block keeps memory flat however many rounds are dealt.

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

from collections.abc import Iterator
from concurrent.futures import Executor
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
from baccara.sim.executors import on_own_pool, results
from baccara.sim.roles import kernel_of

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
        return kernel_of(spec, rules, self.shoe, self.penetration)


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


# --- counting a long run, in blocks, here or on an executor -------------------------------

_worker_dealer: tuple[DealerSpec, Dealer] | None = None
"""The dealer a worker last built, with its spec: built once a process (or thread pool)."""


def _dealer_for(spec: DealerSpec) -> Dealer:
    global _worker_dealer
    held = _worker_dealer
    if held is not None and held[0] == spec:
        return held[1]
    dealer = spec.dealer()
    _worker_dealer = (spec, dealer)
    return dealer


def _count_block(
    spec: DealerSpec, seed: int, block: int, rounds: int
) -> tuple[int, npt.NDArray[np.int64]]:
    return rounds, _dealer_for(spec).count_block(seed, block, rounds)


def count_blocks(
    spec: DealerSpec,
    rounds: int,
    seed: int,
    workers: int = 1,
    *,
    executor: Executor | None = None,
) -> Iterator[tuple[int, npt.NDArray[np.int64]]]:
    """Deal a run block by block, yielding ``(rounds in the block, its counts)`` as each ends.

    Blocks go to ``executor`` when one is given (a pool of processes or threads the
    caller keeps, and shuts down), ``workers`` of its workers kept busy; otherwise, with
    ``workers > 1``, to that many processes started for this run. Either way they come
    back in the order they finish, and the total is the same whatever the order, so
    the same seed gives the same counts however the run was dealt. Closing the iterator
    early (Ctrl-C) stops handing out blocks and stops the processes it started.
    """
    rounds, seed, workers = check_rounds(rounds), check_seed(seed), check_workers(workers)
    jobs = ((spec, seed, block, size) for block, _, size in blocks(rounds))
    if executor is not None:
        yield from results(executor, _count_block, jobs, workers, ordered=False)
        return
    if workers == 1 or block_count(rounds) == 1:
        dealer = spec.dealer()
        for _, _, block, size in jobs:
            yield size, dealer.count_block(seed, block, size)
        return
    yield from on_own_pool(_count_block, jobs, min(workers, block_count(rounds)),
                           ordered=False, start=_dealer_for, args=(spec,))  # fmt: skip


def count_outcomes(
    game: str,
    rounds: int,
    seed: int,
    *,
    workers: int = 1,
    executor: Executor | None = None,
    shoe: str = "reshuffle",
    penetration: float = DEFAULT_PENETRATION,
    **options: Any,
) -> tuple[RoundOutcomes, npt.NDArray[np.int64]]:
    """How often each outcome of each bet came in ``rounds`` rounds: the totals of
    :func:`deal_outcomes` without holding every round.

    Blocks are dealt here, in ``workers`` processes, or on the caller's ``executor``
    (see :func:`count_blocks`); the counts are the same every way. Returns the outcome
    labels (with an empty ``codes``) and the counts, (bets × most outcomes).
    """
    spec = DealerSpec.of(game, shoe=shoe, penetration=penetration, **options)
    dealer = spec.dealer()
    total = np.zeros((len(dealer.bets), max(map(len, dealer.outcomes))), dtype=np.int64)
    for _, counts in count_blocks(spec, rounds, seed, workers, executor=executor):
        total += counts
    labels = RoundOutcomes(
        dealer.game, dealer.bets, dealer.outcomes, np.empty((0, len(dealer.bets)), np.int8)
    )
    return labels, total
