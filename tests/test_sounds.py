"""The web casino's sounds are the ones ``scripts/make_sounds.py`` makes, byte for byte,
and small enough to load at once on a phone."""

from __future__ import annotations

import io
import wave

import pytest
from scripts.make_sounds import FOLDER, RATE, SOUNDS, wav

MAX_BYTES = 30_000


@pytest.mark.parametrize("name", sorted(SOUNDS))
def test_each_committed_sound_is_what_the_script_makes(name: str) -> None:
    made = wav(name)
    assert (FOLDER / f"{name}.wav").read_bytes() == made
    assert len(made) < MAX_BYTES
    with wave.open(io.BytesIO(made)) as file:
        assert (file.getnchannels(), file.getsampwidth(), file.getframerate()) == (1, 2, RATE)
        assert 0.04 < file.getnframes() / RATE < 1.0  # a short sound, never a silence


def test_the_folder_holds_only_the_sounds_the_script_makes() -> None:
    assert sorted(path.name for path in FOLDER.iterdir()) == sorted(f"{n}.wav" for n in SOUNDS)
