"""The report's sections, each a list of blocks built from :class:`~baccara.render.report_data.ReportData`.

A section formats figures with the same functions the terminal uses
(:mod:`baccara.render.analysis`, :mod:`baccara.render.paytable`,
:mod:`baccara.render.compare`, :mod:`baccara.render.simulation`), so the report and
``baccara analyze`` print the same digits. Charts are drawn later, by the writer.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction
from importlib.metadata import version
from typing import TYPE_CHECKING

from baccara.games.bonus import CATEGORIES
from baccara.money import format_cents, money_text
from baccara.options import plural
from baccara.render import charts
from baccara.render.analysis import (
    EFFECT_SIGN_NOTE,
    OUTCOME_COLUMNS,
    cell_text,
    edge_text,
    effect_columns,
    effect_rows,
    figures_text,
    outcome_label,
    outcome_rows,
    published_lines,
    total_row,
)
from baccara.render.compare import LEGEND, comparison_columns, comparison_rows, variant_lines
from baccara.render.document import Block, Chart, Heading, Prose, TableBlock
from baccara.render.par_sections import one_in, player_edge, true_odds
from baccara.render.paytable import PAYTABLE_COLUMNS, category_rows
from baccara.render.simulation import SESSION_NOTE, rounding_note, session_rows
from baccara.sim.sessions import FAN_PERCENTILES

if TYPE_CHECKING:
    from baccara.exact.variants import Comparison
    from baccara.render.report_data import ReportData


def _percent(value: Fraction) -> str:
    return f"{float(value):.4%}"


def rules(data: ReportData) -> list[Block]:
    spec, table = data.spec, data.spec.table
    rows = tuple(
        (*values, source)
        for values, source in zip(data.option_values(), data.option_sources(), strict=True)
    )
    seats = f"{plural(table.seats, 'seat')}, {plural(table.dealers, 'dealer')}"
    return [
        Heading("The rules in brief", "rules"),
        Prose(spec.brief),
        *_house_rules(data.rules),
        TableBlock("rules", "Rules in force", ("Option", "Value", "Default", "Default from"), rows),
        Prose(
            f"{seats}; dealt with {table.equipment.value}. Rules: {spec.doc}; seed {spec.seed}.",
            "note",
        ),
    ]


def _house_rules(rules: object) -> list[Block]:
    """What a Punto Banco rule set changes in the brief, and the side bets offered with
    every pay line in words; nothing for a game without them."""
    blocks: list[Block] = []
    variant = getattr(rules, "variant", None)
    if variant is not None and (variant.banker or variant.player or variant.commission == 0):
        blocks.append(Prose(f"Played as {variant.name}: {variant.description}; otherwise as"
                            " above."))  # fmt: skip
    sidebets = getattr(rules, "sidebets", ())
    if sidebets:
        rows = tuple((bet.name, bet.pays_text().replace("\n", "; ")) for bet in sidebets)
        blocks.append(TableBlock("sidebets", "Side bets offered", ("Bet", "Pays"), rows))
    return blocks


def summary(data: ReportData) -> list[Block]:
    bets = data.analysis.bets
    rows = []
    for bet in bets:
        published = bet.published
        rows.append(
            (
                data.bet_name(bet.bet),
                _percent(bet.house_edge),
                f"{bet.house_edge.numerator}/{bet.house_edge.denominator}",
                _percent(bet.element_of_risk),
                f"{bet.std_dev:.4f}",
                _percent(bet.hit_frequency),
                "—" if published is None
                else f"{published.percent(published.house_edge)}\n{published.source}",
            )
        )  # fmt: skip
    columns = ("Bet", "House edge", "Exactly", "Element of risk", "Std dev", "Hit frequency",
               "Published")  # fmt: skip
    return [
        Heading("Every bet at a glance", "summary"),
        TableBlock("summary", "House edge and risk of every bet", columns, tuple(rows)),
        Prose(
            "House edge: the house's expected gain per unit staked (the return to player is "
            "100 % less the edge). Element of risk: the edge per resolved bet (pushes left "
            "out). Standard deviation: of one unit's result. Hit frequency: how often the bet "
            "pays something.",
            "note",
        ),
        Prose(published_note(data), "note"),
        Prose(f"baccara analyze {data.spec.id}{data.option_flags()}", "command"),
    ]


def published_note(data: ReportData) -> str:
    """What the seed publishes, said outright: nothing at all, or not for these rules."""
    spec = data.spec
    shown = any(b.published is not None for b in data.analysis.bets)
    if not spec.published:
        besides = (
            " The figures shown are those the files of the side bets and rule set cite."
            if shown
            else ", so there is no published figure to set beside the computed ones."
        )
        return (
            f"Published: seed {spec.seed_number} publishes no house edge or probability for "
            f"{spec.name}" + ("." if shown else "") + besides
        )
    if shown:
        return f"Published: {spec.published}"
    return (
        f"Published: {spec.published} The rules in force are not those "
        f"({data.option_flags().replace(' --option ', ' ').strip()}), so no published "
        "figure is shown."
    )


def bets(data: ReportData) -> list[Block]:
    analysis = data.analysis
    blocks: list[Block] = [
        Heading("The outcomes of every bet", "bets"),
        Prose(f"Combinations are {analysis.sample_space}."),
    ]
    for bet in analysis.bets:
        rows = [
            (outcome_label(name), *row, true_odds(outcome.probability), one_in(outcome.probability))
            for (name, *row), outcome in zip(outcome_rows(bet), bet.outcomes, strict=True)
        ]
        blocks += [
            Heading(data.bet_name(bet.bet), f"bet-{bet.bet}", level=3),
            TableBlock(
                f"bet-{bet.bet}",
                "",
                (*OUTCOME_COLUMNS, "True odds", "Odds"),
                (*rows, (*total_row(bet), "", "")),
                totals=1,
            ),
            Prose(edge_text(bet) + figures_text(bet)),
            *(Prose(line, "note") for line in published_lines(bet)),
        ]
    blocks.append(
        Chart(
            "outcomes",
            "Outcome probabilities",
            functools.partial(charts.outcome_probabilities, analysis, data.bet_names()),
            "Green pays the bettor, grey pushes, red loses. A panel whose outcomes differ by "
            "more than 500 times is on a log scale.",
        )
    )
    blocks += [Prose(note, "note") for note in analysis.notes]
    blocks.append(
        Prose(
            "True odds: against the outcome, (1 − p) / p to 1, beside what it pays. Odds: "
            "the same as 1 in N = 1 / p.",
            "note",
        )
    )
    return blocks


def published(data: ReportData) -> list[Block]:
    """Every figure the seed prints, beside the exact one and whether they agree.

    A published figure is quoted with the document's own precision ("2.56 %", not
    "2.5600 %"); "agrees" means the exact value rounds to exactly what it prints.
    """
    rows = [
        (
            data.bet_name(bet.bet),
            figure.name,
            figure.printed_text(),
            figure.exact_text(),
            "yes" if figure.agrees else "no",
            bet.published.source,
        )
        for bet in data.analysis.bets
        if bet.published is not None
        for figure in bet.published.figures(bet)
    ]
    if not rows:
        return []
    return [
        Heading("The published figures against the exact ones", "published"),
        TableBlock(
            "published",
            "Every published figure, with its source",
            ("Bet", "Figure", "Published", "Exact", "Agrees", "Source"),
            tuple(rows),
            left_columns=2,
        ),
        Prose(
            "Agrees: the exact figure, rounded to the digits the document prints, is the "
            "printed figure. The exact figures carry two digits more.",
            "note",
        ),
    ]


def decks(data: ReportData) -> list[Block]:
    heading = Heading("House edge against the number of decks", "decks")
    sweep = data.decks
    if sweep is None:
        return [
            heading,
            Prose(f"{data.spec.name} is dealt from one set; it has no number of decks to vary."),
        ]
    rows = tuple(
        (str(n), *(_percent(sweep.edges(b)[i]) for b in sweep.bets))
        for i, n in enumerate(sweep.decks)
    )
    return [
        heading,
        Chart(
            "decks",
            "House edge by decks",
            functools.partial(charts.edges_by_decks, sweep, data.bet_names()),
            "Each panel its own scale; bets with equal edges at every size share a panel.",
        ),
        TableBlock("decks", "", ("Decks", *map(data.bet_name, sweep.bets)), rows),
        Prose("Every other rule as above; each row is baccara analyze with --decks N.", "note"),
    ]


def removal(data: ReportData) -> list[Block]:
    eor = data.removal
    full, rows, weighted = effect_rows(eor)
    still = [b for i, b in enumerate(eor.bets) if not any(eor.effects(r)[i] for r in eor.removals)]
    caption = "Red bars raise the house edge, green bars lower it."
    if still:
        caption += (
            f" One {eor.removed} never moves {', '.join(map(data.bet_name, still))}: left out "
            "of the chart."
        )
    return [
        Heading(f"Effect of removal per {eor.removed}", "removal"),
        Chart(
            "removal",
            f"One {eor.removed} removed: change of house edge",
            functools.partial(charts.effect_of_removal, eor, data.bet_names()),
            caption,
        ),
        TableBlock(
            "removal",
            f"one {eor.removed} removed: change of house edge, % points",
            tuple(map(data.bet_name, effect_columns(eor))),
            (full, *rows, weighted),
            totals=1,
        ),
        Prose(EFFECT_SIGN_NOTE, "note"),
        *(Prose(note, "note") for note in eor.notes),
    ]


def loball(data: ReportData) -> list[Block]:
    names = {t.name for t in data.analysis.tables}
    if not {"points", "grid"} <= names:
        return []
    blocks: list[Block] = [
        Heading("Points and the dealer against the player", "points"),
        Chart(
            "points",
            "Points of one hand",
            functools.partial(charts.points_distribution, data.analysis.table("points")),
            "Zero points is the Win-bonus, 27 the Play-bonus.",
        ),
        Chart(
            "grid",
            "Dealer's points against the player's",
            functools.partial(charts.points_grid, data.analysis.table("grid")),
            "Every disjoint (dealer hand, player hand) pair, by the two totals; log colour "
            "scale. Above the diagonal the dealer has more points and the player wins; on "
            "and below it the main wager loses.",
        ),
    ]
    for table in data.analysis.tables:
        if not table.on_screen:
            continue
        blocks.append(
            TableBlock(
                f"table-{table.name}",
                table.title,
                tuple(map(data.bet_name, table.columns)),
                tuple(tuple(cell_text(v) for v in row) for row in table.rows),
                note=table.note,
            )
        )
    return blocks


def bonus(data: ReportData) -> list[Block]:
    if data.bonus is None:
        return []
    counts, paytable = data.bonus
    bet = data.analysis.bet("bonus")
    return [
        Heading("The Bonus side bet by hand category", "bonus"),
        Chart(
            "bonus",
            "Bonus categories and the paytable's return",
            functools.partial(charts.bonus_categories, counts, paytable),
            "Left: how often each best-five category comes (log scale); right: what the "
            f"paytable {paytable.name!r} returns on it per unit staked.",
        ),
        TableBlock(
            "bonus",
            f"paytable {paytable.name!r}",
            (*PAYTABLE_COLUMNS, "Odds"),
            (
                *(
                    (category.label, *row, one_in(Fraction(counts[category], sum(counts.values()))))
                    for (_id, *row), category in zip(
                        category_rows(paytable, counts), CATEGORIES, strict=True
                    )
                ),
                (*total_row(bet), ""),
            ),
            totals=1,
        ),
        Prose(_paytable_source(data, paytable.name), "note"),
    ]


def _paytable_source(data: ReportData, name: str) -> str:
    """Whose paytable this is: the seed cuts its own off, so the shipped one is assumed."""
    assumed = data.spec.assumption("paytable")
    if name == "default" and assumed is not None:
        return f"The paytable is an {assumed}."
    return f"The paytable {name!r} is the operator's, given with --option paytable."


def variants(data: ReportData) -> list[Block]:
    comparison = data.variants
    if not comparison.variants:
        return []
    return [
        Heading("Rule variants", "variants"),
        Prose(
            "The usual variants of this game, each analysed exactly like the rules above, "
            "with only the options it names changed."
        ),
        TableBlock(
            "variants",
            "house edge by rule variant",
            tuple(map(data.bet_name, comparison_columns(comparison))),
            tuple(comparison_rows(comparison)),
        ),
        Prose(LEGEND, "note"),
        *(Prose(line, "note") for line in variant_lines(comparison)),
        *(Prose(line) for line in _player_edges(comparison, data.bet_name)),
        Prose(f"baccara compare {data.spec.id}{data.option_flags()}", "command"),
        Chart(
            "variants",
            "House edge by variant",
            functools.partial(charts.variants, comparison, data.bet_names()),
            "Only the variants that move a bet are drawn in its panel; the dotted line is "
            "the edge as given. Red raises the edge, green lowers it.",
        ),
    ]


def _player_edges(comparison: Comparison, name: Callable[[str], str]) -> list[str]:
    """Each variant under which a bet favours the player (:func:`par_sections.player_edge`)."""
    return [
        player_edge(result.variant.name, name(bet), comparison.edge(result, bet))
        for result in comparison.variants
        for bet in comparison.bets
        if comparison.edge(result, bet) < 0
    ]


def sessions(data: ReportData) -> list[Block]:
    played = data.sessions
    report, plan, bet = played.report, played.plan, played.bet
    expected = played.expectation
    edge = expected.edge_at_stake  # as the stake is paid: each payout rounded down
    note = rounding_note(plan.stake, expected)
    dealt_from = "set of tiles" if data.removal.removed == "tile" else "shoe"
    summary = played.summary()
    low, high = summary["mean_result_ci95"]
    outside = (
        []
        if low <= expected.at_stake <= high
        else [
            Prose(
                "The exact expectation lies outside this run's 95 % interval of the mean, as "
                "one run in twenty does by chance; more sessions (--sessions) narrow it.",
                "note",
            )
        ]
    )
    money = money_text  # as a person reads it; the command keeps the plain form it takes
    title = (
        f"{data.bet_name(bet)} · {money(plan.stake)} a hand · {plan.hands:,} hands · "
        f"{plan.sessions:,} sessions from {money(plan.bankroll)}"
    )
    bands = "/".join(f"{p:g}" for p in FAN_PERCENTILES)
    command = (
        f"baccara simulate {data.spec.id} --bet {bet} --stake {format_cents(plan.stake)}"
        f" --bankroll {format_cents(plan.bankroll)} --hands {plan.hands} --sessions {plan.sessions}"
        f" --seed {played.seed}{data.option_flags()}"
    )
    return [
        Heading("A night at the table: the bankroll", "sessions"),
        Prose(
            f"{plan.sessions:,} players each sit down with {money(plan.bankroll)} and bet "
            f"{money(plan.stake)} on {data.bet_name(bet)} every hand for {plan.hands:,} hands, every hand "
            f"dealt by the real rules from a shuffled {dealt_from} and settled in cents; a player "
            "leaves early only when the bankroll no longer covers a stake."
        ),
        Chart(
            "sessions",
            "Bankroll fan chart",
            functools.partial(charts.bankroll_fan, report, edge, FAN_PERCENTILES, title),
            f"Percentiles {bands} of the balance after each hand over all sessions; the dotted "
            "line is the bankroll less the exact edge at this stake (each payout rounded down "
            "to the cent as it is paid) times the stakes.",
        ),
        TableBlock(
            "sessions",
            "Session results",
            ("", "Value"),
            tuple(session_rows(summary, expected)),
        ),
        *([] if note is None else [Prose(note, "note")]),
        *outside,
        Prose(SESSION_NOTE, "note"),
        Prose(command, "command"),
        Prose(
            f"In Python: baccara.play_sessions({data.spec.id!r}, {bet!r}, "
            f"stake_cents={plan.stake}, bankroll_cents={plan.bankroll}, hands={plan.hands}, "
            f"sessions={plan.sessions}, seed={played.seed}, options=…)",
            "note",
        ),
    ]


def method(data: ReportData) -> list[Block]:
    command = data.command()
    made_with = f" with {command}" if command.startswith("baccara ") else ""
    return [
        Heading("How these figures were made", "method"),
        Prose(
            "Every probability is an exact count of equally likely deals divided by their "
            f"number — combinations are {data.analysis.sample_space} — and every edge an "
            "exact fraction; decimals are rounded only for display. The sessions are the one "
            "simulated part, seeded so the report repeats."
        ),
        Prose(
            f"In Python: baccara.analyze({data.spec.id!r}, **options), "
            f"baccara.effect_of_removal({data.spec.id!r}, **options), "
            f"baccara.edges_by_decks({data.spec.id!r}, **options), "
            f"baccara.compare_variants({data.spec.id!r}, variants, **options) and "
            f"baccara.play_sessions({data.spec.id!r}, bet, …, options=options).",
            "note",
        ),
        Prose(
            f"Made by baccara {version('baccara')}{made_with}. The same command with the "
            "same version writes the same report.",
            "note",
        ),
    ]
