"""``baccara compare``: every bet's edge under rule variants, side by side."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from baccara.cli.common import console, parse_assignments, rule_options
from baccara.errors import BaccaraError, InvalidOption
from baccara.games import GameSpec

VARIANT_FORM = "NAME:KEY=VALUE[,KEY=VALUE]"


def parse_variant(spec: GameSpec, text: str) -> tuple[str, dict[str, Any]]:
    """``"tie-9:tie-pays=9,commission=4"`` → ``("tie-9", {"tie-pays": "9", "commission": "4"})``.

    A paytable named by file is read here, as ``--option paytable=FILE`` is.
    """
    name, sep, assignments = text.partition(":")
    if not sep or not name.strip() or not assignments.strip():
        raise BaccaraError(f"--variant wants {VARIANT_FORM}, got {text!r}")
    items = [item for item in assignments.split(",") if item.strip()]
    try:
        parse_assignments(items)
    except BaccaraError:
        raise BaccaraError(f"--variant wants {VARIANT_FORM}, got {text!r}") from None
    try:
        return name.strip(), rule_options(spec, items)
    except InvalidOption as error:
        raise InvalidOption(f"variant {name.strip()}: {error.option}", error.message) from None


def compare(
    game: Annotated[str, typer.Argument(help="Game id, e.g. punto-banco.")],
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            help=f"A variant, as {VARIANT_FORM} (repeatable; none: the game's usual ones).",
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A rule option of the base rules, as KEY=VALUE."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """How each bet's house edge moves under each rule variant of GAME."""
    from baccara.exact.variants import Variant, compare_variants, usual_variants
    from baccara.games import game as game_spec
    from baccara.render.compare import print_comparison

    spec = game_spec(game)
    base = rule_options(spec, option)
    if variant:
        variants = [Variant(*parse_variant(spec, text)) for text in variant]
    else:
        variants = list(usual_variants(spec.id))
    comparison = compare_variants(spec.id, variants, **base)
    if as_json:
        sys.stdout.write(json.dumps(comparison.to_dict(), indent=2) + "\n")
    else:
        print_comparison(comparison, console())
