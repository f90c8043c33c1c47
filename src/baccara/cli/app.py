"""The ``baccara`` Typer app: its commands, and :func:`main`, which turns refusals into exit 2."""

from __future__ import annotations

import sys

import typer
from typer.exceptions import Abort, Exit, TyperException

from baccara.cli import (
    analyze,
    compare,
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
from baccara.cli.common import EXIT_INTERRUPTED, EXIT_USAGE
from baccara.errors import BaccaraError

app = typer.Typer(
    name="baccara",
    help="Casino baccarat games dealt for real and analysed exactly.",
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback(invoke_without_command=True)
def _root(ctx: typer.Context) -> None:
    """Casino baccarat games dealt for real and analysed exactly."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise Exit(EXIT_USAGE)


app.command()(analyze.analyze)
app.command()(simulate.simulate)
app.command()(compare.compare)
app.command()(report.report)
app.command()(deal.deal)
app.command()(houseway.houseway)
app.command()(listing.games)
app.command()(verify.verify)
app.command(name="rng-test")(rng_test.rng_test)
app.command()(serve.serve)
app.add_typer(serve.user_app, name="user")
app.add_typer(paytable.paytable_app, name="paytable")


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the exit status instead of raising ``SystemExit``."""
    try:
        result = app(args=argv, standalone_mode=False)
    except BaccaraError as error:
        print(f"baccara: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except TyperException as error:
        # Typer's usage errors: a bad option value, an unknown flag, a missing argument.
        print(f"baccara: error: {error.format_message()}", file=sys.stderr)
        return EXIT_USAGE
    except Exit as done:
        return done.exit_code
    except Abort:
        print("baccara: aborted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return result if isinstance(result, int) else 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
