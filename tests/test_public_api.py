"""The package exports a deliberate set of names, and each of them exists."""

from __future__ import annotations

import baccara


def test_public_names() -> None:
    assert sorted(baccara.__all__) == sorted(
        [
            "GAMES", "Analysis", "BaccaraError", "BetAnalysis", "EffectOfRemoval", "GameSpec",
            "InvalidBet", "InvalidCards", "InvalidOption", "Outcome", "Paytable", "UnknownGame",
            "__version__", "analyze", "effect_of_removal", "game", "load_paytable",
        ]
    )  # fmt: skip
    for name in baccara.__all__:
        assert hasattr(baccara, name)


def test_every_refusal_is_a_value_error() -> None:
    for name in ("BaccaraError", "InvalidBet", "InvalidCards", "InvalidOption", "UnknownGame"):
        assert issubclass(getattr(baccara, name), ValueError)
