// Announcements ("garden completed", "treasure recovered", ...) as toasts: fixed at the bottom
// left, never catching a click (pointer-events: none in the stylesheet) and never drawn over the
// choices or the turn buttons: if they would be, the toasts move to the top, and if that covers
// them too they wait out of sight (every announcement is also in the game log). At most three
// at a time, two on a phone-width screen; older ones drop.
import { el } from "./common.js";

const SHOWN_FOR = 6000;
const AVOID = "#choices button, #choices input, #turnbar button:not(.hidden), #board .lit";

function box() { return document.getElementById("announce"); }

/** The most toasts shown at once for this screen width. */
export function maxToasts() { return window.matchMedia("(max-width: 600px)").matches ? 2 : 3; }

export function toast(text) {
  const b = box();
  if (!b) return;
  const note = el("div", { class: "toast" }, text);
  b.append(note);
  setTimeout(() => { note.remove(); placeToasts(); }, SHOWN_FOR);
  while (b.children.length > maxToasts()) b.firstChild.remove();
  placeToasts();
}

function overlaps(a, r) {
  return a.left < r.right && r.left < a.right && a.top < r.bottom && r.top < a.bottom;
}

function covers(rect) {
  for (const node of document.querySelectorAll(AVOID)) {
    const r = node.getBoundingClientRect();
    if (r.width && r.height && overlaps(rect, r)) return true;
  }
  return false;
}

/** Put the toasts where they cover no choice: bottom left, else top left, else out of sight. */
export function placeToasts() {
  const b = box();
  if (!b) return;
  b.classList.remove("at-top", "tucked");
  if (!b.children.length) return;
  if (!covers(b.getBoundingClientRect())) return;
  b.classList.add("at-top");
  if (!covers(b.getBoundingClientRect())) return;
  b.classList.remove("at-top");
  b.classList.add("tucked");
}

let queued = false;
function later() {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => { queued = false; placeToasts(); });
}
window.addEventListener("scroll", later, { passive: true });
window.addEventListener("resize", later);
