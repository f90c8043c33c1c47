"""A signed-in lobby socket whose token is revoked while it opens — after its ticket was
read, before the lobby counted it among the sockets a revocation closes — closes 4401
and is never told the balance, as a table socket opening so is closed (``ws.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.harness import InProcessSocket, Server, SocketClosed, receive


def test_a_lobby_socket_revoked_while_it_opens_closes_untold(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = server.player()
    assert server.loop is not None
    casino = server.casino
    read_balance = casino.balance

    def signed_out_meanwhile(user_id: int) -> Any:
        """Ann signs out in another tab just as her lobby socket reads her balance."""
        assert ann.http.post("/api/auth/logout").status_code in (200, 204)
        return read_balance(user_id)

    monkeypatch.setattr(casino, "balance", signed_out_meanwhile)
    path = f"/ws/lobby?ticket={server.ticket(ann.token)}"
    seen: list[str] = []
    with (
        InProcessSocket(server.loop, server.app, path) as socket,
        pytest.raises(SocketClosed) as closed,
    ):
        while True:
            seen.append(receive(socket, timeout=5)["type"])
    assert closed.value.code == 4401
    assert "balance" not in seen  # the signed-out tab is not told it


def test_a_lobby_socket_still_signed_in_is_told_its_balance_once(server: Server) -> None:
    """Without a revocation the socket opens as before: the lobby, then the balance."""
    ann = server.player()
    assert server.loop is not None
    start = ann.balance()
    path = f"/ws/lobby?ticket={server.ticket(ann.token)}"
    with InProcessSocket(server.loop, server.app, path) as socket:
        assert receive(socket)["type"] == "lobby"
        assert receive(socket) == {"type": "balance", "balance_cents": start}
        socket.send("ping")
        assert receive(socket) == {"type": "pong"}  # one balance, nothing else queued
