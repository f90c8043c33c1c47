"""``baccara rng-test``: the shuffle the tables use, through a battery of statistical tests."""

from __future__ import annotations

from typing import Annotated

import typer

from baccara.cli.common import EXIT_INTERRUPTED, console

DEFAULT_SHUFFLES = 20_000
"""Kept in step with :data:`baccara.sim.rng_tests.DEFAULT_SHUFFLES` (a test checks)."""


def rng_test(
    shuffles: Annotated[
        str | None,
        typer.Option(
            help=f"Shuffles to deal and test (default {DEFAULT_SHUFFLES:,}; at least 1,000)."
        ),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(
            help="Derive every server seed from this number, to repeat a run exactly"
            " (default: fresh seeds from secrets, as the tables draw them)."
        ),
    ] = None,
    decks: Annotated[str, typer.Option(help="Decks in the shoe shuffled (1-8).")] = "8",
    workers: Annotated[str, typer.Option(help="Processes dealing blocks in parallel.")] = "1",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Test the tables' provably-fair shuffle: card and tile positions, first cards,
    dice faces and totals, runs and serial correlation, by χ² and exact odds.

    One verdict at the family-wise 99 % level (Holm–Bonferroni over every test):
    exit status 0 when it passes, 1 when it fails, 2 on bad input; Ctrl-C tests what
    was dealt so far and exits 130.
    """
    import json
    import sys

    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from baccara.render.rng import print_rng_report
    from baccara.sim.rng_tests import (
        BLOCK,
        check_decks,
        check_seed,
        check_shuffles,
        check_workers,
        run_battery,
    )

    wanted = check_shuffles(DEFAULT_SHUFFLES if shuffles is None else shuffles)
    deck_count, worker_count = check_decks(decks), check_workers(workers)
    run_seed = None if seed is None else check_seed(seed)
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
