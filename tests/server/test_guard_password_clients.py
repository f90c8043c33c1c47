"""Nobody can starve the casino: one client cannot fill the password pool.

The pool hashes at most a few passwords at once and lets a few dozen wait; beyond that it
answers 503. Bounded in all only, one address sending forty wrong sign-ins at once (or
one token forty wrong password changes) held all of it, and every other player's
sign-in and sign-up was answered 503 ``busy``. Each client now has at most
``passwords.PER_CLIENT`` checks in the pool; its next is refused it alone (429 with a
Retry-After) and everyone else's are still checked.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

import httpx
import pytest

from baccara.server.domain import accounts, passwords
from tests.server.harness import PASSWORD, Server
from tests.server.test_guard_accounts import ATTACKER, OWNER_HOME, Held, client_from, wait_until

FLOOD = passwords.WORKERS + passwords.WAITING
"""As many password checks as the whole pool takes: enough, from one client, to fill it."""


def refused_to_the_flooder(answers: list[Future[httpx.Response]]) -> list[httpx.Response]:
    """The flood's answers given while its first checks are held: every one past
    ``PER_CLIENT`` is a 429 with a Retry-After, given at once."""
    wait_until(lambda: sum(a.done() for a in answers) >= len(answers) - passwords.PER_CLIENT)
    refused = [a.result() for a in answers if a.done()]
    for answer in refused:
        assert answer.status_code == 429, answer.text
        assert answer.json()["error"] == "too_many_password_checks"
        assert int(answer.headers["retry-after"]) >= 1
    return refused


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Held:
    """The casino's hasher, letting every hash through until a test clears ``go``."""
    hasher = Held()
    hasher.go.set()
    monkeypatch.setattr(accounts, "_hasher", hasher)
    return hasher


def test_one_address_flooding_sign_ins_leaves_another_address_signed_in(
    sqlite_server: Server, held: Held
) -> None:
    sqlite_server.casino.register("ann", PASSWORD)
    held.go.clear()
    pool = sqlite_server.casino.accounts.passwords
    flooder, home = client_from(sqlite_server, ATTACKER), client_from(sqlite_server, OWNER_HOME)
    try:
        with ThreadPoolExecutor(FLOOD + 1) as threads:
            flood = [threads.submit(flooder.post, "/api/auth/login",
                                    json={"username": f"nobody{n}", "password": "wrong one"})
                     for n in range(FLOOD)]  # fmt: skip
            refused = refused_to_the_flooder(flood)
            assert len(refused) == FLOOD - passwords.PER_CLIENT
            wait_until(lambda: pool.taken == passwords.PER_CLIENT)  # the admitted reach the hash
            owner = threads.submit(home.post, "/api/auth/login",
                                   json={"username": "ann", "password": PASSWORD})  # fmt: skip
            wait_until(lambda: pool.taken == passwords.PER_CLIENT + 1 or owner.done())
            held.go.set()
            assert owner.result().status_code == 200, owner.result().text
            assert [a.result().status_code for a in flood if a.result() not in refused] == [
                401
            ] * passwords.PER_CLIENT
    finally:
        held.go.set()
    assert pool.clients == {} and pool.taken == 0  # every admission given back


def test_one_address_flooding_sign_ups_leaves_another_address_signing_up(
    sqlite_server: Server, held: Held
) -> None:
    held.go.clear()
    pool = sqlite_server.casino.accounts.passwords
    flooder, home = client_from(sqlite_server, ATTACKER), client_from(sqlite_server, OWNER_HOME)
    try:
        with ThreadPoolExecutor(FLOOD + 1) as threads:
            flood = [threads.submit(flooder.post, "/api/auth/register",
                                    json={"username": f"rush{n}", "password": PASSWORD})
                     for n in range(FLOOD)]  # fmt: skip
            refused_to_the_flooder(flood)
            newcomer = threads.submit(home.post, "/api/auth/register",
                                      json={"username": "newcomer", "password": PASSWORD})  # fmt: skip
            wait_until(lambda: pool.taken == passwords.PER_CLIENT + 1 or newcomer.done())
            held.go.set()
            assert newcomer.result().status_code == 201, newcomer.result().text
    finally:
        held.go.set()
    # The refused sign-ups were never counted against the address: it may still sign up.
    assert (
        client_from(sqlite_server, ATTACKER)
        .post("/api/auth/register", json={"username": "later", "password": PASSWORD})
        .status_code
        == 201
    )


def test_one_token_flooding_password_changes_from_many_addresses_is_bounded_as_a_user(
    sqlite_server: Server, held: Held
) -> None:
    """A stolen token sends wrong password changes from many addresses at once: the user
    has only ``PER_CLIENT`` in the pool, and another player still signs in."""
    sqlite_server.casino.register("ann", PASSWORD)
    sqlite_server.casino.register("bob", PASSWORD)
    token = (
        client_from(sqlite_server, OWNER_HOME)
        .post("/api/auth/login", json={"username": "ann", "password": PASSWORD})
        .json()["token"]
    )
    held.go.clear()
    pool = sqlite_server.casino.accounts.passwords
    senders = [client_from(sqlite_server, f"192.0.2.{n}", token) for n in range(FLOOD)]
    home = client_from(sqlite_server, "198.51.100.8")
    body = {"current_password": "not the password", "new_password": "a new long password"}
    try:
        with ThreadPoolExecutor(FLOOD + 1) as threads:
            flood = [threads.submit(s.put, "/api/me/password", json=body) for s in senders]
            refused_to_the_flooder(flood)
            wait_until(lambda: pool.taken == passwords.PER_CLIENT)  # the admitted reach the hash
            bob = threads.submit(home.post, "/api/auth/login",
                                 json={"username": "bob", "password": PASSWORD})  # fmt: skip
            wait_until(lambda: pool.taken == passwords.PER_CLIENT + 1 or bob.done())
            held.go.set()
            assert bob.result().status_code == 200, bob.result().text
    finally:
        held.go.set()
    assert pool.clients == {}
