// A campaign's page for one seat (/c/ID#TOKEN): its seats, the characters
// this seat may see (a player only its own; the GM all) with their sheets,
// histories and advancement, new and imported characters, and (for the GM)
// opening a table of the campaign's characters. The campaign token is also
// the seat's token at every table the campaign opens. Everything comes from
// the server's API; the page decides no rule.

import { Campaign, builder, describeError } from "./api.js";
import { el, replace } from "./dom.js";
import { campaignLink, seatCard } from "./links.js";
import { diceFields, chooseDice } from "./dice.js";
import { bookTitle, loadBooks, ruleCite, problemList, downloadLink, readText } from "./characters.js";

const $ = (id) => document.getElementById(id);

/** The most NPC sheets sent with one table (the server caps them too). */
const MAX_FILES = 64;

/** The characters one "More characters" asks for (the server's default page). */
const PAGE = 50;

/** The most characters one page of the campaign holds (the server's cap). */
const MAX_PAGE = 200;

const S = {
  id: "",
  token: "",
  api: null,
  campaign: null,
  // The characters shown: the pages read so far, in the order added.
  characters: [],
  // The next page's `characters_after`, or null when every character is shown.
  next: null,
  total: 0,
  histories: new Map(),
  results: new Map(),
  openSheets: new Set(),
  advancement: [],
  loads: 0,
};

// ------------------------------------------------------------------ start

/** Read the campaign id and the seat's token, then load the campaign. */
function start() {
  window.addEventListener("hashchange", () => location.reload());
  const m = /^\/c\/([^/]+)\/?$/.exec(location.pathname);
  S.id = m ? decodeURIComponent(m[1]) : "";
  const key = `tabula:campaign-token:${S.id}`;
  const fromHash = location.hash.replace(/^#/, "").trim();
  S.token = fromHash || sessionStorage.getItem(key) || "";
  if (!S.id || !S.token) {
    fatal("This page needs your seat's campaign link, with its secret after the #. Ask the GM for it.");
    return;
  }
  if (fromHash) sessionStorage.setItem(key, fromHash);
  S.api = new Campaign(S.id, S.token);
  wire();
  load();
}

/** Show a message that stops the page. */
function fatal(message) {
  const f = $("fatal");
  f.textContent = message;
  f.hidden = false;
  document.body.dataset.ready = "false";
}

/**
 * Load the campaign with its first page of characters (as many pages as were
 * shown before, on a reload), the shown characters' histories and the book's
 * advancement commands.
 */
async function load() {
  const shown = S.characters.length;
  // Every character was shown: show every one again (and any added since).
  const all = shown > 0 && !S.next;
  const size = (n) => Math.min(Math.max(n, PAGE), MAX_PAGE);
  const r = await S.api.show({ limit: size(shown) });
  if (r.status === 401 || r.status === 404) {
    fatal("This campaign link is not valid. Ask the GM for yours.");
    return;
  }
  if (!r.ok) {
    fatal(`The campaign could not be loaded: ${describeError(r).message}`);
    return;
  }
  S.campaign = r.body;
  const c = S.campaign;
  let characters = c.characters || [];
  let next = c.characters_next || null;
  while (next && (all || characters.length < shown)) {
    const more = await S.api.show({ after: next, limit: size(shown - characters.length) });
    if (!more.ok) break;
    characters = characters.concat(more.body.characters || []);
    next = more.body.characters_next || null;
  }
  S.characters = characters;
  S.next = next;
  S.total = c.characters_total ?? characters.length;
  if (!S.advancement.length) {
    const a = await builder.advancement(c.system);
    S.advancement = a.ok && Array.isArray(a.body) ? a.body : [];
  }
  S.histories = new Map();
  await loadHistories(characters);
  S.encounters = { bundled: [], earlier: [] };
  if (c.role === "gm") {
    const e = await S.api.encounters();
    if (e.ok && e.body) S.encounters = e.body;
  }
  draw();
  S.loads += 1;
  document.body.dataset.loads = String(S.loads);
  document.body.dataset.ready = "true";
}

/** Read the histories of `characters` (the page just shown), one request each. */
async function loadHistories(characters) {
  const histories = await Promise.all(characters.map((ch) => S.api.character(ch.id)));
  histories.forEach((h, i) => {
    if (h.ok) S.histories.set(characters[i].id, h.body.history || []);
  });
}

/** Show the next page of characters below those shown (their histories too). */
async function moreCharacters() {
  if (!S.next) return;
  const button = $("more-characters");
  button.disabled = true;
  const r = await S.api.show({ after: S.next, limit: PAGE });
  button.disabled = false;
  if (!r.ok) {
    $("characters-count").textContent = `More characters could not be loaded: ${describeError(r).message}`;
    return;
  }
  const page = r.body.characters || [];
  await loadHistories(page);
  S.characters = S.characters.concat(page);
  S.next = r.body.characters_next || null;
  S.total = r.body.characters_total ?? S.total;
  if (S.characters.length === page.length) replace($("characters"), []);
  $("characters").append(...page.map(characterCard));
  drawMore();
  S.loads += 1;
  document.body.dataset.loads = String(S.loads);
}

/** How many characters are shown of how many, and "More characters" while some are not. */
function drawMore() {
  const box = $("characters-more");
  box.hidden = !S.next;
  $("characters-count").textContent = `Showing ${S.characters.length} of ${S.total} characters.`;
  document.body.dataset.characters = String(S.characters.length);
}

// ------------------------------------------------------------------ drawing

/** Draw the whole campaign as this seat sees it. */
function draw() {
  const c = S.campaign;
  const gm = c.role === "gm";
  $("campaign-title").textContent = c.name;
  document.title = `${c.name}: Tabula`;
  replace($("whoami"), [el("span", { class: "seat-name" }, gm ? "GM" : c.seat), gm ? " (game master)" : " (player)", ` · ${bookTitle(c.system)}`]);
  document.body.dataset.role = c.role;
  document.body.dataset.seat = c.seat;
  $("new-character").href = `/new/${encodeURIComponent(c.system)}?campaign=${encodeURIComponent(S.id)}#${S.token}`;
  const chars = S.characters;
  replace($("characters"), chars.length ? chars.map(characterCard) : el("p", { class: "muted" }, gm ? "No characters yet: make one or import a sheet." : "You have no character in this campaign yet: make one or import a sheet."));
  drawMore();
  drawSeats();
  drawTables();
  if (gm) drawEncounters();
  $("gm").hidden = !gm;
  $("import-owner-field").hidden = !gm;
  if (gm) {
    const sel = $("import-owner");
    const before = sel.value;
    replace(sel, (c.seats || []).map((s) => el("option", { value: s.seat }, s.role === "gm" ? "GM (an NPC)" : s.seat)));
    if (before) sel.value = before;
  }
}

/** One character: name, owner, export link, sheet, history and the advancement form. */
function characterCard(ch) {
  const history = S.histories.get(ch.id) || [];
  const sheetDetails = el("details", { class: "sheet-toml", open: S.openSheets.has(ch.id) }, [el("summary", {}, "Sheet (TOML)"), el("pre", { class: "sheet-text" }, ch.sheet)]);
  sheetDetails.addEventListener("toggle", () => {
    if (sheetDetails.open) S.openSheets.add(ch.id);
    else S.openSheets.delete(ch.id);
  });
  return el("article", { class: "character sheet", "data-character": ch.id, "data-name": ch.name, "aria-labelledby": `ch-${ch.id}` }, [
    el("h3", { id: `ch-${ch.id}` }, [ch.name, el("span", { class: "sub" }, ` · ${ch.owner === "gm" ? "the GM's" : ch.owner + "'s"} · ${ch.file}`)]),
    el("div", { class: "row wrap" }, [
      downloadLink(ch.sheet, ch.file, "Export the sheet", { class: "button secondary export", "aria-label": `Export ${ch.name}'s sheet (TOML)` }),
      S.campaign.role === "gm"
        ? el(
            "a",
            {
              class: "button secondary edit",
              href: `/new/${encodeURIComponent(S.campaign.system)}?campaign=${encodeURIComponent(S.id)}&character=${encodeURIComponent(ch.id)}#${S.token}`,
              "aria-label": `Edit ${ch.name}'s sheet in the builder`,
            },
            "Edit in the builder",
          )
        : null,
    ]),
    needsEdit(ch),
    sheetDetails,
    el("h4", {}, "History"),
    el(
      "ol",
      { class: "history" },
      history.map((h) =>
        el("li", { "data-kind": h.kind, "data-seq": String(h.seq) }, [
          el("span", { class: "muted" }, `#${h.seq} · ${h.at_ms ? new Date(h.at_ms).toLocaleString() : ""} · ${h.seat === "gm" ? "GM" : h.seat} · `),
          el("strong", {}, h.kind),
          h.summary && h.summary !== h.kind ? `: ${h.summary}` : null,
          changeList(h.event && Array.isArray(h.event.changes) ? h.event.changes : []),
          ruleNotes("Needs the GM's edit", h.event && h.event.problems, "needs-edit"),
          ruleNotes("The GM's edit steps past", h.event && h.event.steps_past, "steps-past"),
        ]),
      ),
    ),
    advanceForm(ch),
  ]);
}

/**
 * A character whose sheet an encounter left breaking a rule: the encounter was
 * recorded all the same, and the GM must edit the sheet (every rule listed)
 * before the character sits at a table again.
 */
function needsEdit(ch) {
  const problems = ch.needs_edit || [];
  if (!problems.length) return null;
  return el("div", { class: "error needs-edit", role: "status", "data-kind": "needs-edit" }, [
    el("strong", {}, S.campaign.role === "gm" ? "Needs your edit before the next table: " : "Needs the GM's edit before the next table: "),
    "the sheet the last encounter left breaks these rules.",
    problemList(problems),
  ]);
}

/** Rules an event lists (an encounter's sheet problems, an edit's rules stepped past), headed by `label`. */
function ruleNotes(label, notes, kind) {
  if (!Array.isArray(notes) || !notes.length) return null;
  return el("div", { class: `rule-notes ${kind}`, "data-kind": kind }, [el("em", {}, `${label}:`), problemList(notes)]);
}

/** The values one event changed, as a short list. */
function changeList(changes) {
  if (!changes.length) return null;
  return el("ul", { class: "changes" }, changes.map((c) => el("li", {}, changeText(c))));
}

/** One sheet change in words: `path: from -> to` (as the server writes it). */
function changeText(c) {
  if (typeof c === "string") return c;
  const path = (c.path || [])
    .map((p) => (typeof p === "string" ? `.${p}` : typeof p === "number" ? `[${p}]` : p.Key !== undefined ? `.${p.Key}` : p.key !== undefined ? `.${p.key}` : `[${p.Index ?? p.index}]`))
    .join("")
    .replace(/^\./, "");
  const v = (x) => (x === null || x === undefined ? "(none)" : JSON.stringify(x));
  return `${path}: ${v(c.from)} -> ${v(c.to)}`;
}

/** The advancement form: the book's commands, their arguments, the answer or refusal. */
function advanceForm(ch) {
  const id = `adv-${ch.id}`;
  const cmds = S.advancement;
  if (!cmds.length) return el("p", { class: "muted" }, "This book has no advancement commands.");
  const select = el(
    "select",
    { id: `${id}-cmd`, class: "advance-command", "aria-describedby": `${id}-usage` },
    cmds.map((c) => el("option", { value: c.name }, `${c.name}${c.giver && c.giver.toLowerCase().includes("gm") ? " (GM)" : ""}`)),
  );
  const args = el("input", { type: "text", id: `${id}-args`, class: "advance-args", autocomplete: "off", spellcheck: "false", maxlength: 4000 });
  const usage = el("p", { class: "help", id: `${id}-usage` });
  const showUsage = () => {
    const c = cmds.find((x) => x.name === select.value) || cmds[0];
    replace(usage, [el("code", {}, c.usage), ` ${c.summary} `, el("span", { class: "rule-line" }, ["Rule: ", ruleCite(c.rule)])]);
    args.placeholder = c.usage.split(/\s+/).slice(1).join(" ");
  };
  select.addEventListener("change", showUsage);
  showUsage();
  const result = el("div", { class: "advance-result", role: "alert" }, S.results.get(ch.id) || []);
  const form = el("form", { class: "advance", "data-character": ch.id, novalidate: true }, [
    el("h4", {}, "Advance"),
    el("div", { class: "row wrap" }, [
      el("label", { for: `${id}-cmd` }, "Command"),
      select,
      el("label", { for: `${id}-args` }, "Arguments"),
      args,
      el("button", { type: "submit" }, "Advance"),
    ]),
    usage,
    result,
  ]);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    advance(ch, `${select.value} ${args.value}`.trim(), result);
  });
  return form;
}

/** Every seat of the campaign (never a token); the GM may give a seat a new link. */
function drawSeats() {
  const gm = S.campaign.role === "gm";
  replace(
    $("seats"),
    (S.campaign.seats || []).map((s) =>
      el("li", { "data-seat": s.seat }, [
        el("strong", {}, s.role === "gm" ? "GM" : s.seat),
        el("span", { class: "muted" }, s.role === "gm" ? " (game master)" : " (player)"),
        s.seat === S.campaign.seat ? " (you)" : null,
        gm
          ? el(
              "button",
              { type: "button", class: "secondary reissue", "data-seat": s.seat, "aria-label": `New link for ${s.role === "gm" ? "the GM" : s.seat}`, onclick: () => reissueSeat(s) },
              "New link",
            )
          : null,
      ]),
    ),
  );
}

/** (GM) Give seat `s` a new link (a lost or leaked one) and show it; the old one stops working everywhere. */
async function reissueSeat(s) {
  const who = s.role === "gm" ? "the GM" : s.seat;
  if (!window.confirm(`Give ${who} a new link? The old one will stop opening this campaign and its tables.`)) return;
  const r = await S.api.reissue(s.seat);
  const box = $("reissued");
  if (!r.ok) {
    replace(box, el("p", { class: "error", "data-kind": "error" }, `Not reissued: ${describeError(r).message}`));
    return;
  }
  const link = campaignLink(S.id, r.body.token);
  replace(box, el("div", { "data-kind": "ok" }, [
    el("p", {}, `${s.role === "gm" ? "The GM's" : s.seat + "'s"} old link no longer works. The new one:`),
    el("ul", { class: "seat-cards" }, seatCard({ seat: s.seat, role: r.body.role, link })),
  ]));
  if (s.seat === S.campaign.seat) {
    // The GM's own link: keep working with the new token.
    S.token = r.body.token;
    S.api = new Campaign(S.id, S.token);
    sessionStorage.setItem(`tabula:campaign-token:${S.id}`, S.token);
    history.replaceState(null, "", `#${S.token}`);
  }
}

/** The link to a campaign table for this seat: its own campaign token opens it. */
function tableLink(tableId) {
  return `/t/${encodeURIComponent(tableId)}?campaign=${encodeURIComponent(S.id)}#${S.token}`;
}

/** The campaign's tables, newest first, with their ended state and a link for this seat. */
function drawTables() {
  const tables = S.campaign.tables || [];
  const me = S.campaign.role === "gm" ? "GM" : S.campaign.seat;
  replace(
    $("tables"),
    tables.length
      ? el(
          "ul",
          { class: "campaign-tables" },
          tables.map((t) =>
            el("li", { "data-table": t.id, "data-ended": t.ended_ms ? "true" : "false" }, [
              el("strong", {}, t.name || "(unnamed)"),
              el("span", { class: "muted" }, ` · ${t.created_ms ? new Date(t.created_ms).toLocaleString() : ""} · ${t.seq} moves · `),
              t.ended_ms ? el("span", { class: "ended" }, `ended ${new Date(t.ended_ms).toLocaleString()}`) : el("span", { class: "in-play" }, "in play"),
              " ",
              el("a", { href: tableLink(t.id), class: "open-table" }, `Open the table (as ${me})`),
            ]),
          ),
        )
      : el("p", { class: "muted" }, "No tables yet."),
  );
}

// ------------------------------------------------------------------ actions

/** Give one advancement command; show what changed or the refusal with its rule. */
async function advance(ch, command, result) {
  if (!command) return;
  replace(result, el("p", { class: "muted" }, `Sending: ${command}`));
  const r = await S.api.advance(ch.id, command);
  let nodes;
  if (r.ok) {
    const a = r.body;
    nodes = el("div", { class: "ok-note", "data-kind": "ok" }, [el("strong", {}, `${command}: `), a.summary, changeList(a.changes || [])]);
  } else {
    const d = describeError(r);
    // The engine's message ends with the rule in brackets: it is shown below.
    const message = d.rule && d.message.endsWith(` (${d.rule})`) ? d.message.slice(0, -(d.rule.length + 3)) : d.message;
    nodes = el("div", { class: "error", "data-kind": "error" }, [
      el("strong", {}, "Refused: "),
      el("code", {}, command),
      ` ${message}`,
      d.rule ? el("p", { class: "rule" }, ["Rule: ", el("cite", {}, d.rule)]) : null,
      el("p", { class: "muted" }, "Nothing changed."),
    ]);
  }
  S.results.set(ch.id, nodes);
  if (r.ok) await load();
  else replace(result, nodes);
}

/** Import a pasted or uploaded sheet as a character of this campaign. */
async function importSheet(ev) {
  ev.preventDefault();
  const out = $("import-result");
  let sheet = $("import-text").value;
  const f = $("import-file").files[0];
  try {
    if (!sheet.trim() && f) sheet = await readText(f);
  } catch (e) {
    replace(out, el("p", { class: "error" }, `Cannot read the file: ${e.message}`));
    return;
  }
  if (!sheet.trim()) {
    replace(out, el("p", { class: "error" }, "Paste a sheet or choose its file first."));
    return;
  }
  const request = { sheet, imported: true };
  if (S.campaign.role === "gm" && $("import-owner").value) request.owner = $("import-owner").value;
  if (f && !$("import-text").value.trim()) request.file = f.name;
  const r = await S.api.add(request);
  if (!r.ok) {
    const d = describeError(r);
    replace(out, el("div", { class: "error", "data-kind": "error" }, [`Not imported: ${d.message}`, r.body && Array.isArray(r.body.problems) ? problemList(r.body.problems) : null]));
    return;
  }
  replace(out, el("p", { class: "ok-note", "data-kind": "ok" }, `${r.body.name} joined the campaign (file ${r.body.file}).`));
  $("import-text").value = "";
  $("import-file").value = "";
  await load();
}

/**
 * (GM) The next encounter's choices: each bundled table of the book, each
 * earlier table of the campaign, or an upload. The campaign's player
 * characters are placed into a bundled or earlier table by the server.
 */
function drawEncounters() {
  const sel = $("next-encounter");
  const before = sel.value;
  const e = S.encounters || {};
  const options = [
    ...(e.bundled || []).map((b) => el("option", { value: `example:${b.example}` }, `Bundled: ${b.name}`)),
    ...(e.earlier || []).map((t) => el("option", { value: `again:${t.table}` }, `Again: ${t.name}${t.ended_ms ? "" : " (still open)"}`)),
    el("option", { value: "upload" }, "Upload a table file"),
  ];
  replace(sel, options);
  if (before && [...sel.options].some((o) => o.value === before)) sel.value = before;
}

/** Choosing or pasting a table file chooses the upload. */
function chooseUpload() {
  $("next-encounter").value = "upload";
}

/** Read the table file's text: what is pasted, else the uploaded file. */
async function tableText() {
  const pasted = $("table-text").value;
  if (pasted.trim()) return pasted;
  const f = $("table-file").files[0];
  return f ? readText(f) : "";
}

/** (GM) Open a table of the campaign's characters and show how each seat reaches it. */
async function openTable(ev) {
  ev.preventDefault();
  const err = $("open-error");
  err.textContent = "";
  const request = {};
  const choice = $("next-encounter").value || "upload";
  if (choice.startsWith("example:")) request.example = choice.slice("example:".length);
  else if (choice.startsWith("again:")) request.again = choice.slice("again:".length);
  else {
    try {
      request.table = await tableText();
      const npcs = [...$("npc-files").files];
      if (npcs.length > MAX_FILES) throw new Error(`at most ${MAX_FILES} files`);
      if (npcs.length) {
        request.files = {};
        for (const f of npcs) request.files[f.name] = await readText(f);
      }
    } catch (e) {
      err.textContent = `Cannot read the files: ${e.message}`;
      return;
    }
  }
  if (request.table !== undefined && !request.table.trim()) {
    err.textContent = "Choose or paste the table file.";
    return;
  }
  const name = $("table-name").value.trim();
  if (name) request.name = name;
  chooseDice(request);
  const button = $("open-table");
  button.disabled = true;
  const r = await S.api.openTable(request);
  button.disabled = false;
  if (!r.ok) {
    const d = describeError(r);
    err.textContent = `The table was not opened: ${d.message}${d.rule ? " (" + d.rule + ")" : ""}`;
    return;
  }
  const t = r.body;
  replace($("opened"), [
    el("h3", {}, `Table “${t.name}” opened`),
    el("p", {}, [el("a", { href: tableLink(t.table), id: "open-as-me", class: "button" }, "Open the table as GM")]),
    el("p", { class: "help" }, "Each seat opens it from this campaign page with its own campaign link: the campaign token is the seat's token at the table. The seats:"),
    el(
      "ul",
      { class: "link-list", id: "opened-seats" },
      (t.seats || []).map((s) => el("li", { "data-seat": s.seat }, [el("strong", {}, s.role === "gm" ? "GM" : s.seat), ` · ${s.link}`])),
    ),
  ]);
  $("opened").focus();
  await load();
}

// ------------------------------------------------------------------ wiring

/** Listen to the page's forms and buttons. */
function wire() {
  $("dice-settings").replaceWith(diceFields());
  $("reload").addEventListener("click", load);
  $("more-characters").addEventListener("click", moreCharacters);
  $("import-form").addEventListener("submit", importSheet);
  $("open-table-form").addEventListener("submit", openTable);
  $("table-file").addEventListener("change", chooseUpload);
  $("table-text").addEventListener("input", chooseUpload);
  $("npc-files").addEventListener("change", chooseUpload);
}

loadBooks().then(start);
