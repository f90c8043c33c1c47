"""Re-run every ``$ baccara …`` line of the documents' console blocks and paste the output.

The documents are the README and every markdown page under docs/ (the documentation
site). Run after a deliberate change of output (``python -m scripts.refresh_readme``);
tests/test_readme.py then holds each document to it, with the same :func:`run_command`
and :func:`transcripts`. Commands run in a 100-column terminal without colour, from the
repository's root whichever document they are in.
"""

from __future__ import annotations

import os
import pathlib
import re
import shlex
import subprocess

from tests.helpers import run

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CONSOLE_BLOCK = re.compile(r"(```console\n)(.*?)(```)", flags=re.S)


def documents() -> list[pathlib.Path]:
    """The README, then every markdown page of the documentation site, in path order."""
    return [README, *sorted((ROOT / "docs").rglob("*.md"))]


def run_command(command: str) -> str:
    """What ``$ baccara … [| filter]`` prints (stdout then stderr), as a document shows it.

    The ``baccara`` part runs in this process, as :func:`tests.helpers.run` runs every
    command test; a shell filter after ``|`` (``head``, ``sed``) reads its output.
    """
    program, bar, shell_filter = command.partition(" | ")
    argv = shlex.split(program)
    if argv[0] != "baccara":
        raise ValueError(f"a transcript runs baccara, not {argv[0]!r}")
    here = os.getcwd()
    os.chdir(ROOT)  # paths in every document are from the repository's root
    try:
        result = run(*argv[1:])
    finally:
        os.chdir(here)
    out = result.stdout
    if bar:
        out = subprocess.run(
            ["sh", "-c", shell_filter], input=out, capture_output=True, text=True, check=True
        ).stdout
    return (out + result.stderr).rstrip("\n")


def transcripts(text: str) -> list[tuple[str, str]]:
    """Each ``$ command`` of the console blocks with the lines pasted under it."""
    pairs: list[tuple[str, str]] = []
    for block in CONSOLE_BLOCK.finditer(text):
        command: str | None = None
        output: list[str] = []
        for line in block.group(2).splitlines():
            if line.startswith("$ "):
                if command is not None:
                    pairs.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            pairs.append((command, "\n".join(output)))
    return pairs


def refresh_block(block: str) -> str:
    out: list[str] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            out.append(line)
            out.append(run_command(line[2:]))
    return "\n".join(out) + "\n"


def refresh(path: pathlib.Path) -> None:
    """Paste what each command of ``path``'s console blocks prints today under it."""
    text = path.read_text()
    new = CONSOLE_BLOCK.sub(lambda m: m.group(1) + refresh_block(m.group(2)) + m.group(3), text)
    if new != text:
        path.write_text(new)


def main() -> None:
    for path in documents():
        refresh(path)


if __name__ == "__main__":
    main()
