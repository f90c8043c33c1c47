// The casino's words in the player's language. Every string a page shows comes from the
// locale's message catalog (GET /i18n/<locale>.json, baccara/web/i18n/<locale>/<area>.json):
// t("common.nav.lobby"), t("words.points", { n: 3 }). A plural is an entry of CLDR forms
// picked by Intl.PluralRules, never "s" glued on; `{n}` is written with the locale's
// digits. A key no catalog has is a bug a test finds (tests/test_catalogs.py), so t()
// says so loudly in the console and shows the key, rather than English in its place.
//
// Which language: the one the player chose (remembered per player, prefs.js), else the
// one the casino chose for this browser from its Accept-Language (the shell's
// <html data-locale>), else English.

import { onPreferences, preference, setPreference } from "./prefs.js";


export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "zh-Hans", name: "简体中文" },
  { code: "zh-Hant", name: "繁體中文" },
];
/** The languages the casino speaks, each named in itself (as a language menu lists them). */

const KNOWN = new Set(LANGUAGES.map((l) => l.code));
let current = "en";
let messages = {};
let loaded = false; // a catalog has been read
let plurals = new Intl.PluralRules("en");
let digits = new Intl.NumberFormat("en", { maximumFractionDigits: 2 });
const listeners = new Set();

/** The locale the page reads in: "en", "zh-Hans", "zh-Hant". */
export function locale() {
  return current;
}

function wanted() {
  const chosen = preference("language");
  if (chosen && KNOWN.has(chosen)) return chosen;
  const served = document.documentElement.dataset.locale;
  return served && KNOWN.has(served) ? served : "en";
}

async function load(code) {
  const response = await fetch(`/i18n/${encodeURIComponent(code)}.json`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`no catalog for ${code}: ${response.status}`);
  messages = await response.json();
  loaded = true;
  current = code;
  plurals = new Intl.PluralRules(code);
  digits = new Intl.NumberFormat(code, { maximumFractionDigits: 2 });
  document.documentElement.lang = code;
  translate(document);
}

/** Read the catalog of the language the player reads (before the first page is drawn). */
export async function startLanguage() {
  // A signed-in player's saved language, read after the page started (or chosen in
  // another browser), is followed as if chosen here.
  onPreferences(async () => {
    const code = wanted();
    if (code === current) return;
    await load(code);
    for (const listener of listeners) listener(code);
  });
  const code = wanted();
  try {
    await load(code);
  } catch (error) {
    console.error(error);
    if (code !== "en") await load("en");
  }
}

/** Switch to another language: its catalog, the page's fixed words, every listener (which
 * draws the page again); remembered for the player. */
export async function chooseLanguage(code) {
  if (!KNOWN.has(code)) throw new Error(`unknown language ${code}`);
  await setPreference("language", code);
  if (code === current) return;
  await load(code);
  for (const listener of listeners) listener(code);
}

/** Called with the new locale whenever the player switches language. */
export function onLanguage(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A message of the catalog, its {placeholders} filled from `params`. */
export function t(key, params = {}) {
  let entry = messages[key];
  if (entry === undefined && !loaded) return ""; // asked before any catalog is read: no words yet
  if (entry === undefined) {
    console.error(`no message ${key} in the ${current} catalog`);
    return key;
  }
  if (typeof entry === "object" && entry !== null) {
    const n = Number(params.n);
    entry = entry[plurals.select(n)] ?? entry.other;
  }
  return entry.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return name === "n" && typeof value === "number" ? digits.format(value) : String(value);
  });
}

/** Whether the catalog has `key` (for words built from a server's id: a bet's outcome). */
export function has(key) {
  return key in messages;
}

/**
 * The fixed words of static HTML under `root`: `data-i18n="key"` sets an element's text,
 * `data-i18n-attr="aria-label:key;title:key2"` its attributes.
 */
export function translate(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((part) => part.trim());
      if (attr && key) node.setAttribute(attr, t(key));
    }
  }
}
