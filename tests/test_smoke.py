"""A handful of true subprocess runs: the command as a user's shell starts it.

Every other command test runs in-process (tests/helpers.run); these few check what
only a real process shows — the entry point, exit statuses as the shell sees them,
standard input from a pipe, and Ctrl-C delivered as a signal.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from tests.helpers import TERMINAL, assert_refused, ended, run_subprocess, until_busy


def test_analyze_through_the_entry_point() -> None:
    result = run_subprocess("analyze", "punto-banco")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("punto-banco — decks=8, commission=5, tie-pays=8")
    assert "house edge 1.0579% (exactly 114753351728/10847218479825)" in result.stdout


def test_a_refusal_is_status_2_and_one_line() -> None:
    assert_refused(run_subprocess("analyze", "punto-banco", "--decks", "0"), "decks")
    assert_refused(run_subprocess("deal", "faro"), "unknown game 'faro'")


def test_no_command_prints_the_help_with_status_2() -> None:
    result = run_subprocess()
    assert result.returncode == 2
    assert "analyze" in result.stdout and "simulate" in result.stdout


def test_the_drill_reads_a_pipe_to_its_end() -> None:
    result = run_subprocess("houseway", "--quiz", "--rounds", "2", "--seed", "3", stdin="up\n")
    assert result.returncode == 0, result.stderr
    assert "Hand 1 of 2" in result.stdout


def test_ctrl_c_stops_a_long_run_with_the_partial_result() -> None:
    """SIGINT mid-run: the rounds dealt so far are reported, marked partial, status 130."""
    process = subprocess.Popen(
        [sys.executable, "-m", "baccara", "simulate", "punto-banco", "--rounds", "10000000000",
         "--seed", "1", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **TERMINAL},
    )  # fmt: skip
    until_busy(process.pid, cpu_seconds=3.0)  # started, the kernel loaded, blocks being dealt
    process.send_signal(signal.SIGINT)
    out, err = ended(process)
    assert process.returncode == 130, err
    data = json.loads(out)
    assert not data["complete"] and 0 < data["rounds"] < 10_000_000_000
    assert "interrupted after" in err and "Traceback" not in err


def test_a_run_where_numba_can_write_no_cache() -> None:
    """An unwritable home, an unwritable cache folder and (as the locators numba may use
    say) no writable install: every kernel is compiled in memory and the run goes on,
    where it used to die at import (issue 15)."""
    env = {
        **os.environ,
        **TERMINAL,
        "HOME": "/dev/null/home",
        "NUMBA_CACHE_DIR": "/dev/null/cache",
        "NUMBA_CACHE_LOCATOR_CLASSES": "UserProvidedCacheLocator,UserWideCacheLocator",
    }
    result = subprocess.run(
        [sys.executable, "-m", "baccara", "simulate", "punto-banco", "--rounds", "1000",
         "--seed", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Every exact value is within 4 standard errors." in result.stdout
    assert result.stderr == ""
