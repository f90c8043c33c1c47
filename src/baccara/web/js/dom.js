// Small helpers to build the page: elements, SVG, money. No framework, no inline
// handlers or styles (the page runs under a strict Content-Security-Policy).

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key === "value" && "value" in node) node.value = value;
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h("button", {class: "x", onClick: f}, "Deal"). */
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same shape as h(). */
export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function replace(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

const groupings = new Map();

/** The page's language's grouping of whole numbers and its decimal mark (the <html lang>
 * i18n.js sets: 1,234.50 in English and Chinese, 1.234,50 in Vietnamese). */
function grouping() {
  const lang = document.documentElement.lang || "en";
  if (!groupings.has(lang)) {
    const format = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
    const mark = new Intl.NumberFormat(lang, { minimumFractionDigits: 1 }).formatToParts(1.5).find((part) => part.type === "decimal");
    groupings.set(lang, { format, mark: mark ? mark.value : "." });
  }
  return groupings.get(lang);
}

/** Integer cents as 1,234.50 (money is never a float on the wire: the cents are written
 * as digits, never divided). */
export function money(cents) {
  if (cents === null || cents === undefined) return "—";
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const whole = Math.trunc(abs / 100);
  const { format, mark } = grouping();
  const text = `${format.format(whole)}${mark}${String(abs % 100).padStart(2, "0")}`;
  return negative ? `−${text}` : text;
}

/** A change of money with its sign: +9.50, −10.00, ±0.00. */
export function signed(cents) {
  if (cents > 0) return `+${money(cents)}`;
  if (cents < 0) return money(cents);
  return `±${money(0)}`;
}

/** The page's language for dates: English dates read day-first ("6 Apr 2026, 14:05"). */
function dateLocale() {
  const lang = document.documentElement.lang || "en";
  return lang === "en" ? "en-GB" : lang;
}

export function when(seconds) {
  if (!seconds) return "";
  return new Date(seconds * 1000).toLocaleString(dateLocale(), {
    day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit",
  });
}

/** A moment with its year, for what lasts: "6 Apr 2026, 14:05". */
export function dateTime(seconds) {
  if (!seconds) return "";
  return new Date(seconds * 1000).toLocaleString(dateLocale(), {
    day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit",
  });
}


/** An amount typed by a person ("50", "50.5", "1,000.00", "-5") as integer cents; null if it is not one. */
export function parseMoney(text, { negative = false } = {}) {
  const cleaned = String(text).trim().replaceAll(",", "").replace("−", "-");
  const match = /^(-?)(\d{1,10})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match || (match[1] && !negative)) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] || "0").padEnd(2, "0"));
  return match[1] ? -cents : cents;
}

const TOASTS_SHOWN = 3;

/**
 * A short message at the foot of the screen, read out by screen readers. It goes by
 * itself (an error stays longer), a tap or click dismisses it, no more than three are
 * stacked, and while any is shown the page gets room beneath its last control, so a
 * notice never sits over something that cannot be scrolled clear of it.
 */
export function toast(message, kind = "info") {
  const box = document.getElementById("toasts");
  if (!box) return;
  let timer = null;
  const item = h("div", { class: ["toast", `toast-${kind}`], role: kind === "error" ? "alert" : null },
    h("p", {}, message),
    h("button", { type: "button", class: "toast-close", "aria-label": "Dismiss" }, "×"));
  const dismiss = () => {
    clearTimeout(timer);
    item.remove();
    makeRoom(box);
  };
  item.addEventListener("click", dismiss);
  timer = setTimeout(dismiss, kind === "error" ? 8000 : 4500);
  box.append(item);
  while (box.childElementCount > TOASTS_SHOWN) box.firstElementChild.remove();
  makeRoom(box);
}

function makeRoom(box) {
  const shown = box.childElementCount > 0;
  document.body.classList.toggle("has-toasts", shown);
  document.body.style.setProperty("--toasts-height", `${shown ? box.offsetHeight : 0}px`);
}

export function titleCase(text) {
  return text.replace(/\b[a-z]/g, (c) => c.toUpperCase());
}
