"""Tokens and tickets, as the review of their revocation found them wanting:

- a token issued before tokens could be revoked (no generation, no id) keeps working
  until it expires, and can be signed out alone or everywhere;
- a ticket never outlives its token, and a socket closes (4401) when its token expires;
- a socket refused for its table or for the sockets its user holds leaves its ticket good;
- signing one token out twice at once, or assigning one dealer twice at once, is no 500
  on PostgreSQL;
- a dealer given another role keeps none of their tables, in the audit trail.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import func, select

from baccara.server.cluster.hub import SOCKETS_PER_USER
from baccara.server.db.models import DealerTable, Setting, UsedTicket, User
from baccara.server.domain.accounts import SIGNING_KEY, TICKET_SECONDS
from tests.server.harness import (
    Server,
    SocketClosed,
    receive,
)
from tests.server.test_guard_tokens import closed_with, socket_at


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token_from_before_revocation(server: Server, name: str) -> str:
    """A token as the casino signed them before tokens could be revoked: the user, the
    expiry and nothing else, HMAC-SHA256 with the database's key."""
    casino = server.casino
    with casino.db.read() as session:
        key = bytes.fromhex(session.scalars(select(Setting.value)
                                            .where(Setting.name == SIGNING_KEY)).one())  # fmt: skip
        user_id = session.scalars(select(User.id).where(User.username == name)).one()
    lifetime = casino.settings.token_hours * 3600
    body = {"id": user_id, "u": name, "exp": casino.clock() + lifetime}
    payload = _b64(json.dumps(body, separators=(",", ":")).encode())
    return f"{payload}.{_b64(hmac.new(key, payload.encode(), hashlib.sha256).digest())}"


def refused_at(server: Server, path: str) -> SocketClosed:
    with pytest.raises(SocketClosed) as refused, socket_at(server, path) as socket:
        receive(socket, timeout=10)
    return refused.value


def used_tickets(server: Server) -> int:
    with server.casino.db.read() as session:
        return int(session.scalar(select(func.count()).select_from(UsedTicket)) or 0)


def test_a_token_from_before_revocation_works_until_signed_out(sqlite_server: Server) -> None:
    ann = sqlite_server.player("ann")
    old = token_from_before_revocation(sqlite_server, "ann")
    sqlite_server.advance(1)  # signed a second later: another token, on another device
    other = token_from_before_revocation(sqlite_server, "ann")
    assert other != old
    mine = sqlite_server.client(old)
    assert mine.get("/api/me").json()["username"] == "ann"
    with sqlite_server.ws(1, old) as socket:
        assert receive(socket)["type"] == "snapshot"
        assert mine.post("/api/auth/logout").status_code == 204
        assert closed_with(socket).code == 4401
    refused = mine.get("/api/me")
    assert refused.status_code == 401 and "signed out" in refused.json()["detail"]
    assert sqlite_server.client(other).get("/api/me").status_code == 200  # signed out alone
    assert ann.http.get("/api/me").status_code == 200
    assert ann.http.post("/api/auth/logout-everywhere").status_code == 204
    assert sqlite_server.client(other).get("/api/me").status_code == 401


def test_a_ticket_never_outlives_its_token(sqlite_server: Server) -> None:
    ann = sqlite_server.player("ann")
    lifetime = sqlite_server.casino.settings.token_hours * 3600
    sqlite_server.advance(lifetime - 10)
    answer = ann.http.post("/api/ws-ticket")
    assert answer.status_code == 200 and answer.json()["expires_in"] == pytest.approx(10)
    ticket = answer.json()["ticket"]
    sqlite_server.advance(10)
    expired = refused_at(sqlite_server, f"/ws/tables/1?ticket={ticket}")
    assert expired.code == 4401 and "expired" in expired.reason
    assert ann.http.get("/api/me").status_code == 401


def test_a_socket_closes_when_its_token_expires(sqlite_server: Server) -> None:
    ann, bob = sqlite_server.player("ann"), sqlite_server.player("bob")
    lifetime = sqlite_server.casino.settings.token_hours * 3600
    sqlite_server.advance(lifetime / 2)
    late = sqlite_server.sign_in("bob")  # expires half a lifetime after ann's
    with sqlite_server.ws(1, ann.token) as socket, sqlite_server.ws(1, late.token) as bobs:
        assert receive(socket)["type"] == receive(bobs)["type"] == "snapshot"
        sqlite_server.advance(lifetime / 2 - 1)
        socket.send("ping")
        assert receive(socket) == {"type": "pong"}  # a second to go
        sqlite_server.advance(1)
        closed = closed_with(socket)
        assert closed.code == 4401 and "expired" in closed.reason
        bobs.send("ping")
        assert receive(bobs) == {"type": "pong"}  # a later token's socket stays open
    assert bob.http.get("/api/me").status_code == 401  # bob's first token expired with ann's
    assert late.http.get("/api/me").status_code == 200
    assert sqlite_server.casino.hub.held == {}


def test_a_socket_refused_for_its_table_leaves_its_ticket_good(sqlite_server: Server) -> None:
    ann = sqlite_server.player("ann")
    ticket = sqlite_server.ticket(ann.token)
    before = used_tickets(sqlite_server)
    refused = refused_at(sqlite_server, f"/ws/tables/999?ticket={ticket}")
    assert refused.code == 4404
    assert used_tickets(sqlite_server) == before  # nothing written
    with socket_at(sqlite_server, f"/ws/tables/1?ticket={ticket}") as socket:
        assert receive(socket)["type"] == "snapshot"
    assert used_tickets(sqlite_server) == before + 1


def test_a_socket_refused_over_the_cap_leaves_its_ticket_good(sqlite_server: Server) -> None:
    ann = sqlite_server.player("ann")
    ticket = sqlite_server.ticket(ann.token)
    with contextlib.ExitStack() as stack:
        held = [stack.enter_context(sqlite_server.ws(1, ann.token))
                for _ in range(SOCKETS_PER_USER)]  # fmt: skip
        assert all(receive(socket)["type"] == "snapshot" for socket in held)
        before = used_tickets(sqlite_server)
        assert refused_at(sqlite_server, f"/ws/tables/1?ticket={ticket}").code == 4429
        assert used_tickets(sqlite_server) == before
    with socket_at(sqlite_server, f"/ws/tables/1?ticket={ticket}") as socket:
        assert receive(socket)["type"] == "snapshot"
    assert TICKET_SECONDS == 30


def test_one_token_signed_out_many_times_at_once(server: Server) -> None:
    """Sign-outs of one token racing each other each answer 204 (on PostgreSQL the
    second insert of its id met the first's unique key: a 500)."""
    server.player("ann")
    for _ in range(3):
        token = server.sign_in("ann").token
        clients = [server.client(token) for _ in range(8)]
        with ThreadPoolExecutor(len(clients)) as threads:
            answers = list(threads.map(lambda c: c.post("/api/auth/logout").status_code, clients))
        assert set(answers) <= {204, 401} and 204 in answers, answers
        assert server.client(token).get("/api/me").status_code == 401


def test_one_dealer_assigned_many_times_at_once(server: Server) -> None:
    """Assignments of one dealer racing each other each answer 200 and leave one of them
    (on PostgreSQL the second's insert met the first's primary key: a 500)."""
    admin = server.player("boss", role="admin")
    server.casino.register("dee", "a password long enough", "dealer")
    table = server.live_table()
    path = "/api/admin/dealers/dee/tables"
    for wanted in ([table], [], [table]):
        body = {"tables": wanted, "reason": "the floor"}
        clients = [server.client(admin.token) for _ in range(8)]
        with ThreadPoolExecutor(len(clients)) as threads:
            answers = list(threads.map(lambda c, b=body: c.put(path, json=b), clients))
        assert [a.status_code for a in answers] == [200] * len(clients), [a.text for a in answers]
        [dee] = [d for d in admin.http.get("/api/admin/dealers").json() if d["username"] == "dee"]
        assert dee["tables"] == wanted


def test_a_dealer_given_another_role_keeps_no_tables(sqlite_server: Server) -> None:
    boss = sqlite_server.player("boss", role="admin")
    sqlite_server.player("dee", role="dealer")  # on the floor: at the live tables
    table = sqlite_server.live_table()
    [dee] = [d for d in boss.http.get("/api/admin/dealers").json() if d["username"] == "dee"]
    assert table in dee["tables"]
    tables = dee["tables"]
    to = {"role": "player", "reason": "leaves the live floor"}
    assert boss.http.put("/api/admin/users/dee/role", json=to).status_code == 200
    with sqlite_server.casino.db.read() as session:
        left = session.scalars(select(DealerTable).join(User, User.id == DealerTable.user_id)
                               .where(User.username == "dee")).all()  # fmt: skip
    assert left == []
    back = {"role": "dealer", "reason": "back on the floor"}
    assert boss.http.put("/api/admin/users/dee/role", json=back).status_code == 200
    [dee] = [d for d in boss.http.get("/api/admin/dealers").json() if d["username"] == "dee"]
    assert dee["tables"] == []  # an admin assigns them again, as any new dealer's
    changes = [e for e in boss.http.get("/api/admin/audit").json() if e["action"] == "role-changed"]
    details = {e["reason"]: e["details"] for e in changes}
    assert details["leaves the live floor"] == {"new_role": "player", "unassigned_tables": tables}
    assert details["back on the floor"] == {"new_role": "dealer"}
