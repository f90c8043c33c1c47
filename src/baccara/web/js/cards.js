// Playing cards, Lo-Ball tiles and dice, drawn in SVG: pips laid out as on a real card,
// suits as paths (no font needed), tiles twice as long as wide.

import { s } from "./dom.js";
import { t } from "./i18n.js";

export const SUITS = {
  S: { name: "Spades", red: false },
  H: { name: "Hearts", red: true },
  D: { name: "Diamonds", red: true },
  C: { name: "Clubs", red: false },
};
const RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };

/** "10H" → {rank: "10", suit: "H"}. */
export function parseCard(code) {
  const match = /^(10|[2-9AJQK])([SHDC])$/.exec(code || "");
  return match ? { rank: match[1], suit: match[2] } : null;
}

export function cardName(code) {
  const card = parseCard(code);
  if (!card) return t("games.card.face_down");
  return t("games.card.name", { rank: RANK_NAMES[card.rank] ? t(`games.card.rank.${card.rank}`) : card.rank, suit: t(`games.card.suit.${card.suit}`) });
}

/** Baccarat value: Ace 1, 2-9 face value, tens and faces 0. */
export function cardValue(code) {
  const card = parseCard(code);
  if (!card) return 0;
  if (card.rank === "A") return 1;
  if (["10", "J", "Q", "K"].includes(card.rank)) return 0;
  return Number(card.rank);
}

export function handScore(codes) {
  return codes.reduce((sum, code) => sum + cardValue(code), 0) % 10;
}

// Each suit in a 100 × 100 box.
const SUIT_PATHS = {
  H: "M50 92 C20 68 2 48 2 28 C2 12 14 2 28 2 C39 2 46 9 50 18 C54 9 61 2 72 2 C86 2 98 12 98 28 C98 48 80 68 50 92 Z",
  D: "M50 2 L88 50 L50 98 L12 50 Z",
  S: "M50 2 C60 18 98 40 98 62 C98 77 87 86 74 86 C65 86 58 82 54 75 C56 86 61 93 70 98 L30 98 C39 93 44 86 46 75 C42 82 35 86 26 86 C13 86 2 77 2 62 C2 40 40 18 50 2 Z",
  C: "M50 4 C63 4 72 14 72 26 C72 33 69 39 64 43 C67 42 70 41 74 41 C87 41 97 51 97 64 C97 77 87 87 74 87 C65 87 58 82 54 75 C56 86 61 93 70 98 L30 98 C39 93 44 86 46 75 C42 82 35 87 26 87 C13 87 3 77 3 64 C3 51 13 41 26 41 C30 41 33 42 36 43 C31 39 28 33 28 26 C28 14 37 4 50 4 Z",
};

function suitShape(suit, cx, cy, size, flip = false) {
  const k = size / 100;
  const move = `translate(${cx - size / 2} ${cy - size / 2}) scale(${k})`;
  return s("path", {
    d: SUIT_PATHS[suit],
    class: "suit",
    transform: flip ? `rotate(180 ${cx} ${cy}) ${move}` : move,
  });
}

const L = 31;
const C = 50;
const R = 69;
const ROWS4 = [30, 56.7, 83.3, 110];
const PIPS = {
  2: [[C, 30], [C, 110]],
  3: [[C, 30], [C, 70], [C, 110]],
  4: [[L, 30], [R, 30], [L, 110], [R, 110]],
  5: [[L, 30], [R, 30], [C, 70], [L, 110], [R, 110]],
  6: [[L, 30], [R, 30], [L, 70], [R, 70], [L, 110], [R, 110]],
  7: [[L, 30], [R, 30], [C, 50], [L, 70], [R, 70], [L, 110], [R, 110]],
  8: [[L, 30], [R, 30], [C, 50], [L, 70], [R, 70], [C, 90], [L, 110], [R, 110]],
  9: [...ROWS4.flatMap((y) => [[L, y], [R, y]]), [C, 70]],
  10: [...ROWS4.flatMap((y) => [[L, y], [R, y]]), [C, 43.3], [C, 96.7]],
};

let serial = 0;

function corner(card, flip) {
  const group = s("g", { class: "index", transform: flip ? "rotate(180 50 70)" : null });
  group.append(
    s("text", { x: card.rank === "10" ? 11 : 10.5, y: 21, "text-anchor": "middle", class: card.rank === "10" ? "rank rank-10" : "rank" }, card.rank),
    suitShape(card.suit, 10.5, 32, 12),
  );
  return group;
}

/** One playing card; `code` null draws its back. */
export function cardSvg(code, extraClass = "") {
  const card = parseCard(code);
  const svg = s("svg", {
    viewBox: "0 0 100 140",
    class: ["card", card ? (SUITS[card.suit].red ? "red" : "black") : "back", extraClass],
    role: "img",
    "aria-label": cardName(code),
  });
  if (!card) {
    serial += 1;
    const id = `lattice-${serial}`;
    svg.append(
      s("defs", {},
        s("pattern", { id, width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
          s("rect", { width: 10, height: 10, class: "back-ground" }),
          s("path", { d: "M0 5 H10 M5 0 V10", class: "back-line" }))),
      s("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "card-edge" }),
      s("rect", { x: 8, y: 8, width: 84, height: 124, rx: 4, fill: `url(#${id})`, class: "back-panel" }),
    );
    return svg;
  }
  svg.append(s("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "card-edge" }));
  svg.append(corner(card, false), corner(card, true));
  if (card.rank === "A") {
    svg.append(suitShape(card.suit, 50, 70, card.suit === "S" ? 46 : 36));
  } else if (PIPS[card.rank]) {
    for (const [x, y] of PIPS[card.rank]) svg.append(suitShape(card.suit, x, y, 17, y > 70));
  } else {
    svg.append(
      s("rect", { x: 22, y: 20, width: 56, height: 100, rx: 3, class: "court-frame" }),
      suitShape(card.suit, 33, 32, 13),
      suitShape(card.suit, 67, 108, 13, true),
      s("text", { x: 50, y: 84, "text-anchor": "middle", class: "court" }, card.rank),
    );
  }
  return svg;
}

// --- Lo-Ball tiles: 1 × 2, each half 1 to 7 pips ---------------------------------------

const T = [14, 25, 36];
const TILE_PIPS = {
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]],
  7: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2], [1, 1]],
};

export function parseTile(code) {
  const match = /^([1-7])-([1-7])$/.exec(code || "");
  return match ? [Number(match[1]), Number(match[2])] : null;
}

/** A Lo-Ball tile, twice as long as wide; `code` null draws its back. */
export function tileSvg(code, extraClass = "") {
  const tile = parseTile(code);
  const svg = s("svg", {
    viewBox: "0 0 50 100",
    class: ["tile", tile ? "face" : "back", extraClass],
    role: "img",
    "aria-label": tile ? t("games.tile.name", { tile: code }) : t("games.tile.face_down"),
  });
  svg.append(s("rect", { x: 1, y: 1, width: 48, height: 98, rx: 6, class: "tile-edge" }));
  if (!tile) {
    svg.append(s("rect", { x: 6, y: 6, width: 38, height: 88, rx: 3, class: "tile-panel" }));
    return svg;
  }
  svg.append(s("line", { x1: 7, y1: 50, x2: 43, y2: 50, class: "tile-line" }));
  tile.forEach((number, half) => {
    for (const [col, row] of TILE_PIPS[number]) {
      svg.append(s("circle", { cx: T[col], cy: half * 50 + T[row], r: 4.3, class: `pip pip-${number}` }));
    }
  });
  return svg;
}

// --- dice ------------------------------------------------------------------------------

const D = { TL: [17, 17], TR: [43, 17], ML: [17, 30], MR: [43, 30], C: [30, 30], BL: [17, 43], BR: [43, 43] };
const DIE_PIPS = {
  1: ["C"], 2: ["TR", "BL"], 3: ["TR", "C", "BL"], 4: ["TL", "TR", "BL", "BR"],
  5: ["TL", "TR", "C", "BL", "BR"], 6: ["TL", "ML", "BL", "TR", "MR", "BR"],
};

/** A die; `value` null is a die not yet rolled. */
export function dieSvg(value, extraClass = "") {
  const n = Number(value);
  const known = n >= 1 && n <= 6;
  const svg = s("svg", {
    viewBox: "0 0 60 60",
    class: ["die", known ? "rolled" : "unrolled", extraClass],
    role: "img",
    "aria-label": known ? t("games.die.showing", { n }) : t("games.die.unrolled"),
  });
  svg.append(s("rect", { x: 2, y: 2, width: 56, height: 56, rx: 11, class: "die-body" }));
  if (known) {
    for (const spot of DIE_PIPS[n]) svg.append(s("circle", { cx: D[spot][0], cy: D[spot][1], r: 5.2, class: "die-pip" }));
  } else {
    svg.append(s("text", { x: 30, y: 40, "text-anchor": "middle", class: "die-unknown" }, "?"));
  }
  return svg;
}

/** Whatever sits at a position: a card, a tile or a die; `piece` is the game's ("card" or "tile"). */
export function itemSvg(piece, position, item, extraClass = "") {
  if (position.startsWith("dice.")) return dieSvg(item, extraClass);
  if (piece === "tile") return tileSvg(item, extraClass);
  return cardSvg(item, extraClass);
}
