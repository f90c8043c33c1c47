"""The round's moments that are not bets: the peek, the choice, and the live dealer's work.

Each checks who is asking before the engine does: the peek and the choice belong to
the highest bettor (a 403 for anyone else), the cards, the call for no more bets, a
void and the surveillance panel to a dealer assigned to the table (or, for the panel
and voids, an admin).

A void is a live table's remedy for a misdeal, and always has a reason. An electronic
round is never voided once betting has closed: its cards are fixed by its seeds from
that moment, so a void then could only undo a result someone has seen — the peek at
RedGreen shows the highest bettor a hand — and a peeker and a staff member together
would void the hands they lose. Whatever goes wrong after betting closes, the round is
played out from its seeds, as crash recovery plays it out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from baccara.errors import BaccaraError, InvalidCards
from baccara.server.domain import audit, dealers
from baccara.server.errors import Forbidden, NotFound, VoidRefused
from baccara.table import Mode, Phase, Round
from baccara.table.round import RoundError

if TYPE_CHECKING:
    from baccara.server.domain.types import Caller, Live

MAX_ENTRIES = 64
"""Cards (tiles, dice) in one request: more than any round can take."""
MIN_REASON, MAX_REASON = 3, 500
"""A void's reason, in characters: words a manager can read, not a blank."""


def _forbidden(message: str) -> BaccaraError:
    return Forbidden(message)


def current_round(live: Live, round_id: int) -> Round:
    """The round in play, if ``round_id`` is it."""
    if live.round_id != round_id or live.table.round is None:
        raise NotFound(f"round {round_id} is not in play at table {live.table_id}")
    return live.table.round


def require_staff(user: Caller, live: Live, admin_too: bool = False) -> None:
    """A dealer (or, ``admin_too``, an admin); without ``admin_too``, at a live table."""
    allowed = ("dealer", "admin") if admin_too else ("dealer",)
    if user.role not in allowed:
        raise _forbidden(f"only a {' or an '.join(allowed)} may do this")
    if live.table.config.mode is not Mode.LIVE and not admin_too:
        raise _forbidden("an electronic table has no dealer: the engine deals")


def require_dealer(user: Caller, live: Live, session: Session, admin_too: bool = False) -> None:
    """As :func:`require_staff`, and a dealer must be assigned to the table by an admin."""
    require_staff(user, live, admin_too)
    dealers.require_assigned(session, user, live.table_id)


def peek(live: Live, user: Caller, round_id: int, session: Session, now: float) -> dict[str, Any]:
    """The highest bettor's look at the hand they backed, during the peek window only."""
    round_ = current_round(live, round_id)
    if round_.phase is not Phase.PEEK or round_.peek is None:
        raise RoundError("there is no peek now")
    if round_.peek.player != user.username:
        raise _forbidden("only the highest bettor may peek")
    round_.peek_cards(user.username, now)  # a second look logs nothing: the same cards
    assert round_.peeked is not None
    return {"hand": round_.peeked.hand, "cards": list(round_.peeked.cards)}


def end_peek(live: Live, user: Caller, round_id: int, session: Session, now: float) -> str:
    round_ = current_round(live, round_id)
    if round_.peek is not None and round_.peek.player != user.username:
        raise _forbidden("only the highest bettor may hand the cards back")
    round_.end_peek(user.username, now)
    return round_.phase.value


def choose(live: Live, user: Caller, round_id: int, hand: str, session: Session, now: float) -> str:
    round_ = current_round(live, round_id)
    chooser = round_.choice.player if round_.choice is not None else None
    if round_.phase is Phase.CHOOSING and chooser != user.username:
        raise _forbidden("only the highest bettor chooses which hand is set first")
    round_.choose(user.username, hand, now)
    return round_.phase.value


def needs(live: Live) -> list[dict[str, str]]:
    round_ = live.table.round
    if round_ is None:
        return []
    return [{"position": p, "kind": round_.procedure.item(p).value} for p in round_.needs()]


def enter(live: Live, user: Caller, cards: list[Any], dice: list[Any], session: Session,
          now: float) -> dict[str, Any]:  # fmt: skip
    """A dealer's cards (or tiles), then dice, in dealing order — all of them or none."""
    require_dealer(user, live, session)
    round_ = live.table.current()
    entries = [*cards, *dice]
    if not entries:
        raise InvalidCards('send the cards dealt, e.g. {"cards": ["9S", "KD"]}')
    if len(entries) > MAX_ENTRIES:
        raise InvalidCards(f"at most {MAX_ENTRIES} cards in one request")
    if round_.phase is Phase.BETTING:
        raise RoundError("betting is still open: call no more bets first")
    for number, item in enumerate(entries, start=1):
        if round_.phase is not Phase.DEALING:
            raise InvalidCards(f"card {number} of {len(entries)} is one too many: the rules"
                               " need no more cards")  # fmt: skip
        position = round_.needs()[0]
        kind = round_.procedure.item(position).value
        if (number <= len(cards)) == (kind == "die"):
            wanted = 'a die under "dice"' if kind == "die" else f'a {kind} under "cards"'
            raise InvalidCards(f"{position} needs {wanted}")
        try:
            round_.enter_card(user.username, item, now)
        except BaccaraError as error:
            raise InvalidCards(f"entry {number} ({item!r}) for {position}: {error}") from None
    audit.record(session, user.username, user.role, "cards-entered", f"table {live.table_id}",
                 "", now, round=live.round_id, entries=[str(e) for e in entries])  # fmt: skip
    return {"state": round_.phase.value, "needs": needs(live)}


def close_betting(live: Live, user: Caller, session: Session, now: float) -> str:
    require_dealer(user, live, session)
    live.table.current().close_betting(user.username, now)
    audit.record(session, user.username, user.role, "betting-closed", f"table {live.table_id}",
                 "", now, round=live.round_id)  # fmt: skip
    return live.table.current().phase.value


def check_reason(reason: object) -> str:
    """A void's reason, trimmed: :data:`MIN_REASON` to :data:`MAX_REASON` characters."""
    text = reason.strip() if isinstance(reason, str) else ""
    if not MIN_REASON <= len(text) <= MAX_REASON:
        raise BaccaraError(f"reason: say why the round is voided, in {MIN_REASON} to"
                           f" {MAX_REASON} characters; it goes into the audit trail")  # fmt: skip
    return text


def void(live: Live, user: Caller, round_id: int, reason: str, session: Session, now: float) -> str:
    """Void the round and refund every bet: at a live table with a reason, by its dealer
    or an admin; at an electronic table only while betting is open (see the module)."""
    require_dealer(user, live, session, admin_too=True)
    round_ = current_round(live, round_id)
    if not live.live_mode and round_.phase is not Phase.BETTING and not round_.phase.over:
        raise VoidRefused(f"round {round_id} is {round_.phase.value}: at an electronic table"
                          " the seeds fix the cards once betting closes, so the round is"
                          " played out, never voided")  # fmt: skip
    text = check_reason(reason)
    was = round_.phase.value
    staked = sum(wager.amount for wager in round_.wagers.values())
    round_.void(user.username, text, now)
    audit.record(session, user.username, user.role, "round-voided", f"round {round_id}",
                 text, now, table=live.table_id, phase=was, stakes_cents=staked)  # fmt: skip
    return round_.phase.value


def shoe(live: Live, user: Caller, session: Session) -> dict[str, Any]:
    require_dealer(user, live, session, admin_too=True)
    return live.table.shoe_report().to_dict()
