"""A cancelled loss limit is one rule, and the connections refused are all logged.

A loss-limit row set while an earlier one still waited cancels it (10.00, then 500.00
waiting its day, then 1.00: the 500.00 never applies). The bet's own statements and the
player's page both read that rule; generated sequences of changes show them agreeing
with it, and with each other, at every moment.

Connections refused over a cap are one log event every ``REPORT_EVERY`` seconds at most;
the refusals of a flood's last seconds are logged when those seconds have run, not only
if another connection comes after them.
"""

from __future__ import annotations

import ipaddress
import itertools
import json
import pathlib
import re
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from baccara.server.db import store
from baccara.server.db.models import User
from baccara.server.domain import responsible
from baccara.server.errors import LossLimitReached
from baccara.server.http.transport import MAX_CONNECTIONS_PER_ADDRESS, REPORT_EVERY
from tests.server.conftest import settings_for
from tests.server.harness import Server, free_port, in_process, serve, wait_for
from tests.server.test_nginx import SHIPPED, configuration, running
from tests.server.test_transport import close_all, half_open, open_ones

HOUR = 3600.0


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    url = f"sqlite:///{tmp_path_factory.mktemp('limits') / 'casino.db'}"
    with in_process(settings_for(url)) as started:
        yield started


@dataclass(frozen=True)
class Row:
    set_at: float
    effective_at: float
    cents: int | None


def _expected(rows: list[Row], now: float) -> tuple[int | None, int]:
    """The limit in force at ``now`` and how many rows apply by then, as
    :func:`responsible.set_limit` describes the rule: a row replaced by a later one set
    before it took effect never applies."""
    kept = [row for number, row in enumerate(rows)
            if not any(later.set_at < row.effective_at for later in rows[number + 1:])]  # fmt: skip
    applied = [row for row in kept if row.effective_at <= now]
    applied.sort(key=lambda row: row.effective_at)  # stable: the later choice last
    return (applied[-1].cents if applied else None), len(applied)


CHANGES = st.lists(
    st.tuples(st.sampled_from([0.0, 60.0, HOUR, 23 * HOUR, 25 * HOUR]),
              st.one_of(st.none(), st.integers(0, 20).map(lambda n: n * 500))),
    min_size=1, max_size=6,
)  # fmt: skip


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(changes=CHANGES, looks=st.lists(st.sampled_from([0.0, HOUR, 24 * HOUR, 49 * HOUR]),
                                       min_size=1, max_size=3))  # fmt: skip
def test_the_bet_and_the_page_read_a_cancelled_limit_as_one_rule(
    shared: Server, changes: list[tuple[float, int | None]], looks: list[float]
) -> None:
    player = shared.player()
    casino = shared.casino
    with casino.db.read() as session:
        user_id = session.scalars(select(User.id).where(User.username == player.name)).one()
    now, rows = 1_000_000.0, []
    with casino.db.write() as session:
        for gap, cents in changes:
            now += gap
            change = responsible.set_limit(session, user_id, "day", cents, now, confirm=True)
            rows.append(Row(now, change.limit.effective_at, cents))
    for look in looks:
        at = now + look
        in_force, applied = _expected(rows, at)
        with casino.db.write() as session:
            assert responsible.limit_in_force(session, user_id, "day", at) == in_force
            bettor = responsible.player_at_bet(session, user_id, at)
            assert bettor.limits == applied
            wallet = store.wallet(session, user_id)
            if in_force is not None:
                with pytest.raises(LossLimitReached):
                    responsible.check_bet(session, user_id, wallet, in_force + 1, at, bettor)
                if in_force > 0:
                    responsible.check_bet(session, user_id, wallet, in_force, at, bettor)
            else:
                responsible.check_bet(session, user_id, wallet, 10**9, at, bettor)


def test_the_last_connections_refused_of_a_flood_are_logged(
    tmp_path: pathlib.Path, migrated_sqlite: pathlib.Path
) -> None:
    database, log = tmp_path / "casino.db", tmp_path / "casino.log"
    database.write_bytes(migrated_sqlite.read_bytes())
    port = free_port()

    def said() -> list[int]:
        lines = log.read_text(errors="replace").splitlines()
        events = [json.loads(line) for line in lines if line.startswith("{")]
        return [e["refused"] for e in events if e.get("event") == "connections refused"]

    with serve(f"sqlite:///{database}", port, "--log-format", "json", log=log):
        kept = half_open(port, "127.0.0.2", MAX_CONNECTIONS_PER_ADDRESS)
        flood: list[socket.socket] = []
        try:
            wait_for(lambda: open_ones(kept) == MAX_CONNECTIONS_PER_ADDRESS)
            first = half_open(port, "127.0.0.2", 1)
            assert wait_for(said) == [1]  # the first is logged at once
            started = time.monotonic()
            rest = half_open(port, "127.0.0.2", 5)  # then the flood stops
            flood = [*first, *rest]
            assert wait_for(lambda: len(said()) == 2, timeout=REPORT_EVERY + 10)
            assert said() == [1, 5]
            assert time.monotonic() - started >= REPORT_EVERY - 1  # never sooner
        finally:
            close_all(kept + flood)


def _nginx_key(folder: pathlib.Path, addresses: list[str]) -> dict[str, str]:
    """The key the shipped configuration limits each of ``addresses`` by, as nginx itself
    computes it: a server of the test's own takes each address as the client's (the realip
    module, from a header) and answers the key."""
    shipped = SHIPPED.read_text()
    found = re.search(r"^map \$remote_addr \$baccara_client \{.*?^\}$", shipped, re.M | re.S)
    assert found is not None
    port = free_port()
    site = (
        found.group(0)
        + f"""
server {{
    listen 127.0.0.1:{port};
    set_real_ip_from 127.0.0.1;
    real_ip_header X-Client;
    location / {{ return 200 "$remote_addr $baccara_client"; }}
}}
"""
    )
    main = configuration(folder, site, connections=64)
    with (
        running(folder, main, port, path="/"),
        httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as client,
    ):
        keys = {}
        for address in addresses:
            text, key = client.get("/", headers={"X-Client": address}).text.split(" ")
            keys[address] = key
            assert ipaddress.ip_address(text) == ipaddress.ip_address(address)
        return keys


def _ipv6(groups: list[int]) -> str:
    return str(ipaddress.IPv6Address(sum(g << (16 * (7 - n)) for n, g in enumerate(groups))))


def test_nginx_limits_an_ipv6_client_by_its_64_as_the_casino_counts_it(
    tmp_path: pathlib.Path,
) -> None:
    """Every shape an IPv6 address is written in (the "::" anywhere, or nowhere) gives the
    key of its /64, so two addresses of one /64 share nginx's limits and two of different
    /64s do not; an IPv4 client is limited by its address."""
    every_shape = {_ipv6([(n + 1) * 0x111 * zero for n, zero in enumerate(zeros)])
                   for zeros in itertools.product((0, 1), repeat=8)}  # fmt: skip
    addresses = sorted(every_shape
                       | {"2001:db8::1", "2001:db8::2:0:0:1", "2001:db8:0:1::1", "::1", "::",
                          "1::1:2:3:4:5", "::1:2:3:4:5", "::1:2:3:4:5:6", "1:2:3::4",
                          "1:2:3:4:5:6:7:8", "10.0.0.5"})  # fmt: skip
    keys = _nginx_key(tmp_path, addresses)
    for address, key in keys.items():
        parsed = ipaddress.ip_address(address)
        if parsed.version == 4:
            assert key == address
        else:
            assert ipaddress.IPv6Network(key) == ipaddress.IPv6Network((parsed, 64), strict=False)
