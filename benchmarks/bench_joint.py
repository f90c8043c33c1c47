"""A round's exact variance (exact/joint.py): the first call per rules, then every round.

The first call builds the game's joint distribution and covariance matrices from
scratch (its caches cleared), beside the game's exact analysis as a yardstick. After
it each round is a few integer products; the baseline of those rows is the same
variance summed entry by entry in fractions, which the integer form replaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from baccara import analyze
from baccara.exact import bonus, joint_loball, joint_punto_banco, joint_redgreen, redgreen
from baccara.exact.joint import house_win_variance, round_model
from baccara.games import game
from benchmarks.timing import Row, best_of

Wagers = list[tuple[int | None, str, int]]

WAGERS: dict[str, Wagers] = {
    "punto-banco": [(s, b, 500 * s) for s in range(1, 8) for b in ("banker", "player", "tie")],
    "redgreen": [(s, b, 500 * s) for s in range(1, 13) for b in ("red", "green", "bonus")],
    "lo-ball": [
        (s, b, 500 * s) for s in range(1, 8) for b in ("main", "lo-card", "hi-card", "dice-lo")
    ],
}
"""A busy round: every seat on three or four spots (21, 36 and 28 wagers)."""

ROUNDS = 1_000

CACHES: dict[str, tuple[Any, ...]] = {
    "punto-banco": (joint_punto_banco._rank_openings, joint_punto_banco.round_model),
    "redgreen": (
        bonus._rank_tables,
        bonus._category_counts,
        redgreen.settings,
        redgreen.outcome_matrix,
        joint_redgreen._split_hands,
        joint_redgreen.splits_by_call,
        joint_redgreen.round_model,
    ),
    "lo-ball": (
        joint_loball._hands,
        joint_loball._outcome_codes,
        joint_loball._indicators,
        joint_loball.main_pair_counts,
        joint_loball.main_tile_counts,
        joint_loball.main_pair_totals,
        joint_loball.round_model,
    ),
}


def _quadratic(matrix: Sequence[Sequence[Fraction]], left: list[int], right: list[int]) -> Fraction:
    return sum(
        (left[k] * right[j] * matrix[k][j] for k in range(len(left)) for j in range(len(right))),
        Fraction(0),
    )


def _in_fractions(game_id: str, rules: Any, wagers: Wagers) -> Fraction:
    """The round's variance from the covariance matrices as fractions, entry by entry."""
    if game_id != "lo-ball":
        spots = round_model(game_id, rules)
        totals = spots.totals(wagers)  # type: ignore[attr-defined]
        cov = spots.form.covariance_fractions()  # type: ignore[attr-defined]
        return _quadratic(cov, totals, totals)
    moments = joint_loball.seat_moments(rules)
    within, across = moments.covariance(across=False), moments.covariance(across=True)
    seats, dice = joint_loball.LoBallModel.stakes(wagers)
    total = Fraction(0)
    for i, mine in seats.items():
        for j, theirs in seats.items():
            total += _quadratic(within if i == j else across, mine, theirs)
    return total + _quadratic(moments.dice.covariance_fractions(), dice, dice)


def run() -> list[Row]:
    rows = []
    for game_id, wagers in WAGERS.items():
        rules = game(game_id).rules()

        def cold(game_id: str = game_id, rules: Any = rules) -> None:
            for cached in CACHES[game_id]:
                cached.cache_clear()
            house_win_variance(game_id, rules, [])

        yardstick = best_of(lambda game_id=game_id: analyze(game_id), repeat=1)
        rows.append(
            Row(
                f"{game_id} round model, first call",
                best_of(cold, repeat=3),
                "the exact analysis",
                yardstick,
            )
        )
        assert _in_fractions(game_id, rules, wagers) == house_win_variance(game_id, rules, wagers)

        def exact(game_id: str = game_id, rules: Any = rules, wagers: Wagers = wagers) -> None:
            for _ in range(ROUNDS):
                house_win_variance(game_id, rules, wagers)

        def fractions(game_id: str = game_id, rules: Any = rules, wagers: Wagers = wagers) -> None:
            for _ in range(ROUNDS):
                _in_fractions(game_id, rules, wagers)

        rows.append(
            Row(
                f"{game_id} {ROUNDS:,} rounds of {len(wagers)} wagers",
                best_of(exact),
                "matrices in fractions",
                best_of(fractions, repeat=1),
            )
        )
    return rows
