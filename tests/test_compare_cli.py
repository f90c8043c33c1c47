"""``baccara compare GAME --variant NAME:KEY=VALUE,…`` as a user runs it."""

from __future__ import annotations

import json
import pathlib
from fractions import Fraction

import pytest

from baccara import analyze, load_paytable
from tests.helpers import assert_refused, run


def compare_json(*args: str) -> dict[str, object]:
    result = run("compare", *args, "--json")
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_each_variant_moves_the_edges_the_analysis_gives() -> None:
    data = compare_json(
        "punto-banco", "--variant", "c4:commission=4", "--variant", "both:commission=4,tie-pays=9"
    )
    variants = {v["name"]: v for v in data["variants"]}  # type: ignore[attr-defined]
    both = analyze("punto-banco", commission=4, tie_pays=9)
    for bet in ("banker", "tie", "player"):
        cell = variants["both"]["bets"][bet]
        assert Fraction(cell["house_edge_exact"]) == both.bet(bet).house_edge
    base_tie = analyze("punto-banco").bet("tie").house_edge
    assert Fraction(variants["both"]["bets"]["tie"]["change_exact"]) == (
        both.bet("tie").house_edge - base_tie
    )
    assert variants["c4"]["set"] == {"commission": "4"}
    assert variants["c4"]["bets"]["tie"]["change"] == 0


def test_the_table_shows_edge_and_change_per_variant() -> None:
    result = run("compare", "lo-ball", "--variant", "wb2:win-bonus-pays=2")
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("│")]
    cells = [[c.strip() for c in row.split("│")[1:-1]] for row in rows]
    assert cells[0] == ["Variant", "main", "lo-card", "hi-card", "dice-lo", "dice-hi"]
    assert cells[1][:2] == ["as given", "2.5646%"]
    assert cells[2][:3] == ["wb2", "1.2106%", "3.5714%"]  # 45607/3767400, as in the README
    assert cells[3][:2] == ["", "-1.35405"]  # its change, in percentage points
    assert "wb2: win-bonus-pays=2" in result.stdout


def test_without_variants_the_usual_ones_are_compared() -> None:
    data = compare_json("redgreen")
    names = [v["name"] for v in data["variants"]]  # type: ignore[attr-defined]
    assert names[:3] == ["commission-4", "never-split-aces", "never-split-kings"]
    assert "bonus-3k-3" in names


def test_base_options_apply_to_every_variant() -> None:
    data = compare_json("punto-banco", "--option", "decks=6", "--variant", "c4:commission=4")
    assert data["options"]["decks"] == 6  # type: ignore[index]
    (variant,) = data["variants"]  # type: ignore[misc]
    assert round(variant["bets"]["banker"]["house_edge"] * 100, 4) == 0.5972


def test_a_paytable_file_is_a_variant(tmp_path: pathlib.Path) -> None:
    table = tmp_path / "rich.toml"
    table.write_text('name = "rich"\n[pays]\nfull_house = 10\nflush = 9\nstraight = 9\n')
    data = compare_json("redgreen", "--variant", f"rich:paytable={table}")
    (variant,) = data["variants"]  # type: ignore[misc]
    assert variant["set"] == {"paytable": "rich"}
    assert variant["bets"]["red"]["change"] == 0
    rich = analyze("redgreen", paytable=load_paytable(table)).bet("bonus")
    assert Fraction(variant["bets"]["bonus"]["house_edge_exact"]) == rich.house_edge


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["punto-banco", "--variant", "tie-pays=9"], "--variant: wants NAME:KEY=VALUE"),
        (["punto-banco", "--variant", "t9:"], "--variant: wants NAME:KEY=VALUE"),
        (["punto-banco", "--variant", "t9:tie-pays"], "--variant: wants NAME:KEY=VALUE"),
        (
            ["punto-banco", "--variant", "t9:tie-pays=lots"],
            "variant t9: tie-pays: must be a number",
        ),
        (["punto-banco", "-v", "a:decks=6", "-v", "a:decks=4"], "two variants are named 'a'"),
        (["lo-ball", "--variant", "d:decks=6"], "variant d: decks: not an option of lo-ball"),
        (["chemin-de-fer"], "unknown game 'chemin-de-fer'"),
    ],
)
def test_bad_variants_are_refused(args: list[str], message: str) -> None:
    assert_refused(run("compare", *args), message)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["punto-banco", "-v", "x:decks=6,decks=4"], "variant x: decks: given twice (--variant"),
        (["punto-banco", "-v", "x:tie_pays=6,tie-pays=4"], "variant x: tie-pays: given twice"),
        (["punto-banco", "-v", "x:decks=6,bogus"], "--variant: wants NAME:KEY=VALUE"),
        (["punto-banco", "-v", "x:=6"], "--variant: wants NAME:KEY=VALUE"),
        (["punto-banco", "-v", "x" * 41 + ":decks=6"], "--variant: a name is at most 40"),
        (["punto-banco", *[f"-v=v{i}:decks={i}" for i in range(1, 22)]], "at most 20 variants"),
        (["punto-banco", "-v", "x:decks=1e999999999"], "variant x: decks: must be between"),
        (["redgreen", "-v", "x:paytable=/dev/zero"], "paytable '/dev/zero': not a regular file"),
        (["punto-banco", "-o", "decks=4", "-o", "decks=6"], "decks: given twice (--option"),
    ],
)
def test_variants_are_read_as_strictly_as_options(args: list[str], message: str) -> None:
    """A key given twice in one variant was reported as a malformed variant."""
    assert_refused(run("compare", *args), message)


def test_names_with_markup_or_escape_codes_are_printed_as_text(tmp_path: pathlib.Path) -> None:
    """``[/bold]`` as a variant's or a paytable's name was a MarkupError; an escape code
    reached the terminal raw."""
    table = tmp_path / "evil.toml"
    table.write_text('name = "[/bold]\\u001b[31m"\n[pays]\nflush = 8\n')
    result = run("compare", "redgreen", "-o", f"paytable={table}", "-v", "[/i]\x1b[2J:decks=6")
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout
    assert "paytable=[/bold]\\x1b[31m" in result.stdout and "[/i]\\x1b[2J" in result.stdout
