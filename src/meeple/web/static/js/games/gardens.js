// Pick a Pen: Gardens: the sheets and the pencils as SVG, from the layout (the sheet's hex
// fields, gardens, fountain, flowers, trees and score area) and the board (every seat's marks,
// the pencils, the viewer's choices). Nothing here is fixed per printed sheet: a user's own
// sheet draws the same way. Only the viewer's sheet (seat 0's for a spectator) carries the
// layout's element ids, so a choice's target names exactly one element to light and click.
import { RECONSTRUCTED, clickable, el, svg } from "../common.js";

const U = 24;                 // layout units (hex size 1) -> SVG units
const INK = "#1d1d1f";
const PAPER = "#fffdf4";
const FILL = {
  orange: "#f08a24", red: "#d63a2f", green: "#3a9a3f", blue: "#2a6fd6", purple: "#8a4bb0",
};
const LETTER = { orange: "O", red: "R", green: "G", blue: "B", purple: "P" };
const LIGHT = {
  orange: "#fde3c8", red: "#f8d2ce", green: "#d3ecd3", blue: "#d2e2f8", purple: "#e6d6ef",
};
const open = new Map();       // seat -> whether its <details> is open (kept across redraws)

// ---------------------------------------------------------------- small helpers
const fmt = (n) => String(Math.round(n * 100) / 100);
const pts = (list) => list.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(" ");
const title = (text) => svg("title", {}, text);
const plural = (n, word) => `${n} ${word}${Math.abs(n) === 1 ? "" : "s"}`;

function starPath(cx, cy, r) {
  const out = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 ? r * 0.48 : r;
    out.push([cx + rr * Math.cos(a), cy + rr * Math.sin(a)]);
  }
  return pts(out);
}

function star(cx, cy, r, value, state, attrs = {}) {
  // state: "open" | "got" (reached / taken) | "lost" (someone else has it: crossed out)
  const g = svg("g", { class: `gd-star gd-star-${state}`, ...attrs },
    svg("polygon", { class: "hit", points: starPath(cx, cy, r),
      fill: state === "got" ? "#ffc62b" : "#fff6d6", stroke: "#b07a00", "stroke-width": 1.4 }),
    svg("text", { x: cx, y: cy + r * 0.2, "text-anchor": "middle", "dominant-baseline": "middle",
      "font-size": r * 0.78, "font-weight": 700, fill: INK }, String(value)));
  if (state === "lost") {
    g.append(svg("line", { x1: cx - r, y1: cy - r, x2: cx + r, y2: cy + r, stroke: INK,
      "stroke-width": 2.4 }),
      svg("line", { x1: cx - r, y1: cy + r, x2: cx + r, y2: cy - r, stroke: INK, "stroke-width": 2.4 }));
  }
  return g;
}

function check(cx, cy) {
  // a ticked box: a check mark in a small disc at its corner
  return svg("g", { class: "gd-check", "pointer-events": "none" },
    svg("circle", { cx, cy, r: 6.5, fill: "#fff", stroke: INK, "stroke-width": 1.2 }),
    svg("path", { d: `M${cx - 3.2} ${cy} l2.2 2.4 l4.2 -4.8`, fill: "none", stroke: INK, "stroke-width": 1.8,
      "stroke-linecap": "round", "stroke-linejoin": "round" }));
}

function flowerIcon(cx, cy, r, colour, letter) {
  const g = svg("g", { class: "gd-flower", "pointer-events": "none" });
  for (let i = 0; i < 5; i++) {
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / 5;
    g.append(svg("circle", { cx: cx + r * 0.55 * Math.cos(a), cy: cy + r * 0.55 * Math.sin(a), r: r * 0.45,
      fill: colour ? FILL[colour] : "#fff", stroke: colour ? "#fff" : INK, "stroke-width": 1 }));
  }
  g.append(svg("circle", { cx, cy, r: r * 0.32, fill: "#ffe14d", stroke: "#7a5b00", "stroke-width": 0.8 }));
  if (letter) {
    g.append(svg("text", { x: cx, y: cy + 0.5, "text-anchor": "middle", "dominant-baseline": "middle",
      "font-size": r * 0.55, "font-weight": 700, fill: INK }, LETTER[colour]));
  }
  return g;
}

function treeIcon(cx, cy, r, colour, white = false) {
  return svg("g", { class: "gd-tree", "pointer-events": "none" },
    svg("rect", { x: cx - r * 0.14, y: cy + r * 0.35, width: r * 0.28, height: r * 0.5, fill: "#6b4423" }),
    svg("polygon", { points: pts([[cx, cy - r], [cx + r * 0.75, cy + r * 0.45], [cx - r * 0.75,
      cy + r * 0.45]]),
      fill: white ? "#fff" : colour ? FILL[colour] : "#1f6b2e", stroke: white ? INK : "#fff",
        "stroke-width": 1.2 }));
}

function pencilShape(x, y, w, h, colour, attrs = {}) {
  // a pencil lying flat: body from x to x+w, point to the right
  const tip = h * 0.9;
  return svg("g", attrs,
    svg("rect", { x, y, width: w - tip, height: h, rx: 2, fill: colour ? FILL[colour] : "#fff", stroke: INK,
      "stroke-width": 1.2 }),
    svg("polygon", { points: pts([[x + w - tip, y], [x + w, y + h / 2], [x + w - tip, y + h]]),
      fill: "#f3d9a8", stroke: INK, "stroke-width": 1.2 }),
    svg("polygon", { points: pts([[x + w - tip * 0.3, y + h * 0.35], [x + w, y + h / 2], [x + w - tip * 0.3,
      y + h * 0.65]]), fill: colour ? FILL[colour] : INK }));
}

// A pencil card's colour letter: white edged in ink on the pencil's full colour; on a faded
// pencil (taken or used up) the pale body would swallow white, so the letter is ink there.
function pencilLetter(x, y, size, letter, faded) {
  const ink = faded ? { fill: INK, opacity: 0.75 }
    : { fill: "#fff", stroke: INK, "stroke-width": 0.6, "paint-order": "stroke" };
  return svg("text", { class: "gd-pencil-letter", x, y, "font-size": size, "font-weight": 700, ...ink },
    letter);
}

// Make an element a lit, clickable choice when its target is legal now.
function wire(node, id, ctx, targets) {
  const move = targets.get(id);
  if (move === undefined) return;
  clickable(node, () => ctx.choose(move), { label: ctx.labels.get(move) || move, data: { move } });
}

// The element's id on the viewer's sheet; on the others a data attribute only.
function ident(id, main) { return main ? { id, "data-el": id } : { "data-el": id }; }

// ---------------------------------------------------------------- the hex map
function drawMap(layout, board, mark, ctx, main, targets) {
  const b = layout.bounds;
  const pad = 0.4;
  const x0 = (b.min_x - pad) * U, y0 = (b.min_y - pad) * U;
  const w = (b.max_x - b.min_x + 2 * pad) * U, h = (b.max_y - b.min_y + 2 * pad) * U;
  const root = svg("svg", { class: "gd-map", viewBox: `${fmt(x0)} ${fmt(y0)} ${fmt(w)} ${fmt(h)}`,
    role: "img", "aria-label": `${mark.name}'s gardens` });
  const corners = layout.hex.corners;
  const sides = new Map(layout.hex.sides.map((s) => [s.name, s]));
  const poly = (x, y, k = 1) => pts(corners.map(([cx, cy]) => [(x + cx * k) * U, (y + cy * k) * U]));
  const gardenOf = new Map(layout.gardens.map((g) => [g.id, g]));
  const gmark = new Map((mark.gardens || []).map((g) => [g.id, g]));
  const hand = board.hand && board.hand.seat === mark.seat ? board.hand : null;
  const current = new Set(hand ? hand.coloured : []);

  // water first, then fields, then the thick garden borders over everything
  const water = svg("g", { class: "gd-fountain" });
  for (const f of layout.fountain) {
    water.append(svg("polygon", { ...ident(f.id, main), points: poly(f.x, f.y), fill: "#9fd3f0",
      stroke: "#5aa7d6", "stroke-width": 1 },
      title("the fountain")));
  }
  if (layout.fountain.length) {
    const cx = layout.fountain.reduce((s, f) => s + f.x, 0) / layout.fountain.length * U;
    const cy = layout.fountain.reduce((s, f) => s + f.y, 0) / layout.fountain.length * U;
    water.append(svg("g", { "pointer-events": "none" },
      svg("circle", { cx, cy, r: U * 0.55, fill: "#e8f6ff", stroke: "#2f86c0", "stroke-width": 1.5 }),
      svg("path", { d: `M${cx - U * 0.3} ${cy + 2} q${U * 0.15} -6 ${U * 0.3} 0 t${U * 0.3} 0`, fill: "none",
        stroke: "#2f86c0", "stroke-width": 1.5 }),
      svg("path", { d: `M${cx} ${cy - U * 0.4} l0 ${U * 0.25}`, stroke: "#2f86c0", "stroke-width": 1.5 })));
  }
  root.append(water);

  const fields = svg("g", { class: "gd-fields" });
  for (const f of layout.fields) {
    const colour = mark.coloured[f.id] || null;
    const x = f.x * U, y = f.y * U;
    const garden = gardenOf.get(f.garden);
    const gm = gmark.get(f.garden);
    const words = [`field ${f.id}`,
      `garden ${garden ? garden.label : f.garden} (${plural(garden ? garden.size : 1, "field")}` +
      (gm ? (gm.completed ? `, completed${gm.by ? " " + gm.by : ""})` : `, ${gm.left} left)`) : ")")];
    if (f.flower) words.push(`${f.flower} flower`);
    if (f.tree) words.push("tree");
    if (f.outer) words.push("outer field");
    words.push(colour ? `coloured ${colour}` : "not coloured");
    const g = svg("g", { class: `gd-field${colour ? " coloured" : ""}${current.has(f.id) ? " current" : ""}`,
      ...ident(f.id, main), "data-colour": colour || "" }, title(words.join(" · ")));
    g.append(svg("polygon", { class: "gd-hex", points: poly(f.x, f.y), fill: colour ? FILL[colour] : PAPER,
      stroke: "#b9b4a6", "stroke-width": 0.8 }));
    // in colour-blind mode a coloured field's letter sits left of its flower or tree, the icon
    // moved right to make room (the letters ran into the icons)
    const iconic = f.flower || f.tree;
    const lettered = Boolean(colour && ctx.cb);
    const ix = lettered && iconic ? x + U * 0.2 : x;
    if (f.flower) g.append(flowerIcon(ix, y + (colour ? 1 : 2), U * 0.36, f.flower, ctx.cb));
    if (f.tree) g.append(treeIcon(ix, y + 2, U * 0.4, null));
    if (lettered) {
      g.append(svg("text", { class: "gd-cb", x: iconic ? x - U * 0.45 : x, y: iconic ? y + 1 : y + 1.5,
        "text-anchor": "middle", "dominant-baseline": "middle", "font-size": iconic ? 11 : 13,
          "font-weight": 700,
        fill: "#fff", stroke: INK, "stroke-width": 0.6, "paint-order": "stroke" }, LETTER[colour]));
    }
    if (current.has(f.id)) {
      g.append(svg("polygon", { points: poly(f.x, f.y, 0.72), fill: "none", stroke: "#fff", "stroke-width": 2,
        "stroke-dasharray": "3 2" }));
    }
    const lit = main && targets.has(f.id);
    if (lit) {
      g.append(svg("polygon", { class: "hit gd-lit-ring", points: poly(f.x, f.y, 0.8),
        fill: hand ? LIGHT[hand.colour] : "#fff3c4",
        "fill-opacity": 0.55, stroke: "#ffb300", "stroke-width": 3 }));
    }
    if (main) {
      // the id over the lit ring, dark on its light tint (it hid under it)
      g.append(svg("text", { class: "gd-id", x, y: y - U * 0.56, "text-anchor": "middle",
        "dominant-baseline": "middle", "pointer-events": "none",
        "font-size": 8, "font-weight": lit ? 700 : 400, fill: lit ? INK : colour ? "#fff" : "#8a857a" },
        f.id));
      wire(g, f.id, ctx, targets);
    }
    fields.append(g);
  }
  root.append(fields);

  const borders = svg("g", { class: "gd-borders", "pointer-events": "none", stroke: "#2b4a1f",
    "stroke-width": 3.4, "stroke-linecap": "round" });
  for (const f of layout.fields) {
    for (const b of f.borders) {
      const s = sides.get(b.side);
      if (!s) continue;
      borders.append(svg("line", { x1: fmt((f.x + s.start[0]) * U), y1: fmt((f.y + s.start[1]) * U),
        x2: fmt((f.x + s.end[0]) * U), y2: fmt((f.y + s.end[1]) * U), "data-against": b.against }));
    }
  }
  root.append(borders);

  // garden labels, small, where the view suggests
  if (main) {
    const labels = svg("g", { class: "gd-labels", "pointer-events": "none" });
    for (const gd of layout.gardens) {
      const f = layout.fields.find((x) => x.id === gd.label_field);
      if (!f) continue;
      const gm = gmark.get(gd.id);
      labels.append(svg("text", { x: f.x * U, y: f.y * U + U * 0.74, "text-anchor": "middle",
        "font-size": 8.5, "font-style": "italic", "font-weight": 600,
          fill: mark.coloured[f.id] ? "#fff" : "#6b6658" },
        gd.label + (gm && gm.completed ? "✓" : "")));
    }
    root.append(labels);
  }
  return root;
}

// ---------------------------------------------------------------- the score area
function drawPad(layout, board, mark, ctx, main, targets, total) {
  const sc = layout.score;
  const W = 300;
  const root = svg("svg", { class: "gd-pad", role: "img", "aria-label": `${mark.name}'s score area` });
  const S = 32, GAP = 5;      // box size and gap
  const X = 8;
  let y = 6;
  const head = (text, right) => {
    root.append(svg("text", { x: X, y: y + 13, "font-size": 13, "font-weight": 700, fill: INK }, text));
    if (right !== undefined) {
      root.append(svg("text", { x: W - 8, y: y + 13, "font-size": 13, "font-weight": 700,
        "text-anchor": "end", fill: "#5f6368" }, right));
    }
    y += 20;
  };
  const rows = (ctx.view.scores[mark.seat] || {}).rows || {};
  const sum = (keys) => keys.reduce((s, k) => s + (Number(rows[k]) || 0), 0);
  const box = (x, yy, id, { value, colour, ticked, icon, tip }) => {
    const g = svg("g", { class: `gd-box${ticked ? " ticked" : ""}`, ...ident(id, main) }, title(tip));
    g.append(svg("rect", { class: "hit", x, y: yy, width: S, height: S, rx: 3,
      fill: colour ? (ticked ? FILL[colour] : LIGHT[colour]) : (ticked ? "#3d3d45" : "#fff"),
      stroke: colour ? FILL[colour] : "#888", "stroke-width": 2 }));
    if (colour === null && !icon) {
      // a colourful box: five colour stripes along the top
      Object.keys(FILL).forEach((c, i) => g.append(svg("rect", { x: x + 2 + i * (S - 4) / 5, y: yy + 2,
        width: (S - 4) / 5, height: 5, fill: FILL[c] })));
    }
    if (icon === "flower") g.append(flowerIcon(x + S / 2, yy + S / 2 - 3, S * 0.3, ticked ? null : colour,
      false));
    if (icon === "tree") g.append(treeIcon(x + S / 2, yy + S / 2 - 1, S * 0.34, ticked ? null : colour,
      ticked));
    // in colour-blind mode the colour's letter takes the box's top left corner and a plain
    // box's value moves down right, clear of it ("O2" read as one label)
    const lettered = Boolean(ctx.cb && colour);
    if (value !== null && value !== undefined && icon !== "tree") {
      const vx = lettered && !icon ? x + S * 0.62 : x + S / 2;
      const vy = yy + (icon ? S - 4 : lettered ? S - 6 : S / 2 + 5);
      g.append(svg("text", { x: vx, y: vy, "text-anchor": "middle",
        "font-size": icon ? 9 : 13,
        "font-weight": 700, fill: ticked ? "#fff" : INK }, String(value)));
    }
    if (lettered) {
      g.append(svg("text", { class: "gd-cb", x: x + 3, y: yy + 10, "font-size": 9, "font-weight": 700,
        fill: ticked ? "#fff" : INK }, LETTER[colour]));
    }
    if (ticked) g.append(check(x + S - 3, yy + 3));
    if (main) wire(g, id, ctx, targets);
    return g;
  };

  root.append(svg("text", { x: X, y: y + 14, "font-size": 15, "font-weight": 700, fill: INK },
    `${mark.name}`),
    svg("text", { x: W - 8, y: y + 14, "font-size": 15, "font-weight": 700, "text-anchor": "end", fill: INK },
      Math.abs(total) === 1 ? `${total} point` : `${total} points`));
  y += 24;
  root.append(svg("text", { x: X, y: y + 11, "font-size": 12, fill: "#5f6368" },
    `${plural(mark.coloured_count, "field")} coloured, ${mark.fields_left} left`));
  y += 20;

  // single-colour gardens: a row of boxes per printed row, each ending in its star
  const single = sc.single_colour;
  head("Gardens all one colour", `${sum(single.score_rows)}`);
  single.rows.forEach((row, k) => {
    const mrow = (mark.rows || [])[k] || { ticked: [], star: false };
    row.boxes.forEach((bx, i) => {
      const ticked = (mark.boxes[bx.colour] || 0) > k;
      root.append(box(X + i * (S + GAP), y, bx.id, { value: bx.value, colour: bx.colour, ticked,
        tip: `${bx.colour} garden box, row ${row.row}: ${bx.value} points${ticked ? " (ticked)" : ""}` }));
    });
    const sx = X + 5 * (S + GAP) + 20;
    root.append(star(sx, y + S / 2, 15, row.star.value, mrow.star ? "got" : "open",
      { ...ident(row.star.id, main) }));
    root.lastChild.append(title(`row ${row.row} star: ${row.star.value} points once every colour has its` +
      ` box in this row`));
    y += S + GAP;
  });
  y += 6;

  if (sc.colourful) {
    head("Colourful gardens (all five colours)", `${sum(sc.colourful.score_rows)}`);
    sc.colourful.boxes.forEach((bx, i) => {
      const ticked = mark.colourful > i;
      root.append(box(X + i * (S + GAP), y, bx.id, { value: bx.value, colour: null, ticked,
        tip: `colourful garden box ${i + 1}: ${bx.value} points${ticked ? " (ticked)" : ""}` }));
    });
    if (sc.colourful.star) {
      root.append(star(X + 5 * (S + GAP) + 20, y + S / 2, 15, sc.colourful.star.value,
        mark.colourful_star ? "got" : "open",
        { ...ident(sc.colourful.star.id, main) }, ));
      root.lastChild.append(title(`colourful star: ${sc.colourful.star.value} points for every colourful` +
        ` box`));
    }
    y += S + GAP + 6;
  }

  for (const [key, part, have, got, word] of [
    ["flower", sc.flowers, mark.flowers || [], mark.flower_star, "Flowers (in their own colour)"],
    ["tree", sc.trees, mark.trees || [], mark.tree_star, "Trees (one box per colour)"]]) {
    if (!part) continue;
    head(word, `${sum(part.score_rows)}`);
    part.boxes.forEach((bx, i) => {
      const ticked = have.includes(bx.colour);
      root.append(box(X + i * (S + GAP), y, bx.id, { value: key === "flower" ? bx.value : null,
        colour: bx.colour, ticked, icon: key,
        tip: `${bx.colour} ${key}` +
          ` box${key === "flower" ? `: ${bx.value} points` : ""}${ticked ? " (ticked)" : ""}` }));
    });
    root.append(star(X + 5 * (S + GAP) + 20, y + S / 2, 15, part.star.value, got ? "got" : "open",
      { ...ident(part.star.id, main) }));
    root.lastChild.append(title(`${key} star: ${part.star.value} points for all five ${key} boxes`));
    y += S + GAP + 6;
  }

  // pencil symbols: crossed left to right when a pencil is wasted
  head("Wasted pencils", `${Number(rows.pencils) || 0}`);
  const PW = Math.min(60, (W - 2 * X) / sc.pencils.length - 4);
  sc.pencils.forEach((p, i) => {
    const x = X + i * (PW + 4);
    const crossed = mark.pencils_crossed > i;
    const g = svg("g", { class: `gd-symbol${crossed ? " crossed" : ""}`, ...ident(p.id, main) },
      title(`pencil symbol ${p.number}:` +
        ` ${p.penalty}${p.ends_game ? ", crossing it ends the game" : ""}${crossed ? " (crossed)" : ""}`));
    g.append(svg("rect", { class: "hit", x: x - 2, y: y - 2, width: PW, height: S + 4, rx: 4, fill: "#fff",
      stroke: p.ends_game ? "#b3261e" : "#bbb", "stroke-width": p.ends_game ? 1.6 : 1 }));
    g.append(pencilShape(x + 3, y + 3, PW - 10, 10, null));
    g.append(svg("text", { x: x + PW / 2 - 2, y: y + S - 2, "text-anchor": "middle", "font-size": 12,
      "font-weight": 700,
      fill: p.ends_game ? "#b3261e" : INK }, `${p.penalty}${p.ends_game ? " end" : ""}`));
    if (crossed) {
      g.append(svg("line", { x1: x + 4, y1: y, x2: PW + x - 8, y2: y + 16, stroke: "#b3261e",
        "stroke-width": 2.6, "stroke-linecap": "round" }),
        svg("line", { x1: x + 4, y1: y + 16, x2: PW + x - 8, y2: y, stroke: "#b3261e", "stroke-width": 2.6,
          "stroke-linecap": "round" }));
    }
    if (main) wire(g, p.id, ctx, targets);
    root.append(g);
  });
  y += S + GAP + 8;

  // bonus goals: a star each, crossed out once another seat has it
  head("Bonus goals");
  const gm = new Map((board.goals || []).map((g) => [g.id, g]));
  const progress = (goal) => {
    switch (goal.kind) {
      case "outer": return `${mark.outer_coloured}/${goal.target}`;
      case "all": return `${mark.coloured_count}/${goal.target}`;
      case "flowers": return `${mark.flower_fields}/${goal.target}`;
      case "four": return `${(mark.single_colour_gardens || {})[goal.colour] || 0}/${goal.target}`;
      case "largest": return `now ${mark.largest_area}`;
      default: return "";
    }
  };
  const short = (goal) => ({
    outer: "first: all outer fields", all: "first: all fields (ends)", flowers: "first: all flower fields",
    four: `first: ${goal.target} gardens all ${goal.colour}`, largest: "largest area, at the end",
  }[goal.kind] || goal.label);
  const GH = 32;
  sc.goals.forEach((goal, i) => {
    const gx = X, gy = y + i * GH, gw = W - 2 * X;
    const state = gm.get(goal.id) || { holder: null, decided: false };
    const mine = state.holder === mark.seat;
    const lost = state.decided && !mine;
    const g = svg("g", { class: `gd-goal${mine ? " got" : ""}${lost ? " lost" : ""}`, ...ident(goal.id,
      main) },
      title(`${goal.label}: ${goal.stars} points` + (mine ? " (taken)" : state.holder !== null
        ? ` (${state.holder_name} has it)` : lost ? " (nobody gets it)" : "")));
    g.append(svg("rect", { x: gx, y: gy, width: gw, height: GH - 3, rx: 5,
      fill: goal.colour ? LIGHT[goal.colour] : "#f4f2ea", stroke: "#ddd" }));
    g.append(star(gx + 16, gy + GH / 2 - 1, 13, goal.stars, mine ? "got" : lost ? "lost" : "open"));
    g.append(svg("text", { x: gx + 34, y: gy + GH / 2 + 3, "font-size": 12, "font-weight": 600, fill: INK },
      short(goal) + (ctx.cb && goal.colour ? ` (${LETTER[goal.colour]})` : "")));
    const status = mine ? "yours" : state.holder !== null ? `${state.holder_name}` : lost ? "nobody (tie)"
      : progress(goal);
    g.append(svg("text", { x: gx + gw - 6, y: gy + GH / 2 + 3, "text-anchor": "end", "font-size": 11.5,
      "font-weight": mine || lost ? 700 : 400, fill: mine ? "#137333" : lost ? "#b3261e" : "#5f6368" },
        status));
    root.append(g);
  });
  y += sc.goals.length * GH + 2;
  root.setAttribute("viewBox", `0 0 ${W} ${y}`);
  return root;
}

// ---------------------------------------------------------------- the middle
function drawMiddle(layout, board, ctx, targets) {
  // one small SVG per pencil, in a wrapping row: five across on a wide page; on a phone five
  // narrow cards in one row (two rows of large ones pushed the sheet down)
  if (narrowPage()) return drawMiddleNarrow(board, ctx, targets);
  const names = ctx.view.seats.map((s) => s.name);
  const W = 128, H = 112;
  const row = el("div", { class: "gd-pencils", role: "group", "aria-label": "the pencils" });
  board.pencils.forEach((p) => {
    const x = 12, w = W - 24;
    const faded = p.where === "used" || p.where === "unrolled";
    const where = pencilPlace(p, board, names);
    const g = svg("g", { class: `gd-pencil where-${p.where}`, id: p.id, "data-el": p.id,
      "data-face": p.face ?? "" },
      title(`${p.colour} pencil` + (p.face ? ` showing ${p.face}` : "") + `: ${where}`));
    g.append(svg("rect", { class: "hit", x: 3, y: 3, width: W - 6, height: H - 6, rx: 8,
      fill: p.where === "hand" ? LIGHT[p.colour] : "#fff",
        stroke: p.where === "hand" ? FILL[p.colour] : "#ccc",
          "stroke-width": p.where === "hand" ? 3 : 1.2 }));
    g.append(pencilShape(x, 14, w, 26, p.colour, { opacity: faded ? 0.35 : 1 }));
    g.append(pencilLetter(x + 6, 33, 15, p.letter, faded));
    g.append(svg("circle", { cx: x + w * 0.5, cy: 27, r: 15, fill: "#fff", stroke: INK, "stroke-width": 1.4,
      opacity: faded ? 0.6 : 1 }));
    g.append(svg("text", { x: x + w * 0.5, y: 33, "text-anchor": "middle", "font-size": 18,
      "font-weight": 800, fill: INK }, p.face === null ? "?" : String(p.face)));
    g.append(svg("text", { x: W / 2, y: 62, "text-anchor": "middle", "font-size": 14,
      "font-weight": p.where === "hand" ? 700 : 500, fill: INK },
      `${p.colour}`));
    g.append(svg("text", { x: W / 2, y: 80, "text-anchor": "middle", "font-size": 12.5,
      "font-weight": p.where === "middle" ? 600 : 400,
      fill: p.where === "middle" ? "#137333" : "#4a4f55", textLength: where.length > 16 ? W - 16 : undefined,
      lengthAdjust: "spacingAndGlyphs" }, where));
    if (p.where === "hand" && board.hand) {
      g.append(svg("text", { x: W / 2, y: 98, "text-anchor": "middle", "font-size": 12.5, "font-weight": 700,
        fill: INK },
        `${board.hand.face - board.hand.left} of ${board.hand.face} done`));
    } else if (p.face) {
      g.append(svg("text", { x: W / 2, y: 98, "text-anchor": "middle", "font-size": 12.5, fill: "#4a4f55" },
        plural(p.face, "field")));
    }
    wire(g, p.id, ctx, targets);
    row.append(svg("svg", { class: "gd-pencil-card", viewBox: `0 0 ${W} ${H}` }, g));
  });
  return row;
}

// where pencil `p` is, in words: the card's line on a wide page, its title on both
function pencilPlace(p, board, names) {
  return {
    middle: board.phase === "rolling" ? "rolled" : "in the middle",
    hand: `${names[p.holder] ?? "?"} colours`,
    used: p.holder !== null ? `taken by ${names[p.holder]}` : "used",
    unrolled: "not rolled yet",
  }[p.where];
}

function narrowPage() {
  return Boolean(window.matchMedia && window.matchMedia("(max-width: 600px)").matches);
}

// the pencils on a phone: five cards of 66 x 84 in one row, drawn at their size (the words
// short: where the pencil is in a word or a name, then its fields)
function drawMiddleNarrow(board, ctx, targets) {
  const names = ctx.view.seats.map((s) => s.name);
  const W = 66, H = 84;
  const row = el("div", { class: "gd-pencils narrow", role: "group", "aria-label": "the pencils" });
  board.pencils.forEach((p) => {
    const faded = p.where === "used" || p.where === "unrolled";
    const long = pencilPlace(p, board, names);
    const where = {
      middle: board.phase === "rolling" ? "rolled" : "middle", hand: names[p.holder] ?? "?",
      used: p.holder !== null ? names[p.holder] : "used", unrolled: "not rolled",
    }[p.where];
    const g = svg("g", { class: `gd-pencil where-${p.where}`, id: p.id, "data-el": p.id,
      "data-face": p.face ?? "" },
      title(`${p.colour} pencil` + (p.face ? ` showing ${p.face}` : "") + `: ${long}`));
    g.append(svg("rect", { class: "hit", x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 6,
      fill: p.where === "hand" ? LIGHT[p.colour] : "#fff",
      stroke: p.where === "hand" ? FILL[p.colour] : "#ccc", "stroke-width": p.where === "hand" ? 3 : 1.2 }));
    g.append(pencilShape(5, 7, W - 10, 20, p.colour, { opacity: faded ? 0.35 : 1 }));
    g.append(pencilLetter(8, 22, 12, p.letter, faded));
    g.append(svg("circle", { cx: W / 2 + 2, cy: 17, r: 10.5, fill: "#fff", stroke: INK, "stroke-width": 1.2,
      opacity: faded ? 0.6 : 1 }));
    g.append(svg("text", { x: W / 2 + 2, y: 22, "text-anchor": "middle", "font-size": 14, "font-weight": 800,
      fill: INK }, p.face === null ? "?" : String(p.face)));
    g.append(svg("text", { x: W / 2, y: 43, "text-anchor": "middle", "font-size": 12,
      "font-weight": p.where === "hand" ? 700 : 500, fill: INK }, p.colour));
    const fit = (t) => (t.length > 9 ? { textLength: W - 8, lengthAdjust: "spacingAndGlyphs" } : {});
    g.append(svg("text", { x: W / 2, y: 59, "text-anchor": "middle", "font-size": 11,
      "font-weight": p.where === "middle" ? 600 : 400, fill: p.where === "middle" ? "#137333" : "#4a4f55",
      ...fit(where) }, where));
    const hand = p.where === "hand" ? board.hand : null;
    const last = hand ? `${hand.face - hand.left}/${hand.face} done`
      : p.face ? plural(p.face, "field") : "";
    if (last) {
      g.append(svg("text", { x: W / 2, y: 75, "text-anchor": "middle", "font-size": 11,
        "font-weight": p.where === "hand" ? 700 : 400, fill: p.where === "hand" ? INK : "#4a4f55" }, last));
    }
    wire(g, p.id, ctx, targets);
    row.append(svg("svg", { class: "gd-pencil-card", viewBox: `0 0 ${W} ${H}` }, g));
  });
  return row;
}

// ---------------------------------------------------------------- one seat's sheet
function drawSheet(layout, board, mark, ctx, main, targets) {
  const total = (ctx.view.seats[mark.seat] || {}).total ?? 0;
  const wrap = el("div", { class: `gd-sheet${main ? " main" : ""}`, "data-seat": mark.seat });
  wrap.append(el("div", { class: "gd-map-wrap" }, drawMap(layout, board, mark, ctx, main, targets)),
    el("div", { class: "gd-pad-wrap" }, drawPad(layout, board, mark, ctx, main, targets, total)));
  return wrap;
}

// every choice is a click on the drawing (a field, a pencil, a pencil symbol): table.js folds a
// long list of choice buttons away, closed, so the sheet stays in view
export const choicesOnDrawing = true;

export function draw(container, ctx) {
  const layout = ctx.layout || {};
  const board = ctx.board || {};
  if (!layout.fields || !board.seats) {
    container.append(el("p", { class: "muted" }, "Waiting for the sheet…"));
    return;
  }
  const labels = new Map((board.choices || []).map((c) => [c.move, c.label]));
  const targets = new Map();
  for (const c of board.choices || []) {
    if (c.target && ctx.lit.has(c.move)) targets.set(c.target, c.move);
  }
  const dctx = { ...ctx, labels };
  const seats = board.seats;
  const mine = ctx.seat !== null && ctx.seat !== undefined && seats[ctx.seat] ? ctx.seat : 0;
  const root = el("div", { class: `gd${ctx.cb ? " gd-cb-on" : ""}` });

  // the middle: the pencils, who holds what, what the seat to move is doing
  const names = ctx.view.seats.map((s) => s.name);
  const middle = el("div", { class: "gd-middle-wrap" }, drawMiddle(layout, board, dctx, targets));
  const lines = [];
  if (board.hand) {
    const h = board.hand;
    lines.push(`${names[h.seat]}: ${h.colour} pencil (${h.letter}) in hand, ${h.face - h.left} of` +
      ` ${plural(h.face, "field")} coloured, ${h.left} to go` +
      (h.can_waste ? " (or waste it)" : ""));
  }
  lines.push(seats.map((s) => `${s.name}: ${plural(s.fields_left, "field")} left,` +
    ` ${s.pencils_crossed}/${layout.score.pencils.length} pencils wasted`).join(" · "));
  middle.append(...lines.filter(Boolean).map((t) => el("p", { class: "gd-line" }, t)));
  root.append(middle);

  root.append(el("h2", {}, ctx.seat === mine ? "Your sheet" : `${seats[mine].name}'s sheet`,
    el("span", { class: "small muted" }, `  ${layout.name}`)));
  root.append(drawSheet(layout, board, seats[mine], dctx, true, targets));
  const others = seats.filter((s) => s.seat !== mine);
  if (others.length) {
    const grid = el("div", { class: "gd-others" });
    for (const s of others) {
      const d = el("details", { class: "other-sheet other", "data-seat": s.seat }, el("summary", {},
        `${s.name}'s sheet: ${plural((ctx.view.seats[s.seat] || {}).total ?? 0, "point")},` +
          ` ${plural(s.fields_left, "field")} left` +
        (board.seat === s.seat ? " (to move)" : "")));
      // unfolded on a wide page, folded on a phone, then as the player left it
      d.open = open.has(s.seat) ? open.get(s.seat) : !narrowPage();
      d.addEventListener("toggle", () => open.set(s.seat, d.open));
      d.append(drawSheet(layout, board, s, dctx, false, new Map()));
      grid.append(d);
    }
    root.append(grid);
  }
  // a shipped sheet is our reconstruction: said in a player's words (the sheet file's own note
  // is for whoever edits sheets: docs/gardens.md)
  if (layout.reconstructed) root.append(el("p", { class: "small muted gd-note" }, RECONSTRUCTED));
  container.append(root);
}
