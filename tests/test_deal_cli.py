"""``baccara deal`` plays a whole round through the engine; ``baccara verify`` re-deals it.

The provably-fair vectors are the live-table issue's (see tests/test_fair.py).
"""

from __future__ import annotations

import json
import pathlib

import pytest

from tests.helpers import assert_refused, run

SEED_HEX = "00" * 31 + "07"
CLOSED = "  12.0s  no more bets (all-ready); highest bettor ann"
NINE = "  13.0s  Player first card dealt face up: 9♠"


def test_deal_by_the_protocol_shows_the_vector_round() -> None:
    result = run("deal", "lo-ball", "--server-seed", SEED_HEX, "--client-seed", "alice",
                 "--nonce", "3")  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("lo-ball · round 3 · provably fair · as ann saw it\n")
    for line in ("dealer first tile turned: 2-5", "seat 2 second tile turned: 7-7",
                 "exposed third tile dealt face up: 2-4", "die 1 rolled: 4"):  # fmt: skip
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


def test_a_live_deal_shows_each_card_as_it_is_dealt_and_stops_cleanly_at_the_end_of_input(
) -> None:  # fmt: skip
    """The events are printed as they happen: when the input ends, what was dealt is on
    the screen already, and nothing more."""
    result = run("deal", "punto-banco", "--live", stdin="9S\n")
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "baccara: error: --live: end of input before Banker first card was dealt"
    )
    lines = result.stdout.splitlines()
    assert lines[0] == "punto-banco · round 1 · live · as the dealer saw it"
    assert lines[-1] == NINE
    assert "settled" not in result.stdout


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
        (["deal", "punto-banco", "--server-seed", "07"], "--server-seed: must be 64 hex digits"),
        (["deal", "punto-banco", "--client-seed", "x" * 65], "client-seed"),
        (["deal", "punto-banco", "--nonce", "0"], "--nonce: must be between 1 and"),
        (["deal", "punto-banco", "--seed", "1", "--server-seed", SEED_HEX], "--seed: replays"),
        (["deal", "punto-banco", "--live", "--seed", "1"], "--live: deals the cards you enter"),
        (["deal", "redgreen-mini", "--choose", "blue"], "--choose: must be red or green"),
        (["deal", "lo-ball", "--players", "8"], "--players: Lo-Ball seats at most 7"),
        (["deal", "lo-ball", "--players", "13"], "--players: must be between 1 and 12"),
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


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["deal", "punto-banco", "--choose", "red"], "--choose: does not apply to punto-banco"),
        (["deal", "redgreen", "--choose", "green"], "--choose: does not apply to redgreen"),
        (["deal", "lo-ball", "--no-peek"], "--no-peek: does not apply to lo-ball"),
        (["deal", "redgreen-mini", "--peek"], "--peek: does not apply to redgreen-mini"),
        (["deal", "redgreen", "--client-seed", ""], "--client-seed: must be text of 1 to 64"),
        (["deal", "redgreen", "--client-seed", "a\udcff"], "--client-seed: must be printable"),
        (["deal", "redgreen", "--client-seed", "a\u202eb"], "--client-seed: must be printable"),
        (["deal", "redgreen", "--server-seed", "x" * 5000], "--server-seed: must be 64 hex"),
        (["deal", "redgreen", "--nonce", str(2**63)], "--nonce: must be between 1 and"),
        (["deal", "redgreen", "--nonce", "1e999999999"], "--nonce: must be between 1 and"),
        (["deal", "redgreen", "--players", "9" * 5000], "--players: must be a whole number of"),
        (["deal", "redgreen", "--stake", "1000000.01"], "--stake: must be between 0.01 and"),
    ],
)
def test_deal_refuses_options_that_would_do_nothing_or_cannot_be(
    args: list[str], message: str
) -> None:
    """An empty client seed was silently replaced by a random one, a lone surrogate (an
    undecodable byte on the command line) was a traceback, --choose and --peek were
    ignored by the games that have no choice and no peek."""
    assert_refused(run(*args), message)


def test_deal_reads_its_numbers_as_typed_and_shows_what_it_read() -> None:
    result = run("deal", "redgreen-mini", "--seed", " 0012 ", "--choose", " Green ",
                 "--nonce", str(2**63 - 1), "--players", "7")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"redgreen-mini · round {2**63 - 1} · seed 12 · as ann saw it")
    assert "green is set first (chosen)" in result.stdout


def test_a_round_record_cannot_hold_a_paytable_read_from_a_file(tmp_path: pathlib.Path) -> None:
    """It was a traceback (a Paytable is no JSON); without --json the round is dealt."""
    table = tmp_path / "mine.toml"
    table.write_text('name = "mine"\n[pays]\nflush = 8\n')
    assert_refused(run("deal", "redgreen", "-o", f"paytable={table}", "--json"), "--json: a round")
    assert run("deal", "redgreen", "-o", f"paytable={table}").returncode == 0


@pytest.mark.parametrize(
    ("stdin", "message", "last_shown"),
    [
        (b"9S\n\xff\xfe\n", "--live: standard input is not UTF-8 text", NINE),
        (b"9S\n" + b"K" * 100_000, "--live: a line of standard input is over 40 characters",
         NINE),
        (b"", "--live: end of input before Player first card was dealt", CLOSED),
        (b"9S\n2H\n", "--live: end of input before Player second card was dealt",
         "  14.0s  Banker first card dealt face up: 2♥"),
    ],
)  # fmt: skip
def test_a_live_deal_reads_a_bounded_line_of_text_at_a_time(
    stdin: bytes, message: str, last_shown: str
) -> None:
    result = run("deal", "punto-banco", "--live", stdin=stdin)
    assert result.returncode == 2 and result.stdout.splitlines()[-1] == last_shown
    assert result.stderr.splitlines()[-1] == f"baccara: error: {message}"


def test_a_live_deal_stops_after_twenty_refusals_in_a_row() -> None:
    """``yes | baccara deal --live`` asked for ever; each refusal's entry is escaped."""
    result = run("deal", "punto-banco", "--live", stdin="\x1b[31mZZ\n" * 1000)
    assert result.returncode == 2 and result.stdout.splitlines()[-1] == CLOSED
    lines = result.stderr.splitlines()
    assert len(lines) == 21 and "\x1b" not in result.stderr
    assert lines[0] == "  refused: unknown suit in '\\x1b[31mZZ'; use S, H, D or C"
    assert lines[-1] == "baccara: error: --live: 20 entries in a row refused for Player first card"


def _record(tmp_path: pathlib.Path, data: object, name: str = "round.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


@pytest.fixture(scope="module")
def lo_ball_record() -> dict[str, object]:
    record: dict[str, object] = json.loads(run("deal", "lo-ball", "--server-seed", SEED_HEX,
                                               "--client-seed", "alice", "--json").stdout)  # fmt: skip
    return record


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[" * 100_000, "not a round record (JSON nested too deep)"),
        (b'{"nonce": ' + b"9" * 5000 + b"}", "an integer of 5,000 digits, past 64 bits"),
        (b'{"nonce": NaN}', "NaN is not a number JSON allows"),
        (b"\xff\xfe{}", "not JSON (not UTF-8 text)"),
        (b"{" + b" " * 4_000_000 + b"}", "larger than 4,000,000 bytes"),
    ],
    ids=["deep", "huge-int", "nan", "binary", "huge-file"],
)
def test_verify_refuses_hostile_json(tmp_path: pathlib.Path, content: bytes, message: str) -> None:
    """Deep nesting was a RecursionError, a 5,000-digit number Python's digit limit."""
    (tmp_path / "r.json").write_bytes(content)
    assert_refused(run("verify", str(tmp_path / "r.json")), message)


def test_verify_reads_only_a_regular_file(tmp_path: pathlib.Path) -> None:
    import os

    os.mkfifo(tmp_path / "fifo")
    for path in ("/dev/zero", str(tmp_path / "fifo"), str(tmp_path)):
        assert_refused(run("verify", path), "not a regular file")


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("seat99.0", "the log deals to seat 99; Lo-Ball has 7"),
        ("seat", "a card in the log lies at 'seat', no position"),
        ("seat1.2.3", "no position"),
        ("seat٣.0", "no position"),
        (7, "a card in the log lies at 7, no position"),
    ],
)
def test_verify_refuses_a_card_at_no_position(
    tmp_path: pathlib.Path, lo_ball_record: dict[str, object], position: object, message: str
) -> None:
    """``seat`` and ``seat1.2.3`` were a ValueError; seat 99 dealt past the 28 tiles."""
    data = json.loads(json.dumps(lo_ball_record))
    next(e for e in data["events"] if e["kind"] == "card-dealt")["position"] = position
    assert_refused(run("verify", _record(tmp_path, data)), message)


def test_verify_shows_a_tampered_card_escaped_and_differing(
    tmp_path: pathlib.Path, lo_ball_record: dict[str, object]
) -> None:
    data = json.loads(json.dumps(lo_ball_record))
    next(e for e in data["events"] if e["kind"] == "card-dealt")["item"] = "\x1b[2J"
    result = run("verify", _record(tmp_path, data))
    assert result.returncode == 1 and "\x1b" not in result.stdout
    assert "logged '\\x1b[2J' re-dealt 1-6   DIFFERS" in result.stdout


@pytest.mark.parametrize("field", ["game", "options", "nonce", "server_seed", "server_seed_hash",
                                   "client_seed", "events", "state", "mode"])  # fmt: skip
@pytest.mark.parametrize(
    "value",
    [None, True, -1, 2**64, 1.5, "", "\x1b[31m", [], [1, {"kind": "card-dealt"}], {"a": [[]]}],
)
def test_verify_answers_any_value_in_any_field(
    tmp_path: pathlib.Path, lo_ball_record: dict[str, object], field: str, value: object
) -> None:
    """A wrong type in any field: a refusal, or a re-deal that does not match; never a crash."""
    data = {**lo_ball_record, field: value}
    result = run("verify", _record(tmp_path, data))
    assert "Traceback" not in result.stderr and "\x1b" not in result.stdout + result.stderr
    if result.returncode == 2:
        assert_refused(result, "")
    else:
        assert result.returncode in (0, 1), result
