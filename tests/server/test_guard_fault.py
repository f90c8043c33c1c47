"""A bug answers as every refusal does: the one error shape, with the security headers.

Starlette's error middleware writes a fault's answer outside every other layer, the
Guard's included, so a 500 went out as plain text with none of the casino's headers.
"""

from __future__ import annotations

import pytest

from baccara.server.app import create_app
from baccara.server.http.guard import SECURED
from tests.server.api_session import TestClient
from tests.server.conftest import settings_for


def test_a_fault_is_answered_in_the_error_shape_with_the_security_headers(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(settings_for(sqlite_url))

    def broken() -> list[object]:
        raise RuntimeError("a bug the log must show, the client never")

    with TestClient(app, raise_server_exceptions=False) as client:
        monkeypatch.setattr(app.state.casino, "list_tables", broken)
        answer = client.get("/api/tables")
    assert answer.status_code == 500
    assert answer.json() == {"error": "internal",
                             "detail": "the casino could not answer this request; the fault"
                                       " is logged"}  # fmt: skip
    assert "a bug" not in answer.text
    for name, value in SECURED:
        assert answer.headers.get_list(name.decode()) == [value.decode()]
