"""The ``baccara`` command.

Every refusal (unknown game, bad option, malformed input) prints one line on
stderr and exits with status 2; no traceback reaches a user.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from typer.exceptions import Abort, Exit, TyperException

from baccara.errors import BaccaraError
from baccara.paytable_cli import paytable_app
from baccara.simulate_cli import simulate

EXIT_USAGE = 2

app = typer.Typer(
    name="baccara",
    help="Casino baccarat games dealt for real and analysed exactly.",
    add_completion=False,
    pretty_exceptions_enable=False,
)


app.add_typer(paytable_app, name="paytable")
app.command()(simulate)


@app.callback(invoke_without_command=True)
def _root(ctx: typer.Context) -> None:
    """Casino baccarat games dealt for real and analysed exactly."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise Exit(EXIT_USAGE)


def _console() -> Console:
    return Console(highlight=False)


def _collect(**given: Any) -> dict[str, Any]:
    """Options the user actually gave, so each game keeps its own defaults for the rest."""
    return {name: value for name, value in given.items() if value is not None}


def _parse_assignments(assignments: list[str] | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in assignments or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise BaccaraError(f"--option wants KEY=VALUE, got {item!r}")
        options[key.strip()] = value.strip()
    return options


@app.command()
def analyze(
    game: Annotated[str, typer.Argument(help="Game id, e.g. punto-banco.")],
    decks: Annotated[str | None, typer.Option(help="Decks in the shoe.")] = None,
    commission: Annotated[
        str | None, typer.Option(help="Commission on winning Banker (or Red/Green) bets, in %.")
    ] = None,
    tie_pays: Annotated[str | None, typer.Option(help="What a winning Tie pays, to 1.")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Any other rule option, as KEY=VALUE (repeatable)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    effect_of_removal: Annotated[
        bool,
        typer.Option(
            "--effect-of-removal",
            help="Instead: how removing one card of each rank (tile) moves each bet's edge.",
        ),
    ] = False,
) -> None:
    """Print the exact mathematics of every bet of GAME."""
    from baccara.analysis import analyze as run_analysis
    from baccara.analysis.render import print_analysis, print_effect_of_removal

    options = _collect(decks=decks, commission=commission, tie_pays=tie_pays)
    options.update(_parse_assignments(option))
    if effect_of_removal:
        from baccara.analysis.removal import effect_of_removal as run_removal

        effects = run_removal(game, **options)
        if as_json:
            sys.stdout.write(json.dumps(effects.to_dict(), indent=2) + "\n")
        else:
            print_effect_of_removal(effects, _console())
        return
    result = run_analysis(game, **options)
    if as_json:
        sys.stdout.write(json.dumps(result.to_dict(), indent=2) + "\n")
    else:
        print_analysis(result, _console())


@app.command()
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
    from baccara import houseway as sheet
    from baccara.games.redgreen import RedGreenRules
    from baccara.options import as_int
    from baccara.randomness import RandomSource, SecureRandom, SeededRandom

    rules = RedGreenRules.from_options(**_parse_assignments(option))
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


@app.command()
def deal(
    game: Annotated[str, typer.Argument(help="Game id, e.g. punto-banco.")],
    seed: Annotated[
        str | None, typer.Option(help="Replay a seeded round; without it the secure shuffle deals.")
    ] = None,
    stake: Annotated[str, typer.Option(help="Stake on each bet, e.g. 10 or 12.50.")] = "10",
) -> None:
    """Deal one round of GAME and settle every bet, step by step."""
    from baccara.money import parse_amount, validate_stake
    from baccara.options import as_int
    from baccara.playthrough import playthrough

    seed_value = None if seed is None else as_int("seed", seed, 0, 2**63 - 1)
    cents = validate_stake(parse_amount(stake))
    sys.stdout.write(playthrough(game, seed_value, cents))


@app.command()
def games() -> None:
    """List the games baccara deals and analyses."""
    from baccara.analysis import analyzable_games

    console = _console()
    for game in analyzable_games():
        console.print(game)


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
        return 130
    return result if isinstance(result, int) else 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
