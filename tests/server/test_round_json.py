"""A round as the API answers it is plain JSON, whatever its game's procedure returned.

A procedure's settlement result is the game's own (``games/`` plugs new games in), and
the round in play is read from memory, not from its stored JSON: a tuple in it must
reach the answer as a list, as every stored round's does, or the strict answer model
(``extra="forbid"``, JSON values only) would refuse it with a 500.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from sqlalchemy import select

from baccara.server.db.models import Round as RoundRow
from baccara.server.domain.views import round_json, stored_round
from baccara.server.http.api.answers.rounds import RoundOut
from baccara.table import Round, Viewer
from baccara.table.events import RoundSettled
from tests.server.conftest import settings_for
from tests.server.harness import Server, in_process


@pytest.fixture
def casino(sqlite_url: str) -> Iterator[Server]:
    with in_process(settings_for(sqlite_url)) as server:
        yield server


def test_a_result_holding_a_tuple_is_answered_as_a_list(casino: Server) -> None:
    ann = casino.player("ann")
    placed = ann.bet(1, "banker", 100)
    assert placed.status_code == 201, placed.text
    casino.advance(1.0)  # betting runs out: the round is dealt and settled
    casino.play_out()
    with casino.casino.db.read() as session:
        row = session.scalars(
            select(RoundRow).where(RoundRow.state == "settled").order_by(RoundRow.id).limit(1)
        ).one()
        stored = stored_round(session, row)
        events = [
            dataclasses.replace(e, result={**e.result, "shape": (1, (2, 3))})
            if isinstance(e, RoundSettled)
            else e
            for e in stored.events
        ]
        answer = round_json(session, row, Round.read(events), Viewer("someone"))
    assert answer["result"]["shape"] == [1, [2, 3]]
    assert RoundOut.model_validate(answer).result == answer["result"]
