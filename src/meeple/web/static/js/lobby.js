// The lobby: create a table (game, variant, seats: me / a friend by link / a bot; clock),
// a sheet of one's own (Gardens, Reefs, Takenokolor: upload, check, preview), and the lists of
// waiting, running and finished tables.
import { mountPlayNow } from "../playnow/playnow.js";
import { mountTournaments } from "../tournaments/tournaments.js";
import { ratingWords } from "../ratings/ratingchart.js";
import { accountLink, api, botBadge, el, describeVariant, heldSeat, holdSeat, myName, seatName, session,
  setMyName, showPlayAs, wireColourBlind } from "./common.js";
import { loadDrawing } from "./games/index.js";
import { dhm, paceWords } from "./clock.js";
import { notifyControl, notifyTurn } from "./notify.js";

// the named difficulties first (each its game's preset, docs/bots.md), then the plain bots;
// short labels, so that a seat's select fits a phone. The times are what a turn takes as
// measured (benchmarks/bench_turn_time.py; docs/bots.md): hard searches up to 0.6-0.8 s of
// CPU a decision and a turn has one to several decisions; expert thinks as long as hard, its
// search guided by the game's trained nets; no game ships one yet, so the label says it plays
// as hard (change it when docs/strength.md measures a shipped net)
const BOT_CHOICES = [
  ["easy", "bot: easy"],
  ["medium", "bot: medium"],
  ["hard", "bot: hard (a few seconds a turn)"],
  ["expert", "bot: expert (as hard, untrained)"],
  ["random", "bot: random (any legal move)"],
  ["greedy", "bot: greedy (best turn now)"],
  ["mcts:seconds=1", "bot: mcts (1 s a decision)"],
];

// the bots a rated table may seat (docs/ratings.md): the named difficulties
const RATED_BOTS = ["easy", "medium", "hard", "expert"];

let games = [];
const $ = (id) => document.getElementById(id);
// the checked own sheet: {game, text, name, variant, layout, view}, or null (shipped sheets)
let own = null;
// a chosen file that is not (yet) a valid sheet: {file, problems: ["line 4, row_stars: ..."]}
// while it is checked (problems null) or once refused; Create table then refuses too, naming
// them, rather than playing the shipped sheet
let notOwn = null;
const sheetGames = new Map();   // game -> GET /api/sheets/{game} (null: takes no own sheet)

function currentGame() { return games.find((g) => g.name === $("game").value); }

// a solo challenge by number (Pergola's, from GET /api/games), or undefined
function challengeOf(game, number) {
  return (game.challenges || []).find((c) => c.number === Number(number));
}

function optionLabel(game, key, v) {
  if (v === null) return key === "challenge" ? "none (play against others)" : "default";
  const ch = key === "challenge" ? challengeOf(game, v) : null;
  return ch ? `${ch.number}. ${ch.title}` : String(v);
}

function showGoal() {
  // the chosen challenge's goal, before the table exists (the table states it every turn)
  const game = currentGame();
  const box = $("challenge-goal");
  const ch = challengeOf(game, chosenVariant().challenge);
  box.classList.toggle("hidden", !ch);
  if (!ch) { box.replaceChildren(); return; }
  const free = ch.number === 10;
  const name = $("my-name").value.trim() || myName();
  box.replaceChildren(
    el("strong", {}, free ? "Solo: the Free game" : `Solo challenge ${ch.number}: ${ch.title}`),
    free ? "A standard game without any additional goal; its score goes to the Free game space."
      : `Goal: ${ch.goal}. Met, your score goes to this challenge's space of your achievement ` +
        "table; not met, to the Free game space. The table shows your progress every turn.",
    " ", el("a", { href: name ? `/solo/${encodeURIComponent(name)}` : "/solo/", class: "small" },
      name ? "your achievement table" : "achievement tables"));
}

// the chosen game's rules page, beside the game's select
function showRulesLink() {
  const game = currentGame();
  $("rules-link").href = `/rules/${encodeURIComponent(game.name)}`;
  $("rules-link").textContent = `how to play ${game.title}`;
}

function variantOptions(game) {
  // the options a game offers, each as a select; Pergola's solo challenges only for one player
  const box = $("variant-fields");
  box.replaceChildren();
  for (const [key, values] of Object.entries(game.options)) {
    const sel = el("select", { id: `opt-${key}`, "data-option": key });
    for (const v of values) {
      sel.append(el("option", { value: v === null ? "" : String(v) }, optionLabel(game, key, v)));
    }
    box.append(el("label", {}, `${key} `, sel), " ");
    sel.addEventListener("change", () => { refreshPlayers(); showGoal(); });
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

// ---------------------------------------------------------------- a sheet of one's own
async function refreshOwnSheet() {
  const game = currentGame();
  clearOwnSheet();
  if (!game.own_sheet) {  // Pergola: /api/sheets would refuse it (422), so it is not asked
    $("own-sheet").classList.add("hidden");
    return;
  }
  if (!sheetGames.has(game.name)) {
    sheetGames.set(game.name, await api("GET", `/api/sheets/${game.name}`).catch(() => null));
  }
  const info = sheetGames.get(game.name);
  if (currentGame() !== game) return;
  $("own-sheet").classList.toggle("hidden", !info);
  if (!info) return;
  const links = info.shipped.map((name) =>
    el("a", { href: `/api/sheets/${game.name}/${name}`, download: `${game.name}-${name}.toml`,
      class: "sheet-download" }, name));
  $("sheet-downloads").replaceChildren(...links.flatMap((a, i) => (i ? [", ", a] : [a])));
}

function clearOwnSheet() {
  own = null;
  notOwn = null;
  $("sheet-file").value = "";
  $("sheet-clear").classList.add("hidden");
  $("sheet-status").textContent = "";
  $("sheet-status").className = "small";
  $("sheet-errors").replaceChildren();
  $("sheet-errors").classList.add("hidden");
  $("sheet-preview").replaceChildren();
  $("sheet-preview").classList.add("hidden");
  lockVariant(null);
}

function lockVariant(variant) {
  // an own sheet decides its variant (a Gardens sheet says its level): the selects show it,
  // and a choice of shipped sheets (Takenokolor's) says "your own sheet"
  for (const sel of document.querySelectorAll("#variant-fields select")) {
    const key = sel.dataset.option;
    const mine = sel.querySelector("option[data-own]");
    sel.disabled = Boolean(variant) && (key === "sheet" || key in variant);
    if (variant && key === "sheet") {
      if (!mine) {
        sel.dataset.before = sel.value;
        sel.append(el("option", { value: "", "data-own": "1" }, "your own sheet"));
      }
      sel.value = "";
    } else if (mine) {
      mine.remove();
      sel.value = sel.dataset.before || sel.options[0].value;
    }
    if (variant && key in variant) sel.value = String(variant[key]);
  }
}

async function uploadSheet() {
  const file = $("sheet-file").files[0];
  const game = currentGame();
  own = null;
  notOwn = file ? { file, problems: null } : null;
  $("sheet-errors").replaceChildren();
  $("sheet-errors").classList.add("hidden");
  $("sheet-preview").replaceChildren();
  $("sheet-preview").classList.add("hidden");
  lockVariant(null);
  if (!file) { clearOwnSheet(); return; }
  $("sheet-clear").classList.remove("hidden");
  const limit = (sheetGames.get(game.name) || {}).max_bytes || 65536;
  status(`checking ${file.name}…`, "");
  if (file.size > limit) {
    const said = `${file.name} is ${file.size} bytes: a sheet file may have at most ${limit} bytes.`;
    status(said, "error");
    notOwn.problems = [said];
    return;
  }
  const text = await file.text();
  let r;
  try {
    r = await fetch(`/api/sheets/${game.name}/check`, {
      method: "POST", headers: { "content-type": "application/toml" }, body: text });
  } catch (err) {
    status(`the sheet could not be checked: ${err.message}`, "error");
    notOwn.problems = [`it could not be checked (${err.message}): upload it again`];
    return;
  }
  const out = await r.json().catch(() => ({}));
  if (currentGame() !== game || $("sheet-file").files[0] !== file) return;  // changed meanwhile
  if (!r.ok) {
    status(`${file.name}: ${out.detail || r.statusText}`, "error");
    showProblems(out.problems || [], out.allowed);
    notOwn.problems = out.problems && out.problems.length ? out.problems.map(problemText)
      : [out.detail || r.statusText];
    return;
  }
  notOwn = null;
  own = { game: game.name, text, name: out.name, variant: out.variant, layout: out.layout, view: out.view };
  lockVariant(out.variant);
  const plays = describeVariant(out.variant);
  status(`${file.name} is a valid ${game.title} sheet: “${out.name}”` +
    (plays !== "standard" ? ` (${plays})` : "") + ". Create table plays on it.", "okay");
  await drawPreview(own);
}

function status(text, cls) {
  $("sheet-status").textContent = text;
  $("sheet-status").className = `small ${cls}`;
}

function problemWhere(p) { return [p.line ? `line ${p.line}` : null, p.field].filter(Boolean).join(", "); }
function problemText(p) { return `${problemWhere(p)}: ${p.message}`; }

function showProblems(problems, allowed) {
  const list = $("sheet-errors");
  for (const p of problems) {
    list.append(el("li", { class: "sheet-problem" }, el("strong", {}, problemWhere(p)), `: ${p.message}`));
  }
  if (allowed) list.append(el("li", { class: "sheet-allowed muted" }, allowed));
  list.classList.toggle("hidden", !list.children.length);
}

async function drawPreview(sheet) {
  // the game's own drawing module, on the layout and a view of a new game on the sheet:
  // nothing marked, nothing to click
  const box = $("sheet-preview");
  box.replaceChildren(el("h3", {}, `Preview: ${sheet.name}`));
  box.classList.remove("hidden");
  const drawing = await loadDrawing(sheet.game);
  const inner = el("div", { class: "upload-drawing" });
  box.append(inner);
  if (!drawing || !drawing.draw) {
    inner.append(el("pre", { class: "sheet" }, sheet.view.text || "(no drawing for this game)"));
    return;
  }
  drawing.draw(inner, {
    layout: sheet.layout, view: sheet.view, board: sheet.view.board || {}, seat: 0,
    cb: document.body.classList.contains("cb"), lit: new Set(), choose: () => {}, preview: true,
  });
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
    sel.value = old[i] || (i === 0 ? "me" : "bot:medium");
    box.append(el("p", {}, el("label", {}, `Seat ${i + 1} `, sel)));
  }
  applyRated();
}

// a rated table seats only the named difficulties' bots: the others are offered no more (a
// seat that had one takes medium)
function applyRated() {
  const rated = $("rated").checked;
  for (const sel of document.querySelectorAll("#seat-fields select")) {
    for (const opt of sel.options) {
      const spec = opt.value.startsWith("bot:") ? opt.value.slice(4) : null;
      opt.disabled = rated && spec !== null && !RATED_BOTS.includes(spec);
    }
    if (sel.selectedOptions[0] && sel.selectedOptions[0].disabled) sel.value = "bot:medium";
  }
}

// a file chosen under "Your own sheet" that is not a valid sheet is never replaced by the
// shipped one: Create table refuses, naming its problems (or waits for its check)
function refuseBrokenSheet(game) {
  if (!notOwn || !game.own_sheet || (own && own.game === game.name)) return false;
  const name = notOwn.file.name;
  if (!notOwn.problems) {
    $("create-error").textContent = `${name} is still being checked: create the table once it is.`;
    return true;
  }
  const n = notOwn.problems.length;
  $("create-error").replaceChildren(
    `No table: your sheet ${name} is not a valid ${game.title} sheet ` +
      `(${n} problem${n === 1 ? "" : "s"}). Fix ${n === 1 ? "it" : "them"} and upload the file again, or ` +
      "choose “use the shipped sheet instead”.",
    el("ul", { class: "sheet-errors", id: "create-problems" },
      notOwn.problems.slice(0, 10).map((p) => el("li", {}, p)),
      n > 10 ? el("li", { class: "muted" }, `and ${n - 10} more, listed under Your own sheet`) : null));
  return true;
}

async function create(ev) {
  ev.preventDefault();
  $("create-error").textContent = "";
  const game = currentGame();
  if (refuseBrokenSheet(game)) return;
  const seats = [];
  let me = false;
  for (const sel of document.querySelectorAll("#seat-fields select")) {
    if (sel.value === "me") { me = true; seats.push({ kind: "human" }); }
    else if (sel.value === "friend") seats.push({ kind: "human" });
    else seats.push({ kind: "bot", bot: sel.value.slice(4) });
  }
  const signed = await session();
  const name = seatName(signed, $("my-name").value.trim() || "player");
  if (!signed) setMyName(name);
  const body = {
    game: game.name, variant: chosenVariant(), seats,
    clock: $("clock").value ? Number($("clock").value) : null,
    public: $("public").checked,
  };
  if ($("rated").checked) body.rated = true;
  if ($("pace").value === "turn-based") {  // hours or days a move, and a time bank
    Object.assign(body, { pace: "turn-based", clock: Number($("move-time").value),
      bank: Number($("bank").value) });
  }
  if (own && own.game === game.name) {
    // the sheet decides the variant; the server checks the file again and keeps it
    body.sheet = own.text;
    body.variant = {};
  }
  if (me) body.join_as = name;
  try {
    $("create").disabled = true;
    const out = await api("POST", "/api/tables", body);
    const table = out.table || out;
    // a guest keeps the seat's secret; a signed-in seat is the account's
    // (src/meeple/server/features/accounts/README.md)
    if (out.secret && !(await session())) holdSeat(table.id, out.seat, out.secret, name);
    location.href = `/t/${table.id}`;
  } catch (err) {
    const problems = (err.body && err.body.problems) || [];
    $("create-error").replaceChildren(err.message, problems.length
      ? el("ul", { class: "sheet-errors", id: "create-problems" },
        problems.map((p) => el("li", {}, problemText(p))))
      : "");
  } finally {
    $("create").disabled = false;
  }
}

function variantText(t) {
  // "challenge 4: At least 5 points from a cascade bonus" for a solo table, else the options
  const game = games.find((g) => g.name === t.game);
  const ch = game && t.variant && challengeOf(game, t.variant.challenge);
  return ch ? `challenge ${ch.number}: ${ch.title}` : describeVariant(t.variant);
}

// every seat's name (BOT after a bot account's) and rating, joined by commas
function seatSummary(t) {
  return t.seats.flatMap((s, i) => {
    const who = s.kind === "bot" || s.taken ? s.name : "open";
    const rating = s.rating !== null && s.rating !== undefined
      ? ` (${ratingWords(s.rating, s.provisional)})` : "";
    return [i ? ", " : null, who, botBadge(s.bot_account), rating];
  });
}

// the rating column: a rated table's tag and its seats' mean rating, or "casual"
function ratingCell(t) {
  if (!t.rated) return el("td", { class: "small muted rating-cell" }, "casual");
  const known = t.seats.map((s) => s.rating).filter((r) => r !== null && r !== undefined);
  const mean = known.length ? Math.round(known.reduce((a, b) => a + b, 0) / known.length) : null;
  return el("td", { class: "small rating-cell" }, el("span", { class: "rated-tag" }, "rated"),
    mean !== null
      ? el("span", { class: "seat-rating", title: "the seats' mean rating" }, ` ~${mean}`) : null);
}

// the lists are paged (GET /api/tables?limit&offset, X-Total-Count: how many in all), so a
// flood of tables never hides the others: each list shows PAGE tables, newest first, with
// "newer" and "older" to page through the rest
const PAGE = 30;
const offsets = { waiting: 0, running: 0, finished: 0 };

async function listPage(status) {
  const r = await fetch(`/api/tables?status=${status}&limit=${PAGE}&offset=${offsets[status]}`);
  if (!r.ok) throw new Error(r.statusText);
  return { tables: await r.json(), total: Number(r.headers.get("X-Total-Count")) || 0 };
}

function showPager(status, total) {
  let nav = $(`${status}-pages`);
  if (!nav) {
    nav = el("p", { id: `${status}-pages`, class: "small pager" });
    $(status).after(nav);
  }
  nav.replaceChildren();
  if (total <= PAGE) return;
  const from = offsets[status];
  const turn = (offset) => () => { offsets[status] = Math.max(0, offset); refreshList(status); };
  nav.append(...[
    from > 0 ? el("button", { type: "button", onclick: turn(from - PAGE) }, "‹ newer") : null,
    ` ${from + 1}–${Math.min(from + PAGE, total)} of ${total} `,
    from + PAGE < total ? el("button", { type: "button", onclick: turn(from + PAGE) }, "older ›") : null,
  ].filter((part) => part !== null));
}

async function refreshList(status) {
  let page;
  try { page = await listPage(status); } catch { return; }
  if (!page.tables.length && offsets[status] > 0) {  // the last page emptied meanwhile
    offsets[status] = Math.max(0, Math.floor((page.total - 1) / PAGE) * PAGE);
    try { page = await listPage(status); } catch { return; }
  }
  const body = document.querySelector(`#${status} tbody`);
  body.replaceChildren();
  showPager(status, page.total);
  if (!page.tables.length) body.append(el("tr", {}, el("td", { class: "muted" }, "none")));
  for (const t of page.tables) {
    // a guest's seat by its secret here, a signed-in person's by the account (My games)
    const mine = heldSeat(t.id) || accountTables.has(t.id);
    const action = status === "waiting" && t.open_seats.length && !mine
      ? el("a", { href: `/t/${t.id}?join` }, "join")
      : status === "finished"
        ? el("a", { href: `/t/${t.id}?replay` }, "replay")
        : el("a", { href: `/t/${t.id}` }, mine ? "play" : "watch");
    // a finished Pergola solo game links its player's achievement table
    const solo = status === "finished" && t.game === "pergola" && t.players === 1
      ? el("a", { href: `/solo/${encodeURIComponent(t.seats[0].name)}`, class: "small solo-link" },
        "achievements")
      : null;
    body.append(el("tr", {},
      el("td", {}, el("strong", {}, t.title)),
      el("td", { class: "small" }, variantText(t),
        t.own_sheet ? el("span", { class: "own-sheet-tag" }, ` own sheet: ${t.own_sheet}`) : null,
        paceWords(t) ? el("span", { class: "pace-tag", title: paceWords(t) },
          ` turn-based · ${dhm(t.clock)} a move`) : null),
      el("td", { class: "small seats" }, seatSummary(t)),
      ratingCell(t),
      el("td", { class: "actions" }, action, solo ? " · " : null, solo)));
  }
}

// the turns My games shows when the page opens are no news: only later ones are notified
let firstLook = true;
// the tables of My games: the account's seats (a signed-in browser keeps no secret for them)
let accountTables = new Set();

// signed in: the account's games first (GET /api/me/games?sort=turn), its turns on top
async function refreshMyGames() {
  const me = await session();
  if (!me) return;
  if (!$("notify")) {  // "Notify me": a notification when a turn of yours comes (notify.js)
    $("my-games-card").querySelector("h2").after(el("p", { class: "small" }, notifyControl()));
  }
  $("my-profile").setAttribute("href", `/u/${encodeURIComponent(me.account.username)}`);
  let games;
  try { games = await api("GET", "/api/me/games?sort=turn&limit=20"); } catch { return; }
  accountTables = new Set(games.map((g) => g.table));
  $("my-games-card").classList.remove("hidden");
  const body = document.querySelector("#my-games tbody");
  body.replaceChildren();
  if (!games.length) {
    body.append(el("tr", {}, el("td", { class: "muted" }, "none yet: create or join a table")));
  }
  for (const g of games) {
    const whose = g.status === "finished" ? "finished"
      : g.status === "waiting" ? "waiting for players"
        : g.turn ? `${g.turn.name} to move` : "";
    // the time the seat to move has left (a turn-based table's: its move, then its bank)
    const left = g.status === "running" && g.left !== null && g.left !== undefined
      ? el("span", { class: "time-left", title: "time left to move, then a stand-in plays" },
        ` · ${dhm(g.left)} left`) : null;
    if (g.my_turn) {  // a browser notification while this tab is hidden (notify.js)
      notifyTurn(`${g.table}:${g.version}`, `Your turn: ${g.title}`,
        `${g.seats.join(", ")}${g.left !== null ? ` · ${dhm(g.left)} left` : ""}`, `/t/${g.table}`,
        firstLook);
    }
    body.append(el("tr", { "data-table": g.table },
      el("td", {}, el("strong", {}, g.title), " ",
        el("span", { class: "small muted" }, describeVariant(g.variant))),
      el("td", { class: "small" }, g.seats.join(", ")),
      el("td", { class: "small" }, whose, left,
        g.pace === "turn-based" ? el("span", { class: "pace-tag" }, " · turn-based") : null),
      el("td", {}, g.my_turn ? el("span", { class: "your-turn" }, "your turn") : null),
      el("td", { class: "actions" }, el("a",
        { href: `/t/${g.table}${g.status === "finished" ? "?replay" : ""}` },
        g.status === "finished" ? "replay" : g.my_turn ? "play" : "open"))));
  }
}

async function refreshLists() {
  await refreshMyGames();
  firstLook = false;
  for (const status of ["waiting", "running", "finished"]) await refreshList(status);
}

async function start() {
  wireColourBlind($("cb-toggle"), () => { if (own) drawPreview(own); });
  accountLink();
  $("my-name").value = myName();
  games = await api("GET", "/api/games");
  mountPlayNow(games);
  mountTournaments(games);
  for (const g of games) $("game").append(el("option", { value: g.name }, g.title));
  // /?game=pergola (a rules page's "Play Pergola"): that game chosen
  const wanted = new URLSearchParams(location.search).get("game");
  if (games.some((g) => g.name === wanted)) $("game").value = wanted;
  $("game").addEventListener("change",
    () => {
      variantOptions(currentGame()); refreshPlayers(); showGoal(); refreshOwnSheet(); showRulesLink();
    });
  $("my-name").addEventListener("change", showGoal);
  $("sheet-file").addEventListener("change", uploadSheet);
  $("sheet-clear").addEventListener("click", clearOwnSheet);
  $("players").addEventListener("change", refreshSeats);
  $("pace").addEventListener("change", () => {
    const turnBased = $("pace").value === "turn-based";
    $("turn-clock").classList.toggle("hidden", !turnBased);
    $("live-clock").classList.toggle("hidden", turnBased);
  });
  $("create-form").addEventListener("submit", create);
  $("rated").addEventListener("change", applyRated);
  // a rated table is an accounts' table: offered only when signed in
  session().then((me) => {
    $("rated-field").classList.toggle("hidden", !me);
    showPlayAs($("my-name-field"), $("play-as"), me);  // signed in: no name box
  });
  variantOptions(currentGame());
  refreshPlayers();
  showGoal();
  showRulesLink();
  await refreshOwnSheet();
  await refreshLists();
  setInterval(refreshLists, 5000);
}

start();
