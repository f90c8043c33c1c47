"""Bankroll sessions: ruin, stopping, conservation of money, reproducibility, the plot."""

from __future__ import annotations

import pathlib
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest

from baccara.errors import InvalidBet, InvalidOption
from baccara.render.plots import plot_sessions
from baccara.sim.sessions import SessionPlan, net_per_outcome, play_sessions

BANKER = [Fraction(19, 20), Fraction(0), Fraction(-1)]


def constant(code: int):  # type: ignore[no-untyped-def]
    def source(rounds: int, seed: int) -> npt.NDArray[np.int64]:
        return np.full(rounds, code, dtype=np.int64)

    return source


def coin(rounds: int, seed: int) -> npt.NDArray[np.int64]:
    return np.random.default_rng(seed).integers(0, 3, size=rounds)


def test_net_per_outcome_rounds_down() -> None:
    assert net_per_outcome(25, BANKER).tolist() == [23, 0, -25]  # 23.75 → 23
    assert net_per_outcome(1000, [Fraction(3, 2), Fraction(-1)]).tolist() == [1500, -1000]


def test_losing_every_hand_is_ruin_after_bankroll_over_stake_hands() -> None:
    plan = SessionPlan(stake=1000, bankroll=10_500, hands=200, sessions=3)
    report = play_sessions(plan, net_per_outcome(1000, BANKER), constant(2), seed=1)
    assert report.ruined.all()
    assert report.hands_played.tolist() == [10, 10, 10]  # 10.50 → 0.50 left, below a stake
    assert report.final.tolist() == [500, 500, 500]
    assert report.risk_of_ruin == 1.0
    assert report.paths[0, -1] == 500 and report.paths[0, 0] == 10_500


def test_winning_every_hand_plays_every_hand() -> None:
    plan = SessionPlan(stake=1000, bankroll=1000, hands=50, sessions=4)
    report = play_sessions(plan, net_per_outcome(1000, BANKER), constant(0), seed=1)
    assert not report.ruined.any()
    assert report.final.tolist() == [1000 + 50 * 950] * 4


def test_pushes_only_change_nothing() -> None:
    plan = SessionPlan(stake=500, bankroll=500, hands=7, sessions=2)
    report = play_sessions(plan, net_per_outcome(500, BANKER), constant(1), seed=1)
    assert report.results.tolist() == [0, 0] and report.summary()["even"] == 1.0


def test_percentiles_are_results_a_session_reached() -> None:
    """Two sessions: one wins every hand, one loses. An interpolated median would be a
    result between them that neither had; the percentiles are what a session ended with,
    and the fan chart's bands are balances some session held after that hand."""
    plan = SessionPlan(stake=1000, bankroll=20_000, hands=10, sessions=2)

    def win_then_lose(rounds: int, seed: int) -> npt.NDArray[np.int64]:
        return np.array([0] * 10 + [2] * 10, dtype=np.int64)[:rounds]

    report = play_sessions(plan, net_per_outcome(1000, BANKER), win_then_lose, seed=1)
    results = set(report.results.tolist())
    assert results == {9500, -10000}
    percentiles = report.summary()["percentiles"]
    assert set(percentiles.values()) <= results
    assert percentiles["p50"] == -10000 and percentiles["p99"] == 9500
    bands = report.balance_percentiles()
    for hand in range(plan.hands + 1):
        assert set(bands[:, hand].tolist()) <= set(report.paths[:, hand].tolist())


def test_money_is_conserved_hand_by_hand() -> None:
    """Final bankroll = start + the settled result of exactly the hands played."""
    plan = SessionPlan(stake=1000, bankroll=5000, hands=300, sessions=2000)
    net = net_per_outcome(1000, BANKER)
    report = play_sessions(plan, net, coin, seed=11)
    codes = coin(plan.sessions * plan.hands, _first_chunk_seed(11)).reshape(plan.sessions, -1)
    for i in range(plan.sessions):
        played = report.hands_played[i]
        assert report.final[i] == plan.bankroll + int(net[codes[i, :played]].sum())
        bank = plan.bankroll + np.cumsum(net[codes[i, :played]])
        assert (bank[:-1] >= plan.stake).all()  # every hand played was covered
        assert report.ruined[i] == (bank[-1] < plan.stake)


def _first_chunk_seed(seed: int) -> int:
    from baccara.sim.sessions import _chunk_seed

    return _chunk_seed(seed, 0)


def test_same_seed_same_sessions_across_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    import baccara.sim.sessions as sessions

    plan = SessionPlan(stake=100, bankroll=2000, hands=100, sessions=3000)
    net = net_per_outcome(100, BANKER)
    a = play_sessions(plan, net, coin, seed=5)
    b = play_sessions(plan, net, coin, seed=5)
    assert (a.final == b.final).all()
    monkeypatch.setattr(sessions, "CHUNK_HANDS", 100 * 7)  # many small chunks: other draws
    c = play_sessions(plan, net, coin, seed=5)
    assert len(c.final) == 3000 and not (c.final == a.final).all()


def test_mean_agrees_with_the_edge() -> None:
    """200 hands of a ±1 bet paying 19/20, 1/3 each outcome: mean −(1/3)(1/20)·200 stakes."""
    plan = SessionPlan(stake=2000, bankroll=10**7, hands=200, sessions=20_000)
    report = play_sessions(plan, net_per_outcome(2000, BANKER), coin, seed=3)
    lo, hi = report.summary()["mean_result_ci95"]
    expected = -200 * 2000 / 60
    width = hi - lo
    assert lo - width < expected < hi + width


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"stake": 0}, InvalidBet, None),
        ({"stake": 10.5}, InvalidBet, None),
        ({"bankroll": 999}, InvalidOption, "bankroll"),
        ({"hands": 0}, InvalidOption, "hands"),
        ({"sessions": -1}, InvalidOption, "sessions"),
        ({"sessions": "many"}, InvalidOption, "sessions"),
    ],
)
def test_bad_plans_are_refused(kwargs: dict[str, object], error: type, name: str | None) -> None:
    values: dict[str, object] = {"stake": 1000, "bankroll": 100_000, "hands": 200, "sessions": 10}
    values.update(kwargs)
    with pytest.raises(error) as caught:
        SessionPlan(**values)  # type: ignore[arg-type]
    if name:
        assert caught.value.option == name  # type: ignore[attr-defined]


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_plot_is_written(tmp_path: pathlib.Path, suffix: str) -> None:
    plan = SessionPlan(stake=1000, bankroll=20_000, hands=100, sessions=500)
    report = play_sessions(plan, net_per_outcome(1000, BANKER), coin, seed=2)
    path = plot_sessions(report, tmp_path / f"s{suffix}", "test")
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data[:1000]


def test_plot_refuses_other_formats(tmp_path: pathlib.Path) -> None:
    plan = SessionPlan(stake=1000, bankroll=20_000, hands=10, sessions=5)
    report = play_sessions(plan, net_per_outcome(1000, BANKER), coin, seed=2)
    with pytest.raises(InvalidOption, match=r"png or \.svg"):
        plot_sessions(report, tmp_path / "s.jpg", "test")
