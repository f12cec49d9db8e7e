// The lobby (/): the tables in this database, and a new table from a bundled
// example or an uploaded table file with its sheets. The answer shows one
// link (copy, open, QR code) per seat. Also: a new character for each book
// (/new/SYSTEM), the campaigns, and a new campaign with its seats' links.

import { lobby, describeError, loadBooks, book, bookTitle } from "./api.js";
import { el, replace } from "./dom.js";
import { seatCard, seatLink, campaignLink } from "./links.js";
import { diceFields, chooseDice } from "./dice.js";

const $ = (id) => document.getElementById(id);

/** The most sheets sent with one table (the server caps them too). */
const MAX_FILES = 64;
/** The largest file read, in bytes (the engine's cap on a table or sheet file). */
const MAX_FILE_BYTES = 1024 * 1024;

let catalog = null;

async function loadExamples() {
  const r = await lobby.examples();
  catalog = {};
  if (r.ok) {
    const entries = Array.isArray(r.body) ? r.body : r.body.examples || r.body.systems || [];
    for (const e of entries) {
      // The server's list of table files (never a character sheet).
      const names = (e.tables || []).map((f) => f.replace(/\.toml$/, ""));
      catalog[e.system] = names;
    }
  }
  fillExamples();
}

function fillExamples() {
  const system = $("system").value;
  const names = (catalog && catalog[system]) || ["table"];
  const sorted = [...names].sort((a, b) => (a === "table" ? -1 : b === "table" ? 1 : a.localeCompare(b)));
  replace(
    $("example"),
    sorted.map((n) => el("option", { value: n }, n === "table" ? "table (the encounter)" : n)),
  );
}

function sourceChanged() {
  const upload = $("source-upload").checked;
  $("table-file").disabled = !upload;
  $("sheet-files").disabled = !upload;
  $("example").disabled = upload;
}

async function readFile(f) {
  if (f.size > MAX_FILE_BYTES) throw new Error(`${f.name} is larger than 1 MiB`);
  return f.text();
}

async function create(ev) {
  ev.preventDefault();
  const err = $("create-error");
  err.textContent = "";
  const system = $("system").value;
  const request = { system };
  const name = $("table-name").value.trim();
  if (name) request.name = name;
  chooseDice(request);
  try {
    if ($("source-upload").checked) {
      const t = $("table-file").files[0];
      if (!t) {
        err.textContent = "Choose the table file to upload.";
        $("table-file").focus();
        return;
      }
      request.table = await readFile(t);
      const sheets = [...$("sheet-files").files];
      if (sheets.length > MAX_FILES) throw new Error(`at most ${MAX_FILES} sheets`);
      request.files = {};
      for (const f of sheets) request.files[f.name] = await readFile(f);
    } else {
      request.example = $("example").value || "table";
    }
  } catch (e) {
    err.textContent = `Cannot read the files: ${e.message}`;
    return;
  }
  const button = $("create");
  button.disabled = true;
  button.textContent = "Creating…";
  const r = await lobby.create(request);
  button.disabled = false;
  button.textContent = "Create the table";
  if (!r.ok) {
    const d = describeError(r);
    err.textContent = `The table was not created: ${d.message}${d.rule ? " (" + d.rule + ")" : ""}`;
    return;
  }
  showCreated(r.body);
  loadTables();
loadCampaigns();
}

function showCreated(c) {
  const box = $("created");
  const seats = c.seats || [];
  replace(box, [
    el("h3", {}, `Table ${c.name ? "“" + c.name + "” " : ""}created (${bookTitle(c.system)})`),
    el("p", { class: "warn" }, "Each link below is a seat's secret key: send each player only their own link (the GM keeps the GM link). The links are shown once; the GM can reissue one from the table."),
    el(
      "ul",
      { class: "seat-cards" },
      seats.map((s) => seatCard({ seat: s.seat, role: s.role, link: s.token ? seatLink(c.table, s.token) : s.link })),
    ),
  ]);
  box.focus();
}

async function loadTables() {
  const box = $("tables");
  box.setAttribute("aria-busy", "true");
  const r = await lobby.tables();
  box.setAttribute("aria-busy", "false");
  if (!r.ok) {
    replace(box, el("p", { class: "muted" }, r.status === 404 || r.status === 405 ? "This server does not list its tables." : `The list could not be loaded: ${describeError(r).message}`));
    return;
  }
  const tables = Array.isArray(r.body) ? r.body : r.body.tables || [];
  if (!tables.length) {
    replace(box, el("p", { class: "muted" }, "No tables yet: create one."));
    return;
  }
  replace(
    box,
    el("table", { class: "tables" }, [
      el("caption", { class: "sr-only" }, "Tables in this database"),
      el("thead", {}, el("tr", {}, ["Table", "System", "Seats", "Moves", "Created"].map((h) => el("th", { scope: "col" }, h)))),
      el(
        "tbody",
        {},
        tables.map((t) =>
          el("tr", { "data-table": t.id || t.table }, [
            el("th", { scope: "row" }, [t.name || t.title || "(unnamed)", el("div", { class: "muted mono" }, t.id || t.table)]),
            el("td", { "data-label": "System" }, bookTitle(t.system)),
            el("td", { "data-label": "Seats" }, Array.isArray(t.seats) ? t.seats.map((s) => (typeof s === "string" ? s : s.seat)).join(", ") : String(t.seats ?? "")),
            el("td", { "data-label": "Moves" }, String(t.seq ?? t.moves ?? "")),
            el("td", { "data-label": "Created" }, t.created_ms ? new Date(t.created_ms).toLocaleString() : t.created_at ? new Date(t.created_at).toLocaleString() : ""),
          ]),
        ),
      ),
    ]),
  );
}

/** True when the book `id` takes a campaign's settings (GET /api/systems). */
function takesSettings(id) {
  return !!(book(id) || {}).campaign_settings;
}

/** Show the setting's rules field, with the book's own help, only for a book that takes them. */
function showSettingsField() {
  const b = book($("campaign-system").value) || {};
  $("campaign-settings-field").hidden = !b.campaign_settings;
  $("campaign-settings-help").textContent = b.campaign_settings ? `${b.title}: ${b.campaign_settings}` : "";
  $("campaign-settings").placeholder = b.campaign_settings_example || "";
}

/**
 * Every place the lobby names the books, from the engine's list: the two
 * system choices and the new-character links (issue 26, item 3).
 */
function fillBooks(books) {
  const options = () => books.map((b) => el("option", { value: b.id }, b.title));
  replace($("system"), options());
  replace($("campaign-system"), options());
  replace(
    $("new-character"),
    books.map((b) => el("li", {}, el("a", { href: `/new/${encodeURIComponent(b.id)}` }, `${b.title}: a new character`))),
  );
}

/** Create a campaign from the form and show each seat's campaign link. */
async function createCampaign(ev) {
  ev.preventDefault();
  const err = $("campaign-error");
  err.textContent = "";
  const name = $("campaign-name").value.trim();
  if (!name) {
    err.textContent = "Give the campaign a name.";
    $("campaign-name").focus();
    return;
  }
  const players = $("campaign-players")
    .value.split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const system = $("campaign-system").value;
  const request = { system, name, players };
  // A book's campaign settings (its `campaign_settings`, GET /api/systems).
  const settings = $("campaign-settings").value;
  if (takesSettings(system) && settings.trim()) request.settings = settings;
  const button = $("create-campaign");
  button.disabled = true;
  const r = await lobby.createCampaign(request);
  button.disabled = false;
  if (!r.ok) {
    err.textContent = `The campaign was not created: ${describeError(r).message}`;
    return;
  }
  showCampaign(r.body);
  loadCampaigns();
}

/** The new campaign's seats, one card (link, copy, open, QR) each. */
function showCampaign(c) {
  const box = $("campaign-created");
  replace(box, [
    el("h3", {}, `Campaign “${c.name}” created (${bookTitle(c.system)})`),
    el("p", { class: "warn" }, "Each link below is a seat's secret key to the campaign and its tables: send each player only their own link (the GM keeps the GM link). The links are shown once."),
    el(
      "ul",
      { class: "seat-cards" },
      (c.seats || []).map((s) => seatCard({ seat: s.seat, role: s.role, link: s.token ? campaignLink(c.campaign, s.token) : s.link })),
    ),
  ]);
  box.focus();
}

/** The campaigns in this database (no tokens: each seat opens its own link). */
async function loadCampaigns() {
  const box = $("campaigns");
  box.setAttribute("aria-busy", "true");
  const r = await lobby.campaigns();
  box.setAttribute("aria-busy", "false");
  if (!r.ok) {
    replace(box, el("p", { class: "muted" }, `The list could not be loaded: ${describeError(r).message}`));
    return;
  }
  const list = Array.isArray(r.body) ? r.body : r.body.campaigns || [];
  if (!list.length) {
    replace(box, el("p", { class: "muted" }, "No campaigns yet: create one."));
    return;
  }
  replace(
    box,
    el("table", { class: "tables" }, [
      el("caption", { class: "sr-only" }, "Campaigns in this database"),
      el("thead", {}, el("tr", {}, ["Campaign", "System", "Seats", "Characters", "Tables", "Created"].map((h) => el("th", { scope: "col" }, h)))),
      el(
        "tbody",
        {},
        list.map((c) =>
          el("tr", { "data-campaign": c.id }, [
            el("th", { scope: "row" }, [el("a", { href: `/c/${encodeURIComponent(c.id)}` }, c.name || "(unnamed)"), el("div", { class: "muted mono" }, c.id)]),
            el("td", { "data-label": "System" }, bookTitle(c.system)),
            el("td", { "data-label": "Seats" }, String(c.seats ?? "")),
            el("td", { "data-label": "Characters" }, String(c.characters ?? "")),
            el("td", { "data-label": "Tables" }, String(c.tables ?? "")),
            el("td", { "data-label": "Created" }, c.created_ms ? new Date(c.created_ms).toLocaleString() : ""),
          ]),
        ),
      ),
    ]),
  );
}

$("dice-settings").replaceWith(diceFields());
fillBooks(await loadBooks());
$("system").addEventListener("change", fillExamples);
$("new-campaign").addEventListener("submit", createCampaign);
$("campaign-system").addEventListener("change", showSettingsField);
showSettingsField();
$("reload-campaigns").addEventListener("click", loadCampaigns);
$("source-example").addEventListener("change", sourceChanged);
$("source-upload").addEventListener("change", sourceChanged);
$("new-table").addEventListener("submit", create);
$("reload-tables").addEventListener("click", loadTables);
sourceChanged();
fillExamples();
loadExamples();
loadTables();
loadCampaigns();
