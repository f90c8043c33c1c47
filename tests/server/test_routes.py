"""Every route says what it answers, every error what it is; and the answers are unchanged.

* Each API route declares its response model (or, answering no JSON, its response class),
  and its refusals in OpenAPI from the server's error classes: a new endpoint cannot
  forget either.
* Each error class of the server carries an HTTP status and a code of its own.
* A representative session through the API answers, byte for byte, what it answered
  before the routes had their models (``api_session.json``; ids, times and seeds masked).
"""

from __future__ import annotations

import inspect
import json
import pathlib
import typing
from collections.abc import Iterable, Iterator

import pytest
from fastapi import FastAPI
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.responses import Response
from starlette.routing import BaseRoute
from starlette.websockets import WebSocketDisconnect

from baccara.errors import BaccaraError
from baccara.server import errors
from baccara.server.app import create_app
from baccara.server.http.api.errors import install
from baccara.server.http.api.schemas import ErrorOut
from baccara.server.http.pages import PAGES
from baccara.server.settings import Settings
from tests.server import api_session
from tests.server.api_session import TestClient

APP = create_app(Settings(database_url="sqlite://"))


def _routes(routes: Iterable[BaseRoute]) -> Iterator[APIRoute]:
    """Every route of the app, those of the routers it includes too (FastAPI keeps each
    included router whole, as a route of its own)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from _routes(included.routes)


ROUTES = list(_routes(APP.routes))
API = [r for r in ROUTES if r.path.startswith("/api/")]


def _server_errors() -> list[type[errors.ServerError]]:
    found = []
    pending = list(errors.ServerError.__subclasses__())
    while pending:
        kind = pending.pop()
        found.append(kind)
        pending.extend(kind.__subclasses__())
    return found


def test_every_api_route_declares_what_it_answers() -> None:
    assert len(API) > 30
    missing = []
    for route in API:
        answers_json = route.response_class is JSONResponse or not isinstance(
            route.response_class, type
        )  # the default is FastAPI's DefaultPlaceholder around JSONResponse
        if route.status_code == 204:
            ok = route.response_model is None and route.response_class is Response
        else:
            ok = answers_json and route.response_model is not None
        if not ok:
            missing.append(f"{sorted(route.methods or ())} {route.path}")
    assert missing == [], "routes without a response model"


def test_each_response_model_is_a_model_or_a_list_of_one() -> None:
    """Not a bare ``dict[str, Any]``, which FastAPI would take from a return annotation."""
    for route in API:
        model = route.response_model
        if model is None:
            continue
        if typing.get_origin(model) is list:
            (model,) = typing.get_args(model)
        assert isinstance(model, type) and issubclass(model, BaseModel), route.path


def test_every_api_route_documents_its_refusals_with_the_error_model() -> None:
    for route in API:
        assert 413 in route.responses, route.path  # any request's body may be too large
        for status, response in route.responses.items():
            assert isinstance(status, int) and 400 <= status < 600, route.path
            if response["model"] is ErrorOut:  # its codes, from the error classes
                assert response["description"].startswith("* `"), route.path
            else:  # an answer of its own (not ready: which check failed)
                assert issubclass(response["model"], BaseModel), route.path


def test_a_route_that_takes_input_documents_the_refusal_of_bad_input() -> None:
    for route in API:
        if route.dependant.path_params or route.dependant.query_params or route.body_field:
            assert 422 in route.responses, route.path
        if route.body_field:  # a body that is not JSON at all: the protocol's 400
            assert f"`{errors.UnreadableBody.code}`" in route.responses[400]["description"]


def test_the_documented_codes_are_the_error_classes_codes() -> None:
    schema = APP.openapi()
    bet = schema["paths"]["/api/tables/{table_id}/bets"]["post"]["responses"]
    for kind in (errors.IdempotencyConflict, errors.LossLimitReached, errors.RealityCheckDue):
        assert f"`{kind.code}`" in bet[str(kind.status)]["description"]
    assert "`table_moving`" in bet["503"]["description"]
    assert "`unavailable`" in bet["503"]["description"]
    games = schema["paths"]["/api/games"]["get"]["responses"]
    assert set(games) == {"200", "413"}  # no input, no database


def test_pages_answer_html_and_are_not_in_the_schema() -> None:
    pages = [r for r in ROUTES if r.path in PAGES]
    assert len(pages) == len(PAGES)
    for route in pages:
        assert route.response_class is HTMLResponse and not route.include_in_schema, route.path


def test_each_error_class_has_a_status_and_a_code_of_its_own() -> None:
    own: dict[str, str] = {}
    for kind in _server_errors():
        assert 400 <= kind.status < 600 and kind.code, kind
        assert inspect.getdoc(kind), kind
        if "code" in vars(kind):  # a subclass that keeps its parent's code is a kind of it
            assert kind.code not in own, f"{kind.__name__} and {own[kind.code]}: {kind.code}"
            own[kind.code] = kind.__name__
        else:
            assert kind.__mro__[1] is not errors.ServerError, kind  # a kind of a concrete one
    for cls, status, code in errors.STATUS:
        assert 400 <= status < 600, cls
        assert code not in own, f"{cls.__name__} and {own.get(code)}: {code}"
        own[code] = cls.__name__
    assert errors.LeaseLost.code == errors.TableMoved.code  # the same moment to a client


def test_each_error_is_answered_with_its_class_status_and_code() -> None:
    kinds = [*_server_errors(), *(cls for cls, _, _ in errors.STATUS)]
    app = FastAPI()
    install(app)

    @app.get("/raise/{index}")
    async def fail(index: int) -> None:
        kind = kinds[index]
        error = kind.__new__(kind)
        BaccaraError.__init__(error, f"refused: {kind.__name__}")
        raise error

    with TestClient(app) as client:
        for index, kind in enumerate(kinds):
            answer = client.get(f"/raise/{index}")
            status, code = errors.answer_of(kind)
            assert answer.status_code == status, kind
            assert answer.json() == {"error": code, "detail": f"refused: {kind.__name__}"}
            if status == 503:
                assert answer.headers["retry-after"] == "1", kind


def test_no_module_of_the_server_writes_an_error_code_of_its_own() -> None:
    """The codes the HTTP layers answer are the error classes', never a literal."""
    source = pathlib.Path(errors.__file__).parent
    for path in source.rglob("*.py"):
        text = path.read_text()
        assert "raise HTTPException" not in text, path
        for kind in _server_errors():
            if path.name != "errors.py" or path.parent != source:
                assert f'"error": "{kind.code}"' not in text, (path, kind.code)


def test_a_socket_is_refused_with_the_close_code_of_the_http_status(
    tmp_path: pathlib.Path,
) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'casino.db'}"))
    credentials = {"username": "ann", "password": api_session.PASSWORD}
    with TestClient(app) as client:
        client.post("/api/auth/register", json=credentials)
        token = client.post("/api/auth/login", json=credentials).json()["token"]
        bearer = {"Authorization": f"Bearer {token}"}
        ticket = client.post("/api/ws-ticket", headers=bearer).json()["ticket"]
        for path, code in ((f"/ws/tables/1?ticket=forged.{ticket}", 4401),
                           (f"/ws/tables/99?ticket={ticket}", 4404)):  # fmt: skip
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                client.websocket_connect(path) as ws,
            ):
                ws.receive_text()  # a table not open is accepted first, for a browser to read its code
            assert refused.value.code == code, path


def test_a_session_answers_as_it_always_has(tmp_path: pathlib.Path) -> None:
    answers = api_session.run(f"sqlite:///{tmp_path / 'casino.db'}")
    expected = json.loads(api_session.GOLDEN.read_text())
    assert len(answers) == len(expected)
    for got, want in zip(json.loads(api_session.text(answers)), expected, strict=True):
        assert got == want, got["call"]
