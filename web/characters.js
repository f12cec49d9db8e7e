// What the character pages share (the builder /new/SYSTEM and the campaign
// page /c/ID): problems and refusals with their rules, a
// sheet to download, and files read with the engine's size cap.

import { el } from "./dom.js";
import { citeRule } from "./api.js";
export { bookTitle, loadBooks } from "./api.js";

/** The largest file read, in bytes (the engine's cap on a sheet or table file). */
export const MAX_FILE_BYTES = 1024 * 1024;

/** A rule as a `<cite>` (`Title, "Section"; ruling`), or null. */
export function ruleCite(rule) {
  return rule && typeof rule === "object" && rule.section !== undefined ? el("cite", { class: "rule" }, citeRule(rule)) : null;
}

/** A list of the builder's or the validator's problems, each with its rule. */
export function problemList(problems, attrs = {}) {
  return el(
    "ul",
    { class: "problems", ...attrs },
    problems.map((p) =>
      el("li", { class: p.unfinished ? "unfinished" : "broken", "data-field": p.field || "" }, [
        p.unfinished ? el("span", { class: "tag" }, "to do") : el("span", { class: "tag broken" }, "broken"),
        " ",
        p.message || p.text || "",
        p.rule ? [" ", el("span", { class: "rule-line" }, ["Rule: ", ruleCite(p.rule)])] : null,
      ]),
    ),
  );
}

/** A link that downloads `text` as `filename` (a blob URL, made from this page). */
export function downloadLink(text, filename, label, attrs = {}) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  return el("a", { href: url, download: filename, class: "button secondary", ...attrs }, label);
}

/** The text of an uploaded file, refusing one over the engine's cap. */
export async function readText(file) {
  if (file.size > MAX_FILE_BYTES) throw new Error(`${file.name} is larger than 1 MiB`);
  return file.text();
}

/** A character's file name as the server makes it by default (`Kodos the Great` -> `kodos-the-great.toml`). */
export function defaultFile(name) {
  const out = String(name || "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  return `${out || "character"}.toml`;
}
