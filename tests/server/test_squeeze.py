"""The squeeze at the casino: a Punto Banco table that deals for it, the squeezer's routes,
the bends relayed live to everyone else at the table, and every refusal.

No face of a squeezed card reaches anyone but the squeezer before its ``card-exposed``:
not the round endpoint, the history, a player's or a signed-out watcher's socket, a
socket opened mid-squeeze, nor a bend.
"""

from __future__ import annotations

import json
from typing import Any

from tests.server.harness import Server, drain, receive
from tests.server.test_guard_tokens import socket_at

MINI = 3
"""The default electronic Mini RedGreen table: its highest bettor squeezes the second hand."""


def squeeze_table(server: Server) -> int:
    admin = server.player(role="admin")
    refused = admin.http.post("/api/tables", json={"game": "punto-banco", "min_bet_cents": 100,
                              "max_bet_cents": 10_000, "mode": "live", "squeeze": True})  # fmt: skip
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_option"
    assert "real cards" in refused.json()["detail"]
    not_bool = admin.http.post("/api/tables", json={"game": "punto-banco", "min_bet_cents": 100,
                               "max_bet_cents": 10_000, "squeeze": "yes"})  # fmt: skip
    assert not_bool.status_code == 422
    made = admin.http.post("/api/tables", json={"game": "punto-banco", "min_bet_cents": 100,
                           "max_bet_cents": 10_000, "squeeze": True})  # fmt: skip
    assert made.status_code == 201, made.text
    table = made.json()
    assert table["squeeze"] is True and table["timers"]["squeeze_seconds"] == 20.0
    return int(table["id"])


def events_of(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for m in messages for e in m.get("events", [])]


def test_the_squeezer_turns_the_cards_and_the_table_watches_the_bends(
    sqlite_server: Server,
) -> None:
    server = sqlite_server
    table = squeeze_table(server)
    listed = {t["id"]: t for t in server.client().get("/api/tables").json()}
    assert listed[table]["squeeze"] and not listed[1]["squeeze"] and listed[MINI]["squeeze"]
    high, low = server.player("high"), server.player("low")
    high.sit(table)
    low.sit(table)
    path = f"/api/tables/{table}/squeeze"
    assert high.http.post(f"{path}/done").json()["error"] == "not_now"  # betting: no squeeze
    round_id = high.http.get(f"/api/tables/{table}").json()["round_id"]
    with (
        server.ws(table, high.token) as mine,
        server.ws(table, low.token) as theirs,
        socket_at(server, f"/ws/tables/{table}") as watcher,
    ):
        for socket in (mine, theirs, watcher):
            assert receive(socket)["type"] == "snapshot"
        high.bet(table, "player", 5000)
        low.bet(table, "banker", 500)
        high.http.post(f"/api/tables/{table}/deal")
        low.http.post(f"/api/tables/{table}/deal")
        server.idle()
        assert low.round_of(table)["state"] == "squeeze"
        offered = next(e for e in events_of(drain(mine)) if e["kind"] == "peeked")
        faces = offered["cards"]
        assert offered["player"] == "high" and len(faces) == 2
        outside = drain(theirs) + drain(watcher)  # the deal and the offer, as the others saw it

        refused = low.http.post(f"{path}/turn", json={"position": "player.0"})
        assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
        for body in ({"position": "banker.0"}, {"position": "player.9"}):
            answer = high.http.post(f"{path}/turn", json=body)
            assert answer.status_code == 409 and answer.json()["error"] == "not_now", body
        for bad in ({"position": 5}, {}, {"position": "player.0", "more": 1}):
            assert high.http.post(f"{path}/turn", json=bad).status_code == 422, bad
        assert low.http.post(f"{path}/done").status_code == 403

        bend = {"type": "bend", "position": "player.1", "corner": "br", "lift": 420}
        mine.send(json.dumps(bend))
        relayed = {**bend, "table_id": table, "round_id": round_id}
        assert receive(theirs) == relayed and receive(watcher) == relayed
        assert drain(mine) == []  # not back to the squeezer's own socket
        theirs.send(json.dumps(bend))
        assert receive(theirs) == {"type": "refused", "code": "not_squeezing",
                                   "detail": "only the squeezer bends the cards"}  # fmt: skip
        server.advance(1.0)  # refusals: at most one a second
        mine.send(json.dumps({**bend, "lift": 1001}))
        assert receive(mine)["code"] == "bad_bend"
        watcher.send(json.dumps(bend))
        assert receive(watcher)["code"] == "not_squeezing"
        assert drain(theirs) == [] and drain(watcher) == []

        seen = [json.dumps(low.round_of(table)), json.dumps(low.http.get("/api/me/history").json())]
        with server.ws(table, low.token) as late:  # a socket opened mid-squeeze
            seen.append(json.dumps(receive(late)))
        with socket_at(server, f"/ws/tables/{table}") as late_watcher:
            seen.append(json.dumps(receive(late_watcher)))
        outside += drain(theirs) + drain(watcher)
        assert any(e["kind"] == "squeeze-offered" for e in events_of(outside))
        seen += [json.dumps(m) for m in outside]
        assert all(e["cards"] is None for e in events_of(outside) if e["kind"] == "peeked")
        for text in seen:
            for face in faces:
                assert f'"{face}"' not in text, text

        turned = high.http.post(f"{path}/turn", json={"position": "player.1"})
        assert turned.status_code == 200 and turned.json() == {"state": "squeeze"}
        (exposed,) = [e for e in events_of(drain(theirs)) if e["kind"] == "card-exposed"]
        assert (exposed["position"], exposed["item"], exposed["by"]) == (
            "player.1",
            faces[1],
            "high",
        )
        assert high.http.post(f"{path}/turn", json={"position": "player.1"}).status_code == 409
        drain(mine)
        server.advance(1.0)
        mine.send(json.dumps(bend))  # a card turned already bends no more
        assert receive(mine)["code"] == "not_squeezing"
        assert high.http.post(f"{path}/done").status_code == 200
        server.idle()  # the reveal's delay (none in these tests): then Banker's squeeze, low's
        kinds = [e["kind"] for e in events_of(drain(watcher))]
        assert kinds == ["card-exposed", "card-exposed", "squeeze-ended", "squeeze-offered",
                         "peeked"]  # fmt: skip
        assert low.round_of(table)["state"] == "squeeze"
        assert high.http.post(f"{path}/done").status_code == 403
        assert low.http.post(f"{path}/done").status_code == 200
        server.play_out()
        assert low.round_of(table)["state"] != "squeeze"
    history = low.http.get("/api/me/history").json()[0]
    assert history["round_id"] == round_id and history["server_seed"] is not None


def test_mini_redgreens_squeeze_runs_out_on_its_timer(sqlite_server: Server) -> None:
    server = sqlite_server
    ann = server.player("ann")
    ann.sit(MINI)
    round_id = ann.http.get(f"/api/tables/{MINI}").json()["round_id"]
    ann.bet(MINI, "red", 1000)
    ann.http.post(f"/api/tables/{MINI}/deal")
    server.idle()
    assert ann.http.post(f"/api/rounds/{round_id}/choose", json={"hand": "red"}).status_code == 200
    server.advance(1.0)
    assert ann.round_of(MINI)["state"] == "squeeze"
    server.advance(20.0)  # squeeze_seconds: the table turns the cards
    server.play_out()
    events = server.client(ann.token).get(f"/api/rounds/{round_id}").json()["events"]
    ended = next(e for e in events if e["kind"] == "squeeze-ended")
    assert ended["reason"] == "timer" and ended["by"] == "table"
