"""The squeeze's bends as the relay takes them: the squeezer's, at most 20 a second a
socket (the newest kept, the rest dropped), to everyone else and the other processes;
anything else refused, at most once a second, and never relayed."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from baccara.randomness import SeededRandom
from baccara.server.clock import ManualClock
from baccara.server.cluster.bends import BENDS_PER_SECOND, Bends, Refusal, parse
from baccara.server.cluster.hub import Connection, Hub
from baccara.table import Phase, Round, Table, TableConfig

ROUND_ID = 7


def squeezing() -> Round:
    """A Punto Banco round in ann's squeeze of Player's two cards."""
    table = Table(TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=10_000,
                              squeeze=True))  # fmt: skip
    round_ = table.open_round(0.0, source=SeededRandom(1))
    round_.place_bet("a", "ann", None, "player", 500, 1.0)
    round_.tick(100.0)
    assert round_.phase is Phase.SQUEEZE
    return round_


def sent(connection: Connection) -> list[dict[str, Any]]:
    out = []
    while connection.pending:
        message = connection.pending.popleft()
        assert isinstance(message, str)
        out.append(json.loads(message))
    return out


def bend(lift: int, position: str = "player.0", corner: str = "br") -> str:
    return json.dumps({"type": "bend", "position": position, "corner": corner, "lift": lift})


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"bend"',
        '{"type":"bend","position":"player.0","corner":"xx","lift":1}',
        '{"type":"bend","position":"player.0","corner":"br","lift":-1}',
        '{"type":"bend","position":"player.0","corner":"br","lift":true}',
        '{"type":"bend","position":"player.0","corner":"br","lift":1.5}',
        '{"type":"bend","position":"player.0","corner":"br"}',
        '{"type":"bend","position":"player.0","corner":"br","lift":1,"face":"KS"}',
        '{"type":"bend","position":' + '"p"' * 100 + "}",
    ],
)
def test_a_malformed_bend_is_refused_as_such(text: str) -> None:
    with pytest.raises(Refusal) as refused:
        parse(text)
    assert refused.value.code == "bad_bend"


def test_what_is_not_a_bend_is_left_to_others() -> None:
    assert parse("ping") is None and parse('{"type":"hello"}') is None


def test_the_squeezers_bends_reach_everyone_else_at_most_twenty_a_second() -> None:
    async def scene() -> None:
        round_ = squeezing()
        hub = Hub(ManualClock(start=0.0))
        published: list[dict[str, Any]] = []
        relay = Bends(hub, lambda table_id: (ROUND_ID, round_) if table_id == 1 else None,
                      published.append)  # fmt: skip
        ann, ann_too, bob, watcher = (
            Connection(None, 1, uid, name, "player", False)  # type: ignore[arg-type]
            for uid, name in ((1, "ann"), (1, "ann"), (2, "bob"), (0, ""))
        )
        for connection in (ann, ann_too, bob, watcher):
            hub.add(connection)
        assert relay.read(ann, "ping") is False
        for lift in range(100, 600, 100):  # five at once: the first goes, the last follows
            assert relay.read(ann, bend(lift))
        await asyncio.sleep(1.5 / BENDS_PER_SECOND)
        for connection in (bob, watcher):
            got = sent(connection)
            assert [m["lift"] for m in got] == [100, 500]
            assert got[0] == {"type": "bend", "table_id": 1, "round_id": ROUND_ID,
                              "position": "player.0", "corner": "br", "lift": 100}  # fmt: skip
        assert sent(ann) == [] and sent(ann_too) == []  # none back to the squeezer
        await asyncio.sleep(0.05)  # the other processes are told on a thread
        assert [n["m"][0]["lift"] for n in published] == [100, 500]
        assert all(n["x"] == "ann" and n["t"] == 1 for n in published)

        relay.read(bob, bend(10))
        relay.read(bob, bend(20))  # a second refusal within the second: not sent
        relay.read(watcher, bend(10, "player.1"))
        relay.read(ann, bend(10, "banker.0"))
        assert [m["code"] for m in sent(bob)] == ["not_squeezing"]
        assert [m["code"] for m in sent(watcher)] == ["not_squeezing"]
        assert "not a face-down card" in sent(ann)[0]["detail"]
        round_.turn_card("ann", "player.0", 101.0)
        hub.clock.advance(1.0)  # type: ignore[attr-defined]
        relay.read(ann, bend(10))  # turned already
        assert sent(ann)[0]["code"] == "not_squeezing" and sent(bob) == []
        relay.read(ann, bend(10, "player.1"))
        relay.read(ann, bend(20, "player.1"))  # waits for its turn...
        round_.end_squeeze("ann", 102.0)  # ...and the squeeze ends first: dropped
        await asyncio.sleep(1.5 / BENDS_PER_SECOND)
        assert [m["lift"] for m in sent(bob)] == [10]
        relay.gone(ann)
        assert len(published) == 3

    asyncio.run(scene())


def test_redgreens_peeker_bends_the_backed_hand_for_the_table_once_they_have_looked() -> None:
    """The first version's peek is a squeeze too: the peeker's bends of the hand they backed
    reach the table (never its faces); nobody bends before the look, another hand, or after
    the cards are handed back."""

    async def scene() -> None:
        table = Table(TableConfig("redgreen", min_bet_cents=100, max_bet_cents=10_000))
        round_ = table.open_round(0.0, source=SeededRandom(1))
        round_.place_bet("a", "ann", 1, "red", 500, 1.0)
        round_.tick(100.0)
        assert round_.phase is Phase.PEEK
        hub = Hub(ManualClock(start=0.0))
        relay = Bends(hub, lambda table_id: (ROUND_ID, round_), lambda note: None)
        ann, bob = (Connection(None, 1, uid, name, "player", False)  # type: ignore[arg-type]
                    for uid, name in ((1, "ann"), (2, "bob")))  # fmt: skip
        hub.add(ann)
        hub.add(bob)
        relay.read(ann, bend(300, "red.0"))  # not looked yet: nothing to bend
        assert sent(ann)[0]["code"] == "not_squeezing" and sent(bob) == []
        round_.peek_cards("ann", 101.0)
        hub.clock.advance(1.0)  # type: ignore[attr-defined]
        relay.read(ann, bend(300, "red.0"))
        await asyncio.sleep(1.5 / BENDS_PER_SECOND)
        assert sent(bob) == [{"type": "bend", "table_id": 1, "round_id": ROUND_ID,
                              "position": "red.0", "corner": "br", "lift": 300}]  # fmt: skip
        relay.read(ann, bend(300, "green.0"))  # the hand not backed
        assert sent(ann)[0]["code"] == "not_squeezing"
        round_.end_peek("ann", 102.0)
        hub.clock.advance(1.0)  # type: ignore[attr-defined]
        relay.read(ann, bend(400, "red.0"))  # handed back
        assert sent(ann)[0]["code"] == "not_squeezing" and sent(bob) == []

    asyncio.run(scene())
