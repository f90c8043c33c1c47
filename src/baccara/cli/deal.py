"""``baccara deal``: one whole round of a game through the table engine, event by event.

Every option is read and checked before a card is dealt: numbers by the bounded
readers (named as typed), seeds by :mod:`baccara.fair`, and an option that would do
nothing for this game or this way of dealing is refused rather than ignored. At a
live table the cards come from standard input, a bounded line at a time.
"""

from __future__ import annotations

import secrets
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from baccara.cli.common import (
    GameArgument,
    RuleOptions,
    read_line,
    rule_options,
    stdin_is_terminal,
)
from baccara.errors import InvalidOption, shown
from baccara.games import GameSpec

if TYPE_CHECKING:
    from baccara.table import Round, Viewer

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ida", "jo", "kim", "lou")

MAX_ENTRY = 40
"""The longest line a live dealer may type: a card, a tile or a die is a few characters."""
MAX_REFUSED = 20
"""Entries refused in a row for one card before the deal stops: that input is no dealer's."""


def deal(
    game: GameArgument,
    seed: Annotated[
        str | None,
        typer.Option(metavar="S", help="Replay a round dealt by the seeded generator."),
    ] = None,
    server_seed: Annotated[
        str | None,
        typer.Option(metavar="HEX", help="Deal by the provably-fair protocol: 64 hex digits."),
    ] = None,
    client_seed: Annotated[
        str | None,
        typer.Option(
            metavar="TEXT",
            help="The client seed, 1 to 64 printable characters (provably fair).",
            show_default="random",
        ),
    ] = None,
    nonce: Annotated[
        str | None,
        typer.Option(
            metavar="N", help="The round's number at its table, from 1.", show_default="1"
        ),
    ] = None,
    stake: Annotated[
        str | None,
        typer.Option(
            metavar="AMOUNT", help="Each player's stake on each bet, e.g. 12.50.", show_default="10"
        ),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option(
            metavar="N", help="Players seated, each betting every spot.", show_default="2"
        ),
    ] = None,
    choose: Annotated[
        str | None,
        typer.Option(
            metavar="red|green", help="Mini RedGreen: the hand the highest bettor sets first."
        ),
    ] = None,
    peek: Annotated[
        bool | None,
        typer.Option(
            "--peek/--no-peek",
            help="RedGreen: whether the highest bettor peeks.",
            show_default="peek",
        ),
    ] = None,
    live: Annotated[
        bool,
        typer.Option(
            "--live", help="Enter the cards yourself, one a line, as a live dealer would."
        ),
    ] = False,
    option: RuleOptions = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the round's record (for baccara verify).")
    ] = False,
) -> None:
    """Deal one round of GAME through the table engine and settle every bet, step by step.

    By default the round is provably fair: a fresh server seed, shown with the result
    so the round can be re-dealt with `baccara verify`.
    """
    from baccara.fair import MAX_NONCE, check_client_seed, parse_server_seed
    from baccara.games import game as game_spec
    from baccara.money import MAX_STAKE_CENTS, parse_amount
    from baccara.options import as_int
    from baccara.randomness import SeededRandom, check_seed
    from baccara.render.playthrough import sides_text
    from baccara.render.text import to_json
    from baccara.table import Mode, Table, TableConfig, Viewer
    from baccara.table.autoplay import Plan, play
    from baccara.table.record import round_record

    spec = game_spec(game)
    cents = parse_amount("10" if stake is None else stake, "--stake", MAX_STAKE_CENTS)
    count = as_int("--players", "2" if players is None else players, 1, len(NAMES))
    number = as_int("--nonce", "1" if nonce is None else nonce, 1, MAX_NONCE)
    seed_value = None if seed is None else check_seed(seed, "--seed")
    seed_bytes = None if server_seed is None else parse_server_seed(server_seed, "--server-seed")
    client = None if client_seed is None else check_client_seed(client_seed, "--client-seed")
    _refuse_seeds(live, seed is not None, server_seed is not None or client_seed is not None)
    hand = _first_hand(spec, choose)
    _refuse_peek(spec, peek)
    options = rule_options(spec, option)
    if as_json:
        _refuse_paytable_file(options)
    config = TableConfig(
        spec.id,
        min_bet_cents=1,
        max_bet_cents=cents,
        mode=Mode.LIVE if live else Mode.ELECTRONIC,
        options=options,
        seats=None,
    )
    if count > config.seat_count:
        raise InvalidOption(
            "--players", f"{spec.name} seats at most {config.seat_count} players, got {count}"
        )
    table = Table(config, nonce=number - 1)
    fair = seed_value is None and not live
    seed_bytes = seed_bytes or secrets.token_bytes(32)
    plan = Plan(
        players=NAMES[:count],
        stake=cents,
        client_seed=(client or secrets.token_hex(8)) if fair else None,
        peek=peek is not False,
        choose=hand,
    )
    # At a live table the person at the terminal is the dealer, who sees what they deal;
    # otherwise the round is shown as its first player sees it (their own peek included).
    viewer = Viewer(dealer=True) if live else Viewer(plan.players[0])
    how = "provably fair" if fair else ("live" if live else f"seed {seed_value}")
    who = "the dealer" if live else viewer.player
    title = f"{spec.id} · round {number} · {how} · as {who} saw it"
    printer = None if as_json else EventPrinter(title, viewer)
    if live:
        round_ = play(table, plan, enter=LiveDealer(), watch=printer)
    elif seed_value is None:
        round_ = play(table, plan, server_seed=seed_bytes, watch=printer)
    else:
        round_ = play(table, plan, source=SeededRandom(seed_value), watch=printer)
    if as_json:  # the record a player keeps: their view, whoever dealt
        sys.stdout.write(to_json(round_record(round_, Viewer(plan.players[0]))))
        return
    for line in sides_text(round_):
        print(line)
    if fair:
        assert round_.closed is not None
        print(
            f"server seed {seed_bytes.hex()} (its SHA-256 was shown before any bet),"
            f" client seed {round_.closed.client_seed!r}, nonce {round_.nonce}:"
            " re-deal it with `baccara deal --json … > round.json; baccara verify round.json`."
        )


def _refuse_seeds(live: bool, seeded: bool, fair_seeds: bool) -> None:
    """Seeds that would not deal this round are refused, not ignored."""
    if live and (seeded or fair_seeds):
        raise InvalidOption(
            "--live", "deals the cards you enter: give no --seed, --server-seed or --client-seed"
        )
    if seeded and fair_seeds:
        raise InvalidOption(
            "--seed", "replays the seeded generator: give no --server-seed or --client-seed"
        )


def _first_hand(spec: GameSpec, choose: str | None) -> str | None:
    """``--choose``: red or green, where the highest bettor chooses (Mini RedGreen only)."""
    if choose is None:
        return None
    hand = choose.strip().lower()
    if hand not in ("red", "green"):
        raise InvalidOption("--choose", f"must be red or green, got {shown(choose)}")
    if not spec.table.highest_bettor_chooses_first_hand:
        raise InvalidOption(
            "--choose", f"does not apply to {spec.id}: its highest bettor chooses no hand"
        )
    return hand


def _refuse_peek(spec: GameSpec, peek: bool | None) -> None:
    """``--peek``/``--no-peek`` where nobody peeks would do nothing."""
    if peek is not None and not spec.table.highest_bettor_may_peek:
        flag = "--peek" if peek else "--no-peek"
        raise InvalidOption(flag, f"does not apply to {spec.id}: its highest bettor never peeks")


def _refuse_paytable_file(options: dict[str, Any]) -> None:
    """A round record names its rules for ``baccara verify``: a shipped paytable, not a file."""
    from baccara.games.paytable import Paytable

    if isinstance(options.get("paytable"), Paytable):
        raise InvalidOption(
            "--json",
            "a round record names a shipped paytable; one read from a file"
            " (--option paytable=FILE) cannot be recorded",
        )


class EventPrinter:
    """Prints a round's events as they happen, as ``viewer`` may see them, under ``title``."""

    def __init__(self, title: str, viewer: Viewer) -> None:
        self.title = title
        self.viewer = viewer
        self.printed = 0

    def __call__(self, round_: Round) -> None:
        from baccara.render.playthrough import log_text
        from baccara.table import view

        if not self.printed:
            print(self.title)
        shown = view(round_, self.viewer, self.printed)
        for line in log_text(shown, round_, self.printed):
            print(line, flush=True)
        self.printed = len(round_.events)


class LiveDealer:
    """The dealer at the terminal: one card (tile, die) a line of standard input.

    A refused entry is shown and asked again; :data:`MAX_REFUSED` refusals in a row, a
    line over :data:`MAX_ENTRY` characters, bytes that are not UTF-8 text or the end of
    the input stop the deal with one line.
    """

    def __init__(self) -> None:
        self.refused = 0

    def __call__(self, round_: object, position: str, refusal: str | None) -> str:
        from baccara.render.playthrough import position_text
        from baccara.render.text import printable

        where = position_text(position)
        if refusal is None:
            self.refused = 0
        else:
            self.refused += 1
            print(f"  refused: {printable(refusal)}", file=sys.stderr)
            if self.refused >= MAX_REFUSED:
                raise InvalidOption("--live", f"{MAX_REFUSED} entries in a row refused for {where}")
        if stdin_is_terminal():
            print(f"{where}? ", end="", file=sys.stderr, flush=True)
        line = read_line("--live", MAX_ENTRY)
        if line is None:
            raise InvalidOption("--live", f"end of input before {where} was dealt")
        return line.strip()
