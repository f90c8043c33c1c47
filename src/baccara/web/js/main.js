// The casino in the browser: a router over the pages, the header, the session.

import { games } from "./api.js";
import { h, replace } from "./dom.js";
import { LANGUAGES, chooseLanguage, locale, onLanguage, startLanguage } from "./i18n.js";
import { learnGames } from "./layouts.js";
import { notFoundView } from "./notfound.js";
import { watchConnection } from "./offline.js";
import { restore, session, signOut, signedIn, onSession } from "./session.js";
import "./sessionclock.js"; // the header's session time and net result
import { startSound } from "./sound.js";
import * as lobby from "./pages/lobby.js";
import * as signin from "./pages/signin.js";
import * as table from "./pages/table.js";
import * as multi from "./pages/multi.js";
import * as history from "./pages/history.js";
import * as rules from "./pages/rules.js";
import * as dealer from "./pages/dealer.js";
import * as account from "./pages/account.js";
import * as report from "./pages/report.js";
import * as audit from "./pages/audit.js";
import * as dealers from "./pages/dealers.js";

const ROUTES = [
  [/^\/$/, lobby, false],
  [/^\/sign-in$/, signin, false],
  [/^\/tables\/(\d+)$/, table, false], // anyone may watch; playing asks for a sign-in
  [/^\/multi$/, multi, true],
  [/^\/dealer\/(\d+)$/, dealer, true],
  [/^\/history$/, history, true],
  [/^\/rules\/([a-z-]+)$/, rules, false],
  [/^\/account$/, account, true],
  [/^\/admin\/report$/, report, true],
  [/^\/admin\/audit$/, audit, true],
  [/^\/admin\/dealers$/, dealers, true],
];

let cleanup = null;

/** Where the sign-in page goes once signed in: its ?next=, a path of this casino only. */
function nextOf(page) {
  const next = page === signin ? new URLSearchParams(location.search).get("next") : null;
  return next && /^\/(?![/\\])/.test(next) ? { next } : {};
}

export function navigate(path, { replaceState = false } = {}) {
  if (replaceState) history_.replaceState({}, "", path);
  else history_.pushState({}, "", path);
  render();
}

const history_ = window.history;

async function render() {
  const main = document.getElementById("main");
  if (cleanup) {
    try {
      cleanup();
    } catch {
      /* a page that failed to clean up must not stop the next one */
    }
    cleanup = null;
  }
  const path = location.pathname;
  const found = ROUTES.find(([pattern]) => pattern.test(path));
  if (!found) {
    replace(main, notFoundView(path));
    return;
  }
  const [pattern, page, needsSignIn] = found;
  const params = path.match(pattern).slice(1);
  if (needsSignIn && !signedIn()) {
    cleanup = signin.mount(main, [], { next: path + location.search, navigate }); // with its query: /multi?tables=1,3
    return;
  }
  const section = ["/history", "/rules", "/account", "/admin/report", "/admin/audit", "/admin/dealers"].find((prefix) => path.startsWith(prefix)) || "/";
  document.querySelectorAll(".nav a").forEach((link) => {
    const href = link.getAttribute("href");
    const own = href.startsWith("/rules") ? "/rules" : href;
    if (own === section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  });
  cleanup = page.mount(main, params, { navigate, ...nextOf(page) }) || null;
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  const url = new URL(link.href);
  if (url.origin !== location.origin) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});

window.addEventListener("popstate", render);

document.getElementById("sign-out").addEventListener("click", async () => {
  await signOut();
  navigate("/");
});

let wasSignedIn = null;
onSession(() => {
  const now = Boolean(session.user);
  if (wasSignedIn !== null && wasSignedIn && !now) render(); // the token expired or was refused
  wasSignedIn = now;
});

/** The header's language menu: every language named in itself, the one read now chosen. */
function languageMenu() {
  const menu = document.getElementById("language");
  replace(menu, ...LANGUAGES.map(({ code, name }) => h("option", { value: code, lang: code, selected: code === locale() }, name)));
  menu.value = locale();
}

document.getElementById("language").addEventListener("change", async (event) => {
  await chooseLanguage(event.target.value);
});
onLanguage(() => {
  languageMenu();
  render(); // the page drawn again, in the words of the language chosen
});

watchConnection(); // the offline banner, from the first moment
startSound(); // the header's sound button and volume, before the first page
// Every page draws a game from its facts (GET /api/games), in the player's language:
// both learnt before the first page.
await Promise.all([restore(), games().then(learnGames).catch(() => {}), startLanguage()]);
languageMenu();
wasSignedIn = Boolean(session.user);
render();
