// The casino's HTTP API: JSON in and out, the bearer token, and one error shape.

const TOKEN_KEY = "baccara.token";

export class ApiError extends Error {
  constructor(status, code, detail, params = null) {
    super(detail || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.params = params; // the refusal's figures (amounts in cents), for words.js to word it
  }
}

export function token() {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(value) {
  if (value) localStorage.setItem(TOKEN_KEY, value);
  else localStorage.removeItem(TOKEN_KEY);
}

/**
 * Signed-out listeners: a 401 means the token the request carried is gone or expired.
 * Only that token is forgotten: one saved meanwhile (a new password's, a sign-in in
 * another tab) is the page's now, and a late 401 for the old one leaves it be.
 */
const signedOut = new Set();
export function onSignedOut(listener) {
  signedOut.add(listener);
}

/**
 * `options.signOut: false`: a 401 leaves the page signed in. A socket's ticket is asked
 * for with it: the token may have been replaced meanwhile (a new password from another
 * tab), so whoever is signed in now decides, by asking GET /api/me, whose 401 does sign
 * the page out.
 */
export async function api(method, path, body = undefined, headers = {}, options = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers } };
  const bearer = token();
  if (bearer) init.headers.Authorization = `Bearer ${bearer}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { error: "http", detail: text.slice(0, 200) };
    }
  }
  if (!response.ok) {
    if (response.status === 401 && bearer && token() === bearer && options.signOut !== false) {
      setToken(null);
      for (const listener of signedOut) listener();
    }
    throw new ApiError(response.status, data && data.error, data && data.detail, (data && data.params) || null);
  }
  return data;
}

export const get = (path) => api("GET", path);

/** A one-time ticket for a socket (POST /api/ws-ticket); its 401 signs nobody out. */
export async function socketTicket() {
  return (await api("POST", "/api/ws-ticket", undefined, {}, { signOut: false })).ticket;
}
export const post = (path, body, headers) => api("POST", path, body, headers);
export const put = (path, body) => api("PUT", path, body);
export const del = (path) => api("DELETE", path);

/** A fresh Idempotency-Key: random, chosen here and never by the server. */
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID().replaceAll("-", "");
  return randomHex(16);
}

export function randomHex(bytes) {
  const buffer = new Uint8Array(bytes);
  crypto.getRandomValues(buffer);
  return Array.from(buffer, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Place a bet. A network failure is retried with the same key, so the bet is placed
 * once however many times the request reaches the server.
 */
export async function placeBet(tableId, bet, cents) {
  const key = newKey();
  let lastError = null;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      return await post(`/api/tables/${tableId}/bets`, { bet, amount_cents: cents }, { "Idempotency-Key": key });
    } catch (error) {
      if (error instanceof ApiError) throw error;
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 300 * (attempt + 1)));
    }
  }
  throw lastError;
}

let gamesPromise = null;

/** Every game with its bets' exact house edges (GET /api/games), fetched once. */
export function games() {
  if (!gamesPromise) {
    gamesPromise = get("/api/games").catch((error) => {
      gamesPromise = null;
      throw error;
    });
  }
  return gamesPromise;
}
