"""The README and the documentation site show what the code prints today.

Every ``console`` block of README.md and of each markdown page under docs/ is a
transcript: each ``$ baccara …`` line is run (in a 100-column terminal, from the
repository's root) and its output must match the lines pasted under it. After a
deliberate change of output, ``python -m scripts.refresh_readme`` rewrites them.
"""

from __future__ import annotations

import pytest
from scripts.refresh_readme import README, ROOT, documents, run_command, transcripts

TRANSCRIPTS = [
    (path.relative_to(ROOT).as_posix(), command, expected)
    for path in documents()
    for command, expected in transcripts(path.read_text())
]


def test_documents_have_transcripts() -> None:
    assert len(TRANSCRIPTS) >= 4
    assert any(where == README.name for where, _, _ in TRANSCRIPTS)
    assert any(where.startswith("docs/") for where, _, _ in TRANSCRIPTS)


@pytest.mark.parametrize(
    ("where", "command", "expected"),
    TRANSCRIPTS,
    ids=[f"{where}: {command[:50]}" for where, command, _ in TRANSCRIPTS],
)
def test_transcript_matches_the_program(where: str, command: str, expected: str) -> None:
    assert command.startswith("baccara "), where
    produced = run_command(command)
    assert [line.rstrip() for line in produced.splitlines()] == [
        line.rstrip() for line in expected.splitlines()
    ]
