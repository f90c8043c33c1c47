"""Punto Banco tables with a rule set and side bets: opened by an admin, laid out, settled.

An admin opens a table with ``"options": {"variant": "ez", "sidebets": [...]}``; the
options are kept as the ids given, in the database and in every round's ``round-opened``
event, so the table and its rounds read back the same; a value no table can mean is a
400 that names the option and changes nothing. The table's answer lays out its side
bets' spots and gives each one's pay lines; a round settles them; the default casino
deals EZ Baccarat at its last table.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from baccara.exact import bet_step_cents
from baccara.games.coup_bets import MAX_SIDE_BETS, SHIPPED
from baccara.server.db.models import CasinoTable
from tests.server.books import check_books
from tests.server.harness import Player, Server

EZ = 6
"""The default EZ Baccarat table: after the four electronic tables and the live one."""


def _open(admin: Player, **body: Any) -> Any:
    return admin.http.post("/api/tables", json={"game": "punto-banco", "min_bet_cents": 100,
                                                "max_bet_cents": 10_000, **body})  # fmt: skip


def _stored_options(server: Server, table_id: int) -> Any:
    engine = create_engine(server.settings.database_url)
    try:
        with engine.connect() as connection:
            text = connection.scalar(select(CasinoTable.options).where(CasinoTable.id == table_id))
    finally:
        engine.dispose()
    return json.loads(str(text))


def test_the_default_casino_deals_ez_baccarat_at_its_last_table(sqlite_server: Server) -> None:
    tables = sqlite_server.client().get("/api/tables").json()
    assert [t["id"] for t in tables] == [1, 2, 3, 4, 5, EZ]
    assert [(t["game"], t["mode"]) for t in tables[:5]] == [
        ("punto-banco", "electronic"), ("redgreen", "electronic"),
        ("redgreen-mini", "electronic"), ("lo-ball", "electronic"), ("punto-banco", "live"),
    ]  # fmt: skip
    ez = tables[-1]
    assert (ez["game"], ez["mode"], ez["name"]) == ("punto-banco", "electronic", "EZ Baccarat")
    assert ez["options"] == {"variant": "ez"}
    assert ez["rule_set"] == {"id": "ez", "name": "EZ Baccarat"}
    assert ez["sidebets"] == ["dragon-7", "panda-8"]
    assert ez["bets"] == ["banker", "player", "tie", "player-pair", "banker-pair", "dragon-7",
                          "panda-8"]  # fmt: skip
    # No commission and whole-number pays: any cent is paid in whole cents.
    assert ez["bet_step_cents"] == bet_step_cents("punto-banco", variant="ez") == 1
    classic = tables[0]
    assert classic["name"] == "Punto Banco" and classic["rule_set"]["id"] == "classic"
    assert classic["sidebets"] == [] and tables[1]["rule_set"] is None


def test_a_tables_answer_lays_out_its_side_bets_and_their_pays(sqlite_server: Server) -> None:
    table = sqlite_server.client().get(f"/api/tables/{EZ}").json()
    spots = [(s["bet"], s["name"], s["row"]) for s in table["spots"]]
    assert spots == [
        ("dragon-7", "Dragon 7", 1), ("panda-8", "Panda 8", 1),
        ("player-pair", "Player Pair", 2), ("tie", "Tie", 2), ("banker-pair", "Banker Pair", 2),
        ("player", "Player", 3), ("banker", "Banker", 3),
    ]  # fmt: skip
    dragon, panda = table["pays"]["sidebets"]
    assert dragon == {
        "id": "dragon-7", "name": "Dragon 7", "description": "The Banker wins with a three-card 7",
        "lines": [{"when": {"winner": ["banker"], "banker_total": [7], "banker_cards": [3]},
                   "pays": "40", "condition": "Banker wins, Banker total 7, Banker 3 cards",
                   "text": "40 to 1: Banker wins, Banker total 7, Banker 3 cards"}],
    }  # fmt: skip
    assert panda["lines"][0]["text"] == SHIPPED.sidebets["panda-8"].pays_text()
    rule_set = table["pays"]["rule_set"]
    assert (rule_set["name"], rule_set["commission"], rule_set["tie_pays"]) == (
        "EZ Baccarat",
        "0",
        None,
    )
    assert rule_set["banker"] == [{"when": {"banker_total": [7], "banker_cards": [3]}, "pays": "0",
                                   "condition": "Banker total 7, Banker 3 cards",
                                   "text": "push: Banker total 7, Banker 3 cards"}]  # fmt: skip
    plain = sqlite_server.client().get("/api/tables/1").json()
    assert [s["bet"] for s in plain["spots"]] == ["player-pair", "tie", "banker-pair", "player",
                                                  "banker"]  # fmt: skip
    assert plain["pays"]["sidebets"] == [] and plain["pays"]["rule_set"]["id"] == "classic"


def test_the_socket_snapshot_carries_the_layout(sqlite_server: Server) -> None:
    ann = sqlite_server.player()
    with sqlite_server.ws(EZ, ann.token) as socket:
        snapshot = json.loads(socket.recv(timeout=10))
    assert snapshot["type"] == "snapshot"
    assert [s["bet"] for s in snapshot["table"]["spots"]][:2] == ["dragon-7", "panda-8"]
    assert snapshot["table"]["name"] == "EZ Baccarat"


@pytest.mark.parametrize(
    "sidebets",
    [["dragon-7", "big"], "dragon-7+big", " dragon-7 , big "],
    ids=["list", "plus", "commas"],
)
def test_an_admin_opens_a_table_with_a_rule_set_and_side_bets_kept_as_given(
    sqlite_server: Server, sidebets: Any
) -> None:
    """The options are stored as the JSON the admin sent — ids, never the game's objects —
    and every round's ``round-opened`` event carries the same, so the table, its rounds and
    their records read back as the rules they were dealt by."""
    admin = sqlite_server.player(role="admin")
    options = {"variant": "no-commission", "sidebets": sidebets}
    made = _open(admin, options=options)
    assert made.status_code == 201, made.text
    table = made.json()
    assert table["options"] == options == _stored_options(sqlite_server, table["id"])
    assert table["name"] == "No-Commission Baccarat"
    assert table["sidebets"] == ["dragon-7", "big"]  # the table's own: not the rule set's Super 6
    # Big pays 0.54 to 1 (27:50), a Banker win on 6 1:2: no payout is rounded in steps of 0.50.
    assert table["bet_step_cents"] == 50 == bet_step_cents("punto-banco", **options)
    ann = sqlite_server.player()
    assert ann.bet(table["id"], "big", 150).status_code == 201
    record = ann.round_of(table["id"])
    opened = record["events"][0]
    assert opened["kind"] == "round-opened" and opened["options"] == options
    assert record["options"] == options


def test_the_whole_cents_step_follows_the_side_bets_pays(sqlite_server: Server) -> None:
    admin = sqlite_server.player(role="admin")
    steps = {}
    for name, options in {"classic": {}, "big": {"sidebets": ["big"]},
                          "ez big": {"variant": "ez", "sidebets": ["big"]},
                          "small": {"variant": "ez", "sidebets": "small"}}.items():  # fmt: skip
        made = _open(admin, options=options, min_bet_cents=200, max_bet_cents=10_000)
        assert made.status_code == 201, made.text
        steps[name] = made.json()["bet_step_cents"]
    # 19:20 needs 0.20; 0.54 (27:50) 0.50; both 1.00; Small's 3:2 two cents.
    assert steps == {"classic": 20, "big": 100, "ez big": 50, "small": 2}


REFUSED = [
    ({"variant": "vegas"}, "variant: must be the id of one of the casino's rule sets, classic, ez,"
                           " no-commission; got 'vegas'"),
    ({"variant": ["ez"]}, "variant: must be the id of one of the casino's rule sets, classic, ez,"
                          " no-commission; got ['ez']"),
    ({"sidebets": ["dragon-8"]}, "sidebets: 'dragon-8' is not one of the casino's side bets, big,"
                                 " dragon-7, dragon-bonus-banker, dragon-bonus-player, either-pair,"
                                 " lucky-6, panda-8, perfect-pair, small, super-6"),
    ({"sidebets": "dragon-7+dragon-8"}, "sidebets: 'dragon-8' is not one of the casino's side bets"),
    ({"sidebets": ["dragon-7", "dragon-7"]}, "sidebets: side bet 'dragon-7' is named twice"),
    ({"variant": "ez", "sidebets": "panda-8,panda-8"}, "sidebets: side bet 'panda-8' is named twice"),
    ({"sidebets": 7}, "sidebets: must be a list of side bet ids, or text of ids joined by +"
                      " (dragon-7+panda-8), or none; got 7"),
    ({"sidebets": {"dragon-7": True}}, "sidebets: must be a list of side bet ids"),
    ({"sidebets": [["dragon-7"]]}, "sidebets: ['dragon-7'] is not one of the casino's side bets"),
    ({"sidebets": [None]}, "sidebets: None is not one of the casino's side bets"),
    ({"sidebets": ["dragon-7"] * (MAX_SIDE_BETS + 1)},
     f"sidebets: a table offers at most {MAX_SIDE_BETS} side bets, got {MAX_SIDE_BETS + 1}"),
    ({"sidebets": "+".join(["big"] * 1000)}, f"sidebets: a table offers at most {MAX_SIDE_BETS}"),
    ({"side-bets": ["dragon-7"]}, "side-bets: not an option of punto-banco; its options are:"
                                  " commission, decks, pair-pays, sidebets, tie-pays, variant"),
]  # fmt: skip


@pytest.mark.parametrize(("options", "detail"), REFUSED, ids=[str(o) for o, _ in REFUSED])
def test_a_rule_set_or_side_bets_no_table_can_mean_are_refused_and_change_nothing(
    sqlite_server: Server, options: dict[str, Any], detail: str
) -> None:
    admin = sqlite_server.player(role="admin")
    before = admin.http.get("/api/tables").json(), admin.http.get("/api/admin/audit").json()
    answer = _open(admin, options=options)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "invalid_option"
    assert answer.json()["detail"].startswith(detail)
    assert (
        admin.http.get("/api/tables").json(),
        admin.http.get("/api/admin/audit").json(),
    ) == before
    # The same refusal with a step of the admin's own, which asks no analysis first.
    assert _open(admin, options=options, bet_step_cents=100).json()["detail"].startswith(detail)


def test_side_bets_are_a_punto_banco_tables(sqlite_server: Server) -> None:
    admin = sqlite_server.player(role="admin")
    answer = _open(admin, game="redgreen", options={"sidebets": ["dragon-7"]})
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("sidebets: not an option of redgreen")


def test_a_bet_on_a_side_bet_the_table_does_not_offer_is_refused(sqlite_server: Server) -> None:
    ann = sqlite_server.player()
    answer = ann.bet(1, "dragon-7", 100)
    assert answer.status_code == 400 and answer.json()["error"] == "invalid_bet"
    assert answer.json()["detail"] == ("unknown bet 'dragon-7' for punto-banco; bets are: banker,"
                                       " player, tie, player-pair, banker-pair")  # fmt: skip
    assert ann.bet(EZ, "dragon-7", 100).status_code == 201


def test_a_live_ez_round_settles_its_side_bets_and_its_record_shows_them(
    sqlite_server: Server,
) -> None:
    """Banker 2 2 3 (7 on three cards) against Player K Q 5 (5): EZ Baccarat pushes the
    Banker bet, Dragon 7 pays 40 to 1, Panda 8 and Player lose."""
    admin = sqlite_server.player(role="admin")
    made = _open(admin, mode="live", options={"variant": "ez"})
    assert made.status_code == 201, made.text
    table_id = made.json()["id"]
    dealer = sqlite_server.player(role="dealer")
    sqlite_server.assign(dealer, table_id)
    ann = sqlite_server.player()
    round_id = ann.http.get(f"/api/tables/{table_id}").json()["round_id"]
    stakes = {"banker": 1000, "dragon-7": 250, "panda-8": 300, "player": 500}
    for spot, cents in stakes.items():
        assert ann.bet(table_id, spot, cents).status_code == 201
    before = ann.balance()
    dealer.http.post(f"/api/tables/{table_id}/close-betting")
    done = dealer.http.post(f"/api/tables/{table_id}/cards",
                            json={"cards": ["KS", "2C", "QS", "2D", "5H", "3S"]})  # fmt: skip
    assert done.status_code == 200 and done.json()["state"] == "settled", done.text
    record = ann.http.get(f"/api/rounds/{round_id}").json()
    assert record["result"]["winner"] == "banker" and record["result"]["banker_score"] == 7
    paid = {bet["bet"]: bet["payout_cents"] for bet in record["bets"]}
    assert paid == {"banker": 1000, "dragon-7": 250 * 41, "panda-8": 0, "player": 0}
    settled = next(e for e in record["events"] if e["kind"] == "round-settled")
    results = {p["spot"]: (p["result"], p["won"], p["commission"]) for p in settled["payouts"]}
    assert results == {"banker": ("push", 0, 0), "dragon-7": ("win", 10_000, 0),
                       "panda-8": ("lose", -300, 0), "player": ("lose", -500, 0)}  # fmt: skip
    assert ann.balance() == before + 1000 + 250 * 41
    history = ann.http.get("/api/me/history").json()[0]
    assert {w["bet"]: w["result"] for w in history["wagers"]}["dragon-7"] == "win"
    check_books(sqlite_server.settings.database_url)


def test_a_tables_rules_give_each_side_bets_exact_edge(sqlite_server: Server) -> None:
    rules = sqlite_server.client().get(f"/api/tables/{EZ}/rules").json()
    assert rules["table"]["name"] == "EZ Baccarat"
    assert rules["table"]["rule_set"] == {"id": "ez", "name": "EZ Baccarat"}
    edges = {bet["bet"]: bet["house_edge"] for bet in rules["bets"]}
    assert sorted(edges) == sorted(["banker", "player", "tie", "player-pair", "banker-pair",
                                    "dragon-7", "panda-8"])  # fmt: skip
    # Wizard of Odds, EZ Baccarat (8 decks): Dragon 7 7.61 %, Panda 8 10.19 %, Banker 1.02 %.
    assert (round(100 * edges["dragon-7"], 2), round(100 * edges["panda-8"], 2)) == (7.61, 10.19)
    assert round(100 * edges["banker"], 2) == 1.02
    assert [s["bet"] for s in rules["spots"]][:2] == ["dragon-7", "panda-8"]
    assert set(rules["changed"]) == {"commission", "variant", "sidebets"}
    catalog = sqlite_server.client().get("/api/games").json()[0]["catalog"]
    assert [r["id"] for r in catalog["rule_sets"]] == list(SHIPPED.variants)
    assert [s["id"] for s in catalog["sidebets"]] == list(SHIPPED.sidebets)
    assert all(g["catalog"] is None for g in sqlite_server.client().get("/api/games").json()[1:])
