"""The audit trail: every admin and dealer action, with who and why, append-only.

The database refuses to change or delete an entry (triggers, as for the ledger), so
the trail is the operator's evidence for a regulator: tables opened and closed,
wallets credited and debited, rounds voided, cards entered at a live table.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from baccara.server.db.models import AuditEntry


def record(
    session: Session, actor: str, role: str, action: str, target: str, reason: str,
    now: float, **details: Any,
) -> None:  # fmt: skip
    session.add(AuditEntry(at=now, actor=actor, role=role, action=action, target=target,
                           reason=reason, details=json.dumps(details, sort_keys=True)))  # fmt: skip


def entries(session: Session, limit: int, before: int | None = None) -> list[dict[str, Any]]:
    """The newest entries first (``before``: only those older than that id)."""
    query = select(AuditEntry).order_by(AuditEntry.id.desc()).limit(limit)
    if before is not None:
        query = query.where(AuditEntry.id < before)
    return [
        {
            "id": row.id,
            "at": row.at,
            "actor": row.actor,
            "role": row.role,
            "action": row.action,
            "target": row.target,
            "reason": row.reason,
            "details": json.loads(row.details),
        }
        for row in session.scalars(query)
    ]
