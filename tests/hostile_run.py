"""How the bad-input property tests run a command and judge what it did (issue 15).

A command runs in a forked copy of the test process, killed if it hangs, and ends in
one of two ways: a refusal — exit 2, nothing on stdout, one line on stderr, within
a second of work — or a finished command (exit 0, or a status the test names) with
nothing on stderr. Never a traceback, never a hang.

"A second" is a second of processor time: the tests share their machine (pytest's
workers, other jobs), and a refusal that waited for the processor did no work. A
command that waits without working (a FIFO with no writer) is killed by the clock,
at :data:`RESULT_SECONDS`.
"""

from __future__ import annotations

import functools
import json
import pathlib
import tempfile
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, settings

from baccara.errors import BaccaraError
from tests.helpers import RaisedInFork, Ran, in_fork, run, run_within

REFUSAL_SECONDS = 1.0
"""A refusal comes at once: less than this much processor time."""
RESULT_SECONDS = 20.0
"""A result may take longer (an effect of removal, a paytable search); past this it hangs."""

HOSTILE = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
"""Every property test's settings: a fixed sequence of examples (the same run on every
machine, so CI time is steady), no per-example deadline (the fork's timer is the one)."""


def outcome(
    *args: str,
    stdin: str | bytes = "",
    cwd: str | None = None,
    env: dict[str, str] | None = None,
    before: Callable[[], None] | None = None,
    results: tuple[int, ...] = (0,),
    dialogue: bool = False,
) -> Ran:
    """Run ``baccara ARGS``; hold it to a refusal's rules when it refuses.

    ``results`` are the statuses of a finished command: 0, and for instance 1 for a
    search that found nothing. ``dialogue``: a command that answers its input as it
    goes (a live deal's refused cards, a drill's questions), and may stop at any line
    of it; its refusal is the last line on stderr.
    """
    timed = run_within(RESULT_SECONDS, *args, stdin=stdin, cwd=cwd, env=env, before=before)
    ran = timed.ran
    assert "Traceback" not in ran.stderr, ran.stderr
    assert ran.returncode in (*results, 2), (args, ran)
    lines = ran.stderr.splitlines()
    if ran.returncode == 2:
        assert dialogue or ran.stdout == "", (args, ran.stdout[:300])
        assert lines and lines[-1].startswith("baccara: error: "), (args, ran.stderr)
        assert dialogue or len(lines) == 1, (args, ran.stderr)
        assert dialogue or timed.cpu_seconds < REFUSAL_SECONDS, (args, timed.cpu_seconds)
    else:
        assert dialogue or ran.stderr == "", (args, ran.stderr)
    assert all(not line.startswith("baccara: error: ") for line in lines[:-1]), ran.stderr
    return ran


def strict_json(text: str) -> Any:
    """Parse JSON, refusing the bare ``NaN`` and ``Infinity`` Python would accept."""

    def refuse(constant: str) -> None:
        raise AssertionError(f"not strict JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def read(parse: Callable[[], Any]) -> Any:
    """What the library reads from a value, or ``None`` where it refuses it."""
    try:
        return parse()
    except BaccaraError:
        return None


def api(call: Callable[[], Any]) -> Any:
    """The Python API's answer (a JSON-ready dict), or ``None`` where it refuses; in a fork,
    so a hang in the API fails the test too."""
    try:
        return in_fork(RESULT_SECONDS, call)
    except RaisedInFork as error:
        assert issubclass(error.error_type, BaccaraError), error
        return None


@functools.cache
def warm() -> None:
    """Run what the forks run most, here in the test process, once per process.

    A fork inherits this process's memory: every module imported, every kernel compiled,
    and the exact analyses cached. A fork of a cold process pays for all of it again
    (RedGreen's analysis alone takes a second) in each of its thousands of examples.
    """
    from baccara.games import GAMES
    from baccara.render.document import Document
    from baccara.render.report_pdf import write_pdf

    for game in GAMES:
        run("analyze", game, "--json")
        run("simulate", game, "--rounds", "10", "--seed", "1")
        run("deal", game, "--seed", "1")
    run("simulate", "punto-banco", "--count", "tie", "--rounds", "10", "--seed", "1")
    run("compare", "punto-banco", "-v", "a:decks=6")
    with tempfile.TemporaryDirectory() as folder:  # fonts registered, reportlab loaded
        write_pdf(Document("warm", "", ()), pathlib.Path(folder) / "warm.pdf")
