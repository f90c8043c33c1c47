"""The operator's report expects each stake's win as it is paid, payouts rounded down.

Known answer: 0.01 on Banker is never paid anything (19:20 of a cent rounds down to 0),
so its expected win for the house is its chance of losing, 2,230,518,282,592,256 of the
4,998,398,275,503,360 eight-deck sequences (Wizard of Odds' counts, as ``baccara analyze
punto-banco`` prints them): 1,000 such bets are expected to win 446.25 cents, where the
unrounded edge of 1.0579 % says 10.58 — a table dealing them fairly would look 14 σ
crooked. Rounded as paid it is not flagged.
"""

from __future__ import annotations

import math
from fractions import Fraction

from baccara.exact import analyze, house_win_mean, house_win_variance
from baccara.games import game
from baccara.server.domain.backoffice import FLAG_SIGMAS, Tally, round_tally
from tests.server.harness import Player, Server

LOSE, TOTAL = 2_230_518_282_592_256, 4_998_398_275_503_360
WIN = 2_292_252_566_437_888


def _thousand_cent_bets() -> list[tuple[str, int]]:
    """1,000 rounds of one 0.01 Banker bet, the outcomes in their expected shares: 459
    Banker wins (paid nothing: 1 cent back), 95 ties (1 back), 446 losses (0 back)."""
    outcomes = [("win", 1)] * 459 + [("push", 1)] * 95 + [("lose", 0)] * 446
    assert len(outcomes) == 1000
    return outcomes


def test_a_thousand_one_cent_banker_bets_expect_the_rounded_win_and_are_not_flagged() -> None:
    casino = Tally()
    for _, back in _thousand_cent_bets():
        casino.add(round_tally("punto-banco", "{}", [(1, "banker", 1, back)]))
    report = casino.to_dict()
    expected = 1000 * Fraction(LOSE, TOTAL)
    assert casino.theoretical == expected
    assert report["theoretical_win_exact"] == f"{expected.numerator}/{expected.denominator}"
    assert report["theoretical_win_cents"] == 446 and report["actual_win_cents"] == 446
    p = Fraction(LOSE, TOTAL)
    assert casino.variance == 1000 * p * (1 - p)  # a cent lost or nothing, each round
    assert report["sd_cents"] == round(math.sqrt(1000 * float(p * (1 - p))))
    assert abs(report["z"]) < 0.1 and report["flagged"] is False


def test_the_same_bets_at_the_exact_odds_would_be_flagged() -> None:
    """What the report said before it read the stakes as paid: Σ stake × 1.0579 %, and
    the variance of a bet paid 0.95 of a cent — 446 cents won would be 14 σ out."""
    rules = game("punto-banco").rules()
    one = [(1, "banker", 1)]
    mean = 1000 * house_win_mean("punto-banco", rules, one)
    assert mean == 1000 * analyze("punto-banco").bet("banker").house_edge
    sd = math.sqrt(1000 * house_win_variance("punto-banco", rules, one))
    assert (446 - float(mean)) / sd > 4 * FLAG_SIGMAS
    assert house_win_mean("punto-banco", rules, one, as_paid=True) == Fraction(LOSE, TOTAL)


def test_a_cent_and_a_quarter_through_the_casino(server: Server) -> None:
    """A live table an admin opened with a one-cent step: a 0.01 and a 0.25 Banker bet on
    one coup the Banker wins. The report expects, exactly, the stakes as paid."""
    admin, dealer = server.player(role="admin"), server.player(role="dealer")
    ann, bob = server.player(), server.player()
    made = admin.http.post("/api/tables", json={"game": "punto-banco", "min_bet_cents": 1,
                                                "max_bet_cents": 10_000, "mode": "live",
                                                "bet_step_cents": 1})  # fmt: skip
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    server.assign(dealer, table)
    assert made.json()["bet_step_cents"] == 1
    _bet_and_deal(dealer, table, [(ann, 1), (bob, 25)], ["2S", "9H", "3D", "KC"])
    assert ann.balance() == 100_000 and bob.balance() == 100_000 + 23  # 0.00 and 0.23 won
    (row,) = [t for t in admin.http.get("/api/admin/report").json()["tables"]
              if t["table_id"] == table]  # fmt: skip
    expected = Fraction(LOSE * 1 - WIN * 0, TOTAL) + Fraction(LOSE * 25 - WIN * 23, TOTAL)
    assert row["theoretical_win_exact"] == f"{expected.numerator}/{expected.denominator}"
    assert row["actual_win_cents"] == -23


def _bet_and_deal(dealer: Player, table: int, bets: list[tuple[Player, int]],
                  cards: list[str]) -> None:  # fmt: skip
    for player, cents in bets:
        answer = player.bet(table, "banker", cents)
        assert answer.status_code == 201, answer.text
    dealer.http.post(f"/api/tables/{table}/close-betting")
    dealt = dealer.http.post(f"/api/tables/{table}/cards", json={"cards": cards})
    assert dealt.json()["state"] == "settled", dealt.text
