// Announcements ("garden completed", "treasure recovered", "Bob left the table", ...) in a
// place of their own: the news line under the status line, in the page's flow, so it covers
// nothing (no choice, no pencil, no sheet, no score). It shows the latest announcements (those
// of the last change) until newer ones replace them; every game announcement is also in the
// game log. The line keeps its height when empty, so the choices below never move when
// announcements come or go. A replay being scrubbed announces nothing (table.js).
import { el } from "./common.js";

function box() { return document.getElementById("news"); }

/** Show `texts` (one or more announcements) as the latest news, replacing the last. */
export function announce(texts) {
  const b = box();
  const list = (Array.isArray(texts) ? texts : [texts]).filter(Boolean);
  if (!b || !list.length) return;
  b.replaceChildren(el("span", { class: "news-label" }, "Latest: "),
    ...list.map((t) => el("span", { class: "news-item" }, t)));
}

/** Empty the news line (it keeps its place). */
export function clearNews() {
  const b = box();
  if (b) b.replaceChildren();
}
