"""Betting windows at the table engine: one player cannot cut betting short for the others,
repeat an action into the log, or swell a round with bets.

* **The minimum window.** A bettor's "deal" closes betting once every seated bettor has
  asked — at once only if everyone at the table is ready (each seated player, each
  bettor of the round, each who bet on the table's last round); otherwise not before
  ``min_betting_seconds`` after the round's first bet. A player alone is dealt at once.
* **Once a round.** A second "deal", or a second peek, from the same player adds nothing.
* **A cap on bets.** ``max_bets_per_player`` bets a player a round, a bet taken back
  included, so a few thousand one-cent chips cannot make a round's record megabytes.
"""

from __future__ import annotations

import pytest

from baccara.errors import InvalidBet, InvalidOption
from baccara.randomness import SeededRandom
from baccara.table import (
    OffStep,
    Phase,
    Round,
    RoundError,
    Table,
    TableConfig,
    TooManyBets,
    event_from_dict,
)
from baccara.table.config import MAX_BETS_PER_PLAYER, MIN_BETTING_SECONDS
from baccara.table.events import RoundOpened


def _table(game: str = "punto-banco", **settings: object) -> Table:
    config = {"min_bet_cents": 100, "max_bet_cents": 100_000, "betting_seconds": 15.0,
              "reveal_delay": 0.0, **settings}  # fmt: skip
    return Table(TableConfig(game, **config))  # type: ignore[arg-type]


def _opened(table: Table, now: float = 0.0) -> Round:
    return table.open_round(now, source=SeededRandom(7))


def _play_out(round_: Round, now: float) -> float:
    while not round_.phase.over:
        due = round_.deadline()
        assert due is not None, round_.phase
        now = max(now, due)
        round_.tick(now)
    return now


def kinds(round_: Round) -> list[str]:
    return [event.kind for event in round_.events]


# --- the minimum betting window ---------------------------------------------------------


def test_the_window_is_a_table_setting_five_seconds_by_default_and_in_the_log() -> None:
    assert TableConfig("punto-banco", 100, 1000).min_betting_seconds == MIN_BETTING_SECONDS == 5
    table = _table(min_betting_seconds=3)
    round_ = _opened(table)
    assert round_.opened.min_betting_seconds == 3.0
    assert round_.opened.to_dict()["min_betting_seconds"] == 3.0


WINDOW, CAP = "min_betting_seconds", "max_bets_per_player"


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        (WINDOW, -1, "must be between 0 and 3600 seconds, got -1"),
        (WINDOW, 3601, "must be between 0 and 3600 seconds, got 3601"),
        (WINDOW, 10**400, "must be between 0 and 3600 seconds"),
        (WINDOW, float("nan"), "must be between 0 and 3600 seconds, got nan"),
        (WINDOW, True, "must be a number of seconds, got True"),
        (WINDOW, "5", "must be a number of seconds, got '5'"),
        (CAP, 0, "must be a whole number from 1 to 1000, got 0"),
        (CAP, 1001, "must be a whole number from 1 to 1000, got 1001"),
        (CAP, 2.0, "must be a whole number from 1 to 1000, got 2.0"),
        (CAP, True, "must be a whole number from 1 to 1000, got True"),
        (CAP, "20", "must be a whole number from 1 to 1000, got '20'"),
    ],
)  # fmt: skip
def test_a_window_or_a_cap_that_is_no_number_is_refused(
    option: str, value: object, message: str
) -> None:
    with pytest.raises(InvalidOption) as caught:
        TableConfig("punto-banco", 100, 1000, **{option: value})  # type: ignore[arg-type]
    assert f"{option.replace('_', '-')}: {message}" in str(caught.value)


def test_one_players_deal_leaves_betting_open_for_the_window_to_a_seated_player() -> None:
    """The attack: a seated player bets 1.00 and calls deal as the round opens."""
    table = _table()
    table.sit("mallory")
    table.sit("victim")
    round_ = _opened(table)
    table.place_bet("m1", "mallory", "banker", 100, now=0.1)
    assert [e.kind for e in table.request_deal("mallory", 0.1)] == ["deal-requested"]
    assert round_.phase is Phase.BETTING
    assert round_.deadline() == pytest.approx(0.1 + MIN_BETTING_SECONDS)
    for number in range(1, 10):  # the victim bets through the whole window
        now = 0.1 + number * 0.5
        assert round_.tick(now) == []
        table.place_bet(f"v{number}", "victim", "player", 100, now=now)
    assert round_.totals("victim") == {"player": 900}
    # the victim has bets now: the round waits for them, up to the betting timer (which
    # runs from the opening, when both sat)
    assert round_.deadline() == pytest.approx(15.0)
    closing = table.request_deal("victim", 5.0)
    assert [e.kind for e in closing][:2] == ["deal-requested", "betting-closed"]
    assert round_.closed is not None and round_.closed.reason == "all-ready"


Step = tuple[str, str, float]
"""("bet", who, at): a bet of 1.00 on Banker; ("deal", who, at); ("tick", "", at)."""
WINDOWS = [
    # (settings, seated, steps, betting still open, deadline or the moment it closed)
    ({}, ["mallory", "idle"], [("bet", "mallory", 2.0), ("deal", "mallory", 2.0),
                               ("tick", "", 6.99)], True, 7.0),
    ({}, ["mallory", "idle"], [("bet", "mallory", 2.0), ("deal", "mallory", 2.0),
                               ("tick", "", 7.0)], False, 7.0),
    ({"betting_seconds": 3600.0}, ["mallory", "victim"],
     [("bet", "mallory", 1800.0), ("deal", "mallory", 1800.0)],
     True, 1800.0 + MIN_BETTING_SECONDS),
    ({}, ["ann", "idle"], [("bet", "ann", 1.0), ("deal", "ann", 6.0)], False, 6.0),
    ({}, ["ann"], [("bet", "ann", 1.0), ("deal", "ann", 1.0)], False, 1.0),
    ({}, ["ann", "bob"], [("bet", "ann", 1.0), ("bet", "bob", 1.2), ("deal", "ann", 1.3)],
     True, 15.0),
    ({}, ["ann", "bob"], [("bet", "ann", 1.0), ("bet", "bob", 1.2), ("deal", "ann", 1.3),
                          ("deal", "bob", 1.4)], False, 1.4),
    ({"min_betting_seconds": 0}, ["ann", "bob"], [("bet", "ann", 1.0), ("deal", "ann", 1.0)],
     False, 1.0),
    ({"betting_seconds": 3.0, "min_betting_seconds": 10.0}, ["ann", "bob"],
     [("bet", "ann", 1.0), ("deal", "ann", 1.0)], True, 3.0),
]  # fmt: skip


@pytest.mark.parametrize(
    ("settings", "seated", "steps", "still_open", "when"), WINDOWS,
    ids=["the window closes betting when only the ready have bets: not before its end",
         "the window closes betting when only the ready have bets: at its end",
         "the window runs from the first bet, not the opening (half an hour with no bets)",
         "after the window the seated bettors deal at once",
         "a player alone at the table is dealt at once",
         "one bettor ready waits for another who has bet, up to the betting timer",
         "everyone ready deals at once inside the window",
         "a window of zero is the old rule",
         "a window longer than the betting timer is the timer"],
)  # fmt: skip
def test_when_one_players_deal_closes_betting(
    settings: dict[str, object], seated: list[str], steps: list[Step], still_open: bool,
    when: float,
) -> None:  # fmt: skip
    table = _table("punto-banco", **settings)
    for name in seated:
        table.sit(name)
    round_ = _opened(table)
    for number, (action, who, at) in enumerate(steps):
        if action == "bet":
            table.place_bet(f"{who}{number}", who, "banker", 100, now=at)
        elif action == "deal":
            table.request_deal(who, at)
        else:
            round_.tick(at)
    if still_open:
        assert round_.phase is Phase.BETTING
        assert round_.deadline() == pytest.approx(when)
    else:
        assert round_.closed is not None and round_.closed.at == when
        assert round_.closed.reason == "all-ready"


def test_who_bet_on_the_last_round_from_behind_gets_the_window_too() -> None:
    """Punto Banco takes bets from players without a seat: they are at the table too."""
    table = _table()
    table.sit("mallory")
    first = _opened(table)
    table.place_bet("m1", "mallory", "banker", 100, now=1.0)
    table.place_bet("c1", "cy", "player", 100, now=1.5)  # behind the table
    table.request_deal("mallory", 2.0)
    _play_out(first, 17.0)
    second = _opened(table, 20.0)
    table.place_bet("m2", "mallory", "banker", 100, now=20.1)
    table.request_deal("mallory", 20.1)
    assert second.phase is Phase.BETTING
    table.place_bet("c2", "cy", "player", 100, now=24.0)
    assert second.totals("cy") == {"player": 100}


def test_a_round_driven_by_the_round_alone_knows_only_its_bettors() -> None:
    """``Round.request_deal`` without ``present``: everyone is the round's bettors."""
    table = _table()
    round_ = _opened(table)
    table.sit("ann")
    table.place_bet("a1", "ann", "banker", 100, now=1.0)
    round_.request_deal("ann", 1.0)
    assert round_.phase is not Phase.BETTING


def test_taking_back_the_last_bet_takes_back_the_deal() -> None:
    table = _table()
    table.sit("ann")
    table.sit("bob")
    round_ = _opened(table)
    table.place_bet("a1", "ann", "banker", 100, now=1.0)
    table.place_bet("b1", "bob", "player", 100, now=1.0)
    table.request_deal("ann", 1.5)
    round_.remove_bet("a1", "ann", 2.0)
    assert "ann" not in round_.ready
    table.place_bet("a2", "ann", "banker", 100, now=2.5)
    table.request_deal("bob", 3.0)
    assert round_.phase is Phase.BETTING  # ann has not asked again


def test_the_window_is_replayed_from_the_log() -> None:
    table = _table()
    table.sit("mallory")
    table.sit("victim")
    round_ = _opened(table)
    table.place_bet("m1", "mallory", "banker", 100, now=1.0)
    table.request_deal("mallory", 1.0)
    stored = [event_from_dict(e.to_dict()) for e in round_.events]
    again = Round.replay(stored, source=SeededRandom(7))
    assert again.deadline() == round_.deadline() == 6.0
    assert again.tick(6.0)[0].kind == "betting-closed"


def test_a_log_written_before_the_window_reads_as_none() -> None:
    table = _table()
    data = _opened(table).opened.to_dict()
    del data["min_betting_seconds"], data["max_bets_per_player"]
    opened = event_from_dict(data)
    assert isinstance(opened, RoundOpened)
    assert (opened.min_betting_seconds, opened.max_bets_per_player) == (0.0, None)


# --- once a round ---------------------------------------------------------------------------


def test_a_second_deal_changes_nothing_and_logs_nothing() -> None:
    table = _table()
    table.sit("ann")
    table.sit("bob")
    round_ = _opened(table)
    table.place_bet("a1", "ann", "banker", 100, now=1.0)
    table.place_bet("b1", "bob", "banker", 100, now=1.0)
    assert len(table.request_deal("ann", 1.5)) == 1
    logged = list(round_.events)
    deadline = round_.deadline()
    for now in (1.6, 2.0, 9.0):
        assert table.request_deal("ann", now) == []
        assert round_.request_deal("ann", now) == []
    assert round_.events == logged and round_.deadline() == deadline
    assert kinds(round_).count("deal-requested") == 1


def test_a_deal_is_still_refused_when_no_deal_is_possible() -> None:
    table = _table()
    table.sit("ann")
    round_ = _opened(table)
    with pytest.raises(RoundError, match="only a player with a bet"):
        table.request_deal("ann", 0.5)
    table.place_bet("a1", "ann", "banker", 100, now=1.0)
    table.request_deal("ann", 1.0)
    with pytest.raises(RoundError, match="betting is closed"):
        table.request_deal("ann", 1.1)
    assert kinds(round_).count("deal-requested") == 1


def _peek_round() -> tuple[Table, Round]:
    table = _table("redgreen", peek_seconds=10.0)
    table.sit("ann")
    round_ = _opened(table)
    table.place_bet("a1", "ann", "red", 500, now=1.0)
    table.request_deal("ann", 1.0)
    assert round_.phase is Phase.PEEK
    return table, round_


def test_a_second_peek_logs_nothing_and_shows_the_same_cards() -> None:
    _, round_ = _peek_round()
    (first,) = round_.peek_cards("ann", 2.0)
    assert round_.peeked == first
    logged = list(round_.events)
    assert round_.peek_cards("ann", 3.0) == []
    assert round_.events == logged and round_.peeked == first
    assert kinds(round_).count("peeked") == 1
    assert round_.peek is not None and round_.deadline() == round_.peek.until


def test_a_peek_replayed_from_its_log_is_still_one_peek() -> None:
    _, round_ = _peek_round()
    round_.peek_cards("ann", 2.0)
    again = Round.replay([event_from_dict(e.to_dict()) for e in round_.events],
                         source=SeededRandom(7))  # fmt: skip
    assert again.peeked == round_.peeked
    assert again.peek_cards("ann", 4.0) == []


def test_only_the_peeker_peeks_even_after_a_peek() -> None:
    _, round_ = _peek_round()
    round_.peek_cards("ann", 2.0)
    with pytest.raises(RoundError, match="only the highest bettor"):
        round_.peek_cards("bob", 2.5)


# --- a cap on bets ------------------------------------------------------------------------


def test_a_player_places_at_most_twenty_bets_a_round() -> None:
    table = _table()
    table.sit("ann")
    table.sit("bob")
    round_ = _opened(table)
    assert round_.opened.max_bets_per_player == MAX_BETS_PER_PLAYER == 20
    for number in range(20):
        table.place_bet(f"a{number}", "ann", "banker", 100, now=1.0)
    logged = list(round_.events)
    assert not table.can_place_bet("a20", "ann", "player", 100)
    with pytest.raises(TooManyBets) as caught:
        table.place_bet("a20", "ann", "player", 100, now=1.0)
    assert str(caught.value) == (
        "at most 20 bets a player in one round (a bet taken back counts): add to a spot"
        " with a larger stake instead"
    )
    assert isinstance(caught.value, InvalidBet) and caught.value.cap == 20
    assert round_.events == logged and round_.totals("ann") == {"banker": 2000}
    table.place_bet("b1", "bob", "banker", 100, now=1.0)  # the cap is each player's
    next_round = (_play_out(round_, 17.0), _opened(table, 20.0))[1]
    next_round.verify_place_bet("a21", "ann", 1, "banker", 100)  # and each round's


def test_a_bet_taken_back_still_counts() -> None:
    table = _table(max_bets_per_player=3)
    table.sit("ann")
    round_ = _opened(table)
    for number in range(3):
        table.place_bet(f"a{number}", "ann", "banker", 100, now=1.0)
        round_.remove_bet(f"a{number}", "ann", 1.0)
    with pytest.raises(TooManyBets):
        table.place_bet("a3", "ann", "banker", 100, now=1.0)
    assert kinds(round_).count("bet-placed") == 3


def test_thousands_of_one_cent_chips_cannot_swell_a_round() -> None:
    """At a table taking any cent, 2,500 one-cent add-ons once made a round's record
    1.3 MB; the cap stops them at the twentieth bet."""
    table = _table(bet_step_cents=1)
    table.sit("ann")
    round_ = _opened(table)
    table.place_bet("a0", "ann", "banker", 100, now=1.0)
    placed = sum(table.can_place_bet(f"a{n}", "ann", "banker", 1) and
                 bool(table.place_bet(f"a{n}", "ann", "banker", 1, now=1.0))
                 for n in range(1, 2500))  # fmt: skip
    assert placed == 19 and len(round_.events) == 22  # with the opening's betting window
    assert round_.totals("ann") == {"banker": 119}


def test_an_add_on_is_at_least_the_tables_step() -> None:
    table = _table(bet_step_cents=20)
    table.sit("ann")
    round_ = _opened(table)
    table.place_bet("a0", "ann", "banker", 100, now=1.0)
    for small in (1, 10, 19):
        with pytest.raises(OffStep):
            table.place_bet(f"s{small}", "ann", "banker", small, now=1.0)
    table.place_bet("a1", "ann", "banker", 20, now=1.0)
    assert round_.totals("ann") == {"banker": 120}


def test_a_log_written_before_the_cap_takes_any_number_of_bets() -> None:
    table = _table()
    data = _opened(table).opened.to_dict()
    del data["max_bets_per_player"]
    old = Round.open(event_from_dict(data), source=SeededRandom(1))  # type: ignore[arg-type]
    for number in range(30):
        old.place_bet(f"a{number}", "ann", None, "banker", 100, now=1.0)
    assert old.totals("ann") == {"banker": 3000}
