"""The one registry of games: every game id baccara deals, and where each part of it lives.

Every consumer — the exact analysis, the simulator, effect of removal, the deal
command, the live table and the server — looks a game up here and nowhere else.
Adding a game is one entry below (and the modules it names).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction

from baccara.errors import UnknownGame
from baccara.games import loball, punto_banco, redgreen
from baccara.games.bonus import Category
from baccara.games.paytable import DEFAULT_PAYTABLE, Paytable
from baccara.games.spec import Equipment, Felt, Floor, GameSpec, Spot, TableFacts
from baccara.games.variant import Variant

PUNTO_BANCO = GameSpec(
    id=punto_banco.GAME_ID,
    name="Punto Banco",
    seed="003_4b8f832d65a052b4.txt",
    doc="docs/punto-banco.md",
    rules=punto_banco.PuntoBancoRules,
    bets=punto_banco.Bet,
    outcome=punto_banco.Winner,
    table=TableFacts(
        seats=7,
        dealers=1,
        equipment=Equipment.CARDS,
        seat_required=False,
        hands=("player", "banker"),
        default_live_table=True,
    ),
    analyzer="baccara.exact.punto_banco:analyze",
    removal="baccara.exact.punto_banco:effect_of_removal",
    kernel="baccara.sim.kernels.punto_banco:dealer",
    plain_kernel="baccara.sim.kernels.plain:punto_banco_rounds",
    procedure="baccara.table.procedures.punto_banco:PROCEDURE",
    depleted="baccara.exact.punto_banco:bet_analyses",
    joint="baccara.exact.joint_punto_banco:round_model",
    brief=(
        "Eight decks, reshuffled before every hand. Player and Banker get two cards each; "
        "a natural 8 or 9 ends the coup, otherwise the Player draws on 0-5 and the Banker "
        "draws by the tableau on the Player's third card. Banker pays 19 to 20 (5 % "
        "commission), Player 1 to 1, Tie 8 to 1, and Banker and Player push on a tie. "
        "Player Pair and Banker Pair pay 11 to 1 when that hand's first two cards are a pair."
    ),
    variants=(
        Variant("commission-4", {"commission": 4}, "Banker pays 0.96 to 1"),
        Variant("tie-9", {"tie_pays": 9}, "Tie pays 9 to 1"),
        Variant("commission-4-tie-9", {"commission": 4, "tie_pays": 9}, "both"),
        Variant("pairs-12", {"pair_pays": 12}, "pairs pay 12 to 1"),
        Variant("6-decks", {"decks": 6}, "a six-deck shoe"),
    ),
    spots=(
        Spot("player-pair", "Player Pair", 1),
        Spot("tie", "Tie", 1),
        Spot("banker-pair", "Banker Pair", 1),
        Spot("player", "Player", 2),
        Spot("banker", "Banker", 2),
    ),
    felt=Felt.SCORED_HANDS,
    floor=Floor(
        72,
        "assumption: a mini-baccarat table dealt from a shuffling machine, about 72 coups "
        "an hour (a coup every 50 s); seed 003 gives no pace",
        ("banker", "player"),
    ),
    tagline="Banker, Player or Tie; the pairs.",
    commission_on=("banker",),
    roads=True,
    option_labels=(
        ("decks", "Decks"),
        ("tie_pays", "Tie pays"),
        ("pair_pays", "Player Pair and Banker Pair pay"),
    ),
    assumed=(
        (
            "pair_pays",
            "assumption: seed 003 has no pair bets; Player Pair and Banker Pair at 11 to 1 "
            "are what operators offer (RULES-NOTES.md)",
        ),
    ),
)
"""Eight decks reshuffled before every hand; seven seats, and anyone may bet behind.
A new casino opens one of its tables live, for a dealer to deal."""


def _bonus_paying(name: str, **pays: int) -> Paytable:
    """The shipped Bonus paytable with some pays changed: a designer's "what if"."""
    changed = dict(DEFAULT_PAYTABLE.pays)
    changed.update({Category(c): Fraction(p) for c, p in pays.items()})
    return dataclasses.replace(
        DEFAULT_PAYTABLE, name=name, pays=changed, description=f"default with {name}"
    )


HOUSE_WAYS: tuple[Variant, ...] = (
    Variant("never-split-aces", {"split_aces": False}),
    Variant("never-split-kings", {"split_kings": False}),
    Variant("never-split-either", {"split_aces": False, "split_kings": False}),
    Variant("kings-unless-q", {"split_kings_unless": "Q"}),
)
"""Other house ways a RedGreen operator might deal: what each exception is worth."""

REDGREEN = GameSpec(
    id=redgreen.GAME_ID,
    name="RedGreen",
    seed="000_864575d53969f986.txt",
    doc="docs/redgreen.md",
    rules=redgreen.RedGreenRules,
    bets=redgreen.Bet,
    outcome=redgreen.Winner,
    table=TableFacts(
        seats=12,
        dealers=3,
        equipment=Equipment.CARDS,
        seat_required=True,
        seats_per_side=6,
        highest_bettor_may_peek=True,
        players_touch_cards=True,
        hands=("red", "green"),
    ),
    analyzer="baccara.exact.redgreen:analyze",
    removal="baccara.exact.redgreen:effect_of_removal",
    kernel="baccara.sim.kernels.redgreen:dealer",
    plain_kernel="baccara.sim.kernels.plain:redgreen_rounds",
    procedure="baccara.table.procedures.redgreen:PROCEDURE",
    depleted="baccara.exact.redgreen:bet_analyses",
    joint="baccara.exact.joint_redgreen:round_model",
    brief=(
        "Three cards to Red, then three to Green, from seven decks. The dealer sets each "
        "hand by the house way into a one-card front and a two-card back (three of a kind "
        "stays whole); the hands are compared front with front and back with back, and a "
        "hand that wins both parts, or wins one and ties the other, wins; any other result "
        "pushes. Red and Green pay 1 to 1 less 5 % commission. The Bonus pays by its "
        "paytable on the best five of all six cards. Up to twelve players, six a side, and "
        "three dealers; the highest bettor may peek at the cards."
    ),
    published=(
        "Seed 000 publishes Red's and Green's win, push and lose probabilities and their house "
        "edge, for its own rules only: seven decks, 5 % commission and its house way (Aces "
        "split unless the odd card is a K, Kings split unless it is a J or better). It "
        "publishes nothing for the Bonus, whose paytable it cuts off."
    ),
    variants=(
        Variant("commission-4", {"commission": 4}, "winning Red or Green pays 0.96 to 1"),
        *HOUSE_WAYS,
        Variant(
            "deuces-top",
            {"deuces": "top"},
            "2-2 above every pair and 2-2-2 above every three of a kind: the ladder misreading",
        ),
        Variant(
            "bonus-3k-3",
            {"paytable": _bonus_paying("3K pays 3", three_of_a_kind=3)},
            "Bonus: three of a kind pays 3 to 1",
        ),
        Variant(
            "bonus-fh-10",
            {"paytable": _bonus_paying("FH pays 10", full_house=10)},
            "Bonus: full house pays 10 to 1",
        ),
    ),
    spots=(Spot("red", "Red", 1), Spot("bonus", "Bonus", 1), Spot("green", "Green", 1)),
    felt=Felt.SET_HANDS,
    floor=Floor(
        40,
        "assumption: three dealers set two community hands by the house way and settle "
        "twelve seats, as at a big baccarat table, about 40 rounds an hour; seed 000 gives "
        "no pace",
        ("red", "green"),
    ),
    tagline="Two community hands, set by the house way. The highest bettor may peek.",
    commission_on=("red", "green"),
    roads=True,
    option_labels=(
        ("decks", "Decks"),
        ("split_aces", "A pair of Aces is split"),
        ("split_aces_unless", "…unless the odd card is"),
        ("split_kings", "A pair of Kings is split"),
        ("split_kings_unless", "…unless the odd card is"),
        ("deuces", "A pair (three) of 2s beats"),
        ("paytable", "Bonus paytable"),
    ),
    assumed=(
        (
            "paytable",
            "assumption: seed 000 cuts its Bonus paytable off; the shipped default "
            "(paytables/default.toml, RULES-NOTES.md)",
        ),
    ),
)
"""Baccarat RedGreen, first version: three dealers, six players a side, the highest bettor may peek."""

MINI_REDGREEN = dataclasses.replace(
    REDGREEN,
    id=redgreen.MINI_GAME_ID,
    name="Mini RedGreen",
    table=TableFacts(
        seats=7,
        dealers=1,
        equipment=Equipment.CARDS,
        seat_required=True,
        highest_bettor_chooses_first_hand=True,
        second_hand_exposed_card_by_card=True,
        hands=("red", "green"),
    ),
    floor=Floor(
        50,
        "assumption: one dealer for seven seats, the second hand exposed card by card, "
        "about 50 rounds an hour; seed 000 gives no pace",
        ("red", "green"),
    ),
    tagline="RedGreen for seven: the highest bettor picks which hand is set first.",
    brief=REDGREEN.brief.replace(
        "Up to twelve players, six a side, and three dealers; the highest bettor may peek "
        "at the cards.",
        "Up to seven players and one dealer; nobody touches the cards, the highest bettor "
        "chooses which hand is set first, and the other is exposed card by card.",
    ),
)
"""Baccarat Mini RedGreen: one dealer, nobody touches the cards, the highest bettor picks the first hand.

Everything but the table is the first version's: the same cards are dealt and set the
same way, so the rules, the analysis, the kernel and the variants are shared.
"""

LO_BALL = GameSpec(
    id=loball.GAME_ID,
    name="Lo-Ball",
    seed="001_1ad528cf80dbde07.txt",
    doc="docs/lo-ball.md",
    rules=loball.LoBallRules,
    bets=loball.Bet,
    outcome=loball.MainOutcome,
    table=TableFacts(
        seats=loball.MAX_PLAYERS,
        dealers=1,
        equipment=Equipment.TILES_AND_DICE,
        seat_required=True,
    ),
    analyzer="baccara.exact.loball:analyze",
    removal="baccara.exact.loball:effect_of_removal",
    kernel="baccara.sim.kernels.loball:dealer",
    plain_kernel="baccara.sim.kernels.plain:loball_rounds",
    procedure="baccara.table.procedures.loball:PROCEDURE",
    depleted=None,
    joint="baccara.exact.joint_loball_paid:round_model",
    brief=(
        "28 tiles, 1-1 to 7-7, reshuffled before every round. The dealer and each of up to "
        "seven players get three tiles; a hand scores the sum of the numbers that appear "
        "exactly once among its six, so 0 to 27 points, and fewer is better. The main wager "
        "wins with fewer points than the dealer, paid 1 to 1, or 3 to 2 with no points (the "
        "Win-bonus); a 27-point hand loses the wager but is paid the 2 to 1 Play-bonus on it. "
        "Lo-Card and Hi-Card pay 7 to 1 when the player holds 1-1 (7-7) and push when it is "
        "among three exposed tiles. Dice-Lo and Dice-Hi pay 1 to 1 on a three-dice total of "
        "4-10 (11-17); a triple loses both."
    ),
    published=(
        "Seed 001 prints the house edges of the main wager, Lo-Card and Hi-Card (rounded to "
        "0.01 %; the tables behind them are missing), for its own pays only; nothing for "
        "Dice-Lo and Dice-Hi."
    ),
    variants=(
        Variant("win-bonus-2", {"win_bonus_pays": 2}, "Win-bonus pays 2 to 1"),
        Variant("no-win-bonus", {"win_bonus_pays": 1}, "a zero-point win pays 1 to 1"),
        Variant("play-bonus-3", {"play_bonus_pays": 3}, "Play-bonus pays 3 to 1"),
        Variant("no-play-bonus", {"play_bonus_pays": 0}, "a 27-point hand simply loses"),
        Variant("lo-hi-6", {"lo_hi_pays": 6}, "Lo-Card and Hi-Card pay 6 to 1"),
        Variant("lo-hi-8", {"lo_hi_pays": 8}, "Lo-Card and Hi-Card pay 8 to 1"),
    ),
    spots=(
        Spot("main", "Main", 1),
        Spot("lo-card", "Lo-Card", 2),
        Spot("hi-card", "Hi-Card", 2),
        Spot("dice-lo", "Dice-Lo", 3),
        Spot("dice-hi", "Dice-Hi", 3),
    ),
    felt=Felt.SEATS_AGAINST_DEALER,
    floor=Floor(
        30,
        "assumption: tiles shuffled and dealt by hand to up to eight hands and three dice "
        "rolled, as at a pai gow tiles table, about 30 rounds an hour; seed 001 gives no pace",
        ("main",),
    ),
    tagline="Fewest singleton points wins: 28 tiles, three dice.",
    roads=True,
    option_labels=(
        ("win_pays", "Main wager pays"),
        ("win_bonus_pays", "Win-bonus (no points) pays"),
        ("play_bonus_pays", "Play-bonus (27 points) pays"),
        ("lo_hi_pays", "Lo-Card and Hi-Card pay"),
        ("dice_pays", "Dice-Lo and Dice-Hi pay"),
    ),
    assumed=(
        (
            "lo_hi_pays",
            "assumption: seed 001 omits the Lo-Card and Hi-Card payout; 7 to 1 is the one "
            "that gives its published 3.57 % (RULES-NOTES.md)",
        ),
    ),
)
"""Casino Lo-Ball Baccarat: 28 tiles, up to seven players each against the dealer, three dice."""

GAMES: Mapping[str, GameSpec] = {
    spec.id: spec for spec in (PUNTO_BANCO, REDGREEN, MINI_REDGREEN, LO_BALL)
}
"""Every game, by id, in the order they are listed to users."""


def game(game_id: str) -> GameSpec:
    """The spec of ``game_id``; an unknown id raises :class:`~baccara.errors.UnknownGame`."""
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):  # TypeError: an unhashable id, a list or a dict
        raise UnknownGame(game_id, tuple(GAMES)) from None


def game_ids() -> tuple[str, ...]:
    return tuple(GAMES)
