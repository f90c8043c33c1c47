"""What ``baccara rng-test`` and :func:`baccara.sim.rng_tests.run_battery` accept.

Apart from the battery (which loads numpy and scipy), so the command refuses bad
input before it loads anything heavy.
"""

from __future__ import annotations

from baccara.options import as_int
from baccara.randomness import MAX_SEED, check_seed

__all__ = [
    "DEFAULT_SHUFFLES",
    "MAX_DECKS",
    "MAX_SEED",
    "MAX_SHUFFLES",
    "MAX_WORKERS",
    "MIN_SHUFFLES",
    "check_decks",
    "check_seed",
    "check_shuffles",
    "check_workers",
]

DEFAULT_SHUFFLES = 20_000
MIN_SHUFFLES = 1_000
MAX_SHUFFLES = 10**8
MAX_DECKS = 8
MAX_WORKERS = 64


def check_shuffles(value: object, name: str = "shuffles") -> int:
    return as_int(name, value, MIN_SHUFFLES, MAX_SHUFFLES)


def check_decks(value: object, name: str = "decks") -> int:
    return as_int(name, value, 1, MAX_DECKS)


def check_workers(value: object, name: str = "workers") -> int:
    return as_int(name, value, 1, MAX_WORKERS)
