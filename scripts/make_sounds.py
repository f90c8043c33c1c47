"""Synthesise the web casino's sounds into ``src/baccara/web/sounds/``.

Every sound is made here from sines and filtered noise, so the casino ships nothing it
did not make and nothing is fetched from elsewhere when it plays. The noise comes from a
fixed seed and the files carry no date: running this again writes the same bytes, which
``tests/test_sounds.py`` checks against the committed files.

    .venv/bin/python scripts/make_sounds.py
"""

from __future__ import annotations

import io
import pathlib
import wave
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDER = ROOT / "src" / "baccara" / "web" / "sounds"
RATE = 22_050
"""Samples a second: enough for a chip's click, and small files (16-bit mono)."""

Wave = npt.NDArray[np.float64]


def _time(seconds: float) -> Wave:
    return np.arange(round(seconds * RATE), dtype=np.float64) / RATE


def _noise(seconds: float, seed: int) -> Wave:
    return np.random.default_rng(seed).standard_normal(round(seconds * RATE))


def _band(signal: Wave, low: float, high: float) -> Wave:
    """The signal with only the frequencies from ``low`` to ``high`` hertz (soft edges)."""
    spectrum = np.fft.rfft(signal)
    freqs = np.fft.rfftfreq(signal.size, 1 / RATE)
    gain = 1 / (1 + (low / np.maximum(freqs, 1.0)) ** 4) / (1 + (freqs / high) ** 4)
    return np.fft.irfft(spectrum * gain, signal.size)


def _fade(signal: Wave, attack: float = 0.002, release: float = 0.01) -> Wave:
    """Soft start and end, so that no sound begins or stops with a click of its own."""
    envelope = np.ones(signal.size)
    a, r = round(attack * RATE), round(release * RATE)
    envelope[:a] = np.linspace(0.0, 1.0, a, endpoint=False)
    envelope[signal.size - r :] = np.linspace(1.0, 0.0, r)
    return signal * envelope


def _bell(frequency: float, seconds: float, decay: float) -> Wave:
    """A struck bell: the note and its softer partials, each dying away."""
    t = _time(seconds)
    partials = ((1.0, 1.0, 1.0), (2.0, 0.35, 1.6), (3.0, 0.12, 2.4), (4.2, 0.05, 3.0))
    tone = sum(
        (level * np.sin(2 * np.pi * frequency * ratio * t) * np.exp(-t * ratio_decay / decay)
         for ratio, level, ratio_decay in partials),
        np.zeros(t.size),
    )  # fmt: skip
    return np.asarray(tone, dtype=np.float64)


def _at(length: float, *parts: tuple[float, Wave]) -> Wave:
    """Parts laid on one track, each from its start time in seconds."""
    track = np.zeros(round(length * RATE))
    for start, part in parts:
        begin = round(start * RATE)
        end = min(track.size, begin + part.size)
        track[begin:end] += part[: end - begin]
    return track


def chip() -> Wave:
    """Two chips meeting on the felt: two bright clacks, the second softer."""

    def clack(seed: int) -> Wave:
        t = _time(0.05)
        ring = np.sin(2 * np.pi * 3150 * t) + 0.6 * np.sin(2 * np.pi * 4730 * t)
        burst = _band(_noise(0.05, seed), 2000, 9000)
        return (0.6 * ring + 0.5 * burst) * np.exp(-t / 0.008)

    return _at(0.11, (0.0, clack(1)), (0.032, 0.55 * clack(2)))


def card() -> Wave:
    """A card slid from the shoe across the cloth: a soft swish that swells and fades."""
    t = _time(0.2)
    swish = _band(_noise(0.2, 3), 1800, 6500)
    envelope = np.sin(np.pi * t / t[-1]) ** 2 * np.exp(-t / 0.12)
    return np.asarray(swish * envelope, dtype=np.float64)


def flip() -> Wave:
    """A card turned face up: a quick snap with a little body under it."""
    t = _time(0.1)
    snap = _band(_noise(0.1, 4), 1200, 8000) * np.exp(-t / 0.01)
    body = np.sin(2 * np.pi * 210 * t) * np.exp(-t / 0.02)
    return 0.9 * snap + 0.5 * body


def tick() -> Wave:
    """A clock's tick for the countdown's last seconds: a short wooden knock."""
    t = _time(0.05)
    knock = np.sin(2 * np.pi * 1250 * t) + 0.4 * np.sin(2 * np.pi * 2900 * t)
    return knock * np.exp(-t / 0.009)


def bets_open() -> Wave:
    """Place your bets: two rising bell notes (E5, then A5)."""
    return _at(0.55, (0.0, _bell(659.26, 0.55, 0.25)), (0.12, 0.9 * _bell(880.0, 0.43, 0.25)))


def bets_closed() -> Wave:
    """No more bets: the same bells falling (A5, then E5), a little lower in mood."""
    return _at(0.55, (0.0, _bell(880.0, 0.55, 0.22)), (0.12, 0.9 * _bell(587.33, 0.43, 0.25)))


def win() -> Wave:
    """The player won: a bright arpeggio (C5 E5 G5 C6) with a shimmer on the last note."""
    notes = (523.25, 659.26, 783.99, 1046.5)
    parts = [
        (0.07 * i, (0.7 + 0.1 * i) * _bell(f, 0.62 - 0.07 * i, 0.2)) for i, f in enumerate(notes)
    ]
    t = _time(0.4)
    shimmer = _band(_noise(0.4, 5), 5000, 10000) * np.exp(-t / 0.12) * 0.15
    return _at(0.62, *parts, (0.21, shimmer))


SOUNDS: dict[str, Callable[[], Wave]] = {
    "chip": chip,
    "card": card,
    "flip": flip,
    "tick": tick,
    "bets-open": bets_open,
    "bets-closed": bets_closed,
    "win": win,
}
"""Each sound's file name (``<name>.wav``) and how it is made."""

LOUDNESS = {"chip": 0.6, "card": 0.45, "flip": 0.55, "tick": 0.5, "bets-open": 0.5,
            "bets-closed": 0.5, "win": 0.55}  # fmt: skip
"""Each sound's peak, of full scale: the clicks under the chimes, nothing harsh."""


def wav(name: str) -> bytes:
    """The sound's WAV file: 16-bit mono PCM, its peak at :data:`LOUDNESS`."""
    signal = _fade(SOUNDS[name]())
    signal = signal / np.max(np.abs(signal)) * LOUDNESS[name]
    samples = np.round(signal * 32767).astype("<i2")
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(RATE)
        file.writeframes(samples.tobytes())
    return out.getvalue()


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in SOUNDS:
        path = FOLDER / f"{name}.wav"
        path.write_bytes(wav(name))
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
