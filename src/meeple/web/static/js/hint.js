// Hints on the table page: ask the server for the turn a bot suggests for this browser's seat
// (GET /api/tables/{id}/hint, src/meeple/server/table/README.md), show it in words with its value and
// the best other turns, light its next step on the drawing, and put the whole turn into the turn being
// built on "Play this". The table page wires it with one button and one pass after each drawing:
//
//   import { hintButton, lightHint } from "./hint.js";
//   box.append(hintButton(tableId, () => page.me, box, { shown, play }));
//   // shown(frame | null): a hint (the server's answer) is shown, or none is any more
//   // play(moves): "Play this": preview these moves as the turn being built (never confirms)
//   lightHint(hint, { buffer, complete, view }, { board, choices, panel });  // after a drawing
//
// page.me is {seat, secret} (or null when this browser holds no seat: the button then says so).

import { el, svg } from "./common.js";

export const LEVELS = ["easy", "medium", "hard", "expert"];

// the class of what the hint lights: an element of the drawing, a choice button, a fold
export const HINT_CLASS = "hint-lit";

// The server's answer {type, version, seat, hint}; throws an Error with the server's reason.
export async function fetchHint(tableId, seat, secret, level = "medium") {
  const path = `/api/tables/${encodeURIComponent(tableId)}/hint?seat=${encodeURIComponent(seat)}`
    + `&level=${encodeURIComponent(level)}`;
  const r = await fetch(path, { headers: { "X-Seat-Secret": secret || "" } });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(typeof data.detail === "string" ? data.detail : r.statusText);
  return data;
}

const cap = (t) => (t ? t[0].toUpperCase() + t.slice(1) : "");
const points = (n) => `${Math.abs(n)} point${Math.abs(n) === 1 ? "" : "s"}`;

// a turn's steps in words (the server's `steps`; the notation where it names none)
function stepWords(turn) {
  return turn.moves.map((m, i) => (turn.steps && turn.steps[i]) || m);
}

// the turn in notation, as "this turn: ..." writes it
function notation(turn) {
  return el("span", { class: "hint-moves" }, turn.moves.join(", "));
}

// what the turn brings, in words (the game's announcements and the score pad rows)
function brings(turn) { return cap(turn.words || ""); }

// a value of the bots' evaluation as points a player counts: whole points, "about"
// (the evaluation has fractions: credit for what is under way), "less than a point" near 0
function about(n) {
  const r = Math.round(Math.abs(n));
  return r ? `about ${points(r)}` : "less than a point";
}

// what it scores now and is worth, in plain words with the numbers
function worth(turn) {
  const now = turn.scored ? `${turn.scored > 0 ? "+" : "−"}${points(turn.scored)} on your pad now`
    : "no points on your pad yet";
  const rise = Math.round(turn.rise) === 0 ? "about as much as your position now"
    : `${about(turn.rise)} ${turn.rise >= 0 ? "more" : "less"} than your position now`;
  return `${cap(now)}; worth ${about(turn.value)} counting what it sets up (${rise})`;
}

// The panel for one answer of fetchHint; `play(moves)` (optional) is what "Play this" does.
export function hintPanel(frame, { play } = {}) {
  const h = frame.hint;
  const best = h.best;
  const ahead = !h.alternatives.length ? "the only turn there is"
    : h.margin >= 0 ? `${about(h.margin)} ahead of the next best turn`
      : `the best other turn below is worth ${about(h.margin)} more by this count`;
  const alts = h.alternatives.map((alt) => el("li", {},
    el("span", { class: "hint-say" }, `${cap(stepWords(alt).join(" → "))}.`),
    el("div", { class: "small" }, `${brings(alt)}. ${worth(alt)}.`),
    el("div", { class: "small muted" }, "In notation: ", notation(alt))));
  const button = play ? el("button", {
    id: "hint-play", type: "button", class: "primary hint-play",
    title: "put this whole turn into your turn; you still confirm it (or undo it)",
    onclick: () => play(best.moves.slice()),
  }, "Play this") : null;
  return el("section", {
    class: "hint-panel", "data-version": String(frame.version), "data-moves": JSON.stringify(best.moves),
    "aria-label": "hint",
  },
    el("h3", {}, `Hint (${h.bot})`),
    el("p", { class: "hint-say" }, el("strong", {}, `${cap(stepWords(best).join(" → "))}.`)),
    el("p", { class: "hint-brings" }, `What it brings: ${best.words}.`),
    el("p", { class: "hint-follow", "aria-live": "polite" }),
    button ? el("p", { class: "hint-actions" }, button, " ",
      el("span", { class: "small muted" },
        "puts the whole turn on your sheet; then Confirm turn, or Undo")) : "",
    el("p", { class: "small" }, `${worth(best)}, ${ahead}.`),
    el("p", { class: "small muted" }, "In notation: ", notation(best)),
    alts.length ? el("details", { class: "hint-others" },
      el("summary", {}, `Other turns: the ${alts.length} next best`),
      el("ol", { class: "hint-alternatives" }, alts)) : "");
}

// A "Hint" button with a level chooser; the panel goes into `into`, replacing the last one.
// hooks.shown(frame | null) is told of each hint shown (null: an error or no seat instead);
// hooks.play(moves) is "Play this" (no such button without it).
export function hintButton(tableId, me, into, hooks = {}) {
  const level = el("select", { class: "hint-level", title: "how strong a bot suggests the turn" },
    LEVELS.map((l) => el("option", l === "medium" ? { value: l, selected: true } : { value: l }, l)));
  const show = (node, frame = null) => {
    into.querySelector(":scope > .hint-panel")?.remove();
    into.append(node);
    if (hooks.shown) hooks.shown(frame);
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
        const frame = await fetchHint(tableId, seat.seat, seat.secret, level.value);
        show(hintPanel(frame, { play: hooks.play }), frame);
      } catch (err) {
        show(el("section", { class: "hint-panel error" }, `No hint: ${err.message}`));
      } finally {
        button.disabled = false;
      }
    },
  }, "Hint");
  return el("span", { class: "hint-tools" }, button, " ", level);
}

// ---------------------------------------------------------------- the hint on the drawing
// How the turn being built stands to the hinted one: "next" (it is a beginning of the hinted
// turn: `index` is the next hinted step), "made" (it is the whole hinted turn) or "differs"
// (from step `index` on).
export function follow(moves, buffer) {
  for (let i = 0; i < buffer.length; i++) {
    if (buffer[i] !== moves[i]) return { kind: "differs", index: i };
  }
  return buffer.length >= moves.length ? { kind: "made" } : { kind: "next", index: buffer.length };
}

const lighting = { hint: null, turn: null, roots: null, observer: null };

// Light the hint's next step: `hint` is {moves, steps} (null: no hint to light), `turn` the
// turn being built ({buffer, complete, view}: the moves so far, whether it is complete, the
// view shown), `roots` {board, choices, panel}. The step's element on the drawing gets a ring
// of its own (not the look of a lit choice) and a tooltip, its choice button the same class;
// a step that needs a place to leave from first (a Pergola flutter or drip) lights that place;
// a step with nothing on the drawing lights its button (and says so on a closed list). The
// panel says how the turn stands to the hint. Drawn again whenever the drawing is (a drawing
// module that redraws by itself, as Pergola does after a source is picked, included).
export function lightHint(hint, turn, roots) {
  Object.assign(lighting, { hint, turn, roots });
  if (!lighting.observer && typeof MutationObserver !== "undefined") {
    lighting.observer = new MutationObserver(() => relight());
  }
  relight();
}

function relight() {
  const { hint, turn, roots, observer } = lighting;
  if (!roots || !roots.board) return;
  if (observer) observer.disconnect();  // our own changes are not a new drawing
  try {
    unlight(roots);
    const at = hint ? follow(hint.moves, turn.buffer) : null;
    const where = at && at.kind === "next" ? lightStep(hint, at.index, turn, roots) : null;
    sayFollow(hint, at, where, turn, roots);
  } finally {
    if (observer) {
      observer.takeRecords();
      observer.observe(roots.board, { childList: true, subtree: true });
    }
  }
}

function unlight(roots) {
  for (const root of [roots.board, roots.choices]) {
    if (!root) continue;
    for (const n of root.querySelectorAll(".hint-ring, .hint-title, .hint-note")) n.remove();
    for (const n of root.querySelectorAll("title[data-hint-own]")) {
      n.textContent = n.dataset.hintOwn;
      delete n.dataset.hintOwn;
    }
    for (const n of root.querySelectorAll(`.${HINT_CLASS}`)) {
      n.classList.remove(HINT_CLASS);
      if (n.dataset.hintTitle !== undefined) {
        if (n.dataset.hintTitle) n.title = n.dataset.hintTitle; else n.removeAttribute("title");
        delete n.dataset.hintTitle;
      }
    }
  }
}

const withData = (root, key, value) => (root
  ? [...root.querySelectorAll(`[data-${key}]`)].filter((n) => n.dataset[key] === value) : []);

// light step `index` of the hint; returns where it is: "board", "source", "button" or "none"
function lightStep(hint, index, turn, roots) {
  const move = hint.moves[index];
  const words = (hint.steps && hint.steps[index]) || move;
  const tip = `the hint: ${words}`;
  let where = "board";
  let nodes = withData(roots.board, "move", move);
  if (!nodes.length) {
    // a step that leaves from somewhere: the place it leaves from, if that is what is lit
    const choices = ((turn.view && turn.view.board) || {}).choices || [];
    const c = choices.find((x) => x.move === move && x.source);
    if (c) {
      nodes = withData(roots.board, "source", c.source).filter((n) => !n.classList.contains("pg-selected"));
      where = "source";
    }
  }
  for (const n of nodes) {
    ring(n, where === "source" ? `${tip} (first click where it leaves from, then where it goes)` : tip);
  }
  const buttons = withData(roots.choices, "move", move).filter((b) => b.classList.contains("choice"));
  for (const b of buttons) {
    b.classList.add(HINT_CLASS);
    b.dataset.hintTitle = b.getAttribute("title") || "";
    b.title = tip;
  }
  if (nodes.length) return where;
  // nothing on the drawing: the button is the way, and a closed list says it holds the step
  for (const b of buttons) {
    const fold = b.closest("details.choice-fold");
    const summary = fold && fold.querySelector(":scope > summary");
    if (summary && !fold.open) {
      summary.classList.add(HINT_CLASS);
      summary.append(el("span", { class: "hint-note" }, ` (the hint's next step is in it: ${words})`));
    }
  }
  return buttons.length ? "button" : "none";
}

// the hint's ring around an element of the drawing, over everything else of its picture, and
// its tooltip (a first <title> is the one shown)
function ring(node, tip) {
  node.classList.add(HINT_CLASS);
  // the tooltip: the element's own <title> says the hint first, or one is added (at the end,
  // so that styles of its first child still hold)
  const own = [...node.children].find((c) => c.tagName === "title");
  if (own) {
    own.dataset.hintOwn = own.textContent;
    own.textContent = `${tip} (${own.textContent})`;
  } else {
    node.append(svg("title", { class: "hint-title" }, tip));
  }
  const root = node.ownerSVGElement;
  if (!root || typeof node.getBBox !== "function") return;
  try {
    drawRing(node, root);
  } catch {
    // a picture not laid out (hidden): the element keeps the class, without a ring
  }
}

const SHAPES = new Set(["rect", "circle", "ellipse", "polygon", "path"]);
// attributes of the element's shape that the ring does not take over
const NOT_COPIED = ["id", "class", "style", "fill", "stroke", "stroke-width", "stroke-dasharray",
  "opacity", "fill-opacity", "stroke-opacity", "transform", "role", "tabindex"];

// The ring follows the element's own outline where it has one (its hit shape: a field's
// hexagon, a space's circle, a tool's box), just outside it; else a box around it.
function drawRing(node, root) {
  const rootCtm = root.getScreenCTM();
  if (!rootCtm) return;
  const hit = node.matches(".hit, .rf-hit") ? node : node.querySelector(".hit, .rf-hit");
  const shape = hit && SHAPES.has(hit.tagName) ? hit : null;
  const target = shape || node;
  const box = target.getBBox();
  const ctm = target.getScreenCTM();
  if (!ctm || !(box.width || box.height)) return;
  const m = rootCtm.inverse().multiply(ctm);
  const local = Math.hypot(ctm.a, ctm.b) || 1;  // screen pixels per unit of the element
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  const grow = 1 + 5 / Math.max(8, Math.min(box.width, box.height) * local);  // ~2 px out
  const place = `matrix(${m.a} ${m.b} ${m.c} ${m.d} ${m.e} ${m.f}) translate(${cx} ${cy}) ` +
    `scale(${grow}) translate(${-cx} ${-cy})`;
  const outline = (cls) => {
    const c = shape ? shape.cloneNode(false) : svg("rect", { x: box.x, y: box.y, width: box.width,
      height: box.height, rx: 6 / local, ry: 6 / local });
    for (const a of NOT_COPIED) c.removeAttribute(a);
    c.setAttribute("class", cls);
    c.setAttribute("transform", place);
    return c;
  };
  const g = svg("g", { class: "hint-ring", "pointer-events": "none", "aria-hidden": "true" },
    outline("hint-ring-halo"), outline("hint-ring-line"));
  // a tag "★ hint" on the ring's top line, for an element wide enough to carry it beside its
  // own words (not a field of Gardens, where it would hide the ids around)
  if (box.width * local * grow >= 70) {
    const scale = Math.hypot(rootCtm.a, rootCtm.b) || 1;  // screen pixels per unit of the picture
    const px = (n) => n / scale;
    const at = (x, y) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
    const half = [box.width * grow / 2, box.height * grow / 2];
    const corners = [[-1, -1], [1, -1], [-1, 1], [1, 1]]
      .map(([sx, sy]) => at(cx + sx * half[0], cy + sy * half[1]));
    const x0 = Math.min(...corners.map((c) => c[0]));
    const y0 = Math.min(...corners.map((c) => c[1]));
    const tagW = px(44), tagH = px(15);
    const vb = root.viewBox && root.viewBox.baseVal;
    const top = vb && vb.height ? vb.y : 0;
    const tagY = Math.max(top, y0 - tagH / 2);
    g.append(svg("rect", { class: "hint-ring-tagbox", x: x0 + px(6), y: tagY, width: tagW, height: tagH,
      rx: tagH / 2, ry: tagH / 2 }),
    svg("text", { class: "hint-ring-tag", x: x0 + px(6) + tagW / 2, y: tagY + tagH / 2,
      "font-size": px(10.5), "text-anchor": "middle", "dominant-baseline": "central" }, "★ hint"));
  }
  root.append(g);
}

// the panel's line on how the turn being built stands to the hint, and its Play this button
function sayFollow(hint, at, where, turn, roots) {
  const panel = roots.panel && roots.panel.querySelector(".hint-panel[data-version]");
  if (!panel) return;
  const line = panel.querySelector(".hint-follow");
  const play = panel.querySelector(".hint-play");
  panel.dataset.follow = at ? at.kind : "none";
  if (play) play.disabled = !at || (at.kind === "made" && turn.complete);
  if (!line) return;
  if (!at) { line.textContent = ""; return; }
  const n = hint.moves.length;
  const words = (i) => (hint.steps && hint.steps[i]) || hint.moves[i];
  if (at.kind === "next") {
    const how = {
      board: "It is ringed on the drawing: click it.",
      source: "It leaves from the ringed place: click that first, then where it goes.",
      button: "It is the ringed button among your choices.",
      none: "Type it in the box, or use Play this.",
    }[where];
    line.textContent = `Next step (${at.index + 1} of ${n}): ${cap(words(at.index))}. ${how}`;
  } else if (at.kind === "made") {
    line.textContent = turn.complete
      ? "Your turn is the hinted turn: Confirm turn plays it, Undo takes it back."
      : "Your turn has every step of the hint; the rest is yours to choose.";
  } else {
    line.textContent = `Your turn differs from the hint from step ${at.index + 1} on (you chose ` +
      `${turn.buffer[at.index]}, the hint ${words(at.index)}): it is no longer lit. Play this puts ` +
      "the hinted turn in its place.";
  }
}
