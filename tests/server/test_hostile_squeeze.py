"""The squeeze, sound preferences and languages as a hostile visitor tries them.

A bend out of turn, malformed, at another table or after the squeeze, a flood of bends
from one squeezer's several sockets; a header or a catalog path no browser sends; a
preferences body of the wrong shape: each is refused clearly, changes nothing, and no
face of a squeezed card reaches anyone but its squeezer before its ``card-exposed``.
"""

from __future__ import annotations

import json
import re

from tests.server.harness import Server, drain, receive
from tests.server.test_guard_tokens import another_token, socket_at
from tests.server.test_squeeze import events_of, squeeze_table

MINI = 3
"""The default electronic Mini RedGreen table."""
JSON = {"content-type": "application/json"}
BEND = {"type": "bend", "position": "player.0", "corner": "br", "lift": 420}


def malformed() -> list[str]:
    """Bend messages no page sends: each a ``bad_bend``."""
    texts = ['{"type":"bend"', '{"type":"bend",' + '"x":' * 40 + "1}", '{"type":"bend"}']
    for field, value in (("lift", -1), ("lift", 4.5), ("lift", "420"), ("lift", True),
                         ("lift", 10**40), ("lift", None), ("corner", "BR"), ("corner", "☃"),
                         ("position", {"a": [1]}), ("position", ""), ("position", "p" * 17),
                         ("more", 1)):  # fmt: skip
        texts.append(json.dumps({**BEND, field: value}))
    texts.append(json.dumps({**BEND, "corner": "br" + " " * 200}))
    return texts


def test_only_the_squeezer_bends_and_nothing_else_gets_through(sqlite_server: Server) -> None:
    server = sqlite_server
    table = squeeze_table(server)
    high, low, elsewhere = server.player("high"), server.player("low"), server.player("away")
    high.sit(table)
    low.sit(table)
    laptop = another_token(server, "high")
    path = f"/api/tables/{table}/squeeze"
    round_id = high.http.get(f"/api/tables/{table}").json()["round_id"]
    with (
        server.ws(table, high.token) as mine,
        server.ws(table, laptop) as my_other,
        server.ws(table, low.token) as theirs,
        socket_at(server, f"/ws/tables/{table}") as watcher,
        server.ws(1, high.token) as my_other_table,
        server.ws(1, elsewhere.token) as other_table,
    ):
        sockets = (mine, my_other, theirs, watcher, my_other_table, other_table)
        for socket in sockets:
            assert receive(socket)["type"] == "snapshot"
        mine.send(json.dumps(BEND))  # betting: no squeeze to bend
        assert receive(mine)["code"] == "not_squeezing"
        high.bet(table, "player", 5000)
        low.bet(table, "banker", 500)
        high.http.post(f"/api/tables/{table}/deal")
        low.http.post(f"/api/tables/{table}/deal")
        server.idle()
        faces = next(e for e in events_of(drain(mine)) if e["kind"] == "peeked")["cards"]
        for socket in sockets[1:]:
            drain(socket)

        for text in malformed():
            server.advance(1.0)  # refusals: at most one a second
            mine.send(text)
            answer = receive(mine)
            assert answer["type"] == "refused" and answer["code"] == "bad_bend", text
        server.advance(1.0)
        for _ in range(5):  # a flood of refusals: one told, the rest dropped
            theirs.send(json.dumps(BEND))
        assert [m["code"] for m in drain(theirs)] == ["not_squeezing"]
        server.advance(1.0)
        my_other_table.send(json.dumps(BEND))  # the squeezer, at a table with no squeeze
        assert receive(my_other_table)["code"] == "not_squeezing"
        for socket in sockets[2:]:
            assert drain(socket) == [], "nothing of a refused bend is relayed"

        for lift in range(100, 130):  # a flood from one socket: the first, then the newest
            mine.send(json.dumps({**BEND, "lift": lift}))
        assert receive(theirs)["lift"] == 100
        assert receive(theirs)["lift"] == 129
        assert receive(watcher)["lift"] == 100 and receive(watcher)["lift"] == 129
        for socket in (mine, my_other, my_other_table, other_table):
            assert drain(socket) == [], "a bend reaches neither its squeezer nor another table"
        server.advance(1.0)
        for lift in range(200, 210):  # and from two sockets: still twenty a second, no more
            mine.send(json.dumps({**BEND, "lift": lift}))
            my_other.send(json.dumps({**BEND, "lift": lift + 100}))
        first, newest = receive(theirs)["lift"], receive(theirs)["lift"]
        assert first == 200 and newest in (209, 309)  # the newest of either socket
        assert drain(theirs) == [] and len(drain(watcher)) == 2

        turn = f"{path}/turn"
        for reply, status in ((high.http.post(turn, content=b"{", headers=JSON), 422),
                              (high.http.post(turn, json={"position": "player.0" * 3}), 422),
                              (high.http.post(turn, json={"position": None}), 422),
                              (high.http.post("/api/tables/99999/squeeze/done"), 404),
                              (high.http.post("/api/tables/x/squeeze/done"), 422),
                              (server.client().post(f"{path}/done"), 401)):  # fmt: skip
            assert reply.status_code == status and reply.json()["error"], reply.text
        assert high.round_of(table)["state"] == "squeeze" and drain(theirs) == []
        high.http.post(f"{path}/done")
        server.idle()
        drain(theirs)
        drain(mine)
        server.advance(1.0)
        mine.send(json.dumps(BEND))  # Player's squeeze is over: its cards bend no more
        assert receive(mine)["code"] == "not_squeezing"
        for body in ({"position": "player.0"}, {"position": "banker.0"}):
            assert high.http.post(f"{path}/turn", json=body).status_code == 403
        assert high.http.post(f"{path}/done").status_code == 403
        assert drain(theirs) == []
        seen = json.dumps([low.round_of(table), high.round_of(table)])
        assert all(f'"{face}"' in seen for face in faces)  # exposed now, to everyone
        server.advance(18.0)  # Banker's squeeze, low's: bending and turning hold it no longer
        drain(mine)
        theirs.send(json.dumps({**BEND, "position": "banker.0"}))
        assert receive(mine)["type"] == "bend"
        assert low.http.post(f"{path}/turn", json={"position": "banker.0"}).status_code == 200
        server.advance(2.0)  # past squeeze_seconds since the offer, whatever was done
        events = low.http.get(f"/api/rounds/{round_id}").json()["events"]
        ended = [e["reason"] for e in events if e["kind"] == "squeeze-ended"]
        assert ended[:2] == ["done", "timer"]  # (a third card may be squeezed next)
    server.play_out()


def test_no_face_of_mini_redgreens_squeeze_reaches_anyone_else(sqlite_server: Server) -> None:
    server = sqlite_server
    ann, bob = server.player("ann"), server.player("bob")
    ann.sit(MINI)
    bob.sit(MINI)
    round_id = ann.http.get(f"/api/tables/{MINI}").json()["round_id"]
    lobby = f"/ws/lobby?ticket={server.ticket(bob.token)}"
    with server.ws(MINI, ann.token) as mine, socket_at(server, lobby) as feed:
        assert receive(mine)["type"] == "snapshot"
        ann.bet(MINI, "red", 1000)
        bob.bet(MINI, "green", 500)
        for player in (ann, bob):
            player.http.post(f"/api/tables/{MINI}/deal")
        server.idle()
        chosen = ann.http.post(f"/api/rounds/{round_id}/choose", json={"hand": "red"})
        assert chosen.status_code == 200
        server.advance(1.0)
        assert bob.round_of(MINI)["state"] == "squeeze"
        peeked = next(e for e in events_of(drain(mine)) if e["kind"] == "peeked")
        assert peeked["player"] == "ann" and peeked["hand"] == "green"
        outside = [bob.round_of(MINI), server.client().get(f"/api/rounds/{round_id}").json(),
                   bob.http.get(f"/api/tables/{MINI}").json(), drain(feed),
                   bob.http.get("/api/me/history").json()]  # fmt: skip
        with server.ws(MINI, bob.token) as theirs, socket_at(server, f"/ws/tables/{MINI}") as w:
            outside += [receive(theirs), receive(w)]
        seen = json.dumps(outside)
        assert '"squeeze-offered"' in seen and '"server_seed": null' in seen
        assert not re.search(r'"position": "green\.\d", "item": "', seen)  # null to all
        assert not re.search(r'"green": \["', seen) and '"cards": null' in seen
        turn = f"/api/tables/{MINI}/squeeze/turn"
        assert bob.http.post(turn, json={"position": "green.0"}).status_code == 403
        assert ann.http.post(turn, json={"position": "red.0"}).status_code == 409
    server.play_out()


def test_odd_languages_catalog_paths_and_preferences_are_refused_or_read_safely(
    sqlite_server: Server,
) -> None:
    client = sqlite_server.client()
    headers = ["x" * 20_000, "zh;q=nan, en", "zh-TW;q=1e3, en", ",".join(["fr"] * 5000),
               "*;q=0, zh-Hant;q=-1", "zh-TW;q=0.9.9", "zh-Hant-TW-xx-" + "-a" * 3000,
               "zh-TW;q=1;q=0.5", "\u00e9", "zh-\u0645;q=1", ";q=1"]  # fmt: skip
    for header in headers:
        page = client.get("/", headers={b"accept-language": header.encode("utf-8")})
        assert page.status_code == 200 and '<html lang="en"' in page.text, header
    assert (
        '<html lang="zh-Hant"'
        in client.get("/", headers={"accept-language": "fr, zh-HK;q=0.1"}).text
    )
    for path in ("/i18n/..%2F..%2Fpyproject.toml%00.json", "/i18n/%2e%2e.json", "/i18n/EN.json",
                 "/i18n/en%00.json", "/i18n/" + "a" * 5000 + ".json", "/i18n/zh-Hans%2F..%2Fen.json",
                 "/i18n/.json", "/i18n/common.json"):  # fmt: skip
        answer = client.get(path)
        assert answer.status_code == 404 and answer.json()["error"] in ("not_found", "http"), path
        assert len(answer.text) < 400
    assert client.get("/i18n/en.json").json()

    ann = sqlite_server.player("ann")
    chosen = {"sound": True, "volume": 30, "language": "zh-Hant"}
    assert ann.http.put("/api/me/preferences", json=chosen).json() == chosen
    for body in ({"sound": None}, {"volume": None}, {"sound": "true"}, {"volume": 30.0},
                 {"volume": 101}, {"volume": -1}, {"volume": True}, {"language": "zh-hant"},
                 {"language": "../en"}, {"language": ["en"]}, {"theme": "dark"}, [chosen], "x",
                 {"sound": False, "more": "x" * 100_000}, {"volume": 10**400}):  # fmt: skip
        answer = ann.http.put("/api/me/preferences", json=body)
        assert answer.status_code in (413, 422) and answer.json()["error"], body
    for raw in (b"{", b"", b"\xff\xfe", b'{"sound": tru}', b"[" * 10_000):
        answer = ann.http.put("/api/me/preferences", content=raw,
                              headers={"content-type": "application/json"})  # fmt: skip
        assert answer.status_code in (400, 422) and answer.json()["error"], raw
    assert ann.http.get("/api/me/preferences").json() == chosen
    assert client.put("/api/me/preferences", json=chosen).status_code == 401
