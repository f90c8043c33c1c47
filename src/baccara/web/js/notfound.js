// What the page says when there is nothing to show: an unknown page (the server sends
// the same words for an unknown URL), or a table that does not exist or has closed.

import { h, replace } from "./dom.js";

/** The view of a path the casino does not have. */
export function notFoundView(path = location.pathname) {
  return h("section", { class: "panel not-found", "aria-labelledby": "not-found-title" },
    h("h1", { id: "not-found-title" }, "Page not found"),
    h("p", {}, `There is no page at ${path.slice(0, 200)} in this casino.`),
    h("p", {}, h("a", { href: "/", "data-link": true }, "Back to the lobby")));
}

/** The view of a table there is none of ("missing") or that has closed ("closed"). */
export function tableGoneView(tableId, why) {
  const closed = why === "closed";
  return h("section", { class: ["panel", "not-found", "table-gone"], "aria-labelledby": "not-found-title", "data-why": closed ? "closed" : "missing" },
    h("h1", { id: "not-found-title" }, closed ? "This table is closed" : `Table ${tableId} does not exist`),
    h("p", {}, closed ? "Its rounds are over: the lobby has the tables open now." : "There is no such table in this casino: the lobby lists every table open now."),
    h("p", {}, h("a", { href: "/", "data-link": true }, "Back to the lobby")));
}

/** Draw `view` as the page's whole content, its heading given the focus for a screen reader. */
export function showGone(main, view) {
  replace(main, view);
  const heading = view.querySelector("h1");
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
}
