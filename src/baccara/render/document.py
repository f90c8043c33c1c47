"""A report as a list of blocks, written out as HTML or PDF by the writers.

The report is built once — headings, prose, tables of already formatted cells, and
charts — and each writer lays the same blocks out in its own medium, so the HTML
and the PDF cannot disagree on a figure. A chart is kept as the function that draws
it: each writer draws it at its own resolution and closes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class Heading:
    """A section (level 2) or subsection (level 3) title; ``anchor`` is its HTML id."""

    text: str
    anchor: str
    level: int = 2


@dataclass(frozen=True)
class Prose:
    """A paragraph. ``kind`` is ``"body"``, ``"note"`` (smaller, grey) or ``"command"``."""

    text: str
    kind: str = "body"


@dataclass(frozen=True)
class TableBlock:
    """A table of formatted cells. The first column is a label; the rest align right.

    ``key`` names the table in the HTML (``id``) so tests and readers can find it;
    ``totals`` is how many of the last rows are totals, set apart.
    """

    key: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    totals: int = 0
    note: str = ""
    left_columns: int = 1

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(
                    f"table {self.key!r}: a row has {len(row)} cells, not {len(self.columns)}"
                )


@dataclass(frozen=True)
class Chart:
    """A matplotlib figure, drawn on demand; ``caption`` says how to read it."""

    key: str
    title: str
    draw: Callable[[], Figure] = field(repr=False)
    caption: str = ""


Block = Heading | Prose | TableBlock | Chart


@dataclass(frozen=True)
class Document:
    """A whole report: its title, a line under it, the blocks in reading order, and
    ``about``: (label, text) lines the header shows (what made it, and how)."""

    title: str
    subtitle: str
    blocks: tuple[Block, ...]
    about: tuple[tuple[str, str], ...] = ()

    def tables(self) -> dict[str, TableBlock]:
        return {b.key: b for b in self.blocks if isinstance(b, TableBlock)}

    def charts(self) -> Iterator[Chart]:
        return (b for b in self.blocks if isinstance(b, Chart))

    def sections(self) -> Iterator[Heading]:
        return (b for b in self.blocks if isinstance(b, Heading) and b.level == 2)
