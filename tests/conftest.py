"""Every test is marked by what it needs, from what it uses, so that no test can forget.

- ``postgres``: a PostgreSQL cluster — the ``postgres`` fixture, or the ``postgresql``
  side of a fixture parametrised by database (``database_url``, the ledger's ``database``).
- ``browser``: Chromium — anything under tests/web/, or the browser's fixtures.
- ``process``: a real ``baccara serve`` process — a test that reaches
  :func:`tests.server.harness.serve`, itself or through a helper, a class or a fixture of
  the tests.

``make test-quick`` leaves the three out, so it needs neither PostgreSQL nor Chromium;
``make test`` runs them, and there a missing PostgreSQL or Chromium is an error, never a
skip. The marking is checked as each test runs: a test that set up PostgreSQL or started
a server process without its marker fails, saying so, instead of slipping into the
quick run.
"""

from __future__ import annotations

import inspect
import os
import pathlib
import sys
import types
from collections.abc import Generator, Iterable, Iterator
from typing import Any

import pytest
from argon2 import PasswordHasher

from baccara.server.db.database import Database
from baccara.server.domain import accounts

# The tests sign up hundreds of players, every one from the same address (this host's);
# the limit on sign-ups per address is the subject of tests/server/test_guard_accounts.py,
# which sets it itself. Set here, before any test builds its settings, so it reaches the
# casinos in this process and the `baccara serve` processes the tests start alike.
os.environ.setdefault("BACCARA_SIGN_UPS_PER_HOUR", "1000000")
os.environ.setdefault("BACCARA_SIGN_UPS_PER_DAY", "1000000")

WEB = pathlib.Path(__file__).resolve().parent / "web"
BROWSER_FIXTURES = frozenset({"playwright", "browser", "context", "page"})
DATABASE_PARAM = "postgresql"
"""The param that puts a fixture parametrised by database on PostgreSQL."""


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    """A function's code and the code of its lambdas, comprehensions and inner functions."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _ours(thing: object) -> bool:
    return str(getattr(thing, "__module__", "") or "").split(".")[0] == "tests"


def _named(function: types.FunctionType) -> Iterator[object]:
    """What a function of the tests names: its globals, and attributes of modules it names."""
    space = function.__globals__
    for code in _codes(function.__code__):
        modules = [space[n] for n in code.co_names if isinstance(space.get(n), types.ModuleType)]
        for name in code.co_names:
            if name in space:
                yield space[name]
            for module in modules:
                if hasattr(module, name):
                    yield getattr(module, name)


def _reaches(target: object, roots: Iterable[object]) -> bool:
    """Whether calling ``roots`` may call ``target``: through every function and class of
    the tests they name, however deep."""
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        thing = stack.pop()
        thing = getattr(thing, "__func__", thing)  # a bound method
        if isinstance(thing, (staticmethod, classmethod)):
            thing = thing.__func__
        if callable(thing):
            thing = inspect.unwrap(thing)
        if thing is target:
            return True
        if id(thing) in seen or not _ours(thing):
            continue
        seen.add(id(thing))
        if isinstance(thing, types.FunctionType):
            stack.extend(_named(thing))
        elif isinstance(thing, type):
            stack.extend(vars(thing).values())
        elif isinstance(thing, property):
            stack.extend(f for f in (thing.fget, thing.fset) if f is not None)
    return False


def _fixture_functions(item: pytest.Item) -> list[object]:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    return [definition.func for defs in info.name2fixturedefs.values() for definition in defs]


def _server_process() -> object:
    """The harness's ``serve``; if no test module imported the harness, nothing reaches it."""
    harness = sys.modules.get("tests.server.harness")
    return inspect.unwrap(harness.serve) if harness is not None else None


def needs(item: pytest.Item) -> set[str]:
    """The markers ``item`` should carry, from the fixtures and helpers it uses."""
    marks: set[str] = set()
    fixtures = set(getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    params = callspec.params.values() if callspec is not None else ()
    if "postgres" in fixtures or any(value == DATABASE_PARAM for value in params):
        marks.add("postgres")
    if item.path.is_relative_to(WEB) or fixtures & BROWSER_FIXTURES:
        marks.add("browser")
    function, server = getattr(item, "obj", None), _server_process()
    if (
        function is not None
        and server is not None
        and _reaches(server, [function, *_fixture_functions(item)])
    ):
        marks.add("process")
    return marks


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Before ``-m`` chooses among them, every test gets the markers of what it needs."""
    for item in items:
        for name in sorted(needs(item)):
            item.add_marker(name)


# --- what every casino of the tests shares ---------------------------------------------


@pytest.fixture(autouse=True)
def quick_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    """Passwords hashed with Argon2 at its lowest cost: the tests sign up and in hundreds
    of users, in process or behind a browser, at a second or so each at the casino's cost
    on a loaded machine, and what that cost buys is not what they test."""
    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    monkeypatch.setattr(accounts, "_hasher", cheap)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """An empty SQLite database at the newest migration, made once: each test's SQLite
    database starts as a copy (:func:`tests.server.harness.fresh_sqlite`), as the casino
    would have migrated a new one."""
    path = tmp_path_factory.mktemp("migrated") / "casino.db"
    database = Database(f"sqlite:///{path}")
    try:
        database.migrate()
    finally:
        database.dispose()
    return path


# --- the check, as each test runs ---------------------------------------------------------

_started: list[str] = []
"""Server processes started by the running test (an audit hook sees each one)."""


def _is_server(arguments: Any) -> bool:
    words = [str(word) for word in arguments] if isinstance(arguments, (list, tuple)) else []
    return "serve" in words and "--port" in words and "baccara" in words


def _watch_processes(event: str, arguments: tuple[Any, ...]) -> None:
    if event == "subprocess.Popen" and len(arguments) > 1 and _is_server(arguments[1]):
        _started.append(" ".join(str(word) for word in arguments[1]))


sys.addaudithook(_watch_processes)


def _unmarked(item: pytest.Item) -> list[str]:
    marked = {mark.name for mark in item.iter_markers()}
    request = getattr(item, "_request", None)
    used = set(getattr(request, "_fixture_defs", {}))
    problems = []
    if "postgres" in used and "postgres" not in marked:
        problems.append("set up PostgreSQL")
    if used & BROWSER_FIXTURES and "browser" not in marked:
        problems.append("started Chromium")
    if _started and "process" not in marked:
        problems.append(f"started a server process ({_started[0]})")
    return problems


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    _started.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if call.when == "call" and report.passed:
        problems = _unmarked(item)
        if problems:
            report.outcome = "failed"
            report.longrepr = (
                f"{item.nodeid} {' and '.join(problems)} but is not marked for it:"
                " tests/conftest.py marks tests by what they use and missed this one"
            )
    return report
