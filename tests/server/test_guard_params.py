"""Every parameter a client sends is bounded and validated: an integer past the database's
64 bits, an id past its 32-bit column, a number that is not finite, text longer than anything the casino keeps — each is
a 422 in the casino's one error shape, naming the parameter, and never a 500 or an answer
made of it.

The sweep reads the routes and their parameters from the casino's own OpenAPI schema, so
a route added later is swept too.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from baccara.server.app import create_app
from baccara.server.http.api.schemas import MAX_ID
from baccara.server.settings import Settings
from tests.server.conftest import settings_for
from tests.server.harness import Player, Server, in_process

SCHEMA = create_app(Settings(database_url="sqlite://")).openapi()
NOT_INTEGERS = ["9223372036854775808", "-9223372036854775809", "99999999999999999999999999",
                "-1", "0", "nan", "inf", "-inf", "1e309", "1.5", ""]  # fmt: skip
"""What no integer parameter takes: past 64 bits either way, below every minimum, no integer."""
NOT_MOMENTS = ["nan", "NaN", "inf", "-inf", "1e309", "-1", "-1e300", "1e300", "253402300800",
               "9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59", "yesterday",
               "2026-13-01"]  # fmt: skip
"""What ``from`` and ``to`` do not take: no date, no number of seconds, or none from 1970 to
9999."""


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    url = f"sqlite:///{tmp_path_factory.mktemp('params') / 'casino.db'}"
    with in_process(settings_for(url)) as started:
        yield started


@pytest.fixture(scope="module")
def boss(shared: Server) -> Player:
    """An admin: every route's own checks of who may call it pass, so what answers is the
    check of its parameters."""
    return shared.player("boss", role="admin")


def _parameters(kind: str) -> list[tuple[str, str, str, str, dict[str, Any]]]:
    """(method, path, where, name, schema) of every parameter whose type is ``kind``."""
    found = []
    for path, operations in SCHEMA["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                schema = parameter["schema"]
                types = [s.get("type") for s in schema.get("anyOf", [schema])]
                if kind in types and parameter["in"] in ("path", "query"):
                    found.append((method, path, parameter["in"], parameter["name"],
                                  next(s for s in schema.get("anyOf", [schema])
                                       if s.get("type") == kind)))  # fmt: skip
    return found


def _call(player: Player, method: str, path: str, where: str, name: str, value: str) -> Any:
    filled = {"table_id": "1", "round_id": "1", "username": player.name, "bet_id": "b"}
    query = {}
    if where == "path":
        filled[name] = value
    else:
        query[name] = value
    url = path.format(**filled)
    return player.http.request(method.upper(), url, params=query, json={},
                               headers={"Idempotency-Key": "params"})  # fmt: skip


def test_an_audit_page_past_the_ids_is_refused(boss: Player) -> None:
    answer = boss.http.get("/api/admin/audit", params={"before": str(MAX_ID + 1)})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == "invalid_request"
    assert "query.before" in answer.json()["detail"]


def test_a_report_from_nan_is_refused(boss: Player) -> None:
    answer = boss.http.get("/api/admin/report", params={"from": "nan"})
    assert answer.status_code == 422, answer.text
    assert answer.json() == {"error": "invalid_request", "detail": answer.json()["detail"]}
    assert "query.from" in answer.json()["detail"]


def _is_id(name: str) -> bool:
    """Whether a parameter names a row by its id: ``*_id``, or a cursor of ids to page by."""
    return name == "id" or name.endswith("_id") or name in ("before", "after", "cursor")


INTEGERS = _parameters("integer")
STRINGS = [p for p in _parameters("string") if "maxLength" in p[4]]


def test_the_sweep_finds_the_parameters() -> None:
    names = {(path, name) for _, path, _, name, _ in INTEGERS}
    assert {("/api/admin/audit", "before"), ("/api/rounds/{round_id}", "round_id"),
            ("/api/me/history", "limit")} <= names  # fmt: skip
    assert len(INTEGERS) >= 20
    assert {name for *_, name, _ in INTEGERS if _is_id(name)} >= {"table_id", "round_id", "before"}
    assert {name for *_, name, _ in STRINGS} >= {"username", "bet_id", "from", "to"}
    unbounded = [(path, name) for _, path, where, name, schema in _parameters("string")
                 if "maxLength" not in schema and where in ("path", "query")]  # fmt: skip
    assert unbounded == []


@pytest.mark.parametrize(("method", "path", "where", "name", "schema"), INTEGERS,
                         ids=[f"{m} {p} {n}" for m, p, _, n, _ in INTEGERS])  # fmt: skip
def test_every_integer_parameter_is_bounded(
    boss: Player, method: str, path: str, where: str, name: str, schema: dict[str, Any]
) -> None:
    assert schema.get("maximum", 2**63) <= 2**63 - 1 and schema.get("minimum", -1) >= 0
    refused = list(NOT_INTEGERS)
    if _is_id(name):  # an id, or a cursor of ids: no larger than the ids' 32-bit columns
        assert schema["maximum"] <= MAX_ID, schema
        refused.append(str(MAX_ID + 1))
    for value in refused:
        if (value == "0" and schema.get("minimum", 1) <= 0) or (value == "" and where == "path"):
            continue  # a path with nothing in it is another path
        answer = _call(boss, method, path, where, name, value)
        assert answer.status_code == 422, (value, answer.text)
        body = answer.json()
        assert set(body) == {"error", "detail"} and body["error"] == "invalid_request"
        assert f"{where}.{name}" in body["detail"], (value, body)


@pytest.mark.parametrize(("method", "path", "where", "name", "schema"), STRINGS,
                         ids=[f"{m} {p} {n}" for m, p, _, n, _ in STRINGS])  # fmt: skip
def test_every_text_parameter_is_bounded(
    boss: Player, method: str, path: str, where: str, name: str, schema: dict[str, Any]
) -> None:
    answer = _call(boss, method, path, where, name, "x" * (schema["maxLength"] + 1))
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == "invalid_request" and name in answer.json()["detail"]


MOMENTS = [p for p in STRINGS if p[3] in ("from", "to")]


@pytest.mark.parametrize(("method", "path", "where", "name", "schema"), MOMENTS,
                         ids=[f"{m} {p} {n}" for m, p, _, n, _ in MOMENTS])  # fmt: skip
def test_every_moment_is_a_time_a_round_could_be_played(
    boss: Player, method: str, path: str, where: str, name: str, schema: dict[str, Any]
) -> None:
    for value in NOT_MOMENTS:
        answer = _call(boss, method, path, where, name, value)
        assert answer.status_code == 422, (value, answer.text)
        assert set(answer.json()) == {"error", "detail"}
        assert answer.json()["error"] == "invalid_request", answer.text
        assert f"{where}.{name}" in answer.json()["detail"], answer.text
        assert value in answer.json()["detail"], answer.text
    fine = _call(boss, method, path, where, name, "2026-11-30" if name == "from" else "4e9")
    assert fine.status_code == 200, fine.text


PERIODS = sorted({path for _, path, *_ in MOMENTS})


@pytest.mark.parametrize("path", PERIODS)
def test_every_period_is_read_the_same_way(boss: Player, path: str) -> None:
    """The calendar ends at the last second of 9999 for every route, and a period that ends
    before it starts is refused naming its ``from``, as every other refusal is."""
    last_day = boss.http.get(path, params={"from": "9999-12-31", "to": "9999-12-31T23:59:59"})
    assert last_day.status_code == 200, last_day.text
    backwards = boss.http.get(path, params={"from": "2030-01-02", "to": "2030-01-01"})
    assert backwards.status_code == 422, backwards.text
    assert backwards.json()["error"] == "invalid_request"
    assert "query.from" in backwards.json()["detail"] and "2030-01-02" in backwards.json()["detail"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/tables", {"game": "punto-banco", "min_bet_cents": 100, "max_bet_cents": 1000,
                         "shoe": {"penetration": float("nan")}}, "penetration"),
        ("/api/tables", {"game": "punto-banco", "min_bet_cents": 100, "max_bet_cents": 1000,
                         "shoe": {"penetration": float("inf")}}, "penetration"),
        ("/api/tables", {"game": "g" * 65, "min_bet_cents": 100, "max_bet_cents": 1000}, "game"),
        ("/api/tables", {"game": "punto-banco", "min_bet_cents": 100, "max_bet_cents": 1000,
                         "options": {f"o{n}": 1 for n in range(33)}}, "options"),
        ("/api/tables", {"game": "punto-banco", "min_bet_cents": 100, "max_bet_cents": 1000,
                         "options": {"o" * 65: 1}}, "options"),
        ("/api/tables/1/cards", {"cards": ["9" * 9]}, "cards"),
        ("/api/tables/1/cards", {"dice": [10**30]}, "dice"),
    ],
)  # fmt: skip
def test_every_number_and_text_in_a_body_is_bounded(
    shared: Server, boss: Player, path: str, body: dict[str, Any], field: str
) -> None:
    tables = len(shared.client().get("/api/tables").json())
    answer = boss.http.post(path, content=json.dumps(body),
                            headers={"Content-Type": "application/json"})  # fmt: skip
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == "invalid_request" and field in answer.json()["detail"]
    assert len(shared.client().get("/api/tables").json()) == tables
