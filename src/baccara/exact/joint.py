"""The house's win on one round: its exact mean and variance, from every wager on the round.

The operator's report compares a table's actual win with its theoretical win in
standard deviations. Summing each wager's own variance would be wrong: bets on one
round are not independent. A Banker and a Player bet on one coup are almost exactly
opposed (their sum varies far less than either), ten players who all back Banker make
one bet of ten times the size — (Σ stake)² × var, not Σ stake² × var — and at Lo-Ball
every seat plays against the same dealer hand and only one of them can hold 1-1. So
the variance of a round is computed from the *joint* distribution of all it decides:

    house win  W = Σ_wagers (stake − returned) = −Σ_k s_k X_k
    E[W] = −Σ_k s_k μ_k        Var W = Σ_k Σ_l s_k s_l Cov(X_k, X_l)

where ``X_k`` is bet k's result per unit staked. Per game
(see ``docs/operator-report.md``):

* Punto Banco (:mod:`baccara.exact.joint_punto_banco`): the five bets over the 12
  cells (winner, Player pair, Banker pair) of the six-card sample space;
* RedGreen and Mini RedGreen (:mod:`baccara.exact.joint_redgreen`): Red, Green and
  the Bonus over the 33 cells (call, Bonus category) of every Red-then-Green deal;
* Lo-Ball (:mod:`baccara.exact.joint_loball`): per seat (main, Lo-Card, Hi-Card)
  with one covariance matrix within a seat and one between two seats, and the dice
  bets, shared by the table and independent of the tiles.

Conventions. By default payouts are the rules' unrounded "to 1" odds, the exact
analysis's convention. ``as_paid=True`` settles every wager as the table does, its
payout rounded down to the cent on its own (19:20 on 25 cents pays 23, not 23.75; see
:mod:`baccara.exact.stakes`): the operator's report compares a table's win with that.
Where every payout is whole cents the two agree exactly. Results are in cents (mean)
and cents² (variance), as exact fractions. Everything that depends only on
the rules — the joint distribution and its covariance matrices — is computed once
per rules and kept (a fraction of a second to two seconds); each round after that
is a few integer products.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from baccara.errors import InvalidBet, InvalidOption
from baccara.exact.joint_model import RoundModel, Wager
from baccara.exact.roles import round_model_of
from baccara.games import game
from baccara.money import validate_stake


def round_model(game_id: str, rules: object) -> RoundModel:
    """The model of every round of ``game_id`` under ``rules`` (computed once, then kept).

    ``rules`` is the game's rules object (``GAMES[game_id].rules``, e.g. a table's
    rules); an unknown game raises :class:`~baccara.errors.UnknownGame`, rules of the
    wrong game :class:`~baccara.errors.InvalidOption`.
    """
    spec = game(game_id)
    if not isinstance(rules, spec.rules):
        raise InvalidOption(
            "rules", f"{spec.name} is dealt under {spec.rules.__name__}, got {type(rules).__name__}"
        )
    return round_model_of(spec, rules)


def _checked(game_id: str, rules: object, wagers: Sequence[Wager]) -> list[Wager]:
    """Each wager's bet id and stake checked as a bet is placed: spots the table does not
    take (its side bets count) and stakes that are not whole positive cents raise
    :class:`~baccara.errors.InvalidBet`."""
    spec = game(game_id)
    checked: list[Wager] = []
    for wager in wagers:
        try:
            seat, spot, stake = wager
        except (TypeError, ValueError):
            raise InvalidBet(
                f"a wager is (seat or None, bet id, stake in cents), got {wager!r}"
            ) from None
        checked.append((seat, spec.check_bet(spot, rules), validate_stake(stake)))
    return checked


def house_win_mean(
    game_id: str, rules: object, wagers: Sequence[Wager], *, as_paid: bool = False
) -> Fraction:
    """Exact expected win of the house, in cents, on one round given every wager on it.

    ``wagers`` are ``(seat or None, bet spot id, stake in cents)``; the result is
    Σ stake × the bet's exact house edge (the analysis's ``house_edge``) — or, with
    ``as_paid``, at each stake as it is paid (``analyze_at_stake``'s edge). No wagers —
    an empty or voided round — gives 0.

    >>> from baccara.games.punto_banco import PuntoBancoRules
    >>> f"{float(house_win_mean('punto-banco', PuntoBancoRules(), [(1, 'banker', 10_000)])):.4f}"
    '105.7906'
    >>> f"{float(house_win_mean('punto-banco', PuntoBancoRules(), [(1, 'banker', 1)], as_paid=True)):.4f}"
    '0.4462'
    """
    model = round_model(game_id, rules)
    checked = _checked(game_id, rules, wagers)
    return model.paid_mean(checked) if as_paid else model.house_mean(checked)


def house_win_variance(
    game_id: str, rules: object, wagers: Sequence[Wager], *, as_paid: bool = False
) -> Fraction:
    """Exact variance, in cents², of the house's win on one round given every wager on it:
    (seat or None, bet spot id, stake in cents); with ``as_paid``, every wager settled as
    the table settles it, its payout rounded down to the cent on its own.

    Computed from the joint distribution of the round's outcomes, so bets that move
    together (or against each other) count as they do. Seats matter only at Lo-Ball,
    where every wager names its seat (1 to 7) and the seats with a wager are the seats
    dealt; at Punto Banco and RedGreen all wagers are on one coup and the seat is
    ignored. No wagers — an empty or voided round — gives 0.

    >>> from baccara.games.punto_banco import PuntoBancoRules
    >>> rules = PuntoBancoRules()
    >>> both = house_win_variance("punto-banco", rules, [(1, "banker", 100), (2, "player", 100)])
    >>> alone = house_win_variance("punto-banco", rules, [(1, "banker", 100)])
    >>> round(float(both)), round(float(alone))
    (6, 8600)
    """
    model = round_model(game_id, rules)
    checked = _checked(game_id, rules, wagers)
    return model.paid_variance(checked) if as_paid else model.house_variance(checked)
