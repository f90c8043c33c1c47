"""The betting window opens with the round: players see the countdown from the moment
betting opens, not from the first bet. A table nobody sits at waits for a player without
one, so it never plays rounds to nobody; the first player to sit or bet starts it."""

from __future__ import annotations

import pytest

from baccara.randomness import SeededRandom
from baccara.table import Mode, Phase, Round, RoundError, Table, TableConfig
from baccara.table.events import BettingWindow, event_from_dict


def table_of(mode: Mode = Mode.ELECTRONIC, **settings: object) -> Table:
    return Table(TableConfig("punto-banco", min_bet_cents=500, max_bet_cents=10_000, mode=mode,
                             betting_seconds=15, **settings))  # type: ignore[arg-type]  # fmt: skip


def opened(table: Table, now: float = 100.0) -> Round:
    if table.config.mode is Mode.LIVE:
        return table.open_round(now)
    return table.open_round(now, source=SeededRandom(1))


def windows(round_: Round) -> list[float | None]:
    return [e.until for e in round_.events if isinstance(e, BettingWindow)]


@pytest.mark.parametrize("mode", [Mode.ELECTRONIC, Mode.LIVE])
def test_a_round_opened_with_players_seated_counts_down_from_its_opening(mode: Mode) -> None:
    table = table_of(mode)
    table.sit("ann", now=90.0)
    round_ = opened(table)
    assert [e.kind for e in round_.events] == ["round-opened", "betting-window"]
    assert round_.deadline() == 115.0  # before any bet
    table.place_bet("a", "ann", "banker", 1000, 110.0)
    assert round_.deadline() == 115.0  # a bet does not move the countdown
    assert round_.tick(114.9) == []
    assert round_.tick(115.0)[0].kind == "betting-closed"


def test_an_empty_table_waits_without_a_countdown_until_the_first_player_sits() -> None:
    table = table_of()
    round_ = opened(table)
    assert round_.deadline() is None and table.tick(10_000.0) == []
    assert [e.kind for e in round_.events] == ["round-opened"]
    table.sit("ann", now=130.0)
    assert windows(round_) == [145.0] and round_.deadline() == 145.0
    table.sit("bob", now=131.0)  # the window is open already: a second player changes nothing
    assert windows(round_) == [145.0]


def test_a_first_bet_from_behind_an_empty_table_starts_the_countdown() -> None:
    table = table_of()
    round_ = opened(table)
    table.place_bet("a", "watcher", "banker", 1000, 200.0)  # Punto Banco takes bets behind
    assert round_.deadline() == 215.0
    assert windows(round_) == []  # the bet itself starts it, as a log before windows did


def test_a_window_nobody_bet_in_opens_again_while_players_sit() -> None:
    table = table_of()
    table.sit("ann", now=90.0)
    round_ = opened(table)
    assert table.tick(115.0)[0].kind == "betting-window"
    assert round_.phase is Phase.BETTING and round_.deadline() == 130.0
    table.place_bet("a", "ann", "banker", 1000, 129.0)
    assert table.tick(130.0)[0].kind == "betting-closed"


def test_a_window_that_runs_out_with_nobody_seated_stops_the_countdown() -> None:
    table = table_of()
    table.sit("ann", now=90.0)
    round_ = opened(table)
    table.leave("ann")
    assert [e.until for e in table.tick(115.0) if isinstance(e, BettingWindow)] == [None]
    assert round_.deadline() is None and table.tick(10_000.0) == []
    table.sit("bob", now=10_000.0)
    assert round_.deadline() == 10_015.0


def test_taking_every_bet_back_leaves_the_countdown_running() -> None:
    table = table_of()
    table.sit("ann", now=90.0)
    round_ = opened(table)
    table.place_bet("a", "ann", "banker", 1000, 101.0)
    round_.remove_bet("a", "ann", 102.0)
    assert round_.deadline() == 115.0 and round_.first_bet_at is None


def test_one_players_deal_still_waits_the_minimum_window_from_the_first_bet() -> None:
    """The issue-23 guard rail holds: the minimum window runs from the first bet, not from
    the opening, so one player's "deal" cannot shut out the others about to bet."""
    table = table_of(min_betting_seconds=5.0)
    table.sit("ann", now=90.0)
    table.sit("bob", now=90.0)
    round_ = opened(table)
    table.place_bet("a", "ann", "banker", 1000, 108.0)
    assert [e.kind for e in table.request_deal("ann", 108.5)] == ["deal-requested"]
    assert round_.deadline() == 113.0  # 108 + 5, before the window's 115
    assert round_.tick(112.9) == []
    assert round_.tick(113.0)[0].kind == "betting-closed"


def test_the_minimum_window_never_outlasts_the_countdown() -> None:
    table = table_of(min_betting_seconds=5.0)
    table.sit("ann", now=90.0)
    table.sit("bob", now=90.0)
    round_ = opened(table)
    table.place_bet("a", "ann", "banker", 1000, 113.0)
    table.request_deal("ann", 113.5)
    assert round_.deadline() == 115.0  # the timer everyone saw closes it


def test_the_window_is_opened_and_stopped_only_when_it_may_be() -> None:
    table = table_of()
    table.sit("ann", now=90.0)
    round_ = opened(table)
    with pytest.raises(RoundError, match="open already"):
        round_.open_window(101.0)
    table.place_bet("a", "ann", "banker", 1000, 101.0)
    with pytest.raises(RoundError, match="its timer closes it"):
        round_.wait_for_players(102.0)
    assert not round_.can_open_window() and not round_.can_wait_for_players()


def test_the_event_is_written_and_read_back() -> None:
    for until in (115.0, None):
        event = BettingWindow(seq=1, at=100.0, by="table", until=until)
        assert event_from_dict(event.to_dict()) == event


def test_a_round_replayed_from_its_log_keeps_its_countdown() -> None:
    table = table_of()
    table.sit("ann", now=90.0)
    round_ = opened(table)
    table.tick(115.0)
    again = Round.replay(round_.events, source=SeededRandom(1))
    assert again.deadline() == round_.deadline() == 130.0
