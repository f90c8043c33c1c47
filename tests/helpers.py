"""Helpers shared by the tests."""

from __future__ import annotations

import subprocess
import sys

from baccara.cards import Card, Rank, Suit


def cards(text: str) -> list[Card]:
    """Cards from ranks alone, e.g. ``cards("9 K 5 3")``; suits cycle so repeats stay distinct."""
    suits = list(Suit)
    return [Card(Rank.parse(r), suits[i % 4]) for i, r in enumerate(text.split())]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run the ``baccara`` command as a user would, in a subprocess (``stdin`` typed in)."""
    return subprocess.run(
        [sys.executable, "-m", "baccara", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def assert_refused(result: subprocess.CompletedProcess[str], message: str) -> None:
    """A refusal: exit status 2, nothing on stdout, one line on stderr naming the problem."""
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("baccara: error: ")
    assert message in lines[0], lines[0]
    assert "Traceback" not in result.stderr
