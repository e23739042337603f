// A game's leaderboard (/leaderboard/<game>): the players by rating, a page at a time, with
// the bots' difficulties as reference rows where their ratings fall ("easy bot ~ 1531"); the
// signed-in player's own rating and the bot they play like; a player's rating history drawn
// (ratingchart.js) when their row is clicked.
import { accountLink, api, botBadge, el, session, wireColourBlind } from "../js/common.js";
import { PROVISIONAL_WORDS, ordinal, ratingChart, ratingWords } from "./ratingchart.js";

const $ = (id) => document.getElementById(id);
const PAGE = 25;
const game = decodeURIComponent(location.pathname.split("/")[2] || "");
const query = new URLSearchParams(location.search);
let offset = Math.max(0, Number(query.get("offset")) || 0);
// bot accounts (programs playing through the API) listed or left out: ?bot_accounts=hide
let hideBots = query.get("bot_accounts") === "hide";
let board = null;     // the last GET /api/leaderboard answer
let me = null;        // the signed-in account ({username, ...}) or null

function gameTabs(games) {
  $("game-tabs").replaceChildren(...games.map((g) => el("a", {
    href: `/leaderboard/${g.name}`, "aria-current": g.name === game ? "page" : null,
  }, g.title)));
}

function botRow(b) {
  return el("tr", { class: "bot-row", "data-bot": b.difficulty },
    el("td", { class: "rank" }, ""),
    el("td", {}, `${b.difficulty} bot`),
    el("td", { class: "num" }, `~ ${b.rating}`),
    el("td", { class: "num" }, b.games ? `${b.games} vs people` : "seed"),
    el("td", {}, "reference"));
}

function playerRow(p) {
  const row = el("tr", { class: `player${me && me.username === p.username ? " mine" : ""}`,
    tabindex: "0", "data-username": p.username, title: `${p.display_name}: the rating history` },
  el("td", { class: "rank" }, String(p.rank)),
  el("td", {}, el("strong", {}, p.display_name), botBadge(p.bot_account),
    p.display_name !== p.username ? el("span", { class: "small muted" }, ` @${p.username}`) : null),
  el("td", { class: "num", title: p.provisional ? PROVISIONAL_WORDS : null },
    ratingWords(p.rating, p.provisional)),
  el("td", { class: "num" }, String(p.games)),
  el("td", { class: "small" }, p.level || ""));
  const open = () => showHistory(p.username, row);
  row.addEventListener("click", open);
  row.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); open(); }
  });
  return row;
}

// the page's rows: its players, with each bot whose rating falls within this page (above the
// first page's top, below the last page's bottom) among them at its place
function rows(page) {
  const players = page.players;
  const first = page.offset === 0;
  const last = page.offset + players.length >= page.total;
  const top = first ? Infinity : (players[0] || {}).rating;
  const bottom = last ? -Infinity : (players[players.length - 1] || {}).rating;
  const bots = page.bots.filter((b) => b.rating <= top && b.rating > bottom)
    .sort((a, b) => b.rating - a.rating);
  const out = [];
  let k = 0;
  for (const p of players) {
    while (k < bots.length && bots[k].rating > p.rating) out.push(botRow(bots[k++]));
    out.push(playerRow(p));
  }
  while (k < bots.length) out.push(botRow(bots[k++]));
  return out;
}

function pager(total) {
  const nav = $("board-pages");
  nav.replaceChildren();
  if (total <= PAGE) return;
  const go = (to) => () => { offset = Math.max(0, to); load(); };
  nav.append(...[
    offset > 0
      ? el("button", { type: "button", id: "page-higher", onclick: go(offset - PAGE) }, "‹ higher") : null,
    ` ${offset + 1}–${Math.min(offset + PAGE, total)} of ${total} `,
    offset + PAGE < total
      ? el("button", { type: "button", id: "page-lower", onclick: go(offset + PAGE) }, "lower ›") : null,
  ].filter((part) => part !== null));
}

async function load() {
  const body = $("board").querySelector("tbody");
  try {
    board = await api("GET", `/api/leaderboard/${encodeURIComponent(game)}?limit=${PAGE}&offset=${offset}` +
      `&bot_accounts=${hideBots ? "hide" : "show"}`);
  } catch (err) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: 5, class: "error" },
      `This leaderboard cannot be shown: ${err.message}`)));
    return;
  }
  if (!board.players.length && offset > 0 && board.total > 0) {  // past the last page
    offset = Math.floor((board.total - 1) / PAGE) * PAGE;
    return load();
  }
  document.title = `meeple: ${board.title} leaderboard`;
  $("board-title").textContent = `${board.title}: leaderboard`;
  body.replaceChildren(...rows(board));
  if (!board.players.length) {
    body.append(el("tr", {}, el("td", { colspan: 5, class: "muted" },
      "Nobody has a rating in this game yet: play a rated table to be the first.")));
  }
  pager(board.total);
  const kept = new URLSearchParams();
  if (offset) kept.set("offset", String(offset));
  if (hideBots) kept.set("bot_accounts", "hide");
  history.replaceState(null, "", kept.size ? `?${kept}` : location.pathname);
}

// the signed-in player's own line: their rating here and the bot they play like
async function meLine() {
  const line = $("me-line");
  const signed = await session();
  me = signed ? signed.account : null;
  if (!me) {
    line.replaceChildren("Sign in and play rated tables to get a rating: ",
      el("a", { href: "/account" }, "sign in"), ".");
    return;
  }
  let mine;
  try {
    mine = await api("GET", `/api/users/${encodeURIComponent(me.username)}/ratings?history=0`);
  } catch { return; }
  const here = mine.ratings.find((r) => r.game === game);
  if (!here) {
    line.textContent = "You have no rating in this game yet: create a rated table in the lobby " +
      "(tick “Rated”) and play it to the end.";
    return;
  }
  line.replaceChildren(el("strong", { title: here.provisional ? PROVISIONAL_WORDS : null },
    `Your rating: ${ratingWords(here.rating, here.provisional)}`),
    ` after ${here.games} rated game${here.games === 1 ? "" : "s"}`,
    here.level ? `: you play ${here.level}.` : ".", " ",
    el("button", { type: "button", id: "my-history", onclick: () => showHistory(me.username, null) },
      "your history"));
}

async function showHistory(username, row) {
  for (const r of document.querySelectorAll("tr.player.shown")) r.classList.remove("shown");
  if (row) row.classList.add("shown");
  const card = $("history-card");
  card.classList.remove("hidden");
  $("history-title").textContent = `${username}: rating history`;
  $("history-note").textContent = "Loading…";
  $("history-chart").replaceChildren();
  let found;
  try {
    found = await api("GET", `/api/users/${encodeURIComponent(username)}/ratings?history=200`);
  } catch (err) {
    $("history-note").textContent = `No history: ${err.message}`;
    return;
  }
  const here = found.ratings.find((r) => r.game === game);
  const title = board ? board.title : game;
  $("history-title").textContent = `${found.display_name}: rating history in ${title}`;
  if (!here) {
    $("history-note").textContent = "No rated game of this game yet.";
    return;
  }
  const lastGame = here.history[here.history.length - 1];
  const games = `${here.games} rated game${here.games === 1 ? "" : "s"}`;
  $("history-note").textContent = `${ratingWords(here.rating, here.provisional)} after ${games}` +
    (here.provisional ? " (? = provisional: new, it still moves fast)" : "") +
    (here.level ? ` · plays ${here.level}` : "") +
    (lastGame ? ` · last game: ${ordinal(lastGame.place)} of ${lastGame.players}, ` +
      `${lastGame.change >= 0 ? "+" : ""}${lastGame.change}` : "") +
    ". Each point is a rated game (click one for its replay); the dashed lines are the bots.";
  $("history-chart").replaceChildren(ratingChart(here.history, {
    bots: board ? board.bots : [], label: `${found.display_name}'s rating in ${title}`,
  }));
  card.scrollIntoView({ block: "nearest" });
}

async function start() {
  wireColourBlind($("cb-toggle"));
  accountLink();
  const games = await api("GET", "/api/games").catch(() => []);
  gameTabs(games);
  const toggle = $("bots-toggle");
  toggle.checked = !hideBots;
  toggle.addEventListener("change", () => { hideBots = !toggle.checked; offset = 0; load(); });
  await meLine();
  await load();
}

start();
