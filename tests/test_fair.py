"""The provably-fair protocol against the test vectors its specification publishes.

Vectors (the live-table issue's protocol section): server seed 31 zero bytes then 07,
client seed ``alice``, nonce 3. The first five ``randbelow(3·2³⁰)`` are 364100107,
1292888981, 977484433, 585849137, 983564999 with two draws rejected on the way; eight
decks shuffled give QC 8C 5S 8S 5H 4C 2D 9D 10S KH on top; Lo-Ball with two seated
players deals dealer 2-5 2-7 5-6, seat 1 6-6 1-6 1-5, seat 2 4-6 7-7 6-7, exposed
3-3 5-7 2-4 and dice 4 1 2.
"""

from __future__ import annotations

import hashlib
import hmac

import pytest

from baccara.cards import Shoe
from baccara.errors import InvalidOption
from baccara.fair import FairRandom, check_client_seed, parse_server_seed, seed_hash
from baccara.games import loball
from baccara.table import Table, TableConfig
from baccara.table.autoplay import Plan, play

SEED = bytes(31) + b"\x07"


def test_randbelow_vector_with_its_two_rejections() -> None:
    stream = FairRandom(SEED, "alice", 3)
    draws = [stream.randbelow(3 * 2**30) for _ in range(5)]
    assert draws == [364100107, 1292888981, 977484433, 585849137, 983564999]
    assert stream.rejected == 2


def test_the_byte_stream_is_hmac_sha256_blocks() -> None:
    """Written again from the protocol's words: the first 4 bytes of block 0 are the first
    32-bit number read, and the ninth number starts block 1."""
    block0 = hmac.new(SEED, b"alice:3:0", hashlib.sha256).digest()
    block1 = hmac.new(SEED, b"alice:3:1", hashlib.sha256).digest()
    stream = FairRandom(SEED, "alice", 3)
    numbers = [stream.randbelow(2**32) for _ in range(9)]
    assert numbers[0] == int.from_bytes(block0[:4], "big")
    assert numbers[8] == int.from_bytes(block1[:4], "big")


def test_eight_deck_shoe_vector() -> None:
    shoe = Shoe(8, FairRandom(SEED, "alice", 3))
    assert [shoe.draw().code for _ in range(10)] == [
        "QC",
        "8C",
        "5S",
        "8S",
        "5H",
        "4C",
        "2D",
        "9D",
        "10S",
        "KH",
    ]


def test_lo_ball_vector_through_the_rules() -> None:
    round_ = loball.deal_round(FairRandom(SEED, "alice", 3), players=2)
    assert [str(t) for t in round_.dealer.tiles] == ["2-5", "2-7", "5-6"]
    assert [str(t) for t in round_.players[0].tiles] == ["6-6", "1-6", "1-5"]
    assert [str(t) for t in round_.players[1].tiles] == ["4-6", "7-7", "6-7"]
    assert [str(t) for t in round_.exposed] == ["3-3", "5-7", "2-4"]
    assert round_.dice == (4, 1, 2)


def test_lo_ball_vector_through_the_table_engine() -> None:
    """The table's electronic deal is the protocol: round 3 of a table, two seats betting."""
    table = Table(TableConfig("lo-ball", min_bet_cents=100, max_bet_cents=10_000), nonce=2)
    round_ = play(table, Plan(("ann", "bob"), 100, client_seed="alice"), server_seed=SEED)
    assert round_.nonce == 3 and round_.opened.server_seed_hash == seed_hash(SEED)
    dealt = round_.dealt
    assert [dealt[f"dealer.{i}"] for i in range(3)] == ["2-5", "2-7", "5-6"]
    assert [dealt[f"seat1.{i}"] for i in range(3)] == ["6-6", "1-6", "1-5"]
    assert [dealt[f"seat2.{i}"] for i in range(3)] == ["4-6", "7-7", "6-7"]
    assert [dealt[f"exposed.{i}"] for i in range(3)] == ["3-3", "5-7", "2-4"]
    assert [dealt[f"dice.{i}"] for i in range(3)] == ["4", "1", "2"]


def test_rejection_makes_every_value_equally_likely() -> None:
    """For n = 3 the accepted range is 0 … 2³² − 2 (2³² mod 3 = 1): each residue has
    exactly (2³² − 1) / 3 preimages, so none is favoured."""
    limit = 2**32 - 2**32 % 3
    assert limit == 2**32 - 1 and limit % 3 == 0


def test_seed_hash_is_sha256_of_the_bytes() -> None:
    assert seed_hash(SEED) == hashlib.sha256(SEED).hexdigest()
    assert parse_server_seed("00" * 31 + "07") == SEED


@pytest.mark.parametrize("text", ["", "07", "zz" * 32, "00" * 33])
def test_bad_server_seeds_are_refused(text: str) -> None:
    with pytest.raises(InvalidOption, match="server-seed"):
        parse_server_seed(text)


@pytest.mark.parametrize("seed", ["", "x" * 65, "a\nb", 7])
def test_bad_client_seeds_are_refused(seed: object) -> None:
    with pytest.raises(InvalidOption, match="client-seed"):
        check_client_seed(seed)


def test_draw_bounds_are_checked() -> None:
    with pytest.raises(InvalidOption):
        FairRandom(SEED, "alice", 1).randbelow(0)
    with pytest.raises(InvalidOption, match="nonce"):
        FairRandom(SEED, "alice", 0)


def test_the_documented_re_deal_from_scratch_gives_the_vector() -> None:
    """docs/provably-fair.md shows a from-scratch re-deal a player can copy; run it."""
    import pathlib
    import re

    doc = (pathlib.Path(__file__).resolve().parent.parent / "docs/provably-fair.md").read_text()
    code = re.search(r"```python\n(.*?)```", doc, flags=re.S)
    assert code is not None
    namespace: dict[str, object] = {}
    exec(code.group(1), namespace)  # the document's own code, nothing else
    shoe = namespace["shoe"]
    assert shoe(SEED, "alice", 3, 8)[:10] == [
        "QC",
        "8C",
        "5S",
        "8S",
        "5H",
        "4C",
        "2D",
        "9D",
        "10S",
        "KH",
    ]  # type: ignore[operator]
    assert shoe(SEED, "bob", 3, 7) == [  # type: ignore[operator]
        c.code for c in Shoe(7, FairRandom(SEED, "bob", 3))
    ]


def test_draws_equal_the_protocol_read_byte_by_byte() -> None:
    """A plain reading of the protocol, 4 bytes at a time across block boundaries, gives
    the same draws (and rejections) as FairRandom over ranges that reject often."""

    def reference(n_values: list[int]) -> tuple[list[int], int]:
        stream, counter, rejected, out = b"", 0, 0, []
        for n in n_values:
            while True:
                if len(stream) < 4:
                    message = f"carol:9:{counter}".encode()
                    stream += hmac.new(SEED, message, hashlib.sha256).digest()
                    counter += 1
                x, stream = int.from_bytes(stream[:4], "big"), stream[4:]
                if x < 2**32 - 2**32 % n:
                    out.append(x % n)
                    break
                rejected += 1
        return out, rejected

    ranges = [*[3 * 2**30, 2**31 + 1] * 10, 416, 6, 2**32, 1, *range(1, 300)]
    expected, rejected = reference(ranges)
    stream = FairRandom(SEED, "carol", 9)
    assert [stream.randbelow(n) for n in ranges] == expected
    assert stream.rejected == rejected > 0
