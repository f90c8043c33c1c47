"""Signing up and signing in can neither starve the casino nor lock a player out.

- a wrong password counts against its (username, address) pair: five from one address
  lock that pair, never the owner signing in from anywhere else;
- failures from many addresses slow the username down (a Retry-After growing with them,
  capped), and the owner from an address they signed in from still signs in at once;
- one address makes at most so many accounts an hour and a day, counted in the database
  (a restart forgets nothing);
- usernames are one without regard to case or to look-alikes, the casino's own names are
  reserved, through the API and ``baccara user add`` alike;
- every password is hashed on a bounded pool of its own: forty sign-ups at once leave
  ``/api/tables`` prompt and the memory within two hashes' worth, and work beyond the
  pool's bound is answered 503 with a Retry-After, not piled up.

Each client here comes from an address of its own, as behind a trusted proxy each
player's would (the casino reads ``request.client``).
"""

from __future__ import annotations

import pathlib
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from alembic import command
from alembic.config import Config
from argon2 import PasswordHasher
from sqlalchemy import insert, select

from baccara.server.clock import ManualClock
from baccara.server.db.database import MIGRATIONS, Database
from baccara.server.db.ledger import wallet_name
from baccara.server.db.models import Account, User
from baccara.server.domain import accounts, attempts, passwords
from tests.helpers import assert_refused, run
from tests.server.conftest import settings_for
from tests.server.harness import PASSWORD, InProcessTransport, Server, in_process

OWNER_HOME = "198.51.100.7"
ATTACKER = "203.0.113.9"


def client_from(server: Server, address: str, token: str | None = None) -> httpx.Client:
    """A client of the in-process casino whose requests come from ``address``."""
    assert server.loop is not None
    transport = InProcessTransport(server.loop, server.app)
    transport.asgi = httpx.ASGITransport(server.app, raise_app_exceptions=False,
                                         client=(address, 40_000))  # fmt: skip
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    client = httpx.Client(base_url=server.url, transport=transport, headers=headers, timeout=60)
    server.clients.append(client)
    return client


def sign_in(client: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/auth/login", json={"username": name, "password": password})


def sign_up(client: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/auth/register", json={"username": name, "password": password})


def retry_after(answer: httpx.Response) -> int:
    assert answer.status_code == 429, answer.text
    return int(answer.headers["retry-after"])


@pytest.fixture
def limited(sqlite_url: str, clock: ManualClock) -> Iterator[Server]:
    """A casino at the sign-up limits ``baccara serve`` starts with (5 an hour, 20 a day)."""
    settings = settings_for(sqlite_url, sign_ups_per_hour=5, sign_ups_per_day=20)
    with in_process(settings, clock) as started:
        yield started


# --- signing in --------------------------------------------------------------------------


def test_wrong_passwords_from_one_address_lock_that_address_out_not_the_owner(
    sqlite_server: Server,
) -> None:
    sqlite_server.casino.register("boss", PASSWORD, "admin")
    attacker = client_from(sqlite_server, ATTACKER)
    for _ in range(attempts.PAIR_FAILURES):
        assert sign_in(attacker, "boss", "not the password").status_code == 401
    locked = sign_in(attacker, "boss", "not the password")
    assert locked.json()["error"] == "too_many_attempts"
    assert 0 < retry_after(locked) <= attempts.WINDOW
    assert retry_after(sign_in(attacker, "boss")) > 0  # the right password too, from there
    # Changing the name's case is no way round the lock: it is the same name.
    assert sign_in(attacker, "BOSS", "not the password").status_code == 429

    owner = sign_in(client_from(sqlite_server, OWNER_HOME), "boss")
    assert owner.status_code == 200, owner.text

    sqlite_server.advance(attempts.WINDOW)  # the lock lasts the window, not for ever
    assert sign_in(attacker, "boss").status_code == 200


def test_failures_from_many_addresses_slow_the_username_and_the_owner_still_signs_in(
    sqlite_server: Server,
) -> None:
    sqlite_server.casino.register("boss", PASSWORD, "admin")
    assert sign_in(client_from(sqlite_server, OWNER_HOME), "boss").status_code == 200
    bots = [client_from(sqlite_server, f"192.0.2.{n}") for n in range(1, 41)]
    waits = []
    for number, bot in enumerate(bots, start=1):
        # Each guess waits its turn once there have been a few, a fresh address's too.
        guess = sign_in(bot, "boss", f"guess {number}")
        if number > attempts.SLOW_AFTER:
            waits.append(retry_after(guess))
            sqlite_server.advance(waits[-1])
            guess = sign_in(bot, "boss", f"guess {number}")
        assert guess.status_code == 401, guess.text  # its turn: heard
    assert waits == sorted(waits) and waits[0] < waits[-1]  # growing with the failures
    assert waits[-1] <= attempts.MAX_DELAY  # and capped: slowed down, never refused

    owner = sign_in(client_from(sqlite_server, OWNER_HOME), "boss")  # signed in there before
    assert owner.status_code == 200, owner.text

    sqlite_server.advance(waits[-1])  # its turn comes: the attempt is heard again
    assert sign_in(bots[0], "boss", "yet another guess").status_code == 401
    assert sign_in(bots[0], "boss", "so soon again").status_code == 429


def test_wrong_passwords_racing_from_one_address_get_no_more_tries_than_one_by_one(
    server: Server,
) -> None:
    """Twenty wrong passwords at once from one address: five are heard, as they would be
    one after another — on PostgreSQL too, where the attempts' transactions run together."""
    server.casino.register("boss", PASSWORD, "admin")
    server.casino.accounts.passwords.per_client = 20  # all twenty reach the attempts' count
    attacker = client_from(server, ATTACKER)
    with ThreadPoolExecutor(20) as threads:
        answers = list(threads.map(lambda n: sign_in(attacker, "boss", f"guess {n}"), range(20)))
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [401] * attempts.PAIR_FAILURES + [429] * (20 - attempts.PAIR_FAILURES)


def test_sign_ups_racing_from_one_address_make_no_more_accounts_than_one_by_one(
    database_url: str, clock: ManualClock
) -> None:
    with in_process(settings_for(database_url, sign_ups_per_hour=3), clock) as limited_here:
        limited_here.casino.accounts.passwords.per_client = 12  # all reach the count
        flood = client_from(limited_here, ATTACKER)
        with ThreadPoolExecutor(12) as threads:
            answers = list(threads.map(lambda n: sign_up(flood, f"swarm{n}"), range(12)))
    assert sorted(answer.status_code for answer in answers) == [201] * 3 + [429] * 9


def test_a_username_signs_in_without_regard_to_case_never_as_a_look_alike(
    sqlite_server: Server,
) -> None:
    sqlite_server.casino.register("boss", PASSWORD, "admin")
    client = client_from(sqlite_server, OWNER_HOME)
    token = sign_in(client, "BOSS").json()["token"]
    me = client_from(sqlite_server, OWNER_HOME, token).get("/api/me").json()
    assert (me["username"], me["role"]) == ("boss", "admin")
    assert sign_in(client, "b0ss").status_code == 401


# --- signing up --------------------------------------------------------------------------


def test_one_address_makes_so_many_accounts_an_hour_and_a_day(
    limited: Server, sqlite_url: str, clock: ManualClock
) -> None:
    flood = client_from(limited, ATTACKER)
    made = 0
    for _hour in range(4):
        for _ in range(5):
            assert sign_up(flood, f"flood{made}").status_code == 201
            made += 1
        refused = sign_up(flood, f"flood{made}")
        assert refused.json()["error"] == "too_many_sign_ups", refused.text
        assert "an hour" in refused.json()["detail"]
        assert 3000 < retry_after(refused) <= 3600
        limited.advance(3600)
    a_day = sign_up(flood, "floodday")  # twenty today: the hour is no longer the limit
    assert "a day" in a_day.json()["detail"]
    assert 3600 * 19 < retry_after(a_day) <= 86_400
    assert sign_up(client_from(limited, OWNER_HOME), "newcomer").status_code == 201
    # The limit is looked at before the name: past it, a taken name is not told apart.
    assert sign_up(flood, "flood0").status_code == 429
    assert sign_up(client_from(limited, OWNER_HOME), "flood0").status_code == 409


def test_the_sign_up_count_survives_a_restart(sqlite_url: str, clock: ManualClock) -> None:
    settings = settings_for(sqlite_url, sign_ups_per_hour=2, sign_ups_per_day=20)
    with in_process(settings, clock) as first:
        for name in ("amy", "ben"):
            assert sign_up(client_from(first, ATTACKER), name).status_code == 201
    with in_process(settings, clock) as second:
        assert retry_after(sign_up(client_from(second, ATTACKER), "cal")) > 3000


def test_usernames_are_one_without_regard_to_case_or_look_alikes(sqlite_server: Server) -> None:
    client = client_from(sqlite_server, OWNER_HOME)
    assert sign_up(client, "boss").status_code == 201
    for name in ("BOSS", "Boss", "b0ss", "B0SS"):
        refused = sign_up(client_from(sqlite_server, f"192.0.2.{len(name)}"), name)
        assert (refused.status_code, refused.json()["error"]) == (409, "username_taken"), name
    assert "looks like 'boss'" in sign_up(client, "b0ss").json()["detail"]
    assert sign_up(client, "modern").status_code == 201
    assert sign_up(client, "rnodern").status_code == 409  # 'rn' reads as 'm'
    assert sign_up(client, "boss2").status_code == 201  # a name of its own


def test_sign_ups_racing_for_one_name_make_one_account(server: Server) -> None:
    """Eight spellings of one name at once: one account, seven refusals, no 500 — on
    PostgreSQL the unique key refuses the ones that passed the check together."""
    names = ["racer", "RACER", "Racer", "rAcer", "raCer", "racEr", "raceR", "RaCeR"]
    with ThreadPoolExecutor(len(names)) as threads:
        answers = list(threads.map(
            lambda n: sign_up(client_from(server, f"192.0.2.{n}"), names[n]), range(len(names))))  # fmt: skip
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [201] + [409] * 7, [a.text for a in answers]


def test_the_names_the_casinos_records_use_are_reserved(sqlite_server: Server) -> None:
    for name in ("table", "TABLE", "tab1e", "system", "dealer", "dea1er", "admin", "Admin",
                 "house", "h0use", "casino", "CASIN0"):  # fmt: skip
        refused = sign_up(sqlite_server.client(), name)
        assert (refused.status_code, refused.json()["error"]) == (409, "username_taken"), name
        assert "reserved" in refused.json()["detail"]


def test_baccara_user_add_refuses_the_same_names(
    monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'casino.db'}")
    assert run("user", "add", "boss", "--role", "admin", stdin="password1\n").returncode == 0
    assert_refused(run("user", "add", "BOSS", stdin="password1\n"), "'BOSS' is taken")
    assert_refused(run("user", "add", "b0ss", stdin="password1\n"), "looks like 'boss'")
    assert_refused(run("user", "add", "system", "--role", "admin", stdin="password1\n"),
                   "'system' is reserved")  # fmt: skip


def test_names_made_before_the_keys_keep_signing_in_and_are_kept_apart(
    tmp_path: pathlib.Path, clock: ManualClock
) -> None:
    """A database where ``boss`` and ``BOSS`` were both made before names had keys: the
    migration gives each a key of its own, both go on signing in, no third joins them."""
    url = f"sqlite:///{tmp_path / 'casino.db'}"
    database = Database(url)
    try:
        with database.engine.begin() as connection:
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = connection
            command.upgrade(config, "0008")
            hashed = accounts.hash_password(PASSWORD)
            for name in ("boss", "BOSS"):
                user_id = connection.execute(insert(User).values(
                    username=name, password_hash=hashed, role="player", created_at=0.0,
                ).returning(User.id)).scalar_one()  # fmt: skip
                connection.execute(insert(Account).values(
                    name=wallet_name(user_id), kind="wallet", user_id=user_id, balance_cents=0))  # fmt: skip
    finally:
        database.dispose()
    with in_process(settings_for(url), clock) as server:
        with server.casino.db.read() as session:
            keys = dict(session.execute(select(User.username, User.name_key)).all())
        assert keys["boss"] == "boss" and keys["BOSS"].startswith("boss#")
        client = client_from(server, OWNER_HOME)
        for name in ("boss", "BOSS"):
            token = sign_in(client, name).json()["token"]
            assert client_from(server, OWNER_HOME, token).get("/api/me").json()["username"] == name
        assert sign_up(client, "B0ss").status_code == 409


# --- the password pool -------------------------------------------------------------------


class Counted(PasswordHasher):
    """The casino's own Argon2 (64 MiB a hash), counting the hashes running at once."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()
        self.running = self.most = 0

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            return super().hash(password, salt=salt)
        finally:
            with self.lock:
                self.running -= 1


def _resident() -> int:
    """This process's resident memory now, in bytes."""
    pages = int(pathlib.Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096


@pytest.mark.slow
def test_forty_sign_ups_at_once_leave_the_lobby_prompt_and_the_memory_bounded(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    hasher = Counted()
    monkeypatch.setattr(accounts, "_hasher", hasher)
    lobby = sqlite_server.client()

    def timed() -> float:
        start = time.perf_counter()
        assert lobby.get("/api/tables").status_code == 200
        return time.perf_counter() - start

    idle = statistics.median(timed() for _ in range(9))
    before = _resident()
    peak = [before]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _resident())
            time.sleep(0.002)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    clients = [client_from(sqlite_server, f"192.0.2.{n}") for n in range(40)]
    with ThreadPoolExecutor(40) as pool:
        answers = [pool.submit(sign_up, c, f"rush{n}") for n, c in enumerate(clients)]
        lobby_times = []
        while not all(answer.done() for answer in answers):
            lobby_times.append(timed())
        results = [answer.result() for answer in answers]
    done.set()
    sampler.join()

    statuses = [answer.status_code for answer in results]
    assert set(statuses) <= {201, 503}, statuses
    assert statuses.count(201) >= passwords.WORKERS + passwords.WAITING
    for answer in results:
        if answer.status_code == 503:
            assert answer.json()["error"] == "busy" and int(answer.headers["retry-after"]) > 0
    assert hasher.most <= passwords.WORKERS
    assert len(lobby_times) >= 3 and max(lobby_times) < max(3.0, 25 * idle), (idle, lobby_times)
    hash_memory = hasher.memory_cost * 1024
    assert peak[0] - before <= (passwords.WORKERS + 1) * hash_memory, (peak[0] - before) / 2**20


class Held:
    """A hasher that holds every hash until the test lets them go."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)

    def hash(self, password: str) -> str:
        assert self.go.wait(60)
        return self.cheap.hash(password)

    def verify(self, stored: str, password: str) -> bool:
        assert self.go.wait(60)
        return self.cheap.verify(stored, password)


def wait_until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition never came"
        time.sleep(0.01)


@pytest.fixture
def one_sign_up_each(sqlite_url: str, clock: ManualClock) -> Iterator[Server]:
    """A casino where an address makes one account a day."""
    settings = settings_for(sqlite_url, sign_ups_per_hour=1, sign_ups_per_day=1)
    with in_process(settings, clock) as started:
        yield started


def test_a_full_password_pool_answers_503_and_the_rest_of_the_casino_goes_on(
    one_sign_up_each: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    sqlite_server = one_sign_up_each
    sqlite_server.casino.register("ann", PASSWORD)
    player = sqlite_server.sign_in("ann")
    held = Held()
    monkeypatch.setattr(accounts, "_hasher", held)
    pool = sqlite_server.casino.accounts.passwords
    bound = passwords.WORKERS + passwords.WAITING
    clients = [client_from(sqlite_server, f"192.0.2.{n}") for n in range(bound)]
    try:
        with ThreadPoolExecutor(bound) as threads:
            waiting = [threads.submit(sign_up, c, f"held{n}") for n, c in enumerate(clients)]
            wait_until(lambda: pool.taken == bound)
            home = client_from(sqlite_server, OWNER_HOME)
            for _ in range(attempts.PAIR_FAILURES + 1):  # refused for want of room: uncounted
                busy = sign_up(home, "one-more")
                assert (busy.status_code, busy.json()["error"]) == (503, "busy"), busy.text
                assert int(busy.headers["retry-after"]) >= 1
                assert sign_in(home, "ann").status_code == 503
            # Nothing else waits on the pool: the lobby and the player's own page answer.
            assert player.http.get("/api/tables").status_code == 200
            assert player.http.get("/api/me").json()["username"] == "ann"
            held.go.set()
            assert [w.result().status_code for w in waiting] == [201] * bound
    finally:
        held.go.set()
    # Neither the sign-ups nor the sign-ins the pool had no room for counted: the address's
    # one account a day is still there, and its (ann, address) pair is not locked.
    assert sign_up(client_from(sqlite_server, OWNER_HOME), "one-more").status_code == 201
    assert sign_in(client_from(sqlite_server, OWNER_HOME), "ann").status_code == 200
