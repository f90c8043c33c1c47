"""The RedGreen house way as dealers learn it: a cheat sheet, one-hand lookups and a drill.

Everything here is read off :func:`baccara.games.redgreen.house_way` — the sheet is
that function applied to all 455 rank combinations, grouped the way a dealer is
taught: three of a kind, the two exceptional pairs (Aces, Kings), every other pair,
then no pair by its highest card. The drill's I/O is passed in, so the same code
runs in a terminal and in a test.

>>> print(lookup(["K", "7", "7"], RedGreenRules()))
K 7 7 → K | 7 7
one pair: the pair goes in the back, the odd card in front
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

from baccara.cards import Rank
from baccara.errors import InvalidCards
from baccara.games.redgreen import (
    HAND_SIZE,
    RedGreenRules,
    Setting,
    by_single_rank,
    house_way_of_ranks,
    single_strength,
)
from baccara.options import as_int, plural
from baccara.randomness import RandomSource, shuffle

RankHand = tuple[Rank, Rank, Rank]

RANK_COMBINATIONS: tuple[RankHand, ...] = tuple(
    tuple(by_single_rank(hand))  # type: ignore[misc]
    for hand in combinations_with_replacement(Rank, HAND_SIZE)
)
"""The 455 distinct three-card hands, suits ignored, each written high card first."""

FACE_UP = "up"
"""The drill's answer for three of a kind: leave it whole, face up."""

COLUMNS = 4

MAX_DRILL_HANDS = 1000


def parse_hand(texts: Sequence[str]) -> RankHand:
    """Three ranks as a dealer types them (``K 7 7``, ``10 T q``); anything else is refused."""
    if len(texts) != HAND_SIZE:
        raise InvalidCards(f"a RedGreen hand has {HAND_SIZE} cards, got {len(texts)}")
    a, b, c = (Rank.parse(text) for text in texts)
    return (a, b, c)


def hand_text(ranks: Sequence[Rank]) -> str:
    return " ".join(rank.symbol for rank in ranks)


def entry_text(ranks: Sequence[Rank], setting: Setting) -> str:
    """``A A 2 → A | A 2``; three of a kind reads ``7 7 7 → face up``."""
    if setting.three_of_a_kind is not None:
        return f"{hand_text(ranks)} → face up"
    return f"{hand_text(ranks)} → {setting.ranks_text()}"


def lookup(texts: Sequence[str], rules: RedGreenRules) -> str:
    """One hand set, and the rule that set it, in two lines."""
    ranks = parse_hand(texts)
    setting = house_way_of_ranks(ranks, rules)
    return f"{entry_text(ranks, setting)}\n{setting.rule.explain()}"


@dataclass(frozen=True)
class Section:
    """One block of the cheat sheet: a heading a dealer remembers and the hands under it."""

    title: str
    hands: tuple[RankHand, ...]


def _pair_heading(name: str, split: bool, unless: Rank) -> str:
    if not split:
        return f"Pair of {name}: the pair goes in the back, the odd card in front"
    keep = "an Ace" if unless is Rank.ACE else f"{unless.symbol} or better"
    one = name[0]
    return (
        f"Pair of {name}: split, {one} in front, {one} + odd card behind; with {keep}, pair behind"
    )


def _pair_of(hand: RankHand) -> Rank | None:
    a, b, c = hand
    if a == b != c:
        return a
    if b == c != a:
        return b
    return None


def sections(rules: RedGreenRules) -> tuple[Section, ...]:
    """The 455 hands in the order a dealer learns them; every hand appears exactly once."""
    trips = sorted(
        (h for h in RANK_COMBINATIONS if h[0] == h[2]),
        key=lambda h: single_strength(h[0]),
        reverse=True,
    )
    paired = [h for h in RANK_COMBINATIONS if _pair_of(h) is not None]

    def with_pair(rank: Rank) -> tuple[RankHand, ...]:
        odd = [h for h in paired if _pair_of(h) is rank]
        return tuple(
            sorted(odd, key=lambda h: -single_strength(next(r for r in h if r is not rank)))
        )

    result = [
        Section("Three of a kind: leave the hand whole and turn it face up", tuple(trips)),
        Section(
            _pair_heading("Aces", rules.split_aces, rules.split_aces_unless), with_pair(Rank.ACE)
        ),
        Section(
            _pair_heading("Kings", rules.split_kings, rules.split_kings_unless),
            with_pair(Rank.KING),
        ),
    ]
    others = sorted(
        (r for r in Rank if r not in (Rank.ACE, Rank.KING)), key=single_strength, reverse=True
    )
    result.append(
        Section(
            "Any other pair: the pair goes in the back, the odd card in front",
            tuple(h for rank in others for h in with_pair(rank)),
        )
    )
    no_pair = [h for h in RANK_COMBINATIONS if len(set(h)) == HAND_SIZE]
    for high in by_single_rank(Rank):
        hands = tuple(
            sorted(
                (h for h in no_pair if h[0] is high),
                key=lambda h: (single_strength(h[1]), single_strength(h[2])),
            )
        )
        if hands:
            result.append(
                Section(
                    f"No pair, {high.symbol} high: the middle card in front,"
                    " the highest and lowest in the back",
                    hands,
                )
            )
    return tuple(result)


def cheat_sheet(rules: RedGreenRules) -> str:
    """The whole sheet as text, four hands to a line (fits 100 columns)."""
    aces, kings = rules.describe_house_way().split("; ")
    lines = [
        f"House way: {aces};",
        f"           {kings}.",
        "Ranking: single cards A high … 2 low;",
        f"         {rules.describe_ranking()}.",
        "Each hand reads: cards → front | back. 455 hands.",
    ]
    for section in sections(rules):
        lines.append("")
        lines.append(f"{section.title} ({len(section.hands)})")
        entries = [entry_text(h, house_way_of_ranks(h, rules)) for h in section.hands]
        width = max(len(e) for e in entries) + 3
        for start in range(0, len(entries), COLUMNS):
            row = entries[start : start + COLUMNS]
            lines.append("  " + "".join(e.ljust(width) for e in row).rstrip())
    return "\n".join(lines)


def drill_hands(rng: RandomSource, rounds: int) -> list[list[Rank]]:
    """``rounds`` hands, each of the 455 equally likely, cards in a random order.

    Uniform over the combinations rather than dealt from a shoe, so the exceptions a
    dealer must drill (5 % of combinations) come up often enough to learn.
    """
    rounds = as_int("rounds", rounds, 1, MAX_DRILL_HANDS)
    hands = []
    for _ in range(rounds):
        hand = list(RANK_COMBINATIONS[rng.randbelow(len(RANK_COMBINATIONS))])
        shuffle(hand, rng)
        hands.append(hand)
    return hands


def parse_answer(text: str) -> Rank | str | None:
    """A drill answer: the front card (``K``, or ``K | 7 7``), or ``up`` for three of a kind.

    Returns ``None`` for text that is neither, so the drill can ask again.
    """
    front = text.split("|")[0].strip()
    if front.lower() in (FACE_UP, "face up", "trips"):
        return FACE_UP
    try:
        return Rank.parse(front)
    except InvalidCards:
        return None


def expected_answer(setting: Setting) -> Rank | str:
    return FACE_UP if setting.three_of_a_kind is not None else setting.front.rank


@dataclass(frozen=True)
class DrillScore:
    right: int
    asked: int

    def __str__(self) -> str:
        percent = f" ({100 * self.right // self.asked}%)" if self.asked else ""
        return f"Score: {self.right} of {self.asked}{percent}"


def run_drill(
    hands: Sequence[Sequence[Rank]],
    rules: RedGreenRules,
    read: Callable[[], str | None],
    write: Callable[[str], None],
) -> DrillScore:
    """Ask for the front card of each hand, say right or wrong and why, and score.

    ``read`` returns the next answer line, or ``None`` at end of input: the drill
    stops, says so, and scores what was answered (nothing, if no hand was). An
    unreadable answer is asked again.
    """
    write(
        f"House-way drill: {plural(len(hands), 'hand')}. Type the front card (e.g. K),"
        f" or {FACE_UP!r} for three of a kind."
    )
    right = asked = 0
    for number, hand in enumerate(hands, start=1):
        setting = house_way_of_ranks(hand, rules)
        expected = expected_answer(setting)
        answer: Rank | str | None = None
        while answer is None:
            write(f"Hand {number} of {len(hands)}: {hand_text(hand)}  front?")
            line = read()
            if line is None:
                write(f"Input ended before hand {number} of {len(hands)} was answered.")
                if asked:
                    write(str(DrillScore(right, asked)))
                return DrillScore(right, asked)
            answer = parse_answer(line)
            if answer is None:
                write(f"  not an answer: {line.strip()!r}; type a rank (A, 2-10, J, Q, K) or 'up'")
        asked += 1
        correct = entry_text(by_single_rank(hand), setting)
        if answer == expected:
            right += 1
            write(f"  right: {correct}")
        else:
            write(f"  wrong: {correct} — {setting.rule.explain()}")
    score = DrillScore(right, asked)
    write(str(score))
    return score
