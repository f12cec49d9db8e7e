// A seat's link: copyable, openable, and as a QR code for a phone at the table.

import { el } from "./dom.js";
import { lobby } from "./api.js";

/** The seat link on this server: `ORIGIN/t/ID#TOKEN` (the token stays in the fragment). */
export function seatLink(table, token) {
  return `${location.origin}/t/${encodeURIComponent(table)}#${token}`;
}

/** A campaign seat's link on this server: `ORIGIN/c/ID#TOKEN` (the token stays in the fragment). */
export function campaignLink(campaign, token) {
  return `${location.origin}/c/${encodeURIComponent(campaign)}#${token}`;
}

async function copy(text, input, note) {
  let done = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      done = true;
    }
  } catch {
    done = false;
  }
  if (!done) {
    input.focus();
    input.select();
    try {
      done = document.execCommand("copy");
    } catch {
      done = false;
    }
  }
  note.textContent = done ? "Copied." : "Selected: copy it with Ctrl+C (⌘C).";
}

/** Draw the QR code of `link` into `box` (SVG from POST /qr: the token never goes in a URL). */
export async function drawQr(box, link, label) {
  const r = await lobby.qr(link);
  if (!r.ok || typeof r.body !== "string") {
    box.textContent = "(no QR code)";
    return;
  }
  const doc = new DOMParser().parseFromString(r.body, "image/svg+xml");
  const svg = doc.documentElement;
  if (!svg || svg.nodeName.toLowerCase() !== "svg") {
    box.textContent = "(no QR code)";
    return;
  }
  const node = document.importNode(svg, true);
  node.removeAttribute("width");
  node.removeAttribute("height");
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", label);
  node.setAttribute("class", "qr-svg");
  box.replaceChildren(node);
}

/** One seat's row: name and role, the link (copy, open), the QR code. */
export function seatCard({ seat, role, link }) {
  const id = `link-${String(seat).replace(/[^A-Za-z0-9_-]+/g, "-")}-${Math.random().toString(36).slice(2, 8)}`;
  const input = el("input", { type: "text", id, class: "link", readonly: true, value: link, spellcheck: "false" });
  const note = el("span", { class: "copy-note", role: "status" });
  const qr = el("div", { class: "qr" }, "drawing the QR code…");
  const who = role === "gm" || String(seat).toLowerCase() === "gm" ? "GM" : seat;
  const card = el("li", { class: "seat-card", "data-seat": seat }, [
    el("h3", {}, [who, " ", el("span", { class: "role" }, role === "gm" ? "game master" : "player")]),
    el("label", { for: id }, `${who}'s link (secret: only for ${who})`),
    el("div", { class: "row" }, [
      input,
      el("button", { type: "button", class: "secondary", onclick: () => copy(link, input, note), "aria-label": `Copy ${who}'s link` }, "Copy"),
      el("a", { href: link, class: "button secondary", target: "_blank", rel: "noopener noreferrer", "aria-label": `Open ${who}'s seat` }, "Open"),
    ]),
    note,
    qr,
  ]);
  drawQr(qr, link, `QR code of ${who}'s link`);
  return card;
}
