"""The RNG test battery: the shuffle it runs, its calibration, its verdict, its command.

Every run here has a fixed seed, so no test can fail by chance: a fair stream's run
passes because that seed's run passes, and a broken one fails by a wide margin.

* The shuffle dealt is the tables': the same seeds, nonces, Shoe and Lo-Ball deal.
* Calibration: under a perfect shuffle (numpy's generator), hundreds of short runs
  give p-values that look uniform, and the card-position χ² averages its degrees of
  freedom — it would not without the (n − 1)/n factor.
* Negative controls: broken random sources (a Fisher–Yates off by one, modulo bias, a
  loaded die, a server seed that never changes, half a shuffle) fail the verdict.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pytest
from scipy import stats

from baccara.cards import Shoe, standard_deck
from baccara.fair import FairRandom
from baccara.games import loball
from baccara.randomness import RandomSource
from baccara.sim import rng_tests
from baccara.sim.rng_tests import (
    CLIENT_SEED,
    Dealt,
    FairSources,
    Tally,
    battery,
    count,
    deal,
    run_battery,
    tally,
)
from baccara.tiles import TILE_SET
from tests.helpers import TERMINAL, CountingExecutor, assert_refused, ended, run, until_busy

IDS = [
    "card-position",
    "face-position",
    "first-card",
    "tile-position",
    "dice-faces",
    "dice-totals",
    "colour-runs",
    "first-card-runs",
    "draw-serial",
    "card-serial",
    "first-card-serial",
    "dice-serial",
]

# --- the shuffle tested is the tables' shuffle ---------------------------------------


def test_derived_server_seeds_and_nonces() -> None:
    source = FairSources(7)
    assert source.server_seed("cards", 3) == hashlib.sha256(b"rng-test:7:cards:3").digest()
    seed = source.server_seed("lo-ball", 3)
    ours, theirs = source("lo-ball", 3), FairRandom(seed, CLIENT_SEED, 4)
    assert [ours.randbelow(416) for _ in range(20)] == [theirs.randbelow(416) for _ in range(20)]


def test_fresh_seeds_come_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def token_bytes(size: int) -> bytes:
        calls.append(size)
        return hashlib.sha256(str(len(calls)).encode()).digest()

    monkeypatch.setattr(rng_tests.secrets, "token_bytes", token_bytes)
    report = run_battery(1000, decks=1)
    assert calls == [32] * 2000  # a new seed for each of the two streams of every round
    assert report.seed is None and report.to_dict()["server_seeds"] == "secrets"


def test_the_shoe_is_dealt_as_a_table_deals_it() -> None:
    dealt = deal(FairSources(3), 8, 5, 2)
    cards = [
        c.code for c in Shoe(8, FairRandom(FairSources(3).server_seed("cards", 6), CLIENT_SEED, 7))
    ]
    deck = standard_deck()
    assert [deck[i % 52].code for i in dealt.shoes[1]] == cards
    assert sorted(dealt.shoes[0]) == list(range(416))
    assert all(0 <= dealt.draws[0, t] < 416 - t for t in range(415))


def test_lo_ball_is_dealt_as_the_rules_deal_it() -> None:
    """With the protocol's test-vector seed the run's Lo-Ball round is the vector's round."""
    seed = bytes(31) + b"\x07"

    def source(stream: str, k: int) -> RandomSource:
        return FairRandom(seed, "alice", 3)

    dealt = deal(source, 1, 0, 1)
    round_ = loball.deal_round(FairRandom(seed, "alice", 3), players=2)
    hands = [
        *round_.dealer.tiles,
        *round_.players[0].tiles,
        *round_.players[1].tiles,
        *round_.exposed,
    ]
    tiles = [TILE_SET[i] for i in dealt.tiles[0]]
    assert tiles[:12] == hands and tuple(dealt.dice[0]) == round_.dice == (4, 1, 2)


def null_dealt(gen: np.random.Generator, rounds: int, decks: int) -> Dealt:
    """Rounds of a perfect shuffle: numpy's draws through the same Fisher–Yates."""
    n = 52 * decks
    draws = gen.integers(0, np.arange(n, 1, -1), size=(rounds, n - 1))
    tile_draws = gen.integers(0, np.arange(28, 1, -1), size=(rounds, 27))
    dice = gen.integers(1, 7, size=(rounds, 3))
    return Dealt(fisher_yates(draws), draws, fisher_yates(tile_draws), dice)


def fisher_yates(draws: np.ndarray) -> np.ndarray:
    rows, n = draws.shape[0], draws.shape[1] + 1
    piles = np.tile(np.arange(n), (rows, 1))
    every = np.arange(rows)
    for t in range(n - 1):
        i, j = n - 1 - t, draws[:, t]
        top = piles[every, i].copy()
        piles[every, i] = piles[every, j]
        piles[every, j] = top
    return piles


def test_numpy_fisher_yates_is_the_shuffle() -> None:
    dealt = deal(FairSources(8), 2, 0, 3)
    assert np.array_equal(fisher_yates(dealt.draws), dealt.shoes)


def _same(a: Tally, b: Tally) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in Tally.__dataclass_fields__)


def test_tallies_join_as_one_run() -> None:
    dealt = null_dealt(np.random.default_rng(3), 500, 2)

    def part(rows: slice) -> Dealt:
        return Dealt(dealt.shoes[rows], dealt.draws[rows], dealt.tiles[rows], dealt.dice[rows])

    whole = tally(dealt, 2)
    assert _same(tally(part(slice(0, 137)), 2).then(tally(part(slice(137, 500)), 2)), whole)


def test_workers_give_the_same_counts() -> None:
    assert _same(count(FairSources(1), 1, 2500, workers=2), count(FairSources(1), 1, 2500))


def test_a_callers_executor_deals_every_block_and_counts_as_the_default_path() -> None:
    """Three blocks on a thread pool the caller keeps: each goes to it, the tallies (and so
    the verdict) are the default path's for the same seed, and the pool is left running."""
    with ThreadPoolExecutor(2) as pool:
        executor = CountingExecutor(pool)
        passed = count(FairSources(1), 1, 2500, workers=2, executor=executor)
        assert executor.jobs == 3
        report = run_battery(2500, decks=1, seed=1, workers=2, executor=executor)
        assert executor.jobs == 6
        assert pool.submit(sum, [1, 2]).result() == 3
    assert _same(passed, count(FairSources(1), 1, 2500))
    default = run_battery(2500, decks=1, seed=1, workers=2)
    assert [t.p_value for t in report.tests] == [t.p_value for t in default.tests]


# --- calibration under a perfect shuffle --------------------------------------------


def test_p_values_are_uniform_under_a_perfect_shuffle() -> None:
    gen = np.random.default_rng(2024)
    runs = [battery(tally(null_dealt(gen, 1000, 1), 1)) for _ in range(240)]
    p = np.array([[t.p_value for t in tests] for tests in runs])
    ids = [t.id for t in runs[0]]
    for column, test_id in enumerate(ids):
        rejected = np.mean(p[:, column] < 0.05)
        assert 0.01 < rejected < 0.10, (test_id, rejected)
        if test_id != "first-card-runs":  # an exact binomial's p-values are discrete
            assert stats.kstest(p[:, column], "uniform").pvalue > 0.01, test_id
    # The card-position χ² averages its df (2601); unscaled it would average 2652.
    x2 = np.array([tests[0].statistic for tests in runs])
    assert abs(x2.mean() - 2601) < 4 * np.sqrt(2 * 2601 / len(runs)) < 2652 - 2601


# --- the verdict on the real stream, and on broken ones -----------------------------


def test_a_fixed_seed_run_passes_every_test() -> None:
    report = run_battery(2000, seed=1)
    assert [t.id for t in report.tests] == IDS
    assert report.passed and report.rounds == 2000
    assert all(0 < t.p_value <= 1 and t.holm_p_value >= t.p_value for t in report.tests)


class Slip:
    """Fisher–Yates off by one (j below i instead of i + 1): Sattolo's cyclic shuffle."""

    def __init__(self, inner: RandomSource) -> None:
        self.inner = inner

    def randbelow(self, n: int) -> int:
        return self.inner.randbelow(n - 1) if n > 1 else 0


class ByteModulo:
    """One random byte reduced modulo n: values from 256 up never come."""

    def __init__(self, inner: RandomSource) -> None:
        self.inner = inner

    def randbelow(self, n: int) -> int:
        return self.inner.randbelow(256) % n


class LoadedDie:
    """One roll in twenty shows a six whatever the stream says."""

    def __init__(self, inner: RandomSource) -> None:
        self.inner = inner

    def randbelow(self, n: int) -> int:
        if n == 6 and self.inner.randbelow(20) == 0:
            return 5
        return self.inner.randbelow(n)


class HalfShuffle:
    """Stops swapping for the last 26 steps: the top of the shoe is left as it lay."""

    def __init__(self, inner: RandomSource) -> None:
        self.inner = inner

    def randbelow(self, n: int) -> int:
        return n - 1 if n <= 26 else self.inner.randbelow(n)


@dataclass(frozen=True)
class Broken:
    """The fair stream with one stream (cards or Lo-Ball) broken by ``wrap``."""

    wrap: Callable[[RandomSource], RandomSource]
    stream: str

    def __call__(self, stream: str, k: int) -> RandomSource:
        fair = FairSources(5)(stream, k)
        return self.wrap(fair) if stream == self.stream else fair


@dataclass(frozen=True)
class StuckSeed:
    """Never reseeded: every round has the same server seed and nonce."""

    def __call__(self, stream: str, k: int) -> RandomSource:
        return FairSources(5)(stream, 0)


@pytest.mark.parametrize(
    ("source", "decks", "caught"),
    [
        (FairSources(5), 1, set()),  # the control: the same seed unbroken passes
        (Broken(Slip, "cards"), 1, {"card-position", "draw-serial"}),
        (Broken(Slip, "lo-ball"), 1, {"tile-position", "dice-faces", "dice-totals"}),
        (Broken(ByteModulo, "cards"), 8, {"card-position", "face-position", "draw-serial"}),
        (Broken(LoadedDie, "lo-ball"), 1, {"dice-faces", "dice-totals"}),
        (Broken(HalfShuffle, "cards"), 1, {"colour-runs", "card-serial", "first-card"}),
        (StuckSeed(), 1, set(IDS) - {"face-position"}),
    ],
    ids=["fair", "off-by-one", "off-by-one-tiles", "modulo", "loaded-die", "half", "stuck"],
)
def test_broken_sources_fail_the_verdict(
    source: rng_tests.Source, decks: int, caught: set[str]
) -> None:
    report = run_battery(2000, decks=decks, source=source)
    failed = {t.id for t in report.failed}
    assert report.passed == (not caught)
    assert caught <= failed, failed
    assert all(t.holm_p_value < 1e-4 for t in report.tests if t.id in caught)


# --- the command --------------------------------------------------------------------


def test_rng_test_command_passes_on_a_fixed_seed() -> None:
    result = run("rng-test", "--shuffles", "2000", "--seed", "1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("rng-test · 2,000 shuffles of an 8-deck shoe (416 cards)")
    assert "SHA-256 of seed 1 and the round" in lines[1]
    assert sum(line.rstrip().endswith("│ ok │") for line in lines) == 12
    assert "PASS: every test passes at the family-wise 99% level" in result.stdout
    assert result.stderr == ""


def _strict(text: str) -> dict[str, object]:
    def refuse(constant: str) -> None:
        raise ValueError(f"not strict JSON: {constant}")

    data: dict[str, object] = json.loads(text, parse_constant=refuse)
    return data


def test_rng_test_json_is_strict_and_repeatable() -> None:
    result = run("rng-test", "--shuffles", "1000", "--seed", "9", "--decks", "2", "--json")
    assert result.returncode == 0, result.stderr
    data = _strict(result.stdout)
    assert data["passed"] is True and data["verdict"] == "pass" and data["cards"] == 104
    assert data["seed"] == 9 and data["server_seeds"] == "sha256" and data["alpha"] == 0.01
    tests = data["tests"]
    assert isinstance(tests, list) and [t["id"] for t in tests] == IDS
    library = run_battery(1000, decks=2, seed=9, workers=2)
    assert [t["p_value"] for t in tests] == [t.p_value for t in library.tests]


def test_rng_test_fails_with_status_1_on_a_stuck_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream that is never reseeded: the same server seed and nonce every round."""
    monkeypatch.setattr(
        rng_tests, "FairRandom", lambda seed, client, nonce: FairRandom(seed, client, 1)
    )
    monkeypatch.setattr(FairSources, "server_seed", lambda self, stream, k: bytes(32))
    result = run("rng-test", "--shuffles", "1000", "--seed", "1", "--json")
    assert result.returncode == 1
    data = _strict(result.stdout)
    assert data["passed"] is False and data["verdict"] == "fail"
    text = run("rng-test", "--shuffles", "1000", "--seed", "1")
    assert text.returncode == 1 and "FAIL at the family-wise 99% level" in text.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shuffles", "999"], "shuffles: must be between 1,000 and 100,000,000"),
        (["--shuffles", "lots"], "shuffles: must be a whole number"),
        (["--decks", "9"], "decks: must be between 1 and 8"),
        (["--workers", "0"], "workers: must be between 1 and 64"),
        (["--seed", "-1"], "seed: must be between 0 and"),
    ],
)
def test_rng_test_refuses_bad_input(args: list[str], message: str) -> None:
    assert_refused(run("rng-test", *args), message)


def test_a_run_counts_the_workers_that_dealt_it() -> None:
    """``--workers 64`` for one block of 1,000 shuffles printed "64 workers"; one dealt it."""
    data = _strict(run("rng-test", "--shuffles", "1000", "--seed", "1", "--workers", "64",
                       "--json").stdout)  # fmt: skip
    assert data["workers"] == 1
    assert run_battery(2500, decks=1, seed=1, workers=8).workers == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shuffles", "1e999999999"], "--shuffles: must be between 1,000 and 100,000,000"),
        (["--decks", "8.5"], "--decks: must be a whole number, got '8.5'"),
        (["--workers", "9" * 5000], "--workers: must be a whole number of at most 64"),
        (["--seed", "1e-99999999"], "--seed: must be a whole number"),
    ],
)
def test_rng_test_names_the_option_as_typed(args: list[str], message: str) -> None:
    assert_refused(run("rng-test", *args), message)


def test_the_default_run_is_the_documented_one() -> None:
    from baccara.sim import rng_bounds

    assert rng_bounds.DEFAULT_SHUFFLES == 20_000
    assert "default 20,000" in run("rng-test", "--help").stdout


def test_ctrl_c_tests_what_was_dealt_and_exits_130() -> None:
    """SIGINT mid-run, as a terminal's Ctrl-C: the shuffles dealt so far are tested, the
    result is marked partial, status 130."""
    process = subprocess.Popen(
        [sys.executable, "-m", "baccara", "rng-test", "--shuffles", "100000000", "--decks", "1",
         "--seed", "1", "--workers", "2", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **TERMINAL},
    )  # fmt: skip
    until_busy(process.pid, cpu_seconds=2.0, workers=True)  # the workers are shuffling
    process.send_signal(signal.SIGINT)
    out, err = ended(process)
    assert process.returncode == 130, err
    data = _strict(out)
    assert data["complete"] is False and data["requested_shuffles"] == 100_000_000
    assert isinstance(data["shuffles"], int) and 1000 <= data["shuffles"] < 100_000_000
    assert "interrupted after" in err and "Traceback" not in err
