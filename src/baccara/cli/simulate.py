"""``baccara simulate``: deal many rounds by the real rules and set them beside the exact figures.

This module holds only the command and its flags; the dealing and reporting are in
:mod:`baccara.cli.simulate_jobs`, loaded when the command runs.
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass
from typing import Annotated

import typer

from baccara.cli.common import console, rule_options
from baccara.errors import InvalidOption
from baccara.render.plots import FORMATS as PLOT_FORMATS

DEFAULT_ROUNDS = 1_000_000


def simulate(
    game: Annotated[str, typer.Argument(help="Game id, e.g. punto-banco.")],
    rounds: Annotated[
        str | None, typer.Option(help=f"Rounds to deal (default {DEFAULT_ROUNDS:,}).")
    ] = None,
    seed: Annotated[
        str | None, typer.Option(help="Repeat a run exactly (default: a fresh seed, printed).")
    ] = None,
    workers: Annotated[str, typer.Option(help="Processes dealing blocks in parallel.")] = "1",
    shoe: Annotated[
        str | None,
        typer.Option(
            help="reshuffle (every round, the default) or continuous (to a cut card; a count's)."
        ),
    ] = None,
    penetration: Annotated[
        str | None,
        typer.Option(
            help="Share of a continuous shoe dealt before the cut card (default 0.8; for"
            " --count, the cut card 15 cards from the end)."
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A rule option, as KEY=VALUE (repeatable)."),
    ] = None,
    bet: Annotated[
        str | None, typer.Option(help="Play bankroll sessions at this bet instead.")
    ] = None,
    stake: Annotated[str | None, typer.Option(help="Sessions: stake a hand (default 10).")] = None,
    bankroll: Annotated[
        str | None, typer.Option(help="Sessions: bankroll at the start (default 1000).")
    ] = None,
    hands: Annotated[
        str | None, typer.Option(help="Sessions: hands a session (default 200).")
    ] = None,
    sessions_: Annotated[
        str | None, typer.Option("--sessions", help="Sessions: how many (default 10,000).")
    ] = None,
    plot: Annotated[
        pathlib.Path | None, typer.Option(help="Sessions: write a .png or .svg plot here.")
    ] = None,
    count: Annotated[
        str | None,
        typer.Option(help="Measure a card count for this bet, dealt from a continuous shoe."),
    ] = None,
    level: Annotated[str, typer.Option(help="Count: the largest tag (1-10).")] = "3",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Deal GAME by its real rules and compare every bet with the exact analysis.

    With --bet, play bankroll sessions at that bet instead: the distribution of session
    results, the risk of ruin, and a plot.
    """
    from baccara.cards import ShoeMode
    from baccara.cli import simulate_jobs as jobs
    from baccara.sim.dealer import DEFAULT_PENETRATION
    from baccara.sim.runs import check_rounds

    request = SessionRequest(bet, stake, bankroll, hands, sessions_, plot)
    request.check_flags()
    rounds_wanted = check_rounds(DEFAULT_ROUNDS if rounds is None else rounds)
    if count is not None:
        if request.wanted:
            raise InvalidOption("count", "measure a count or play sessions, not both at once")
        if shoe is not None and ShoeMode.parse(shoe) is not ShoeMode.CONTINUOUS:
            raise InvalidOption(
                "shoe", "a count needs a continuous shoe; a reshuffled one has none"
            )
        jobs.counting(
            game,
            count,
            rounds_wanted,
            rule_options(option),
            seed=seed,
            penetration=penetration,
            level=level,
            as_json=as_json,
            console=console(),
        )
        return
    run = jobs.setup(
        game,
        rule_options(option),
        seed=seed,
        workers=workers,
        shoe=shoe or ShoeMode.RESHUFFLE.value,
        penetration=str(DEFAULT_PENETRATION) if penetration is None else penetration,
    )
    if request.wanted:
        jobs.sessions(run, request, as_json, console())
    else:
        jobs.frequencies(run, rounds_wanted, as_json, console())


@dataclass(frozen=True)
class SessionRequest:
    """The session flags as given: all optional until ``--bet`` asks for sessions."""

    bet: str | None
    stake: str | None
    bankroll: str | None
    hands: str | None
    sessions: str | None
    plot: pathlib.Path | None

    @property
    def wanted(self) -> bool:
        return self.bet is not None

    def check_flags(self) -> None:
        given = [
            name
            for name, value in (
                ("--stake", self.stake),
                ("--bankroll", self.bankroll),
                ("--hands", self.hands),
                ("--sessions", self.sessions),
                ("--plot", self.plot),
            )
            if value is not None
        ]
        if given and self.bet is None:
            raise InvalidOption("bet", f"{', '.join(given)} describe sessions: name the --bet too")
        if self.plot is not None and self.plot.suffix.lower() not in PLOT_FORMATS:
            raise InvalidOption("plot", f"write a .png or .svg file, got {self.plot.name!r}")
