"""``pip install baccara`` without the ``server`` extra: the analysis works, the casino says why not.

Each case runs ``python -m baccara`` in a process where the casino's packages cannot be
imported (an import hook refuses them, as if they had never been installed), so a
command that imports one by accident fails here.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from baccara.cli.extras import SERVER_MODULES, missing_server_modules
from tests.helpers import TERMINAL, assert_refused

WITHOUT_SERVER = textwrap.dedent(
    """
    import sys

    class NotInstalled:
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in {blocked!r}:
                raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
            return None

    sys.meta_path.insert(0, NotInstalled())
    from baccara.cli import run
    sys.argv[0] = "baccara"
    run()
    """
).format(blocked=set(SERVER_MODULES))


def without_server(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_SERVER, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **TERMINAL},
    )


def test_the_casino_packages_are_installed_here() -> None:
    assert missing_server_modules() == []


def test_missing_packages_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        "baccara.cli.extras.find_spec", lambda name: None if name in {"fastapi", "httpx"} else name
    )
    assert missing_server_modules() == ["fastapi", "httpx"]


@pytest.mark.parametrize(
    ("args", "stdin"), [(["serve"], ""), (["user", "add", "ann"], "a long password\n")]
)
def test_the_casino_without_its_extra_says_what_to_install(args: list[str], stdin: str) -> None:
    result = without_server(*args, stdin=stdin)
    assert_refused(result, 'pip install "baccara[server]"')
    assert "fastapi, uvicorn, sqlalchemy" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["games"],
        ["analyze", "punto-banco", "--json"],
        ["simulate", "punto-banco", "--rounds", "1000", "--seed", "1"],
        ["deal", "redgreen", "--seed", "1"],
        ["serve", "--help"],
    ],
)
def test_the_analysis_needs_no_server_package(args: list[str]) -> None:
    result = without_server(*args)
    assert result.returncode == 0, result.stderr
    assert result.stdout
