"""A report as a PDF, laid out by reportlab from the same blocks as the HTML.

reportlab (pure Python, from PyPI) flows paragraphs and long tables across A4
pages, repeating a table's title and header on each, and keeps a chart with its
caption; a heading or a table starts on a new page only when too little of the
current one is left for it to begin. The text is set in the DejaVu fonts that
matplotlib ships, embedded, so the symbols the report uses (−, σ, √, Σ, ≈) print on
any machine and no font is left for the reader to supply. Charts go in as 200 dpi
PNGs. The file holds no date (reportlab's invariant mode): the same report gives the
same bytes.
"""

from __future__ import annotations

import functools
import io
import pathlib
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

from baccara.errors import InvalidOption
from baccara.render.charts import WIDTH
from baccara.render.document import Block, Chart, Document, Heading, Prose, TableBlock

DPI = 200
CELL_SIZE = 7.5
"""Points: the type size of table cells."""
PAD = 4
ROW_HEIGHT = 12.5
"""Points: about one table row of one line, to judge what fits."""
SMALL_TABLE = 12
"""Rows: a table this short is never broken across pages (a lone row or two overleaf
reads badly); a longer one begins on a page when its title, header and
:data:`MIN_TABLE_START` rows fit there."""
MIN_TABLE_START = 6
MIN_HEADING_ROOM = 110
"""Points: a heading needs this much of a page below it, or it starts the next one."""
FONTS = {
    "Sans": "DejaVuSans.ttf",
    "Sans-Bold": "DejaVuSans-Bold.ttf",
    "Mono": "DejaVuSansMono.ttf",
}
INK, MUTED, LINE, BAND, ACCENT = "#263238", "#607d8b", "#cfd8dc", "#f5f7f8", "#1565c0"


@functools.cache
def _register_fonts() -> None:
    import matplotlib
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = pathlib.Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    for name, file in FONTS.items():
        pdfmetrics.registerFont(TTFont(name, str(folder / file)))
    addMapping("Sans", 0, 0, "Sans")
    addMapping("Sans", 1, 0, "Sans-Bold")


@functools.cache
def _styles() -> dict[str, Any]:
    from reportlab.lib.colors import HexColor
    from reportlab.lib.enums import TA_RIGHT
    from reportlab.lib.styles import ParagraphStyle

    _register_fonts()
    body = ParagraphStyle("body", fontName="Sans", fontSize=9, leading=12.5, spaceAfter=5,
                          textColor=HexColor(INK))  # fmt: skip
    return {
        "title": ParagraphStyle("title", parent=body, fontName="Sans-Bold", fontSize=20,
                                leading=24, spaceAfter=4),
        "subtitle": ParagraphStyle("subtitle", parent=body, textColor=HexColor(MUTED),
                                   spaceAfter=10),
        "h2": ParagraphStyle("h2", parent=body, fontName="Sans-Bold", fontSize=14, leading=18,
                             spaceBefore=10, spaceAfter=6, textColor=HexColor(ACCENT)),
        "h3": ParagraphStyle("h3", parent=body, fontName="Mono", fontSize=10.5, leading=14,
                             spaceBefore=8, spaceAfter=3),
        "body": body,
        "note": ParagraphStyle("note", parent=body, fontSize=7.5, leading=10,
                               textColor=HexColor(MUTED)),
        "command": ParagraphStyle("command", parent=body, fontName="Mono", fontSize=7.5,
                                  leading=10, backColor=HexColor(BAND), borderPadding=4,
                                  spaceBefore=4, spaceAfter=8),
        "caption": ParagraphStyle("caption", parent=body, fontSize=7.5, leading=10,
                                  textColor=HexColor(MUTED), spaceAfter=8),
        "table-title": ParagraphStyle("table-title", parent=body, fontSize=CELL_SIZE,
                                      leading=9.5, spaceAfter=0),
        "about": ParagraphStyle("about", parent=body, fontSize=8, leading=10.5, spaceAfter=0,
                                textColor=HexColor(MUTED)),
        "cell": ParagraphStyle("cell", parent=body, fontSize=CELL_SIZE, leading=9.5,
                               spaceAfter=0),
        "number": ParagraphStyle("number", parent=body, fontSize=CELL_SIZE, leading=9.5,
                                 spaceAfter=0, alignment=TA_RIGHT),
    }  # fmt: skip


def _text(text: str) -> str:
    return escape(text).replace("\n", "<br/>")


def _fitted(natural: list[float], width: float, words: int = 0) -> list[float]:
    """Column widths that fit ``width``: the narrow columns keep their width, the widest
    are capped at one common width (and wrap), so a long note never squeezes a label.

    The first ``words`` columns hold words, the rest numbers: a number broken across
    lines is misread, so where the numbers fit whole only the word columns wrap."""
    if sum(natural) <= width:
        return natural
    numbers = sum(natural[words:])
    if words and numbers < width * 0.85:
        return _fitted(natural[:words], width - numbers) + natural[words:]
    cap = max(natural)
    for candidate in sorted(natural, reverse=True):
        wider = [w for w in natural if w >= candidate]
        rest = sum(w for w in natural if w < candidate)
        cap = (width - rest) / len(wider)
        if cap >= max((w for w in natural if w < candidate), default=0):
            break
    return [min(w, cap) for w in natural]


def _header_width(text: str) -> float:
    """A header may wrap between words, onto two lines at most where it can: the width of
    its best split in two ("Win an hour, / a seat"), not a word a line down a narrow
    column of numbers, nor its whole line."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    words = text.replace("\n", " ").split()

    def line(part: list[str]) -> float:
        return stringWidth(" ".join(part), "Sans-Bold", CELL_SIZE)

    return min((max(line(words[:k]), line(words[k:])) for k in range(len(words) + 1)),
               default=0)  # fmt: skip


def _table(table: TableBlock, width: float) -> list[Any]:
    """A table that may break across pages, its title and header repeated on each.

    The title is the table's first row, spanning it, so it never parts from the rows
    (a title kept with its whole table made a long one jump to the next page and left
    the page before half empty).
    """
    from reportlab.lib.colors import HexColor
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

    styles = _styles()
    first_total = len(table.rows) - table.totals

    # Each column as wide as its widest line (measured in the font), shrunk to fit the page.
    def widest(i: int, size: float) -> float:
        lines = [
            (line, "Sans-Bold" if r >= first_total else "Sans")
            for r, row in enumerate(table.rows)
            for line in row[i].split("\n")
        ]
        cells = max((stringWidth(text, font, size) for text, font in lines), default=0)
        return max(cells, _header_width(table.columns[i]) * size / CELL_SIZE) + 2 * PAD + 1

    # A table of long numbers too wide for the page is set smaller, down to 80 %, before
    # any number is broken across lines (a broken number is misread).
    size = CELL_SIZE
    numbers = sum(widest(i, CELL_SIZE) for i in range(table.left_columns, len(table.columns)))
    if numbers > width * 0.85:
        size = max(CELL_SIZE * 0.8, CELL_SIZE * width * 0.85 / numbers)
    scaled = {
        name: ParagraphStyle(f"{name}-{size}", parent=styles[name], fontSize=size,
                             leading=styles[name].leading * size / CELL_SIZE)
        for name in ("cell", "number")
    }  # fmt: skip

    def cell(text: str, i: int, header: bool = False) -> Paragraph:
        """A cell that wraps; header and total cells in bold."""
        style = scaled["cell"] if i < table.left_columns else scaled["number"]
        return Paragraph(f"<b>{_text(text)}</b>" if header else _text(text), style)

    titled = bool(table.title)
    head = int(titled)  # the index of the header row
    data: list[list[Any]] = []
    if titled:
        title = Paragraph(f"<b>{_text(table.title)}</b>", styles["table-title"])
        data.append([title] + [""] * (len(table.columns) - 1))
    data.append([cell(c, i, header=True) for i, c in enumerate(table.columns)])
    for r, row in enumerate(table.rows):
        data.append([cell(v, i, header=r >= first_total) for i, v in enumerate(row)])

    natural = [widest(i, size) for i in range(len(table.columns))]
    widths = _fitted(natural, width, table.left_columns)
    grid = Table(data, colWidths=widths, repeatRows=head + 1, hAlign="LEFT")
    commands: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), "Sans", size),  # not reportlab's Helvetica, never embedded
        ("BACKGROUND", (0, head), (-1, head), HexColor(BAND)),
        ("LINEBELOW", (0, head), (-1, head), 1, HexColor(LINE)),
        ("LINEBELOW", (0, head + 1), (-1, -1), 0.4, HexColor(LINE)),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("VALIGN", (0, head), (-1, head), "BOTTOM"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ("LEFTPADDING", (0, 0), (-1, -1), PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
    ]
    if titled:
        commands += [("SPAN", (0, 0), (-1, 0)), ("LEFTPADDING", (0, 0), (0, 0), 0),
                     ("BOTTOMPADDING", (0, 0), (-1, 0), 3)]  # fmt: skip
    if table.totals:
        below = first_total + head + 1
        commands.append(("LINEABOVE", (0, below), (-1, below), 1.2, HexColor(INK)))
    grid.setStyle(TableStyle(commands))
    parts: list[Any] = [grid, Spacer(1, 6)]
    if table.note:
        parts.append(Paragraph(_text(table.note), styles["note"]))
    return parts


def _table_start(table: TableBlock) -> float:
    """Points a table needs to begin on a page: its title, header and a few rows (all of
    them for a short table)."""
    rows = len(table.rows) if len(table.rows) <= SMALL_TABLE else MIN_TABLE_START
    lines = sum(max(cell.count("\n") + 1 for cell in row) for row in table.rows[:rows])
    return (int(bool(table.title)) + 1 + lines) * ROW_HEIGHT


def _height(flowables: list[Any], width: float) -> float:
    """How tall these flowables stand, spaces between them included."""
    total = 0.0
    for flowable in flowables:
        total += flowable.wrap(width, 10**6)[1]
        total += flowable.getSpaceBefore() + flowable.getSpaceAfter()
    return total


def _about(document: Document, width: float) -> list[Any]:
    """The header's (label, text) lines: what made the report, and the command."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

    if not document.about:
        return []
    styles = _styles()
    rows = [
        [Paragraph(_text(label), styles["about"]), Paragraph(_text(text), styles["about"])]
        for label, text in document.about
    ]
    label = 28 * mm
    grid = Table(rows, colWidths=[label, width - label], hAlign="LEFT")
    grid.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), "Sans", 8),
                              ("LEFTPADDING", (0, 0), (-1, -1), 0),
                              ("TOPPADDING", (0, 0), (-1, -1), 0.5),
                              ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5),
                              ("VALIGN", (0, 0), (-1, -1), "TOP")]))  # fmt: skip
    return [grid, Spacer(1, 8)]


def _chart(chart: Chart, width: float, height: float) -> list[Any]:
    from reportlab.platypus import Image, Paragraph

    figure = chart.draw()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    inches_wide, inches_high = figure.get_size_inches()
    buffer.seek(0)
    drawn_width = min(
        width * min(1.0, inches_wide / WIDTH), height * 0.82 * inches_wide / inches_high
    )
    image = Image(buffer, width=drawn_width, height=drawn_width * inches_high / inches_wide)
    image.hAlign = "LEFT"
    caption = Paragraph(
        f"<b>{_text(chart.title)}.</b> {_text(chart.caption)}", _styles()["caption"]
    )
    return [image, caption]


def _flowables(
    block: Block, width: float, height: float, on_chart: Callable[[str], None]
) -> list[Any]:
    from reportlab.platypus import Paragraph

    styles = _styles()
    if isinstance(block, Heading):
        heading = Paragraph(_text(block.text), styles[f"h{block.level}"])
        heading.outline = (block.text, block.anchor, block.level - 2)  # type: ignore[attr-defined]
        return [heading]
    if isinstance(block, Prose):
        return [Paragraph(_text(block.text), styles[block.kind])]
    if isinstance(block, TableBlock):
        return _table(block, width)
    on_chart(block.title)
    return _chart(block, width, height)


def write_pdf(
    document: Document, path: pathlib.Path, on_chart: Callable[[str], None] = lambda _: None
) -> pathlib.Path:
    """Write the report to ``path`` (a ``.pdf`` file) and return it."""
    if path.suffix.lower() != ".pdf":
        raise InvalidOption("--pdf", f"write a .pdf file, got {path.name!r}")
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.platypus import CondPageBreak, KeepTogether, Paragraph, SimpleDocTemplate

    class _Template(SimpleDocTemplate):
        def afterFlowable(self, flowable: Any) -> None:
            outline = getattr(flowable, "outline", None)
            if outline is not None:
                text, key, level = outline
                self.canv.bookmarkPage(key)
                self.canv.addOutlineEntry(text, key, level=level)

    def footer(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont("Sans", 7)
        canvas.setFillColorRGB(0.38, 0.49, 0.55)
        canvas.drawString(doc.leftMargin, 10 * mm, f"{document.title} · baccara report")
        canvas.drawRightString(A4[0] - doc.rightMargin, 10 * mm, f"page {doc.page}")
        canvas.restoreState()

    styles = _styles()
    buffer = io.BytesIO()
    template = _Template(
        buffer, pagesize=A4, leftMargin=16 * mm, rightMargin=16 * mm, topMargin=15 * mm,
        bottomMargin=18 * mm, title=document.title, author="baccara", subject=document.subtitle,
        creator="baccara", initialFontName="Sans", invariant=1,
    )  # fmt: skip
    width, height = template.width, template.height
    story: list[Any] = [
        Paragraph(_text(document.title), styles["title"]),
        Paragraph(_text(document.subtitle), styles["subtitle"]),
        *_about(document, width),
    ]
    # A chart stays with its caption, and a heading with the prose under it and the chart
    # or table that follows, so no title is left alone at the foot of a page: a chart
    # moves whole (one KeepTogether per group: reportlab cannot measure one inside
    # another), a table starts where its heading and first rows fit, then breaks.
    held: list[Any] = []

    def flush() -> None:
        if held:
            story.append(CondPageBreak(max(MIN_HEADING_ROOM, _height(held, width))))
            story.extend(held)
            held.clear()

    blocks = document.blocks
    for i, block in enumerate(blocks):
        flowables = _flowables(block, width, height, on_chart)
        if isinstance(block, Heading):
            if block.level == 2:
                flush()
            held += flowables
        elif isinstance(block, Prose) and held:
            held += flowables
        elif isinstance(block, Chart):
            story.append(KeepTogether([*held, *flowables]))
            held.clear()
        elif isinstance(block, TableBlock):
            need = _height(held, width) + _table_start(block)
            after = blocks[i + 1] if i + 1 < len(blocks) else None
            if len(block.rows) <= SMALL_TABLE and isinstance(after, Prose) and after.kind == "body":
                # A short table and the sentence that reads it (a bet's edge) stay together.
                need += _height(_flowables(after, width, height, on_chart), width)
            story.append(CondPageBreak(need))
            story += [*held, *flowables]
            held.clear()
        else:
            story += flowables
    flush()
    template.build(story, onFirstPage=footer, onLaterPages=footer)
    try:
        path.write_bytes(buffer.getvalue())
    except OSError as error:
        raise InvalidOption("--pdf", f"cannot write {str(path)!r}: {error.strerror}") from None
    return path
