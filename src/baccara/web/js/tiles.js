// Several tables on one screen: the tables a page holds (in its address, /multi?tables=1,3),
// and what a table page shows for it — the link that adds a table beside this one, the
// panels a compact table folds away.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The most tables one screen plays at once: each holds a socket of the player's own. */
export const MAX_TABLES = 4;

/** The tables named in an address's query (?tables=1,3): distinct ids, in order, at most four. */
export function tablesIn(search) {
  const listed = new URLSearchParams(search).get("tables") || "";
  const ids = [];
  for (const part of listed.split(",")) {
    const id = Number(part.trim());
    if (/^\d+$/.test(part.trim()) && id > 0 && id < 2 ** 31 && !ids.includes(id)) ids.push(id); // no table past the casino's range
  }
  return ids.slice(0, MAX_TABLES);
}

/** The address of a screen holding these tables. */
export function multiPath(ids) {
  return ids.length ? `/multi?tables=${ids.join(",")}` : "/multi";
}

/** On a table page, the link that plays it beside others; on a compact one, the link to it alone. */
export function moreTables(tableId, compact) {
  return compact
    ? h("a", { href: `/tables/${tableId}`, "data-link": true, class: "open-alone" }, t("lobby.open_alone"))
    : h("a", { href: multiPath([tableId]), "data-link": true, class: "add-table" }, t("lobby.add_table"));
}

/** A compact table's panel folded away under a summary; a full table's as it is. */
export function collapsed(compact, label, node) {
  return compact ? h("details", { class: "table-more" }, h("summary", {}, label), node) : node;
}

/**
 * The reality check another table of the screen shows now, for a table that would ask it
 * too: one question on screen, not one per table. It gives {summary, close}: close stops
 * waiting on it; `onClosed` is called when that table closes it (answered, or the table
 * taken off the screen), and the waiting table asks the casino whether it is still due.
 */
export function sharedRealityCheck(onClosed) {
  const dialog = document.querySelector("dialog.modal-reality[open]");
  if (!dialog) return null;
  const closed = () => onClosed();
  dialog.addEventListener("close", closed, { once: true });
  return { summary: dialog.querySelector(".reality-summary"), close: () => dialog.removeEventListener("close", closed) };
}
