"""Seed 000's ranking and comparison of RedGreen hands, written out from its text alone.

Independent of the code's own order functions, so the tests can set the code against
the seed on every pair of set hands and every deal: ``seed_call`` reads the seed's
Note 1 and Note 2 (2-2 beats A-A only, 2-2-2 beats A-A-A only) and its comparison
rules, as RULES-NOTES.md ("Ranking", "Comparison") settles them.
"""

from __future__ import annotations

from baccara.games.redgreen import HouseRule, Setting, Winner

# Ace high, 2 low: the order of single cards, "A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2".
SINGLE_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def seed_pair_beats(a: str, b: str) -> int:
    """The seed's order of pairs (Note 2) and three of a kind (Note 1), as it reads.

    "a 2-2 pair outranks an A-A pair only but loses to all other pairs, an A-A pair
    outranks all other pairs but loses to a 2-2 pair"; otherwise pairs go by the
    single-card order. Written out as a list of who beats whom, not as a key.
    """
    if a == b:
        return 0
    if (a, b) == ("2", "A"):
        return 1
    if (a, b) == ("A", "2"):
        return -1
    return 1 if SINGLE_ORDER.index(a) > SINGLE_ORDER.index(b) else -1


def seed_call(red: Setting, green: Setting) -> Winner:
    """The seed's comparison, from its text, on two hands set by the house way.

    "Three of a kind outranks any other hand"; otherwise front against front and back
    against back, "a pair outranks any non-pair" behind, "9-5 beats 9-4"; two wins,
    or a win and a tie, win; two losses, or a loss and a tie, lose; the rest push.
    """
    sym = {True: 1, False: 0}
    red_trips = red.rule is HouseRule.THREE_OF_A_KIND
    green_trips = green.rule is HouseRule.THREE_OF_A_KIND
    if red_trips or green_trips:
        if red_trips and green_trips:
            score = seed_pair_beats(red.front.rank.symbol, green.front.rank.symbol)
        else:
            score = 1 if red_trips else -1
    else:
        f_red, f_green = (
            SINGLE_ORDER.index(red.front.rank.symbol),
            SINGLE_ORDER.index(green.front.rank.symbol),
        )
        front = sym[f_red > f_green] - sym[f_red < f_green]
        r_high, r_low = sorted((c.rank.symbol for c in red.back), key=SINGLE_ORDER.index)[::-1]
        g_high, g_low = sorted((c.rank.symbol for c in green.back), key=SINGLE_ORDER.index)[::-1]
        red_pair, green_pair = r_high == r_low, g_high == g_low
        if red_pair and green_pair:
            back = seed_pair_beats(r_high, g_high)
        elif red_pair or green_pair:
            back = 1 if red_pair else -1
        else:
            r = (SINGLE_ORDER.index(r_high), SINGLE_ORDER.index(r_low))
            g = (SINGLE_ORDER.index(g_high), SINGLE_ORDER.index(g_low))
            back = sym[r > g] - sym[r < g]
        score = front + back
    return Winner.RED if score > 0 else Winner.GREEN if score < 0 else Winner.PUSH
