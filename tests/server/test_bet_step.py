"""The casino's bet steps: every stake on a table is a multiple of its step.

The default tables take stakes in each game's whole-cents step — 0.20 at Punto Banco and
RedGreen (19:20 on 0.20 pays 0.19), 0.02 at Lo-Ball (3:2 on 0.02 pays 0.03) — so no
payout there is ever rounded; an admin may open a table with a finer one. A stake off
the step is a 400 ``bet_step`` that names the amounts, and changes nothing.
"""

from __future__ import annotations

import pathlib
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text

from baccara.exact import analyze, analyze_at_stake, bet_step_cents
from baccara.server.db.database import MIGRATIONS, Database
from baccara.server.db.models import CasinoTable
from baccara.server.db.store import table_config
from tests.server.books import check_books
from tests.server.harness import Player, Server

DEFAULT_STEPS = {1: 20, 2: 20, 3: 20, 4: 2, 6: 1}
"""The electronic Punto Banco, RedGreen, Mini RedGreen and Lo-Ball tables, and EZ Baccarat
(no commission: any cent)."""
LIVE_STEP = 20
"""The live Punto Banco table's."""


def test_the_default_tables_pay_every_payout_in_whole_cents(server: Server) -> None:
    tables = {t["id"]: t for t in server.client().get("/api/tables").json()}
    steps = {**DEFAULT_STEPS, server.live_table(): LIVE_STEP}
    assert sorted(steps) == sorted(tables)
    for table_id, step in steps.items():
        table = tables[table_id]
        options = table["options"]
        assert table["bet_step_cents"] == step == bet_step_cents(table["game"], **options)
        assert table["min_bet_cents"] % step == 0 and table["max_bet_cents"] % step == 0
        at_min = analyze_at_stake(table["game"], table["min_bet_cents"], **options)
        assert not at_min.rounding_matters


def _state(player: Player, table_id: int) -> tuple[int, int]:
    return player.balance(), len(player.round_of(table_id)["events"])


@pytest.mark.parametrize(
    ("table_id", "bet", "cents", "detail"),
    [
        (1, "banker", 110, "a stake of 1.10 is not a multiple of this table's bet step, 0.20: bet 1.00 or 1.20"),
        (2, "red", 1005, "a stake of 10.05 is not a multiple of this table's bet step, 0.20: bet 10.00 or 10.20"),
        (4, "main", 101, "a stake of 1.01 is not a multiple of this table's bet step, 0.02: bet 1.00 or 1.02"),
    ],
)  # fmt: skip
def test_a_stake_off_the_step_is_refused_and_changes_nothing(
    server: Server, table_id: int, bet: str, cents: int, detail: str
) -> None:
    ann = server.player()
    ann.sit(table_id)
    before = _state(ann, table_id)
    answer = ann.bet(table_id, bet, cents)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "bet_step" and answer.json()["detail"] == detail
    assert _state(ann, table_id) == before
    assert ann.bet(table_id, bet, cents - cents % DEFAULT_STEPS[table_id]).status_code == 201
    check_books(server.settings.database_url)


def _open(admin: Player, **body: Any) -> Any:
    return admin.http.post("/api/tables", json={"game": "punto-banco", "min_bet_cents": 100,
                                                "max_bet_cents": 10_000, **body})  # fmt: skip


def test_a_table_opened_without_a_step_takes_its_rules_whole_cents_step(
    sqlite_server: Server,
) -> None:
    admin = sqlite_server.player(role="admin")
    four = _open(admin, options={"commission": 4})
    assert four.status_code == 201 and four.json()["bet_step_cents"] == 25  # 24:25
    lo_ball = _open(admin, game="lo-ball", options={"win-bonus-pays": 2})
    assert lo_ball.status_code == 201 and lo_ball.json()["bet_step_cents"] == 1
    odd = _open(admin, min_bet_cents=150)
    assert odd.status_code == 400 and odd.json()["error"] == "invalid_option"
    assert odd.json()["detail"] == (
        "min-bet-cents: 150 cents (1.50) is not a multiple of the bet step, 20 cents (0.20)"
    )


def test_an_admin_may_choose_a_finer_step_and_its_rules_page_says_what_it_costs(
    sqlite_server: Server,
) -> None:
    admin = sqlite_server.player(role="admin")
    made = _open(admin, min_bet_cents=25, bet_step_cents=1)
    assert made.status_code == 201, made.text
    table_id = made.json()["id"]
    ann = sqlite_server.player()
    assert ann.bet(table_id, "banker", 25).status_code == 201
    assert ann.bet(table_id, "banker", 101).status_code == 201
    rules = sqlite_server.client().get(f"/api/tables/{table_id}/rules").json()
    assert rules["table"]["bet_step_cents"] == 1 and rules["whole_cents_step_cents"] == 20
    at_min = rules["at_min_bet"]
    assert at_min["stake_cents"] == 25 and [b["bet"] for b in at_min["bets"]] == ["banker"]
    (banker,) = at_min["bets"]
    exact = analyze_at_stake("punto-banco", 25).bet("banker").house_edge
    assert banker["house_edge_exact"] == f"{exact.numerator}/{exact.denominator}"
    assert f"{100 * banker['house_edge']:.2f}" == "2.43"
    assert banker["outcomes"] == [{"name": "win", "pays": 0.95, "won_cents": 23}]
    default = sqlite_server.client().get("/api/tables/1/rules").json()
    assert default["table"]["bet_step_cents"] == 20 and default["at_min_bet"]["bets"] == []
    trail = admin.http.get("/api/admin/audit").json()
    opened = next(e for e in trail if e["target"] == f"table {table_id}")
    assert opened["details"]["bet_step_cents"] == 1


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"bet_step_cents": 0}, 422, "bet_step_cents"),
        ({"bet_step_cents": -20}, 422, "bet_step_cents"),
        ({"bet_step_cents": 2.5}, 422, "bet_step_cents"),
        ({"bet_step_cents": "20"}, 422, "bet_step_cents"),
        ({"bet_step_cents": 2**63}, 422, "bet_step_cents"),
        ({"bet_step_cents": 10**9}, 400, "bet-step-cents: must be between 1 and 100000000 cents"),
        ({"bet_step_cents": 30}, 400, "min-bet-cents: 100 cents (1.00) is not a multiple of the bet step, 30 cents (0.30)"),
        ({"bet_step_cents": 200, "min_bet_cents": 200, "max_bet_cents": 10_100}, 400, "max-bet-cents: 10100 cents"),
        ({"game": "faro"}, 400, "unknown game 'faro'"),
        ({"options": {"decks": 0}}, 400, "decks"),
    ],
)  # fmt: skip
def test_a_bad_step_is_refused(
    sqlite_server: Server, body: dict[str, Any], status: int, message: str
) -> None:
    admin = sqlite_server.player(role="admin")
    answer = _open(admin, **body)
    assert answer.status_code == status and message in answer.json()["detail"], answer.text
    assert len(admin.http.get("/api/tables").json()) == 6  # the default tables alone


def test_tables_opened_before_the_step_keep_taking_any_cent(tmp_path: pathlib.Path) -> None:
    """A database at the revision before the step, with a table on it: the upgrade gives
    the table a step of 1, and it loads and takes 1.01 as it did."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = create_engine(url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
        connection.execute(text(
            "INSERT INTO casino_tables (game, mode, options, seats, min_bet_cents, max_bet_cents,"
            " shoe, penetration, betting_seconds, peek_seconds, choose_seconds, reveal_delay,"
            " status, shoe_started_nonce, created_at) VALUES ('punto-banco', 'electronic', '{}',"
            " 7, 101, 10001, 'reshuffle', 0.8, 15, 10, 10, 0.6, 'open', 1, 0)"))  # fmt: skip
    engine.dispose()
    database = Database(url)
    try:
        database.migrate()
        with database.read() as session:
            (row,) = session.query(CasinoTable).all()
            assert row.bet_step_cents == 1
            loaded = table_config(row)
        assert (loaded.bet_step_cents, loaded.min_bet_cents, loaded.max_bet_cents) == (
            1,
            101,
            10001,
        )
        with database.engine.connect() as connection:
            assert (
                connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
                == ScriptDirectory.from_config(config).get_current_head()
            )  # upgraded to the newest revision, whichever comes after the step
    finally:
        database.dispose()


def test_every_bet_the_casino_offers_is_on_its_step() -> None:
    """The analysis the steps come from: at each default table's step every outcome of
    every bet is whole cents."""
    for game_id in ("punto-banco", "redgreen", "redgreen-mini", "lo-ball"):
        step = bet_step_cents(game_id)
        for bet in analyze(game_id).bets:
            assert all((step * o.pays).denominator == 1 for o in bet.outcomes)


@pytest.mark.parametrize("amount", ["-20", "NaN", "Infinity", "20.0", "1e30", str(2**63), '"20"'])
def test_a_stake_that_is_not_whole_positive_cents_never_reaches_the_step(
    sqlite_server: Server, amount: str
) -> None:
    """Negative, NaN, a float, a huge number, text: a 422 from the schema, nothing placed."""
    ann = sqlite_server.player()
    before = _state(ann, 1)
    answer = ann.http.post("/api/tables/1/bets", content=f'{{"bet": "banker", "amount_cents": {amount}}}',
                           headers={"Idempotency-Key": "k", "Content-Type": "application/json"})  # fmt: skip
    assert answer.status_code == 422 and answer.json()["error"] == "invalid_request", answer.text
    assert "amount_cents" in answer.json()["detail"]
    assert _state(ann, 1) == before
