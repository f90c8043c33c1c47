"""The house-way cheat sheet, one-hand lookup and drill (``baccara houseway``).

Expectations come from the seed's house way (seed 000, RULES-NOTES.md "House way").
"""

from __future__ import annotations

import pytest

from baccara.cards import Rank
from baccara.errors import InvalidCards, InvalidOption
from baccara.games.redgreen import RedGreenRules
from baccara.randomness import SeededRandom
from baccara.render.houseway import (
    RANK_COMBINATIONS,
    cheat_sheet,
    drill_hands,
    lookup,
    parse_answer,
    run_drill,
    sections,
)
from tests.helpers import assert_refused, run

SEED = RedGreenRules()


def test_sheet_lists_every_rank_combination_once() -> None:
    listed = [tuple(sorted(h)) for s in sections(SEED) for h in s.hands]
    assert len(listed) == 455 == len(set(listed))
    assert set(listed) == {tuple(sorted(h)) for h in RANK_COMBINATIONS}
    sheet = cheat_sheet(SEED)
    assert sheet.split("455 hands.")[1].count("→") == 455
    assert all(len(line) <= 100 for line in sheet.splitlines())


def test_sheet_groups_the_way_a_dealer_learns() -> None:
    titles = [(s.title, len(s.hands)) for s in sections(SEED)]
    assert titles[0][1] == 13 and titles[0][0].startswith("Three of a kind")
    assert titles[1][1] == 12 and titles[1][0].startswith("Pair of Aces: split")
    assert titles[2][1] == 12 and titles[2][0].startswith("Pair of Kings: split")
    assert titles[3][1] == 13 * 12 - 24 and titles[3][0].startswith("Any other pair")
    assert sum(n for t, n in titles[4:]) == 286  # C(13, 3) hands without a pair
    sheet = cheat_sheet(SEED)
    assert "A A K → K | A A" in sheet
    assert "A A Q → A | A Q" in sheet
    assert "K K J → J | K K" in sheet
    assert "K K 10 → K | K 10" in sheet
    assert "2 2 2 → face up" in sheet


def test_sheet_follows_the_options() -> None:
    sheet = cheat_sheet(RedGreenRules(split_aces=False))
    assert "Pair of Aces: the pair goes in the back" in sheet
    assert "A A Q → Q | A A" in sheet


@pytest.mark.parametrize(
    ("hand", "first_line", "why"),
    [
        ("K 7 7", "K 7 7 → K | 7 7", "pair goes in the back"),
        ("A A 5", "A A 5 → A | A 5", "pair of Aces: split"),
        ("k k q", "K K Q → Q | K K", "pair of Kings"),
        ("4 9 T", "4 9 10 → 9 | 10 4", "middle card"),
        ("3 3 3", "3 3 3 → face up", "three of a kind"),
    ],
)
def test_lookup_sets_one_hand_and_names_the_rule(hand: str, first_line: str, why: str) -> None:
    first, second = lookup(hand.split(), SEED).splitlines()
    assert first == first_line
    assert why in second


def test_lookup_refuses_bad_hands() -> None:
    with pytest.raises(InvalidCards, match="3 cards, got 2"):
        lookup(["K", "7"], SEED)
    with pytest.raises(InvalidCards, match="unknown rank 'X'"):
        lookup(["K", "7", "X"], SEED)


def test_drill_hands_are_reproducible_and_valid() -> None:
    a = drill_hands(SeededRandom(5), 50)
    assert a == drill_hands(SeededRandom(5), 50)
    assert all(len(h) == 3 for h in a)
    with pytest.raises(InvalidOption, match="rounds"):
        drill_hands(SeededRandom(5), 0)


def test_parse_answer() -> None:
    assert parse_answer("k\n") is Rank.KING
    assert parse_answer("K | 7 7") is Rank.KING
    assert parse_answer("up") == parse_answer("Face up") == "up"
    assert parse_answer("seven") is None


def test_drill_scores_right_and_wrong_answers() -> None:
    hands = [[Rank.SEVEN, Rank.KING, Rank.SEVEN], [Rank.ACE, Rank.ACE, Rank.TWO], [Rank.NINE] * 3]
    answers = iter(["K", "huh", "2", "up"])  # right, unreadable (asked again), wrong, right
    out: list[str] = []
    score = run_drill(hands, SEED, lambda: next(answers, None), out.append)
    assert (score.right, score.asked) == (2, 3)
    text = "\n".join(out)
    assert "right: K 7 7 → K | 7 7" in text
    assert "not an answer: 'huh'" in text
    assert "wrong: A A 2 → A | A 2 — pair of Aces: split" in text
    assert out[-1] == "Score: 2 of 3 (66%)"


def test_drill_stops_at_end_of_input() -> None:
    """Input that ends early is said to have ended; no "Score: 0 of 0" for a drill never taken."""
    out: list[str] = []
    score = run_drill([[Rank.TWO, Rank.THREE, Rank.FOUR]] * 3, SEED, lambda: None, out.append)
    assert (score.right, score.asked) == (0, 0)
    assert out[-1] == "Input ended before hand 1 of 3 was answered."
    answers = iter(["3"])
    out = []
    score = run_drill(
        [[Rank.TWO, Rank.THREE, Rank.FOUR]] * 3, SEED, lambda: next(answers, None), out.append
    )
    assert out[-2:] == ["Input ended before hand 2 of 3 was answered.", "Score: 1 of 1 (100%)"]


def test_a_drill_with_no_answer_is_refused() -> None:
    """End of input before the first answer: status 2, not a score of 0 of 0 and status 0."""
    result = run("houseway", "--quiz", "--rounds", "3", "--seed", "1", stdin="")
    assert result.returncode == 2
    assert "Score" not in result.stdout
    assert result.stderr == (
        "baccara: error: the drill had no answer: standard input ended before the first hand\n"
    )


def test_cli_lookup_and_sheet() -> None:
    result = run("houseway", "K", "7", "7")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "K 7 7 → K | 7 7"
    sheet = run("houseway", "--option", "split-kings=no")
    assert sheet.returncode == 0 and "K K 2 → 2 | K K" in sheet.stdout


def test_cli_quiz_reads_answers_from_stdin_and_scores_them() -> None:
    hands = drill_hands(SeededRandom(11), 3)
    rules = RedGreenRules()
    from baccara.games.redgreen import house_way_of_ranks
    from baccara.render.houseway import expected_answer

    answers = []
    for hand in hands:
        expected = expected_answer(house_way_of_ranks(hand, rules))
        answers.append(expected if isinstance(expected, str) else expected.symbol)
    answers[1] = "up" if answers[1] != "up" else "2"  # one wrong answer
    result = run("houseway", "--quiz", "--rounds", "3", "--seed", "11", stdin="\n".join(answers))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("Hand ") == 3
    assert result.stdout.splitlines()[-1] == "Score: 2 of 3 (66%)"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["houseway", "K", "7"], "a RedGreen hand has 3 cards, got 2"),
        (["houseway", "K", "7", "7", "7"], "a RedGreen hand has 3 cards, got 4"),
        (["houseway", "K", "7", "Z"], "unknown rank 'Z'"),
        (["houseway", "--quiz", "--rounds", "0"], "--rounds: must be between 1 and 1,000, got 0"),
        (["houseway", "-o", "decks=6"], "decks: does not change the house way"),
        (["houseway", "-o", "paytable=default"], "paytable: does not change the house way"),
        (["houseway", "--quiz", "--seed", "x"], "seed: must be a whole number"),
        (["houseway", "--rounds", "3"], "--rounds and --seed go with --quiz"),
        (["houseway", "--quiz", "K", "7", "7"], "--quiz deals its own hands"),
        (["houseway", "--option", "split-aces=perhaps"], "split-aces: must be yes or no"),
        (["analyze", "redgreen", "--decks", "0"], "decks: must be between 1 and 100"),
        (["analyze", "redgreen", "--commission", "100"], "commission: must be in [0, 100)"),
        (["analyze", "redgreen-mini", "-o", "split-kings-unless=Z"], "split-kings-unless"),
        (["analyze", "redgreen", "--tie-pays", "8"], "--tie-pays: does not apply to redgreen"),
        (["analyze", "redgreen-mini", "-o", "peek=yes"], "peek: not an option of redgreen-mini"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(args: list[str], message: str) -> None:
    assert_refused(run(*args), message)
