"""Punto Banco side bets and rule sets as data: the vocabulary, the files, the exact counts.

The fast count of a coup's facts is proven equal to the plain rules: its 10⁴-entry table
against ``deal_coup`` on every input, and its weighting against a card-by-card
enumeration on small shoes at every level. The shipped bets' figures are then checked
against the published ones (Wizard of Odds, cited by page), to the digits published.
"""

from __future__ import annotations

import pathlib
import random
from fractions import Fraction

import numpy as np
import pytest

from baccara.cards import Card, Rank, ShoeComposition, Suit
from baccara.errors import InvalidBet, InvalidOption
from baccara.exact.coup_facts import Level, fact_counts, fact_counts_by_rules, value_facts_table
from baccara.exact.punto_banco import bet_analyses, count_winners, sequences
from baccara.games.coup_bets import SHIPPED, MainRules, SideBet
from baccara.games.coup_terms import Condition, CoupFacts, InvalidCondition
from baccara.games.paytable import InvalidPaytable
from baccara.games.punto_banco import (
    PuntoBancoRules,
    coup_from_cards,
    deal_coup,
    settle_spot,
    unreachable_line,
)
from baccara.money import BetResult
from baccara.paytables import load_sidebet, load_variant


def _card(value: int, suit: Suit = Suit.SPADES) -> Card:
    return Card(Rank(value) if value else Rank.KING, suit)


def test_the_facts_table_is_the_rules_on_every_input() -> None:
    """(Player score, Banker score, fifth card, sixth card): all 10⁴, through deal_coup."""
    table = value_facts_table()
    for p in range(10):
        for b in range(10):
            for c5 in range(10):
                for c6 in range(10):
                    cards = [_card(p), _card(b), _card(0), _card(0), _card(c5), _card(c6)]
                    facts = deal_coup(cards).facts
                    code = int(table[p, b, c5, c6])
                    assert code // 4 == (
                        (
                            (facts.player_total * 10 + facts.banker_total) * 2
                            + facts.player_cards
                            - 2
                        )
                        * 2
                        + facts.banker_cards
                        - 2
                    )
                    assert code % 4 == facts.player_natural + 2 * facts.banker_natural


def _small_shoe(seed: int) -> ShoeComposition:
    """Ten to twelve cards of seven kinds at most: small enough to deal every sequence."""
    rng = random.Random(seed)
    kinds = rng.sample([Card(rank, suit) for rank in Rank for suit in Suit], 6)
    kinds.append(kinds[0] if seed % 2 else Card(kinds[0].rank, Suit.HEARTS))
    pile = [card for card in kinds for _ in range(rng.randint(1, 3))]
    return ShoeComposition.of(pile)


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.parametrize("seed", range(4))
def test_the_fast_count_is_the_plain_enumeration(level: Level, seed: int) -> None:
    shoe = _small_shoe(seed)
    assert fact_counts(shoe, level) == fact_counts_by_rules(shoe, level)


def test_the_facts_add_up_to_the_main_bets_counts() -> None:
    counts = fact_counts(8, Level.VALUES)
    assert sum(counts.values()) == sequences(8)
    won = {w.value: n for w, n in count_winners(8).items()}
    assert {w: sum(n for f, n in counts.items() if f.winner == w) for w in won} == won


def _edge(rules: PuntoBancoRules, bet: str) -> Fraction:
    return next(a for a in bet_analyses(rules) if a.bet == bet).house_edge


EZ = PuntoBancoRules.from_options(variant="ez")


def test_ez_baccarat_matches_the_published_figures() -> None:
    """Wizard of Odds, "EZ Baccarat" (wizardofodds.com/games/ez-baccarat/), eight decks:
    Banker edge 0.010183; Dragon 7 112,633,011,329,024 combinations, 0.022534, edge
    0.076113; Panda 8 172,660,763,262,976 combinations, 0.034543, edge 0.101876."""
    analyses = {a.bet: a for a in bet_analyses(EZ)}
    assert round(float(analyses["banker"].house_edge), 6) == 0.010183
    assert round(float(analyses["player"].house_edge), 6) == 0.012351
    dragon, panda = analyses["dragon-7"], analyses["panda-8"]
    assert dragon.outcomes[0].count == 112_633_011_329_024
    assert panda.outcomes[0].count == 172_660_763_262_976
    assert round(float(dragon.outcomes[0].probability), 6) == 0.022534
    assert round(float(panda.outcomes[0].probability), 6) == 0.034543
    assert round(float(dragon.house_edge), 6) == 0.076113
    assert round(float(panda.house_edge), 6) == 0.101876
    # the Banker three-card 7 the EZ Banker bet pushes is exactly Dragon 7's win
    assert analyses["banker"].outcome("Banker total 7, Banker 3 cards").count == 112_633_011_329_024


def test_no_commission_and_its_side_bets_match_the_published_figures() -> None:
    """Banker win on 6 paying 1 to 2: Wizard of Odds, Appendix 6 of the baccarat pages
    (wizardofodds.com/games/baccarat/appendix/6/), 0.014581 at eight decks. Super 6 at
    12 to 1: 29.98 %, as the operators' rules pages print it (LeoVegas); Lucky 6 paying 12
    on two cards and 20 on three: Wizard of Odds, "Lucky 6", 0.166836."""
    no_commission = PuntoBancoRules.from_options(
        variant="no-commission", sidebets="super-6+lucky-6"
    )
    assert round(float(_edge(no_commission, "banker")), 6) == 0.014581
    assert round(float(_edge(no_commission, "super-6")) * 100, 2) == 29.98
    assert round(float(_edge(no_commission, "lucky-6")), 6) == 0.166836
    lucky = next(a for a in bet_analyses(no_commission) if a.bet == "lucky-6")
    assert [o.count for o in lucky.outcomes[:2]] == [186_173_936_904_192, 83_058_367_551_488]


def test_dragon_bonus_and_the_pairs_match_the_published_figures() -> None:
    """Wizard of Odds, "Dragon Bonus" (wizardofodds.com/games/baccarat/side-bets/dragon-bonus/):
    Player 0.026517, Banker 0.093731 at eight decks. Perfect Pairs, version 2 (Evolution:
    25 to 1, 250 to 1 for both hands), 0.066235, its 2,101,008 and 244,747,776 unordered
    two-card combinations of the two hands; the pair bets' fifth and sixth cards are any of
    the other 412 (412·411 orders) and each hand's two cards come in two orders."""
    rules = PuntoBancoRules.from_options(
        sidebets="dragon-bonus-player+dragon-bonus-banker+perfect-pair+either-pair+big+small"
    )
    analyses = {a.bet: a for a in bet_analyses(rules)}
    assert round(float(analyses["dragon-bonus-player"].house_edge), 6) == 0.026517
    assert round(float(analyses["dragon-bonus-banker"].house_edge), 6) == 0.093731
    assert (
        analyses["dragon-bonus-player"].outcome("Player wins, margin 9").count == 18_409_431_764_992
    )
    perfect = analyses["perfect-pair"]
    later = 412 * 411 * 4
    assert [o.count for o in perfect.outcomes[:2]] == [2_101_008 * later, 244_747_776 * later]
    assert round(float(perfect.house_edge), 6) == 0.066235
    # Either Pair at 5 to 1: 13.71 % as operators publish it (no primary source found)
    assert round(float(analyses["either-pair"].house_edge) * 100, 2) == 13.71
    # Big and Small: Wizard of Odds's 4-5-6 card bet gives P(four cards) = 0.378868
    small = analyses["small"].outcomes[0]
    assert round(float(small.probability), 6) == 0.378868


def test_a_side_bet_settles_at_the_table_as_the_analysis_counts_it() -> None:
    """A Banker three-card 7: Dragon 7 wins 40 to 1, the EZ Banker bet pushes, Panda loses."""
    cards = [Card.parse(c) for c in ("2S", "3H", "3D", "KC", "KS", "4H")]
    coup = coup_from_cards(cards)
    assert (coup.banker_score, len(coup.banker), coup.winner.value) == (7, 3, "banker")
    assert settle_spot("dragon-7", 100, coup, EZ).won == 4000
    banker = settle_spot("banker", 100, coup, EZ)
    assert (banker.result, banker.returned) == (BetResult.PUSH, 100)
    assert settle_spot("panda-8", 100, coup, EZ).result is BetResult.LOSE
    classic = settle_spot("banker", 100, coup, PuntoBancoRules())
    assert (classic.result, classic.won) == (BetResult.WIN, 95)


def test_a_variant_brings_its_side_bets_and_an_option_beside_it_overrides() -> None:
    assert [s.id for s in EZ.sidebets] == ["dragon-7", "panda-8"]
    assert EZ.bet_ids[-2:] == ("dragon-7", "panda-8")
    bare = PuntoBancoRules.from_options(variant="ez", sidebets="none")
    assert bare.sidebets == () and bare.commission == 0
    taxed = PuntoBancoRules.from_options(variant="ez", commission=5)
    assert taxed.commission == 5


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"variant": "super"}, "must be a shipped rule set"),
        ({"sidebets": "dragon-8"}, "'dragon-8' is not a side bet"),
        ({"sidebets": "dragon-7+dragon-7"}, "named twice"),
        ({"sidebets": 7}, "must be a list of side bets"),
    ],
)
def test_bad_options_are_refused_by_name(options: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidOption, match=words):
        PuntoBancoRules.from_options(**options)


GOOD = """\
id = "banker-six"
name = "Banker Six"

[[pays]]
when = { winner = "banker", banker_total = 6 }
pays = 12
"""


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (GOOD.replace("banker_total", "bankr_total"), "line 5 .*unknown term 'bankr_total'"),
        (GOOD.replace("= 6 }", "= 10 }"), "line 5 .*banker_total is a whole number 0 to 9"),
        (GOOD.replace("pays = 12", 'pays = "12"'), "line 6 .*the pay must be a number"),
        (GOOD.replace("pays = 12", "pays = -2"), "pay cannot be negative"),
        (GOOD.replace('winner = "banker"', 'winner = "dragon"'), "winner is one of"),
        (GOOD.replace('id = "banker-six"', 'id = "Banker Six"'), "lower-case words"),
        (GOOD.replace('id = "banker-six"', 'id = "banker"'), "a main bet's"),
        ("colour = 1\n" + GOOD, "line 1: unknown key 'colour'"),
        (GOOD + "colour = 1\n", "line 7 .*unknown key 'colour'"),
        (GOOD.replace("pays = 12", "pay = 12"), "line 6 .*unknown key 'pay'"),
        (GOOD.replace("[[pays]]", "[pays]"), "a list of \\[\\[pays\\]\\] lines"),
        ("id = ", "not a TOML side bet"),
    ],
)
def test_a_malformed_side_bet_file_is_refused_naming_the_line(text: str, words: str) -> None:
    with pytest.raises(InvalidPaytable, match=words):
        SideBet.from_toml(text, "mine.toml")


def test_every_shipped_file_reads_back_from_what_it_writes() -> None:
    for bet in SHIPPED.sidebets.values():
        assert SideBet.from_toml(bet.to_toml()) == bet
    for rules in SHIPPED.variants.values():
        assert MainRules.from_toml(rules.to_toml()) == rules


def test_conditions_read_each_term_and_refuse_nonsense() -> None:
    facts = CoupFacts(7, 7, 3, 2, False, False, True, False, True, False)
    assert facts.winner == "tie" and facts.margin == 0 and facts.cards == 5
    assert Condition.read({"winner": "tie", "player_suited_pair": True}).holds(facts)
    assert not Condition.read({"natural": "either"}).holds(facts)
    assert Condition.read({"margin": {"max": 0}, "pairs": [1, 2]}).holds(facts)
    assert Condition.read({}).holds(facts)
    for bad in ({"margin": {"min": 5, "max": 4}}, {"cards": 7}, {"player_pair": 1},
                {"natural": "dealer"}, {"margin": {"least": 1}}, "winner"):  # fmt: skip
        with pytest.raises(InvalidCondition):
            Condition.read(bad)


def test_levels_count_only_what_they_tell_apart() -> None:
    ranks = fact_counts(1, Level.RANKS)
    cards = fact_counts(1, Level.CARDS)
    assert not any(f.suited_pairs for f in ranks)
    assert sum(n for f, n in cards.items() if f.pairs) == sum(
        n for f, n in ranks.items() if f.pairs
    )
    assert np.int64(sum(cards.values())) == sequences(1)


def test_the_facts_model_is_the_twelve_cells_model_on_the_classic_game() -> None:
    """The same round priced both ways: every bet alone and several together."""
    from baccara.exact.joint_punto_banco import facts_model, joint_counts, model_from_counts

    rules = PuntoBancoRules()
    cells = model_from_counts(rules, joint_counts(2))
    facts = facts_model(rules, 2)
    for wagers in ([(1, "banker", 100)], [(1, "tie", 700), (2, "player-pair", 300)],
                   [(1, "banker", 1000), (2, "player", 500), (3, "banker-pair", 100)]):  # fmt: skip
        assert facts.house_mean(wagers) == cells.house_mean(wagers)
        assert facts.house_variance(wagers) == cells.house_variance(wagers)


def test_the_house_win_on_an_ez_round_counts_its_side_bets() -> None:
    """Dragon 7 and the EZ Banker bet move together: a three-card 7 wins the one and
    pushes the other, so their variance together is not the sum of their variances."""
    from baccara.exact.joint import house_win_mean, house_win_variance

    wagers = [(1, "banker", 10_000), (1, "dragon-7", 500)]
    analyses = {a.bet: a for a in bet_analyses(EZ)}
    mean = house_win_mean("punto-banco", EZ, wagers)
    assert mean == 10_000 * analyses["banker"].house_edge + 500 * analyses["dragon-7"].house_edge
    alone = [house_win_variance("punto-banco", EZ, [wager]) for wager in wagers]
    assert house_win_variance("punto-banco", EZ, wagers) != sum(alone)
    with pytest.raises(InvalidBet, match="unknown bet 'lucky-6'"):
        house_win_mean("punto-banco", EZ, [(1, "lucky-6", 100)])


def test_every_figure_a_shipped_file_cites_agrees_to_the_digits_printed() -> None:
    """Each file's [published] house edge, rounded as printed, is the exact one."""
    everything = "+".join(SHIPPED.sidebets)
    cited = 0
    for variant in SHIPPED.variants:
        rules = PuntoBancoRules.from_options(variant=variant, sidebets=everything)
        for analysis in bet_analyses(rules):
            if analysis.published is not None:
                cited += 1
                assert analysis.published.agrees(analysis.published.house_edge,
                                                 analysis.house_edge), analysis.bet  # fmt: skip
    # every side bet under each rule set, and the Banker bet of each rule set but the classic
    assert cited == len(SHIPPED.variants) * len(SHIPPED.sidebets) + len(SHIPPED.variants) - 1


BANKER_FIRST = GOOD.replace(
    "pays = 12", 'pays = 12\n\n[[pays]]\nwhen = { winner = "banker" }\npays = 1'
)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            GOOD.replace('winner = "banker", banker_total = 6', 'winner = "tie", margin = 3'),
            "line 5 .*can never pay: no coup has Tie, margin 3",
        ),
        (
            BANKER_FIRST.replace("pays = 12\n", "pays = 2\n", 1)
            .replace(
                'when = { winner = "banker", banker_total = 6 }', 'when = { winner = "banker" }', 1
            )
            .replace(
                'when = { winner = "banker" }\npays = 1',
                'when = { banker_total = 6, winner = "banker" }\npays = 9',
            ),
            "line 9 .*an earlier line does not",
        ),
        (GOOD.replace('"banker-six"', '"dragon-7"'), "line 1: id 'dragon-7' is the shipped"),
        (GOOD.replace('"banker-six"', '"none"'), "cannot be 'none'"),
        (GOOD.replace('when = { winner = "banker", banker_total = 6 }\n', ""), "needs when"),
    ],
)
def test_a_side_bet_file_a_player_could_misread_is_refused(
    text: str, words: str, tmp_path: pathlib.Path
) -> None:
    """A line no coup pays, a shipped bet's id, the word for no side bets: each refused."""
    path = tmp_path / "mine.toml"
    path.write_text(text)
    with pytest.raises(InvalidPaytable, match=words):
        load_sidebet(path)


def test_a_rule_set_file_is_checked_as_a_side_bet_file_is(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "rules.toml"
    base = 'id = "mine"\nname = "Mine"\ncommission = 0\n'
    path.write_text(base + '\n[[banker]]\nwhen = { winner = "player" }\npays = 0\n')
    with pytest.raises(InvalidPaytable, match=r"line 6 .*no Banker win has Player wins"):
        load_variant(path)
    path.write_text(base + 'sidebets = ["big", "big"]\n')
    with pytest.raises(InvalidPaytable, match="offers a side bet twice"):
        load_variant(path)


def test_a_rule_set_cites_its_figure_only_at_its_own_commission(tmp_path: pathlib.Path) -> None:
    """EZ's published Banker edge is not that of EZ at 5 % commission; a rule set with no
    pay lines of its own still shows the figure it cites."""
    taxed = PuntoBancoRules.from_options(variant="ez", commission=5)
    assert next(a for a in bet_analyses(taxed) if a.bet == "banker").published is None
    path = tmp_path / "four.toml"
    path.write_text('id = "four"\nname = "Four"\ncommission = 4\n\n[published]\n'
                    'house_edge = 0.006\nplaces = 1\nsource = "a test"\n')  # fmt: skip
    four = PuntoBancoRules.from_options(variant=load_variant(path))
    banker = next(a for a in bet_analyses(four) if a.bet == "banker")
    assert banker.published is not None and banker.published.source == "a test"


def test_every_shipped_line_can_pay() -> None:
    for bet in SHIPPED.sidebets.values():
        assert unreachable_line(bet.lines) is None, bet.id
    for rules in SHIPPED.variants.values():
        assert unreachable_line(rules.banker, "banker") is None, rules.id


def test_a_shoe_past_a_hundred_decks_is_refused_not_miscounted() -> None:
    from baccara.errors import InvalidCards

    huge = ShoeComposition(tuple((101,) * 4 for _ in Rank))
    with pytest.raises(InvalidCards, match="at most 5,200 cards"):
        fact_counts(huge, Level.VALUES)


def test_the_fast_count_is_exact_past_sixty_four_bits() -> None:
    """Thirty decks: 1,560 cards, more six-card sequences than 2⁶² — Python integers."""
    counts = fact_counts(30, Level.VALUES)
    assert sum(counts.values()) == sequences(30) > 2**62
    won = {w.value: n for w, n in count_winners(30).items()}
    assert {w: sum(n for f, n in counts.items() if f.winner == w) for w in won} == won
