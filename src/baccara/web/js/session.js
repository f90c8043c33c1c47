// Who is signed in, and their balance: shown in the header on every page.

import { get, post, put, randomHex, setToken, token, onSignedOut } from "./api.js";
import { money } from "./dom.js";

// The catalog's words, loaded after this module (i18n.js reads the preferences, which
// read the session): a static import would make the three a cycle.
let words = null;
import("./i18n.js").then((i18n) => {
  words = i18n;
  i18n.onLanguage(drawHeader); // the header's words follow a new language
  drawHeader();
});

const listeners = new Set();

export const session = {
  user: null, // {username, role}
  balance: null, // integer cents
};

export function onSession(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed() {
  drawHeader();
  for (const listener of listeners) listener(session);
}

export function setBalance(cents) {
  if (typeof cents !== "number" || cents === session.balance) return;
  session.balance = cents;
  changed();
}

export function signedIn() {
  return Boolean(session.user && token());
}

/** Load the signed-in user (if a token is kept) and give them a client seed. */
export async function restore() {
  if (!token()) {
    session.user = null;
    session.balance = null;
    changed();
    return;
  }
  try {
    const me = await get("/api/me");
    session.user = { username: me.username, role: me.role };
    session.balance = me.balance_cents;
    changed();
    await ensureClientSeed();
  } catch {
    session.user = null;
    session.balance = null;
    changed();
  }
}

export async function signIn(username, password) {
  const answer = await post("/api/auth/login", { username, password });
  setToken(answer.token);
  await restore();
}

export async function register(username, password) {
  await post("/api/auth/register", { username, password });
  await signIn(username, password);
}

function forget() {
  setToken(null);
  session.user = null;
  session.balance = null;
  changed();
}

/**
 * Sign out: the casino revokes this token (it would otherwise stay good until it
 * expires, wherever a copy of it is) and closes its sockets. The page forgets it even
 * when the casino cannot be reached.
 */
export async function signOut() {
  if (token()) {
    try {
      await post("/api/auth/logout");
    } catch {
      /* revoked already, or the casino unreachable: signed out here either way */
    }
  }
  forget();
}

/** Sign out on every device: every token of this user's is revoked, this one too. */
export async function signOutEverywhere() {
  await post("/api/auth/logout-everywhere");
  forget();
}

/** A new password: every other device is signed out; this one gets a new token. */
export async function changePassword(current, next) {
  const answer = await put("/api/me/password", { current_password: current, new_password: next });
  setToken(answer.token);
}

onSignedOut(() => {
  session.user = null;
  session.balance = null;
  changed();
});

/**
 * The client seed is the player's cut of every shoe they are the highest bettor of.
 * A player who has none gets a random one, made here in the browser, on first visit.
 */
export async function ensureClientSeed() {
  const current = await get("/api/me/client-seed");
  if (current.client_seed) return current.client_seed;
  const made = await put("/api/me/client-seed", { client_seed: randomHex(16) });
  return made.client_seed;
}

/** Who is signed in, as the header says it: "ana", a dealer "lee (dealer)". */
function whoText(user) {
  if (user.role === "player") return user.username;
  const key = `session.who.${user.role}`;
  return words && words.has(key) ? words.t(key, { name: user.username }) : `${user.username} (${user.role})`;
}

function drawHeader() {
  const balance = document.getElementById("balance");
  const who = document.getElementById("who");
  const out = document.getElementById("sign-out");
  const signIn = document.getElementById("sign-in-link");
  if (!balance) return;
  balance.textContent = session.user && session.balance !== null ? money(session.balance) : "—";
  balance.parentElement.hidden = !session.user;
  balance.dataset.cents = session.balance === null ? "" : String(session.balance);
  who.textContent = session.user ? whoText(session.user) : "";
  out.hidden = !session.user;
  signIn.hidden = Boolean(session.user);
  const player = Boolean(session.user) && session.user.role === "player";
  const admin = Boolean(session.user) && session.user.role === "admin";
  document.getElementById("nav-account").hidden = !player;
  document.getElementById("nav-report").hidden = !admin;
  document.getElementById("nav-audit").hidden = !admin;
  document.getElementById("nav-dealers").hidden = !admin;
}
