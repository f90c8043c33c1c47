"""The ``baccara`` Typer app: its commands, and :func:`main`, which turns refusals into exit 2.

:func:`main` catches what it means and nothing more: a :class:`~baccara.errors.BaccaraError`
(input refused, status 2), Typer's usage errors (status 2), Ctrl-C (status 130) and
standard output that cannot be written (status 1), each as one line on stderr. Any
other exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import errno
import functools
import os
import sys
from collections.abc import Callable
from typing import Annotated, Any, TextIO, cast

import typer
from typer.exceptions import Abort, Exit, TyperException

from baccara.cli import (
    analyze,
    compare,
    count,
    deal,
    houseway,
    listing,
    paytable,
    report,
    rng_test,
    serve,
    simulate,
    verify,
)
from baccara.cli.common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    Interrupted,
    interruptible,
)
from baccara.cli.extras import needs_server, require_server
from baccara.errors import BaccaraError
from baccara.render.text import printable

app = typer.Typer(
    name="baccara",
    help="Casino baccarat games dealt for real and analysed exactly.",
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(wanted: bool) -> None:
    if wanted:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"baccara {version('baccara')}")
        except PackageNotFoundError:  # run from a source tree that was never installed
            typer.echo("baccara (not installed: no version recorded)")
        raise Exit(0)


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Casino baccarat games dealt for real and analysed exactly."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise Exit(EXIT_USAGE)


app.command()(interruptible(analyze.analyze))
app.command()(interruptible(simulate.simulate))
app.command()(interruptible(compare.compare))
app.command()(interruptible(report.report))
app.command()(interruptible(deal.deal))
app.command()(interruptible(houseway.houseway))
app.command()(interruptible(count.count))
app.command()(interruptible(listing.games))
app.command()(interruptible(verify.verify))
app.command(name="rng-test")(interruptible(rng_test.rng_test))
app.command()(interruptible(needs_server(serve.serve)))


def _users() -> None:
    """The casino's users: players, dealers and admins."""
    require_server()


app.add_typer(serve.user_app, name="user", callback=_users)
app.add_typer(paytable.paytable_app, name="paytable")


class OutputFailed(Exception):
    """Standard output could not take what was written: a full disk, a closed pipe, or an
    encoding (``PYTHONIOENCODING=ascii``) without the characters the tables use."""

    def __init__(self, reason: str, *, closed: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.closed = closed
        """The reader went away (``| head``): no error, just stop."""


class _GuardedOutput:
    """Standard output as the commands write to it: a write that fails raises
    :class:`OutputFailed`, so only a failure *of the output* is reported as one."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except UnicodeEncodeError as error:
            shown = error.object[error.start : error.end]
            raise OutputFailed(
                f"its encoding ({error.encoding}) cannot show {shown!r};"
                " use a UTF-8 locale or PYTHONIOENCODING=utf-8"
            ) from None
        except OSError as error:
            raise _failed(error) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as error:
            raise _failed(error) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _failed(error: OSError) -> OutputFailed:
    return OutputFailed(error.strerror or str(error), closed=error.errno == errno.EPIPE)


def _error(message: str) -> None:
    """One line on stderr: control characters (escape codes, newlines) shown as escapes."""
    print(f"baccara: error: {printable(message)}", file=sys.stderr)


@functools.cache
def _command() -> Callable[..., Any]:
    """The click command Typer builds from the commands' signatures (its ``main``), once
    per process.

    Typer builds it again on every call of ``app`` (some 50 ms of reading annotations),
    which is most of what a refused command costs; a program that runs commands one after
    another (a test, a script) pays it once.
    """
    return typer.main.get_command(app).main


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the exit status instead of raising ``SystemExit``."""
    stdout = sys.stdout
    sys.stdout = cast(TextIO, _GuardedOutput(stdout))
    try:
        result = _command()(args=argv, standalone_mode=False)
        sys.stdout.flush()
    except BaccaraError as error:
        _error(str(error))
        return EXIT_USAGE
    except TyperException as error:
        # Typer's usage errors: a bad option value, an unknown flag, a missing argument.
        _error(error.format_message())
        return EXIT_USAGE
    except Exit as done:
        return done.exit_code
    except Interrupted:
        print("baccara: interrupted (Ctrl-C); nothing more was printed", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Abort:
        print("baccara: aborted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OutputFailed as failed:
        _silence(stdout)
        if not failed.closed:  # a reader that stopped early (| head) is no error
            _error(f"cannot write the output: {failed.reason}")
        return EXIT_FAILURE
    finally:
        sys.stdout = stdout
    return result if isinstance(result, int) else 0


def _silence(stream: TextIO) -> None:
    """Point a failed standard output at /dev/null, so the interpreter's last flush of what
    is still buffered fails no more (and prints no second error)."""
    try:
        descriptor = stream.fileno()
    except (OSError, ValueError):  # a stream with no file behind it (a test's StringIO)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
