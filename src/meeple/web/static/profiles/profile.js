// A player's public profile (/u/<username>): GET /api/users/{username} drawn as the numbers
// per game and variant (played, wins, win rate, best score), the recent games with each
// player's place and score and a replay link, and GET /api/users/{username}/solo as the
// Pergola solo achievement table (achievements.js, shared with the solo page). Anyone sees
// it, signed in or not; /u/ without a name opens the signed-in account's own.
import { clubLine, drawSoloGames, drawSpaces } from "../js/achievements.js";
import { accountLink, api, botBadge, describeVariant, el, session, wireColourBlind } from "../js/common.js";
import { PROVISIONAL_WORDS, ratingChart, ratingWords } from "../ratings/ratingchart.js";

const $ = (id) => document.getElementById(id);
const username = decodeURIComponent(location.pathname.replace(/^\/u\/?/, ""));
const PAGE = 10;
let offset = 0;
let games = [];  // GET /api/games: titles and Pergola's challenges by name

function variantText(game, variant) {
  // "challenge 4: At least 5 points from a cascade bonus" for a solo challenge, else the options
  const info = games.find((g) => g.name === game);
  const ch = info && variant && (info.challenges || []).find((c) => c.number === variant.challenge);
  return ch ? `challenge ${ch.number}: ${ch.title}` : describeVariant(variant);
}

function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th";
  return `${n}${tail}`;
}

function percent(rate) { return rate === null ? "–" : `${Math.round(rate * 100)} %`; }

function drawStats(p) {
  const head = el("tr", {}, el("th", {}, "game"), el("th", {}, "variant"),
    el("th", {}, "played"), el("th", {}, "wins"), el("th", {}, "win rate"), el("th", {}, "best score"));
  const rows = p.stats.map((s) => el("tr", { "data-game": s.game, "data-solo": String(s.solo) },
    el("td", {}, el("strong", {}, s.title), s.solo ? el("span", { class: "solo-tag" }, " solo") : null),
    el("td", { class: "small" }, variantText(s.game, s.variant)),
    el("td", { "data-label": "played", class: "played" }, `${s.played}`),
    el("td", { "data-label": "wins", class: "wins" }, s.wins === null ? "–" : `${s.wins}`),
    el("td", { "data-label": "win rate", class: "rate" }, percent(s.win_rate)),
    el("td", { "data-label": "best", class: "best" }, `${s.best}`)));
  $("profile-stats").replaceChildren(el("thead", {}, head), el("tbody", {}, ...(rows.length ? rows
    : [el("tr", {}, el("td", { class: "muted", colspan: 6 }, "no finished game yet"))])));
}

function playerChip(q) {
  const name = q.username
    ? el("a", { href: `/u/${encodeURIComponent(q.username)}` }, q.name)
    : el("span", {}, q.name);
  return el("span", { class: `player${q.this ? " this" : ""}`, "data-seat": q.seat },
    name, q.bot ? el("span", { class: "bot-tag" }, " bot") : null,
    el("span", { class: "muted" }, ` ${ordinal(q.place)}, ${q.score}`));
}

function resultText(g) {
  if (g.solo) return `solo: ${g.score}`;
  const shared = g.players.filter((q) => q.place === g.place).length > 1;
  if (g.won) return shared ? "won (shared first place)" : "won";
  return `${ordinal(g.place)} of ${g.players.length}${shared ? " (shared)" : ""}`;
}

function drawRecent(p) {
  const head = el("tr", {}, el("th", {}, "game"), el("th", {}, "players: place, score"),
    el("th", {}, "result"), el("th", {}, "finished"), el("th", {}, ""));
  const rows = p.recent.map((g) => el("tr", { "data-table": g.table || "" },
    el("td", { class: "game" }, el("strong", {}, g.title), " ",
      el("span", { class: "small muted" }, variantText(g.game, g.variant))),
    el("td", { class: "small players" },
      ...g.players.flatMap((q, i) => (i ? [" · ", playerChip(q)] : [playerChip(q)]))),
    el("td", { class: `result${g.won ? " okay" : ""}` }, resultText(g)),
    el("td", { class: "small finished" }, new Date(g.finished).toLocaleString()),
    el("td", { class: "actions small" }, g.table
      ? el("a", { href: `/t/${g.table}?replay` }, "replay")
      : el("span", { class: "muted", title: "a private table: its address is its players' own" },
        "unlisted table"))));
  $("profile-recent").replaceChildren(el("thead", {}, head), el("tbody", {}, ...(rows.length ? rows
    : [el("tr", {}, el("td", { class: "muted", colspan: 5 }, "none yet"))])));
  const nav = $("profile-pages");
  nav.replaceChildren();
  if (p.recent_total <= PAGE) return;
  const turn = (to) => () => {
    offset = Math.max(0, to);
    load().catch((err) => { nav.textContent = `The recent games cannot be read: ${err.message}`; });
  };
  nav.append(...[
    offset > 0
      ? el("button", { type: "button", id: "recent-newer", onclick: turn(offset - PAGE) }, "‹ newer") : null,
    ` ${offset + 1}–${Math.min(offset + PAGE, p.recent_total)} of ${p.recent_total} `,
    offset + PAGE < p.recent_total
      ? el("button", { type: "button", id: "recent-older", onclick: turn(offset + PAGE) }, "older ›") : null,
  ].filter((part) => part !== null));
}

async function drawSolo() {
  try {
    const t = await api("GET", `/api/users/${encodeURIComponent(username)}/solo`);
    $("profile-club").textContent = clubLine(t);
    $("profile-club").classList.toggle("okay", t.member);
    drawSpaces($("profile-solo"), t, "profile-solo-total");
    drawSoloGames($("profile-solo-games"), t);
  } catch (err) {
    $("profile-club").textContent = `The achievement table cannot be read: ${err.message}`;
    $("profile-club").classList.add("error");
  }
}

// the account's rating in each game it played rated, the bot it plays like, and the history
// chart of each (ratingchart.js, as the leaderboard draws it)
async function drawRatings() {
  const box = $("profile-ratings");
  let found;
  try {
    found = await api("GET", `/api/users/${encodeURIComponent(username)}/ratings?history=200`);
  } catch (err) {
    box.replaceChildren(el("p", { class: "error" }, `No ratings: ${err.message}`));
    return;
  }
  if (!found.ratings.length) {
    box.replaceChildren(el("p", { class: "muted", id: "profile-no-ratings" }, "No rated game yet."));
    return;
  }
  box.replaceChildren(...found.ratings.map((r) => el("div", { class: "profile-rating", "data-game": r.game },
    el("h3", {}, el("a", { href: `/leaderboard/${encodeURIComponent(r.game)}` }, r.title || r.game), " ",
      el("span", { class: "seat-rating", title: r.provisional ? PROVISIONAL_WORDS : null },
        ratingWords(r.rating, r.provisional))),
    el("p", { class: "small" }, `${r.games} rated game${r.games === 1 ? "" : "s"}`
      + (r.provisional ? " · ? = provisional: the rating is new, so it still moves fast" : "")
      + (r.level ? ` · plays ${r.level}` : "")),
    ratingChart(r.history, { label: `${found.display_name}'s rating in ${r.title || r.game}` }))));
}

async function load() {
  const p = await api("GET", `/api/users/${encodeURIComponent(username)}?limit=${PAGE}&offset=${offset}`);
  document.title = `meeple: ${p.display_name}`;
  $("profile-name").replaceChildren(...[p.display_name, botBadge(p.bot_account)].filter(Boolean));
  const since = new Date(p.member_since).toLocaleDateString(undefined,
    { year: "numeric", month: "long", day: "numeric" });
  $("profile-meta").replaceChildren(
    el("span", { class: "muted" }, `@${p.username} · member since ${since}`), el("br"),
    el("strong", { id: "profile-played" }, `${p.played}`), ` ${p.played === 1 ? "game" : "games"} played, `,
    el("strong", { id: "profile-wins" }, `${p.wins}`), ` ${p.wins === 1 ? "win" : "wins"}`);
  drawStats(p);
  drawRecent(p);
  drawRatings();
  $("profile-body").classList.remove("hidden");
  return p;
}

async function start() {
  wireColourBlind($("cb-toggle"));
  accountLink();
  const me = await session();
  if (!username.trim()) {  // /u/: the signed-in account's own profile
    if (me) { location.replace(`/u/${encodeURIComponent(me.account.username)}`); return; }
    $("profile-meta").replaceChildren("Whose profile? A profile's address is /u/ and the " +
      "player's username. ", el("a", { href: "/account" }, "Sign in"), " to see your own.");
    document.body.dataset.loaded = "1";
    return;
  }
  try { games = await api("GET", "/api/games"); } catch { games = []; }
  try {
    const p = await load();
    if (me && me.account.username === p.username) {
      $("profile-own").classList.remove("hidden");
      $("profile-own").replaceChildren("This is your profile, as everyone sees it. ",
        el("a", { href: "/account" }, "Your account"), " (settings, export). Solo games " +
        "played as a guest under a name? Open that name's table (/solo/<name>) to claim them.");
    }
  } catch (err) {
    $("profile-meta").textContent = `No profile to show: ${err.message}`;
    $("profile-meta").classList.add("error");
    document.body.dataset.loaded = "1";
    return;
  }
  await drawSolo();
  document.body.dataset.loaded = "1";
}

start();
