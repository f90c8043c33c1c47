"""The README shows what the code prints today.

Every ``console`` block is a transcript: each ``$ baccara …`` line is run (in a
100-column terminal) and its output must match the lines pasted under it. After a
deliberate change of output, ``python scripts/refresh_readme.py`` rewrites them.
"""

from __future__ import annotations

import pytest
from scripts.refresh_readme import README, run_command, transcripts

TRANSCRIPTS = transcripts(README.read_text())


def test_readme_has_transcripts() -> None:
    assert len(TRANSCRIPTS) >= 4


@pytest.mark.parametrize(("command", "expected"), TRANSCRIPTS, ids=lambda v: v[:50])
def test_readme_transcript_matches_the_program(command: str, expected: str) -> None:
    assert command.startswith("baccara ")
    produced = run_command(command)
    assert [line.rstrip() for line in produced.splitlines()] == [
        line.rstrip() for line in expected.splitlines()
    ]
