"""``baccara deal`` plays a whole round through the engine; ``baccara verify`` re-deals it.

The provably-fair vectors are the live-table issue's (see tests/test_fair.py).
"""

from __future__ import annotations

import json
import pathlib

import pytest

from tests.helpers import assert_refused, run

SEED_HEX = "00" * 31 + "07"


def test_deal_by_the_protocol_shows_the_vector_round() -> None:
    result = run("deal", "lo-ball", "--server-seed", SEED_HEX, "--client-seed", "alice",
                 "--nonce", "3")  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("lo-ball · round 3 · provably fair · as ann saw it\n")
    for line in ("dealer first tile turned: 2-5", "seat 2 second tile turned: 7-7",
                 "exposed third tile turned: 2-4", "die 1 shows 4"):  # fmt: skip
        assert line in out
    assert f"server seed {SEED_HEX}" in out


def test_a_fresh_deal_is_provably_fair_and_verifies(tmp_path: pathlib.Path) -> None:
    record = tmp_path / "round.json"
    result = run("deal", "redgreen", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["state"] == "settled" and len(data["server_seed"]) == 64
    record.write_text(result.stdout)
    verified = run("verify", str(record))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "every one of the 6 cards matches the re-deal" in verified.stdout


def test_verify_finds_a_changed_card_and_a_changed_seed(tmp_path: pathlib.Path) -> None:
    data = json.loads(run("deal", "punto-banco", "--json", "--server-seed", SEED_HEX,
                          "--client-seed", "alice", "--nonce", "3").stdout)  # fmt: skip
    first = next(e for e in data["events"] if e["kind"] == "card-dealt")
    assert first["item"] == "QC"  # the vector's first card: Player's first
    first["item"] = "KH"
    (tmp_path / "card.json").write_text(json.dumps(data))
    result = run("verify", str(tmp_path / "card.json"))
    assert result.returncode == 1 and "DIFFERS" in result.stdout
    first["item"] = "QC"
    data["server_seed_hash"] = "0" * 64
    (tmp_path / "hash.json").write_text(json.dumps(data))
    result = run("verify", str(tmp_path / "hash.json"))
    assert result.returncode == 1 and "DOES NOT MATCH" in result.stdout


def test_a_seeded_deal_repeats() -> None:
    first = run("deal", "redgreen-mini", "--seed", "5", "--choose", "green")
    assert (
        first.returncode == 0
        and first.stdout == run("deal", "redgreen-mini", "--seed", "5", "--choose", "green").stdout
    )
    assert "green is set first (chosen)" in first.stdout


def test_a_live_deal_takes_the_cards_from_the_dealer() -> None:
    """Player 9S KD, Banker 2H 3C: a Player natural 9 against 5; a refused card is asked again."""
    result = run("deal", "punto-banco", "--live", "--players", "1", stdin="9S\nZZ\n2H\nKD\n3C\n")
    assert result.returncode == 0, result.stderr
    assert result.stderr == "  refused: unknown suit in 'ZZ'; use S, H, D or C\n"
    assert "Player 9♠ K♦ (9) · Banker 2♥ 3♣ (5) · player · natural" in result.stdout


def test_a_live_deal_stops_cleanly_at_the_end_of_input() -> None:
    assert_refused(run("deal", "punto-banco", "--live", stdin="9S\n"), "end of input")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["deal", "faro"], "unknown game 'faro'"),
        (["deal", "punto-banco", "--stake", "0"], "--stake: must be between 0.01 and 1000000.00"),
        (["deal", "punto-banco", "--stake", "1.005"], "at most 2 decimal places, got '1.005'"),
        (["deal", "punto-banco", "--stake", "ten"], "--stake: must be an amount, got 'ten'"),
        (["deal", "punto-banco", "--stake", "1e999990"], "got 1e999990"),
        (["deal", "punto-banco", "--seed", "1e-99999999"], "--seed: must be a whole number"),
        (["deal", "punto-banco", "--seed", "x"], "--seed: must be a whole number"),
        (["deal", "punto-banco", "--server-seed", "07"], "server-seed: must be 64 hex digits"),
        (["deal", "punto-banco", "--client-seed", "x" * 65], "client-seed"),
        (["deal", "punto-banco", "--nonce", "0"], "nonce"),
        (["deal", "punto-banco", "--seed", "1", "--server-seed", SEED_HEX], "--seed replays"),
        (["deal", "punto-banco", "--live", "--seed", "1"], "--live deals the cards you enter"),
        (["deal", "redgreen-mini", "--choose", "blue"], "--choose red or green"),
        (["deal", "lo-ball", "--players", "8"], "Lo-Ball seats at most 7 players"),
        (["deal", "lo-ball", "--players", "13"], "players: must be between 1 and 12"),
        (["verify", "/nonexistent.json"], "no round record"),
    ],
)
def test_deal_and_verify_refuse_bad_input(args: list[str], message: str) -> None:
    assert_refused(run(*args), message)


def test_verify_refuses_what_is_not_a_finished_round(tmp_path: pathlib.Path) -> None:
    (tmp_path / "junk.json").write_text("{not json")
    assert_refused(run("verify", str(tmp_path / "junk.json")), "not JSON")
    (tmp_path / "list.json").write_text("[1, 2]")
    assert_refused(run("verify", str(tmp_path / "list.json")), "a round record is a JSON object")
    data = json.loads(run("deal", "punto-banco", "--json").stdout)
    data["server_seed"] = None
    (tmp_path / "open.json").write_text(json.dumps(data))
    assert_refused(run("verify", str(tmp_path / "open.json")), "is the round over")


def test_the_shipped_example_record_is_what_deal_writes_and_it_verifies() -> None:
    """docs/examples/round-lo-ball-3.json, which the README verifies, cannot go stale."""
    example = pathlib.Path(__file__).resolve().parent.parent / "docs/examples/round-lo-ball-3.json"
    fresh = run("deal", "lo-ball", "--server-seed", SEED_HEX, "--client-seed", "alice",
                "--nonce", "3", "--json")  # fmt: skip
    assert json.loads(fresh.stdout) == json.loads(example.read_text())
    assert run("verify", str(example)).returncode == 0
