"""The simulator against the exact analysis, its reproducibility, and ``baccara simulate``."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from baccara import analyze
from baccara.cli import main
from baccara.errors import InvalidOption, UnknownGame
from baccara.sim.dealer import BLOCK_ROUNDS, block_count
from baccara.sim.executors import process_pool
from baccara.sim.report import FLAG_SIGMAS, check_bets, z_score
from baccara.sim.runs import DealerSpec, count_blocks, count_outcomes, deal_outcomes
from tests.helpers import CountingExecutor, assert_refused, run

GAMES = ("punto-banco", "redgreen", "redgreen-mini", "lo-ball")
TEN_MILLION = 10**7


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("punto-banco", {}),
        ("punto-banco", {"decks": 6, "commission": 4}),
        ("redgreen", {}),
        ("redgreen-mini", {"split_aces": "no", "decks": 2}),
        ("lo-ball", {"win_bonus_pays": 2}),
    ],
)
def test_bets_and_outcomes_are_named_as_in_the_analysis(game: str, options: dict[str, Any]) -> None:
    dealt = deal_outcomes(game, 10, 1, **options)
    analysis = analyze(game, **options)
    assert dealt.game == game
    assert dealt.bets == tuple(analysis.bet_ids)
    assert dealt.outcomes == tuple(tuple(o.name for o in b.outcomes) for b in analysis.bets)
    assert dealt.codes.shape == (10, len(dealt.bets)) and dealt.codes.dtype == np.int8
    for j, names in enumerate(dealt.outcomes):
        assert dealt.codes[:, j].min() >= 0 and dealt.codes[:, j].max() < len(names)


@pytest.mark.parametrize(
    ("game", "shoe"),
    [
        ("punto-banco", "reshuffle"),
        ("punto-banco", "continuous"),
        ("redgreen", "reshuffle"),
        ("redgreen", "continuous"),
        ("redgreen-mini", "reshuffle"),
        ("lo-ball", "reshuffle"),
    ],
)
def test_ten_million_rounds_agree_with_the_exact_analysis(game: str, shoe: str) -> None:
    """Every outcome of every bet, and every return, within 4 standard errors of the exact figure.

    For a continuous shoe the exact figures are off the top; a shoe dealt to 80 %
    penetration moves them by less than this run can resolve.
    """
    labels, counts = count_outcomes(game, TEN_MILLION, seed=2024, shoe=shoe)
    checks = check_bets(analyze(game), labels, counts, TEN_MILLION)
    assert [b.bet for b in checks] == list(labels.bets)
    for bet in checks:
        assert sum(o.count for o in bet.outcomes) == TEN_MILLION
        for outcome in bet.outcomes:
            assert abs(outcome.z) <= FLAG_SIGMAS, (bet.bet, outcome)
        assert abs(bet.return_z) <= FLAG_SIGMAS, bet
        low, high = bet.return_ci95
        assert low < bet.observed_return < high


def test_a_wrong_exact_figure_is_flagged() -> None:
    """Punto Banco dealt from one deck set beside the eight-deck analysis: pairs come far less often."""
    labels, counts = count_outcomes("punto-banco", 2_000_000, seed=5, decks=1)
    checks = {b.bet: b for b in check_bets(analyze("punto-banco"), labels, counts, 2_000_000)}
    assert checks["player-pair"].flagged and checks["banker-pair"].flagged
    assert checks["player-pair"].outcomes[0].z < -FLAG_SIGMAS


def test_z_score_is_in_standard_errors_of_the_exact_probability() -> None:
    from fractions import Fraction

    # 100 rounds, p = 1/2: one standard error is 5 rounds.
    assert z_score(60, 100, Fraction(1, 2)) == pytest.approx(2.0)
    assert z_score(0, 100, Fraction(0)) == 0.0
    assert z_score(1, 100, Fraction(0)) == float("inf")


def test_same_seed_same_rounds_different_seed_different_rounds() -> None:
    first = deal_outcomes("redgreen", 5000, 77)
    assert np.array_equal(first.codes, deal_outcomes("redgreen", 5000, 77).codes)
    assert not np.array_equal(first.codes, deal_outcomes("redgreen", 5000, 78).codes)
    assert np.array_equal(deal_outcomes("redgreen", 1234, 77).codes, first.codes[:1234])


def _bincounts(codes: npt.NDArray[np.int8], width: int) -> npt.NDArray[np.int64]:
    return np.stack([np.bincount(codes[:, j], minlength=width) for j in range(codes.shape[1])])


def test_block_counts_equal_the_rounds_dealt_and_workers_do_not_change_them() -> None:
    rounds = 2 * BLOCK_ROUNDS + 12_345
    dealt = deal_outcomes("punto-banco", rounds, 9, shoe="continuous", penetration=0.7)
    _, one = count_outcomes("punto-banco", rounds, 9, workers=1, shoe="continuous", penetration=0.7)
    _, two = count_outcomes("punto-banco", rounds, 9, workers=2, shoe="continuous", penetration=0.7)
    assert np.array_equal(one, two)
    assert np.array_equal(one, _bincounts(dealt.codes, one.shape[1]))


def _processes(workers: int) -> ProcessPoolExecutor:
    return process_pool(workers)


@pytest.mark.parametrize("make", [ThreadPoolExecutor, _processes], ids=["threads", "processes"])
def test_a_callers_executor_deals_every_block_and_counts_as_the_default_path(
    make: Callable[[int], Executor],
) -> None:
    """A pool the caller keeps (threads or processes) gets every block, gives the counts
    the default path gives for the same seed, and is left running for its owner."""
    rounds = 2 * BLOCK_ROUNDS + 12_345
    options: dict[str, Any] = {"shoe": "continuous", "penetration": 0.7}
    _, here = count_outcomes("punto-banco", rounds, 9, **options)
    _, in_processes = count_outcomes("punto-banco", rounds, 9, workers=2, **options)
    with make(2) as pool:
        executor = CountingExecutor(pool)
        _, passed = count_outcomes(
            "punto-banco", rounds, 9, workers=2, executor=executor, **options
        )
        assert executor.jobs == block_count(rounds) == 3
        assert pool.submit(sum, [1, 2]).result() == 3
    assert np.array_equal(passed, here)
    assert np.array_equal(passed, in_processes)


def test_a_callers_executor_gets_only_a_few_blocks_at_a_time() -> None:
    """Blocks are handed out two per worker as earlier ones finish, never all at once."""
    spec = DealerSpec.of("punto-banco")
    with ThreadPoolExecutor(1) as pool:
        executor = CountingExecutor(pool)
        blocks = count_blocks(spec, 10**13, 1, workers=1, executor=executor)
        size, _ = next(blocks)
        assert size == BLOCK_ROUNDS
        assert executor.jobs <= 3
        blocks.close()


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: deal_outcomes("chemin-de-fer", 10, 1), UnknownGame, "unknown game"),
        (lambda: deal_outcomes("punto-banco", 0, 1), InvalidOption, "rounds: must be between 1"),
        (lambda: deal_outcomes("punto-banco", 10**12, 1), InvalidOption, "100,000,000, got"),
        (lambda: deal_outcomes("punto-banco", 10, -1), InvalidOption, "seed: must be between 0"),
        (lambda: deal_outcomes("punto-banco", 10, 1, colour="red"), InvalidOption, "colour"),
        (lambda: deal_outcomes("punto-banco", 10, 1, decks=0), InvalidOption, "decks"),
        (lambda: deal_outcomes("punto-banco", 10, 1, shoe="stack"), InvalidOption, "shoe"),
        (
            lambda: deal_outcomes("punto-banco", 10, 1, shoe="continuous", penetration=0),
            InvalidOption,
            "penetration: must be in (0, 1]",
        ),
        (lambda: deal_outcomes("lo-ball", 10, 1, shoe="continuous"), InvalidOption, "Lo-Ball"),
        (lambda: count_outcomes("lo-ball", 10, 1, workers=0), InvalidOption, "workers"),
    ],
)
def test_bad_input_is_refused_by_name(call: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message.replace("(", r"\(").replace("]", r"\]")):
        call()


def test_a_continuous_shoe_is_refused_for_lo_ball_before_dealing() -> None:
    with pytest.raises(InvalidOption) as raised:
        DealerSpec.of("lo-ball", shoe="continuous")
    assert raised.value.option == "shoe"


# --- the command ---------------------------------------------------------------------------


def test_simulate_json_shape_and_worker_independence() -> None:
    rounds = str(BLOCK_ROUNDS + 1000)
    results = [
        run("simulate", "lo-ball", "--rounds", rounds, "--seed", "3", "--workers", w, "--json")
        for w in ("1", "2")
    ]
    data = []
    for result in results:
        assert result.returncode == 0, result.stderr
        data.append(json.loads(result.stdout))
    one, two = data
    for key in ("game", "rounds", "seed", "seconds", "rounds_per_second", "bets"):
        assert key in one
    assert one["rounds"] == int(rounds) and one["seed"] == 3 and one["complete"]
    main_bet = one["bets"][0]
    assert main_bet["bet"] == "main"
    assert set(main_bet) >= {"bet", "outcomes", "return", "return_ci95"}
    assert set(main_bet["outcomes"][0]) >= {"name", "observed", "expected", "z"}
    assert sum(o["observed"] for o in main_bet["outcomes"]) == pytest.approx(1.0)
    low, high = main_bet["return_ci95"]
    assert low < main_bet["return"] < high
    assert main_bet["outcomes"][0]["expected"] == pytest.approx(204_050 / 7_534_800)  # seed 001

    def without_timing(d: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in d.items() if k not in ("seconds", "rounds_per_second", "workers")}

    assert without_timing(one) == without_timing(two)


def test_simulate_prints_tables_beside_the_exact_figures() -> None:
    result = run("simulate", "redgreen", "--rounds", "20000", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert "redgreen — 20,000 rounds, seed 1, shoe reshuffled every round" in result.stdout
    assert "0.35247160" in result.stdout  # Red wins 35.2472 % (seed 000 analysis), exactly
    assert "Every exact value is within 4 standard errors." in result.stdout


def test_continuous_shoe_labels_the_exact_figures_off_the_top() -> None:
    result = run(
        "simulate", "punto-banco", "--rounds", "5000", "--seed", "1", "--shoe", "continuous",
        "--penetration", "0.5",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "continuous shoe, cut card at 50%" in result.stdout
    assert "Exact (off the top)" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["punto-banco", "--rounds", "0"], "rounds: must be between 1"),
        (["punto-banco", "--rounds", "-5"], "rounds: must be between 1"),
        (["punto-banco", "--rounds", "lots"], "rounds: must be a whole number"),
        (["chemin-de-fer", "--rounds", "10"], "unknown game 'chemin-de-fer'"),
        (["punto-banco", "--option", "colour=red"], "colour: not an option"),
        (["punto-banco", "--option", "decks=0"], "decks: must be between 1 and 100"),
        (["punto-banco", "--workers", "0"], "workers: must be between 1"),
        (["punto-banco", "--workers", "two"], "workers: must be a whole number"),
        (["punto-banco", "--shoe", "continuous", "--penetration", "0"], "must be in (0, 1]"),
        (["punto-banco", "--shoe", "continuous", "--penetration", "1.2"], "must be in (0, 1]"),
        (["punto-banco", "--penetration", "0.5"], "--penetration: places the cut card"),
        (["punto-banco", "--level", "2"], "--level: does not apply to a run of rounds"),
        (["punto-banco", "--rounds", "1e999999999"], "--rounds: must be between 1 and"),
        (["punto-banco", "--shoe", "stack"], "shoe: must be one of reshuffle, continuous"),
        (["lo-ball", "--shoe", "continuous"], "Lo-Ball reshuffles its 28 tiles"),
        (["punto-banco", "--seed", "x"], "seed: must be a whole number"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(args: list[str], message: str) -> None:
    assert_refused(run("simulate", *args), message)


def test_ctrl_c_prints_the_partial_result(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two blocks are dealt, then Ctrl-C: their counts are reported, marked partial, status 130."""
    from baccara.sim import dealer, runs

    real = runs.count_blocks

    def interrupted(*args: Any) -> Iterator[tuple[int, npt.NDArray[np.int64]]]:
        blocks = real(*args)
        yield next(blocks)
        yield next(blocks)
        raise KeyboardInterrupt

    monkeypatch.setattr(dealer, "BLOCK_ROUNDS", 1000)
    monkeypatch.setattr(runs, "count_blocks", interrupted)
    status = main(["simulate", "punto-banco", "--rounds", "10000", "--seed", "4", "--json"])
    captured = capsys.readouterr()
    assert status == 130
    data = json.loads(captured.out)
    assert data["rounds"] == 2000 and data["requested_rounds"] == 10_000 and not data["complete"]
    assert "interrupted after 2,000 of 10,000 rounds" in captured.err
    monkeypatch.setattr(runs, "count_blocks", real)  # the same two blocks, dealt whole
    _, counts = runs.count_outcomes("punto-banco", 2000, 4)
    assert [o["observed"] * 2000 for o in data["bets"][0]["outcomes"]] == pytest.approx(
        counts[0].tolist()
    )
