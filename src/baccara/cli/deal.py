"""``baccara deal``: one whole round of a game through the table engine, event by event."""

from __future__ import annotations

import json
import secrets
import sys
from typing import Annotated

import typer

from baccara.cli.common import GameArgument, RuleOptions, rule_options
from baccara.errors import BaccaraError

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ida", "jo", "kim", "lou")


def deal(
    game: GameArgument,
    seed: Annotated[
        str | None,
        typer.Option(metavar="S", help="Replay a round dealt by the seeded generator."),
    ] = None,
    server_seed: Annotated[
        str | None, typer.Option(help="Deal by the provably-fair protocol: 64 hex digits.")
    ] = None,
    client_seed: Annotated[
        str | None, typer.Option(help="The client seed (provably fair; default: random).")
    ] = None,
    nonce: Annotated[str, typer.Option(help="The round's number at its table, from 1.")] = "1",
    stake: Annotated[
        str | None,
        typer.Option(
            metavar="AMOUNT", help="Each player's stake on each bet, e.g. 12.50.", show_default="10"
        ),
    ] = None,
    players: Annotated[str, typer.Option(help="Players seated, each betting every spot.")] = "2",
    choose: Annotated[
        str | None, typer.Option(help="Mini RedGreen: the hand the highest bettor sets first.")
    ] = None,
    peek: Annotated[
        bool, typer.Option("--peek/--no-peek", help="RedGreen: the highest bettor peeks.")
    ] = True,
    live: Annotated[
        bool, typer.Option("--live", help="Enter the cards yourself, as a live dealer would.")
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
    from baccara.fair import check_client_seed, check_nonce, parse_server_seed
    from baccara.games import game as game_spec
    from baccara.money import MAX_STAKE_CENTS, parse_amount
    from baccara.options import as_int
    from baccara.randomness import SeededRandom, check_seed
    from baccara.render.playthrough import round_text
    from baccara.table import Mode, Table, TableConfig, Viewer
    from baccara.table.autoplay import Plan, play
    from baccara.table.record import round_record

    spec = game_spec(game)
    cents = parse_amount("10" if stake is None else stake, "--stake", MAX_STAKE_CENTS)
    count = as_int("players", players, 1, len(NAMES))
    if live and (seed is not None or server_seed is not None or client_seed is not None):
        raise BaccaraError("--live deals the cards you enter; give no seeds with it")
    if seed is not None and (server_seed is not None or client_seed is not None):
        raise BaccaraError("--seed replays the seeded generator; give no provably-fair seeds")
    if choose is not None and choose not in ("red", "green"):
        raise BaccaraError(f"--choose red or green, not {choose!r}")
    config = TableConfig(
        spec.id,
        min_bet_cents=1,
        max_bet_cents=max(cents, 1),
        mode=Mode.LIVE if live else Mode.ELECTRONIC,
        options=rule_options(spec, option),
        seats=None,
    )
    if count > config.seat_count:
        raise BaccaraError(f"{config.spec.name} seats at most {config.seat_count} players")
    table = Table(config, nonce=check_nonce(as_int("nonce", nonce, 1, 2**62)) - 1)
    fair = seed is None and not live
    seed_bytes = parse_server_seed(server_seed) if server_seed else secrets.token_bytes(32)
    plan = Plan(
        players=NAMES[:count],
        stake=cents,
        client_seed=check_client_seed(client_seed or secrets.token_hex(8)) if fair else None,
        peek=peek,
        choose=choose,
    )
    if live:
        round_ = play(table, plan, enter=_ask_dealer)
    elif fair:
        round_ = play(table, plan, server_seed=seed_bytes)
    else:
        round_ = play(table, plan, source=SeededRandom(check_seed(seed, "--seed")))
    viewer = Viewer(plan.players[0])
    if as_json:
        sys.stdout.write(json.dumps(round_record(round_, viewer), indent=2) + "\n")
        return
    how = "provably fair" if fair else ("live" if live else f"seed {seed}")
    title = f"{spec.id} · round {round_.nonce} · {how} · as {viewer.player} saw it"
    sys.stdout.write(round_text(round_, title))
    if fair:
        assert round_.closed is not None
        print(
            f"server seed {seed_bytes.hex()} (its SHA-256 was shown before any bet),"
            f" client seed {round_.closed.client_seed!r}, nonce {round_.nonce}:"
            " re-deal it with `baccara deal --json … > round.json; baccara verify round.json`."
        )


def _ask_dealer(round_: object, position: str, refusal: str | None) -> str:
    """Ask at the terminal for the card (tile, die) at ``position``; show a refusal first."""
    from baccara.render.playthrough import position_text

    if refusal is not None:
        print(f"  refused: {refusal}", file=sys.stderr)
    if sys.stdin.isatty():
        print(f"{position_text(position)}? ", end="", file=sys.stderr, flush=True)
    line = sys.stdin.readline()
    if not line:
        raise typer.Exit(_end_of_input())
    return line.strip()


def _end_of_input() -> int:
    print("baccara: error: end of input before the round was dealt", file=sys.stderr)
    return 2
