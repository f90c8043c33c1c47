"""The bus between the casino's processes: PostgreSQL's LISTEN/NOTIFY against Redis
pub/sub and NATS, each carrying what the casino's bus carries.

    python benchmarks/bus.py [--rate 2000] [--seconds 10] [--size 300]

One process posts table messages (``--size`` bytes of JSON each, like a table's
notification: which round's events are new, the balances that changed) at ``--rate`` a
second for ``--seconds``; another process, subscribed, receives them. As the casino's
bus does (``baccara.server.cluster.notify``), what is posted goes out every 10 ms,
packed into as few payloads as fit in 7,000 bytes — and, for comparison, each message
alone. Three carriers, each started here from Debian's packages:

* **postgresql**: ``pg_notify`` in a transaction of the casino's own database code (the
  bus's ``_notify``), received on a psycopg connection that listens;
* **redis**: ``PUBLISH`` and ``SUBSCRIBE`` (redis-server, redis-py's asyncio client);
* **nats**: core NATS publish and subscribe (nats-server, nats-py).

It reports the latency from posting to receiving (p50, p99, max) and the processor time
per thousand messages of the publisher, the subscriber and the broker (PostgreSQL's
postmaster and the backends it started; redis-server; nats-server).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from baccara.server.cluster.notify import NOTIFY_SECONDS, _notify, _pack
from benchmarks.load import family_ticks, percentile

CHANNEL = "baccara_tables"
BATCHING = ("batched", "alone")


def message(number: int, size: int) -> str:
    """A table message of about ``size`` bytes, stamped with when it was posted."""
    head = {"n": "bench", "t": number % 20 + 1, "s": [[number, 0]], "at": time.monotonic()}
    text = json.dumps(head, separators=(",", ":"))
    return json.dumps({**head, "p": "x" * max(size - len(text) - 7, 0)}, separators=(",", ":"))


# --- the brokers ------------------------------------------------------------------------


@contextlib.contextmanager
def broker(kind: str) -> Iterator[tuple[str, int]]:
    """The broker of ``kind``, started: its address and its process id."""
    from tests.server.harness import free_port

    if kind == "postgresql":
        from tests.server.postgres import start_cluster

        cluster = start_cluster()
        try:
            pid = int((cluster.folder / "data" / "postmaster.pid").read_text().split()[0])
            yield cluster.new_database(), pid
        finally:
            cluster.stop()
        return
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        if kind == "redis":
            command = [_needed("redis-server"), "--port", str(port), "--bind", "127.0.0.1",
                       "--save", "", "--appendonly", "no", "--dir", folder]  # fmt: skip
            url = f"redis://127.0.0.1:{port}"
        else:
            command = [_needed("nats-server"), "-a", "127.0.0.1", "-p", str(port)]
            url = f"nats://127.0.0.1:{port}"
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_port(port)
            yield url, process.pid
        finally:
            process.terminate()
            process.wait(timeout=20)


def _needed(program: str) -> str:
    found = shutil.which(program)
    if found is None:
        raise SystemExit(f"{program} is missing: apt-get install {program} (make bench does)")
    return found


def _wait_port(port: int) -> None:
    import socket

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing answers on port {port}")


# --- publishing ---------------------------------------------------------------------------

Send = Callable[[list[str]], Awaitable[None]]


@contextlib.asynccontextmanager
async def publisher(kind: str, url: str) -> AsyncIterator[Send]:
    """A function sending payloads, in order, as the casino's bus would on ``kind``."""
    if kind == "postgresql":
        from baccara.server.db.database import Database

        database = Database(url)

        def in_transaction(payloads: list[str]) -> None:
            with database.write() as session:
                _notify(session, payloads)

        async def send_pg(payloads: list[str]) -> None:
            await asyncio.to_thread(in_transaction, payloads)

        try:
            yield send_pg
        finally:
            database.dispose()
    elif kind == "redis":
        import redis.asyncio

        client = redis.asyncio.Redis.from_url(url)

        async def send_redis(payloads: list[str]) -> None:
            async with client.pipeline(transaction=False) as pipe:
                for payload in payloads:
                    pipe.publish(CHANNEL, payload)
                await pipe.execute()

        try:
            yield send_redis
        finally:
            await client.aclose()
    else:
        import nats

        connection = await nats.connect(url)

        async def send_nats(payloads: list[str]) -> None:
            for payload in payloads:
                await connection.publish(CHANNEL, payload.encode())
            await connection.flush()

        try:
            yield send_nats
        finally:
            await connection.drain()


async def publish(kind: str, url: str, rate: float, seconds: float, size: int,
                  batching: str) -> int:  # fmt: skip
    """Post messages at ``rate`` for ``seconds``: sent every tick packed (``batched``) or
    each at once (``alone``, one send a message). Returns how many were posted."""
    async with publisher(kind, url) as send:
        posted: list[str] = []
        count = 0
        start = time.monotonic()
        sending: asyncio.Task[None] | None = None

        async def sender() -> None:  # as the bus's: every tick, while anything waits
            nonlocal posted
            while posted:
                await asyncio.sleep(NOTIFY_SECONDS)
                batch, posted = posted, []
                await send(_pack(batch))

        total = int(rate * seconds)
        while count < total:
            due, elapsed = count / rate, time.monotonic() - start
            if due > elapsed:
                await asyncio.sleep(due - elapsed)
            text = message(count, size)
            count += 1
            if batching == "alone":
                await send([text])
                continue
            posted.append(text)
            if sending is None or sending.done():
                sending = asyncio.create_task(sender())
        if sending is not None:
            await sending
    return count


# --- subscribing -------------------------------------------------------------------------


async def subscribe(kind: str, url: str, expected: int, ready: Path) -> dict[str, Any]:
    """Receive ``expected`` messages (or stop 10 s after the last): their latencies."""
    latencies: list[float] = []
    done = asyncio.Event()

    def heard(payload: str | bytes) -> None:
        now = time.monotonic()
        parsed = json.loads(payload)
        for item in parsed if isinstance(parsed, list) else [parsed]:
            latencies.append(now - item["at"])
        if len(latencies) >= expected:
            done.set()

    async def until_done() -> None:
        seen = -1
        while not done.is_set() and seen != len(latencies):
            seen = len(latencies)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), timeout=10)

    start_cpu = time.process_time()
    if kind == "postgresql":
        import psycopg

        dsn = url.replace("postgresql+psycopg://", "postgresql://")
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as connection:
            await connection.execute(f"LISTEN {CHANNEL}")
            ready.touch()

            async def read() -> None:
                async for note in connection.notifies():
                    heard(note.payload)

            reader = asyncio.create_task(read())
            await until_done()
            reader.cancel()
    elif kind == "redis":
        import redis.asyncio

        client = redis.asyncio.Redis.from_url(url)
        pubsub = client.pubsub()
        await pubsub.subscribe(CHANNEL)
        ready.touch()

        async def read_redis() -> None:
            async for item in pubsub.listen():
                if item["type"] == "message":
                    heard(item["data"])

        reader = asyncio.create_task(read_redis())
        await until_done()
        reader.cancel()
        await pubsub.aclose()
        await client.aclose()
    else:
        import nats

        connection = await nats.connect(url)

        async def on_message(msg: Any) -> None:
            heard(msg.data)

        await connection.subscribe(CHANNEL, cb=on_message)
        await connection.flush()
        ready.touch()
        await until_done()
        await connection.drain()
    return {"received": len(latencies), "latencies": latencies,
            "cpu": time.process_time() - start_cpu}  # fmt: skip


# --- one comparison ------------------------------------------------------------------------


def measure(kind: str, batching: str, args: argparse.Namespace) -> dict[str, Any]:
    with broker(kind) as (url, broker_pid), tempfile.TemporaryDirectory() as folder:
        ready, out = Path(folder) / "ready", Path(folder) / "heard.json"
        expected = int(args.rate * args.seconds)
        listener = subprocess.Popen([sys.executable, __file__, "--subscribe", kind, "--url", url,
                                     "--expected", str(expected), "--out", str(out),
                                     "--ready", str(ready)])  # fmt: skip
        deadline = time.monotonic() + 30
        while not ready.exists():
            if time.monotonic() > deadline or listener.poll() is not None:
                raise RuntimeError(f"the {kind} subscriber did not start")
            time.sleep(0.05)
        tick = os.sysconf("SC_CLK_TCK")
        broker_before, cpu_before = family_ticks(broker_pid), time.process_time()
        posted = asyncio.run(publish(kind, url, args.rate, args.seconds, args.size, batching))
        publisher_cpu = time.process_time() - cpu_before
        listener.wait(timeout=60)
        broker_cpu = (family_ticks(broker_pid) - broker_before) / tick
        heard = json.loads(out.read_text())
    latencies = heard["latencies"]
    per_thousand = 1000 / max(posted, 1) * 1000  # ms of processor time per 1,000 messages
    return {
        "posted": posted,
        "received": heard["received"],
        "latency_ms": {"p50": round(1000 * percentile(latencies, 50), 2),
                       "p99": round(1000 * percentile(latencies, 99), 2),
                       "max": round(1000 * max(latencies, default=float("nan")), 2)},
        "cpu_ms_per_1000": {"publisher": round(publisher_cpu * per_thousand, 1),
                            "subscriber": round(heard["cpu"] * per_thousand, 1),
                            "broker": round(broker_cpu * per_thousand, 1)},
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=2000)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--size", type=int, default=300)
    parser.add_argument("--kinds", default="postgresql,redis,nats")
    parser.add_argument("--subscribe", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--expected", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--ready", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.subscribe:
        heard = asyncio.run(subscribe(args.subscribe, args.url, args.expected, Path(args.ready)))
        Path(args.out).write_text(json.dumps(heard))
        return
    results: dict[str, Any] = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "rate": args.rate, "seconds": args.seconds, "size": args.size,
    }  # fmt: skip
    for kind in args.kinds.split(","):
        for batching in BATCHING:
            results[f"{kind} {batching}"] = measure(kind, batching, args)
            print(f"{kind} {batching}: {json.dumps(results[f'{kind} {batching}'])}",
                  file=sys.stderr)  # fmt: skip
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
