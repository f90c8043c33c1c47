// The squeeze: a face-down card bent up from a corner or a side, as players squeeze a
// baccarat card at a real table. The card is folded along a line that moves in from the
// corner held: the part lifted is drawn mirrored over the card (its plain underside,
// shaded as a curl), and where it was the face shows — the pips come into view corner
// first. The squeezer drags it (mouse or finger), holds it, or uses the keyboard; everyone
// else sees the same drawing with the back only, bent as the squeezer's bends arrive.
// Nothing here knows a face the page was not given: a watcher's card has none to draw.

import { cardName, cardSvg } from "./cards.js";
import { s } from "./dom.js";
import { t } from "./i18n.js";

const W = 100;
const H = 140;
/** Where each corner or side is held, and which way it peels (toward the far corner or side). */
const HOLDS = {
  tl: [0, 0, W, H], tr: [W, 0, 0, H], bl: [0, H, W, 0], br: [W, H, 0, 0],
  t: [W / 2, 0, W / 2, H], b: [W / 2, H, W / 2, 0], l: [0, H / 2, W, H / 2], r: [W, H / 2, 0, H / 2],
};
export const CORNERS = Object.keys(HOLDS);
export const MAX_LIFT = 1000;
/** A card lifted this far is turned over when let go (or at once, by the keyboard). */
export const TURN_AT = 850;
const KEY_STEP = 125;
const FORESHORTEN = 0.82; // the lifted part stands up off the felt: seen from above, it looks shorter
const HOLD_AFTER_MS = 250; // a press held this long without moving starts lifting the card
const HOLD_RATE = 0.55; // lift a millisecond while held
const SMOOTH_MS = 90; // a watcher's card eases to each bend over this long (bends come ~15 a second)
const TURN_MS = 260;
const CARD = [[0, 0], [W, 0], [W, H], [0, H]];

/** Whether the player asked for less motion: every squeeze and turn is then drawn at once. */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * The fold of a card held at `corner` and lifted `lift` (0–1000): the fold line
 * n·X = c, the part of the card lifted (`peeled`, on the corner's side) and the part
 * still flat (`flat`), as polygons in the card's 100 × 140 box, and the transform that
 * lays the lifted part over the card, mirrored across the fold and foreshortened.
 */
export function fold(corner, lift) {
  const [x0, y0, x1, y1] = HOLDS[corner];
  const length = Math.hypot(x1 - x0, y1 - y0);
  const n = [(x1 - x0) / length, (y1 - y0) / length];
  const along = ([x, y]) => (x - x0) * n[0] + (y - y0) * n[1];
  const span = Math.max(...CARD.map(along));
  const depth = (Math.max(0, Math.min(MAX_LIFT, lift)) / MAX_LIFT) * span;
  const c = x0 * n[0] + y0 * n[1] + depth;
  // X' = X + (1 + k)(c − n·X) n: a point before the fold lands k times as far beyond it.
  const k = 1 + FORESHORTEN;
  const matrix = [1 - k * n[0] * n[0], -k * n[0] * n[1], -k * n[0] * n[1], 1 - k * n[1] * n[1], k * c * n[0], k * c * n[1]];
  return { n, c, depth, span, peeled: clip(CARD, n, c, -1), flat: clip(CARD, n, c, 1), matrix };
}

/** The part of polygon `points` on one side of the line n·X = c (side 1: n·X ≥ c). */
function clip(points, n, c, side) {
  const inside = ([x, y]) => side * (x * n[0] + y * n[1] - c) >= 0;
  const out = [];
  points.forEach((p, i) => {
    const q = points[(i + 1) % points.length];
    if (inside(p)) out.push(p);
    if (inside(p) !== inside(q)) {
      const dp = p[0] * n[0] + p[1] * n[1] - c;
      const dq = q[0] * n[0] + q[1] * n[1] - c;
      const t = dp / (dp - dq);
      out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
    }
  });
  return out;
}

const pointsOf = (polygon) => polygon.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ");

/** Which corner or side a press at (x, y) of the card holds: the card's thirds. */
export function holdAt(x, y) {
  const col = x < W * 0.3 ? "l" : x > W * 0.7 ? "r" : "";
  const row = y < H * 0.3 ? "t" : y > H * 0.7 ? "b" : "";
  if (row && col) return `${row}${col}`;
  if (row || col) return row || col;
  return y < H / 2 ? "t" : "b";
}

/** The lift that brings the held corner under the pointer at (x, y). */
export function liftTo(corner, x, y) {
  const [x0, y0, x1, y1] = HOLDS[corner];
  const length = Math.hypot(x1 - x0, y1 - y0);
  const pulled = ((x - x0) * (x1 - x0) + (y - y0) * (y1 - y0)) / length;
  const { span } = fold(corner, 0);
  return Math.round(Math.max(0, Math.min(MAX_LIFT, (MAX_LIFT * pulled) / (1 + FORESHORTEN) / span)));
}

/**
 * Call `send(message)` at most `perSecond` times a second: a message that comes sooner
 * waits, and only the newest one waiting is sent (a bend replaces the one before it).
 * `flush()` sends the waiting one now; `cancel()` drops it.
 */
export function throttle(send, perSecond = 15) {
  const gap = 1000 / perSecond;
  let last = -Infinity;
  let waiting = null;
  let timer = null;
  const fire = () => {
    timer = null;
    if (waiting === null) return;
    const message = waiting;
    waiting = null;
    last = performance.now();
    send(message);
  };
  return {
    push(message) {
      waiting = message;
      if (timer !== null) return;
      const wait = last + gap - performance.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    flush() {
      clearTimeout(timer);
      fire();
    },
    cancel() {
      clearTimeout(timer);
      timer = null;
      waiting = null;
    },
  };
}

let serial = 0;

/**
 * One card of a squeeze. `code` is its face for the squeezer (who bends it: `onBend(corner,
 * lift)` on every change, `onTurn()` once when it is turned over), null for everyone else
 * (who see the back bend as `follow(corner, lift)` is told). `reveal(code)` turns it over
 * with its face once the table exposes it; `onDone()` is called when it lies face up.
 */
export function squeezeCard({ code = null, extraClass = "", label = "", onBend = null, onTurn = null, onDone = null } = {}) {
  serial += 1;
  const id = `squeeze-${serial}`;
  const svg = s("svg", {
    viewBox: `0 0 ${W} ${H}`,
    overflow: "visible",
    class: ["card", "squeeze-card", extraClass],
    "data-squeeze": code ? "mine" : "watching",
  });
  const flatClip = s("polygon");
  const peelClip = s("polygon");
  const shadow = s("polygon", { class: "squeeze-shadow", fill: `url(#${id}-shade)` });
  const curl = s("linearGradient", { id: `${id}-curl`, gradientUnits: "userSpaceOnUse" },
    s("stop", { offset: "0", class: "curl-fold" }),
    s("stop", { offset: "0.12", class: "curl-light" }),
    s("stop", { offset: "0.55", class: "curl-mid" }),
    s("stop", { offset: "1", class: "curl-tip" }));
  const shade = s("linearGradient", { id: `${id}-shade`, gradientUnits: "userSpaceOnUse" },
    s("stop", { offset: "0", class: "shade-near" }),
    s("stop", { offset: "1", class: "shade-far" }));
  const under = s("g", { class: "squeeze-under", "clip-path": `url(#${id}-peel)` });
  const back = s("g", { class: "squeeze-back", "clip-path": `url(#${id}-flat)` });
  const flap = s("g", { class: "squeeze-flap" },
    s("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "flap-paper", fill: `url(#${id}-curl)`, "clip-path": `url(#${id}-peel)` }));
  svg.append(
    s("defs", {}, s("clipPath", { id: `${id}-flat` }, flatClip), s("clipPath", { id: `${id}-peel` }, peelClip), curl, shade),
    under, back, shadow, flap);
  back.append(...cardSvg(null).childNodes);
  under.append(s("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "squeeze-felt" }));

  const card = { element: svg, corner: "br", lift: 0, turned: false, done: false, code: null };
  let target = { corner: "br", lift: 0 };
  let frame = null;

  function setFace(face) {
    card.code = face;
    const drawn = cardSvg(face);
    under.replaceChildren(...drawn.childNodes);
    svg.classList.remove("back", "red", "black");
    svg.classList.add(...[...drawn.classList].filter((c) => c === "red" || c === "black"));
  }

  /** Draw the card as it lies now. */
  function paint() {
    const f = fold(card.corner, card.lift);
    flatClip.setAttribute("points", pointsOf(f.flat.length ? f.flat : [[0, 0]]));
    peelClip.setAttribute("points", pointsOf(f.peeled.length ? f.peeled : [[0, 0]]));
    flap.setAttribute("transform", `matrix(${f.matrix.map((v) => v.toFixed(4)).join(" ")})`);
    const lifting = f.peeled.length > 0 && card.lift < MAX_LIFT; // turned right over: no flap left to draw
    for (const part of [flap, shadow]) {
      if (lifting) part.removeAttribute("display");
      else part.setAttribute("display", "none");
    }
    const [nx, ny] = f.n;
    const at = (d) => [nx * (f.c + d), ny * (f.c + d)]; // a point d beyond the fold line, along n
    const [fx, fy] = at(0);
    // The flap's shading runs from the fold (in its own coordinates: before the mirror) to its tip.
    const [tx, ty] = at(-Math.max(1, f.depth));
    Object.entries({ x1: fx, y1: fy, x2: tx, y2: ty }).forEach(([k, v]) => curl.setAttribute(k, v.toFixed(2)));
    // The shadow the lifted part casts on what lies under it, just inside the fold.
    const reach = Math.min(16, f.depth * (1 + FORESHORTEN));
    const [sx, sy] = at(-reach);
    Object.entries({ x1: fx, y1: fy, x2: sx, y2: sy }).forEach(([k, v]) => shade.setAttribute(k, v.toFixed(2)));
    const band = clip(f.peeled, f.n, f.c - reach, 1);
    shadow.setAttribute("points", pointsOf(band.length ? band : [[0, 0]]));
    svg.dataset.corner = card.corner;
    svg.dataset.lift = String(Math.round(card.lift));
    if (card.code && !card.turned) svg.setAttribute("aria-valuenow", String(Math.round(card.lift / 10)));
  }

  /** Ease toward `target` (a watcher's card between bends; a turn's last lift). */
  function animate(ms, then = null) {
    cancelAnimationFrame(frame);
    if (reducedMotion() || ms <= 0) {
      card.corner = target.corner;
      card.lift = target.lift;
      paint();
      if (then) then();
      return;
    }
    const from = card.lift;
    const start = performance.now();
    const step = (now) => {
      const k = Math.min(1, (now - start) / ms);
      card.lift = from + (target.lift - from) * (1 - (1 - k) * (1 - k));
      paint();
      if (k < 1) frame = requestAnimationFrame(step);
      else if (then) then();
    };
    frame = requestAnimationFrame(step);
  }

  function finish() {
    card.done = true;
    svg.classList.add("turned");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", cardName(card.code));
    svg.removeAttribute("tabindex");
    svg.removeAttribute("aria-valuenow");
    if (onDone) onDone();
  }

  /** Turn the card over, from however far it was lifted: the rest of the face shows. */
  function turnOver() {
    if (card.turned) return;
    card.turned = true;
    target = { corner: card.corner, lift: MAX_LIFT };
    animate(TURN_MS * (1 - card.lift / MAX_LIFT), finish);
  }

  /** A bend from the squeezer, for a watcher's card: it eases there. */
  card.follow = (corner, lift) => {
    if (card.turned || !HOLDS[corner] || !Number.isInteger(lift)) return;
    if (corner !== card.corner) { // another corner: the card lies flat again before it lifts there
      card.corner = corner;
      card.lift = 0;
    }
    target = { corner, lift: Math.max(0, Math.min(MAX_LIFT, lift)) };
    animate(SMOOTH_MS);
  };

  /** The table exposed the card: its face shows, peeled on from where it was bent. */
  card.reveal = (face) => {
    if (card.turned) return;
    if (!card.code) setFace(face);
    turnOver();
  };

  card.stop = () => {
    cancelAnimationFrame(frame);
    release();
  };

  // --- the squeezer's hands --------------------------------------------------------------

  const bend = (corner, lift) => {
    if (card.turned) return;
    const changed = corner !== card.corner || Math.round(lift) !== Math.round(card.lift);
    card.corner = corner;
    card.lift = Math.max(0, Math.min(MAX_LIFT, lift));
    paint();
    if (changed && onBend) onBend(card.corner, Math.round(card.lift));
  };
  const turn = () => {
    if (card.turned) return;
    turnOver();
    if (onTurn) onTurn();
  };

  let press = null;
  const local = (event) => {
    const m = svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  };
  function release() {
    if (!press) return;
    clearTimeout(press.holdTimer);
    cancelAnimationFrame(press.holdFrame);
    window.removeEventListener("pointermove", onMove);
    window.removeEventListener("pointerup", onUp);
    window.removeEventListener("pointercancel", onCancel);
    press = null;
  }
  function onMove(event) {
    if (!press || event.pointerId !== press.id) return;
    const [x, y] = local(event);
    if (!press.moved && Math.hypot(x - press.x, y - press.y) < 4) return;
    if (!press.moved) {
      press.moved = true;
      clearTimeout(press.holdTimer);
      cancelAnimationFrame(press.holdFrame);
    }
    // The held corner follows the pointer: from where it was pressed, plus the lift it had.
    bend(press.corner, press.lift0 + liftTo(press.corner, x, y) - liftTo(press.corner, press.x, press.y));
  }
  function onUp(event) {
    if (!press || event.pointerId !== press.id) return;
    const tapped = !press.moved && !press.held;
    release();
    if (tapped || card.lift >= TURN_AT) turn();
  }
  function onCancel(event) {
    if (press && event.pointerId === press.id) release();
  }
  function hold() {
    press.held = true;
    let last = performance.now();
    const step = (now) => {
      if (!press) return;
      bend(press.corner, card.lift + (now - last) * HOLD_RATE);
      last = now;
      if (card.lift >= MAX_LIFT) return;
      press.holdFrame = requestAnimationFrame(step);
    };
    press.holdFrame = requestAnimationFrame(step);
  }

  if (code) {
    setFace(code);
    svg.setAttribute("tabindex", "0");
    svg.setAttribute("role", "slider"); // how far it is lifted, which the arrow keys change
    svg.setAttribute("aria-valuemin", "0");
    svg.setAttribute("aria-valuemax", "100");
    svg.setAttribute("aria-label", label || t("squeeze.card_label", { card: cardName(code) }));
    svg.setAttribute("aria-description", t("squeeze.card_help"));
    svg.addEventListener("pointerdown", (event) => {
      if (card.turned || press || (event.pointerType === "mouse" && event.button !== 0)) return;
      event.preventDefault(); // no text selection, no scroll: the finger bends the card
      svg.focus({ preventScroll: true });
      const [x, y] = local(event);
      // A press on the part already lifted (or on the flap over the card) holds that corner again.
      const f = fold(card.corner, card.lift);
      const onFlap = card.lift > 0 && x * f.n[0] + y * f.n[1] < f.c + FORESHORTEN * f.depth + 10; // a finger's breadth past its tip
      const corner = onFlap ? card.corner : holdAt(x, y);
      const lift0 = corner === card.corner ? card.lift : 0;
      press = { id: event.pointerId, x, y, corner, lift0, moved: false, held: false, holdTimer: null, holdFrame: null };
      press.holdTimer = setTimeout(hold, HOLD_AFTER_MS);
      window.addEventListener("pointermove", onMove);
      window.addEventListener("pointerup", onUp);
      window.addEventListener("pointercancel", onCancel);
    });
    const SIDES = { ArrowUp: "t", ArrowDown: "b", ArrowLeft: "l", ArrowRight: "r" };
    svg.addEventListener("keydown", (event) => {
      if (card.turned) return;
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        turn();
        return;
      }
      const side = SIDES[event.key];
      if (!side) return;
      event.preventDefault();
      bend(side, (side === card.corner ? card.lift : 0) + KEY_STEP);
      if (card.lift >= TURN_AT) turn();
    });
  } else {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label || cardName(null));
  }
  paint();
  return card;
}
