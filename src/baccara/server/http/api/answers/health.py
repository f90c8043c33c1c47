"""The operators' checks: the process answers (liveness), it can take bets (readiness)."""

from __future__ import annotations

from baccara.server.http.api.answers import Answer


class HealthOut(Answer):
    """The process answers (liveness): its tables dealt here."""

    status: str
    tables: int


class CheckOut(Answer):
    """One readiness check: its name (``database``, ``migrations``, ``tables``,
    ``tasks``), whether it passed, and why in words. The endpoint is public: the detail
    names migration revisions and table ids only for an admin; anyone else gets counts."""

    name: str
    ok: bool
    detail: str


class ReadinessOut(Answer):
    """Whether this process can take bets, and each check behind the answer."""

    ready: bool
    checks: list[CheckOut]
