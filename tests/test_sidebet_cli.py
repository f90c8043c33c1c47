"""Punto Banco side bets and rule sets at the command line: ``baccara analyze`` with
``--option variant=``, ``--option sidebets=`` and ``--sidebet FILE``, and ``baccara
paytable show``/``check`` on a side bet or rule set, shipped or a file.

The figures checked are the exact analysis's, so a command that printed a stale or
cut-short figure fails; every refusal is one line and exit status 2.
"""

from __future__ import annotations

import pathlib
import re

import pytest

from baccara.exact.coup_bets import spot_analysis
from baccara.games.coup_bets import SHIPPED, SideBet
from baccara.games.punto_banco import PuntoBancoRules
from baccara.options import fraction_text
from baccara.paytables import MAX_PAYTABLE_BYTES, file_kind, load_bet_file, load_variant
from tests import helpers
from tests.helpers import assert_refused, run

BIG_EIGHT = """\
id = "big-eight"
name = "Big Eight"
description = "A win with a three-card 8"

[[pays]]
when = { winner = "banker", banker_total = 8, banker_cards = 3 }
pays = 25

[[pays]]
when = { winner = "player", player_total = 8, player_cards = 3 }
pays = 20
"""

FOUR_PERCENT = """\
id = "four-percent"
name = "Four per cent"
commission = 4
tie_pays = 9

[[banker]]
when = { banker_total = 6, banker_cards = 3 }
pays = 0.5
"""


def _file(folder: pathlib.Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _edge_line(bet_id: str, rules: PuntoBancoRules, decks: int = 8) -> str:
    """What the summary of ``bet_id`` says its exact edge is."""
    edge = spot_analysis(bet_id, rules, decks).house_edge
    return f"(exactly {fraction_text(edge)})"


def _section(stdout: str, title: str) -> str:
    """The part of an analysis from the table titled ``title`` to the next bet's."""
    start = stdout.index(f"\n{title} ")
    following = re.search(r"\n\n[a-z0-9-]+ +\n", stdout[start + 1 :])
    return stdout[start : start + 1 + following.start()] if following else stdout[start:]


# --- baccara analyze ----------------------------------------------------------------------


def test_ez_baccarat_is_analyzed_with_its_side_bets() -> None:
    result = run("analyze", "punto-banco", "--option", "variant=ez")
    assert result.returncode == 0, result.stderr
    assert "variant=ez, sidebets=dragon-7+panda-8" in result.stdout.replace("\n", " ")
    rules = PuntoBancoRules.from_options(variant="ez")
    banker = _section(result.stdout, "banker")
    assert "Banker total 7, Banker 3 cards" in banker  # the push EZ is known for
    assert _edge_line("banker", rules) in banker
    for side in ("dragon-7", "panda-8"):
        section = _section(result.stdout, side)
        assert _edge_line(side, rules) in section
        for outcome in spot_analysis(side, rules, 8).outcomes:
            assert f"{outcome.count:,}" in section


def test_sidebets_option_adds_shipped_side_bets_after_the_main_bets() -> None:
    result = run("analyze", "punto-banco", "--option", "sidebets=dragon-7+panda-8")
    assert result.returncode == 0, result.stderr
    titles = re.findall(r"^([a-z0-9-]+) +$", result.stdout, re.MULTILINE)
    assert titles == [
        "banker",
        "player",
        "tie",
        "player-pair",
        "banker-pair",
        "dragon-7",
        "panda-8",
    ]
    assert "house edge 7.6113% (exactly 64613588827/848912750595)" in result.stdout
    assert "element of risk" in result.stdout and "hit frequency 2.2534%" in result.stdout


@pytest.mark.parametrize("columns", ["80", "100"])
def test_a_side_bet_of_many_lines_prints_every_digit(
    monkeypatch: pytest.MonkeyPatch, columns: str
) -> None:
    """A pay line's words are long; on a terminal of 80 columns the name wraps, never a
    count or a figure (Rich cut the 22-digit counts to "112,633,011,329,0…")."""
    monkeypatch.setitem(helpers.TERMINAL, "COLUMNS", columns)
    result = run("analyze", "punto-banco", "--option", "sidebets=dragon-7+dragon-bonus-banker")
    assert result.returncode == 0, result.stderr
    assert "…" not in result.stdout
    assert all(len(line) <= int(columns) for line in result.stdout.splitlines())
    rules = PuntoBancoRules.from_options(sidebets="dragon-7+dragon-bonus-banker")
    for bet in ("dragon-7", "dragon-bonus-banker"):
        section = _section(result.stdout, bet)
        analysis = spot_analysis(bet, rules, 8)
        for outcome in analysis.outcomes:
            assert f"{outcome.count:,}" in section
        assert f"{analysis.total:,}" in section
        assert _edge_line(bet, rules) in section.replace("\n", " ")
    bonus = spot_analysis("dragon-bonus-banker", rules, 8)
    assert len(bonus.outcomes) == 9  # eight lines and the loss


def test_sidebet_files_join_the_tables_side_bets(tmp_path: pathlib.Path) -> None:
    path = _file(tmp_path, "big8.toml", BIG_EIGHT)
    result = run("analyze", "punto-banco", "--option", "variant=ez", "--sidebet", path)
    assert result.returncode == 0, result.stderr
    assert "sidebets=dragon-7+panda-8+big-eight" in result.stdout.replace("\n", " ")
    bet = SideBet.from_toml(BIG_EIGHT)
    rules = PuntoBancoRules.from_options(variant="ez", sidebets=["dragon-7", "panda-8", bet])
    assert _edge_line("big-eight", rules) in _section(result.stdout, "big-eight")


def test_a_shipped_id_is_a_sidebet_too_and_json_names_it() -> None:
    result = run("analyze", "punto-banco", "--sidebet", "lucky-6", "--json")
    assert result.returncode == 0, result.stderr
    assert '"sidebets": [\n      "lucky-6"\n    ]' in result.stdout
    assert '"bet": "lucky-6"' in result.stdout


def test_a_rule_set_file_sets_the_main_bets(tmp_path: pathlib.Path) -> None:
    path = _file(tmp_path, "four.toml", FOUR_PERCENT)
    result = run("analyze", "punto-banco", "--option", f"variant={path}")
    assert result.returncode == 0, result.stderr
    assert "commission=4, tie-pays=9" in result.stdout
    assert "variant=four-percent" in result.stdout
    rules = PuntoBancoRules.from_options(variant=load_variant(path))
    assert _edge_line("banker", rules) in _section(result.stdout, "banker")
    assert "│ win     │ 9 to 1 │" in _section(result.stdout, "tie")


def test_stake_and_effect_of_removal_take_side_bets() -> None:
    at_stake = run("analyze", "punto-banco", "--option", "variant=ez", "--stake", "1")
    assert at_stake.returncode == 0, at_stake.stderr
    assert "dragon-7 at 1.00" in at_stake.stdout
    removal = run("analyze", "punto-banco", "--sidebet", "dragon-7", "--effect-of-removal")
    assert removal.returncode == 0, removal.stderr
    assert "dragon-7" in removal.stdout.splitlines()[3]


# --- bad input, every class of it --------------------------------------------------------


def _bad_files(folder: pathlib.Path) -> dict[str, str]:
    malformed = "id = 'x'\nname = 'X'\n[[pays\n"
    unknown_term = "id = 'x'\nname = 'X'\n[[pays]]\nwhen = { winer = 'banker' }\npays = 2\n"
    return {
        "missing": str(folder / "no-such.toml"),
        "folder": str(folder),
        "malformed": _file(folder, "malformed.toml", malformed),
        "unknown term": _file(folder, "term.toml", unknown_term),
        "negative": _file(
            folder,
            "neg.toml",
            unknown_term.replace("winer", "winner").replace("pays = 2", "pays = -2"),
        ),
        "not UTF-8": _write_bytes(folder / "latin.toml", b"name = '\xe9'\n"),
        "too large": _file(folder, "large.toml", "# " + "x" * MAX_PAYTABLE_BYTES + "\n"),
        "rule set": _file(folder, "four.toml", FOUR_PERCENT),
        "side bet": _file(folder, "big8.toml", BIG_EIGHT),
        "clone of dragon-7": _file(
            folder, "my7.toml", (SHIPPED.sidebets["dragon-7"].to_toml().replace("40", "45"))
        ),
        "unknown offer": _file(
            folder, "offer.toml", FOUR_PERCENT.replace("tie_pays = 9", 'sidebets = ["dragon-8"]')
        ),
    }


def _write_bytes(path: pathlib.Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize(
    ("case", "flag", "message"),
    [
        ("missing", "--sidebet", "no side bet file '"),
        ("folder", "--sidebet", "cannot read side bet '"),
        ("/dev/zero", "--sidebet", "cannot read side bet '/dev/zero': not a regular file"),
        ("malformed", "--sidebet", "malformed.toml: not a TOML side bet: Expected ']]'"),
        ("unknown term", "--sidebet", "term.toml line 4 ([[pays]] number 1): when: unknown term"),
        ("negative", "--sidebet", "neg.toml line 5 ([[pays]] number 1): pays: a pay cannot be"),
        ("not UTF-8", "--sidebet", "latin.toml': not UTF-8 text"),
        ("too large", "--sidebet", "large.toml': larger than 64 KiB"),
        ("rule set", "--sidebet", "four.toml is a rule set (--option variant=FILE), not a side"),
        ("side bet", "variant", "big8.toml is a side bet (--sidebet FILE), not a rule set"),
        ("missing", "variant", "no rule set file '"),
        ("/dev/zero", "variant", "cannot read rule set '/dev/zero': not a regular file"),
        ("unknown offer", "variant", "offer.toml line 4: sidebets: 'dragon-8' is not a shipped"),
    ],
)
def test_a_bad_file_is_one_line_and_exit_2(
    tmp_path: pathlib.Path, case: str, flag: str, message: str
) -> None:
    path = _bad_files(tmp_path).get(case, case)
    args = ["--sidebet", path] if flag == "--sidebet" else ["--option", f"variant={path}"]
    assert_refused(run("analyze", "punto-banco", *args), message)


def test_a_side_bet_twice_is_refused_naming_both(tmp_path: pathlib.Path) -> None:
    files = _bad_files(tmp_path)
    twice = run(
        "analyze", "punto-banco", "--sidebet", files["side bet"], "--sidebet", files["side bet"]
    )
    assert_refused(twice, "big8.toml' (side bet 'big-eight') is offered already, by '")
    # a file may not take a shipped bet's id: "dragon-7" at 45 to 1 would read as the
    # shipped Dragon 7 in every header, record and report
    clone = run("analyze", "punto-banco", "--option", "variant=ez", "--option", "sidebets=panda-8",
                "--sidebet", files["clone of dragon-7"])  # fmt: skip
    assert_refused(clone, "id 'dragon-7' is the shipped Dragon 7's; give your side bet an id")
    shipped = run("analyze", "punto-banco", "--option", "sidebets=big", "--sidebet", "big")
    assert_refused(shipped, "--sidebet: side bet 'big' is offered already, by the rule set")


def test_sidebet_is_refused_for_other_games_and_past_the_table_limit(
    tmp_path: pathlib.Path,
) -> None:
    assert_refused(
        run("analyze", "redgreen", "--sidebet", "dragon-7"),
        "--sidebet: does not apply to redgreen",
    )
    dragon = SHIPPED.sidebets["dragon-7"].to_toml()
    flags: list[str] = []
    for number in range(3):  # the ten shipped side bets and three more
        text = dragon.replace('"dragon-7"', f'"spare-{number}"')
        flags += ["--sidebet", _file(tmp_path, f"spare-{number}.toml", text)]
    result = run("analyze", "punto-banco", "--option", f"sidebets={'+'.join(SHIPPED.sidebets)}",
                 *flags)  # fmt: skip
    assert_refused(result, "--sidebet: a table offers at most 12 side bets")


# --- baccara paytable show and check ------------------------------------------------------


def test_show_a_shipped_side_bet_in_words_then_its_figures() -> None:
    result = run("paytable", "show", "dragon-7")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].rstrip() == "Dragon 7 (dragon-7) — 8 decks"
    assert "  40 to 1: Banker wins, Banker total 7, Banker 3 cards" in lines
    assert "  anything else loses" in lines
    assert "house edge 7.6113% (exactly 64613588827/848912750595)" in result.stdout
    six = run("paytable", "show", "dragon-7", "--decks", "6")
    rules = PuntoBancoRules.from_options(sidebets="dragon-7")
    assert six.stdout.splitlines()[0].rstrip() == "Dragon 7 (dragon-7) — 6 decks"
    assert _edge_line("dragon-7", rules, 6) in six.stdout


def test_show_a_side_bet_file_with_a_push_line(tmp_path: pathlib.Path) -> None:
    text = BIG_EIGHT.replace("pays = 20", "pays = 0")
    path = _file(tmp_path, "big8.toml", text)
    result = run("paytable", "show", path)
    assert result.returncode == 0, result.stderr
    assert "  push: Player wins, Player total 8, Player 3 cards" in result.stdout.splitlines()
    rules = PuntoBancoRules(sidebets=(SideBet.from_toml(text),))
    assert _edge_line("big-eight", rules) in result.stdout


def test_show_a_rule_set_shipped_or_a_file(tmp_path: pathlib.Path) -> None:
    ez = run("paytable", "show", "ez")
    assert ez.returncode == 0, ez.stderr
    assert ez.stdout.splitlines()[:5] == [
        "EZ Baccarat (ez) — 8 decks",
        "No commission: Banker pays 1 to 1, except a Banker win with a three-card 7, which pushes",
        "Banker wins:",
        "  push: Banker total 7, Banker 3 cards",
        "  any other: 1 to 1 (0 % commission)",
    ]
    assert "Side bets offered: dragon-7, panda-8" in ez.stdout
    titles = re.findall(r"^([a-z0-9-]+) +$", ez.stdout, re.MULTILINE)
    assert titles == ["banker", "player", "tie"]
    rules = PuntoBancoRules.from_options(variant="ez")
    assert _edge_line("banker", rules) in ez.stdout
    path = _file(tmp_path, "four.toml", FOUR_PERCENT)
    four = run("paytable", "show", path, "--decks", "1")
    assert four.returncode == 0, four.stderr
    assert "  any other: 0.96 to 1 (4 % commission)" in four.stdout
    assert "Tie: 9 to 1; Banker and Player push" in four.stdout
    one_deck = PuntoBancoRules.from_options(variant=load_variant(path))
    assert _edge_line("banker", one_deck, 1) in four.stdout


def test_bonus_paytables_are_shown_as_before(tmp_path: pathlib.Path) -> None:
    path = _file(tmp_path, "bonus.toml", "name = 'mine'\n[pays]\nflush = 8\nstraight = 7\n")
    result = run("paytable", "show", path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].rstrip() == "mine — 7 decks"
    assert "house edge" in result.stdout and "Combinations" in result.stdout


def test_check_says_what_each_file_is(tmp_path: pathlib.Path) -> None:
    files = [
        _file(tmp_path, "big8.toml", BIG_EIGHT),
        _file(tmp_path, "four.toml", FOUR_PERCENT),
        _file(tmp_path, "bonus.toml", "name = 'mine'\n[pays]\nflush = 8\n"),
    ]
    result = run("paytable", "check", *files)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"{files[0]}: side bet big-eight (Big Eight), 2 pay lines",
        f"{files[1]}: rule set four-percent (Four per cent), 1 pay line",
        f"{files[2]}: Bonus paytable mine, 1 paying category",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["paytable", "show", "dragon-8"],
            "no paytable file 'dragon-8' (shipped paytables: default;",
        ),
        (["paytable", "show", "dragon-7", "--decks", "101"], "--decks: must be between 1 and 100"),
        (["paytable", "show", "default", "--decks", "65"], "--decks: must be between 1 and 64"),
        (["paytable", "show", "/dev/zero"], "cannot read paytable '/dev/zero': not a regular file"),
        (["paytable", "check", "ez", "/tmp"], "cannot read paytable '/tmp': not a regular file"),
        (["paytable", "check"], "Missing argument 'FILE...'"),
    ],
)
def test_paytable_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    assert_refused(run(*args), message)


def test_a_malformed_side_bet_file_names_its_line(tmp_path: pathlib.Path) -> None:
    files = _bad_files(tmp_path)
    for command in ("show", "check"):
        assert_refused(run("paytable", command, files["unknown term"]), "term.toml line 4")
        assert_refused(run("paytable", command, files["negative"]), "neg.toml line 5")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (BIG_EIGHT, "side bet"),
        ("id = 'x'\nname = 'X'\n", "side bet"),  # a side bet with no line yet
        (FOUR_PERCENT, "rule set"),
        ("id = 'x'\nname = 'X'\ncommission = 0\n", "rule set"),
        ("[pays]\nflush = 8\n", "paytable"),
        ("name = 'x'\n", "unknown"),
        ("[[pays\n", "unknown"),
    ],
)
def test_a_file_is_told_by_its_keys(text: str, kind: str) -> None:
    assert file_kind(text) == kind


def test_every_shipped_name_loads_as_its_kind() -> None:
    assert load_bet_file("default").__class__.__name__ == "Paytable"
    for name in SHIPPED.sidebets:
        assert load_bet_file(name) is SHIPPED.sidebets[name]
    for name in SHIPPED.variants:
        assert load_bet_file(name) is SHIPPED.variants[name]
