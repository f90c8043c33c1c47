"""A report as one self-contained HTML file: inline CSS, charts as inline SVG, no network.

The file opens in any browser offline and prints cleanly. Charts are matplotlib SVG
with the text drawn as paths (the same look on every machine) and a per-chart salt
for the ids matplotlib writes, so several charts share a page without clashing.
Each table carries its key as ``id`` so a reader (or a test) can find it.
"""

from __future__ import annotations

import io
import pathlib
import re
from collections.abc import Callable
from html import escape

from baccara.errors import InvalidOption
from baccara.render.charts import WIDTH
from baccara.render.document import Block, Chart, Document, Heading, Prose, TableBlock

CSS = """
:root { --ink: #263238; --muted: #607d8b; --line: #cfd8dc; --band: #f5f7f8; --accent: #1565c0; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
       font: 15px/1.5 "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; }
main { max-width: 1060px; margin: 0 auto; padding: 28px 28px 60px; }
header { border-bottom: 3px solid var(--accent); margin-bottom: 18px; padding-bottom: 8px; }
h1 { font-size: 28px; margin: 0 0 4px; }
.subtitle { color: var(--muted); margin: 0; font-size: 14px; }
table.about { margin: 8px 0 4px; font-size: 13px; }
table.about tbody tr th, table.about tbody tr td { background: none; border: 0;
    padding: 1px 12px 1px 0; white-space: normal; font-weight: normal; }
table.about tbody tr th { color: var(--muted); white-space: nowrap; }
nav { background: var(--band); border: 1px solid var(--line); border-radius: 6px;
      padding: 10px 16px; margin: 0 0 24px; font-size: 14px; }
nav ol { margin: 4px 0 0; padding-left: 22px; columns: 2; }
nav a, h2 a { color: var(--accent); text-decoration: none; }
h2 { font-size: 21px; margin: 36px 0 10px; padding-top: 8px; border-top: 1px solid var(--line); }
h3 { font-size: 16px; margin: 22px 0 6px; font-family: "DejaVu Sans Mono", Menlo, monospace; }
p { margin: 6px 0 10px; }
p.note { color: var(--muted); font-size: 13px; }
p.command { font: 13px/1.4 "DejaVu Sans Mono", Menlo, Consolas, monospace; background: var(--band);
            border-left: 3px solid var(--accent); padding: 6px 10px; overflow-wrap: anywhere; }
figure { margin: 14px 0 18px; }
figure svg { width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; }
figcaption b { color: var(--ink); }
.scroll { overflow-x: auto; margin: 8px 0 6px; }
table { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: bold; padding: 4px 0; }
th, td { padding: 3px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--band); border-bottom: 2px solid var(--line); text-align: right; }
td { text-align: right; white-space: nowrap; }
th.label, td.label { text-align: left; }
td.label { white-space: normal; min-width: 6em; }
tbody tr:nth-child(even) td { background: #fafbfc; }
tr.total td { font-weight: bold; border-top: 2px solid var(--ink); background: #fff; }
td .change { color: var(--muted); }
@media print { nav { display: none; } h2 { break-before: page; } figure, table { break-inside: avoid; } }
"""

_SVG_START = re.compile(r"<svg\b[^>]*>", flags=re.S)


def _svg(chart: Chart) -> str:
    """The chart as an inline ``<svg>`` element that scales to the column width."""
    import matplotlib

    figure = chart.draw()
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": f"baccara-{chart.key}", "svg.fonttype": "path"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    start = text.index("<svg")
    opening = _SVG_START.search(text, start)
    assert opening is not None
    tag = re.sub(r'\s(width|height)="[^"]*"', "", opening.group(0))
    # A chart drawn narrower than the full width (the square heat map) keeps its proportion.
    share = min(1.0, figure.get_size_inches()[0] / WIDTH)
    tag = tag.replace(
        "<svg",
        f'<svg role="img" aria-label="{escape(chart.title)}" style="max-width: {share:.0%}"',
        1,
    )
    return tag + text[opening.end() :]


def _cell(text: str, label: bool) -> str:
    first, _, rest = text.partition("\n")
    body = escape(first) + (f'<br><span class="change">{escape(rest)}</span>' if rest else "")
    return f'<td class="label">{body}</td>' if label else f"<td>{body}</td>"


def _table(table: TableBlock) -> str:
    head = "".join(
        f'<th class="label">{escape(c)}</th>' if i < table.left_columns else f"<th>{escape(c)}</th>"
        for i, c in enumerate(table.columns)
    )
    first_total = len(table.rows) - table.totals
    body = []
    for r, row in enumerate(table.rows):
        cells = "".join(_cell(v, i < table.left_columns) for i, v in enumerate(row))
        body.append(f'<tr class="total">{cells}</tr>' if r >= first_total else f"<tr>{cells}</tr>")
    caption = f"<caption>{escape(table.title)}</caption>" if table.title else ""
    note = f'<p class="note">{escape(table.note)}</p>' if table.note else ""
    return (
        f'<div class="scroll"><table id="{escape(table.key)}">{caption}'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>{note}"
    )


def _block(block: Block, on_chart: Callable[[str], None]) -> str:
    if isinstance(block, Heading):
        tag = f"h{block.level}"
        return f'<{tag} id="{escape(block.anchor)}">{escape(block.text)}</{tag}>'
    if isinstance(block, Prose):
        return f'<p class="{block.kind}">{escape(block.text)}</p>'
    if isinstance(block, TableBlock):
        return _table(block)
    on_chart(block.title)
    caption = f"<b>{escape(block.title)}.</b> {escape(block.caption)}"
    return f'<figure id="chart-{escape(block.key)}">{_svg(block)}<figcaption>{caption}</figcaption></figure>'


def _about(document: Document) -> str:
    """The header's (label, text) lines as a two-column table, ``id="about"``."""
    if not document.about:
        return ""
    rows = "".join(
        f'<tr><th class="label">{escape(label)}</th><td class="label">{escape(text)}</td></tr>'
        for label, text in document.about
    )
    return f'<table id="about" class="about"><tbody>{rows}</tbody></table>'


def html_text(document: Document, on_chart: Callable[[str], None] = lambda _: None) -> str:
    """The whole report as one HTML page; ``on_chart`` hears each chart's title as it is drawn."""
    contents = "".join(
        f'<li><a href="#{escape(h.anchor)}">{escape(h.text)}</a></li>' for h in document.sections()
    )
    body = "\n".join(_block(b, on_chart) for b in document.blocks)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{escape(document.title)}</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{CSS}</style></head>\n<body><main>"
        f"<header><h1>{escape(document.title)}</h1>"
        f'<p class="subtitle">{escape(document.subtitle)}</p>{_about(document)}</header>'
        f"<nav><b>Contents</b><ol>{contents}</ol></nav>\n{body}\n</main></body></html>\n"
    )


def write_html(
    document: Document, path: pathlib.Path, on_chart: Callable[[str], None] = lambda _: None
) -> pathlib.Path:
    """Write the report to ``path`` (an ``.html`` file) and return it."""
    if path.suffix.lower() not in (".html", ".htm"):
        raise InvalidOption("--out", f"write an .html file, got {path.name!r}")
    text = html_text(document, on_chart)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise InvalidOption("--out", f"cannot write {str(path)!r}: {error.strerror}") from None
    return path
