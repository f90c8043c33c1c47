"""The PAR sheet's breakdowns (:mod:`baccara.exact.breakdowns`): exact counts that add up,
sums that are the bets' own figures, published figures to the digits printed, and an
independent brute force on a small shoe for each game.

Published figures (8 decks, ordered six-card sequences, 4,998,398,275,503,360 of them):

* Wizard of Odds, "Baccarat Appendix 3" (wizardofodds.com/games/baccarat/appendix/3/):
  Banker 0.458597, Player 0.446247, Tie 0.095156.
* Wizard of Odds, "Baccarat Proposition Bets on Winning Side and Total"
  (wizardofodds.com/games/baccarat/side-bets/winning-side-and-total/): the probability of
  every winning side and total, six decimals (:data:`WINNING_SIDE_AND_TOTAL`) — among them
  a Banker win on 6, 0.053864 (not 0.053863: the exact 0.05386372 rounds up).
* Wizard of Odds, "Super Baccarat" (wizardofodds.com/games/super-baccarat/, read on a
  mirror of the page): the combinations of each Player winning total and of the Banker's
  9, 8, 7, 5 and 4 (:data:`SUPER_BACCARAT_COMBINATIONS`).
* Wizard of Odds, "Lucky 6" (wizardofodds.com/games/baccarat/side-bets/lucky-6/): a
  Banker win with a two-card 6 in 186,173,936,904,192 sequences, a three-card 6 in
  83,058,367,551,488.
* Wizard of Odds, "EZ Baccarat" (wizardofodds.com/games/ez-baccarat/, read on a mirror):
  a Banker win with a three-card 7 in 112,633,011,329,024 (0.022534, the Dragon 7), a
  Player win with a three-card 8 in 172,660,763,262,976 (0.034543, the Panda 8). Eliot
  Jacobson's Dragon 7 analysis prints the same hit frequency, 2.2534 %.
* Wizard of Odds, "Baccarat Side Bets", Dragon Bonus
  (wizardofodds.com/games/baccarat/side-bets/): a natural win for either side in
  812,685,054,124,032 sequences, a natural tie in 89,325,908,267,520.
* Wizard of Odds, "Baccarat Appendix 5", the 4-5-6 side bet
  (wizardofodds.com/games/baccarat/appendix/5/, read on a mirror; the project's Small
  bet cites the same page): 4, 5 and 6 cards 0.378868, 0.303444 and 0.317687 for 8 decks,
  0.378925, 0.303540 and 0.317535 for 6. (The 5- and 6-card figures 0.303218 and 0.317914
  once suggested for "Big and Small" are neither published there nor ours.)

RedGreen: seed 000 prints win 35.2472 % and tie 29.5057 % for either hand (7 decks), and
RULES-NOTES.md records the exact push, 18,290,427,641,136 of 61,989,513,746,160 deals.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

import pytest

from baccara import analyze
from baccara.cards import Card, Rank, ShoeComposition, Suit
from baccara.errors import BaccaraError, UnknownGame
from baccara.exact.breakdowns import (
    breakdowns,
    loball_breakdowns,
    one_in,
    punto_banco_breakdowns,
    redgreen_breakdowns,
)
from baccara.exact.coup_facts import plain_coups
from baccara.exact.model import Cell, DataTable
from baccara.exact.punto_banco import sequences
from baccara.exact.redgreen import count_outcomes, deals
from baccara.games.loball import LoBallRules
from baccara.games.punto_banco import PuntoBancoRules, score
from baccara.games.redgreen import HouseRule, RedGreenRules, Setting, Winner, house_way
from tests.seed_redgreen import SINGLE_ORDER, seed_call, seed_pair_beats

EIGHT_DECKS = 4_998_398_275_503_360

WINNING_SIDE_AND_TOTAL: dict[int, tuple[str | None, str | None, str]] = {
    9: ("0.122654", "0.117408", "0.011033"),
    8: ("0.111200", "0.106017", "0.010979"),
    7: ("0.081635", "0.076880", "0.020350"),
    6: ("0.062552", "0.053864", "0.019240"),
    5: ("0.024576", "0.043357", "0.007939"),
    4: ("0.017239", "0.032682", "0.007261"),
    3: ("0.012593", "0.014590", "0.004452"),
    2: ("0.008869", "0.008939", "0.004003"),
    1: ("0.004929", "0.004860", "0.004101"),
    0: (None, None, "0.005798"),
}
"""Wizard of Odds, "Winning Side and Total": Player win, Banker win, Tie by total (8 decks)."""

SUPER_BACCARAT_COMBINATIONS: dict[tuple[str, int], int] = {
    ("player", 9): 613_074_020_540_416,
    ("player", 8): 555_823_197_134_848,
    ("player", 7): 408_043_979_470_848,
    ("player", 6): 312_658_895_192_064,
    ("player", 5): 122_838_277_197_824,
    ("player", 4): 86_165_771_096_064,
    ("player", 3): 62_946_423_310_336,
    ("player", 2): 44_328_525_111_296,
    ("player", 1): 24_639_193_538_560,
    ("banker", 9): 586_850_279_002_112,
    ("banker", 8): 529_914_458_673_152,
    ("banker", 7): 384_279_324_919_808,
    ("banker", 5): 216_715_928_915_968,
    ("banker", 4): 163_359_790_133_248,
}
"""Wizard of Odds, "Super Baccarat": combinations of each winning side and total (8 decks)."""


def _table(tables: Sequence[DataTable], name: str) -> DataTable:
    found = [t for t in tables if t.name == name]
    assert len(found) == 1, name
    return found[0]


def _int(cell: Cell) -> int:
    assert isinstance(cell, int)
    return cell


def _column(table: DataTable, column: str) -> list[Cell]:
    index = table.columns.index(column)
    return [row[index] for row in table.rows]


def _by_first(table: DataTable) -> dict[Cell, tuple[Cell, ...]]:
    return {row[0]: row for row in table.rows}


def _printed(value: Cell, digits: str) -> bool:
    """Whether ``value`` rounds to the decimal a page prints (``"0.053864"``)."""
    assert isinstance(value, Fraction)
    places = len(digits.split(".")[1])
    return round(value, places) == Fraction(digits)


@pytest.fixture(scope="module")
def punto_banco() -> tuple[DataTable, ...]:
    return punto_banco_breakdowns(PuntoBancoRules())


@pytest.fixture(scope="module")
def redgreen() -> tuple[DataTable, ...]:
    return redgreen_breakdowns(RedGreenRules())


# --- Punto Banco -------------------------------------------------------------------------


def test_the_punto_banco_tables_are_named_and_shaped(punto_banco: tuple[DataTable, ...]) -> None:
    assert [t.name for t in punto_banco] == [
        "wins-by-total",
        "ties-by-total",
        "naturals",
        "natural-outcomes",
        "special-wins",
        "cards-dealt",
        "third-cards",
    ]
    assert _table(punto_banco, "wins-by-total").columns == (
        "Total",
        "Player wins",
        "Probability",
        "Banker wins",
        "Probability",
    )
    for table in punto_banco:
        for row in table.rows:
            for name, cell in zip(table.columns, row, strict=True):
                if name == "Probability":
                    assert isinstance(cell, Fraction) and 0 <= cell <= 1


def test_every_punto_banco_table_counts_every_sequence(
    punto_banco: tuple[DataTable, ...],
) -> None:
    total = sequences(8)
    assert total == EIGHT_DECKS
    wins = _table(punto_banco, "wins-by-total")
    ties = _table(punto_banco, "ties-by-total")
    by_total = [row for row in wins.rows if row[0] != "all"]
    player = sum(_int(row[1]) for row in by_total)
    banker = sum(_int(row[3]) for row in by_total)
    tied = sum(_int(row[1]) for row in ties.rows if row[0] != "all")
    assert player + banker + tied == total
    assert _by_first(wins)["all"][1:] == (
        player,
        Fraction(player, total),
        banker,
        Fraction(banker, total),
    )
    assert _by_first(ties)["all"][1] == tied
    for name in ("naturals", "cards-dealt", "third-cards"):
        assert sum(_int(n) for n in _column(_table(punto_banco, name), "Coups")) == total
    outcomes = _by_first(_table(punto_banco, "natural-outcomes"))
    assert _int(outcomes["either natural"][1]) + _int(outcomes["no natural"][1]) == total
    for table in (_table(punto_banco, n) for n in ("natural-outcomes", "cards-dealt")):
        for row in table.rows:
            assert sum(_int(c) for c in row[-3:]) == row[1]
            assert row[2] == Fraction(_int(row[1]), total)
            assert row[3] == one_in(_int(row[1]), total)
    cards = {row[0]: _int(row[1]) for row in _table(punto_banco, "cards-dealt").rows}
    third = {(row[0], row[1]): _int(row[2]) for row in _table(punto_banco, "third-cards").rows}
    assert cards == {4: third[(2, 2)], 5: third[(2, 3)] + third[(3, 2)], 6: third[(3, 3)]}


def test_the_wins_add_up_to_the_bets_of_the_analysis(punto_banco: tuple[DataTable, ...]) -> None:
    """And the bets are Wizard of Odds' Appendix 3: 0.458597, 0.446247, 0.095156."""
    analysis = analyze("punto-banco")
    wins = _by_first(_table(punto_banco, "wins-by-total"))["all"]
    ties = _by_first(_table(punto_banco, "ties-by-total"))["all"]
    assert wins[1] == analysis.bet("player").outcome("win").count
    assert wins[3] == analysis.bet("banker").outcome("win").count
    assert ties[1] == analysis.bet("tie").outcome("win").count
    assert _printed(wins[4], "0.458597")
    assert _printed(wins[2], "0.446247")
    assert _printed(ties[2], "0.095156")


def test_wins_and_ties_by_total_are_the_published_ones(
    punto_banco: tuple[DataTable, ...],
) -> None:
    wins = _by_first(_table(punto_banco, "wins-by-total"))
    ties = _by_first(_table(punto_banco, "ties-by-total"))
    for total, (player, banker, tie) in WINNING_SIDE_AND_TOTAL.items():
        for printed, count, probability in ((player, 1, 2), (banker, 3, 4)):
            if printed is None:
                assert wins[total][count] == 0
            else:
                assert _printed(wins[total][probability], printed), (total, printed)
        assert _printed(ties[total][2], tie), (total, tie)
    for (side, total), combinations_ in SUPER_BACCARAT_COMBINATIONS.items():
        assert wins[total][1 if side == "player" else 3] == combinations_


def test_the_special_wins_are_the_published_ones(punto_banco: tuple[DataTable, ...]) -> None:
    special = _by_first(_table(punto_banco, "special-wins"))
    two, three = (
        special["Banker wins with a two-card 6"],
        special["Banker wins with a three-card 6"],
    )
    assert (two[1], three[1]) == (186_173_936_904_192, 83_058_367_551_488)  # Lucky 6
    six = special["Banker wins with a 6"]
    banker_on_six = _by_first(_table(punto_banco, "wins-by-total"))[6][3]
    assert six[1] == banker_on_six == _int(two[1]) + _int(three[1])
    assert _printed(six[2], "0.053864")  # Winning Side and Total
    dragon = special["Banker wins with a three-card 7"]
    assert dragon[1] == 112_633_011_329_024 and _printed(dragon[2], "0.022534")  # EZ Baccarat
    panda = special["Player wins with a three-card 8"]
    assert panda[1] == 172_660_763_262_976 and _printed(panda[2], "0.034543")


def test_the_naturals_are_the_published_ones(punto_banco: tuple[DataTable, ...]) -> None:
    outcomes = _by_first(_table(punto_banco, "natural-outcomes"))
    assert outcomes["Player natural"][4] == 812_685_054_124_032  # Dragon Bonus: natural win
    assert outcomes["Banker natural"][5] == 812_685_054_124_032
    assert outcomes["both naturals"][6] == 89_325_908_267_520  # Dragon Bonus: natural tie
    naturals = _table(punto_banco, "naturals")
    by_winner: Counter[Cell] = Counter()
    for row in naturals.rows:
        by_winner[row[5]] += _int(row[2])
    either = outcomes["either natural"]
    assert (by_winner["Player"], by_winner["Banker"], by_winner["Tie"]) == either[4:]
    assert by_winner["by the drawing rules"] == outcomes["no natural"][1]


@pytest.mark.parametrize(
    ("decks", "published"),
    [(8, ("0.378868", "0.303444", "0.317687")), (6, ("0.378925", "0.303540", "0.317535"))],
)
def test_cards_dealt_are_the_published_4_5_6_bet(decks: int, published: tuple[str, ...]) -> None:
    table = _table(punto_banco_breakdowns(PuntoBancoRules(decks=decks)), "cards-dealt")
    for row, printed in zip(table.rows, published, strict=True):
        assert _printed(row[2], printed), (decks, row[0], printed)


SMALL_SHOE = ShoeComposition.of(
    [Card(rank, suit) for rank in (Rank.ACE, *map(Rank, (3, 4, 6, 7, 8, 9))) for suit in Suit]
    + [Card(Rank.KING, suit) for suit in Suit for _ in range(2)]
)
"""36 cards: one deck's A, 3, 4, 6, 7, 8, 9, and eight Kings — every breakdown's events
(naturals of 8 and 9, a two- and three-card Banker 6, a three-card Banker 7, a three-card
Player 8) happen, and a coup-by-coup enumeration takes under a second."""


def test_punto_banco_tables_are_a_coup_by_coup_enumeration_of_a_small_shoe() -> None:
    """Every count cell, against dealing every ordered sequence through the rules and
    reading each coup's cards (not its facts)."""
    kinds = [rank for rank in Rank if SMALL_SHOE.per_rank[rank - 1]]
    cards = [Card(rank, Suit.SPADES) for rank in kinds]
    counts = [SMALL_SHOE.per_rank[rank - 1] for rank in kinds]
    seen: Counter[tuple[object, ...]] = Counter()
    for coup, ways in plain_coups(cards, counts):
        p, b = coup.player_score, coup.banker_score
        winner = "player" if p > b else "banker" if b > p else "tie"
        won_with = p if winner == "player" else b
        seen[("total", winner, won_with)] += ways
        p2, b2 = score(coup.player[:2]), score(coup.banker[:2])
        seen[("natural", p2 if p2 >= 8 else None, b2 if b2 >= 8 else None)] += ways
        seen[("cards", len(coup.cards), winner)] += ways
        seen[("third", len(coup.player), len(coup.banker), winner)] += ways
        seen[
            ("hand", winner, won_with, len(coup.banker if winner == "banker" else coup.player))
        ] += ways
    tables = punto_banco_breakdowns(PuntoBancoRules(), SMALL_SHOE)
    total = sequences(SMALL_SHOE)
    assert total == math.perm(36, 6)
    wins = _by_first(_table(tables, "wins-by-total"))
    ties = _by_first(_table(tables, "ties-by-total"))
    for t in range(10):
        assert wins[t][1] == seen[("total", "player", t)]
        assert wins[t][3] == seen[("total", "banker", t)]
        assert ties[t][1] == seen[("total", "tie", t)]
    words = {"natural 8": 8, "natural 9": 9, "no natural": None}
    for row in _table(tables, "naturals").rows:
        assert row[2] == seen[("natural", words[str(row[0])], words[str(row[1])])]
        assert _int(row[2]) > 0
    for row in _table(tables, "cards-dealt").rows:
        assert row[4:] == tuple(seen[("cards", row[0], w)] for w in ("player", "banker", "tie"))
    for row in _table(tables, "third-cards").rows:
        assert row[4:] == tuple(
            seen[("third", row[0], row[1], w)] for w in ("player", "banker", "tie")
        )
    special = _by_first(_table(tables, "special-wins"))
    expected = {
        "Banker wins with a two-card 6": seen[("hand", "banker", 6, 2)],
        "Banker wins with a three-card 6": seen[("hand", "banker", 6, 3)],
        "Banker wins with a 6": seen[("hand", "banker", 6, 2)] + seen[("hand", "banker", 6, 3)],
        "Banker wins with a three-card 7": seen[("hand", "banker", 7, 3)],
        "Player wins with a three-card 8": seen[("hand", "player", 8, 3)],
    }
    for event, count in expected.items():
        assert special[event][1] == count and count > 0, event


# --- RedGreen ----------------------------------------------------------------------------


def test_the_redgreen_tables_are_named_and_add_up(redgreen: tuple[DataTable, ...]) -> None:
    assert [t.name for t in redgreen] == [
        "red-front-back",
        "red-front-back-grid",
        "red-bet-from-parts",
        "house-way",
        "hand-events",
    ]
    total = deals(7)
    assert total == 61_989_513_746_160
    matrix = _table(redgreen, "red-front-back")
    assert sum(_int(n) for n in _column(matrix, "Deals")) == total
    assert len(matrix.rows) == 9 + 5
    hands = _table(redgreen, "house-way")
    assert sum(_int(n) for n in _column(hands, "Hands")) == math.comb(364, 3)
    grid = _table(redgreen, "red-front-back-grid")
    neither = [row for row in matrix.rows if row[0] == "neither"]
    assert [p for row in grid.rows for p in row[1:]] == [row[4] for row in neither]


def _bet_from_matrix(matrix: DataTable) -> dict[str, int]:
    result: Counter[str] = Counter()
    for row in matrix.rows:
        result[str(row[6])] += _int(row[3])
    return dict(result)


@pytest.mark.parametrize("game_id", ["redgreen", "redgreen-mini"])
def test_the_matrix_sums_are_the_bets_of_the_analysis(
    redgreen: tuple[DataTable, ...], game_id: str
) -> None:
    """The table that would have caught a misread ranking: its cells, marked win, push or
    lose, add up to the Red and Green bets exactly — and to the seed's printed figures."""
    analysis = analyze(game_id)
    summed = _bet_from_matrix(_table(redgreen, "red-front-back"))
    red, green = analysis.bet("red"), analysis.bet("green")
    for word in ("win", "push", "lose"):
        assert summed[word] == red.outcome(word).count
    assert summed["win"] == green.outcome("lose").count
    assert summed["lose"] == green.outcome("win").count
    parts = {row[0]: row for row in _table(redgreen, "red-bet-from-parts").rows}
    assert {word: parts[word][1] for word in summed} == summed
    assert parts["push"][1] == 18_290_427_641_136  # RULES-NOTES.md: the exact push
    assert _printed(parts["win"][2], "0.352472")  # seed 000: win 35.2472 %
    assert _printed(parts["push"][2], "0.295057")  # seed 000: tie 29.5057 %
    assert _printed(parts["lose"][2], "0.352472")


@pytest.mark.parametrize(
    "options",
    [
        {"deuces": "top"},
        {"split_aces": False},
        {"split_kings": False},
        {"split_kings_unless": "Q"},
        {"decks": 6},
    ],
)
def test_the_matrix_sums_follow_every_rule(options: dict[str, object]) -> None:
    rules = RedGreenRules.from_options(**options)
    summed = _bet_from_matrix(_table(redgreen_breakdowns(rules), "red-front-back"))
    counted = count_outcomes(rules)
    assert summed == {
        "win": counted[Winner.RED],
        "push": counted[Winner.PUSH],
        "lose": counted[Winner.GREEN],
    }


def test_the_ladder_misreading_moves_the_backs_and_the_threes_only() -> None:
    """Deuces on top changes how pairs and threes of a kind rank, nothing else: the cells
    move, but each front's total, and the deals a lone three of a kind or two of one rank
    decide, stay; the push it gives is not the seed's."""
    seed = _table(redgreen_breakdowns(RedGreenRules()), "red-front-back")
    ladder = _table(redgreen_breakdowns(RedGreenRules.from_options(deuces="top")), "red-front-back")
    assert any(a[3] != b[3] for a, b in zip(seed.rows, ladder.rows, strict=True))
    assert _bet_from_matrix(seed)["push"] != _bet_from_matrix(ladder)["push"]

    def fronts(table: DataTable) -> Counter[Cell]:
        totals: Counter[Cell] = Counter()
        for row in table.rows:
            if row[0] == "neither":
                totals[row[1]] += _int(row[3])
        return totals

    assert fronts(seed) == fronts(ladder)
    fixed = ("Red's only", "Green's only", "both: same rank")
    assert [_by_first(seed)[k] for k in fixed] == [_by_first(ladder)[k] for k in fixed]


def test_the_matrix_is_the_same_from_either_side(redgreen: tuple[DataTable, ...]) -> None:
    rows = {(row[0], row[1], row[2]): row[3] for row in _table(redgreen, "red-front-back").rows}
    flip = {"wins": "loses", "ties": "ties", "loses": "wins"}
    for (trips, front, back), n in rows.items():
        if trips == "neither":
            assert rows[("neither", flip[str(front)], flip[str(back)])] == n
    assert rows[("Red's only", "—", "—")] == rows[("Green's only", "—", "—")]
    assert (
        rows[("both: Red's beats Green's", "—", "—")]
        == rows[("both: Green's beats Red's", "—", "—")]
    )


def test_the_house_way_per_hand_is_the_closed_form(redgreen: tuple[DataTable, ...]) -> None:
    """Seven decks: 28 cards of a rank; a pair of Aces is split unless the odd card is a K
    (28 of the other 336), a pair of Kings unless it is a J, Q or A (84)."""
    hands = {row[0]: _int(row[1]) for row in _table(redgreen, "house-way").rows}
    pairs = math.comb(28, 2)
    assert hands[HouseRule.THREE_OF_A_KIND.value] == 13 * math.comb(28, 3)
    assert hands[HouseRule.ACES_KEPT.value] == pairs * 28
    assert hands[HouseRule.ACES_SPLIT.value] == pairs * (336 - 28)
    assert hands[HouseRule.KINGS_KEPT.value] == pairs * 84
    assert hands[HouseRule.KINGS_SPLIT.value] == pairs * (336 - 84)
    assert hands[HouseRule.PAIR_IN_BACK.value] == 11 * pairs * 336
    assert hands[HouseRule.NO_PAIR.value] == math.comb(13, 3) * 28**3
    events = _by_first(_table(redgreen, "hand-events"))
    total = deals(7)
    for name, row in events.items():
        per_hand = row[1]
        assert isinstance(per_hand, Fraction)
        # Either hand = Red's + Green's − both; each hand alone has the per-hand chance.
        assert Fraction(_int(row[2]) + _int(row[4]), total) == 2 * per_hand, name
    never = _by_first(_table(redgreen_breakdowns(RedGreenRules(split_aces=False)), "house-way"))
    assert never[HouseRule.ACES_SPLIT.value][1] == 0
    assert never[HouseRule.ACES_SPLIT.value][3] == "never"


def _seed_parts(red: Setting, green: Setting) -> tuple[int, int]:
    """Front against front, back against back, as seed 000 words them (tests/seed_redgreen.py)."""
    order = SINGLE_ORDER.index
    f_red, f_green = order(red.front.rank.symbol), order(green.front.rank.symbol)
    front = (f_red > f_green) - (f_red < f_green)
    r_high, r_low = sorted((c.rank.symbol for c in red.back), key=order, reverse=True)
    g_high, g_low = sorted((c.rank.symbol for c in green.back), key=order, reverse=True)
    if r_high == r_low and g_high == g_low:
        back = seed_pair_beats(r_high, g_high)
    elif r_high == r_low or g_high == g_low:
        back = 1 if r_high == r_low else -1
    else:
        r, g = (order(r_high), order(r_low)), (order(g_high), order(g_low))
        back = (r > g) - (r < g)
    return front, back


def test_redgreen_tables_are_a_card_by_card_enumeration_of_a_small_shoe() -> None:
    """15 cards, three each of A, 2, K, J and 5 — threes of a kind of the cycle's ends,
    Aces split and kept, Kings split and kept — dealt every way, called by the seed's words."""
    shoe = [Card(Rank.parse(r), suit) for r in ("A", "2", "K", "J", "5") for suit in list(Suit)[:3]]
    rules = RedGreenRules()
    words = {1: "wins", 0: "ties", -1: "loses"}
    results = {Winner.RED: "win", Winner.PUSH: "push", Winner.GREEN: "lose"}
    subsets = list(combinations(range(len(shoe)), 3))
    settings = {s: house_way([shoe[i] for i in s], rules) for s in subsets}
    seen: Counter[tuple[Cell, ...]] = Counter()
    lines: Counter[str] = Counter()
    for red in subsets:
        lines[settings[red].rule.value] += 1
        for green in subsets:
            if set(red) & set(green):
                continue
            r, g = settings[red], settings[green]
            call = results[seed_call(r, g)]
            r_trips = r.rule is HouseRule.THREE_OF_A_KIND
            g_trips = g.rule is HouseRule.THREE_OF_A_KIND
            if r_trips and g_trips:
                beats = seed_pair_beats(r.front.rank.symbol, g.front.rank.symbol)
                trips = {
                    1: "both: Red's beats Green's",
                    0: "both: same rank",
                    -1: "both: Green's beats Red's",
                }[beats]
                seen[(trips, "—", "—", call)] += 1
            elif r_trips or g_trips:
                seen[("Red's only" if r_trips else "Green's only", "—", "—", call)] += 1
            else:
                front, back = _seed_parts(r, g)
                seen[("neither", words[front], words[back], call)] += 1
    tables = redgreen_breakdowns(rules, ShoeComposition.of(shoe))
    total = math.comb(15, 3) * math.comb(12, 3)
    matrix = _table(tables, "red-front-back")
    assert {(row[0], row[1], row[2], row[6]): row[3] for row in matrix.rows if row[3]} == dict(seen)
    assert sum(seen.values()) == total
    hands = {row[0]: row[1] for row in _table(tables, "house-way").rows if row[1]}
    assert hands == dict(lines)
    assert set(lines) == {line.value for line in HouseRule}


# --- Lo-Ball and the dispatch ------------------------------------------------------------


def test_loball_breakdowns_are_its_analysis_tables() -> None:
    analysis = analyze("lo-ball")
    tables = loball_breakdowns(LoBallRules())
    assert tables == (analysis.table("points"), analysis.table("player-versus-dealer"))


def test_breakdowns_dispatch_on_the_game(redgreen: tuple[DataTable, ...]) -> None:
    assert [t.name for t in breakdowns("punto-banco", PuntoBancoRules())] == [
        t.name for t in punto_banco_breakdowns(PuntoBancoRules())
    ]
    assert breakdowns("redgreen", RedGreenRules()) == redgreen
    assert breakdowns("redgreen-mini") == redgreen
    assert [t.name for t in breakdowns("lo-ball")] == ["points", "player-versus-dealer"]
    six = breakdowns("punto-banco", PuntoBancoRules(decks=6))
    assert _int(_by_first(_table(six, "cards-dealt"))[4][1]) > 0
    with pytest.raises(UnknownGame):
        breakdowns("blackjack")
    with pytest.raises(BaccaraError, match="RedGreenRules"):
        breakdowns("redgreen", PuntoBancoRules())


def test_one_in_is_exact() -> None:
    assert one_in(3, 10) == Fraction(10, 3)
    assert one_in(0, 10) == "never"
