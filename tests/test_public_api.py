"""The package exports a deliberate set of names, and each of them exists; the public
simulation calls are what ``baccara simulate`` prints."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

import baccara
from tests.helpers import run


def test_public_names() -> None:
    assert sorted(baccara.__all__) == sorted(
        [
            "GAMES", "Analysis", "BaccaraError", "BetAnalysis", "BetAtStake", "Comparison",
            "DeckSweep", "EffectOfRemoval", "GameSpec", "InvalidBet", "InvalidCards",
            "InvalidOption", "Outcome", "Paytable", "SessionReport", "Sessions",
            "SimulationReport", "StakeAnalysis", "UnknownGame", "Variant", "__version__",
            "analyze", "analyze_at_stake", "bet_step_cents", "compare_variants",
            "edges_by_decks", "effect_of_removal", "game", "load_paytable", "play_sessions",
            "simulate",
        ]
    )  # fmt: skip
    for name in baccara.__all__:
        assert hasattr(baccara, name)
    with pytest.raises(AttributeError, match="no attribute 'simulation'"):
        _ = baccara.simulation  # type: ignore[attr-defined]


def test_every_refusal_is_a_value_error() -> None:
    for name in ("BaccaraError", "InvalidBet", "InvalidCards", "InvalidOption", "UnknownGame"):
        assert issubclass(getattr(baccara, name), ValueError)


def test_importing_the_package_loads_no_numerics() -> None:
    """The simulation calls and their result types load numpy and the kernels when used."""
    probe = (
        "import sys, baccara\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'numba', 'matplotlib'}))\n"
        "baccara.SessionReport\n"
        "print('numpy' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.split() == ["[]", "True"], result.stderr


def _without_timing(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("seconds", "rounds_per_second", "plot")}


def test_simulate_is_what_the_command_prints() -> None:
    report = baccara.simulate("redgreen", 20_000, seed=5, options={"split-aces": "no"})
    assert isinstance(report, baccara.SimulationReport)
    command = run("simulate", "redgreen", "--rounds", "20000", "--seed", "5",
                  "--option", "split-aces=no", "--json")  # fmt: skip
    assert command.returncode == 0, command.stderr
    assert _without_timing(json.loads(command.stdout)) == _without_timing(report.to_dict())
    assert report.options["split_aces"] is False and report.complete


def test_simulate_without_a_seed_records_the_one_it_drew() -> None:
    first = baccara.simulate("lo-ball", 5000)
    again = baccara.simulate("lo-ball", 5000, seed=first.seed)
    assert _without_timing(first.to_dict()) == _without_timing(again.to_dict())


def test_simulate_reports_progress_and_stops_on_interrupt_only_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from baccara.sim import dealer, runs

    monkeypatch.setattr(dealer, "BLOCK_ROUNDS", 1000)
    heard: list[int] = []
    whole = baccara.simulate("punto-banco", 3500, seed=2, progress=heard.append)
    assert heard == [1000, 2000, 3000, 3500] and whole.complete
    real = runs.count_blocks

    def interrupted(*args: Any) -> Any:
        blocks = real(*args)
        yield next(blocks)
        raise KeyboardInterrupt

    monkeypatch.setattr(runs, "count_blocks", interrupted)
    with pytest.raises(KeyboardInterrupt):
        baccara.simulate("punto-banco", 3500, seed=2)
    partial = baccara.simulate("punto-banco", 3500, seed=2, stop_on_interrupt=True)
    assert (partial.rounds, partial.requested, partial.complete) == (1000, 3500, False)


def test_play_sessions_is_what_the_command_prints() -> None:
    night = baccara.play_sessions(
        "punto-banco", "banker", stake_cents=500, bankroll_cents=20_000, hands=150,
        sessions=700, seed=3, options={"tie_pays": "9", "decks": 6},
    )  # fmt: skip
    assert isinstance(night, baccara.Sessions) and isinstance(night.report, baccara.SessionReport)
    assert (night.game, night.bet, night.seed, night.options["decks"]) == (
        "punto-banco",
        "banker",
        3,
        6,
    )
    assert night.exact == baccara.analyze("punto-banco", tie_pays=9, decks=6).bet("banker")
    command = run("simulate", "punto-banco", "--bet", "banker", "--stake", "5", "--bankroll",
                  "200", "--hands", "150", "--sessions", "700", "--seed", "3", "--option",
                  "tie-pays=9", "--option", "decks=6", "--json")  # fmt: skip
    assert command.returncode == 0, command.stderr
    assert _without_timing(json.loads(command.stdout)) == _without_timing(night.to_dict())


def test_play_sessions_keeps_the_paths_asked_for_without_changing_the_deal() -> None:
    few = baccara.play_sessions("lo-ball", "main", hands=40, sessions=300, seed=9)
    every = baccara.play_sessions("lo-ball", "main", hands=40, sessions=300, seed=9,
                                  keep_paths=300)  # fmt: skip
    assert few.report.paths.shape == (20, 41) and every.report.paths.shape == (300, 41)
    assert few.summary() == every.summary()
    assert (every.report.paths[:, -1] == every.report.final).all()


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: baccara.play_sessions("faro", "main"), baccara.UnknownGame, "faro"),
        (lambda: baccara.play_sessions("lo-ball", "tie"), baccara.InvalidBet, "unknown bet 'tie'"),
        (lambda: baccara.play_sessions("lo-ball", "main", keep_paths=-1), baccara.InvalidOption,
         "keep_paths: must be a whole number, 0 or more"),
        (lambda: baccara.play_sessions("lo-ball", "main", stake_cents=0), baccara.InvalidBet,
         "stake must be positive"),
        (lambda: baccara.play_sessions("lo-ball", "main", shoe="continuous"), baccara.InvalidOption,
         "Lo-Ball reshuffles"),
        (lambda: baccara.simulate("redgreen", 0), baccara.InvalidOption, "rounds"),
        (lambda: baccara.simulate("redgreen", options={"decks": 0}), baccara.InvalidOption,
         "decks"),
        (lambda: baccara.simulate("redgreen", seed=-1), baccara.InvalidOption, "seed"),
    ],
)  # fmt: skip
def test_bad_arguments_are_refused_before_any_deal(
    call: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        call()
