"""``baccara houseway``: the RedGreen house way as a cheat sheet, one hand, or a drill."""

from __future__ import annotations

from typing import Annotated

import typer

from baccara.cli.common import parse_assignments, read_line
from baccara.errors import BaccaraError, InvalidOption

MAX_ANSWER = 40
"""The longest answer line read in the drill: an answer is a rank, or "up"."""


def houseway(
    cards: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[RANK RANK RANK]", help="Three ranks to set, e.g. K 7 7 (none: the sheet)."
        ),
    ] = None,
    quiz: Annotated[
        bool, typer.Option("--quiz", help="Drill the house way on random hands.")
    ] = False,
    rounds: Annotated[
        str | None, typer.Option(metavar="N", help="Hands in the drill.", show_default="10")
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(metavar="S", help="Repeat a drill exactly (without it, a fresh drill)."),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", "-o", metavar="KEY=VALUE", help="A house-way option (repeatable)."
        ),
    ] = None,
) -> None:
    """The RedGreen house way: the cheat sheet, one hand set (K 7 7), or a drill (--quiz)."""
    from baccara.games.redgreen import GAME_ID, RedGreenRules
    from baccara.options import as_int, field_of, option_name
    from baccara.randomness import RandomSource, SecureRandom, SeededRandom, check_seed
    from baccara.render import houseway as sheet

    options = parse_assignments(option)
    for key in options:
        if field_of(GAME_ID, key, RedGreenRules.OPTIONS) not in RedGreenRules.HOUSE_WAY:
            known = ", ".join(option_name(field) for field in RedGreenRules.HOUSE_WAY)
            raise InvalidOption(key, f"does not change the house way; its options are: {known}")
    rules = RedGreenRules.from_options(**options)
    if not quiz:
        if rounds is not None or seed is not None:
            raise BaccaraError("--rounds and --seed go with --quiz")
        typer.echo(sheet.lookup(cards, rules) if cards else sheet.cheat_sheet(rules))
        return
    if cards:
        raise BaccaraError("--quiz deals its own hands; give no cards with it")
    hands_wanted = as_int("--rounds", "10" if rounds is None else rounds, 1, sheet.MAX_DRILL_HANDS)
    rng: RandomSource = SecureRandom() if seed is None else SeededRandom(check_seed(seed, "--seed"))
    hands = sheet.drill_hands(rng, hands_wanted)

    def read() -> str | None:
        # An answer that is not text (a stray byte) is an unreadable answer, asked again;
        # a line longer than any answer (/dev/zero has no end) stops the drill.
        return read_line("--quiz", MAX_ANSWER, errors="replace")

    score = sheet.run_drill(hands, rules, read, lambda text: typer.echo(text))
    if score.asked == 0:
        raise BaccaraError("the drill had no answer: standard input ended before the first hand")
