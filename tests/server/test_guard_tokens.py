"""Tokens that can be revoked, sockets that open without a token in their URL, and a
bound on the sockets one user holds.

- signing out revokes this token (and closes its sockets, 4401), not the user's others;
- signing out everywhere, a new password or a new role revokes every token of theirs;
- a process that did not revoke the token refuses it too: at once when it is told, and
  within :data:`~baccara.server.domain.accounts.TOKEN_RECHECK` seconds when it is not;
- a socket opens with a ticket from ``POST /api/ws-ticket``: used once, dead after
  30 seconds; ``?token=`` is refused;
- one user holds at most :data:`~baccara.server.cluster.hub.SOCKETS_PER_USER` sockets;
- a binary frame closes its socket (1003) and nothing else.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import update

from baccara.server.cluster.hub import SOCKETS_PER_USER
from baccara.server.db.models import User
from baccara.server.domain.accounts import TICKET_SECONDS, TOKEN_RECHECK
from tests.server.conftest import settings_for
from tests.server.harness import (
    PASSWORD,
    InProcessSocket,
    Player,
    Server,
    Socket,
    SocketClosed,
    in_process,
    receive,
    wait_for,
)
from tests.server.postgres import Cluster


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def another_token(server: Server, name: str, password: str = PASSWORD) -> str:
    """A second sign-in of the same user: another device."""
    answer = server.client().post("/api/auth/login", json={"username": name, "password": password})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["token"])


def me(server: Server, token: str) -> httpx.Response:
    return server.client(token).get("/api/me")


def closed_with(socket: Socket) -> SocketClosed:
    """How the casino closed ``socket``: the messages before the close are read past."""
    with pytest.raises(SocketClosed) as closed:
        for _ in range(100):
            receive(socket, timeout=10)
    return closed.value


@contextlib.contextmanager
def socket_at(server: Server, path: str) -> Iterator[InProcessSocket]:
    """A socket opened at ``path`` as it is, query and all (``server.ws`` asks a ticket)."""
    assert server.loop is not None
    with InProcessSocket(server.loop, server.app, path) as socket:
        yield socket


def test_signing_out_revokes_this_token_and_closes_its_sockets(sqlite_server: Server) -> None:
    ann = sqlite_server.player("ann")
    laptop = another_token(sqlite_server, "ann")
    with sqlite_server.ws(1, ann.token) as phone_socket, sqlite_server.ws(1, laptop) as other:
        assert receive(phone_socket)["type"] == receive(other)["type"] == "snapshot"
        assert ann.http.post("/api/auth/logout").status_code == 204
        closed = closed_with(phone_socket)
        assert closed.code == 4401 and "signed out" in closed.reason
        other.send("ping")
        assert receive(other) == {"type": "pong"}  # the laptop's socket stays open
    refused = me(sqlite_server, ann.token)
    assert refused.status_code == 401 and "signed out" in refused.json()["detail"]
    assert ann.bet(1, "banker", 100).status_code == 401  # the bet lane refuses it too
    assert ann.http.post("/api/ws-ticket").status_code == 401
    assert me(sqlite_server, laptop).json()["username"] == "ann"


def test_signing_out_everywhere_revokes_every_token_of_the_user(sqlite_server: Server) -> None:
    ann, bob = sqlite_server.player("ann"), sqlite_server.player("bob")
    laptop = another_token(sqlite_server, "ann")
    with sqlite_server.ws(1, laptop) as laptop_socket, sqlite_server.ws(1, bob.token) as bobs:
        assert receive(laptop_socket)["type"] == receive(bobs)["type"] == "snapshot"
        assert ann.http.post("/api/auth/logout-everywhere").status_code == 204
        assert closed_with(laptop_socket).code == 4401
        bobs.send("ping")
        assert receive(bobs) == {"type": "pong"}
    for token in (ann.token, laptop):
        refused = me(sqlite_server, token)
        assert refused.status_code == 401 and "revoked" in refused.json()["detail"]
    assert me(sqlite_server, bob.token).status_code == 200
    assert me(sqlite_server, another_token(sqlite_server, "ann")).status_code == 200


def test_a_new_password_revokes_every_token_and_answers_a_new_one(sqlite_server: Server) -> None:
    ann = sqlite_server.player("ann")
    laptop = another_token(sqlite_server, "ann")
    new = "a new and longer password"
    wrong = ann.http.put("/api/me/password",
                         json={"current_password": "not my password", "new_password": new})  # fmt: skip
    assert wrong.status_code == 403
    assert me(sqlite_server, laptop).status_code == 200  # nothing changed
    short = ann.http.put("/api/me/password", json={"current_password": PASSWORD,
                                                    "new_password": "short"})  # fmt: skip
    assert short.status_code == 400 and "password" in short.json()["detail"]
    another_token(sqlite_server, "ann")  # the old password still signs in
    with sqlite_server.ws(1, laptop) as laptop_socket:
        assert receive(laptop_socket)["type"] == "snapshot"
        changed = ann.http.put("/api/me/password",
                               json={"current_password": PASSWORD, "new_password": new})  # fmt: skip
        assert changed.status_code == 200, changed.text
        assert closed_with(laptop_socket).code == 4401
    for token in (ann.token, laptop):
        assert me(sqlite_server, token).status_code == 401
    assert me(sqlite_server, changed.json()["token"]).json()["username"] == "ann"
    old = sqlite_server.client().post("/api/auth/login",
                                      json={"username": "ann", "password": PASSWORD})  # fmt: skip
    assert old.status_code == 401
    assert me(sqlite_server, another_token(sqlite_server, "ann", new)).status_code == 200


def test_a_new_role_revokes_the_users_tokens_and_is_audited(sqlite_server: Server) -> None:
    boss = sqlite_server.player("boss", role="admin")
    ann = sqlite_server.player("ann")
    role = {"role": "dealer", "reason": "joins the live floor"}
    assert ann.http.put("/api/admin/users/ann/role", json=role).status_code == 403
    assert me(sqlite_server, ann.token).json()["role"] == "player"  # nothing changed
    own = boss.http.put("/api/admin/users/boss/role", json={**role, "role": "player"})
    assert own.status_code == 403
    unknown = boss.http.put("/api/admin/users/ann/role", json={**role, "role": "owner"})
    assert unknown.status_code == 400 and "role" in unknown.json()["detail"]
    assert boss.http.put("/api/admin/users/nobody/role", json=role).status_code == 404
    with sqlite_server.ws(1, ann.token) as socket:
        assert receive(socket)["type"] == "snapshot"
        changed = boss.http.put("/api/admin/users/ann/role", json=role)
        assert changed.status_code == 200 and changed.json() == {"username": "ann",
                                                                 "role": "dealer"}  # fmt: skip
        assert closed_with(socket).code == 4401
    assert me(sqlite_server, ann.token).status_code == 401
    assert me(sqlite_server, another_token(sqlite_server, "ann")).json()["role"] == "dealer"
    [entry] = [e for e in boss.http.get("/api/admin/audit").json() if e["action"] == "role-changed"]
    assert (entry["actor"], entry["target"], entry["reason"]) == (
        "boss", "user ann", "joins the live floor")  # fmt: skip
    assert me(sqlite_server, boss.token).status_code == 200


def test_a_ticket_opens_one_socket(sqlite_server: Server) -> None:
    ann = sqlite_server.player("ann")
    ticket = sqlite_server.ticket(ann.token)
    with socket_at(sqlite_server, f"/ws/tables/1?ticket={ticket}") as socket:
        assert receive(socket)["type"] == "snapshot"
        with (
            pytest.raises(SocketClosed) as again,
            socket_at(sqlite_server, f"/ws/tables/2?ticket={ticket}"),
        ):
            pass
    assert again.value.code == 4401 and "used already" in again.value.reason


def test_a_ticket_expires_after_its_seconds_on_the_clock(sqlite_server: Server) -> None:
    ann = sqlite_server.player("ann")
    kept, late = sqlite_server.ticket(ann.token), sqlite_server.ticket(ann.token)
    assert ann.http.post("/api/ws-ticket").json()["expires_in"] == TICKET_SECONDS == 30
    sqlite_server.advance(TICKET_SECONDS - 1)
    with socket_at(sqlite_server, f"/ws/tables/1?ticket={kept}") as socket:
        assert receive(socket)["type"] == "snapshot"
    sqlite_server.advance(1)
    with (
        pytest.raises(SocketClosed) as expired,
        socket_at(sqlite_server, f"/ws/tables/1?ticket={late}"),
    ):
        pass
    assert expired.value.code == 4401 and "expired" in expired.value.reason


def test_a_token_never_opens_a_socket_nor_a_ticket_signs_in(sqlite_server: Server) -> None:
    ann = sqlite_server.player("ann")
    ticket = sqlite_server.ticket(ann.token)
    for path in (f"/ws/tables/1?token={ann.token}",  # the old way: refused
                 f"/ws/tables/1?token={ann.token}&ticket={ticket}",
                 f"/ws/tables/1?ticket={ann.token}",  # a token is no ticket
                 "/ws/tables/1?ticket="):  # no ticket at all is a watcher's, not an empty one  # fmt: skip
        with pytest.raises(SocketClosed) as refused, socket_at(sqlite_server, path):
            pass
        assert refused.value.code == 4401, path
    assert me(sqlite_server, ticket).status_code == 401  # nor is a ticket a token
    with socket_at(sqlite_server, f"/ws/tables/1?ticket={ticket}") as socket:
        assert receive(socket)["type"] == "snapshot"


def test_one_user_holds_a_bounded_number_of_sockets(sqlite_server: Server) -> None:
    ann, bob = sqlite_server.player("ann"), sqlite_server.player("bob")
    with contextlib.ExitStack() as stack:
        held = [stack.enter_context(sqlite_server.ws(1 + i % 4, ann.token))
                for i in range(SOCKETS_PER_USER)]  # fmt: skip
        assert all(receive(socket)["type"] == "snapshot" for socket in held)
        with sqlite_server.ws(1, ann.token) as one_more:
            refused = closed_with(one_more)
        assert refused.code == 4429 and f"{SOCKETS_PER_USER} sockets" in refused.reason
        with sqlite_server.ws(1, bob.token) as bobs:  # another user is not held back
            assert receive(bobs)["type"] == "snapshot"
    with sqlite_server.ws(1, ann.token) as socket:  # closed ones are counted no more
        assert receive(socket)["type"] == "snapshot"
    assert sqlite_server.casino.hub.held == {}


def test_a_binary_frame_closes_its_socket_cleanly(
    sqlite_server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    ann = sqlite_server.player("ann")
    caplog.set_level(logging.WARNING)
    with sqlite_server.ws(1, ann.token) as socket:
        assert receive(socket)["type"] == "snapshot"
        assert isinstance(socket, InProcessSocket) and socket.inbox is not None
        socket.loop.soon(socket.inbox.put_nowait,
                         {"type": "websocket.receive", "bytes": b"\x00\xff"})  # fmt: skip
        closed = closed_with(socket)
    assert closed.code == 1003 and closed.reason == "text messages only"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    with sqlite_server.ws(1, ann.token) as socket:  # the table is served on
        assert receive(socket)["type"] == "snapshot"


def test_a_revocation_another_process_was_not_told_of_holds_within_the_recheck(
    sqlite_server: Server,
) -> None:
    """A revocation reaches this process through the database alone (another process
    moved the user's generation on and its word was lost): the token still passes for at
    most TOKEN_RECHECK seconds of the casino's clock, then is refused."""
    ann = sqlite_server.player("ann")
    assert me(sqlite_server, ann.token).status_code == 200
    with sqlite_server.casino.db.write() as session:
        session.execute(update(User).where(User.username == "ann")
                        .values(token_generation=User.token_generation + 1))  # fmt: skip
    assert me(sqlite_server, ann.token).status_code == 200
    sqlite_server.advance(TOKEN_RECHECK)
    assert me(sqlite_server, ann.token).status_code == 401
    assert ann.bet(1, "banker", 100).status_code == 401


def test_a_token_revoked_in_one_process_is_refused_by_another(
    postgres: Cluster,
) -> None:
    """Two casino processes on one database: a sign-out in the first closes the socket
    the second serves and is refused there at once (the second was told), and a ticket
    used in one opens nothing in the other."""
    url = postgres.new_database()
    with in_process(settings_for(url)) as first, in_process(settings_for(url)) as second:
        ann = first.player("ann")
        there = Player("ann", ann.token, second.client(ann.token), second)
        assert there.http.get("/api/me").status_code == 200
        ticket = first.ticket(ann.token)
        with socket_at(first, f"/ws/tables/1?ticket={ticket}") as near:
            assert receive(near)["type"] == "snapshot"
            with (
                pytest.raises(SocketClosed) as reused,
                socket_at(second, f"/ws/tables/1?ticket={ticket}"),
            ):
                pass
            assert reused.value.code == 4401 and "used already" in reused.value.reason
        with second.ws(1, ann.token) as far:
            assert receive(far)["type"] == "snapshot"
            assert ann.http.post("/api/auth/logout").status_code == 204
            assert closed_with(far).code == 4401
        wait_for(lambda: there.http.get("/api/me").status_code == 401, timeout=10)
