// A player's rating history as an SVG chart drawn here (nothing loaded from outside): one
// point per rated game, oldest on the left, with the bots' ratings as dashed reference lines.
// Used by the leaderboard page; the profile page (/u/<name>) imports it too.
//
//   ratingChart(points, { bots, width, height, label })
//     points: the history of GET /api/users/{name}/ratings for one game, oldest first:
//             [{table, at, rating, change, place, players}]
//     bots:   reference lines, e.g. the leaderboard's bots: [{difficulty, rating}]
//   returns an <svg> element (role img, with a text summary; each point has a tooltip and
//   links to that game's replay).
import { svg } from "../js/common.js";

const PAD = { left: 44, right: 96, top: 12, bottom: 26 };
const LABEL_GAP = 13;  // the least distance between two bots' labels

/** What a provisional rating's "?" means (a tooltip). */
export const PROVISIONAL_WORDS = "? = provisional: the rating is new, so it still moves fast " +
  "(docs/ratings.md)";

/** A rating as players read it: "1630", or "1500?" while it is provisional. */
export function ratingWords(rating, provisional) {
  return `${rating}${provisional ? "?" : ""}`;
}

// "1st", "2nd", "3rd", "4th"
export function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${tail}`;
}

// round numbers for the rating axis: a step of 25, 50, 100, 200 or 500 giving 3 to 6 lines
function ticks(lo, hi) {
  const span = Math.max(1, hi - lo);
  const step = [25, 50, 100, 200, 500, 1000].find((s) => span / s <= 5) || 2000;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) out.push(v);
  return out;
}

export function ratingChart(points,
  { bots = [], width = 560, height = 220, label = "rating history" } = {}) {
  const shownBots = bots.filter((b) => Number.isFinite(b.rating));
  const values = [...points.map((p) => p.rating), ...points.map((p) => p.rating - p.change),
    ...shownBots.map((b) => b.rating)];
  const lo0 = values.length ? Math.min(...values) : 1400;
  const hi0 = values.length ? Math.max(...values) : 1600;
  const margin = Math.max(20, (hi0 - lo0) * 0.08);
  const lo = lo0 - margin;
  const hi = hi0 + margin;
  const x0 = PAD.left;
  const x1 = width - PAD.right;
  const y = (v) => PAD.top + (hi - v) / (hi - lo) * (height - PAD.top - PAD.bottom);
  // a point per game, and the rating before the first one at the far left
  const n = points.length;
  const x = (k) => (n === 0 ? (x0 + x1) / 2 : x0 + k / n * (x1 - x0));
  const last = points[n - 1];
  const start = n ? points[0].rating - points[0].change : null;
  const summary = n
    ? `${label}: ${n} rated game${n === 1 ? "" : "s"}, from ${start} to ${last.rating}`
    : `${label}: no rated game yet`;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", role: "img",
    "aria-label": summary }, svg("title", {}, summary));
  // the axis: rating lines
  for (const v of ticks(lo, hi)) {
    root.append(svg("line", { x1: x0, x2: x1, y1: y(v), y2: y(v), class: "grid" }),
      svg("text", { x: x0 - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, String(v)));
  }
  // the bots: dashed lines labelled on the right, labels moved apart where lines are close
  let below = -Infinity;
  for (const b of [...shownBots].sort((p, q) => q.rating - p.rating)) {
    const at = Math.max(y(b.rating) + 4, below + LABEL_GAP);
    below = at;
    root.append(svg("line", { x1: x0, x2: x1, y1: y(b.rating), y2: y(b.rating), class: "bot-line",
      "data-bot": b.difficulty }),
    svg("text", { x: x1 + 4, y: at, class: "bot-label" }, `${b.difficulty} ${b.rating}`));
  }
  if (!n) {
    root.append(svg("text", { x: (x0 + x1) / 2, y: height / 2, class: "axis", "text-anchor": "middle" },
      "no rated game yet"));
    return root;
  }
  // the line through the ratings, from the one before the first game
  const path = [[x(0), y(points[0].rating - points[0].change)],
    ...points.map((p, k) => [x(k + 1), y(p.rating)])];
  root.append(svg("polyline", { points: path.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" "),
    class: "rating-line" }));
  points.forEach((p, k) => {
    const sign = p.change > 0 ? "+" : "";
    const tip = `game ${k + 1} (${new Date(p.at).toLocaleDateString()}): ${p.rating} (${sign}${p.change}), ` +
      `${ordinal(p.place)} of ${p.players}`;
    const dot = svg("circle", { cx: x(k + 1), cy: y(p.rating), r: n > 60 ? 2 : 3.5,
      class: `rating-dot ${p.change >= 0 ? "up" : "down"}`, "data-table": p.table || "" },
      svg("title", {}, p.table ? tip : `${tip} (an unlisted table: no replay)`));
    // an unlisted table's replay is its people's only: a dot without a link
    root.append(p.table ? svg("a", { href: `/t/${p.table}?replay`, "aria-label": tip }, dot) : dot);
  });
  root.append(svg("text", { x: x0, y: height - 6, class: "axis" }, "older"),
    svg("text", { x: x1, y: height - 6, class: "axis", "text-anchor": "end" }, `${n} rated games`));
  return root;
}
