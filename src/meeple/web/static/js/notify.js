// Browser notifications while a tab is open: the table page and the lobby's My
// games offer a "Notify me" control; only its click asks the browser's permission
// (Notification.requestPermission: a page must never ask unprompted), and once granted (and
// not turned off here again) a notification says "your turn" when it becomes this person's
// turn while the tab is hidden (document.hidden). Each turn is told once a page (by a key).
// Nothing is sent anywhere: the page that is open shows it. Mail, for when no tab is open,
// is the server's (src/meeple/server/features/mail/README.md).
import { el } from "./common.js";

const KEY = "meeple.notify";  // "1": this browser asked for the notifications (else off)
const told = new Set();

function supported() { return typeof window.Notification === "function"; }

/** Whether a notification would be shown now (permission granted and wanted here). */
export function notifying() {
  return supported() && Notification.permission === "granted" && localStorage.getItem(KEY) === "1";
}

function describe() {
  if (!supported()) return "this browser shows no notifications";
  if (Notification.permission === "denied") {
    return "notifications are blocked for this site in the browser's settings";
  }
  return notifying() ? "a notification tells you when it is your turn while this tab is hidden"
    : "get a notification when it is your turn while this tab is in the background";
}

/** The "Notify me" control: a button (its click asks the permission) and a line saying
 *  what it does; once on, "Turn notifications off". */
export function notifyControl() {
  const button = el("button", { type: "button", class: "small notify-me", id: "notify-me" });
  const said = el("span", { class: "muted small notify-state", id: "notify-state" });
  const box = el("span", { class: "notify", id: "notify" }, button, " ", said);
  const show = () => {
    button.textContent = notifying() ? "Turn notifications off" : "Notify me";
    button.disabled = !supported() || Notification.permission === "denied";
    said.textContent = describe();
    box.dataset.on = String(notifying());
  };
  button.addEventListener("click", async () => {
    if (notifying()) {
      localStorage.setItem(KEY, "0");
    } else {
      localStorage.setItem(KEY, "1");
      if (Notification.permission !== "granted") await Notification.requestPermission();
    }
    show();
  });
  show();
  return box;
}

/** A notification for `key` (a turn: table and turn or version), once, if wanted and the tab
 *  is hidden; a click on it brings the tab to the front (and opens `url` if given). With
 *  `quiet`, the turn is only marked told (what a page finds when it opens is no news). */
export function notifyTurn(key, title, body, url, quiet = false) {
  if (told.has(key)) return false;
  told.add(key);
  if (quiet || !notifying() || !document.hidden) return false;
  const n = new Notification(title, { body, tag: key });
  n.addEventListener("click", () => {
    window.focus();
    if (url && location.pathname + location.search !== url) location.href = url;
    n.close();
  });
  return true;
}
