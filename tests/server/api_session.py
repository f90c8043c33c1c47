"""A representative session through the API, in process, as the bytes the server answers.

Sign up and in, the lobby, the games and a table's rules, a seat, bets placed and taken
back, a live round dealt from known cards by a dealer, the round, the history, the
protections, the back office and the report, and a few refusals. Each answer is kept
as its status and its JSON text with what changes from run to run (tokens, times,
seeds, random ids) masked by its kind, so the rest — keys, their order, nulls, the
way each number is written — is compared byte for byte against
``api_session.json`` (see ``test_routes.py``). ``python -m tests.server.api_session``
writes that file anew.
"""

from __future__ import annotations

import json
import pathlib
import re
import time
import warnings
from typing import Any

with warnings.catch_warnings():  # Starlette's client would rather have httpx2; httpx is fine
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient as TestClient  # for the tests, warned once

from baccara.server.app import create_app
from baccara.server.settings import Settings

GOLDEN = pathlib.Path(__file__).with_name("api_session.json")
PASSWORD = "correct horse battery"
LIVE = 5
"""The default live Punto Banco table."""
VOLATILE = re.compile(r"token|bet_id|_at$|until$|^at$|time|seed|deadline|^from$|^to$")
"""Keys whose values change from one run to the next: masked by kind."""
NOON = 1_800_014_400.0
"""The session's clock starts at noon (UTC): a day's figures cannot cross midnight."""
ONE_DECK_SHOE = {
    "game": "punto-banco", "min_bet_cents": 100, "max_bet_cents": 10_000, "mode": "live",
    "options": {"decks": 1}, "shoe": {"mode": "continuous", "penetration": 0.75},
}  # fmt: skip


class Pairs(list[tuple[str, Any]]):
    """A JSON object's members, in the order they were written."""


class Raw:
    """A JSON number as it was written."""

    def __init__(self, text: str) -> None:
        self.text = text


def _mask(value: Any, key: str = "") -> Any:
    if isinstance(value, Pairs):
        return {k: _mask(v, k) for k, v in value}
    if isinstance(value, list):
        return [_mask(v, key) for v in value]
    if VOLATILE.search(key) and value is not None:
        if isinstance(value, Raw):
            return "<float>" if re.search(r"[.eE]", value.text) else "<int>"
        return f"<{type(value).__name__}>"
    if isinstance(value, Raw):
        return f"#{value.text}"  # the number's text, as the server wrote it
    return value


def masked(body: bytes) -> Any:
    """The answer's JSON with keys in order, numbers as written, and volatile values masked."""
    if not body:
        return None
    parsed = json.loads(body, object_pairs_hook=Pairs,
                        parse_float=Raw, parse_int=Raw)  # fmt: skip
    return _mask(parsed)


def written(body: bytes) -> str:
    """How the JSON text is laid out: ``compact`` as JSONResponse writes it (no spaces,
    UTF-8 unescaped), or the text itself if it is anything else."""
    if not body:
        return "empty"
    compact = json.dumps(json.loads(body), ensure_ascii=False, allow_nan=False,
                         separators=(",", ":")).encode()  # fmt: skip
    return "compact" if compact == body else body.decode()


def run(url: str) -> list[dict[str, Any]]:
    """Every answer of the session, in order: method, path, status, masked JSON."""
    settings = Settings(database_url=url, betting_seconds=600, peek_seconds=600,
                        choose_seconds=600, reveal_delay_ms=0)  # fmt: skip
    start = time.monotonic()
    app = create_app(settings, lambda: NOON + time.monotonic() - start)
    answers: list[dict[str, Any]] = []
    with TestClient(app) as client:
        casino = app.state.casino

        def call(method: str, path: str, token: str | None = None, **kw: Any) -> Any:
            headers = kw.pop("headers", {})
            if token:
                headers["Authorization"] = f"Bearer {token}"
            response = client.request(method, path, headers=headers, **kw)
            label = re.sub(r"[0-9a-f]{32}", "{bet_id}", path)
            answers.append({"call": f"{method} {label}", "status": response.status_code,
                            "type": response.headers.get("content-type"),
                            "written": written(response.content),
                            "body": masked(response.content)})  # fmt: skip
            return response.json() if response.content else None

        def sign_in(name: str) -> str:
            token: str = call("POST", "/api/auth/login",
                              json={"username": name, "password": PASSWORD})["token"]  # fmt: skip
            return token

        call("POST", "/api/auth/register", json={"username": "ann", "password": PASSWORD})
        call("POST", "/api/auth/register", json={"username": "bob", "password": PASSWORD})
        call("POST", "/api/auth/register", json={"username": "ann", "password": PASSWORD})
        casino.register("dee", PASSWORD, "dealer")
        casino.register("ada", PASSWORD, "admin")
        ann, bob, dee, ada = (sign_in(n) for n in ("ann", "bob", "dee", "ada"))
        call("PUT", "/api/admin/dealers/dee/tables", ada, json={"tables": [LIVE]})
        call("POST", "/api/auth/login", json={"username": "ann", "password": "wrong password"})
        call("GET", "/api/me", ann)
        call("GET", "/api/me")
        call("GET", "/api/me/client-seed", ann)
        call("PUT", "/api/me/client-seed", ann, json={"client_seed": "lucky"})
        call("GET", "/api/me/client-seed", ann)
        call("GET", "/api/games")
        call("GET", "/api/tables")
        call("GET", "/api/tables/1")
        call("GET", "/api/tables/1/rules")
        call("GET", "/api/tables/99")
        call("GET", "/api/tables/1/rounds")
        call("POST", "/api/tables/1/seat", ann, json={"seat": 2})
        call("POST", "/api/tables/1/seat", bob, json={"seat": 2})
        call("POST", "/api/tables/1/seat", bob)
        bet = call("POST", "/api/tables/1/bets", ann, json={"bet": "banker", "amount_cents": 100},
                   headers={"Idempotency-Key": "a1"})  # fmt: skip
        call("POST", "/api/tables/1/bets", ann, json={"bet": "banker", "amount_cents": 100},
             headers={"Idempotency-Key": "a1"})  # fmt: skip
        call("POST", "/api/tables/1/bets", ann, json={"bet": "banker", "amount_cents": 300},
             headers={"Idempotency-Key": "a1"})  # fmt: skip
        call("POST", "/api/tables/1/bets", ann, json={"bet": "banker", "amount_cents": "1"},
             headers={"Idempotency-Key": "a2"})  # fmt: skip
        call("GET", f"/api/rounds/{bet['round_id']}", ann)
        call("DELETE", f"/api/tables/1/bets/{bet['bet_id']}", ann)
        call("DELETE", "/api/tables/1/seat", bob)
        # the other games: RedGreen, Mini RedGreen, Lo-Ball (tiles and dice) while betting
        for table in (2, 3, 4):
            call("GET", f"/api/tables/{table}")
            call("GET", f"/api/tables/{table}/rules")
            call("POST", f"/api/tables/{table}/seat", bob)
            opened = call("GET", f"/api/tables/{table}")["round_id"]
            call("GET", f"/api/rounds/{opened}", bob)
            call("GET", f"/api/rounds/{opened}/peek", bob)
            call("POST", f"/api/rounds/{opened}/choose", bob, json={"hand": "red"})
            call("POST", f"/api/tables/{table}/deal", bob)
            call("DELETE", f"/api/tables/{table}/seat", bob)
        call("GET", "/api/tables/1/needs", dee)
        call("GET", f"/api/tables/{LIVE}/shoe", dee)
        # the live table: a dealer deals known cards (Player 9S KD, Banker 2H 3C)
        call("POST", f"/api/tables/{LIVE}/seat", ann)
        call("POST", f"/api/tables/{LIVE}/seat", bob)
        round_id = call("GET", f"/api/tables/{LIVE}")["round_id"]
        for who, side, cents, key in ((ann, "player", 1000, "l1"), (bob, "banker", 2000, "l2")):
            call("POST", f"/api/tables/{LIVE}/bets", who, json={"bet": side, "amount_cents": cents},
                 headers={"Idempotency-Key": key})  # fmt: skip
        call("GET", f"/api/rounds/{round_id}", ann)
        call("GET", f"/api/tables/{LIVE}/needs", dee)
        call("POST", f"/api/tables/{LIVE}/close-betting", ann)
        call("POST", f"/api/tables/{LIVE}/close-betting", dee)
        call("GET", f"/api/tables/{LIVE}/needs", dee)
        call("POST", f"/api/tables/{LIVE}/cards", dee, json={"cards": ["9S", "ZZ"]})
        call("POST", f"/api/tables/{LIVE}/cards", dee, json={"cards": ["9S", "2H"]})
        call("POST", f"/api/tables/{LIVE}/cards", dee, json={"cards": ["KD", "3C"]})
        call("GET", f"/api/rounds/{round_id}", ann)
        call("GET", f"/api/rounds/{round_id}", bob)
        call("GET", f"/api/rounds/{round_id}/peek", ann)
        call("GET", f"/api/tables/{LIVE}/rounds")
        call("GET", f"/api/tables/{LIVE}", ann)
        call("GET", "/api/me/history", ann)
        call("GET", "/api/me/history", bob, params={"limit": 1})
        # a void on the next live round
        call("POST", f"/api/tables/{LIVE}/bets", ann, json={"bet": "tie", "amount_cents": 500},
             headers={"Idempotency-Key": "l3"})  # fmt: skip
        next_round = call("GET", f"/api/tables/{LIVE}")["round_id"]
        call("POST", f"/api/rounds/{next_round}/void", dee, json={"reason": "a card fell"})
        call("GET", f"/api/rounds/{next_round}", ann)
        # a continuous shoe of one deck, opened by the admin
        made = call("POST", "/api/tables", ada, json=ONE_DECK_SHOE)
        call("POST", "/api/tables", ann, json=ONE_DECK_SHOE)
        call("GET", f"/api/tables/{made['id']}/shoe", dee)
        call("PUT", "/api/admin/dealers/dee/tables", ada, json={"tables": [LIVE, made["id"]]})
        call("GET", f"/api/tables/{made['id']}/shoe", dee)
        call("GET", f"/api/tables/{made['id']}/rules")
        call("DELETE", f"/api/tables/{made['id']}", ada)
        # the protections
        call("GET", "/api/me/protections", ann)
        call("PUT", "/api/me/limits", ann, json={"period": "day", "loss_limit_cents": 5000})
        call("PUT", "/api/me/limits", ann, json={"period": "day", "loss_limit_cents": 9000})
        call("PUT", "/api/me/limits", ann, json={"period": "week", "loss_limit_cents": None})
        call("PUT", "/api/me/reality-check", ann, json={"minutes": 30})
        call("PUT", "/api/me/reality-check", ann, json={"minutes": None})
        call("POST", "/api/me/reality-check/continue", ann)
        call("GET", "/api/me/protections", ann)
        call("POST", "/api/me/self-exclusion", bob, json={"days": 7})
        call("GET", "/api/me/protections", bob)
        # the back office
        call("POST", "/api/admin/wallets/ann/adjust", ada,
             json={"amount_cents": 2500, "reason": "a goodwill credit"})  # fmt: skip
        call("POST", "/api/admin/wallets/ann/adjust", ada,
             json={"amount_cents": 0, "reason": "nothing"})  # fmt: skip
        call("POST", "/api/admin/wallets/nobody/adjust", ada,
             json={"amount_cents": 1, "reason": "nobody"})  # fmt: skip
        call("GET", "/api/admin/audit", ada)
        call("GET", "/api/admin/audit", ann)
        call("GET", "/api/admin/report", ada)
        call("GET", "/api/admin/report", ada, params={"from": "tomorrow"})
        call("GET", "/api/admin/dealers", ada)
        call("GET", "/api/admin/voids", ada)
        call("GET", "/api/nowhere")
    return answers


def text(answers: list[dict[str, Any]]) -> str:
    return json.dumps(answers, indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        GOLDEN.write_text(text(run(f"sqlite:///{folder}/casino.db")))
