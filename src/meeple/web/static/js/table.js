// A table: play (a seat this browser holds), watch (spectator) or replay (a finished game).
//
// The server's engine decides everything: the page shows the view it sends, and builds a turn
// by clicks as a list of moves that the server previews (the position after them, with every
// forced decision added, each move marked forced or not) until the turn is complete; "Confirm
// turn" sends the whole list, which is stored at once or refused whole. Undo and reset act on
// that list and reach nobody. Which decisions are forced is the server's word, never the page's:
// a turn that opens with forced ones gets them named in the view frame (`forced`).
import { api, el, heldSeat, holdSeat, myName, setMyName, wireColourBlind,
  describeVariant } from "./common.js";
import { Connection } from "./net.js";
import { loadDrawing } from "./games/index.js";
import { label, renderEnd, rowLabels } from "./endgame.js";
import { placeToasts, toast } from "./toasts.js";
import { hintButton } from "./hint.js";
import { analysisPanel, fetchAnalysis } from "./analysis.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const tableId = location.pathname.split("/").filter(Boolean).pop();

const page = {
  table: null,       // GET /api/tables/{id}
  layout: {},        // GET /api/tables/{id}/layout
  draw: null,        // the game's drawing module
  me: null,          // {seat, secret} held by this browser
  mode: "watch",     // "play" | "watch" | "replay"
  view: null,        // the last committed view
  version: -1,
  buffer: [],        // moves of this turn not yet confirmed
  forced: [],        // for each move of the buffer: whether it was forced (the server says)
  opening: [],       // the forced decisions that open this seat's turn (the view frame's)
  preview: null,     // the view after the buffer
  complete: false,   // whether the buffer completes the turn
  pending: false,    // a preview or a confirm is on its way
  sentAt: -1,        // the committed version the preview on its way was built on
  lastLogNumber: null,
  conn: null,
  replay: { at: 0, total: 0 },
};

// ---------------------------------------------------------------- drawing
function shownView() { return page.preview || page.view; }

function myTurn(view) {
  return page.mode === "play" && view && !view.over && page.me && view.to_move === page.me.seat;
}

function render() {
  const view = shownView();
  if (!view) return;
  document.body.classList.toggle("my-turn", Boolean(myTurn(page.view)));
  // for tests and styles: what the page is waiting for, and the committed version
  document.body.dataset.phase = page.mode === "replay" ? "replay" : page.view.over ? "over"
    : page.pending ? "pending" : myTurn(page.view) ? (page.complete ? "complete" : "my-turn")
    : page.mode === "watch" ? "watching" : "waiting";
  document.body.dataset.version = String(page.version);
  renderSeats(view);
  renderStatus(view);
  renderChoices(view);
  renderBoard(view);
  renderPad(view);
  renderLog(view);
  renderEndPanel();
  placeToasts();
}

function renderEndPanel() {
  // the committed position only (a preview that ends the game is not over until confirmed)
  renderEnd($("end-panel"), {
    view: page.preview ? null : page.view, layout: page.layout, me: page.me ? page.me.seat : -1,
  });
}

function renderSeats(view) {
  const box = $("seats");
  box.replaceChildren();
  view.seats.forEach((s, i) => {
    const info = page.table.seats[i] || {};
    const cls = ["seat-chip"];
    if (view.to_move === i && !view.over) cls.push("to-move");
    if (page.me && page.me.seat === i) cls.push("me");
    const tags = [];
    if (info.kind === "bot") tags.push("bot");
    if (info.absent) tags.push("a bot plays for them");
    if (page.me && page.me.seat === i) tags.push("you");
    box.append(el("span", { class: cls.join(" ") }, `${s.name}: ${s.total}`,
      tags.length ? el("span", { class: "muted small" }, ` (${tags.join(", ")})`) : null));
  });
}

function renderStatus(view) {
  const who = (i) => view.seats[i].name;
  let text;
  if (page.complete && myTurn(page.view)) {
    text = view.over ? "This turn ends the game: confirm it, or undo."
      : "Your turn is complete: confirm it, or undo.";
  } else if (view.over) {
    const w = view.winners.map(who);
    text = view.players === 1
      ? `Game over: ${who(0)} scored ${view.seats[0].total}.`
      : `Game over: ${w.join(" and ")} ${w.length > 1 ? "share the win" : "wins"} with` +
        ` ${view.seats[view.winners[0]].total}.`;
    const said = (view.board && view.board.result_text) || "";
    if (said) text += " " + said;
  } else if (page.mode === "replay") {
    text = `Replay: move ${page.replay.at} of ${page.replay.total}`;
  } else if (view.chance_pending) {
    text = "Rolling…";
  } else if (myTurn(page.view)) {
    const doing = (view.board && view.board.doing) || "";
    text = `Your turn${doing ? ": " + doing : "."}`;
  } else if (view.to_move !== null) {
    const doing = (view.board && view.board.doing) || "";
    text = `${who(view.to_move)} is to move${doing ? ": " + doing : "."}`;
  } else {
    text = "";
  }
  $("status").textContent = text;
}

function renderChoices(view) {
  const box = $("choices");
  box.replaceChildren();
  const mine = myTurn(page.view);
  // a turn of forced decisions only has nothing to take back
  const chosen = page.buffer.some((_, i) => page.forced[i] === false);
  $("undo").classList.toggle("hidden", !(mine && chosen));
  $("reset").classList.toggle("hidden", !(mine && chosen && page.buffer.length > 1));
  $("confirm").classList.toggle("hidden", !(mine && page.complete));
  showHintTools(mine);
  $("confirm").disabled = page.pending;
  $("buffer").textContent = mine && page.buffer.length ? `this turn: ${page.buffer.join(", ")}` : "";
  if (!mine || page.complete) return;
  const legal = view.legal_moves || [];
  const labels = new Map(((view.board && view.board.choices) || []).map((c) => [c.move, c.label || c.move]));
  const group = el("div", { class: "choice-list", role: "group", "aria-label": "your choices" });
  for (const m of legal) {
    group.append(el("button", { class: "choice", "data-move": m, onclick: () => choose(m),
      disabled: page.pending }, labels.get(m) || m));
  }
  const typed = el("input", { id: "typed", placeholder: "or type a move", "aria-label": "type a move",
    size: 16 });
  typed.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && typed.value.trim()) { choose(typed.value.trim()); typed.value = ""; }
  });
  box.append(...foldChoices(group, el("p", { class: "small" }, typed,
    el("span", { class: "muted" }, "  keys: Enter confirms, Backspace undoes, 1-9 pick a choice"))));
}

// issue 39 #4 (drawings): where the game's drawing takes every choice by a click (its module
// exports `choicesOnDrawing`), a long list of choice buttons and the typing box are folded into
// a box, closed until the player opens it (then open for the rest of the visit), so the sheet
// stays in view. Returns what goes into #choices.
const FOLD_OVER = 8;
let choicesUnfolded = false;
function foldChoices(group, typing) {
  const n = group.children.length;
  if (!(page.draw && page.draw.choicesOnDrawing) || n <= FOLD_OVER) return [group, typing];
  const fold = el("details", { class: "choice-fold", open: choicesUnfolded },
    el("summary", {}, `the ${n} choices as a list`), group, typing);
  fold.addEventListener("toggle", () => { choicesUnfolded = fold.open; });
  return [fold];
}

function renderBoard(view) {
  const box = $("board");
  const lit = myTurn(page.view) && !page.complete ? new Set(view.legal_moves || []) : new Set();
  const ctx = {
    layout: page.layout, view, board: view.board || {}, seat: page.me ? page.me.seat : null,
    cb: document.body.classList.contains("cb"), lit, choose,
  };
  box.replaceChildren();
  if (page.draw && page.draw.draw && view.board && Object.keys(view.board).length) {
    page.draw.draw(box, ctx);
  } else {
    box.append(el("h2", {}, "Sheets"), el("pre", { class: "sheet" },
      view.text || "(no drawing for this game yet)"));
  }
}

function renderPad(view) {
  const rows = view.scores.length ? Object.keys(view.scores[0].rows) : [];
  const me = page.me ? page.me.seat : -1;
  const head = el("tr", {}, el("th", {}, ""), ...view.seats.map((s, i) => el("th",
    { class: i === me ? "me" : "" }, s.name)));
  const labels = rowLabels(page.layout);  // the printed pad's words, as the end panel has
  const body = rows.map((r) => el("tr", { "data-row": r }, el("td", {}, label(labels, r)),
    ...view.scores.map((s, i) => el("td", { class: i === me ? "me" : "" }, s.rows[r]))));
  const total = el("tr", { class: "total", "data-row": "total" }, el("td", {}, "Total"),
    ...view.scores.map((s, i) => el("td", { class: i === me ? "me" : "" }, s.total)));
  $("pad").replaceChildren(el("table", { class: "pad", id: "pad-table" }, el("thead", {}, head), el("tbody",
    {}, body, total)));
}

function renderLog(view) {
  const list = $("log");
  const committed = page.view && page.view.log.length ? page.view.log[page.view.log.length - 1].number : 0;
  // lines already shown as they are stay (a long game's log is not redrawn at every click):
  // keep the longest run of equal lines from the top, then draw the rest
  const pendingOf = (line) => view !== page.view && line.number > committed;
  const keys = view.log.map((line) => JSON.stringify([line.number, pendingOf(line), line.who, line.move,
    line.said]));
  const kids = list.children;
  let same = 0;
  while (same < kids.length && same < keys.length && kids[same].dataset.key === keys[same]) same++;
  const changed = same < kids.length || same < keys.length;
  while (list.children.length > same) list.lastChild.remove();
  view.log.slice(same).forEach((line, k) => {
    const pending = pendingOf(line);
    list.append(el("li", { value: line.number, class: pending ? "pending" : "", "data-key": keys[same + k] },
      el("span", {}, `${line.who}: ${line.move}`),
      pending ? el("span", { class: "muted small" }, " (not confirmed yet)") : null,
      ...line.said.map((s) => el("span", { class: "said" }, s))));
  });
  if (changed) list.scrollTop = list.scrollHeight;
  // announcements for what is new since the last committed view (not for previews)
  if (view === page.view) {
    const last = view.log.length ? view.log[view.log.length - 1].number : 0;
    if (page.lastLogNumber !== null) {
      for (const line of view.log) if (line.number > page.lastLogNumber) line.said.forEach(announce);
    }
    page.lastLogNumber = last;
  }
}

function announce(text) { toast(text); }

// ---------------------------------------------------------------- playing
function refuse(reason) { $("refusal").textContent = reason || ""; }

function choose(move) {
  if (!myTurn(page.view) || page.pending || page.complete) return;
  refuse("");
  sendPreview([...page.buffer, move]);
}

// the preview's reply gives back these moves and the forced decisions that follow them, and
// says which of them were forced
function sendPreview(moves) {
  page.pending = true;
  page.sentAt = page.version;
  page.conn.request({ type: "preview", moves });
  showPending();
}

// while a reply is on its way nothing else changes: say so, without drawing everything again
// (the reply draws the page; a whole redraw here would only delay it)
function showPending() {
  document.body.dataset.phase = "pending";
  for (const b of document.querySelectorAll("#choices button, #confirm")) b.disabled = true;
}

function undo() {
  if (!page.buffer.length || page.pending) return;
  refuse("");
  // the forced moves after a step come back with it: drop them and the last step the player chose
  let n = page.buffer.length;
  while (n > 0 && page.forced[n - 1] === true) n--;
  const moves = page.buffer.slice(0, Math.max(0, n - 1));
  if (!moves.length) { resetTurn(); return; }
  sendPreview(moves);
}

function resetTurn() {
  page.buffer = [];
  page.preview = null;
  page.complete = false;
  refuse("");
  render();
  playOpening();
}

function confirmTurn() {
  if (!page.complete || page.pending) return;
  page.pending = true;
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  page.conn.request({ type: "move", moves: page.buffer, version: page.version, id });
  showPending();
}

function onFrame(frame) {
  if (["preview", "ack", "refused", "error"].includes(frame.type)) page.conn.settle();
  if (frame.type === "view") {
    if (frame.version < page.version) return;
    const moved = frame.version !== page.version;
    page.version = frame.version;
    page.view = frame.view;
    page.opening = frame.forced || [];
    // a turn being built belongs to the position it was built on
    if (moved || !myTurn(page.view)) { page.buffer = []; page.preview = null; page.complete = false; }
    render();
    playOpening();
  } else if (frame.type === "preview") {
    page.pending = false;
    if (page.sentAt !== page.version) { render(); playOpening(); return; }  // for an old position
    page.buffer = frame.moves;
    page.forced = frame.forced;
    page.preview = frame.moves.length ? frame.view : null;
    page.complete = frame.complete;
    render();
    if (page.complete && localStorage.getItem("meeple.autoconfirm") === "1") confirmTurn();
  } else if (frame.type === "ack") {
    page.pending = false;
    // the view after the move comes first; if it is past the move already (a bot that played
    // at once after it), the turn being built belongs to that newer position: keep it
    if (frame.version >= page.version) { page.buffer = []; page.preview = null; page.complete = false; }
    render();
    playOpening();
  } else if (frame.type === "refused") {
    page.pending = false;
    refuse(frame.reason);
    if (!frame.preview) { page.buffer = []; page.preview = null; page.complete = false; }
    render();
  } else if (frame.type === "error") {
    page.pending = false;
    refuse(frame.reason);
    render();
  }
}

function playOpening() {
  // the decisions with only one legal option that open the turn are made for you (the
  // server names them in its view frame; shown in "this turn")
  if (myTurn(page.view) && !page.buffer.length && !page.pending && page.opening.length) {
    sendPreview(page.opening);
  }
}

// the Hint button (hint.js): on this seat's turn, before any step of it is chosen; a hint
// shown for an earlier position is dropped once the table has moved on
function showHintTools(mine) {
  const box = $("hint-box");
  if (!box.firstChild) box.append(hintButton(page.table.id, () => page.me, box));
  box.classList.toggle("hidden", !mine);
  const panel = box.querySelector(".hint-panel[data-version]");
  if (panel && Number(panel.dataset.version) !== page.version) panel.remove();
}

function wireKeys() {
  $("undo").addEventListener("click", undo);
  $("reset").addEventListener("click", resetTurn);
  $("confirm").addEventListener("click", confirmTurn);
  document.addEventListener("keydown", (ev) => {
    if (ev.target && ev.target.tagName === "INPUT") return;
    if (page.mode === "replay") {
      if (ev.key === "ArrowLeft") replayTo(page.replay.at - 1);
      if (ev.key === "ArrowRight") replayTo(page.replay.at + 1);
      if (ev.key === "Home") replayTo(0);
      if (ev.key === "End") replayTo(page.replay.total);
      return;
    }
    if (ev.key === "Enter") confirmTurn();
    else if (ev.key === "Backspace") undo();
    else if (/^[1-9]$/.test(ev.key)) {
      const buttons = document.querySelectorAll("#choices button.choice");
      const b = buttons[Number(ev.key) - 1];
      if (b) b.click();
    }
  });
}

// ---------------------------------------------------------------- replay
async function replayTo(at) {
  const k = Math.max(0, Math.min(page.replay.total, at));
  page.replay.at = k;
  const frame = await api("GET", `/api/tables/${tableId}/view?at=${k}${page.draw ? "" : "&text=true"}`);
  page.view = frame.view;
  page.replay.total = frame.moves;
  $("rp-range").max = String(frame.moves);
  $("rp-range").value = String(k);
  $("rp-at").textContent = `move ${k} of ${frame.moves}`;
  const url = `/t/${tableId}?replay&at=${k}`;
  $("rp-link").href = url;
  history.replaceState(null, "", url);
  render();
  page.analysis?.update();
}

async function showAnalysis() {
  const box = $("rp-analysis");
  const button = $("rp-analyse");
  button.disabled = true;
  box.replaceChildren(el("p", { class: "muted" }, "Analysing every turn..."));
  try {
    const a = await fetchAnalysis(tableId);
    page.analysis = analysisPanel(a, page.replay.total, () => page.replay.at, replayTo);
    box.replaceChildren(page.analysis);
    button.classList.add("hidden");
  } catch (err) {
    box.replaceChildren(el("p", { class: "error" }, `No analysis: ${err.message}`));
    button.disabled = false;
  }
}

function startReplay() {
  page.mode = "replay";
  $("replay-bar").classList.remove("hidden");
  $("turnbar").classList.add("hidden");
  $("conn").textContent = "replay";
  $("rp-first").onclick = () => replayTo(0);
  $("rp-prev").onclick = () => replayTo(page.replay.at - 1);
  $("rp-next").onclick = () => replayTo(page.replay.at + 1);
  $("rp-last").onclick = () => replayTo(page.replay.total);
  $("rp-range").oninput = (ev) => replayTo(Number(ev.target.value));
  $("rp-analyse").onclick = showAnalysis;
  $("rp-analyse").classList.toggle("hidden", page.table.status !== "finished");
  startReplayAt();
}

async function startReplayAt() {
  // a finished game opens at its last position (where the end panel is), ?at=K at move K;
  // the number of moves (to clamp to) comes with the first view asked for
  const first = await api("GET", `/api/tables/${tableId}/view?at=0`);
  page.replay.total = first.moves;
  const at = params.has("at") ? Number(params.get("at")) : NaN;
  replayTo(Number.isFinite(at) ? at : first.moves);
}

// ---------------------------------------------------------------- joining
function showJoin() {
  const panel = $("join-panel");
  panel.classList.remove("hidden");
  $("join-name").value = myName();
  const sel = $("join-seat");
  sel.replaceChildren(...page.table.open_seats.map((i) => el("option", { value: i }, `seat ${i + 1}`)));
  $("watch-instead").onclick = (ev) => { ev.preventDefault(); panel.classList.add("hidden"); connect(); };
  $("join-form").onsubmit = async (ev) => {
    ev.preventDefault();
    const name = $("join-name").value.trim();
    setMyName(name);
    try {
      const out = await api("POST", `/api/tables/${tableId}/join`, { name, seat: Number(sel.value) });
      holdSeat(tableId, out.seat, out.secret, name);
      page.me = { seat: out.seat, secret: out.secret };
      page.table = out.table;
      panel.classList.add("hidden");
      history.replaceState(null, "", `/t/${tableId}`);
      connect();
    } catch (err) {
      $("join-error").textContent = err.message;
    }
  };
}

function showInvite() {
  const open = page.table.open_seats;
  $("invite").replaceChildren(open.length
    ? el("span", {}, `Waiting for ${open.length} more player(s). Send your friends this link: `,
      el("a", { href: `/t/${tableId}?join`, id: "invite-link" }, `${location.origin}/t/${tableId}?join`))
    : "");
}

function connect() {
  page.mode = page.me ? "play" : "watch";
  page.conn = new Connection(`/ws/tables/${tableId}`, {
    hello: () => {
      const h = { type: "hello" };
      if (page.me) Object.assign(h, { seat: page.me.seat, secret: page.me.secret });
      if (!page.draw) h.text = true;
      return h;
    },
    onFrame,
    onGiveUp: () => {
      page.pending = false;
      refuse("The server did not answer; please click again.");
      render();
    },
    onState: async (state) => {
      $("conn").textContent = state;
      if (state === "connected") {
        // a preview or move still waiting for its reply is sent again after the hello (net.js)
        page.table = await api("GET", `/api/tables/${tableId}`).catch(() => page.table);
        showInvite();
      }
    },
  });
}

async function start() {
  wireColourBlind($("cb-toggle"), () => render());
  wireKeys();
  try {
    page.table = await api("GET", `/api/tables/${tableId}`);
  } catch (err) {
    $("status").textContent = `This table cannot be opened: ${err.message}`;
    $("conn").textContent = "";
    return;
  }
  document.title = `meeple: ${page.table.title}`;
  $("title").textContent = `${page.table.title} · ${describeVariant(page.table.variant)}`;
  const [layout, draw] = await Promise.all([
    api("GET", `/api/tables/${tableId}/layout`).then((r) => r.layout).catch(() => ({})),
    loadDrawing(page.table.game),
  ]);
  page.layout = layout;
  page.draw = draw;
  page.me = heldSeat(tableId);
  if (params.has("replay") || (page.table.status === "finished" && !params.has("live"))) {
    startReplay();
    return;
  }
  if (!page.me && params.has("join") && page.table.open_seats.length) {
    showJoin();
    return;
  }
  connect();
}

start();
