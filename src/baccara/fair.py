"""Provably fair shuffling: a protocol anyone can re-run in ten lines of any language.

Before a round takes a bet the server fixes a secret 32-byte *server seed* and shows
its SHA-256 (:func:`seed_hash`). The *client seed* is the electronic form of the
player's cut: the highest bettor's own seed (or, if that player set none, the
idempotency key their client sent with the bet — chosen by the client, never the
server). The *nonce* is the table's round counter, 1 for its first round. When the
round is over the server seed is revealed, and anyone can re-deal it:

* byte stream: HMAC-SHA256 keyed with the 32 seed bytes over the UTF-8 text
  ``"{client_seed}:{nonce}:{counter}"`` for counter 0, 1, 2, …, the 32-byte blocks
  concatenated;
* ``randbelow(n)``: read the next 4 bytes as a big-endian unsigned integer x; if
  x ≥ 2³² − (2³² mod n), discard it and read 4 more; otherwise return x mod n. This
  rejection makes every value exactly equally likely (taking ⌊float × n⌋ from four
  bytes, the common scheme, is slightly biased);
* the shoe: new-deck order (spades, hearts, diamonds, clubs; Ace to King), repeated
  for each deck, shuffled by Fisher–Yates (``i`` from the last index down to 1,
  ``j = randbelow(i + 1)``, swap), dealt from the top; Lo-Ball's 28 tiles in
  ``TILE_SET`` order the same way, then three dice as ``randbelow(6) + 1``.

>>> stream = FairRandom(bytes(31) + b"\\x07", "alice", 3)
>>> [stream.randbelow(3 * 2**30) for _ in range(2)]
[364100107, 1292888981]
"""

from __future__ import annotations

import hashlib
import hmac
import struct

from baccara.errors import InvalidOption, shown

SEED_BYTES = 32
MAX_CLIENT_SEED = 64
"""Characters a client seed may have."""
MAX_NONCE = 2**63 - 1
"""The largest round number: what a signed 64-bit column holds."""
_HEX = frozenset("0123456789abcdef")
_TWO32 = 1 << 32
_BLOCK_WORDS = struct.Struct(">8I")
"""An HMAC-SHA256 block as the eight 32-bit numbers it holds."""


def seed_hash(server_seed: bytes) -> str:
    """The commitment shown before any bet: SHA-256 of the 32 seed bytes, lowercase hex."""
    return hashlib.sha256(check_server_seed(server_seed)).hexdigest()


def check_server_seed(server_seed: object) -> bytes:
    if not isinstance(server_seed, bytes) or len(server_seed) != SEED_BYTES:
        raise InvalidOption("server-seed", f"must be {SEED_BYTES} bytes (64 hex digits)")
    return server_seed


def parse_server_seed(text: object, name: str = "server-seed") -> bytes:
    """64 hex digits (either case, blanks around them ignored) → the 32 seed bytes."""
    cleaned = text.strip().lower() if isinstance(text, str) else ""
    if len(cleaned) != 2 * SEED_BYTES or not _HEX.issuperset(cleaned):
        raise InvalidOption(name, f"must be 64 hex digits, got {shown(text)}")
    return bytes.fromhex(cleaned)


def check_client_seed(client_seed: object, name: str = "client-seed") -> str:
    """A client seed is printable text of 1 to 64 characters, used as given (UTF-8).

    Control and format characters are refused (a seed is shown back to players, and
    an escape code or a right-to-left mark would disguise it), and so is a lone
    surrogate, which no UTF-8 encodes: a shell hands undecodable bytes over as one.
    """
    if not isinstance(client_seed, str) or not 1 <= len(client_seed) <= MAX_CLIENT_SEED:
        raise InvalidOption(
            name, f"must be text of 1 to {MAX_CLIENT_SEED} characters, got {shown(client_seed)}"
        )
    if not client_seed.isprintable():
        raise InvalidOption(
            name, f"must be printable characters only (no control codes), got {shown(client_seed)}"
        )
    return client_seed


def check_nonce(nonce: object, name: str = "nonce") -> int:
    """A round's number: a whole number from 1 to :data:`MAX_NONCE`."""
    if isinstance(nonce, bool) or not isinstance(nonce, int) or not 1 <= nonce <= MAX_NONCE:
        raise InvalidOption(name, f"must be a whole number from 1 to 2^63 - 1, got {shown(nonce)}")
    return nonce


class FairRandom:
    """The protocol's byte stream as a :class:`~baccara.randomness.RandomSource`.

    ``rejected`` counts draws discarded by the rejection step (the test vectors name it).
    """

    def __init__(self, server_seed: bytes, client_seed: str, nonce: int) -> None:
        self._key = check_server_seed(server_seed)
        self._prefix = f"{check_client_seed(client_seed)}:{check_nonce(nonce)}:"
        self._counter = 0
        self._words: tuple[int, ...] = ()
        self._next = 8  # the next number's place in the block: none read yet
        self.rejected = 0

    def randbelow(self, n: int) -> int:
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= _TWO32:
            raise InvalidOption("n", f"draws are below 1 … 2**32, got {shown(n)}")
        limit = _TWO32 - _TWO32 % n
        while True:
            if self._next == 8:
                # A block is read as eight big-endian 32-bit numbers, in order.
                message = f"{self._prefix}{self._counter}".encode()
                self._words = _BLOCK_WORDS.unpack(hmac.digest(self._key, message, "sha256"))
                self._counter += 1
                self._next = 0
            x = self._words[self._next]
            self._next += 1
            if x < limit:
                return x % n
            self.rejected += 1

    def __repr__(self) -> str:
        return f"FairRandom(<seed>, {self._prefix!r})"
