"""A table's bet step: every stake, and so every spot's total, is a multiple of it.

A step of 0.20 at Punto Banco makes every 19:20 payout whole cents (0.20 pays 0.19,
0.40 pays 0.38); 0.02 does it for Lo-Ball's 3:2 (0.02 pays 0.03). A stake off the step is
refused by the round with the nearest stakes that are on it, and changes nothing.
"""

from __future__ import annotations

import pytest

from baccara.errors import InvalidBet, InvalidOption
from baccara.exact import analyze_at_stake
from baccara.randomness import SeededRandom
from baccara.table import OffStep, Round, Table, TableConfig, event_from_dict
from baccara.table.config import on_step, whole_cents_step


def _table(step: int, low: int = 100, high: int = 50_000, game: str = "punto-banco") -> Table:
    return Table(TableConfig(game, min_bet_cents=low, max_bet_cents=high, bet_step_cents=step))


def test_the_whole_cents_steps_of_the_games() -> None:
    assert whole_cents_step("punto-banco") == 20
    assert whole_cents_step("punto-banco", {"commission": 4}) == 25
    assert whole_cents_step("lo-ball") == 2
    assert whole_cents_step("lo-ball", {"win-bonus-pays": 2}) == 1
    assert whole_cents_step("redgreen") == whole_cents_step("redgreen-mini") == 20
    assert [on_step(v, 20) for v in (1, 20, 21, 100, 101)] == [20, 20, 40, 100, 120]


def test_at_the_whole_cents_step_no_stake_is_rounded() -> None:
    step = whole_cents_step("punto-banco")
    for k in range(1, 30):
        assert not analyze_at_stake("punto-banco", k * step).rounding_matters


def test_a_table_takes_any_cent_unless_it_has_a_step() -> None:
    config = TableConfig("punto-banco", min_bet_cents=1, max_bet_cents=10)
    assert config.bet_step_cents == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"bet_step_cents": 30}, "min-bet-cents: 100 cents (1.00) is not a multiple of the bet step, 30 cents (0.30)"),
        ({"bet_step_cents": 20, "max_bet_cents": 50_010}, "max-bet-cents: 50010 cents (500.10) is not a multiple"),
        ({"bet_step_cents": 0}, "bet-step-cents: must be between 1 and"),
        ({"bet_step_cents": -20}, "bet-step-cents: must be between 1 and"),
        ({"bet_step_cents": 2.5}, "bet-step-cents: must be a whole number of cents, got 2.5"),
        ({"bet_step_cents": True}, "bet-step-cents: must be a whole number of cents, got True"),
        ({"bet_step_cents": "20"}, "bet-step-cents: must be a whole number of cents, got '20'"),
        ({"bet_step_cents": 10**30}, "bet-step-cents: must be between 1 and 100000000 cents"),
        ({"bet_step_cents": float("nan")}, "bet-step-cents: must be a whole number of cents, got nan"),
    ],
)  # fmt: skip
def test_a_step_that_does_not_fit_the_limits_is_refused(
    fields: dict[str, object], message: str
) -> None:
    settings: dict[str, object] = {"min_bet_cents": 100, "max_bet_cents": 50_000, **fields}
    with pytest.raises(InvalidOption) as caught:
        TableConfig("punto-banco", **settings)  # type: ignore[arg-type]
    assert message in str(caught.value)


def test_a_stake_off_the_step_is_refused_with_the_nearest_on_it_and_changes_nothing() -> None:
    table = _table(20)
    round_ = table.open_round(0.0, source=SeededRandom(1))
    table.place_bet("b1", "ann", "banker", 100, now=1.0)
    events = len(round_.events)
    with pytest.raises(OffStep) as caught:
        table.place_bet("b2", "ann", "banker", 110, now=2.0)
    assert str(caught.value) == (
        "a stake of 1.10 is not a multiple of this table's bet step, 0.20: bet 1.00 or 1.20"
    )
    assert (caught.value.amount, caught.value.step) == (110, 20)
    assert (caught.value.lower, caught.value.higher) == (100, 120)
    assert isinstance(caught.value, InvalidBet)  # a bet the table refuses, as a limit is
    assert len(round_.events) == events and round_.totals("ann") == {"banker": 100}
    assert not table.can_place_bet("b2", "ann", "banker", 110)
    table.place_bet("b2", "ann", "banker", 120, now=2.0)
    assert round_.totals("ann") == {"banker": 220}  # the spot's total stays on the step


def test_the_nearest_stakes_are_positive_and_keep_the_spot_within_the_limits() -> None:
    table = _table(20, low=100, high=1000)
    table.open_round(0.0, source=SeededRandom(1))
    table.place_bet("b1", "ann", "tie", 900, now=1.0)
    with pytest.raises(OffStep) as caught:
        table.place_bet("b2", "ann", "tie", 10, now=2.0)  # 0 is no stake
    assert (caught.value.lower, caught.value.higher) == (None, 20)
    assert str(caught.value).endswith("bet 0.20")
    with pytest.raises(OffStep) as caught:
        table.place_bet("b3", "ann", "tie", 90, now=2.0)  # 0.80 or 1.00: 10.00 at most
    assert str(caught.value).endswith("bet 0.80 or 1.00")
    with pytest.raises(OffStep) as caught:
        table.place_bet("b4", "bob", "tie", 110, now=2.0)
    assert str(caught.value).endswith("bet 1.00 or 1.20")


def test_a_limit_is_refused_as_a_limit_before_the_step() -> None:
    table = _table(20)
    table.open_round(0.0, source=SeededRandom(1))
    with pytest.raises(InvalidBet, match=r"this table takes 1\.00 to 500\.00 a spot"):
        table.place_bet("b1", "ann", "banker", 25, now=1.0)


def test_lo_ball_in_steps_of_two_cents() -> None:
    table = _table(2, low=100, high=10_000, game="lo-ball")
    table.sit("ann")
    round_ = table.open_round(0.0, source=SeededRandom(3))
    with pytest.raises(OffStep, match=r"bet 1\.00 or 1\.02"):
        table.place_bet("b1", "ann", "main", 101, now=1.0)
    table.place_bet("b1", "ann", "main", 102, now=1.0)
    assert round_.totals("ann") == {"main": 102}


def test_the_round_log_carries_the_step_and_an_older_log_reads_as_one_cent() -> None:
    table = _table(20)
    round_ = table.open_round(0.0, source=SeededRandom(1))
    opened = round_.events[0].to_dict()
    assert opened["bet_step_cents"] == 20
    assert event_from_dict(opened) == round_.events[0]
    older = {k: v for k, v in opened.items() if k != "bet_step_cents"}
    read = Round.read([event_from_dict(older)])
    assert read.opened.bet_step_cents == 1
    read.verify_place_bet("b1", "ann", None, "banker", 101)  # any cent, as before


def test_the_whole_cents_step_is_worked_out_once_per_game_and_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A casino asks for each table's step at every start: the analysis runs once."""
    import baccara.exact
    from baccara.table.config import _remembered_step

    plain = baccara.exact.bet_step_cents
    calls: list[tuple[str, dict[str, object]]] = []

    def counted(game_id: str, **options: object) -> int:
        calls.append((game_id, options))
        return plain(game_id, **options)

    _remembered_step.cache_clear()
    monkeypatch.setattr(baccara.exact, "bet_step_cents", counted)
    first = whole_cents_step("punto-banco", {"commission": 4})
    again = whole_cents_step("punto-banco", {"commission": 4})
    other = whole_cents_step("punto-banco")
    assert (first, again, other) == (plain("punto-banco", commission=4), first, 20)
    assert calls == [("punto-banco", {"commission": 4}), ("punto-banco", {})]
