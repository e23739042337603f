// The turn clock on the table page (src/meeple/server/table/README.md "Turn clock"). On a table with
// a clock the page asks for `clock` frames in its hello; each says whose clock runs, the
// seconds it has left (counted down here from when the frame came), which seats a stand-in bot
// plays for and what it played for a connected person whose time ran out. Every person's seat
// chip shows its clock: the one to move counts down (red in its last LOW seconds), the others
// show the time each decision has. A stand-in plays one decision each time the clock runs out
// while its person's page is open; their next click takes the seat back (table.js sends
// `back`), and the page says so in a note (standInNote).
import { el } from "./common.js";

/** The last seconds of a clock, shown red. */
export const LOW = 10;

/** Seconds as m:ss (rounded up: a clock at 0.2 s still shows 0:01). */
export function mmss(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Seconds in days, hours and minutes, for a turn-based table ("2 d 4 h", "5 h 20 min",
 *  "12 min", "40 s"). */
export function dhm(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return h ? `${d} d ${h} h` : `${d} d`;
  if (h) return m ? `${h} h ${m} min` : `${h} h`;
  return m ? `${m} min` : `${s} s`;
}

/** A turn-based table's pace in words: "1 d a move, a bank of 3 d" (null: a live table). */
export function paceWords(table) {
  if (!table || table.pace !== "turn-based") return null;
  const bank = table.bank ? `a time bank of ${dhm(table.bank)}` : "no time bank";
  return `turn-based: ${dhm(table.clock)} a move, ${bank}`;
}

function turnBased(clock) { return Boolean(clock && clock.pace === "turn-based"); }

/** At a turn-based table, seat `i`'s bank now (the running move's drawn from it once its
 *  allowance is spent); null elsewhere. */
export function bankNow(clock, i) {
  if (!turnBased(clock) || !clock.banks || clock.banks[i] === null || clock.banks[i] === undefined) {
    return null;
  }
  let bank = clock.banks[i];
  if (clock.seat === i && clock.move_left !== null) {
    const move = clock.move_left - (performance.now() - clock.at) / 1000;
    bank -= Math.max(0, -move) - Math.max(0, -clock.move_left);
  }
  return Math.max(0, bank);
}

/** The clock frame as kept by the page: the frame and when it came. */
export function received(frame) {
  return { ...frame, at: performance.now() };
}

/** Seconds left on the running clock now (null: no clock runs). */
export function leftNow(clock) {
  if (!clock || clock.left === null || clock.left === undefined) return null;
  return Math.max(0, clock.left - (performance.now() - clock.at) / 1000);
}

// words, not a clock glyph: the fonts of every machine have them
function clockWords(seconds, running) {
  return running ? ` ${mmss(seconds)} left` : ` ${mmss(seconds)} a decision`;
}

// a turn-based seat: the running move's time left, then the bank ("5 h left · bank 3 d")
function turnWords(clock, i) {
  const bank = bankNow(clock, i);
  const banked = bank === null ? "" : ` · bank ${dhm(bank)}`;
  if (clock.seat !== i || clock.move_left === null) return ` ${dhm(clock.limit)} a move${banked}`;
  const move = clock.move_left - (performance.now() - clock.at) / 1000;
  return move > 0 ? ` ${dhm(move)} left${banked}` : ` move time spent${banked}`;
}

/** Seat `i`'s clock for its chip (null without a clock). */
export function seatClock(clock, i) {
  if (!clock) return null;
  const running = clock.seat === i;
  const left = running ? leftNow(clock) : clock.limit;
  const cls = ["seat-clock"];
  if (running) cls.push("running");
  if (turnBased(clock)) {
    cls.push("turn-based");
    const move = running ? clock.move_left - (performance.now() - clock.at) / 1000 : 1;
    if (move < 0) cls.push("low");  // drawing on the bank
    return el("span", { class: cls.join(" "), "data-seat": i,
      title: running ? "time left for this move, then the time bank"
        : `${dhm(clock.limit)} for each move; time past it is drawn from the time bank` },
    turnWords(clock, i));
  }
  if (running && left <= LOW) cls.push("low");
  return el("span", {
    class: cls.join(" "), "data-seat": i,
    title: running ? "time left for this decision" : `${mmss(clock.limit)} for each decision`,
  }, clockWords(left, running));
}

/** Count the running clock down on the page (called a few times a second). */
export function tick(clock) {
  const left = leftNow(clock);
  if (left === null) return;
  for (const node of document.querySelectorAll(".seat-clock.running")) {
    if (turnBased(clock)) {
      node.textContent = turnWords(clock, Number(node.dataset.seat));
      continue;
    }
    node.textContent = clockWords(left, true);
    node.classList.toggle("low", left <= LOW);
  }
}

/** Whether a stand-in bot plays for seat `i` (from the clock frames; else from the table). */
export function stoodIn(clock, table, i) {
  if (clock && Array.isArray(clock.stood_in)) return Boolean(clock.stood_in[i]);
  const s = table && table.seats && table.seats[i];
  return Boolean(s && s.kind === "human" && s.absent);
}

/** What the stand-in played for seat `i` since its person's time ran out ([] if nothing). */
export function playedFor(clock, i) {
  const got = clock && (clock.ran_out || []).find((r) => r.seat === i);
  return got ? got.moves : [];
}

/** The note for this page's own seat while a stand-in plays for it ("" when none does). */
export function standInNote(clock, me) {
  if (turnBased(clock)) {
    return "Your time for the move and your time bank ran out, so a stand-in bot plays for " +
      "you. Your next click takes your seat back; from then on each move has its time again.";
  }
  const moves = playedFor(clock, me);
  const played = moves.length ? ` So far it played: ${moves.join(", ")}.` : "";
  return "Your time ran out, so a stand-in bot plays for you: one decision each time your " +
    `clock runs out.${played} Your next click takes your seat back.`;
}
