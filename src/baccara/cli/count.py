"""``baccara count``: what counting a Punto Banco side bet is worth."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Annotated

import typer

from baccara.cli.common import GameArgument, JsonFlag, RuleOptions, console, rule_options

MAX_SHOES = 1_000_000
"""The most shoes one run deals (about a minute and a half per 10,000 on one core)."""


def count(
    game: GameArgument,
    bet: Annotated[
        str, typer.Argument(metavar="BET", help="The bet to count: dragon-7, panda-8 …")
    ],
    option: RuleOptions = None,
    level: Annotated[
        int, typer.Option(metavar="L", help="Tags run from -L to L (1-3).", show_default=True)
    ] = 2,
    tags: Annotated[
        str | None,
        typer.Option(
            metavar="T0,…,T9",
            help="Play this count instead of the best one: ten tags, for tens (and faces),"
            " then Ace, 2 … 9.",
        ),
    ] = None,
    trigger: Annotated[
        float | None,
        typer.Option(
            metavar="TC",
            help="Bet at this true count or more.",
            show_default="the linear estimate, rounded up",
        ),
    ] = None,
    spread: Annotated[
        str | None,
        typer.Option(
            metavar="TC:UNITS,…",
            help="Bet more as the count rises: 4:1,6:2,8:4 bets 1 unit from a true count"
            " of 4, 2 from 6, 4 from 8 (instead of --trigger).",
        ),
    ] = None,
    shoes: Annotated[int, typer.Option(metavar="N", help="Shoes to deal.")] = 10_000,
    cut_card: Annotated[
        int, typer.Option(metavar="CARDS", help="Cards behind the cut card, left undealt.")
    ] = 14,
    seed: Annotated[int, typer.Option(metavar="N", help="Seed of the shuffles.")] = 1,
    ceiling: Annotated[
        bool,
        typer.Option(
            "--ceiling", help="Also what knowing every card left would win (every coup valued)."
        ),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Count BET: its effects of removal, the best balanced count and its trigger, and
    what betting one unit at the trigger wins per shoe, from the exact edge of every
    shoe bet into and from the bets' own results."""
    from baccara.errors import InvalidOption
    from baccara.exact.counting import study
    from baccara.games import game as game_spec
    from baccara.games.punto_banco import GAME_ID
    from baccara.render.counting import print_count_study
    from baccara.render.text import to_json

    spec = game_spec(game)
    if spec.id != GAME_ID:
        raise InvalidOption("GAME", f"counting is for {GAME_ID}'s side bets, not {spec.id}")
    rules = spec.rules_from_options(**rule_options(spec, option))
    if not 1 <= shoes <= MAX_SHOES:
        raise InvalidOption("--shoes", f"deal 1 to {MAX_SHOES:,} shoes, got {shoes}")
    chosen = None if tags is None else _read_tags(tags)
    show = sys.stderr.isatty() and not as_json
    with _bar(show, shoes) as advance:
        result = study(rules, spec.check_bet(bet, rules), level=level, tags=chosen,
                       trigger=trigger, shoes=shoes, cut_card=cut_card, seed=seed,
                       ceiling=ceiling, progress=advance,
                       spread=() if spread is None else _read_spread(spread))  # fmt: skip
    if as_json:
        sys.stdout.write(to_json(result.to_dict()))
    else:
        print_count_study(result, console())


def _read_spread(text: str) -> tuple[tuple[float, int], ...]:
    from baccara.errors import InvalidOption

    steps = []
    for part in text.split(","):
        count, colon, units = part.strip().partition(":")
        try:
            steps.append((float(count), int(units)))
        except ValueError:
            colon = ""
        if not colon:
            raise InvalidOption("--spread", f"steps are TRUE_COUNT:UNITS joined by commas,"
                                f" such as 4:1,6:2; got {text!r}")  # fmt: skip
    return tuple(steps)


def _read_tags(text: str) -> tuple[int, ...]:
    from baccara.errors import InvalidOption

    parts = [p.strip() for p in text.split(",")]
    try:
        tags = tuple(int(p) for p in parts)
    except ValueError:
        tags = ()
    if len(tags) != 10 or any(abs(t) > 9 for t in tags):
        raise InvalidOption("--tags", f"ten whole numbers from -9 to 9, got {text!r}")
    return tags


@contextlib.contextmanager
def _bar(show: bool, total: int) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr over the shoes dealt, on a terminal only; gone when done."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    progress = Progress(
        "[bold]shoes[/bold]", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=Console(stderr=True), transient=True, disable=not show,
    )  # fmt: skip
    with progress:
        task = progress.add_task("shoes", total=total)
        yield lambda done: progress.update(task, completed=done)
