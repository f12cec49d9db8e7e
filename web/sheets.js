// The character sheets, drawn from the one description every book gives of
// them (issue 26, item 2): the `sheets` of GET /view, a SheetDoc
// `{table: [item], characters: [{name, subtitle, controller, mine,
// sections: [{title, items: [item]}]}]}` where an item is one of
// `{kind: "value", label, value}`, `{kind: "track", label, current, max, note}`,
// `{kind: "tags", label, tags}`, `{kind: "list", label, rows: [{name, value,
// detail}]}`, `{kind: "cards", label, cards, face_down}`,
// `{kind: "hidden", label, reason}`, `{kind: "note", text}`.
// The server puts in only what this seat may see; this file knows no book.
// `render(doc)` answers {facts: [[label, text or node]], mine: [nodes],
// others: [nodes]}.

import { el } from "./dom.js";
import { cardBacks, cardNode } from "./logtext.js";

/** `{"player": "Ana"}` / `"gm"` / `"GM"` / `"Ana"` -> "gm" or the player's name. */
export function seatName(s) {
  if (!s) return "";
  if (typeof s === "string") return s.toLowerCase() === "gm" ? "gm" : s;
  if (typeof s === "object" && s.player) return String(s.player);
  if (typeof s === "object" && "gm" in s) return "gm";
  return "";
}

function title(s) {
  const t = String(s).replace(/[_-]+/g, " ");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** A labelled track: "BP 7/10" with a meter. */
function track(label, value, max, note) {
  const v = Number(value) || 0;
  const m = Math.max(Number(max) || 0, v, 1);
  return el("div", { class: "track" }, [
    el("span", { class: "track-label" }, label),
    el("meter", { min: "0", max: String(m), value: String(v), low: String(m / 3), high: String((2 * m) / 3), optimum: String(m), "aria-label": `${label} ${v} of ${Number(max) || 0}` }),
    el("span", { class: "track-value" }, `${v}/${Number(max) || 0}`),
    note ? el("span", { class: "muted" }, ` ${note}`) : null,
  ]);
}

/** A row of a list: its name, value and detail. */
function row(r) {
  return el("li", { class: "row" }, [
    el("span", { class: "row-name" }, String(r.name || "")),
    r.value ? el("span", { class: "row-value" }, ` ${r.value}`) : null,
    r.detail ? el("span", { class: "row-detail muted" }, ` (${r.detail})`) : null,
  ]);
}

/** Cards: faces this seat sees, then backs for those it does not. */
function cards(item, mine) {
  const faces = item.cards || [];
  const down = Number(item.face_down) || 0;
  const parts = [];
  // A hand of this seat's own is `hand mine` (what its player holds); a
  // card on the table (an initiative card, a card played face up) is
  // `played`, drawn the same way.
  const hand = /hand/i.test(item.label || "");
  const cls = hand ? `hand${mine ? " mine" : ""}` : "played";
  if (faces.length) parts.push(el("ul", { class: cls, "aria-label": `${item.label}: ${faces.length} card${faces.length === 1 ? "" : "s"}` }, faces.map(cardNode)));
  if (down) parts.push(cardBacks(down, item.label));
  if (!parts.length) parts.push(el("span", { class: "muted" }, "none"));
  return el("div", { class: "cards" }, [el("span", { class: "caption" }, item.label), ...parts]);
}

/** An item's value as text, for the label/value lists and the facts. */
function plain(item) {
  switch (item.kind) {
    case "value":
      return String(item.value);
    case "track":
      return `${item.current}/${item.max}${item.note ? ` (${item.note})` : ""}`;
    case "tags":
      return (item.tags || []).length ? item.tags.join(", ") : "none";
    case "hidden":
      return "hidden";
    default:
      return null;
  }
}

/**
 * The items of one section, consecutive label/value items in one list; a
 * list or cards labelled as the section is (`Abilities` under ABILITIES) gets
 * no second caption.
 */
function items(list, mine, section = "") {
  const same = (label) => String(label || "").toLowerCase() === String(section).toLowerCase();
  const out = [];
  let pairs = [];
  const flush = () => {
    if (pairs.length) out.push(el("dl", { class: "kv" }, pairs));
    pairs = [];
  };
  for (const it of list || []) {
    switch (it.kind) {
      case "value":
        pairs.push(el("dt", {}, it.label), el("dd", {}, String(it.value)));
        break;
      case "hidden":
        pairs.push(el("dt", {}, it.label), el("dd", { class: "hidden-value muted", title: it.reason || "" }, `hidden${it.reason ? ` (${it.reason})` : ""}`));
        break;
      case "tags":
        pairs.push(
          el("dt", {}, it.label),
          el("dd", {}, (it.tags || []).length ? el("ul", { class: "tags", "aria-label": it.label }, it.tags.map((t) => el("li", {}, String(t)))) : el("span", { class: "muted" }, "none")),
        );
        break;
      case "track":
        flush();
        out.push(track(it.label, it.current, it.max, it.note));
        break;
      case "list":
        flush();
        out.push(
          el("div", { class: "list" }, [
            same(it.label) ? null : el("span", { class: "caption" }, it.label),
            (it.rows || []).length ? el("ul", { class: "rows", "aria-label": it.label }, it.rows.map(row)) : el("span", { class: "muted" }, " none"),
          ]),
        );
        break;
      case "cards":
        flush();
        out.push(cards(it, mine));
        break;
      case "note":
        flush();
        out.push(el("p", { class: "note" }, String(it.text || "")));
        break;
      default:
        break;
    }
  }
  flush();
  return out;
}

/** One character's sheet. */
function sheet(c) {
  const who = seatName(c.controller);
  return el("article", { class: `sheet${c.mine ? " mine" : ""}`, "aria-label": c.name }, [
    el("h3", {}, [
      String(c.name),
      c.subtitle ? el("span", { class: "sub" }, ` ${c.subtitle}`) : null,
      who && !c.mine ? el("span", { class: "sub muted" }, ` · ${who === "gm" ? "GM" : who}`) : null,
    ]),
    ...(c.sections || []).flatMap((s) => [el("h4", {}, String(s.title)), ...items(s.items, c.mine, s.title)]),
  ]);
}

/**
 * The sheets of `doc` (the SheetDoc this seat may see): the table's simple
 * facts for the turn box, this seat's characters, and everyone else's (with
 * the table's cards and lists, if any, first).
 */
export function render(doc) {
  if (!doc || typeof doc !== "object") return { facts: [], mine: [], others: [] };
  const facts = [];
  const rich = [];
  for (const it of doc.table || []) {
    const text = plain(it);
    if (text !== null && it.label) facts.push([it.label, text]);
    else rich.push(it);
  }
  const mine = [];
  const others = rich.length ? [el("article", { class: "sheet table-facts", "aria-label": "In play" }, [el("h3", {}, "In play"), ...items(rich, false)])] : [];
  for (const c of doc.characters || []) (c.mine ? mine : others).push(sheet(c));
  return { facts, mine, others };
}

/** Every field of the view as nested lists (the view is this seat's only). */
export function everything(view) {
  const walk = (v, depth) => {
    if (v === null || v === undefined) return el("span", { class: "muted" }, "none");
    if (typeof v !== "object") return String(v);
    if (depth > 8) return JSON.stringify(v);
    if (Array.isArray(v)) {
      if (!v.length) return el("span", { class: "muted" }, "none");
      if (v.every((x) => x === null || typeof x !== "object")) return v.map((x) => (x === null ? "none" : String(x))).join(", ");
      return el("ol", {}, v.map((x) => el("li", {}, walk(x, depth + 1))));
    }
    return el("dl", { class: "kv" }, Object.entries(v).flatMap(([k, x]) => [el("dt", {}, title(k)), el("dd", {}, walk(x, depth + 1))]));
  };
  const copy = { ...view };
  delete copy.legal;
  delete copy.may;
  return el("details", { class: "everything" }, [el("summary", {}, "Everything in my view"), walk(copy, 0)]);
}
