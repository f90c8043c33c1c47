"""The simulator's random numbers: xoshiro256** in compiled code, and its plain twin.

Compiled kernels cannot call :mod:`random`, and a simulation must be repeatable, so
the kernels carry their own generator: xoshiro256** (Blackman and Vigna), four
64-bit words of state seeded from :class:`numpy.random.SeedSequence`. A draw below
``n`` takes the upper 32 bits of an output and maps them by Lemire's multiply-shift
with rejection, so every value is exactly equally likely (no modulo bias).

:class:`XoshiroRandom` is the same generator in plain Python behind the project's
:class:`~baccara.randomness.RandomSource` protocol: the tests deal rounds through the
rules code with it and check that the kernels dealt the very same cards.

>>> first, again = XoshiroRandom(block_state(7, 0)), XoshiroRandom(block_state(7, 0))
>>> [first.randbelow(10) for _ in range(8)] == [again.randbelow(10) for _ in range(8)]
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from baccara.sim.compiled import compiled, compiled_inline

MASK64 = (1 << 64) - 1
_MASK32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


def block_state(seed: int, block: int) -> npt.NDArray[np.uint64]:
    """The generator state for block ``block`` of a run seeded ``seed``.

    Each block gets an independent stream from ``SeedSequence(seed, spawn_key=(block,))``,
    so blocks can be dealt in any order, by any number of workers, with one result.
    """
    sequence = np.random.SeedSequence(seed, spawn_key=(block,))
    words: npt.NDArray[np.uint64] = sequence.generate_state(4, dtype=np.uint64).astype(np.uint64)
    if not words.any():  # xoshiro's one forbidden state; SeedSequence never gives it in practice
        words[0] = np.uint64(1)
    return words


@compiled_inline
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@compiled_inline
def next_u64(s: npt.NDArray[np.uint64]) -> np.uint64:
    """One xoshiro256** output; advances the state ``s`` in place."""
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@compiled_inline
def below(s: npt.NDArray[np.uint64], n: int) -> int:
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32``, exactly unbiased."""
    bound = np.uint64(n)
    m = (next_u64(s) >> np.uint64(32)) * bound
    low = m & _MASK32
    if low < bound:
        threshold = (_TWO32 - bound) % bound
        while low < threshold:
            m = (next_u64(s) >> np.uint64(32)) * bound
            low = m & _MASK32
    return int(m >> np.uint64(32))


@compiled
def draws_below(
    state: npt.NDArray[np.uint64], bounds: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """One :func:`below` per bound, in order (for the tests against :class:`XoshiroRandom`)."""
    result = np.empty(len(bounds), dtype=np.int64)
    for i in range(len(bounds)):
        result[i] = below(state, bounds[i])
    return result


class XoshiroRandom:
    """The kernels' generator in plain Python, as a :class:`~baccara.randomness.RandomSource`."""

    def __init__(self, state: npt.NDArray[np.uint64]) -> None:
        self._s = [int(word) for word in state]

    def next_u64(self) -> int:
        s = self._s
        result = (_rotl_py((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl_py(s[3], 45)
        return result

    def randbelow(self, n: int) -> int:
        if not 1 <= n < 1 << 32:
            raise ValueError(f"randbelow wants 1 <= n < 2**32, got {n}")
        m = (self.next_u64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next_u64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32


def _rotl_py(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64
