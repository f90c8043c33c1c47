"""Every public Python function, called with arguments of every type (issue 15).

``baccara.analyze("punto-banco", decks=float("nan"))`` raised ``ValueError``,
``decks=float("inf")`` ``OverflowError``, a huge Fraction the 4,300-digit limit's
``ValueError``. Each documented function must instead return, or raise the error its
documentation names — :class:`~baccara.errors.InvalidOption` for an option,
:class:`~baccara.errors.UnknownGame` for a game, :class:`~baccara.games.paytable.InvalidPaytable`
for a paytable — and never hang. Calls run in a forked process killed past its time.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import baccara
from baccara.errors import BaccaraError, InvalidBet, InvalidOption, UnknownGame
from baccara.games import GAMES
from baccara.games.paytable import InvalidPaytable, Paytable
from baccara.options import option_name
from tests.helpers import RaisedInFork, in_fork
from tests.hostile import any_text, any_value
from tests.hostile_run import warm

SECONDS = 20.0

HOSTILE = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    warm()


def answer(call: Callable[[], Any], *documented: type[BaccaraError]) -> Any:
    """What ``call`` returns; if it raises, the error must be one of ``documented``."""
    try:
        return in_fork(SECONDS, call)
    except RaisedInFork as error:
        assert issubclass(error.error_type, documented), error
        return None


def test_the_issues_examples() -> None:
    """The three calls the issue quotes, each now the documented InvalidOption."""
    for options in ({"decks": float("nan")}, {"decks": float("inf")}, {"paytable": 5}):
        game = "redgreen" if "paytable" in options else "punto-banco"
        with pytest.raises(InvalidOption) as caught:
            baccara.analyze(game, **options)
        assert caught.value.option == next(iter(options))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (float("nan"), "must be a whole number, got nan"),
        (Decimal("sNaN"), "must be a whole number, got Decimal('sNaN')"),
        (10**5000, "must be between 1 and 100, got an integer of about 5,001 digits"),
        (Fraction(1, 10**5000), "must be a whole number, got a fraction of about"),
        (8.5, "must be a whole number, got 8.5"),
        (True, "must be a whole number, got True"),
    ],
    ids=["nan", "snan", "huge-int", "tiny-fraction", "float", "bool"],
)
def test_a_refusal_quotes_any_value_in_one_short_line(value: object, message: str) -> None:
    with pytest.raises(InvalidOption) as caught:
        baccara.analyze("punto-banco", decks=value)
    assert message in str(caught.value)
    assert len(str(caught.value)) < 200


def test_any_number_type_that_is_exact_is_read() -> None:
    """An int, a Fraction, a Decimal, a float and text of the same number give one analysis."""
    import numpy as np

    edges = {
        baccara.analyze("punto-banco", decks=decks, commission=commission).bet("banker").house_edge
        for decks, commission in [
            (6, Fraction(4)),
            ("6", "4"),
            (Fraction(6), 4.0),
            (Decimal("6.0"), Decimal("4")),
            (np.int64(6), "4/1"),
            (6.0, " 4e0 "),
        ]
    }
    assert len(edges) == 1


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "field"), [(g, f) for g, spec in GAMES.items() for f in spec.rules.OPTIONS]
)
@HOSTILE
@given(value=any_value())
def test_analyze_every_option_with_any_value(game: str, field: str, value: Any) -> None:
    result = answer(lambda: baccara.analyze(game, **{field: value}).to_dict(), InvalidOption)
    if result is not None:
        assert result["game"] == game


@pytest.mark.slow
@HOSTILE
@given(
    game=st.one_of(any_text(), any_value()),
    options=st.dictionaries(any_text(), any_value(), max_size=3),
)
def test_analyze_any_game_and_options(game: Any, options: dict[str, Any]) -> None:
    answer(lambda: baccara.analyze(game, **options).to_dict(), UnknownGame, InvalidOption)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["punto-banco", "lo-ball"])
@HOSTILE
@given(
    options=st.dictionaries(
        st.sampled_from(["decks", "commission", "win-pays", "tie_pays"]), any_value(), max_size=2
    )
)
def test_effect_of_removal_any_options(game: str, options: dict[str, Any]) -> None:
    answer(lambda: baccara.effect_of_removal(game, **options).to_dict(), InvalidOption)


@pytest.mark.slow
@pytest.mark.parametrize("spec", GAMES.values(), ids=list(GAMES))
@HOSTILE
@given(options=st.dictionaries(any_text(), any_value(), max_size=3), value=any_value())
def test_rules_from_options(spec: Any, options: dict[str, Any], value: Any) -> None:
    field = next(iter(spec.rules.OPTIONS))
    answer(lambda: repr(spec.rules.from_options(**options)), InvalidOption)
    answer(lambda: repr(spec.rules.from_options(**{option_name(field): value})), InvalidOption)
    answer(lambda: repr(spec.rules_from_options(**options)), InvalidOption)


@pytest.mark.slow
@HOSTILE
@given(game=st.one_of(any_text(), any_value()))
def test_game(game: Any) -> None:
    found = answer(lambda: baccara.game(game).id, UnknownGame)
    assert found is None or found == game


@pytest.mark.slow
@HOSTILE
@given(
    spec=st.one_of(any_text(), any_value(), st.sampled_from(["/dev/zero", "/", "/dev/null", "."]))
)
def test_load_paytable(spec: Any) -> None:
    answer(lambda: baccara.load_paytable(spec).name, InvalidPaytable)


@pytest.mark.slow
@HOSTILE
@given(
    text=st.one_of(any_text(), any_value(), st.binary().map(lambda b: b.decode("utf-8", "replace")))
)
def test_paytable_from_toml(text: Any) -> None:
    answer(lambda: Paytable.from_toml(text).name, InvalidPaytable)


@pytest.mark.slow
@HOSTILE
@given(name=any_value(), pays=any_value(), pay=any_value(), description=any_value())
def test_paytable_constructor(name: Any, pays: Any, pay: Any, description: Any) -> None:
    from baccara.games.bonus import Category

    answer(lambda: Paytable(name, pays, description).name, InvalidPaytable)
    answer(lambda: Paytable("x", {Category.FLUSH: pay}).name, InvalidPaytable)


def test_every_public_function_is_covered() -> None:
    """A new public function needs a test in this file: these are all there are."""
    functions = sorted(
        name
        for name in baccara.__all__
        if callable(getattr(baccara, name)) and not isinstance(getattr(baccara, name), type)
    )
    assert functions == [
        "analyze", "analyze_at_stake", "bet_step_cents", "compare_variants", "edges_by_decks",
        "effect_of_removal", "game", "load_paytable", "play_sessions", "simulate",
    ]  # fmt: skip


SOME_GAMES = st.one_of(st.sampled_from(list(GAMES)), any_text(), any_value())


@pytest.mark.slow
@HOSTILE
@given(
    game=SOME_GAMES,
    stake=st.one_of(st.integers(-(10**12), 10**12), any_value()),
    options=st.dictionaries(any_text(), any_value(), max_size=2),
)
def test_analyze_at_stake(game: Any, stake: Any, options: dict[str, Any]) -> None:
    """Any stake: whole positive cents up to the largest a table takes are analysed, the
    rest refused as a bet (a negative, a NaN, a float, a huge number)."""
    result = answer(
        lambda: baccara.analyze_at_stake(game, stake, **options).to_dict(),
        UnknownGame, InvalidOption, InvalidBet,
    )  # fmt: skip
    if result is not None:
        assert result["stake_cents"] == stake and result["game"] == game


@pytest.mark.slow
@HOSTILE
@given(game=SOME_GAMES, options=st.dictionaries(any_text(), any_value(), max_size=2))
def test_bet_step_cents(game: Any, options: dict[str, Any]) -> None:
    step = answer(lambda: baccara.bet_step_cents(game, **options), UnknownGame, InvalidOption)
    assert step is None or (isinstance(step, int) and step >= 1)


@pytest.mark.slow
@HOSTILE
@given(
    game=SOME_GAMES,
    rounds=st.integers(1, 3000),
    seed=any_value(),
    shoe=st.one_of(st.sampled_from(["reshuffle", "continuous"]), any_value()),
    penetration=any_value(),
    workers=any_value(),
    options=st.one_of(st.dictionaries(any_text(), any_value(), max_size=2), any_value()),
    flag=any_value(),
)
def test_simulate(
    game: Any, rounds: int, seed: Any, shoe: Any, penetration: Any, workers: Any,
    options: Any, flag: Any,
) -> None:  # fmt: skip
    """A short run with anything else as it comes (a valid run of 3,000 rounds is quick)."""
    answer(
        lambda: baccara.simulate(game, rounds, seed=seed, shoe=shoe, penetration=penetration,
                                 workers=workers, options=options).to_dict(),
        UnknownGame, InvalidOption,
    )  # fmt: skip
    answer(lambda: baccara.simulate("punto-banco", rounds, seed=1, progress=flag), InvalidOption)
    answer(
        lambda: baccara.simulate("lo-ball", rounds, seed=1, stop_on_interrupt=flag), InvalidOption
    )


@pytest.mark.slow
@HOSTILE
@given(rounds=any_value())
def test_simulate_any_number_of_rounds(rounds: Any) -> None:
    """Any rounds at all, read and refused or accepted; the seed after it is refused, so a
    valid long run is never dealt."""
    answer(lambda: baccara.simulate("redgreen", rounds, seed=-1), InvalidOption)


@pytest.mark.slow
@HOSTILE
@given(
    game=SOME_GAMES,
    bet=st.one_of(st.sampled_from(["main", "banker", "red", "bonus"]), any_text(), any_value()),
    seed=any_value(),
    shoe=st.one_of(st.just("reshuffle"), any_value()),
    penetration=any_value(),
    options=st.one_of(st.dictionaries(any_text(), any_value(), max_size=2), any_value()),
    keep=any_value(),
)
def test_play_sessions(
    game: Any, bet: Any, seed: Any, shoe: Any, penetration: Any, options: Any, keep: Any
) -> None:
    """A short night (5 sessions of 5 hands) with anything else as it comes."""
    answer(
        lambda: baccara.play_sessions(game, bet, hands=5, sessions=5, seed=seed, shoe=shoe,
                                      penetration=penetration, options=options,
                                      keep_paths=keep).summary(),
        UnknownGame, InvalidBet, InvalidOption,
    )  # fmt: skip


@pytest.mark.slow
@HOSTILE
@given(stake=any_value(), bankroll=any_value(), hands=any_value(), sessions=any_value())
def test_play_sessions_any_plan(stake: Any, bankroll: Any, hands: Any, sessions: Any) -> None:
    """Any stake, bankroll, hands and sessions, read and refused or accepted; the paths
    asked for after them are refused, so a valid long night is never played."""
    answer(
        lambda: baccara.play_sessions("punto-banco", "tie", stake_cents=stake,
                                      bankroll_cents=bankroll, hands=hands, sessions=sessions,
                                      keep_paths=-1),
        InvalidBet, InvalidOption,
    )  # fmt: skip


@pytest.mark.slow
@HOSTILE
@given(
    game=st.one_of(st.sampled_from(["punto-banco", "lo-ball"]), any_text(), any_value()),
    variants=st.one_of(
        any_value(),
        st.lists(st.tuples(any_value(), st.dictionaries(any_text(), any_value(), max_size=2)),
                 max_size=2),
        st.lists(st.tuples(any_value(), any_value()), max_size=2),
    ),
    options=st.dictionaries(st.sampled_from(["decks", "win-pays", "tie_pays"]), any_value(),
                            max_size=2),
)  # fmt: skip
def test_compare_variants_given_anything(game: Any, variants: Any, options: dict[str, Any]) -> None:
    """Variants as values of any type, or as named options of any type; a variant that
    cannot be made (no name) raises BaccaraError, which is all a Variant promises."""

    def call() -> Any:
        given = variants
        if isinstance(given, list) and all(isinstance(v, tuple) for v in given):
            given = [baccara.Variant(name, opts) for name, opts in given]
        return baccara.compare_variants(game, given, **options).to_dict()

    answer(call, BaccaraError)
    answer(lambda: baccara.compare_variants(game, variants, **options).to_dict(),
           UnknownGame, InvalidOption)  # fmt: skip


@pytest.mark.slow
@HOSTILE
@given(
    game=st.one_of(st.sampled_from(["punto-banco", "lo-ball"]), any_text(), any_value()),
    sizes=st.one_of(any_value(), st.lists(any_value(), max_size=3)),
    options=st.dictionaries(st.sampled_from(["decks", "commission", "tie-pays"]), any_value(),
                            max_size=2),
)  # fmt: skip
def test_edges_by_decks(game: Any, sizes: Any, options: dict[str, Any]) -> None:
    sweep = answer(
        lambda: getattr(baccara.edges_by_decks(game, sizes, **options), "decks", None),
        UnknownGame, InvalidOption,
    )  # fmt: skip
    assert sweep is None or all(isinstance(n, int) and 1 <= n <= 100 for n in sweep)


def test_no_refusal_hides_a_float_overflow() -> None:
    """Huge pays are refused before anything turns them into a float."""
    for value in (1e308, 10**400, Fraction(10**400, 3), "1e400"):
        with pytest.raises(InvalidOption):
            baccara.analyze("lo-ball", win_pays=value)
    assert math.isfinite(float(baccara.analyze("lo-ball", win_pays=1000).bet("main").house_edge))


# --- the live table and its provably-fair records ---------------------------------------


@pytest.mark.slow
@HOSTILE
@given(seed=any_value(), client=any_value(), nonce=any_value(), n=any_value())
def test_provably_fair_functions(seed: Any, client: Any, nonce: Any, n: Any) -> None:
    """Every function of baccara.fair, called with anything, returns or raises InvalidOption."""
    from baccara.fair import (
        FairRandom,
        check_client_seed,
        check_nonce,
        parse_server_seed,
        seed_hash,
    )

    answer(lambda: parse_server_seed(seed), InvalidOption)
    answer(lambda: seed_hash(seed), InvalidOption)
    answer(lambda: check_client_seed(client), InvalidOption)
    answer(lambda: check_nonce(nonce), InvalidOption)
    answer(lambda: FairRandom(bytes(32), "alice", 1).randbelow(n), InvalidOption)
    answer(lambda: FairRandom(seed, client, nonce).randbelow(52), InvalidOption)


@pytest.mark.slow
@HOSTILE
@given(
    game=st.one_of(st.sampled_from(list(GAMES)), any_value()),
    low=any_value(),
    high=any_value(),
    fields=st.dictionaries(
        st.sampled_from(["mode", "options", "seats", "shoe", "penetration", "betting_seconds",
                         "peek_seconds", "choose_seconds", "reveal_delay"]),
        any_value(),
        max_size=3,
    ),
)  # fmt: skip
def test_table_config(game: Any, low: Any, high: Any, fields: dict[str, Any]) -> None:
    from baccara.table import TableConfig

    answer(lambda: repr(TableConfig(game, low, high, **fields)), UnknownGame, InvalidOption)
    answer(lambda: repr(TableConfig("punto-banco", 100, 1000, **fields)), InvalidOption)


@pytest.mark.slow
@HOSTILE
@given(data=st.dictionaries(any_text(), any_value(), max_size=4), record=any_value())
def test_verify_record(data: dict[str, Any], record: Any) -> None:
    """Any record: a verification, or InvalidRecord, InvalidOption or UnknownGame."""
    from baccara.table.record import InvalidRecord, verify_record

    documented = (InvalidRecord, InvalidOption, UnknownGame)
    answer(lambda: verify_record(record).ok, *documented)
    answer(lambda: verify_record({"game": "lo-ball", **data}).ok, *documented)


@pytest.mark.slow
@HOSTILE
@given(
    game=st.one_of(st.sampled_from(list(GAMES)), any_value()),
    name=any_value(),
    options=st.one_of(st.dictionaries(any_text(), any_value(), max_size=2), any_value()),
)
def test_compare_variants(game: Any, name: Any, options: Any) -> None:
    from baccara.exact.variants import compare_variants
    from baccara.games.variant import Variant

    answer(
        lambda: compare_variants(game, [Variant(name, options)]).to_dict(),
        UnknownGame,
        InvalidOption,
        BaccaraError,
    )
