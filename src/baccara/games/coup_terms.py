"""What a Punto Banco side bet or pay rule may ask of a coup: a small vocabulary of terms.

A side bet that pays "a Banker win with a three-card 7" is not code but a condition:
``{ winner = "banker", banker_total = 7, banker_cards = 3 }``, every term of which must
hold. The terms read only what a coup is to a player at the table — each hand's total
and number of cards, the winner and by how much, the naturals, and whether each hand's
first two cards pair, suited or not — so one exact analyzer, one settlement and one
simulation serve every bet written in them, and nothing a file says can run.

============================  =========================================================
term                          what it reads, and the values it takes
============================  =========================================================
``winner``                    ``"player"``, ``"banker"`` or ``"tie"``, or a list of them
``margin``                    the winning total minus the losing one (0 on a tie)
``player_total``              the Player's final total, 0 to 9
``banker_total``              the Banker's final total, 0 to 9
``player_cards``              the Player's cards, 2 or 3
``banker_cards``              the Banker's cards, 2 or 3
``cards``                     the cards dealt in the coup, 4 to 6
``natural``                   whose first two cards make 8 or 9: ``"player"``,
                              ``"banker"``, ``"either"``, ``"both"`` or ``"none"``
``player_pair``               the Player's first two cards are of one rank: true or false
``banker_pair``               the Banker's, likewise
``player_suited_pair``        the Player's first two cards are one card twice (rank and
                              suit, from different decks): true or false
``banker_suited_pair``        the Banker's, likewise
``pairs``                     how many of the two hands open with a pair, 0 to 2
``suited_pairs``              how many open with a suited pair, 0 to 2
============================  =========================================================

A number term takes a number, a list of numbers (any of them), or a range
``{ min = 4, max = 9 }`` (either end may be left out).

>>> dragon = Condition.read({"winner": "banker", "banker_total": 7, "banker_cards": 3})
>>> dragon.describe()
'Banker wins, Banker total 7, Banker 3 cards'
>>> big_win = Condition.read({"winner": ["player"], "margin": {"min": 4}})
>>> big_win.describe()
'Player wins, margin 4 to 9'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from baccara.errors import BaccaraError, shown


class InvalidCondition(BaccaraError):
    """A condition that uses an unknown term or a value the term cannot take."""


WINNERS = ("player", "banker", "tie")

NATURALS = ("none", "player", "banker", "both")
"""Whose first two cards make a natural: the four states a coup can be in."""

_NATURAL_WORDS: Mapping[str, frozenset[str]] = {
    "none": frozenset({"none"}),
    "player": frozenset({"player", "both"}),
    "banker": frozenset({"banker", "both"}),
    "either": frozenset({"player", "banker", "both"}),
    "both": frozenset({"both"}),
}
"""What each word of the ``natural`` term accepts among :data:`NATURALS`."""


@dataclass(frozen=True, slots=True)
class CoupFacts:
    """All a condition can read of a coup: its totals, cards, naturals and pairs.

    Everything else about a coup (which ten-valued card it was, the order of a hand's
    cards) no term reads, so coups with the same facts settle every bet alike — which is
    what lets the exact analysis count facts instead of card sequences.
    """

    player_total: int
    banker_total: int
    player_cards: int
    banker_cards: int
    player_natural: bool
    banker_natural: bool
    player_pair: bool
    banker_pair: bool
    player_suited_pair: bool
    banker_suited_pair: bool

    @property
    def winner(self) -> str:
        if self.player_total > self.banker_total:
            return "player"
        if self.banker_total > self.player_total:
            return "banker"
        return "tie"

    @property
    def margin(self) -> int:
        return abs(self.player_total - self.banker_total)

    @property
    def cards(self) -> int:
        return self.player_cards + self.banker_cards

    @property
    def natural(self) -> str:
        """One of :data:`NATURALS`."""
        return NATURALS[self.player_natural + 2 * self.banker_natural]

    @property
    def pairs(self) -> int:
        return self.player_pair + self.banker_pair

    @property
    def suited_pairs(self) -> int:
        return self.player_suited_pair + self.banker_suited_pair


@dataclass(frozen=True)
class _Term:
    """One term: how to read it off the facts, and the values it may take."""

    read: Callable[[CoupFacts], object]
    kind: str  # "number", "winner", "natural" or "flag"
    low: int = 0
    high: int = 0
    label: str = ""


TERMS: Mapping[str, _Term] = {
    "winner": _Term(lambda f: f.winner, "winner"),
    "margin": _Term(lambda f: f.margin, "number", 0, 9, "margin"),
    "player_total": _Term(lambda f: f.player_total, "number", 0, 9, "Player total"),
    "banker_total": _Term(lambda f: f.banker_total, "number", 0, 9, "Banker total"),
    "player_cards": _Term(lambda f: f.player_cards, "number", 2, 3, "Player {} cards"),
    "banker_cards": _Term(lambda f: f.banker_cards, "number", 2, 3, "Banker {} cards"),
    "cards": _Term(lambda f: f.cards, "number", 4, 6, "{} cards dealt"),
    "natural": _Term(lambda f: f.natural, "natural"),
    "player_pair": _Term(lambda f: f.player_pair, "flag", label="Player pair"),
    "banker_pair": _Term(lambda f: f.banker_pair, "flag", label="Banker pair"),
    "player_suited_pair": _Term(lambda f: f.player_suited_pair, "flag", label="Player suited pair"),
    "banker_suited_pair": _Term(lambda f: f.banker_suited_pair, "flag", label="Banker suited pair"),
    "pairs": _Term(lambda f: f.pairs, "number", 0, 2, "{} hands paired"),
    "suited_pairs": _Term(lambda f: f.suited_pairs, "number", 0, 2, "{} hands suited-paired"),
}
"""Every term a condition may use, by the name a file writes."""

SUITED_TERMS = frozenset({"player_suited_pair", "banker_suited_pair", "suited_pairs"})
"""Terms that read suits: the exact analysis then counts the shoe card by card."""

RANK_TERMS = SUITED_TERMS | {"player_pair", "banker_pair", "pairs"}
"""Terms that read ranks (a ten and a king pair no more than a ten and a nine)."""


@dataclass(frozen=True)
class Condition:
    """Terms that must all hold, each as the set of values it accepts.

    Built by :meth:`read` from what a file says; the empty condition always holds.
    """

    terms: tuple[tuple[str, frozenset[object]], ...] = ()

    @classmethod
    def read(cls, table: object) -> Condition:
        """A condition from a TOML table (a mapping of term to value), checked term by term."""
        if not isinstance(table, Mapping):
            raise InvalidCondition(
                f'a condition is a table of terms, such as {{ winner = "banker" }},'
                f" got {shown(table)}"
            )
        terms = []
        for name, value in table.items():
            term = TERMS.get(name)
            if term is None:
                raise InvalidCondition(
                    f"unknown term {shown(name)}; the terms are: {', '.join(TERMS)}"
                )
            terms.append((name, _accepted(name, term, value)))
        return cls(tuple(sorted(terms, key=lambda item: list(TERMS).index(item[0]))))

    def holds(self, facts: CoupFacts) -> bool:
        return all(TERMS[name].read(facts) in accepted for name, accepted in self.terms)

    @property
    def names(self) -> frozenset[str]:
        """The terms this condition reads."""
        return frozenset(name for name, _ in self.terms)

    def to_toml(self) -> str:
        """The condition as an inline TOML table :meth:`read` reads back."""
        parts = []
        for name, accepted in self.terms:
            parts.append(f"{name} = {_toml_value(TERMS[name], accepted)}")
        return "{ " + ", ".join(parts) + " }" if parts else "{}"

    def to_dict(self) -> dict[str, list[object]]:
        """Each term and every value it accepts, spelt out (a range as its numbers, a
        ``natural`` word as the states of :data:`NATURALS` it takes): a condition as a
        browser re-settling a round reads it, with no range or word left to interpret.

        >>> Condition.read({"winner": "banker", "margin": {"min": 8}}).to_dict()
        {'winner': ['banker'], 'margin': [8, 9]}
        """
        return {name: _listed(TERMS[name], accepted) for name, accepted in self.terms}

    def describe(self) -> str:
        """The condition in a player's words: ``Banker wins, Banker total 7, Banker 3 cards``."""
        if not self.terms:
            return "always"
        return ", ".join(_words(name, accepted) for name, accepted in self.terms)


def _accepted(name: str, term: _Term, value: object) -> frozenset[object]:
    """The values ``value`` accepts for ``term``, or a clear refusal."""
    if term.kind == "flag":
        if not isinstance(value, bool):
            raise InvalidCondition(f"{name} is true or false, got {shown(value)}")
        return frozenset({value})
    if term.kind in ("winner", "natural"):
        words = WINNERS if term.kind == "winner" else tuple(_NATURAL_WORDS)
        given = value if isinstance(value, list) else [value]
        if not given or not all(isinstance(word, str) and word in words for word in given):
            raise InvalidCondition(
                f"{name} is one of {', '.join(words)} (or a list of them), got {shown(value)}"
            )
        if term.kind == "winner":
            return frozenset(given)
        return frozenset().union(*(_NATURAL_WORDS[str(word)] for word in given))
    return _numbers(name, term, value)


def _numbers(name: str, term: _Term, value: object) -> frozenset[object]:
    span = f"{term.low} to {term.high}"
    if isinstance(value, Mapping):
        unknown = set(value) - {"min", "max"}
        if unknown or not value:
            raise InvalidCondition(f"{name}: a range is {{ min = …, max = … }}, got {shown(value)}")
        low, high = value.get("min", term.low), value.get("max", term.high)
        for end in (low, high):
            if (
                isinstance(end, bool)
                or not isinstance(end, int)
                or not term.low <= end <= term.high
            ):
                raise InvalidCondition(f"{name}: a range's ends are whole numbers {span}")
        if low > high:
            raise InvalidCondition(f"{name}: the range {low} to {high} is empty")
        return frozenset(range(low, high + 1))
    given = value if isinstance(value, list) else [value]
    if not given or not all(
        not isinstance(n, bool) and isinstance(n, int) and term.low <= n <= term.high for n in given
    ):
        raise InvalidCondition(
            f"{name} is a whole number {span}, a list of them or a range, got {shown(value)}"
        )
    return frozenset(given)


def _listed(term: _Term, accepted: frozenset[object]) -> list[object]:
    """The accepted values in the order the vocabulary lists them."""
    if term.kind == "winner":
        return [w for w in WINNERS if w in accepted]
    if term.kind == "natural":
        return [s for s in NATURALS if s in accepted]
    if term.kind == "flag":
        return [flag for flag in (False, True) if flag in accepted]
    return list(sorted(n for n in accepted if isinstance(n, int)))


def _toml_value(term: _Term, accepted: frozenset[object]) -> str:
    if term.kind == "flag":
        return "true" if True in accepted else "false"
    if term.kind == "natural":
        word = next((w for w, states in _NATURAL_WORDS.items() if states == accepted), None)
        if word is not None:
            return f'"{word}"'
        return "[" + ", ".join(f'"{s}"' for s in NATURALS if s in accepted) + "]"
    if term.kind == "winner":
        chosen = [w for w in WINNERS if w in accepted]
        return (
            f'"{chosen[0]}"'
            if len(chosen) == 1
            else "[" + ", ".join(f'"{w}"' for w in chosen) + "]"
        )
    numbers = sorted(n for n in accepted if isinstance(n, int))
    if len(numbers) == 1:
        return str(numbers[0])
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{{ min = {numbers[0]}, max = {numbers[-1]} }}"
    return "[" + ", ".join(map(str, numbers)) + "]"


def _words(name: str, accepted: frozenset[object]) -> str:
    term = TERMS[name]
    if term.kind == "winner":
        chosen = [w.capitalize() for w in WINNERS if w in accepted]
        return " or ".join(chosen) + (" wins" if chosen != ["Tie"] else "")
    if term.kind == "natural":
        word = next((w for w, states in _NATURAL_WORDS.items() if states == accepted), None)
        return (
            f"natural: {word}"
            if word
            else "natural: " + " or ".join(s for s in NATURALS if s in accepted)
        )
    if term.kind == "flag":
        return term.label if True in accepted else f"no {term.label}"
    numbers = sorted(n for n in accepted if isinstance(n, int))
    label = term.label.replace("hands", "hand") if numbers == [1] else term.label
    if len(numbers) == 1:
        text = str(numbers[0])
    elif numbers == list(range(numbers[0], numbers[-1] + 1)):
        text = f"{numbers[0]} to {numbers[-1]}"
    else:
        text = ", ".join(map(str, numbers[:-1])) + f" or {numbers[-1]}"
    return label.format(text) if "{}" in label else f"{label} {text}"


def read_condition(table: object, where: str) -> Condition:
    """:meth:`Condition.read`, its refusal prefixed by ``where`` (the file and line)."""
    try:
        return Condition.read(table)
    except InvalidCondition as error:
        raise InvalidCondition(f"{where}: {error}") from None


def coup_facts(
    player: tuple[Any, ...], banker: tuple[Any, ...], total: Callable[[tuple[Any, ...]], int]
) -> CoupFacts:
    """The facts of a coup dealt as ``player`` and ``banker`` cards (:class:`~baccara.cards.Card`)."""
    return CoupFacts(
        player_total=total(player),
        banker_total=total(banker),
        player_cards=len(player),
        banker_cards=len(banker),
        player_natural=total(player[:2]) >= 8,
        banker_natural=total(banker[:2]) >= 8,
        player_pair=player[0].rank == player[1].rank,
        banker_pair=banker[0].rank == banker[1].rank,
        player_suited_pair=player[0] == player[1],
        banker_suited_pair=banker[0] == banker[1],
    )
