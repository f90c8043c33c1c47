// The header's play session: how long the signed-in player's session has lasted, ticking
// each second, and its net result ("Session 0:12:34 · Net +25.00"), on every page.
//
// The casino counts the session (GET /api/me/protections): from the player's first bet
// until 30 minutes pass without one. Its time is counted on from the seconds the casino
// says have passed, on this page's own steady clock, so a browser whose clock is wrong
// still shows the right time. The result changes only when money moves — a bet, a bet
// taken back, a round paid — and each of those changes the balance, in this tab or
// (over the table's socket) in another: a new balance reads the session again.

import { get } from "./api.js";
import { h, signed } from "./dom.js";
import { t } from "./i18n.js";
import { onSession, session } from "./session.js";

const READ_AFTER_MS = 250; // a burst of balances (a rebet of five spots) reads once
const READ_EVERY_MS = 60000; // a bet on another device, where no balance reached this page

let shown = null; // {seconds, at, net, left}: the session as last read, at performance.now()
let ticker = null;
let reading = null;
let pending = null;
let refresher = null;
let lastBalance;
let lastUser = null;

/** h:mm:ss — 0:05:07, 1:02:03. */
export function clockText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = whole % 60;
  return `${hours}:${String(minutes).padStart(2, "0")}:${String(secs).padStart(2, "0")}`;
}

function element() {
  let box = document.getElementById("session-clock");
  if (box) return box;
  const wallet = document.querySelector(".top .wallet");
  if (!wallet) return null;
  // Its words are data-i18n: a language chosen later rewrites them with the shell's (i18n.js).
  box = h("div", { id: "session-clock", class: "session-clock", hidden: true, title: t("session.clock.title"), "data-i18n-attr": "title:session.clock.title" },
    h("span", { class: "session-part" },
      h("span", { class: "session-label", "data-i18n": "session.clock.session" }, t("session.clock.session")), " ",
      h("span", { id: "session-time", class: "session-time" }, "0:00:00")),
    h("span", { class: "session-dot", "aria-hidden": "true" }, "·"),
    h("span", { class: "session-part" },
      h("span", { class: "session-label", "data-i18n": "session.clock.net" }, t("session.clock.net")), " ",
      h("output", { id: "session-net", class: "session-net", "aria-live": "polite" }, "±0.00")));
  wallet.before(box);
  return box;
}

function elapsed() {
  return shown.seconds + (performance.now() - shown.at) / 1000;
}

function draw() {
  const box = element();
  if (!box) return;
  const player = session.user && session.user.role === "player";
  box.hidden = !player;
  // A player with no session yet keeps the line's room (idle: unseen), so the header
  // does not grow under their finger at their first bet.
  box.classList.toggle("idle", !shown);
  if (!player || !shown) return;
  const seconds = elapsed();
  if (seconds >= shown.left) {
    // 30 minutes without a bet: that session is over; the next bet starts another.
    shown = null;
    box.classList.add("idle");
    read();
    return;
  }
  const time = document.getElementById("session-time");
  time.textContent = clockText(seconds);
  time.dataset.seconds = String(Math.floor(seconds));
  const net = document.getElementById("session-net");
  net.textContent = signed(shown.net);
  net.dataset.cents = String(shown.net);
  net.classList.toggle("up", shown.net > 0);
  net.classList.toggle("down", shown.net < 0);
}

async function read() {
  if (reading) {
    pending = true;
    return;
  }
  const player = session.user && session.user.role === "player";
  if (!player) return;
  reading = (async () => {
    try {
      const mine = await get("/api/me/protections");
      const played = mine.session;
      shown = played ? {
        seconds: played.time_played_seconds,
        at: performance.now(),
        net: played.net_cents,
        left: played.ends_at - played.started_at,
      } : null;
    } catch {
      /* signed out meanwhile, or the casino unreachable: what is shown stays */
    }
  })();
  await reading;
  reading = null;
  draw();
  if (pending) {
    pending = false;
    read();
  }
}

let soon = null;
function readSoon() {
  clearTimeout(soon);
  soon = setTimeout(read, READ_AFTER_MS);
}

function start() {
  if (!ticker) ticker = setInterval(draw, 1000);
  if (!refresher) refresher = setInterval(read, READ_EVERY_MS);
}

function stop() {
  clearInterval(ticker);
  clearInterval(refresher);
  ticker = refresher = null;
  shown = null;
  draw();
}

onSession(() => {
  const user = session.user ? `${session.user.username}/${session.user.role}` : null;
  if (user !== lastUser) {
    lastUser = user;
    lastBalance = session.balance;
    if (user && session.user.role === "player") {
      start();
      read();
    } else {
      stop();
    }
    return;
  }
  if (user && session.balance !== lastBalance) {
    lastBalance = session.balance;
    readSoon();
  }
});
