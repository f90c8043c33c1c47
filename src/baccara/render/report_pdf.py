"""A report as a PDF, laid out by reportlab from the same blocks as the HTML.

reportlab (pure Python, from PyPI) flows paragraphs and long tables across A4
pages, repeating a table's header on each, and keeps a chart with its caption. The
text is set in the DejaVu fonts that matplotlib ships, so the symbols the report
uses (−, σ, √, Σ, ≈) print on any machine. Charts go in as 200 dpi PNGs.
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
                             spaceBefore=10, spaceAfter=6, textColor=HexColor(ACCENT),
                             keepWithNext=1),
        "h3": ParagraphStyle("h3", parent=body, fontName="Mono", fontSize=10.5, leading=14,
                             spaceBefore=8, spaceAfter=3, keepWithNext=1),
        "body": body,
        "note": ParagraphStyle("note", parent=body, fontSize=7.5, leading=10,
                               textColor=HexColor(MUTED)),
        "command": ParagraphStyle("command", parent=body, fontName="Mono", fontSize=7.5,
                                  leading=10, backColor=HexColor(BAND), borderPadding=4,
                                  spaceBefore=4, spaceAfter=8),
        "caption": ParagraphStyle("caption", parent=body, fontSize=7.5, leading=10,
                                  textColor=HexColor(MUTED), spaceAfter=8),
        "table-title": ParagraphStyle("table-title", parent=body, fontSize=CELL_SIZE,
                                      leading=9.5, spaceAfter=3, keepWithNext=1),
        "cell": ParagraphStyle("cell", parent=body, fontSize=CELL_SIZE, leading=9.5,
                               spaceAfter=0),
        "number": ParagraphStyle("number", parent=body, fontSize=CELL_SIZE, leading=9.5,
                                 spaceAfter=0, alignment=TA_RIGHT),
    }  # fmt: skip


def _text(text: str) -> str:
    return escape(text).replace("\n", "<br/>")


def _fitted(natural: list[float], width: float) -> list[float]:
    """Column widths that fit ``width``: the narrow columns keep their width, the widest
    are capped at one common width (and wrap), so a long note never squeezes a label."""
    if sum(natural) <= width:
        return natural
    cap = max(natural)
    for candidate in sorted(natural, reverse=True):
        wider = [w for w in natural if w >= candidate]
        rest = sum(w for w in natural if w < candidate)
        cap = (width - rest) / len(wider)
        if cap >= max((w for w in natural if w < candidate), default=0):
            break
    return [min(w, cap) for w in natural]


def _table(table: TableBlock, width: float) -> list[Any]:
    from reportlab.lib.colors import HexColor
    from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

    styles = _styles()

    def cell(text: str, i: int, header: bool = False) -> Paragraph:
        """A cell that wraps; header and total cells in bold."""
        style = styles["cell"] if i < table.left_columns else styles["number"]
        return Paragraph(f"<b>{_text(text)}</b>" if header else _text(text), style)

    data = [[cell(c, i, header=True) for i, c in enumerate(table.columns)]]
    first_total = len(table.rows) - table.totals
    for r, row in enumerate(table.rows):
        data.append([cell(v, i, header=r >= first_total) for i, v in enumerate(row)])
    # Each column as wide as its widest line (measured in the font), shrunk to fit the page.
    from reportlab.pdfbase.pdfmetrics import stringWidth

    def widest(i: int) -> float:
        lines = [(line, "Sans-Bold") for line in table.columns[i].split("\n")]
        lines += [
            (line, "Sans-Bold" if r >= first_total else "Sans")
            for r, row in enumerate(table.rows)
            for line in row[i].split("\n")
        ]
        return max(stringWidth(text, font, CELL_SIZE) for text, font in lines) + 2 * PAD + 1

    natural = [widest(i) for i in range(len(table.columns))]
    widths = _fitted(natural, width)
    grid = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    commands: list[tuple[Any, ...]] = [
        ("BACKGROUND", (0, 0), (-1, 0), HexColor(BAND)),
        ("LINEBELOW", (0, 0), (-1, 0), 1, HexColor(LINE)),
        ("LINEBELOW", (0, 1), (-1, -1), 0.4, HexColor(LINE)),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ("LEFTPADDING", (0, 0), (-1, -1), PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
    ]
    if table.totals:
        commands.append(
            ("LINEABOVE", (0, first_total + 1), (-1, first_total + 1), 1.2, HexColor(INK))
        )
    grid.setStyle(TableStyle(commands))
    parts: list[Any] = []
    if table.title:
        parts.append(Paragraph(f"<b>{_text(table.title)}</b>", styles["table-title"]))
    parts.append(grid)
    parts.append(Spacer(1, 6))
    if table.note:
        parts.append(Paragraph(_text(table.note), styles["note"]))
    return parts


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
    from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate

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
    )  # fmt: skip
    width, height = template.width, template.height
    story: list[Any] = [
        Paragraph(_text(document.title), styles["title"]),
        Paragraph(_text(document.subtitle), styles["subtitle"]),
    ]
    # A chart stays with its caption, and a heading with the prose under it and the chart
    # that follows, so no title is left alone at the foot of a page. (One KeepTogether
    # per group: reportlab cannot measure one inside another.)
    held: list[Any] = []
    for block in document.blocks:
        flowables = _flowables(block, width, height, on_chart)
        if isinstance(block, Heading) and block.level == 2:
            story += held
            held = []
        if isinstance(block, Heading) or (held and isinstance(block, Prose)):
            held += flowables
        elif isinstance(block, Chart):
            story.append(KeepTogether(held + flowables))
            held = []
        else:
            story += held + flowables
            held = []
    story += held
    template.build(story, onFirstPage=footer, onLaterPages=footer)
    try:
        path.write_bytes(buffer.getvalue())
    except OSError as error:
        raise InvalidOption("--pdf", f"cannot write {str(path)!r}: {error.strerror}") from None
    return path
