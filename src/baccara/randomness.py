"""Where randomness comes from, and the one shuffle every game uses.

The rules code never reaches for a global generator: it is handed a
:class:`RandomSource`. Live play hands it :class:`SecureRandom` (the operating
system's CSPRNG through :mod:`secrets`); replays, tests and simulations hand it a
:class:`SeededRandom` so a run can be repeated exactly.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import MutableSequence
from typing import Protocol, TypeVar, runtime_checkable

from baccara.options import as_int

T = TypeVar("T")

MAX_SEED = 2**63 - 1
"""Seeds are whole numbers from 0 to 2^63 − 1: what the simulator's generators take."""


def check_seed(seed: object, name: str = "seed") -> int:
    """A seed as given (``"42"``, ``42``), checked against :data:`MAX_SEED`."""
    return as_int(name, seed, 0, MAX_SEED)


@runtime_checkable
class RandomSource(Protocol):
    """Anything that draws a uniform integer in ``range(n)``."""

    def randbelow(self, n: int) -> int:
        """Return a uniformly distributed integer ``0 <= k < n``."""
        ...


class SecureRandom:
    """Cryptographically secure draws for real-money play."""

    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)

    def __repr__(self) -> str:
        return "SecureRandom()"


class SeededRandom:
    """Reproducible draws for replay, tests and simulation (never for live play).

    >>> SeededRandom(7).randbelow(10) == SeededRandom(7).randbelow(10)
    True
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def randbelow(self, n: int) -> int:
        # randrange is unbiased: it rejects rather than reduces modulo n.
        return self._random.randrange(n)

    def __repr__(self) -> str:
        return f"SeededRandom({self.seed})"


def shuffle(items: MutableSequence[T], rng: RandomSource) -> None:
    """Shuffle in place with the Fisher–Yates algorithm (every order equally likely).

    >>> deck = list(range(5)); shuffle(deck, SeededRandom(1)); sorted(deck)
    [0, 1, 2, 3, 4]
    """
    for i in range(len(items) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]
