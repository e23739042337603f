// A tournament's page (/tournaments/{id}): its settings, Join / Withdraw / Cancel, the
// standings with their tie-breaks, every round's pairings with a link to each game, and the
// entrants (BOT badges). It asks GET /api/tournaments/{id} every four seconds while the
// tournament is not over; a finished one's page stays as it ended.
import { accountLink, api, describeVariant, el, wireColourBlind } from "../js/common.js";
import { format, person, when } from "./words.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 4000;
const id = decodeURIComponent(location.pathname.split("/").pop());
let timer = null;

function stateLine(t) {
  if (t.state === "open") return `Starts ${when(t.starts)} · ${t.entrants} entered · join until it starts`;
  if (t.state === "running") {
    return t.kind === "arena" ? `Being played until ${when(t.ends)}: a new game as soon as you are free`
      : "Being played: the next round is paired when every game of this one has finished";
  }
  return t.cancelled ? `Not played: ${t.cancelled}` : `Finished ${when(t.finished)}`;
}

function settings(t) {
  const facts = [
    ["Format", format(t)], ["Game", `${t.title} ${describeVariant(t.variant) || ""}`.trim()],
    ["Starts", when(t.starts)],
  ];
  if (t.ends) facts.push(["Ends", when(t.ends)]);
  $("tn-settings").replaceChildren(...facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]),
    ...(t.creator ? [el("dt", {}, "Made by"), el("dd", {}, person(t.creator))] : []));
}

function buttons(data) {
  const t = data.tournament;
  const me = data.me;
  const inIt = me && me.entered && !me.withdrawn;
  // an Arena takes late comers while its window is open
  const joinable = t.state === "open"
    || (t.kind === "arena" && t.state === "running" && new Date(t.ends) > new Date());
  $("tn-join").classList.toggle("hidden", !me || !joinable || inIt);
  $("tn-withdraw").classList.toggle("hidden", !me || t.state === "finished" || !inIt);
  $("tn-cancel").classList.toggle("hidden", !me || !me.creator || t.state !== "open");
}

function standings(data) {
  const arena = data.tournament.kind === "arena";
  const head = arena ? ["#", "Player", "Points", "Games", "Rating"]
    : ["#", "Player", "Score", "Buchholz", "S-B", "Games", "Rating"];
  $("tn-standings").querySelector("thead").replaceChildren(
    el("tr", {}, head.map((h, i) => el("th", { class: i > 1 ? "num" : "" }, h))));
  const lines = data.standings.map((s) => el("tr", {},
    el("td", {}, String(s.rank)), el("td", {}, person(s)),
    ...(arena ? [s.points, s.games, s.rating]
      : [s.score_text, s.buchholz_text, s.sonneborn_berger_text,
        s.byes ? `${s.games} + ${s.byes} bye${s.byes > 1 ? "s" : ""}` : s.games, s.rating])
      .map((v) => el("td", { class: "num" }, String(v)))));
  $("tn-standings").querySelector("tbody").replaceChildren(...(lines.length ? lines
    : [el("tr", {}, el("td", { colspan: head.length, class: "muted" }, "No entrants yet."))]));
  $("tn-tiebreaks").textContent = arena
    ? "Arena points: 2 for each player you finish above, 1 for each you tie with. "
      + "Ties: fewer games, then rating."
    : "Score: 1 a win, ½ a draw, 1 a bye (at 3-4 seats, your share of the points by place). "
      + "Ties are broken by Buchholz (your opponents' scores), then Sonneborn-Berger (the "
      + "scores of the opponents you beat, half of those you drew), then rating.";
}

function placeWord(p) { return p === 1 ? "1st" : p === 2 ? "2nd" : p === 3 ? "3rd" : `${p}th`; }

function rounds(data) {
  const kind = data.tournament.kind;
  const blocks = data.rounds.slice().reverse().map((r) => el("div", { class: "tn-round" },
    el("h3", {}, kind === "arena" ? `Pairing ${r.number}` : `Round ${r.number}`,
      el("span", { class: "small muted" }, ` paired ${when(r.paired)}`)),
    el("ul", { class: "tn-pairings" }, r.pairings.map((p) => (p.bye
      ? el("li", {}, person(p.bye), el("span", { class: "muted" }, " has a bye (a win)"))
      : el("li", {}, p.players.flatMap((pl, i) => [i ? el("span", { class: "muted" }, " vs ") : null,
        person(pl), pl.place ? el("span", { class: "small muted" }, ` (${placeWord(pl.place)})`) : null]),
      " · ", el("a", { href: p.url, class: "tn-game-link" },
        p.status === "finished" ? "replay" : "watch"),
      p.status === "finished" ? null : el("span", { class: "small muted" }, " playing")))))));
  $("tn-rounds").replaceChildren(...(blocks.length ? blocks
    : [el("p", { class: "muted" }, data.tournament.state === "open"
      ? "The first round is paired when the tournament starts." : "No games.")]));
}

function entries(data) {
  $("tn-count").textContent = `(${data.tournament.entrants})`;
  $("tn-entries").replaceChildren(...(data.entries.length ? data.entries.map((e) => el("li",
    { class: e.withdrawn ? "muted" : "" }, person(e), el("span", { class: "small muted" },
      ` ${e.rating}${e.withdrawn ? " · withdrew" : ""}`)))
    : [el("li", { class: "muted" }, "Nobody yet.")]));
}

async function load() {
  timer = null;
  let data;
  try {
    data = await api("GET", `/api/tournaments/${encodeURIComponent(id)}`);
  } catch (err) {
    $("tn-error").textContent = `This tournament could not be read: ${err.message}`;
    timer = setTimeout(load, POLL_MS);
    return;
  }
  const t = data.tournament;
  document.title = `meeple: ${t.name}`;
  $("tn-title").textContent = t.name;
  $("tn-state").textContent = stateLine(t);
  settings(t);
  buttons(data);
  standings(data);
  rounds(data);
  entries(data);
  if (t.state !== "finished") timer = setTimeout(load, POLL_MS);
}

async function act(what) {
  $("tn-error").textContent = "";
  try {
    await api("POST", `/api/tournaments/${encodeURIComponent(id)}/${what}`);
  } catch (err) {
    $("tn-error").textContent = err.message;
  }
  if (timer !== null) clearTimeout(timer);
  await load();
}

wireColourBlind($("cb-toggle"));
accountLink();
$("tn-join").onclick = () => act("join");
$("tn-withdraw").onclick = () => act("withdraw");
$("tn-cancel").onclick = () => act("cancel");
load();
