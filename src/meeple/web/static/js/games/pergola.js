// Pergola's table drawn as SVG from the layout (what never changes: the action board, the
// tools, the pond, the cascade, one garden's elements, the score pad) and the board (what
// changes), both documented in docs/views/pergola.md. Nothing is hard-coded per printed board:
// a user's own data bundle draws the same way.
//
// The drawing is made of sections (the action board, the leaf piles, the pond, the supply, and
// per garden its hollyhocks, magnolia, lavender, cascade, pergola...) that flow into rows as
// wide as the page, so the text stays at its size on a phone and on a wide screen.
//
// Choices: the element whose id is a choice's target is lit and clickable. Flutters and drips
// also name a source (where the insect or the drop leaves from): when several sources are
// possible, the sources are lit first; clicking one lights the targets reachable from it
// (click it again to pick another source).
import { clickable, svg, el } from "../common.js";

const INK = "#1d1d1f";
const MUTED = "#5f6368";
const LINE = "#b9bec6";
const PAPER = "#fffdf6";
const FONT = 13;

// the pieces: a fill and the letters written on them (always: they tell the pieces apart)
const INSECT = {
  butterfly: { fill: "#f6a04d", ink: INK, code: "Bf", word: "butterfly" },
  ladybug: { fill: "#d63a3a", ink: "#fff", code: "Lb", word: "ladybug" },
  bee: { fill: "#f2cc2f", ink: INK, code: "Be", word: "bee" },
};
const DRAGONFLY = { small: "S", medium: "M", large: "L" };
const DRAGON_FILL = "#57b8b0";
const MAGNOLIA_FILL = "#f3b6cf";
const BUTTERCUP_FILL = "#ffe25a";
const LAVENDER_FILL = "#9b7fd1";
const LEAF_GREEN = "#7fb069";
const WATER = "#4a90d9";
const LILY_FILL = "#cfe8c4";
const DRAGON_LILY_FILL = "#c7e6ef";
const SEAT_FILLS = ["#2e7d32", "#6a1b9a", "#ef6c00", "#00838f"];

// module state: the source picked for a flutter or a drip, kept while the choices stay the same
const picked = { key: "", source: null };
let resizeWatch = null;
// seat -> whether its garden's <details> is open, as the player left it (kept across redraws)
const openGardens = new Map();
// below this drawing width (a phone) the other gardens start folded
const NARROW = 560;

// ---------------------------------------------------------------- helpers
const fmt = (n) => String(Math.round(n * 10) / 10);

// attrs.fit: the widest the text may be; a text likely wider (by an estimate of its glyphs) is
// drawn condensed to that width, so it never runs into what stands beside it
function text(x, y, s, attrs = {}) {
  const { size = FONT, weight, anchor = "start", fill = INK, cls, fit } = attrs;
  const long = fit && String(s).length * size * (weight ? 0.64 : 0.6) > fit;
  return svg("text", {
    x: fmt(x), y: fmt(y), "font-size": size, "font-weight": weight, "text-anchor": anchor,
    fill, class: cls ? `pg-t ${cls}` : "pg-t",
    textLength: long ? fmt(fit) : null, lengthAdjust: long ? "spacingAndGlyphs" : null,
  }, s);
}

function title(s) { return svg("title", {}, s); }

// wrap words into lines of at most n characters
function wrap(s, n) {
  const out = [];
  let line = "";
  for (const w of String(s).split(/\s+/)) {
    if (line && (line + " " + w).length > n) { out.push(line); line = w; } else line = line ? line + " " + w
      : w;
  }
  if (line) out.push(line);
  return out;
}

function lines(x, y, s, n, attrs = {}) {
  const size = attrs.size || FONT;
  const g = svg("g", { class: "pg-deco" });
  wrap(s, n).forEach((ln, i) => g.append(text(x, y + i * (size + 3), ln, attrs)));
  return g;
}

// an insect token: a disc with its letters
function insectToken(kind, x, y, r = 9, extra = {}) {
  const k = INSECT[kind];
  if (!k) return null;
  return svg("g", { class: "pg-deco pg-insect", ...extra },
    svg("circle", { cx: fmt(x), cy: fmt(y), r, fill: k.fill, stroke: INK, "stroke-width": 1 }),
    text(x, y + r * 0.42, k.code, { size: Math.max(8, r * 1.05), anchor: "middle", fill: k.ink,
      weight: 700 }));
}

function dragonflyToken(size, x, y, r = 9) {
  return svg("g", { class: "pg-deco pg-dragonfly" },
    svg("rect", { x: fmt(x - r), y: fmt(y - r * 0.8), width: fmt(2 * r), height: fmt(1.6 * r), rx: r * 0.6,
      fill: DRAGON_FILL, stroke: INK, "stroke-width": 1 }),
    text(x, y + r * 0.42, `D${DRAGONFLY[size] || "?"}`, { size: Math.max(8, r), anchor: "middle",
      weight: 700 }));
}

// a colour swatch with its initial in colour-blind mode (and always a title naming it)
function swatch(x, y, w, h, rgb, name, ctx, attrs = {}) {
  const g = svg("g", { class: "pg-deco" },
    svg("rect", { x: fmt(x), y: fmt(y), width: fmt(w), height: fmt(h), rx: 3, fill: rgb || "#ccc",
      stroke: INK, "stroke-width": 0.8, ...attrs }),
    title(name));
  if (ctx.cb) g.append(text(x + w / 2, y + h / 2 + 4, cbLetter(name), { size: 11, anchor: "middle",
    weight: 700, fill: "#fff", cls: "pg-cb" }));
  return g;
}

function cbLetter(name) {
  const n = String(name).toLowerCase();
  if (n.startsWith("brown")) return "Br";
  return n.slice(0, 1).toUpperCase();
}

// outline a stroke-visible hit shape for a clickable element
function hitRect(x, y, w, h, attrs = {}) {
  return svg("rect", { class: "hit", x: fmt(x), y: fmt(y), width: fmt(w), height: fmt(h), rx: 5,
    fill: attrs.fill || "transparent", stroke: attrs.stroke || "none", "stroke-width": attrs.sw || 1 });
}

// the element's id on the main garden (and the shared boards); a data attribute elsewhere
function ident(id, main) { return main ? { id, "data-el": id } : { "data-el": id }; }
// A layout element not drawn now (a level above those shown, a flower not placed): an empty group,
// kept so that its element id is still found.
function unreached(id, main) { return svg("g", { ...ident(id, main), class: "pg-unreached" }); }

// ---------------------------------------------------------------- choices
// What can be clicked now: id -> {move, label} for a choice, id -> {source} for a source.
function clickables(ctx) {
  const choices = ((ctx.board && ctx.board.choices) || []).filter((c) => ctx.lit.has(c.move) && c.target);
  const key = choices.map((c) => c.move).sort().join("|");
  if (key !== picked.key) { picked.key = key; picked.source = null; }
  const out = new Map();
  const direct = choices.filter((c) => !c.source);
  const sourced = choices.filter((c) => c.source);
  const sources = [...new Set(sourced.map((c) => c.source))];
  if (picked.source && !sources.includes(picked.source)) picked.source = null;
  const add = (list) => {
    const count = new Map();
    for (const c of list) count.set(c.target, (count.get(c.target) || 0) + 1);
    for (const c of list) if (count.get(c.target) === 1 && !out.has(c.target)) out.set(c.target,
      { move: c.move, label: c.label || c.move });
  };
  if (picked.source) {
    out.set(picked.source, { source: picked.source, selected: true, label: "pick another starting place" });
    add(sourced.filter((c) => c.source === picked.source));
  } else if (sources.length === 1) {
    add(sourced);
  } else {
    for (const s of sources) out.set(s, { source: s, label: `move from ${s.replace(/^[a-z-]+:/, "")}` });
  }
  add(direct);
  return out;
}

function wire(node, id, st) {
  const c = st.clicks.get(id);
  if (!c || !st.main) return node;
  if (c.move !== undefined) {
    return clickable(node, () => st.ctx.choose(c.move), { label: c.label, data: { move: c.move } });
  }
  // a source: a click picks it (or, picked already, unpicks it) and draws the targets from it
  clickable(node, () => { picked.source = c.selected ? null : c.source; draw(st.container, st.ctx); },
    { label: c.label, data: { source: c.source } });
  node.classList.add("pg-source");
  if (c.selected) node.classList.add("pg-selected");
  return node;
}

// ---------------------------------------------------------------- flow layout
// a section: a framed group of its own size; flow() puts them in rows of width W
function section(name, w, h, body, attrs = {}) {
  const g = svg("g", { class: "pg-section", ...attrs });
  g.append(svg("rect", { x: 0, y: 0, width: fmt(w), height: fmt(h), rx: 8, fill: PAPER, stroke: LINE }),
    text(10, 18, name, { size: Math.max(10, Math.min(14, (w - 20) / (name.length * 0.58))), weight: 700 }));
  g.append(...[body].flat().filter(Boolean));
  return { g, w, h };
}

function flow(parts, W, gap = 10) {
  const root = svg("g", {});
  let x = 0, y = 0, rowH = 0;
  for (const p of parts.filter(Boolean)) {
    // a section wider than the page is shrunk to fit (the narrow layouts avoid most of these)
    const k = p.w > W ? W / p.w : 1;
    const pw = p.w * k, ph = p.h * k;
    if (x > 0 && x + pw > W) { x = 0; y += rowH + gap; rowH = 0; }
    p.g.setAttribute("transform", `translate(${fmt(x)},${fmt(y)})${k < 1 ? ` scale(${k.toFixed(4)})` : ""}`);
    root.append(p.g);
    x += pw + gap;
    rowH = Math.max(rowH, ph);
  }
  return { g: root, w: W, h: y + rowH };
}

function svgRoot(f, label, cls) {
  return svg("svg", { class: `pg-svg ${cls}`, viewBox: `-2 -2 ${fmt(f.w + 4)} ${fmt(f.h + 4)}`,
    width: "100%", role: "img", "aria-label": label, style: `max-width:${fmt(f.w + 4)}px` }, f.g);
}

// ---------------------------------------------------------------- the shared boards
function toolCard(tool, x, y, w, st, opts = {}) {
  const h = 58;
  const g = svg("g", ident(tool.id, opts.main !== false),
    title(`tool ${tool.tool} (${tool.type}): ${tool.labels.join(", ")}`));
  g.append(hitRect(x, y, w, h, { fill: opts.current ? "#fff3c4" : "#f4efe3", stroke: INK }));
  g.append(text(x + 6, y + 15, `${tool.tool}`, { size: 12, weight: 700 }),
    text(x + w - 6, y + 15, tool.type, { size: 11, anchor: "end", fill: MUTED }));
  tool.components.forEach((comp, i) => {
    const cy = y + 30 + i * 15;
    g.append(componentIcon(comp, x + 12, cy - 4), text(x + 24, cy, tool.labels[i] || comp, { size: 11.5 }));
  });
  return wire(g, tool.id, st);
}

function componentIcon(comp, x, y) {
  if (INSECT[comp]) return insectToken(comp, x, y, 6);
  const [kind, sub] = comp.split("-");
  const colours = { blue: "#1f6fd1", yellow: "#d4a900", red: "#d12a2a" };
  if (kind === "hollyhock") return swatch(x - 5, y - 5, 10, 10, colours[sub], sub, { cb: false });
  const fills = { magnolia: MAGNOLIA_FILL, buttercup: BUTTERCUP_FILL, lavender: LAVENDER_FILL,
    lantern: "#ffb74d", dragonfly: DRAGON_FILL };
  return svg("circle", { class: "pg-deco", cx: x, cy: y, r: 5, fill: fills[kind] || "#ccc", stroke: INK,
    "stroke-width": 0.8 });
}

function actionBoard(st) {
  const { layout, board } = st;
  const tools = new Map(layout.tools.map((t) => [t.id, t]));
  const above = new Map((board.action_board || []).map((a) => [a.space, a.tool]));
  const colW = 176, top = 28;
  const spaces = [...layout.action_board].sort((a, b) => a.x - b.x);
  const nLines = Math.max(...spaces.map((sp) => wrap(sp.text, 31).length));
  const boxH = 26 + nLines * 13.5;
  // on a narrow page the spaces go two by two (still read left to right, top to bottom)
  const per = st.W >= spaces.length * (colW + 8) + 12 ? spaces.length : 2;
  const rowH = 58 + 8 + boxH + 10;
  const w = per * (colW + 8) + 12, h = top + Math.ceil(spaces.length / per) * rowH;
  const body = [];
  for (const sp of spaces) {
    const x = 10 + (sp.x % per) * (colW + 8);
    const top = 28 + Math.floor(sp.x / per) * rowH;
    const tid = above.get(sp.id);
    if (tid && tools.get(tid)) body.push(toolCard(tools.get(tid), x, top, colW, st));
    else body.push(svg("g", { class: "pg-deco" }, svg("rect", { x, y: top, width: colW, height: 58, rx: 5,
      fill: "none", stroke: LINE, "stroke-dasharray": "4 3" }),
      text(x + colW / 2, top + 33, "no tool", { size: 11, anchor: "middle", fill: MUTED })));
    const y = top + 66;
    const g = svg("g", ident(sp.id, true), title(`${sp.number}. ${sp.label}: ${sp.text}`),
      hitRect(x, y, colW, boxH, { fill: "#e6eef7", stroke: "#7a8ca3" }),
      text(x + 8, y + 17, `${sp.number} · ${sp.label}`, { size: 13, weight: 700 }),
      lines(x + 8, y + 32, sp.text, 31, { size: 10.5, fill: "#333" }));
    body.push(wire(g, sp.id, st));
  }
  return section("Action board (tools enter on the right, leave on the left)", w, h, body);
}

function holderSection(st) {
  const { layout, board } = st;
  const tools = new Map(layout.tools.map((t) => [t.id, t]));
  const w = 200, h = 186;
  const body = [text(10, 40, "tools left in the holder:", { size: 12, fill: MUTED })];
  (board.holder || []).forEach((s, i) => body.push(text(18, 58 + i * 17, `${s.type}: ${s.left}`,
    { size: 13 })));
  const cy = 58 + Math.max(1, (board.holder || []).length) * 17 + 8;
  body.push(text(10, cy, "tool in play:", { size: 12, fill: MUTED }));
  const cur = board.current_tool && tools.get(board.current_tool);
  if (cur) body.push(toolCard(cur, 10, cy + 6, 180, st, { current: true,
    main: !(board.action_board || []).some((a) => a.tool === cur.id) }));
  else body.push(text(18, cy + 20, "none", { size: 13 }));
  return section("Holder", w, cur ? Math.max(h, cy + 74) : cy + 32, body);
}

function pilesSection(st) {
  const { layout, board } = st;
  const piles = new Map((board.piles || []).map((p) => [p.pile, p]));
  const cw = 92, w = layout.leaves.piles.length * (cw + 8) + 12, h = 156;
  const body = [];
  layout.leaves.piles.forEach((p, i) => {
    const x = 10 + i * (cw + 8), y = 28;
    const pile = piles.get(p.id) || { top: null, size: 0 };
    const g = svg("g", ident(p.id, true), title(`${p.label}: ${pile.size} leaves`),
      hitRect(x, y, cw, 118, { fill: "#f4efe3", stroke: INK }));
    if (pile.top) {
      // the leaf's name on top, the leaf under it (its tip clear of the name), its insect and
      // flutter, then the pile's count: each on a line of its own
      const t = pile.top;
      g.append(text(x + cw / 2, y + 14, `${t.leaf} ${t.colour}`, { size: 11, anchor: "middle",
        cls: "pg-leaf-label", fit: cw - 8 }),
      leafShape(x + cw / 2, y + 43, 26, t.rgb, t.colour, st.ctx),
      insectToken(t.insect, x + cw / 2, y + 76, 9));
      if (t.flutter) g.append(text(x + cw / 2, y + 99, "+1 flutter", { size: 10.5, anchor: "middle",
        weight: 700 }));
    } else {
      g.append(text(x + cw / 2, y + 50, pile.size ? "to reveal" : "empty", { size: 12, anchor: "middle",
        fill: MUTED }));
    }
    g.append(text(x + cw / 2, y + 113, `${pile.size} in pile`, { size: 11, anchor: "middle", fill: MUTED }));
    body.push(wire(g, p.id, st));
  });
  return section("Leaf piles (top leaf)", w, h, body);
}

function leafShape(cx, cy, r, rgb, name, ctx) {
  const d = `M${fmt(cx)},${fmt(cy - r * 0.75)} Q${fmt(cx + r * 0.85)},${fmt(cy - r * 0.3)}` +
    ` ${fmt(cx)},${fmt(cy + r * 0.75)} Q${fmt(cx - r * 0.85)},${fmt(cy - r * 0.3)}` +
      ` ${fmt(cx)},${fmt(cy - r * 0.75)}Z`;
  const g = svg("g", { class: "pg-deco pg-leaf" }, svg("path", { d, fill: rgb || LEAF_GREEN, stroke: INK,
    "stroke-width": 1 }), title(`${name} leaf`));
  if (ctx.cb) g.append(text(cx, cy + 4, cbLetter(name), { size: Math.max(9, r * 0.45), anchor: "middle",
    weight: 700, fill: "#fff", cls: "pg-cb" }));
  return g;
}

function pondSection(st) {
  const { layout, board } = st;
  const lilies = layout.pond.lilies;
  const SX = 62, SY = 64, R = 25, ox = 36, oy = 58;
  const maxX = Math.max(...lilies.map((l) => l.x)), maxY = Math.max(...lilies.map((l) => l.y));
  const w = ox * 2 + maxX * SX, h = oy + maxY * SY + 44;
  const pos = new Map(lilies.map((l) => [l.id, [ox + l.x * SX, oy + l.y * SY]]));
  const body = [svg("rect", { class: "pg-deco", x: 6, y: 26, width: fmt(w - 12), height: fmt(h - 32), rx: 30,
    fill: "#e3f1fb" })];
  const drawn = new Set();
  for (const l of lilies) for (const a of l.adjacent) {
    const k = [l.id, a].sort().join("~");
    if (drawn.has(k) || !pos.has(a)) continue;
    drawn.add(k);
    const [x1, y1] = pos.get(l.id), [x2, y2] = pos.get(a);
    body.push(svg("line", { class: "pg-deco", x1: fmt(x1), y1: fmt(y1), x2: fmt(x2), y2: fmt(y2),
      stroke: "#8fb8d8", "stroke-width": 2 }));
  }
  const stacks = board.stacks || [];
  const frogs = new Map();
  for (const g of board.gardens || []) if (g.frog) frogs.set(g.frog, [...(frogs.get(g.frog) || []), g]);
  for (const l of lilies) {
    const [x, y] = pos.get(l.id);
    const g = svg("g", ident(l.id, true),
      title(`lily ${l.lily}: ${l.insect ? "gives a " + l.insect : "dragonflies for " + l.requirement};` +
        ` next to ${l.adjacent.map((a) => a.split(":")[1]).join(", ")}`),
      svg("circle", { class: "hit", cx: fmt(x), cy: fmt(y), r: R,
        fill: l.dragonfly ? DRAGON_LILY_FILL : LILY_FILL, stroke: "#4f7f3f", "stroke-width": 1.5 }),
      text(x - R + 3, y - R + 9, l.lily, { size: 11, weight: 700, cls: "pg-deco" }));
    if (l.insect) g.append(insectToken(l.insect, x, y + 2, 10));
    else {
      const stack = (l.stack !== null && stacks[l.stack]) ? stacks[l.stack].dragonflies : [];
      g.append(text(x, y - 6, l.dragonfly, { size: 9.5, anchor: "middle", fill: "#234", cls: "pg-deco" }));
      if (stack.length) {
        const top = stack[stack.length - 1];
        g.append(dragonflyToken(top, x, y + 8, 8),
          text(x + 13, y + 12, stack.length > 1 ? `+${stack.length - 1}` : "", { size: 10, cls: "pg-deco" }));
      } else g.append(text(x, y + 12, "none left", { size: 9, anchor: "middle", fill: MUTED,
        cls: "pg-deco" }));
    }
    body.push(wire(g, l.id, st));
    (frogs.get(l.id) || []).forEach((gd, i) => body.push(frogToken(x + R - 4 - i * 12, y + R - 6, gd,
      st.board)));
  }
  return section("Pond (a frog jumps along the lines)", w, h, body);
}

function frogToken(x, y, garden, board) {
  const name = garden.name || `seat ${garden.seat + 1}`;
  return svg("g", { class: "pg-deco pg-frog" }, title(`${name}'s frog`),
    svg("circle", { cx: fmt(x), cy: fmt(y), r: 8, fill: SEAT_FILLS[garden.seat % 4], stroke: "#fff",
      "stroke-width": 1.5 }),
    text(x, y + 3.5, initial(name, garden.seat, board), { size: 9.5, anchor: "middle", fill: "#fff",
      weight: 700 }));
}

function initial(name, seat, board) {
  const names = (board.gardens || []).map((g) => g.name);
  const first = String(name).slice(0, 1).toUpperCase() || "?";
  return names.filter((n) => String(n).slice(0,
    1).toUpperCase() === first).length > 1 ? `${first}${seat + 1}` : first;
}

function supplySection(st) {
  const { layout, board } = st;
  const cols = st.W < 560 ? 2 : 3, cw = st.W < 560 ? 168 : 178, rh = 22;
  const items = layout.supply;
  const rows = Math.ceil(items.length / cols);
  const w = cols * cw + 16, h = 30 + rows * rh + 8;
  const body = [];
  items.forEach((it, i) => {
    const x = 8 + (i % cols) * cw, y = 28 + Math.floor(i / cols) * rh;
    const left = (board.supply || {})[it.item];
    const g = svg("g", ident(it.id, true), title(`${it.label}: ${left} left of ${it.start}`),
      hitRect(x, y, cw - 6, rh - 3, { fill: "#fff", stroke: "#e2ddd0" }),
      componentIcon(it.item, x + 10, y + 9),
      text(x + 20, y + 14, it.label, { size: 11, cls: "pg-supply-label", fit: cw - 6 - 20 - 30 }),
      text(x + cw - 12, y + 14, String(left ?? "?"), { size: 12, anchor: "end", weight: 700,
        cls: "pg-supply-count" }));
    body.push(wire(g, it.id, st));
  });
  return section("Supply (left)", w, h, body);
}

function turnSection(st) {
  const { board, layout } = st;
  const w = Math.min(st.W, 1100);
  const ln = [];
  const who = board.seat_turn !== null && board.seat_turn !== undefined ? nameOf(board,
    board.seat_turn) : null;
  ln.push(board.phase === "over" ? "The game is over."
    : `${who ? who + ": turn " + board.round + " of " + layout.turns : "between turns"} ·` +
      ` ${board.doing || ""}`);
  if ((board.tasks || []).length) ln.push(`still to do: ${board.tasks.join(" → ")}`);
  const body = [];
  let y = 40;
  for (const l of ln) for (const part of wrap(l, Math.floor((w - 20) / 6.6))) { body.push(text(10, y, part,
    { size: 12.5 })); y += 17; }
  if (st.sourcePrompt) { body.push(text(10, y, st.sourcePrompt, { size: 12.5, weight: 700,
    fill: "#8a5a00" })); y += 17; }
  return section("Turn", w, y, body);
}

function nameOf(board, seat) {
  const g = (board.gardens || []).find((x) => x.seat === seat);
  return g ? g.name : `seat ${seat + 1}`;
}

function soloSection(st) {
  const { layout, board } = st;
  if (!layout.solo) return null;
  const ch = board.challenge;
  const w = Math.min(st.W, 560), body = [];
  let y = 40;
  if (ch) {
    const state = ch.recorded_as !== null && ch.recorded_as !== undefined
      ? (ch.met ? `met: the score goes to space ${ch.recorded_as}`
        : `not met: the score goes to space ${ch.recorded_as} (free game)`)
      : (ch.met ? "met by your garden now" : "not met yet");
    for (const l of wrap(`Challenge ${ch.number}: ${ch.title}`,
      Math.floor((w - 20) / 7.6))) { body.push(text(10, y, l, { size: 13.5, weight: 700 })); y += 18; }
    body.push(svg("circle", { class: "pg-deco", cx: 18, cy: y - 4, r: 7, fill: ch.met ? "#2e7d32" : "#bbb" }),
      text(30, y, ch.met ? "met" : "not met", { size: 12.5, weight: 700,
        fill: ch.met ? "#2e7d32" : "#8a1c1c" }));
    y += 18;
    for (const l of wrap(`${ch.goal} · progress: ${ch.progress} · ${state}`,
      Math.floor((w - 20) / 6.4))) { body.push(text(10, y, l, { size: 12 })); y += 16; }
    y += 4;
    body.push(text(10, y + 10, `Printed neighbours' scores: Przemek ${ch.przemek}, Gołąb ${ch.golab}`,
      { size: 12 }));
    y += 26;
  }
  // the achievement table as printed: the ten challenges with the neighbours' scores
  body.push(text(10, y, "Achievements (the 1000 club: " + layout.solo.thousand + " over the ten spaces)",
    { size: 11.5, fill: MUTED }));
  y += 6;
  const per = w < 540 ? 2 : 5;
  const cw = (w - 20) / per;
  layout.solo.challenges.forEach((c, i) => {
    const x = 10 + (i % per) * cw, yy = y + Math.floor(i / per) * 38;
    const mine = ch && c.number === ch.number;
    body.push(svg("g", { class: "pg-deco" }, title(`${c.number}. ${c.title}: ${c.goal}`),
      svg("rect", { x: fmt(x), y: fmt(yy + 4), width: fmt(cw - 4), height: 34, rx: 4,
        fill: mine ? "#fff3c4" : "#fff", stroke: mine ? "#b38600" : LINE, "stroke-width": mine ? 2 : 1 }),
      text(x + 4, yy + 18,
        `${c.number}. ${c.title.slice(0, Math.floor(cw / 6.2) - 3)}` +
          `${c.title.length > Math.floor(cw / 6.2) - 3 ? "…" : ""}`, { size: 10 }),
      text(x + 4, yy + 32, `P ${c.przemek} · G ${c.golab}`, { size: 10, fill: MUTED })));
  });
  y += Math.ceil(layout.solo.challenges.length / per) * 38 + 12;
  return section("Solo challenge", w, y, body);
}

function discardSection(st) {
  const { layout, board } = st;
  if (!layout.solo) return null;
  const tools = new Map(layout.tools.map((t) => [t.id, t]));
  const list = board.discards || [];
  const w = Math.min(st.W, 560);
  const perRow = Math.max(1, Math.floor((w - 20) / 100));
  const body = [];
  if (!list.length) body.push(text(10, 42, "nothing yet", { size: 12, fill: MUTED }));
  list.forEach((id, i) => {
    const t = tools.get(id);
    const x = 10 + (i % perRow) * 100, y = 28 + Math.floor(i / perRow) * 34;
    body.push(svg("g", { class: "pg-deco", "data-el": id },
      title(t ? `${t.tool}: ${t.labels.join(", ")}` : id),
      svg("rect", { x, y, width: 94, height: 30, rx: 4, fill: "#f4efe3", stroke: LINE }),
      text(x + 5, y + 13, `${i + 1}. ${t ? t.tool : id}`, { size: 11, weight: 700 }),
      ...(t ? t.components.map((c, j) => componentIcon(c, x + 66 + j * 15, y + 10)) : []),
      text(x + 5, y + 26, t ? t.labels.map((l) => l.split(" ")[0]).join(", ").slice(0, 15) : "", { size: 9.5,
        fill: MUTED })));
  });
  const h = 28 + Math.max(1, Math.ceil(list.length / perRow)) * 34 + 6;
  return section("Neighbour's discards", w, Math.max(h, 56), body);
}

// ---------------------------------------------------------------- a garden
function hollyhockSection(gd, st, main) {
  const L = st.layout.garden;
  const cols = L.hollyhock_columns;
  const levels = new Map(gd.hollyhock_levels.map((l) => [l.level, l]));
  const tallest = Math.max(0, ...gd.hollyhock_columns.map((c) => c.height));
  const shown = Math.min(L.hollyhock_levels.length, Math.max(3, tallest + 1));
  const RH = 24, CW = 34, x0 = 38, top = 30;
  const table = padTable(st, "butterflies");
  const w = x0 + cols.length * CW + 112, h = top + shown * RH + 30;
  const body = [];
  const yOf = (lv) => top + (shown - lv) * RH;
  for (const lvl of L.hollyhock_levels) {
    if (lvl.level > shown) { body.push(unreached(lvl.id, main)); continue; }
    const y = yOf(lvl.level);
    const info = levels.get(lvl.level) || { flowers: 0, colours: [], butterflies: 0 };
    const pts = table ? table[lvl.level - 1] : null;
    const g = svg("g", ident(lvl.id, main),
      title(`hollyhock level ${lvl.level}: ${info.flowers} flower(s) ${info.colours.join(", ")},` +
        ` ${info.butterflies} butterfly(ies)${pts ? `, a butterfly here scores ${pts}` : ""}`),
      hitRect(4, y + 1, w - 8, RH - 2, { fill: lvl.level % 2 ? "#fbf7ec" : "#f5f0e2" }),
      text(10, y + 16, String(lvl.level), { size: 12, weight: 700, cls: "pg-deco" }));
    for (let b = 0; b < info.butterflies; b++) g.append(insectToken("butterfly",
      x0 + cols.length * CW + 14 + b * 19, y + RH / 2, 8.5));
    if (pts !== null && pts !== undefined) g.append(text(w - 10, y + 16, `${pts}`, { size: 10, anchor: "end",
      fill: MUTED, cls: "pg-deco" }));
    body.push(wire(g, lvl.id, { ...st, main }));
  }
  cols.forEach((c, i) => {
    const col = gd.hollyhock_columns.find((k) => k.id === c.id) || { height: 0, colour: c.label };
    const x = x0 + i * CW;
    const g = svg("g", { ...ident(c.id, main), class: "pg-deco" }, title(`${c.label}: ${col.height} high`));
    for (let lv = 1; lv <= Math.min(col.height, shown); lv++) {
      g.append(swatch(x + 3, yOf(lv) + 3, CW - 6, RH - 6, c.rgb, col.colour || c.label, st.ctx));
    }
    g.append(text(x + CW / 2, top + shown * RH + 14, cbLetter(col.colour || c.label), { size: 11,
      anchor: "middle", weight: 700, fill: c.rgb }));
    body.push(g);
  });
  body.push(text(w - 10, 18, "Bf pts", { size: 10, anchor: "end", fill: MUTED }));
  return section("Hollyhocks", w, h, body);
}

function padTable(st, key) {
  const row = (st.layout.score_pad || []).find((r) => r.key === key);
  return row && row.table ? row.table.values : null;
}

function magnoliaSection(gd, st, main) {
  const L = st.layout.garden;
  const levels = new Map(gd.magnolia_levels.map((l) => [l.level, l]));
  const topLv = Math.max(0, ...gd.magnolia_levels.map((l) => l.level));
  const shown = Math.min(L.magnolia_levels.length, Math.max(4, topLv + 1));
  const RH = shown > 10 ? 20 : 24, top = 30, w = 236;
  const h = top + shown * RH + 26;
  const table = padTable(st, "magnolias");
  const body = [];
  const yOf = (lv) => top + (shown - lv) * RH;
  for (const lvl of L.magnolia_levels) {
    if (lvl.level > shown) { body.push(unreached(lvl.id, main)); continue; }
    const y = yOf(lvl.level);
    const info = levels.get(lvl.level) || { magnolias: 0, free_buds: 0, ladybugs: 0 };
    const g = svg("g", ident(lvl.id, main),
      title(`magnolia level ${lvl.level}: ${info.magnolias} magnolia(s), ${info.free_buds} free bud(s),` +
        ` ${info.ladybugs} ladybug(s)${table ? `; a magnolia here scores ${table[lvl.level - 1]}` : ""}`),
      hitRect(4, y + 1, w - 8, RH - 2, { fill: lvl.level % 2 ? "#fdf4f8" : "#f8ecf2" }),
      text(10, y + RH / 2 + 4, String(lvl.level), { size: 12, weight: 700, cls: "pg-deco" }));
    let x = 34;
    for (let m = 0; m < info.magnolias; m++) {
      g.append(svg("g", { class: "pg-deco" }, svg("circle", { cx: x + 8, cy: y + RH / 2, r: RH / 2 - 3,
        fill: MAGNOLIA_FILL, stroke: "#a0466d" }),
        st.ctx.cb ? text(x + 8, y + RH / 2 + 4, "M", { size: 10, anchor: "middle", weight: 700,
          cls: "pg-cb" }) : null));
      x += RH - 2;
    }
    for (let b = 0; b < info.free_buds; b++) {
      g.append(svg("circle", { class: "pg-deco", cx: x + 5, cy: y + RH / 2, r: 4, fill: "#8bc34a",
        stroke: "#4a7a1e" }));
      x += 11;
    }
    x += 4;
    for (let k = 0; k < info.ladybugs; k++) { g.append(insectToken("ladybug", x + 8, y + RH / 2,
      8)); x += 18; }
    if (table && table[lvl.level - 1] !== undefined) g.append(text(w - 10, y + RH / 2 + 4,
      `${table[lvl.level - 1]}`, { size: 10, anchor: "end", fill: MUTED, cls: "pg-deco" }));
    body.push(wire(g, lvl.id, { ...st, main }));
  }
  body.push(text(10, h - 8, "pink: magnolia · green dot: free bud", { size: 10, fill: MUTED }),
    text(w - 10, 18, "pts", { size: 10, anchor: "end", fill: MUTED }));
  return section("Magnolia tree", w, h, body);
}

function lavenderSection(gd, st, main) {
  const L = st.layout.garden;
  const lav = gd.lavender;
  const slots = L.lavender_pairs;
  const per = 3, SW = 72, SH = 64, top = 28;
  const rows = Math.ceil(slots / per);
  const w = per * SW + 16, h = top + rows * SH + 28;
  const body = [];
  const flowers = new Map((lav.flowers || []).map((f) => [f.id, f]));
  const placed = lav.flowers || [];
  let dragonLeft = lav.small_dragonflies;
  for (let i = 0; i < slots; i++) {
    const x = 8 + (i % per) * SW, y = top + Math.floor(i / per) * SH;
    const leaves = Math.max(0, Math.min(2, lav.leaves - 2 * i));
    const g = svg("g", { class: "pg-deco" });
    g.append(svg("rect", { x, y, width: SW - 6, height: SH - 6, rx: 6, fill: "none", stroke: "#e4dcf3" }));
    for (let k = 0; k < 2; k++) {
      const lx = x + 14 + k * 38;
      g.append(svg("ellipse", { cx: lx, cy: y + SH / 2 - 3, rx: 7, ry: 20,
        fill: k < leaves ? LEAF_GREEN : "none",
        stroke: k < leaves ? "#3f6e2c" : "#d6d0c4", "stroke-dasharray": k < leaves ? null : "3 3" }));
    }
    body.push(g);
    if (i < placed.length) continue;
    if (i - placed.length < dragonLeft && leaves === 2) {
      body.push(dragonflyToken("small", x + SW / 2 - 3, y + SH / 2 - 3, 10));
    }
  }
  // the flowers, on the first pairs, in the order they were placed
  L.flowers.forEach((f, i) => {
    const fl = flowers.get(f.id);
    if (!fl) { body.push(unreached(f.id, main)); return; }
    const x = 8 + (i % per) * SW, y = top + Math.floor(i / per) * SH;
    const cx = x + SW / 2 - 3, cy = y + SH / 2 - 3;
    const g = svg("g", ident(f.id, main),
      title(`${f.label}: ${fl.bees} of 3 bees${fl.full ? " (full)" : ""}`),
      svg("circle", { class: "hit", cx, cy, r: 15, fill: LAVENDER_FILL,
        stroke: fl.full ? "#2e7d32" : "#5b3f94", "stroke-width": fl.full ? 3 : 1.2 }),
      st.ctx.cb ? text(cx, cy - 5, "Lv", { size: 8.5, anchor: "middle", fill: "#fff", weight: 700,
        cls: "pg-cb" }) : null);
    for (let b = 0; b < 3; b++) {
      const bx = cx - 9 + b * 9, by = cy + 5;
      g.append(b < fl.bees ? insectToken("bee", bx, by, 4.6) : svg("circle", { class: "pg-deco", cx: bx,
        cy: by, r: 3.6, fill: "#fff", stroke: "#5b3f94" }));
    }
    body.push(wire(g, f.id, { ...st, main }));
  });
  body.push(text(10, h - 8,
    `${lav.leaves} leaves, ${lav.pairs} pairs, ${lav.small_dragonflies} small dragonfly(ies)`, { size: 10.5,
      fill: MUTED }));
  return section("Lavender", w, h, body);
}

function cascadeSection(gd, st, main) {
  const C = st.layout.cascade;
  const SX = 50, SY = 52, ox = 30, oy = 48;
  const all = [...C.stones, C.bottom];
  const maxX = Math.max(...all.map((s) => s.x), ...C.bonus_spots.map((b) => b.x));
  const w = Math.max(ox * 2 + maxX * SX, 250);
  const by = oy + C.bottom.y * SY;
  const bonusY = by + 40;
  const bw = (w - 20) / C.bonus_spots.length;
  const per = Math.floor((bw - 10) / 5.2);
  const bonusH = 38 + Math.max(...C.bonus_spots.map((b) => wrap(b.text, per).length)) * 12;
  const h = bonusY + bonusH + 10;
  const pos = new Map(C.stones.map((s) => [s.id, [ox + s.x * SX, oy + s.y * SY]]));
  pos.set("bottom", [w / 2, by]);
  const body = [];
  for (const s of C.streams) {
    const [x1, y1] = pos.get(s.source), [x2, y2] = pos.get(s.to) || [w / 2, by];
    const t = s.to === "bottom" ? [x1 + (x2 - x1) * 0.35, by - 12] : [x2, y2];
    body.push(svg("line", { ...ident(s.id, main), class: "pg-stream", x1: fmt(x1), y1: fmt(y1), x2: fmt(t[0]),
      y2: fmt(t[1]),
      stroke: "#7cb4e6", "stroke-width": 5, "stroke-linecap": "round" },
        title(`stream ${s.id.split(":")[1]}`)));
  }
  const bottomG = svg("g", ident("bottom", main), title(`${C.bottom.label}: ${C.bottom.text}`),
    hitRect(14, by - 12, w - 28, 26, { fill: "#cfe3f6", stroke: "#4a7ab0" }),
    text(w / 2, by + 5, "bottom: an insect and a bonus spot", { size: 11, anchor: "middle",
      cls: "pg-deco" }));
  body.push(wire(bottomG, "bottom", { ...st, main }));
  for (const s of C.stones) {
    const [x, y] = pos.get(s.id);
    const g = svg("g", ident(s.id, main),
      title(`stone ${s.stone}${s.start ? " (start)" : ""}${s.insect ? ": gives a " + s.insect : ""}`),
      svg("circle", { class: "hit", cx: fmt(x), cy: fmt(y), r: 17, fill: s.start ? "#d9d4c7" : "#ece8de",
        stroke: "#6d675b", "stroke-width": 1.5 }),
      text(x - 12, y - 9, s.stone, { size: 10, weight: 700, cls: "pg-deco" }));
    if (s.insect) g.append(insectToken(s.insect, x + 2, y + 3, 9));
    else g.append(text(x, y + 4, "start", { size: 9, anchor: "middle", cls: "pg-deco" }));
    body.push(wire(g, s.id, { ...st, main }));
  }
  // the two drops
  const at = new Map();
  for (const d of gd.drops || []) at.set(d, (at.get(d) || 0) + 1);
  for (const [spot, n] of at) {
    const p = pos.get(spot);
    if (!p) continue;
    for (let k = 0; k < n; k++) body.push(dropToken(p[0] + 15 - k * 10,
      p[1] - 13 + (spot === "bottom" ? 2 : 0)));
  }
  const taken = new Set(gd.bonus_spots || []);
  C.bonus_spots.forEach((b, i) => {
    const x = 10 + i * bw;
    const got = taken.has(b.id);
    const g = svg("g", ident(b.id, main), title(`${b.label}: ${b.text}${got ? " (taken)" : ""}`),
      hitRect(x, bonusY, bw - 6, bonusH, { fill: got ? "#c8e6c9" : "#fff",
        stroke: got ? "#2e7d32" : "#7a8ca3", sw: got ? 2 : 1 }),
      text(x + (bw - 6) / 2, bonusY + 15, b.label.replace(" bonus", ""), { size: 11, anchor: "middle",
        weight: 700, cls: "pg-deco" }),
      lines(x + 4, bonusY + 28, b.text, per, { size: 9 }));
    if (got) g.append(text(x + bw - 11, bonusY + bonusH - 5, "✓ taken", { size: 10.5, anchor: "end",
      weight: 700, fill: "#2e7d32", cls: "pg-deco" }));
    body.push(wire(g, b.id, { ...st, main }));
  });
  return section("Cascade (blue drops)", w, h, body);
}

function dropToken(x, y) {
  const d = `M${fmt(x)},${fmt(y - 8)} Q${fmt(x + 7)},${fmt(y + 1)} ${fmt(x)},${fmt(y + 5)}` +
    ` Q${fmt(x - 7)},${fmt(y + 1)} ${fmt(x)},${fmt(y - 8)}Z`;
  return svg("path", { class: "pg-deco pg-drop", d, fill: WATER, stroke: "#12365e", "stroke-width": 1 },
    title("water drop"));
}

function pergolaSection(gd, st, main) {
  const L = st.layout.garden;
  const spaces = [...L.pergola].sort((a, b) => a.x - b.x);
  const per = st.W >= spaces.length * 58 + 16 ? spaces.length : Math.ceil(spaces.length / 2);
  const CW = 58, w = per * CW + 16, h = 28 + Math.ceil(spaces.length / per) * 70 + 8;
  const cups = new Map(gd.pergola.map((c) => [c.id, c]));
  const body = [];
  for (const sp of spaces) {
    const c = cups.get(sp.id) || { buttercup: null, bees: 0, capacity: 0, full: false };
    const x = 8 + (sp.x % per) * CW, top = 28 + Math.floor(sp.x / per) * 70, cx = x + CW / 2 - 2,
      cy = top + 38;
    body.push(svg("line", { class: "pg-deco", x1: x - 2, y1: top + 4, x2: x + CW, y2: top + 4,
      stroke: "#8d6e63", "stroke-width": 4 }));
    const g = svg("g", ident(sp.id, main),
      title(`pergola space ${sp.number} (takes ${sp.accepts.join(" or ")}):` +
        ` ${c.buttercup ? c.buttercup + " buttercup, " + c.bees + " of " + c.capacity + " bees" : "empty"}`),
      hitRect(x, top + 8, CW - 4, 64, { fill: "#fbf7ec", stroke: "#d9cdb5" }),
      text(x + 4, top + 20, String(sp.number), { size: 10, fill: MUTED, cls: "pg-deco" }));
    if (sp.accepts.length === 1) g.append(text(x + CW - 8, top + 20, sp.accepts[0] === "small" ? "S" : "L",
      { size: 10, anchor: "end", fill: MUTED, cls: "pg-deco" }));
    if (c.buttercup) {
      const r = c.buttercup === "large" ? 20 : 13;
      g.append(svg("circle", { class: "pg-deco", cx, cy, r, fill: BUTTERCUP_FILL,
        stroke: c.full ? "#2e7d32" : "#a08400", "stroke-width": c.full ? 3 : 1.2 }));
      // a large one has room for its letter inside, above the bees; a small one above it
      // (the S ran into the bees' labels)
      if (st.ctx.cb) g.append(text(cx, c.buttercup === "large" ? cy - r + 9 : cy - r - 3,
        c.buttercup === "large" ? "L" : "S", { size: 8.5,
        anchor: "middle", weight: 700, cls: "pg-cb" }));
      for (let b = 0; b < c.capacity; b++) {
        const bx = cx + (c.capacity === 1 ? 0 : (b ? 7 : -7)), by = cy + 3;
        g.append(b < c.bees ? insectToken("bee", bx, by, 6) : svg("circle", { class: "pg-deco", cx: bx,
          cy: by, r: 5, fill: "#fff", stroke: "#a08400", "stroke-dasharray": "2 2" }));
      }
    } else g.append(text(cx, cy + 4, "empty", { size: 9.5, anchor: "middle", fill: MUTED, cls: "pg-deco" }));
    body.push(wire(g, sp.id, { ...st, main }));
  }
  return section("Pergola (buttercups and their bee spots)", w, h, body);
}

function flyingSection(gd, st, main) {
  const L = st.layout.garden;
  const w = 196, top = 28, RH = 30, h = top + L.fly.length * RH + 8;
  const body = [];
  L.fly.forEach((f, i) => {
    const kind = f.id.split(":")[1];
    const n = (gd.flying || {})[kind] || 0;
    const y = top + i * RH;
    const g = svg("g", ident(f.id, main), title(`${f.label}: ${n} (they score nothing on their plant rows)`),
      hitRect(6, y, w - 12, RH - 4, { fill: "#eef6fd", stroke: "#c4d9ee" }),
      insectToken(kind, 22, y + RH / 2 - 2, 9),
      text(38, y + RH / 2 + 2,
        `${{ butterfly: "butterflies", ladybug: "ladybugs", bee: "bees" }[kind] || kind} flying: ${n}`,
          { size: 12, cls: "pg-deco" }));
    body.push(wire(g, f.id, { ...st, main }));
  });
  return section("Flying about", w, h, body);
}

function lanternSection(gd, st, main) {
  const L = st.layout.garden;
  const w = 236, top = 28, RH = 26;
  const h = top + L.lanterns.length * RH + 30;
  const unused = (gd.lanterns || {}).unused || {};
  const body = [];
  L.lanterns.forEach((l, i) => {
    const n = unused[l.kind] || 0;
    const y = top + i * RH;
    const g = svg("g", ident(l.id, main), title(`${l.kind} lantern: ${l.text}; ${n} unused`),
      hitRect(6, y, w - 12, RH - 4, { fill: n ? "#fff3d6" : "#faf8f3", stroke: "#e8d3a4" }),
      lanternIcon(20, y + RH / 2 - 2, n > 0),
      text(34, y + RH / 2 + 2, `${l.kind}: ${n} unused`, { size: 12, cls: "pg-deco",
        weight: n ? 700 : null }));
    body.push(wire(g, l.id, { ...st, main }));
  });
  const used = (gd.lanterns || {}).used || 0;
  const y = top + L.lanterns.length * RH + 14;
  body.push(lanternIcon(20, y - 4, false), text(34, y, `used (turned over): ${used}`, { size: 12 }));
  return section("Lanterns", w, h, body);
}

function lanternIcon(x, y, lit) {
  return svg("g", { class: "pg-deco" },
    svg("rect", { x: x - 6, y: y - 8, width: 12, height: 15, rx: 4, fill: lit ? "#ffb74d" : "#9e9e9e",
      stroke: INK, "stroke-width": 0.8 }),
    svg("line", { x1: x - 3, y1: y - 10, x2: x + 3, y2: y - 10, stroke: INK, "stroke-width": 1.5 }));
}

function honeySection(gd, st, main) {
  const L = st.layout.garden;
  const honey = gd.honey || { pots: [], bees_on_buttercups: 0, next_threshold: null };
  const PW = 112, top = 28;
  const cols = st.W < 520 ? 2 : 4;
  const rows = Math.ceil(L.pots.length / cols);
  const w = cols * PW + 16;
  const thr = L.honey_thresholds.join(" / ");
  const note = `bees on buttercups: ${honey.bees_on_buttercups} · pots need ${thr} ·` +
    ` ${honey.next_threshold !== null && honey.next_threshold !== undefined
      ? "next at " + honey.next_threshold : "no pot left"} (max ${L.max_pots})`;
  const noteLines = wrap(note, Math.floor((w - 20) / 5.9));
  const h = top + rows * 64 + 10 + noteLines.length * 14;
  const body = [];
  L.pots.forEach((p, i) => {
    const at = honey.pots.indexOf(p.id);
    const x = 8 + (i % cols) * PW, y = top + Math.floor(i / cols) * 64;
    const g = svg("g", ident(p.id, main), title(`${p.name} pot: ${p.text}${at >= 0 ? " (filled)" : ""}`),
      hitRect(x, y, PW - 6, 58, { fill: at >= 0 ? "#ffe082" : "#fffaf0",
        stroke: at >= 0 ? "#b38600" : "#e0cf9f", sw: at >= 0 ? 2 : 1 }),
      text(x + 6, y + 16, p.name, { size: 12, weight: 700, cls: "pg-deco" }),
      lines(x + 6, y + 31, p.text, 19, { size: 10 }));
    if (at >= 0) g.append(text(x + PW - 12, y + 16, `#${at + 1}`, { size: 11, anchor: "end", weight: 700,
      fill: "#8a5a00", cls: "pg-deco" }));
    body.push(wire(g, p.id, { ...st, main }));
  });
  noteLines.forEach((ln, i) => body.push(text(10, top + rows * 64 + 12 + i * 14, ln, { size: 10.5,
    fill: MUTED })));
  return section("Honey pots", w, h, body);
}

function birdhouseSection(gd, st, main) {
  const L = st.layout.garden;
  const leaves = gd.birdhouse || [];
  const per = 6, LW = 36, top = 28;
  const rows = Math.max(1, Math.ceil(leaves.length / per));
  const w = per * LW + 20, h = top + rows * 52 + 46;
  const body = [];
  const g = svg("g", ident(L.birdhouse.id, main),
    title(`${L.birdhouse.label}: ${leaves.map((l) => l.leaf).join(", ") || "none"}`),
    svg("rect", { class: "hit", x: 4, y: top - 4, width: w - 8, height: rows * 52 + 4, rx: 6, fill: "#f3ede0",
      stroke: "none" }));
  leaves.forEach((lf, i) => {
    const x = 10 + (i % per) * LW + LW / 2, y = top + Math.floor(i / per) * 52 + 18;
    g.append(leafShape(x, y, 18, lf.rgb, lf.colour, st.ctx), insectToken(lf.insect, x, y + 22, 6.5));
  });
  if (!leaves.length) g.append(text(12, top + 22, "no leaves yet", { size: 12, fill: MUTED }));
  body.push(g);
  const colours = new Set(leaves.map((l) => l.colour));
  // the leaf colours of the data, each with how many of its leaves the birdhouse holds
  const cols = st.layout.leaves.colours;
  const cw = (w - 20) / Math.max(1, cols.length);
  cols.forEach((c, i) => {
    const n = leaves.filter((l) => l.colour === c.label).length;
    const x = 10 + i * cw;
    body.push(svg("g", { ...ident(c.id, main), class: "pg-deco" },
      title(`${c.label} leaves on the birdhouse: ${n}`),
      swatch(x, h - 40, 14, 14, c.rgb, c.label, st.ctx, n ? {} : { "fill-opacity": 0.3 }),
      text(x + 18, h - 29, `${n}`, { size: 11, weight: n ? 700 : null, fill: n ? INK : MUTED })));
  });
  body.push(text(10, h - 8, `${leaves.length} leaves, ${colours.size} colour(s)`, { size: 10.5,
    fill: MUTED }));
  return section("Birdhouse", w, h, body);
}

function dragonflySection(gd, st) {
  const d = gd.dragonflies || { small: 0, medium: 0, large: 0, requirements_taken: [] };
  const w = 236, top = 28, h = 116;
  const body = [];
  ["small", "medium", "large"].forEach((s, i) => {
    const x = 12 + i * 72;
    body.push(dragonflyToken(s, x + 12, top + 16, 11), text(x + 28, top + 21, `× ${d[s]}`, { size: 13,
      weight: 700 }));
  });
  body.push(text(10, top + 48, `requirements met: ${d.requirements_taken.join(", ") || "none yet"}`,
    { size: 11 }));
  const lily = gd.frog ? `on lily ${gd.frog.split(":")[1]}` : "still in the garden";
  body.push(frogToken(18, top + 70, gd, st.board), text(32, top + 74, `frog: ${lily}`, { size: 12 }));
  return section("Dragonflies and frog", w, h, body);
}

function toolsTakenSection(gd, st) {
  const tools = new Map(st.layout.tools.map((t) => [t.id, t]));
  const list = gd.tools || [];
  const w = 236, per = 5, top = 28;
  const rows = Math.max(1, Math.ceil(list.length / per));
  const h = top + rows * 18 + 10;
  const body = [];
  list.forEach((id, i) => {
    const t = tools.get(id);
    body.push(svg("g", { class: "pg-deco", "data-el": id },
      title(t ? `${t.tool}: ${t.labels.join(", ")}` : id),
      text(10 + (i % per) * 44, top + 12 + Math.floor(i / per) * 18, t ? t.tool : id, { size: 11.5 })));
  });
  if (!list.length) body.push(text(10, top + 12, "none yet", { size: 11.5, fill: MUTED }));
  return section(`Tools taken (${list.length} of ${st.layout.turns})`, w, h, body);
}

function padSection(gd, st) {
  const score = (st.view.scores || [])[gd.seat];
  const rows = st.layout.score_pad || [];
  const w = 236, top = 28, RH = 17, h = top + (rows.length + 1) * RH + 10;
  const body = [];
  rows.forEach((r, i) => {
    const v = score && score.rows ? score.rows[r.key] : "";
    const y = top + 12 + i * RH;
    body.push(svg("g", { class: "pg-deco" },
      title(`${r.label}: ${r.text}` +
        `${r.table
          ? " (" + r.table.keys.map((k, j) => `${k}: ${r.table.values[j]}`).slice(0, 6).join(", ") + ")"
          : ""}`),
      text(10, y, r.label, { size: 12 }), pad(text(w - 12, y, String(v ?? ""), { size: 12, anchor: "end",
        weight: 700 }), r.key)));
  });
  const y = top + 12 + rows.length * RH;
  body.push(svg("line", { class: "pg-deco", x1: 8, y1: y - 12, x2: w - 8, y2: y - 12, stroke: INK }),
    text(10, y + 2, "total", { size: 12.5, weight: 700 }),
    pad(text(w - 12, y + 2, String(score ? score.total : ""), { size: 12.5, anchor: "end", weight: 700 }),
      "total"));
  return section("Score pad", w, h, body);
}

function pad(node, key) { node.setAttribute("data-row", key); return node; }

// sections one above the other, as one part of the flow
function column(parts, gap = 10) {
  const g = svg("g", {});
  let y = 0, w = 0;
  for (const p of parts) {
    p.g.setAttribute("transform", `translate(0,${fmt(y)})`);
    g.append(p.g);
    y += p.h + gap;
    w = Math.max(w, p.w);
  }
  return { g, w, h: y - gap };
}

function gardenDrawing(gd, st, main) {
  const cascade = cascadeSection(gd, st, main), pergola = pergolaSection(gd, st, main);
  const flying = flyingSection(gd, st, main), lanterns = lanternSection(gd, st, main);
  const honey = honeySection(gd, st, main);
  const plants = [hollyhockSection(gd, st, main), magnoliaSection(gd, st, main), lavenderSection(gd, st,
    main)];
  const rest = [birdhouseSection(gd, st, main), dragonflySection(gd, st), padSection(gd, st),
    toolsTakenSection(gd, st)];
  const wide = cascade.w + 10 + Math.max(pergola.w, flying.w + 10 + lanterns.w, honey.w);
  if (st.W >= wide) {
    // the cascade beside a column of the pergola, the flying insects and lanterns, the pots
    const pair = flow([flying, lanterns], flying.w + lanterns.w + 10);
    return flow([...plants, cascade, column([pergola, pair, honey]), ...rest], st.W);
  }
  return flow([...plants, cascade, pergola, flying, lanterns, honey, ...rest], st.W);
}

// ---------------------------------------------------------------- draw
export function draw(container, ctx) {
  const { layout, board } = ctx;
  const W = Math.max(340, Math.min(1120, (container.clientWidth || 1000) - 34));
  const st = { layout, board, view: ctx.view, ctx, container, W, main: true, clicks: clickables(ctx) };
  if (picked.source) st.sourcePrompt = `Moving from ${picked.source.replace(/^[a-z-]+:/, "")}: click where` +
    ` to (or click it again to pick another).`;
  else if ([...st.clicks.values()].some((c) => c.source)) st.sourcePrompt = "Click where the insect or the" +
    " drop leaves from, then where it goes.";
  container.replaceChildren();
  container.classList.add("pg-board");
  if (ctx.cb) container.classList.add("pg-cbmode"); else container.classList.remove("pg-cbmode");

  const gardens = board.gardens || [];
  const mainSeat = ctx.seat !== null && ctx.seat !== undefined ? ctx.seat
    : 0;

  const shared = flow([turnSection(st), actionBoard(st), holderSection(st), pilesSection(st), pondSection(st),
    supplySection(st), soloSection(st), discardSection(st)], W);
  container.append(el("h2", {}, layout.solo ? "The boards" : "The shared boards"),
    svgRoot(shared, "Pergola's shared boards: the action board, the leaf piles, the pond and the supply",
      "pg-shared"));

  const mine = gardens.find((g) => g.seat === mainSeat);
  if (mine) {
    const who = ctx.seat === mine.seat ? "Your garden" : `${mine.name}'s garden`;
    const total = ((ctx.view.scores || [])[mine.seat] || {}).total;
    container.append(el("h2", {}, `${who}${total !== undefined ? ` (${total} points)` : ""}`),
      svgRoot(gardenDrawing(mine, st, true), `${mine.name}'s garden`, "pg-garden pg-main"));
  }
  for (const gd of gardens) {
    if (gd === mine) continue;
    const total = ((ctx.view.scores || [])[gd.seat] || {}).total;
    const open = openGardens.has(gd.seat) ? openGardens.get(gd.seat) : gardens.length <= 2 && W >= NARROW;
    const det = el("details", { class: "other-sheet pg-other", "data-seat": String(gd.seat),
      open: open || null },
      el("summary", {},
        `${gd.name}'s garden${total !== undefined ? ` (${total} points)` : ""}` +
          `${board.to_move === gd.seat ? " · to move" : ""}`),
      svgRoot(gardenDrawing(gd, { ...st, main: false }, false), `${gd.name}'s garden`, "pg-garden pg-small"));
    det.addEventListener("toggle", () => openGardens.set(gd.seat, det.open));
    container.append(det);
  }
  container.append(el("p", { class: "small muted pg-legend" },
    "Bf butterfly · Lb ladybug · Be bee · DS/DM/DL small, medium, large dragonfly · blue drops: your water" +
      " drops · coloured discs with a letter: the frogs. Hover an item for what it does."));

  // redraw at the new width when the page is resized a lot (phone turned, window resized)
  if (typeof ResizeObserver !== "undefined") {
    if (resizeWatch) resizeWatch.disconnect();
    let lastW = container.clientWidth;
    resizeWatch = new ResizeObserver(() => {
      const now = container.clientWidth;
      if (Math.abs(now - lastW) > 60 && container.isConnected) { lastW = now; draw(container, ctx); }
    });
    resizeWatch.observe(container);
  }
}
