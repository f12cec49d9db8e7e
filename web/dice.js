// A table's dice settings (issue 30, item 3; issue 28, item 6): whose meaning
// free dice notation has (`dice_dialect`) and who may type dice and cards
// (`dice`). Chosen when the lobby creates a table or a campaign opens one
// (both forms draw them from here), and shown at the table.

import { el } from "./dom.js";

/** The dialects the server reads (`tabula_core::notation::Dialect`). */
export const DIALECTS = [
  { value: "d20", name: "d20 (Avrae)", hint: "4d6kh3, 2d6ro1, 1d20 + 5 >= 15", example: "2d6 + 1" },
  { value: "roll20", name: "Roll20", hint: "8d6!, 4d6k3, 10d10>7 counts 7 or more", example: "8d6!" },
  { value: "foundry", name: "Foundry VTT", hint: "1d6x, 4d6r1, {4d6+3, 2d8}kh", example: "1d6x" },
];

/** Who may type dice and cards (`tabula_engine::DiceSetting`). */
export const DICE = [
  { value: "players", name: "Players may type what their own dice showed" },
  { value: "table", name: "The table rolls and draws for everyone" },
];

/** The dialect `value` (`d20` when unknown). */
export function dialect(value) {
  return DIALECTS.find((d) => d.value === value) || DIALECTS[0];
}

/**
 * The two settings as form fields, ids `dice-dialect` and `dice` (one form
 * a page); each starts at "the table file's", which sends nothing, so an
 * uploaded file's own settings (or an earlier table's) stand.
 */
export function diceFields() {
  const select = (id, options, fileSays, help) => [
    el("select", { id, "aria-describedby": `${id}-help` }, [
      el("option", { value: "" }, fileSays),
      options.map((o) => el("option", { value: o.value }, o.hint ? `${o.name}: ${o.hint}` : o.name)),
    ]),
    el("p", { class: "help", id: `${id}-help` }, help),
  ];
  return el("fieldset", { class: "dice-settings" }, [
    el("legend", {}, "Dice"),
    el("div", { class: "field" }, [
      el("label", { for: "dice-dialect" }, "Dice notation for free rolls"),
      select(
        "dice-dialect",
        DIALECTS,
        "The table file's (d20 if none)",
        "Whose meaning “roll …” has at this table (the same text can mean another roll elsewhere). Fixed once the table opens.",
      ),
    ]),
    el("div", { class: "field" }, [
      el("label", { for: "dice" }, "Players' own dice"),
      select(
        "dice",
        DICE,
        "The table file's (players if none)",
        "Dice and cards typed at the real table. The GM may always type the GM's own.",
      ),
    ]),
  ]);
}

/** Add the settings chosen in `diceFields()` to `request`. */
export function chooseDice(request) {
  const d = document.getElementById("dice-dialect").value;
  if (d) request.dice_dialect = d;
  const who = document.getElementById("dice").value;
  if (who) request.dice = who;
  return request;
}
