"""``baccara rng-test``: the shuffle the tables use, through a battery of statistical tests."""

from __future__ import annotations

from typing import Annotated

import typer

from baccara.cli.common import EXIT_INTERRUPTED, JsonFlag, console
from baccara.sim.rng_bounds import (
    DEFAULT_SHUFFLES,
    MAX_DECKS,
    MAX_SHUFFLES,
    MAX_WORKERS,
    MIN_SHUFFLES,
    check_decks,
    check_seed,
    check_shuffles,
    check_workers,
)


def rng_test(
    shuffles: Annotated[
        str | None,
        typer.Option(
            metavar="N",
            help=f"Shuffles to deal and test, {MIN_SHUFFLES:,} to {MAX_SHUFFLES:,}"
            f" (default {DEFAULT_SHUFFLES:,}).",
        ),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(
            metavar="S",
            help="Derive every server seed from this number, to repeat a run exactly.",
            show_default="fresh seeds from secrets, as the tables draw them",
        ),
    ] = None,
    decks: Annotated[
        str | None,
        typer.Option(
            metavar="N", help=f"Decks in the shoe shuffled, 1 to {MAX_DECKS}.", show_default="8"
        ),
    ] = None,
    workers: Annotated[
        str | None,
        typer.Option(
            metavar="N",
            help=f"Processes dealing blocks in parallel, 1 to {MAX_WORKERS}.",
            show_default="1",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Test the tables' provably-fair shuffle: card and tile positions, first cards,
    dice faces and totals, runs and serial correlation, by χ² and exact odds.

    One verdict at the family-wise 99 % level (Holm–Bonferroni over every test):
    exit status 0 when it passes, 1 when it fails, 2 on bad input; Ctrl-C tests what
    was dealt so far and exits 130.
    """
    import json
    import sys

    wanted = check_shuffles(DEFAULT_SHUFFLES if shuffles is None else shuffles, "--shuffles")
    deck_count = check_decks("8" if decks is None else decks, "--decks")
    worker_count = check_workers("1" if workers is None else workers, "--workers")
    run_seed = None if seed is None else check_seed(seed, "--seed")

    # Only now the battery (numpy, scipy): a refusal comes at once.
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from baccara.render.rng import print_rng_report
    from baccara.sim.rng_tests import BLOCK, run_battery

    progress = Progress(
        TextColumn("[bold]shuffling"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        auto_refresh=False,  # no refresh thread: worker processes are forked
        transient=True,
        disable=not (sys.stderr.isatty() and wanted > BLOCK),
    )
    with progress:
        task = progress.add_task("shuffling", total=wanted)

        def advance(done: int) -> None:
            progress.update(task, completed=done)
            progress.refresh()

        report = run_battery(
            wanted, decks=deck_count, seed=run_seed, workers=worker_count, progress=advance
        )
    if as_json:
        sys.stdout.write(
            json.dumps(report.to_dict(), indent=2, allow_nan=False, ensure_ascii=False) + "\n"
        )
    else:
        print_rng_report(report, console())
    if not report.complete:
        print(
            f"baccara: interrupted after {report.rounds:,} of {wanted:,} shuffles;"
            " the result above is partial",
            file=sys.stderr,
        )
        raise typer.Exit(EXIT_INTERRUPTED)
    if not report.passed:
        raise typer.Exit(1)
