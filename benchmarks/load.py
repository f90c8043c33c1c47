"""Load: N players over HTTP and WebSocket against a casino this script starts.

    python benchmarks/load.py [--players 200] [--tables 20] [--rate 500]
                              [--warmup-seconds 10] [--open-seconds 30]
                              [--closed-seconds 20] [--half-seconds 20]
                              [--database sqlite|postgresql] [--processes 1]

An admin opens the tables (Punto Banco, electronic, reveal delay 0); every player
registers, signs in, opens the WebSocket of their table, and bets on it:

* **open loop** — bets are offered at a fixed rate (``--rate`` per second, spread over
  the players) whatever the answers: latency at a known load. The first seconds
  (``--warmup-seconds``) are reported apart: the tables, opened together, start their
  rounds together and settle them all in the same moments, until the small differences
  of each round's timing spread them out, as the tables of a casino that has been open
  a while are;
* **closed loop** — every player bets again as soon as their last bet is answered:
  capacity;
* **half capacity** — the open loop again, at half the rate the closed loop reached
  (``--half-seconds``): the latency of a casino with room to spare, as an operator sizes
  one.

It reports accepted bets per second, p50/p99/max latency of placing a bet, of settling
a round (from the moment its betting timer ran out to its settlement reaching the
players) and of an event reaching every WebSocket at its table, the errors by kind,
and, once every round is over, checks that each player's balance is the starting
balance plus what the round records say each of their bets returned, to the cent.

With ``--database postgresql`` it starts a private PostgreSQL cluster (as the tests
do); with ``--processes 2`` it starts two server processes on that database behind
nginx, configured as ``deploy/nginx/baccara.conf`` ships (without its per-client limits:
the players come from a few addresses), each process started with its ``--upstream``
place, and every player goes through nginx. nginx's processor time is counted with the
servers'.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import functools
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from baccara.cli.serve import collect_rarely

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PASSWORD = "load test password"
START_CENTS = 100_000
BETS = ("banker", "player", "tie")
SERVER_PIDS: list[int] = []
ROUND_WAIT = 0.5
"""How long a player of the closed loop told they have placed a round's most bets waits
before betting again (a round under load lasts several seconds): asking again at once
measures refusals, not bets."""


@dataclass
class Stats:
    place: list[float] = field(default_factory=list)
    settle: list[float] = field(default_factory=list)
    fanout: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    accepted: int = 0
    offered: int = 0


class Connection:
    """One kept-alive HTTP/1.1 connection, written by hand: a bet is one small request,
    and a general client (httpx) spent more processor time sending it than the server
    spent taking it — on a machine shared with the server, that is capacity stolen."""

    def __init__(self, base: str, token: str, source: str | None = None) -> None:
        host, _, port = base.removeprefix("http://").partition(":")
        self.host, self.port = host, int(port)
        self.source = source
        """The loopback address the connection comes from (a crowd spreads over many, as
        the players of a real table come from many)."""
        self.head = f"Host: {host}\r\nAuthorization: Bearer {token}\r\n"
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.lock = asyncio.Lock()

    async def post(
        self, path: str, body: dict[str, Any], headers: dict[str, str]
    ) -> tuple[int, bytes]:
        data = json.dumps(body).encode()
        extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        request = (f"POST {path} HTTP/1.1\r\n{self.head}{extra}Content-Type: application/json"
                   f"\r\nContent-Length: {len(data)}\r\n\r\n").encode() + data  # fmt: skip
        async with self.lock:  # one request at a time on a connection, as HTTP/1.1 has it
            try:
                return await self._send(request)
            except (ConnectionResetError, asyncio.IncompleteReadError):
                # The server closed a connection left idle (keep-alive timeout): a browser
                # sends again on a new one, and so does this; the Idempotency-Key makes a
                # second copy of a bet that did arrive harmless.
                return await self._send(request)

    async def _send(self, request: bytes) -> tuple[int, bytes]:
        if self.streams is None:
            local = (self.source, 0) if self.source else None
            self.streams = await asyncio.open_connection(self.host, self.port, local_addr=local)
        reader, writer = self.streams
        try:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            return status, await reader.readexactly(length)
        except BaseException:
            writer.close()
            self.streams = None
            raise

    async def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


@dataclass
class Player:
    name: str
    token: str
    table: int
    base: str
    http: httpx.AsyncClient | None = None
    raw: Connection | None = None
    source: str | None = None


POSTMASTER: list[int] = []
"""The private PostgreSQL cluster's postmaster, when the casino runs on one."""
BALANCER: list[int] = []
"""nginx's master process, when it stands in front of several servers."""


def _stat(pid: int) -> list[str]:
    """``/proc/PID/stat``'s fields after the command's name (state first)."""
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()


def cpu_seconds() -> dict[str, float]:
    """Processor time used so far by the server processes, by PostgreSQL (its postmaster,
    the children it has reaped and those alive: backends, writers) and by this load
    generator."""
    tick = os.sysconf("SC_CLK_TCK")
    servers = 0.0
    for pid in SERVER_PIDS:
        fields = _stat(pid)
        servers += (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    if BALANCER:
        servers += family_ticks(BALANCER[0]) / tick
    used = {"server": servers, "load generator": time.process_time()}
    if POSTMASTER:
        used["database"] = family_ticks(POSTMASTER[0]) / tick
    return used


def family_ticks(parent: int) -> int:
    """Clock ticks used by ``parent``, the children it has reaped and those alive."""
    ticks = sum(int(f) for f in _stat(parent)[11:15])  # its own and its reaped children's
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                child = _stat(int(entry.name))
                if int(child[1]) == parent:  # ppid
                    ticks += int(child[11]) + int(child[12])
    return ticks


def cpu_per_bet(before: dict[str, float], accepted: int) -> dict[str, float]:
    """Milliseconds of processor time per accepted bet, by process, since ``before``."""
    now = cpu_seconds()
    return {k: round(1000 * (now[k] - before[k]) / max(accepted, 1), 2) for k in now}


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


@contextlib.contextmanager
def database(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{folder}/load.db"
        return
    from tests.server.postgres import start_cluster

    cluster = start_cluster()
    POSTMASTER[:] = [int((cluster.folder / "data" / "postmaster.pid").read_text().split()[0])]
    try:
        yield cluster.new_database()
    finally:
        POSTMASTER.clear()
        cluster.stop()


def crowd(url: str, players: int) -> list[dict[str, Any]]:
    """The admin and ``players`` players, made with ``baccara user add-many``: one Argon2
    hash for all (at a sign-up's cost), and a token each, so that no player signs up or
    in — a thousand sign-ups took longer than ten minutes of a load test's setup."""
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run([sys.executable, "-m", "baccara", "user", "add", "boss", "--role", "admin"],
                   input=PASSWORD, text=True, env=env, check=True, capture_output=True)  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        tokens = Path(folder) / "tokens.json"
        subprocess.run([sys.executable, "-m", "baccara", "user", "add-many", "load",
                        "--count", str(players), "--tokens", str(tokens)],
                       input=PASSWORD, text=True, env=env, check=True, capture_output=True)  # fmt: skip
        made: list[dict[str, Any]] = json.loads(tokens.read_text())
    return made


@contextlib.contextmanager
def servers(url: str, count: int, betting: float) -> Iterator[list[str]]:
    """``count`` casino processes on ``url``; several behind nginx, which is then the one
    address the players have."""
    from tests.server.harness import free_port

    env = {**os.environ, "DATABASE_URL": url}
    processes, bases = [], []
    try:
        for number in range(1, count + 1):
            port = free_port()
            place = ["--upstream", f"{number}/{count}"] if count > 1 else []
            processes.append(process := subprocess.Popen(
                [sys.executable, "-m", "baccara", "serve", "--port", str(port),
                 "--betting-seconds", str(betting), "--reveal-delay-ms", "0", *place],
                env=env, stdout=subprocess.DEVNULL, stderr=tempfile.TemporaryFile()))  # noqa: SIM115 - closed below  # fmt: skip
            SERVER_PIDS.append(process.pid)
            bases.append(f"http://127.0.0.1:{port}")
            _wait_up(bases[-1])
        if count == 1:
            yield bases
        else:
            with balancer(bases) as front:
                yield [front]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
            if process.stderr:  # a file, not a pipe: a server logging much never blocks
                process.stderr.seek(0)
                tail = process.stderr.read().decode(errors="replace")[-2000:]
                if process.returncode not in (0, -15) and tail:
                    print(tail, file=sys.stderr)
                process.stderr.close()


@contextlib.contextmanager
def balancer(bases: list[str]) -> Iterator[str]:
    """nginx in front of ``bases``, as the shipped configuration routes (no per-client
    limits): its address."""
    from tests.server.harness import free_port
    from tests.server.test_nginx import configuration, running, site

    listen = free_port()
    ports = [int(base.rpartition(":")[2]) for base in bases]
    with tempfile.TemporaryDirectory() as folder:
        main = configuration(Path(folder), site(listen, ports, limits=False),
                             connections=16_384)  # fmt: skip
        with running(Path(folder), main, listen) as nginx:
            BALANCER[:] = [nginx.pid]
            try:
                yield f"http://127.0.0.1:{listen}"
            finally:
                BALANCER.clear()


def _wait_up(base: str, path: str = "/api/health") -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}{path}", timeout=1).status_code in (200, 401):
                return
        time.sleep(0.1)
    raise RuntimeError(f"{base} did not start")


async def setup(bases: list[str], accounts: list[dict[str, Any]], tables: int) -> list[Player]:
    async with httpx.AsyncClient(timeout=30) as client:
        token = (await client.post(f"{bases[0]}/api/auth/login",
                                   json={"username": "boss", "password": PASSWORD})).json()["token"]  # fmt: skip
        admin = {"Authorization": f"Bearer {token}"}
        table_ids = []
        for _ in range(tables):
            made = await client.post(f"{bases[0]}/api/tables", headers=admin, json={
                "game": "punto-banco", "min_bet_cents": 100, "max_bet_cents": 100_000})  # fmt: skip
            assert made.status_code == 201, made.text
            table_ids.append(made.json()["id"])

        return [Player(player["username"], player["token"], table_ids[number % tables],
                       bases[number % len(bases)]) for number, player in enumerate(accounts)]  # fmt: skip


async def bet(player: Player, stats: Stats, phase: str) -> str | None:
    """Place one bet: ``None`` if it was taken, else the kind of refusal."""
    assert player.raw is not None
    body = {"bet": random.choice(BETS), "amount_cents": random.choice((100, 200, 500))}
    start = time.perf_counter()
    try:
        status, answer = await player.raw.post(f"/api/tables/{player.table}/bets", body,
                                               {"Idempotency-Key": uuid.uuid4().hex})  # fmt: skip
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        stats.errors[f"{phase}: {type(error).__name__}"] += 1
        return type(error).__name__
    took = time.perf_counter() - start
    if status == 201:
        stats.place.append(took)
        stats.accepted += 1
        return None
    try:
        kind = json.loads(answer).get("error", "?")
    except ValueError:
        kind = "?"
    stats.errors[f"{phase}: {status} {kind}"] += 1
    return str(kind)


@functools.lru_cache(maxsize=8192)
def _read(raw: str | bytes) -> Any:
    """A table message, parsed once for all the sockets it reaches: the hub sends every
    spectator the very same text, and a generator parsing it two thousand times would
    spend more processor time than the casino that sent it — delaying the arrival it
    records, and taking the machine from the server it measures."""
    return json.loads(raw)


class Frames(asyncio.Protocol):
    """A table's WebSocket, read by hand (RFC 6455, no extension): the crowd of a popular
    table is two thousand sockets, and a general client (``websockets``) spent more than
    twice the casino's processor time reading them — the arrivals it timed waited for
    the generator, not the casino. Each message is handed on as bytes with the moment its
    last piece arrived; a ping is answered, as a browser does."""

    def __init__(self, heard: Callable[[bytes, float], None]) -> None:
        self.heard = heard
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.parts: list[bytes] = []
        self.upgraded = False

    def open(self, transport: asyncio.BaseTransport, host: str, path: str) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                         "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                         f"Sec-WebSocket-Key: {key}\r\n\r\n").encode())  # fmt: skip

    def data_received(self, data: bytes) -> None:
        now = time.time()
        buffer = self.buffer
        buffer += data
        if not self.upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(buffer[:end])
            del buffer[: end + 4]
            if not head.startswith(b"HTTP/1.1 101"):
                self.opened.set_exception(RuntimeError(head.split(b"\r\n")[0].decode()))
                self._close()
                return
            self.upgraded = True
            self.opened.set_result(None)
        at = 0
        while len(buffer) - at >= 2:
            first, length = buffer[at], buffer[at + 1] & 0x7F
            start = at + 2
            if length >= 126:
                size = 2 if length == 126 else 8
                if len(buffer) - start < size:
                    break
                length = int.from_bytes(buffer[start : start + size], "big")
                start += size
            if len(buffer) - start < length:
                break
            payload = bytes(buffer[start : start + length])
            at = start + length
            opcode = first & 0x0F
            if opcode in (0, 1, 2):  # a message, or a piece of one
                self.parts.append(payload)
                if first & 0x80:
                    self.heard(b"".join(self.parts), now)
                    self.parts.clear()
            elif opcode == 9:  # ping
                self._send(0xA, payload)
            elif opcode == 8:  # close
                self._close()
                break
        del buffer[:at]

    def _send(self, opcode: int, payload: bytes) -> None:
        """A client's frame, masked as the protocol requires (control frames are short)."""
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        if self.transport is not None:
            self.transport.write(bytes((0x80 | opcode, 0x80 | len(payload))) + mask + masked)

    def _close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed before the upgrade"))
        if not self.closed.done():
            self.closed.set_result(None)


async def watch(player: Player, stats: Stats, seen: dict[tuple[int, int, int], list[float]],
                stop: asyncio.Event, connected: list[Player] | None = None) -> None:  # fmt: skip
    """Record when each event reaches this socket; the settlement delay per round."""
    connected = [] if connected is None else connected
    transport = httpx.AsyncHTTPTransport(local_address=player.source)
    async with httpx.AsyncClient(timeout=60, transport=transport) as client:
        answer = await client.post(f"{player.base}/api/ws-ticket",
                                   headers={"Authorization": f"Bearer {player.token}"})  # fmt: skip
    ticket = answer.raise_for_status().json()["ticket"]
    first_bet: dict[int, float] = {}
    betting: dict[int, float] = {}
    """Each round's betting time, for the rounds seen from their opening (a round already
    open when the socket connected is not timed: its timer is unknown)."""

    def heard(raw: bytes, now: float) -> None:
        message = _read(raw)
        if message.get("type") != "events":
            return
        round_id = message["round_id"]
        for event in message["events"]:
            seen[(player.table, round_id, event["seq"])].append(now - event["at"])
            if event["kind"] == "round-opened":
                betting[round_id] = event["betting_seconds"]
            if event["kind"] == "bet-placed":
                first_bet.setdefault(round_id, event["at"])
            if event["kind"] == "round-settled" and round_id in first_bet and round_id in betting:
                stats.settle.append(now - (first_bet[round_id] + betting[round_id]))

    address = player.base.removeprefix("http://")
    host, _, port = address.partition(":")
    local = {"local_addr": (player.source, 0)} if player.source else {}
    loop = asyncio.get_running_loop()
    socket, frames = await loop.create_connection(lambda: Frames(heard), host, int(port), **local)
    try:
        frames.open(socket, address, f"/ws/tables/{player.table}?ticket={ticket}")
        await asyncio.wait_for(frames.opened, timeout=60)
        connected.append(player)
        await asyncio.wait([asyncio.ensure_future(stop.wait()), frames.closed],
                           return_when=asyncio.FIRST_COMPLETED)  # fmt: skip
    finally:
        socket.close()


@contextlib.contextmanager
def floor_server() -> Iterator[tuple[str, int]]:
    """:mod:`benchmarks.floor` under uvicorn, on a database of its own: its address and pid."""
    from tests.server.harness import free_port

    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "benchmarks.floor:app", "--port", str(port),
             "--http", "httptools", "--no-access-log", "--log-level", "warning"],
            cwd=ROOT, env={**os.environ, "FLOOR_DB": f"{folder}/floor.db"},
        )  # fmt: skip
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_up(base, "/bets")
            yield base, process.pid
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


async def floor_rate(connections: int, seconds: float) -> dict[str, float]:
    """Bets a second the floor takes from ``connections`` clients betting again as soon as
    they are answered (the closed loop below, against :mod:`benchmarks.floor`), and its
    processor time per bet."""
    from benchmarks.floor import PLAYERS, token

    with floor_server() as (base, pid):
        clients = [Connection(base, token(n % PLAYERS + 1)) for n in range(connections)]
        stats = Stats()
        SERVER_PIDS.insert(0, pid)
        try:
            cpu = cpu_seconds()
            start = time.perf_counter()

            async def loop(client: Connection) -> None:
                while time.perf_counter() - start < seconds:
                    status, _ = await client.post("/bets", {"amount_cents": 100},
                                                  {"Idempotency-Key": uuid.uuid4().hex})  # fmt: skip
                    stats.accepted += status == 201

            await asyncio.gather(*(loop(c) for c in clients))
            took = time.perf_counter() - start
            per_bet = cpu_per_bet(cpu, stats.accepted)
        finally:
            SERVER_PIDS.remove(pid)
        for client in clients:
            await client.close()
    return {"accepted_per_second": round(stats.accepted / took, 1),
            "cpu_ms_per_bet": per_bet["server"]}  # fmt: skip


async def run(args: argparse.Namespace) -> dict[str, Any]:
    floor = (
        await floor_rate(args.players, args.closed_seconds)
        if args.floor and args.scenario == "tables"
        else None
    )
    with database(args.database) as url:
        made = crowd(url, args.players)
        with servers(url, args.processes, args.betting) as bases:
            players = await setup(bases, made, 1 if args.scenario == "popular" else args.tables)
            if args.scenario == "popular":
                return await popular(args, players)
            return await play(args, floor, players)


async def play(args: argparse.Namespace, floor: dict[str, float] | None,
               players: list[Player]) -> dict[str, Any]:  # fmt: skip
    """The open loop, the closed loop and the checks, with the casino up and its players."""
    limits = httpx.Limits(max_connections=4, max_keepalive_connections=4)
    for player in players:  # each player a client of their own, as each browser is
        player.http = httpx.AsyncClient(base_url=player.base, timeout=30, limits=limits,
                                        headers={"Authorization": f"Bearer {player.token}"})  # fmt: skip
        player.raw = Connection(player.base, player.token)
    stop = asyncio.Event()
    seen: dict[tuple[int, int, int], list[float]] = defaultdict(list)
    results: dict[str, Any] = {}
    open_stats, closed_stats = Stats(), Stats()
    watchers = [asyncio.create_task(watch(p, open_stats, seen, stop)) for p in players]
    await asyncio.sleep(1.0)
    # The generator's own cycle collections would stall its clock and count against the
    # server: collected rarely, as the server is.
    collect_rarely()

    # Open loop: bets offered at a fixed rate, whatever the answers — first for the
    # warm-up, then measured.
    tasks: set[asyncio.Task[None]] = set()

    async def offer(stats: Stats, phase: str, seconds: float, rate: float) -> float:
        start = time.perf_counter()
        interval = 1 / rate
        number = 0
        while (elapsed := time.perf_counter() - start) < seconds:
            due = number * interval
            if due > elapsed:
                await asyncio.sleep(due - elapsed)
            task = asyncio.create_task(bet(players[number % len(players)], stats, phase))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            stats.offered += 1
            number += 1
        return start

    warmup_stats = Stats()
    if args.warmup_seconds > 0:
        start = await offer(warmup_stats, "warm-up", args.warmup_seconds, args.rate)
        results["warm-up"] = summary(warmup_stats, time.perf_counter() - start)
    profiling = args.profile and args.profile_phase == "open"
    profiler = profile(args.profile, args.open_seconds) if profiling else None
    cpu = cpu_seconds()
    start = await offer(open_stats, "open", args.open_seconds, args.rate)
    await asyncio.gather(*tasks)
    results["open"] = summary(open_stats, time.perf_counter() - start)
    results["open"]["cpu_ms_per_bet"] = cpu_per_bet(cpu, open_stats.accepted)
    if profiler is not None:
        profiler.wait()
        results["profile"] = where_the_time_goes(args.profile)

    # Closed loop: every player bets again as soon as their last bet is answered.
    profiling = args.profile and args.profile_phase == "closed"
    profiler = profile(args.profile, args.closed_seconds) if profiling else None
    cpu = cpu_seconds()
    closed_start = time.perf_counter()

    async def loop(player: Player) -> None:
        while time.perf_counter() - closed_start < args.closed_seconds:
            closed_stats.offered += 1
            if await bet(player, closed_stats, "closed") == "too_many_bets":
                await asyncio.sleep(ROUND_WAIT)  # as a player does: bet again next round

    await asyncio.gather(*(loop(p) for p in players))
    results["closed"] = summary(closed_stats, time.perf_counter() - closed_start)
    results["closed"]["cpu_ms_per_bet"] = cpu_per_bet(cpu, closed_stats.accepted)
    if floor is not None:
        results["floor"] = floor
        results["closed"]["share_of_floor"] = round(
            results["closed"]["accepted_per_second"] / floor["accepted_per_second"], 3
        )
    if profiler is not None:
        profiler.wait()
        results["profile"] = where_the_time_goes(args.profile)

    # Open loop again, at half the capacity the closed loop measured: the latency of a
    # casino run with room to spare, as an operator sizes one.
    if args.half_seconds > 0 and closed_stats.accepted:
        rate = results["closed"]["accepted_per_second"] / 2
        half_stats = Stats()
        cpu = cpu_seconds()
        start = await offer(half_stats, "half", args.half_seconds, rate)
        await asyncio.gather(*tasks)
        results["half_capacity"] = {"rate_offered": round(rate, 1),
                                    **summary(half_stats, time.perf_counter() - start),
                                    "cpu_ms_per_bet": cpu_per_bet(cpu, half_stats.accepted)}  # fmt: skip
    await asyncio.sleep(args.betting + 2)  # every round still open runs out and settles
    stop.set()
    await asyncio.gather(*watchers, return_exceptions=True)
    results["fanout_ms"] = pct_ms(to_every_socket(seen, players))
    results["settle_ms"] = pct_ms(open_stats.settle)
    results["balances"] = await check_and_close(players)
    return results


def to_every_socket(seen: dict[tuple[int, int, int], list[float]],
                    players: list[Player]) -> list[float]:  # fmt: skip
    """How long each event took to reach the last socket at its table, of the events
    that reached every one."""
    sockets = Counter(p.table for p in players)
    return [max(delays) for (table, _, _), delays in seen.items()
            if len(delays) == sockets[table]]  # fmt: skip


async def check_and_close(players: list[Player]) -> dict[str, Any]:
    """:func:`check_balances`, then every player's connections closed."""
    balances = await check_balances(players)
    for player in players:
        assert player.http is not None and player.raw is not None
        await player.http.aclose()
        await player.raw.close()
    return balances


PER_ADDRESS = 16
"""Players of the popular table per loopback address: each holds a socket, a betting
connection and one for its checks, within the casino's 64 connections per address."""


async def popular(args: argparse.Namespace, players: list[Player]) -> dict[str, Any]:
    """One table, every player watching it and ``--bettors`` of them betting, their bets
    bunched into the last seconds of each betting window (as a live show's players bet
    while the timer runs out): how long an event takes to reach every socket, a bet to be
    answered, and a settlement to reach everybody after betting closes."""
    for number, player in enumerate(players):
        player.table = players[0].table
        player.source = (
            f"127.0.{1 + number // PER_ADDRESS // 250}.{1 + number // PER_ADDRESS % 250}"
        )
    bettors = players[: args.bettors]
    for player in bettors:
        player.raw = Connection(player.base, player.token, player.source)
    stats, stop = Stats(), asyncio.Event()
    seen: dict[tuple[int, int, int], list[float]] = defaultdict(list)
    connected: list[Player] = []
    watchers = []
    for start in range(0, len(players), 100):  # the crowd arrives a hundred at a time
        watchers += [asyncio.create_task(watch(p, stats, seen, stop, connected))
                     for p in players[start:start + 100]]  # fmt: skip
        while len(connected) < min(len(players), start + 100):
            await asyncio.sleep(0.05)
            failed = [w for w in watchers if w.done()]
            if failed:
                raise RuntimeError(f"a socket could not connect: {failed[0].exception()!r}")
    collect_rarely()
    seconds = args.rounds * (args.betting + 1.5)
    profiler = profile(args.profile, seconds) if args.profile else None
    cpu = cpu_seconds()
    started = time.perf_counter()
    for _ in range(args.rounds):
        first = bettors[0]
        await bet(first, stats, "first")  # the first bet starts the betting window's timer
        opened = time.perf_counter()
        await asyncio.sleep(max(0.0, args.betting - args.bunch - 0.5))
        spacing = args.bunch / max(1, len(bettors) - 1)
        tasks = []
        for player in bettors[1:]:
            tasks.append(asyncio.create_task(bet(player, stats, "bunched")))
            await asyncio.sleep(spacing)
        await asyncio.gather(*tasks)
        # the round is dealt and settled; the next opens (a reveal of no delay)
        await asyncio.sleep(max(0.0, args.betting - (time.perf_counter() - opened)) + 1.5)
    took = time.perf_counter() - started
    per_bet = cpu_per_bet(cpu, stats.accepted)
    await asyncio.sleep(2)
    stop.set()
    await asyncio.gather(*watchers, return_exceptions=True)
    reached = to_every_socket(seen, players)
    results = {
        "sockets": len(players),
        "bettors": len(bettors),
        "rounds": args.rounds,
        "bets": summary(stats, took),
        "cpu_ms_per_bet": per_bet,
        "events": len(seen),
        "events_to_every_socket": len(reached),
        "fanout_ms": pct_ms(reached),
        "settle_ms": pct_ms(stats.settle),
    }
    for player in bettors:
        player.http = httpx.AsyncClient(
            base_url=player.base, timeout=30, headers={"Authorization": f"Bearer {player.token}"},
            transport=httpx.AsyncHTTPTransport(local_address=player.source))  # fmt: skip
    if profiler is not None:
        profiler.wait()
        results["profile"] = where_the_time_goes(args.profile)
    results["balances"] = await check_and_close(bettors)
    return results


def profile(path: str, seconds: float) -> subprocess.Popen[bytes]:
    """Sample the first server process with py-spy for ``seconds``."""
    pid = SERVER_PIDS[0]
    spy = Path(sys.executable).with_name("py-spy")
    return subprocess.Popen([str(spy), "record", "--pid", str(pid), "--duration",
                             str(int(seconds)), "--rate", "200", "--format", "raw",
                             "--nonblocking", "--full-filenames", "--output", path],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip


PROFILE_BUCKETS = (
    ("password hashing (argon2)", ("argon2",)),
    ("database (SQLite/psycopg, SQLAlchemy)",
     ("sqlalchemy", "sqlite3", "psycopg", "baccara/server/sql.py")),
    ("WebSocket sends", ("websockets", "hub.py")),
    ("HTTP parsing and routing (uvicorn, starlette, FastAPI, pydantic)",
     ("uvicorn", "starlette", "fastapi", "pydantic", "h11", "httptools")),
    ("table engine", ("baccara/table",)),
    ("casino and ledger code", ("baccara/server",)),
)  # fmt: skip


IDLE = ("Runner.run ", "run_until_complete ", "BaseSelector", "select ")
"""Innermost frames of a sample taken while the event loop waited (py-spy's non-blocking
mode cannot tell an idle loop from a busy one)."""


def where_the_time_goes(path: str) -> dict[str, float]:
    """Share of the server's busy samples by the innermost layer they were in."""
    counts: Counter[str] = Counter()
    for line in Path(path).read_text(errors="replace").split("\n"):
        stack, _, number = line.rpartition(" ")
        if not number.isdigit():  # a sample py-spy could not read whole (it does not stop
            continue  # the server to sample it)
        frames = stack.split(";")
        if frames[-1].startswith(IDLE) or "threading.py" in frames[-1]:
            continue  # the loop waiting for the network, or a thread waiting for work
        bucket = "other (asyncio, threads, Python)"
        for name, marks in PROFILE_BUCKETS:
            if any(mark in frame for frame in frames[-6:] for mark in marks):
                bucket = name
                break
        counts[bucket] += int(number)
    total = sum(counts.values()) or 1
    return {name: round(100 * n / total, 1) for name, n in counts.most_common()}


def pct_ms(values: list[float]) -> dict[str, float]:
    return {
        "count": len(values),
        "p50": round(1000 * percentile(values, 50), 1),
        "p99": round(1000 * percentile(values, 99), 1),
        "max": round(1000 * max(values), 1) if values else float("nan"),
    }


def summary(stats: Stats, seconds: float) -> dict[str, Any]:
    return {
        "seconds": round(seconds, 1),
        "offered": stats.offered,
        "accepted": stats.accepted,
        "accepted_per_second": round(stats.accepted / seconds, 1),
        "place_ms": pct_ms(stats.place),
        "errors": dict(stats.errors),
        "server_errors": sum(n for k, n in stats.errors.items() if ": 5" in k),
    }


async def check_balances(players: list[Player]) -> dict[str, Any]:
    """Every balance = start + Σ (returned − staked) over the player's rounds, to the cent."""
    wrong: list[tuple[object, ...]] = []
    for player in players:
        assert player.http is not None
        me = (await player.http.get("/api/me")).json()
        rounds = (await player.http.get("/api/me/history", params={"limit": 100})).json()
        expected = START_CENTS
        for round_ in rounds:
            for wager in round_["wagers"]:
                expected += (wager["payout_cents"] or 0) - wager["amount_cents"]
        if len(rounds) == 100:
            wrong.append((player.name, "more than 100 rounds: not all were checked"))
        elif me["balance_cents"] != expected:
            wrong.append((player.name, me["balance_cents"], expected))
    return {"players": len(players), "wrong": wrong}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", choices=("tables", "popular"), default="tables",
                        help="tables: the players spread over --tables tables; popular: one "
                             "table, every player watching and --bettors of them betting")  # fmt: skip
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--bettors", type=int, default=500,
                        help="popular: the players who bet, each once a round")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=5, help="popular: rounds played")
    parser.add_argument("--bunch", type=float, default=2.0,
                        help="popular: the last seconds of betting the bets come in")  # fmt: skip
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rate", type=float, default=500)
    parser.add_argument("--half-seconds", type=float, default=20,
                        help="after the closed loop, bets offered at half the capacity it"
                             " measured for this long (0: not)")  # fmt: skip
    parser.add_argument("--warmup-seconds", type=float, default=10,
                        help="the open loop's rate offered this long first, reported apart")  # fmt: skip
    parser.add_argument("--open-seconds", type=float, default=30)
    parser.add_argument("--closed-seconds", type=float, default=20)
    parser.add_argument("--betting", type=float, default=2.0)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument(
        "--profile", metavar="FILE", help="sample the server with py-spy (raw stacks to FILE)"
    )
    parser.add_argument("--floor", action=argparse.BooleanOptionalAction, default=True,
                        help="measure benchmarks/floor.py first, with the closed loop's "
                             "clients and seconds, and give the casino's share of it")  # fmt: skip
    parser.add_argument("--profile-phase", choices=("open", "closed"), default="closed",
                        help="the phase to sample: the open loop or the closed one")  # fmt: skip
    args = parser.parse_args()
    results = asyncio.run(run(args))
    where = (f"one table, {args.bettors} of them betting" if args.scenario == "popular"
             else f"{args.tables} tables")  # fmt: skip
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores;"
          f" {args.players} players on {where}, {args.database},"
          f" {args.processes} server process(es)")  # fmt: skip
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
