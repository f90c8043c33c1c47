// What the page says when there is nothing to show: an unknown page (the server sends
// the same words for an unknown URL), or a table that does not exist or has closed.

import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

/** The view of a path the casino does not have. */
export function notFoundView(path = location.pathname) {
  return h("section", { class: "panel not-found", "aria-labelledby": "not-found-title" },
    h("h1", { id: "not-found-title" }, t("session.not_found.title")),
    h("p", {}, t("session.not_found.text", { path: path.slice(0, 200) })),
    h("p", {}, h("a", { href: "/", "data-link": true }, t("session.not_found.back"))));
}

/** The view of a table there is none of ("missing") or that has closed ("closed"). */
export function tableGoneView(tableId, why) {
  const closed = why === "closed";
  return h("section", { class: ["panel", "not-found", "table-gone"], "aria-labelledby": "not-found-title", "data-why": closed ? "closed" : "missing" },
    h("h1", { id: "not-found-title" }, closed ? t("session.table_closed.title") : t("session.table_missing.title", { id: tableId })),
    h("p", {}, closed ? t("session.table_closed.text") : t("session.table_missing.text")),
    h("p", {}, h("a", { href: "/", "data-link": true }, t("session.not_found.back"))));
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
