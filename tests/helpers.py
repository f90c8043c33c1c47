"""Helpers shared by the tests: cards and shoes by rank, an executor that counts its jobs,
and the ``baccara`` command run in-process.

The command runs through :func:`baccara.cli.main` in this process, as a user's shell
would run it but without starting Python again (a subprocess costs half a second
or more each). :func:`run_subprocess` starts the real ``python -m baccara`` for the
few tests that need a process of its own: start-up, signals, the import of numpy.
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import pathlib
import pickle
import select
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ParamSpec, TypeVar

from baccara.cards import Card, Rank, Suit

P = ParamSpec("P")
T = TypeVar("T")

TERMINAL = {"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
"""The terminal every command's output is checked in: 100 columns, no colour."""


def cards(text: str) -> list[Card]:
    """Cards from ranks alone, e.g. ``cards("9 K 5 3")``; suits cycle so repeats stay distinct."""
    suits = list(Suit)
    return [Card(Rank.parse(r), suits[i % 4]) for i, r in enumerate(text.split())]


def shoe_of(ranks: str, copies: int) -> list[Card]:
    """``copies`` of each named rank, e.g. ``shoe_of("A K 2", 6)``; suits cycle within a rank."""
    suits = list(Suit)
    return [Card(Rank.parse(r), suits[i % 4]) for r in ranks.split() for i in range(copies)]


class CountingExecutor(Executor):
    """The caller's executor as a run sees it: every job goes to ``inner``, counted.

    It shuts nothing down: ``inner`` is the test's to close, as a caller's pool is theirs.
    """

    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self.jobs = 0

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        self.jobs += 1
        return self.inner.submit(fn, *args, **kwargs)


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


def run(*args: str, stdin: str | bytes = "") -> Ran:
    """Run ``baccara ARGS`` in this process, ``stdin`` typed in; capture what it writes.

    Bytes are standard input as a process has it: UTF-8 text over a buffer of bytes,
    which need not be UTF-8 at all.
    """
    from baccara.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = (
        io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
        if isinstance(stdin, bytes)
        else io.StringIO(stdin)
    )
    try:
        with _terminal(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        sys.stdin = saved_stdin
    return Ran(code, out.getvalue(), err.getvalue())


class TookTooLong(AssertionError):
    """A call that did not finish within its time: a hang, as far as a user can tell."""


def in_fork(seconds: float, call: Callable[[], Any]) -> Any:
    """``call()`` in a forked copy of this process, killed if it runs over ``seconds``.

    What it returns (or raises) comes back pickled. Unlike a timer in this process, a
    kill stops a hang inside C code too — building a billion-digit integer never
    returns to the interpreter to be interrupted. The fork shares everything already
    imported and compiled, so it costs milliseconds, not a new interpreter.
    """
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, send the outcome, and leave without pytest's exit handlers
        os.close(reader)
        try:
            outcome: tuple[str, Any] = ("returned", call())
        except BaseException as error:  # everything goes back to the parent, to be judged there
            outcome = ("raised", (type(error), str(error), traceback.format_exc()))
        with os.fdopen(writer, "wb") as pipe:
            pipe.write(pickle.dumps(outcome))
        os._exit(0)
    os.close(writer)
    deadline = time.monotonic() + seconds
    chunks = []
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([reader], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                raise TookTooLong(f"still running after {seconds} s")
            chunk = os.read(reader, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(reader)
        os.waitpid(pid, 0)
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "raised":
        raise RaisedInFork(*value)
    return value


class RaisedInFork(Exception):
    """What :func:`in_fork`'s child raised: its type, message and traceback (exceptions
    themselves do not all survive pickling)."""

    def __init__(self, error_type: type[BaseException], message: str, trace: str) -> None:
        super().__init__(f"{error_type.__name__}: {message}\n{trace}")
        self.error_type = error_type
        self.message = message


@dataclass(frozen=True)
class Timed:
    """A command run by :func:`run_within`: what it did and how long ``main`` took.

    ``cpu_seconds`` is the processor time it used: what a command costs whatever else
    the machine runs (on a loaded machine, ``seconds`` on the clock can be several times
    more).
    """

    ran: Ran
    seconds: float
    cpu_seconds: float


def run_within(
    seconds: float,
    *args: str,
    stdin: str | bytes = "",
    cwd: str | None = None,
    env: dict[str, str] | None = None,
    before: Callable[[], None] | None = None,
) -> Timed:
    """``baccara ARGS`` in a forked copy of this process, killed (and failed) past ``seconds``.

    ``env`` is set and ``before`` called in the copy only (to stand in for what a test
    must not start, a server), so neither touches this process.
    """

    def command() -> Timed:
        if cwd is not None:
            os.chdir(cwd)
        os.environ.update(env or {})
        if before is not None:
            before()
        # The copy inherits this process's heap (every test's objects); a collection
        # that walked it would be counted as the command's work, and copying its pages
        # on write too. Frozen, the collector leaves them to the parent.
        gc.freeze()
        start, cpu = time.perf_counter(), time.process_time()
        ran = run(*args, stdin=stdin)
        return Timed(ran, time.perf_counter() - start, time.process_time() - cpu)

    result: Timed = in_fork(seconds, command)
    return result


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


def _cpu_seconds(pid: int) -> float:
    """Processor time a process has used, from /proc/PID/stat's utime and stime (0 once gone)."""
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    try:
        listed = pathlib.Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return []
    return [int(child) for child in listed.split()]


def ended(process: subprocess.Popen[str], timeout: float = 60.0) -> tuple[str, str]:
    """What a process interrupted by its test wrote, once it has ended; if it has not
    within ``timeout``, it and its child processes are killed (no test leaves a run going
    that would hold the processor for the tests after it) and the test fails."""
    try:
        return process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        for child in _children(process.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)
        process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):  # a grandchild holding a pipe
            process.communicate(timeout=10)
        raise AssertionError(f"still running {timeout:.0f} s after it was interrupted") from None


def until_busy(
    pid: int, cpu_seconds: float, *, workers: bool = False, timeout: float = 120.0
) -> None:
    """Wait until a process has used ``cpu_seconds`` of processor time — or, with
    ``workers``, until its child processes together have — so that however loaded the
    machine, it is then doing its work (a wait on the work itself, not on the clock)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        used = (
            sum(_cpu_seconds(child) for child in _children(pid)) if workers else _cpu_seconds(pid)
        )
        if used >= cpu_seconds:
            return
        time.sleep(0.05)
    raise AssertionError("the command never got going")
