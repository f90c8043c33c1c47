"""The casino as its operators watch it: the log and the metrics (readiness: test_readiness.py).

Each test runs a casino in process (Starlette's test client runs its start and stop)
on an SQLite file of its own, its log captured as JSON lines. The log is read as a
log collector would: one JSON object a line, each an event with its fields.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import pathlib
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
import structlog
from sqlalchemy import select, text
from websockets.exceptions import InvalidStatus

with warnings.catch_warnings():  # Starlette's client would rather have httpx2; httpx is fine
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from baccara.server.app import create_app
from baccara.server.db.database import Database
from baccara.server.db.group_commit import GroupCommit
from baccara.server.db.models import Round, User
from baccara.server.observe import logs
from baccara.server.settings import LogFormat, LogLevel, Settings
from tests.helpers import assert_refused, run
from tests.server.conftest import settings_for
from tests.server.harness import assign_dealer, live_table_ids, receive, running, wait_for

PASSWORD = "correct horse battery"
LIVE = 5
"""The default live Punto Banco table."""
BET = "/api/tables/{table_id}/bets"


class Log(io.StringIO):
    """The casino's log as JSON lines."""

    def events(self, name: str | None = None) -> list[dict[str, Any]]:
        found = [json.loads(line) for line in self.getvalue().splitlines() if line]
        return [e for e in found if name is None or e["event"] == name]


@pytest.fixture
def log() -> Iterator[Log]:
    stream = Log()
    logs.configure(LogLevel.INFO, LogFormat.JSON, stream)
    try:
        yield stream
    finally:
        logs.unconfigure()


def casino_settings(tmp_path: pathlib.Path, **changes: object) -> Settings:
    """Betting stays open until the test closes it, so no timer moves a round under it."""
    return settings_for(f"sqlite:///{tmp_path / 'casino.db'}", betting_seconds=600, **changes)


def sign_up(client: TestClient, name: str) -> str:
    made = client.post("/api/auth/register", json={"username": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return sign_in(client, name)


def sign_in(client: TestClient, name: str) -> str:
    answer = client.post("/api/auth/login", json={"username": name, "password": PASSWORD})
    token: str = answer.json()["token"]
    return token


def bet(client: TestClient, token: str, key: str, cents: int, table: int = 1) -> Any:
    return client.post(f"/api/tables/{table}/bets", json={"bet": "banker", "amount_cents": cents},
                       headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key})  # fmt: skip


def staff(client: TestClient, name: str, role: str) -> str:
    casino = client.app.state.casino  # type: ignore[attr-defined]
    casino.register(name, PASSWORD, role)
    if role == "dealer":
        assign_dealer(casino, name, live_table_ids(casino))
    return sign_in(client, name)


def test_a_signed_in_route_names_its_user_from_one_check_of_the_token(
    tmp_path: pathlib.Path, log: Log, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The routes' dependency hands the user it found to the request's log event, as the
    bet lane does: the token is checked once a request, not again for the log."""
    with TestClient(create_app(casino_settings(tmp_path))) as client:
        token = sign_up(client, "ann")
        tokens = client.app.state.casino.accounts.tokens  # type: ignore[attr-defined]
        with client.app.state.casino.db.read() as session:  # type: ignore[attr-defined]
            ann = session.scalar(select(User.id).where(User.username == "ann"))
        checked = tokens.check
        calls: list[str] = []

        def counted(text: str, now: float) -> Any:
            calls.append(text)
            return checked(text, now)

        monkeypatch.setattr(tokens, "check", counted)
        before = len(log.events("request"))
        assert client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).is_success
    [event] = [e for e in log.events("request")[before:] if e["route"] == "/api/me"]
    assert event["user"] == ann and calls == [token]


def test_a_request_is_one_json_line_with_its_route_template_and_no_secret(
    tmp_path: pathlib.Path, log: Log
) -> None:
    with TestClient(create_app(casino_settings(tmp_path))) as client:
        token = sign_up(client, "ann")
        with client.app.state.casino.db.read() as session:  # type: ignore[attr-defined]
            ann = session.scalar(select(User.id).where(User.username == "ann"))
        before = len(log.events("request"))
        answer = client.get("/api/tables/3?token=hidden-query",
                            headers={"Authorization": f"Bearer {token}"})  # fmt: skip
        assert answer.status_code == 200
    requests = log.events("request")[before:]
    table = [e for e in requests if e["route"] == "/api/tables/{table_id}"]
    assert len(table) == 1, requests
    event = table[0]
    assert event["method"] == "GET" and event["status"] == 200 and event["table"] == 3
    assert event["user"] == ann and event["duration_ms"] >= 0
    everything = log.getvalue()
    for secret in (token, PASSWORD, "hidden-query", "Bearer"):
        assert secret not in everything
    assert not any(e["route"].startswith("/api/tables/3") for e in log.events("request"))


def test_a_refusal_is_logged_with_its_error_code(tmp_path: pathlib.Path, log: Log) -> None:
    """Answered by a route, by no route, by a mount, and by the Guard before any routing
    (a body over the bound: the route it was for is named all the same)."""
    app = create_app(casino_settings(tmp_path))
    with TestClient(app) as client:
        assert client.get("/api/me").status_code == 401
        assert client.get("/no/such/page/at/all").status_code == 404
        assert client.get("/static/no-such-file.js").status_code == 404
        huge = client.post("/api/tables/1/bets", content=b"x" * 70_000,
                           headers={"Content-Type": "application/json"})  # fmt: skip
        assert huge.status_code == 413
    refused = [e for e in log.events("request") if e["status"] >= 400]
    assert [(e["route"], e["status"], e["error"]) for e in refused] == [
        ("/api/me", 401, "unauthorized"),
        ("unmatched", 404, "http"),
        ("/static/{path}", 404, "http"),
        (BET, 413, "too_large"),
    ]
    assert "user" not in refused[0]
    assert log.events("bet refused") == []  # refused before it was read as a bet
    assert app.state.metrics.value("baccara_bets_refused_total", {"reason": "too_large"}) is None


@pytest.mark.parametrize("lane", [True, False], ids=["bet lane", "route"])
def test_a_placed_and_a_refused_bet_count_the_same_through_either_lane(
    tmp_path: pathlib.Path, log: Log, lane: bool
) -> None:
    app = create_app(casino_settings(tmp_path, bet_lane=lane))
    metrics = app.state.metrics
    placed = {"table": "1", "game": "punto-banco"}
    with TestClient(app) as client:
        token = sign_up(client, "ann")
        assert metrics.value("baccara_bets_placed_total", placed) is None
        assert bet(client, token, "k1", 100).status_code == 201
        assert bet(client, token, "k1", 100).status_code == 201  # the retry: placed once
        assert bet(client, token, "k2", 1).status_code == 400  # off the table's step
        assert bet(client, token, "k3", 100, table=999).status_code == 404
        if lane:  # the bet and its retry went by the lane, the refusals by the route
            assert app.lane.placed == 2  # type: ignore[attr-defined]
        assert metrics.value("baccara_bets_placed_total", placed) == 1
        assert metrics.value("baccara_bets_refused_total", {"reason": "bet_step"}) == 1
        assert metrics.value("baccara_bets_refused_total", {"reason": "not_found"}) == 1
        assert metrics.value("baccara_bet_seconds_count") == 2  # the bet and its retry
        batches = metrics.value("baccara_group_commit_batch_size_count")
        assert batches is not None and batches >= 1  # every write went by the group commit
    bets = [e for e in log.events("request") if e["route"] == BET]
    assert [e["status"] for e in bets] == [201, 201, 400, 404]
    assert {e["user"] for e in bets} == {bets[0]["user"]}
    assert [(e["reason"], e.get("table")) for e in log.events("bet refused")] == [
        ("bet_step", 1),
        ("not_found", 999),
    ]


def test_a_round_is_logged_from_state_to_state_and_settled_without_its_cards(
    tmp_path: pathlib.Path, log: Log
) -> None:
    """The live table: two bets, the dealer's cards (Player 9S KD, Banker 2H 3C: Player
    wins), then a void of the next round. No card and no seed reaches the log."""
    app = create_app(casino_settings(tmp_path))
    with TestClient(app) as client:
        ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
        dealer = staff(client, "dee", "dealer")
        as_dealer = {"Authorization": f"Bearer {dealer}"}
        for who in (ann, bob):
            client.post(f"/api/tables/{LIVE}/seat", headers={"Authorization": f"Bearer {who}"})
        round_id = client.get(f"/api/tables/{LIVE}").json()["round_id"]
        assert client.post(f"/api/tables/{LIVE}/bets", json={"bet": "player", "amount_cents": 1000},
                           headers={"Authorization": f"Bearer {ann}",
                                    "Idempotency-Key": "a"}).status_code == 201  # fmt: skip
        assert client.post(f"/api/tables/{LIVE}/bets", json={"bet": "banker", "amount_cents": 2000},
                           headers={"Authorization": f"Bearer {bob}",
                                    "Idempotency-Key": "b"}).status_code == 201  # fmt: skip
        assert (
            client.post(f"/api/tables/{LIVE}/close-betting", headers=as_dealer).status_code == 200
        )
        dealing = log.getvalue()
        for cards in (["9S", "2H"], ["KD", "3C"]):
            answer = client.post(f"/api/tables/{LIVE}/cards", json={"cards": cards},
                                 headers=as_dealer)  # fmt: skip
            assert answer.status_code == 200, answer.text
        next_round = client.get(f"/api/tables/{LIVE}").json()["round_id"]
        voided = client.post(f"/api/rounds/{next_round}/void", json={"reason": "a card fell"},
                             headers=as_dealer)  # fmt: skip
        assert voided.status_code == 200, voided.text
        assert app.state.metrics.value("baccara_settlement_seconds_count") == 1
        casino = app.state.casino
        with casino.db.read() as session:
            seeds = [s for s in session.scalars(select(Round.server_seed)) if s]
    settled = [e for e in log.events("round settled") if e["round"] == round_id]
    assert len(settled) == 1
    assert {k: settled[0][k] for k in ("table", "bets", "staked_cents", "paid_cents")} == {
        "table": LIVE, "bets": 2, "staked_cents": 3000, "paid_cents": 2000,
    }  # fmt: skip
    states = [(e["from_state"], e["to_state"]) for e in log.events("round state")
              if e["round"] == round_id]  # fmt: skip
    assert states == [(None, "betting"), ("betting", "dealing"), ("dealing", "settled")]
    voids = [(e["round"], e["reason"]) for e in log.events("round voided") if e["table"] == LIVE]
    assert voids[0] == (next_round, "a card fell")
    opened = [(e["from_state"], e["to_state"]) for e in log.events("round state")
              if e["round"] == next_round]  # fmt: skip
    assert opened[0] == (None, "betting")
    assert "9S" not in dealing
    everything = log.getvalue()
    for secret in ("9S", "KD", "2H", "3C", *seeds):
        assert secret not in everything
    assert seeds  # the electronic tables' rounds have seeds, and none was logged


def test_leases_are_logged_as_they_are_taken_and_handed_over(
    tmp_path: pathlib.Path, log: Log
) -> None:
    with TestClient(create_app(casino_settings(tmp_path))):
        taken = {e["table"]: e["generation"] for e in log.events("lease acquired")}
        assert taken == dict.fromkeys(range(1, 7), 1)  # the six default tables
    assert {e["table"] for e in log.events("lease handed over")} == set(range(1, 7))


def test_an_unhandled_error_is_one_event_with_its_traceback(
    tmp_path: pathlib.Path, log: Log, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(casino_settings(tmp_path))

    def broken() -> None:
        raise RuntimeError("a bug in the lobby")

    with TestClient(app, raise_server_exceptions=False) as client:
        monkeypatch.setattr(app.state.casino, "list_tables", broken)
        assert client.get("/api/tables").status_code == 500
    errors = log.events("unhandled error")
    assert len(errors) == 1
    assert errors[0]["route"] == "/api/tables" and errors[0]["level"] == "error"
    assert "RuntimeError: a bug in the lobby" in errors[0]["exception"]
    failed = {"method": "GET", "route": "/api/tables", "status": "500"}
    metrics = app.state.metrics
    assert metrics.value("baccara_http_requests_total", failed) == 1
    timed = metrics.value("baccara_http_request_seconds_count", {"route": "/api/tables"})
    assert timed == 1


def test_metrics_are_for_an_admin_or_a_scrape_address(tmp_path: pathlib.Path) -> None:
    settings = casino_settings(tmp_path, metrics_scrape_addresses="10.0.0.0/24")
    app = create_app(settings)
    with TestClient(app) as client:
        player, admin = sign_up(client, "ann"), staff(client, "ada", "admin")
        anonymous = client.get("/metrics")
        assert anonymous.status_code == 401 and anonymous.json()["error"] == "unauthorized"
        as_player = client.get("/metrics", headers={"Authorization": f"Bearer {player}"})
        assert as_player.status_code == 403 and as_player.json()["error"] == "forbidden"
        assert bet(client, player, "k1", 100).status_code == 201
        served = client.get("/metrics", headers={"Authorization": f"Bearer {admin}"})
        assert served.status_code == 200
        assert served.headers["content-type"].startswith("text/plain; version=0.0.4")
        body = served.text
        assert 'baccara_bets_placed_total{game="punto-banco",table="1"} 1.0' in body
        assert 'baccara_rounds{state="betting"} 6.0' in body
        assert "baccara_tables_held 6.0" in body
        assert "baccara_group_commit_batch_size_count" in body


@pytest.mark.parametrize(("address", "status"), [("10.0.0.7", 200), ("10.0.1.7", 401)])
def test_a_scrape_address_reads_the_metrics_without_a_token(
    tmp_path: pathlib.Path, address: str, status: int
) -> None:
    settings = casino_settings(tmp_path, metrics_scrape_addresses="10.0.0.0/24")
    with TestClient(create_app(settings), client=(address, 40000)) as client:
        answer = client.get("/metrics")
        assert answer.status_code == status
        assert ("baccara_tables_held 6.0" in answer.text) == (status == 200)


def test_metrics_of_two_casinos_in_one_process_are_their_own(tmp_path: pathlib.Path) -> None:
    first = create_app(casino_settings(tmp_path / "a", metrics_scrape_addresses="127.0.0.1"))
    second = create_app(casino_settings(tmp_path / "b"))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with TestClient(first, client=("127.0.0.1", 1)) as one, TestClient(second):
        assert bet(one, sign_up(one, "ann"), "k", 100).status_code == 201
        placed = {"table": "1", "game": "punto-banco"}
        assert first.state.metrics.value("baccara_bets_placed_total", placed) == 1
        assert second.state.metrics.value("baccara_bets_placed_total", placed) is None


def test_a_websocket_open_is_counted(tmp_path: pathlib.Path) -> None:
    app = create_app(casino_settings(tmp_path))
    with TestClient(app) as client:
        token = sign_up(client, "ann")
        assert app.state.metrics.value("baccara_websockets_open") == 0
        ticket = client.post("/api/ws-ticket", headers={"Authorization": f"Bearer {token}"})
        with client.websocket_connect(f"/ws/tables/1?ticket={ticket.json()['ticket']}") as socket:
            assert socket.receive_json()["type"] == "snapshot"
            assert app.state.metrics.value("baccara_websockets_open") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--log-format", "xml"], "--log-format: must be one of json, console, got 'xml'"),
        (["--log-format", ""], "--log-format: must be one of json, console, got ''"),
        (["--log-level", "loud"], "--log-level: must be one of debug, info, warning, error"),
    ],
)
def test_serve_refuses_a_log_flag_it_does_not_know(
    monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path, args: list[str], message: str
) -> None:
    started: list[Any] = []
    monkeypatch.setattr("baccara.cli.serve.start", lambda *a: started.append(a))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'casino.db'}")
    assert_refused(run("serve", *args), message)
    assert started == []


def test_serve_takes_the_log_flags_in_any_case(
    monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    started: list[Any] = []
    monkeypatch.setattr("baccara.cli.serve.start", lambda *a: started.append(a))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'casino.db'}")
    assert run("serve", "--log-format", "JSON", "--log-level", "debug").returncode == 0
    settings = started[0][0]
    assert (settings.log_format, settings.log_level) == (LogFormat.JSON, LogLevel.DEBUG)
    monkeypatch.setenv("BACCARA_LOG_FORMAT", "xml")
    assert_refused(run("serve"), "BACCARA_LOG_FORMAT: input should be 'json' or 'console'")
    monkeypatch.setenv("BACCARA_LOG_FORMAT", "console")
    monkeypatch.setenv("BACCARA_METRICS_SCRAPE_ADDRESSES", "10.0.0.1, nowhere")
    assert_refused(run("serve"), "BACCARA_METRICS_SCRAPE_ADDRESSES: value error, a comma-separated")


def test_a_failing_listener_never_fails_a_committed_bet(tmp_path: pathlib.Path, log: Log) -> None:
    app = create_app(casino_settings(tmp_path))

    def broken(table_id: int, segments: object) -> None:
        raise RuntimeError("the log's disk is full")

    with TestClient(app) as client:
        token = sign_up(client, "ann")
        app.state.casino.hub.listeners.insert(0, broken)
        assert bet(client, token, "k1", 100).status_code == 201
        placed = {"table": "1", "game": "punto-banco"}
        assert app.state.metrics.value("baccara_bets_placed_total", placed) == 1
    failed = log.events("a listener of the table's events failed")
    assert failed and failed[0]["table"] == 1 and "disk is full" in failed[0]["exception"]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_log_is_readable_lines_on_a_terminal_and_json_elsewhere() -> None:
    assert logs.format_for(io.StringIO(), None) is LogFormat.JSON
    assert logs.format_for(Terminal(), None) is LogFormat.CONSOLE
    assert logs.format_for(Terminal(), LogFormat.JSON) is LogFormat.JSON
    screen = Terminal()
    logs.configure(LogLevel.INFO, None, screen)
    try:
        logs.get_logger().info("round settled", table=4, bets=2)
    finally:
        logs.unconfigure()
    line = screen.getvalue().strip()
    assert "round settled" in line and "table" in line and not line.startswith("{")


def test_uvicorn_and_the_standard_library_log_into_the_same_stream(log: Log) -> None:
    """One stream: uvicorn's lines, the casino's own standard-library calls and a
    library's warnings as JSON lines too; a library's info lines (an HTTP client naming a
    URL) are not logged."""
    logging.getLogger("uvicorn.error").info("Uvicorn running")
    logging.getLogger("baccara.server").warning("table %s: lease lost to another process", 3)
    logging.getLogger("sqlalchemy.pool").warning("pool overflow")
    logging.getLogger("httpx").info("HTTP Request: GET http://elsewhere/?token=x")
    logs.get_logger().debug("below the level")
    assert [(e["logger"], e["event"]) for e in log.events()] == [
        ("uvicorn.error", "Uvicorn running"),
        ("baccara.server", "table 3: lease lost to another process"),
        ("sqlalchemy.pool", "pool overflow"),
    ]


def test_a_made_up_method_is_counted_as_other(tmp_path: pathlib.Path, log: Log) -> None:
    """A client's invented methods never add series to the metrics, one for each."""
    app = create_app(casino_settings(tmp_path))
    with TestClient(app) as client:
        for method in ("BREW", "WHEN"):
            assert client.request(method, "/api/games").status_code == 405
    counted = {"method": "OTHER", "route": "/api/games", "status": "405"}
    assert app.state.metrics.value("baccara_http_requests_total", counted) == 2
    assert {e["method"] for e in log.events("request") if e["route"] == "/api/games"} == {"OTHER"}


@pytest.mark.parametrize("shape", [LogFormat.JSON, LogFormat.CONSOLE])
def test_a_websocket_token_never_reaches_the_log_of_a_real_server(
    tmp_path: pathlib.Path, shape: LogFormat
) -> None:
    """uvicorn itself logs each WebSocket it accepts or refuses, path and query string
    (where the token travels) included: the casino's log keeps the path only."""
    stream = Terminal() if shape is LogFormat.CONSOLE else io.StringIO()
    with running(casino_settings(tmp_path)) as server:
        token = server.player("ann").token
        logs.configure(LogLevel.INFO, shape, stream)  # after uvicorn's own configuration
        try:
            with server.ws(1, token) as socket:
                assert receive(socket)["type"] == "snapshot"
            with pytest.raises(InvalidStatus) as refused, server.ws(1, "not-a-token-but-secret"):
                pass
            assert refused.value.response.status_code == 403
            wait_for(lambda: stream.getvalue().count("/ws/tables/1") >= 2)
        finally:
            logs.unconfigure()
    everything = stream.getvalue()
    assert "[accepted]" in everything and "403" in everything
    for secret in (token, "not-a-token-but-secret", "token="):
        assert secret not in everything


def test_no_record_of_any_logger_carries_a_token(log: Log) -> None:
    logging.getLogger("some.library").warning("fetched %s", "http://elsewhere/x?token=abc123")
    logging.getLogger("baccara.server").warning("asked for /ws/tables/2?token=def456")
    logs.get_logger().warning("odd request", path="/x?token=ghi789")
    events = log.events()
    assert len(events) == 3
    for secret in ("abc123", "def456", "ghi789"):
        assert secret not in log.getvalue()


def test_a_traceback_on_a_terminal_shows_no_local_variable() -> None:
    """A frame's locals (a token, a round's server seed) never reach the log."""
    screen = io.StringIO()  # no colours, so the text is read as it is
    logs.configure(LogLevel.INFO, LogFormat.CONSOLE, screen)

    def settle() -> None:
        server_seed = "a-seed-nobody-may-see-yet"
        raise RuntimeError(f"could not settle ({len(server_seed)})")

    try:
        try:
            settle()
        except RuntimeError:
            logs.get_logger().exception("unhandled error")
    finally:
        logs.unconfigure()
    printed = screen.getvalue()
    assert "RuntimeError: could not settle (25)" in printed and "settle" in printed
    assert "a-seed-nobody-may-see-yet" not in printed


def test_the_server_leaves_structlog_as_its_importer_has_it(log: Log) -> None:
    """Importing the server (or configuring its log) changes no global structlog
    setting: a program that uses the server as a library keeps its own."""
    assert not structlog.is_configured()
    logs.get_logger().info("round settled", table=2)
    assert not structlog.is_configured()
    assert log.events("round settled")[0]["table"] == 2


def test_metrics_are_never_read_through_another_process(tmp_path: pathlib.Path) -> None:
    """A request another process forwarded comes from that process's address (a scrape
    address, maybe): it never reads the metrics, not even with an admin's token."""
    settings = casino_settings(tmp_path, metrics_scrape_addresses="10.0.0.0/24")
    with TestClient(create_app(settings), client=("10.0.0.7", 40000)) as client:
        admin = staff(client, "ada", "admin")
        assert client.get("/metrics").status_code == 200
        for headers in ({}, {"Authorization": f"Bearer {admin}"}):
            through = client.get("/metrics", headers={**headers, "X-Baccara-Forwarded": "n1"})
            assert through.status_code == 403 and through.json()["error"] == "forbidden"
            assert "baccara_tables_held" not in through.text


@pytest.mark.parametrize(
    ("address", "status"), [("::ffff:10.0.0.7", 200), ("::ffff:10.0.1.7", 401)]
)
def test_an_ipv4_scrape_address_is_itself_written_as_ipv6(
    tmp_path: pathlib.Path, address: str, status: int
) -> None:
    """A dual-stack listener names an IPv4 client ``::ffff:10.0.0.7``: it is 10.0.0.7."""
    settings = casino_settings(tmp_path, metrics_scrape_addresses="10.0.0.0/24")
    with TestClient(create_app(settings), client=(address, 40000)) as client:
        assert client.get("/metrics").status_code == status


@pytest.mark.parametrize("size", [1, 3])
def test_a_failing_batch_metric_never_strands_the_committed_pieces(
    sqlite_url: str, log: Log, size: int
) -> None:
    """Each waiter gets its answer (and gives its table's lock back) whatever the metrics
    do; the failure is logged."""
    database = Database(sqlite_url)

    def broken(pieces: int) -> None:
        raise RuntimeError("the histogram is gone")

    group: GroupCommit[int] = GroupCommit(database, seconds=60, batches=broken)  # one batch

    async def together() -> list[int]:
        works = [lambda s, n=n: int(s.execute(text("SELECT :n"), {"n": n}).scalar_one())
                 for n in range(size)]  # fmt: skip
        return await asyncio.wait_for(asyncio.gather(*(group.run(w) for w in works)), 5)

    try:
        assert asyncio.run(together()) == list(range(size))
    finally:
        database.engine.dispose()
    failed = log.events("a batch could not be counted")
    assert len(failed) == 1 and failed[0]["pieces"] == size
    assert "the histogram is gone" in failed[0]["exception"]


def test_a_lease_change_is_logged_once_committed_never_before(
    tmp_path: pathlib.Path, log: Log, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lease taken or handed over in a transaction that then fails is no change at all:
    the log says nothing of it."""
    app = create_app(casino_settings(tmp_path))
    with TestClient(app):
        pass  # the casino took its tables, then handed them over
    casino = app.state.casino
    cluster, write = casino.cluster, casino.db.write

    @contextlib.contextmanager
    def failing() -> Iterator[Any]:
        with write() as session:
            yield session
            raise RuntimeError("the commit failed")

    def changes() -> list[tuple[str, int, int]]:
        return [(e["event"], e["table"], e["generation"]) for e in log.events()
                if e["event"] in ("lease acquired", "lease handed over")]  # fmt: skip

    before = changes()
    monkeypatch.setattr(casino.db, "write", failing)
    with pytest.raises(RuntimeError):
        cluster.take([1, 2])
    assert changes() == before
    monkeypatch.setattr(casino.db, "write", write)
    assert cluster.take([1]) == {1: 2}
    assert changes() == [*before, ("lease acquired", 1, 2)]
    monkeypatch.setattr(casino.db, "write", failing)
    with pytest.raises(RuntimeError):
        cluster.leave({1: 2})
    assert changes() == [*before, ("lease acquired", 1, 2)]
    monkeypatch.setattr(casino.db, "write", write)
    cluster.leave({1: 2})
    assert changes() == [*before, ("lease acquired", 1, 2), ("lease handed over", 1, 2)]
