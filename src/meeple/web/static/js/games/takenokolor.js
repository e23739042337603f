// Takenokolor: the rolled markers, the panda holder and every seat's garden sheet, drawn as SVG
// from the layout (the sheet: areas, items on a grid, ladybugs, races, score rows) and the board
// (per seat: coloured items with the ink used, open / passed / locked items, circled ladybugs,
// races reached, what each score row counts). Nothing here knows a printed sheet: a user's own
// sheet draws the same way. See docs/views/takenokolor.md for the data.
//
// Ids: on the large sheet (the viewer's, else the first seat's) every item, area, ladybug and
// race has its layout id; the markers have their letter. Smaller sheets prefix them "s<seat>-".
// A legal move's target gets class "lit", role=button, tabindex=0 and data-move, and plays on
// click or Enter.
import { clickable, el, svg } from "../common.js";

const U = 72;          // one grid cell
const PAD = 16;        // around the grid
const TOP = 26;        // room above the grid for labels of areas on row 0
const INK = { B: "#2563c9", Y: "#e7b400", P: "#e0559b", G: "#2e9b45" };
const TINT = { B: "#dbe7fb", Y: "#fdf2c4", P: "#fbdcec", G: "#d8f0dc", any: "#eeeeee" };
const NAME = { B: "blue", Y: "yellow", P: "pink", G: "green", any: "any colour" };
const TEXT_ON = { B: "#fff", Y: "#1d1d1f", P: "#fff", G: "#fff" };

// ------------------------------------------------------------------ small shapes
function symbolShape(symbol, x, y, r, attrs) {
  if (symbol === "circle") return svg("circle", { cx: x, cy: y, r, ...attrs });
  if (symbol === "square") return svg("rect", { x: x - r * 0.88, y: y - r * 0.88, width: r * 1.76,
    height: r * 1.76, ...attrs });
  const h = r * 1.1;
  return svg("polygon", { points: `${x},${y - h} ${x + h},${y + h * 0.8} ${x - h},${y + h * 0.8}`,
    ...attrs });
}

function star(x, y, r1, r2, n) {
  const pts = [];
  for (let k = 0; k < n * 2; k++) {
    const a = (Math.PI * k) / n - Math.PI / 2;
    const r = k % 2 ? r2 : r1;
    pts.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

// The body of an item of each kind, centred on (x, y), filled with `fill`, outlined `stroke`.
function body(kind, item, x, y, fill, stroke) {
  const s = { fill, stroke, "stroke-width": 2.5, class: "tk-body" };
  const r = U / 2 - 12;
  switch (kind) {
    case "bamboo":
      // a stalk section (its node at the bottom) with a leaf on the left carrying the value
      return svg("g", {},
        svg("rect", { x: x - 5, y: y - U / 2 + 5, width: 26, height: U - 10, rx: 6, ...s }),
        svg("line", { x1: x - 5, y1: y + U / 2 - 7, x2: x + 21, y2: y + U / 2 - 7, stroke,
          "stroke-width": 2.5 }),
        item.points ? svg("ellipse", {
          cx: x - 20, cy: y - 8, rx: 14, ry: 10, transform: `rotate(-25 ${x - 20} ${y - 8})`,
          fill: "#b9e4bb", stroke: "#2e7d32", "stroke-width": 1.5, class: "tk-leaf",
        }) : null);
    case "shoot":
      return svg("path",
        { d: `M${x - r},${y + r} Q${x - 4},${y - r * 0.2} ${x},${y - r} Q${x + 4},${y - r * 0.2}` +
          ` ${x + r},${y + r} Z`, ...s });
    case "cloud":
      return svg("path", {
        d: `M${x - r},${y + r * 0.55} a${r * 0.45},${r * 0.45} 0 0 1 ${r * 0.2},-${r * 0.85}` +
          ` a${r * 0.55},${r * 0.55} 0 0 1 ${r * 0.8},-${r * 0.45}`
          + ` a${r * 0.55},${r * 0.55} 0 0 1 ${r},${r * 0.35} a${r * 0.45},${r * 0.45} 0 0 1 0,${r * 0.95} z`,
            ...s,
      });
    case "sun":
      return svg("polygon", { points: star(x, y, r + 4, r * 0.62, 8), ...s });
    case "burst":
      return svg("polygon", { points: star(x, y, r + 4, r * 0.45, 6), ...s });
    case "pond":
      return svg("ellipse", { cx: x, cy: y, rx: r + 6, ry: r * 0.8, ...s });
    case "river":
      return svg("path", {
        d: `M${x - U / 2 + 4},${y - r * 0.7} q${U / 4},-8 ${U / 2 - 4},0 t${U / 2 - 4},0 v${r * 1.4}` +
          ` q-${U / 4},8 -${U / 2 - 4},0 t-${U / 2 - 4},0 z`, ...s,
      });
    case "fish":
      return svg("path",
        { d: `M${x - r},${y} q${r},-${r} ${r * 1.6},0 l${r * 0.5},-${r * 0.5} v${r}` +
          ` l-${r * 0.5},-${r * 0.5} q-${r * 0.6},${r} -${r * 1.6},0 z`, ...s });
    case "lantern":
      return svg("g", {},
        svg("line", { x1: x, y1: y - r - 6, x2: x, y2: y - r + 2, stroke, "stroke-width": 2 }),
        svg("rect", { x: x - r * 0.8, y: y - r + 2, width: r * 1.6, height: r * 2 - 4, rx: r * 0.7, ...s }));
    case "favour":
      return svg("g", {},
        svg("polygon", { points: `${x - r - 6},${y - 10} ${x - r + 6},${y} ${x - r - 6},${y + 10}`, ...s }),
        svg("polygon", { points: `${x + r + 6},${y - 10} ${x + r - 6},${y} ${x + r + 6},${y + 10}`, ...s }),
        svg("rect", { x: x - r + 5, y: y - r * 0.6, width: 2 * r - 10, height: r * 1.2, rx: 6, ...s }));
    case "trail":
      return svg("path", { d: `M${x - U / 2 + 4},${y + 8} L${x + U / 2 - 4},${y - 8}`,
        stroke: fill === "none" ? stroke : fill, "stroke-width": 14, "stroke-linecap": "round", fill: "none",
          class: "tk-body" });
    case "dragon":
      if (item.label === "head") {
        return svg("path",
          { d: `M${x - r},${y - r} h${r * 1.2} l${r * 0.8},${r * 0.6} v${r * 0.8} l-${r * 0.8},${r * 0.6}` +
            ` h-${r * 1.2} z`, ...s });
      }
      return svg("rect", { x: x - r, y: y - r * 0.8, width: 2 * r, height: 1.6 * r, rx: r * 0.5, ...s });
    default:
      return svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: 6, ...s });
  }
}

function ladybugIcon(x, y, circled, id, title) {
  return svg("g", { id, class: "tk-ladybug" + (circled ? " circled" : "") },
    svg("title", {}, title),
    circled ? svg("circle", { cx: x, cy: y, r: 13, fill: "#fff", stroke: "#b3261e",
      "stroke-width": 3 }) : null,
    svg("circle", { cx: x, cy: y, r: 8, fill: "#d32f2f", stroke: "#1d1d1f", "stroke-width": 1.2 }),
    svg("line", { x1: x, y1: y - 8, x2: x, y2: y + 8, stroke: "#1d1d1f", "stroke-width": 1.2 }),
    svg("circle", { cx: x - 3.5, cy: y - 1, r: 1.6, fill: "#1d1d1f" }),
    svg("circle", { cx: x + 3.5, cy: y + 3, r: 1.6, fill: "#1d1d1f" }),
    svg("circle", { cx: x, cy: y - 8, r: 2.6, fill: "#1d1d1f" }));
}

function pandaIcon(x, y, r) {
  return svg("g", { class: "tk-panda" },
    svg("circle", { cx: x - r * 0.7, cy: y - r * 0.7, r: r * 0.38, fill: "#1d1d1f" }),
    svg("circle", { cx: x + r * 0.7, cy: y - r * 0.7, r: r * 0.38, fill: "#1d1d1f" }),
    svg("circle", { cx: x, cy: y, r, fill: "#fff", stroke: "#1d1d1f", "stroke-width": 1.5 }),
    svg("ellipse", { cx: x - r * 0.38, cy: y - r * 0.05, rx: r * 0.22, ry: r * 0.3, fill: "#1d1d1f" }),
    svg("ellipse", { cx: x + r * 0.38, cy: y - r * 0.05, rx: r * 0.22, ry: r * 0.3, fill: "#1d1d1f" }),
    svg("circle", { cx: x, cy: y + r * 0.4, r: r * 0.14, fill: "#1d1d1f" }));
}

// ------------------------------------------------------------------ clickable elements
function makeLit(node, choice, ctx) {
  const { move } = choice;
  clickable(node, () => ctx.choose(move), { label: choice.label || move, data: { move } });
}

// the lit choices by target: {target: [choice...]} (only moves the page says are legal now)
function litTargets(ctx) {
  const out = new Map();
  for (const c of ctx.board.choices || []) {
    if (!ctx.lit.has(c.move) || !c.target) continue;
    if (!out.has(c.target)) out.set(c.target, []);
    out.get(c.target).push(c);
  }
  return out;
}

// A click on an item a marker could colour (while markers are to be taken) takes that marker;
// once the page shows the marker in hand, the item's colouring follows by itself.
let follow = null;   // {take, colour}: the moves of such a click

function viaTake(ctx) {
  const out = new Map();   // item id -> the one take choice that could colour it
  const twice = new Set();
  for (const c of ctx.board.choices || []) {
    if (c.kind !== "take" || !ctx.lit.has(c.move)) continue;
    for (const id of c.items || []) {
      if (out.has(id)) twice.add(id);
      out.set(id, c);
    }
  }
  for (const id of twice) out.delete(id);   // two markers could: the player takes one first
  return out;
}

// ------------------------------------------------------------------ the roll
function drawRoll(ctx) {
  const { layout, board, view } = ctx;
  const lit = litTargets(ctx);
  // four markers in a row and the panda beside them; on a narrow page two rows of two
  const narrow = ctx.narrow;
  const per = narrow ? 2 : 4;
  const W = narrow ? 2 * 175 + 12 : 4 * 175 + 230;
  const H = narrow ? 2 * 128 + 70 : 130;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "tk-roll", role: "group",
    "aria-label": "the rolled markers" });
  const who = (i) => (view.seats[i] ? view.seats[i].name : `seat ${i + 1}`);
  (board.markers || []).forEach((m, k) => {
    const x = 12;
    const col = m.id;
    const rolled = m.symbol !== null && m.symbol !== undefined;
    const g = svg("g", { id: m.id, transform: `translate(${(k % per) * 175},${Math.floor(k / per) * 128})`,
      class: "tk-marker" + (m.taken ? " taken" : "") + (m.in_hand ? " in-hand" : "") });
    const hit = svg("rect", { x: x - 6, y: 4, width: 165, height: 120, rx: 12, class: "hit",
      fill: "transparent" });
    g.append(hit);
    // the marker: a pen in its colour
    g.append(svg("rect", { x, y: 14, width: 62, height: 62, rx: 12,
      fill: m.taken && !m.in_hand ? TINT[col] : INK[col], stroke: INK[col], "stroke-width": 3 }));
    if (rolled) {
      g.append(symbolShape(m.symbol, x + 31, 45, 17, { fill: "#fff", stroke: "#1d1d1f",
        "stroke-width": 2.5 }));
    } else {
      g.append(svg("text", { x: x + 31, y: 54, "text-anchor": "middle", "font-size": 26, fill: "#fff" },
        "?"));
    }
    g.append(svg("text", { x: x + 70, y: 32, "font-size": 17, "font-weight": 700 }, NAME[col]));
    g.append(svg("text", { x: x + 70, y: 52, "font-size": 15 },
      rolled ? m.symbol : board.next_marker === m.id ? "rolling…" : "not rolled"));
    const onMarker = m.taken && !m.in_hand ? "#1d1d1f" : TEXT_ON[col];
    if (ctx.cb) g.append(svg("text", { x: x + 8, y: 30, "font-size": 14, "font-weight": 700, fill: onMarker,
      class: "cb-letter" }, col));
    let took = "", by = "";
    if (m.in_hand) { took = "in the hand of"; by = who(m.by); }
    else if (m.taken && m.by !== null && m.by !== undefined) { took = "taken by"; by = who(m.by); }
    else if (m.taken) took = "taken";
    else if (rolled) took = "in the middle";
    g.append(svg("text", { x: x + 2, y: 96, "font-size": 14, class: "muted" }, took));
    if (by) g.append(svg("text", { x: x + 2, y: 115, "font-size": 15, class: "tk-took" }, by));
    if (m.taken && !m.in_hand) {
      g.append(svg("line", { x1: x + 4, y1: 72, x2: x + 58, y2: 18, stroke: "#1d1d1f", "stroke-width": 3 }));
    }
    const title = `${NAME[col]} marker${rolled ? `, ${m.symbol}` : ""}${took ? `, ${took} ${by}` : ""}`;
    g.prepend(svg("title", {}, title));
    const choices = lit.get(m.id);
    if (choices) {
      makeLit(g, choices[0], ctx);
      g.addEventListener("mouseenter", () => hint(ctx, choices[0].items || [], true));
      g.addEventListener("mouseleave", () => hint(ctx, choices[0].items || [], false));
      g.addEventListener("focus", () => hint(ctx, choices[0].items || [], true));
      g.addEventListener("blur", () => hint(ctx, choices[0].items || [], false));
    }
    root.append(g);
  });
  // the panda holder and the round
  const x0 = narrow ? 12 : 4 * 175 + 10;
  const oy = narrow ? 2 * 128 - 4 : 0;
  const side = svg("g", { transform: `translate(0,${oy})` });
  root.append(side);
  side.append(pandaIcon(x0 + 24, 44, 20));
  const holder = board.holder !== null && board.holder !== undefined ? who(board.holder) : "";
  side.append(svg("text", { x: x0 + 54, y: 36, "font-size": 15 }, "panda:"));
  side.append(svg("text", { x: x0 + 54, y: 56, "font-size": 16, "font-weight": 700, id: "tk-holder" },
    holder));
  const rx = narrow ? x0 + 190 : x0, ry = narrow ? 36 : 98;
  side.append(svg("text", { x: rx, y: ry, "font-size": 15 },
    board.phase === "over" ? `over after round ${board.round}` : `round ${board.round}`));
  side.append(svg("text", { x: rx, y: ry + 20, "font-size": 13, class: "muted" },
    `ends at ${layout.ladybugs_to_end} ladybugs`));
  return root;
}

function hint(ctx, items, on) {
  const box = ctx.container;
  for (const id of items) {
    const node = box.querySelector(`[id="${CSS.escape(id)}"]`);
    if (node) node.classList.toggle("hint", on);
  }
}

// ------------------------------------------------------------------ one sheet
function sheetSize(layout, F) {
  const W = PAD * 2 + layout.grid.cols * U;
  const gridH = TOP + layout.grid.rows * U + PAD;
  const scoreH = 34 * F + (layout.scoring.length + 1) * 26 * F + 10;
  return { W, gridH, H: gridH + scoreH };
}

function drawSheet(ctx, seatBoard, opts) {
  const { layout } = ctx;
  const prefix = opts.prefix;              // "" on the large sheet, "s1-" on the others
  const lit = opts.main ? litTargets(ctx) : new Map();
  const via = opts.main ? viaTake(ctx) : new Map();
  // on a phone the large sheet's words and score area are drawn larger (the sheet shrinks)
  const F = opts.main && ctx.narrow ? 1.5 : 1;
  const { W, gridH, H } = sheetSize(layout, F);
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "tk-sheet" + (opts.main ? " main" : ""), role: "img",
    "aria-label": `${seatBoard.name}'s garden sheet`, "data-seat": seatBoard.seat,
  });
  const cx = (c) => PAD + c * U + U / 2;
  const cy = (r) => TOP + r * U + U / 2;
  const items = new Map(layout.items.map((it) => [it.id, it]));
  const coloured = new Map((seatBoard.coloured || []).map((c) => [c.item, c]));
  const open = new Set(seatBoard.open || []);
  const passed = new Set(seatBoard.passed || []);
  const locked = new Set(seatBoard.locked || []);
  const complete = new Set(seatBoard.complete || []);
  const circled = new Set(seatBoard.ladybugs || []);
  const kept = new Map((seatBoard.races || []).map((r) => [r.race, r]));
  const claimed = new Set(ctx.board.claimed || []);
  const raceAt = new Set(layout.races.map((r) => r.anchor));   // items with a first-player box

  root.append(svg("rect", { x: 0, y: 0, width: W, height: H, fill: "#fffdf6", stroke: "#c9c2ad", rx: 10 }));

  // areas: a frame and a name (above the frame where the cells above are free, else below,
  // else inside its top edge)
  const used = new Set(layout.items.map((it) => `${it.col},${it.row}`));
  const rowFree = (row, b) => {
    if (row < 0) return true;
    if (row >= layout.grid.rows) return true;
    for (let c = b.col; c < b.col + b.cols; c++) if (used.has(`${c},${row}`)) return false;
    return true;
  };
  for (const a of layout.areas) {
    const b = a.box;
    const x = PAD + b.col * U + 3, y = TOP + b.row * U + 3;
    const w = b.cols * U - 6, h = b.rows * U - 6;
    const done = complete.has(a.id);
    const g = svg("g", { id: prefix + a.id, class: "tk-area" + (done ? " complete" : "") },
      svg("title", {},
        `${a.label}${a.title ? ": " + a.title : ""}` +
          `${a.on_complete.length ? " (then " + a.on_complete.map((o) => o.text).join("; ") + ")" : ""}` +
          `${done ? " - complete" : ""}`));
    const bg = a.kind === "river" ? "#e3f1fb" : a.kind === "pond" ? "#e6f4f7" : "none";
    g.append(svg("rect", { x, y, width: w, height: h, rx: 8, fill: bg, stroke: done ? "#137333" : "#b9b09a",
      "stroke-width": done ? 2.5 : 1.2, "stroke-dasharray": a.kind === "bamboo" ? "4 3" : null }));
    let name = a.label + (a.on_complete.length ? " +" : "") + (a.lockout ? " (lock-out)" : "");
    const tick = done ? " ✓" : "";
    // a narrow frame keeps the area's id only (its items' shapes say the kind)
    if ((name.length + tick.length) * 6.6 * F > w + 6) name = a.id + (a.on_complete.length ? " +" : "");
    const ly = rowFree(b.row - 1, b) ? y - 4 : rowFree(b.row + b.rows, b) ? y + h + 13 * F : y + 12 * F;
    g.append(svg("text", { x: x + 2, y: ly, "font-size": 12 * F, fill: done ? "#137333" : "#5f6368",
      "font-weight": done ? 700 : 400, class: "tk-area-name" }, name + tick));
    root.append(g);
  }

  // the order of a sequence area: a faint line through its steps
  for (const a of layout.areas) {
    if (a.order !== "sequence" || a.steps.length < 2) continue;
    const pts = a.steps.map((st) => {
      const its = st.map((id) => items.get(id));
      const x = its.reduce((s, it) => s + cx(it.col), 0) / its.length;
      const y = its.reduce((s, it) => s + cy(it.row), 0) / its.length;
      return `${x},${y}`;
    });
    if (a.kind !== "bamboo") root.append(svg("polyline", { points: pts.join(" "), fill: "none",
      stroke: "#c9c2ad", "stroke-width": 3, "stroke-dasharray": "2 5", class: "tk-order" }));
  }

  // items
  for (const it of layout.items) {
    const x = cx(it.col), y = cy(it.row);
    const c = coloured.get(it.id);
    const state = c ? "coloured" : passed.has(it.id) ? "passed" : locked.has(it.id) ? "locked"
      : open.has(it.id) ? "open" : "later";
    const g = svg("g", { id: prefix + it.id, class: `tk-item ${state}`, "data-item": it.id });
    const printed = it.colour;
    const fill = c ? INK[c.ink] : TINT[printed] || "#eee";
    const stroke = printed === "any" ? "#7a7a7a" : INK[printed];
    g.append(svg("rect", { x: x - U / 2 + 2, y: y - U / 2 + 2, width: U - 4, height: U - 4, rx: 8,
      class: "hit", fill: "transparent" }));
    const shape = body(it.kind, it, x, y, fill, c ? "#1d1d1f" : stroke);
    if (printed === "any" && !c) shape.setAttribute("stroke-dasharray", "5 3");
    g.append(shape);
    // the symbol the marker must show
    const symFill = c ? "#fff" : "none";
    const symStroke = c ? "#1d1d1f" : printed === "any" ? "#555" : INK[printed];
    const sx = it.kind === "bamboo" ? x + 8 : it.kind === "fish" ? x - 6 : x;
    const sy = it.kind === "bamboo" ? y - 8 : it.kind === "fish" ? y : it.points ? y - 8 : y;
    g.append(symbolShape(it.symbol, sx, sy, 8, { fill: symFill, stroke: symStroke, "stroke-width": 2.2,
      class: "tk-symbol" }));
    if (it.points) {
      const px = it.kind === "bamboo" ? x - 20 : x;
      const py = it.kind === "bamboo" ? y - 3 : it.kind === "fish" ? y + 28 : y + 15;
      g.append(svg("text", {
        x: px, y: py, "text-anchor": "middle", "font-size": 15, "font-weight": 700,
        fill: it.kind === "bamboo" || it.kind === "fish" ? "#0d3b12" : c && TEXT_ON[c.ink] === "#fff" ? "#fff"
          : "#1d1d1f", class: "tk-points",
      }, String(it.points)));
    }
    if (it.kind === "bamboo") {
      g.append(svg("text", { x: x + 4, y: y + 17, "text-anchor": "middle", "font-size": 10,
        fill: c && TEXT_ON[c.ink] === "#fff" ? "#fff" : "#333" }, it.id));
    }
    if (it.label && it.label !== "head") {
      g.append(svg("text", { x, y: y + U / 2 - 4, "text-anchor": "middle", "font-size": 10, fill: "#333" },
        it.label));
    } else if (it.label === "head") {
      g.append(svg("text", { x: x - 6, y: y + 22, "text-anchor": "middle", "font-size": 10,
        fill: c ? "#fff" : "#333" }, "head"));
    }
    if (it.grants.length) {
      g.append(svg("text", { x: x - U / 2 + 6, y: y - U / 2 + 19, "font-size": 19, "font-weight": 800,
        fill: "#0b57d0", class: "tk-grant" }, "+"));
    }
    if (ctx.cb) {
      // in the bottom corners; above a word written along the bottom (the
      // letters ran into the ids and words)
      const letter = printed === "any" ? "*" : printed;
      const ly = (it.label && it.label !== "head") || state === "locked" ? y + U / 2 - 18 : y + U / 2 - 6;
      g.append(svg("text", { x: x + U / 2 - 8, y: ly, "text-anchor": "end", "font-size": 12,
        "font-weight": 700, fill: "#1d1d1f", class: "cb-letter" }, letter));
      // the marker used: bottom left, above a first-player box drawn there
      // (the dragon's head writes "head" along its bottom left: the letter goes above it)
      const iy = raceAt.has(it.id) ? y + 14 : it.label === "head" ? y + 6 : ly;
      if (c && c.ink !== printed) g.append(svg("text", { x: x - U / 2 + 8, y: iy, "font-size": 12,
        "font-weight": 700, fill: "#1d1d1f", class: "cb-letter" }, c.ink));
    }
    if (state === "passed" || state === "locked") {
      g.append(svg("line", { x1: x - 20, y1: y - 20, x2: x + 20, y2: y + 20, stroke: "#5f6368",
        "stroke-width": 3 }));
      g.append(svg("line", { x1: x - 20, y1: y + 20, x2: x + 20, y2: y - 20, stroke: "#5f6368",
        "stroke-width": 3 }));
      if (state === "locked") g.append(svg("text", { x, y: y + U / 2 - 3, "text-anchor": "middle",
        "font-size": 10, fill: "#b3261e", "font-weight": 700 }, "locked"));
    }
    let title = `${it.id}: ${NAME[printed]}` +
      ` ${it.symbol}${it.points ? `, ${it.points} point${it.points > 1 ? "s" : ""}` : ""}`;
    if (it.grants.length) title += ` (+ ${it.grants.map((gr) => gr.text).join("; ")})`;
    if (it.requires) title += ` (after ${it.requires})`;
    if (c) title += ` - coloured ${c.free ? "free, " : ""}with the ${NAME[c.ink]} marker`;
    else if (state === "passed") title += " - passed, can no longer be coloured";
    else if (state === "locked") title += " - locked: someone completed theirs first";
    else if (state === "later") title += " - not open yet";
    g.prepend(svg("title", {}, title));
    const choices = lit.get(it.id);
    if (choices) makeLit(g, choices[0], ctx);
    else if (opts.main && via.has(it.id)) {
      const take = via.get(it.id);
      const go = () => { follow = { take: take.move, colour: `colour ${it.id}` }; ctx.choose(take.move); };
      clickable(g, go, { label: `${take.label}, then colour ${it.id}`, data: { take: take.move },
        cls: "tk-via" });
    }
    root.append(g);
  }

  // fish hang under their river section: a thin line from the section
  for (const it of layout.items) {
    if (!it.requires) continue;
    const r = items.get(it.requires);
    if (!r) continue;
    root.insertBefore(svg("line", { x1: cx(r.col), y1: cy(r.row), x2: cx(it.col), y2: cy(it.row),
      stroke: "#9cc7e6", "stroke-width": 2, "stroke-dasharray": "3 3" }), root.querySelector(".tk-item"));
  }

  // races: a first-player box beside its anchor
  for (const race of layout.races) {
    const a = items.get(race.anchor);
    if (!a) continue;
    const x = cx(a.col) - U / 2 + 2, y = cy(a.row) + U / 2 - 20;
    const mine = kept.get(race.id);
    const gone = claimed.has(race.id);
    const g = svg("g", { id: prefix + race.id, class: "tk-race" + (mine ? " reached" : "") },
      svg("title", {},
        `${race.label}: ${race.first} for the first to get there, ${race.later}` +
          ` after${gone ? " (the first is taken)" : ""}${mine ? ` - kept ${mine.points}` : ""}`));
    g.append(svg("rect", { x, y, width: 40, height: 18, rx: 4, fill: "#fff", stroke: "#5f6368",
      "stroke-width": 1.2 }));
    const n1 = svg("text", { x: x + 10, y: y + 14, "text-anchor": "middle", "font-size": 13,
      "font-weight": 700 }, String(race.first));
    const n2 = svg("text", { x: x + 30, y: y + 14, "text-anchor": "middle", "font-size": 13,
      "font-weight": 700 }, String(race.later));
    g.append(n1, svg("line", { x1: x + 20, y1: y + 2, x2: x + 20, y2: y + 16, stroke: "#5f6368" }), n2);
    if (gone && !(mine && mine.kept === "first")) g.append(svg("line", { x1: x + 3, y1: y + 15, x2: x + 17,
      y2: y + 3, stroke: "#b3261e", "stroke-width": 2 }));
    if (mine) g.append(svg("circle", { cx: mine.kept === "first" ? x + 10 : x + 30, cy: y + 9, r: 9.5,
      fill: "none", stroke: "#137333", "stroke-width": 2.2 }));
    root.append(g);
  }

  // ladybugs beside their anchor (top right of its cell)
  const perAnchor = new Map();
  for (const lb of layout.ladybugs) {
    const a = items.get(lb.anchor);
    if (!a) continue;
    const k = perAnchor.get(lb.anchor) || 0;
    perAnchor.set(lb.anchor, k + 1);
    const x = cx(a.col) + U / 2 - 12 - k * 22, y = cy(a.row) - U / 2 + 12;
    const on = circled.has(lb.id);
    root.append(ladybugIcon(x, y, on, prefix + lb.id, `ladybug: ${lb.label}${on ? " - circled" : ""}`));
  }

  // the score area as printed: every row, what it counts now and its points
  const y0 = gridH;
  const scores = (ctx.view.scores || [])[seatBoard.seat] || { rows: {}, total: 0 };
  const g = svg("g", { id: prefix + "tk-scoring", class: "tk-scoring" });
  g.append(svg("rect", { x: PAD, y: y0, width: W - 2 * PAD, height: H - y0 - 10, rx: 8, fill: "#fff",
    stroke: "#b9b09a" }));
  g.append(svg("text", { x: PAD + 10, y: y0 + 22 * F, "font-size": 15 * F, "font-weight": 700 }, "Score"));
  g.append(svg("text", { x: W - PAD - 70 * F, y: y0 + 22 * F, "font-size": 12 * F, fill: "#5f6368",
    "text-anchor": "end" }, "counts now"));
  layout.scoring.forEach((row, k) => {
    const y = y0 + (34 + (k + 1) * 26 - 8) * F;
    const rg = svg("g", { class: "tk-row", "data-row": row.row }, svg("title", {}, row.text));
    rg.append(svg("text", { x: PAD + 10, y, "font-size": 14 * F }, row.row));
    rg.append(svg("text", { x: W - PAD - 70 * F, y, "font-size": 13 * F, fill: "#5f6368",
      "text-anchor": "end" }, (seatBoard.pad || {})[row.row] || ""));
    rg.append(svg("text", { x: W - PAD - 12, y, "font-size": 15 * F, "font-weight": 700,
      "text-anchor": "end" }, String(scores.rows[row.row] ?? 0)));
    g.append(rg);
  });
  const yt = y0 + (34 + (layout.scoring.length + 1) * 26 - 8) * F;
  g.append(svg("line", { x1: PAD + 8, y1: yt - 18 * F, x2: W - PAD - 8, y2: yt - 18 * F, stroke: "#1d1d1f",
    "stroke-width": 1.5 }));
  g.append(svg("text", { x: PAD + 10, y: yt, "font-size": 15 * F, "font-weight": 700 }, "total"));
  g.append(svg("text", { x: W - PAD - 70 * F, y: yt, "font-size": 13 * F, fill: "#5f6368",
    "text-anchor": "end" },
    `ladybugs ${(seatBoard.ladybugs || []).length} of ${layout.ladybugs_to_end} to end`));
  g.append(svg("text", { x: W - PAD - 12, y: yt, "font-size": 16 * F, "font-weight": 800,
    "text-anchor": "end", class: "tk-total" }, String(scores.total)));
  root.append(g);
  return root;
}

// ------------------------------------------------------------------ the page
export function draw(container, ctx) {
  const { layout, board, view } = ctx;
  if (!layout || !layout.items || !board.seats) {
    container.append(el("pre", { class: "sheet" }, view.text || ""));
    return;
  }
  ctx = { ...ctx, container, narrow: container.clientWidth > 0 && container.clientWidth < 560 };
  if (follow) {
    if (ctx.lit.has(follow.colour)) {
      const move = follow.colour;
      follow = null;
      setTimeout(() => ctx.choose(move), 0);
    } else if (!ctx.lit.has(follow.take)) {
      follow = null;
    }
  }
  const seats = board.seats;
  // the viewer's sheet large; a spectator's large sheet stays the first seat's (not jumping
  // from seat to seat with the turn)
  const mainSeat = ctx.seat !== null && ctx.seat !== undefined ? ctx.seat : 0;
  const wrap = el("div", { class: "tk" + (ctx.cb ? " cb" : "") });
  const sheetTitle = layout.sheet.title + (layout.sheet.reconstructed ? " *" : "");
  wrap.append(el("div", { class: "tk-head" },
    el("h2", {}, "The roll"),
    el("p", { class: "tk-sentence", id: "tk-sentence" }, board.sentence || ""),
    board.free ? el("p", { class: "tk-free" }, `Free colouring: ${board.free.text}` +
      (board.free.remaining > 1 ? ` (${board.free.remaining} to colour)` : "") +
      (board.free.queued && board.free.queued.length ? `, then ${board.free.queued.join("; ")}` : ""))
        : null));
  wrap.append(el("div", { class: "tk-roll-wrap" }, drawRoll(ctx)));
  const main = seats[mainSeat] || seats[0];
  const who = main.seat === ctx.seat ? "Your sheet" : `${main.name}'s sheet`;
  wrap.append(el("h2", {}, who, " ", el("span", { class: "small muted", title: layout.sheet.note || "" },
    sheetTitle)));
  wrap.append(el("div", { class: "tk-main" }, drawSheet(ctx, main, { main: true, prefix: "" })));
  wrap.append(legend(ctx));
  const others = seats.filter((s) => s.seat !== main.seat);
  if (others.length) {
    const grid = el("div", { class: "tk-others" });
    for (const s of others) {
      const total = (view.scores[s.seat] || {}).total;
      const tomove = board.to_move === s.seat ? " (to move)" : "";
      // each as large as the player's own (they were thumbnails), open until
      // the player folds it away, then as the player left it
      const d = el("details", { class: "other-sheet other", "data-seat": s.seat,
        open: othersOpen.get(s.seat) !== false },
        el("summary", {},
          `${s.name}: ${total ?? 0} points, ${s.ladybugs.length}` +
            ` ladybug${s.ladybugs.length === 1 ? "" : "s"}${tomove}`),
        drawSheet(ctx, s, { main: false, prefix: `s${s.seat}-` }));
      d.addEventListener("toggle", () => othersOpen.set(s.seat, d.open));
      grid.append(d);
    }
    wrap.append(grid);
  }
  container.append(wrap);
}

const othersOpen = new Map();   // seat -> whether its sheet's box is open (kept across redraws)

function legend(ctx) {
  const items = [
    ["tk-l-open", "lit: you may colour it now"],
    ["tk-l-later", "faded: not open yet"],
    ["tk-l-passed", "crossed: passed or locked"],
    ["tk-l-plus", "+ a free colouring"],
    ["tk-l-bug", "ladybug (ringed once circled)"],
    ["tk-l-race", "first / later numbers"],
  ];
  return el("p", { class: "tk-legend small muted" },
    items.map(([c, t]) => el("span", { class: c }, t)),
    ctx.cb ? el("span", {},
      "letters: B blue, Y yellow, P pink, G green, * any colour; bottom left: the marker used") : null);
}
