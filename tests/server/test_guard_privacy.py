"""What one player may learn of another: never a bet's client seed or idempotency key; a
round's players only as the table shows them, and only to those who could see the table;
and what the casino's own pages let a stranger do (a redirect to another host, a viewer
loaded from a CDN).

Every place a player can look is tried: the WebSocket (its snapshot and each event), the
round's record, their history, and the round record's verification still passing from
what they are shown.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from baccara.server.domain.betting import seed_of_key
from baccara.table.record import verify_record
from tests.server.harness import Server, drain, receive


def _texts(*answers: Any) -> str:
    return "\n".join(json.dumps(answer) for answer in answers)


def test_no_bet_ever_shows_its_client_seed_or_key(sqlite_server: Server) -> None:
    """Punto Banco, electronic: ann (no seed of her own) and bob (his own) bet; carol
    watches. Ann is the highest bettor, so her bet cuts the shoe."""
    ann, bob, carol = (sqlite_server.player() for _ in range(3))
    bob_seed = f"bob-cut-{uuid.uuid4().hex[:8]}"
    assert bob.http.put("/api/me/client-seed", json={"client_seed": bob_seed}).status_code == 200
    ann_key, bob_key = f"ann-key-{uuid.uuid4().hex}", f"bob-key-{uuid.uuid4().hex}"
    round_id = carol.http.get("/api/tables/1").json()["round_id"]
    with sqlite_server.ws(1, carol.token) as watching, sqlite_server.ws(1, bob.token) as own:
        carols, bobs = [receive(watching)], [receive(own)]
        assert ann.bet(1, "banker", 5_000, key=ann_key).status_code == 201
        assert bob.bet(1, "player", 1_000, key=bob_key).status_code == 201
        assert ann.bet(1, "banker", 5_000, key=ann_key).status_code == 201  # a retry: once
        carols += drain(watching)
        bobs += drain(own)
        carols.append(carol.http.get(f"/api/rounds/{round_id}").json())
        bobs.append(bob.http.get(f"/api/rounds/{round_id}").json())
        sqlite_server.advance(1.0)  # the betting timer runs out: the round is dealt
        sqlite_server.play_out()
        carols += drain(watching)
        bobs += drain(own)
        with sqlite_server.ws(1, carol.token) as later:
            carols.append(receive(later))  # a fresh snapshot of the next round
    record = carol.http.get(f"/api/rounds/{round_id}").json()
    carols.append(record)
    bobs += [bob.http.get(f"/api/rounds/{round_id}").json(), bob.http.get("/api/me/history").json()]
    anns = [ann.http.get(f"/api/rounds/{round_id}").json(), ann.http.get("/api/me/history").json()]
    shown = _texts(*carols, *bobs, *anns)
    placed = re.findall(r'\{"kind": "bet-placed"[^{}]*\}', shown)
    assert len(placed) >= 4  # the bets were seen, on the socket and in the records
    assert all('"client_seed"' not in event for event in placed)
    assert ann_key not in shown and bob_key not in shown  # no one's key, not even to its owner
    assert bob_seed not in _texts(*carols, *anns)  # bob's own seed: not to the others
    assert record["state"] == "settled"
    assert record["client_seed"] == seed_of_key(ann_key)  # ann cut the shoe: drawn from her key
    closed = next(e for e in record["events"] if e["kind"] == "betting-closed")
    assert closed["client_seed"] == record["client_seed"] and closed["highest_bettor"] == ann.name
    assert verify_record(record).ok  # what a player is shown is all the verifier needs


def test_the_round_record_shows_players_as_the_table_does(sqlite_server: Server) -> None:
    """RedGreen seats its bettors: the record names each bet by seat and username, as the
    table's seats do, and carries no user id."""
    ann, bob, carol = (sqlite_server.player() for _ in range(3))
    assert ann.sit(2, 3).status_code == 200 and bob.sit(2, 5).status_code == 200
    assert ann.bet(2, "red", 1_000).status_code == 201
    assert bob.bet(2, "green", 500).status_code == 201
    seated = carol.http.get("/api/tables/2").json()["seated"]
    record = carol.round_of(2)
    by_seat = {str(bet["seat"]): bet["username"] for bet in record["bets"]}
    assert by_seat == seated == {"3": ann.name, "5": bob.name}
    assert all(set(bet) == {"bet_id", "username", "bet", "amount_cents", "seat", "payout_cents"}
               for bet in record["bets"])  # fmt: skip
    assert '"user_id"' not in json.dumps(record)


def test_a_closed_tables_rounds_are_for_its_players_and_staff(sqlite_server: Server) -> None:
    """Anyone signed in may watch an open table, so may read its rounds; once it has
    closed, a stranger may not — its players (their history) and the staff may."""
    ann, carol = sqlite_server.player(), sqlite_server.player()
    boss = sqlite_server.player(role="admin")
    round_id = ann.http.get("/api/tables/1").json()["round_id"]
    assert ann.bet(1, "banker", 1_000).status_code == 201
    sqlite_server.advance(1.0)
    sqlite_server.play_out()
    assert carol.http.get(f"/api/rounds/{round_id}").status_code == 200  # the table is open
    assert boss.http.delete("/api/tables/1").status_code == 204
    refused = carol.http.get(f"/api/rounds/{round_id}")
    assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
    assert "closed" in refused.json()["detail"]
    assert ann.http.get(f"/api/rounds/{round_id}").json()["state"] == "settled"
    assert boss.http.get(f"/api/rounds/{round_id}").status_code == 200
    assert sqlite_server.client().get(f"/api/rounds/{round_id}").status_code == 401


def test_staff_act_by_role_never_by_name(sqlite_server: Server) -> None:
    """A live round voided by an admin: the players see that the staff voided it, not the
    name the admin signs in with; the admin sees their own name."""
    ann = sqlite_server.player()
    boss = sqlite_server.player(f"boss-{uuid.uuid4().hex[:6]}", role="admin")
    live = sqlite_server.live_table()
    round_id = ann.http.get(f"/api/tables/{live}").json()["round_id"]
    with sqlite_server.ws(live, ann.token) as socket:
        receive(socket)
        assert ann.bet(live, "banker", 1_000).status_code == 201
        voided = boss.http.post(f"/api/rounds/{round_id}/void", json={"reason": "a misdeal"})
        assert voided.status_code == 200, voided.text
        messages = drain(socket)
    record = ann.http.get(f"/api/rounds/{round_id}").json()
    shown = _texts(record, ann.http.get("/api/me/history").json(), *messages)
    void = next(e for e in record["events"] if e["kind"] == "round-voided")
    assert void["by"] == "staff" and boss.name not in shown
    assert '"by": "staff"' in _texts(*messages)
    own = boss.http.get(f"/api/rounds/{round_id}").json()
    assert next(e for e in own["events"] if e["kind"] == "round-voided")["by"] == boss.name


def test_a_redirect_never_names_the_host_a_client_sent(sqlite_server: Server) -> None:
    client = sqlite_server.client()
    for path in ("/static", "/api/tables/"):
        answer = client.get(path, headers={"Host": "evil.example"})
        assert answer.status_code in (307, 308), path
        location = answer.headers["location"]
        assert location.startswith("/") and not location.startswith("//"), location
        assert "evil" not in location
    assert client.get("/static", headers={"Host": "evil.example"}).headers["location"] == "/static/"


def test_the_docs_load_their_viewer_from_the_casino(sqlite_server: Server) -> None:
    client = sqlite_server.client()
    page = client.get("/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert sources and all(s.startswith("/") and not s.startswith("//") for s in sources), sources
    for source in sources:
        assert client.get(source).status_code == 200, source
    policy = page.headers["content-security-policy"]
    assert "http" not in policy and "unsafe" not in policy and "cdn" not in policy
    assert "script-src 'self' 'sha256-" in policy and "frame-ancestors 'none'" in policy
    schema = client.get(re.search(r"url: '([^']+)'", page.text)[1]).json()  # type: ignore[index]
    assert schema["openapi"].startswith("3.0") and schema["paths"].keys() == (
        client.get("/openapi.json").json()["paths"].keys()
    )
    assert client.get("/redoc").status_code == 404  # FastAPI's other viewer: from a CDN
