// The account page (/account): sign up and sign in (a guest's seats in this browser are then
// claimed into the account), and once signed in: who you are, sign out (here or everywhere),
// the page settings the account keeps, the export of its records and its deletion.
import { api, forgetSession, heldSeats, session, setSession } from "./common.js";

const $ = (id) => document.getElementById(id);

function say(text) { $("account-status").textContent = text; }

// the settings the account keeps, applied to this browser (what the pages read)
function applySettings(settings) {
  localStorage.setItem("meeple.cb", settings.colour_blind ? "1" : "0");
  localStorage.setItem("meeple.autoconfirm", settings.auto_confirm ? "1" : "0");
  document.body.classList.toggle("cb", settings.colour_blind);
}

function show(me) {
  $("guest").classList.toggle("hidden", Boolean(me));
  $("signed-in").classList.toggle("hidden", !me);
  if (!me) return;
  const { account } = me;
  $("me-display").textContent = account.display_name;
  $("me-username").textContent = `(username ${account.username})`;
  $("display-name").value = account.display_name;
  $("set-colour-blind").checked = account.settings.colour_blind;
  $("set-auto-confirm").checked = account.settings.auto_confirm;
  $("set-hint-level").value = account.settings.hint_level;
  $("export").setAttribute("download", `meeple-${account.username}.json`);
  $("profile-link").setAttribute("href", `/u/${encodeURIComponent(account.username)}`);
  applySettings(account.settings);
  loadMail();
}

// the seats this browser holds as a guest, claimed into the account just signed in to
async function claimSeats() {
  const seats = Object.entries(heldSeats())
    .filter(([, s]) => s && s.secret && Number.isInteger(s.seat))
    .slice(0, 100)
    .map(([table, s]) => ({ table, seat: s.seat, secret: s.secret }));
  if (!seats.length) return "";
  try {
    const out = await api("POST", "/api/me/claim", { seats });
    const n = out.claimed.length;
    const refused = out.refused.length ? ` (${out.refused.length} not: ${out.refused[0].reason})` : "";
    return ` ${n} ${n === 1 ? "seat" : "seats"} of this browser claimed into your account${refused}.`;
  } catch (err) {
    return ` Your seats in this browser could not be claimed: ${err.message}`;
  }
}

async function signedIn(me, how) {
  setSession(me);
  const claimed = await claimSeats();
  say(`${how} as ${me.account.display_name}.${claimed}`);
  show(me);
}

function form(id, button, error, act) {
  $(id).addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $(error).textContent = "";
    $(button).disabled = true;
    try {
      await act();
    } catch (err) {
      $(error).textContent = err.message;
    } finally {
      $(button).disabled = false;
    }
  });
}

async function signOut(path, method, text) {
  $("session-error").textContent = "";
  try {
    const out = await api(method, path);
    forgetSession();
    show(null);
    const n = out.revoked;
    say(n === undefined ? `${text}.` : `${text} (${n} ${n === 1 ? "session" : "sessions"} ended).`);
  } catch (err) {
    $("session-error").textContent = err.message;
  }
}

async function patch(body, what) {
  $("settings-status").textContent = "";
  $("settings-status").className = "small";
  try {
    const me = await api("PATCH", "/api/me", body);
    setSession(me);
    show(me);
    $("settings-status").textContent = `${what} saved.`;
    $("settings-status").className = "small okay";
  } catch (err) {
    $("settings-status").textContent = err.message;
    $("settings-status").className = "small error";
  }
}

// ---------------------------------------------------------------- mail (issue 54)
const KINDS = ["turn", "ended", "rematch"];

function mailSaid(text, cls = "") {
  $("mail-status").textContent = text;
  $("mail-status").className = `small ${cls}`;
}

function showMail(mail) {
  $("mail-off").classList.toggle("hidden", mail.mail);
  $("email").disabled = !mail.mail && !mail.email;
  $("email-save").disabled = !mail.mail;
  $("email").value = mail.email || "";
  $("email-remove").classList.toggle("hidden", !mail.email);
  $("email-state").textContent = !mail.email ? "No address: you get no mail."
    : mail.email_verified ? `${mail.email} is confirmed.`
      : `${mail.email} is not confirmed yet: open the link in the mail sent to it.`;
  $("email-state").className = `small ${mail.email && !mail.email_verified ? "error" : ""}`;
  for (const kind of KINDS) $(`notify-${kind}`).checked = Boolean(mail.notify[kind]);
}

async function loadMail() {
  try { showMail(await api("GET", "/api/me/mail")); } catch { /* signed out meanwhile */ }
}

async function mailChange(method, path, body, done) {
  mailSaid("");
  try {
    showMail(await api(method, path, body));
    mailSaid(done, "okay");
  } catch (err) {
    mailSaid(err.message, "error");
  }
}

function wireMail() {
  $("email-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const email = $("email").value.trim();
    mailChange("PUT", "/api/me/email", { email }, `A mail with a link to confirm ${email} was sent to it.`);
  });
  $("email-remove").addEventListener("click",
    () => mailChange("PUT", "/api/me/email", { email: null }, "The address was removed."));
  for (const kind of KINDS) {
    $(`notify-${kind}`).addEventListener("change", () => mailChange("PATCH", "/api/me/notify",
      { [kind]: $(`notify-${kind}`).checked }, "Mail settings saved."));
  }
}

async function start() {
  wireMail();
  form("signin-form", "signin", "signin-error", async () => {
    const me = await api("POST", "/api/session", {
      username: $("signin-username").value.trim(), password: $("signin-password").value });
    $("signin-password").value = "";
    await signedIn(me, "Signed in");
  });
  form("signup-form", "signup", "signup-error", async () => {
    const body = { username: $("signup-username").value.trim(), password: $("signup-password").value };
    const display = $("signup-display").value.trim();
    if (display) body.display_name = display;
    const me = await api("POST", "/api/accounts", body);
    $("signup-password").value = "";
    await signedIn(me, "Signed up and signed in");
  });
  $("signout").addEventListener("click", () => signOut("/api/session", "DELETE", "Signed out"));
  $("signout-all").addEventListener("click",
    () => signOut("/api/session/revoke-all", "POST", "Signed out everywhere"));
  $("display-save").addEventListener("click",
    () => patch({ display_name: $("display-name").value.trim() }, "Display name"));
  $("set-colour-blind").addEventListener("change",
    () => patch({ settings: { colour_blind: $("set-colour-blind").checked } }, "Colour-blind mode"));
  $("set-auto-confirm").addEventListener("change",
    () => patch({ settings: { auto_confirm: $("set-auto-confirm").checked } }, "Auto-confirm"));
  $("set-hint-level").addEventListener("change",
    () => patch({ settings: { hint_level: $("set-hint-level").value } }, "Hint level"));
  // deleting: the password, then a second click to confirm
  form("delete-form", "delete", "delete-error", async () => {
    $("delete-confirm").classList.remove("hidden");
    $("delete-yes").focus();
  });
  $("delete-no").addEventListener("click", () => $("delete-confirm").classList.add("hidden"));
  $("delete-yes").addEventListener("click", async () => {
    $("delete-error").textContent = "";
    try {
      await api("DELETE", "/api/me", { password: $("delete-password").value });
      forgetSession();
      $("delete-password").value = "";
      $("delete-confirm").classList.add("hidden");
      show(null);
      say("Your account was deleted.");
    } catch (err) {
      $("delete-confirm").classList.add("hidden");
      $("delete-error").textContent = err.message;
    }
  });
  show(await session());
}

start();
