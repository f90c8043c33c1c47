"""The squeeze: the highest bettor bends the cards up one by one while the table watches.

Sources: seed 000, Mini RedGreen ("then the other hand is exposed slowly so as to build
up excitement and anticipation for the Players": the round's highest bettor squeezes
the hand set second); a Punto Banco table with its ``squeeze`` option, as electronic
baccarat tables squeeze: the highest bettor on Player squeezes Player's cards, then the
highest bettor on Banker Banker's, each third card by its hand's squeezer. No face of a
squeezed card reaches anyone but the squeezer before its ``card-exposed``.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from baccara.errors import InvalidOption
from baccara.randomness import SeededRandom
from baccara.table import Mode, Phase, Round, RoundError, Table, TableConfig, Viewer, view
from baccara.table.events import (
    CardDealt,
    CardExposed,
    Peeked,
    SqueezeEnded,
    SqueezeOffered,
    event_from_dict,
)
from baccara.table.view import sees_more, visible_cards

BOTH_THIRDS = 3
"""The seed whose Punto Banco coup draws a third card to both hands (7 4 against Q J)."""
NO_THIRD = 1


def squeezing(game: str = "punto-banco", seed: int = BOTH_THIRDS, **settings: object) -> Round:
    squeeze = {"squeeze": True} if game == "punto-banco" else {}
    config = TableConfig(game, min_bet_cents=100, max_bet_cents=100_000, reveal_delay=1.0,
                         squeeze_seconds=20, **squeeze, **settings)  # type: ignore[arg-type]  # fmt: skip
    table = Table(config)
    round_ = table.open_round(0.0, source=SeededRandom(seed))
    return round_


def bet(round_: Round, bets: list[tuple[str, str, int]]) -> None:
    for i, (player, spot, amount) in enumerate(bets):
        seat = i + 1 if round_.spec.table.seat_required else None
        round_.place_bet(f"b{i}", player, seat, spot, amount, 1.0 + i)


def faces_seen_by(round_: Round, viewer: Viewer) -> set[str]:
    """Every card code ``viewer``'s view of the log holds, in any event."""
    text = json.dumps(view(round_, viewer))
    return {code for code in set(round_.dealt.values()) if f'"{code}"' in text}


def hidden(round_: Round) -> set[str]:
    return {code for p, code in round_.dealt.items() if not round_.exposed(p)}


def test_player_then_banker_each_squeezed_by_their_highest_bettor_third_cards_too() -> None:
    round_ = squeezing()
    bet(round_, [("ann", "player", 500), ("bob", "player", 900), ("cy", "banker", 700),
                 ("dee", "tie", 5000)])  # fmt: skip
    round_.tick(20.0)
    assert round_.phase is Phase.SQUEEZE
    offered, peeked = round_.events[-2:]
    assert isinstance(offered, SqueezeOffered) and isinstance(peeked, Peeked)
    assert (offered.player, offered.hand, offered.positions, offered.until) == (
        "bob", "player", ("player.0", "player.1"), 40.0,
    )  # fmt: skip
    assert peeked.cards == (round_.dealt["player.0"], round_.dealt["player.1"])
    assert all(not e.face_up for e in round_.events if isinstance(e, CardDealt))
    refusals: tuple[tuple[Callable[[], object], str], ...] = (
        (lambda: round_.turn_card("ann", "player.0", 21.0), "only the squeezer"),
        (lambda: round_.turn_card("bob", "banker.0", 21.0), "not a card of this squeeze"),
        (lambda: round_.turn_card("bob", ["player.0"], 21.0), "not a card of this squeeze"),
        (lambda: round_.end_squeeze("cy", 21.0), "only the squeezer"),
    )
    for refused, match in refusals:
        before = len(round_.events)
        with pytest.raises(RoundError, match=match):
            refused()
        assert len(round_.events) == before
    (turned,) = round_.turn_card("bob", "player.1", 21.0)
    assert isinstance(turned, CardExposed) and turned.by == "bob"
    with pytest.raises(RoundError, match="turned already"):
        round_.turn_card("bob", "player.1", 21.5)
    assert not round_.can_turn_card("bob", "player.1") and round_.can_turn_card("bob", "player.0")
    done = round_.turn_card("bob", "player.0", 22.0)  # the last card ends the squeeze
    assert [e.kind for e in done] == ["card-exposed", "squeeze-ended"]
    assert round_.phase.value == "revealing" and round_.deadline() == 23.0
    (banker, _) = round_.tick(23.0)
    assert isinstance(banker, SqueezeOffered) and (banker.player, banker.hand) == ("cy", "banker")
    ended = round_.end_squeeze("cy", 24.0)  # turns both at once, then Player's third is dealt
    assert [e.kind for e in ended] == ["card-exposed", "card-exposed", "squeeze-ended"]
    (dealt,) = round_.tick(25.0)
    assert isinstance(dealt, CardDealt) and (dealt.position, dealt.face_up) == ("player.2", False)
    third, _ = round_.tick(26.0)  # squeezed the reveal's delay after it is dealt
    assert isinstance(third, SqueezeOffered) and third.positions == ("player.2",)
    assert third.player == "bob"
    assert faces_seen_by(round_, Viewer("ann")) == set(round_.dealt.values()) - hidden(round_)
    assert round_.dealt["player.2"] in faces_seen_by(round_, Viewer("bob"))
    round_.end_squeeze("bob", 27.0)
    round_.tick(28.0)
    last, _ = round_.tick(29.0)
    assert isinstance(last, SqueezeOffered) and (last.player, last.positions) == (
        "cy",
        ("banker.2",),
    )
    round_.tick(49.0)  # cy lets the timer turn it
    ends = [e for e in round_.events if isinstance(e, SqueezeEnded)]
    assert [e.reason for e in ends] == ["done", "done", "done", "timer"]
    assert ends[-1].by == "table" and round_.events[-2].by == "table"
    assert round_.phase.over
    assert round_.settled is not None and len(round_.settled.result["player"]) == 3


def test_a_hand_nobody_bet_on_is_turned_by_the_table_at_once() -> None:
    round_ = squeezing(seed=NO_THIRD)
    bet(round_, [("ann", "banker", 500), ("bob", "tie", 9000)])  # nobody on Player
    events = round_.tick(20.0)
    assert [e.kind for e in events][-3:] == ["card-exposed", "card-exposed", "squeeze-ended"]
    ended = next(e for e in events if isinstance(e, SqueezeEnded))
    assert ended.reason == "no-bettor" and ended.by == "table"
    exposed = [e.position for e in events if isinstance(e, CardExposed)]
    assert exposed == ["player.0", "player.1"]
    assert not any(isinstance(e, SqueezeOffered) for e in events)
    (offered, _) = round_.tick(21.0)  # the reveal's delay, then Banker's squeeze
    assert isinstance(offered, SqueezeOffered) and offered.player == "ann"
    round_.tick(41.0)
    assert round_.phase is Phase.SETTLED


def test_mini_redgreens_second_hand_is_squeezed_by_the_highest_bettor() -> None:
    round_ = squeezing("redgreen-mini", 4)
    bet(round_, [("ann", "red", 500), ("bob", "green", 800), ("cy", "bonus", 5000)])
    round_.tick(20.0)
    round_.choose("bob", "red", 21.0)
    assert round_.tick(22.0)[0].kind == "squeeze-offered"
    assert round_.squeeze is not None and round_.squeeze.player == "bob"
    assert round_.squeeze.positions == ("green.0", "green.1", "green.2")
    assert sees_more(round_, Viewer("bob")) and not sees_more(round_, Viewer("ann"))
    assert set(visible_cards(round_, Viewer("bob"))) == {"red.0", "red.1", "red.2"}
    squeezed = {round_.dealt[p] for p in round_.squeeze.positions} - {
        round_.dealt[p] for p in ("red.0", "red.1", "red.2")
    }
    for outsider in (Viewer("ann"), Viewer("cy"), Viewer()):
        assert not squeezed & faces_seen_by(round_, outsider)
    assert squeezed <= faces_seen_by(round_, Viewer("bob"))
    round_.turn_card("bob", "green.1", 23.0)
    assert round_.dealt["green.1"] in faces_seen_by(round_, Viewer())
    round_.end_squeeze("bob", 24.0)
    while not round_.phase.over:
        round_.tick(round_.deadline() or 0.0)
    assert [e.hand for e in round_.events if e.kind == "hand-set"] == ["red", "green"]  # type: ignore[attr-defined]


def test_mini_redgreen_with_no_highest_bettor_is_turned_card_by_card_as_before() -> None:
    round_ = squeezing("redgreen-mini", 4)
    bet(round_, [("cy", "bonus", 5000)])
    round_.tick(20.0)
    while not round_.phase.over:
        round_.tick(round_.deadline() or 0.0)
    assert not any(isinstance(e, SqueezeOffered | SqueezeEnded) for e in round_.events)
    turned = [e.at for e in round_.events if isinstance(e, CardExposed)][3:]
    assert turned == [21.0, 22.0, 23.0]  # the seed's slow exposure, a second a card


def test_a_log_with_squeezes_replays_and_reads_back_exactly() -> None:
    round_ = squeezing()
    bet(round_, [("ann", "player", 500), ("cy", "banker", 700)])
    round_.tick(20.0)
    round_.turn_card("ann", "player.0", 21.0)
    stored = [event_from_dict(json.loads(json.dumps(e.to_dict()))) for e in round_.events]
    assert stored == round_.events
    again = Round.replay(stored, source=SeededRandom(BOTH_THIRDS))
    assert again.phase is Phase.SQUEEZE and again.squeeze == round_.squeeze
    assert again.deadline() == round_.deadline()
    assert again.turn_card("ann", "player.1", 22.0) == round_.turn_card("ann", "player.1", 22.0)
    while not round_.phase.over:
        due = round_.deadline() or 0.0
        assert again.tick(due) == round_.tick(due)
    read = Round.read(round_.events)
    assert read.settled == round_.settled and read.squeeze is None


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"game": "punto-banco", "squeeze": "yes"}, "squeeze: must be true or false"),
        ({"game": "redgreen", "squeeze": True}, "squeeze: is a Punto Banco table's option"),
        ({"game": "punto-banco", "squeeze": True, "mode": Mode.LIVE}, "players squeeze the real"),
        ({"game": "punto-banco", "squeeze_seconds": 0}, "squeeze-seconds: must be between 1"),
    ],
)
def test_bad_squeeze_settings_are_refused_by_name(
    settings: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidOption, match=message):
        TableConfig(min_bet_cents=100, max_bet_cents=1000, **settings)  # type: ignore[arg-type]


def test_without_the_option_punto_banco_and_live_mini_tables_do_not_squeeze() -> None:
    plain = Table(TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=1000))
    assert not plain.open_round(0.0, source=SeededRandom(1)).opened.squeeze
    live = Table(TableConfig("redgreen-mini", min_bet_cents=100, max_bet_cents=1000,
                             mode=Mode.LIVE))  # fmt: skip
    assert not live.open_round(0.0).opened.squeeze
    assert "squeeze" not in plain.round.opened.to_dict()  # type: ignore[union-attr]
