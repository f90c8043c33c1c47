"""The back office (admins): the audit trail and wallets."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Query
from fastapi.concurrency import run_in_threadpool
from pydantic import Field, StrictInt, StrictStr

from baccara.errors import BaccaraError
from baccara.server.db import ledger, store
from baccara.server.domain import audit
from baccara.server.errors import (
    AuthError,
    Forbidden,
    InsufficientFunds,
    InvalidRequest,
    NotFound,
    OwnWallet,
)
from baccara.server.http.api.answers.backoffice import AuditEntryOut, WalletOut
from baccara.server.http.api.deps import AdminDep, CasinoDep
from baccara.server.http.api.errors import BAD_BODY, refusals
from baccara.server.http.api.schemas import MAX_ID, Strict, Username

router = APIRouter(tags=["admin"])


class AdjustIn(Strict):
    amount_cents: StrictInt = Field(ge=-(10**12), le=10**12)
    reason: StrictStr = Field(min_length=3, max_length=500)


@router.get("/api/admin/audit", response_model=list[AuditEntryOut],
            responses=refusals(AuthError, Forbidden, InvalidRequest))  # fmt: skip
def audit_log(
    admin: AdminDep, casino: CasinoDep, limit: int = Query(100, ge=1, le=1000),
    before: int | None = Query(None, ge=1, le=MAX_ID, description="Only entries older"
                                " than this id (the last id of the page before)"),
) -> list[dict[str, Any]]:  # fmt: skip
    """Every admin and dealer action, newest first."""
    with casino.db.read() as session:
        return audit.entries(session, limit, before)


@router.post(
    "/api/admin/wallets/{username}/adjust",
    response_model=WalletOut,
    responses=refusals(AuthError, Forbidden, OwnWallet, NotFound, InsufficientFunds, BaccaraError,
                       *BAD_BODY),
)  # fmt: skip
async def adjust(
    username: Username, body: AdjustIn, admin: AdminDep, casino: CasinoDep
) -> WalletOut:
    """Credit (positive) or debit (negative) a wallet, with a reason, through the ledger:
    another user's, never the admin's own (403 ``own_wallet``)."""
    if body.amount_cents == 0:
        raise BaccaraError("amount_cents: a credit or a debit, not 0")

    def write() -> tuple[int, int]:
        with casino.db.write() as session:
            now = casino.clock()
            user = store.user_named(session, username)
            if user.id == admin.id:
                raise OwnWallet("an admin adjusts other users' wallets, never their own")
            wallet = store.wallet(session, user.id)
            _, after = ledger.transfer(session, f"adjust:{uuid.uuid4().hex}", "adjust",
                            [(ledger.deposits(session), -body.amount_cents),
                             (wallet, body.amount_cents)], now)  # fmt: skip
            action = "wallet-credited" if body.amount_cents > 0 else "wallet-debited"
            audit.record(session, admin.username, admin.role, action, f"user {username}",
                         body.reason, now, amount_cents=body.amount_cents,
                         balance_cents=after[wallet.id])  # fmt: skip
            return user.id, after[wallet.id]

    user_id, balance = await run_in_threadpool(write)
    await casino.tell_users({user_id: {"type": "balance", "balance_cents": balance}})
    return WalletOut(username=username, balance_cents=balance)
