"""The layers show in the tree and imports point one way: down.

basic types → games/ → exact/ and paytables.py, sim/, table/ → render/ → server/ →
cli/. A module may import its own layer's package or any lower layer, never a higher
one nor a sibling of its own rank (sim/ and table/ know nothing of each other). Files
a user names are read through ``files.py`` by two parts only: ``paytables.py`` (for
the commands and ``baccara.load_paytable``) and the commands; ``games/`` never
imports either reader, and no other layer imports ``files.py``.
Imports must also form no cycle, counting those deferred into a function (a command
importing its worker module when it runs), those at the top of a module and those
under ``if TYPE_CHECKING:`` (a cycle the type checker alone sees is still two modules
that cannot be understood apart). Inside ``server/`` the parts are layered the same
way (:data:`SERVER_RANK`): the log and the metrics, then the database, then the
cluster, then the casino's domain, then HTTP, then the app that wires them. The modules of the cluster are layered too
(:data:`CLUSTER_RANK`), and nothing the casino's façade wires imports it
(:data:`BEHIND_THE_FACADE`). The checks read the source with :mod:`ast`, so an import hidden inside a
function counts too.
"""

from __future__ import annotations

import ast
import functools
import pathlib
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "src" / "baccara"

BASIC = ("errors", "options", "randomness", "fair", "files", "money", "cards", "tiles")
RANK: dict[str, int] = {
    **dict.fromkeys(BASIC, 0),
    "games": 1,
    "exact": 2,
    "paytables": 2,
    "sim": 3,
    "table": 3,
    "render": 4,
    "server": 5,
    "cli": 6,
}
"""Each top-level part of the package and its layer; ``baccara`` itself is the public API."""

SERVER_RANK: dict[str, int] = {
    "settings": 0,
    "errors": 0,
    "clock": 0,
    "observe": 1,
    "db": 2,
    "cluster": 3,
    "domain": 4,
    "http": 5,
    "app": 6,
}
"""Each part of ``server/`` and its layer: a part imports its own or lower ones only."""

CLUSTER_RANK: dict[str, int] = {
    "leases": 0,
    "hub": 0,
    "placement": 0,
    "bends": 1,
    "membership": 1,
    "mirror": 1,
    "notify": 2,
}
"""Each module of ``server/cluster/`` and its layer: the leases, the hub and the placement
of tables by nginx's hash; the squeeze's
bends, relayed through the hub; the membership
(joining, taking and handing over tables, the ``Dealer`` protocol) and the mirrors of
tables dealt elsewhere, which know nothing of each other; the notification bus, which
tells the other processes and feeds the mirrors."""

FACADE = "baccara.server.domain.casino"
BEHIND_THE_FACADE = (
    "baccara.server.cluster",
    "baccara.server.db",
    "baccara.server.domain.runner",
    "baccara.server.domain.views",
)
"""What the ``Casino`` wires, which never imports it — not through another module, not for
the type checker: the cluster asks the runner for what it needs through the ``Dealer``
protocol, so each can be built and tested without the façade."""

TOP = ("__init__", "__main__")
"""The package's own modules: the public API and ``python -m baccara``, above every layer."""

FILE_READER = "baccara.files"
READS_FILES = ("paytables", "cli")
"""The parts that may import :data:`FILE_READER`: the paytable reader, and the commands
(``baccara verify`` reads a round record). The rules, the analysis, the simulator, the
table, the renderer and the server read no file a user names."""


def _layer(module: str) -> str:
    """``baccara.sim.kernels.rng`` → ``sim``; a basic module stands for the basic layer."""
    part = module.split(".")[1] if "." in module else "__init__"
    return "basic" if part in BASIC else part


def _modules() -> Iterator[tuple[str, pathlib.Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        yield name, path


def _is_type_checking(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``): a block that never runs."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", None)
    return name == "TYPE_CHECKING"


def _run_time_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:`` (its ``else`` runs)."""
    for child in ast.iter_child_nodes(tree):
        if _is_type_checking(child):
            assert isinstance(child, ast.If)
            yield child.test
            for node in child.orelse:
                yield node
                yield from _run_time_nodes(node)
            continue
        yield child
        yield from _run_time_nodes(child)


def _imports(path: pathlib.Path, module: str, scope: str) -> set[str]:
    """The baccara modules ``path`` imports (relative imports resolved).

    ``scope`` is ``"top"`` (module-level imports only), ``"run"`` (every import that can
    run: module level and deferred into functions, not those under ``if TYPE_CHECKING:``)
    or ``"all"`` (every import statement in the file).
    """
    tree = ast.parse(path.read_text(), str(path))
    found: set[str] = set()
    nodes = {
        "top": lambda: list(tree.body),
        "run": lambda: list(_run_time_nodes(tree)),
        "all": lambda: list(ast.walk(tree)),
    }[scope]()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "baccara"}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")[: -node.level + (path.name == "__init__.py")]
                base = ".".join([*package, base] if base else package)
            if base.split(".")[0] != "baccara":
                continue
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                is_module = (PACKAGE.parent / (candidate.replace(".", "/") + ".py")).exists() or (
                    PACKAGE.parent / candidate.replace(".", "/") / "__init__.py"
                ).exists()
                found.add(candidate if is_module else base)
    return found


def _rank(layer: str) -> int:
    if layer == "basic":
        return 0
    if layer in TOP:
        return 99
    return RANK[layer]


MODULES = dict(_modules())


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {_layer(name) for name in MODULES} - {"basic", *TOP}
    assert parts <= set(RANK), parts - set(RANK)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down(module: str) -> None:
    here = _layer(module)
    for target in _imports(MODULES[module], module, "all"):
        there = _layer(target)
        if there == here or here in TOP:
            continue
        assert _rank(there) < _rank(here), f"{module} imports {target}: {here} → {there}"


def _server_part(module: str) -> str | None:
    """``baccara.server.db.store`` → ``db``; ``None`` outside ``server/`` or for the package."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "server" else None


def _every_one_ranked(part_of: Callable[[str], str | None], rank: dict[str, int]) -> None:
    parts = {part_of(name) for name in MODULES} - {None}
    assert parts == set(rank), parts ^ set(rank)


def _imports_point_down(
    module: str, part_of: Callable[[str], str | None], rank: dict[str, int]
) -> None:
    """Every import of ``module`` into another part (``part_of``) is of a lower ``rank``."""
    here = part_of(module)
    assert here is not None
    for target in _imports(MODULES[module], module, "all"):
        there = part_of(target)
        if there is None or there == here:
            continue
        assert rank[there] < rank[here], f"{module} imports {target}"


def test_every_part_of_the_server_has_a_layer() -> None:
    _every_one_ranked(_server_part, SERVER_RANK)


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _server_part(m)))
def test_server_imports_point_down(module: str) -> None:
    _imports_point_down(module, _server_part, SERVER_RANK)


def _cluster_module(module: str) -> str | None:
    """``baccara.server.cluster.notify`` → ``notify``; ``None`` outside ``server/cluster/``."""
    parts = module.split(".")
    return parts[3] if len(parts) == 4 and parts[1:3] == ["server", "cluster"] else None


def test_every_module_of_the_cluster_has_a_layer() -> None:
    _every_one_ranked(_cluster_module, CLUSTER_RANK)


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _cluster_module(m)))
def test_cluster_imports_point_down(module: str) -> None:
    _imports_point_down(module, _cluster_module, CLUSTER_RANK)


@functools.cache
def _graph() -> dict[str, set[str]]:
    """Every module of the package → the modules of the package it imports, in any way."""
    return {m: _imports(p, m, "all") & set(MODULES) for m, p in MODULES.items()}


def _reached(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _behind_the_facade(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in BEHIND_THE_FACADE)


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _behind_the_facade(m)))
def test_what_the_casino_wires_never_imports_it(module: str) -> None:
    assert FACADE in MODULES
    assert FACADE not in _reached(_graph(), module), f"{module} reaches {FACADE}"


def test_the_facade_check_sees_an_import_through_another_module() -> None:
    graph = {"baccara.server.cluster.x": {"baccara.server.cluster.y"},
             "baccara.server.cluster.y": {FACADE}}  # fmt: skip
    assert FACADE in _reached(graph, "baccara.server.cluster.x")
    assert _behind_the_facade("baccara.server.cluster.x")
    assert not _behind_the_facade("baccara.server.domain.play")


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (module → modules it imports), or ``None``."""
    state: dict[str, int] = {}  # 1 on the path, 2 done

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt, [*path, nxt])):
                return found
        state[node] = 2
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module, [module])):
            return found
    return None


def _reads_files(module: str, imported: set[str]) -> bool:
    """Whether ``module`` imports the file reader though its part may not."""
    part = module.split(".")[1] if "." in module else "__init__"
    return module != FILE_READER and part not in READS_FILES and FILE_READER in imported


@pytest.mark.parametrize("module", sorted(MODULES))
def test_only_the_paytable_reader_and_the_commands_import_the_file_reader(module: str) -> None:
    imported = _imports(MODULES[module], module, "all")
    assert not _reads_files(module, imported), f"{module} imports {FILE_READER}"


def test_games_never_imports_a_file_reader() -> None:
    """The rules are pure: neither ``files.py`` nor the paytable reader built on it is
    imported anywhere in ``games/``, not even inside a function."""
    games = {m: p for m, p in MODULES.items() if _layer(m) == "games"}
    assert "baccara.games.registry" in games
    for module, path in games.items():
        imported = _imports(path, module, "all")
        assert not imported & {FILE_READER, "baccara.paytables"}, module


def test_the_check_catches_the_rules_reading_a_file(tmp_path: pathlib.Path) -> None:
    source = tmp_path / "fake.py"
    source.write_text("def rules():\n    from baccara.files import read_regular_file\n")
    imported = _imports(source, "baccara.games.fake", "all")
    assert imported == {FILE_READER}
    assert _reads_files("baccara.games.fake", imported)
    assert not _reads_files("baccara.cli.fake", imported)


def test_imports_have_no_cycle_even_deferred_or_for_the_type_checker() -> None:
    graph = {m: _imports(p, m, "all") & set(MODULES) for m, p in MODULES.items()}
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " → ".join(cycle or ())


def test_the_check_catches_an_upward_import(tmp_path: pathlib.Path) -> None:
    """The walker sees a lazy import inside a function (what a shortcut would look like)."""
    source = tmp_path / "fake.py"
    source.write_text("def f():\n    from baccara.cli import main\n    return main\n")
    assert _imports(source, "baccara.games.fake", "all") == {"baccara.cli"}
    assert _imports(source, "baccara.games.fake", "run") == {"baccara.cli"}
    assert _imports(source, "baccara.games.fake", "top") == set()


def test_the_cycle_check_sees_a_deferred_import_and_skips_type_checking(
    tmp_path: pathlib.Path,
) -> None:
    """A command importing its worker module when it runs, the worker importing the
    command at its top: a cycle, though neither import fails. The same import made only
    for the type checker is none."""
    command, worker = tmp_path / "command.py", tmp_path / "worker.py"
    command.write_text("def run():\n    import baccara.cli.worker\n    baccara.cli.worker.go()\n")
    worker.write_text("from baccara.cli.command import Request\n")
    graph = {
        "baccara.cli.command": _imports(command, "baccara.cli.command", "run"),
        "baccara.cli.worker": _imports(worker, "baccara.cli.worker", "run"),
    }
    assert _cycle(graph) == ["baccara.cli.command", "baccara.cli.worker", "baccara.cli.command"]
    worker.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from baccara.cli.command import Request\nelse:\n    import baccara.errors\n"
    )
    assert _imports(worker, "baccara.cli.worker", "run") == {"baccara.errors"}
    assert _imports(worker, "baccara.cli.worker", "all") == {
        "baccara.cli.command",
        "baccara.errors",
    }


@pytest.mark.parametrize("argv", [["--help"], ["games"]])
def test_start_up_loads_no_numerics(argv: list[str]) -> None:
    """``baccara --help`` and ``baccara games`` print at once: no numpy, numba, scipy or matplotlib."""
    probe = (
        "import sys\nfrom baccara.cli import main\n"
        f"status = main({argv!r})\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'numba', 'scipy', 'matplotlib'})\n"
        "print('HEAVY', heavy, status)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60
    )
    assert result.stdout.strip().splitlines()[-1] == "HEAVY [] 0", result.stdout + result.stderr
