"""Compiling the simulation kernels: numba's ``njit``, cached on disk when numba can be.

numba keeps compiled kernels beside the source (``__pycache__``) or in the user's
cache folder (``~/.cache/numba``, or ``NUMBA_CACHE_DIR``). With neither writable — a
read-only install and an unwritable home — ``njit(cache=True)`` refuses at import, and
every command that deals would die before it starts. Here such a kernel is compiled
in memory instead: the run is as fast, only its first call is slower, every time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from numba import njit

F = TypeVar("F", bound=Callable[..., Any])


def _compile(function: F, **options: Any) -> F:
    try:
        return cast(F, njit(cache=True, **options)(function))
    except RuntimeError:
        # numba's "cannot cache function …: no locator available": no folder it may write.
        return cast(F, njit(cache=False, **options)(function))


def compiled(function: F) -> F:
    """``function`` compiled by numba, cached on disk when a cache folder can be written."""
    return _compile(function)


def compiled_inline(function: F) -> F:
    """The same, inlined into the kernels that call it (small helpers of the hot loop)."""
    return _compile(function, inline="always")
