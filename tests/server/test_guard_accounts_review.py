"""The sign-in and sign-up limits cannot be walked around by changing address, guessed
past through a new password, nor asked for free which usernames exist.

- an IPv6 client is one address whatever address of its /64 it takes, for failed sign-ins
  and sign-ups as for connections;
- once failures for a username come from many addresses, a fresh address waits its turn
  too (a botnet gets one guess a turn between its addresses); an address the owner
  signed in from never waits;
- a wrong current password for ``PUT /api/me/password`` is a failed sign-in: five lock
  it, 429 with Retry-After, the right one too until the window has passed;
- an address past its sign-ups learns nothing of which names are taken, and the names
  refused an address are counted and limited apart from the accounts it makes;
- a sign-up whose name another takes while its password is hashed does not use up one
  of the address's accounts.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from argon2 import PasswordHasher

from baccara.server.clock import ManualClock
from baccara.server.domain import accounts, attempts
from tests.server.conftest import settings_for
from tests.server.harness import PASSWORD, Server, in_process
from tests.server.test_guard_accounts import (
    OWNER_HOME,
    client_from,
    retry_after,
    sign_in,
    sign_up,
)

SUBNET = "2001:db8:7:7::"
"""One IPv6 subscriber's /64: any address in it is theirs to take."""


def in_subnet(host: int) -> str:
    return f"{SUBNET}{host:x}"


@pytest.fixture
def limited(sqlite_url: str, clock: ManualClock) -> Iterator[Server]:
    """A casino at the sign-up limits ``baccara serve`` starts with (5 an hour, 20 a day)."""
    settings = settings_for(sqlite_url, sign_ups_per_hour=5, sign_ups_per_day=20)
    with in_process(settings, clock) as started:
        yield started


# --- addresses ---------------------------------------------------------------------------


def test_an_ipv6_client_guessing_from_every_address_of_its_64_is_one_address(
    sqlite_server: Server,
) -> None:
    sqlite_server.casino.register("boss", PASSWORD, "admin")
    for host in range(1, attempts.PAIR_FAILURES + 1):
        guess = sign_in(client_from(sqlite_server, in_subnet(host)), "boss", "guess")
        assert guess.status_code == 401, guess.text
    locked = sign_in(client_from(sqlite_server, in_subnet(0xBEEF)), "boss", "one more")
    assert locked.json()["error"] == "too_many_attempts", locked.text
    assert "from this address" in locked.json()["detail"]
    assert retry_after(locked) > attempts.MAX_DELAY  # the pair's lock, not a turn's wait


def test_an_ipv4_client_written_as_ipv6_is_the_same_address(sqlite_server: Server) -> None:
    sqlite_server.casino.register("boss", PASSWORD, "admin")
    for _ in range(attempts.PAIR_FAILURES):
        guess = sign_in(client_from(sqlite_server, "203.0.113.9"), "boss", "guess")
        assert guess.status_code == 401, guess.text
    mapped = sign_in(client_from(sqlite_server, "::ffff:203.0.113.9"), "boss", "guess")
    assert "from this address" in mapped.json()["detail"], mapped.text


def test_an_ipv6_client_makes_its_accounts_from_its_64_not_from_each_address(
    limited: Server,
) -> None:
    for host in range(attempts.SIGN_UPS_PER_HOUR):
        assert sign_up(client_from(limited, in_subnet(host + 1)), f"six{host}").status_code == 201
    refused = sign_up(client_from(limited, in_subnet(0xCAFE)), "sixmore")
    assert refused.json()["error"] == "too_many_sign_ups", refused.text
    assert sign_up(client_from(limited, "2001:db8:7:8::1"), "neighbour").status_code == 201


# --- a botnet of fresh addresses ---------------------------------------------------------


def test_a_botnet_of_fresh_addresses_gets_one_guess_a_turn_between_them(
    sqlite_server: Server,
) -> None:
    sqlite_server.casino.register("boss", PASSWORD, "admin")
    bots = iter(client_from(sqlite_server, f"192.0.2.{n}") for n in range(1, 200))
    for number in range(attempts.SLOW_AFTER):  # a few addresses' first tries are heard
        assert sign_in(next(bots), "boss", f"guess {number}").status_code == 401
    fresh = sign_in(next(bots), "boss", "a fresh address")
    assert fresh.json()["error"] == "too_many_attempts", fresh.text
    wait = retry_after(fresh)
    assert 0 < wait <= attempts.MAX_DELAY
    for _ in range(3):  # one guess a turn, whichever address sends it
        sqlite_server.advance(wait)
        assert sign_in(next(bots), "boss", "its turn").status_code == 401
        again = sign_in(next(bots), "boss", "too soon")
        assert again.status_code == 429
        assert retry_after(again) >= wait  # growing with the failures
        wait = retry_after(again)


def test_the_owner_from_an_address_they_signed_in_from_never_waits_a_turn(
    sqlite_server: Server,
) -> None:
    sqlite_server.casino.register("boss", PASSWORD, "admin")
    assert sign_in(client_from(sqlite_server, OWNER_HOME), "boss").status_code == 200
    for n in range(1, 41):
        guess = sign_in(client_from(sqlite_server, f"192.0.2.{n}"), "boss", "guess")
        assert guess.status_code in {401, 429}, guess.text
    home = sign_in(client_from(sqlite_server, OWNER_HOME), "boss")
    assert home.status_code == 200, home.text
    # On a network the casino has not seen them on, the owner is slowed, not locked out.
    cafe = client_from(sqlite_server, "198.51.100.200")
    wait = retry_after(sign_in(cafe, "boss"))
    assert wait <= attempts.MAX_DELAY
    sqlite_server.advance(wait)
    assert sign_in(cafe, "boss").status_code == 200


def test_one_address_guessing_never_slows_the_owner_elsewhere(sqlite_server: Server) -> None:
    sqlite_server.casino.register("boss", PASSWORD, "admin")
    attacker = client_from(sqlite_server, "203.0.113.9")
    for _ in range(attempts.PAIR_FAILURES + 3):
        sign_in(attacker, "boss", "guess")
    assert sign_in(client_from(sqlite_server, "198.51.100.200"), "boss").status_code == 200


# --- a new password ----------------------------------------------------------------------


def change(client: httpx.Client, current: str, new: str = "another password") -> httpx.Response:
    return client.put("/api/me/password", json={"current_password": current, "new_password": new})


def test_a_wrong_current_password_is_counted_and_limited(sqlite_server: Server) -> None:
    player = sqlite_server.player("ann")
    for number in range(attempts.PAIR_FAILURES):
        wrong = change(player.http, f"guess {number}")
        assert (wrong.status_code, wrong.json()["error"]) == (403, "forbidden"), wrong.text
    locked = change(player.http, "one more guess")
    assert locked.json()["error"] == "too_many_attempts", locked.text
    assert 0 < retry_after(locked) <= attempts.WINDOW
    assert change(player.http, PASSWORD).status_code == 429  # the right one too, for now
    sqlite_server.advance(attempts.WINDOW)
    assert change(player.http, PASSWORD).status_code == 200


def test_a_wrong_current_password_is_counted_where_it_came_from(sqlite_server: Server) -> None:
    """The failures of a new password are the address's that sent them: that address (its
    whole /64) is locked for the user, as after as many wrong sign-ins, and another is not."""
    token = sqlite_server.player("ann").token
    thief = client_from(sqlite_server, in_subnet(1), token)
    for number in range(attempts.PAIR_FAILURES):
        assert change(thief, f"guess {number}").status_code == 403
    assert sign_in(client_from(sqlite_server, in_subnet(2)), "ann").status_code == 429
    assert sign_in(client_from(sqlite_server, OWNER_HOME), "ann").status_code == 200


def test_a_right_current_password_is_not_counted(sqlite_server: Server) -> None:
    player = sqlite_server.player("ann")
    password = PASSWORD
    for number in range(attempts.PAIR_FAILURES + 1):
        new = f"password number {number}"
        answer = change(player.http, password, new)
        assert answer.status_code == 200, answer.text
        player.http.headers["Authorization"] = f"Bearer {answer.json()['token']}"
        password = new


# --- which names exist -------------------------------------------------------------------


def test_an_address_past_its_sign_ups_learns_nothing_of_which_names_exist(
    limited: Server,
) -> None:
    flood = client_from(limited, "203.0.113.9")
    for n in range(attempts.SIGN_UPS_PER_HOUR):
        assert sign_up(flood, f"flood{n}").status_code == 201
    for name in ("flood0", "FLOOD1", "no-one-has-this"):  # taken or not: the same answer
        refused = sign_up(flood, name)
        assert refused.json()["error"] == "too_many_sign_ups", (name, refused.text)


def test_names_refused_an_address_are_limited_apart_from_its_accounts(
    limited: Server,
) -> None:
    limited.casino.register("boss", PASSWORD, "admin")
    prober = client_from(limited, "203.0.113.9")
    for n in range(attempts.NAMES_REFUSED_PER_HOUR - 1):
        name = "boss" if n % 2 else "B0SS"
        assert sign_up(prober, name).status_code == 409
    for n in range(attempts.SIGN_UPS_PER_HOUR - 1):  # its accounts are untouched by them
        assert sign_up(prober, f"newcomer{n}").status_code == 201
    assert sign_up(prober, "BOSS").status_code == 409  # the last name it may be refused
    for name in ("boss", "a-free-name"):
        refused = sign_up(prober, name)
        assert refused.json()["error"] == "too_many_sign_ups", refused.text
        assert "usernames refused" in refused.json()["detail"]
        assert 0 < retry_after(refused) <= 3600
    limited.advance(3600)
    assert sign_up(prober, "boss").status_code == 409


# --- a name lost to a race ---------------------------------------------------------------


class Gate(PasswordHasher):
    """A cheap Argon2 that holds the hash of one password until the test lets it go."""

    HELD = "held password"

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)
        self.go, self.holding = threading.Event(), threading.Event()

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        if password == self.HELD:
            self.holding.set()
            assert self.go.wait(60)
        return super().hash(password, salt=salt)


def test_a_sign_up_whose_name_is_taken_while_it_hashes_leaves_the_address_its_account(
    sqlite_url: str, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate()
    monkeypatch.setattr(accounts, "_hasher", gate)
    settings = settings_for(sqlite_url, sign_ups_per_hour=1, sign_ups_per_day=1)
    with in_process(settings, clock) as server:
        newcomer = client_from(server, "203.0.113.9")
        try:
            with ThreadPoolExecutor(1) as threads:
                racing = threads.submit(sign_up, newcomer, "racer", Gate.HELD)
                assert gate.holding.wait(30)
                server.casino.register("racer", PASSWORD)  # another takes the name meanwhile
                gate.go.set()
                lost = racing.result()
        finally:
            gate.go.set()
        assert (lost.status_code, lost.json()["error"]) == (409, "username_taken"), lost.text
        made = sign_up(newcomer, "racer2")
        assert made.status_code == 201, made.text
