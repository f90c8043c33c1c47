"""A player's preferences (sound, volume, language) through the API: kept per player,
changed in any subset, and every bad value refused in the casino's error shape with
nothing changed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.harness import Server

DEFAULTS = {"sound": False, "volume": 60, "language": None}


def test_preferences_start_at_the_defaults_and_change_in_any_subset(server: Server) -> None:
    ann, bob = server.player(), server.player()
    assert ann.http.get("/api/me/preferences").json() == DEFAULTS
    changed = ann.http.put("/api/me/preferences", json={"sound": True})
    assert changed.status_code == 200
    assert changed.json() == {"sound": True, "volume": 60, "language": None}
    ann.http.put("/api/me/preferences", json={"volume": 0, "language": "zh-Hant"})
    ann.http.put("/api/me/preferences", json={})
    assert ann.http.get("/api/me/preferences").json() == {
        "sound": True, "volume": 0, "language": "zh-Hant"}  # fmt: skip
    ann.http.put("/api/me/preferences", json={"language": None, "volume": 100})
    ann.sign_in_again()  # kept by the casino, not by the token
    assert ann.http.get("/api/me/preferences").json() == {
        "sound": True, "volume": 100, "language": None}  # fmt: skip
    assert bob.http.get("/api/me/preferences").json() == DEFAULTS  # each player's own


BAD: list[tuple[Any, str]] = [
    ({"volume": -1}, "volume"),
    ({"volume": 101}, "volume"),
    ({"volume": 60.5}, "volume"),
    ({"volume": "60"}, "volume"),
    ({"volume": True}, "volume"),
    ({"volume": None}, "volume"),
    ({"volume": 10**30}, "volume"),
    ({"sound": "yes"}, "sound"),
    ({"sound": 1}, "sound"),
    ({"sound": None}, "sound"),
    ({"language": "fr"}, "language"),
    ({"language": ""}, "language"),
    ({"language": "EN"}, "language"),
    ({"language": 5}, "language"),
    ({"sound": True, "theme": "dark"}, "theme"),
    ({"sound": True, "volume": 500}, "volume"),  # a good value beside a bad one: neither
    ([{"sound": True}], "dictionary"),
    ("loud", "dictionary"),
]


@pytest.mark.parametrize(("body", "field"), BAD)
def test_a_bad_preference_is_refused_and_changes_nothing(
    sqlite_server: Server, body: Any, field: str
) -> None:
    ann = sqlite_server.player()
    kept = {"sound": False, "volume": 35, "language": "en"}
    assert ann.http.put("/api/me/preferences", json=kept).status_code == 200
    refused = ann.http.put("/api/me/preferences", json=body)
    assert refused.status_code == 422
    assert refused.json()["error"] == "invalid_request"
    assert field in refused.json()["detail"]
    assert ann.http.get("/api/me/preferences").json() == kept


def test_unreadable_json_and_no_token_are_refused(sqlite_server: Server) -> None:
    ann = sqlite_server.player()
    broken = ann.http.put("/api/me/preferences", content=b'{"sound": tru',
                          headers={"Content-Type": "application/json"})  # fmt: skip
    assert broken.status_code in (400, 422) and isinstance(broken.json()["error"], str)
    anonymous = sqlite_server.client()
    for answer in (anonymous.get("/api/me/preferences"),
                   anonymous.put("/api/me/preferences", json={"sound": True})):  # fmt: skip
        assert answer.status_code == 401 and answer.json()["error"] == "unauthorized"
    assert ann.http.get("/api/me/preferences").json() == DEFAULTS
