// The lobby's Tournaments card: upcoming tournaments (Join / Withdraw), the ones being played
// and the finished ones, each linked to its page; and the "Create a tournament" form
// (POST /api/tournaments). The lists are asked for again every ten seconds.
import { api, describeVariant, el, session } from "../js/common.js";
import { format, person, when } from "./words.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 10000;
let me = null;

function row(t, mine) {
  const link = el("a", { href: t.url }, t.name);
  const facts = el("span", { class: "small muted" }, ` ${format(t)}`);
  let right;
  if (t.state === "open") {
    right = [el("span", { class: "small" }, `starts ${when(t.starts)} · ${t.entrants} entered `)];
    if (me) {
      const joined = mine.includes(t.id);
      right.push(el("button", {
        type: "button", class: joined ? "" : "primary",
        "data-tournament": t.id,
        onclick: () => act(t.id, joined ? "withdraw" : "join"),
      }, joined ? "Withdraw" : "Join"));
    }
  } else if (t.state === "running") {
    right = [el("span", { class: "small" }, `${t.entrants} playing · `),
      el("a", { href: t.url }, "standings")];
  } else {
    right = [el("span", { class: "small muted" },
      t.cancelled ? `not played: ${t.cancelled}` : `finished ${when(t.finished)}`)];
  }
  const by = t.creator ? el("span", { class: "small muted" }, " by ", person(t.creator)) : null;
  return el("tr", {}, el("td", {}, link, by, el("br"), facts), el("td", { class: "tn-actions" }, right));
}

// a list with its heading, hidden while empty (one line says when all three are)
function fill(id, list, mine) {
  $(id).querySelector("tbody").replaceChildren(...list.map((t) => row(t, mine)));
  $(`${id}-box`).classList.toggle("hidden", !list.length);
}

async function refresh() {
  try {
    const all = await api("GET", "/api/tournaments");
    fill("tn-upcoming", all.upcoming, all.mine);
    fill("tn-running", all.running, all.mine);
    fill("tn-finished", all.finished, all.mine);
    $("tn-none").classList.toggle("hidden",
      Boolean(all.upcoming.length || all.running.length || all.finished.length));
  } catch (err) {
    $("tn-error").textContent = `The tournaments could not be read: ${err.message}`;
  }
}

async function act(id, what) {
  $("tn-error").textContent = "";
  try {
    await api("POST", `/api/tournaments/${id}/${what}`);
  } catch (err) {
    $("tn-error").textContent = err.message;
  }
  await refresh();
}

function fillGame(games) {
  const game = games.find((g) => g.name === $("tn-game").value) || games[0];
  const variants = game.variants.filter((v) => v.challenge === undefined || v.challenge === null);
  $("tn-variant").replaceChildren(...variants.map((v, i) => el("option", { value: i },
    describeVariant(v) || "standard")));
  const seats = [];
  for (let n = Math.max(2, game.min_players); n <= Math.min(4, game.max_players); n++) {
    seats.push(el("option", { value: n }, String(n)));
  }
  $("tn-seats").replaceChildren(...seats);
  return { game, variants };
}

function showKind() {
  const kind = $("tn-kind").value;
  $("tn-rounds-field").classList.toggle("hidden", kind !== "swiss");
  $("tn-duration-field").classList.toggle("hidden", kind !== "arena");
  $("tn-clock-field").classList.toggle("hidden", $("tn-pace").value !== "live");
}

// the datetime-local input's value for a time (its local time, to the minute)
function localValue(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T`
    + `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export async function mountTournaments(allGames) {
  if (!$("tournaments-card")) return;
  me = await session();
  const games = allGames.filter((g) => g.max_players >= 2);
  if (!me) {
    $("tn-guest").classList.remove("hidden");
    $("tn-form").classList.add("hidden");
  }
  $("tn-game").replaceChildren(...games.map((g) => el("option", { value: g.name }, g.title)));
  let chosen = fillGame(games);
  $("tn-game").onchange = () => { chosen = fillGame(games); };
  $("tn-kind").onchange = showKind;
  $("tn-pace").onchange = showKind;
  const start = new Date(Date.now() + 15 * 60000);
  start.setSeconds(0, 0);
  $("tn-starts").value = localValue(start);
  showKind();
  $("tn-form").onsubmit = async (ev) => {
    ev.preventDefault();
    $("tn-form-error").textContent = "";
    const kind = $("tn-kind").value;
    const starts = new Date($("tn-starts").value);
    if (Number.isNaN(starts.getTime())) {
      $("tn-form-error").textContent = "Starts: choose a day and a time.";
      return;
    }
    const live = $("tn-pace").value === "live";
    const body = {
      name: $("tn-name").value, kind, game: chosen.game.name,
      variant: chosen.variants[Number($("tn-variant").value)] || {},
      seats: Number($("tn-seats").value), pace: $("tn-pace").value,
      clock: live ? Number($("tn-clock").value) : null,
      rated: $("tn-rated").checked, bots: $("tn-bots").checked,
      starts: starts.toISOString(),
    };
    if (kind === "swiss") body.rounds = Number($("tn-rounds").value);
    if (kind === "arena") body.duration = Number($("tn-duration").value) * 60;
    try {
      const made = await api("POST", "/api/tournaments", body);
      location.href = made.tournament.url;
    } catch (err) {
      $("tn-form-error").textContent = err.message;
    }
  };
  await refresh();
  setInterval(refresh, POLL_MS);
}
