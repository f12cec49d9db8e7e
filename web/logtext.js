// The log's text with every die face and card drawn as a symbol: card suits
// (♣ ♠ ♥ ♦) for a book of playing cards, Spiral Dice faces for a book of them
// (each book's `log_symbols`, GET /api/systems). The words stay
// the engine's; symbols carry a spoken label for screen readers.

import { el } from "./dom.js";

const SUITS = { C: ["♣", "Clubs", false], S: ["♠", "Spades", false], H: ["♥", "Hearts", true], D: ["♦", "Diamonds", true] };
const RANKS = { J: "Jack", Q: "Queen", K: "King", A: "Ace" };

/** A card as a small face: `QH` -> "Q♥" (red), spoken "Queen of Hearts". */
export function cardFace(rank, suitLetter) {
  const [sym, name, red] = SUITS[suitLetter];
  const spoken = `${RANKS[rank] || rank} of ${name}`;
  return el("span", { class: `card-inline${red ? " red" : ""}`, role: "img", "aria-label": spoken, title: spoken }, `${rank}${sym}`);
}

/** A card from the view's JSON (`{face: {Standard: {rank, suit}} | {Joker: "Red"}}`) as text `QH`. */
export function cardCode(card) {
  const face = card && (card.face || card);
  if (!face) return "?";
  if (face.Standard) {
    const r = { Two: "2", Three: "3", Four: "4", Five: "5", Six: "6", Seven: "7", Eight: "8", Nine: "9", Ten: "10", Jack: "J", Queen: "Q", King: "K", Ace: "A" }[face.Standard.rank] || face.Standard.rank;
    const s = { Clubs: "C", Spades: "S", Hearts: "H", Diamonds: "D" }[face.Standard.suit] || face.Standard.suit;
    return `${r}${s}`;
  }
  if (face.Joker) return `${face.Joker} Joker`;
  return "?";
}

/** A card from the view's JSON as an inline face (`Q♥`), or its name for a Joker. */
export function inlineCard(card) {
  const code = cardCode(card);
  const m = /^(10|[2-9JQKA])([CSHD])$/.exec(code);
  return m ? cardFace(m[1], m[2]) : document.createTextNode(code);
}

/** A playing card as a card (for a hand): big rank and suit. */
export function cardNode(card) {
  const code = cardCode(card);
  const m = /^(10|[2-9JQKA])([CSHD])$/.exec(code);
  if (!m) {
    return el("li", { class: "card joker", "aria-label": code, title: code }, [el("span", { class: "rank", "aria-hidden": "true" }, "🃏"), el("span", { class: "suit", "aria-hidden": "true" }, code.split(" ")[0])]);
  }
  const [sym, name, red] = SUITS[m[2]];
  const spoken = `${RANKS[m[1]] || m[1]} of ${name}`;
  return el("li", { class: `card${red ? " red" : ""}`, "aria-label": spoken, title: spoken, "data-card": code }, [
    el("span", { class: "rank", "aria-hidden": "true" }, m[1]),
    el("span", { class: "suit", "aria-hidden": "true" }, sym),
  ]);
}

/** `count` card backs (another seat's hand: only how many). */
export function cardBacks(count, whose) {
  const n = Math.max(0, Math.min(Number(count) || 0, 60));
  const label = `${whose}: ${n} card${n === 1 ? "" : "s"}, face down`;
  const ul = el("ul", { class: "hand backs", "aria-label": label });
  for (let i = 0; i < n; i++) ul.appendChild(el("li", { class: "card back", "aria-hidden": "true" }));
  return ul;
}

const SPIRAL_FACES = {
  "@": ["spiral"],
  S: ["spare"],
  SS: ["spare", "spare"],
  HS: ["hit", "spare"],
  H: ["hit"],
  HH: ["hit", "hit"],
  "HH@": ["hit", "hit", "spiral"],
  "H@": ["hit", "spiral"],
  blank: [],
};

function spiralIcon() {
  const svg = el("svg:svg", { viewBox: "0 0 16 16", class: "spiral-icon", "aria-hidden": "true", focusable: "false" });
  svg.appendChild(
    el("svg:path", {
      d: "M8 8 m0 -1 a1 1 0 1 1 -1 1 a2 2 0 0 1 2 -2 a3 3 0 0 1 3 3 a4 4 0 0 1 -4 4 a5 5 0 0 1 -5 -5 a6 6 0 0 1 6 -6",
      fill: "none",
      stroke: "currentColor",
      "stroke-width": "1.6",
      "stroke-linecap": "round",
    }),
  );
  return svg;
}

/** One Spiral Die face (`HH@`) as a die tile with its symbols. */
export function spiralDie(label) {
  const marks = SPIRAL_FACES[label];
  if (!marks) return document.createTextNode(label);
  const spoken = marks.length ? marks.join(" ") : "blank";
  const tile = el("span", { class: "sdie", role: "img", "aria-label": `Spiral Die: ${spoken}`, title: `${label}: ${spoken}` });
  if (!marks.length) tile.appendChild(el("span", { class: "blank", "aria-hidden": "true" }, "·"));
  for (const m of marks) {
    if (m === "spiral") tile.appendChild(spiralIcon());
    else tile.appendChild(el("span", { class: m, "aria-hidden": "true" }, m === "hit" ? "✱" : "Y"));
  }
  return tile;
}

const CARD_RE = /\b(10|[2-9JQKA])([CSHD])\b/g;
const SPIRAL_GROUP_RE = /\[((?:(?:HH@|H@|HS|SS|HH|H|S|@|blank)(?:[\s,]+|(?=\])))+)\]/g;

function withCards(text) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(CARD_RE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(cardFace(m[1], m[2]));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function withSpirals(text) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(SPIRAL_GROUP_RE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const dice = el("span", { class: "sdice" }, ["[", ...m[1].trim().split(/[\s,]+/).map(spiralDie), "]"]);
    out.push(dice);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/**
 * A log line's text as nodes, with the book's symbols drawn: `symbols` is the
 * book's `log_symbols` from GET /api/systems (`"cards"`, `"spiral-dice"`, or
 * `"plain"`).
 */
export function logText(symbols, text) {
  const t = String(text || "");
  if (symbols === "cards") return withCards(t);
  if (symbols === "spiral-dice") return withSpirals(t);
  return [t];
}
