"""``baccara verify ROUND.json``: re-deal a round from its revealed seeds, card by card.

The record is untrusted: it is read only if it is a regular file of at most
:data:`MAX_RECORD_BYTES`, parsed as strict JSON (no ``NaN``, no nesting past the
parser's depth, no integer past Python's digit limit), and every field is checked by
:func:`baccara.table.record.verify_record` before a card is re-dealt.
"""

from __future__ import annotations

import json
import pathlib
from typing import Annotated, Any

import typer

from baccara.errors import BaccaraError, shown

MAX_RECORD_BYTES = 4_000_000
"""A round record is a few kilobytes; nothing larger is read."""


def verify(
    record: Annotated[
        pathlib.Path,
        typer.Argument(
            metavar="ROUND.json", help="A round record (baccara deal --json, or the server's)."
        ),
    ],
) -> None:
    """Re-deal a settled round by the provably-fair protocol and compare every card.

    Exit status 0 when the seed matches its commitment and every card matches, 1 when
    anything differs, 2 when the record cannot be read.
    """
    from baccara.render.playthrough import item_text, position_text
    from baccara.table.record import verify_record

    result = verify_record(read_record(str(record)))
    typer.echo(f"{result.game} · round {result.nonce} · client seed {result.client_seed!r}")
    verdict = "matches" if result.hash_matches else "DOES NOT MATCH"
    typer.echo(f"server seed against its SHA-256 commitment: {verdict}")
    for card in result.cards:
        mark = "ok" if card.matches else "DIFFERS"
        dealt = item_text(card.dealt) if card.dealt is not None else "(not dealt)"
        logged = card.logged if card.logged == "(not in the log)" else item_text(card.logged)
        typer.echo(
            f"  {position_text(card.position):<22} logged {logged:<5} re-dealt {dealt:<5} {mark}"
        )
    if result.ok:
        typer.echo(f"every one of the {len(result.cards)} cards matches the re-deal")
        return
    typer.echo("the round does NOT match its seeds")
    raise typer.Exit(1)


def read_record(path: str) -> Any:
    """The JSON in ``path``, read as :func:`verify` reads it; any failure one refusal."""
    from baccara.files import UnreadableFile, read_regular_file

    try:
        raw = read_regular_file(path, MAX_RECORD_BYTES)
    except UnreadableFile as error:
        if error.missing:
            raise BaccaraError(f"no round record at {shown(path)}") from None
        raise BaccaraError(f"cannot read the round record {shown(path)}: {error.reason}") from None
    try:
        text = raw.decode("utf-8")
        return json.loads(text, parse_constant=_refuse_constant, parse_int=_bounded_int)
    except UnicodeDecodeError:
        raise BaccaraError(f"{shown(path)}: not JSON (not UTF-8 text)") from None
    except json.JSONDecodeError as error:
        raise BaccaraError(f"{shown(path)}: not JSON ({error})") from None
    except RecursionError:
        raise BaccaraError(f"{shown(path)}: not a round record (JSON nested too deep)") from None
    except ValueError as error:  # NaN, or an integer past 64 bits
        raise BaccaraError(f"{shown(path)}: not a round record ({error})") from None


MAX_INTEGER_DIGITS = 20
"""A record's integers fit in 64 bits; a longer one is refused before it is built."""


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise ValueError(f"an integer of {len(text):,} digits, past 64 bits")
    return int(text)


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")
