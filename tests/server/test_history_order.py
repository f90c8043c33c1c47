"""A player's history is in the order they played, not the order the tables opened rounds.

Every table opens its next round as soon as the last one ends, so a round's id says when
its table opened it: a table left idle keeps an old id for the round a player bets on
much later. The last ten rounds are the last ten the player bet on.
"""

from __future__ import annotations

from tests.server.harness import Server


def test_history_lists_the_rounds_last_bet_on_first(sqlite_server: Server) -> None:
    ann = sqlite_server.player()
    ann.sit(1)
    ann.sit(4)
    played = []
    for table_id, bet in ((1, "banker"), (1, "player"), (1, "tie"), (4, "main")):
        round_id = ann.http.get(f"/api/tables/{table_id}").json()["round_id"]
        assert ann.bet(table_id, bet, 100).status_code == 201
        ann.http.post(f"/api/tables/{table_id}/deal")
        sqlite_server.play_out()  # its timers run out (Lo-Ball's choice)
        assert ann.http.get(f"/api/rounds/{round_id}").json()["state"] == "settled"
        played.append(round_id)
        sqlite_server.advance(1.0)  # a second before the next: the test's clock stands still
    assert played[-1] < played[-2]  # Lo-Ball's round was opened at start, before the others
    history = ann.http.get("/api/me/history").json()
    assert [h["round_id"] for h in history] == played[::-1]
    assert [h["round_id"] for h in ann.http.get("/api/me/history?limit=2").json()] == [
        played[3], played[2]]  # fmt: skip
