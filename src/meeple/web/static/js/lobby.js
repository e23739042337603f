// The lobby: create a table (game, variant, seats: me / a friend by link / a bot; clock),
// and the lists of waiting, running and finished tables.
import { api, el, describeVariant, heldSeat, holdSeat, myName, setMyName, wireColourBlind } from "./common.js";

const BOT_CHOICES = [
  ["random", "bot: random (plays any legal move)"],
  ["greedy", "bot: greedy (best turn now)"],
  ["mcts:seconds=1", "bot: mcts (searches ~1 s a turn)"],
];

let games = [];
const $ = (id) => document.getElementById(id);

function currentGame() { return games.find((g) => g.name === $("game").value); }

function variantOptions(game) {
  // the options a game offers, each as a select; Pergola's solo challenges only for one player
  const box = $("variant-fields");
  box.replaceChildren();
  for (const [key, values] of Object.entries(game.options)) {
    const sel = el("select", { id: `opt-${key}`, "data-option": key });
    for (const v of values) {
      const label = v === null ? (key === "challenge" ? "none (play against others)" : "default") : String(v);
      sel.append(el("option", { value: v === null ? "" : String(v) }, label));
    }
    box.append(el("label", {}, `${key} `, sel), " ");
    sel.addEventListener("change", refreshPlayers);
  }
  // variant keys that are not options (Takenokolor's sheets): the values its variants use
  const extra = {};
  for (const v of game.variants) {
    for (const [k, val] of Object.entries(v)) {
      if (!(k in game.options)) (extra[k] ||= []).includes(val) || extra[k].push(val);
    }
  }
  for (const [key, values] of Object.entries(extra)) {
    const sel = el("select", { id: `opt-${key}`, "data-option": key });
    for (const v of values) sel.append(el("option", { value: String(v) }, String(v)));
    box.append(el("label", {}, `${key} `, sel), " ");
  }
}

function chosenVariant() {
  const variant = {};
  for (const sel of document.querySelectorAll("#variant-fields select")) {
    const key = sel.dataset.option;
    if (sel.value === "") continue;
    variant[key] = /^\d+$/.test(sel.value) ? Number(sel.value) : sel.value;
  }
  return variant;
}

function refreshPlayers() {
  const game = currentGame();
  const solo = chosenVariant().challenge !== undefined;
  const sel = $("players");
  const before = Number(sel.value) || game.default_players;
  sel.replaceChildren();
  const lo = solo ? 1 : game.min_players;
  const hi = solo ? 1 : game.max_players;
  for (let n = lo; n <= hi; n++) sel.append(el("option", { value: n }, n === 1 ? "1 (solo)" : n));
  sel.value = String(Math.min(hi, Math.max(lo, before)));
  refreshSeats();
}

function refreshSeats() {
  const n = Number($("players").value);
  const box = $("seat-fields");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const sel = el("select", { id: `seat-${i}`, "aria-label": `seat ${i + 1}` });
    if (i === 0) sel.append(el("option", { value: "me" }, "me"));
    sel.append(el("option", { value: "friend" }, "a friend (invitation link)"));
    for (const [spec, label] of BOT_CHOICES) sel.append(el("option", { value: `bot:${spec}` }, label));
    sel.value = old[i] || (i === 0 ? "me" : "bot:greedy");
    box.append(el("p", {}, el("label", {}, `Seat ${i + 1} `, sel)));
  }
}

async function create(ev) {
  ev.preventDefault();
  $("create-error").textContent = "";
  const game = currentGame();
  const seats = [];
  let me = false;
  for (const sel of document.querySelectorAll("#seat-fields select")) {
    if (sel.value === "me") { me = true; seats.push({ kind: "human" }); }
    else if (sel.value === "friend") seats.push({ kind: "human" });
    else seats.push({ kind: "bot", bot: sel.value.slice(4) });
  }
  const name = $("my-name").value.trim() || "player";
  setMyName(name);
  const body = {
    game: game.name, variant: chosenVariant(), seats,
    clock: $("clock").value ? Number($("clock").value) : null,
    public: $("public").checked,
  };
  if (me) body.join_as = name;
  try {
    $("create").disabled = true;
    const out = await api("POST", "/api/tables", body);
    const table = out.table || out;
    if (out.secret) holdSeat(table.id, out.seat, out.secret, name);
    location.href = `/t/${table.id}`;
  } catch (err) {
    $("create-error").textContent = err.message;
  } finally {
    $("create").disabled = false;
  }
}

function seatSummary(t) {
  return t.seats.map((s) => (s.kind === "bot" ? s.name : s.taken ? s.name : "open")).join(", ");
}

async function refreshLists() {
  for (const status of ["waiting", "running", "finished"]) {
    let tables = [];
    try { tables = await api("GET", `/api/tables?status=${status}`); } catch { continue; }
    const body = document.querySelector(`#${status} tbody`);
    body.replaceChildren();
    if (!tables.length) body.append(el("tr", {}, el("td", { class: "muted" }, "none")));
    for (const t of tables.slice(0, 30)) {
      const mine = heldSeat(t.id);
      const action = status === "waiting" && t.open_seats.length && !mine
        ? el("a", { href: `/t/${t.id}?join` }, "join")
        : status === "finished"
          ? el("a", { href: `/t/${t.id}?replay` }, "replay")
          : el("a", { href: `/t/${t.id}` }, mine ? "play" : "watch");
      // a finished Pergola solo game links its player's achievement table
      const solo = status === "finished" && t.game === "pergola" && t.players === 1
        ? el("a", { href: `/solo/${encodeURIComponent(t.seats[0].name)}`, class: "small solo-link" }, "achievements")
        : null;
      body.append(el("tr", {},
        el("td", {}, el("strong", {}, t.title)),
        el("td", { class: "small" }, describeVariant(t.variant)),
        el("td", { class: "small" }, seatSummary(t)),
        el("td", {}, action, solo ? " · " : null, solo)));
    }
  }
}

async function start() {
  wireColourBlind($("cb-toggle"));
  $("my-name").value = myName();
  games = await api("GET", "/api/games");
  for (const g of games) $("game").append(el("option", { value: g.name }, g.title));
  $("game").addEventListener("change", () => { variantOptions(currentGame()); refreshPlayers(); });
  $("players").addEventListener("change", refreshSeats);
  $("create-form").addEventListener("submit", create);
  variantOptions(currentGame());
  refreshPlayers();
  await refreshLists();
  setInterval(refreshLists, 5000);
}

start();
