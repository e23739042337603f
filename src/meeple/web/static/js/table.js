// A table: play (a seat this browser holds), watch (spectator) or replay (a finished game).
//
// The server's engine decides everything: the page shows the view it sends, and builds a turn
// by clicks as a list of moves that the server previews (the position after them, with every
// forced decision added, each move marked forced or not) until the turn is complete; "Confirm
// turn" sends the whole list, which is stored at once or refused whole. Undo and reset act on
// that list and reach nobody. Which decisions are forced is the server's word, never the page's:
// a turn that opens with forced ones gets them named in the view frame (`forced`).
import { accountLink, api, claimBrowserSeats, dropSeat, el, forgetSession, heldSeat, holdSeat, myName,
  botBadge, session, seatName, setMyName, showPlayAs,
  wireColourBlind,
  describeVariant } from "./common.js";
import { Connection } from "./net.js";
import { rematchLinks, renderSeatActions } from "../tablelife/tablelife.js";
import { loadDrawing } from "./games/index.js";
import { label, renderEnd, resultSentence, rowLabels } from "./endgame.js";
import { announce } from "./toasts.js";
import { hintButton, lightHint } from "./hint.js";
import { analysisPanel, fetchAnalysis } from "./analysis.js";
import { ordinal } from "../ratings/ratingchart.js";
import { paceWords, playedFor, received, seatClock, standInNote, stoodIn, tick } from "./clock.js";
import { chatPanel, hasChat } from "../chat/chat.js";
import { notifyControl, notifyTurn } from "./notify.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const tableId = location.pathname.split("/").filter(Boolean).pop();

const page = {
  table: null,       // GET /api/tables/{id}
  layout: {},        // GET /api/tables/{id}/layout
  draw: null,        // the game's drawing module
  me: null,          // {seat, secret} held by this browser
  rematch: null,     // the finished table's rematch, once one is made
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
  presence: null,    // the last presence frame: which seats have a connection open
  clock: null,       // the last clock frame (clock.js), on a table with a turn clock
  restoring: true,   // until the first view: steps kept from before a reload are looked at
  restored: null,    // the steps being brought back (their preview is on its way)
  hint: null,        // the hint shown (hint.js): {version, moves, steps}, lit until the table moves on
  chat: null,        // the table chat's panel (chat.js); none at a table of bots only
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
  renderGoal(view);
  renderStandIn();
  renderChoices(view);
  renderBoard(view);
  renderPad(view);
  renderLog(view);
  renderEndPanel();
  renderSeatActions($("seat-actions"), {
    tableId, table: page.table, me: page.mode === "play" ? page.me : null, over: page.view.over,
    onChange: afterSeatAction,
  });
}

// after Leave or Concede (tablelife.js): a seat left goes back to the lobby (a running game's
// stand-in plays for it until its person opens the table again and clicks); a concession
// stays, watching its stand-in play
function afterSeatAction(table, action) {
  page.table = table;
  if (action === "leave") {
    if (table.status === "waiting") dropSeat(tableId);
    location.href = "/";
    return;
  }
  render();
}

function renderEndPanel() {
  // the committed position only (a preview that ends the game is not over until confirmed)
  const view = page.preview ? null : page.view;
  renderEnd($("end-panel"), {
    view, layout: page.layout, me: page.me ? page.me.seat : -1,
    seats: page.table ? page.table.seats : [],
  });
  if (view && view.over) {
    $("end-panel").append(endLinks());
  } else if (page.table && page.table.ended === "abandoned") {
    // finished without its game's end: nobody played on (or nobody joined) for too long
    const box = $("end-panel");
    box.classList.remove("hidden");
    box.replaceChildren(el("h2", { id: "end-title" }, "This table was abandoned"),
      el("p", {}, "Nobody played on for a long while, so the table ended without a result."),
      endLinks());
  }
}

// where to go once the game is over, shown as soon as it ends (live or in the replay): the
// replay (unless this is it), the lobby, and a new game: with the same game, variant, clock
// and seats (the bots again, the other people's seats open) for a player of a shipped sheet
function endLinks() {
  const t = page.table;
  const out = el("nav", { class: "end-links", id: "end-links", "aria-label": "after the game" });
  if (page.mode !== "replay") {
    out.append(el("a", { href: `/t/${tableId}?replay`, id: "end-replay" }, "Replay this game"));
  }
  out.append(el("a", { href: "/", id: "end-lobby" }, "Back to the lobby"));
  const rematch = rematchLinks({ tableId, table: t, me: page.me, rematch: page.rematch });
  out.append(...rematch);
  if (!rematch.length || !page.me) {
    out.append(el("a", { href: "/#new-table", id: "end-new" }, "Start a new game"));
  }
  return out;
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
    const live = page.mode !== "replay" && !view.over;
    const stood = live && info.kind === "human" && stoodIn(page.clock, page.table, i);
    const mine = page.me && page.me.seat === i;
    if (info.kind === "bot") tags.push("bot");
    if (info.kind === "human" && !info.taken && page.table.status === "waiting") tags.push("open");
    if (mine) tags.push("you");
    const status = seatStatus(info, i, { live, over: view.over, mine });
    if (status) tags.push(status);
    const away = isAway(i);
    if (away) cls.push("away");
    if (stood) cls.push("stood-in");
    box.append(el("span", { class: cls.join(" "), "data-seat": i, "data-away": String(away) },
      s.name, botBadge(info.bot_account), `: ${s.total}`, seatRating(info),
      tags.length ? el("span", { class: "muted small" }, ` (${tags.join(", ")})`) : null,
      live && info.kind === "human" ? seatClock(page.clock, i) : null,
      away ? el("span", { class: "presence", title: "their page is not connected to the table" },
        " · away") : null));
  });
}

// What happened to a person's seat, in one phrase that is true of this seat at this table
// (null: nothing): conceded, or left (a bot plays for them to the end), and at a rated table
// where that places them; or, only at a table with a clock, that their time ran out.
function seatStatus(info, i, { live, over, mine }) {
  if (info.kind !== "human") return null;
  const conceded = info.conceded || (page.presence && (page.presence.conceded || [])[i]);
  const rated = page.table.rated;
  if (conceded || info.forfeit) {
    const what = conceded ? "conceded" : "left";
    if (over) return typeof info.place === "number" ? `${what}: ${ordinal(info.place)} place` : what;
    return `${what}: a bot plays ${mine ? "your seat" : "for them"} to the end` +
      (rated || conceded ? ", placed below the players who play on" : "");
  }
  if (!live || !info.taken) return null;
  const clocked = page.table.clock !== null && page.table.clock !== undefined;
  if (clocked && stoodIn(page.clock, page.table, i)) {
    return `time ran out: a stand-in bot plays for ${mine ? "you" : "them"}`;
  }
  if (!clocked && info.absent) return `left: a bot plays for ${mine ? "you" : "them"}`;
  return null;
}

// the seat's rating in this game (the account's, or a named bot's; a "?" while it is
// provisional), and what the game changed it by once a rated game is over, with why on hover
function seatRating(info) {
  if (info.rating === null || info.rating === undefined) return null;
  const change = info.rating_change;
  const title = info.rating_note || (info.provisional
    ? "rating in this game; ? = provisional: the rating is new, so it still moves fast"
    : "rating in this game");
  return el("span", { class: "seat-rating small", title },
    ` · ${info.rating}${info.provisional ? "?" : ""}`,
    change === null || change === undefined ? null
      : el("span", { class: `rating-change ${change >= 0 ? "up" : "down"}` },
        ` (${change >= 0 ? "+" : ""}${change})`));
}

// a game that has just ended: the table read again, for the seats' places (endgame.js: a
// seat that gave up is placed below, which the page may not have heard of yet) and, at a
// rated table, their new ratings
function ratedEnd() {
  if (!page.view || !page.view.over || !page.table || page.ratedEnd) return;
  if (page.view.players === 1 && !page.table.rated) return;  // solo: nothing to place
  page.ratedEnd = true;
  api("GET", `/api/tables/${tableId}`).then((t) => { page.table = t; render(); }).catch(() => {});
}

// whether a person's seat (not this page's, not a bot, not open) has no connection now, as the
// server's presence frames say (none yet: nobody is taken for away)
function isAway(i) {
  const info = (page.table && page.table.seats[i]) || {};
  if (!page.presence || page.mode === "replay" || info.kind !== "human" || !info.taken) return false;
  if (page.me && page.me.seat === i) return false;
  return page.presence.seats[i] === false;
}

function onPresence(frame) {
  const before = page.presence;
  page.presence = frame;
  if (frame.rematch && frame.rematch !== page.rematch) {  // a rematch was made
    page.rematch = frame.rematch;
    renderEndPanel();
  }
  const known = ((page.table && page.table.seats) || []).map((x) => Boolean(x.conceded));
  if ((frame.conceded || []).some((c, i) => c !== known[i])) {  // somebody conceded
    api("GET", `/api/tables/${tableId}`).then((t) => { page.table = t; render(); }).catch(() => {});
  }
  const names = shownView() ? shownView().seats.map((s) => s.name) : [];
  if (before) {
    const news = [];
    frame.seats.forEach((here, i) => {
      const info = (page.table && page.table.seats[i]) || {};
      if (info.kind !== "human" || (page.me && page.me.seat === i) || before.seats[i] === here) return;
      const who = names[i] || info.name || `Seat ${i + 1}`;
      news.push(here ? `${who} is back at the table.`
        : `${who} left the table (their page is closed or offline).`);
    });
    if (news.length) announce(news);
  }
  if (page.view) renderSeats(shownView());
  // a seat taken since the page read the table (someone joined): read it again
  const seats = (page.table && page.table.seats) || [];
  if (frame.seats.some((here, i) => here && seats[i] && !seats[i].taken)) {
    api("GET", `/api/tables/${tableId}`).then((t) => {
      page.table = t;
      showInvite();
      if (page.view) render();  // the seats, and what a seated person may do now
    }).catch(() => {});
  }
}

// ---------------------------------------------------------------- the turn clock
// (clock.js) a clock frame: every seat's clock, who a stand-in plays for, and
// news of what a stand-in played (for this page's seat, and for the others)
function onClock(frame) {
  const before = page.clock;
  page.clock = received(frame);
  if (page.mode === "replay") return;
  const names = shownView() ? shownView().seats.map((s) => s.name) : [];
  const news = [];
  for (const r of frame.ran_out || []) {
    const was = playedFor(before, r.seat);
    if (was.length === r.moves.length && was.every((m, k) => m === r.moves[k])) continue;
    const move = r.moves[r.moves.length - 1];
    news.push(page.me && page.me.seat === r.seat
      ? `Your time ran out: a stand-in bot played ${move} for you.`
      : `${names[r.seat] || `Seat ${r.seat + 1}`}'s time ran out: a stand-in bot played ${move}.`);
  }
  if (news.length) announce(news);
  if (page.view) {
    renderSeats(shownView());
    renderStandIn();
  }
}

function iAmStoodIn() {
  return page.mode === "play" && page.me && page.view && !page.view.over
    && stoodIn(page.clock, page.table, page.me.seat);
}

// while a stand-in plays for this page's seat: say so, with a way back (any click does)
function renderStandIn() {
  const box = $("stand-in");
  const on = Boolean(iAmStoodIn());
  box.classList.toggle("hidden", !on);
  if (on) $("stand-in-text").textContent = standInNote(page.clock, page.me.seat);
}

// the person's click while a stand-in plays for their seat takes the seat back first
function takeSeatBack() {
  if (!iAmStoodIn()) return;
  page.conn.send({ type: "back" });
  if (page.clock) page.clock.stood_in = page.clock.stood_in.map((x, i) => x && i !== page.me.seat);
  renderStandIn();
  renderSeats(shownView());
}

function renderStatus(view) {
  const who = (i) => view.seats[i].name;
  let text;
  if (page.complete && myTurn(page.view)) {
    text = view.over ? "This turn ends the game: confirm it, or undo."
      : "Your turn is complete: confirm it, or undo.";
  } else if (view.over) {
    // (by the server's places once it has them: a seat that gave up never wins)
    text = view.players === 1
      ? `Game over: ${who(0)} scored ${view.seats[0].total}.`
      : `Game over: ${resultSentence(view, page.table ? page.table.seats : [])}`;
    const said = (view.board && view.board.result_text) || "";
    if (said) text += " " + said;
  } else if (page.mode === "replay") {
    text = `Replay: move ${page.replay.at} of ${page.replay.total}`;
  } else if (waitingForPlayers(view)) {
    const n = page.table.open_seats.length;
    text = `Waiting for ${n} more player${n === 1 ? "" : "s"}: the game starts once every seat is taken.`;
  } else if (view.chance_pending) {
    // the game's own words for what chance does now (a roll, a tool drawn, a leaf revealed)
    const board = view.board || {};
    text = board.sentence || (board.doing ? `${board.doing[0].toUpperCase()}${board.doing.slice(1)}.` : "");
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

// a table whose game has not started: seats are open and nothing was played yet
function waitingForPlayers(view) {
  return page.table && page.table.status === "waiting" && page.table.open_seats.length > 0
    && !view.over && !view.moves_played;
}

/** A solo challenge (Pergola, P10): its name, goal and progress under the status line from the
 *  first turn on, and where the score is recorded once the game is over. */
function renderGoal(view) {
  const box = $("goal");
  const ch = view.board && view.board.challenge;
  box.classList.toggle("hidden", !ch);
  if (!ch) return;
  const name = `Challenge ${ch.number}: ${ch.title}`;
  const title = $("title");
  if (!title.textContent.includes(ch.title)) title.textContent = `${page.table.title} · ${name}`;
  let text = `${name}. Goal: ${ch.goal}. So far: ${ch.progress} (${ch.met ? "met" : "not met yet"}).`;
  if (view.over) {
    text = `${name}. ${ch.met ? `Met: recorded at challenge ${ch.number}.`
      : "Not met: recorded in the Free game space."}`;
  }
  box.textContent = text;
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
  $("buffer").textContent = mine && page.buffer.length ? `This turn: ${turnWords().join(", then ")}.` : "";
  $("buffer").dataset.moves = JSON.stringify(mine ? page.buffer : []);  // the notation, for tests
  $("buffer").title = mine && page.buffer.length ? `in notation: ${page.buffer.join(", ")}` : "";
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
  // a phone has no keyboard to type on: the box and the keys' help are hidden there (css)
  box.append(...foldChoices(group, el("p", { class: "small keyboard-only" }, typed,
    el("span", { class: "muted" }, "  keys: Enter confirms, Backspace undoes, 1-9 pick a choice"))));
}

// the moves of the turn being built in words: the preview's log lines after the
// committed ones say each (the game's words); the notation where a line has none
function turnWords(moves = page.buffer) {
  const view = page.preview;
  const done = page.view && page.view.log.length ? page.view.log[page.view.log.length - 1].number : 0;
  const lines = view ? view.log.filter((line) => line.number > done) : [];
  return moves.map((m, i) => (lines.length === page.buffer.length && lines[i] && lines[i].move === m
    && lines[i].words) || m);
}

// Drawings: where the game's drawing takes every choice by a click (its module
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
  lightUp();
}

// the hint's next step lit on the drawing and among the choices (hint.js), after each drawing
function lightUp() {
  const on = page.hint && page.hint.version === page.version && myTurn(page.view);
  lightHint(on ? page.hint : null, { buffer: page.buffer, complete: page.complete, view: shownView() },
    { board: $("board"), choices: $("choices"), panel: $("hint-box") });
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
    line.words, line.said]));
  const kids = list.children;
  let same = 0;
  while (same < kids.length && same < keys.length && kids[same].dataset.key === keys[same]) same++;
  const changed = same < kids.length || same < keys.length;
  while (list.children.length > same) list.lastChild.remove();
  view.log.slice(same).forEach((line, k) => {
    const pending = pendingOf(line);
    list.append(el("li", { value: line.number, class: pending ? "pending" : "", "data-key": keys[same + k],
      "data-move": line.move, "data-seat": line.seat ?? "chance" },
      el("span", { title: `in notation: ${line.move}` }, `${line.who}: ${line.words || line.move}`),
      pending ? el("span", { class: "muted small" }, " (not confirmed yet)") : null,
      ...line.said.map((s) => el("span", { class: "said" }, s))));
  });
  if (changed) list.scrollTop = list.scrollHeight;
  // announcements for what is new since the last committed view (not for previews, and none
  // while a replay is scrubbed: its positions are not news)
  if (view === page.view && page.mode !== "replay") {
    const last = view.log.length ? view.log[view.log.length - 1].number : 0;
    if (page.lastLogNumber !== null) {
      const said = view.log.filter((line) => line.number > page.lastLogNumber).flatMap((line) => line.said);
      if (said.length) announce(said);
    }
    page.lastLogNumber = last;
  }
}

// ---------------------------------------------------------------- steps not confirmed yet
// The steps of a turn being built are kept in localStorage (per table: the seat, the version
// they were built on and the moves), so a reload or a page opened again later brings them
// back if the table is still where they were made; if it has moved on, or the table moves
// on under them (another tab or window of the same seat confirmed, or the stand-in bot played
// when the clock ran out), the page says which steps were dropped and why. Never silently.
// Each page keeps its own (a key per page), so a turn confirmed in one tab leaves the steps
// another tab (since closed) kept, and that one is told of them when it opens again.
const TAB = Math.random().toString(36).slice(2, 10);
const DRAFTS = `meeple.draft.${tableId}.`;
const draftKey = () => DRAFTS + TAB;

// the steps every page kept at this table, newest first, each with its key
function savedDrafts() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(DRAFTS)) continue;
    try { out.push({ ...JSON.parse(localStorage.getItem(key)), key }); } catch { /* not ours */ }
  }
  return out.sort((a, b) => (b.at || 0) - (a.at || 0));
}

function keepDraft() {
  const chosen = page.buffer.some((_, i) => page.forced[i] === false);
  if (page.me && chosen) {
    localStorage.setItem(draftKey(), JSON.stringify({ seat: page.me.seat, version: page.version,
      moves: page.buffer, forced: page.forced, words: turnWords(), at: Date.now() }));
  } else forgetDraft();
}

function forgetDraft() { localStorage.removeItem(draftKey()); }

function note(text, kept = false) {
  const box = $("draft-note");
  $("draft-text").textContent = text;
  box.classList.toggle("hidden", !text);
  box.classList.toggle("kept", kept);
}

// the steps chosen in the turn being built (not the forced ones), in words
function chosenSteps() {
  const words = turnWords();
  return words.filter((_, i) => page.forced[i] === false);
}

function dropped(steps, why) {
  note(`Your step${steps.length > 1 ? "s" : ""} not confirmed (${steps.join(", ")}) ` +
    `${steps.length > 1 ? "were" : "was"} dropped: ${why}`);
}

// on the first view after the page opened: bring back steps kept from before, or say they are
// gone; returns whether a preview of them was sent
function restoreDraft(frame) {
  page.restoring = false;
  const all = page.me ? savedDrafts().filter((x) => x.seat === page.me.seat) : [];
  for (const x of all) localStorage.removeItem(x.key);  // looked at once: brought back or told
  const d = all[0];
  if (!d || !Array.isArray(d.moves) || !d.moves.length) return false;
  if (d.version === frame.version && myTurn(page.view)) {
    page.restored = d.moves;
    sendPreview(d.moves);
    return true;
  }
  const said = Array.isArray(d.words) && d.words.length === d.moves.length ? d.words : d.moves;
  const steps = said.filter((_, i) => !(d.forced || [])[i]);
  dropped(steps, "the table moved on since you made them (your turn was played in another tab or " +
    "window, or by the stand-in bot when your time ran out). Here is the position now.");
  return false;
}

// the table moved on (from log line `before`) while this page was building a turn of `steps`
function droppedByMove(steps, before, frame) {
  const mine = page.me ? frame.view.seats[page.me.seat].name : null;
  const byMe = frame.view.log.some((l) => l.number > before && l.who === mine);
  dropped(steps, byMe
    ? "your seat's turn was played elsewhere (in another tab or window of yours, or by the stand-in " +
      "bot when your time ran out)."
    : "the table moved on before you confirmed them.");
  forgetDraft();
}

// ---------------------------------------------------------------- playing
function refuse(reason) { $("refusal").textContent = reason || ""; }

function choose(move) {
  takeSeatBack();
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
  takeSeatBack();
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
  forgetDraft();
  refuse("");
  render();
  playOpening();
}

function confirmTurn() {
  takeSeatBack();
  if (!page.complete || page.pending) return;
  page.pending = true;
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  page.confirming = true;  // the view after it comes before its ack: not a drop
  page.conn.request({ type: "move", moves: page.buffer, version: page.version, id });
  note("");
  showPending();
}

// a view of the position (a whole view, or an update the connection has applied to the one
// it holds)
function onView(frame) {
  if (frame.version < page.version) return;
  const moved = frame.version !== page.version;
  const log = page.view ? page.view.log : [];
  const lastLine = log.length ? log[log.length - 1].number : 0;
  const hadSteps = chosenSteps();
  page.version = frame.version;
  page.view = frame.view;
  page.opening = frame.forced || [];
  if (frame.ack) {  // this page's own turn, stored: the frame of the new version says so
    page.pending = false;
    page.confirming = false;
    forgetDraft();
  }
  // a turn being built belongs to the position it was built on: if the table moved on
  // under it, the player is told which steps were dropped
  if (moved || !myTurn(page.view)) {
    if (hadSteps.length && !page.confirming && !frame.ack) droppedByMove(hadSteps, lastLine, frame);
    page.buffer = []; page.preview = null; page.complete = false;
  }
  const restoring = page.restoring && restoreDraft(frame);
  render();
  ratedEnd();
  if (myTurn(page.view)) {  // a notification while this tab is hidden (notify.js), once a turn
    notifyTurn(`${tableId}:${page.view.turn}`, `Your turn: ${page.table.title}`,
      page.view.board && page.view.board.doing ? page.view.board.doing : "It is your turn.");
  }
  // the server previews a forced opening itself (its preview frame follows this one)
  if (!restoring && !page.opening.length) playOpening();
}

// a preview frame: the server's own preview of a forced opening, or the answer to this page's
function onPreview(frame) {
  if (frame.opening) onOpening(frame);
  else onPreviewAnswer(frame);
}

// the forced decisions that open this seat's turn, made by the server: shown as the start of
// the turn being built, unless the page has started it another way meanwhile
function onOpening(frame) {
  if (frame.version !== page.version || page.pending || page.buffer.length) return;
  page.buffer = frame.moves;
  page.forced = frame.forced;
  page.preview = frame.moves.length ? frame.view : null;
  page.complete = frame.complete;
  render();
}

// the answer to this page's preview: the turn being built, as the server played it
function onPreviewAnswer(frame) {
  page.pending = false;
  if (page.sentAt !== page.version) { render(); playOpening(); return; }  // for an old position
  page.buffer = frame.moves;
  page.forced = frame.forced;
  page.preview = frame.moves.length ? frame.view : null;
  page.complete = frame.complete;
  if (page.restored) {
    note(`Your steps not confirmed were kept from before: ${chosenSteps().join(", ")}. ` +
      "Confirm them, or undo.", true);
    page.restored = null;
  }
  keepDraft();
  render();
  if (page.complete && localStorage.getItem("meeple.autoconfirm") === "1") confirmTurn();
}

// this page's move (or undo), stored
function onAck(frame) {
  page.pending = false;
  page.confirming = false;
  forgetDraft();
  // the view after the move comes first; if it is past the move already (a bot that played
  // at once after it), the turn being built belongs to that newer position: keep it
  if (frame.version >= page.version) { page.buffer = []; page.preview = null; page.complete = false; }
  render();
  playOpening();
}

// this page's move or preview, refused (nothing changed)
function onRefused(frame) {
  page.pending = false;
  page.confirming = false;
  if (page.restored) {  // the steps kept from before no longer fit the position
    dropped(page.restored, `they no longer fit the position (${frame.reason}).`);
    page.restored = null;
    render();
    playOpening();
    return;
  }
  // once the game is over a late click's refusal is no news: the end panel says it all
  refuse(page.view && page.view.over ? "" : frame.reason);
  if (!frame.preview) { page.buffer = []; page.preview = null; page.complete = false; }
  render();
}

// an error frame (not the chat's): a frame of this page's the server could not take
function onError(frame) {
  page.pending = false;
  page.confirming = false;
  refuse(page.view && page.view.over ? "" : frame.reason);
  render();
}

// what each kind of server frame does on this page (a frame of another type is ignored)
const FRAME_HANDLERS = {
  presence: onPresence,
  clock: onClock,
  view: onView,
  preview: onPreview,
  ack: onAck,
  refused: onRefused,
  error: onError,
};

// a reply settles the request on its way; the server's own preview of a forced opening
// (opening) answers nothing, and a view frame that carries this page's ack (ack) does
function settles(frame) {
  return ["ack", "refused", "error"].includes(frame.type) || Boolean(frame.ack)
    || (frame.type === "preview" && !frame.opening);
}

function onFrame(frame) {
  // the table chat's frames are the chat panel's (chat.js), never a reply to a move
  if (frame.type === "chat" || (frame.type === "error" && frame.chat)) {
    if (page.chat) page.chat.onFrame(frame);
    return;
  }
  if (settles(frame)) page.conn.settle();
  const handler = Object.hasOwn(FRAME_HANDLERS, frame.type) ? FRAME_HANDLERS[frame.type] : null;
  if (handler) handler(frame);
}

function playOpening() {
  // the decisions with only one legal option that open the turn are made for you (the
  // server names them in its view frame; shown in "this turn")
  if (myTurn(page.view) && !page.buffer.length && !page.pending && page.opening.length) {
    sendPreview(page.opening);
  }
}

// the Hint button (hint.js): on this seat's turn; a hint shown for an earlier position is
// dropped once the table has moved on. The hint shown is lit on the drawing (lightUp) and
// "Play this" makes it the turn being built (playHint)
function showHintTools(mine) {
  const box = $("hint-box");
  if (!box.firstChild) {
    box.append(hintButton(page.table.id, () => page.me, box, {
      shown: (frame) => {
        page.hint = frame && { version: frame.version, moves: frame.hint.best.moves,
          steps: frame.hint.best.steps || [] };
        lightUp();
      },
      play: playHint,
    }));
  }
  box.classList.toggle("hidden", !mine);
  const panel = box.querySelector(".hint-panel[data-version]");
  if (panel && Number(panel.dataset.version) !== page.version) panel.remove();
  if (page.hint && page.hint.version !== page.version) page.hint = null;
}

// "Play this" in the hint panel: the hinted turn becomes the turn being built, through the
// preview as clicks are (the drawing shows it made); it is confirmed, or undone, as any turn
function playHint(moves) {
  if (!myTurn(page.view) || page.pending || !page.hint || page.hint.version !== page.version) return;
  refuse("");
  sendPreview(moves);
}

function wireKeys() {
  $("draft-ok").addEventListener("click", () => note(""));
  $("stand-in-back").addEventListener("click", takeSeatBack);
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
  if (mountChat()) {
    page.chat.load(el("span", {}, "The chat as kept. ",
      el("a", { href: `/t/${tableId}?live` }, "Open the table"), " to chat."));
  }
  startReplayAt();
}

// the table chat (chat.js) beside the log, unless the table is of bots only
function mountChat() {
  if (!page.chat && hasChat(page.table)) {
    page.chat = chatPanel(tableId, (frame) => page.conn.send(frame));
    document.querySelector(".side-panel").append(page.chat.element);
  }
  return page.chat;
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
  session().then((me) => showPlayAs($("join-name-field"), $("join-as"), me));
  const sel = $("join-seat");
  sel.replaceChildren(...page.table.open_seats.map((i) => el("option", { value: i }, `Seat ${i + 1}`)));
  $("watch-instead").onclick = (ev) => { ev.preventDefault(); panel.classList.add("hidden"); connect(); };
  $("join-form").onsubmit = async (ev) => {
    ev.preventDefault();
    const signed = await session();
    const name = seatName(signed, $("join-name").value.trim());
    $("join-error").textContent = name ? "" : "Type your name to take the seat (or sign in: "
      + "then your account's name is used).";
    if (!name) { $("join-name").focus(); return; }
    if (!signed) setMyName(name);
    try {
      const out = await api("POST", `/api/tables/${tableId}/join`, { name, seat: Number(sel.value) });
      // a guest keeps the seat's secret; a signed-in seat is the account's, played by the
      // session (src/meeple/server/features/accounts/README.md)
      const guest = !(await session());
      if (guest) holdSeat(tableId, out.seat, out.secret, name);
      page.me = { seat: out.seat, secret: guest ? out.secret : null };
      page.table = out.table;
      panel.classList.add("hidden");
      history.replaceState(null, "", `/t/${tableId}`);
      connect();
    } catch (err) {
      // a rematch's seats are its people's (src/meeple/server/features/tablelife/README.md): said
      // in a player's words
      $("join-error").textContent = /is the rematch of table/.test(err.message)
        ? "This table is a rematch: its seats are kept for the people who played the game " +
          "before it (they take them from that game's end). You can watch it."
        : err.message;
    }
  };
}

// while seats are open: the link to send, in a box of its own with a Copy button
function showInvite() {
  const open = page.table.open_seats;
  const box = $("invite");
  box.classList.toggle("hidden", !open.length);
  if (!open.length) { box.replaceChildren(); return; }
  const url = `${location.origin}/t/${tableId}?join`;
  const said = el("span", { id: "invite-copied", class: "small", role: "status" });
  const copy = el("button", { type: "button", id: "invite-copy", class: "primary" }, "Copy link");
  copy.onclick = async () => {
    said.textContent = await copyText(url) ? "Copied: paste it in a message to your friends."
      : "Select the link and copy it (your browser did not let the page copy it).";
  };
  const n = open.length;
  box.replaceChildren(
    el("h2", {}, n === 1 ? "Invite a friend: 1 seat is open" : `Invite your friends: ${n} seats are open`),
    el("p", {}, "Send this link. Whoever opens it takes an open seat (under their name); " +
      "the game starts once every seat is taken."),
    el("p", { class: "invite-row" }, el("a", { href: `/t/${tableId}?join`, id: "invite-link" }, url),
      " ", copy, " ", said));
}

// copy to the clipboard; false where the browser refuses (then the link is selected)
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const range = document.createRange();
    range.selectNodeContents($("invite-link"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    return false;
  }
}

function connect() {
  page.mode = page.me ? "play" : "watch";
  if (page.me) {  // "Notify me": a notification when it becomes your turn in a hidden tab
    $("table-notify").replaceChildren(notifyControl());
    $("table-notify").classList.remove("hidden");
  }
  setInterval(() => tick(page.clock), 250);
  mountChat();
  page.conn = new Connection(`/ws/tables/${tableId}`, {
    hello: () => {
      const h = { type: "hello", presence: true, clock: true, chat: Boolean(page.chat) };
      if (page.me) {
        h.seat = page.me.seat;
        if (page.me.secret) h.secret = page.me.secret;
      }
      if (!page.draw) h.text = true;
      return h;
    },
    onFrame,
    onGiveUp: () => {
      page.pending = false;
      page.confirming = false;
      refuse("The server did not answer; please click again.");
      render();
    },
    onClose: async (code) => {
      // 4401: the session this page played its seat by was signed out (here or on another
      // device); it watches from now on (a seat whose secret it keeps is not affected)
      if (code === 4401 && page.me && !page.me.secret) {
        page.me = null;
        page.mode = "watch";
        refuse("You were signed out (on this device or another), so you are watching this " +
          "table now. Sign in again to play your seat.");
        forgetSession();
        accountLink();  // the header says so too
        render();
      } else if (code === 4403 && page.me) {
        // 4403: the seat is no longer this page's (left, taken by someone else, or its
        // secret revoked: claimed into an account, or the account signed out everywhere)
        await seatLost();
      }
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

// The seat this page played was taken from it (the socket closed with 4403): its secret is
// forgotten; if the signed-in account holds the seat now (its secret was just claimed into
// the account in another tab), the page opens again and plays it by the session, else it
// watches.
async function seatLost() {
  dropSeat(tableId);
  forgetSession();  // asked again: signed out everywhere revokes the secrets too
  if (await accountSeat()) {
    location.reload();
    return;
  }
  page.me = null;
  page.mode = "watch";
  refuse("This seat is no longer yours here (it was left, taken by someone else, or its " +
    "secret was revoked), so you are watching this table now.");
  accountLink();
  render();
}

// The seat the signed-in account holds at this table when this browser keeps no secret for
// it (a seat taken on another device): the hello names the seat and the session proves it.
async function accountSeat() {
  const me = await session();
  if (!me) return null;
  try {
    const held = await api("GET", `/api/me/tables/${tableId}/seats`);
    return held.seats.length ? { seat: held.seats[0], secret: null } : null;
  } catch {
    return null;
  }
}

async function start() {
  wireColourBlind($("cb-toggle"), () => render());
  accountLink();
  wireKeys();
  try {
    page.table = await api("GET", `/api/tables/${tableId}`);
  } catch (err) {
    $("status").textContent = `This table cannot be opened: ${err.message}`;
    $("conn").textContent = "";
    return;
  }
  document.title = `meeple: ${page.table.title}`;
  $("rules-link").href = `/rules/${encodeURIComponent(page.table.game)}`;  // how to play it
  $("title").textContent = [page.table.title, describeVariant(page.table.variant),
    paceWords(page.table)].filter(Boolean).join(" · ");
  if (page.table.rated) $("title").append(" ", el("span", { class: "rated-tag" }, "rated"));
  const [layout, draw] = await Promise.all([
    api("GET", `/api/tables/${tableId}/layout`).then((r) => r.layout).catch(() => ({})),
    loadDrawing(page.table.game),
  ]);
  page.layout = layout;
  page.draw = draw;
  // signed in: the guest seats this browser kept are the account's from now on
  // (src/meeple/server/features/accounts/README.md)
  if (await session()) await claimBrowserSeats().catch(() => null);
  page.me = heldSeat(tableId) || await accountSeat();
  page.rematch = page.table.rematch || null;
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
