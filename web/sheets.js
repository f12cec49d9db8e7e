// The character sheets as each book shows them, drawn from the seat's view
// (GET /view) and nothing else. `render(system, view, seat)` answers
// {facts: [[label, text]], mine: [nodes], others: [nodes]}.

import { el } from "./dom.js";
import { cardBacks, cardNode, inlineCard } from "./logtext.js";

/** `{"player": "Ana"}` / `"gm"` / `"GM"` / `"Ana"` -> "gm" or the player's name. */
export function seatName(s) {
  if (!s) return "";
  if (typeof s === "string") return s.toLowerCase() === "gm" ? "gm" : s;
  if (typeof s === "object" && s.player) return String(s.player);
  if (typeof s === "object" && "gm" in s) return "gm";
  return "";
}

function same(a, b) {
  return String(seatName(a)).toLowerCase() === String(seatName(b)).toLowerCase();
}

function title(s) {
  const t = String(s).replace(/[_-]+/g, " ");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** A labelled track: "BP 7 of 10" with a meter. */
function track(label, value, max, extra) {
  const v = Number(value) || 0;
  const m = Math.max(Number(max) || 0, v, 1);
  return el("div", { class: "track" }, [
    el("span", { class: "track-label" }, label),
    el("meter", { min: "0", max: String(m), value: String(v), low: String(m / 3), high: String((2 * m) / 3), optimum: String(m), "aria-label": `${label} ${v} of ${m}` }),
    el("span", { class: "track-value" }, `${v}/${m}`),
    extra ? el("span", { class: "muted" }, ` ${extra}`) : null,
  ]);
}

function dl(pairs) {
  return el(
    "dl",
    { class: "kv" },
    pairs.filter(([, v]) => v !== null && v !== undefined && v !== "" && !(Array.isArray(v) && !v.length)).flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v instanceof Node ? v : Array.isArray(v) ? v.join(", ") : String(v))]),
  );
}

function sheet(name, sub, body, cls = "") {
  return el("article", { class: `sheet ${cls}`, "aria-label": name }, [
    el("h3", {}, [name, sub ? el("span", { class: "sub" }, ` ${sub}`) : null]),
    body,
  ]);
}

function tags(list, label) {
  if (!list || !list.length) return null;
  return el("ul", { class: "tags", "aria-label": label }, list.map((t) => el("li", {}, String(t))));
}

/** A phase or moment that is a string or `{Name: {...}}`: in words. */
function phrase(v) {
  if (v === null || v === undefined) return "";
  if (typeof v !== "object") return title(v);
  const keys = Object.keys(v);
  if (!keys.length) return "";
  const k = keys[0];
  const inner = v[k];
  if (inner === null || typeof inner !== "object") return keys.length === 1 ? `${title(k)}${inner === null ? "" : ": " + inner}` : keys.map((x) => `${title(x)} ${v[x]}`).join(", ");
  const bits = Object.entries(inner)
    .filter(([, x]) => x !== null && typeof x !== "object" && x !== false)
    .map(([a, x]) => (x === true ? title(a) : `${title(a)} ${x}`));
  return `${title(k)}${bits.length ? ": " + bits.join(", ") : ""}`;
}

// ---------------------------------------------------------------- Bastards

function bastards(view, seat) {
  const facts = [
    ["Round", view.round],
    ["Phase", bastardsPhase(view.phase)],
    ["Deck", `${view.deck} cards, ${view.discards} discarded`],
  ];
  if (view.dealer_wildcards) facts.push(["Dealer's Wildcards", view.dealer_wildcards]);
  const mine = [];
  const others = [];
  const ex = view.phase && view.phase.Exchange;
  if (ex) others.push(exchange(ex));
  for (const c of view.combatants || []) {
    const me = seat === "gm" ? c.controller === "gm" : same(c.controller, seat);
    (me ? mine : others).push(bastardsSheet(c, me));
  }
  if (view.ground && view.ground.length) others.push(el("p", {}, `On the ground: ${view.ground.map((g) => g.name || JSON.stringify(g)).join(", ")}`));
  return { facts, mine, others };
}

function bastardsPhase(p) {
  if (!p) return "";
  if (typeof p === "string") return title(p);
  if (p.Exchange) {
    const e = p.Exchange;
    return `Exchange: ${e.attacker} against ${e.defender} (${e.kind}, ${e.skill}); ${title(e.to_act)} to act`;
  }
  return phrase(p);
}

function exchange(e) {
  const side = (who, up, down, played) =>
    el("div", { class: "side" }, [
      el("h4", {}, who),
      el("div", { class: "played" }, [
        el("div", { class: "down" }, [
          el("span", { class: "caption" }, "face down"),
          down ? el("ul", { class: "hand", "aria-label": `${who}: the face-down card (only you see it)` }, [cardNode(down)]) : played ? cardBacks(1, `${who}'s face-down card`) : el("span", { class: "muted" }, "not yet"),
        ]),
        el("div", { class: "up" }, [
          el("span", { class: "caption" }, "face up"),
          up && up.length ? el("ul", { class: "hand", "aria-label": `${who}: cards face up` }, up.map(cardNode)) : el("span", { class: "muted" }, "none"),
        ]),
      ]),
    ]);
  return el("article", { class: "sheet exchange", "aria-label": "The exchange" }, [
    el("h3", {}, `Exchange: ${e.attacker} against ${e.defender}`),
    el("div", { class: "sides" }, [side(e.attacker, e.attacker_up, e.attacker_down, e.attacker_down_played), side(e.defender, e.defender_up, e.defender_down, e.defender_down_played)]),
  ]);
}

function bastardsSheet(c, mine) {
  const flags = [];
  if (!c.present) flags.push("not present");
  if (c.knocked_out) flags.push("knocked out");
  if (c.desperate) flags.push("Desperate");
  for (const [k, v] of Object.entries(c.status || {})) {
    if (v === true) flags.push(title(k));
    else if (typeof v === "number" && v) flags.push(`${title(k)} ${v}`);
    else if (Array.isArray(v) && v.length) flags.push(`${title(k)}: ${v.join(", ")}`);
  }
  const who = c.controller === "gm" ? "GM" : seatName(c.controller);
  let hand;
  if (Array.isArray(c.hand)) {
    hand = el("ul", { class: "hand mine", "aria-label": `${c.name}'s hand: ${c.hand.length} cards` }, c.hand.map(cardNode));
  } else {
    hand = cardBacks(c.hand_size, `${c.name}'s hand`);
  }
  return sheet(
    c.name,
    `${c.kind}${mine ? "" : ", " + who}`,
    [
      el("div", { class: "tracks" }, (c.pools || []).map(([n, v, m]) => track(n, v, m))),
      dl([
        ["Wildcards", c.wildcards],
        ["Initiative", c.initiative ? inlineCard(c.initiative) : "none"],
        ["Wielding", (c.wielding || []).map((w) => `${w.name} (${w.skill}, damage ${w.damage}${w.ready ? "" : ", not ready"})`)],
      ]),
      tags(flags, "Status"),
      el("h4", {}, Array.isArray(c.hand) ? `Hand (${c.hand.length})` : `Hand: ${c.hand_size} card${c.hand_size === 1 ? "" : "s"}`),
      hand,
    ],
    mine ? "mine" : "other",
  );
}

// ---------------------------------------------------------------- Sour Grapes

const SG_STATS = ["Agility", "Might", "Knowledge", "Perception", "Prestige", "Resolve", "Spirit", "Stamina", "Vitality"];

function sourGrapes(view, seat) {
  const st = view.state || {};
  const facts = [["Moment", sgMoment(st.moment)]];
  if (st.over) facts.push(["Encounter", "over"]);
  const plays = (view.plays || []).map((p) => p.toLowerCase());
  const mine = [];
  const others = [];
  for (const p of st.participants || []) {
    const c = p.character || {};
    const me = seat === "gm" ? !p.seat || c.monster : plays.includes(String(c.name).toLowerCase()) || same(p.seat, seat);
    (me ? mine : others).push(sgSheet(p, st.cards || [], me));
  }
  return { facts, mine, others };
}

function sgMoment(m) {
  if (!m) return "";
  if (typeof m === "string") return title(m);
  if (m.situation) {
    const s = m.situation;
    return `Situation for ${s.who}: difficulty ${s.difficulty}; final check ${s.stat} + ${s.skill}`;
  }
  return phrase(m);
}

function sgSheet(p, cards, mine) {
  const c = p.character || {};
  const stats = el("table", { class: "stats" }, [
    el("caption", { class: "sr-only" }, `${c.name}'s stats`),
    el("thead", {}, el("tr", {}, [el("th", { scope: "col" }, "Stat"), el("th", { scope: "col" }, "Now"), el("th", { scope: "col" }, "Of"), el("th", { scope: "col" }, "Exhaustion")])),
    el(
      "tbody",
      {},
      (c.stats || []).map((s, i) =>
        el("tr", { class: s.injured ? "injured" : "" }, [
          el("th", { scope: "row" }, SG_STATS[i] || `Stat ${i + 1}`),
          el("td", {}, String(s.current)),
          el("td", {}, String(s.actual)),
          el("td", {}, [s.actual - s.current > 0 ? `${s.actual - s.current}` : "0", s.injured ? " (injured)" : ""]),
        ]),
      ),
    ),
  ]);
  const skills = el(
    "ul",
    { class: "skills", "aria-label": "Skills and skill tokens" },
    (c.skills || []).map((s) =>
      el("li", {}, [
        el("span", { class: "skill-name" }, s.name),
        " ",
        el("span", { class: "tokens", role: "img", "aria-label": `${s.available} of ${s.rating} skill tokens` }, "●".repeat(Math.max(0, s.available)) + "○".repeat(Math.max(0, s.rating - s.available))),
      ]),
    ),
  );
  const byName = new Map(cards.map((k) => [k.name, k]));
  const hand = el(
    "ul",
    { class: "action-cards", "aria-label": "Action cards" },
    (p.cards || []).map((n) => {
      const k = byName.get(n);
      return el("li", { class: "action-card" }, [el("strong", {}, n), k ? el("span", { class: "muted" }, ` ${k.kind}; ${[k.success && "success " + k.success, k.result && "result " + k.result].filter(Boolean).join(", ")}`) : null, k && k.notes ? el("div", { class: "card-notes" }, k.notes) : null]);
    }),
  );
  return sheet(
    c.name,
    c.monster ? "monster" : p.seat ? seatName(p.seat) : "",
    [
      c.concept ? el("p", { class: "concept" }, c.concept) : null,
      stats,
      el("h4", {}, "Skills"),
      skills,
      el("h4", {}, "Cards"),
      hand,
      dl([
        ["Effects", (p.effects || []).map((e) => (typeof e === "string" ? e : e.name || phrase(e)))],
        ["Experience", c.experience],
        ["Comparable skills", Object.entries(p.comparable || {}).map(([a, b]) => `${a}: ${b}`)],
      ]),
    ],
    mine ? "mine" : "other",
  );
}

// ---------------------------------------------------------------- Scratch

function scratch(view, seat) {
  const facts = [
    ["Round", view.round],
    ["Phase", title(view.phase)],
    ["Turn of", view.turn_of || "nobody yet"],
    ["Acting", view.active || ""],
    ["Terrain", (view.terrain || []).join(", ")],
    ["Cover", view.cover ? "available" : "none"],
    ["Things to throw", view.throwable_objects ? "yes" : "no"],
  ];
  const mine = [];
  const others = [];
  for (const c of view.characters || []) {
    const me = same(c.seat, seat);
    (me ? mine : others).push(
      sheet(
        c.name,
        `${c.side}${me ? "" : ", " + c.seat}${c.minion_of ? ", minion of " + c.minion_of : ""}`,
        [
          el("div", { class: "tracks" }, [track("Hit points", c.hit_points, c.max_hit_points, c.state)]),
          dl([
            ["Id", c.id],
            ["Stamina", c.stamina],
          ]),
          el("h4", {}, "Defenses"),
          dl([
            ["Agility", c.agility],
            ["Intelligence", c.intelligence],
            ["Strength", c.strength],
          ]),
          tags(c.states, "States"),
        ],
        me ? "mine" : "other",
      ),
    );
  }
  return { facts, mine, others };
}

// ---------------------------------------------------------------- Tiers

function tiers(view, seat) {
  const mode = view.mode || {};
  const facts = [
    ["Mode", title(mode.mode || "")],
    ["Round", mode.round],
    ["Phase", mode.phase ? `${title(mode.phase)} Phase` : ""],
  ];
  if (view.outcome) facts.push(["Outcome", phrase(view.outcome)]);
  if (view.rolls_left) facts.push(["Rolls left", `${view.rolls_left.d6}d6, ${view.rolls_left.d3}d3, ${view.rolls_left.combat_points} CP`]);
  if (view.health_pool) facts.push(["Enemy Health", `${view.health_pool[0]} (reserve ${view.health_pool[1]})`]);
  if (view.psp) facts.push(["PSP", view.psp]);
  const mine = [];
  const others = [];
  for (const h of view.heroes || []) {
    const me = same(h.name, seat);
    (me ? mine : others).push(
      sheet(
        h.name,
        `level ${h.level}${h.ally ? ", ally" : ""}`,
        [
          el("div", { class: "tracks" }, [track("HP", h.health, h.max_health), track("AP", h.ap, Math.max(6, h.ap))]),
          el("h4", {}, "Stats (Roleplay Bonus)"),
          dl((h.roleplay_bonus || []).map(([s, b]) => [title(s), `+${b}`])),
          dl([
            ["Total SP", h.total_sp],
            ["Zone", h.zone],
            ["Wounds", h.wounds],
            ["Held by", h.held_by],
            ["Items", h.items],
          ]),
          h.dead ? tags(["dead"], "State") : null,
        ],
        me ? "mine" : "other",
      ),
    );
  }
  const enemies = (view.enemies || []).map((e) =>
    sheet(
      e.name,
      e.kind,
      [
        e.health === null || e.health === undefined ? null : el("div", { class: "tracks" }, [track("Health", e.health, e.health)]),
        dl([["Zone", e.zone]]),
        tags([e.defeated ? "defeated" : "", e.shadow ? "in a shadow" : ""].filter(Boolean), "State"),
      ],
      seat === "gm" ? "mine" : "other",
    ),
  );
  if (seat === "gm") mine.push(...enemies);
  else others.push(...enemies);
  if (view.zones) others.push(el("p", { class: "zones" }, `Zones: ${view.zones.join(", ")}`));
  return { facts, mine, others };
}

// ---------------------------------------------------------------- Sapio

function sapio(view, seat) {
  const facts = [];
  if (view.sequence) facts.push(["Action Sequence", phrase({ sequence: view.sequence })]);
  if (view.check) {
    const c = view.check;
    const focal = (view.characters || [])[c.focal];
    facts.push(["Check", `#${c.id}: ${focal ? sapioName(focal) : "?"} focal, TN ${c.tn}`]);
  }
  if (view.over) facts.push(["Encounter", "over"]);
  const mine = [];
  const others = [];
  (view.characters || []).forEach((ch) => {
    const s = (ch.character && ch.character.sheet) || {};
    const me = seat === "gm" ? !s.player || s.player.toLowerCase() === "gm" : same(s.player, seat);
    (me ? mine : others).push(sapioSheet(ch, me));
  });
  if (view.check) mine.unshift(sapioCheck(view.check, view.characters || []));
  return { facts, mine, others };
}

function sapioName(ch) {
  return (ch.character && ch.character.sheet && ch.character.sheet.name) || "?";
}

function sapioCheck(c, chars) {
  const pool = [];
  if (c.profession) pool.push(`Profession ${c.profession[0]} (${c.profession[1]})`);
  if (c.specialization) pool.push(`Specialization ${c.specialization}`);
  if (c.quality) pool.push(`Quality ${c.quality}`);
  for (const h of c.help || []) pool.push(`help from ${sapioName(chars[h.helper] || {})}: ${h.element}`);
  if (c.luck) pool.push(`Luck ${c.luck}`);
  if (c.gm_bonus) pool.push(`GM bonus ${c.gm_bonus}`);
  for (const t of c.talents || []) pool.push(`Talent ${t}`);
  return el("article", { class: "sheet check", "aria-label": "The check's pool" }, [el("h3", {}, `Check #${c.id}: TN ${c.tn}`), tags(pool, "The pool so far") || el("p", { class: "muted" }, "No dice in the pool yet.")]);
}

/** A Sapio track with every box free: a sheet leaves a clear track out ("Injuries and Stresses": 2 Minor, 2 Moderate, 1 Severe). */
const CLEAR_TRACK = { minor: ["", ""], moderate: ["", ""], severe: "" };

/** A Sapio Injury or Stress track as its boxes, free ones shown as free. */
function slots(label, t) {
  if (!t) t = CLEAR_TRACK;
  const cells = [];
  for (const [sev, list] of [
    ["minor", t.minor],
    ["moderate", t.moderate],
    ["severe", [t.severe]],
  ]) {
    for (const x of list || []) cells.push(el("li", { class: `slot ${sev}${x ? " filled" : ""}` }, [el("span", { class: "sev" }, title(sev)), " ", x ? (typeof x === "string" ? x : x.name || phrase(x)) : el("span", { class: "muted" }, "free")]));
  }
  if (t.debilitated) cells.push(el("li", { class: "slot filled" }, "Debilitated"));
  return el("div", { class: "slots-wrap" }, [el("h4", {}, label), el("ul", { class: "slots", "aria-label": `${label} track` }, cells)]);
}

function sapioSheet(ch, mine) {
  const s = (ch.character && ch.character.sheet) || {};
  const prof = s.profession ? `${s.profession.name}${s.profession.specializations && s.profession.specializations.length ? " (" + s.profession.specializations.join(", ") + ")" : ""}` : "";
  return sheet(
    s.name,
    s.player ? s.player : "GM",
    [
      dl([
        ["Main Profession", prof],
        ["Side Professions", (s.side_professions || []).map((p) => p.name + (p.specializations && p.specializations.length ? ` (${p.specializations.join(", ")})` : ""))],
        ["Luck", s.luck],
        ["Principle", s.principle],
        ["Worst Impulse", s.worst_impulse],
        ["Weapons", (s.weapons || []).map((w) => `${w.name} (${w.level})`)],
      ]),
      el("h4", {}, "Qualities"),
      tags(s.qualities, "Qualities"),
      (s.special_talents || []).length ? el("h4", {}, "Special Talents") : null,
      tags((s.special_talents || []).map((t) => t.name), "Special Talents"),
      slots("Injuries", s.injuries),
      slots("Stress", s.stresses),
      ch.locked && ch.locked.length ? tags(ch.locked.map((x) => `${x} (used)`), "Used this round") : null,
      s.advancements && s.advancements.length ? dl([["Advancements", s.advancements.map((a) => (typeof a === "string" ? a : phrase(a)))]]) : null,
    ],
    mine ? "mine" : "other",
  );
}

// ---------------------------------------------------------------- all

const RENDER = { bastards, "sour-grapes": sourGrapes, scratch, tiers, sapio };

/** Render `view` of `system` for `seat` ("gm" or a player's name). */
export function render(system, view, seat) {
  const f = RENDER[system];
  if (!f || !view || typeof view !== "object") return { facts: [], mine: [], others: [] };
  try {
    const r = f(view, seat);
    r.facts = r.facts.filter(([, v]) => v !== undefined && v !== null && v !== "");
    return r;
  } catch (e) {
    console.error("sheet", e);
    return { facts: [], mine: [el("p", { class: "error" }, "This view could not be drawn as a sheet; everything in it is below.")], others: [] };
  }
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
