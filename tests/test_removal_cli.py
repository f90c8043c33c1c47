"""``baccara analyze GAME --effect-of-removal`` as a user runs it: output and exit codes,
in-process."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tests.helpers import assert_refused, run


def test_effect_of_removal_table_for_punto_banco() -> None:
    result = run("analyze", "punto-banco", "--effect-of-removal")
    assert result.returncode == 0, result.stderr
    assert "change of house edge" in result.stdout
    rows = [line.split("│")[1:-1] for line in result.stdout.splitlines() if line.startswith("│ ")]
    labels = [row[0].strip() for row in rows]
    assert labels == [
        "full shoe edge",
        *["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"],
        "weighted sum",
    ]
    assert [cell.strip() for cell in rows[0][2:]] == [
        "1.0579%", "1.2351%", "14.3596%", "10.3614%", "10.3614%"
    ]  # fmt: skip
    assert [cell.strip() for cell in rows[-1][2:]] == ["0"] * 5


def test_effect_of_removal_json_player_win_matches_the_published_table() -> None:
    """The Player bet's effect is −Δ(P win) + Δ(P lose); excelpunks.com (Concepts 16) prints
    Δ(P Player wins) for one 4 removed from eight decks as −0.0000435175, and the JSON's
    exact figures must agree with the depleted shoe's probabilities."""
    result = run("analyze", "punto-banco", "--effect-of-removal", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    four = next(e for e in data["effects"] if e["removed"] == "4")
    edge_after = Fraction(four["bets"]["player"]["house_edge_exact"])
    edge_before = Fraction(data["full_shoe"]["player"]["house_edge_exact"])
    assert Fraction(four["bets"]["player"]["exact"]) == edge_after - edge_before
    assert all(Fraction(s["exact"]) == 0 for s in data["weighted_sum"].values())


def test_effect_of_removal_for_lo_ball_lists_every_tile() -> None:
    result = run("analyze", "lo-ball", "--effect-of-removal", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["removed"] == "tile" and len(data["effects"]) == 28
    assert data["effects"][0]["removed"] == "1-1"
    assert data["effects"][0]["bets"]["lo-card"]["house_edge"] == 1.0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["analyze", "baccarat-banque", "--effect-of-removal"], "unknown game 'baccarat-banque'"),
        (["analyze", "punto-banco", "--effect-of-removal", "--decks", "0"], "decks: must be"),
        (["analyze", "lo-ball", "--effect-of-removal", "--decks", "8"], "decks"),
        (["analyze", "redgreen", "--effect-of-removal", "-o", "split-aces=maybe"], "split"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(args: list[str], message: str) -> None:
    assert_refused(run(*args), message)
