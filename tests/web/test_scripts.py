"""The browser's own code, run in Chromium against the project's vectors: the Punto Banco
roads (the issue's test vectors, ties, the dragon tail) and the provably-fair protocol
written again in JavaScript (the vectors of docs/provably-fair.md, and whole re-deals
compared with the Python engine's deals)."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

import pytest
from playwright.sync_api import Page

from baccara.cards import Shoe
from baccara.fair import FairRandom
from baccara.table import Table, TableConfig
from baccara.table.autoplay import Plan, play
from tests.server.harness import Server

SEED = "00" * 31 + "07"
ROAD = "async ([name, ...args]) => (await import('/static/js/roads.js'))[name](...args)"


@pytest.fixture
def blank(casino: Server, page: Page) -> Page:
    page.goto(f"{casino.url}/rules/punto-banco")
    return page


def derived(page: Page, sequence: str, k: int) -> str:
    letters = page.evaluate(
        """async ([sequence, k]) => {
          const roads = await import('/static/js/roads.js');
          return roads.derivedRoad(roads.bigRoad(roads.parseSequence(sequence)), k).join(' ');
        }""",
        [sequence, k],
    )
    assert isinstance(letters, str)
    return letters


@pytest.mark.parametrize(
    ("sequence", "expected"),
    [
        ("B B P P P B P B B", {1: "R B B B R B", 2: "B B B", 3: "B R"}),
        ("B B B P B B B", {1: "B B R"}),
        ("P B B B B P P B", {1: "B R R B R B"}),
    ],
)
def test_the_derived_roads_follow_the_issues_vectors(
    blank: Page, sequence: str, expected: dict[int, str]
) -> None:
    for k, letters in expected.items():
        assert derived(blank, sequence, k) == letters
    # Ties never take a big-road cell, so they change no derived road.
    with_ties = sequence.replace(" ", " T ", 2) + " T"
    for k, letters in expected.items():
        assert derived(blank, with_ties, k) == letters


def test_ties_are_marked_on_the_cell_before_them(blank: Page) -> None:
    columns = blank.evaluate(
        """async () => {
          const roads = await import('/static/js/roads.js');
          return roads.bigRoad(roads.parseSequence('T B T B T T P'))
            .map((c) => c.map((e) => [e.winner[0].toUpperCase(), e.ties, e.tiesBefore]));
        }"""
    )
    assert columns == [[["B", 1, 1], ["B", 2, 0]], [["P", 0, 0]]]


def test_a_long_streak_turns_into_a_dragon_tail(blank: Page) -> None:
    cells = blank.evaluate(
        """async () => {
          const roads = await import('/static/js/roads.js');
          return roads.place(roads.bigRoad(roads.parseSequence('B B B B B B B B P P P P P P P')))
            .map(({x, y, entry}) => [x, y, entry.winner[0].toUpperCase()]);
        }"""
    )
    banker = [(x, y) for x, y, w in cells if w == "B"]
    player = [(x, y) for x, y, w in cells if w == "P"]
    assert banker == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 5), (2, 5)]
    # The next column starts at column 1 and, blocked by the tail at row 5, turns at row 4.
    assert player == [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 4), (3, 4)]


def fair(page: Page, body: str, args: Any = None) -> Any:
    """Run ``body`` (JavaScript, with ``fair`` the module and ``args`` the argument)."""
    return page.evaluate(
        f"async (args) => {{ const fair = await import('/static/js/fair.js'); {body} }}", args
    )


def test_the_javascript_protocol_meets_the_published_vectors(blank: Page) -> None:
    draws = fair(blank, """
        const stream = await fair.FairStream.create(args, 'alice', 3);
        const out = [];
        for (let i = 0; i < 5; i += 1) out.push(await stream.randbelow(3 * 2 ** 30));
        return [out, stream.rejected];""", SEED)  # fmt: skip
    assert draws == [[364100107, 1292888981, 977484433, 585849137, 983564999], 2]
    top = fair(
        blank,
        "return (await fair.shoe(await fair.FairStream.create(args, 'alice', 3), 8)).slice(0, 10);",
        SEED,
    )
    assert top == ["QC", "8C", "5S", "8S", "5H", "4C", "2D", "9D", "10S", "KH"]
    lo_ball = dict(
        fair(
            blank,
            "return fair.redeal({game: 'lo-ball', serverSeed: args, clientSeed: 'alice', nonce: 3, seats: [1, 2]});",
            SEED,
        )
    )
    assert [lo_ball[f"dealer.{i}"] for i in range(3)] == ["2-5", "2-7", "5-6"]
    assert [lo_ball[f"seat1.{i}"] for i in range(3)] == ["6-6", "1-6", "1-5"]
    assert [lo_ball[f"seat2.{i}"] for i in range(3)] == ["4-6", "7-7", "6-7"]
    assert [lo_ball[f"exposed.{i}"] for i in range(3)] == ["3-3", "5-7", "2-4"]
    assert [lo_ball[f"dice.{i}"] for i in range(3)] == ["4", "1", "2"]
    whole = fair(
        blank,
        "return fair.shoe(await fair.FairStream.create(args, 'bob', 3), 7);",
        SEED,
    )
    assert whole == [c.code for c in Shoe(7, FairRandom(bytes.fromhex(SEED), "bob", 3))]
    digest = fair(blank, "return fair.sha256Hex(fair.hexToBytes(args));", SEED)
    assert digest == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


@pytest.mark.parametrize("game", ["punto-banco", "redgreen", "redgreen-mini", "lo-ball"])
def test_the_javascript_re_deal_is_the_engines_deal(blank: Page, game: str) -> None:
    """Random seeds, client seeds and nonces: the browser deals what the table engine deals,
    position by position (Punto Banco's third-card rule, Lo-Ball's exposure rule)."""
    for _ in range(12):
        seed = secrets.token_bytes(32)
        client = secrets.token_hex(8)
        nonce = secrets.randbelow(10_000) + 1
        players = ("ann", "bob", "cy")[: 1 + secrets.randbelow(3)]
        table = Table(TableConfig(game, min_bet_cents=100, max_bet_cents=10_000), nonce=nonce - 1)
        round_ = play(
            table, Plan(players, 100, client_seed=client, choose="green"), server_seed=seed
        )
        seats = sorted(table.seats)
        dealt = fair(blank, "return fair.redeal(args);", {"game": game, "serverSeed": seed.hex(),
                     "clientSeed": client, "nonce": nonce, "seats": seats})  # fmt: skip
        assert [tuple(pair) for pair in dealt] == list(round_.dealt.items())


def settlement(page: Page, body: str, args: Any = None) -> Any:
    """Run ``body`` with ``settlement`` and ``fair`` the modules, ``games`` GET /api/games."""
    return page.evaluate(
        "async (args) => { const settlement = await import('/static/js/settlement.js');"
        " const fair = await import('/static/js/fair.js');"
        " const games = await (await import('/static/js/api.js')).games();"
        f" {body} }}",
        args,
    )


VARIANTS = [
    ("punto-banco", {}),
    ("punto-banco", {"commission": "4", "tie_pays": 9, "decks": 6, "pair_pays": "11.5"}),
    ("punto-banco", {"variant": "ez"}),
    (
        "punto-banco",
        {
            "variant": "no-commission",
            "commission": "1",
            "sidebets": "big+small+perfect-pair+dragon-bonus-banker+lucky-6",
        },
    ),
    ("redgreen", {}),
    ("redgreen", {"split_aces": "no", "commission": "2.5", "deuces": "top"}),
    ("redgreen-mini", {"split_kings_unless": "Q"}),
    ("lo-ball", {}),
    (
        "lo-ball",
        {"win_bonus_pays": 2, "play_bonus_pays": "3/2", "lo_hi_pays": 8, "dice_pays": "0.95"},
    ),
]
"""Every game under its defaults and under rules of its own: 4 %, 19:20 dice, 2s on top;
EZ Baccarat with its side bets, No-Commission with a commission and side bets of its own."""


@pytest.mark.parametrize(("game", "options"), VARIANTS, ids=lambda v: str(v))
def test_the_browsers_settlement_pays_what_the_engine_paid(
    blank: Page, game: str, options: dict[str, Any]
) -> None:
    """Random seeds, players and stakes (odd cents, so 19:20 rounds down): settled again in
    the browser from the re-dealt cards and the record's rules, every round pays exactly
    what the table engine paid, bet by bet, calls it in the same words with the same
    result — RedGreen's totals for each protecting dealer and Mini RedGreen's hand set
    first included — and Verify finds nothing to differ."""
    import dataclasses
    import json

    from baccara.table import Viewer
    from baccara.table.record import round_record

    records, paid, results = [], [], []
    for _ in range(15):
        players = ("ann", "bob", "cy", "dee")[: 1 + secrets.randbelow(4)]
        stake = secrets.choice([1, 5, 25, 99, 1001, 12345])
        table = Table(TableConfig(game, min_bet_cents=1, max_bet_cents=20_000, options=options),
                      nonce=secrets.randbelow(1000))  # fmt: skip
        round_ = play(table, Plan(players, stake, client_seed=secrets.token_hex(4), choose="red"),
                      server_seed=secrets.token_bytes(32))  # fmt: skip
        assert round_.settled is not None
        records.append(round_record(round_, Viewer("ann")))
        paid.append([dataclasses.asdict(p) for p in round_.settled.payouts])
        results.append(json.loads(json.dumps(round_.settled.result)))
    verified = settlement(blank, """
        const out = [];
        for (const record of args) {
          const result = await fair.verifyRound(record, games);
          const { payouts, result: call } = result.settlement.settled;
          out.push([result.ok, result.settlement.differences, payouts, call]);
        }
        return out;""", records)  # fmt: skip
    for (ok, differences, payouts, call), expected, result in zip(
        verified, paid, results, strict=True
    ):
        assert differences == [] and ok
        assert payouts == expected
        assert call == result
        assert ("sides" in call) == (game == "redgreen")
        assert ("first_hand" in call) == (game == "redgreen-mini")


def test_redgreen_pairs_and_trips_rank_in_a_cycle(blank: Page) -> None:
    """RULES-NOTES, the seed's Notes 1 and 2: 2-2 beats A-A and only A-A, A-A beats every
    other pair; 2-2-2 and A-A-A the same. With ``deuces=top`` (the ladder misreading) 2s
    beat everything. Each hand is set by the house way, then called."""
    cases = [
        # red, green, the call by the cycle, the call with deuces=top
        ("KS 2H 2D", "KH AS AD", "red", "red"),  # K | 2 2 against K | A A (Aces kept with a King)
        ("KS 2H 2D", "KH 3S 3D", "green", "red"),  # 2-2 loses to 3-3, except on the ladder
        ("AS AH KD", "KS KH QD", "red", "red"),  # A-A beats K-K
        ("2S 2H 2D", "AS AH AD", "red", "red"),  # 2-2-2 beats A-A-A
        ("2S 2H 2D", "3S 3H 3D", "green", "red"),  # and loses to every other three of a kind
        ("AS AH AD", "KS KH KD", "red", "red"),
        ("3S 3H 3D", "AS AH KD", "red", "red"),  # three of a kind beats any hand that is not
        ("2S 5H 9D", "3S 5H 9C", "green", "green"),  # a single 2 is the lowest card: 9-3 > 9-2
    ]
    calls = settlement(blank, """
        const rules = (deuces) => settlement.rulesFor('redgreen', { deuces }, games.find((g) => g.id === 'redgreen'));
        return args.map(([red, green]) => ['beat-aces-only', 'top'].map((deuces) => {
          const hand = (text) => text.split(' ').map(settlement.card);
          const r = rules(deuces);
          return settlement.callHands(settlement.houseWay(hand(red), r), settlement.houseWay(hand(green), r), r.deuces);
        }));""", cases)  # fmt: skip
    assert calls == [[cycle, top] for _, _, cycle, top in cases]
    beats = settlement(blank, "return args.map(([x, y, d]) => settlement.pairBeats(x, y, d));",
                       [[2, 1, "beat-aces-only"], [2, 3, "beat-aces-only"], [1, 13, "beat-aces-only"],
                        [13, 2, "beat-aces-only"], [2, 13, "top"], [1, 1, "top"]])  # fmt: skip
    assert beats == [1, -1, 1, 1, 1, 0]


def test_the_browsers_redgreen_is_the_engines_on_the_hands_the_cycle_decides(blank: Page) -> None:
    """Random hands of A, K, 3 and 2 only — pairs, trips and the cycle's edges on almost
    every deal — settled by the engine and in the browser, under both readings of the 2s:
    the same call (its words too), the same settings, the same Bonus hand, the same payouts."""
    import dataclasses

    from baccara.games.redgreen import RedGreenRules
    from baccara.table.procedures.base import Wager
    from baccara.table.procedures.redgreen import PROCEDURE

    wagers = [Wager("r", "ann", 1, "red", 1001), Wager("g", "bob", 2, "green", 25),
              Wager("b", "ann", 1, "bonus", 500)]  # fmt: skip
    deals, expected = [], []
    for _ in range(300):
        codes = [secrets.choice(["A", "K", "3", "2"]) + secrets.choice("SHDC") for _ in range(6)]
        dealt = {f"{hand}.{i}": codes[3 * h + i] for h, hand in enumerate(("red", "green"))
                 for i in range(3)}  # fmt: skip
        for deuces in ("beat-aces-only", "top"):
            rules = RedGreenRules.from_options(deuces=deuces)
            result, payouts = PROCEDURE.settle(dealt, wagers, [], rules)
            deals.append([list(dealt.items()), deuces])
            expected.append([result, [dataclasses.asdict(p) for p in payouts]])
    settled = settlement(blank, """
        const served = games.find((g) => g.id === 'redgreen');
        const wagers = [{ bet_id: 'r', player: 'ann', seat: 1, spot: 'red', amount: 1001 },
          { bet_id: 'g', player: 'bob', seat: 2, spot: 'green', amount: 25 },
          { bet_id: 'b', player: 'ann', seat: 1, spot: 'bonus', amount: 500 }];
        return args.map(([dealt, deuces]) => {
          const { result, payouts } = settlement.settleRound('redgreen', new Map(dealt), wagers,
            settlement.rulesFor('redgreen', { deuces }, served));
          return [result, payouts];
        });""", deals)  # fmt: skip
    assert settled == expected


def test_the_bonus_hand_is_the_best_five_of_six_as_the_engine_reads_it(blank: Page) -> None:
    """Six cards of 9 to A in two suits from seven decks: royal and straight flushes, five
    of a kind, flushes holding a card twice — each read as the engine's evaluator reads it."""
    from baccara.cards import parse_cards
    from baccara.games.bonus import best_category

    hands = [[secrets.choice(["9", "10", "J", "Q", "K", "A"]) + secrets.choice("SH")
              for _ in range(6)] for _ in range(400)]  # fmt: skip
    hands += [
        ["AS"] * 5 + ["2H"],
        ["KH", "KH", "9H", "9H", "9H", "2C"],
        ["2S", "3S", "4S", "5S", "AS", "KD"],
    ]
    read = settlement(blank, "return args.map((six) => settlement.bestCategory(six.map(settlement.card)));",
                      hands)  # fmt: skip
    assert read == [best_category(parse_cards(six)).value for six in hands]
    assert read[-3:] == ["five_of_a_kind", "full_house", "straight_flush"]


@pytest.mark.parametrize(
    ("game", "dealt", "spot"),
    [
        ("punto-banco", {"player.0": "KS", "banker.0": "9H", "player.1": "QS", "banker.1": "KH"},
         "banker"),  # Player 0, Banker a natural 9
        ("redgreen", {"red.0": "AS", "red.1": "AH", "red.2": "AD", "green.0": "2S",
                      "green.1": "5H", "green.2": "9C"}, "red"),  # A-A-A against 9 | 5 2
    ],
)  # fmt: skip
def test_the_browser_records_the_commission_of_a_one_cent_win(
    blank: Page, game: str, dealt: dict[str, str], spot: str
) -> None:
    """19:20 on 1 cent pays nothing, and the house keeps the cent as commission, as the
    engine records it; on 19 cents it pays 18 and keeps 1."""
    paid = settlement(blank, """
        const [game, dealt, spot] = args;
        const wagers = [1, 19, 1000].map((amount) => ({ bet_id: `b${amount}`, player: 'ann', seat: 1, spot, amount }));
        const rules = settlement.rulesFor(game, {}, games.find((g) => g.id === game));
        return settlement.settleRound(game, new Map(Object.entries(dealt)), wagers, rules).payouts
          .map((p) => [p.result, p.won, p.commission]);""", [game, dealt, spot])  # fmt: skip
    assert paid == [["win", 0, 1], ["win", 18, 1], ["win", 950, 50]]


def test_payouts_are_exact_and_rounded_down_to_the_cent(blank: Page) -> None:
    """docs and baccara.money: 19:20 on 0.25 pays 0.23, 3:2 on 0.05 pays 0.07; odds read
    exactly from whatever a record holds (0.95, "19/20", "1e-2")."""
    paid = settlement(
        blank,
        """
        const odds = ['19/20', 0.95, '1.5', '1e-2', 8].map(settlement.exact);
        return [settlement.payout(25, odds[0]), settlement.payout(25, odds[1]),
                settlement.payout(5, odds[2]), settlement.payout(150, odds[3]), settlement.payout(7, odds[4])];""",
    )
    assert paid == [23, 23, 7, 1, 56]
