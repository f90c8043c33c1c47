"""``baccara houseway``: the RedGreen house way as a cheat sheet, one hand, or a drill."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from baccara.cli.common import parse_assignments
from baccara.errors import BaccaraError


def houseway(
    cards: Annotated[
        list[str] | None, typer.Argument(help="Three ranks to set, e.g. K 7 7 (none: the sheet).")
    ] = None,
    quiz: Annotated[
        bool, typer.Option("--quiz", help="Drill the house way on random hands.")
    ] = False,
    rounds: Annotated[str | None, typer.Option(help="Hands in the drill (default 10).")] = None,
    seed: Annotated[
        str | None, typer.Option(help="Repeat a drill exactly (default: a fresh random drill).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A house-way option, as KEY=VALUE (repeatable)."),
    ] = None,
) -> None:
    """The RedGreen house way: the cheat sheet, one hand set (K 7 7), or a drill (--quiz)."""
    from baccara.games.redgreen import RedGreenRules
    from baccara.options import as_int
    from baccara.randomness import RandomSource, SecureRandom, SeededRandom
    from baccara.render import houseway as sheet

    rules = RedGreenRules.from_options(**parse_assignments(option))
    if not quiz:
        if rounds is not None or seed is not None:
            raise BaccaraError("--rounds and --seed go with --quiz")
        typer.echo(sheet.lookup(cards, rules) if cards else sheet.cheat_sheet(rules))
        return
    if cards:
        raise BaccaraError("--quiz deals its own hands; give no cards with it")
    rng: RandomSource = (
        SecureRandom() if seed is None else SeededRandom(as_int("seed", seed, 0, 2**63 - 1))
    )
    hands = sheet.drill_hands(rng, as_int("rounds", 10 if rounds is None else rounds, 1, 1000))

    def read() -> str | None:
        line = sys.stdin.readline()
        return line if line else None

    sheet.run_drill(hands, rules, read, lambda text: typer.echo(text))
