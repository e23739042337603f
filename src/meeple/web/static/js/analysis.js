// The analysis of a finished game in the replay viewer (GET /api/tables/{id}/analysis,
// src/meeple/server/table/README.md; the same data as `meeple analyse`): each seat's totals, a chart of the
// points lost per turn (a bar per turn, click one to go to that turn), and, at the replay's
// position, the turn being played there with what the judge would have played.

import { api, el, svg } from "./common.js";

const SEAT_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];

export async function fetchAnalysis(tableId) {
  return (await api("GET", `/api/tables/${encodeURIComponent(tableId)}/analysis`)).analysis;
}

// The decision whose turn holds move `at` (1-based record numbers): the last one starting at
// or before it, or null before the first.
export function decisionAt(analysis, at) {
  let found = null;
  for (const d of analysis.decisions) if (d.number <= at) found = d;
  return found;
}

function summaryLine(a, s) {
  const blunders = s.blunders.length ? `; biggest losses at moves ${s.blunders.join(", ")}` : "";
  return el("li", {},
    el("span", { class: "an-key", style: `background:${SEAT_COLOURS[s.seat % 4]}` }), " ",
    el("strong", {}, s.name), `: ${s.decisions} turns, played ${a.bot}'s turn in ${s.matched}, `
      + `lost ${s.total_loss.toFixed(1)} points in all (${s.mean_loss.toFixed(2)} a turn)${blunders}`);
}

function chart(a, total, goTo) {
  const w = 600, h = 90, top = 6, bottom = 16;
  const worst = Math.max(1, ...a.decisions.map((d) => d.loss));
  const x = (n) => 4 + (w - 8) * (n / Math.max(1, total));
  const bars = a.decisions.map((d) => {
    const bh = (h - top - bottom) * Math.max(0, d.loss) / worst;
    return svg("rect", {
      class: "an-bar", x: x(d.number - 1), y: h - bottom - bh, width: Math.max(2, (w - 8) / Math.max(1,
        total)),
      height: Math.max(1, bh), fill: SEAT_COLOURS[d.seat % 4], "data-number": d.number,
      onclick: () => goTo(d.number - 1),
    }, svg("title", {}, `move ${d.number}, ${a.seats[d.seat]}: lost ${d.loss.toFixed(1)}`));
  });
  return svg("svg", { class: "an-chart", viewBox: `0 0 ${w} ${h}`, role: "img",
                      "aria-label": "points lost per turn" },
    svg("line", { x1: 4, x2: w - 4, y1: h - bottom, y2: h - bottom, stroke: "#888" }),
    svg("text", { x: 4, y: h - 3, "font-size": 10, fill: "#555" }, "move 1"),
    svg("text", { x: w - 4, y: h - 3, "font-size": 10, fill: "#555", "text-anchor": "end" },
      `move ${total}`),
    svg("text", { x: 6, y: top + 8, "font-size": 10, fill: "#555" }, `${worst.toFixed(1)} points`),
    ...bars);
}

// The panel for an analysis; `at()` gives the replay's position, `goTo(k)` moves it.
export function analysisPanel(a, total, at, goTo) {
  const here = el("p", { class: "an-here" });
  const panel = el("div", { class: "analysis" },
    el("p", { class: "small muted" }, `Judged by ${a.bot}: the points a turn lost against the `
      + `judge's best turn from the same position, by the game's evaluation.`),
    el("ul", { class: "an-summary" }, a.summaries.map((s) => summaryLine(a, s))),
    chart(a, total, goTo), here);
  panel.update = () => {
    const d = decisionAt(a, at());
    here.replaceChildren(d === null ? "Before the first turn." : el("span", {},
      el("strong", {}, `${a.seats[d.seat]}, move ${d.number}: `), `played ${d.played.join(" ")}`,
      d.matched ? ` (${a.bot}'s turn too)` : `; ${a.bot} would play ${d.best.join(" ")} `
        + `(${d.loss.toFixed(1)} points better)`));
    for (const bar of panel.querySelectorAll(".an-bar")) {
      bar.classList.toggle("current", d !== null && Number(bar.dataset.number) === d.number);
    }
  };
  panel.update();
  return panel;
}
