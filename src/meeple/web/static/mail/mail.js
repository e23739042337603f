// The pages a mail's links open: /mail/verify confirms an address, and
// /mail/unsubscribe turns one kind of mail off. Opening the link changes nothing (a mail
// program or a scanner that follows links must not): the page says what the button will do,
// and only the button's click posts the link's signed values.
import { api } from "../js/common.js";

const $ = (id) => document.getElementById(id);
const query = Object.fromEntries(new URLSearchParams(location.search));
const KINDS = {
  turn: "mail when it is your turn at a turn-based table",
  ended: "mail when a turn-based game of yours ends",
  rematch: "rematch invitations by mail",
  challenge: "mail when someone challenges you to a turn-based game",
};

function page() {
  const verify = location.pathname.endsWith("/verify");
  if (verify) {
    $("mail-title").textContent = "Confirm your e-mail address";
    $("mail-text").textContent = "Confirm that this address is yours: meeple then mails it " +
      "when it is your turn at a turn-based table, when such a game ends and when you are " +
      "invited to a rematch (each can be turned off at your account).";
    return { label: "Confirm my address", path: "/api/mail/verify",
      body: { a: query.a || "", e: query.e || "", x: Number(query.x) || 0, s: query.s || "" },
      done: (out) => `Confirmed: ${out.email} gets meeple's mail from now on.` };
  }
  const what = KINDS[query.k] || "this kind of mail";
  $("mail-title").textContent = "Stop these mails";
  $("mail-text").textContent = `Press the button and your meeple account gets no more ${what}. ` +
    "You can turn it on again at your account.";
  return { label: "Stop these mails", path: "/api/mail/unsubscribe",
    body: { a: query.a || "", k: query.k || "", s: query.s || "" },
    done: () => `Done: no more ${what}.` };
}

function start() {
  const act = page();
  const button = $("mail-confirm");
  button.textContent = act.label;
  button.classList.remove("hidden");
  button.addEventListener("click", async () => {
    $("mail-error").textContent = "";
    button.disabled = true;
    try {
      const out = await api("POST", act.path, act.body);
      $("mail-status").textContent = act.done(out);
      button.classList.add("hidden");
    } catch (err) {
      $("mail-error").textContent = err.message;
      button.disabled = false;
    }
  });
}

start();
