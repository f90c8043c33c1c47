"""Exact (and, later, simulated) mathematics of every bet.

>>> from baccara.analysis import analyze
>>> analyze("punto-banco").bet("tie").outcome("win").count
475627426473216
"""

from baccara.analysis.model import Analysis, BetAnalysis, DataTable, Outcome, Published
from baccara.analysis.registry import analyzable_games, analyze

__all__ = [
    "Analysis",
    "BetAnalysis",
    "DataTable",
    "Outcome",
    "Published",
    "analyzable_games",
    "analyze",
]
