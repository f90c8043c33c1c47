// The player's preferences (sound, its volume, the pages' language): kept in this browser at
// once, and by the casino for a signed-in player so that they follow them to another
// browser. When a player signs in, the casino's copy is read and wins over this browser's.

import { get, put } from "./api.js";
import { onSession, session, signedIn } from "./session.js";

const KEY = "baccara.preferences";

/** What a player has before they choose: silent, volume 60, the browser's language. */
export const DEFAULTS = Object.freeze({ sound: false, volume: 60, language: null });

const VALID = {
  sound: (value) => typeof value === "boolean",
  volume: (value) => Number.isInteger(value) && value >= 0 && value <= 100,
  language: (value) => value === null || (typeof value === "string" && /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(value)),
};

const listeners = new Set();
let values = stored();
let loadedFor = null; // the username whose saved preferences were read

function stored() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    saved = {}; // unreadable: the defaults
  }
  return merged({ ...DEFAULTS }, saved);
}

function merged(into, from) {
  for (const name of Object.keys(DEFAULTS)) {
    if (from && Object.hasOwn(from, name) && VALID[name](from[name])) into[name] = from[name];
  }
  return into;
}

function keep() {
  try {
    localStorage.setItem(KEY, JSON.stringify(values));
  } catch {
    /* storage full or refused: the preference holds for this page */
  }
}

function changed() {
  const now = { ...values };
  for (const listener of listeners) listener(now);
}

/** The current value of a preference (`sound`, `volume` or `language`). */
export function preference(name) {
  if (!Object.hasOwn(DEFAULTS, name)) throw new TypeError(`no preference named ${name}`);
  return values[name];
}

/**
 * Change a preference: kept in this browser at once, and by the casino when signed in.
 * A value the preference cannot take is refused (a TypeError) and changes nothing. If the
 * casino cannot be reached the change holds in this browser; the promise still resolves.
 */
export async function setPreference(name, value) {
  if (!Object.hasOwn(DEFAULTS, name)) throw new TypeError(`no preference named ${name}`);
  if (!VALID[name](value)) throw new TypeError(`${name} cannot be ${JSON.stringify(value)}`);
  if (values[name] !== value) {
    values = { ...values, [name]: value };
    keep();
    changed();
  }
  if (!signedIn()) return;
  try {
    await put("/api/me/preferences", { [name]: value });
  } catch {
    /* kept in this browser; the casino's copy is the older one until the next change */
  }
}

/** `listener(all preferences)` on every change, and when a signed-in player's are read. */
export function onPreferences(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function loadSaved(username) {
  let saved;
  try {
    saved = await get("/api/me/preferences");
  } catch {
    return; // unreachable or signed out meanwhile: this browser's stay
  }
  if (loadedFor !== username) return; // another player signed in meanwhile
  values = merged({ ...values }, saved);
  keep();
  changed();
}

function follow(now) {
  const username = now.user ? now.user.username : null;
  if (username === loadedFor) return;
  loadedFor = username;
  if (username) loadSaved(username);
}

onSession(follow);
follow(session); // a player signed in before this module was loaded

window.addEventListener("storage", (event) => {
  if (event.key !== KEY) return;
  values = stored(); // changed in another tab of this casino
  changed();
});
