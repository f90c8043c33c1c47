"""Monte Carlo by the real rules: compiled kernels, runs across workers, sessions, counts.

Each game's kernel is named in its registry entry (:data:`baccara.games.GAMES`) and
proven equal, round by round, to the plain rules code in :mod:`baccara.sim.kernels.plain`.
"""
