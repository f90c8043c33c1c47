"""The page's modules run in Node, as a browser that has read the English catalog runs them.

Vectors for the pure modules (shares, bet plans, roads) run in Node; those modules reach
i18n.js (their words) and through it prefs.js, which read a page's document, storage and
catalog. :func:`in_node` runs such a script after :func:`english_page`: the catalog
read from its files, a page that is touched by nothing else.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
from typing import Any

JS = pathlib.Path(__file__).resolve().parents[2] / "src/baccara/web/js"
NODE = shutil.which("node")
"""Node runs the page's modules as the browser does (they touch no page when imported)."""

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


def module(name: str) -> str:
    """A module of the page's, as a script imports it: its file's URL, quoted."""
    return json.dumps((JS / name).as_uri())


def in_node(prelude: str, body: str, given: Any) -> Any:
    """Run ``prelude`` (its imports), then ``body`` with ``args`` (``given``, as JSON) in
    scope, in Node in an English page; what ``body`` returns, back from JSON."""
    assert NODE is not None, "these vectors run in Node, which is not installed"
    script = (f"{english_page()}{prelude}\n"
              "let text = ''; for await (const chunk of process.stdin) text += chunk;\n"
              "const args = JSON.parse(text);\n"
              f"const out = await (async () => {{ {body} }})();\n"
              "process.stdout.write(JSON.stringify(out));")  # fmt: skip
    done = subprocess.run([NODE, "--input-type=module", "-e", script], input=json.dumps(given),
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
