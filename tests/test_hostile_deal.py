"""``baccara deal`` and ``baccara verify`` fed what a hostile user types (issue 15).

Every option of ``deal`` gets random text, huge and tiny exponents and the special
spellings; a live deal gets any bytes as its dealer's input; ``verify`` gets random
bytes, random JSON, and real round records with any field replaced by anything —
deep nesting and numbers past 64 bits included. The rules are tests/hostile_run.py's:
a refusal in one line within a second, or the right result; never a traceback or a hang.
"""

from __future__ import annotations

import json
import pathlib
import re
import tempfile
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccara.fair import MAX_NONCE, check_client_seed, parse_server_seed
from baccara.games import GAMES
from baccara.money import MAX_STAKE_CENTS, format_cents, parse_amount
from baccara.options import as_int, option_name
from baccara.randomness import check_seed
from tests.helpers import run
from tests.hostile import any_text, lines_of_input, number_text
from tests.hostile_run import HOSTILE, outcome, read, strict_json, warm

SEED_HEX = "00" * 31 + "07"

FED = {
    *(("deal", flag) for flag in ("--seed", "--server-seed", "--client-seed", "--nonce",
                                  "--stake", "--players", "--choose", "--option")),
    ("deal", "standard input"),
    ("verify", "ROUND.json"),
}  # fmt: skip
"""What this module feeds hostile input: (command, option or argument)."""


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    warm()


# --- deal --------------------------------------------------------------------------------


def _players(value: str) -> int:
    count: int = as_int("--players", value, 1, 12)
    if count > GAMES["punto-banco"].table.seats:
        raise ValueError  # refused too: Punto Banco seats seven
    return count


NUMBERS: dict[str, tuple[Callable[[str], Any], Callable[[str, Any], bool]]] = {
    "--seed": (
        lambda v: check_seed(v, "--seed"),
        lambda out, n: out.startswith(f"punto-banco · round 1 · seed {n} · as ann saw it\n"),
    ),
    "--stake": (
        lambda v: parse_amount(v, "--stake", MAX_STAKE_CENTS),
        lambda out, n: f"ann (seat 1) bets {format_cents(n)} on banker\n" in out,
    ),
    "--nonce": (
        lambda v: as_int("--nonce", v, 1, MAX_NONCE),
        lambda out, n: out.startswith(f"punto-banco · round {n} · seed 1 ·"),
    ),
    "--players": (
        _players,
        lambda out, n: len(set(re.findall(r"^ +[0-9.]+s  (\w+) \(seat", out, re.M))) == n,
    ),
}
"""Each number option of deal: how the library reads it, and how the round shows it."""


@pytest.mark.slow
@pytest.mark.parametrize("flag", list(NUMBERS))
@HOSTILE
@given(value=number_text())
def test_deal_numbers(flag: str, value: str) -> None:
    parse, shows = NUMBERS[flag]
    try:
        expected = parse(value)
    except ValueError:  # a BaccaraError, or the seat limit above
        expected = None
    seeded = [] if flag == "--seed" else ["--seed", "1"]
    ran = outcome("deal", "punto-banco", *seeded, flag, value)
    assert ran.returncode == (2 if expected is None else 0)
    if expected is not None:
        assert shows(ran.stdout, expected), ran.stdout[:400]


def _record(*args: str) -> dict[str, Any]:
    ran = outcome("deal", "redgreen", "--json", *args)
    return strict_json(ran.stdout) if ran.returncode == 0 else {}


_HEX = st.text("0123456789abcdefABCDEF", min_size=60, max_size=68)


@pytest.mark.slow
@HOSTILE
@given(value=st.one_of(any_text(), _HEX, _HEX.map(lambda h: f" {h}\t"), number_text()))
def test_deal_server_seed(value: str) -> None:
    expected = read(lambda: parse_server_seed(value))
    data = _record("--server-seed", value, "--client-seed", "alice")
    assert (data.get("server_seed") or None) == (None if expected is None else expected.hex())


@pytest.mark.slow
@HOSTILE
@given(value=st.one_of(any_text(), st.text(min_size=60, max_size=70), number_text()))
def test_deal_client_seed(value: str) -> None:
    expected = read(lambda: check_client_seed(value))
    data = _record("--client-seed", value)
    assert data.get("client_seed") == expected


@pytest.mark.slow
@HOSTILE
@given(
    game=st.sampled_from(list(GAMES)),
    value=st.one_of(any_text(), st.sampled_from(["red", "green", " GREEN ", "Red", "blue"])),
)
def test_deal_choose(game: str, value: str) -> None:
    hand = value.strip().lower()
    valid = game == "redgreen-mini" and hand in ("red", "green")
    ran = outcome("deal", game, "--seed", "1", "--choose", value)
    assert ran.returncode == (0 if valid else 2)
    if valid:
        assert f"{hand} is set first (chosen)" in ran.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "field"),
    [(g, f) for g, spec in GAMES.items() for f in spec.rules.OPTIONS if f != "paytable"],
)
@HOSTILE
@given(value=st.one_of(number_text(), any_text()))
def test_deal_rule_option(game: str, field: str, value: str) -> None:
    """The rules the round is dealt under are the ones the library reads from the text."""
    expected = read(lambda: GAMES[game].rules_from_options(**{option_name(field): value.strip()}))
    ran = outcome("deal", game, "--seed", "1", "-o", f"{option_name(field)}={value}")
    assert ran.returncode == (2 if expected is None else 0)


TOKENS = {
    "punto-banco": ("9S", "KD", "2H", "3C", "AS", "10h", "5D"),
    "redgreen": ("AS", "KD", "2H", "3C", "QS", "7D", "7H", "QH"),
    "redgreen-mini": ("AS", "KD", "2H", "3C", "QS", "7D", "7H", "QH"),
    "lo-ball": ("1-1", "2-3", "4-5", "6-7", "3-3", "1-7", "2-2", "5-6", "4", "6", "1"),
}
"""What a dealer enters at each game: cards, tiles and dice."""


@pytest.mark.slow
@pytest.mark.parametrize("game", list(GAMES))
@HOSTILE
@given(data=st.data())
def test_deal_live_input(game: str, data: st.DataObject) -> None:
    """Any bytes as the dealer's input: a round dealt from the entries the table takes, or
    a stop in one line — never a traceback, an endless read or an endless asking."""
    stdin = data.draw(lines_of_input(TOKENS[game]))
    ran = outcome("deal", game, "--live", "--players", "1", stdin=stdin, dialogue=True)
    if ran.returncode == 0:
        assert ran.stdout.startswith(f"{game} · round 1 · live · as ann saw it\n")
    assert all(
        line.startswith(("  refused: ", "baccara: error: ")) for line in ran.stderr.splitlines()
    ), ran.stderr[:400]


# --- verify ------------------------------------------------------------------------------

_JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    any_text(),
    st.sampled_from(["10H", "1-2", "seat3.0", "player.0", "card-dealt", SEED_HEX]),
)
JSON = st.recursive(
    _JSON_LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(any_text(), inner, max_size=4)
    ),
    max_leaves=12,
)
"""Any JSON value."""

RAW = st.one_of(
    st.integers(10, 100_000).map(lambda n: "[" * n + "]" * n),
    st.integers(20, 6000).map(lambda n: "9" * n),
    st.sampled_from(["NaN", "-Infinity", "1e999", "-0", "1.0", "1E400", "18446744073709551616"]),
)
"""JSON text a serializer would not write: deep nesting, numbers past 64 bits, NaN."""


def verify_text(text: str | bytes) -> Any:
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "round.json"
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
        return outcome("verify", str(path), results=(0, 1))


@pytest.mark.slow
@HOSTILE
@given(content=st.one_of(st.binary(max_size=400), JSON.map(json.dumps), RAW))
def test_verify_anything(content: str | bytes) -> None:
    """Random bytes or JSON is no round record: refused, in one line."""
    assert verify_text(content).returncode == 2


@pytest.fixture(scope="module")
def records() -> dict[str, dict[str, Any]]:
    """A settled round of each game, as deal --json records it."""
    found = {}
    for game in GAMES:
        ran = run("deal", game, "--server-seed", SEED_HEX, "--client-seed", "alice", "--json")
        found[game] = json.loads(ran.stdout)
    return found


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value where another could go."""
    places = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            places += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            places += _paths(item, (*path, index))
    return places


PLACEHOLDER = "\x00raw\x00"


def _replaced(record: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copy = json.loads(json.dumps(record))
    here = copy
    for key in path[:-1]:
        here = here[key]
    here[path[-1]] = value
    return copy


@pytest.mark.slow
@pytest.mark.parametrize("game", list(GAMES))
@HOSTILE
@given(data=st.data())
def test_verify_a_record_with_anything_anywhere(
    records: dict[str, dict[str, Any]], game: str, data: st.DataObject
) -> None:
    """A real record with any value in any field (a card, a seed, the nonce, an event):
    it verifies, differs, or is refused — and a changed card never verifies."""
    record = records[game]
    path = data.draw(st.sampled_from(_paths(record)), label="path")
    raw = data.draw(st.one_of(st.none(), RAW), label="raw")
    value = PLACEHOLDER if raw is not None else data.draw(JSON, label="value")
    text = json.dumps(_replaced(record, path, value))
    if raw is not None:
        text = text.replace(json.dumps(PLACEHOLDER), raw)
    ran = verify_text(text)
    changed_card = (
        len(path) == 3
        and path[0] == "events"
        and path[2] in ("item", "position")
        and record["events"][path[1]]["kind"] == "card-dealt"
    )
    if ran.returncode == 0 and changed_card:
        assert value == _at(record, path), (path, value)


def _at(record: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        record = record[key]
    return record


@pytest.mark.slow
@HOSTILE
@given(path=st.sampled_from(["/dev/zero", "/dev/null", "/", ".", "/proc/self/mem", "fifo"]))
def test_verify_what_is_no_regular_file(path: str) -> None:
    import os

    with tempfile.TemporaryDirectory() as folder:
        os.mkfifo(pathlib.Path(folder) / "fifo")
        ran = outcome("verify", path, cwd=folder)
    assert ran.returncode == 2
