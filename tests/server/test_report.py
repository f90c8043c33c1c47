"""The operator's report: each table's win against what the mathematics says it should be.

Known answers from the exact analysis (README, ``baccara analyze punto-banco``): the Tie
at 8 to 1 has a house edge of 14.3596 % and a standard deviation of 2.6409 per unit.
"""

from __future__ import annotations

import math
from fractions import Fraction

from baccara import analyze
from baccara.exact import house_win_variance
from baccara.games import game
from baccara.server.domain.backoffice import cents
from tests.server.harness import Player, Server

TIE = ["4H", "9C", "5D", "KS"]
"""Player 4 5 (9), Banker 9 K (9): a natural tie."""
NO_TIE = ["9S", "2H", "KD", "3C"]
"""Player 9 K (9), Banker 2 3 (5): a Player natural."""


def live_round(dealer: Player, player: Player, table: int, bets: list[tuple[str, int]],
               cards: list[str]) -> None:  # fmt: skip
    for spot, amount in bets:
        assert player.bet(table, spot, amount).status_code == 201
    dealer.http.post(f"/api/tables/{table}/close-betting")
    assert dealer.http.post(f"/api/tables/{table}/cards", json={"cards": cards}).json()[
        "state"] == "settled"  # fmt: skip


def test_one_tie_bet_against_its_exact_edge_and_deviation(server: Server) -> None:
    admin, dealer, ann = server.player(role="admin"), server.player(role="dealer"), server.player()
    live = server.live_table()
    ann.sit(live)
    live_round(dealer, ann, live, [("tie", 1000)], NO_TIE)
    report = admin.http.get("/api/admin/report").json()
    (table,) = [t for t in report["tables"] if t["table_id"] == live]
    assert (table["rounds"], table["handle_cents"], table["actual_win_cents"]) == (1, 1000, 1000)
    assert table["theoretical_win_cents"] == 144  # 10.00 × 14.3596 %
    assert table["sd_cents"] == 2641  # 10.00 × 2.6409
    assert abs(table["z"] - (1000 - 143.596) / 2640.9) < 1e-3
    assert table["hold_pct"] == 100.0 and table["flagged"] is False


def test_theoretical_win_is_each_stake_times_its_exact_edge(server: Server) -> None:
    admin, dealer, ann, bob = (server.player(role="admin"), server.player(role="dealer"),
                               server.player(), server.player())  # fmt: skip
    live = server.live_table()
    ann.sit(live)
    bob.sit(live)
    rounds = [([("banker", 2500), ("player", 700)], NO_TIE), ([("tie", 500), ("banker", 1000)], TIE),
              ([("player-pair", 600), ("player", 5000)], NO_TIE)]  # fmt: skip
    edges = {b.bet: b.house_edge for b in analyze("punto-banco").bets}
    rules = game("punto-banco").rules()
    theoretical, variance, handle = Fraction(0), Fraction(0), 0
    for bets, cards in rounds:
        for spot, amount in bets[1:]:
            bob.bet(live, spot, amount)
        live_round(dealer, ann, live, bets[:1], cards)
        theoretical += sum((amount * edges[spot] for spot, amount in bets), Fraction(0))
        variance += house_win_variance("punto-banco", rules, [(1, s, a) for s, a in bets])
        handle += sum(amount for _, amount in bets)
    (table,) = [t for t in admin.http.get("/api/admin/report").json()["tables"]
                if t["table_id"] == live]  # fmt: skip
    assert table["handle_cents"] == handle
    assert table["theoretical_win_cents"] == cents(theoretical)
    assert table["theoretical_win_exact"] == f"{theoretical.numerator}/{theoretical.denominator}"
    assert table["sd_cents"] == cents(Fraction(math.sqrt(variance)))
    won = 100_000 * 2 - ann.balance() - bob.balance()
    assert table["actual_win_cents"] == won


def test_a_table_beyond_three_sigma_is_flagged(server: Server) -> None:
    """Two Tie wins in a row on 10.00: the house loses 160.00 where it expects to win 2.87,
    with σ = 26.41 × √2 — more than four standard deviations: a faulty shoe, or a cheat."""
    admin, dealer, ann = server.player(role="admin"), server.player(role="dealer"), server.player()
    live = server.live_table()
    ann.sit(live)
    for _ in range(2):
        live_round(dealer, ann, live, [("tie", 1000)], TIE)
    report = admin.http.get("/api/admin/report").json()
    (table,) = [t for t in report["tables"] if t["table_id"] == live]
    assert table["actual_win_cents"] == -16_000
    assert table["z"] < -4 and table["flagged"] is True
    (games,) = [g for g in report["games"] if g["game"] == "punto-banco"]
    assert games["flagged"] is True and report["casino"]["rounds"] == 2


def test_the_period_and_who_may_read_it(server: Server) -> None:
    admin, dealer, ann = server.player(role="admin"), server.player(role="dealer"), server.player()
    live = server.live_table()
    ann.sit(live)
    live_round(dealer, ann, live, [("banker", 1000)], NO_TIE)
    empty = admin.http.get("/api/admin/report", params={"from": "2020-01-01", "to": "2020-01-02"})
    assert empty.json()["tables"] == [] and empty.json()["casino"]["rounds"] == 0
    backwards = admin.http.get(
        "/api/admin/report", params={"from": "2030-01-02", "to": "2030-01-01"}
    )
    assert backwards.status_code == 422
    assert admin.http.get("/api/admin/report", params={"from": "yesterday"}).status_code == 422
    assert ann.http.get("/api/admin/report").status_code == 403
    assert dealer.http.get("/api/admin/report").status_code == 403


def test_lo_ball_seats_and_redgreen_sides_are_reported_by_game(server: Server) -> None:
    admin = server.player(role="admin")
    players = [server.player() for _ in range(3)]
    for player in players:
        player.sit(4)
        player.sit(2)
        player.bet(4, "main", 1000)
        player.bet(4, "dice-hi", 500)
        player.bet(2, "red", 800)
    for player in players:
        player.http.post("/api/tables/4/deal")
        player.http.post("/api/tables/2/deal")

    def both_settled() -> bool:
        games = {g["game"]: g for g in admin.http.get("/api/admin/report").json()["games"]}
        return games.get("lo-ball", {}).get("rounds") == 1 and games.get("redgreen", {}).get(
            "rounds") == 1  # fmt: skip

    server.play_out()  # RedGreen's peek and Lo-Ball's choice run out
    assert both_settled()
    games = {g["game"]: g for g in admin.http.get("/api/admin/report").json()["games"]}
    assert games["lo-ball"]["handle_cents"] == 4500 and games["redgreen"]["handle_cents"] == 2400
    rules = game("lo-ball").rules()
    variance = house_win_variance("lo-ball", rules, [(s, b, a) for s in (1, 2, 3)
                                                     for b, a in (("main", 1000), ("dice-hi", 500))])  # fmt: skip
    assert games["lo-ball"]["sd_cents"] == cents(Fraction(math.sqrt(variance)))
