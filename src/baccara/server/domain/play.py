"""The round's moments that are not bets: the peek, the choice, and the live dealer's work.

Each checks who is asking before the engine does: the peek and the choice belong to
the highest bettor (a 403 for anyone else), the cards, the call for no more bets, a
void and the surveillance panel to a dealer (or, for the panel and voids, an admin).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from baccara.errors import BaccaraError, InvalidCards
from baccara.server.domain import audit
from baccara.table import Mode, Phase, Round
from baccara.table.round import RoundError

if TYPE_CHECKING:
    from baccara.server.domain.types import Caller, Live

MAX_ENTRIES = 64
"""Cards (tiles, dice) in one request: more than any round can take."""


def _forbidden(message: str) -> BaccaraError:
    from baccara.server.errors import Forbidden

    return Forbidden(message)


def current_round(live: Live, round_id: int) -> Round:
    """The round in play, if ``round_id`` is it."""
    from baccara.server.errors import NotFound

    if live.round_id != round_id or live.table.round is None:
        raise NotFound(f"round {round_id} is not in play at table {live.table_id}")
    return live.table.round


def require_dealer(user: Caller, live: Live, admin_too: bool = False) -> None:
    allowed = ("dealer", "admin") if admin_too else ("dealer",)
    if user.role not in allowed:
        raise _forbidden(f"only a {' or an '.join(allowed)} may do this")
    if live.table.config.mode is not Mode.LIVE and not admin_too:
        raise _forbidden("an electronic table has no dealer: the engine deals")


def peek(live: Live, user: Caller, round_id: int, session: Session, now: float) -> dict[str, Any]:
    """The highest bettor's look at the hand they backed, during the peek window only."""
    round_ = current_round(live, round_id)
    if round_.phase is not Phase.PEEK or round_.peek is None:
        raise RoundError("there is no peek now")
    if round_.peek.player != user.username:
        raise _forbidden("only the highest bettor may peek")
    (event,) = round_.peek_cards(user.username, now)
    return {"hand": event.hand, "cards": list(event.cards)}  # type: ignore[attr-defined]


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
    require_dealer(user, live)
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
    require_dealer(user, live)
    live.table.current().close_betting(user.username, now)
    audit.record(session, user.username, user.role, "betting-closed", f"table {live.table_id}",
                 "", now, round=live.round_id)  # fmt: skip
    return live.table.current().phase.value


def void(live: Live, user: Caller, round_id: int, reason: str, session: Session, now: float) -> str:
    require_dealer(user, live, admin_too=True)
    round_ = current_round(live, round_id)
    round_.void(user.username, reason, now)
    audit.record(session, user.username, user.role, "round-voided", f"round {round_id}",
                 reason, now, table=live.table_id)  # fmt: skip
    return round_.phase.value


def shoe(live: Live, user: Caller) -> dict[str, Any]:
    require_dealer(user, live, admin_too=True)
    return live.table.shoe_report().to_dict()
