"""Betting, seats, timers and voids: every refusal of the round and the table, by its reason.

Each action comes as verify / can / do (pokerkit's shape): the refusal raises a
precise BaccaraError, ``can_`` says no, and nothing changes.
"""

from __future__ import annotations

import pytest

from baccara.cards import ShoeMode
from baccara.errors import BaccaraError, InvalidBet, InvalidOption
from baccara.randomness import SeededRandom
from baccara.table import Mode, Phase, Round, RoundError, SeatError, Table, TableConfig


def table_for(game: str = "punto-banco", **settings: object) -> tuple[Table, Round]:
    table = Table(TableConfig(game, min_bet_cents=500, max_bet_cents=10_000, **settings))  # type: ignore[arg-type]
    round_ = table.open_round(0.0, source=SeededRandom(1))
    return table, round_


def test_the_total_on_a_spot_stays_within_the_limits() -> None:
    table, round_ = table_for()
    table.sit("ann")
    table.place_bet("a", "ann", "banker", 500, 1.0)
    table.place_bet("b", "ann", "banker", 9500, 2.0)  # several bets, 100.00 in all
    with pytest.raises(InvalidBet, match=r"the total on Banker would be 101\.00"):
        table.place_bet("c", "ann", "banker", 100, 3.0)
    with pytest.raises(InvalidBet, match=r"the total on Player would be 1\.00"):
        table.place_bet("d", "ann", "player", 100, 3.0)
    assert round_.totals("ann") == {"banker": 10_000}
    table.place_bet("e", "ann", "player", 500, 4.0)  # another spot has its own limit


@pytest.mark.parametrize(
    ("bet_id", "spot", "amount", "message"),
    [
        ("x", "dragon", 1000, "unknown bet 'dragon'"),
        ("x", "banker", 0, "stake must be positive"),
        ("x", "banker", 10.5, "whole number of cents"),
        ("x", "banker", True, "whole number of cents"),
        ("x", "banker", 2**70, "over the maximum"),
        ("", "banker", 1000, "bet id"),
    ],
)
def test_bad_bets_are_refused_and_change_nothing(
    bet_id: str, spot: str, amount: object, message: str
) -> None:
    table, round_ = table_for()
    before = len(round_.events)
    assert not round_.can_place_bet(bet_id, "ann", None, spot, amount)
    with pytest.raises(InvalidBet, match=message):
        table.place_bet(bet_id, "ann", spot, amount, 1.0)  # type: ignore[arg-type]
    assert len(round_.events) == before and round_.first_bet_at is None


def test_a_bet_id_is_used_once() -> None:
    table, _ = table_for()
    table.place_bet("a", "ann", "banker", 1000, 1.0)
    with pytest.raises(InvalidBet, match="already used"):
        table.place_bet("a", "bob", "player", 1000, 2.0)


def test_no_bet_after_betting_closes() -> None:
    table, round_ = table_for()
    table.sit("ann")
    table.place_bet("a", "ann", "banker", 1000, 1.0)
    round_.tick(16.0)
    assert round_.phase is not Phase.BETTING
    with pytest.raises(RoundError, match="betting is closed"):
        table.place_bet("b", "ann", "banker", 1000, 17.0)
    with pytest.raises(RoundError, match="betting is closed"):
        round_.remove_bet("a", "ann", 17.0)


def test_at_an_empty_table_the_timer_starts_with_the_first_bet_and_runs_on_without_it() -> None:
    table, round_ = table_for(betting_seconds=15)
    assert round_.deadline() is None and table.tick(1000.0) == []
    table.place_bet("a", "ann", "banker", 1000, 100.0)
    assert round_.deadline() == 115.0
    round_.remove_bet("a", "ann", 101.0)
    assert round_.deadline() == 115.0  # the countdown players saw goes on
    table.place_bet("b", "ann", "banker", 1000, 110.0)
    assert round_.deadline() == 115.0
    assert round_.tick(114.9) == [] and round_.phase is Phase.BETTING
    assert round_.tick(115.0)[0].kind == "betting-closed"


def test_only_the_bettor_removes_a_bet_and_not_below_the_minimum() -> None:
    table, round_ = table_for()
    table.place_bet("a", "ann", "banker", 500, 1.0)
    table.place_bet("b", "ann", "banker", 300, 2.0)  # 8.00 on the spot in all
    with pytest.raises(InvalidBet, match="no bet 'a' of yours"):
        round_.remove_bet("a", "bob", 3.0)
    with pytest.raises(
        InvalidBet, match=r"leave 3\.00 on Banker, under the table minimum of 5\.00"
    ):
        round_.remove_bet("a", "ann", 3.0)
    round_.remove_bet("b", "ann", 3.0)  # 5.00 stays, the minimum
    round_.remove_bet("a", "ann", 4.0)  # nothing stays
    assert round_.totals("ann") == {}


def test_every_seated_bettor_ready_closes_betting() -> None:
    table, round_ = table_for("lo-ball")
    table.sit("ann")
    table.sit("bob")
    table.place_bet("a", "ann", "main", 1000, 1.0)
    table.place_bet("b", "bob", "main", 1000, 2.0)
    with pytest.raises(RoundError, match="only a player with a bet"):
        round_.request_deal("cy", 3.0)
    round_.request_deal("ann", 3.0)
    assert round_.phase is Phase.BETTING
    events = round_.request_deal("bob", 4.0)
    assert events[1].kind == "betting-closed" and events[1].reason == "all-ready"  # type: ignore[attr-defined]


def test_seats() -> None:
    table, _ = table_for("redgreen-mini")
    assert table.sit("ann") == 1 and table.sit("bob", 7) == 7
    with pytest.raises(SeatError, match="seat 7 is taken"):
        table.sit("cy", 7)
    with pytest.raises(SeatError, match="already sits"):
        table.sit("ann", 3)
    with pytest.raises(SeatError, match="seats 1 to 7"):
        table.sit("cy", 8)
    for name in ("c", "d", "e", "f", "g"):
        table.sit(name)
    with pytest.raises(SeatError, match="the table is full"):
        table.sit("late")
    assert not table.can_sit("late")
    table.place_bet("x", "ann", "red", 1000, 1.0)
    with pytest.raises(SeatError, match="your bets are on this round"):
        table.leave("ann")
    assert table.leave("bob") == 7


def test_a_table_may_have_fewer_seats_than_its_game() -> None:
    table = Table(TableConfig("redgreen", min_bet_cents=1, max_bet_cents=10, seats=4))
    with pytest.raises(SeatError, match="seats 1 to 4"):
        table.sit("ann", 5)
    with pytest.raises(InvalidOption, match="seats 1 to 12"):
        TableConfig("redgreen", min_bet_cents=1, max_bet_cents=10, seats=13)


@pytest.mark.parametrize(
    ("settings", "name"),
    [
        ({"min_bet_cents": 0}, "min-bet-cents"),
        ({"max_bet_cents": 10}, "max-bet-cents"),
        ({"betting_seconds": 0}, "betting-seconds"),
        ({"reveal_delay": -1}, "reveal-delay"),
        ({"options": {"decks": 0}}, "decks"),
        ({"mode": "live"}, "mode"),
        ({"penetration": 0}, "penetration"),
    ],
)
def test_bad_table_settings_name_the_setting(settings: dict[str, object], name: str) -> None:
    values: dict[str, object] = {"min_bet_cents": 100, "max_bet_cents": 1000, **settings}
    with pytest.raises(InvalidOption) as caught:
        TableConfig("punto-banco", **values)  # type: ignore[arg-type]
    assert caught.value.option == name


@pytest.mark.parametrize("phase_at", ["betting", "dealing", "peek", "revealing"])
def test_a_void_refunds_every_bet_from_any_phase_before_settlement(phase_at: str) -> None:
    game = "redgreen" if phase_at == "peek" else "punto-banco"
    mode = Mode.LIVE if phase_at == "dealing" else Mode.ELECTRONIC
    table = Table(TableConfig(game, min_bet_cents=100, max_bet_cents=10_000, mode=mode))
    round_ = (
        table.open_round(0.0)
        if mode is Mode.LIVE
        else table.open_round(0.0, source=SeededRandom(3))
    )
    table.sit("ann")
    table.place_bet("a", "ann", table.spec.bet_ids[0], 1000, 1.0)
    table.place_bet("b", "ann", table.spec.bet_ids[1], 2000, 2.0)
    if phase_at != "betting":
        if mode is Mode.LIVE:
            round_.close_betting("dealer", 3.0)
        else:
            round_.tick(20.0)
    assert round_.phase.value == phase_at
    with pytest.raises(RoundError, match="say why"):
        round_.void("dealer", "  ", 30.0)
    (voided,) = round_.void("dealer", "misdeal: a card fell", 30.0)
    assert round_.phase is Phase.VOIDED
    assert {(p.bet_id, p.returned) for p in voided.payouts} == {("a", 1000), ("b", 2000)}  # type: ignore[attr-defined]
    with pytest.raises(RoundError, match="already voided"):
        round_.void("dealer", "again", 31.0)


def test_a_settled_round_cannot_be_voided_or_played_on() -> None:
    table, round_ = table_for(reveal_delay=0)
    table.place_bet("a", "ann", "banker", 1000, 1.0)
    round_.tick(16.0)
    assert round_.phase is Phase.SETTLED
    with pytest.raises(RoundError, match="already settled"):
        round_.void("dealer", "too late", 17.0)
    with pytest.raises(RoundError):
        round_.enter_card("dealer", "AS", 17.0)
    nxt = table.open_round(20.0, source=SeededRandom(4))
    assert nxt.nonce == 2


def test_one_round_at_a_time() -> None:
    table, _ = table_for()
    with pytest.raises(RoundError, match="still betting"):
        table.open_round(1.0, source=SeededRandom(2))


def test_an_electronic_round_needs_exactly_one_source_of_cards() -> None:
    table = Table(TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=1000))
    with pytest.raises(BaccaraError, match="server seed or a source"):
        table.open_round(0.0)
    with pytest.raises(BaccaraError, match="server seed or a source"):
        table.open_round(0.0, server_seed=bytes(32), source=SeededRandom(1))


def test_a_provably_fair_bet_carries_a_client_seed() -> None:
    table = Table(TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=1000))
    table.open_round(0.0, server_seed=bytes(32))
    with pytest.raises(InvalidOption, match="client-seed"):
        table.place_bet("a", "ann", "banker", 500, 1.0)
    table.place_bet("a", "ann", "banker", 500, 1.0, client_seed="my cut")


def test_electronic_tables_close_by_the_timer_not_by_a_dealer() -> None:
    table, round_ = table_for()
    table.place_bet("a", "ann", "banker", 1000, 1.0)
    with pytest.raises(RoundError, match="closes betting by its timer"):
        round_.close_betting("dealer", 2.0)
    with pytest.raises(RoundError, match="live table only"):
        round_.enter_card("dealer", "AS", 2.0)


def test_time_never_runs_backwards_in_the_log() -> None:
    table, round_ = table_for()
    table.place_bet("a", "ann", "banker", 1000, 10.0)
    table.place_bet("b", "bob", "player", 1000, 5.0)  # a late caller's clock
    assert [e.at for e in round_.events] == [0.0, 10.0, 10.0]


def test_verify_and_can_agree_with_do_for_closing_voiding_and_the_table() -> None:
    """Every ``can_x`` says no exactly where ``x`` would refuse — and the refusal changes
    nothing."""
    table, round_ = table_for()
    assert not round_.can_close_betting()  # no bet yet, and an electronic table besides
    assert not round_.can_void("  ") and round_.can_void("misdeal")
    with pytest.raises(RoundError, match="say why"):
        round_.verify_void(None)
    assert round_.verify_void("  a reason  ") == "a reason"
    table.sit("ann")
    assert table.can_place_bet("a", "ann", "banker", 1000)
    assert not table.can_place_bet("a", "ann", "banker", 1)
    table.place_bet("a", "ann", "banker", 1000, 1.0)
    assert not round_.can_close_betting()
    with pytest.raises(RoundError, match="closes betting by its timer"):
        round_.verify_close_betting()
    assert not table.can_leave("ann") and not table.can_open_round() and not table.can_shuffle()
    assert not round_.can_end_peek("ann")
    live = Table(TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=1000,
                             mode=Mode.LIVE, shoe=ShoeMode.CONTINUOUS))  # fmt: skip
    assert live.can_shuffle()
    dealt = live.open_round(0.0)
    assert not live.can_shuffle() and not dealt.can_close_betting()
    live.place_bet("a", "bob", "tie", 500, 1.0)
    assert dealt.can_close_betting()
    before = len(dealt.events)
    assert not dealt.can_void("") and len(dealt.events) == before


def test_a_peek_and_a_choice_out_of_turn_are_refused() -> None:
    table, round_ = table_for("redgreen")
    table.sit("ann")
    table.place_bet("a", "ann", "red", 5000, 1.0)
    for refused in (lambda: round_.peek_cards("ann", 2.0), lambda: round_.end_peek("ann", 2.0)):
        with pytest.raises(RoundError, match="no peek now"):
            refused()
    with pytest.raises(RoundError, match="no choice to make now"):
        round_.choose("ann", "red", 2.0)
    mini, choosing = table_for("redgreen-mini")
    mini.sit("ann")
    mini.sit("bob")
    mini.place_bet("a", "ann", "green", 5000, 1.0)
    mini.place_bet("b", "bob", "red", 1000, 2.0)
    choosing.tick(100.0)
    assert choosing.phase is Phase.CHOOSING
    with pytest.raises(RoundError, match="no peek now"):
        choosing.peek_cards("ann", 101.0)
    with pytest.raises(RoundError, match="only the highest bettor chooses"):
        choosing.choose("bob", "red", 101.0)
    with pytest.raises(RoundError, match="choose red or green"):
        choosing.choose("ann", "blue", 101.0)
    (voided,) = choosing.void("dealer", "the table was closed", 102.0)
    assert choosing.phase is Phase.VOIDED
    assert sorted(p.returned for p in voided.payouts) == [1000, 5000]  # type: ignore[attr-defined]


def test_a_bet_from_another_players_seat_is_refused_inside_the_round() -> None:
    """The table bets from the player's own seat; the round refuses a seat another
    player already bets from, and a second seat for one player."""
    table, round_ = table_for("lo-ball")
    table.sit("ann", 2)
    table.place_bet("a", "ann", "main", 1000, 1.0)
    with pytest.raises(InvalidBet, match="seat 2 is another player's"):
        round_.place_bet("b", "bob", 2, "main", 1000, 2.0)
    with pytest.raises(InvalidBet, match="from one seat"):
        round_.place_bet("c", "ann", 3, "main", 1000, 2.0)
    assert list(round_.wagers) == ["a"]
