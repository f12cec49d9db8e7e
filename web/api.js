// The HTTP API of tabula-server, as the page uses it (docs/API.md).
// Every call answers {ok, status, body}: body is the parsed JSON, or the text
// when the answer is not JSON. Nothing here decides a rule.

/** How long one request may take before the page gives up on it (ms). */
export const REQUEST_TIMEOUT_MS = 15000;

async function call(method, path, { token, json, text } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  let body;
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (text !== undefined) {
    headers["Content-Type"] = "text/plain; charset=utf-8";
    body = text;
  }
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), REQUEST_TIMEOUT_MS);
  try {
    const r = await fetch(path, {
      method,
      headers,
      body,
      signal: ctrl.signal,
      cache: "no-store",
      credentials: "omit",
      referrerPolicy: "no-referrer",
    });
    const raw = await r.text();
    let parsed = raw;
    if ((r.headers.get("content-type") || "").includes("json")) {
      try {
        parsed = JSON.parse(raw);
      } catch {
        parsed = raw;
      }
    }
    return { ok: r.ok, status: r.status, body: parsed };
  } catch (e) {
    const aborted = e && e.name === "AbortError";
    return {
      ok: false,
      status: 0,
      body: { error: "network", message: aborted ? "the server did not answer in time" : "the server cannot be reached" },
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Lobby calls (no token). */
export const lobby = {
  tables: () => call("GET", "/api/tables"),
  examples: () => call("GET", "/api/examples"),
  create: (request) => call("POST", "/api/tables", { json: request }),
  qr: (link) => call("POST", "/qr", { text: link }),
  campaigns: () => call("GET", "/api/campaigns"),
  createCampaign: (request) => call("POST", "/api/campaigns", { json: request }),
};

/** The path of one system's API (`/api/systems/SYSTEM`). */
function systemPath(system) {
  return `/api/systems/${encodeURIComponent(system)}`;
}

/** The character builder and the book's sheet checks (open, no token; the page keeps the draft). */
export const builder = {
  /** The empty draft and its view. */
  start: (system) => call("GET", `${systemPath(system)}/builder`),
  /** Apply `changes` ([{set: {key, value}} | {clear: {key}}]) to `draft`; `settings`: a campaign's setting rules (R-SCR-9). */
  change: (system, draft, changes, settings = "") => call("POST", `${systemPath(system)}/builder`, { json: { draft, changes, settings } }),
  /** The finished sheet `{name, sheet}`, or 422 `unfinished` with `problems`. */
  finish: (system, draft, settings = "") => call("POST", `${systemPath(system)}/builder/finish`, { json: { draft, settings } }),
  /** The draft a saved sheet is, with its view (to edit it in the builder). */
  fromSheet: (system, sheet, settings = "") => call("POST", `${systemPath(system)}/builder/from-sheet`, { json: { sheet, settings } }),
  /** What `character validate` says of a sheet: `{valid, name, problems}`. */
  validate: (system, sheet, settings = "") => call("POST", `${systemPath(system)}/sheets/validate`, { json: { sheet, settings } }),
  /** The book's advancement commands. */
  advancement: (system) => call("GET", `${systemPath(system)}/advancement`),
};

/** One seat of one campaign: every call carries the seat's campaign token. */
export class Campaign {
  /** The campaign `id` as the seat whose token is `token`. */
  constructor(id, token) {
    this.id = id;
    this.token = token;
    this.base = `/api/campaigns/${encodeURIComponent(id)}`;
  }
  /**
   * The campaign as this seat may see it, with one page of its characters
   * (`after`: the `characters_next` of the page before; `limit`: 1 to 200,
   * the server's default 50): `characters`, `characters_total`,
   * `characters_next` (null on the last page).
   */
  show({ after, limit } = {}) {
    const q = new URLSearchParams();
    if (after) q.set("characters_after", after);
    if (limit) q.set("characters_limit", String(limit));
    const query = q.toString();
    return call("GET", query ? `${this.base}?${query}` : this.base, { token: this.token });
  }
  /** One character with its history. */
  character(cid) {
    return call("GET", `${this.base}/characters/${encodeURIComponent(cid)}`, { token: this.token });
  }
  /** One character's sheet as TOML text (export). */
  sheet(cid) {
    return call("GET", `${this.base}/characters/${encodeURIComponent(cid)}/sheet`, { token: this.token });
  }
  /** Add a character: `{sheet, owner?, file?, imported?}`. */
  add(request) {
    return call("POST", `${this.base}/characters`, { token: this.token, json: request });
  }
  /** (GM) Replace a character's sheet; recorded as an `edited` event. */
  edit(cid, sheet) {
    return call("PUT", `${this.base}/characters/${encodeURIComponent(cid)}/sheet`, { token: this.token, json: { sheet } });
  }
  /** Give one advancement command to a character. */
  advance(cid, command) {
    return call("POST", `${this.base}/characters/${encodeURIComponent(cid)}/advance`, { token: this.token, json: { command } });
  }
  /** (GM) A new link for `seat`; the old one opens neither the campaign nor its tables. */
  reissue(seat) {
    return call("POST", `${this.base}/seats/${encodeURIComponent(seat)}/reissue`, { token: this.token });
  }
  /** What the GM may open next: `{bundled: [{example, name}], earlier: [{table, name, created_ms, ended_ms?}]}`. */
  encounters() {
    return call("GET", `${this.base}/encounters`, { token: this.token });
  }
  /** (GM) Open a table of the campaign's characters: `{table, files?, name?}`, `{example, name?}` or `{again, name?}`. */
  openTable(request) {
    return call("POST", `${this.base}/tables`, { token: this.token, json: request });
  }
}

/** One seat at one table: every call carries the seat's token. */
export class Seat {
  constructor(tableId, token) {
    this.table = tableId;
    this.token = token;
    this.base = `/api/tables/${encodeURIComponent(tableId)}`;
  }
  get(path) {
    return call("GET", this.base + path, { token: this.token });
  }
  post(path, json) {
    return call("POST", this.base + path, { token: this.token, json });
  }
  view() {
    return this.get("/view");
  }
  legal() {
    return this.get("/legal");
  }
  odds() {
    return this.get("/odds");
  }
  status() {
    return this.get("/status");
  }
  /** The log lines after `after` (the oldest first, a page at a time: `more` when newer remain). */
  log(after) {
    return this.get(`/log?after=${Number(after) || 0}`);
  }
  /** The newest `limit` lines (before `before` when given): `more` when older remain. */
  logPage(limit, before) {
    const b = before ? `&before=${Number(before)}` : "";
    return this.get(`/log?limit=${Number(limit)}${b}`);
  }
  command(request) {
    return this.post("/commands", request);
  }
  undo() {
    return this.post("/undo", {});
  }
  /** The record of the night as this seat may see it: `md` or `html` text. */
  record(format) {
    return this.get(`/record?format=${encodeURIComponent(format)}`);
  }
  /** Who the table waits on now (seat and participant). */
  awaiting() {
    return this.get("/awaiting");
  }
  /** Let the book's policy give one participant's command now. */
  policy(participant, expectSeq) {
    return this.post("/policy", { participant, expect_seq: expectSeq });
  }
  seats() {
    return this.get("/seats");
  }
  reissue(seat) {
    return this.post(`/seats/${encodeURIComponent(seat)}/reissue`, {});
  }
  /** (GM of a campaign table) End the encounter: its lasting changes are written back. */
  end() {
    return this.post("/end", {});
  }
  /** (GM) Delete the table: its log, seats and links are gone for everyone (204). */
  remove() {
    return call("DELETE", this.base, { token: this.token });
  }
  /** The WebSocket URL (the token goes in the first message, not the URL). */
  socketUrl(after) {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}${this.base}/ws?after=${Number(after) || 0}`;
  }
}

/** A refusal or error answer in words, and the rule it cites when there is one. */
export function describeError(res) {
  const b = res.body;
  if (res.status === 0) return { message: b.message, rule: null };
  if (typeof b === "string") return { message: b.trim() || `HTTP ${res.status}`, rule: null };
  if (!b || typeof b !== "object") return { message: `HTTP ${res.status}`, rule: null };
  // A CommandError: {"error": "rule", "rule": {...}, "kind": ..., "message": ...}
  // (flattened) or wrapped as {"error": ..., "message": ..., "detail": {...}}.
  const inner = b.detail && typeof b.detail === "object" ? b.detail : b;
  const ruleObj = findRule(inner) || findRule(b);
  let message = inner.message || b.message;
  if (!message && inner.error === "parse") {
    if (inner.parse === "unknown") message = `unknown command "${inner.got}"; commands: ${inner.known}`;
    else if (inner.parse === "arguments") message = `${inner.command}: ${inner.problem} (usage: ${inner.usage})`;
    else if (inner.parse === "name" && inner.kind === "unknown") message = `there is no ${inner.field} called "${inner.got}"; the ${inner.field} names here: ${(inner.candidates || []).join(", ")}`;
    else if (inner.parse === "name" && inner.kind === "ambiguous") message = `"${inner.got}" could be the ${inner.field} ${(inner.matches || []).join(" or ")}: type more of the name`;
  }
  // A free roll the table's notation cannot read (`TalkError::Notation`):
  // say which notation the table reads, as the terminal does.
  if (inner.problem === "notation" && inner.expr !== undefined) {
    const where = inner.dialect ? ` in ${inner.dialect} notation (this table's dice_dialect)` : "";
    message = `the roll "${inner.expr}" could not be read${where}: ${message}`;
  }
  if (!message) message = b.error ? String(b.error) : `HTTP ${res.status}`;
  return { message, rule: ruleObj ? citeRule(ruleObj) : null, kind: b.error || null };
}

function findRule(o) {
  if (!o || typeof o !== "object") return null;
  if (o.rule && typeof o.rule === "object" && "section" in o.rule) return o.rule;
  for (const k of ["Rule", "refusal", "error"]) {
    const v = o[k];
    if (v && typeof v === "object") {
      const r = findRule(v);
      if (r) return r;
    }
  }
  return null;
}

/** The books' facts from the engine (GET /api/systems), by id, once loaded. */
const BOOKS = new Map();
let booksLoading = null;

/**
 * Load every book's facts once (`{id, title, end_commands, log_symbols,
 * campaign_settings, ...}`, docs/API.md); every page awaits this before it
 * draws, and no page writes a book's name. Answers the list, in the books'
 * order; an empty list when the server could not be reached.
 */
export function loadBooks() {
  if (!booksLoading) {
    booksLoading = call("GET", "/api/systems").then((r) => {
      for (const b of (r.ok && r.body && r.body.systems) || []) BOOKS.set(b.id, b);
      if (!r.ok) booksLoading = null;
      return [...BOOKS.values()];
    });
  }
  return booksLoading;
}

/** The facts of the book `id` (null before `loadBooks` or for an unknown id). */
export function book(id) {
  return BOOKS.get(id) || null;
}

/** The book's title, or its id when the facts are not loaded. */
export function bookTitle(id) {
  const b = BOOKS.get(id);
  return b ? b.title : String(id || "");
}

/** A rule citation as the engine prints it: `Title, "Section"; ruling` (the seed file stays in the JSON). */
export function citeRule(rule) {
  let s = `${BOOKS.has(rule.system) ? bookTitle(rule.system) : "Tabula"}, "${rule.section}"`;
  if (rule.ruling) s += `; ${rule.ruling}`;
  return s;
}
