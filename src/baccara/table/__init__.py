"""The live table: every game's dealing procedure as a pure, replayable state machine.

No I/O, no clock (the caller passes the time in), no global randomness (an
electronic round deals from its provably-fair seeds, or a source handed in). The
server, the tests, a replay and a live dealer all run this same code.

>>> from baccara.randomness import SeededRandom
>>> table = Table(TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=100_000,
...                           reveal_delay=0))
>>> round_ = table.open_round(0.0, source=SeededRandom(1))
>>> _ = table.place_bet("b1", "ann", "banker", 1000, now=1.0)
>>> _ = round_.tick(16.0)
>>> round_.phase.value, round_.settled is not None
('settled', True)
"""

from baccara.table.config import Mode, TableConfig
from baccara.table.events import Event, Payout, event_from_dict
from baccara.table.round import (
    LeavesTooLittle,
    NoMoreBets,
    OffStep,
    OverLimit,
    Phase,
    Round,
    RoundError,
    TooManyBets,
    UnderLimit,
)
from baccara.table.shoe import LiveShoe, ShoeReport
from baccara.table.table import SeatError, Table
from baccara.table.view import Viewer, sees_more, view

__all__ = [
    "Event",
    "LeavesTooLittle",
    "LiveShoe",
    "Mode",
    "NoMoreBets",
    "OffStep",
    "OverLimit",
    "Payout",
    "Phase",
    "Round",
    "RoundError",
    "SeatError",
    "ShoeReport",
    "Table",
    "TableConfig",
    "TooManyBets",
    "UnderLimit",
    "Viewer",
    "event_from_dict",
    "sees_more",
    "view",
]
