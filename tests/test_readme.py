"""The README shows what the code prints today.

Every ``console`` block is a transcript: each ``$ baccara …`` line is run (in a
100-column terminal) and its output must match the lines pasted under it.
"""

from __future__ import annotations

import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def transcripts() -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(), flags=re.S):
        command: str | None = None
        output: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    pairs.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            pairs.append((command, "\n".join(output)))
    return pairs


def test_readme_has_transcripts() -> None:
    assert len(transcripts()) >= 4


@pytest.mark.parametrize(("command", "expected"), transcripts(), ids=lambda v: v[:50])
def test_readme_transcript_matches_the_program(command: str, expected: str) -> None:
    assert command.startswith("baccara ")
    python = shlex.quote(sys.executable)
    shell_command = f"{python} -m {command}"
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
    result = subprocess.run(
        shell_command,
        shell=True,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=README.parent,
    )
    produced = (result.stdout + result.stderr).rstrip("\n")
    assert [line.rstrip() for line in produced.splitlines()] == [
        line.rstrip() for line in expected.splitlines()
    ]
