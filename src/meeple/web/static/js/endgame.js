// The end of a game on the table page: who won (or, in Pergola solo, whether the challenge was
// met, where the score is recorded and the printed neighbours' scores), and the whole score pad
// of every seat side by side, row by row as the game's pad reads, with the totals.
//
// The rows and their values come from the view's `scores` (the engine's score pad); the row
// labels from the layout (`score_rows` or Pergola's `score_pad`: key and label), else the key.
import { el } from "./common.js";

/** The label of every score-pad row key the layout names. */
export function rowLabels(layout) {
  const out = new Map();
  for (const r of (layout && (layout.score_rows || layout.score_pad)) || []) {
    if (r && r.key) out.set(r.key, r.label || r.key);
  }
  return out;
}

/** A row's label: the layout's, else its key with a capital. */
export function label(labels, key) {
  return labels.get(key) || key.charAt(0).toUpperCase() + key.slice(1);
}

/**
 * Empty `box` and, if `view` is a finished game, fill it with the end panel. `seats`: the
 * table's seats as the server lists them (their `place` once the game is over puts a seat
 * that conceded or left below the others; without it the game's own winners).
 */
export function renderEnd(box, { view, layout, me, seats = [] }) {
  box.replaceChildren();
  box.classList.toggle("hidden", !(view && view.over));
  if (!view || !view.over) return;
  const solo = view.players === 1;
  const challenge = solo && view.board ? view.board.challenge : null;
  box.append(el("h2", { id: "end-title" }, "Game over"));
  if (challenge) box.append(soloVerdict(view, layout, challenge));
  else box.append(winnersLine(view, seats));
  box.append(breakdown(view, layout, me));
}

// the seats placed first: by the server's places (a seat that forfeited is never first,
// whatever its stand-in scored), else the game's winners
function firstPlaces(view, seats) {
  const places = view.seats.map((_, i) => (seats[i] || {}).place);
  if (places.some((p) => typeof p !== "number")) return view.winners;
  // a seat that gave up never wins, even placed first because everyone else went before it
  return places.flatMap((p, i) => (p === 1 && !seats[i].forfeit ? [i] : []));
}

/** Who won a finished game of several seats, in one sentence ("Ann wins with 34 points."). */
export function resultSentence(view, seats = []) {
  const winners = firstPlaces(view, seats);
  const names = winners.map((i) => view.seats[i].name);
  const top = winners.length ? view.seats[winners[0]].total : 0;
  if (names.length === 1) return `${names[0]} wins with ${top} points.`;
  if (names.length > 1) {
    return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} share the win with ${top}` +
      " points each.";
  }
  const placed = view.seats.flatMap((s, i) => ((seats[i] || {}).place === 1 ? [s.name] : []));
  if (!placed.length) return "Nobody wins.";
  // everyone gave up: the last to go is placed first, but did not win a game it left
  return `${placed.join(" and ")} ${placed.length > 1 ? "are" : "is"} placed first; nobody ` +
    "played the game to its end, so it is nobody's win.";
}

function winnersLine(view, seats) {
  const winners = firstPlaces(view, seats);
  const text = view.players === 1 ? `${view.seats[0].name} scored ${view.seats[0].total}.`
    : resultSentence(view, seats);
  const gone = view.players > 1 ? forfeitWords(view, seats) : "";
  return el("p", { class: "end-winners", id: "end-winners", "data-winners": JSON.stringify(winners) },
    text + gone);
}

// " Bob conceded first, then Ann left: ..." for the seats placed below the others for
// giving up, the first to go first (the lowest place)
function forfeitWords(view, seats) {
  const gone = view.seats.map((s, i) => ({ name: s.name, info: seats[i] || {} }))
    .filter((x) => x.info.forfeit)
    .sort((a, b) => (b.info.place || 0) - (a.info.place || 0));
  if (!gone.length) return "";
  const did = (x) => `${x.name} ${x.info.conceded ? "conceded" : "left"}`;
  const who = gone.length === 1 ? did(gone[0])
    : `${did(gone[0])} first, then ${gone.slice(1).map(did).join(", then ")}`;
  if (gone.length === view.seats.length) {
    return ` ${who}: placed by who stayed longer, whatever the bots that finished scored.`;
  }
  const order = gone.length > 1 ? " (the first to go last)" : "";
  return ` ${who}: placed below the players who played on${order}` +
    `, whatever the bot that finished for ${gone.length > 1 ? "them" : "that seat"} scored.`;
}

function soloVerdict(view, layout, ch) {
  const name = view.seats[0].name;
  const score = view.seats[0].total;
  const free = ch.number === 10;
  const recorded = ch.recorded_as ?? (ch.met ? ch.number : 10);
  const verdict = free ? "Free game (no extra goal)"
    : ch.met ? `Challenge ${ch.number} met` : `Challenge ${ch.number} not met`;
  const where = recorded === ch.number && !free ? `recorded at challenge ${ch.number}`
    : free ? "recorded in the Free game space"
      : "recorded in the Free game space (a failed challenge counts there)";
  const out = el("div", { id: "end-solo", "data-met": String(ch.met), "data-recorded": String(recorded) });
  out.append(
    el("p", { class: `end-verdict ${ch.met ? "okay" : "error"}` }, (ch.met ? "✓ " : "✗ ") + verdict,
      el("span", { class: "muted small" }, ` · ${ch.title}: ${ch.goal}`)),
    el("p", {}, `${name} scored ${score}, ${where}.`),
    el("p", { class: "small" }, `How it went: ${ch.progress}.`));
  // the printed neighbours' scores: at the challenge played and, if it failed, at the Free game
  const all = (layout && layout.solo && layout.solo.challenges) || [];
  const rows = [{ number: ch.number, title: ch.title, przemek: ch.przemek, golab: ch.golab }];
  if (recorded !== ch.number) {
    const f = all.find((c) => c.number === 10);
    if (f) rows.push(f);
  }
  const cmp = (x) => (score > x ? "you beat" : score === x ? "level" : "ahead of you");
  out.append(el("table", { class: "pad end-neighbours", id: "end-neighbours" },
    el("thead", {}, el("tr", {}, el("th", {}, "printed neighbours"), el("th", {}, "Przemek"), el("th", {},
      "Gołąb"), el("th", {}, name))),
    el("tbody", {}, ...rows.map((r) => el("tr", { "data-challenge": r.number },
      el("td", {}, r.number === 10 ? "Free game" : `challenge ${r.number}`),
      el("td", { title: cmp(r.przemek) }, `${r.przemek}`),
      el("td", { title: cmp(r.golab) }, `${r.golab}`),
      el("td", { class: "me" }, r.number === recorded ? `${score} (recorded here)` : `${score}`))))));
  out.append(el("p", {}, el("a", { href: `/solo/${encodeURIComponent(name)}`, id: "end-solo-link" },
    `${name}'s achievement table (the ten spaces and the 1000 club)`)));
  return out;
}

function breakdown(view, layout, me) {
  const keys = view.scores.length ? Object.keys(view.scores[0].rows) : [];
  const labels = rowLabels(layout);
  const win = new Set(view.players > 1 ? view.winners : []);
  const cls = (i) => [i === me ? "me" : "", win.has(i) ? "winner" : ""].join(" ").trim() || null;
  const head = el("tr", {}, el("th", { scope: "col" }, "row"),
    ...view.seats.map((s, i) => el("th", { scope: "col", class: cls(i) },
      win.has(i) ? `★ ${s.name}` : s.name)));
  const body = keys.map((k) => {
    const values = view.scores.map((s) => s.rows[k]);
    const best = Math.max(...values);
    return el("tr", { "data-row": k }, el("th", { scope: "row" }, label(labels, k)),
      ...values.map((v, i) => el("td", { class: [cls(i),
        view.players > 1 && v === best && v > 0 ? "best" : ""].join(" ").trim() || null }, `${v}`)));
  });
  const total = el("tr", { class: "total", "data-row": "total" }, el("th", { scope: "row" }, "Total"),
    ...view.scores.map((s, i) => el("td", { class: cls(i) }, `${s.total}`)));
  return el("div", { class: "end-scroll" },
    el("table", { class: "pad end-table", id: "end-table" }, el("thead", {}, head), el("tbody", {}, ...body,
      total)));
}
