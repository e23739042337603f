// A player's Pergola solo achievement table (P10): GET /api/solo/{player}, drawn as the
// rulebook's ten spaces with the best score in each, the total, what is missing and the
// 1000 club, then every finished solo game under that name. Without a name (/solo/): a box for
// one and the players with a finished solo game to pick from.
import { accountLink, api, el, myName, wireColourBlind } from "./common.js";

const $ = (id) => document.getElementById(id);
const player = decodeURIComponent(location.pathname.replace(/^\/solo\//, ""));

let titles = new Map();  // challenge number -> title, from the table's spaces
function space(n) {
  if (n === 10) return "Free game";
  return titles.has(n) ? `${n}. ${titles.get(n)}` : `challenge ${n}`;
}

function clubLine(t) {
  if (!t.games.length) return `${t.player} has not finished a Pergola solo game yet.`;
  if (t.member) return `${t.player} is in the ${t.thousand} club: all ten spaces, ${t.total} points.`;
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

function drawTable(t) {
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
    el("td", { id: "solo-total" }, `${t.total}`),
    el("td", { class: "small", colspan: 2 }, `of ${t.thousand}`));
  $("solo-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows, total));
}

function drawGames(t) {
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
  $("solo-games").replaceChildren(el("thead", {}, head),
    el("tbody", {}, ...(rows.length ? rows : [el("tr", {}, el("td", { class: "muted" }, "none yet"))])));
}

async function pickPlayer() {
  // /solo/ without a name: whose table? (the finished solo games' players, and a box)
  $("solo-title").textContent = "Pergola solo achievements";
  $("club").textContent = "Whose achievement table? Type a player's name (as they sat at " +
    "the table), or pick one of the players below.";
  for (const card of document.querySelectorAll(".solo-of-player")) card.classList.add("hidden");
  const input = el("input", { id: "solo-name", maxlength: 60, placeholder: "a player's name",
    "aria-label": "player's name", value: myName() });
  const go = el("button", { id: "solo-go", class: "primary", type: "submit" }, "Show");
  const form = el("form", { class: "solo-pick" }, input, go);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (name) location.href = `/solo/${encodeURIComponent(name)}`;
    else input.focus();
  });
  const list = el("ul", { id: "solo-players", class: "solo-players" });
  $("solo-pick").replaceChildren(form, el("h2", {}, "Players with a finished solo game"), list);
  $("solo-pick").classList.remove("hidden");
  let tables = [];
  try { tables = await api("GET", "/api/tables?status=finished&game=pergola"); } catch { /* none */ }
  const names = [...new Set(tables.filter((t) => t.players === 1).map((t) => t.seats[0].name))];
  list.replaceChildren(...(names.length
    ? names.map((n) => el("li", {}, el("a", { href: `/solo/${encodeURIComponent(n)}` }, n)))
    : [el("li", { class: "muted" }, "none listed yet: finish a Pergola solo game (the lobby's " +
      "challenge choice) and its table appears here")]));
  document.body.dataset.loaded = "1";
}

async function start() {
  wireColourBlind($("cb-toggle"));
  accountLink();
  if (!player.trim()) { await pickPlayer(); return; }
  document.title = `meeple: ${player}'s Pergola solo achievements`;
  $("solo-title").textContent = `${player}: Pergola solo achievements`;
  try {
    const t = await api("GET", `/api/solo/${encodeURIComponent(player)}`);
    $("club").textContent = clubLine(t);
    $("club").classList.toggle("okay", t.member);
    titles = new Map(t.spaces.map((s) => [s.number, s.title]));
    document.body.dataset.loaded = "1";
    drawTable(t);
    drawGames(t);
  } catch (err) {
    $("club").textContent = `The achievement table cannot be read: ${err.message}`;
    $("club").classList.add("error");
  }
}

start();
