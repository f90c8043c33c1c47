"""The casino's connections, against a real ``baccara serve``: nobody can starve it.

Each attack here held the server before (``baccara.server.http.transport``): a head of
any size was read whole, a slow head was waited for forever, and a thousand half-open
requests took every file descriptor of a process limited to 1,024. The server runs as
``make run`` starts it, under ``ulimit -n 1024`` (its soft limit); the attackers connect
from addresses of their own on the loopback network (127.0.0.0/8), so that the players
they would starve connect from others.
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import re
import resource
import select
import socket
import struct
import time
from collections.abc import Iterator
from typing import Any, NamedTuple

import httpx
import pytest

from baccara.server.http.guard import SECURED
from baccara.server.http.transport import (
    HEAD_SECONDS,
    MAX_CONNECTIONS_PER_ADDRESS,
    MAX_HEAD,
    MAX_REQUEST_LINE,
    RESERVED_DESCRIPTORS,
    Admission,
)
from baccara.server.settings import scrape_networks
from tests.server.harness import free_port, serve, wait_for
from tests.server.test_faults import raw_websocket, register

DESCRIPTORS = 1024
"""The server's ``ulimit -n``."""
CLOSED_TOO_BIG = re.compile(rb"\x88[\x02-\x7d]\x03\xf1")
"""A close frame from the server: code 1009, the message is too big."""
PROXY = "127.0.0.9"
"""A proxy of the server's ``--forwarded-allow-ips``."""


class Casino(NamedTuple):
    port: int
    pid: int
    log: pathlib.Path

    def events(self, name: str) -> list[dict[str, Any]]:
        """The events of the casino's JSON log called ``name``, so far."""
        lines = self.log.read_text(errors="replace").splitlines()
        events = [json.loads(line) for line in lines if line.startswith("{")]
        return [event for event in events if event.get("event") == name]


@pytest.fixture(scope="module")
def casino(
    tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: pathlib.Path
) -> Iterator[Casino]:
    """``baccara serve`` with at most 1,024 open files, its log in JSON lines."""
    folder = tmp_path_factory.mktemp("transport")
    database = folder / "casino.db"
    database.write_bytes(migrated_sqlite.read_bytes())
    port = free_port()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (DESCRIPTORS, hard))  # the server inherits it
    try:
        with serve(f"sqlite:///{database}", port, "--forwarded-allow-ips",
                   f"127.0.0.1, {PROXY}", "--log-format", "json",
                   log=folder / "casino.log") as process:  # fmt: skip
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
            yield Casino(port, process.pid, folder / "casino.log")
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def connect(port: int, source: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))


def exchange(port: int, request: bytes, source: str = "127.0.0.1") -> tuple[int, dict[str, str],
                                                                             bytes]:  # fmt: skip
    """Send ``request`` as it is and read the answer until the server closes."""
    with connect(port, source) as sock:
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            sock.sendall(request)
        answer = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                answer += chunk
    return parsed(answer)


def parsed(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    """An answer's status, headers (by lower-case name) and body."""
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value for name, value in (line.split(": ", 1) for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def assert_secured(headers: dict[str, str]) -> None:
    for name, value in SECURED:
        assert headers.get(name.decode()) == value.decode(), name


def client(port: int, source: str) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=source)
    return httpx.Client(base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=5)


def test_a_head_over_16_kib_is_refused_431_before_it_is_read_whole(casino: Casino) -> None:
    """A 64 MiB header was read whole and answered 200, stalling every table meanwhile."""
    port = casino.port
    status, headers, body = exchange(
        port, b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * MAX_HEAD + b"\r\n\r\n"
    )
    assert status == 431 and json.loads(body)["error"] == "headers_too_large"
    assert_secured(headers)
    many = b"".join(b"X-%d: a\r\n" % n for n in range(MAX_HEAD // 8))  # small, but many
    assert exchange(port, b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")[0] == 431
    within = b"GET /api/health HTTP/1.1\r\nHost: x\r\nCookie: " + b"a" * 12_000 + b"\r\n\r\n"
    assert exchange(port, within)[0] == 200  # a large cookie is still a request

    with connect(port, "127.0.0.1") as sock:  # 64 MiB offered: refused from its first KiBs
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent, started = 0, time.monotonic()
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            while sent < 64 * 2**20 and time.monotonic() - started < 10:
                sent += sock.send(b"a" * 65536)
        assert sent < 8 * 2**20, "the server read on"
    refused = {"status": 431, "error": "headers_too_large"}  # in the log, as a request is
    wait_for(lambda: any(refused.items() <= e.items() for e in casino.events("request refused")))


def test_a_url_over_8_kib_is_refused_414(casino: Casino) -> None:
    port = casino.port
    for size in (MAX_REQUEST_LINE + 1, 100_000):
        status, headers, body = exchange(
            port, b"GET /api/health?" + b"a" * size + b" HTTP/1.1\r\nHost: x\r\n\r\n"
        )
        assert status == 414 and json.loads(body)["error"] == "url_too_long", size
        assert_secured(headers)
    assert (
        exchange(port, b"GET /api/health?" + b"a" * 4000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")[0]
        == 200
    )


def test_what_is_not_http_is_answered_400_with_the_casinos_headers(
    casino: Casino,
) -> None:
    """uvicorn's own answer was plain text without the security headers."""
    port = casino.port
    for request in (b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"):
        status, headers, body = exchange(port, request)
        assert status == 400 and json.loads(body)["error"] == "http", request
        assert_secured(headers)


def test_a_websocket_handshake_refused_carries_the_casinos_headers(
    casino: Casino,
) -> None:
    """websockets' own refusal of a malformed upgrade (no key) had none of them."""
    port = casino.port
    status, headers, _ = exchange(
        port,
        b"GET /ws/tables/1 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n",
    )
    assert status == 400
    assert_secured(headers)


def test_a_client_slow_to_send_its_head_or_its_body_is_closed(casino: Casino) -> None:
    """One header line every 2 s was never closed, nor a body sent a byte every 2 s, nor
    a connection that says nothing."""
    port = casino.port
    silent = connect(port, "127.0.0.4")
    slow = connect(port, "127.0.0.4")
    body = connect(port, "127.0.0.4")
    started = time.monotonic()
    slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
    body.sendall(b"POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                 b"\r\nContent-Length: 100\r\n\r\n{")  # fmt: skip
    trickled = {slow: b"X-Slow: 1\r\n", body: b" "}
    answers = {slow: b"", body: b""}
    closed: dict[socket.socket, float] = {}
    try:
        while len(closed) < 2 and time.monotonic() - started < HEAD_SECONDS + 6:
            readable, _, _ = select.select([s for s in trickled if s not in closed], [], [], 2)
            for sock in readable:
                chunk = sock.recv(65536)
                answers[sock] += chunk
                if not chunk:
                    closed[sock] = time.monotonic() - started
            if time.monotonic() - started > HEAD_SECONDS - 2:
                continue  # near the deadline, a byte crossing the close would reset the answer
            for sock, piece in trickled.items():
                if sock not in closed and sock not in readable:
                    sock.sendall(piece)
        for sock, took in (slow, "head"), (body, "body"):
            assert answers[sock].startswith(b"HTTP/1.1 408 "), f"the slow {took}: never closed"
            assert closed[sock] < HEAD_SECONDS + 3, took
            assert json.loads(answers[sock].partition(b"\r\n\r\n")[2]) == {
                "error": "request_timeout",
                "detail": f"the request's {took} took over 10 s",
            }
            assert_secured(parsed(answers[sock])[1])
        silent.settimeout(5)
        assert silent.recv(65536).startswith(b"HTTP/1.1 408 ")
    finally:
        for sock in (slow, body, silent):
            sock.close()


def half_open(port: int, source: str, count: int) -> list[socket.socket]:
    """``count`` connections from ``source``, each with a request begun and never ended."""
    sockets = []
    for _ in range(count):
        sock = socket.socket()
        sock.bind((source, 0))
        sock.settimeout(10)
        sock.connect(("127.0.0.1", port))
        with contextlib.suppress(OSError):
            sock.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n")
        sockets.append(sock)
    return sockets


def open_ones(sockets: list[socket.socket]) -> int:
    """How many of ``sockets`` the server has not closed."""
    poll = select.poll()
    for sock in sockets:
        poll.register(sock, select.POLLIN)
    closed = 0
    for fd, _ in poll.poll(0):
        with contextlib.suppress(OSError):
            if sock_of(sockets, fd).recv(1, socket.MSG_PEEK):
                continue  # an answer (none is expected before the head is done)
        closed += 1
    return len(sockets) - closed


def sock_of(sockets: list[socket.socket], fd: int) -> socket.socket:
    return next(sock for sock in sockets if sock.fileno() == fd)


def close_all(sockets: list[socket.socket]) -> None:
    for sock in sockets:
        sock.close()


def test_a_thousand_half_open_requests_from_one_address_leave_the_casino_to_everyone_else(
    casino: Casino,
) -> None:
    """With ``ulimit -n 1024`` they took every file descriptor, and every player was
    refused. A trusted proxy is spared the cap per address (every player behind it arrives
    from its address; the proxy caps them itself)."""
    port, pid = casino.port, casino.pid
    attack = half_open(port, "127.0.0.2", 1000)
    behind = half_open(port, PROXY, MAX_CONNECTIONS_PER_ADDRESS + 36)
    try:
        kept = wait_for(lambda: (n := open_ones(attack)) <= MAX_CONNECTIONS_PER_ADDRESS and n,
                        timeout=HEAD_SECONDS - 2)  # fmt: skip
        assert kept == MAX_CONNECTIONS_PER_ADDRESS
        assert open_ones(behind) == len(behind)
        with client(port, "127.0.0.3") as player, client(port, PROXY) as proxy:
            assert player.get("/api/tables").status_code == 200
            assert proxy.get("/api/tables").status_code == 200
        assert len(os.listdir(f"/proc/{pid}/fd")) < DESCRIPTORS - RESERVED_DESCRIPTORS / 2
        (said, *_) = wait_for(lambda: casino.events("connections refused"))  # one line, not 936
        assert said["per_address"] == MAX_CONNECTIONS_PER_ADDRESS and said["refused"] >= 1
        assert len(casino.events("connections refused")) < 10
    finally:
        close_all(attack + behind)


def test_connections_in_all_are_capped_below_the_file_descriptors(
    casino: Casino,
) -> None:
    """Many addresses, each under its own cap, may not take every descriptor either; and
    once they go, the casino answers at once."""
    port, pid = casino.port, casino.pid
    total = DESCRIPTORS - RESERVED_DESCRIPTORS
    attack: list[socket.socket] = []
    try:
        for n in range(1, 21):
            attack += half_open(port, f"127.0.1.{n}", MAX_CONNECTIONS_PER_ADDRESS - 4)
        time.sleep(1)
        kept = open_ones(attack)
        assert total - 16 <= kept <= total, kept
        assert len(os.listdir(f"/proc/{pid}/fd")) < DESCRIPTORS
    finally:
        close_all(attack)
    with client(port, "127.0.0.5") as player:
        wait_for(lambda: player.get("/api/tables").status_code == 200, timeout=5)


def test_a_websocket_frame_over_4_kib_is_refused_from_its_header(casino: Casino) -> None:
    """A 16 MiB frame was buffered whole; now the socket is closed 1009 (too big) once
    the frame's header says its length, its payload never read."""
    port = casino.port
    _, token = register(f"http://127.0.0.1:{port}", ())
    sock = raw_websocket(port, 1, token)
    try:
        sock.settimeout(5)
        size = 16 * 2**20
        mask = os.urandom(4)
        sock.sendall(struct.pack("!BBQ", 0x81, 0x80 | 127, size) + mask + b"a" * 65536)
        started, received = time.monotonic(), b""
        with contextlib.suppress(ConnectionResetError):
            while (chunk := sock.recv(65536)) and time.monotonic() - started < 5:
                received += chunk
                if CLOSED_TOO_BIG.search(received):
                    break
        assert CLOSED_TOO_BIG.search(received), received[-40:]
    finally:
        sock.close()


def test_connections_are_counted_by_address_an_ipv6_clients_64_and_not_for_a_proxy() -> None:
    """One IPv6 subscriber gets a /64 whole: each of its addresses is not a new client."""
    admission = Admission(total=5, per_address=2, exempt=scrape_networks("10.9.0.0/16"))
    assert admission.admit("2001:db8:1:2::1") == admission.admit("2001:db8:1:2:ffff::9")
    assert admission.admit("2001:db8:1:2::77") is None  # the /64's third
    assert admission.admit("::ffff:192.0.2.1") == "192.0.2.1"  # dual-stack, written as IPv6
    assert admission.admit("10.9.3.4") == admission.admit("10.9.3.4") == ""  # the proxy's
    assert admission.admit("10.9.3.4") is None  # five open: the total holds for the proxy too
    assert (admission.open, admission.refused) == (5, 2)
    admission.release("2001:db8:1:2::/64")
    admission.release("")
    assert admission.open == 3 and admission.by_address == {
        "2001:db8:1:2::/64": 1, "192.0.2.1": 1}  # fmt: skip
    assert admission.admit("192.0.2.1") == "192.0.2.1"
