"""Exact analysis of Casino Lo-Ball Baccarat, every bet counted in whole numbers.

How the combinations are counted (one player, as the seed's tables do):

* ``main``: every (dealer hand, player hand) pair of disjoint three-tile hands,
  C(28,3)·C(25,3) = 7,534,800. The wager depends only on the two hands' points, so
  the count is the 28 × 28 grid of (dealer points, player points) pairs
  (:func:`points_grid`), built by inclusion–exclusion over shared tiles from
  per-tile histograms in exact integer numpy — no pair is visited.
* ``lo-card`` / ``hi-card``: every (player hand, dealer hand, three exposed tiles),
  C(28,3)·C(25,3)·C(22,3) = 11,603,592,000, the exposed three counted whether or not
  the round needs them; the counts are products of binomials.
* ``dice-lo`` / ``dice-hi``: the 6³ = 216 ordered rolls.

The plain counterparts go through the rules in :mod:`baccara.games.loball` —
:func:`count_main_by_rules` visits all 7,534,800 pairs, :func:`count_tile_bets_by_rules`
deals a round for every placement of 1-1 and 7-7 in the shuffled stack,
:func:`count_dice_by_rules` every roll — and tests prove them equal to the fast
counts. :func:`seat_invariance` proves, exactly, that one to seven seated players
leave every bet's edge unchanged.

Every tile count also takes ``without``: one tile taken out of the set, the round
dealt from the other 27 (:mod:`baccara.exact.removal` measures what each tile is
worth to each bet that way). The plain counterparts deal such a round through the
same rules by leaving the missing tile at the bottom of the stack, where one
player's round never reaches it.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations, permutations, product

import numpy as np
import numpy.typing as npt

from baccara.exact.model import (
    Analysis,
    BetAnalysis,
    Cell,
    DataTable,
    Outcome,
    Published,
    rules_summary,
)
from baccara.exact.removal import EffectOfRemoval, Removal, edges
from baccara.games.loball import (
    DICE,
    EXPOSED,
    HAND_SIZE,
    HI_TILE,
    LO_TILE,
    MAX_PLAYERS,
    MAX_POINTS,
    Bet,
    LoBallRules,
    MainOutcome,
    dice_result,
    main_outcome,
    points,
    round_from_stack,
    tile_bet_result,
)
from baccara.money import BetResult
from baccara.options import fraction_text, percent_text
from baccara.tiles import TILE_SET, Tile

TILES = len(TILE_SET)
POINT_VALUES = MAX_POINTS + 1

PUBLISHED_SOURCE = "seed 001, Table {}: Shackleford's analysis"
PUBLISHED: dict[Bet, tuple[Fraction, int]] = {
    Bet.MAIN: (Fraction("0.0256"), 1),
    Bet.LO_CARD: (Fraction("0.0357"), 2),
    Bet.HI_CARD: (Fraction("0.0357"), 3),
}
"""The house edges printed in the seed (its tables are missing), rounded to 0.01 %."""

TILE_OUTCOMES = ("win", "push (exposed)", "lose (dealer holds it)", "lose (not dealt)")
DICE_OUTCOMES = ("win", "lose (triple)", "lose")


# --- one hand ---------------------------------------------------------------------------


@functools.cache
def all_hands() -> npt.NDArray[np.intp]:
    """Every three-tile hand as indices into ``TILE_SET``, shape (3276, 3), sorted."""
    return np.array(list(combinations(range(TILES), HAND_SIZE)), dtype=np.intp)


def vector_points(hands: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """Points of many hands at once (rows of tile indices): the fast twin of ``points``."""
    numbers = np.array([t.numbers for t in TILE_SET], dtype=np.intp)[hands].reshape(len(hands), -1)
    times = np.zeros((len(hands), 8), dtype=np.int64)
    np.add.at(times, (np.arange(len(hands))[:, None], numbers), 1)
    singles: npt.NDArray[np.int64] = ((times == 1) * np.arange(8)).sum(axis=1)
    return singles


@functools.cache
def hand_points() -> npt.NDArray[np.int64]:
    """Points of every hand of :func:`all_hands`."""
    return vector_points(all_hands())


def points_distribution() -> list[int]:
    """How many of the 3,276 hands score each of 0–27 points."""
    return np.bincount(hand_points(), minlength=POINT_VALUES).tolist()  # type: ignore[no-any-return]


# --- the main wager -----------------------------------------------------------------------


def _tiles_in_play(without: Tile | None) -> tuple[Tile, ...]:
    return tuple(t for t in TILE_SET if t != without)


@functools.cache
def points_grid(without: Tile | None = None) -> tuple[tuple[int, ...], ...]:
    """``grid[d][p]``: disjoint (dealer, player) hand pairs where the dealer scores d, the player p.

    For a dealer hand D the player hands disjoint from it are, by inclusion–exclusion,
    all hands − those holding one of D's tiles + those holding two of them − D itself;
    each term is a points histogram looked up from per-tile and per-tile-pair tables.
    ``without`` leaves out every hand holding that tile.
    """
    hands, pts = all_hands(), hand_points()
    if without is not None:
        keep = (hands != TILE_SET.index(without)).all(axis=1)
        hands, pts = hands[keep], pts[keep]
    onehot = np.eye(POINT_VALUES, dtype=np.int64)[pts]
    by_tile = np.zeros((TILES, POINT_VALUES), dtype=np.int64)
    by_pair = np.zeros((TILES, TILES, POINT_VALUES), dtype=np.int64)
    for a in range(HAND_SIZE):
        np.add.at(by_tile, hands[:, a], onehot)
    for a, b in combinations(range(HAND_SIZE), 2):
        np.add.at(by_pair, (hands[:, a], hands[:, b]), onehot)  # rows are sorted: a < b
    x, y, z = hands[:, 0], hands[:, 1], hands[:, 2]
    disjoint = (
        onehot.sum(axis=0)[None, :]
        - by_tile[x]
        - by_tile[y]
        - by_tile[z]
        + by_pair[x, y]
        + by_pair[x, z]
        + by_pair[y, z]
        - onehot
    )
    grid = onehot.T @ disjoint
    return tuple(tuple(row) for row in grid.tolist())


def main_counts(without: Tile | None = None) -> dict[MainOutcome, int]:
    """The main wager's outcomes over the 7,534,800 (dealer, player) pairs (without a tile: fewer)."""
    counts = dict.fromkeys(MainOutcome, 0)
    for dealer, row in enumerate(points_grid(without)):
        for player, n in enumerate(row):
            counts[main_outcome(dealer, player)] += n
    return counts


def count_main_by_rules(
    without: Tile | None = None,
) -> tuple[dict[MainOutcome, int], list[list[int]]]:
    """The plain way: every disjoint (dealer, player) pair of hands, through the rules.

    Points come from :func:`~baccara.games.loball.points` on the tiles themselves;
    returns the outcome counts and the points grid.
    """
    hands = list(combinations(_tiles_in_play(without), HAND_SIZE))
    scored = [(frozenset(h), points(h)) for h in hands]
    counts = dict.fromkeys(MainOutcome, 0)
    grid = [[0] * POINT_VALUES for _ in range(POINT_VALUES)]
    for dealer, dealer_points in scored:
        row = grid[dealer_points]
        for player, player_points in scored:
            if dealer.isdisjoint(player):
                counts[main_outcome(dealer_points, player_points)] += 1
                row[player_points] += 1
    return counts, grid


# --- Lo-Card and Hi-Card ------------------------------------------------------------------


def deals(tiles: int = TILES) -> int:
    """(player hand, dealer hand, exposed three) triples: the Lo/Hi-Card sample space."""
    return math.comb(tiles, 3) * math.comb(tiles - 3, 3) * math.comb(tiles - 6, EXPOSED)


def tile_counts(tiles: int = TILES, present: bool = True) -> dict[str, int]:
    """Where the decisive tile lies, over :func:`deals`; the same for 1-1 and 7-7.

    ``tiles`` in play (27 when one is taken out); a decisive tile not ``present``
    is never dealt, so the bet always loses.
    """
    if not present:
        return {**dict.fromkeys(TILE_OUTCOMES, 0), "lose (not dealt)": deals(tiles)}
    c = math.comb
    rest = tiles - 1
    return {
        "win": c(rest, 2) * c(tiles - 3, 3) * c(tiles - 6, 3),
        "push (exposed)": c(rest, 3) * c(rest - 3, 3) * c(rest - 6, 2),
        "lose (dealer holds it)": c(rest, 3) * c(rest - 3, 2) * c(tiles - 6, 3),
        "lose (not dealt)": c(rest, 3) * c(rest - 3, 3) * c(rest - 6, 3),
    }


def _stacks(without: Tile | None = None) -> Iterator[list[Tile]]:
    """Every placement of 1-1 and 7-7 in the stack, the other tiles in set order.

    ``without`` sits at the bottom of the stack, out of reach of a one-player round,
    and the decisive tiles are placed among the 27 positions above it.
    """
    decisive = [t for t in (LO_TILE, HI_TILE) if t != without]
    others = [t for t in TILE_SET if t not in (LO_TILE, HI_TILE, without)]
    in_play = TILES - (without is not None)
    for positions in permutations(range(in_play), len(decisive)):
        stack = list(others)
        for position, tile in sorted(zip(positions, decisive, strict=True)):
            stack.insert(position, tile)
        yield stack if without is None else [*stack, without]


@functools.cache
def tile_bets_by_seat(players: int) -> tuple[tuple[dict[str, Counter[BetResult]], ...], int]:
    """Lo-Card and Hi-Card results per seat, counted over all 28! orderings of the set.

    A round is dealt through the rules for each of the 756 placements of 1-1 and 7-7;
    each placement stands for the 26! orderings of the other tiles. (The tiles other
    than 1-1 and 7-7 cannot change these two bets: no rule reads them.)
    """
    per_seat: list[dict[str, Counter[BetResult]]] = [
        {"lo-card": Counter(), "hi-card": Counter()} for _ in range(players)
    ]
    for stack in _stacks():
        round_ = round_from_stack(stack, players, (1, 2, 3))
        for seat, counts in enumerate(per_seat, 1):
            counts["lo-card"][tile_bet_result(round_, seat, LO_TILE)] += 1
            counts["hi-card"][tile_bet_result(round_, seat, HI_TILE)] += 1
    return tuple(per_seat), math.factorial(TILES - 2)


def count_tile_bets_by_rules(without: Tile | None = None) -> dict[Bet, dict[str, int]]:
    """The plain way for one player: a round for every placement of 1-1 and 7-7.

    Counted over orderings of the stack and converted to (player, dealer, exposed)
    deals: each deal is 3!·3!·3!·19! orderings (18! from 27 tiles), and which of the
    four places the decisive tile is in is read off the dealt round.
    """
    in_play = TILES - (without is not None)
    placed = len([t for t in (LO_TILE, HI_TILE) if t != without])
    per_deal = math.factorial(3) ** 3 * math.factorial(in_play - 9)
    orderings = math.factorial(in_play - placed)
    result: dict[Bet, dict[str, int]] = {}
    for bet, tile in ((Bet.LO_CARD, LO_TILE), (Bet.HI_CARD, HI_TILE)):
        counts = dict.fromkeys(TILE_OUTCOMES, 0)
        for stack in _stacks(without):
            round_ = round_from_stack(stack, 1, (1, 2, 3))
            outcome = tile_bet_result(round_, 1, tile)
            if outcome is BetResult.WIN:
                name = "win"
            elif outcome is BetResult.PUSH:
                name = "push (exposed)"
            elif tile in round_.dealer:
                name = "lose (dealer holds it)"
            else:
                name = "lose (not dealt)"
            counts[name] += orderings
        result[bet] = {k: v // per_deal for k, v in counts.items()}
    return result


# --- dice -----------------------------------------------------------------------------------


def dice_counts(bet: Bet) -> dict[str, int]:
    """Dice-Lo or Dice-Hi over the 216 rolls, from the totals' counts."""
    ways = Counter(sum(roll) for roll in product(range(1, 7), repeat=DICE))
    totals = range(4, 11) if bet is Bet.DICE_LO else range(11, 18)
    triples = sum(1 for face in range(1, 7) if face * DICE in totals)
    win = sum(ways[t] for t in totals) - triples
    return {"win": win, "lose (triple)": 6, "lose": 6**DICE - win - 6}


def count_dice_by_rules(bet: Bet) -> dict[str, int]:
    """The plain way: every ordered roll of three dice, through the rules."""
    counts = dict.fromkeys(DICE_OUTCOMES, 0)
    for roll in product(range(1, 7), repeat=DICE):
        if len(set(roll)) == 1:
            counts["lose (triple)"] += 1
        elif dice_result(bet, roll) is BetResult.WIN:
            counts["win"] += 1
        else:
            counts["lose"] += 1
    return counts


# --- the analysis ---------------------------------------------------------------------------


MAIN_NAMES = {
    MainOutcome.WIN_BONUS: "win-bonus (0 points)",
    MainOutcome.WIN: "win",
    MainOutcome.PLAY_BONUS: "play-bonus (27 points)",
    MainOutcome.LOSE: "lose",
}
"""Outcome names in the main wager's table."""

SEED_PAYOUTS = LoBallRules()


def _published(bet: Bet, rules: LoBallRules) -> Published | None:
    """The seed's figure, only when the payouts it was computed for are in force."""
    if bet not in PUBLISHED:
        return None
    fields: tuple[str, ...] = ("lo_hi_pays",)
    if bet is Bet.MAIN:
        fields = ("win_pays", "win_bonus_pays", "play_bonus_pays")
    if any(getattr(rules, f) != getattr(SEED_PAYOUTS, f) for f in fields):
        return None
    edge, table = PUBLISHED[bet]
    return Published(edge, PUBLISHED_SOURCE.format(table), places=2)


def bet_analyses(rules: LoBallRules, without: Tile | None = None) -> tuple[BetAnalysis, ...]:
    """All five bets for one player, exactly; ``without`` deals from the set less that tile."""
    in_play = TILES - (without is not None)
    main_total = math.comb(in_play, 3) * math.comb(in_play - 3, 3)
    won = main_counts(without)
    full = without is None
    main = BetAnalysis(
        Bet.MAIN.value,
        tuple(Outcome(MAIN_NAMES[o], won[o], main_total, rules.main_pays(o)) for o in MainOutcome),
        _published(Bet.MAIN, rules) if full else None,
    )
    tile_pays = dict(
        zip(TILE_OUTCOMES, (rules.lo_hi_pays, Fraction(0), Fraction(-1), Fraction(-1)), strict=True)
    )
    tile_bets = tuple(
        BetAnalysis(
            bet.value,
            tuple(
                Outcome(n, count, deals(in_play), tile_pays[n])
                for n, count in tile_counts(in_play, present=tile != without).items()
            ),
            _published(bet, rules) if full else None,
        )
        for bet, tile in ((Bet.LO_CARD, LO_TILE), (Bet.HI_CARD, HI_TILE))
    )
    dice_pays = dict(zip(DICE_OUTCOMES, (rules.dice_pays, Fraction(-1), Fraction(-1)), strict=True))
    dice = tuple(
        BetAnalysis(
            bet.value,
            tuple(Outcome(n, c, 6**DICE, dice_pays[n]) for n, c in dice_counts(bet).items()),
        )
        for bet in (Bet.DICE_LO, Bet.DICE_HI)
    )
    return (main, *tile_bets, *dice)


def seat_invariance(rules: LoBallRules) -> list[tuple[int, dict[Bet, set[Fraction]]]]:
    """Each bet's exact edge for every seat of a table of 1 to 7 players.

    The sample space is the 28! orderings of the shuffled set, the same for any
    number of players; only which positions go where changes, and
    :func:`~baccara.games.loball.round_from_stack` says that. The main wager reads
    the dealer's three positions and the seat's three, which never overlap, so each
    (dealer hand, player hand) pair fills them in 3!·3!·22! orderings whatever the
    table size: the one-player counts times a constant. Lo-Card and Hi-Card are dealt
    through the rules for every placement of 1-1 and 7-7. The dice never meet a tile.
    """
    orderings = math.factorial(TILES)
    won = main_counts()
    # Orderings that put one given dealer hand and one given player hand in their places.
    per_pair = math.factorial(HAND_SIZE) ** 2 * math.factorial(TILES - 2 * HAND_SIZE)
    main_return = sum((n * per_pair * rules.main_pays(o) for o, n in won.items()), Fraction(0))
    dice = {b.bet: b.house_edge for b in bet_analyses(rules) if b.bet.startswith("dice")}
    tile_pays = {BetResult.WIN: rules.lo_hi_pays, BetResult.PUSH: Fraction(0)}
    table: list[tuple[int, dict[Bet, set[Fraction]]]] = []
    for players in range(1, MAX_PLAYERS + 1):
        labelled = round_from_stack(TILE_SET, players, (1, 2, 3))
        dealer = set(labelled.dealer.tiles)
        edges: dict[Bet, set[Fraction]] = {bet: set() for bet in Bet}
        per_seat, per_placement = tile_bets_by_seat(players)
        for seat, hand in enumerate(labelled.players, 1):
            if len(set(hand.tiles)) != HAND_SIZE or dealer & set(hand.tiles):
                raise AssertionError(f"seat {seat} of {players} shares a position with the dealer")
            edges[Bet.MAIN].add(-main_return / orderings)
            for bet in (Bet.LO_CARD, Bet.HI_CARD):
                counts = per_seat[seat - 1][bet.value]
                tile_return = sum(
                    (n * per_placement * tile_pays.get(r, Fraction(-1)) for r, n in counts.items()),
                    Fraction(0),
                )
                edges[bet].add(-tile_return / orderings)
            for bet in (Bet.DICE_LO, Bet.DICE_HI):
                edges[bet].add(dice[bet.value])
        table.append((players, edges))
    return table


def _percent(value: Fraction) -> str:
    return percent_text(value)


def _tables(rules: LoBallRules, bets: tuple[BetAnalysis, ...]) -> tuple[DataTable, ...]:
    distribution = points_distribution()
    hands = sum(distribution)
    points_table = DataTable(
        "points",
        "points of one hand",
        ("Points", "Hands", "Probability"),
        tuple((p, n, Fraction(n, hands)) for p, n in enumerate(distribution)),
        note=f"{hands:,} three-tile hands from 28; fewer points are better.",
    )
    grid = points_grid()
    total = sum(map(sum, grid))
    versus_rows: list[tuple[Cell, ...]] = []
    for player in range(POINT_VALUES):
        column = [grid[d][player] for d in range(POINT_VALUES)]
        more, equal, fewer = sum(column[player + 1 :]), column[player], sum(column[:player])
        ret = sum(
            (n * rules.main_pays(main_outcome(d, player)) for d, n in enumerate(column)),
            Fraction(0),
        )
        versus_rows.append((player, more, equal, fewer, Fraction(ret, total)))
    versus = DataTable(
        "player-versus-dealer",
        "main wager: player's points against the dealer's",
        ("Player points", "Dealer more", "Dealer equal", "Dealer fewer", "Return"),
        tuple(versus_rows),
        note="Counts of (dealer hand, player hand) pairs; the player wins when the dealer has more.",
    )
    full_grid = DataTable(
        "grid",
        "(dealer hand, player hand) pairs by dealer points (rows) and player points (columns)",
        ("Dealer points", *(str(p) for p in range(POINT_VALUES))),
        tuple((d, *row) for d, row in enumerate(grid)),
        on_screen=False,
    )
    invariance = seat_invariance(rules)
    one = {b.bet: b.house_edge for b in bets}
    seat_rows: list[tuple[Cell, ...]] = []
    for players, seat_edges in invariance:
        same = all(e == {one[b.value]} for b, e in seat_edges.items())
        seat_rows.append(
            (
                players,
                *(" ".join(_percent(e) for e in sorted(seat_edges[b])) for b in Bet),
                "yes" if same else "NO",
            )
        )
    seats = DataTable(
        "seated-players",
        "house edge of every seat by number of players",
        ("Players", *(b.value for b in Bet), "Same as 1 player"),
        tuple(seat_rows),
        note=(
            "Exact, every seat: all 28! orderings of the set are dealt through the rules' "
            "seating; the dealer's and a seat's positions never overlap, so each pair of "
            "hands fills them in 3!·3!·22! orderings at any table size, and 1-1 and 7-7 "
            "are placed in all 756 ways. Equal fractions, not rounded ones."
        ),
    )
    return points_table, versus, full_grid, seats


def analyze(game_id: str, rules: LoBallRules) -> Analysis:
    """Every bet of Casino Lo-Ball Baccarat under the given payouts, exactly."""
    bets = bet_analyses(rules)
    return Analysis(
        game=game_id,
        options=rules_summary(rules),
        bets=bets,
        sample_space=(
            "unordered hands from the 28 tiles: (dealer, player) pairs for the main wager, "
            "(player, dealer, 3 exposed) for Lo-Card and Hi-Card; dice are ordered rolls"
        ),
        tables=_tables(rules, bets),
        notes=(
            f"The Play-bonus pays {fraction_text(rules.play_bonus_pays)} to 1 on a lost "
            f"27-point wager, net {fraction_text(rules.play_bonus_pays - 1)}; "
            "payouts in cents round down.",
        ),
    )


def effect_of_removal(game_id: str, rules: LoBallRules) -> EffectOfRemoval:
    """Each of the 28 tiles taken out of the set in turn, every bet's edge after."""
    base = bet_analyses(rules)
    share = Fraction(1, len(TILE_SET))
    removals = tuple(
        Removal(str(tile), share, edges(bet_analyses(rules, tile))) for tile in TILE_SET
    )
    return EffectOfRemoval(
        game=game_id,
        options=rules_summary(rules),
        removed="tile",
        bets=tuple(b.bet for b in base),
        full_edges=edges(base),
        removals=removals,
        notes=(
            "Each tile taken out of the set and the round dealt from the other 27. The set "
            "is reshuffled whole before every round, so no tile is ever missing in play: "
            "this shows what each tile is worth to each bet, not a count.",
            "The dice bets never meet a tile.",
        ),
    )
