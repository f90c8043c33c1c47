"""The page's modules run in Node, as a browser that has read the English catalog runs them.

Vectors for the pure modules (shares, bet plans, roads) run in Node; those modules reach
i18n.js (their words) and through it prefs.js, which read a page's document, storage and
catalog. :func:`english_page` is the JavaScript to put first in such a script: the
catalog read from its files, a page that is touched by nothing else.
"""

from __future__ import annotations

import json
import pathlib

JS = pathlib.Path(__file__).resolve().parents[2] / "src/baccara/web/js"

_PAGE = """
import fs from "node:fs";
const catalog = {};
const folder = %s;
for (const name of fs.readdirSync(folder)) Object.assign(catalog, JSON.parse(fs.readFileSync(`${folder}/${name}`, "utf8")));
globalThis.document = { documentElement: { lang: "en", dataset: {} }, querySelectorAll: () => [],
  querySelector: () => null, getElementById: () => null };
globalThis.window = { addEventListener: () => {} };
globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.fetch = async () => ({ ok: true, json: async () => catalog });
await (await import(%s)).startLanguage();
"""


def english_page() -> str:
    """JavaScript that stands in for a page with the English catalog read."""
    return _PAGE % (
        json.dumps(str(JS.parent / "i18n" / "en")),
        json.dumps((JS / "i18n.js").as_uri()),
    )
