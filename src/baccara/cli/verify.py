"""``baccara verify ROUND.json``: re-deal a round from its revealed seeds, card by card,
and settle it again to check every payout.

The record is untrusted: it is read only if it is a regular file of at most
:data:`MAX_RECORD_BYTES`, parsed as strict JSON (no ``NaN``, no nesting past the
parser's depth, no integer past Python's digit limit), and every field is checked by
:func:`baccara.table.record.verify_record` before a card is re-dealt.
"""

from __future__ import annotations

import json
import pathlib
from typing import TYPE_CHECKING, Annotated, Any

import typer

from baccara.errors import BaccaraError, shown
from baccara.options import plural
from baccara.render.text import printable

if TYPE_CHECKING:
    from baccara.table.resettle import SettlementCheck

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
    """Re-deal a settled round by the provably-fair protocol and compare every card, then
    settle it again from those cards and its rules and compare the call and every payout.

    A live round, dealt by hand, has no seeds: its cards are checked against the order
    the rules deal them in, then settled again the same way. Exit status 0 when the
    server seed matches its commitment, every card matches and so does the settlement,
    1 when anything differs, 2 when the record cannot be read.
    """
    from baccara.render.playthrough import item_text, position_text
    from baccara.table.record import NOT_LOGGED, verify_record

    result = verify_record(read_record(str(record)))
    if result.live:
        typer.echo(f"{result.game} · round {result.nonce} · live: dealt by hand, no seeds")
        for card in result.cards:
            typer.echo(f"  {position_text(card.position):<22} dealt  {item_text(card.logged)}")
        if result.dealing is None:
            typer.echo(f"the {plural(len(result.cards), 'card')} are dealt in the order the rules"
                       " deal them")  # fmt: skip
        else:
            typer.echo(f"the cards are NOT what the rules deal: {printable(result.dealing)}")
    else:
        typer.echo(f"{result.game} · round {result.nonce} · client seed {result.client_seed!r}")
        verdict = "matches" if result.hash_matches else "DOES NOT MATCH"
        typer.echo(f"server seed against its SHA-256 commitment: {verdict}")
        voided = result.settlement.voided is not None
        for card in result.cards:
            mark = "ok" if card.matches else "DIFFERS"
            if voided and card.logged == NOT_LOGGED:
                mark = "never dealt: the round was voided"
            dealt = item_text(card.dealt) if card.dealt is not None else "(not dealt)"
            logged = card.logged if card.logged == NOT_LOGGED else item_text(card.logged)
            typer.echo(
                f"  {position_text(card.position):<22} logged {logged:<5} re-dealt {dealt:<5} {mark}"
            )
        if result.cards_ok:
            count = sum(card.logged != NOT_LOGGED for card in result.cards)
            typer.echo(f"every one of the {count} cards matches the re-deal"
                       if not voided else f"each of the {count} cards dealt before the void"
                       " matches the re-deal")  # fmt: skip
    for line in settlement_lines(result.settlement):
        typer.echo(line)
    if result.ok:
        return
    if not result.cards_ok:
        typer.echo("the round does NOT match its seeds" if not result.live
                   else "the round's cards do NOT follow the rules")  # fmt: skip
    raise typer.Exit(1)


def settlement_lines(check: SettlementCheck) -> list[str]:
    """The settlement done again: one line when it matches the record, else each difference
    (which bet, which field, what the record says and what the rules give)."""
    bets = plural(check.bets, "bet")
    if check.refused is not None:
        return [f"the settlement CANNOT be done again: {printable(check.refused)}"]
    if check.ok:
        if check.voided is not None:
            return [f"the settlement matches: the round was voided and each of its {bets}"
                    " refunded in full"]  # fmt: skip
        return [f"the settlement matches: {bets}, the call and every payout"]
    lines = [
        f"  {printable(d.what)}: {printable(d.field)} recorded {printable(shown(d.recorded))},"
        f" recomputed {printable(shown(d.recomputed))}"
        for d in check.differences
    ]
    count = plural(len(check.differences), "difference")
    return [f"the settlement DIFFERS from the record ({count}):", *lines]


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
