// Challenges on every page (frame.html loads this module): signed in, the page asks
// GET /api/challenges every 5 s and shows a banner at the foot of the window: each incoming
// challenge (game, variant, seats, pace, rated or casual, from whom with the BOT badge) with
// Accept and Decline (a reason chosen from a list), each outgoing one with Cancel. An accepted
// challenge takes both players to its table: the challenged page at once, the challenger's
// when its outgoing challenge turns accepted. A declined, canceled or expired one is said in
// the banner until dismissed. On a profile (/u/<name>) a Challenge button opens the dialog;
// on a table page (/t/<id>) the accounts seated there other than you each have one.
// The routes: src/meeple/server/features/challenges/README.md.
import { api, botBadge, describeVariant, el, session } from "../js/common.js";

const EVERY = 5000;
const REASONS = {
  generic: "I am not accepting challenges right now",
  later: "not now, please ask later",
  tooFast: "this clock is too fast for me",
  tooSlow: "this clock is too slow for me",
  timeControl: "I would rather another clock",
  rated: "I would rather play a rated game",
  casual: "I would rather play a casual game",
  variant: "I would rather play another variant",
  noBot: "I am not accepting challenges from bots",
  onlyBot: "I am only accepting challenges from bots",
};
const LIVE_CLOCKS = [[null, "no clock"], [30, "30 s a decision"], [60, "1 min a decision"],
  [120, "2 min a decision"]];
const TURN_CLOCKS = [[43200, "12 h a move"], [86400, "1 day a move"], [259200, "3 days a move"]];
const FILLS = [[null, "left open to anyone"], ["easy", "easy bot"], ["medium", "medium bot"],
  ["hard", "hard bot"], ["expert", "expert bot"]];

let me = null;
let games = null;
const outgoing = new Map();  // id -> the outgoing challenge as last seen open
const notes = [];  // what became of outgoing challenges: {id, text}

async function gameList() {
  if (!games) games = await api("GET", "/api/games");
  return games;
}

function title(game) {
  const g = (games || []).find((x) => x.name === game);
  return g ? g.title : game;
}

function clockText(c) {
  if (c.pace === "turn-based") {
    const hours = Math.round((c.clock || 0) / 3600);
    return hours % 24 === 0 ? `${hours / 24} day${hours === 24 ? "" : "s"} a move` : `${hours} h a move`;
  }
  return c.clock ? `${c.clock} s a decision` : "no clock";
}

// "Pick a Pen: Gardens (level 1), 2 seats, live, no clock, rated"
function summary(c) {
  return `${title(c.game)} (${describeVariant(c.variant)}), ${c.seats} seats, ${c.pace}, ` +
    `${clockText(c)}, ${c.rated ? "rated" : "casual"}`;
}

function who(p) {
  return el("strong", {}, p.display || p.name, botBadge(p.bot_account));
}

function banner() {
  let b = document.getElementById("challenge-banner");
  if (!b) {
    b = el("section", { id: "challenge-banner", class: "challenge-banner hidden",
      "aria-live": "polite", "aria-label": "challenges" });
    document.body.append(b);
  }
  return b;
}

function incomingCard(c) {
  const reason = el("select", { class: "decline-reason", "aria-label": "why you decline" },
    ...Object.entries(REASONS).map(([k, v]) => el("option", { value: k }, v)));
  const error = el("p", { class: "error small challenge-error" });
  const act = (what) => async () => {
    error.textContent = "";
    try {
      if (what === "accept") {
        const got = await api("POST", `/api/challenges/${c.id}/accept`);
        location.assign(got.url);
        return;
      }
      await api("POST", `/api/challenges/${c.id}/decline`, { reason: reason.value });
      poll();
    } catch (err) {
      error.textContent = err.message;
    }
  };
  const decline = el("details", { class: "decline" }, el("summary", {}, "Decline"),
    el("label", { class: "small" }, "Tell them why ", reason),
    el("button", { class: "decline-send", onclick: act("decline") }, "Decline"));
  return el("div", { class: "challenge incoming", "data-id": c.id },
    el("p", {}, who(c.challenger), " challenges you: ", summary(c), "."),
    el("div", { class: "challenge-actions" },
      el("button", { class: "primary accept", onclick: act("accept") }, "Accept"), decline),
    error);
}

function outgoingCard(c) {
  const error = el("p", { class: "error small challenge-error" });
  const cancel = async () => {
    try {
      await api("POST", `/api/challenges/${c.id}/cancel`);
      outgoing.delete(c.id);
      poll();
    } catch (err) {
      error.textContent = err.message;
    }
  };
  return el("div", { class: "challenge outgoing", "data-id": c.id },
    el("p", {}, "You challenged ", who(c.challenged), ": ", summary(c), ". Waiting for an answer…"),
    el("div", { class: "challenge-actions" }, el("button", { class: "cancel", onclick: cancel }, "Cancel")),
    error);
}

function noteCard(n) {
  const close = () => {
    notes.splice(notes.indexOf(n), 1);
    draw([], []);
    poll();
  };
  return el("div", { class: "challenge note", "data-id": n.id },
    el("p", {}, n.text), el("button", { class: "dismiss", onclick: close }, "OK"));
}

function draw(incoming, mine) {
  const b = banner();
  const cards = [...incoming.map(incomingCard), ...mine.map(outgoingCard), ...notes.map(noteCard)];
  b.replaceChildren(...cards);
  b.classList.toggle("hidden", !cards.length);
}

// An outgoing challenge no longer open: follow it to its table, or say what became of it.
async function settled(c) {
  let got;
  try {
    got = (await api("GET", `/api/challenges/${c.id}`)).challenge;
  } catch {
    return;
  }
  const name = got.challenged.display || got.challenged.name;
  if (got.state === "accepted" && got.url) {
    location.assign(got.url);
  } else if (got.state === "declined") {
    notes.push({ id: c.id, text: `${name} declined your challenge (${summary(got)}): ` +
      `“${REASONS[got.reason] || got.reason}”.` });
  } else if (got.state === "expired") {
    notes.push({ id: c.id, text: `Your challenge to ${name} expired unanswered.` });
  }
}


async function poll() {
  if (!me) return;
  let got;
  try {
    got = await api("GET", "/api/challenges");
    await gameList();
  } catch {
    return;  // the server is away: ask again next time
  }
  const open = new Set(got.outgoing.map((c) => c.id));
  for (const [id, c] of outgoing) {
    if (!open.has(id)) {
      outgoing.delete(id);
      await settled(c);
    }
  }
  for (const c of got.outgoing) outgoing.set(c.id, c);
  draw(got.incoming, got.outgoing);
}

function options(pairs, chosen) {
  return pairs.map(([v, text]) => el("option", { value: v === null ? "" : String(v),
    selected: v === chosen }, text));
}

// The dialog that makes a challenge to `username` (shown as `name`), `game` chosen first.
export async function openChallengeDialog(username, name, botAccount, game) {
  const list = (await gameList()).filter((g) => g.max_players >= 2);
  document.getElementById("challenge-dialog")?.remove();
  const $game = el("select", { id: "ch-game" }, ...list.map((g) => el("option",
    { value: g.name, selected: g.name === game }, g.title)));
  const $variant = el("select", { id: "ch-variant" });
  const $seats = el("select", { id: "ch-seats" });
  const $mine = el("select", { id: "ch-seat" });
  const $others = el("div", { id: "ch-others", class: "ch-others" });
  const $pace = el("select", { id: "ch-pace" }, ...options([["live", "live: played at one sitting"],
    ["turn-based", "turn-based: a move may take hours or days"]], "live"));
  const $clock = el("select", { id: "ch-clock" });
  const $rated = el("input", { type: "checkbox", id: "ch-rated", checked: true });
  const error = el("p", { class: "error small", id: "ch-error", "aria-live": "polite" });
  const info = () => list.find((g) => g.name === $game.value);
  const fill = () => {
    const g = info();
    $variant.replaceChildren(...g.variants.filter((v) => v.challenge === undefined)
      .map((v, i) => el("option", { value: String(i) }, describeVariant(v))));
    const seats = [];
    for (let n = Math.max(2, g.min_players); n <= g.max_players; n += 1) seats.push([n, `${n} seats`]);
    $seats.replaceChildren(...options(seats, 2));
    seatsChanged();
  };
  const seatsChanged = () => {
    const n = Number($seats.value);
    const mine = [[null, "drawn at random"]];
    for (let i = 0; i < n; i += 1) mine.push([i, `seat ${i + 1}`]);
    $mine.replaceChildren(...options(mine, null));
    const extra = [];
    for (let i = 0; i < n - 2; i += 1) {
      extra.push(el("label", {}, `Seat for player ${i + 3}: `,
        el("select", { class: "ch-fill", "data-extra": i }, ...options(FILLS, "medium"))));
    }
    $others.replaceChildren(...extra);
  };
  const paceChanged = () => {
    $clock.replaceChildren(...($pace.value === "live" ? options(LIVE_CLOCKS, null)
      : options(TURN_CLOCKS, 86400)));
  };
  $game.addEventListener("change", fill);
  $seats.addEventListener("change", seatsChanged);
  $pace.addEventListener("change", paceChanged);
  fill();
  paceChanged();
  const dialog = el("dialog", { id: "challenge-dialog", class: "challenge-dialog",
    "aria-labelledby": "ch-title" });
  const send = async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const g = info();
    const variants = g.variants.filter((v) => v.challenge === undefined);
    const body = {
      to: username, game: g.name, variant: variants[Number($variant.value)] || {},
      seats: Number($seats.value),
      challenger_seat: $mine.value === "" ? null : Number($mine.value),
      others: [...$others.querySelectorAll("select")].map((s) => s.value || null),
      pace: $pace.value, clock: $clock.value === "" ? null : Number($clock.value),
      rated: $rated.checked,
    };
    try {
      const made = await api("POST", "/api/challenges", body);
      outgoing.set(made.challenge.id, made.challenge);
      dialog.close();
      dialog.remove();
      poll();
    } catch (err) {
      error.textContent = err.message;
    }
  };
  const row = (label, field) => el("label", { class: "ch-row" }, el("span", {}, label), field);
  dialog.append(el("form", { method: "dialog", onsubmit: send },
    el("h2", { id: "ch-title" }, "Challenge ", name, botBadge(botAccount)),
    row("Game", $game), row("Variant", $variant), row("Seats", $seats), row("Your seat", $mine),
    $others, row("Pace", $pace), row("Clock", $clock),
    el("label", { class: "ch-check" }, $rated, " Rated (moves both ratings; casual if unticked)"),
    error,
    el("div", { class: "challenge-actions" },
      el("button", { type: "submit", class: "primary", id: "ch-send" }, "Send the challenge"),
      el("button", { type: "button", id: "ch-close", onclick: () => { dialog.close(); dialog.remove(); } },
        "Close"))));
  document.body.append(dialog);
  dialog.showModal();
}

function challengeButton(username, name, botAccount, label) {
  return el("button", { class: "challenge-open", "data-username": username,
    onclick: () => openChallengeDialog(username, name, botAccount) }, label);
}

// /u/<name>: a Challenge button under the profile's name (not on your own profile).
async function onProfile() {
  const username = decodeURIComponent(location.pathname.replace(/^\/u\/?/, ""));
  if (!username || username.toLowerCase() === me.account.username.toLowerCase()) return;
  let p;
  try {
    p = await api("GET", `/api/users/${encodeURIComponent(username)}`);
  } catch {
    return;  // no such player: the profile page says so
  }
  const meta = document.getElementById("profile-meta");
  if (!meta) return;
  meta.after(el("p", { class: "challenge-here" },
    challengeButton(p.username || username, p.display_name || username, p.bot_account, "Challenge")));
}

// /t/<id>: a line under the seats to challenge each account seated there but you.
async function onTable() {
  const table = location.pathname.split("/")[2];
  const seats = document.getElementById("seats");
  if (!table || !seats) return;
  let got;
  try {
    got = await api("GET", `/api/challenges/players/${encodeURIComponent(table)}`);
  } catch {
    return;
  }
  const others = got.players.filter((p) => p.username !== me.account.username);
  if (!others.length) return;
  seats.after(el("p", { class: "challenge-here small", id: "challenge-players" },
    "Challenge to another game: ",
    ...others.map((p) => challengeButton(p.username, p.name, p.bot_account, p.name))));
}

async function start() {
  me = await session();
  if (!me) return;
  if (location.pathname.startsWith("/u/")) onProfile();
  if (location.pathname.startsWith("/t/")) onTable();
  poll();
  setInterval(poll, EVERY);
}

start();

