"""English left on a page the casino shows in Chinese: every Latin-script word a reader
meets — text shown, and the names a screen reader says (``aria-label``, ``title``,
``placeholder``, ``alt``) — less the words every language writes alike: the brand, card
and tile codes, the player's own username.

A page in zh-Hans or zh-Hant should list nothing here; a word listed is a string some
module still writes in English instead of taking it from the catalog.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from playwright.sync_api import Page

KEPT = ("baccara",)
"""Words every language writes as they are: the casino's name."""
CODES = re.compile(r"^(?:(?:10|[2-9TJQKA])[SHDC♠♥♦♣]?|[SHDC]|\d+[A-Za-z]?|[0-9a-f]{8,})$")
"""A card's code (``KS``, ``10H``), a figure with a unit letter, a hash or a seed in hex
(a provably fair round's): not words."""

WORDS = """([attributes, root]) => {
  const found = [];
  const top = root ? document.querySelector(root) : document.body;
  if (!top) return [];
  const shown = (el) => el && !el.closest('[hidden], [aria-hidden="true"], script, style, noscript, template')
    && el.checkVisibility({ visibilityProperty: true, opacityProperty: false });
  const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    if (text && /[A-Za-z]/.test(text) && shown(node.parentElement)) found.push([text, node.parentElement.outerHTML.slice(0, 120)]);
  }
  for (const el of top.querySelectorAll('*')) {
    if (!shown(el) && !(el.closest('svg') && shown(el.closest('svg').parentElement))) continue;
    for (const name of attributes) {
      const value = el.getAttribute(name);
      if (value && /[A-Za-z]/.test(value)) found.push([value, `${name} of <${el.tagName.toLowerCase()}>`]);
    }
  }
  const title = document.title;
  if (!root && /[A-Za-z]/.test(title)) found.push([title, 'the document title']);
  return found;
}"""
ATTRIBUTES = ["aria-label", "title", "placeholder", "alt"]


def latin_words(
    page: Page, also: Iterable[str] = (), root: str | None = None
) -> list[tuple[str, str]]:
    """The Latin-script words a reader meets on ``page`` now (or inside the element
    ``root`` selects: a dialog), each with the text it is in and where:
    ``[("Reconnecting", "<span class=conn>…")]``; ``also`` are words this page may show
    as they are (a username, a name someone chose)."""
    kept = {word.lower() for word in (*KEPT, *also)}
    left = []
    for text, where in page.evaluate(WORDS, [ATTRIBUTES, root]):
        for word in re.findall(r"[A-Za-z0-9♠♥♦♣]*[A-Za-z][A-Za-z0-9♠♥♦♣]*", text):
            if word.lower() not in kept and not CODES.match(word):
                left.append((text, where))
                break
    return left
