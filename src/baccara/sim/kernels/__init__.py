"""Compiled kernels that deal whole blocks of rounds by the real rules, for the simulator.

Each game's kernel deals from a real shoe (or tile set): the physical cards in an
array, each card drawn uniformly from those not yet dealt — a Fisher–Yates shuffle
done one card at a time, as the cards are needed — with the seeded generator of
:mod:`baccara.sim.kernels.rng`. It writes one outcome code per bet per round (Punto
Banco's writes the coup's facts, which a table made from the rules reads every bet
off: :mod:`baccara.sim.kernels.coup_outcomes`); what the outcomes pay comes from the
exact analysis, never from the kernel.

Tests deal the same rounds through the plain rules code (``deal_coup``,
``round_from_cards``, ``best_category``, ``round_from_stack``) with the plain twin of
the generator and require every round to match.
"""
