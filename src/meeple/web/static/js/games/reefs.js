// Pick a Pen: Reefs: the middle's five pencils, the viewer's sheet large (the lattice of spaces
// and connections, every seat's routes as coloured lines, the items on the spaces, the
// treasure-box rows, the coin row, the propeller boxes and the stars) and every other sheet
// smaller. Everything is drawn from ctx.layout and ctx.board (docs/views/reefs.md); the lit
// choices are the elements whose id is the choice's target.
import { RECONSTRUCTED, clickable, el, svg } from "../common.js";

const U = 56;          // one lattice step, in SVG units
const M = 34;          // margin around the lattice
const COIN_RGB = "#c9a000";
const NEUTRAL_RGB = "#8a8a8a";
const WHIRL_RGB = "#1f6fb5";
const PROP_RGB = "#555";

function lighten(hex, f) {
  const n = parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(v + (255 - v) * f));
  return `rgb(${c.join(",")})`;
}

// the lit choices by target: {target: [choice...]}
function litByTarget(ctx) {
  const out = new Map();
  for (const c of ctx.board.choices || []) {
    if (!c.target || !ctx.lit.has(c.move)) continue;
    if (!out.has(c.target)) out.set(c.target, []);
    out.get(c.target).push(c);
  }
  return out;
}

// a lit choice, its label also its tooltip
function makeLit(node, choice, ctx) {
  const { move } = choice;
  clickable(node, () => ctx.choose(move), { label: choice.label || move, data: { move }, title: true });
}

// ------------------------------------------------------------------ the middle
function drawMiddle(ctx, lit) {
  const { layout, board, view } = ctx;
  const W = 150, H = 118;
  // one small drawing per pencil, so that a narrow page wraps them onto two rows
  const root = el("div", { class: "rf-middle", role: "group", "aria-label": "the middle: the five pencils" });
  const byId = new Map((board.pencils || []).map((p) => [p.id, p]));
  layout.pencils.forEach((pl) => {
    const p = byId.get(pl.id) || { where: "unrolled" };
    const x = 0, y = 5;
    const one = svg("svg", { class: "rf-pencil-box", viewBox: `0 0 ${W} ${H + 10}`, width: "100%" });
    const g = svg("g", { id: pl.id, class: `rf-pencil where-${p.where}`, "data-letter": pl.letter });
    const faded = p.where === "taken";
    g.append(svg("rect", { x: x + 4, y, width: W - 8, height: H, rx: 12,
      fill: faded ? "#eee" : lighten(pl.rgb, 0.78), stroke: pl.rgb,
        "stroke-width": p.where === "drawing" ? 5 : 2 }));
    // the pencil itself
    g.append(svg("polygon",
      { points: `${x + 16},${y + 14} ${x + W - 34},${y + 14} ${x + W - 18},${y + 24}` +
        ` ${x + W - 34},${y + 34} ${x + 16},${y + 34}`,
      fill: pl.rgb, opacity: faded ? 0.45 : 1 }));
    // its colour letter (the colour-blind setting relies on it): white edged in ink on the
    // pencil in full colour; ink on a taken pencil, whose pale body would swallow white
    g.append(svg("text", { x: x + 30, y: y + 30, class: "rf-pletter",
      ...(faded ? { fill: PROP_RGB } : { fill: "#fff", stroke: PROP_RGB, "stroke-width": 0.6,
        "paint-order": "stroke" }) }, pl.letter));
    // a long face ("3 any (propeller)") squeezed to the card's width, not cut at its sides
    const faceText = p.propeller ? "3 any (propeller)" : (p.face_label || "not rolled");
    g.append(svg("text", { x: x + W / 2, y: y + 60, "text-anchor": "middle", class: "rf-face",
      ...(faceText.length > 12 ? { textLength: W - 20, lengthAdjust: "spacingAndGlyphs" } : {}) },
      faceText));
    const whereText = p.where === "middle" ? "in the middle" : p.where === "unrolled" ? "not rolled yet"
      : p.where === "drawing"
        ? `${holderName(view, p.holder)} ${holderName(view, p.holder) === "you" ? "are" : "is"} drawing`
          : p.holder === null || p.holder === undefined
        ? "taken" : `taken by ${holderName(view, p.holder)}`;
    g.append(svg("text", { x: x + W / 2, y: y + 82, "text-anchor": "middle", class: "rf-small" }, whereText));
    const choices = lit.get(pl.id) || [];
    const face = choices.find((c) => c.kind === "pencil");
    const prop = choices.find((c) => c.kind === "propeller");
    if (face) makeLit(g, face, ctx);
    if (prop) {
      const b = svg("g", { class: "rf-propbtn" });
      b.append(svg("rect", { x: x + 14, y: y + 90, width: W - 28, height: 22, rx: 6, fill: "#fff",
        stroke: PROP_RGB }));
      b.append(svg("text", { x: x + W / 2, y: y + 106, "text-anchor": "middle", class: "rf-small" },
        "✣ use a propeller"));
      makeLit(b, prop, ctx);
      g.append(b);
    }
    one.append(g);
    root.append(one);
  });
  return root;
}

// how far an item reaches from its space's centre, for the space id beside it
const ITEM_HALF = { entry: 13, treasure: 15, coin: 12, whirlpool: 13, propeller: 13 };

// where a route letter can go on the segment from a to b, at t of the way: beside a diagonal
// (below right of a rising one, above right of a falling one: clear of the crossing one), on
// a straight segment; `alt` 1 and 2: the other side of a diagonal, either side of a straight one
function cbSpot([ax, ay], [bx, by], t = 0.5, alt = 0) {
  const mx = ax + (bx - ax) * t, my = ay + (by - ay) * t;
  if (ax === bx || ay === by) {
    if (alt === 0) return [mx, my];
    const d = alt === 1 ? 9 : -9;
    return ax === bx ? [mx + d, my] : [mx, my + d];
  }
  const rising = (bx - ax) * (by - ay) < 0;   // lower left to upper right
  const d = alt === 0 ? 8 : -8;
  return [mx + d, rising ? my + d : my - d];
}

// where a route letter goes on its segment: the middle, or (where another route's letter or
// an end mark is there already, as where two routes pass close by) nearer either end, or on
// the other side of the line
const CB_CLEAR = 16;  // SVG units between two letters' centres (or an end mark's), at least
function cbPlace(a, b, placed) {
  const spots = [0, 1, 2].flatMap((alt) => [0.5, 0.37, 0.63, 0.28, 0.72]
    .map((t) => cbSpot(a, b, t, alt)));
  const free = spots.find(([x, y]) => placed.every(([px, py]) => Math.hypot(x - px, y - py) >= CB_CLEAR));
  const spot = free || spots[0];
  placed.push(spot);
  return spot;
}

function cap(t) { return t ? t[0].toUpperCase() + t.slice(1) : ""; }

function holderName(view, seat) {
  if (seat === null || seat === undefined) return "";
  const s = (view.seats || [])[seat];
  return s ? s.name : `seat ${seat + 1}`;
}

// ------------------------------------------------------------------ a sheet
function drawLattice(ctx, sb, main, lit, prefix) {
  const { layout, board } = ctx;
  const bd = layout.bounds;
  const w = (bd.max_x - bd.min_x) * U + 2 * M, h = (bd.max_y - bd.min_y) * U + 2 * M;
  const pos = new Map(layout.spaces.map((s) => [s.id, [M + (s.x - bd.min_x) * U, M + (s.y - bd.min_y) * U]]));
  const id = (x) => (prefix ? undefined : x);
  const root = svg("svg", { class: `rf-lattice${main ? " main" : ""}`, viewBox: `0 0 ${w} ${h}`,
    width: "100%",
    role: "group", "aria-label": `${sb.name}: the reef` });
  root.append(svg("rect", { x: 0, y: 0, width: w, height: h, rx: 14, class: "rf-sea" }));
  // connections
  const cg = svg("g", { class: "rf-conns" });
  for (const c of layout.connections) {
    const [x1, y1] = pos.get(c.a), [x2, y2] = pos.get(c.b);
    cg.append(svg("line", { id: id(c.id), x1, y1, x2, y2, class: `rf-conn${c.diagonal ? " diag" : ""}` }));
  }
  root.append(cg);
  // routes: one coloured line per colour, shifted a little per colour so crossings stay visible
  const rg = svg("g", { class: "rf-routes" });
  const rgbOf = new Map(layout.pencils.map((p) => [p.colour, p.rgb]));
  // the colour-blind letters' places so far, and the routes' end marks (drawn with the spaces,
  // below left of their space), which a letter keeps clear of too
  const placed = (sb.routes || []).filter((r) => r.end && pos.has(r.end))
    .map((r) => [pos.get(r.end)[0] - 15, pos.get(r.end)[1] + 15]);
  (sb.routes || []).forEach((r, ci) => {
    if (!r.spaces || r.spaces.length === 0) return;
    const off = (ci - 2) * 2.5;
    const pts = r.spaces.map((s) => pos.get(s)).map(([x, y]) => `${x + off},${y + off}`).join(" ");
    const rgb = rgbOf.get(r.colour);
    rg.append(svg("polyline", { points: pts, class: "rf-route", stroke: rgb, "data-colour": r.colour }));
    if (ctx.cb) {
      for (let i = 0; i + 1 < r.spaces.length; i++) {
        const [x, y] = cbPlace(pos.get(r.spaces[i]), pos.get(r.spaces[i + 1]), placed);
        rg.append(svg("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central",
          class: "rf-cb", fill: rgb }, r.pencil));
      }
    }
  });
  root.append(rg);
  // spaces with their items
  const got = {
    treasure: new Map((sb.treasures || []).map((t) => [t.space, t.colour])),
    coin: new Set(sb.coins || []), whirl: new Set(sb.whirlpools || []), prop: new Set(sb.propellers || []),
  };
  const used = new Set((sb.routes || []).flatMap((r) => r.spaces || []));
  const ends = new Map((sb.routes || []).filter((r) => r.end).map((r) => [r.end, r]));
  const drawing = board.drawing && board.drawing.seat === sb.seat ? board.drawing : null;
  const sg = svg("g", { class: "rf-spaces" });
  for (const s of layout.spaces) {
    const [x, y] = pos.get(s.id);
    const g = svg("g", { id: id(s.id), class: `rf-space kind-${s.kind}${used.has(s.id) ? " used" : ""}`,
      "data-space": s.id });
    if (drawing && drawing.at === s.id && drawing.route_started) {
      g.append(svg("circle", { cx: x, cy: y, r: 22, class: "rf-at" }));
    }
    if (s.kind === "entry") {
      g.append(svg("polygon", { points: `${x - 13},${y - 11} ${x + 13},${y - 11} ${x},${y + 12}`,
        class: "rf-entry" }));
    } else if (s.kind === "treasure" && s.treasure) {
      const t = s.treasure;
      const gotC = got.treasure.get(s.id);
      const rgb = gotC ? rgbOf.get(gotC) : t.colour === "neutral" ? NEUTRAL_RGB : t.rgb;
      g.append(svg("rect", { x: x - 15, y: y - 15, width: 30, height: 30, rx: 5,
        fill: gotC ? rgb : lighten(rgb, 0.75), stroke: rgb, "stroke-width": 3, class: "rf-treasure" }));
      g.append(svg("text", { x: x - 9, y: y + 5, class: "rf-tletter", fill: gotC ? "#fff" : "#222" },
        t.letter));
      g.append(svg("text", { x: x + 3, y: y + 11, class: "rf-tvalue", fill: gotC ? "#fff" : "#222" },
        String(t.value)));
    } else if (s.kind === "coin") {
      const has = got.coin.has(s.id);
      g.append(svg("circle", { cx: x, cy: y, r: 12, fill: has ? COIN_RGB : "#fff3b0", stroke: COIN_RGB,
        "stroke-width": has ? 4 : 2, class: "rf-coin" }));
      g.append(svg("text", { x, y: y + 5, "text-anchor": "middle", class: "rf-sym",
        fill: has ? "#fff" : "#6b5500" }, "$"));
    } else if (s.kind === "whirlpool") {
      const has = got.whirl.has(s.id);
      g.append(svg("circle", { cx: x, cy: y, r: 13, fill: has ? WHIRL_RGB : "#d6e9fa", stroke: WHIRL_RGB,
        "stroke-width": 2, class: "rf-whirl" }));
      g.append(svg("path",
        { d: `M${x} ${y} m-2 0 a2 2 0 1 1 4 0 a4 4 0 1 1 -8 0 a6 6 0 1 1 12 0 a8 8 0 0 1 -4 7`,
        fill: "none", stroke: has ? "#fff" : WHIRL_RGB, "stroke-width": 1.6 }));
    } else if (s.kind === "propeller") {
      const has = got.prop.has(s.id);
      g.append(svg("circle", { cx: x, cy: y, r: 13, fill: has ? PROP_RGB : "#eee", stroke: PROP_RGB,
        "stroke-width": 2, class: "rf-prop" }));
      g.append(svg("text", { x, y: y + 6, "text-anchor": "middle", class: "rf-sym",
        fill: has ? "#fff" : PROP_RGB }, "✣"));
    } else {
      g.append(svg("circle", { cx: x, cy: y, r: 6, class: "rf-dot" }));
    }
    // the id above right of the item, clear of it (ids hid under treasures)
    const half = ITEM_HALF[s.kind] || 6;
    g.append(svg("text", { x: x + half + 2, y: y - half - 3, class: "rf-sid" }, s.id));
    const e = ends.get(s.id);
    if (e) {
      g.append(svg("circle", { cx: x - 15, cy: y + 15, r: 7, fill: rgbOf.get(e.colour),
        class: "rf-endmark" }));
      g.append(svg("text", { x: x - 15, y: y + 19, "text-anchor": "middle", class: "rf-endletter" },
        e.pencil));
    }
    if (!prefix) {
      const cs = lit.get(s.id);
      if (cs && cs.length) {
        g.insertBefore(svg("circle", { cx: x, cy: y, r: 19, class: "rf-hit" }), g.firstChild);
        makeLit(g, cs[0], ctx);
      }
    }
    sg.append(g);
  }
  root.append(sg);
  return root;
}

function drawScore(ctx, sb, prefix) {
  const { layout, board, view } = ctx;
  const id = (x) => (prefix ? undefined : x);
  const BW = 34, BH = 30, LX = 40;
  const maxBoxes = Math.max(layout.coin_row.boxes.length, ...layout.treasure_rows.map((r) => r.boxes.length));
  const W = Math.max(LX + maxBoxes * (BW + 4) + 70, 420);
  const perLine = Math.floor((W - 70) / 6.6);  // characters of star text on a line at 12px
  const parts = [];
  let y = 8;
  const rowsById = new Map((sb.rows || []).map((r) => [r.id, r]));
  for (const row of layout.treasure_rows) {
    const st = rowsById.get(row.id) || { boxes: 0, score: 0 };
    const g = svg("g", { id: id(row.id), class: "rf-row" });
    g.append(svg("rect", { x: 4, y: y + 14, width: 28, height: BH, rx: 4, fill: row.rgb }));
    g.append(svg("text", { x: 18, y: y + 35, "text-anchor": "middle", class: "rf-rowletter" }, row.letter));
    row.boxes.forEach((b, i) => {
      const x = LX + i * (BW + 4);
      const done = i < st.boxes;
      const bg = svg("g", { id: id(b.id), class: `rf-box${b.grey ? " grey" : ""}${done ? " done" : ""}` });
      bg.append(svg("text", { x: x + BW / 2, y: y + 11, "text-anchor": "middle", class: "rf-bval" },
        String(b.value)));
      bg.append(svg("rect", { x, y: y + 14, width: BW, height: BH, rx: 3,
        fill: done ? row.rgb : b.grey ? "#c8c8c8" : "#fff", stroke: "#555" }));
      if (done) bg.append(svg("text", { x: x + BW / 2, y: y + 35, "text-anchor": "middle",
        class: "rf-boxmark" }, ctx.cb ? row.letter : "✕"));
      g.append(bg);
    });
    g.append(svg("text", { x: W - 8, y: y + 35, "text-anchor": "end", class: "rf-rowscore" },
      String(st.score)));
    parts.push(g);
    y += BH + 22;
  }
  // coins
  {
    const row = layout.coin_row;
    const g = svg("g", { id: id(row.id), class: "rf-row coins" });
    g.append(svg("circle", { cx: 18, cy: y + 29, r: 13, fill: COIN_RGB }));
    g.append(svg("text", { x: 18, y: y + 34, "text-anchor": "middle", class: "rf-rowletter" }, "$"));
    row.boxes.forEach((b, i) => {
      const x = LX + i * (BW + 4);
      const done = i < (sb.coin_boxes || 0);
      const bg = svg("g", { id: id(b.id), class: `rf-box coin${done ? " done" : ""}` });
      bg.append(svg("text", { x: x + BW / 2, y: y + 11, "text-anchor": "middle", class: "rf-bval" },
        String(b.value)));
      bg.append(svg("rect", { x, y: y + 14, width: BW, height: BH, rx: 3, fill: done ? COIN_RGB : "#fffbe0",
        stroke: "#555" }));
      if (done) bg.append(svg("text", { x: x + BW / 2, y: y + 35, "text-anchor": "middle",
        class: "rf-boxmark" }, "✕"));
      g.append(bg);
    });
    g.append(svg("text", { x: W - 8, y: y + 35, "text-anchor": "end", class: "rf-rowscore" },
      String(sb.coin_score || 0)));
    parts.push(g);
    y += BH + 22;
  }
  // propellers
  if (layout.propeller_row) {
    const row = layout.propeller_row;
    const g = svg("g", { id: id(row.id), class: "rf-row props" });
    g.append(svg("text", { x: 4, y: y + 24, class: "rf-label" },
      "✣ propellers (ringed: collected, filled: used)"));
    row.boxes.forEach((b, i) => {
      const cx = LX + i * (BW + 4) + BW / 2, cy = y + 46;
      const ringed = i < (sb.propellers_collected || 0), filled = i < (sb.propellers_used || 0);
      const bg = svg("g", { id: id(b), class: `rf-pbox${ringed ? " ringed" : ""}${filled ? " used" : ""}` });
      bg.append(svg("rect", { x: cx - 14, y: cy - 14, width: 28, height: 28, rx: 3,
        fill: filled ? PROP_RGB : "#fff", stroke: "#555" }));
      if (ringed) bg.append(svg("circle", { cx, cy, r: 11, fill: "none", stroke: filled ? "#fff" : "#000",
        "stroke-width": 2.5 }));
      g.append(bg);
    });
    parts.push(g);
    y += 70;
  }
  // stars
  const holders = new Map((board.stars || []).map((s) => [s.id, s.holder]));
  const mine = new Set(sb.stars || []);
  for (const st of layout.stars) {
    const h = holders.get(st.id);
    const g = svg("g", { id: id(st.id), class: `rf-star kind-${st.kind}${mine.has(st.id) ? " mine" : ""}` });
    const filled = mine.has(st.id);
    g.append(svg("polygon", { points: starPoints(18, y + 14, 12, 5),
      fill: filled ? "#f2b600" : h !== null && h !== undefined ? "#ddd" : "#fff", stroke: "#8a6d00",
        "stroke-width": 1.5 }));
    g.append(svg("text", { x: 38, y: y + 19, class: "rf-starpts" }, `+${st.points}`));
    const who = h !== null && h !== undefined ? ` (${holderName(view, h)})` : st.kind === "end" ? ""
      : " (open)";
    const lines = wrap(`${st.kind === "first" ? "bonus" : "end"}: ${st.text}${who}`, perLine);
    g.append(svg("text", { x: 64, y: y + 19, class: "rf-startext" },
      lines.map((line, i) => svg("tspan", { x: 64, dy: i ? 15 : 0 }, line))));
    parts.push(g);
    y += 28 + 15 * (lines.length - 1);
  }
  y += 4;
  parts.push(svg("text", { x: W - 8, y: y + 18, "text-anchor": "end", class: "rf-total" },
    `total ${sb.total}`));
  if (sb.stuck) parts.push(svg("text", { x: 4, y: y + 18, class: "rf-small" },
    "no step can be drawn any more"));
  y += 28;
  const root = svg("svg", { class: "rf-score", viewBox: `0 0 ${W} ${y}`, width: "100%", role: "group",
    "aria-label": `${sb.name}: treasure boxes, coins and stars` });
  root.append(...parts);
  return root;
}

function wrap(text, n) {
  const lines = [""];
  for (const word of text.split(" ")) {
    const last = lines[lines.length - 1];
    if (last && last.length + 1 + word.length > n) lines.push(word);
    else lines[lines.length - 1] = last ? `${last} ${word}` : word;
  }
  return lines;
}

function starPoints(cx, cy, r, n) {
  const pts = [];
  for (let i = 0; i < 2 * n; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / n, rr = i % 2 ? r * 0.45 : r;
    pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

function drawSheet(ctx, sb, main, lit) {
  const prefix = main ? "" : `s${sb.seat}:`;
  const wrap = el("div", { class: `rf-sheet${main ? " main" : ""}`, "data-seat": String(sb.seat) });
  wrap.append(el("div", { class: "rf-lattice-box" }, drawLattice(ctx, sb, main, lit, prefix)),
    el("div", { class: "rf-score-box" }, drawScore(ctx, sb, prefix)));
  return wrap;
}

const openSheets = new Map();

export function draw(container, ctx) {
  const { layout, board } = ctx;
  const lit = litByTarget(ctx);
  const seats = board.seats || [];
  const mainSeat = ctx.seat !== null && ctx.seat !== undefined ? ctx.seat
    : board.to_move !== null && board.to_move !== undefined ? board.to_move : 0;
  const root = el("div", { class: `rf-table${ctx.cb ? " cb" : ""}` });
  root.append(el("p", { class: "rf-sentence" }, board.sentence || ""));
  root.append(el("h2", {}, "The middle"), drawMiddle(ctx, lit));
  const me = seats.find((s) => s.seat === mainSeat) || seats[0];
  if (me) {
    root.append(el("h2", {}, `${me.name === "you" ? "Your" : me.name + "'s"} sheet: ${layout.title}`,
      el("span", { class: "muted small" }, `  total ${me.total}`)));
    root.append(drawSheet(ctx, me, true, lit));
  }
  for (const sb of seats) {
    if (me && sb.seat === me.seat) continue;
    // a sheet a player opened (or closed) stays so across redraws; open by default
    const d = el("details", { class: "other-sheet", "data-seat": String(sb.seat),
      open: openSheets.get(sb.seat) !== false });
    d.addEventListener("toggle", () => openSheets.set(sb.seat, d.open));
    d.append(el("summary", {}, `${sb.name}'s sheet: total ${sb.total}`), drawSheet(ctx, sb, false, lit));
    root.append(d);
  }
  const keyBits = ["▼ entry point", "$ coin", "square: treasure (letter, value; N neutral)"];
  if ((layout.whirlpools || []).length) keyBits.push("spiral: whirlpool");
  if ((layout.propellers || []).length) keyBits.push("✣ propeller");
  root.append(el("p", { class: "muted small rf-key" },
    `Key: ${keyBits.join(" · ")}; dashed lines are diagonal connections. ${cap(layout.end_text)}.`,
    layout.reconstructed ? ` ${RECONSTRUCTED}` : ""));
  container.append(root);
}
