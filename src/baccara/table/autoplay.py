"""One whole round played through the engine by a script: ``baccara deal`` and the goldens.

Seated players bet, say they are ready, and the round runs on a virtual clock: the
highest bettor peeks (RedGreen) or chooses the first hand (Mini RedGreen) — or lets
the timer run out — and each reveal step comes when its delay is due. At a live
table the cards come from ``enter``, asked position by position, as a dealer would
be; a refused entry is shown to it and asked again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from baccara.errors import BaccaraError
from baccara.randomness import RandomSource
from baccara.table.events import DEALER
from baccara.table.round import Phase, Round
from baccara.table.table import Table


@dataclass(frozen=True)
class Plan:
    """Who sits and bets what. Every player stakes ``stake`` on every bet spot, so each
    bet of the game is settled; ``peek`` and ``choose`` are the highest bettor's moves
    (``peek`` also turns a squeeze's cards: the first, then the rest)
    (``choose=None``: the choice is left to the timer, which picks Red)."""

    players: tuple[str, ...]
    stake: int
    client_seed: str | None = None
    peek: bool = True
    choose: str | None = None


Entry = Callable[[Round, str, str | None], object]
"""A live dealer: given the round, the position wanted and the last refusal, the next card."""


def play(
    table: Table,
    plan: Plan,
    *,
    server_seed: bytes | None = None,
    source: RandomSource | None = None,
    enter: Entry | None = None,
    watch: Callable[[Round], None] | None = None,
) -> Round:
    """Seat the players, open a round, bet, deal, reveal and settle it; ``watch`` is
    called with the round after every step, to show its events as they happen."""
    seen = watch or (lambda round_: None)
    for player in plan.players:
        if table.seat_of(player) is None:
            table.sit(player)
    round_ = table.open_round(0.0, server_seed=server_seed, source=source)
    seen(round_)
    now = 0.0
    number = 0
    for player in plan.players:
        for spot in table.spec.bets_at(table.rules):
            now += 1
            number += 1
            table.place_bet(f"b{number}", player, spot, plan.stake, now, plan.client_seed)
            seen(round_)
    for player in plan.players:
        if round_.phase is Phase.BETTING:
            now += 1
            table.request_deal(player, now)
            seen(round_)
    if round_.phase is Phase.BETTING:  # bettors behind the table only: the timer closes it
        now = round_.deadline() or now
        round_.tick(now)
        seen(round_)
    while not round_.phase.over:
        now = _step(round_, plan, now, enter)
        seen(round_)
    return round_


def _step(round_: Round, plan: Plan, now: float, enter: Entry | None) -> float:
    phase = round_.phase
    if phase is Phase.DEALING:
        if enter is None:
            raise BaccaraError("a live round needs a dealer to enter the cards")
        position, refusal = round_.needs()[0], None
        while True:
            item = enter(round_, position, refusal)  # its own errors end the round
            try:
                round_.enter_card(DEALER, item, now + 1)
                return now + 1
            except BaccaraError as error:
                refusal = str(error)
    if phase is Phase.PEEK and plan.peek:
        assert round_.peek is not None
        round_.peek_cards(round_.peek.player, now + 1)
        round_.end_peek(round_.peek.player, now + 2)
        return now + 2
    if phase is Phase.SQUEEZE and plan.peek:  # one card turned, then the rest at once
        squeeze = round_.squeeze
        assert squeeze is not None
        round_.turn_card(squeeze.player, squeeze.positions[0], now + 1)
        if round_.squeeze is squeeze:
            round_.end_squeeze(squeeze.player, now + 2)
        return now + 2
    if phase is Phase.CHOOSING and plan.choose is not None:
        assert round_.choice is not None and round_.choice.player is not None
        round_.choose(round_.choice.player, plan.choose, now + 1)
        return now + 1
    due = round_.deadline()
    assert due is not None, f"nothing is due in phase {phase.value}"
    round_.tick(max(due, now))
    return max(due, now)
