"""The hub sends what waits in a connection's queue together — and loses nothing.

A busy table's events of one round reach a client as one ``events`` message; of
several balances waiting, the newest. Every event still arrives, once, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import socket as pysocket
import threading
import time
import uuid
from typing import Any

import pytest
from websockets.protocol import SERVER, State
from websockets.server import ServerProtocol

from baccara.games import game_ids
from baccara.server.cluster import hub
from baccara.server.cluster.hub import (
    QUEUE_LIMIT,
    SEND_INTERVAL,
    SOCKET_FRAMES,
    Balance,
    Connection,
    Events,
    Hub,
    Outgoing,
    Segment,
    encode,
    frame,
    frames,
    together,
)
from baccara.table import Viewer, view
from tests.server.conftest import settings_for
from tests.server.harness import Server, receive, running, wait_for
from tests.server.test_faults import port_of, raw_websocket
from tests.test_table_properties import HOW, PLAYERS, _play


def test_waiting_messages_go_together_in_order() -> None:
    waiting = [Events(1, 7, '{"seq":1}'), Balance(500), Events(1, 7, '{"seq":2}'),
               Events(1, 8, '{"seq":0}'), Balance(400), '{"type":"seats"}',
               Events(1, 8, '{"seq":1}')]  # fmt: skip
    assert [json.loads(text) for text in together(waiting)] == [
        {"type": "events", "table_id": 1, "round_id": 7, "events": [{"seq": 1}, {"seq": 2}]},
        {"type": "events", "table_id": 1, "round_id": 8, "events": [{"seq": 0}]},
        {"type": "balance", "balance_cents": 400},
        {"type": "seats"},
        {"type": "events", "table_id": 1, "round_id": 8, "events": [{"seq": 1}]},
    ]
    assert together([Events(2, 3, '{"a":1}')]) == [
        '{"type":"events","table_id":2,"round_id":3,"events":[{"a":1}]}'
    ]  # one message alone is the message the hub always sent


class FakeSocket:
    def __init__(self) -> None:
        self.scope: dict[str, Any] = {}
        self.sent: list[str] = []
        self.closed = False

    async def send(self, message: dict[str, Any]) -> None:
        assert message["type"] == "websocket.send"
        self.sent.append(message["text"])

    async def close(self, code: int) -> None:
        self.closed = True


def test_a_sender_sends_the_queue_together_and_closes_after_the_rest() -> None:
    async def run() -> FakeSocket:
        socket = FakeSocket()
        connection = Connection(socket, 1, 1, "ann", "player", False)  # type: ignore[arg-type]
        for seq in range(5):
            connection.push(Events(1, 9, f'{{"seq":{seq}}}'))
            connection.push(Balance(1000 - seq))
        connection.push(None)
        await Hub()._send(connection)
        return socket

    socket = asyncio.run(run())
    assert [json.loads(t) for t in socket.sent] == [
        {"type": "events", "table_id": 1, "round_id": 9,
         "events": [{"seq": s} for s in range(5)]},
        {"type": "balance", "balance_cents": 996},
    ]  # fmt: skip
    assert socket.closed


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65_535, 65_536, 70_000])
def test_a_frame_made_once_is_the_frame_websockets_makes_for_each_socket(size: int) -> None:
    """Every length where a frame's header changes (7 bits, 16, 64), and text that is not
    ASCII: the shared bytes are those of websockets' own server protocol, byte for byte."""
    for text in ("x" * size, ("é猫" * size)[:size]):
        protocol = ServerProtocol()
        protocol.state = State.OPEN
        assert protocol.side is SERVER
        protocol.send_text(text.encode())
        assert frame(text) == b"".join(protocol.data_to_send())


class Sink:
    """A socket's protocol that writes ready frames (as the casino's does), or will not
    (an extension was negotiated)."""

    def __init__(self, takes: bool) -> None:
        self.takes = takes
        self.written: list[bytes] = []
        self.aborted = False

    def takes_frames(self) -> bool:
        return self.takes

    def write_now(self, data: bytes) -> bool:
        self.written.append(data)
        return True

    def abort(self) -> None:
        self.aborted = True


class FramedSocket(FakeSocket):
    def __init__(self, takes_frames: bool) -> None:
        super().__init__()
        self.sink = Sink(takes_frames)
        self.scope[SOCKET_FRAMES] = self.sink


def test_a_socket_with_a_sink_is_written_the_frames_of_what_it_would_be_sent() -> None:
    waiting: list[Outgoing] = [Events(1, 9, '{"seq":0}'), Balance(700), Events(1, 9, '{"seq":1}'),
                               '{"a":1}']  # fmt: skip

    async def run(socket: FramedSocket) -> None:
        connection = Connection(socket, 1, 1, "ann", "player", False)  # type: ignore[arg-type]
        for message in waiting:
            connection.push(message)
        connection.push(None)
        sender = Hub().start(connection)
        if sender is not None:
            await sender
        for _ in range(100):  # the pass, then the close it starts
            if socket.closed:
                break
            await asyncio.sleep(0.01)

    texts = together(list(waiting))
    framed, unframed = FramedSocket(takes_frames=True), FramedSocket(takes_frames=False)
    asyncio.run(run(framed))
    asyncio.run(run(unframed))
    assert framed.sink.written == [b"".join(frame(text) for text in texts)] and framed.sent == []
    assert unframed.sink.written == [] and unframed.sent == texts  # an extension: the texts
    assert framed.closed and unframed.closed
    assert not framed.sink.aborted and not unframed.sink.aborted


def test_a_socket_too_far_behind_is_dropped_at_once() -> None:
    """QUEUE_LIMIT messages waiting and one more: a socket the passes write is aborted
    (a close frame would wait behind all it has not read); one with a sender of its own
    is closed after the rest. Either way what waited goes, and nothing more is taken."""
    framed, unframed = FramedSocket(takes_frames=True), FramedSocket(takes_frames=False)
    ann = Connection(framed, 1, 1, "ann", "player", False)  # type: ignore[arg-type]
    bob = Connection(unframed, 1, 2, "bob", "player", False)  # type: ignore[arg-type]
    bob.sink = None  # as Hub.start leaves a socket whose protocol takes no frames
    for connection in (ann, bob):
        for seq in range(QUEUE_LIMIT + 1):
            connection.push(Events(1, 9, f'{{"seq":{seq}}}'))
    assert framed.sink.aborted and ann.closing and not ann.pending
    ann.push(Balance(5))
    assert not ann.pending  # dropped: nothing more waits for it
    assert list(bob.pending) == [None] and not unframed.sink.aborted


def test_a_close_that_waits_behind_what_the_client_has_not_read_drops_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The close goes out after the messages before it; a client that never reads has its
    close frame stuck behind them, and is dropped after WRITE_PATIENCE."""
    monkeypatch.setattr(hub, "WRITE_PATIENCE", 0.2)

    class Stuck(FramedSocket):
        async def close(self, code: int, reason: str = "") -> None:
            await asyncio.sleep(3600)  # the close frame never gets out

    async def run() -> Stuck:
        socket = Stuck(takes_frames=True)
        connection = Connection(socket, 1, 1, "ann", "player", False)  # type: ignore[arg-type]
        connection.push(Events(1, 9, '{"seq":0}'))
        connection.push(None)
        assert Hub().start(connection) is None
        for _ in range(200):
            if socket.sink.aborted:
                break
            await asyncio.sleep(0.01)
        return socket

    socket = asyncio.run(run())
    events = together([Events(1, 9, '{"seq":0}')])
    assert socket.sink.aborted and socket.sink.written == [frame(text) for text in events]


def test_the_casinos_sockets_are_written_the_shared_frames(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over a real socket of uvicorn run as ``baccara serve`` runs it, the hub's messages
    go as the frames it made once (the protocol is the socket's sink), and arrive whole."""
    made: list[bytes] = []

    def counted(waiting: tuple[Any, ...]) -> bytes:
        made.append(frames(waiting))
        return made[-1]

    monkeypatch.setattr(hub, "frames", counted)
    with running(settings_for(sqlite_url)) as server:
        player, watcher = server.player(), server.player()
        watched(server, player, watcher)
    assert made  # the snapshot and the bet went as ready frames


def watched(server: Server, player: Any, watcher: Any) -> None:
    """A bet placed while ``watcher`` watches: its event reaches the watching socket."""
    with server.ws(1, watcher.token) as socket:
        assert receive(socket)["type"] == "snapshot"
        answer = player.bet(1, "banker", 100, key=uuid.uuid4().hex)
        assert answer.status_code == 201, answer.text
        seen: list[dict[str, Any]] = []
        while not any(e["kind"] == "bet-placed" for e in seen):
            seen += receive(socket).get("events", [])
    assert [e["bet_id"] for e in seen if e["kind"] == "bet-placed"] == [answer.json()["bet_id"]]


PATIENCE = 3.0
"""The stalled client's WRITE_PATIENCE: a bet that waited for it would take as long."""


@pytest.mark.process  # a real uvicorn on a port, one of whose clients stops reading
def test_a_socket_that_stops_reading_is_dropped_and_holds_nobody_back(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client that never reads: its buffers (made small, so that a few bets fill them)
    stand full, and after WRITE_PATIENCE it is dropped; meanwhile every bet is taken at
    once and the player who reads sees each of them, in order."""
    monkeypatch.setattr(hub, "WRITE_PATIENCE", PATIENCE)
    with running(settings_for(sqlite_url, betting_seconds=60.0)) as server:
        casino = server.casino
        players = [server.player() for _ in range(8)]  # 18 bets each, under the cap
        reader, sleeper = server.player(), server.player()
        with contextlib.ExitStack() as closing, server.ws(1, reader.token) as socket:
            assert receive(socket)["type"] == "snapshot"
            stalled = raw_websocket(port_of(server), 1, sleeper.token, receive_buffer=2048)
            closing.callback(stalled.close)
            wait_for(lambda: len(casino.hub.at(1)) == 2)
            (slow,) = [c for c in casino.hub.at(1) if c.username == sleeper.name]
            protocol = slow.sink
            protocol.transport.get_extra_info("socket").setsockopt(
                pysocket.SOL_SOCKET, pysocket.SO_SNDBUF, 4096
            )
            done, paused = threading.Event(), threading.Event()
            pause = protocol.pause_writing

            def small_buffer() -> None:
                protocol.transport.set_write_buffer_limits(high=1024)
                done.set()

            def pause_writing() -> None:  # the transport's word that its buffer is full
                paused.set()
                pause()

            protocol.pause_writing = pause_writing

            protocol.loop.call_soon_threadsafe(small_buffer)
            assert done.wait(10)
            placed, took = [], []
            for i in range(144):
                began = time.monotonic()
                answer = players[i % 8].bet(1, "banker", 100, key=uuid.uuid4().hex)
                took.append(time.monotonic() - began)
                assert answer.status_code == 201, answer.text
                placed.append(answer.json()["bet_id"])
            assert paused.wait(10)  # its buffers stood full
            seen: list[dict[str, Any]] = []
            while len([e for e in seen if e["kind"] == "bet-placed"]) < len(placed):
                seen += receive(socket).get("events", [])
            wait_for(lambda: slow not in casino.hub.at(1), timeout=15)
    assert [e["bet_id"] for e in seen if e["kind"] == "bet-placed"] == placed
    assert max(took) < PATIENCE - 0.5  # no bet waited for the client that stopped


@pytest.mark.parametrize("burst", [40])
def test_a_burst_of_bets_reaches_a_socket_whole_and_in_order(
    sqlite_server: Server, burst: int
) -> None:
    """Bets placed as fast as the casino takes them: the watching socket gets each bet
    event once, in order, however they were grouped."""
    players = [sqlite_server.player() for _ in range(4)]
    watcher = sqlite_server.player()
    assert burst * 4 < QUEUE_LIMIT
    with sqlite_server.ws(1, watcher.token) as socket:
        assert receive(socket)["type"] == "snapshot"
        placed = []
        for i in range(burst):
            player = players[i % 4]
            answer = player.bet(1, "banker", 100, key=uuid.uuid4().hex)
            assert answer.status_code == 201, answer.text
            placed.append(answer.json()["bet_id"])
        seen: list[dict[str, Any]] = []
        while len([e for e in seen if e["kind"] == "bet-placed"]) < burst:
            seen += receive(socket).get("events", [])
    bets = [e["bet_id"] for e in seen if e["kind"] == "bet-placed"]
    assert bets == placed  # each once, in the order the casino took them


def texts_of(data: bytes) -> list[str]:
    """The texts of a server's unmasked text frames, one after another."""
    texts, at = [], 0
    while at < len(data):
        assert data[at] == 0x81  # final, text, no extension
        size, at = data[at + 1], at + 2
        if size >= 126:
            width = 2 if size == 126 else 8
            size, at = int.from_bytes(data[at : at + width]), at + width
        texts.append(data[at : at + size].decode())
        at += size
    return texts


@pytest.mark.parametrize("framed", [False, True], ids=["sender", "passes"])
def test_a_socket_is_written_at_most_every_interval_and_gets_every_event(framed: bool) -> None:
    """Events arriving every 10 ms for 0.5 s or so: the first goes at once, the rest a few to a
    message, no two writes closer than the interval — and every event once, in order; by a
    socket's own sender, and by the hub's passes over the sockets with a sink."""
    written: list[float] = []

    class TimedSocket(FakeSocket):
        async def send(self, message: dict[str, Any]) -> None:
            written.append(asyncio.get_running_loop().time())
            await super().send(message)

    class TimedSink(Sink):
        def __init__(self, socket: FakeSocket) -> None:
            super().__init__(takes=True)
            self.socket = socket

        def write_now(self, data: bytes) -> bool:
            written.append(asyncio.get_running_loop().time())
            self.socket.sent += texts_of(data)
            return True

    async def run() -> tuple[TimedSocket, float]:
        socket = TimedSocket()
        if framed:
            socket.scope[SOCKET_FRAMES] = TimedSink(socket)
        connection = Connection(socket, 1, 1, "ann", "player", False)  # type: ignore[arg-type]
        loop = asyncio.get_running_loop()
        began = loop.time()
        sender = Hub().start(connection)
        assert (sender is None) is framed  # a sink is written in the passes
        for seq in range(50):
            connection.push(Events(1, 9, f'{{"seq":{seq}}}'))
            await asyncio.sleep(0.01)
        connection.push(None)
        if sender is not None:
            await sender
        while not socket.closed:
            await asyncio.sleep(0.01)
        return socket, loop.time() - began  # 0.5 s, or more on a busy machine

    socket, took = asyncio.run(run())
    events = [e["seq"] for text in socket.sent for e in json.loads(text)["events"]]
    assert events == list(range(50))
    assert json.loads(socket.sent[0])["events"] == [{"seq": 0}]  # a quiet socket: at once
    assert len(socket.sent) <= took / SEND_INTERVAL + 2
    gaps = [later - earlier for earlier, later in itertools.pairwise(written)]
    assert min(gaps) >= SEND_INTERVAL * 0.9  # (what runs between the clock and the write)


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("game", game_ids())
def test_each_socket_is_sent_its_own_view_of_every_segment(game: str, how: str) -> None:
    """Who sees more than a spectator is read off a segment once, not asked of each
    socket: over random rounds (peeks, choices, live dealing, voids) and every point a
    segment may start at, each socket — every player, a spectator, the table's dealer,
    another dealer — is sent exactly the engine's view for it."""
    hub = Hub()
    people = [(name, "player", False) for name in PLAYERS]
    people += [("watcher", "player", False), ("dealing", "dealer", True),
               ("elsewhere", "dealer", False)]  # fmt: skip
    sockets = [Connection(None, 7, n, name, role, dealing)  # type: ignore[arg-type]
               for n, (name, role, dealing) in enumerate(people)]  # fmt: skip
    for connection in sockets:
        hub.add(connection)
    for seed in range(40):
        round_ = _play(game, seed, how)
        for since in range(len(round_.events)):
            hub.events(7, [Segment(round_, 99, since)])
            for connection in sockets:
                sent = connection.pending.popleft()
                assert isinstance(sent, Events) and not connection.pending
                name, role, dealing = people[connection.user_id]
                viewer = Viewer(name, dealer=role == "dealer" and dealing)  # as the socket's
                expected = encode(view(round_, viewer, since))[1:-1]
                assert sent.body == expected, (seed, since, connection.username)
