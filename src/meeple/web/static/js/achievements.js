// A Pergola solo achievement table (P10) as GET /api/solo/{player} and
// GET /api/users/{username}/solo give it: the rulebook's ten spaces with the best score in
// each, the total, what is missing and the 1000 club, and the finished solo games. Shared by
// the solo page (/solo/<name>) and the profile page (/u/<name>).
import { el } from "./common.js";

// a space by number: "Free game", "4. At least 5 points from a cascade bonus"
function spaceName(titles, n) {
  if (n === 10) return "Free game";
  return titles.has(n) ? `${n}. ${titles.get(n)}` : `challenge ${n}`;
}

// one sentence: in the club, or what is missing
export function clubLine(t, who = t.player) {
  if (!t.games.length) return `${who} has not finished a Pergola solo game yet.`;
  if (t.member) return `${who} is in the ${t.thousand} club: all ten spaces, ${t.total} points.`;
  const parts = [];
  if (t.missing.length) {
    const ch = t.missing.filter((n) => n < 10);
    const names = [];
    if (ch.length) names.push(`challenge${ch.length > 1 ? "s" : ""} ${ch.join(", ")}`);
    if (t.missing.includes(10)) names.push("the Free game");
    parts.push(`${t.missing.length} space${t.missing.length > 1 ? "s" : ""} still empty` +
      ` (${names.join(" and ")})`);
  }
  if (t.total < t.thousand) parts.push(`${t.thousand - t.total} points short of ${t.thousand}`);
  return `Not in the ${t.thousand} club yet: ${parts.join("; ")}. Total so far ${t.total}.`;
}

// the ten spaces, the best score in each, the printed neighbours' and the total (its cell
// given the id totalId)
export function drawSpaces(table, t, totalId = null) {
  const head = el("tr", {}, el("th", {}, "space and goal"), el("th", {}, "best"),
    el("th", { title: "the printed neighbour's score" }, "Przemek"),
    el("th", { title: "the printed neighbour's score" }, "Gołąb"));
  const rows = t.spaces.map((s) => el("tr", { "data-space": s.number },
    el("td", {}, el("strong", {}, s.number === 10 ? "Free game" : `${s.number}. ${s.title}`),
      s.table ? el("a", { class: "small", href: `/t/${s.table}?replay` }, " (replay)") : null,
      el("div", { class: "small muted" }, s.goal)),
    el("td", { class: s.best === null ? "space-empty" : "", "data-best": s.best ?? "" },
      s.best === null ? "missing" : `${s.best}`),
    el("td", {}, `${s.przemek}`), el("td", {}, `${s.golab}`)));
  const total = el("tr", { class: "total" }, el("th", {}, "Total"),
    el("td", { class: "solo-total", id: totalId }, `${t.total}`),
    el("td", { class: "small", colspan: 2 }, `of ${t.thousand}`));
  table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows, total));
}

// the finished solo games, newest first, each with its replay (an unlisted table: none)
export function drawSoloGames(table, t) {
  const titles = new Map(t.spaces.map((s) => [s.number, s.title]));
  const space = (n) => spaceName(titles, n);
  const head = el("tr", {}, el("th", {}, "challenge"), el("th", {}, "result"),
    el("th", {}, "score"), el("th", {}, "recorded at"), el("th", {}, ""));
  const rows = t.games.map((g) => el("tr", {},
    el("td", {}, space(g.challenge),
      el("div", { class: "small muted" }, `finished ${new Date(g.finished).toLocaleString()}`)),
    el("td", { class: g.met ? "okay" : "error" },
      g.challenge === 10 ? "free game" : g.met ? "met" : "not met"),
    el("td", { "data-label": "score" }, `${g.score}`),
    el("td", { "data-label": "recorded at" }, space(g.recorded_as)),
    el("td", { class: "small" }, g.table ? el("a", { href: `/t/${g.table}?replay` }, "replay") : el("span",
      { class: "muted" }, "unlisted table"))));
  table.replaceChildren(el("thead", {}, head),
    el("tbody", {}, ...(rows.length ? rows : [el("tr", {}, el("td", { class: "muted" }, "none yet"))])));
}
