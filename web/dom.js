// A tiny helper to build DOM nodes (text is always set as text, never as HTML).

/**
 * el("button", {type: "button", onclick: f, class: "x", "aria-label": "..."}, children)
 * Attributes starting with "on" and holding a function become listeners;
 * `true` sets a boolean attribute, `false`/null/undefined leave it out.
 * Children: strings (as text), nodes, arrays, null (skipped).
 */
export function el(tag, attrs = {}, children = []) {
  const svg = tag.startsWith("svg:");
  const node = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, String(v));
  }
  append(node, children);
  return node;
}

/** Append children (see `el`) to `node`. */
export function append(node, children) {
  if (children === null || children === undefined || children === false) return node;
  if (Array.isArray(children)) {
    for (const c of children) append(node, c);
  } else if (children instanceof Node) {
    node.appendChild(children);
  } else {
    node.appendChild(document.createTextNode(String(children)));
  }
  return node;
}

/** Replace every child of `node` with `children`. */
export function replace(node, children) {
  node.replaceChildren();
  return append(node, children);
}
