"""Issue 15's samples, one test each: the inputs that crashed, hung or lied, now refused
or answered truly. The property tests (test_hostile_cli.py, test_hostile_api.py) hunt
for the rest of each class."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import time
from typing import Any

import pytest

from baccara.cli import main
from tests.helpers import TERMINAL, assert_refused, run


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["analyze", "punto-banco", "--tie-pays", "1e999999999"], "got 1e999999999"),
        (["analyze", "punto-banco", "--tie-pays", "1e5000"], "--tie-pays: must be in [0, 1000]"),
        (["analyze", "punto-banco", "--commission", "1e-99999999"], "at most 12 decimal places"),
        (["analyze", "lo-ball", "--option", "win-pays=1e-999999999"], "win-pays: must be a number"),
        (["deal", "punto-banco", "--stake", "1e999990"], "--stake: must be between"),
        (["analyze", "punto-banco", "--decks", "9" * 5000], "--decks: must be a whole number of"),
    ],
)
def test_numbers_are_bounded_before_they_are_built(args: list[str], message: str) -> None:
    start = time.perf_counter()
    assert_refused(run(*args), message)
    # Building any of these numbers would take hours or all memory: ten seconds is a
    # refusal made before, however loaded the machine.
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--commission", "100.0001"], "--commission: must be in [0, 100), got 100.0001"),
        (["--tie-pays", "-5"], "--tie-pays: must be in [0, 1000], got -5"),
        (["--decks", "1e3"], "--decks: must be between 1 and 100, got 1e3"),
    ],
)
def test_a_refusal_echoes_what_was_typed(args: list[str], message: str) -> None:
    assert_refused(run("analyze", "punto-banco", *args), message)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["analyze", "punto-banco", "--decks", "4", "-o", "decks=2"],
            "decks: given twice (--decks and --option decks=…)",
        ),
        (["analyze", "punto-banco", "-o", "decks=4", "-o", "decks=2"], "decks: given twice"),
        (["analyze", "punto-banco", "-o", "tie_pays=4", "-o", "tie-pays=2"], "given twice"),
        (["analyze", "redgreen", "--tie-pays", "8"], "--tie-pays: does not apply to redgreen"),
        (["analyze", "lo-ball", "--commission", "5"], "--commission: does not apply to lo-ball"),
        (["analyze", "redgreen-mini", "-o", "peek=yes"], "peek: not an option of redgreen-mini"),
        (["simulate", "punto-banco", "--count", "tie", "--workers", "64"], "--workers: does not"),
        (["simulate", "punto-banco", "--bet", "tie", "--workers", "0"], "--workers: does not"),
        (["simulate", "punto-banco", "--level", "4"], "--level: does not apply"),
        (["simulate", "punto-banco", "--penetration", "0.5"], "--penetration: places the cut"),
        (["houseway", "A", "A", "K", "-o", "commission=4"], "does not change the house way"),
    ],
)
def test_options_that_contradict_or_do_nothing_are_refused(args: list[str], message: str) -> None:
    assert_refused(run(*args), message)


def test_the_largest_amounts_are_documented_maxima() -> None:
    """A bankroll past what 64-bit cents hold wrapped round to a 89 % risk of ruin."""
    for bankroll in ("92233720368547758.07", "1e30", "1000000000000.01"):
        assert_refused(
            run("simulate", "punto-banco", "--bet", "player", "--bankroll", bankroll),
            "--bankroll: must be between 0.01 and 1000000000000.00",
        )
    data = json.loads(
        run("simulate", "punto-banco", "--bet", "player", "--bankroll", "1000000000000",
            "--stake", "1000000", "--hands", "5", "--sessions", "3", "--seed", "1", "--json").stdout
    )  # fmt: skip
    assert data["bankroll"] == 10**14 and data["risk_of_ruin"] == 0.0


# --- untrusted paytable files --------------------------------------------------------------


def _paytable(folder: pathlib.Path, text: str) -> str:
    path = folder / "table.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('name = "x"\n[pays]\nflush = 1e308\n', "line 3: flush: a pay must be at most 10,000 to 1"),
        ('name = "x"\n[pays]\nflush = 1e-300\n', "line 3: flush: must be a number with at most"),
        ('name = "x"\npays.broadway = 5\n', "line 2: unknown category 'broadway'"),
        ('name = "x"\npays = { flush = 8, broadway = 5 }\n', "line 2: unknown category"),
        ('name = "x"\n"pays" . "flush" = "8"\n', "line 2: flush: the pay must be a number"),
        ("[pays]\nflush = " + "9" * 5000 + "\n", "not a TOML paytable"),
        ("a = " + "[" * 30000 + "\n", "not a TOML paytable"),
    ],
)
def test_a_hostile_paytable_is_refused_at_its_line(
    tmp_path: pathlib.Path, text: str, message: str
) -> None:
    path = _paytable(tmp_path, text)
    assert_refused(run("paytable", "show", path), message)
    assert " line 0" not in run("paytable", "show", path).stderr


def test_a_paytable_name_is_printed_as_text_never_as_markup_or_escape_codes(
    tmp_path: pathlib.Path,
) -> None:
    """ "[/bold]" crashed the renderer; an escape code reached the terminal raw."""
    path = _paytable(tmp_path, 'name = "[/bold] \\u001b[31mred :smile:"\n[pays]\nflush = 8\n')
    for args in (
        ["paytable", "show", path],
        ["analyze", "redgreen", "-o", f"paytable={path}"],
        ["simulate", "redgreen", "--rounds", "1000", "--seed", "1", "-o", f"paytable={path}"],
        ["analyze", "redgreen", "--effect-of-removal", "-o", "decks=1", "-o", f"paytable={path}"],
    ):
        result = run(*args)
        assert result.returncode == 0, result.stderr
        assert "[/bold] \\x1b[31mred :smile:" in result.stdout
        assert "\x1b" not in result.stdout


def test_only_a_small_regular_file_is_read_as_a_paytable(tmp_path: pathlib.Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * 70_000 + "\n[pays]\nflush = 8\n")
    for path, message in (
        ("/dev/zero", "not a regular file"),
        (str(fifo), "not a regular file"),
        (str(tmp_path), "not a regular file"),
        (str(big), "larger than 64 KiB"),
    ):
        start = time.perf_counter()
        assert_refused(run("paytable", "show", path), message)
        assert_refused(run("analyze", "redgreen", "-o", f"paytable={path}"), message)
        assert time.perf_counter() - start < 10  # reading /dev/zero or a FIFO never ends


# --- output that cannot be written ------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing/x.toml", "no folder"),
        (".", "is a folder"),
        ("x" * 300, "cannot write"),
    ],
)
def test_save_is_checked_before_the_search(
    tmp_path: pathlib.Path, name: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The destination is refused before the search (a second or more) starts, not after it."""
    import baccara.exact.paytable_design as paytable_design

    def searched(*args: object, **kwargs: object) -> None:
        raise AssertionError("the search ran before the destination was checked")

    monkeypatch.setattr(paytable_design, "design_paytables", searched)
    path = str(tmp_path / name)
    assert_refused(run("paytable", "design", "--target-edge", "4", "--save", path), message)


def test_plot_is_checked_before_the_sessions(tmp_path: pathlib.Path) -> None:
    fifo = tmp_path / "fifo.png"
    os.mkfifo(fifo)
    for plot, message in (
        (tmp_path / "no" / "p.png", "no folder"),
        (tmp_path, "write a .png"),
        (fifo, "is a pipe or a socket"),
    ):
        result = run("simulate", "punto-banco", "--bet", "tie", "--plot", str(plot))
        assert_refused(result, message)


def test_a_full_disk_is_one_line() -> None:
    for args in (["analyze", "punto-banco"], ["analyze", "punto-banco", "--json"]):
        with open("/dev/full", "w") as full:
            result = subprocess.run(
                [sys.executable, "-m", "baccara", *args],
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                env={**os.environ, **TERMINAL},
                timeout=120,
            )
        assert result.returncode == 1
        assert result.stderr == "baccara: error: cannot write the output: No space left on device\n"


def test_an_output_that_cannot_show_the_tables_is_one_line() -> None:
    """PYTHONIOENCODING=ascii has no em dash or suit symbol: a line saying so, not a traceback."""
    result = subprocess.run(
        [sys.executable, "-m", "baccara", "analyze", "punto-banco"],
        capture_output=True,
        text=True,
        env={**os.environ, **TERMINAL, "PYTHONIOENCODING": "ascii"},
        timeout=120,
    )
    assert result.returncode == 1
    assert result.stderr == (
        "baccara: error: cannot write the output: its encoding (ascii) cannot show '\\u2014';"
        " use a UTF-8 locale or PYTHONIOENCODING=utf-8\n"
    )


def test_a_drill_answer_that_is_not_text_is_asked_again() -> None:
    """A stray byte on standard input, read strictly, was a UnicodeDecodeError."""
    result = subprocess.run(
        [sys.executable, "-m", "baccara", "houseway", "--quiz", "--rounds", "1", "--seed", "1"],
        input=b"\xff\nup\n",
        capture_output=True,
        env={**os.environ, **TERMINAL, "PYTHONIOENCODING": "utf-8:strict"},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "not an answer: '\ufffd'" in result.stdout.decode()
    assert result.stdout.decode().rstrip().endswith("Score: 0 of 1 (0%)")


def test_a_drill_answer_is_a_bounded_line() -> None:
    """``< /dev/zero`` was read as one endless line until the memory ran out."""
    result = run("houseway", "--quiz", "--rounds", "1", "--seed", "1", stdin=b"\0" * 100_000)
    assert result.returncode == 2 and result.stdout.startswith("House-way drill: 1 hand.")
    assert (
        result.stderr == "baccara: error: --quiz: a line of standard input is over 40 characters\n"
    )


@pytest.mark.parametrize("columns", ["0", "1", "abc", "-5"])
def test_a_terminal_width_of_nothing_still_shows_the_analysis(
    monkeypatch: pytest.MonkeyPatch, columns: str
) -> None:
    """COLUMNS=0 printed nothing at all, with status 0."""
    monkeypatch.setitem(TERMINAL, "COLUMNS", columns)
    result = run("analyze", "punto-banco")
    assert result.returncode == 0
    assert "house edge 1.0579%" in " ".join(result.stdout.split())


# --- Ctrl-C -------------------------------------------------------------------------------


def _interrupt(*args: Any, **kwargs: Any) -> Any:
    raise KeyboardInterrupt


@pytest.mark.parametrize(
    ("target", "args"),
    [
        ("baccara.sim.sessions.play_sessions", ["simulate", "punto-banco", "--bet", "tie"]),
        ("baccara.sim.counts.simulate_count", ["simulate", "punto-banco", "--count", "tie"]),
        ("baccara.exact.effect_of_removal", ["analyze", "redgreen", "--effect-of-removal"]),
        ("baccara.exact.analyze", ["analyze", "lo-ball"]),
    ],
)
def test_ctrl_c_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    target: str,
    args: list[str],
) -> None:
    monkeypatch.setattr(target, _interrupt)
    assert main(args) == 130
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "baccara: interrupted (Ctrl-C); nothing more was printed\n"


# --- JSON, figures, words ------------------------------------------------------------------


def test_json_is_strict_when_no_round_reaches_a_threshold() -> None:
    """A count from a shoe cut almost at once printed a bare NaN."""
    result = run("simulate", "punto-banco", "--count", "tie", "--rounds", "3000", "--seed", "1",
                 "--penetration", "0.001", "--json")  # fmt: skip
    assert result.returncode == 0, result.stderr

    def refuse(constant: str) -> None:
        raise AssertionError(constant)

    data = json.loads(result.stdout, parse_constant=refuse)
    empty = [line for line in data["strategies"] if line["share_of_rounds"] == 0]
    assert empty and all(line["mean_per_unit"] is None for line in empty)
    text = run("simulate", "punto-banco", "--count", "tie", "--rounds", "3000", "--seed", "1",
               "--penetration", "0.001")  # fmt: skip
    assert "no rounds" in text.stdout


def test_a_one_cent_stake_says_its_rounding_dominates() -> None:
    """19:20 on 0.01 pays nothing: the sessions lose 0.45 a hand, not the edge's 0.01."""
    args = ["simulate", "punto-banco", "--bet", "banker", "--stake", "0.01", "--bankroll", "10",
            "--hands", "100", "--sessions", "2000", "--seed", "1"]  # fmt: skip
    text = run(*args).stdout
    assert "expected, payouts rounded down" in text
    assert "rounding payouts down to the cent dominates the result" in text
    data = json.loads(run(*args, "--json").stdout)
    # At one cent a Banker win pays 0: the edge is the chance of losing, 0.44624661.
    assert data["house_edge_at_stake"] == pytest.approx(0.446246609)
    low, high = data["mean_result_ci95"]
    assert low <= data["expected_result_at_stake"] <= high
    assert not low <= data["expected_result_from_edge"] <= high
    ten = run("simulate", "punto-banco", "--bet", "banker", "--sessions", "100", "--seed", "1")
    assert "rounded down" not in ten.stdout.split("Ruin:")[0]


def test_one_is_singular() -> None:
    assert run("simulate", "punto-banco", "--rounds", "1", "--seed", "1").stdout.startswith(
        "punto-banco — 1 round, seed 1"
    )
    assert "six cards from 1 deck." in run("analyze", "punto-banco", "-o", "decks=1").stdout
    drill = run("houseway", "--quiz", "--rounds", "1", "--seed", "1", stdin="up\n").stdout
    assert drill.startswith("House-way drill: 1 hand.")


def test_help_shows_what_each_option_takes() -> None:
    text = run("analyze", "--help").stdout
    assert "punto-banco, redgreen, redgreen-mini, lo-ball" in text
    for metavar in ("--decks", "N", "PCT", "NUMBER", "KEY=VALUE", "[default: (the game's)]"):
        assert metavar in text
    simulate = run("simulate", "--help").stdout
    assert "<str>" not in simulate.split("Options")[1]
    assert "[default: (1,000,000)]" in simulate
    assert "(default" not in simulate


def test_version() -> None:
    from importlib.metadata import version

    result = run("--version")
    assert (result.returncode, result.stdout) == (0, f"baccara {version('baccara')}\n")
