"""Helpers shared by the tests: cards by rank, and the ``baccara`` command run in-process.

The command runs through :func:`baccara.cli.main` in this process, as a user's shell
would run it but without starting Python again (a subprocess costs half a second
or more each). :func:`run_subprocess` starts the real ``python -m baccara`` for the
few tests that need a process of its own: start-up, signals, the import of numpy.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from baccara.cards import Card, Rank, Suit

TERMINAL = {"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
"""The terminal every command's output is checked in: 100 columns, no colour."""


def cards(text: str) -> list[Card]:
    """Cards from ranks alone, e.g. ``cards("9 K 5 3")``; suits cycle so repeats stay distinct."""
    suits = list(Suit)
    return [Card(Rank.parse(r), suits[i % 4]) for i, r in enumerate(text.split())]


def percent(x: Fraction) -> float:
    """An exact probability or edge as a percentage, to compare with a published figure."""
    return float(x) * 100


@dataclass(frozen=True)
class Ran:
    """What a command did: its exit status and everything it wrote."""

    returncode: int
    stdout: str
    stderr: str


@contextlib.contextmanager
def _terminal() -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in TERMINAL}
    os.environ.update(TERMINAL)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def run(*args: str, stdin: str = "") -> Ran:
    """Run ``baccara ARGS`` in this process, ``stdin`` typed in; capture what it writes."""
    from baccara.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with _terminal(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        sys.stdin = saved_stdin
    return Ran(code, out.getvalue(), err.getvalue())


def run_subprocess(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``python -m baccara ARGS`` as a separate process, as a user's shell does."""
    return subprocess.run(
        [sys.executable, "-m", "baccara", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **TERMINAL},
    )


def assert_refused(result: Ran | subprocess.CompletedProcess[str], message: str) -> None:
    """A refusal: exit status 2, nothing on stdout, one line on stderr naming the problem."""
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("baccara: error: ")
    assert message in lines[0], lines[0]
    assert "Traceback" not in result.stderr
