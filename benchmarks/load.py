"""Load: N players over HTTP and WebSocket against a casino this script starts.

    python benchmarks/load.py [--players 200] [--tables 20] [--rate 500]
                              [--open-seconds 30] [--closed-seconds 20]
                              [--database sqlite|postgresql] [--processes 1]

An admin opens the tables (Punto Banco, electronic, reveal delay 0); every player
registers, signs in, opens the WebSocket of their table, and bets on it:

* **open loop** — bets are offered at a fixed rate (``--rate`` per second, spread over
  the players) whatever the answers: latency at a known load;
* **closed loop** — every player bets again as soon as their last bet is answered:
  capacity.

It reports accepted bets per second, p50/p99/max latency of placing a bet, of settling
a round (from the moment its betting timer ran out to its settlement reaching the
players) and of an event reaching every WebSocket at its table, the errors by kind,
and, once every round is over, checks that each player's balance is the starting
balance plus what the round records say each of their bets returned, to the cent.

With ``--database postgresql`` it starts a private PostgreSQL cluster (as the tests
do); with ``--processes 2`` it starts two server processes on that database, players
split between them (one table's events reach the other process by LISTEN/NOTIFY).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PASSWORD = "load test password"
START_CENTS = 100_000
BETS = ("banker", "player", "tie")


@dataclass
class Stats:
    place: list[float] = field(default_factory=list)
    settle: list[float] = field(default_factory=list)
    fanout: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    accepted: int = 0
    offered: int = 0


@dataclass
class Player:
    name: str
    token: str
    table: int
    base: str
    http: httpx.AsyncClient | None = None
    busy: bool = False


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
    try:
        yield cluster.new_database()
    finally:
        cluster.stop()


@contextlib.contextmanager
def servers(url: str, count: int, betting: float) -> Iterator[list[str]]:
    from tests.server.harness import free_port

    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run([sys.executable, "-m", "baccara", "user", "add", "boss", "--role", "admin"],
                   input=PASSWORD, text=True, env=env, check=True, capture_output=True)  # fmt: skip
    processes, bases = [], []
    try:
        for _ in range(count):
            port = free_port()
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "baccara", "serve", "--port", str(port),
                 "--betting-seconds", str(betting), "--reveal-delay-ms", "0"],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))  # fmt: skip
            bases.append(f"http://127.0.0.1:{port}")
            _wait_up(bases[-1])
        yield bases
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
            if process.stderr:
                tail = process.stderr.read().decode()[-2000:]
                if process.returncode not in (0, -15) and tail:
                    print(tail, file=sys.stderr)
                process.stderr.close()


def _wait_up(base: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the casino at {base} did not start")


async def setup(bases: list[str], players: int, tables: int) -> list[Player]:
    async with httpx.AsyncClient(timeout=30) as client:
        token = (await client.post(f"{bases[0]}/api/auth/login",
                                   json={"username": "boss", "password": PASSWORD})).json()["token"]  # fmt: skip
        admin = {"Authorization": f"Bearer {token}"}
        table_ids = []
        for _ in range(tables):
            made = await client.post(f"{bases[0]}/api/tables", headers=admin, json={
                "game": "punto-banco", "min_bet_cents": 100, "max_bet_cents": 100_000})  # fmt: skip
            table_ids.append(made.json()["id"])

        async def one(number: int) -> Player:
            base = bases[number % len(bases)]
            name = f"load{number}-{uuid.uuid4().hex[:6]}"
            await client.post(f"{base}/api/auth/register",
                              json={"username": name, "password": PASSWORD})  # fmt: skip
            answer = await client.post(f"{base}/api/auth/login",
                                       json={"username": name, "password": PASSWORD})  # fmt: skip
            return Player(name, answer.json()["token"], table_ids[number % tables], base)

        made_players: list[Player] = []
        for start in range(0, players, 20):
            made_players += await asyncio.gather(
                *(one(n) for n in range(start, min(players, start + 20)))
            )
        return made_players


async def bet(player: Player, stats: Stats, phase: str) -> None:
    assert player.http is not None
    body = {"bet": random.choice(BETS), "amount_cents": random.choice((100, 200, 500))}
    start = time.perf_counter()
    try:
        answer = await player.http.post(f"/api/tables/{player.table}/bets", json=body,
                                        headers={"Idempotency-Key": uuid.uuid4().hex})  # fmt: skip
    except httpx.HTTPError as error:
        stats.errors[f"{phase}: {type(error).__name__}"] += 1
        return
    took = time.perf_counter() - start
    if answer.status_code == 201:
        stats.place.append(took)
        stats.accepted += 1
    else:
        kind = answer.json().get("error", "?") if answer.headers.get("content-type", "").startswith(
            "application/json") else "?"  # fmt: skip
        stats.errors[f"{phase}: {answer.status_code} {kind}"] += 1


async def watch(player: Player, stats: Stats, seen: dict[tuple[int, int, int], list[float]],
                stop: asyncio.Event) -> None:  # fmt: skip
    """Record when each event reaches this socket; the settlement delay per round."""
    url = f"{player.base.replace('http', 'ws')}/ws/tables/{player.table}?token={player.token}"
    async with websockets.connect(url, max_size=2**24) as socket:
        first_bet: dict[int, float] = {}
        betting = 0.0
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=0.5)
            except TimeoutError:
                continue
            now = time.time()
            message = json.loads(raw)
            if message.get("type") != "events":
                continue
            round_id = message["round_id"]
            for event in message["events"]:
                seen[(player.table, round_id, event["seq"])].append(now - event["at"])
                if event["kind"] == "round-opened":
                    betting = event["betting_seconds"]
                if event["kind"] == "bet-placed":
                    first_bet.setdefault(round_id, event["at"])
                if event["kind"] == "round-settled" and round_id in first_bet:
                    stats.settle.append(now - (first_bet[round_id] + betting))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with database(args.database) as url, servers(url, args.processes, args.betting) as bases:
        players = await setup(bases, args.players, args.tables)
        limits = httpx.Limits(max_connections=4, max_keepalive_connections=4)
        for player in players:  # each player a client of their own, as each browser is
            player.http = httpx.AsyncClient(base_url=player.base, timeout=30, limits=limits,
                                            headers={"Authorization": f"Bearer {player.token}"})  # fmt: skip
        stop = asyncio.Event()
        seen: dict[tuple[int, int, int], list[float]] = defaultdict(list)
        results: dict[str, Any] = {}
        open_stats, closed_stats = Stats(), Stats()
        watchers = [asyncio.create_task(watch(p, open_stats, seen, stop)) for p in players]
        await asyncio.sleep(1.0)

        # Open loop: bets offered at a fixed rate, whatever the answers.
        tasks: set[asyncio.Task[None]] = set()
        start = time.perf_counter()
        interval = 1 / args.rate
        number = 0
        while (elapsed := time.perf_counter() - start) < args.open_seconds:
            due = number * interval
            if due > elapsed:
                await asyncio.sleep(due - elapsed)
            task = asyncio.create_task(bet(players[number % len(players)], open_stats, "open"))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            open_stats.offered += 1
            number += 1
        await asyncio.gather(*tasks)
        results["open"] = summary(open_stats, time.perf_counter() - start)

        # Closed loop: every player bets again as soon as their last bet is answered.
        closed_start = time.perf_counter()

        async def loop(player: Player) -> None:
            while time.perf_counter() - closed_start < args.closed_seconds:
                closed_stats.offered += 1
                await bet(player, closed_stats, "closed")

        await asyncio.gather(*(loop(p) for p in players))
        results["closed"] = summary(closed_stats, time.perf_counter() - closed_start)
        await asyncio.sleep(args.betting + 2)  # every round still open runs out and settles
        stop.set()
        await asyncio.gather(*watchers, return_exceptions=True)
        per_event: dict[tuple[int, int, int], float] = {}
        table_sockets = Counter(p.table for p in players)
        for key, delays in seen.items():
            if len(delays) == table_sockets[key[0]]:  # reached every socket at the table
                per_event[key] = max(delays)
        results["fanout_ms"] = pct_ms(list(per_event.values()))
        results["settle_ms"] = pct_ms(open_stats.settle)
        results["balances"] = await check_balances(players)
        for player in players:
            assert player.http is not None
            await player.http.aclose()
        return results


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
    wrong = []
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
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rate", type=float, default=500)
    parser.add_argument("--open-seconds", type=float, default=30)
    parser.add_argument("--closed-seconds", type=float, default=20)
    parser.add_argument("--betting", type=float, default=2.0)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args()
    results = asyncio.run(run(args))
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores;"
          f" {args.players} players on {args.tables} tables, {args.database},"
          f" {args.processes} server process(es)")  # fmt: skip
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
