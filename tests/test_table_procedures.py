"""Every game's table procedure, step by step, from the seeds' dealing procedures.

Sources: seed 003 (Punto Banco: "two cards each are dealt to the player and the
banker", the third-card rules), seed 000 (RedGreen first version: "The Player (as the
highest bettor) may peek at his/her hand"; Mini: "the highest bettor has the right to
ask the Dealer to set either the Red community hand or the Green community hand first
then the other hand is exposed slowly"), seed 001 (Lo-Ball: three tiles each, the
exposure rule, three dice), and RULES-NOTES.md for the highest bettor ("the largest
wager on the round; a tie goes to whoever placed it first").
"""

from __future__ import annotations

import pytest

from baccara.cards import Card, ShoeMode
from baccara.errors import BaccaraError, InvalidBet, InvalidCards
from baccara.games import punto_banco
from baccara.randomness import SeededRandom
from baccara.table import Mode, Phase, Round, RoundError, Table, TableConfig, Viewer, view
from baccara.table.events import (
    CardDealt,
    CardExposed,
    HandChosen,
    HandSet,
    Peeked,
    RoundSettled,
)


def electronic(game: str, seed: int = 1, **settings: object) -> tuple[Table, Round]:
    table = Table(TableConfig(game, min_bet_cents=100, max_bet_cents=100_000, **settings))  # type: ignore[arg-type]
    return table, table.open_round(0.0, source=SeededRandom(seed))


def live(game: str, **settings: object) -> tuple[Table, Round]:
    config = TableConfig(game, min_bet_cents=100, max_bet_cents=100_000, mode=Mode.LIVE,
                         **settings)  # type: ignore[arg-type]  # fmt: skip
    table = Table(config)
    return table, table.open_round(0.0)


def seat_and_bet(table: Table, bets: list[tuple[str, str, int]], start: float = 1.0) -> None:
    for i, (player, spot, amount) in enumerate(bets):
        if table.seat_of(player) is None:
            table.sit(player)
        table.place_bet(f"b{i}", player, spot, amount, start + i)


def run_out(round_: Round, now: float = 100.0) -> float:
    """Let every timer run out until the round is over; the time it ended."""
    while not round_.phase.over:
        due = round_.deadline()
        assert due is not None, round_.phase
        now = max(now, due)
        round_.tick(now)
    return now


# --- Punto Banco ------------------------------------------------------------------------


def test_live_punto_banco_player_natural_nine_against_five() -> None:
    """Player 9S KD, Banker 2H 3C: a Player natural 9 against 5 ends the coup at four cards."""
    table, round_ = live("punto-banco")
    seat_and_bet(table, [("ann", "player", 1000), ("bob", "banker", 2000)])
    round_.close_betting("dealer", 5.0)
    assert round_.needs() == ("player.0", "banker.0", "player.1", "banker.1")
    for i, card in enumerate(["9S", "2H", "KD", "3C"]):
        round_.enter_card("dealer", card, 6.0 + i)
    assert round_.phase is Phase.SETTLED
    settled = round_.settled
    assert settled is not None
    assert settled.result["winner"] == "player" and settled.result["natural"] is True
    assert (settled.result["player_score"], settled.result["banker_score"]) == (9, 5)
    ann, bob = settled.payouts
    assert (ann.won, ann.returned) == (1000, 2000) and (bob.won, bob.returned) == (-2000, 0)
    assert settled.house_net == 1000


def test_live_punto_banco_asks_for_exactly_the_third_cards_the_rules_draw() -> None:
    """Player 2+3 = 5 draws; his third card 8 makes the Banker (3) stand: "If the player's
    third card is an 8, then the dealer hits with a score of 2 or less"."""
    table, round_ = live("punto-banco")
    seat_and_bet(table, [("ann", "tie", 500)])
    round_.close_betting("dealer", 5.0)
    for card in ("2S", "AH", "3D", "2C"):
        round_.enter_card("dealer", card, 6.0)
    assert round_.needs() == ("player.2",)
    round_.enter_card("dealer", "8H", 7.0)
    assert round_.phase is Phase.SETTLED  # Banker 3 stands on a third card of 8
    round2 = table.open_round(20.0)
    seat_and_bet(table, [("ann", "tie", 500)], start=21.0)
    round2.close_betting("dealer", 25.0)
    for card in ("2S", "AH", "3D", "AC"):
        round2.enter_card("dealer", card, 26.0)
    round2.enter_card("dealer", "7H", 27.0)  # third card 7: Banker 2 draws (6 or less)
    assert round2.needs() == ("banker.2",)


@pytest.mark.parametrize("seed", range(40))
def test_electronic_punto_banco_deals_the_shoe_in_tableau_order(seed: int) -> None:
    """The engine's coup equals ``deal_coup`` on the same freshly shuffled shoe."""
    table, round_ = electronic("punto-banco", seed, reveal_delay=0)
    seat_and_bet(table, [("ann", "banker", 1000)])
    run_out(round_)
    from baccara.cards import Shoe

    expected = punto_banco.deal_coup(Shoe(8, SeededRandom(seed)))
    assert [Card.parse(c) for c in round_.dealt.values()] == list(expected.cards)
    assert round_.settled is not None
    assert round_.settled.result["winner"] == expected.winner.value


def test_electronic_cards_are_turned_one_by_one_with_the_reveal_delay() -> None:
    table, round_ = electronic("punto-banco", 3, reveal_delay=0.5)
    seat_and_bet(table, [("ann", "player", 1000)])
    round_.tick(16.0)
    turned = [e for e in round_.events if isinstance(e, CardExposed)]
    assert len(turned) == 1 and round_.phase is Phase.REVEALING
    assert round_.deadline() == 16.5
    run_out(round_, 16.0)
    times = [e.at for e in round_.events if isinstance(e, CardExposed)]
    assert times == [16.0 + 0.5 * i for i in range(len(times))]


def _third_card_seed(drawn: bool) -> int:
    """A seed whose Punto Banco coup has (or has not) a Player third card."""
    from baccara.cards import Shoe

    return next(s for s in range(100)
                if (len(punto_banco.deal_coup(Shoe(8, SeededRandom(s))).player) == 3) is drawn)  # fmt: skip


@pytest.mark.parametrize("drawn", [True, False])
def test_an_electronic_third_card_comes_face_up_once_the_first_four_are_turned(
    drawn: bool,
) -> None:
    """As at a real table: four cards face down, turned one by one, then the third-card
    rule — so while any card is face down nobody can tell, from the cards on the
    table, whether a third card will come (with or without one, the table looks the
    same until the fourth card is turned)."""
    table, round_ = electronic("punto-banco", _third_card_seed(drawn), reveal_delay=0.5)
    seat_and_bet(table, [("ann", "player", 1000)])
    round_.tick(16.0)
    while len([e for e in round_.events if isinstance(e, CardExposed)]) < 4:
        assert sorted(round_.dealt) == sorted(["player.0", "banker.0", "player.1", "banker.1"])
        assert all(not getattr(e, "face_up", False) for e in round_.events)
        round_.tick(round_.deadline() or 0.0)
    fourth_at = round_.events[-1].at
    run_out(round_, fourth_at)
    dealt_up = [e for e in round_.events if isinstance(e, CardDealt) and e.face_up]
    assert ("player.2" in [e.position for e in dealt_up]) is drawn
    if dealt_up:
        assert dealt_up[0].at == fourth_at + 0.5


def test_bets_behind_at_punto_banco_and_seats_elsewhere() -> None:
    """Online Punto Banco takes bets without a seat; RedGreen and Lo-Ball need one."""
    table, round_ = electronic("punto-banco")
    table.place_bet("b1", "walker", "player", 1000, 1.0)
    assert round_.wagers["b1"].seat is None
    for game in ("redgreen", "redgreen-mini", "lo-ball"):
        other, _ = electronic(game)
        with pytest.raises(InvalidBet, match="take a seat"):
            other.place_bet("b1", "walker", other.spec.bet_ids[0], 1000, 1.0)


# --- RedGreen, first version: the peek ---------------------------------------------------


def test_the_highest_bettor_peeks_alone_at_the_hand_they_backed() -> None:
    table, round_ = electronic("redgreen", 5)
    seat_and_bet(table, [("ann", "red", 1000), ("bob", "green", 3000), ("cy", "bonus", 9000)])
    round_.tick(20.0)
    assert round_.phase is Phase.PEEK
    assert round_.peek is not None and (round_.peek.player, round_.peek.hand) == ("bob", "green")
    with pytest.raises(RoundError, match="only the highest bettor may peek"):
        round_.peek_cards("ann", 21.0)
    assert not round_.can_peek("cy")  # the Bonus does not count
    (peeked,) = round_.peek_cards("bob", 21.0)
    assert isinstance(peeked, Peeked)
    assert peeked.cards == tuple(round_.dealt[f"green.{i}"] for i in range(3))
    bob_view = view(round_, Viewer("bob"))[-1]
    ann_view = view(round_, Viewer("ann"))[-1]
    assert bob_view["cards"] == list(peeked.cards) and ann_view["cards"] is None
    assert all(e["item"] is None for e in view(round_, Viewer("bob")) if e["kind"] == "card-dealt")


def test_the_peek_window_closes_by_itself_then_both_hands_are_set() -> None:
    table, round_ = electronic("redgreen", 9, peek_seconds=10)
    seat_and_bet(table, [("ann", "red", 1000)])
    round_.tick(20.0)
    assert round_.deadline() == 30.0
    assert round_.tick(29.9) == []
    events = round_.tick(30.0)
    assert events[0].kind == "peek-ended" and events[0].reason == "timer"  # type: ignore[attr-defined]
    sets = [e for e in round_.events if isinstance(e, HandSet)]
    assert [s.hand for s in sets] == ["red", "green"]
    assert round_.phase is Phase.SETTLED
    red = round_.settled.result["red"]  # type: ignore[union-attr]
    assert (sets[0].front, list(sets[0].back), sets[0].rule) == (
        red["front"],
        red["back"],
        red["rule"],
    )


def test_without_a_red_or_green_bet_nobody_peeks() -> None:
    table, round_ = electronic("redgreen")
    seat_and_bet(table, [("ann", "bonus", 1000)])
    round_.tick(20.0)
    assert round_.peek is None and round_.phase is Phase.SETTLED


def test_ties_for_highest_go_to_the_first_placed_and_totals_count() -> None:
    table, round_ = electronic("redgreen")
    seat_and_bet(table, [("ann", "red", 2000), ("bob", "green", 1000), ("bob", "green", 1000)])
    assert round_.highest_bettor(("red", "green")).player == "ann"  # type: ignore[union-attr]
    table.place_bet("b9", "bob", "green", 100, 5.0)
    assert round_.highest_bettor(("red", "green")).player == "bob"  # type: ignore[union-attr]


def test_each_side_is_settled_as_its_protecting_dealer_works_it() -> None:
    table, round_ = electronic("redgreen", 2)
    table.sit("ann", 2)
    table.sit("bob", 9)
    table.place_bet("a", "ann", "red", 1000, 1.0)
    table.place_bet("b", "bob", "green", 1000, 2.0)
    run_out(round_)
    settled = round_.settled
    assert settled is not None
    by_seat = {p.seat: p for p in settled.payouts}
    winner = settled.result["winner"]
    if winner != "push":
        win = by_seat[2] if winner == "red" else by_seat[9]
        assert (win.won, win.commission) == (950, 50)
    assert {table.spec.table.side_of(s) for s in by_seat} == {"left", "right"}
    sides = settled.result["sides"]  # what each protecting dealer pays, collects, keeps
    assert sides["left"]["seats"] == [1, 2, 3, 4, 5, 6]
    assert sides["right"]["seats"] == [7, 8, 9, 10, 11, 12]
    for side, seat in (("left", 2), ("right", 9)):
        p = by_seat[seat]
        assert sides[side] == {"seats": sides[side]["seats"], "paid": max(p.won, 0),
                               "collected": max(-p.won, 0), "commission": p.commission}  # fmt: skip
    mini, choosing = electronic("redgreen-mini", 2)
    seat_and_bet(mini, [("ann", "red", 1000)])
    run_out(choosing)
    assert "sides" not in choosing.settled.result  # type: ignore[union-attr]  # one dealer


@pytest.mark.parametrize(
    ("game", "dealt", "spot"),
    [
        ("punto-banco", {"player.0": "KS", "banker.0": "9H", "player.1": "QS", "banker.1": "KH"},
         "banker"),  # Player 0, Banker a natural 9
        ("redgreen", {"red.0": "AS", "red.1": "AH", "red.2": "AD", "green.0": "2S",
                      "green.1": "5H", "green.2": "9C"}, "red"),  # A-A-A against 9 | 5 2
    ],
)  # fmt: skip
def test_a_win_paid_less_commission_records_what_the_house_kept_even_a_cent(
    game: str, dealt: dict[str, str], spot: str
) -> None:
    """money.py: 19:20 on 1 cent pays 0, on 19 cents 18, on 10.00 9.50. The house keeps
    the rest of even money as commission — the whole cent of a 1-cent win, though its
    winnings round down to nothing."""
    from baccara.games import game as spec_of
    from baccara.table.procedures.base import Wager
    from baccara.table.roles import procedure_of

    spec = spec_of(game)
    stakes = (1, 19, 1000)
    wagers = [Wager(f"b{stake}", "ann", 1, spot, stake) for stake in stakes]
    result, payouts = procedure_of(spec).settle(dealt, wagers, [1], spec.rules())
    assert result["winner"] == spot
    assert [(p.result, p.won, p.commission) for p in payouts] == [
        ("win", 0, 1), ("win", 18, 1), ("win", 950, 50),
    ]  # fmt: skip


# --- Mini RedGreen: the choice and the slow reveal ---------------------------------------


def test_the_highest_bettor_chooses_and_squeezes_the_other_hand_card_by_card() -> None:
    table, round_ = electronic("redgreen-mini", 4, reveal_delay=2.0)
    seat_and_bet(table, [("ann", "red", 500), ("bob", "red", 800)])
    round_.tick(20.0)
    assert round_.phase is Phase.CHOOSING
    with pytest.raises(RoundError, match="only the highest bettor"):
        round_.choose("ann", "green", 21.0)
    with pytest.raises(RoundError, match="red or green"):
        round_.choose("bob", "blue", 21.0)
    round_.choose("bob", "green", 21.0)
    first = [e for e in round_.events if isinstance(e, CardExposed)]
    assert [e.position for e in first] == ["green.0", "green.1", "green.2"]
    assert [e.hand for e in round_.events if isinstance(e, HandSet)] == ["green"]
    assert round_.tick(22.9) == []
    offered, _ = round_.tick(23.0)  # the other hand, "exposed slowly": bob squeezes it
    assert (offered.player, offered.hand) == ("bob", "red")  # type: ignore[attr-defined]
    for at, position in ((24.0, "red.2"), (25.0, "red.0"), (26.0, "red.1")):
        round_.turn_card("bob", position, at)
    run_out(round_, 26.0)
    turned = [(e.position, e.at, e.by) for e in round_.events if isinstance(e, CardExposed)][3:]
    assert turned == [("red.2", 24.0, "bob"), ("red.0", 25.0, "bob"), ("red.1", 26.0, "bob")]
    (red,) = (e for e in round_.events if isinstance(e, HandSet) and e.hand == "red")
    assert red.at == 28.0  # set the reveal's delay after the last card is turned
    assert round_.settled is not None and round_.settled.result["first_hand"] == "green"


def test_a_silent_chooser_gets_red_when_the_timer_runs_out() -> None:
    table, round_ = electronic("redgreen-mini", choose_seconds=10)
    seat_and_bet(table, [("ann", "green", 500)])
    round_.tick(20.0)
    round_.tick(30.0)
    chosen = next(e for e in round_.events if isinstance(e, HandChosen))
    assert (chosen.hand, chosen.reason) == ("red", "timer")


# --- Lo-Ball -----------------------------------------------------------------------------


def test_lo_ball_deals_the_seats_with_bets_in_seat_order() -> None:
    table, round_ = electronic("lo-ball", 11)
    table.sit("ann", 5)
    table.sit("bob", 2)
    table.sit("idle", 3)
    table.place_bet("a", "ann", "main", 1000, 1.0)
    table.place_bet("b", "bob", "lo-card", 1000, 2.0)
    run_out(round_)
    hands = sorted({p.split(".")[0] for p in round_.dealt} - {"dealer", "exposed", "dice"})
    assert hands == ["seat2", "seat5"]  # the seated player without a bet gets no hand
    order = [p.split(".")[0] for p in round_.dealt]
    assert order.index("seat2") < order.index("seat5") < order.index("dice")
    hands_up = max(i for i, e in enumerate(round_.events) if isinstance(e, CardExposed))
    extras = [i for i, e in enumerate(round_.events) if isinstance(e, CardDealt) and e.face_up]
    assert extras and min(extras) > hands_up  # exposed tiles and dice only once hands are up
    result = round_.settled.result  # type: ignore[union-attr]
    assert set(result["seats"]) == {"2", "5"}


def test_live_lo_ball_refuses_a_tile_dealt_twice_and_asks_for_exposure_only_when_needed() -> None:
    table, round_ = live("lo-ball")
    seat_and_bet(table, [("ann", "hi-card", 1000)])
    round_.close_betting("dealer", 5.0)
    for tile in ("1-2", "2-3", "4-5", "1-1", "7-7", "3-6"):
        round_.enter_card("dealer", tile, 6.0)
    with pytest.raises(InvalidCards):
        round_.enter_card("dealer", "1-1", 7.0)  # the seat holds both: dice come next
    assert round_.needs() == ("dice.0", "dice.1", "dice.2")  # no exposure: 1-1 and 7-7 held
    with pytest.raises(InvalidCards, match="a die shows 1 to 6"):
        round_.enter_card("dealer", "7", 7.0)
    for die in ("2", 3, "5"):
        round_.enter_card("dealer", die, 8.0)
    payout = round_.settled.payouts[0]  # type: ignore[union-attr]
    assert (payout.spot, payout.result, payout.won) == ("hi-card", "win", 7000)


def test_live_lo_ball_tile_repeated_in_one_round_is_refused() -> None:
    table, round_ = live("lo-ball")
    seat_and_bet(table, [("ann", "main", 1000)])
    round_.close_betting("dealer", 5.0)
    round_.enter_card("dealer", "3-5", 6.0)
    with pytest.raises(InvalidCards, match="already been dealt"):
        round_.enter_card("dealer", "5-3", 7.0)
    assert not round_.can_enter_card("3-5") and round_.can_enter_card("3-6")


# --- Live shoes --------------------------------------------------------------------------


def test_a_live_shoe_refuses_a_card_it_cannot_hold() -> None:
    """One deck, reshuffled each round: the Ace of spades cannot come twice in a round."""
    table, round_ = live("punto-banco", options={"decks": 1})
    seat_and_bet(table, [("ann", "player", 1000)])
    round_.close_betting("dealer", 5.0)
    round_.enter_card("dealer", "AS", 6.0)
    with pytest.raises(InvalidCards, match="cannot hold another AS"):
        round_.enter_card("dealer", "AS", 7.0)
    with pytest.raises(InvalidCards):
        round_.enter_card("dealer", "1S", 7.0)
    assert round_.needs()[0] == "banker.0"  # nothing was taken by the refusals


def test_a_live_shoe_names_a_code_that_is_no_card_as_such() -> None:
    """``TS`` is no card code (the shoe writes ``10S``): it is refused as that, not as a
    card of which "every one has been dealt"; so is a tile that is not in the set."""
    from baccara.table.shoe import LiveShoe

    shoe = LiveShoe(8)
    for code in ("TS", "1S", "", "10X"):
        with pytest.raises(InvalidCards, match="is not a card code; write it as 10S"):
            shoe.take(code)
    assert shoe.dealt == []
    shoe.take("10S")
    assert shoe.dealt == ["10S"]
    with pytest.raises(InvalidCards, match="'8-8' is not a tile code"):
        LiveShoe(None).take("8-8")
    with pytest.raises(InvalidCards, match=r"'2-1' is not a tile code; write it as 1-2$"):
        LiveShoe(None).take("2-1")
    with pytest.raises(InvalidCards, match=r"'TS' is not a card code; write it as 10S$"):
        shoe.take("TS")


def test_a_continuous_live_shoe_carries_over_and_reports_the_exact_edges() -> None:
    from baccara.cards import ShoeComposition
    from baccara.exact.punto_banco import bet_analyses

    table, round_ = live(
        "punto-banco", options={"decks": 1}, shoe=ShoeMode.CONTINUOUS, penetration=0.9
    )
    seat_and_bet(table, [("ann", "player", 1000)])
    round_.close_betting("dealer", 5.0)
    for card in ("9S", "2H", "KD", "3C"):
        round_.enter_card("dealer", card, 6.0)
    report = table.shoe_report()
    expected = bet_analyses(
        table.rules,
        ShoeComposition.standard(1).without(Card.parse("9S")).without(Card.parse("2H"))
        .without(Card.parse("KD")).without(Card.parse("3C")),
    )  # fmt: skip
    assert report.cards_left == 48
    assert report.edges == tuple((b.bet, b.house_edge) for b in expected)
    nxt = table.open_round(30.0)
    seat_and_bet(table, [("ann", "player", 1000)], start=31.0)
    nxt.close_betting("dealer", 35.0)
    with pytest.raises(InvalidCards, match="cannot hold another 9S"):
        nxt.enter_card("dealer", "9S", 36.0)


def test_an_electronic_table_has_no_continuous_shoe() -> None:
    with pytest.raises(BaccaraError, match="continuous shoe is for live tables"):
        TableConfig("punto-banco", min_bet_cents=1, max_bet_cents=10, shoe=ShoeMode.CONTINUOUS)


def test_settled_events_are_the_last() -> None:
    table, round_ = electronic("lo-ball")
    seat_and_bet(table, [("ann", "dice-hi", 1000)])
    run_out(round_)
    assert isinstance(round_.events[-1], RoundSettled)
    assert round_.tick(10_000.0) == []
