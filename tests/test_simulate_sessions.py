"""``baccara simulate GAME --bet …``: bankroll sessions dealt by the real rules."""

from __future__ import annotations

import json
import pathlib

import pytest

from baccara import analyze
from tests.helpers import assert_refused, run


def sessions_json(*args: str) -> dict[str, object]:
    result = run("simulate", *args, "--json")
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_banker_sessions_agree_with_the_exact_edge(tmp_path: pathlib.Path) -> None:
    plot = tmp_path / "banker.png"
    data = sessions_json(
        "punto-banco", "--bet", "banker", "--stake", "10", "--bankroll", "1000",
        "--hands", "200", "--sessions", "20000", "--seed", "11", "--plot", str(plot),
    )  # fmt: skip
    assert data["stake"] == 1000 and data["bankroll"] == 100_000 and data["hands"] == 200
    low, high = data["mean_result_ci95"]  # type: ignore[misc]
    width = high - low
    # 200 hands × 10.00 × the exact 1.0579 % edge: −21.16 on average.
    assert low - width / 2 < -200 * 1000 * 0.0105790578 < high + width / 2
    # Losing 1000 in 200 hands of 10 lies over seven standard deviations below the mean.
    assert data["risk_of_ruin"] == 0.0
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_sessions_repeat_by_seed() -> None:
    args = ("lo-ball", "--bet", "main", "--sessions", "500", "--hands", "50", "--seed", "4")
    a, b = sessions_json(*args), sessions_json(*args)
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_small_bankroll_on_the_tie_is_usually_ruined() -> None:
    data = sessions_json(
        "punto-banco", "--bet", "tie", "--stake", "5", "--bankroll", "20",
        "--hands", "300", "--sessions", "5000", "--seed", "9",
    )  # fmt: skip
    assert 0.5 < data["risk_of_ruin"] < 1.0  # type: ignore[operator]
    assert data["mean_hands_played"] < 300  # type: ignore[operator]


@pytest.mark.parametrize(
    ("game", "bet"),
    [
        (game, bet)
        for game in ("punto-banco", "redgreen", "lo-ball")
        for bet in analyze(game).bet_ids
    ],
)
def test_every_bet_of_every_game_plays_sessions(game: str, bet: str) -> None:
    data = sessions_json(game, "--bet", bet, "--sessions", "200", "--hands", "20", "--seed", "1")
    assert data["bet"] == bet and data["sessions"] == 200
    # Every hand played staked the default 10.00, and nothing else was staked.
    assert data["total_wagered"] == 1000 * round(data["mean_hands_played"] * 200)  # type: ignore[operator]


def test_text_report() -> None:
    result = run("simulate", "punto-banco", "--bet", "player", "--sessions", "1000", "--seed", "2")
    assert result.returncode == 0, result.stderr
    assert "risk of ruin" in result.stdout and "expected from the exact edge" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--stake", "5"], "--stake: does not apply to a run of rounds: it sets bankroll sessions"),
        (["--bet", "dragon"], "unknown bet 'dragon' for punto-banco"),
        (["--bet", "banker", "--stake", "10", "--bankroll", "5"], "bankroll: 5.00 does not cover"),
        (["--bet", "banker", "--stake", "-10"], "--stake: must be between 0.01 and 1000000.00"),
        (["--bet", "banker", "--stake", "0.001"], "at most 2 decimal places, got '0.001'"),
        (["--bet", "banker", "--bankroll", "92233720368547758.07"], "--bankroll: must be between"),
        (["--bet", "banker", "--bankroll", "1e30"], "--bankroll: must be between"),
        (["--bet", "banker", "--workers", "64"], "--workers: does not apply to bankroll sessions"),
        (["--bet", "banker", "--rounds", "5"], "--rounds: does not apply to bankroll sessions"),
        (["--bet", "banker", "--level", "2"], "--level: does not apply to bankroll sessions"),
        (["--bet", "banker", "--sessions", "0"], "sessions: must be between 1"),
        (["--bet", "banker", "--hands", "many"], "hands: must be a whole number"),
        (["--bet", "banker", "--plot", "out.jpg"], "plot: write a .png or .svg file"),
    ],
)
def test_bad_session_input(args: list[str], message: str) -> None:
    assert_refused(run("simulate", "punto-banco", *args), message)
