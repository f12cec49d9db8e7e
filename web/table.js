// The table page of one seat (/t/ID#TOKEN): whose turn it is, my sheet, the
// log, and what I may do now. Everything comes from the server's API for this
// seat's token; the page decides no rule, rolls no die and holds no other
// seat's secret. Updates arrive over the WebSocket; a reload or a dropped
// connection picks up from the last sequence number seen.

import { Seat, describeError, lobby, book, bookTitle, loadBooks } from "./api.js";
import { el, replace } from "./dom.js";
import { commandControl, oddsList } from "./commands.js";
import { logText } from "./logtext.js";
import { render, everything, seatName } from "./sheets.js";
import { seatCard, seatLink } from "./links.js";
import { problemList } from "./characters.js";
import { dialect } from "./dice.js";

/** Reconnect delays (ms): 0.5 s doubling up to 10 s; never gives up. */
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 10000;
/** Command-line history kept per seat. */
const HISTORY_MAX = 100;

const $ = (id) => document.getElementById(id);

const S = {
  id: "",
  token: "",
  api: null,
  system: "",
  seat: "",
  seats: [],
  /** Commands whose form was just sent: their values are not kept on redraw. */
  sentForms: new Set(),
  seq: 0,
  logSeq: 0,
  /** The oldest line shown (0: none yet), and whether older ones remain. */
  logFirst: 0,
  logOlder: false,
  logLoaded: false,
  loadingOlder: false,
  /** Undos seen: [back_to, seq] (an event between the two is undone). */
  undos: [],
  view: null,
  legal: [],
  // The view and sheets as this page's socket was last sent them (whole or
  // patched), the base of the next patch.
  live: { view: null, sheets: null },
  busy: false,
  ws: null,
  attempts: 0,
  reconnectTimer: null,
  refreshTimer: null,
  refreshing: null,
  history: [],
  histPos: -1,
  ready: false,
  campaign: "",
  campaignChecked: false,
};

// ------------------------------------------------------------------ start

function start() {
  // A new link pasted into this tab (another token in the fragment) starts over.
  window.addEventListener("hashchange", () => location.reload());
  const m = /^\/t\/([^/]+)\/?$/.exec(location.pathname);
  S.id = m ? decodeURIComponent(m[1]) : "";
  S.campaign = new URLSearchParams(location.search).get("campaign") || "";
  const fromHash = location.hash.replace(/^#/, "").trim();
  const stored = sessionStorage.getItem(`tabula:token:${S.id}`) || "";
  S.token = fromHash || stored;
  if (!S.id || !S.token) {
    fatal("This page needs your seat's link, with its secret after the #. Ask the GM for it.");
    return;
  }
  if (fromHash) sessionStorage.setItem(`tabula:token:${S.id}`, fromHash);
  S.api = new Seat(S.id, S.token);
  wire();
  refreshAll().then(() => connect());
  checkEnded();
  window.addEventListener("online", () => reconnectNow());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") reconnectNow();
  });
}

/** (GM) Delete the table after a confirmation; every page of it is told. */
async function deleteTable() {
  if (!window.confirm("Delete this table for everyone? Its log and every seat's link are gone for good.")) return;
  const r = await S.api.remove();
  if (r.status === 204 || r.ok) {
    fatal("You deleted this table: its log and links are gone.");
    return;
  }
  window.alert(`The table was not deleted: ${describeError(r).message}`);
}

function fatal(message) {
  S.dead = true;
  clearTimeout(S.reconnectTimer);
  if (S.ws) {
    const ws = S.ws;
    S.ws = null;
    ws.close();
  }
  const f = $("fatal");
  f.textContent = message;
  f.hidden = false;
  setConn("off", "Not connected");
}

function setConn(state, text) {
  const c = $("conn");
  c.dataset.state = state;
  c.textContent = text;
  document.body.dataset.conn = state;
}

// ------------------------------------------------------------------ reading answers

/** The view answer: `{seq, view, seat, system, ...}` or the bare view. */
function unwrapView(body) {
  if (body && typeof body === "object" && body.view && typeof body.view === "object") return body;
  return { view: body, seq: body && body.seq };
}

function list(body, ...keys) {
  if (Array.isArray(body)) return body;
  for (const k of keys) if (body && Array.isArray(body[k])) return body[k];
  return [];
}

// ------------------------------------------------------------------ fetching

/** Fetch the view, legal commands, odds, status and the new log lines. */
function refreshAll() {
  if (S.refreshing) {
    S.refreshAgain = true;
    return S.refreshing;
  }
  S.refreshing = (async () => {
    do {
      S.refreshAgain = false;
      await refreshOnce();
    } while (S.refreshAgain);
    S.refreshing = null;
  })();
  return S.refreshing;
}

async function refreshOnce() {
  const [v, l, o, s, a] = await Promise.all([
    S.api.view(),
    S.api.legal(),
    S.api.odds(),
    S.api.status(),
    S.api.awaiting(),
  ]);
  if (v.status === 401 || v.status === 404) {
    fatal("This seat link is not valid (the GM may have reissued it). Ask the GM for the new link.");
    return;
  }
  if (!v.ok) {
    setConn("off", `The server answered ${describeError(v).message}; retrying…`);
    return;
  }
  const w = unwrapView(v.body);
  S.view = w.view;
  S.system = w.system || (w.view && w.view.system) || S.system;
  S.sheets = w.sheets || null;
  S.seat = seatName(w.seat) || (w.role === "gm" ? "gm" : "") || seatName(w.view && w.view.seat) || S.seat;
  if (!S.seats.length) {
    const r = await S.api.seats();
    if (r.ok) {
      const all = list(r.body, "seats");
      S.seats = all.map((x) => (typeof x === "string" ? x : x.seat)).filter(Boolean);
      if (!S.online) S.online = new Set(all.filter((x) => x && x.online).map((x) => String(x.seat).toLowerCase()));
      drawPresence();
    }
  }
  if (typeof w.seq === "number") S.seq = Math.max(S.seq, w.seq);
  S.legal = l.ok ? list(l.body, "legal", "commands") : [];
  await fetchLog();
  drawHeader(w);
  drawDice(w);
  S.finished = !!(s.ok && s.body && s.body.finished);
  drawTurn(s.ok ? (typeof s.body === "string" ? s.body : s.body.status || s.body.text || "") : "");
  drawSheets();
  drawCommands();
  drawOdds(o.ok ? list(o.body, "odds") : []);
  drawPolicy(a.ok ? list(a.body, "awaiting") : []);
  drawAwaited(a.ok ? list(a.body, "awaiting") : [], s.ok && s.body ? s.body.turn : "");
  drawSentence(a.ok ? list(a.body, "awaiting") : []);
  drawGm();
  S.ready = true;
  document.body.dataset.seq = String(S.seq);
  document.body.dataset.ready = "true";
}

/** How many lines the page shows first, and loads each time older ones are asked for. */
const LOG_WINDOW = 200;
/** The most pages of new lines fetched in one go (500 lines each). */
const LOG_PAGES_MAX = 20;

async function fetchLog() {
  if (!S.logLoaded) {
    // The recent window first; older lines on scroll or "Older lines".
    const r = await S.api.logPage(LOG_WINDOW);
    if (!r.ok) return;
    S.logLoaded = true;
    const lines = list(r.body, "lines", "log", "events");
    addLines(lines);
    if (lines.length) S.logFirst = lines[0].seq;
    setOlder(!!r.body.more);
    if (typeof r.body.seq === "number") S.logSeq = Math.max(S.logSeq, r.body.seq);
    document.body.dataset.logSeq = String(S.logSeq);
    return;
  }
  for (let page = 0; page < LOG_PAGES_MAX; page++) {
    const r = await S.api.log(S.logSeq);
    if (!r.ok) return;
    addLines(list(r.body, "lines", "log", "events"));
    if (!r.body.more) {
      // Every line of this seat up to the table's seq is shown.
      if (typeof r.body.seq === "number") S.logSeq = Math.max(S.logSeq, r.body.seq);
      document.body.dataset.logSeq = String(S.logSeq);
      return;
    }
  }
}

function setOlder(more) {
  S.logOlder = more;
  $("log-older").hidden = !more;
}

/** Load the lines before the oldest shown, keeping the reader's place. */
async function fetchOlder() {
  if (!S.logOlder || S.loadingOlder || !S.logFirst) return;
  S.loadingOlder = true;
  try {
    const r = await S.api.logPage(LOG_WINDOW, S.logFirst);
    if (!r.ok) return;
    const lines = list(r.body, "lines", "log", "events").filter((l) => l && typeof l.seq === "number" && l.seq < S.logFirst);
    const wrap = $("log-wrap");
    const ol = $("log");
    const height = wrap.scrollHeight;
    const nodes = lines.map(lineNode);
    ol.prepend(...nodes);
    for (const li of nodes) markUndone(li);
    if (lines.length) S.logFirst = lines[0].seq;
    setOlder(!!r.body.more);
    wrap.scrollTop += wrap.scrollHeight - height;
  } finally {
    S.loadingOlder = false;
  }
}

function scheduleRefresh() {
  clearTimeout(S.refreshTimer);
  S.refreshTimer = setTimeout(() => refreshAll(), 30);
}

// ------------------------------------------------------------------ drawing

/**
 * The table's dice settings (`GET /view`'s `dice_dialect` and `dice`): the
 * free roll's example in the table's notation, and the own-dice choice only
 * where this seat may type its dice (not a player's at a `dice = "table"` table).
 */
function drawDice(w) {
  const d = dialect(w.dice_dialect);
  $("roll-dialect").textContent = ` (${d.name} notation)`;
  $("roll-example").textContent = `roll ${d.example} # why`;
  const tableRolls = w.dice === "table" && w.role !== "gm";
  $("table-dice").hidden = !tableRolls;
  $("own-dice-choice").hidden = tableRolls;
  if (tableRolls && $("own-dice").checked) {
    $("own-dice").checked = false;
    $("rolled-field").hidden = true;
  }
}

function drawHeader(w) {
  const v = S.view || {};
  const t = w.name || w.title || v.title || (v.state && v.state.title) || bookTitle(S.system) || "Tabula";
  $("table-title").textContent = t;
  S.title = `${t}: Tabula`;
  document.title = S.awaited ? `▶ Your move · ${S.title}` : S.title;
  const who = S.seat === "gm" ? [el("span", { class: "seat-name" }, "GM"), " (game master)"] : [el("span", { class: "seat-name" }, S.seat), " (player)"];
  replace($("whoami"), [...who, ` · ${bookTitle(S.system)}`]);
  document.body.dataset.system = S.system;
  document.body.dataset.seat = S.seat;
}

/**
 * Whose move: when the table waits on this seat, the header and the tab
 * title say so, and (unless the player turned it off) the page beeps and the
 * phone vibrates once as the move comes (issue 27, item 3).
 */
function drawAwaited(awaiting, turn) {
  const me = (S.seat || "").toLowerCase();
  const awaited = S.finished
    ? false
    : awaiting.length
      ? awaiting.some((x) => String(x.seat || "").toLowerCase() === me)
      : String(turn || "").toLowerCase() === me && S.legal.length > 0;
  const was = !!S.awaited;
  S.awaited = awaited;
  document.body.dataset.awaited = String(awaited);
  $("your-move").hidden = !awaited;
  document.title = awaited ? `▶ Your move · ${S.title || "Tabula"}` : S.title || "Tabula";
  if (awaited && !was && S.ready && $("turn-alert").checked) alertTurn();
}

/**
 * Whose move, as a sentence (issue 27, item 4): who the table waits on, with
 * their characters; the terminal's status text stays one click away.
 */
function drawSentence(awaiting) {
  const name = (seat) => (String(seat).toLowerCase() === "gm" ? "the GM" : seat);
  let text;
  if (S.finished) {
    text = "The encounter is over.";
  } else if (!awaiting.length) {
    text = S.legal.length ? "Your move." : "Nobody is awaited right now.";
  } else {
    const bySeat = new Map();
    for (const a of awaiting) {
      const key = String(a.seat || "");
      if (!bySeat.has(key)) bySeat.set(key, []);
      if (a.participant) bySeat.get(key).push(a.participant);
    }
    const parts = [...bySeat].map(([seat, who]) => {
      const mine = seat.toLowerCase() === (S.seat || "").toLowerCase();
      const label = mine ? "you" : name(seat);
      return who.length ? `${label} (${[...new Set(who)].join(", ")})` : label;
    });
    text = S.awaited ? `Your move: the table waits on ${parts.join(" and ")}.` : `Waiting on ${parts.join(" and ")}.`;
  }
  if ($("turn-sentence").textContent !== text) $("turn-sentence").textContent = text;
}

/** Who has the table open now (issue 27, item 3): each seat, here or away. */
function drawPresence() {
  const box = $("presence");
  if (!box || !S.seats.length) return;
  const online = S.online || new Set();
  replace(box, [
    "At the table: ",
    ...S.seats.flatMap((seat, i) => {
      const here = online.has(String(seat).toLowerCase());
      const name = String(seat).toLowerCase() === "gm" ? "GM" : seat;
      return [
        i ? ", " : "",
        el("span", { class: `presence-seat ${here ? "here" : "away"}`, "data-seat": seat, "data-online": String(here) }, [
          el("span", { class: "dot", "aria-hidden": "true" }, here ? "●" : "○"),
          ` ${name}${here ? "" : " (away)"}`,
        ]),
      ];
    }),
  ]);
}

/** One short beep and vibration; silent where the browser allows neither. */
function alertTurn() {
  try {
    if (navigator.vibrate) navigator.vibrate(200);
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    S.audio = S.audio || new Ctx();
    const o = S.audio.createOscillator();
    const g = S.audio.createGain();
    g.gain.value = 0.05;
    o.frequency.value = 660;
    o.connect(g).connect(S.audio.destination);
    o.start();
    o.stop(S.audio.currentTime + 0.15);
  } catch {
    /* no sound here: the title and header still say it */
  }
}

function drawTurn(status) {
  const r = render(S.sheets);
  replace($("turn-facts"), r.facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]));
  // Set only when it changed: a live region re-announces any new text node.
  if ($("status").textContent !== (status || "")) $("status").textContent = status || "";
}

function drawSheets() {
  const r = render(S.sheets);
  replace($("sheet"), [r.mine.length ? r.mine : el("p", { class: "muted" }, "No character of yours is at this table."), S.view ? everything(S.view) : null]);
  replace($("others"), r.others.length ? r.others : el("p", { class: "muted" }, "Nobody else."));
}

function drawCommands() {
  const box = $("commands");
  // Unchanged commands: leave the controls (and whatever is being typed) alone.
  const key = JSON.stringify(S.legal) + S.system + String(!!S.finished);
  if (key === S.legalKey) return;
  S.legalKey = key;
  const open = new Set([...box.querySelectorAll("details[open]")].map((d) => d.dataset.command));
  // Values typed into a control that is still offered are kept.
  const typed = new Map();
  for (const input of box.querySelectorAll("[data-param]")) {
    const cmd = input.closest("[data-command]");
    if (!cmd || input.value === "" || S.sentForms.has(cmd.dataset.command)) continue;
    typed.set(`${cmd.dataset.command}\u0000${input.dataset.param}`, input.value);
  }
  S.sentForms.clear();
  const focusedId = box.contains(document.activeElement) ? document.activeElement.dataset.param || document.activeElement.dataset.command || null : null;
  const hadFocus = box.contains(document.activeElement);
  const quoting = true;
  const controls = S.legal.map((spec) => commandControl(spec, { quoting, onSend: send }));
  if (!controls.length) {
    // A finished encounter is nobody's move (issue 27, bug 4).
    replace(box, el("p", { class: "waiting" }, S.finished ? "The encounter is over: nothing more to do at this table." : "Nothing for you to do now: it is someone else's move."));
  } else {
    replace(box, el("div", { class: "cmd-list", role: "group", "aria-label": "Commands I may give now" }, controls));
  }
  for (const d of box.querySelectorAll("details")) if (open.has(d.dataset.command)) d.open = true;
  for (const input of box.querySelectorAll("[data-param]")) {
    const cmd = input.closest("[data-command]");
    const v = cmd && typed.get(`${cmd.dataset.command}\u0000${input.dataset.param}`);
    if (v === undefined || v === null) continue;
    if (input.tagName === "SELECT" && ![...input.options].some((o) => o.value === v)) continue;
    input.value = v;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }
  if (hadFocus && !box.contains(document.activeElement)) {
    const again = focusedId && box.querySelector(`details[open] [data-param="${CSS.escape(focusedId)}"], [data-command="${CSS.escape(focusedId)}"] button`);
    (again || $("actions")).focus();
  }
}

/** A button per participant this seat gives a step for now: the book's
 * policy plays it (`POST /policy`), logged like any command. */
function drawPolicy(awaiting) {
  const mine = awaiting.filter(
    (w) => w && w.participant && String(w.seat).toLowerCase() === String(S.seat).toLowerCase(),
  );
  const names = [...new Set(mine.map((w) => w.participant))];
  $("policy").hidden = names.length === 0;
  replace(
    $("policy-buttons"),
    names.map((name) =>
      el("button", { type: "button", class: "policy-play", "data-participant": name, onclick: () => playByPolicy(name) }, `Policy plays ${name}`),
    ),
  );
}

async function playByPolicy(name) {
  if (S.busy) return;
  S.busy = true;
  document.body.dataset.busy = "true";
  setFeedback("pending", `The policy plays ${name}…`);
  try {
    const r = await S.api.policy(name, S.seq);
    if (r.ok) {
      if (r.body && Array.isArray(r.body.events)) addLines(r.body.events);
      if (r.body && typeof r.body.seq === "number") S.seq = Math.max(S.seq, r.body.seq);
      setFeedback("ok", `The policy played ${name}.`);
      await refreshAll();
    } else if (r.status === 409) {
      setFeedback("error", "The table moved on first; here it is as it is now.");
      await refreshAll();
    } else {
      const err = describeError(r);
      setFeedback("error", [el("strong", {}, "Refused: "), err.message]);
    }
  } finally {
    S.busy = false;
    document.body.dataset.busy = "false";
  }
}

/**
 * On a phone the odds list starts folded (issue 27: the actions first, the
 * full table of odds on demand); the player's own choice to open or fold it
 * is kept for the rest of the visit.
 */
let oddsFolded = false;
function drawOdds(odds) {
  const box = $("odds-box");
  if (!oddsFolded) {
    oddsFolded = true;
    if (window.matchMedia("(max-width: 899px)").matches) box.open = false;
  }
  box.hidden = !odds.length;
  replace($("odds"), oddsList(odds));
}

/**
 * The seats the GM may reissue: the server's own list (GET /seats), never a
 * guess from the view (an NPC ally or a monster is no seat; issue 27, bug 7).
 */
function reissueSeats() {
  const out = new Set(S.seats);
  out.add("gm");
  return [...out].filter(Boolean);
}

function drawGm() {
  const gm = S.seat === "gm";
  $("gm").hidden = !gm;
  if (!gm) return;
  const sel = $("reissue-seat");
  const before = sel.value;
  replace(
    sel,
    reissueSeats().map((s) => el("option", { value: s }, s === "gm" ? "GM" : s)),
  );
  if (before) sel.value = before;
  const names = new Set(S.legal.map((c) => c.name));
  const end = ((book(S.system) || {}).end_commands || []).find((n) => names.has(n));
  const b = $("end-encounter");
  // At a campaign table the book's end command and "End encounter and write
  // back" end the same encounter: one button, the campaign's (issue 27, bug 15).
  b.hidden = !end || !!S.campaign;
  b.dataset.command = end || "";
  drawCampaignGm();
}

/** For the GM of a campaign's table: End encounter (write back) and the way back to the campaign. */
function drawCampaignGm() {
  if (!S.campaign && !S.campaignChecked) {
    S.campaignChecked = true;
    findCampaign();
    return;
  }
  $("campaign-gm").hidden = !S.campaign;
  if (S.campaign) $("campaign-back").href = `/c/${encodeURIComponent(S.campaign)}#${S.token}`;
}

/** Whether this table belongs to a campaign, from the lobby's list (when the server lists its tables). */
async function findCampaign() {
  const r = await lobby.tables();
  const tables = r.ok ? list(r.body, "tables") : [];
  const mine = tables.find((t) => t && t.id === S.id);
  if (mine && mine.campaign) S.campaign = mine.campaign;
  drawCampaignGm();
}

/** On opening the page: an encounter already ended shows so (the lobby's list gives `ended_ms`). */
async function checkEnded() {
  const r = await lobby.tables();
  const tables = r.ok ? list(r.body, "tables") : [];
  const mine = tables.find((t) => t && t.id === S.id);
  if (mine && mine.ended_ms) showEnded("This encounter has ended: its lasting changes were written back to the campaign, and the table takes no more commands.");
}

/** The encounter ended (the GM wrote it back to the campaign): say so and make the actions inert; the log and sheets stay readable. */
function showEnded(message) {
  const b = $("ended-banner");
  b.textContent = message || "This encounter has ended.";
  b.hidden = false;
  $("actions").inert = true;
  document.body.dataset.ended = "true";
}

/** End the campaign table's encounter (POST /end) and show what was written back. */
async function endCampaignEncounter() {
  if (!window.confirm("End the encounter and write the lasting changes back to the campaign?")) return;
  const box = $("ended");
  replace(box, el("p", { class: "muted" }, "Ending the encounter…"));
  const r = await S.api.end();
  if (!r.ok) {
    const err = describeError(r);
    replace(box, el("p", { class: "error", "data-kind": "error" }, [`Not ended: ${err.message}`, err.rule ? [" Rule: ", el("cite", {}, err.rule)] : null]));
    return;
  }
  const e = r.body;
  if (e.already) {
    replace(box, el("p", { "data-kind": "already" }, "The encounter had already ended: nothing more was written."));
    return;
  }
  const written = e.written || [];
  replace(box, el("div", { "data-kind": "ok" }, [
    el("p", {}, written.length ? "The encounter is over. Written back to the campaign:" : "The encounter is over. No campaign character was at this table."),
    el(
      "ul",
      { class: "written" },
      written.map((w) =>
        // Each change once: the list, not the summary that repeats it
        // (issue 27, bug 15); what the sheet breaks, for the GM to edit.
        el("li", { "data-character": w.character }, [
          el("strong", {}, w.name),
          (w.changes || []).length ? el("ul", { class: "changes" }, w.changes.map((c) => el("li", {}, c))) : el("span", { class: "muted" }, ": nothing changed"),
          (w.needs_edit || []).length
            ? el("div", { class: "error needs-edit", "data-kind": "needs-edit" }, [
                el("strong", {}, "Needs your edit before the next table: "),
                problemList(w.needs_edit),
              ])
            : null,
        ]),
      ),
    ),
  ]));
}

// ------------------------------------------------------------------ the log

function addLines(lines) {
  const ol = $("log");
  const wrap = $("log-wrap");
  const atBottom = wrap.scrollHeight - wrap.scrollTop - wrap.clientHeight < 40;
  for (const line of lines) {
    if (!line || typeof line.seq !== "number" || line.seq <= S.logSeq) continue;
    S.logSeq = line.seq;
    if (!S.logFirst) S.logFirst = line.seq;
    const li = lineNode(line);
    ol.appendChild(li);
    if (li.classList.contains("undo")) {
      for (const x of ol.querySelectorAll("li.event")) markUndone(x);
    }
  }
  document.body.dataset.logSeq = String(S.logSeq);
  if (atBottom) wrap.scrollTop = wrap.scrollHeight;
}

/**
 * The words of a talk line or free roll without the speaker (drawn beside
 * it), or null for a line of the rules.
 */
function talkText(line) {
  const ev = line.event || {};
  // By the line's kind: a book's own event may hold a `roll` field.
  if (!["say", "ooc", "narrate", "whisper", "roll"].includes(line.kind)) return null;
  if (ev.talk) {
    const t = ev.talk;
    if (t.voice === "say") return `“${t.text}”`;
    if (t.voice === "ooc") return `(out of character) ${t.text}`;
    if (t.voice === "narrate") return t.text;
    if (t.voice === "whisper") return `whispers${t.to ? ` to ${t.to === "GM" || t.to === "gm" ? "GM" : t.to}` : ""}: ${t.text}`;
  }
  if (ev.roll) {
    // The server's words (`FreeRoll::describe`: "Stella rolls 8d6! → 8d6e6
    // (…) = 32 (roll20) for “fire”") without the roller's name, which is
    // drawn beside them.
    const text = String(line.text || "");
    const who = `${line.seat === "gm" ? "GM" : line.seat} `;
    return text.startsWith(who) ? text.slice(who.length) : text;
  }
  return null;
}

/** A driver command's answer (help, status, odds, sheet, view, log), shown to this seat only. */
function showDriver(cmd, m) {
  let body;
  if (m.type === "help") {
    body = [
      el("p", {}, "What you may type now (a book command, or the table's words below):"),
      el("ul", { class: "help-list" }, [
        ...m.commands.map((c) => el("li", {}, [el("code", {}, c.usage), c.summary ? ` — ${c.summary}` : ""])),
        ...TABLE_WORDS.map(([u, d]) => el("li", {}, [el("code", {}, u), ` — ${d}`])),
      ]),
    ];
  } else if (m.type === "status") {
    body = el("pre", { class: "driver-text" }, m.status);
  } else if (m.type === "sheet") {
    body = el("pre", { class: "driver-text" }, m.text);
  } else if (m.type === "odds") {
    body = m.odds.length ? oddsList(m.odds) : el("p", {}, "No choice with odds in front of you now.");
  } else if (m.type === "log") {
    body = el("p", {}, `The whole log (${m.lines.length} lines you may see) is in the Log panel.`);
  } else if (m.type === "view") {
    body = el("pre", { class: "driver-text" }, JSON.stringify(m.view, null, 2));
  } else {
    body = el("pre", { class: "driver-text" }, JSON.stringify(m, null, 2));
  }
  const close = el("button", { type: "button", class: "secondary close-answer", "aria-label": "Close this answer" }, "Close");
  close.addEventListener("click", () => setFeedback("", []));
  setFeedback("answer", [close, el("p", {}, [el("code", {}, cmd), ":"]), body]);
}

/** The table's own words, the same in every book (docs/COMMANDS.md). */
const TABLE_WORDS = [
  ["say TEXT", "speak in character, to everyone"],
  ["ooc TEXT", "speak out of character"],
  ["whisper SEAT TEXT", "to one seat (the GM hears every whisper)"],
  ["narrate TEXT", "the GM's narration"],
  ["roll EXPR # reason", "a free roll (2d6 + 1, 4d6kh3, 1d20 >= 15); the GM may add secret"],
  ["? / help, status, odds, sheet [NAME], log", "as at the terminal"],
];

/** One log line's node; an undo's range is remembered for the lines around it. */
function lineNode(line) {
  const undo = line.kind === "undo";
  if (undo && line.event && line.event.undo) S.undos.push([Number(line.event.undo.back_to), line.seq]);
  const talk = talkText(line);
  const kind = undo ? "undo" : talk !== null ? `talk talk-${line.kind}` : "event";
  return el("li", { class: `line ${kind}`, "data-seq": String(line.seq), "data-kind": line.kind || "event" }, [
    el("span", { class: "seq", "aria-hidden": "true" }, `#${line.seq}`),
    " ",
    el("span", { class: "who" }, line.seat === "gm" ? "GM" : line.seat),
    line.given_by ? el("span", { class: "given-by muted" }, ` (on ${line.given_by === "gm" ? "GM" : line.given_by}'s command)`) : null,
    el("span", { class: "sr-only" }, ": "),
    " ",
    // Talk is plain text: drawn as a text node, never as markup.
    el("span", { class: "text" }, talk !== null ? talk : logText((book(S.system) || {}).log_symbols, line.text)),
  ]);
}

/** Mark an event line undone when an undo seen took the table back past it. */
function markUndone(li) {
  if (!li.classList.contains("event") || li.classList.contains("undone")) return;
  const n = Number(li.dataset.seq);
  if (S.undos.some(([back, seq]) => n > back && n < seq)) {
    li.classList.add("undone");
    li.appendChild(el("span", { class: "undone-note" }, " (undone)"));
  }
}

/** A refusal, shown to this seat only (nothing changed at the table). */
function addRefusal(text, err) {
  const li = el("li", { class: "line refused" }, [
    el("span", { class: "who" }, "Refused"),
    " ",
    el("span", { class: "text" }, [el("code", {}, text), `: ${err.message}`, err.rule ? el("span", { class: "rule" }, [" Rule: ", el("cite", {}, err.rule)]) : null]),
  ]);
  $("log").appendChild(li);
  const wrap = $("log-wrap");
  wrap.scrollTop = wrap.scrollHeight;
}

// ------------------------------------------------------------------ commands

function setFeedback(kind, nodes) {
  const f = $("feedback");
  f.dataset.kind = kind;
  replace(f, nodes);
}

function rolledValues() {
  if (!$("own-dice").checked) return null;
  const t = $("rolled").value.trim();
  if (!t) return null;
  return t.split(/[\s,]+/).filter(Boolean);
}

async function send(text, form, sheets) {
  const cmd = String(text || "").trim();
  if (!cmd || S.busy) return;
  S.busy = true;
  document.body.dataset.busy = "true";
  const request = { text: cmd, expect_seq: S.seq };
  // Character sheet files the line names (the GM's `add FILE.toml`).
  if (sheets && Object.keys(sheets).length) request.sheets = sheets;
  const rolled = rolledValues();
  if (rolled) request.rolled = rolled;
  setFeedback("pending", `Sending: ${cmd}`);
  try {
    const r = await S.api.command(request);
    if (r.ok && r.body && r.body.driver) {
      remember(cmd);
      showDriver(cmd, r.body.driver);
      if (r.body.driver.type === "log") addLines(r.body.driver.lines || []);
    } else if (r.ok) {
      remember(cmd);
      // A sent form starts fresh: its values are not carried into the next
      // command of that name (issue 27, bug 5).
      if (form) {
        S.sentForms.add(form);
        S.legalKey = null;
      }
      if (r.body && Array.isArray(r.body.events)) addLines(r.body.events);
      if (r.body && typeof r.body.seq === "number") S.seq = Math.max(S.seq, r.body.seq);
      if (rolled) $("rolled").value = "";
      setFeedback("ok", [el("code", {}, cmd), " done."]);
      await refreshAll();
    } else if (r.status === 409) {
      setFeedback("error", "The table moved on before your command arrived; here is the table as it is now. Check, then send again.");
      await refreshAll();
    } else if (r.status === 401) {
      fatal("This seat link is not valid any more (the GM may have reissued it).");
    } else if (r.status === 0 || r.status === 502 || r.status === 503 || r.status === 504) {
      // The server or the network, not the rules (issue 27, bug 9): nothing
      // was decided, so it is no refusal and goes to no log.
      const err = describeError(r);
      setFeedback("offline", [
        el("strong", {}, "Not sent: "),
        el("code", {}, cmd),
        ` ${err.message}. Nothing changed at the table; send it again when the server is back.`,
      ]);
    } else {
      const err = describeError(r);
      setFeedback("error", [
        el("strong", {}, "Refused: "),
        el("code", {}, cmd),
        ` ${err.message}`,
        err.rule ? el("p", { class: "rule" }, ["Rule: ", el("cite", {}, err.rule)]) : null,
        el("p", { class: "muted" }, "Nothing changed at the table."),
      ]);
      addRefusal(cmd, err);
    }
  } finally {
    S.busy = false;
    document.body.dataset.busy = "false";
  }
}

function remember(cmd) {
  S.history = S.history.filter((h) => h !== cmd);
  S.history.push(cmd);
  if (S.history.length > HISTORY_MAX) S.history = S.history.slice(-HISTORY_MAX);
  S.histPos = -1;
  try {
    localStorage.setItem(historyKey(), JSON.stringify(S.history));
  } catch {
    /* storage full or off: history lasts this page only */
  }
}

function historyKey() {
  return `tabula:history:${S.id}:${S.seat || "?"}`;
}

function loadHistory() {
  try {
    const h = JSON.parse(localStorage.getItem(historyKey()) || "[]");
    S.history = Array.isArray(h) ? h.filter((x) => typeof x === "string").slice(-HISTORY_MAX) : [];
  } catch {
    S.history = [];
  }
}

async function undo() {
  if (S.busy) return;
  S.busy = true;
  try {
    const r = await S.api.undo();
    if (r.ok) {
      if (r.body && Array.isArray(r.body.events)) addLines(r.body.events);
      setFeedback("ok", "The last command was undone.");
      await refreshAll();
    } else {
      const err = describeError(r);
      setFeedback("error", [el("strong", {}, "Undo refused: "), err.message]);
    }
  } finally {
    S.busy = false;
  }
}

async function reissue(seat) {
  const self = seat.toLowerCase() === S.seat.toLowerCase();
  if (self) S.reissuingSelf = true;
  const r = await S.api.reissue(seat);
  if (self && !r.ok) S.reissuingSelf = false;
  const box = $("reissued");
  if (!r.ok) {
    replace(box, el("p", { class: "error" }, `Reissue refused: ${describeError(r).message}`));
    return;
  }
  const token = r.body.token;
  const link = token ? seatLink(S.id, token) : r.body.link;
  replace(box, [
    el("p", {}, `${seat === "gm" ? "The GM's" : seat + "'s"} old link no longer works. The new one:`),
    el("ul", { class: "seat-cards" }, seatCard({ seat, role: r.body.role || (seat === "gm" ? "gm" : "player"), link })),
  ]);
  if (self && token) {
    // This page is the GM's: keep working with the new token.
    sessionStorage.setItem(`tabula:token:${S.id}`, token);
    history.replaceState(null, "", `#${token}`);
    S.token = token;
    S.api = new Seat(S.id, token);
    reconnectNow(true);
    setTimeout(() => {
      S.reissuingSelf = false;
    }, 2000);
  }
}

// ------------------------------------------------------------------ the WebSocket

function connect() {
  clearTimeout(S.reconnectTimer);
  if (S.dead) return;
  if (S.ws && (S.ws.readyState === WebSocket.OPEN || S.ws.readyState === WebSocket.CONNECTING)) return;
  let ws;
  try {
    ws = new WebSocket(S.api.socketUrl(S.logSeq));
  } catch {
    scheduleReconnect();
    return;
  }
  S.ws = ws;
  setConn("connecting", S.attempts ? "Reconnecting…" : "Connecting…");
  ws.addEventListener("open", () => {
    ws.send(JSON.stringify({ token: S.token }));
    S.attempts = 0;
    setConn("live", "Live");
    // Anything that happened while we were away.
    refreshAll();
  });
  ws.addEventListener("message", (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (S.ws === ws) onMessage(msg);
  });
  ws.addEventListener("close", (ev) => {
    if (S.ws !== ws) return;
    S.ws = null;
    if (S.revoked) return;
    scheduleReconnect();
  });
  ws.addEventListener("error", () => {
    /* a close event follows */
  });
}

function scheduleReconnect() {
  clearTimeout(S.reconnectTimer);
  const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** Math.min(S.attempts, 10));
  S.attempts += 1;
  setConn("reconnecting", `Connection lost; reconnecting in ${Math.round(delay / 100) / 10} s…`);
  S.reconnectTimer = setTimeout(connect, delay);
}

function reconnectNow(force) {
  if (!S.api) return;
  if (force && S.ws) {
    const old = S.ws;
    S.ws = null;
    old.close();
  }
  if (!S.ws) {
    S.attempts = 0;
    connect();
  }
}

function onMessage(msg) {
  if (!msg || typeof msg !== "object") return;
  if (msg.type === "revoked") {
    if (S.reissuingSelf) return;
    fatal("The GM reissued this seat's link: this one no longer works. Ask the GM for the new link.");
    S.revoked = true;
    return;
  }
  if (msg.type === "ended") {
    showEnded(msg.message);
    return;
  }
  // The GM deleted the table, or nobody touched it for the server's expiry.
  if (msg.type === "deleted") {
    S.revoked = true;
    fatal(String(msg.message || "This table was deleted."));
    return;
  }
  if (Array.isArray(msg.online)) {
    S.online = new Set(msg.online.map((x) => String(x).toLowerCase()));
    drawPresence();
    if (msg.type === "presence") return;
  }
  if (msg.type === "error" || (msg.error && !msg.view && !msg.lines)) {
    if (msg.error === "unauthorized") {
      S.revoked = true;
      fatal("The server refused this seat link on the live connection (the GM may have reissued it).");
    }
    return;
  }
  const lines = list(msg, "events", "lines", "log");
  if (msg.line) lines.push(msg.line);
  if (lines.length) addLines(lines);
  // An update carries the view and the sheets only when they changed since
  // this socket's last message, whole or as a patch of the pieces that
  // changed since then (issue 28): keep what we have otherwise. A patch is
  // applied to the copy this socket was sent (`S.live`), never to one
  // fetched over HTTP in between, which may hold a piece the patch does not
  // name because it changed and changed back.
  const newView = takeLive("view", msg);
  const newSheets = takeLive("sheets", msg);
  if (newView) S.view = S.live.view;
  if (newSheets) S.sheets = S.live.sheets;
  if (newView || newSheets) drawSheets();
  const seq = typeof msg.seq === "number" ? msg.seq : lines.length ? lines[lines.length - 1].seq : null;
  if (seq !== null && seq !== S.seq) {
    S.seq = Math.max(S.seq, seq);
  }
  // Legal commands, odds and status follow from the new state: fetch them.
  scheduleRefresh();
}

/**
 * Take the socket message `msg`'s `field` (`view` or `sheets`) into
 * `S.live[field]`, the copy this socket was sent: whole, or the copy
 * patched by `field_patch`. True when it changed.
 */
function takeLive(field, msg) {
  const whole = msg[field];
  if (whole && typeof whole === "object") {
    S.live[field] = whole;
    return true;
  }
  const patch = msg[`${field}_patch`];
  if (Array.isArray(patch) && S.live[field]) {
    S.live[field] = patched(S.live[field], patch);
    return true;
  }
  return false;
}

/**
 * `base` with each `[path, value]` of `patch` set (the server's
 * `view_patch`/`sheets_patch`, crates/server/src/patch.rs): a path is one or
 * two keys, a member's name or an element's index. The pieces on the path are
 * copied, so `base` itself is not changed.
 */
function patched(base, patch) {
  const out = Array.isArray(base) ? [...base] : { ...base };
  for (const entry of patch) {
    if (!Array.isArray(entry) || !Array.isArray(entry[0]) || !entry[0].length) continue;
    const [path, value] = entry;
    if (path.length === 1) {
      out[path[0]] = value;
      continue;
    }
    const inner = out[path[0]];
    if (!inner || typeof inner !== "object") continue;
    const copy = Array.isArray(inner) ? [...inner] : { ...inner };
    copy[path[1]] = value;
    out[path[0]] = copy;
  }
  return out;
}

// ------------------------------------------------------------------ wiring

function wireTurnAlert() {
  const box = $("turn-alert");
  try {
    box.checked = localStorage.getItem("tabula:turn-alert") !== "off";
  } catch {
    box.checked = true;
  }
  box.addEventListener("change", () => {
    try {
      localStorage.setItem("tabula:turn-alert", box.checked ? "on" : "off");
    } catch {
      /* storage off: the choice lasts this page */
    }
  });
}

/** Download the record of the night as this seat may see it (issue 27, item 7). */
async function saveRecord(format) {
  const r = await S.api.record(format);
  if (!r.ok) {
    setFeedback("error", `The record could not be fetched: ${describeError(r).message}`);
    return;
  }
  const type = format === "html" ? "text/html" : "text/markdown";
  const url = URL.createObjectURL(new Blob([String(r.body)], { type }));
  const a = el("a", { href: url, download: `tabula-${S.id}-${S.seat || "seat"}.${format}` }, "record");
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function wire() {
  wireTurnAlert();
  $("record-md").addEventListener("click", () => saveRecord("md"));
  $("record-html").addEventListener("click", () => saveRecord("html"));
  $("command-line").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("cmd");
    let t = input.value.trim();
    if (!t) return;
    // A seat prefix is this seat anyway: the token is the seat.
    const m = /^([^:]+):\s*(.+)$/.exec(t);
    if (m && (m[1].trim().toLowerCase() === S.seat.toLowerCase() || (S.seat === "gm" && /^(gm|dealer|storyteller)$/i.test(m[1].trim())))) t = m[2];
    if (t === "/undo") {
      input.value = "";
      undo();
      return;
    }
    send(t).then(() => {
      if (["ok", "answer"].includes($("feedback").dataset.kind)) input.value = "";
    });
  });
  $("cmd").addEventListener("keydown", (ev) => {
    if (ev.key !== "ArrowUp" && ev.key !== "ArrowDown") return;
    if (!S.history.length) return;
    ev.preventDefault();
    if (S.histPos === -1) S.histPos = S.history.length;
    S.histPos += ev.key === "ArrowUp" ? -1 : 1;
    if (S.histPos < 0) S.histPos = 0;
    if (S.histPos >= S.history.length) {
      S.histPos = -1;
      ev.target.value = "";
      return;
    }
    ev.target.value = S.history[S.histPos];
  });
  const own = $("own-dice");
  own.checked = localStorage.getItem(`tabula:own-dice:${S.id}`) === "1";
  $("rolled-field").hidden = !own.checked;
  own.addEventListener("change", () => {
    $("rolled-field").hidden = !own.checked;
    localStorage.setItem(`tabula:own-dice:${S.id}`, own.checked ? "1" : "0");
    if (own.checked) $("rolled").focus();
  });
  $("undo").addEventListener("click", () => undo());
  $("log-older").addEventListener("click", () => fetchOlder());
  $("log-wrap").addEventListener("scroll", () => {
    if ($("log-wrap").scrollTop < 40) fetchOlder();
  });
  $("end-campaign").addEventListener("click", () => endCampaignEncounter());
  $("end-encounter").addEventListener("click", (ev) => {
    const c = ev.currentTarget.dataset.command;
    if (c && window.confirm("End the encounter for everyone?")) send(c);
  });
  $("delete-table").addEventListener("click", () => deleteTable());
  $("reissue-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const seat = $("reissue-seat").value;
    if (seat && window.confirm(`Reissue ${seat === "gm" ? "the GM's" : seat + "'s"} link? The old one stops working.`)) reissue(seat);
  });
  // History needs the seat, known after the first view.
  const once = setInterval(() => {
    if (S.seat) {
      loadHistory();
      clearInterval(once);
    }
  }, 100);
  setTimeout(() => clearInterval(once), 20000);
}

loadBooks().then(start);
