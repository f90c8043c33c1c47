"""The rules of each game: pure functions and frozen data, no I/O, no clock.

Randomness arrives as an argument (a shoe or a :class:`~baccara.randomness.RandomSource`),
so the same code deals live tables, replays a recorded round, and is enumerated by
the exact analysis.
"""
