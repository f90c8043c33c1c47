"""Re-run every ``$ baccara …`` line of the README's console blocks and paste the output.

Run after a deliberate change of output; tests/test_readme.py then holds the README
to it. Commands run as ``python -m baccara`` in a 100-column terminal.
"""

from __future__ import annotations

import os
import pathlib
import re
import shlex
import subprocess
import sys

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def run(command: str) -> str:
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
    result = subprocess.run(
        f"{shlex.quote(sys.executable)} -m {command}",
        shell=True,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=README.parent,
    )
    return (result.stdout + result.stderr).rstrip("\n")


def refresh_block(block: str) -> str:
    out: list[str] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            out.append(line)
            out.append(run(line[2:]))
    return "\n".join(out) + "\n"


def main() -> None:
    text = README.read_text()
    text = re.sub(
        r"(```console\n)(.*?)(```)",
        lambda m: m.group(1) + refresh_block(m.group(2)) + m.group(3),
        text,
        flags=re.S,
    )
    README.write_text(text)


if __name__ == "__main__":
    main()
