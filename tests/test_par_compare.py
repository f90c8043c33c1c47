"""``baccara report GAME --compare VARIANT…``: one sheet, the variants side by side with
their deltas, and the floor plan's options reaching the sheet."""

from __future__ import annotations

import datetime
import html
import pathlib
from fractions import Fraction

import baccara
from baccara.games import game
from baccara.games.fingerprint import rules_hash
from baccara.games.variant import Variant
from baccara.render.document import Prose
from baccara.render.par_compare import compare_sheet
from baccara.render.report_data import ReportRequest
from tests.helpers import run
from tests.test_report import tables_of

DAY = datetime.date(2030, 1, 2)


def test_ez_and_no_commission_beside_classic_punto_banco() -> None:
    variants = (
        Variant("ez", {"variant": "ez"}, "EZ Baccarat"),
        Variant("no-commission", {"variant": "no-commission"}, "No-Commission"),
    )
    sheet = compare_sheet(ReportRequest("punto-banco", date=DAY, revision=3), variants)
    table = sheet.tables()["compare"]
    assert table.columns == ("Figure", "as given", "ez", "Δ", "no-commission", "Δ")
    rows = {row[0]: row for row in table.rows}
    classic = baccara.analyze("punto-banco").bet("banker").house_edge
    for column, name in ((2, "ez"), (4, "no-commission")):
        edge = baccara.analyze("punto-banco", variant=name).bet("banker").house_edge
        shown, delta = rows["Banker: house edge"][column : column + 2]
        assert shown == f"{float(edge):.4%}"
        assert delta == ("+" if edge > classic else "") + f"{float(edge - classic) * 100:.4f} pp"
    control = dict(sheet.tables()["control"].rows)
    assert control["Revision"] == "3" and control["Date"] == "2030-01-02"
    ez = game("punto-banco").rules_from_options(variant="ez")
    assert control["Rules hash: ez"] == rules_hash(ez, "punto-banco")
    assert control["Command"] == (
        "baccara report punto-banco --compare ez --compare no-commission --revision 3 --date 2030-01-02"
    )


def test_a_side_bet_one_column_has_shows_a_dash_in_the_others() -> None:
    variants = (Variant("dragon", {"sidebets": "dragon-7"}, "with Dragon 7"),)
    sheet = compare_sheet(ReportRequest("punto-banco", date=DAY), variants)
    rows = {row[0]: row for row in sheet.tables()["compare"].rows}
    assert rows["Dragon 7: house edge"][1] == "—" and rows["Dragon 7: house edge"][3] == "—"
    dragon = baccara.analyze("punto-banco", sidebets="dragon-7").bet("dragon-7").house_edge
    assert rows["Dragon 7: house edge"][2] == f"{float(dragon):.4%}"


def test_the_command_writes_one_comparison_sheet(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "compare.html"
    ran = run("report", "lo-ball", "--compare", "win-bonus-2", "--compare", "lo8:lo-hi-pays=8",
              "--seats", "4", "--hands-per-hour", "25", "--date", "2030-01-02",
              "--out", str(out))  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("Lo-Ball comparison of 2 variants")
    page = tables_of(out.read_text(encoding="utf-8"))
    header = page.tables["compare"][0]
    assert header == ["Figure", "as given", "win-bonus-2", "Δ", "lo8", "Δ"]
    control = {row[0]: html.unescape(row[1]) for row in page.tables["control"][1:]}
    assert control["Command"] == (
        "baccara report lo-ball --hands-per-hour 25 --seats 4 --compare win-bonus-2"
        " --compare lo8:lo-hi-pays=8 --revision 1 --date 2030-01-02"
    )
    rows = {row[0]: row for row in page.tables["compare"][1:]}
    main = baccara.analyze("lo-ball").bet("main")
    per_seat = 25 * 2_500 * main.house_edge / 100
    assert abs(
        Fraction(rows["Main: win an hour, a seat"][1].replace(",", "")) - per_seat
    ) <= Fraction(1, 200)
    lo = baccara.analyze("lo-ball", lo_hi_pays=8).bet("lo-card").house_edge
    assert rows["Lo-Card: house edge"][4] == f"{float(lo):.4%}"


def test_the_floor_plan_reaches_the_sheet_and_its_command(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "pb.html"
    ran = run("report", "punto-banco", "--sessions", "200", "--average-bet", "100",
              "--max-bet", "2500", "--drop-to-handle", "0.25", "--week-hours", "40",
              "--revision", "2", "--date", "2030-01-02", "--out", str(out))  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    text = html.unescape(out.read_text(encoding="utf-8"))
    page = tables_of(text)
    assumed = {row[0]: row for row in page.tables["assumptions"][1:]}
    assert assumed["Average bet"][1:] == ["100.00", "given with --average-bet"]
    assert assumed["Drop"][1:] == ["25% of the handle", "given with --drop-to-handle"]
    assert assumed["A week's play"][1] == "40 hours (2,880 hands)"
    assert assumed["Pace"][2].startswith("assumption")
    command = dict((row[0], row[1]) for row in page.tables["control"][1:])["Command"]
    assert command == (
        "baccara report punto-banco --average-bet 100.00 --max-bet 2500.00 --week-hours 40"
        " --drop-to-handle 0.25 --bet banker --sessions 200 --seed 1 --revision 2 --date 2030-01-02"
    )
    liability = {row[0]: row for row in page.tables["liability"][1:]}
    assert liability["Tie"][2] == "20,000.00"  # 8 to 1 on the 2,500.00 maximum
    banker = baccara.analyze("punto-banco").bet("banker").house_edge
    operations = {row[0]: row for row in page.tables["operations"][1:]}
    assert operations["Banker"][4] == f"{float(banker * 4):.2%}"


def test_refusals_come_at_once_in_one_line(tmp_path: pathlib.Path) -> None:
    for args, said in (
        (["--compare", "nonsense"], "--compare: 'nonsense' is not a variant of Punto Banco"),
        (["--seats", "8"], "--seats: must be between 1 and 7"),
        (["--max-bet", "0.50"], "--max-bet: must be from 1.00"),
        (["--drop-to-handle", "2"], "--drop-to-handle: must be in (0, 1]"),
        (["--date", "2026-02-30"], "--date: wants a date as YYYY-MM-DD"),
        (["--revision", "0"], "--revision"),
    ):
        ran = run("report", "punto-banco", *args, "--out", str(tmp_path / "x.html"))
        assert ran.returncode == 2 and said in ran.stderr, (args, ran.stderr)
        assert len(ran.stderr.strip().splitlines()) == 1 and not (tmp_path / "x.html").exists()


def test_the_printed_command_writes_the_same_sheet_again(tmp_path: pathlib.Path) -> None:
    """Rules given with --option, a rule set and a spelled-out variant: the command the sheet
    prints, run as it is printed, writes the same sheet."""
    import shlex

    first = tmp_path / "first.html"
    ran = run("report", "punto-banco", "-o", "variant=ez", "-o", "tie-pays=9", "--compare",
              "no-commission", "--compare", "c4:commission=4", "--average-bet", "30",
              "--date", "2030-01-02", "--out", str(first))  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    page = tables_of(first.read_text(encoding="utf-8"))
    command = {row[0]: html.unescape(row[1]) for row in page.tables["control"][1:]}["Command"]
    assert command == (
        "baccara report punto-banco --option tie-pays=9 --option variant=ez --average-bet 30.00"
        " --compare no-commission --compare c4:commission=4 --revision 1 --date 2030-01-02"
    )
    again = tmp_path / "again.html"
    argv = shlex.split(command)
    assert run(*argv[1:], "--out", str(again)).returncode == 0
    assert again.read_text(encoding="utf-8") == first.read_text(encoding="utf-8")


def test_a_comparison_sheet_plays_no_sessions(tmp_path: pathlib.Path) -> None:
    ran = run("report", "lo-ball", "--compare", "win-bonus-2", "--sessions", "10",
              "--out", str(tmp_path / "x.html"))  # fmt: skip
    assert ran.returncode == 2
    assert (
        "--sessions: sets the bankroll sessions, which a --compare sheet does not play"
        in ran.stderr
    )


def test_a_variant_giving_the_player_the_edge_is_said_on_the_comparison_sheet() -> None:
    """Lo-Card and Hi-Card at 8 to 1: the tile is in the seat's hand 3 times in 28, among
    the 3 exposed (a push) 3 in 28, else lost: 8·3/28 − 22/28 = 1/14 to the player."""
    lo_hi_8 = Variant("lo-hi-8", {"lo_hi_pays": "8"}, "Lo-Card and Hi-Card at 8 to 1")
    sheet = compare_sheet(ReportRequest("lo-ball", date=DAY), (lo_hi_8,))
    said = [b.text for b in sheet.blocks if isinstance(b, Prose) and b.text.startswith("Under")]
    edge = f"{float(Fraction(-1, 14)):.4%}"
    assert said == [
        f"Under lo-hi-8, Lo-Card gives the player the edge: the house edge is {edge}.",
        f"Under lo-hi-8, Hi-Card gives the player the edge: the house edge is {edge}.",
    ]
