"""Helpers shared by the tests."""

from __future__ import annotations

from baccara.cards import Card, Rank, Suit


def cards(text: str) -> list[Card]:
    """Cards from ranks alone, e.g. ``cards("9 K 5 3")``; suits cycle so repeats stay distinct."""
    suits = list(Suit)
    return [Card(Rank.parse(r), suits[i % 4]) for i, r in enumerate(text.split())]
