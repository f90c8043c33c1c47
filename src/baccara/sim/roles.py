"""The registry's simulation roles, loaded and checked: each game's kernel and its plain twin.

The registry (``games/``) names them by import path and cannot know their types,
which live here. Each accessor calls the game's entry and checks what it returns,
so an entry of the wrong kind fails with a
:class:`~baccara.games.spec.MisregisteredRole` naming the game and the role.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeGuard

from baccara.cards import ShoeMode
from baccara.games.spec import GameSpec, Role
from baccara.sim.dealer import Dealer
from baccara.sim.kernels.rng import XoshiroRandom


def kernel_of(spec: GameSpec, rules: object, shoe: ShoeMode, penetration: float) -> Dealer:
    """``spec``'s compiled kernel set up for ``rules``, dealing from ``shoe``."""
    return spec.call(Role.KERNEL, Dealer, spec.id, rules, shoe, penetration)


def plain_rounds_of(
    spec: GameSpec,
    rng: XoshiroRandom,
    rounds: int,
    continuous: bool,
    penetration: float,
    rules: object,
) -> Iterator[tuple[str, ...]]:
    """``rounds`` rounds of ``spec``'s game dealt by the plain rules code from ``rng``:
    each round, every bet's outcome name, checked as it comes (the entry is loaded and
    called now, so a wrong one is refused before the first round)."""
    dealt = spec.call(Role.PLAIN_KERNEL, object, rng, rounds, continuous, penetration, rules)
    if not isinstance(dealt, Iterator):
        raise spec.misregistered(
            Role.PLAIN_KERNEL,
            f"returned a value of type {type(dealt).__name__}, not rounds one by one",
        )
    return _checked_rounds(spec, dealt)


def _checked_rounds(spec: GameSpec, dealt: Iterator[object]) -> Iterator[tuple[str, ...]]:
    for outcomes in dealt:
        if not _outcome_names(outcomes):
            raise spec.misregistered(
                Role.PLAIN_KERNEL,
                f"dealt a round of type {type(outcomes).__name__}, not a tuple of outcome names",
            )
        yield outcomes


def _outcome_names(value: object) -> TypeGuard[tuple[str, ...]]:
    return isinstance(value, tuple) and all(isinstance(name, str) for name in value)
