"""The RNG test battery on screen: one line a test, then the family-wise verdict."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from baccara.options import plural
from baccara.sim.rng_tests import CLIENT_SEED, CheckResult, RngReport


def p_text(p: float) -> str:
    """A p-value to four places; a tiny one in scientific notation.

    >>> p_text(0.4265), p_text(3.2e-7), p_text(0.0)
    ('0.4265', '3.2e-07', '<1e-300')
    """
    if p == 0:
        return "<1e-300"
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


def statistic_text(test: CheckResult) -> str:
    """χ² with its degrees of freedom, z, or runs beside their expected number."""
    if test.kind == "chi-square":
        return f"χ² {test.statistic:,.1f} (df {test.df:,})"
    if test.kind == "runs":
        return f"{test.statistic:,.0f} runs (exp. {test.expected:,.1f})"
    return f"z {test.statistic:+.2f}"


def print_rng_report(report: RngReport, console: Console) -> None:
    n = 52 * report.decks
    article = "an" if report.decks == 8 else "a"
    of = "" if report.complete else f" (of {report.requested:,} asked: interrupted)"
    console.print(
        f"rng-test · {plural(report.rounds, 'shuffle')}{of} of {article} {report.decks}-deck shoe"
        f" ({n} cards) and of Lo-Ball's 28 tiles, with 3 dice each"
    )
    source = (
        "fresh from secrets, as the casino's are"
        if report.seed is None
        else f"SHA-256 of seed {report.seed} and the round"
    )
    console.print(f"Each shuffle is a round of its own: a new server seed ({source}),")
    console.print(
        f"client seed {CLIENT_SEED!r}, nonce = round; HMAC-SHA256, rejection sampling, Fisher–Yates."
    )
    console.print()
    table = Table()
    table.add_column("Test")
    table.add_column("Statistic", justify="right")
    table.add_column("p", justify="right")
    table.add_column("Holm p", justify="right")
    table.add_column("")
    for test in report.tests:
        table.add_row(
            test.name,
            statistic_text(test),
            p_text(test.p_value),
            p_text(test.holm_p_value),
            "ok" if test.passed else Text("FAIL", style="bold red"),
        )
    console.print(table)
    level = f"the family-wise {1 - report.alpha:.0%} level"
    tests = plural(len(report.tests), "test")
    if report.passed:
        console.print(f"PASS: every test passes at {level} (Holm–Bonferroni over {tests}).")
    else:
        failed = ", ".join(t.id for t in report.failed)
        console.print(
            Text(
                f"FAIL at {level} (Holm–Bonferroni over {tests}): {failed}.",
                style="bold red",
            )
        )
    workers = plural(report.workers, "worker")
    console.print(
        f"{plural(report.rounds, 'shuffle')} in {report.seconds:.2f} s:"
        f" {report.shuffles_per_second:,.0f} a second, {workers}."
    )
