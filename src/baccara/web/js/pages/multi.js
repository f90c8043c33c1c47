// Several tables at once: up to four compact tables on one screen, each with its own
// socket, chips, countdown and result; the balance in the header is the player's one
// balance, which every table's bets and payouts move. The tables are in the address
// (/multi?tables=1,3), so the screen comes back as it was on a reload.

import { get } from "../api.js";
import { h, money, replace } from "../dom.js";
import { t } from "../i18n.js";
import { tableName } from "../layouts.js";
import { MAX_TABLES, multiPath, tablesIn } from "../tiles.js";
import * as table from "./table.js";

/** How the picker names a table: its game, its number, who deals it, its limits. */
export function tableLabel(row) {
  const figures = { table: tableName(row), id: row.id, min: money(row.min_bet_cents), max: money(row.max_bet_cents) };
  return row.mode === "live" ? t("lobby.multi.option_live", figures) : t("lobby.multi.option_electronic", figures);
}

export function mount(main, _params, { navigate } = {}) {
  const ids = tablesIn(location.search);
  const tiles = new Map(); // table id -> {node, stop}
  let known = null; // the casino's tables, from /api/tables
  let stopped = false;

  const grid = h("div", { class: "multi-grid", "data-count": "0" });
  const select = h("select", { id: "multi-table", name: "table" });
  const add = h("button", { type: "submit", class: "primary" }, t("lobby.add_table"));
  const message = h("p", { class: "quiet", id: "multi-message", "aria-live": "polite" });
  const picker = h("form", { class: "multi-picker", "aria-label": t("lobby.multi.add_label"), onSubmit: (event) => {
    event.preventDefault();
    const id = Number(select.value);
    if (id) addTile(id);
  } },
  h("label", { for: "multi-table" }, t("lobby.multi.table_to_add")), select, add);

  replace(main, h("section", { class: "multi-page", "aria-labelledby": "multi-title" },
    h("header", { class: "multi-head" },
      h("h1", { id: "multi-title" }, t("lobby.multi.title")),
      h("p", { class: "quiet" }, t("lobby.multi.lead", { n: MAX_TABLES })),
      picker, message),
    grid));

  const nameOf = (id) => {
    const found = known && known.find((row) => row.id === id);
    return found ? t("lobby.multi.name", { table: tableName(found), id }) : t("lobby.multi.name_bare", { id });
  };

  /** The address holds the tables on screen; the page itself stays as it is. */
  function remember() {
    const path = multiPath([...tiles.keys()]);
    if (location.pathname + location.search !== path) window.history.replaceState({}, "", path);
  }

  function drawPicker() {
    const shown = new Set(tiles.keys());
    const full = shown.size >= MAX_TABLES;
    const free = (known || []).filter((row) => !shown.has(row.id));
    replace(select, free.map((row) => h("option", { value: String(row.id) }, tableLabel(row))));
    select.disabled = full || !free.length;
    add.disabled = full || !free.length;
    grid.dataset.count = String(shown.size);
    if (known === null) message.textContent = t("lobby.multi.loading");
    else if (full) message.textContent = t("lobby.multi.full", { n: MAX_TABLES });
    else if (!shown.size) message.textContent = t("lobby.multi.choose");
    else if (!free.length) message.textContent = t("lobby.multi.all_shown");
    else message.textContent = "";
  }

  function addTile(id) {
    if (stopped || tiles.has(id) || tiles.size >= MAX_TABLES) return;
    const body = h("div", { class: "multi-body" });
    const remove = h("button", { type: "button", class: "link-button multi-remove", "aria-label": t("lobby.multi.remove_label", { table: nameOf(id) }),
      onClick: () => removeTile(id) }, t("lobby.multi.remove"));
    const node = h("div", { class: "multi-tile", "data-table-id": String(id) }, remove, body);
    grid.append(node);
    const stop = table.mount(body, [String(id)], { navigate, compact: true, prefix: `t${id}-` });
    tiles.set(id, { node, stop });
    remember();
    drawPicker();
  }

  function removeTile(id) {
    const tile = tiles.get(id);
    if (!tile) return;
    tiles.delete(id);
    if (tile.stop) tile.stop(); // its socket closes: the player's sockets are few (8 at most)
    tile.node.remove();
    remember();
    drawPicker();
    select.focus();
  }

  for (const id of ids) addTile(id);
  drawPicker();
  get("/api/tables").then((rows) => {
    if (stopped) return;
    known = rows;
    for (const [id, tile] of tiles) {
      tile.node.querySelector(".multi-remove").setAttribute("aria-label", t("lobby.multi.remove_label", { table: nameOf(id) }));
    }
    drawPicker();
  }).catch(() => {
    if (stopped) return;
    known = [];
    drawPicker();
    message.textContent = t("lobby.multi.load_failed");
  });

  return () => {
    stopped = true;
    for (const tile of tiles.values()) if (tile.stop) tile.stop();
    tiles.clear();
  };
}
