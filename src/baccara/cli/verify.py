"""``baccara verify ROUND.json``: re-deal a round from its revealed seeds, card by card."""

from __future__ import annotations

import json
import pathlib
from typing import Annotated

import typer

from baccara.errors import BaccaraError

MAX_RECORD_BYTES = 4_000_000
"""A round record is a few kilobytes; nothing larger is read."""


def verify(
    record: Annotated[
        pathlib.Path, typer.Argument(help="A round record (baccara deal --json, or the server's).")
    ],
) -> None:
    """Re-deal a settled round by the provably-fair protocol and compare every card.

    Exit status 0 when the seed matches its commitment and every card matches, 1 when
    anything differs, 2 when the record cannot be read.
    """
    from baccara.render.playthrough import item_text, position_text
    from baccara.table.record import verify_record

    if not record.is_file():
        raise BaccaraError(f"no round record at {str(record)!r} (a regular file is expected)")
    with record.open("rb") as handle:
        raw = handle.read(MAX_RECORD_BYTES + 1)
    if len(raw) > MAX_RECORD_BYTES:
        raise BaccaraError(f"{record}: over {MAX_RECORD_BYTES:,} bytes, not a round record")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BaccaraError(f"{record}: not JSON ({error})") from None
    result = verify_record(data)
    typer.echo(f"{result.game} · round {result.nonce} · client seed {result.client_seed!r}")
    verdict = "matches" if result.hash_matches else "DOES NOT MATCH"
    typer.echo(f"server seed against its SHA-256 commitment: {verdict}")
    for card in result.cards:
        mark = "ok" if card.matches else "DIFFERS"
        dealt = item_text(card.dealt) if card.dealt is not None else "(not dealt)"
        logged = card.logged if card.logged.startswith("(") else item_text(card.logged)
        typer.echo(
            f"  {position_text(card.position):<22} logged {logged:<5} re-dealt {dealt:<5} {mark}"
        )
    if result.ok:
        typer.echo(f"every one of the {len(result.cards)} cards matches the re-deal")
        return
    typer.echo("the round does NOT match its seeds")
    raise typer.Exit(1)
