"""One round of a game, dealt and settled step by step, as plain text.

Used three ways: ``baccara deal GAME`` shows a player or a dealer trainee a whole round
(every card in order, how each hand is set, every bet settled in cents); with a seed
the round can be replayed exactly; and the golden playthroughs under
``tests/playthroughs/`` pin each game's behaviour, so a change of rules or settlement
shows up as a diff.
"""

from __future__ import annotations

from collections.abc import Callable

from baccara import games
from baccara.games import loball, punto_banco, redgreen
from baccara.games.bonus import best_category
from baccara.money import Settlement, format_cents
from baccara.options import plural
from baccara.randomness import RandomSource, SecureRandom, SeededRandom


def _settled(bet: str, settlement: Settlement) -> str:
    return (
        f"  {bet:<12} {settlement.result.value:<5} stake {format_cents(settlement.stake):>8}"
        f"  won {format_cents(settlement.won):>9}  returned {format_cents(settlement.returned):>9}"
    )


def punto_banco_round(
    rules: punto_banco.PuntoBancoRules, rng: RandomSource, stake: int
) -> list[str]:
    """One coup, card by card, and every bet settled."""
    coup = punto_banco.deal_from_fresh_shoe(rules, rng)
    order = ["Player", "Banker", "Player", "Banker"]
    lines = [f"shoe: {plural(rules.decks, 'deck')}, reshuffled before the hand"]
    for i, card in enumerate(coup.cards):
        if i < 4:
            who = order[i]
        elif i == 4 and len(coup.player) == 3:
            who = "Player (third card)"
        else:
            who = "Banker (third card)"
        lines.append(f"card {i + 1}: {card} to {who}")
        if i == 3:
            lines.append(
                f"two-card scores: Player {punto_banco.score(coup.player[:2])},"
                f" Banker {punto_banco.score(coup.banker[:2])}"
                f"{' — a natural ends the coup' if coup.natural else ''}"
            )
    lines.append(f"final: {coup.describe()}")
    lines.append(f"settlement of {format_cents(stake)} on each bet:")
    for bet in punto_banco.Bet:
        lines.append(_settled(bet.value, punto_banco.settle_bet(bet, stake, coup, rules)))
    return lines


def redgreen_round(rules: redgreen.RedGreenRules, rng: RandomSource, stake: int) -> list[str]:
    """Red and Green dealt, each set by the house way, the call, and every bet settled."""
    round_ = redgreen.deal_from_fresh_shoe(rules, rng)
    six = (*round_.red_cards, *round_.green_cards)
    lines = [
        f"shoe: {plural(rules.decks, 'deck')}, reshuffled before the round",
        f"Red dealt:   {' '.join(str(c) for c in round_.red_cards)}",
        f"Green dealt: {' '.join(str(c) for c in round_.green_cards)}",
        f"Red set:   {round_.red.ranks_text()} — {round_.red.rule.explain()}",
        f"Green set: {round_.green.ranks_text()} — {round_.green.rule.explain()}",
        f"call: {round_.winner.value}",
        f"Bonus hand (best five of six): {best_category(six).value}",
        f"settlement of {format_cents(stake)} on each bet (Bonus paytable {rules.paytable.name!r}):",
    ]
    for bet in redgreen.Bet:
        lines.append(_settled(bet.value, redgreen.settle_bet(bet, stake, round_, rules)))
    return lines


def loball_round(rules: loball.LoBallRules, rng: RandomSource, stake: int) -> list[str]:
    """Two seats against the dealer, the exposed tiles, the dice, and every bet settled."""
    round_ = loball.deal_round(rng, players=2)
    lines = [
        "tiles: one set of 28, reshuffled before the round; two players seated",
        f"dealer: {round_.dealer} — {round_.dealer.points} points",
    ]
    for seat, hand in enumerate(round_.players, 1):
        lines.append(f"seat {seat}: {hand} — {hand.points} points")
    exposed = " ".join(str(t) for t in round_.exposed) or "none (players hold 1-1 and 7-7)"
    lines.append(f"exposed: {exposed}")
    lines.append(f"dice: {' '.join(str(d) for d in round_.dice)} (total {sum(round_.dice)})")
    for seat in range(1, round_.seats + 1):
        lines.append(f"seat {seat}, {format_cents(stake)} on each bet:")
        for bet in loball.Bet:
            lines.append(_settled(bet.value, loball.settle_bet(bet, stake, round_, seat, rules)))
    return lines


def playthrough(game: str, seed: int | None = None, stake: int = 1000) -> str:
    """Deal and settle one round of ``game``; ``seed=None`` shuffles with the secure generator."""
    spec = games.game(game)
    round_text: Callable[..., list[str]] = spec.loaded("playthrough")
    rng: RandomSource = SecureRandom() if seed is None else SeededRandom(seed)
    source = "secure shuffle" if seed is None else f"seed {seed}"
    lines = [f"{spec.id} · one round · {source}", *round_text(spec.rules(), rng, stake)]
    return "\n".join(lines) + "\n"
