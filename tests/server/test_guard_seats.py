"""Nobody squats a seat, and a table's history is a bounded summary.

A seat is given up, as at a real table, by a player who sat out two rounds in a row
without a bet, or whose table page was closed and a round then passed without a bet of
theirs; a full table of accounts that never bet once refused every newcomer for as long
as they sat. The stand-up is in the table's record, and only one seat is an account's.
``GET /api/tables/{id}/rounds`` reads the same few rows however many rounds were played.
"""

from __future__ import annotations

import contextlib
import pathlib
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError
from websockets.sync.client import connect

from baccara.randomness import SeededRandom
from baccara.server.clock import ManualClock
from baccara.server.db.models import Seat, User
from baccara.server.settings import MAX_SIGN_UPS
from baccara.table import Phase, Table, TableConfig
from baccara.table.events import StoodUp
from baccara.table.table import IDLE_ROUND_SECONDS, STOOD_UP_SECONDS
from tests.server.conftest import settings_for
from tests.server.harness import (
    Player,
    Server,
    drain,
    in_process,
    receive,
    ticket_for,
    wait_for,
)
from tests.server.postgres import Cluster
from tests.server.test_faults import register
from tests.server.test_scaleout import TIMERS, holders, two_servers

MINI = 3
"""The default Mini RedGreen table: seven seats, a seat needed to bet."""
PUNTO = 1
"""The default electronic Punto Banco table."""


def seated(server: Server, table_id: int) -> dict[str, str]:
    seats: dict[str, str] = server.client().get(f"/api/tables/{table_id}").json()["seated"]
    return seats


def stood_up(player: Player, round_id: int) -> list[dict[str, Any]]:
    events = player.http.get(f"/api/rounds/{round_id}").json()["events"]
    return [e for e in events if e["kind"] == "stood-up"]


def round_id(server: Server, table_id: int) -> int:
    return int(server.client().get(f"/api/tables/{table_id}").json()["round_id"])


@pytest.fixture
def sqlite_server(sqlite_url: str, clock: ManualClock) -> Iterator[Server]:
    """The casino on SQLite, whose sign-ups from one address are not what these tests
    count: each signs up more players than an address may in an hour."""
    settings = settings_for(sqlite_url, sign_ups_per_hour=MAX_SIGN_UPS,
                            sign_ups_per_day=MAX_SIGN_UPS)  # fmt: skip
    with in_process(settings, clock) as started:
        yield started


@pytest.fixture
def any_server(database_url: str, clock: ManualClock) -> Iterator[Server]:
    """The same, on SQLite and on PostgreSQL (where the casino asks the database whether
    it runs alone before taking a closed page for a player gone)."""
    settings = settings_for(database_url, sign_ups_per_hour=MAX_SIGN_UPS,
                            sign_ups_per_day=MAX_SIGN_UPS)  # fmt: skip
    with in_process(settings, clock) as started:
        yield started


def play_round(server: Server, *bettors: Player, table_id: int = PUNTO) -> int:
    """One round that ``bettors`` bet on, to its settlement; its id."""
    played = round_id(server, table_id)
    for bettor in bettors:
        assert bettor.bet(table_id, "banker", 1000).status_code == 201
        assert bettor.http.post(f"/api/tables/{table_id}/deal").status_code == 200
    server.advance(server.settings.betting_seconds)  # others seated: the timer closes it
    assert bettors[0].http.get(f"/api/rounds/{played}").json()["state"] == "settled"
    return played


def test_seven_idle_accounts_no_longer_block_a_newcomer(sqlite_server: Server) -> None:
    """Seven accounts take every seat of Mini RedGreen, watch with the page open and never
    bet: the round waits for a first bet that never comes. Two rounds nobody
    played later (a minute each) they are stood up, and the newcomer the full table
    refused sits and bets."""
    server = sqlite_server
    squatters = [server.player() for _ in range(7)]
    with contextlib.ExitStack() as pages:
        for squatter in squatters:
            assert squatter.sit(MINI).status_code == 200
            pages.enter_context(server.ws(MINI, squatter.token))
        newcomer = server.player()
        assert newcomer.sit(MINI).status_code == 409  # the table is full
        waiting = round_id(server, MINI)
        server.advance(IDLE_ROUND_SECONDS)  # one round nobody played: still held
        assert len(seated(server, MINI)) == 7
        server.advance(IDLE_ROUND_SECONDS)
        assert seated(server, MINI) == {}
        stood = stood_up(newcomer, waiting)
        assert sorted(e["player"] for e in stood) == sorted(s.name for s in squatters)
        assert {e["reason"] for e in stood} == {"sat-out"}
        assert sorted(e["seat"] for e in stood) == list(range(1, 8))
        assert newcomer.sit(MINI).status_code == 200
        assert newcomer.bet(MINI, "red", 1000).status_code == 201


def test_seats_taken_through_the_api_alone_go_after_one_idle_round(sqlite_server: Server) -> None:
    """Seven accounts that sit with no table page open and never bet hold the table for
    one round nobody played, not for ever: they are away, and stood up as such."""
    server = sqlite_server
    squatters = [server.player() for _ in range(7)]
    for squatter in squatters:
        assert squatter.sit(MINI).status_code == 200
    newcomer = server.player()
    assert newcomer.sit(MINI).status_code == 409
    waiting = round_id(server, MINI)
    server.advance(IDLE_ROUND_SECONDS - 1)
    assert len(seated(server, MINI)) == 7
    server.advance(1)
    assert seated(server, MINI) == {}
    assert {e["reason"] for e in stood_up(newcomer, waiting)} == {"away"}
    assert newcomer.sit(MINI).status_code == 200


def test_two_rounds_without_a_bet_stand_a_player_up(sqlite_server: Server) -> None:
    """A player watching with the page open who bets in neither of two rounds played by
    others is stood up at the end of the second, and the event says who, where and why."""
    server = sqlite_server
    bettor, idler = server.player(), server.player()
    assert idler.sit(PUNTO).status_code == 200
    with server.ws(PUNTO, idler.token) as page:
        play_round(server, bettor)
        assert seated(server, PUNTO) == {"1": idler.name}  # one round sat out: still seated
        second = play_round(server, bettor)
        assert seated(server, PUNTO) == {}
        assert [(e["player"], e["seat"], e["reason"]) for e in stood_up(bettor, second)] == [
            (idler.name, 1, "sat-out")
        ]
        messages = drain(page)
        told = [e for m in messages if m["type"] == "events" for e in m["events"]]
        assert [e["reason"] for e in told if e["kind"] == "stood-up"] == ["sat-out"]
        assert [m["seats"] for m in messages if m["type"] == "seats"][-1] == {}
    server.advance(STOOD_UP_SECONDS)
    assert idler.sit(PUNTO).status_code == 200  # and may sit again, once the wait is over


def test_a_bet_in_either_round_keeps_the_seat(sqlite_server: Server) -> None:
    server = sqlite_server
    bettor, player = server.player(), server.player()
    assert player.sit(PUNTO).status_code == 200
    with server.ws(PUNTO, player.token):
        for _ in range(4):
            play_round(server, bettor)
            play_round(server, player)
    assert seated(server, PUNTO) == {"1": player.name}


def test_a_closed_page_and_a_round_without_a_bet_stand_a_player_up(any_server: Server) -> None:
    """The page is closed after a round the player bet on; the next round passes without
    a bet of theirs, and they are stood up then — one round, not two. A player who sat
    the same round out with the page open keeps the seat."""
    server = any_server
    bettor, leaver, watcher = server.player(), server.player(), server.player()
    assert leaver.sit(PUNTO).status_code == 200
    assert watcher.sit(PUNTO).status_code == 200
    with server.ws(PUNTO, watcher.token):
        with server.ws(PUNTO, leaver.token):
            play_round(server, leaver, watcher)
        next_round = play_round(server, bettor)
        assert seated(server, PUNTO) == {"2": watcher.name}
        assert [(e["player"], e["reason"]) for e in stood_up(bettor, next_round)] == [
            (leaver.name, "away")
        ]


def test_a_bet_on_the_round_in_play_is_never_stood_up(sqlite_server: Server) -> None:
    """A player with no page open is stood up after a round without a bet; seated again,
    with a bet on the round, they keep the seat while it plays out and after."""
    server = sqlite_server
    bettor, player = server.player(), server.player()
    assert player.sit(PUNTO).status_code == 200
    play_round(server, bettor)  # one round sat out, no page open
    assert seated(server, PUNTO) == {}  # no page and a round without a bet: away
    server.advance(STOOD_UP_SECONDS)  # a player stood up sits again after a wait
    assert player.sit(PUNTO).status_code == 200
    assert player.bet(PUNTO, "player", 1000).status_code == 201
    server.advance(0.5)
    assert seated(server, PUNTO) == {"1": player.name}
    server.advance(0.6)  # betting closes; the round plays out and settles with their bet
    server.play_out()
    assert seated(server, PUNTO) == {"1": player.name}


def test_one_account_holds_one_seat_per_table(sqlite_server: Server) -> None:
    """The API refuses a second seat, and so does the database itself."""
    server = sqlite_server
    player = server.player()
    assert player.sit(MINI, 2).status_code == 200
    again = player.sit(MINI, 5)
    assert again.status_code == 409, again.text
    assert seated(server, MINI) == {"2": player.name}
    db = server.casino.db
    with db.read() as session:
        user_id = session.query(User.id).filter(User.username == player.name).scalar()
    with pytest.raises(IntegrityError), db.write() as session:
        session.add(Seat(table_id=MINI, seat=6, user_id=user_id))
        session.flush()


@pytest.fixture
def statements(sqlite_server: Server) -> Iterator[list[str]]:
    """Every SQL statement the casino's database runs while the list is watched."""
    seen: list[str] = []
    engine = sqlite_server.casino.db.engine

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


def history_cost(server: Server, seen: list[str], **query: int) -> tuple[int, list[Any]]:
    seen.clear()
    answer = server.client().get(f"/api/tables/{PUNTO}/rounds", params=query)
    assert answer.status_code == 200, answer.text
    return len([s for s in seen if s.lstrip().upper().startswith("SELECT")]), answer.json()


def test_the_history_reads_the_same_few_rows_however_many_rounds(
    sqlite_server: Server, statements: list[str]
) -> None:
    """The history of 3 rounds and of 12 costs the same statements: the rounds' rows and
    their results, one query each, never a round's whole log."""
    server = sqlite_server
    bettor = server.player()
    for _ in range(3):
        play_round(server, bettor)
    few, first = history_cost(server, statements)
    assert len(first) == 3 and all(r["result"] for r in first)
    for _ in range(9):
        play_round(server, bettor)
    many, rounds = history_cost(server, statements)
    assert len(rounds) == 12
    assert many == few <= 3
    assert [r["nonce"] for r in rounds] == sorted(r["nonce"] for r in rounds)


def test_the_history_is_paged_by_a_bounded_limit_and_a_cursor(any_server: Server) -> None:
    server = any_server
    bettor = server.player()
    played = [play_round(server, bettor) for _ in range(5)]
    client = server.client()
    last = client.get(f"/api/tables/{PUNTO}/rounds", params={"limit": 2}).json()
    assert [r["round_id"] for r in last] == played[-2:]
    before = client.get(f"/api/tables/{PUNTO}/rounds",
                        params={"limit": 2, "before": last[0]["nonce"]}).json()  # fmt: skip
    assert [r["round_id"] for r in before] == played[-4:-2]
    newest = client.get(f"/api/tables/{PUNTO}/rounds", params={"limit": 1, "before": 2**31 - 1})
    assert [r["round_id"] for r in newest.json()] == played[-1:]
    for bad in ({"limit": 0}, {"limit": 501}, {"before": 0}, {"before": 2**31}):
        assert client.get(f"/api/tables/{PUNTO}/rounds", params=bad).status_code == 422, bad


def test_a_page_closed_after_betting_closed_is_not_a_round_gone_by() -> None:
    """The engine's own rule: a player whose page closed only once the round's betting
    had closed (or whose process started since, as after a restart) had no round to bet
    on with the page closed, and keeps the seat; one whose page was closed before is
    stood up as away."""
    table = Table(TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=10_000,
                              reveal_delay=0))  # fmt: skip
    table.open_round(0.0, source=SeededRandom(7))
    table.sit("ann", now=0.0)
    table.sit("bob", now=0.0)
    table.place_bet("b1", "cy", "banker", 1000, now=1.0)
    round_ = table.current()
    round_.tick(100.0)  # betting closes at 16, and the round plays out
    assert round_.phase is Phase.SETTLED and round_.closed is not None
    closed = round_.closed.at
    left = {"ann": closed + 1, "bob": closed - 1}
    stood = table.stand_up_idle(round_.events[-1].at, left.get)
    assert [(e.player, e.reason) for e in stood if isinstance(e, StoodUp)] == [("bob", "away")]
    assert table.seats == {1: "ann"}
    assert table.stand_up_idle(200.0, left.get) == []  # a round's end is taken in once


def test_an_id_past_the_databases_columns_is_refused_not_a_500(any_server: Server) -> None:
    """Ids are 32-bit columns on PostgreSQL: a larger one in a path or a cursor is a 422
    naming it, on either database, never the database's out-of-range error."""
    player = any_server.player()
    past = str(2**31)
    for path in (f"/api/tables/{past}", f"/api/tables/{past}/rounds", f"/api/rounds/{past}"):
        answer = player.http.get(path)
        assert answer.status_code == 422, (path, answer.text)
    assert player.http.get(f"/api/tables/{2**31 - 1}/rounds").status_code == 404


def test_a_page_open_at_another_process_is_not_taken_for_closed(
    postgres: Cluster, tmp_path: pathlib.Path
) -> None:
    """Two processes: the player's page is open at the one that does not deal the table.
    The dealer cannot see it, so it takes no page for closed while another process runs:
    a round without a bet leaves the seat, and the second one stands the player up for
    the rounds alone."""
    url = postgres.new_database()
    with two_servers(url, tmp_path, *TIMERS) as (bases, _):
        dealer = holders(url)[PUNTO][0]
        other = next(base for base in bases if base != dealer)
        watcher, token = register(other, seat_at=(PUNTO,))
        _, bettor = register(dealer, seat_at=())
        page = f"ws://{other[7:]}/ws/tables/{PUNTO}?ticket={ticket_for(other, token)}"
        with connect(page) as ws:
            assert receive(ws)["type"] == "snapshot"
            first = real_round(dealer, bettor)
            assert httpx.get(f"{dealer}/api/tables/{PUNTO}").json()["seated"] == {"1": watcher}
            second = real_round(dealer, bettor)
        assert httpx.get(f"{dealer}/api/tables/{PUNTO}").json()["seated"] == {}
        events = {r: httpx.get(f"{dealer}/api/rounds/{r}", headers=auth(bettor)).json()["events"]
                  for r in (first, second)}  # fmt: skip
    assert [e for e in events[first] if e["kind"] == "stood-up"] == []
    assert [(e["player"], e["reason"]) for e in events[second] if e["kind"] == "stood-up"] == [
        (watcher, "sat-out")
    ]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def real_round(base: str, token: str) -> int:
    """A round of a real server's Punto Banco table with one bet, to its settlement."""
    table = httpx.get(f"{base}/api/tables/{PUNTO}").json()
    placed = httpx.post(f"{base}/api/tables/{PUNTO}/bets", headers={**auth(token),
                        "Idempotency-Key": uuid.uuid4().hex},
                        json={"bet": "banker", "amount_cents": 1000})  # fmt: skip
    assert placed.status_code == 201, placed.text
    round_id = int(table["round_id"])
    wait_for(lambda: httpx.get(f"{base}/api/rounds/{round_id}", headers=auth(token))
             .json()["state"] == "settled", timeout=30, every=0.1)  # fmt: skip
    return round_id
