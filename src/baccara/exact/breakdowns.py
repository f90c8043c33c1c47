"""The breakdowns a PAR sheet prints beside the bets: how coups and deals fall, exactly.

Each breakdown is a :class:`~baccara.exact.model.DataTable` of integer counts over the
game's own sample space (the one its bets are counted over) with exact probabilities
(:class:`~fractions.Fraction`) and, where it helps, "1 in N" as an exact fraction too.

* Punto Banco (:func:`punto_banco_breakdowns`): wins by the winner's final total, ties by
  total, naturals and what they give, the Banker's wins on 6 (two- and three-card: what
  No-Commission, Super 6 and Lucky 6 read) and with a three-card 7 (EZ Baccarat's push,
  Dragon 7), the Player's three-card 8 (Panda 8), and coups by the cards dealt. All of it
  is read off the coup's facts at :attr:`~baccara.exact.coup_facts.Level.VALUES` (no
  breakdown reads a pair), over every ordered six-card sequence.
* RedGreen and Mini RedGreen (:func:`redgreen_breakdowns`): for the Red bet, Red's front
  against Green's front crossed with back against back, each cell marked as a win, push or
  loss of the bet, with the deals where a three of a kind decides instead; the house way's
  lines per hand (three of a kind, a pair in the back, Aces and Kings split or kept) and
  per deal (either hand, both). Counted over the 455 rank multisets of each hand, as
  :mod:`baccara.exact.redgreen` counts the bets, and called by the rules' own
  :func:`~baccara.games.redgreen.compare_fronts`, :func:`~baccara.games.redgreen.compare_backs`
  and :func:`~baccara.games.redgreen.pair_beats` (the cyclic ranking), so the matrix's
  sums are the bet's win, push and lose exactly.
* Lo-Ball (:func:`loball_breakdowns`): its analysis already holds the point distribution
  and the player-against-dealer table; they are returned as they are.

:func:`breakdowns` dispatches on the game id.

>>> wins = punto_banco_breakdowns(PuntoBancoRules())[0]
>>> wins.name, wins.columns[:2], wins.rows[6][:2]
('wins-by-total', ('Total', 'Player wins'), (6, 312658895192064))
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from baccara.cards import Rank, ShoeSpec, composition
from baccara.errors import BaccaraError, InvalidCards
from baccara.exact import loball as loball_analysis
from baccara.exact.coup_facts import Level, fact_counts
from baccara.exact.model import Cell, DataTable
from baccara.exact.redgreen import RANK_HANDS, settings
from baccara.games import game
from baccara.games.coup_terms import WINNERS, CoupFacts
from baccara.games.loball import GAME_ID as LOBALL_ID
from baccara.games.loball import LoBallRules
from baccara.games.punto_banco import PuntoBancoRules
from baccara.games.redgreen import (
    HAND_SIZE,
    HouseRule,
    RedGreenRules,
    Setting,
    compare_backs,
    compare_fronts,
    pair_beats,
)
from baccara.options import plural

K = TypeVar("K", bound=Hashable)


def one_in(count: int, total: int) -> Cell:
    """One in how many: ``total / count`` as an exact fraction, or ``"never"``.

    >>> one_in(4, 10), one_in(0, 10)
    (Fraction(5, 2), 'never')
    """
    return Fraction(total, count) if count else "never"


def _shoe_words(shoe: ShoeSpec) -> str:
    if isinstance(shoe, int):
        return plural(shoe, "deck")
    return f"a shoe of {plural(composition(shoe).total, 'card')}"


# --- Punto Banco -------------------------------------------------------------------------


def _tally(counts: dict[CoupFacts, int], key: Callable[[CoupFacts], K | None]) -> Counter[K]:
    """Sequences summed by ``key`` of their facts; facts keyed ``None`` are left out."""
    result: Counter[K] = Counter()
    for facts, n in counts.items():
        k = key(facts)
        if k is not None:
            result[k] += n
    return result


def _winners(counts: dict[CoupFacts, int], holds: Callable[[CoupFacts], bool]) -> tuple[int, ...]:
    """Player wins, Banker wins and ties among the sequences whose facts ``holds``."""
    won = _tally(counts, lambda f: f.winner if holds(f) else None)
    return tuple(won[w] for w in WINNERS)


def punto_banco_breakdowns(
    rules: PuntoBancoRules, shoe: ShoeSpec | None = None
) -> tuple[DataTable, ...]:
    """Punto Banco's breakdowns, over every ordered six-card sequence of the shoe.

    ``shoe`` overrides ``rules.decks`` (a depleted shoe, or a small one for a test).
    The tables are the same under every pay rule (EZ, No-Commission…): they count coups,
    not what a bet pays on them.

    ``wins-by-total``   Total · Player wins · Probability · Banker wins · Probability
    ``ties-by-total``   Total · Ties · Probability · 1 in
    ``naturals``        Player · Banker · Coups · Probability · 1 in · Winner
    ``natural-outcomes`` Naturals · Coups · Probability · 1 in · Player wins · Banker wins · Ties
    ``special-wins``    Event · Coups · Probability · 1 in · Read by
    ``cards-dealt``     Cards · Coups · Probability · 1 in · Player wins · Banker wins · Ties
    ``third-cards``     Player cards · Banker cards · Coups · Probability · Player wins ·
                        Banker wins · Ties
    """
    dealt_from: ShoeSpec = rules.decks if shoe is None else shoe
    counts = fact_counts(dealt_from, Level.VALUES)
    total = sum(counts.values())
    space = f"{total:,} ordered six-card sequences from {_shoe_words(dealt_from)}"
    return (
        _wins_by_total(counts, total, space),
        _ties_by_total(counts, total, space),
        _naturals(counts, total, space),
        _natural_outcomes(counts, total, space),
        _special_wins(counts, total, space),
        _cards_dealt(counts, total, space),
        _third_cards(counts, total, space),
    )


def _wins_by_total(counts: dict[CoupFacts, int], total: int, space: str) -> DataTable:
    player = _tally(counts, lambda f: f.player_total if f.winner == "player" else None)
    banker = _tally(counts, lambda f: f.banker_total if f.winner == "banker" else None)
    rows: list[tuple[Cell, ...]] = [
        (t, player[t], Fraction(player[t], total), banker[t], Fraction(banker[t], total))
        for t in range(10)
    ]
    p_all, b_all = sum(player.values()), sum(banker.values())
    rows.append(("all", p_all, Fraction(p_all, total), b_all, Fraction(b_all, total)))
    return DataTable(
        "wins-by-total",
        "Player and Banker wins by the winner's final total",
        ("Total", "Player wins", "Probability", "Banker wins", "Probability"),
        tuple(rows),
        note=f"Counts of {space}. No side wins on 0.",
    )


def _ties_by_total(counts: dict[CoupFacts, int], total: int, space: str) -> DataTable:
    ties = _tally(counts, lambda f: f.player_total if f.winner == "tie" else None)
    rows: list[tuple[Cell, ...]] = [
        (t, ties[t], Fraction(ties[t], total), one_in(ties[t], total)) for t in range(10)
    ]
    all_ties = sum(ties.values())
    rows.append(("all", all_ties, Fraction(all_ties, total), one_in(all_ties, total)))
    return DataTable(
        "ties-by-total",
        "ties by total",
        ("Total", "Ties", "Probability", "1 in"),
        tuple(rows),
        note=f"Counts of {space}.",
    )


_NATURAL_STATES: tuple[int | None, ...] = (8, 9, None)
"""A hand's first two cards: a natural 8, a natural 9, or no natural."""


def _natural_state(natural: bool, final_total: int) -> int | None:
    # A natural ends the coup: nobody draws, so the final total is the two-card one.
    return final_total if natural else None


def _natural_word(state: int | None) -> str:
    return "no natural" if state is None else f"natural {state}"


def _natural_winner(player: int | None, banker: int | None) -> str:
    """Who a natural makes the winner: an 8 or 9 beats any hand without one (at most 7)."""
    if player is None and banker is None:
        return "by the drawing rules"
    p, b = (-1 if player is None else player), (-1 if banker is None else banker)
    return "Player" if p > b else "Banker" if b > p else "Tie"


def _naturals(counts: dict[CoupFacts, int], total: int, space: str) -> DataTable:
    by_state = _tally(
        counts,
        lambda f: (
            _natural_state(f.player_natural, f.player_total),
            _natural_state(f.banker_natural, f.banker_total),
        ),
    )
    rows: list[tuple[Cell, ...]] = []
    for player in _NATURAL_STATES:
        for banker in _NATURAL_STATES:
            n = by_state[(player, banker)]
            rows.append(
                (
                    _natural_word(player),
                    _natural_word(banker),
                    n,
                    Fraction(n, total),
                    one_in(n, total),
                    _natural_winner(player, banker),
                )
            )
    return DataTable(
        "naturals",
        "naturals: the Player's and the Banker's first two cards",
        ("Player", "Banker", "Coups", "Probability", "1 in", "Winner"),
        tuple(rows),
        note=(
            f"Counts of {space}. A natural (8 or 9 on two cards) ends the coup, so a natural "
            "decides the winner; the last row is every coup the third-card rules decide."
        ),
    )


def _natural_outcomes(counts: dict[CoupFacts, int], total: int, space: str) -> DataTable:
    events: tuple[tuple[str, Callable[[CoupFacts], bool]], ...] = (
        ("Player natural", lambda f: f.player_natural),
        ("Banker natural", lambda f: f.banker_natural),
        ("both naturals", lambda f: f.player_natural and f.banker_natural),
        ("either natural", lambda f: f.player_natural or f.banker_natural),
        ("no natural", lambda f: not (f.player_natural or f.banker_natural)),
    )
    rows: list[tuple[Cell, ...]] = []
    for name, holds in events:
        won = _winners(counts, holds)
        n = sum(won)
        rows.append((name, n, Fraction(n, total), one_in(n, total), *won))
    return DataTable(
        "natural-outcomes",
        "naturals and the outcome of the coup",
        ("Naturals", "Coups", "Probability", "1 in", "Player wins", "Banker wins", "Ties"),
        tuple(rows),
        note=f"Counts of {space}; each outcome's probability is its count over the total.",
    )


def _special_wins(counts: dict[CoupFacts, int], total: int, space: str) -> DataTable:
    def banker_six(cards: tuple[int, ...]) -> Callable[[CoupFacts], bool]:
        return lambda f: f.winner == "banker" and f.banker_total == 6 and f.banker_cards in cards

    events: tuple[tuple[str, Callable[[CoupFacts], bool], str], ...] = (
        (
            "Banker wins with a two-card 6",
            banker_six((2,)),
            "Lucky 6's two-card line",
        ),
        (
            "Banker wins with a three-card 6",
            banker_six((3,)),
            "Lucky 6's three-card line",
        ),
        (
            "Banker wins with a 6",
            banker_six((2, 3)),
            "No-Commission (Banker pays 1 to 2), Super 6",
        ),
        (
            "Banker wins with a three-card 7",
            lambda f: f.winner == "banker" and f.banker_total == 7 and f.banker_cards == 3,
            "EZ Baccarat (the Banker bet pushes), Dragon 7",
        ),
        (
            "Player wins with a three-card 8",
            lambda f: f.winner == "player" and f.player_total == 8 and f.player_cards == 3,
            "Panda 8",
        ),
    )
    rows: list[tuple[Cell, ...]] = []
    for name, holds, read_by in events:
        n = sum(m for f, m in counts.items() if holds(f))
        rows.append((name, n, Fraction(n, total), one_in(n, total), read_by))
    return DataTable(
        "special-wins",
        "wins the commission-free games and their side bets read",
        ("Event", "Coups", "Probability", "1 in", "Read by"),
        tuple(rows),
        note=f"Counts of {space}.",
    )


def _cards_dealt(counts: dict[CoupFacts, int], total: int, space: str) -> DataTable:
    won = _tally(counts, lambda f: (f.cards, f.winner))
    rows: list[tuple[Cell, ...]] = []
    for cards in (4, 5, 6):
        n = sum(won[(cards, w)] for w in WINNERS)
        rows.append(
            (cards, n, Fraction(n, total), one_in(n, total), *(won[(cards, w)] for w in WINNERS))
        )
    return DataTable(
        "cards-dealt",
        "coups by the number of cards dealt",
        ("Cards", "Coups", "Probability", "1 in", "Player wins", "Banker wins", "Ties"),
        tuple(rows),
        note=f"Counts of {space}. Small is 4 cards; Big is 5 or 6.",
    )


def _third_cards(counts: dict[CoupFacts, int], total: int, space: str) -> DataTable:
    won = _tally(counts, lambda f: (f.player_cards, f.banker_cards, f.winner))
    rows: list[tuple[Cell, ...]] = []
    for player in (2, 3):
        for banker in (2, 3):
            by_winner = [won[(player, banker, w)] for w in WINNERS]
            n = sum(by_winner)
            rows.append((player, banker, n, Fraction(n, total), *by_winner))
    return DataTable(
        "third-cards",
        "coups by who drew a third card",
        (
            "Player cards",
            "Banker cards",
            "Coups",
            "Probability",
            "Player wins",
            "Banker wins",
            "Ties",
        ),
        tuple(rows),
        note=f"Counts of {space}. Player 2 cards, Banker 3: the Player stood, the Banker drew.",
    )


# --- RedGreen ----------------------------------------------------------------------------


class _Deals:
    """Red's three cards, then Green's three, from a shoe, counted by rank multisets.

    ``red_ways[i]``: the three-card hands of rank multiset ``RANK_HANDS[i]``;
    ``green[i, j]``: Green's hands of multiset ``j`` from what a Red hand ``i`` leaves,
    ∏_r C(n_r − a_r, b_r) — at most C(N − 3, 3), so every row sums inside int64; the
    products with ``red_ways`` are summed in Python integers.
    """

    def __init__(self, per_rank: Sequence[int]) -> None:
        cards = sum(per_rank)
        if cards < 2 * HAND_SIZE:
            raise InvalidCards(f"a RedGreen deal needs six cards; the shoe holds {cards}")
        held = np.array([[hand.count(rank) for rank in Rank] for hand in RANK_HANDS], np.intp)
        ways = np.zeros((len(Rank), HAND_SIZE + 1, HAND_SIZE + 1), dtype=np.int64)
        for r, n in enumerate(per_rank):
            for a in range(HAND_SIZE + 1):
                for b in range(HAND_SIZE + 1):
                    ways[r, a, b] = math.comb(n - a, b) if n >= a else 0
        ranks = np.arange(len(Rank))
        self.green: npt.NDArray[np.int64] = ways[
            ranks[None, None, :], held[:, None, :], held[None, :, :]
        ].prod(axis=2)
        self.red_ways = [
            math.prod(math.comb(n, a) for n, a in zip(per_rank, row, strict=True))
            for row in held.tolist()
        ]
        self.hands = math.comb(cards, HAND_SIZE)
        self.total = self.hands * math.comb(cards - HAND_SIZE, HAND_SIZE)

    def count(self, mask: npt.NDArray[np.bool_]) -> int:
        """Deals whose (Red multiset, Green multiset) is marked in ``mask``, exactly."""
        rows = np.where(mask, self.green, 0).sum(axis=1).tolist()
        return sum(w * int(n) for w, n in zip(self.red_ways, rows, strict=True))

    def of_hand(self, flags: npt.NDArray[np.bool_]) -> int:
        """Three-card hands whose multiset is marked in ``flags``."""
        return sum(w for w, flag in zip(self.red_ways, flags.tolist(), strict=True) if flag)


def _called(
    hands: Sequence[Setting], keys: Sequence[Hashable], call: Callable[[Setting, Setting], int]
) -> npt.NDArray[np.int8]:
    """``call`` on every pair of hands, made once per pair of classes of equal ``keys``."""
    classes: dict[Hashable, int] = {}
    first: list[Setting] = []
    index = np.empty(len(hands), dtype=np.intp)
    for i, (hand, key) in enumerate(zip(hands, keys, strict=True)):
        if key not in classes:
            classes[key] = len(first)
            first.append(hand)
        index[i] = classes[key]
    table = np.array([[call(a, b) for b in first] for a in first], dtype=np.int8)
    result: npt.NDArray[np.int8] = table[index[:, None], index[None, :]]
    return result


_PART_WORDS = ((1, "wins"), (0, "ties"), (-1, "loses"))
_BET_WORDS = {1: "win", 0: "push", -1: "lose"}


def redgreen_breakdowns(
    rules: RedGreenRules, shoe: ShoeSpec | None = None
) -> tuple[DataTable, ...]:
    """RedGreen's breakdowns (Mini RedGreen deals the same cards), over every deal of
    three cards to Red, then three to Green; ``shoe`` overrides ``rules.decks``.

    ``red-front-back``       Three of a kind · Red's front · Red's back · Deals ·
                             Probability · 1 in · Red bet
    ``red-front-back-grid``  Red's front · Back wins · Back ties · Back loses
                             (probabilities over all deals)
    ``red-bet-from-parts``   Red bet · Deals · Probability · 1 in
    ``house-way``            House way · Hands · Probability · 1 in
    ``hand-events``          Event · Per hand · Deals: either hand · Probability ·
                             Deals: both hands · Probability
    """
    dealt_from: ShoeSpec = rules.decks if shoe is None else shoe
    deals = _Deals(composition(dealt_from).per_rank)
    hands = settings(rules)
    where = _shoe_words(dealt_from)
    matrix = _front_back(rules, hands, deals, where)
    return (
        matrix,
        _front_back_grid(matrix, deals),
        _bet_from_parts(matrix, deals, where),
        _house_way(rules, hands, deals, where),
        _hand_events(hands, deals, where),
    )


def _front_back(
    rules: RedGreenRules, hands: Sequence[Setting], deals: _Deals, where: str
) -> DataTable:
    front = _called(hands, [h.front.rank for h in hands], compare_fronts)
    back = _called(
        hands,
        [tuple(c.rank for c in h.back) for h in hands],
        lambda red, green: compare_backs(red, green, rules),
    )
    trips = [h.three_of_a_kind for h in hands]
    has = np.array([t is not None for t in trips])
    trip_call = np.zeros((len(hands), len(hands)), dtype=np.int8)
    for i, red in enumerate(trips):
        for j, green in enumerate(trips):
            if red is not None and green is not None:
                trip_call[i, j] = pair_beats(red, green, rules.deuces)
    neither = ~has[:, None] & ~has[None, :]
    both = has[:, None] & has[None, :]

    rows: list[tuple[Cell, ...]] = []

    def add(label: str, f: str, b: str, mask: npt.NDArray[np.bool_], result: int) -> None:
        n = deals.count(mask)
        rows.append(
            (label, f, b, n, Fraction(n, deals.total), one_in(n, deals.total), _BET_WORDS[result])
        )

    for f_code, f_word in _PART_WORDS:
        for b_code, b_word in _PART_WORDS:
            mask = neither & (front == f_code) & (back == b_code)
            add("neither", f_word, b_word, mask, int(np.sign(f_code + b_code)))
    add("Red's only", "—", "—", has[:, None] & ~has[None, :], 1)
    add("Green's only", "—", "—", ~has[:, None] & has[None, :], -1)
    add("both: Red's beats Green's", "—", "—", both & (trip_call == 1), 1)
    add("both: same rank", "—", "—", both & (trip_call == 0), 0)
    add("both: Green's beats Red's", "—", "—", both & (trip_call == -1), -1)
    return DataTable(
        "red-front-back",
        "the Red bet: Red's front against Green's, crossed with back against back",
        (
            "Three of a kind",
            "Red's front",
            "Red's back",
            "Deals",
            "Probability",
            "1 in",
            "Red bet",
        ),
        tuple(rows),
        note=(
            f"Deals of three cards to Red, then three to Green, from {where} "
            f"({deals.total:,}), each hand set by the house way. Win/win, win/tie and "
            "tie/win win the bet; lose/lose, lose/tie and tie/lose lose it; win/lose, "
            "lose/win and tie/tie push. A three of a kind is not split: it beats any "
            "hand that is not one, and two of them go by the ranking of pairs "
            f"({rules.describe_ranking()}). The Green bet is the same table read from "
            "Green's side."
        ),
    )


def _front_back_grid(matrix: DataTable, deals: _Deals) -> DataTable:
    cells = {(row[1], row[2]): int(row[3]) for row in matrix.rows if row[0] == "neither"}
    rows: list[tuple[Cell, ...]] = []
    for _, f_word in _PART_WORDS:
        by_back = [Fraction(cells[(f_word, b_word)], deals.total) for _, b_word in _PART_WORDS]
        rows.append((f_word, *by_back))
    return DataTable(
        "red-front-back-grid",
        "Red's front (rows) against its back (columns), when neither hand is three of a kind",
        ("Red's front", "Back wins", "Back ties", "Back loses"),
        tuple(rows),
        note=(
            "Probabilities over all deals. The Red bet wins on front and back wins/wins, "
            "wins/ties and ties/wins, pushes on wins/loses, ties/ties and loses/wins, and "
            "loses on the rest (the Red bet's table of fronts and backs marks each cell)."
        ),
    )


def _bet_from_parts(matrix: DataTable, deals: _Deals, where: str) -> DataTable:
    by_result: Counter[str] = Counter()
    for row in matrix.rows:
        by_result[str(row[6])] += int(row[3])
    rows: list[tuple[Cell, ...]] = []
    for word in ("win", "push", "lose"):
        n = by_result[word]
        rows.append((word, n, Fraction(n, deals.total), one_in(n, deals.total)))
    return DataTable(
        "red-bet-from-parts",
        "the Red bet, summed from the front-and-back table",
        ("Red bet", "Deals", "Probability", "1 in"),
        tuple(rows),
        note=f"Deals from {where}; the Green bet's win is the Red bet's loss.",
    )


_HOUSE_WAY_ORDER = (
    HouseRule.THREE_OF_A_KIND,
    HouseRule.PAIR_IN_BACK,
    HouseRule.ACES_KEPT,
    HouseRule.ACES_SPLIT,
    HouseRule.KINGS_KEPT,
    HouseRule.KINGS_SPLIT,
    HouseRule.NO_PAIR,
)
_PAIR_BEHIND = frozenset({HouseRule.PAIR_IN_BACK, HouseRule.ACES_KEPT, HouseRule.KINGS_KEPT})


def _flags(hands: Sequence[Setting], lines: Iterable[HouseRule]) -> npt.NDArray[np.bool_]:
    chosen = frozenset(lines)
    return np.array([h.rule in chosen for h in hands])


def _house_way(
    rules: RedGreenRules, hands: Sequence[Setting], deals: _Deals, where: str
) -> DataTable:
    rows: list[tuple[Cell, ...]] = []
    for line in _HOUSE_WAY_ORDER:
        n = deals.of_hand(_flags(hands, (line,)))
        rows.append((line.value, n, Fraction(n, deals.hands), one_in(n, deals.hands)))
    return DataTable(
        "house-way",
        "one hand: the line of the house way that sets it",
        ("House way", "Hands", "Probability", "1 in"),
        tuple(rows),
        note=(
            f"Three-card hands from {where} ({deals.hands:,}). The house way: "
            f"{rules.describe_house_way()}. A split puts one card of the pair in front and "
            "the other behind with the odd card; a pair kept goes behind, the odd card in "
            "front; a three of a kind stays whole."
        ),
    )


def _hand_events(hands: Sequence[Setting], deals: _Deals, where: str) -> DataTable:
    events: tuple[tuple[str, frozenset[HouseRule]], ...] = (
        ("three of a kind", frozenset({HouseRule.THREE_OF_A_KIND})),
        ("a pair played in the back", _PAIR_BEHIND),
        ("Aces split", frozenset({HouseRule.ACES_SPLIT})),
        ("Kings split", frozenset({HouseRule.KINGS_SPLIT})),
        ("Aces or Kings split", frozenset({HouseRule.ACES_SPLIT, HouseRule.KINGS_SPLIT})),
        ("no pair", frozenset({HouseRule.NO_PAIR})),
    )
    rows: list[tuple[Cell, ...]] = []
    for name, lines in events:
        flags = _flags(hands, lines)
        either = deals.count(flags[:, None] | flags[None, :])
        both = deals.count(flags[:, None] & flags[None, :])
        rows.append(
            (
                name,
                Fraction(deals.of_hand(flags), deals.hands),
                either,
                Fraction(either, deals.total),
                both,
                Fraction(both, deals.total),
            )
        )
    return DataTable(
        "hand-events",
        "three of a kind, pairs and splits: per hand, and on a deal of Red and Green",
        (
            "Event",
            "Per hand",
            "Deals: either hand",
            "Probability",
            "Deals: both hands",
            "Probability",
        ),
        tuple(rows),
        note=(
            f"Per hand: the probability that one hand (Red's or Green's alike) is set so. "
            f"Deals: of the {deals.total:,} deals from {where}, those where either hand, or "
            "both, is."
        ),
    )


# --- Lo-Ball and the dispatch ------------------------------------------------------------

LOBALL_TABLES = ("points", "player-versus-dealer")
"""Lo-Ball's breakdowns, which its analysis already holds: taken from there by name."""


def loball_breakdowns(rules: LoBallRules) -> tuple[DataTable, ...]:
    """The point distribution and the player-against-dealer table of Lo-Ball's analysis."""
    analysis = loball_analysis.analyze(LOBALL_ID, rules)
    return tuple(analysis.table(name) for name in LOBALL_TABLES)


def breakdowns(game_id: str, rules: object = None) -> tuple[DataTable, ...]:
    """Every breakdown of ``game_id`` under ``rules`` (by default the game's own), or ``()``
    for a game without any. An unknown game raises
    :class:`~baccara.errors.UnknownGame`; rules of another game, a
    :class:`~baccara.errors.BaccaraError`.

    >>> [t.name for t in breakdowns("lo-ball")]
    ['points', 'player-versus-dealer']
    """
    spec = game(game_id)
    if rules is None:
        rules = spec.rules_from_options()
    if not isinstance(rules, spec.rules):
        raise BaccaraError(
            f"{spec.name} is dealt by {spec.rules.__name__}, not {type(rules).__name__}"
        )
    if isinstance(rules, PuntoBancoRules):
        return punto_banco_breakdowns(rules)
    if isinstance(rules, RedGreenRules):
        return redgreen_breakdowns(rules)
    if isinstance(rules, LoBallRules):
        return loball_breakdowns(rules)
    return ()


__all__ = [
    "breakdowns",
    "loball_breakdowns",
    "one_in",
    "punto_banco_breakdowns",
    "redgreen_breakdowns",
]
