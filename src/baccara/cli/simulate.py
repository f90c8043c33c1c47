"""``baccara simulate``: deal many rounds by the real rules and set them beside the exact figures.

This module holds the command, its flags and the checks on them; the dealing and
reporting are in :mod:`baccara.cli.simulate_jobs`, loaded when the command runs.
A run is one of three kinds — rounds, bankroll sessions (``--bet``) or a count study
(``--count``) — and a flag that does nothing in the kind asked for is refused
rather than ignored.
"""

from __future__ import annotations

import enum
import pathlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated

import typer

from baccara.cli.common import (
    GameArgument,
    JsonFlag,
    RuleOptions,
    check_destination,
    console,
    rule_options,
)
from baccara.errors import InvalidOption
from baccara.render.plots import FORMATS as PLOT_FORMATS

DEFAULT_ROUNDS = 1_000_000


class Kind(enum.Enum):
    """What a simulate command does, by the flags that choose it."""

    ROUNDS = "a run of rounds"
    SESSIONS = "bankroll sessions (--bet)"
    COUNT = "a count study (--count)"


@dataclass(frozen=True)
class Applies:
    """The kinds of run a flag means something in, and why it means nothing in the others."""

    kinds: frozenset[Kind]
    otherwise: str


_SESSIONS_ONLY = Applies(frozenset({Kind.SESSIONS}), "it sets bankroll sessions, named by --bet")
APPLIES: Mapping[str, Applies] = {
    "--rounds": Applies(
        frozenset({Kind.ROUNDS, Kind.COUNT}), "sessions deal --hands × --sessions rounds"
    ),
    "--workers": Applies(frozenset({Kind.ROUNDS}), "it is dealt in one process"),
    "--stake": _SESSIONS_ONLY,
    "--bankroll": _SESSIONS_ONLY,
    "--hands": _SESSIONS_ONLY,
    "--sessions": _SESSIONS_ONLY,
    "--plot": _SESSIONS_ONLY,
    "--level": Applies(frozenset({Kind.COUNT}), "it sets the tags of a count, named by --count"),
}
"""Which flags each kind of run reads; any other flag given is refused, not ignored."""


def simulate(
    game: GameArgument,
    rounds: Annotated[
        str | None,
        typer.Option(metavar="N", help="Rounds to deal.", show_default=f"{DEFAULT_ROUNDS:,}"),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(metavar="S", help="Repeat a run exactly (without it a fresh seed, printed)."),
    ] = None,
    workers: Annotated[
        str | None,
        typer.Option(metavar="K", help="Processes dealing blocks in parallel.", show_default="1"),
    ] = None,
    shoe: Annotated[
        str | None,
        typer.Option(
            metavar="reshuffle|continuous",
            help="A full shoe every round, or one dealt to a cut card (a count's).",
            show_default="reshuffle",
        ),
    ] = None,
    penetration: Annotated[
        str | None,
        typer.Option(
            metavar="P",
            help="Share of a continuous shoe dealt before the cut card.",
            show_default="0.8; for --count, 15 cards from the end",
        ),
    ] = None,
    option: RuleOptions = None,
    bet: Annotated[
        str | None, typer.Option(metavar="BET", help="Play bankroll sessions at this bet instead.")
    ] = None,
    stake: Annotated[
        str | None,
        typer.Option(metavar="AMOUNT", help="Sessions: the stake a hand.", show_default="10"),
    ] = None,
    bankroll: Annotated[
        str | None,
        typer.Option(
            metavar="AMOUNT", help="Sessions: bankroll at the start.", show_default="1000"
        ),
    ] = None,
    hands: Annotated[
        str | None, typer.Option(metavar="N", help="Sessions: hands a session.", show_default="200")
    ] = None,
    sessions_: Annotated[
        str | None,
        typer.Option("--sessions", metavar="N", help="Sessions: how many.", show_default="10,000"),
    ] = None,
    plot: Annotated[
        pathlib.Path | None,
        typer.Option(metavar="FILE.png|FILE.svg", help="Sessions: write a plot here."),
    ] = None,
    count: Annotated[
        str | None,
        typer.Option(
            metavar="BET", help="Measure a card count for this bet, dealt from a continuous shoe."
        ),
    ] = None,
    level: Annotated[
        str | None,
        typer.Option(metavar="L", help="Count: the largest tag (1-10).", show_default="3"),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Deal GAME by its real rules and compare every bet with the exact analysis.

    With --bet, play bankroll sessions at that bet instead: the distribution of session
    results, the risk of ruin, and a plot. With --count, measure what a card count
    built from the exact effects of removal gains on that bet.
    """
    from baccara.cards import ShoeMode, check_penetration
    from baccara.cli import simulate_jobs as jobs
    from baccara.games import game as game_spec
    from baccara.money import MAX_BANKROLL_CENTS, MAX_STAKE_CENTS, parse_amount
    from baccara.options import as_int
    from baccara.randomness import check_seed
    from baccara.sim.counts import MAX_LEVEL, MIN_LEVEL
    from baccara.sim.dealer import DEFAULT_PENETRATION
    from baccara.sim.runs import check_rounds, check_workers
    from baccara.sim.sessions import MAX_HANDS, MAX_SESSIONS

    spec = game_spec(game)
    if count is not None and bet is not None:
        raise InvalidOption("--count", "measure a count or play sessions, not both at once")
    kind = Kind.COUNT if count is not None else Kind.SESSIONS if bet is not None else Kind.ROUNDS
    given = {
        "--rounds": rounds,
        "--workers": workers,
        "--stake": stake,
        "--bankroll": bankroll,
        "--hands": hands,
        "--sessions": sessions_,
        "--plot": plot,
        "--level": level,
    }
    for flag, value in given.items():
        applies = APPLIES[flag]
        if value is not None and kind not in applies.kinds:
            raise InvalidOption(flag, f"does not apply to {kind.value}: {applies.otherwise}")
    if shoe is not None:
        shoe_mode = ShoeMode.parse(shoe, "--shoe")
    else:
        shoe_mode = ShoeMode.CONTINUOUS if kind is Kind.COUNT else ShoeMode.RESHUFFLE
    if kind is Kind.COUNT and shoe_mode is not ShoeMode.CONTINUOUS:
        raise InvalidOption("--shoe", "a count needs a continuous shoe; a reshuffled one has none")
    if penetration is not None and shoe_mode is not ShoeMode.CONTINUOUS:
        raise InvalidOption(
            "--penetration",
            "places the cut card of a continuous shoe; a reshuffled shoe has none"
            " (add --shoe continuous)",
        )
    cut = None if penetration is None else check_penetration(penetration, "--penetration")
    seed_value = None if seed is None else check_seed(seed, "--seed")
    rounds_wanted = check_rounds(DEFAULT_ROUNDS if rounds is None else rounds, "--rounds")
    options = rule_options(spec, option)
    if kind is Kind.COUNT:
        assert count is not None
        jobs.counting(
            spec.id,
            spec.parse_bet(count).value,
            rounds_wanted,
            options,
            seed=seed_value,
            penetration=cut,
            level=as_int("--level", "3" if level is None else level, MIN_LEVEL, MAX_LEVEL),
            as_json=as_json,
            console=console(),
        )
        return
    request = None
    if kind is Kind.SESSIONS:
        assert bet is not None
        request = jobs.SessionRequest(
            bet=spec.parse_bet(bet).value,
            stake=parse_amount("10" if stake is None else stake, "--stake", MAX_STAKE_CENTS),
            bankroll=parse_amount(
                "1000" if bankroll is None else bankroll, "--bankroll", MAX_BANKROLL_CENTS
            ),
            hands=as_int("--hands", "200" if hands is None else hands, 1, MAX_HANDS),
            sessions=as_int(
                "--sessions", "10000" if sessions_ is None else sessions_, 1, MAX_SESSIONS
            ),
            plot=None if plot is None else check_destination(plot, "--plot", PLOT_FORMATS),
        )
    run = jobs.setup(
        spec.id,
        options,
        seed=seed_value,
        workers=check_workers("1" if workers is None else workers, "--workers"),
        shoe=shoe_mode,
        penetration=DEFAULT_PENETRATION if cut is None else cut,
    )
    if request is not None:
        jobs.sessions(run, request, as_json, console())
    else:
        jobs.frequencies(run, rounds_wanted, as_json, console())
