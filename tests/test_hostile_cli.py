"""Every option of every command, fed what a hostile user types (issue 15).

Each test draws values for one option — random text, huge and tiny exponents, digit
strings past Python's 4,300-digit limit, random bytes as paytable files — and runs
the command in a forked copy of this process that is killed if it hangs. The outcome
must be one of two:

* a refusal: exit 2, nothing on stdout, one line on stderr, within a second;
* a correct result: the value the library reads from the same text, used — the
  analysis equal to :func:`baccara.analyze`'s, a simulation reporting that seed, those
  rounds, that stake.

Never a traceback, never a hang, never a wrong answer with exit 0.
"""

from __future__ import annotations

import json
import pathlib
import tempfile
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import baccara
from baccara.cards import ShoeMode, check_penetration
from baccara.games import GAMES
from baccara.money import MAX_BANKROLL_CENTS, MAX_STAKE_CENTS, parse_amount
from baccara.options import as_int, option_name
from baccara.paytables import load_paytable
from baccara.randomness import check_seed
from baccara.sim.rng_bounds import check_decks, check_shuffles
from baccara.sim.rng_bounds import check_workers as check_rng_workers
from baccara.sim.runs import check_rounds, check_workers
from tests.hostile import any_text, file_name, lines_of_input, number_text
from tests.hostile_run import HOSTILE, api, outcome, read, strict_json, warm


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    warm()


# --- analyze -----------------------------------------------------------------------------

RULE_FLAGS = ["decks", "commission", "tie_pays"]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "field"), [(g, f) for g in GAMES for f in RULE_FLAGS])
@HOSTILE
@given(value=number_text())
def test_analyze_rule_flags(game: str, field: str, value: str) -> None:
    """A flag's value is read as the API reads it: both refuse, or both give the same analysis."""
    ran = outcome("analyze", game, f"--{option_name(field)}", value, "--json")
    expected = api(lambda: baccara.analyze(game, **{field: value}).to_dict())
    if expected is None:
        assert ran.returncode == 2
    else:
        assert ran.returncode == 0 and strict_json(ran.stdout) == expected


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "field"), [(g, f) for g, spec in GAMES.items() for f in spec.rules.OPTIONS]
)
@HOSTILE
@given(value=st.one_of(number_text(), any_text()))
def test_analyze_every_rule_option(game: str, field: str, value: str) -> None:
    ran = outcome("analyze", game, "--option", f"{option_name(field)}={value}", "--json")
    expected = api(lambda: baccara.analyze(game, **{option_name(field): value.strip()}).to_dict())
    if expected is None:
        assert ran.returncode == 2
    else:
        assert ran.returncode == 0 and strict_json(ran.stdout) == expected


@pytest.mark.slow
@pytest.mark.parametrize("game", ["punto-banco", "lo-ball"])
@HOSTILE
@given(value=st.one_of(number_text(), any_text()))
def test_analyze_at_any_stake(game: str, value: str) -> None:
    """A stake is read as an amount (``parse_amount``): refused in one line, or the same
    analysis at that stake as the API's."""
    ran = outcome("analyze", game, "--stake", value, "--json")
    cents = read(lambda: parse_amount(value, "--stake"))
    if cents is None:
        assert ran.returncode == 2 and "--stake" in ran.stderr
    else:
        expected = api(lambda: baccara.analyze_at_stake(game, cents).to_dict())
        assert ran.returncode == 0 and strict_json(ran.stdout) == expected


@pytest.mark.slow
@HOSTILE
@given(game=any_text(), key=any_text(), value=any_text())
def test_analyze_any_game_any_option(game: str, key: str, value: str) -> None:
    ran = outcome("analyze", "-o", f"{key}={value}", "--", game)
    if game not in GAMES:
        assert ran.returncode == 2 and "unknown game" in ran.stderr


@pytest.mark.slow
@pytest.mark.parametrize("game", ["punto-banco", "lo-ball"])
@HOSTILE
@given(value=number_text())
def test_effect_of_removal_options(game: str, value: str) -> None:
    field = "decks" if game == "punto-banco" else "win_pays"
    ran = outcome(
        "analyze", game, "--effect-of-removal", "-o", f"{option_name(field)}={value}", "--json"
    )
    expected = api(lambda: baccara.effect_of_removal(game, **{field: value.strip()}).to_dict())
    if expected is None:
        assert ran.returncode == 2
    else:
        assert ran.returncode == 0 and strict_json(ran.stdout) == expected


# --- simulate ----------------------------------------------------------------------------

BASE = ("simulate", "punto-banco", "--seed", "1", "--json")
SESSIONS = (*BASE, "--bet", "banker", "--sessions", "40", "--hands", "20")
COUNT = ("simulate", "punto-banco", "--count", "tie", "--rounds", "3000", "--seed", "1", "--json")

SMALL = 20_000
"""A valid size above this is real work, not a hang: the tests leave it out."""


def _small_or_refused(value: str, parse: Callable[[], int]) -> int | None:
    number = read(parse)
    assume(number is None or number <= SMALL)
    return number


@pytest.mark.slow
@HOSTILE
@given(value=number_text())
def test_simulate_rounds(value: str) -> None:
    number = _small_or_refused(value, lambda: check_rounds(value))
    ran = outcome(*BASE, "--rounds", value)
    assert ran.returncode == (2 if number is None else 0)
    if number is not None:
        assert strict_json(ran.stdout)["rounds"] == number


@pytest.mark.slow
@pytest.mark.parametrize(
    ("flag", "parse", "key"),
    [
        ("--seed", check_seed, "seed"),
        ("--workers", check_workers, "workers"),
    ],
)
@HOSTILE
@given(value=number_text())
def test_simulate_numbers(flag: str, parse: Callable[[str], int], key: str, value: str) -> None:
    number = read(lambda: parse(value))
    ran = outcome(*BASE, "--rounds", "2000", flag, value)
    assert ran.returncode == (2 if number is None else 0)
    if number is not None:
        assert strict_json(ran.stdout)[key] == number


@pytest.mark.slow
@HOSTILE
@given(value=st.one_of(any_text(), st.sampled_from(["continuous", " Reshuffle ", "CONTINUOUS"])))
def test_simulate_shoe(value: str) -> None:
    shoe = read(lambda: ShoeMode.parse(value))
    ran = outcome(*BASE, "--rounds", "2000", "--shoe", value)
    assert ran.returncode == (2 if shoe is None else 0)
    if shoe is not None:
        assert strict_json(ran.stdout)["shoe"] == shoe.value


@pytest.mark.slow
@HOSTILE
@given(value=number_text())
def test_simulate_penetration(value: str) -> None:
    """Any penetration a continuous shoe is given, down to a cut card before the first card."""
    share = read(lambda: check_penetration(value))
    ran = outcome(*BASE, "--rounds", "2000", "--shoe", "continuous", "--penetration", value)
    assert ran.returncode == (2 if share is None else 0)
    if share is not None:
        assert strict_json(ran.stdout)["penetration"] == share


@pytest.mark.slow
@HOSTILE
@given(value=number_text())
def test_simulate_rule_option(value: str) -> None:
    decks = read(lambda: as_int("decks", value, 1, 100))
    ran = outcome(*BASE, "--rounds", "2000", "-o", f"decks={value}")
    assert ran.returncode == (2 if decks is None else 0)
    if decks is not None:
        assert strict_json(ran.stdout)["options"]["decks"] == decks


@pytest.mark.slow
@HOSTILE
@given(value=st.one_of(any_text(), st.sampled_from(GAMES["punto-banco"].bet_ids)))
def test_simulate_bet(value: str) -> None:
    bet = read(lambda: GAMES["punto-banco"].parse_bet(value).value)
    ran = outcome(*BASE, "--bet", value, "--sessions", "40", "--hands", "20")
    assert ran.returncode == (2 if bet is None else 0)
    if bet is not None:
        assert strict_json(ran.stdout)["bet"] == bet


@pytest.mark.slow
@pytest.mark.parametrize(
    ("flag", "maximum", "key"),
    [("--stake", MAX_STAKE_CENTS, "stake"), ("--bankroll", MAX_BANKROLL_CENTS, "bankroll")],
)
@HOSTILE
@given(value=number_text())
def test_simulate_amounts(flag: str, maximum: int, key: str, value: str) -> None:
    cents = read(lambda: parse_amount(value, flag, maximum))
    ran = outcome(*SESSIONS, flag, value)
    if cents is None:
        assert ran.returncode == 2
    elif ran.returncode == 0:  # unless the bankroll does not cover the stake
        assert strict_json(ran.stdout)[key] == cents


@pytest.mark.slow
@pytest.mark.parametrize("flag", ["--hands", "--sessions"])
@HOSTILE
@given(value=number_text())
def test_simulate_session_sizes(flag: str, value: str) -> None:
    number = _small_or_refused(value, lambda: as_int(flag, value, 1, 10_000_000))
    ran = outcome(
        *BASE,
        "--bet",
        "tie",
        flag,
        value,
        *(["--sessions", "30"] if flag == "--hands" else ["--hands", "30"]),
    )
    assert ran.returncode == (2 if number is None else 0)
    if number is not None:
        assert strict_json(ran.stdout)[flag.removeprefix("--")] == number


@pytest.mark.slow
@HOSTILE
@given(name=file_name())
def test_simulate_plot_destination(name: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        ran = outcome(*SESSIONS, "--plot", name, cwd=folder)
        if ran.returncode == 0:
            assert (pathlib.Path(folder) / name).stat().st_size > 0


@pytest.mark.slow
@HOSTILE
@given(value=st.one_of(any_text(), st.sampled_from(GAMES["punto-banco"].bet_ids)))
def test_simulate_count_bet(value: str) -> None:
    ran = outcome(*COUNT[:3], "--count", value, *COUNT[5:])
    if ran.returncode == 0:
        assert strict_json(ran.stdout)["bet"] == GAMES["punto-banco"].parse_bet(value).value


@pytest.mark.slow
@pytest.mark.parametrize("flag", ["--level", "--penetration"])
@HOSTILE
@given(value=number_text())
def test_simulate_count_numbers(flag: str, value: str) -> None:
    """Strict JSON however few rounds reach a threshold (a tiny penetration made NaN)."""
    ran = outcome(*COUNT, flag, value)
    if ran.returncode == 0:
        data = strict_json(ran.stdout)
        if flag == "--level":
            assert data["level"] == as_int("level", value, 1, 10)
        else:
            assert data["penetration"] == check_penetration(value)


PLAIN = (*BASE, "--rounds", "1000")
SESSION_RUN = (*BASE, "--bet", "banker", "--sessions", "10", "--hands", "10")


@pytest.mark.parametrize(
    ("base", "flags", "acts"),
    [
        (PLAIN, ["--workers", "2"], True),
        (SESSION_RUN, ["--workers", "2"], False),
        (COUNT, ["--workers", "2"], False),
        (PLAIN, ["--level", "2"], False),
        (SESSION_RUN, ["--level", "2"], False),
        (COUNT, ["--level", "2"], True),
        (PLAIN, ["--penetration", "0.5"], False),
        (PLAIN, ["--shoe", "continuous", "--penetration", "0.5"], True),
        (SESSION_RUN, ["--penetration", "0.5"], False),
        (COUNT, ["--penetration", "0.5"], True),
        (PLAIN, ["--stake", "5"], False),
        (COUNT, ["--stake", "5"], False),
        (SESSION_RUN, ["--stake", "5"], True),
        (SESSION_RUN, ["--rounds", "5"], False),
        (PLAIN, ["-o", "decks=6", "-o", "decks=4"], False),
        (PLAIN, ["-o", "decks=6", "-o", "tie-pays=4"], True),
        (PLAIN, ["-o", "tie_pays=6", "-o", "tie-pays=4"], False),
    ],
)
def test_a_flag_acts_or_is_refused(base: tuple[str, ...], flags: list[str], acts: bool) -> None:
    """In a plain run, a session run and a count run, every flag either acts or is refused:
    ``--workers`` in a run dealt in one process, ``--level`` without a count, a cut card
    in a reshuffled shoe, a key given twice (issue 15)."""
    ran = outcome(*base, *flags)
    assert ran.returncode == (0 if acts else 2), ran.stderr


# --- houseway ---------------------------------------------------------------------------


@pytest.mark.slow
@HOSTILE
@given(
    cards=st.lists(
        st.one_of(any_text(), st.sampled_from(["A", "K", "7", "10", "t"])), min_size=1, max_size=4
    )
)
def test_houseway_hand(cards: list[str]) -> None:
    from baccara.games.redgreen import RedGreenRules
    from baccara.render.houseway import lookup

    expected = read(lambda: lookup(cards, RedGreenRules()))
    ran = outcome("houseway", "--", *cards)
    if expected is None:
        assert ran.returncode == 2
    else:
        assert ran.stdout == expected + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("flag", ["--rounds", "--seed"])
@HOSTILE
@given(value=number_text())
def test_houseway_drill(flag: str, value: str) -> None:
    ran = outcome("houseway", "--quiz", flag, value, stdin="up\n" * 1000)
    if ran.returncode == 0:
        assert ran.stdout.splitlines()[-1].startswith("Score: ")


@pytest.mark.slow
@HOSTILE
@given(key=any_text(), value=any_text())
def test_houseway_option(key: str, value: str) -> None:
    outcome("houseway", "A", "A", "K", "-o", f"{key}={value}")


@pytest.mark.slow
@HOSTILE
@given(answers=st.one_of(st.binary(max_size=200), lines_of_input()))
def test_houseway_drill_answers(answers: bytes) -> None:
    """Any bytes as the drill's answers: a score, or one line saying why it stopped."""
    ran = outcome("houseway", "--quiz", "--rounds", "3", "--seed", "1", stdin=answers,
                  dialogue=True)  # fmt: skip
    if ran.returncode == 0:
        assert ran.stdout.splitlines()[-1].startswith("Score: ")


# --- paytables ---------------------------------------------------------------------------


@pytest.mark.slow
@HOSTILE
@given(name=any_text(), decks=number_text())
def test_paytable_show(name: str, decks: str) -> None:
    ran = outcome("paytable", "show", name, "--decks", decks)
    if ran.returncode == 0:
        assert "house edge" in ran.stdout


@pytest.mark.slow
@HOSTILE
@given(data=st.binary(max_size=300))
def test_random_bytes_as_a_paytable(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "random.toml"
        path.write_bytes(data)
        shown = outcome("paytable", "show", str(path))
        analysed = outcome("analyze", "redgreen", "-o", f"paytable={path}", "--json")
        table = read(lambda: load_paytable(path))
        assert shown.returncode == analysed.returncode == (2 if table is None else 0)


_CATEGORY = st.sampled_from([c.value for c in baccara.games.bonus.CATEGORIES] + ["broadway", ""])
_TOML_VALUE = st.one_of(
    number_text().filter(lambda t: t.strip() and "\\" not in t).map(lambda t: t.strip()),
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(['"8"', "true", "[1, 2]", "{ a = 1 }", "inf", "nan", "1e308", "0.5"]),
)


@pytest.mark.slow
@HOSTILE
@given(
    pays=st.lists(st.tuples(_CATEGORY, _TOML_VALUE), min_size=1, max_size=4),
    name=any_text(),
    dotted=st.booleans(),
)
def test_paytable_files_from_a_hostile_hand(
    pays: list[tuple[str, str]], name: str, dotted: bool
) -> None:
    """Pays huge and tiny, names with markup and escape codes, dotted keys: refused at the
    right line, or shown with the name escaped."""
    lines = [f"name = {json.dumps(name)}"]
    lines += (
        [f"pays.{key} = {value}" for key, value in pays]
        if dotted
        else ["[pays]"] + [f"{key} = {value}" for key, value in pays]
    )
    text = "\n".join(lines) + "\n"
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "hostile.toml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        ran = outcome("paytable", "show", str(path))
    if ran.returncode == 2:
        assert " line 0" not in ran.stderr
    else:
        assert "\x1b" not in ran.stdout


@pytest.mark.slow
@pytest.mark.parametrize("flag", ["--target-edge", "--min-hit", "--top", "--decks"])
@settings(HOSTILE, max_examples=12)
@given(value=number_text())
def test_paytable_design(flag: str, value: str) -> None:
    if flag == "--top":
        assume(read(lambda: as_int("top", value, 1, 50)) in (None, 1, 2, 3))
    args = ["paytable", "design", "--target-edge", "4", flag, value]
    if flag == "--target-edge":
        args = ["paytable", "design", flag, value]
    ran = outcome(*args, results=(0, 1))
    if ran.returncode == 0:
        assert "Nearest" in ran.stdout
    elif ran.returncode == 1:
        assert ran.stdout.startswith("No paytable in the search meets those constraints.")


@pytest.mark.slow
@settings(HOSTILE, max_examples=12)
@given(name=file_name())
def test_paytable_design_save(name: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        ran = outcome(
            "paytable", "design", "--target-edge", "4", "--top", "1", "--save", name, cwd=folder
        )
        if ran.returncode == 0:
            saved = load_paytable(pathlib.Path(folder) / name)
            assert saved.name == "edge 4.00% design"


# --- rng-test ----------------------------------------------------------------------------

RNG = {"--shuffles": "1000", "--seed": "1"}
"""A small repeatable run, but for the option under test."""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("flag", "parse", "key"),
    [
        ("--shuffles", check_shuffles, "shuffles"),
        ("--seed", check_seed, "seed"),
        ("--decks", check_decks, "decks"),
        ("--workers", lambda v: min(check_rng_workers(v), 1), "workers"),
    ],
)
@HOSTILE
@given(value=number_text())
def test_rng_test(flag: str, parse: Callable[[str], int], key: str, value: str) -> None:
    """Each number of rng-test read as the library reads it (--workers: those one block
    of shuffles uses, not the number typed)."""
    expected = read(lambda: parse(value))
    if flag == "--shuffles":
        assume(expected is None or expected <= 2000)  # more is work, not a hang
    base = [word for option, text in RNG.items() if option != flag for word in (option, text)]
    ran = outcome("rng-test", *base, flag, value, "--json", results=(0, 1))
    assert ran.returncode in ((2,) if expected is None else (0, 1))
    if expected is not None:
        assert strict_json(ran.stdout)[key] == expected


# --- every option of every command -------------------------------------------------------

GAME_COMMANDS = ("analyze", "simulate", "compare", "report", "deal")


@pytest.mark.slow
@pytest.mark.parametrize("command", GAME_COMMANDS)
@HOSTILE
@given(game=any_text())
def test_any_game(command: str, game: str) -> None:
    assume(read(lambda: baccara.game(game)) is None)
    ran = outcome(command, "--", game)
    assert ran.returncode == 2 and "unknown game" in ran.stderr


SIMULATE_FLAGS = ("--rounds", "--seed", "--workers", "--shoe", "--penetration", "--option",
                  "--bet", "--stake", "--bankroll", "--hands", "--sessions", "--plot", "--count",
                  "--level")  # fmt: skip

FED = {
    *((command, "GAME") for command in GAME_COMMANDS),
    *(
        ("analyze", flag)
        for flag in ("--decks", "--commission", "--tie-pays", "--option", "--stake")
    ),
    *(("simulate", flag) for flag in SIMULATE_FLAGS),
    *(("houseway", flag) for flag in ("[RANK RANK RANK]", "--rounds", "--seed", "--option")),
    ("houseway", "standard input"),
    *(("rng-test", flag) for flag in ("--shuffles", "--seed", "--decks", "--workers")),
    ("paytable show", "PAYTABLE"),
    ("paytable show", "--decks"),
    *(
        ("paytable design", flag)
        for flag in ("--target-edge", "--min-hit", "--top", "--decks", "--save")
    ),
}
"""What this module feeds hostile input: (command, option or argument)."""

READ_FROM_STDIN = {("deal", "standard input"), ("houseway", "standard input"),
                   ("user add", "standard input"), ("user add-many", "standard input")}  # fmt: skip
"""The commands that read standard input: a live deal's cards, the drill, a password."""


def command_inputs() -> set[tuple[str, str]]:
    """Every option that takes a value, and every argument, of every command of the app."""
    import typer

    from baccara.cli.app import app

    found: set[tuple[str, str]] = set()

    def walk(command: Any, path: tuple[str, ...]) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))
        if hasattr(command, "commands"):
            return
        for param in command.params:
            if getattr(param, "is_flag", False):
                continue
            option = param.param_type_name == "option"
            label = max(param.opts, key=len) if option else param.metavar or param.name.upper()
            found.add((" ".join(path), label))

    walk(typer.main.get_command(app), ())
    return found | READ_FROM_STDIN


def test_every_option_of_every_command_is_fed_hostile_input() -> None:
    """A new option, argument or command needs a property test: here is what they all are."""
    from tests import (
        test_hostile_deal,
        test_hostile_report,
        test_hostile_server_cli,
        test_hostile_sidebets,
    )

    fed = (FED | test_hostile_deal.FED | test_hostile_report.FED | test_hostile_server_cli.FED
           | test_hostile_sidebets.FED)  # fmt: skip
    assert fed == command_inputs()
