// Hints on the table page: ask the server for the turn a bot suggests for this browser's seat
// (GET /api/tables/{id}/hint, docs/server.md) and show it with its value and the best other
// turns. The table page wires it with one button:
//
//   import { hintButton } from "./hint.js";
//   actions.append(hintButton(tableId, () => page.me, panelParent));
//
// page.me is {seat, secret} (or null when this browser holds no seat: the button then says so).

import { el } from "./common.js";

export const LEVELS = ["easy", "medium", "hard"];

// The server's answer {type, version, seat, hint}; throws an Error with the server's reason.
export async function fetchHint(tableId, seat, secret, level = "medium") {
  const path = `/api/tables/${encodeURIComponent(tableId)}/hint?seat=${encodeURIComponent(seat)}`
    + `&level=${encodeURIComponent(level)}`;
  const r = await fetch(path, { headers: { "X-Seat-Secret": secret || "" } });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(typeof data.detail === "string" ? data.detail : r.statusText);
  return data;
}

const signed = (x, digits = 1) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(digits)}`;

function turnLine(turn) {
  return el("span", { class: "hint-moves" }, el("strong", {}, turn.moves.join(" ")));
}

// The panel for one answer of fetchHint.
export function hintPanel(frame) {
  const h = frame.hint;
  const best = h.best;
  const ahead = h.alternatives.length
    ? `${signed(h.margin)} against the next best`
    : "the only turn there is";
  const alts = h.alternatives.map((alt) => el("li", {},
    turnLine(alt), ` scores ${signed(alt.scored, 0)}, worth ${alt.value.toFixed(1)}`,
    el("div", { class: "small" }, alt.words)));
  return el("section", { class: "hint-panel", "data-version": String(frame.version) },
    el("h3", {}, `Hint (${h.bot})`),
    el("p", {}, turnLine(best)),
    el("p", {}, `scores ${signed(best.scored, 0)} now; worth ${best.value.toFixed(1)} by the `
      + `game's evaluation (${signed(best.rise)} on the position now), ${ahead}`),
    el("p", { class: "small" }, "What it does: ", best.words),
    alts.length ? el("p", {}, "Other turns:") : "",
    alts.length ? el("ol", { class: "hint-alternatives" }, alts) : "");
}

// A "Hint" button with a level chooser; the panel goes into `into`, replacing the last one.
export function hintButton(tableId, me, into) {
  const level = el("select", { class: "hint-level", title: "how strong a bot suggests the turn" },
    LEVELS.map((l) => el("option", l === "medium" ? { value: l, selected: true } : { value: l }, l)));
  const show = (node) => {
    into.querySelector(":scope > .hint-panel")?.remove();
    into.append(node);
  };
  const button = el("button", {
    id: "hint", type: "button", title: "the turn a bot would play, with its value",
    onclick: async () => {
      const seat = me();
      if (!seat) {
        show(el("section", { class: "hint-panel" }, "Hints are for the seat to move."));
        return;
      }
      button.disabled = true;
      try {
        show(hintPanel(await fetchHint(tableId, seat.seat, seat.secret, level.value)));
      } catch (err) {
        show(el("section", { class: "hint-panel error" }, `No hint: ${err.message}`));
      } finally {
        button.disabled = false;
      }
    },
  }, "Hint");
  return el("span", { class: "hint-tools" }, button, " ", level);
}
