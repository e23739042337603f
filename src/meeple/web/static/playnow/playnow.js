// Play now: a signed-in person picks a game, variant and seats and waits while
// the server finds people of a close rating (POST /api/play-now), asking how it stands every
// two seconds (GET /api/play-now keeps the wait alive); once seated the page goes to the table,
// where the session plays the seat. A guest is asked to sign in: Play now's tables are rated.

import { api, describeVariant, el, session } from "../js/common.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 2000;
let timer = null;

const clockText = (s) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}`;

// the variants a Play now table may have: a game's listed ones, without solo challenges
function variantsOf(game) {
  return game.variants.filter((v) => v.challenge === undefined || v.challenge === null);
}

function fillFor(game) {
  const vs = variantsOf(game);
  $("pn-variant").replaceChildren(...vs.map((v, i) => el("option", { value: i },
    describeVariant(v) || "standard")));
  const lo = Math.max(2, game.min_players);
  const seats = [];
  for (let n = lo; n <= game.max_players; n++) seats.push(el("option", { value: n }, String(n)));
  $("pn-players").replaceChildren(...seats);
}

function showWaiting(st) {
  $("pn-form").classList.add("hidden");
  $("pn-wait").classList.remove("hidden");
  const within = st.window === null ? "any rating now" : `ratings within ${st.window} of yours`;
  $("pn-status").textContent = `Looking for ${st.players - 1} player${st.players > 2 ? "s" : ""} `
    + `of your level (${within})… ${clockText(st.waited)}`
    + (st.bots ? " · bots fill the table after a short wait" : "");
}

function showForm(message = "") {
  $("pn-form").classList.remove("hidden");
  $("pn-wait").classList.add("hidden");
  $("pn-error").textContent = message;
}

async function poll() {
  timer = null;
  let st;
  try {
    st = await api("GET", "/api/play-now");
  } catch (err) {
    showForm(`Play now stopped: ${err.message}`);
    return;
  }
  if (st.state === "seated") {
    $("pn-status").textContent = "Found! Taking you to your table…";
    location.href = `/t/${st.table}`;
    return;
  }
  if (st.state === "waiting") {
    showWaiting(st);
    timer = setTimeout(poll, POLL_MS);
    return;
  }
  showForm(st.state === "gone"
    ? "Your wait was given up (the page stopped asking): press Play now again." : "");
}

// Mount Play now in the lobby (its #play-now-card) with the games of GET /api/games.
export async function mountPlayNow(games) {
  const card = $("play-now-card");
  if (!card) return;
  const me = await session();
  card.classList.remove("hidden");
  if (!me) {
    $("pn-guest").classList.remove("hidden");
    $("pn-form").classList.add("hidden");
    return;
  }
  const playable = games.filter((g) => g.max_players >= 2 && variantsOf(g).length);
  $("pn-game").replaceChildren(...playable.map((g) => el("option", { value: g.name }, g.title)));
  const chosen = () => playable.find((g) => g.name === $("pn-game").value) || playable[0];
  $("pn-game").onchange = () => fillFor(chosen());
  fillFor(chosen());
  $("pn-form").onsubmit = async (ev) => {
    ev.preventDefault();
    const game = chosen();
    $("pn-error").textContent = "";
    try {
      const st = await api("POST", "/api/play-now", {
        game: game.name, variant: variantsOf(game)[Number($("pn-variant").value)] || {},
        players: Number($("pn-players").value), bots: $("pn-bots").checked,
      });
      showWaiting(st);
      if (timer === null) timer = setTimeout(poll, POLL_MS);
    } catch (err) {
      $("pn-error").textContent = err.message;
    }
  };
  $("pn-stop").onclick = async () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    await api("DELETE", "/api/play-now").catch(() => {});
    showForm("You left the queue.");
  };
  // a wait already under way (the lobby was reloaded): carry on
  const st = await api("GET", "/api/play-now").catch(() => null);
  if (st && st.state === "waiting") {
    showWaiting(st);
    timer = setTimeout(poll, POLL_MS);
  }
}
