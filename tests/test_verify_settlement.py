"""``baccara verify`` settles a round again from its cards and its rules, and compares.

After the re-deal, the round is settled again by the game's own procedure from the
re-dealt cards and the rules the record names, and the call and every bet's result,
winnings, return and commission are compared with what the record says was paid: a
changed winner or payout exits 1 naming the bet and the field, recorded against
recomputed. A live round has no seeds: its cards are checked against the order the
rules deal them, then settled the same way. The vectors are the protocol's (see
tests/test_fair.py): server seed 31 zero bytes then 07, client seed ``alice``, nonce 3.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

from baccara.errors import shown
from baccara.randomness import SeededRandom
from baccara.table import Mode, Table, TableConfig, Viewer
from baccara.table.record import round_record, verify_record
from tests.helpers import assert_refused, run

SEED_HEX = "00" * 31 + "07"
GAMES = ("punto-banco", "redgreen", "redgreen-mini", "lo-ball")


def dealt(game: str, *options: str) -> dict[str, Any]:
    """The record of the vector round of ``game``: two players on every spot, 10.00 each."""
    args = ["deal", game, "--server-seed", SEED_HEX, "--client-seed", "alice", "--nonce", "3"]
    for option in options:
        args += ["--option", option]
    ran = run(*args, "--json")
    assert ran.returncode == 0, ran.stderr
    record: dict[str, Any] = json.loads(ran.stdout)
    return record


def settlement(record: dict[str, Any]) -> dict[str, Any]:
    event: dict[str, Any] = next(e for e in record["events"] if e["kind"] == "round-settled")
    return event


def verify(tmp_path: pathlib.Path, record: object) -> Any:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(record))
    return run("verify", str(path))


@pytest.mark.parametrize("game", GAMES)
def test_a_genuine_record_says_its_settlement_matches_in_one_line(
    tmp_path: pathlib.Path, game: str
) -> None:
    record = dealt(game)
    bets = len(settlement(record)["payouts"])
    result = verify(tmp_path, record)
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines()[-1] == (
        f"the settlement matches: {bets} bets, the call and every payout"
    )


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("punto-banco", ("commission=4", "tie-pays=9", "decks=6")),
        ("redgreen", ("split-aces=no", "commission=2.5")),
        ("lo-ball", ("win-bonus-pays=2", "lo-hi-pays=8", "dice-pays=19/20")),
    ],
)
def test_the_settlement_is_done_again_under_the_records_own_rules(
    tmp_path: pathlib.Path, game: str, options: tuple[str, ...]
) -> None:
    """Rules that are not the defaults: a 4 % commission, 19:20 dice. Settled under the
    defaults instead, the same record no longer matches."""
    record = dealt(game, *options)
    assert verify(tmp_path, record).returncode == 0
    record["options"] = {}
    record["events"][0]["options"] = {}
    assert verify(tmp_path, record).returncode == 1


def test_a_tampered_winner_is_named(tmp_path: pathlib.Path) -> None:
    """The vector coup: Player Q♣ 5♠ 5♥ (0), Banker 8♣ 8♠ (6): Banker wins."""
    record = dealt("punto-banco")
    assert settlement(record)["result"]["winner"] == "banker"
    settlement(record)["result"]["winner"] = "player"
    result = verify(tmp_path, record)
    assert result.returncode == 1
    assert "every one of the 5 cards matches the re-deal" in result.stdout
    assert result.stdout.splitlines()[-2:] == [
        "the settlement DIFFERS from the record (1 difference):",
        "  the call: winner recorded 'player', recomputed 'banker'",
    ]


def test_a_tampered_call_in_words_side_total_or_first_hand_is_named(
    tmp_path: pathlib.Path,
) -> None:
    """Everything the record's result says is checked: the call in words, what each of
    RedGreen's protecting dealers kept, and Mini RedGreen's hand set first, which the
    round's log records (the hand-chosen event)."""
    record = dealt("redgreen")
    result = settlement(record)["result"]
    call, kept = result["call"], result["sides"]["left"]["commission"]
    result["call"] = "Red wins"
    result["sides"]["left"]["commission"] += 1
    lines = verify(tmp_path, record).stdout.splitlines()
    assert lines[-3] == "the settlement DIFFERS from the record (2 differences):"
    assert lines[-2] == f"  the call: call recorded 'Red wins', recomputed {shown(call)}"
    assert lines[-1] == f"  the call: sides.left.commission recorded {kept + 1}, recomputed {kept}"
    record = dealt("redgreen-mini")
    chosen = next(e for e in record["events"] if e["kind"] == "hand-chosen")["hand"]
    assert settlement(record)["result"]["first_hand"] == chosen == "red"
    settlement(record)["result"]["first_hand"] = "green"
    lines = verify(tmp_path, record).stdout.splitlines()
    assert lines[-1] == "  the call: first_hand recorded 'green', recomputed 'red'"


def test_an_electronic_record_cannot_pass_as_a_live_one(tmp_path: pathlib.Path) -> None:
    """Drop an electronic round's seeds, call it live and forge a card and its payout: a
    live round is not re-dealt, so the log's own round-opened event (electronic, with a
    seed commitment) must decide, and the record is refused."""
    record = dealt("redgreen")
    assert record["events"][0]["mode"] == "electronic"
    forged = json.loads(json.dumps(record))
    for key in ("server_seed", "server_seed_hash"):
        forged.pop(key, None)
    forged["mode"] = "live"
    refused = verify(tmp_path, forged)
    assert refused.returncode == 2
    assert "the record says the round was 'live', its log opened it as 'electronic'" in (
        refused.stdout + refused.stderr
    )
    forged["events"][0]["mode"] = "live"  # and the log too: its commitment still says
    refused = verify(tmp_path, forged)
    assert refused.returncode == 2
    assert "must carry that seed" in refused.stdout + refused.stderr
    del forged["mode"]
    forged["events"][0]["mode"] = "electronic"
    assert verify(tmp_path, forged).returncode == 2


def test_a_seed_that_is_not_the_one_committed_in_the_log_does_not_match(
    tmp_path: pathlib.Path,
) -> None:
    """The record's own hash changed with its seed, but the log published another one
    before the first bet: the seed is not the one the round was committed to."""
    record = dealt("punto-banco")
    record["events"][0]["server_seed_hash"] = "ab" * 32
    result = verify(tmp_path, record)
    assert result.returncode == 1
    assert "server seed against its SHA-256 commitment: DOES NOT MATCH" in result.stdout


@pytest.mark.parametrize(
    ("field", "change", "expected"),
    [
        ("won", 1000, "won recorded 1950, recomputed 950"),
        ("returned", -1950, "returned recorded 0, recomputed 1950"),
        ("commission", -50, "commission recorded 0, recomputed 50"),
        ("result", None, "result recorded 'push', recomputed 'win'"),
    ],
)
def test_a_tampered_payout_names_the_bet_and_the_field(
    tmp_path: pathlib.Path, field: str, change: int | None, expected: str
) -> None:
    """Ann's Banker bet b1 won 9.50 at 19:20 and the house took 0.50 of commission."""
    record = dealt("punto-banco")
    banker = settlement(record)["payouts"][0]
    assert (banker["bet_id"], banker["won"], banker["commission"]) == ("b1", 950, 50)
    banker[field] = "push" if change is None else banker[field] + change
    result = verify(tmp_path, record)
    assert result.returncode == 1
    assert f"  bet b1 (ann, seat 1, banker): {expected}" in result.stdout.splitlines()


def test_a_payout_dropped_or_added_and_a_changed_house_net_are_named(
    tmp_path: pathlib.Path,
) -> None:
    record = dealt("lo-ball")
    paid = settlement(record)
    last = paid["payouts"].pop()
    paid["payouts"].append({**last, "bet_id": "b99"})
    paid["house_net"] += 1
    lines = verify(tmp_path, record).stdout.splitlines()
    assert "  bet b10 (bob, seat 2, dice-hi): returned recorded (none), recomputed 0" in lines
    assert "  bet b99 (no such bet in the log): returned recorded 0, recomputed (none)" in lines
    assert "  the house net: house_net recorded -5999, recomputed -6000" in lines


def test_a_changed_stake_in_the_log_is_settled_as_logged_and_differs(
    tmp_path: pathlib.Path,
) -> None:
    """The log's bet is what is settled again: a stake changed after the fact no longer
    matches what was paid on it."""
    record = dealt("redgreen")
    bet = next(e for e in record["events"] if e["kind"] == "bet-placed")
    bet["amount_cents"] = 2000
    lines = verify(tmp_path, record).stdout.splitlines()
    assert any(
        line.startswith("  bet b1 (ann, seat 1, red): stake recorded 1000") for line in lines
    )


def test_a_server_record_is_checked_against_the_ledger_too(tmp_path: pathlib.Path) -> None:
    """GET /api/rounds/{id} repeats the call as ``result`` and lists each bet with what
    the ledger paid (``payout_cents``): both are compared too."""
    record = dealt("punto-banco")
    paid = settlement(record)
    record["result"] = dict(paid["result"])
    record["bets"] = [
        {"bet_id": p["bet_id"], "bet": p["spot"], "amount_cents": p["stake"],
         "payout_cents": p["returned"]}
        for p in paid["payouts"]
    ]  # fmt: skip
    assert verify(tmp_path, record).returncode == 0
    record["bets"][1]["payout_cents"] = 2000
    record["result"]["banker_score"] = 5
    lines = verify(tmp_path, record).stdout.splitlines()
    assert "  bet b2 (ann, seat 1, player): bets.payout_cents recorded 2000, recomputed 0" in lines
    assert "  the record's result: banker_score recorded 5, recomputed 6" in lines


def live_record(cards: str, *, players: str = "1") -> dict[str, Any]:
    ran = run("deal", "punto-banco", "--live", "--players", players, "--json",
              stdin="\n".join(cards.split()) + "\n")  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    record: dict[str, Any] = json.loads(ran.stdout)
    return record


def test_a_live_round_is_settled_again_from_its_recorded_cards(tmp_path: pathlib.Path) -> None:
    """Player 9♠ K♦, Banker 2♥ 3♣: a natural 9 against 5, dealt by hand: no seeds."""
    record = live_record("9S 2H KD 3C")
    assert record["server_seed"] is None and record["mode"] == "live"
    result = verify(tmp_path, record)
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines() == [
        "punto-banco · round 1 · live: dealt by hand, no seeds",
        "  Player first card      dealt  9♠",
        "  Banker first card      dealt  2♥",
        "  Player second card     dealt  K♦",
        "  Banker second card     dealt  3♣",
        "the 4 cards are dealt in the order the rules deal them",
        "the settlement matches: 5 bets, the call and every payout",
    ]
    settlement(record)["payouts"][1]["returned"] = 3000  # the Player bet paid 2:1
    result = verify(tmp_path, record)
    assert result.returncode == 1
    assert "  bet b2 (ann, seat 1, player): returned recorded 3000, recomputed 2000" in (
        result.stdout.splitlines()
    )


def test_a_live_round_whose_cards_break_the_tableau_does_not_verify(
    tmp_path: pathlib.Path,
) -> None:
    """Player 2♠ 3♦ (5) draws a third card: a log that shows it stood is no coup."""
    record = live_record("2S 4H 3D 10C 5C 6D")
    events = record["events"]
    cards = [e for e in events if e["kind"] == "card-dealt"]
    assert [c["position"] for c in cards][-2:] == ["player.2", "banker.2"]
    record["events"] = [e for e in events if e is not cards[-1]]  # the Banker's third gone
    result = verify(tmp_path, record)
    assert result.returncode == 1
    assert "the cards are NOT what the rules deal: the rules deal banker.2 too" in result.stdout
    assert "the settlement CANNOT be done again" in result.stdout


def test_a_voided_round_is_checked_for_every_bet_refunded_in_full(tmp_path: pathlib.Path) -> None:
    table = Table(TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=10_000,
                              mode=Mode.LIVE))  # fmt: skip
    round_ = table.open_round(0.0)
    table.place_bet("a", "ann", "banker", 1000, 1.0)
    table.place_bet("b", "bob", "tie", 500, 2.0)
    round_.void("dealer", "misdeal: a card fell", 3.0)
    record = round_record(round_, Viewer("ann"))
    assert verify_record(record).ok
    result = verify(tmp_path, record)
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1] == (
        "the settlement matches: the round was voided and each of its 2 bets refunded in full"
    )
    record["events"][-1]["payouts"][1]["returned"] = 0
    result = verify(tmp_path, record)
    assert result.returncode == 1
    assert "  bet b (bob, behind, tie): returned recorded 0, recomputed 500" in (
        result.stdout.splitlines()
    )


def test_every_round_the_engine_settles_verifies() -> None:
    """Seeded rounds of every game, several players: what the table paid is what the
    record's settlement, done again, pays."""
    from baccara.table.autoplay import Plan, play

    for game in GAMES:
        for seed in range(20):
            table = Table(TableConfig(game, min_bet_cents=1, max_bet_cents=10_000))
            round_ = play(table, Plan(("ann", "bob", "cy")[: 1 + seed % 3], 25 + seed),
                          source=SeededRandom(seed))  # fmt: skip
            record = round_record(round_, Viewer("ann"))
            # As if a dealer had dealt these cards by hand: the log and the summary agree.
            record.update(server_seed=None, server_seed_hash=None, mode="live")
            record["events"][0].update(mode="live", server_seed_hash=None)
            check = verify_record(record)
            assert check.settlement.ok and check.dealing is None, (game, seed, check)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda paid: paid.update(payouts="all paid"),
         "the round-settled event's payouts must be a list of objects"),
        (lambda paid: paid.update(kind="bet-removed"), "the log has no settlement"),
    ],
)  # fmt: skip
def test_a_settlement_that_cannot_be_read_is_refused(
    tmp_path: pathlib.Path, change: Any, message: str
) -> None:
    record = dealt("punto-banco")
    change(settlement(record))
    assert_refused(verify(tmp_path, record), message)


def test_a_bet_that_cannot_be_read_is_refused(tmp_path: pathlib.Path) -> None:
    record = dealt("lo-ball")
    next(e for e in record["events"] if e["kind"] == "bet-placed")["spot"] = "dragon"
    assert_refused(verify(tmp_path, record), "bet 'b1' in the log: unknown bet 'dragon'")
