"""``baccara compare``: every bet's edge under rule variants, side by side."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from baccara.cli.common import (
    GameArgument,
    JsonFlag,
    RuleOptions,
    console,
    rule_options,
)
from baccara.errors import InvalidOption, shown
from baccara.games import GameSpec

VARIANT_FORM = "NAME:KEY=VALUE[,KEY=VALUE]"

MAX_VARIANTS = 20
"""Variants compared in one run: each is a whole exact analysis, and a row of the table."""
MAX_VARIANT_NAME = 40
"""The longest variant name: it heads a row of the table."""


def parse_variant(spec: GameSpec, text: str) -> tuple[str, dict[str, Any]]:
    """``"tie-9:tie-pays=9,commission=4"`` → ``("tie-9", {"tie-pays": "9", "commission": "4"})``.

    Keys are checked against ``spec``'s options here (a key twice, either spelling, is
    refused); values are read when the variant is analysed. A paytable named by file
    is read here, as ``--option paytable=FILE`` is.
    """
    name, sep, assignments = text.partition(":")
    name = name.strip()
    items = [item for item in assignments.split(",") if item.strip()]
    if not sep or not name or not items:
        raise InvalidOption("--variant", f"wants {VARIANT_FORM}, got {shown(text)}")
    if len(name) > MAX_VARIANT_NAME:
        raise InvalidOption(
            "--variant", f"a name is at most {MAX_VARIANT_NAME} characters, got {shown(name)}"
        )
    if any("=" not in item or not item.partition("=")[0].strip() for item in items):
        raise InvalidOption("--variant", f"wants {VARIANT_FORM}, got {shown(text)}")
    try:
        return name, rule_options(spec, items, "--variant")
    except InvalidOption as error:
        raise InvalidOption(f"variant {name}: {error.option}", error.message) from None


def compare(
    game: GameArgument,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            metavar=VARIANT_FORM,
            help=f"A variant (repeatable, at most {MAX_VARIANTS}; none: the game's usual ones).",
        ),
    ] = None,
    option: RuleOptions = None,
    as_json: JsonFlag = False,
) -> None:
    """How each bet's house edge moves under each rule variant of GAME."""
    from baccara.exact.variants import compare_variants
    from baccara.games import game as game_spec
    from baccara.games.variant import Variant
    from baccara.render.compare import print_comparison
    from baccara.render.text import to_json

    spec = game_spec(game)
    if variant and len(variant) > MAX_VARIANTS:
        raise InvalidOption("--variant", f"at most {MAX_VARIANTS} variants, got {len(variant)}")
    base = rule_options(spec, option)
    if variant:
        variants = [Variant(*parse_variant(spec, text)) for text in variant]
    else:
        variants = list(spec.variants)
    comparison = compare_variants(spec.id, variants, **base)
    if as_json:
        sys.stdout.write(to_json(comparison.to_dict()))
    else:
        print_comparison(comparison, console())
