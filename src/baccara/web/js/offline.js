// The browser going offline, said in a banner under the header on every page: what the
// page shows may be out of date, and nothing sent now reaches the casino. The table's
// socket reconnects by itself when the browser is online again (live.js).

import { h } from "./dom.js";
import { onLanguage, t } from "./i18n.js";

let banner = null;

function draw() {
  const offline = navigator.onLine === false;
  if (!banner) {
    banner = h("div", { id: "offline-banner", class: "offline-banner", role: "status", "aria-live": "polite", hidden: true });
    const main = document.getElementById("main");
    if (main) main.before(banner);
    else document.body.prepend(banner);
  }
  banner.hidden = !offline;
  banner.textContent = offline ? t("session.offline") : "";
  document.body.classList.toggle("is-offline", offline);
}

/** Start watching the connection (once, from main.js). */
export function watchConnection() {
  window.addEventListener("offline", draw);
  window.addEventListener("online", draw);
  onLanguage(draw);
  draw();
}
