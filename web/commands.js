// One control per legal command, built from the command's parameter kinds
// (GET /legal: {name, summary, params: [{name, kind: {kind: "int", min, max} |
// {kind: "choice", options} | {kind: "number-or-name", min, max, names} |
// {kind: "choice-or-sheet", options} | {kind: "text"}}]}), and the command text the
// control sends: the same text a seat types at `play`. The server checks
// every command; the page only spells it.

import { el } from "./dom.js";

/** The choice that stands for "a character sheet file" in a choice-or-sheet field. */
const SHEET_FILE = "\u0001sheet-file";

/** The largest sheet file the page sends (the server's cap is 1 MiB per request). */
const MAX_SHEET_BYTES = 1 << 20;

/**
 * How a parameter is written, as the book declares it (`p.syntax`, the
 * engine's ParamSyntax: {style: "positional" | "keyword", word | "equals",
 * key | "flag" | "raw"}) and whether it may be left out (`p.optional`); the
 * page guesses nothing from names:
 * - `positional`: the value alone, in order;
 * - `keyword`: the word, then the value (`vs 5`; two in a row with the same
 *   word write it once: `success 3 1`);
 * - `equals`: `key=value` as one word;
 * - `flag`: the one option's word when chosen;
 * - `raw`: free text written as typed.
 */
export function paramStyle(p) {
  const syn = (p && p.syntax) || { style: "positional" };
  const optional = Boolean(p && p.optional);
  switch (syn.style) {
    case "keyword":
      return { style: "keyword", keyword: String(syn.word), optional };
    case "equals":
      return { style: "eq", keyword: `${syn.key}=`, optional };
    case "raw":
      return { style: "raw", keyword: null, optional };
    default:
      return { style: "positional", keyword: null, optional };
  }
}

/** Quote a value that holds spaces or quotes, as the one command grammar reads it (docs/COMMANDS.md; the engine's grammar::quote). */
function word(value, quoting) {
  const v = String(value).trim();
  if (quoting && (/[\s"\u201c\u201d]/.test(v) || v === "")) return `"${v.replace(/[\\"\u201c\u201d]/g, (c) => "\\" + c)}"`;
  return v;
}

/**
 * The command text for `spec` with `values` (one string per parameter, "" for
 * none), written as each parameter's declared syntax says: the same line as
 * the engine's CommandSpec::line (a browser test compares the two).
 * `quoting`: wrap multi-word values in double quotes (every book reads them
 * since the one command grammar).
 */
export function commandText(spec, values, quoting) {
  const parts = [spec.name];
  let lastKeyword = null;
  const given = (i) => (values[i] === undefined || values[i] === null ? "" : String(values[i]).trim());
  spec.params.forEach((p, i) => {
    let v = given(i);
    const st = paramStyle(p);
    // In a run of keyword values after one word (`success DICE TOKENS`), a
    // later value after an empty earlier one would be read in its place: the
    // earlier is written as its smallest number (as CommandSpec::line does).
    if (v === "" && st.style === "keyword" && p.kind && p.kind.kind === "int") {
      for (let j = i + 1; j < spec.params.length; j++) {
        const q = paramStyle(spec.params[j]);
        if (q.style !== "keyword" || q.keyword !== st.keyword) break;
        if (given(j) !== "") {
          v = String(p.kind.min);
          break;
        }
      }
    }
    if (v === "") {
      lastKeyword = null;
      return;
    }
    switch (st.style) {
      case "eq":
        parts.push(`${st.keyword}${word(v, quoting)}`);
        lastKeyword = null;
        break;
      case "keyword": {
        const already = v.toLowerCase().startsWith(st.keyword + " ");
        if (already) parts.push(v);
        else if (lastKeyword === st.keyword) parts.push(word(v, quoting));
        else parts.push(st.keyword, word(v, quoting));
        lastKeyword = st.keyword;
        break;
      }
      case "raw":
        parts.push(v);
        lastKeyword = null;
        break;
      default:
        parts.push(word(v, quoting));
        lastKeyword = null;
    }
  });
  return parts.join(" ");
}

/**
 * True when `value` fits a number-or-name parameter `kind`: empty (the server
 * says what is missing), a whole number in `min..max`, or one of the names in
 * any case, spaces or underscores for hyphens.
 */
export function numberOrName(value, kind) {
  const v = String(value).trim();
  if (v === "") return true;
  if (/^[0-9]+$/.test(v)) {
    const n = Number(v);
    return n >= kind.min && n <= kind.max;
  }
  const key = (s) => String(s).toLowerCase().replace(/[\s_]+/g, "-");
  return (kind.names || []).some((n) => key(n) === key(v));
}

let uid = 0;

/**
 * The control for one legal command: a button for a command without
 * parameters, else a form in a <details> with one labelled input per
 * parameter, a preview of the text it sends, and a submit button.
 * `onSend(text, name)` is called with the command text (and, from a form, the
 * command's name, so the caller may start that form afresh).
 */
export function commandControl(spec, { quoting, onSend }) {
  const id = `c${++uid}`;
  const slug = spec.name.replace(/[^A-Za-z0-9_-]+/g, "-");
  if (!spec.params.length) {
    const descId = `${id}-d`;
    return el("div", { class: "cmd cmd-simple", "data-command": spec.name }, [
      el(
        "button",
        {
          type: "button",
          class: "cmd-button",
          "data-command": spec.name,
          "aria-describedby": descId,
          onclick: () => onSend(spec.name),
        },
        spec.name,
      ),
      el("span", { class: "summary", id: descId }, spec.summary),
    ]);
  }
  const inputs = [];
  const fields = spec.params.map((p, i) => {
    const st = paramStyle(p);
    const inputId = `${id}-p${i}`;
    const k = p.kind || { kind: "text" };
    let input;
    let hint = "";
    if (k.kind === "int") {
      const zeroOk = k.min <= 0 && 0 <= k.max;
      input = el("input", {
        type: "number",
        id: inputId,
        min: String(k.min),
        max: String(k.max),
        step: "1",
        inputmode: "numeric",
        value: st.optional ? "" : String(zeroOk ? 0 : k.min),
      });
      if (!st.optional) input.required = true;
      hint = `${k.min} to ${k.max}`;
    } else if (k.kind === "number-or-name") {
      // A number or one of the names (a Goal: `7` or `very-easy`): a text
      // box that suggests the names and checks either (issue 27, bug 6).
      const names = k.names || [];
      const listId = `${inputId}-names`;
      input = el("input", { type: "text", id: inputId, list: listId, spellcheck: "false", autocapitalize: "off", autocomplete: "off", value: "" });
      if (!st.optional) input.required = true;
      const check = () => input.setCustomValidity(numberOrName(input.value, k) ? "" : `a number ${k.min} to ${k.max} or one of: ${names.join(", ")}`);
      input.addEventListener("input", check);
      check();
      hint = `${k.min} to ${k.max} or ${names.length > 3 ? names.slice(0, 3).join(", ") + ", ..." : names.join(", ")}`;
      inputs.push(input);
      input.dataset.param = p.name;
      const label = el("label", { for: inputId }, [p.name, el("span", { class: "muted" }, ` (${hint})`)]);
      return el("div", { class: "param" }, [label, input, el("datalist", { id: listId }, names.map((o) => el("option", { value: o })))]);
    } else if (k.kind === "choice-or-sheet") {
      // A name from the set, or a character sheet file the GM picks (the
      // GM's `add KIND|FILE.toml`, issue 27 item 6): the file goes in the
      // request's `sheets` under its name, and the line names it.
      const opts = (k.options || []).map((o) => el("option", { value: o }, o));
      opts.push(el("option", { value: SHEET_FILE }, "a character sheet file (.toml)…"));
      input = el("select", { id: inputId }, opts);
      input.required = true;
      const file = el("input", { type: "file", accept: ".toml", id: `${inputId}-file`, "data-sheet-file": p.name, hidden: true });
      const fileLabel = el("label", { for: `${inputId}-file`, hidden: true }, "sheet file");
      const check = () => {
        const picking = input.value === SHEET_FILE;
        file.hidden = !picking;
        fileLabel.hidden = !picking;
        const f = file.files && file.files[0];
        let problem = "";
        if (picking && !f) problem = "choose a character sheet file";
        else if (picking && !/\.toml$/i.test(f.name)) problem = "a character sheet file ends in .toml";
        else if (picking && f.size > MAX_SHEET_BYTES) problem = `a sheet file is at most ${MAX_SHEET_BYTES} bytes`;
        input.setCustomValidity(problem);
      };
      input.addEventListener("change", check);
      input.addEventListener("input", check);
      file.addEventListener("change", () => {
        check();
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
      check();
      input.sheetValue = () => (input.value === SHEET_FILE ? (file.files && file.files[0] ? file.files[0].name : "") : input.value);
      input.sheetFile = () => (input.value === SHEET_FILE && file.files && file.files[0]) || null;
      input.dataset.param = p.name;
      inputs.push(input);
      const label = el("label", { for: inputId }, [p.name, el("span", { class: "muted" }, " (or a sheet file)")]);
      return el("div", { class: "param" }, [label, input, fileLabel, file]);
    } else if (k.kind === "choice") {
      const opts = (k.options || []).map((o) => el("option", { value: o }, o));
      if (st.optional || !opts.length) opts.unshift(el("option", { value: "" }, st.optional ? "(none)" : "(nothing to choose)"));
      input = el("select", { id: inputId }, opts);
      if (!st.optional) input.required = true;
    } else {
      // Free text is never required here: the server says what is missing.
      input = el("input", { type: "text", id: inputId, spellcheck: "false", autocapitalize: "off" });
      hint = st.optional ? "optional" : "text";
    }
    input.dataset.param = p.name;
    inputs.push(input);
    const label = el("label", { for: inputId }, [
      p.name,
      hint ? el("span", { class: "muted" }, ` (${hint})`) : null,
      !hint && st.optional ? el("span", { class: "muted" }, " (optional)") : null,
    ]);
    return el("div", { class: "param" }, [label, input]);
  });
  const preview = el("output", { class: "preview", "aria-live": "off" });
  const text = () => commandText(spec, inputs.map((x) => (x.sheetValue ? x.sheetValue() : x.value)), quoting);
  const update = () => {
    preview.textContent = text();
  };
  const form = el(
    "form",
    {
      class: "cmd-form",
      "data-command": spec.name,
      novalidate: true,
      onsubmit: (ev) => {
        ev.preventDefault();
        const bad = inputs.find((x) => !x.checkValidity());
        if (bad) {
          bad.reportValidity();
          bad.focus();
          return;
        }
        const files = inputs.map((x) => x.sheetFile && x.sheetFile()).filter(Boolean);
        if (!files.length) {
          onSend(text(), spec.name);
          return;
        }
        // The picked sheets go with the line, by the names it uses.
        Promise.all(files.map((f) => f.text())).then((texts) => {
          const sheets = {};
          files.forEach((f, i) => {
            sheets[f.name] = texts[i];
          });
          onSend(text(), spec.name, sheets);
        });
      },
      oninput: update,
      onchange: update,
    },
    [
      el("div", { class: "params" }, fields),
      el("p", { class: "will-send" }, ["Sends: ", el("code", {}, preview)]),
      el("button", { type: "submit", "data-command": spec.name }, `Send ${spec.name}`),
    ],
  );
  update();
  return el("details", { class: `cmd cmd-${slug}`, "data-command": spec.name }, [
    el("summary", {}, [el("span", { class: "cmd-name" }, spec.name), " ", el("span", { class: "muted" }, spec.summary)]),
    form,
  ]);
}

/**
 * The odds the system offers before committing (GET /odds: [{choice,
 * probability in 0..1, detail}]) as a list: each choice with its chance as a
 * number and a small bar. Empty list: no node.
 */
export function oddsList(odds) {
  if (!Array.isArray(odds) || !odds.length) return null;
  return el("div", { class: "odds-box" }, [
    el("h3", {}, "Odds before I commit"),
    el(
      "ul",
      { class: "odds-list" },
      odds.map((o) => {
        const p = Math.min(1, Math.max(0, Number(o.probability) || 0));
        const pct = `${(p * 100).toFixed(1)}%`;
        return el("li", {}, [
          el("span", { class: "choice" }, String(o.choice)),
          el("meter", { min: "0", max: "1", value: String(p), "aria-label": `${o.choice}: ${pct}` }),
          el("strong", { class: "pct" }, pct),
          o.detail ? el("span", { class: "muted detail" }, String(o.detail)) : null,
        ]);
      }),
    ),
  ]);
}
