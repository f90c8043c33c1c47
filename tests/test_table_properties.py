"""Properties over thousands of random rounds of every game: hidden cards stay hidden,
money is conserved, and a round replayed from its log is the round that was played.

Each round is driven by a seeded script: players sit (or bet behind at Punto Banco),
place and take back bets within the limits, ask to deal or wait for the timer, peek
or not, choose a hand or let the timer choose, and sometimes the round is voided in
the middle. After every action, every viewer's view is checked.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from baccara.cards import ShoeMode
from baccara.errors import BaccaraError
from baccara.games import game_ids
from baccara.randomness import SeededRandom
from baccara.table import (
    LiveShoe,
    Mode,
    Phase,
    Round,
    Table,
    TableConfig,
    Viewer,
    event_from_dict,
    sees_more,
    view,
)
from baccara.table.events import BetPlaced, BetRemoved, CardDealt, CardExposed, Peeked

PLAYERS = ("ann", "bob", "cy", "dee", "eve")
ROUNDS_PER_GAME = 600


def _check_dealing_tells_nothing(round_: Round) -> None:
    """Where a card is dealt tells nothing either: a card is dealt face down only at a
    position dealt whatever the cards are (the procedure's opening); any other is dealt
    face up, when the rules ask for it on the cards already exposed — so its being
    dealt follows from what everyone has seen."""
    seats = round_.seats_dealt
    opening = set(round_.procedure.opening(seats))
    seen: dict[str, str] = {}
    for event in round_.events:
        if isinstance(event, CardDealt):
            if not event.face_up:
                assert event.position in opening, event
            elif event.position not in opening:
                assert event.position in round_.procedure.needs(seen, seats), (event, seen)
        if (isinstance(event, CardDealt) and event.face_up) or isinstance(event, CardExposed):
            seen[event.position] = event.item


def _check_views(round_: Round) -> None:
    """No event shows a card before the rules expose it, except the peeker's own hand."""
    _check_dealing_tells_nothing(round_)
    viewers = [Viewer(p) for p in PLAYERS]
    spectator = view(round_, Viewer())
    for viewer in viewers:
        shown_all = view(round_, viewer)
        for event, shown in zip(round_.events, shown_all, strict=True):
            if isinstance(event, CardDealt) and shown["item"] is not None:
                assert event.face_up or round_.exposed(event.position), (viewer, event)
            if isinstance(event, Peeked):
                if viewer.player == event.player:
                    assert shown["cards"] == list(event.cards)
                    backed = [round_.dealt[f"{event.hand}.{i}"] for i in range(3)]
                    assert list(event.cards) == backed
                else:
                    assert shown["cards"] is None, (viewer, event)
        # the server sends the spectator's view to whoever sees no more than a spectator
        assert sees_more(round_, viewer) or shown_all == spectator


def _check_totals(round_: Round) -> None:
    """The running totals the engine keeps equal the sums over its wagers."""
    for player in PLAYERS:
        plain: dict[str, int] = {}
        for wager in round_.wagers.values():
            if wager.player == player:
                plain[wager.spot] = plain.get(wager.spot, 0) + wager.amount
        assert round_.totals(player) == plain


def _check_money(round_: Round) -> None:
    """Every bet the log shows standing is paid once, on its stake, as its result says;
    the house's net is what the players lost. The stakes are read from the log's bet
    events, not from the engine's own book of wagers."""
    stakes: dict[str, int] = {}
    for event in round_.events:
        if isinstance(event, BetPlaced):
            stakes[event.bet_id] = event.amount_cents
        elif isinstance(event, BetRemoved):
            del stakes[event.bet_id]
    ended = round_.settled or round_.voided
    assert ended is not None
    assert {p.bet_id: p.stake for p in ended.payouts} == stakes
    assert len(ended.payouts) == len(stakes)
    for p in ended.payouts:
        assert p.returned == p.stake + p.won >= 0
        assert p.result != "win" or p.won > 0
        assert p.result != "push" or p.won == 0
        if p.result == "lose":  # the stake is lost — but Lo-Ball's Play-bonus (seed 001)
            play_bonus = (  # pays a bonus on a lost main bet
                round_.spec.id == "lo-ball" and p.spot == "main" and round_.settled is not None
                and round_.settled.result["seats"][str(p.seat)]["main"] == "play-bonus"
            )  # fmt: skip
            assert p.won > 0 if play_bonus else p.returned == 0, p
        assert 0 <= p.commission <= p.stake // 20 + 1
    if round_.voided is not None:
        assert all(p.returned == p.stake and p.result == "push" for p in round_.voided.payouts)
    else:
        assert round_.settled is not None
        assert round_.settled.house_net == -sum(p.won for p in round_.settled.payouts)


HOW = ("seeded", "fair", "live")
"""How a round is dealt: from a seeded generator, by the provably-fair protocol (a
server seed and each bettor's client seed), or by a live dealer entering the cards."""


def _server_seed(seed: int) -> bytes:
    return hashlib.sha256(seed.to_bytes(8, "big")).digest()


def _play(game: str, seed: int, how: str = "seeded") -> Round:
    script = random.Random(seed)
    config = TableConfig(
        game,
        min_bet_cents=100,
        max_bet_cents=50_000,
        reveal_delay=script.choice([0.0, 0.5]),
        mode=Mode.LIVE if how == "live" else Mode.ELECTRONIC,
    )
    table = Table(config)
    if how == "live":
        round_ = table.open_round(0.0)
    elif how == "fair":
        round_ = table.open_round(0.0, server_seed=_server_seed(seed))
    else:
        round_ = table.open_round(0.0, source=SeededRandom(seed))
    now = 0.0
    players = PLAYERS[: script.randint(1, len(PLAYERS))]
    for player in players:
        if table.spec.table.seat_required or script.random() < 0.7:
            table.sit(player)
    void_at = script.choice([None, None, None, "betting", "late"])
    for number in range(script.randint(1, 8)):
        now += script.random()
        player = script.choice(players)
        spot = script.choice(table.spec.bet_ids)
        amount = script.choice([100, 250, 1000, 5000, 25_000])
        bet_id = f"b{number}"
        client_seed = f"{player}-{number}" if how == "fair" else None
        try:
            table.place_bet(bet_id, player, spot, amount, now, client_seed)
        except BaccaraError:
            continue
        if script.random() < 0.15 and round_.can_remove_bet(bet_id, player):
            round_.remove_bet(bet_id, player, now)
        _check_totals(round_)
        _check_views(round_)
    if void_at == "betting" or not round_.wagers:
        round_.void("dealer", "misdeal", now + 1)
        return round_
    for player in players:
        if script.random() < 0.5 and round_.can_request_deal(player):
            round_.request_deal(player, now)
    if how == "live" and script.random() < 0.5 and round_.can_close_betting():
        round_.close_betting("dealer", now)
    while not round_.phase.over:
        if void_at == "late" and round_.phase is not Phase.BETTING and script.random() < 0.3:
            round_.void("dealer", "the shoe was dropped", now)
            break
        if round_.phase is Phase.PEEK and script.random() < 0.6:
            assert round_.peek is not None
            round_.peek_cards(round_.peek.player, now)
            if script.random() < 0.5:
                round_.end_peek(round_.peek.player, now)
        elif round_.phase is Phase.CHOOSING and script.random() < 0.6:
            assert round_.choice is not None and round_.choice.player is not None
            round_.choose(round_.choice.player, script.choice(["red", "green"]), now)
        elif round_.phase is Phase.DEALING and how == "live":
            cards = dict(round_.procedure.deal(SeededRandom(seed), round_.seats_dealt,
                                               round_.rules))  # fmt: skip
            now += script.random()
            round_.enter_card("dealer", cards[round_.needs()[0]], now)
        else:
            due = round_.deadline()
            assert due is not None
            now = max(now, due)
            round_.tick(now)
        _check_views(round_)
    return round_


@pytest.mark.parametrize(
    "rounds", [pytest.param(60, id="quick"), pytest.param(ROUNDS_PER_GAME, marks=pytest.mark.slow)]
)
@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("game", game_ids())
def test_random_rounds_hide_cards_conserve_money_and_replay(
    game: str, how: str, rounds: int
) -> None:
    phases = set()
    for seed in range(rounds):
        round_ = _play(game, seed, how)
        phases.add(round_.phase)
        _check_views(round_)
        _check_money(round_)
        stored = [event_from_dict(e.to_dict()) for e in round_.events]
        if how == "live":
            replayed = Round.replay(stored, shoe=LiveShoe(getattr(round_.rules, "decks", None)))
        elif how == "fair":
            replayed = Round.replay(stored, server_seed=_server_seed(seed))
        else:
            replayed = Round.replay(stored, source=SeededRandom(seed))
        assert replayed.phase is round_.phase
        assert replayed.dealt == round_.dealt and replayed.wagers == round_.wagers
        assert replayed.settled == round_.settled and replayed.voided == round_.voided
        assert view(replayed, Viewer("ann")) == view(round_, Viewer("ann"))
    assert phases == {Phase.SETTLED, Phase.VOIDED}


@pytest.mark.parametrize("game", game_ids())
def test_a_round_stopped_anywhere_replays_and_goes_on_the_same(game: str) -> None:
    """Cut the log after any event once betting has closed (the cards are fixed), replay
    it, and let the timers finish it: the same round, settled the same (what the server
    does after a restart). A peek or a choice left open is ended by its timer."""
    for seed in range(40):
        played = _play(game, 10_000 + seed)
        if played.voided is not None:
            continue
        closed = next(i for i, e in enumerate(played.events) if e.kind == "betting-closed")
        for cut in range(closed + 1, len(played.events)):
            resumed = Round.replay(played.events[:cut], source=SeededRandom(10_000 + seed))
            now = played.events[cut - 1].at
            while not resumed.phase.over and resumed.deadline() is not None:
                now = max(now, resumed.deadline() or now)
                resumed.tick(now)
            assert resumed.phase is Phase.SETTLED
            assert resumed.dealt == played.dealt
            assert resumed.settled.payouts == played.settled.payouts  # type: ignore[union-attr]


def test_live_rounds_replay_with_their_shoe() -> None:
    """A live continuous shoe is rebuilt from the cards already out of it."""
    config = TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=10_000, mode=Mode.LIVE,
                         shoe=ShoeMode.CONTINUOUS, options={"decks": 1})  # fmt: skip
    table = Table(config)
    round_ = table.open_round(0.0)
    table.sit("ann")
    table.place_bet("b1", "ann", "player", 1000, 1.0)
    round_.close_betting("dealer", 2.0)
    round_.enter_card("dealer", "AS", 3.0)
    restarted = Table(config, nonce=0, seats=table.seats, shoe_dealt=())
    resumed = restarted.resume(round_.events)
    assert resumed.phase is Phase.DEALING and resumed.needs()[0] == "banker.0"
    assert not resumed.can_enter_card("AS")
