"""Every error the server raises, each with the HTTP status and the code its answer carries.

A refusal is answered ``{"error": code, "detail": str(error)}`` with :attr:`ServerError.status`,
and ``"params"`` too when the error has figures for a client to word it by (its ``params``)
(see ``http/api/errors.py``). The errors of the lower layers (a bet off the table's step, a
round not ready for an action, an invalid option) are given theirs in :data:`STATUS`.
Every one is raised before anything is committed, so a refusal changes nothing.

The answers the HTTP layers write themselves — a body over the bound, a request that
does not match its schema, a path with no route, the database lost under a request —
are classes here too, so that every code a client can read is named in this one
module, with its status, and each route's OpenAPI ``responses`` are built from them.
"""

from __future__ import annotations

from typing import ClassVar

from baccara.errors import BaccaraError, InvalidBet, InvalidCards, InvalidOption, UnknownGame
from baccara.table import (
    LeavesTooLittle,
    NoMoreBets,
    OffStep,
    OverLimit,
    RoundError,
    SeatError,
    TooManyBets,
    UnderLimit,
)


class ServerError(BaccaraError):
    """A refusal of the server's own: its status and code are class attributes."""

    status: ClassVar[int] = 400
    code: ClassVar[str] = "bad_request"

    def __init__(
        self,
        *args: object,
        retry_after: float | None = None,
        params: dict[str, int | str | None] | None = None,
    ) -> None:
        super().__init__(*args)
        self.retry_after = retry_after
        if params is not None:  # the figures the refusal names, for a client to word it
            self.params = params
        """Seconds after which trying again can succeed (the answer's Retry-After), if
        the refusal knows: a limit says when it lets the next attempt in."""


class AuthError(ServerError):
    """A missing, expired or forged token, or a wrong password."""

    status, code = 401, "unauthorized"


class InvalidCredentials(ServerError):
    """A username or password that cannot be used: too short, odd characters."""

    status, code = 400, "invalid_credentials"


class TooManyAttempts(ServerError):
    """Too many failed sign-ins: wait before trying again (Retry-After)."""

    status, code = 429, "too_many_attempts"


class TooManySignUps(ServerError):
    """As many new accounts from this address as an hour, or a day, allows (Retry-After)."""

    status, code = 429, "too_many_sign_ups"


class PasswordsBusy(ServerError):
    """Every password check the server runs at once is taken, and as many wait: try
    again in a moment (503, Retry-After)."""

    status, code = 503, "busy"


class TooManyPasswordChecks(ServerError):
    """This client (an address, or a user changing their password) already has as many
    passwords being checked as one may: try again once they are answered (429,
    Retry-After). Everyone else's are still checked."""

    status, code = 429, "too_many_password_checks"


class TooManySockets(ServerError):
    """A user already holds as many table sockets as one user may: close one first."""

    status, code = 429, "too_many_sockets"


class Forbidden(ServerError):
    """The user may not do this: another player's turn, or a role they do not have."""

    status, code = 403, "forbidden"


class NotAssigned(Forbidden):
    """A dealer at a table an admin has not assigned them to: they act only at their own."""

    status, code = 403, "not_assigned"


class StaffCannotPlay(Forbidden):
    """Only players sit and bet: a dealer or an admin who played could deal, void or credit
    their own stakes, so the casino refuses them a seat and a bet at every table."""

    status, code = 403, "staff_cannot_play"


class OwnWallet(Forbidden):
    """An admin adjusts other users' wallets, never their own: a credit to oneself is
    money taken from the house with no second person to see it."""

    status, code = 403, "own_wallet"


class VoidRefused(ServerError):
    """A void no one may make: an electronic round past betting, whose cards its seeds fix,
    is played out from them, never voided."""

    status, code = 409, "void_refused"


class RoundInPlay(ServerError):
    """A live table whose dealer is dealing a round: it closes once the round is settled
    or voided with a reason."""

    status, code = 409, "round_in_play"


class NotFound(ServerError):
    """No such user, table, round or bet — or not one this user may see."""

    status, code = 404, "not_found"


class UsernameTaken(ServerError):
    """Another user has this name."""

    status, code = 409, "username_taken"


class IdempotencyConflict(ServerError):
    """The same Idempotency-Key was sent with a different request."""

    status, code = 409, "idempotency_conflict"


class InsufficientFunds(ServerError):
    """A wallet (or a table's stakes) that does not hold the amount asked of it."""

    status, code = 400, "insufficient_funds"


class Excluded(ServerError):
    """The player has excluded themselves from play until a date."""

    status, code = 403, "self_excluded"


class LossLimitReached(ServerError):
    """The bet could take the period's net loss past the player's limit."""

    status, code = 409, "loss_limit"


class RealityCheckDue(ServerError):
    """The player must answer the reality check before betting on."""

    status, code = 409, "reality_check"


class ConfirmationNeeded(ServerError):
    """A change the player cannot quickly undo (a 0.00 loss limit) waits for them to confirm it."""

    status, code = 409, "confirm"


class TableMoved(ServerError):
    """The table is changing hands between server processes: try again in a moment (503)."""

    status, code = 503, "table_moving"


class LeaseLost(TableMoved):
    """This process no longer deals the table: another took it over (503, try again).

    A kind of :class:`TableMoved`, with its status and code: to the client it is the same
    moment, the table changing hands."""


class BodyTooLarge(ServerError):
    """The request body is over the bound a request may have (the Guard's)."""

    status, code = 413, "too_large"


class HeadersTooLarge(ServerError):
    """The request's head (its request line and headers) is over the bound a head may
    have: refused as it arrives, before the rest is read (see ``http/transport.py``)."""

    status, code = 431, "headers_too_large"


class URLTooLong(ServerError):
    """The request's URL is over the bound a request line may have."""

    status, code = 414, "url_too_long"


class RequestTimeout(ServerError):
    """The request's head, or its body, did not arrive within the time a client has to
    send it."""

    status, code = 408, "request_timeout"


class InvalidRequest(ServerError):
    """The request does not match its schema: the detail names each field that is wrong."""

    status, code = 422, "invalid_request"


class HTTPRefusal(ServerError):
    """The protocol's own refusals, with their status: no route for the path (404), or
    not with this method (405)."""

    status, code = 404, "http"


class UnreadableBody(HTTPRefusal):
    """A body that cannot be read as the JSON it says it is."""

    status = 400


class MalformedRequest(HTTPRefusal):
    """Bytes that are not an HTTP/1.1 request: answered by the server before any route."""

    status = 400


class InternalError(ServerError):
    """A fault of the casino's, not of the request: answered in the one error shape, with the
    security headers, while its traceback goes to the log."""

    status, code = 500, "internal"


class DatabaseLost(ServerError):
    """The connection to the database was lost during the request: retry (Retry-After)."""

    status, code = 503, "unavailable"


class SingleProcessDatabase(ServerError):
    """A second server process on an SQLite database (it refuses to start).

    This and :class:`DatabaseUnavailable` stop a process starting and are never an answer
    to a request; their status and code name them in the log as any error's do."""

    status, code = 500, "single_process_database"


class DatabaseUnavailable(ServerError):
    """``DATABASE_URL`` names no database baccara can use, or the database cannot be opened."""

    status, code = 503, "database_unavailable"


STATUS: tuple[tuple[type[BaccaraError], int, str], ...] = (
    (SeatError, 409, "seat"),
    (NoMoreBets, 409, "no_more_bets"),
    (RoundError, 409, "not_now"),
    (OffStep, 400, "bet_step"),
    (OverLimit, 400, "over_limit"),
    (UnderLimit, 400, "under_limit"),
    (LeavesTooLittle, 400, "under_minimum"),
    (TooManyBets, 400, "too_many_bets"),
    (InvalidBet, 400, "invalid_bet"),
    (InvalidCards, 400, "invalid_cards"),
    (InvalidOption, 400, "invalid_option"),
    (UnknownGame, 400, "unknown_game"),
    (BaccaraError, 400, "bad_request"),
)
"""The lower layers' errors: the first class an error is an instance of decides its status."""


def status_of(error: BaccaraError) -> tuple[int, str]:
    """The HTTP status and code that answer ``error``."""
    return answer_of(type(error))


def answer_of(kind: type[BaccaraError]) -> tuple[int, str]:
    """The HTTP status and code that answer an error of class ``kind``."""
    if issubclass(kind, ServerError):
        return kind.status, kind.code
    for cls, status, code in STATUS:
        if issubclass(kind, cls):
            return status, code
    raise AssertionError("BaccaraError is in STATUS")
