// The character builder (/new/SYSTEM, or /new/SYSTEM?campaign=ID#TOKEN from a
// campaign): the book's creation steps in the book's order, as the engine's
// builder describes them (GET/POST /api/systems/SYSTEM/builder). The builder
// is stateless: this page keeps the draft and sends it back with each change.
// Every budget, derived value, problem and refusal is the engine's; the page
// decides no rule.

import { builder, Campaign, describeError } from "./api.js";
import { el, replace } from "./dom.js";
import { bookTitle, loadBooks, ruleCite, problemList, downloadLink, readText, defaultFile } from "./characters.js";

const $ = (id) => document.getElementById(id);

const S = {
  system: "",
  campaign: "",
  token: "",
  settings: "",
  camp: null,
  seat: "",
  role: "",
  draft: null,
  view: null,
  refusal: null,
  sent: null,
  queue: Promise.resolve(),
  answers: 0,
  pending: 0,
  finished: null,
  imported: null,
};

// ------------------------------------------------------------------ start

/** Read the system and the campaign from the URL, then load the draft. */
async function start() {
  const m = /^\/new\/([^/]+)\/?$/.exec(location.pathname);
  S.system = m ? decodeURIComponent(m[1]) : "";
  const params = new URLSearchParams(location.search);
  S.campaign = params.get("campaign") || "";
  S.editing = S.campaign ? params.get("character") || "" : "";
  const fromHash = location.hash.replace(/^#/, "").trim();
  if (S.campaign) {
    const key = `tabula:campaign-token:${S.campaign}`;
    S.token = fromHash || sessionStorage.getItem(key) || "";
    if (fromHash) sessionStorage.setItem(key, fromHash);
  }
  const book = bookTitle(S.system);
  $("book-title").textContent = `A new ${book} character`;
  document.title = `A new ${book} character: Tabula`;
  document.body.dataset.system = S.system;
  wire();
  if (S.campaign) loadCampaign();
  if (S.editing) return editCharacter();
  const saved = loadDraft();
  const r = saved ? await builder.change(S.system, saved, [], S.settings) : await builder.start(S.system);
  if (!r.ok && saved) {
    // A saved draft that no longer reads: start from the empty one.
    sessionStorage.removeItem(draftKey());
    return restart();
  }
  if (!r.ok) {
    fatal(`The builder cannot start: ${describeError(r).message}`);
    return;
  }
  take(r.body);
  // The campaign may have answered first: its setting rules then apply now.
  if (S.settings) await refreshUnderSettings();
  document.body.dataset.ready = "true";
}

/** (GM) Load a campaign character's current sheet into the builder, to save it back as an edit. */
async function editCharacter() {
  const r = S.camp ? await S.camp.sheet(S.editing) : null;
  if (!r || !r.ok) {
    fatal(`This character cannot be edited here: ${r ? describeError(r).message : "open the page from the campaign's page"}`);
    return;
  }
  const sheet = typeof r.body === "string" ? r.body : r.text || "";
  const d = await builder.fromSheet(S.system, sheet, S.settings);
  if (!d.ok) {
    fatal(`The character's sheet does not read: ${describeError(d).message}`);
    return;
  }
  take(d.body);
  const name = (d.body.view.steps || []).flatMap((s) => s.fields).find((f) => f.key === "name");
  $("book-title").textContent = `Editing ${name && name.value ? name.value : "a character"} (${bookTitle(S.system)})`;
  $("add-to-campaign").textContent = "Save to the campaign";
  document.body.dataset.editing = S.editing;
  document.body.dataset.ready = "true";
}

/** Show a message that stops the page. */
function fatal(message) {
  const f = $("fatal");
  f.textContent = message;
  f.hidden = false;
  replace($("steps"), []);
}

/** The sessionStorage key of this system's draft (kept across a reload). */
function draftKey() {
  return `tabula:draft:${S.system}${S.editing ? `:${S.editing}` : ""}`;
}

/** The draft saved by an earlier visit of this tab, or null. */
function loadDraft() {
  try {
    const d = JSON.parse(sessionStorage.getItem(draftKey()) || "null");
    return d && typeof d === "object" ? d : null;
  } catch {
    return null;
  }
}

/** Start over from the book's empty draft. */
async function restart() {
  const r = await builder.start(S.system);
  if (!r.ok) {
    fatal(`The builder cannot start: ${describeError(r).message}`);
    return;
  }
  S.refusal = null;
  S.finished = null;
  $("finished").hidden = true;
  take(r.body);
  document.body.dataset.ready = "true";
}

/** The draft's view again under the campaign's setting rules (R-SCR-9). */
function refreshUnderSettings() {
  S.queue = S.queue
    .then(async () => {
      const r = await builder.change(S.system, S.draft, [], S.settings);
      if (r.ok) take(r.body);
    })
    .catch(() => {});
  return S.queue;
}

/** The campaign this character is for: its name, this seat, and (for the GM) the seats. */
async function loadCampaign() {
  const note = $("campaign-note");
  if (!S.token) {
    note.textContent = "Open this page from your campaign's page to add the character to it.";
    return;
  }
  S.camp = new Campaign(S.campaign, S.token);
  // The campaign's name, seats and settings: one character is the least page.
  const r = await S.camp.show({ limit: 1 });
  if (!r.ok) {
    note.textContent = `The campaign link is not valid (${describeError(r).message}); you can still build and download the sheet.`;
    S.camp = null;
    return;
  }
  const c = r.body;
  S.seat = c.seat;
  S.role = c.role;
  // R-SCR-9: the builder checks against the campaign's setting rules.
  if (c.system === S.system && c.settings) {
    S.settings = c.settings;
    if (S.draft) refreshUnderSettings();
  }
  replace(note, [
    "For the campaign ",
    el("a", { href: `/c/${encodeURIComponent(S.campaign)}#${S.token}` }, `“${c.name}”`),
    ` as ${c.role === "gm" ? "GM" : c.seat}`,
  ]);
  if (c.system !== S.system) note.append(` (the campaign plays ${bookTitle(c.system)}: this character cannot join it)`);
  $("campaign-add").hidden = false;
  if (c.role === "gm" && !S.editing) {
    $("owner-field").hidden = false;
    replace(
      $("owner"),
      (c.seats || []).map((s) => el("option", { value: s.seat, selected: s.role !== "gm" && !$("owner").value }, s.role === "gm" ? "GM (an NPC)" : s.seat)),
    );
    const firstPlayer = (c.seats || []).find((s) => s.role !== "gm");
    if (firstPlayer) $("owner").value = firstPlayer.seat;
  }
}

// ------------------------------------------------------------------ changes

/** Queue one change ({set: {key, value}} or {clear: {key}}); changes go one at a time. */
function change(ch) {
  S.pending += 1;
  document.body.dataset.pending = String(S.pending);
  S.queue = S.queue
    .then(() => send(ch))
    .catch(() => {})
    .finally(() => {
      S.pending -= 1;
      document.body.dataset.pending = String(S.pending);
    });
  return S.queue;
}

/** Send one change with the current draft and take the answer. */
async function send(ch) {
  const key = (ch.set || ch.clear).key;
  S.sent = { key, value: ch.set ? valueText(ch.set.value) : "" };
  document.body.dataset.busy = "true";
  const r = await builder.change(S.system, S.draft, [ch], S.settings);
  document.body.dataset.busy = "false";
  if (!r.ok) {
    // Not the builder's refusal but a request the server could not read.
    S.refusal = { kind: "bad-value", key, message: describeError(r).message };
    draw();
    return;
  }
  take(r.body);
}

/** Keep the builder's answer (draft, view, refusal) and draw it. */
function take(answer) {
  S.draft = answer.draft;
  S.view = answer.view;
  S.refusal = answer.refusal || null;
  try {
    sessionStorage.setItem(draftKey(), JSON.stringify(S.draft));
  } catch {
    /* storage full or off: the draft lasts this page only */
  }
  S.answers += 1;
  draw();
  document.body.dataset.answers = String(S.answers);
}

/** A field value as the text a control shows. */
function valueText(v) {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) return v.join("\u0000");
  return String(v);
}

// ------------------------------------------------------------------ drawing

/** Draw everything from the view: steps, budgets, derived values, problems. */
function draw() {
  drawSteps();
  drawBudgets();
  drawDerived();
  drawProblems();
  $("finish").disabled = !(S.view && S.view.complete);
  document.body.dataset.complete = S.view && S.view.complete ? "true" : "false";
}

/** The DOM id of a field's control. */
function controlId(key) {
  return `field-${String(key).replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

/** Redraw the steps, keeping the focus and whatever is being typed. */
function drawSteps() {
  const box = $("steps");
  const active = document.activeElement;
  const keep = box.contains(active) && active.dataset && active.dataset.key ? { id: active.id, key: active.dataset.key, value: active.value, rendered: active.dataset.rendered } : null;
  replace(box, (S.view.steps || []).map(stepSection));
  if (!keep) return;
  const again = document.getElementById(keep.id);
  if (!again) return;
  const typing = (again.type === "text" || again.type === "number") && keep.value !== keep.rendered;
  const justSent = S.sent && S.sent.key === keep.key && S.sent.value === keep.value;
  if (typing && !justSent) again.value = keep.value;
  again.focus();
}

/** One step of the book: title, help, rule cited, its fields. */
function stepSection(step, index) {
  const hid = `step-${index}-h`;
  return el("section", { class: `panel step${step.done ? " done" : ""}`, "data-step": step.id, "aria-labelledby": hid }, [
    el("h2", { id: hid }, [step.title, step.done ? el("span", { class: "done-mark" }, " ✓ done") : null]),
    step.help ? el("p", { class: "help" }, step.help) : null,
    step.rule ? el("p", { class: "rule-line" }, ["Rule: ", ruleCite(step.rule)]) : null,
    (step.fields || []).map(fieldBlock),
  ]);
}

/** A field: its label, the right control for its kind, its help, and a refusal if any. */
function fieldBlock(f) {
  const id = controlId(f.key);
  const helpId = `${id}-help`;
  const refusal = S.refusal && S.refusal.key === f.key ? S.refusal : null;
  const errId = `${id}-refusal`;
  const described = [f.help ? helpId : null, refusal ? errId : null].filter(Boolean).join(" ") || null;
  const kind = f.kind || {};
  let control;
  if (kind.kind === "multi") {
    control = multiControl(f, id, described);
  } else {
    const label = el("label", { for: id }, [f.label, f.required ? el("span", { class: "muted" }, " (required)") : null]);
    control = [label, singleControl(f, id, described, refusal)];
  }
  return el("div", { class: `field bfield${refusal ? " refused" : ""}`, "data-key": f.key }, [
    control,
    f.help ? el("p", { class: "help", id: helpId }, f.help) : null,
    el("div", { class: "refusal", id: errId, role: "alert", "data-key": f.key }, refusal ? refusalNodes(refusal) : []),
  ]);
}

/** A number input (min/max), a select, or a text input (maxlength) for one field. */
function singleControl(f, id, described, refusal) {
  const kind = f.kind || {};
  const value = f.value === null || f.value === undefined ? "" : String(f.value);
  const common = { id, "data-key": f.key, "data-rendered": value, "aria-describedby": described, "aria-invalid": refusal ? "true" : null, required: f.required };
  if (kind.kind === "int") {
    const input = el("input", { ...common, type: "number", inputmode: "numeric", step: "1", min: kind.min, max: kind.max, value });
    input.addEventListener("change", () => {
      const t = input.value.trim();
      if (t === "") change({ clear: { key: f.key } });
      else change({ set: { key: f.key, value: Number(t) } });
    });
    return input;
  }
  if (kind.kind === "choice") {
    const options = [el("option", { value: "" }, "(not chosen)"), ...(kind.options || []).map((o) => el("option", { value: o.value, title: o.help || null }, o.help ? `${o.label}: ${o.help}` : o.label))];
    const sel = el("select", common, options);
    sel.value = value;
    sel.addEventListener("change", () => {
      if (sel.value === "") change({ clear: { key: f.key } });
      else change({ set: { key: f.key, value: sel.value } });
    });
    return sel;
  }
  const input = el("input", { ...common, type: "text", maxlength: kind.max_chars, value, autocomplete: "off", spellcheck: "false" });
  input.addEventListener("change", () => {
    const t = input.value;
    if (t.trim() === "") change({ clear: { key: f.key } });
    else change({ set: { key: f.key, value: t } });
  });
  return input;
}

/** Checkboxes for a field that takes several options (between min and max). */
function multiControl(f, id, described) {
  const kind = f.kind || {};
  const picked = new Set(Array.isArray(f.value) ? f.value : []);
  const boxes = (kind.options || []).map((o, i) => {
    const oid = `${id}-${i}`;
    const box = el("input", { type: "checkbox", id: oid, value: o.value, "data-key": f.key, checked: picked.has(o.value) });
    return el("div", { class: "choice" }, [box, el("label", { for: oid }, [o.label, o.help ? el("span", { class: "muted opt-help" }, ` ${o.help}`) : null])]);
  });
  const set = el("fieldset", { class: "multi", id, "aria-describedby": described }, [
    el("legend", {}, [f.label, el("span", { class: "muted" }, ` (${kind.min}–${kind.max})`)]),
    boxes,
  ]);
  set.addEventListener("change", () => {
    const list = [...set.querySelectorAll("input[type=checkbox]:checked")].map((b) => b.value);
    change({ set: { key: f.key, value: list } });
  });
  return set;
}

/** A refusal in words, with the rule it cites when it is a broken rule. */
function refusalNodes(r) {
  if (r.kind === "broken" && r.problem) {
    return [el("strong", {}, "Refused: "), r.problem.message, " ", el("span", { class: "rule-line" }, ["Rule: ", ruleCite(r.problem.rule)]), el("span", { class: "muted" }, " Nothing changed.")];
  }
  if (r.kind === "unknown-field") return [el("strong", {}, "Refused: "), `there is no field ${r.key} now (fields: ${r.known || ""}).`];
  return [el("strong", {}, "Refused: "), r.message || "not a value this field takes", el("span", { class: "muted" }, " Nothing changed.")];
}

/** Each budget: what is left of it, with its rule. */
function drawBudgets() {
  const budgets = S.view.budgets || [];
  replace(
    $("budgets"),
    budgets.length
      ? el(
          "ul",
          { class: "budgets" },
          budgets.map((b) => {
            const left = Number(b.total) - Number(b.spent);
            return el("li", { class: left < 0 ? "over" : "", "data-budget": b.name, "data-left": String(left) }, [
              el("span", {}, [el("strong", {}, b.name), `: ${left} left (${b.spent} of ${b.total} spent)`]),
              el("meter", { min: 0, max: Math.max(1, Number(b.total)), value: Math.max(0, Number(b.spent)), "aria-label": `${b.name} spent` }),
              el("span", { class: "rule-line" }, ["Rule: ", ruleCite(b.rule)]),
            ]);
          }),
        )
      : el("p", { class: "muted" }, "This book's creation has no budget to spend."),
  );
}

/** The values that follow from the choices (bonuses, defenses, ranks...). */
function drawDerived() {
  replace(
    $("derived"),
    (S.view.derived || []).flatMap((d) => [el("dt", {}, d.name), el("dd", { "data-derived": d.name }, [String(d.value), " ", ruleCite(d.rule)])]),
  );
}

/** The problems left, and a refusal whose field is not shown. */
function drawProblems() {
  const problems = S.view.problems || [];
  replace($("problems"), problems.length ? problemList(problems, { id: "problem-list" }) : el("p", { class: "ok-note" }, S.view.complete ? "No problem: the character is complete." : "No rule is broken; some steps are not done yet."));
  const r = S.refusal;
  const shown = r && document.querySelector(`.refusal[data-key="${CSS.escape(r.key || "")}"]`);
  replace($("refusal-general"), r && !shown ? refusalNodes(r) : []);
}

// ------------------------------------------------------------------ finishing

/** Finish the draft: the sheet, with Download and (from a campaign) Add to campaign. */
async function finish() {
  $("finish-error").textContent = "";
  const r = await builder.finish(S.system, S.draft, S.settings);
  if (!r.ok) {
    const d = describeError(r);
    replace($("finish-error"), [`Not finished: ${d.message}`]);
    return;
  }
  S.finished = r.body;
  $("sheet-text").textContent = r.body.sheet;
  replace($("finished-actions"), downloadLink(r.body.sheet, defaultFile(r.body.name), "Download", { id: "download" }));
  replace($("added"), []);
  $("add-to-campaign").disabled = !S.camp;
  $("finished").hidden = false;
  $("finished").dataset.name = r.body.name;
  $("finished").focus();
}

/** Add the finished (or an imported) sheet to the campaign this page came from. */
async function addToCampaign(sheet, imported, out) {
  if (!S.camp) {
    replace(out, el("p", { class: "error" }, "Open this page from your campaign's page to add the character to it."));
    return;
  }
  if (S.editing && !imported) return saveEdit(sheet, out);
  const request = { sheet, imported };
  if (S.role === "gm" && $("owner").value) request.owner = $("owner").value;
  const r = await S.camp.add(request);
  if (!r.ok) {
    const d = describeError(r);
    const problems = r.body && Array.isArray(r.body.problems) ? problemList(r.body.problems) : null;
    replace(out, el("div", { class: "error", "data-kind": "error" }, [`Not added: ${d.message}`, d.rule ? [" Rule: ", d.rule] : null, problems]));
    return;
  }
  const c = r.body;
  replace(out, el("p", { class: "ok-note", "data-kind": "ok", "data-character": c.id }, [
    `${c.name} joined the campaign (owner: ${c.owner === "gm" ? "GM" : c.owner}, file ${c.file}). `,
    el("a", { href: `/c/${encodeURIComponent(S.campaign)}#${S.token}` }, "Back to the campaign"),
  ]));
}

/** (GM) Save the edited sheet back to its campaign character: the changes become an `edited` event of its history. */
async function saveEdit(sheet, out) {
  const r = await S.camp.edit(S.editing, sheet);
  if (!r.ok) {
    const d = describeError(r);
    const problems = r.body && Array.isArray(r.body.problems) ? problemList(r.body.problems) : null;
    replace(out, el("div", { class: "error", "data-kind": "error" }, [`Not saved: ${d.message}`, d.rule ? [" Rule: ", d.rule] : null, problems]));
    return;
  }
  const e = r.body;
  replace(out, el("div", { class: "ok-note", "data-kind": "ok" }, [
    el("p", {}, (e.changes || []).length ? `${e.character.name}: saved to the campaign.` : `${e.character.name}: nothing changed.`),
    (e.changes || []).length ? el("ul", { class: "changes" }, e.changes.map((c) => el("li", {}, c))) : null,
    // The GM's right, said: the book's rules this edit steps past (kept in the history too).
    (e.steps_past || []).length ? el("div", { class: "rule-notes steps-past", "data-kind": "steps-past" }, [el("em", {}, "This edit steps past:"), problemList(e.steps_past)]) : null,
    el("a", { href: `/c/${encodeURIComponent(S.campaign)}#${S.token}` }, "Back to the campaign"),
  ]));
}

// ------------------------------------------------------------------ import

/** Check a pasted or uploaded sheet with the book's validator and show its problems. */
async function checkImport() {
  const out = $("import-result");
  const sheet = $("import-text").value;
  if (!sheet.trim()) {
    replace(out, el("p", { class: "error" }, "Paste a sheet or choose its file first."));
    return;
  }
  const r = await builder.validate(S.system, sheet, S.settings);
  if (!r.ok) {
    replace(out, el("p", { class: "error", "data-kind": "error" }, `Not checked: ${describeError(r).message}`));
    return;
  }
  const v = r.body;
  if (!v.valid) {
    replace(out, el("div", { "data-kind": "invalid" }, [el("p", { class: "error" }, "This sheet is not a legal character:"), problemList(v.problems || [])]));
    return;
  }
  const added = el("div", { id: "import-added", role: "status" });
  replace(out, el("div", { "data-kind": "valid" }, [
    el("p", { class: "ok-note" }, `${v.name}: a legal ${bookTitle(S.system)} character.`),
    el("div", { class: "row wrap" }, [
      downloadLink(sheet, defaultFile(v.name), "Download", { id: "import-download" }),
      S.camp ? el("button", { type: "button", id: "import-add", onclick: () => addToCampaign(sheet, true, added) }, "Add to campaign") : null,
      el("button", { type: "button", id: "import-edit", onclick: () => editImported(sheet, added) }, "Edit in the builder"),
    ]),
    added,
  ]));
}

/** Load a legal imported sheet into the builder as its draft (steps, budgets and rules as for a new one). */
async function editImported(sheet, out) {
  const r = await builder.fromSheet(S.system, sheet, S.settings);
  if (!r.ok) {
    replace(out, el("p", { class: "error", "data-kind": "error" }, `Cannot edit it: ${describeError(r).message}`));
    return;
  }
  S.refusal = null;
  S.finished = null;
  $("finished").hidden = true;
  take(r.body);
  replace(out, el("p", { class: "ok-note", "data-kind": "editing" }, "The sheet is in the builder above: change it step by step, then Finish."));
  $("steps").scrollIntoView();
}

/** Read an uploaded sheet into the paste box. */
async function importFile() {
  const f = $("import-file").files[0];
  if (!f) return;
  try {
    $("import-text").value = await readText(f);
    checkImport();
  } catch (e) {
    replace($("import-result"), el("p", { class: "error" }, `Cannot read the file: ${e.message}`));
  }
}

// ------------------------------------------------------------------ wiring

/** Listen to the page's buttons. */
function wire() {
  $("steps").addEventListener("submit", (ev) => ev.preventDefault());
  $("finish").addEventListener("click", () => S.queue.then(finish));
  $("start-over").addEventListener("click", () => {
    if (window.confirm("Start over from an empty character?")) restart();
  });
  $("add-to-campaign").addEventListener("click", () => S.finished && addToCampaign(S.finished.sheet, false, $("added")));
  $("import-check").addEventListener("click", checkImport);
  $("import-file").addEventListener("change", importFile);
}

loadBooks().then(start);
