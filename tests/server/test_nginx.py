"""The casino behind nginx from Debian, configured as ``deploy/nginx/baccara.conf`` ships.

nginx runs in the foreground on a free port, its configuration the shipped one with
the two ports changed, in front of a real ``baccara serve``. A player signs up, bets and
follows a table through it; the casino sees the player's own address (the metrics are
read without a token only from a scrape address: the player's, never nginx's), and an
``X-Forwarded-For`` sent straight to the casino from an address that is not a proxy is
ignored, as is one a client sends to nginx.
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import re
import shutil
import subprocess
from collections.abc import Iterator, Sequence

import httpx
import pytest
from websockets.sync.client import connect

from baccara.server.http.guard import SECURED
from tests.server.harness import free_port, serve, wait_for

SHIPPED = pathlib.Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "baccara.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PLAYER, OTHER = "127.0.0.5", "127.0.0.6"
"""A player whose address may scrape the metrics, and one whose may not."""
PASSWORD = "correct horse battery"


def site(listen: int, casinos: Sequence[int], *, limits: bool = True) -> str:
    """The shipped file, listening on ``listen``, with ``casinos`` (ports) as the servers
    of both its upstreams, in order; without its per-client ``limits`` for a load test,
    whose players come from a few addresses."""
    shipped = SHIPPED.read_text()
    servers = "".join(f"    server 127.0.0.1:{port};\n" for port in casinos)
    text = shipped.replace("    server 127.0.0.1:8000;\n", servers)
    assert text.count(servers) == 2  # the round robin and the hashed upstream
    text = text.replace("listen 80;", f"listen 127.0.0.1:{listen};")
    text = text.replace("    listen [::]:80;\n", "")  # the test's clients are all IPv4
    if not limits:
        text = re.sub(r"^    (limit_conn|limit_req) .*\n", "", text, flags=re.M)
    return text


def configuration(folder: pathlib.Path, text: str, *, connections: int = 512) -> pathlib.Path:
    """nginx's whole configuration: the site ``text``, inside what a foreground nginx of
    the test's own needs (its files in ``folder``)."""
    (folder / "baccara.conf").write_text(text)
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main = folder / "nginx.conf"
    main.write_text(
        f"daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'} warn;\n"
        + ("user root;\n" if os.geteuid() == 0 else "")
        + f"events {{ worker_connections {connections}; }}\n"
        f"http {{\n    access_log off;\n{temp}\n    include {folder / 'baccara.conf'};\n}}\n"
    )
    return main


@contextlib.contextmanager
def running(
    folder: pathlib.Path, main: pathlib.Path, port: int, path: str = "/api/health"
) -> Iterator[subprocess.Popen[bytes]]:
    """nginx in the foreground on ``main``, once ``port`` answers ``path``."""
    checked = subprocess.run([NGINX, "-t", "-p", str(folder), "-c", str(main), "-e",
                              str(folder / "error.log")], capture_output=True)  # fmt: skip
    assert checked.returncode == 0, checked.stderr.decode()
    process = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(main), "-e",
                                str(folder / "error.log")])  # fmt: skip
    try:
        wait_for(lambda: up(port, path) or process.poll() is not None, timeout=20)
        assert process.poll() is None, (folder / "error.log").read_text()
        yield process
    finally:
        process.terminate()
        process.wait(timeout=20)


@contextlib.contextmanager
def nginx(folder: pathlib.Path, listen: int, *casinos: int) -> Iterator[subprocess.Popen[bytes]]:
    """The shipped configuration in front of the casino processes on ``casinos``."""
    with running(folder, configuration(folder, site(listen, casinos)), listen) as process:
        yield process


def up(port: int, path: str = "/api/health") -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}{path}", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def client(port: int, source: str) -> httpx.Client:
    return httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10,
                        transport=httpx.HTTPTransport(local_address=source))  # fmt: skip


@pytest.fixture
def proxied(
    tmp_path: pathlib.Path, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[int, int]]:
    """The ports of nginx and of the casino behind it."""
    monkeypatch.setenv("BACCARA_METRICS_SCRAPE_ADDRESSES", PLAYER)
    casino, listen = free_port(), free_port()
    with (
        serve(sqlite_url, casino, "--forwarded-allow-ips", "127.0.0.1",
              log=tmp_path / "casino.log"),
        nginx(tmp_path, listen, casino),
    ):  # fmt: skip
        yield listen, casino


def test_a_player_plays_through_nginx_and_the_casino_sees_their_address(
    proxied: tuple[int, int],
) -> None:
    listen, casino = proxied
    with client(listen, PLAYER) as player:
        name = {"username": "nginxplayer", "password": PASSWORD}
        assert player.post("/api/auth/register", json=name).status_code == 201
        token = player.post("/api/auth/login", json=name).json()["token"]
        player.headers["Authorization"] = f"Bearer {token}"
        tables = player.get("/api/tables").json()
        table = next(t for t in tables if t["game"] == "punto-banco" and t["mode"] != "live")
        bet = player.post(f"/api/tables/{table['id']}/bets", json={"bet": "banker",
                          "amount_cents": 1000}, headers={"Idempotency-Key": "nginx-1"})  # fmt: skip
        assert bet.status_code in (200, 201), bet.text
        ticket = player.post("/api/ws-ticket").json()["ticket"]
        with connect(f"ws://127.0.0.1:{listen}/ws/tables/{table['id']}?ticket={ticket}",
                     source_address=(PLAYER, 0)) as socket:  # fmt: skip
            first = json.loads(socket.recv(timeout=10))
            assert first["type"] == "snapshot", first
            socket.send("ping")
            seen: list[str] = []
            while "pong" not in seen:  # the table's news, then the answer to the ping
                seen.append(json.loads(socket.recv(timeout=10))["type"])
        # The casino sees the player's address, not nginx's, through X-Forwarded-For.
        assert player.get("/metrics", headers={"Authorization": ""}).status_code == 200
        answer = player.get("/api/health")
        for header, value in SECURED:  # the casino's own, once each
            assert answer.headers.get_list(header.decode()) == [value.decode()]

    with client(listen, OTHER) as other:  # another address: no metrics without a token
        assert other.get("/metrics").status_code == 401
        claimed = other.get("/metrics", headers={"X-Forwarded-For": PLAYER})
        assert claimed.status_code == 401  # nginx replaces what a client claims
    with client(casino, OTHER) as straight:  # an address that is not a proxy: not believed
        assert straight.get("/metrics", headers={"X-Forwarded-For": PLAYER}).status_code == 401
    with client(casino, "127.0.0.1") as proxy:  # the proxy is
        assert proxy.get("/metrics", headers={"X-Forwarded-For": PLAYER}).status_code == 200


def test_nginx_refuses_what_the_casino_would_with_the_casinos_headers(
    proxied: tuple[int, int],
) -> None:
    listen, _ = proxied
    with client(listen, OTHER) as other:
        too_long = other.get("/api/health?" + "a" * 9000)
        assert too_long.status_code == 414
        too_large = other.post("/api/auth/login", content=b"{" + b" " * 70_000 + b"}",
                               headers={"Content-Type": "application/json"})  # fmt: skip
        assert too_large.status_code == 413
        for answer in (too_long, too_large):
            assert answer.headers["x-frame-options"] == "DENY"
            assert answer.headers["x-content-type-options"] == "nosniff"
            assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        statuses = [other.get("/api/health").status_code for _ in range(150)]
        assert statuses[0] == 200 and 429 in statuses  # 20 a second, bursts of 40
