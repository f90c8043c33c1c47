"""Small text helpers every renderer shares."""

from __future__ import annotations


def plural(count: int, word: str) -> str:
    """``plural(1, "deck")`` → ``"1 deck"``; ``plural(8, "deck")`` → ``"8 decks"``.

    >>> plural(1, "round"), plural(2_000_000, "round")
    ('1 round', '2,000,000 rounds')
    """
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"
