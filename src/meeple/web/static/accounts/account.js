// The account page (/account): sign up and sign in, with a password or a passkey (a guest's
// seats in this browser are then claimed into the account), and once signed in: who you are,
// sign out (here or everywhere), the page settings the account keeps, the passkeys (add,
// rename, remove), the password (change it, or set one for an account of passkeys only), the
// export of its records and its deletion.
import { api, claimBrowserSeats, el, forgetSeats, forgetSession, session, setSession } from "../js/common.js";
import { createPasskey, getPasskey, passkeysSupported } from "./passkeys.js";
import { loadTokens, wireTokens } from "./tokens.js";

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
  loadPasskeys();
  loadTokens();
  loadMail();
}

// ---------------------------------------------------------------- passkeys
// whether the signed-in account has a password (else it signs in with passkeys only)
let hasPassword = true;

function when(iso) {
  return new Date(iso).toLocaleString(undefined, {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

function passkeysSay(text, ok = true) {
  $("passkeys-status").textContent = text;
  $("passkeys-status").className = `small ${ok ? "okay" : "error"}`;
}

// the password form and the deletion as this account needs them: change or set a password,
// confirm a deletion with the password or with a passkey
function showPassword(password) {
  hasPassword = password;
  $("password-title").textContent = password ? "Change password" : "Set a password";
  $("password-save").textContent = password ? "Change password" : "Set a password";
  $("old-password-row").classList.toggle("hidden", !password);
  $("old-password").required = password;
  $("password-note").textContent = password ? "your other sessions are signed out"
    : "you sign in with passkeys only: a password is a second way in";
  $("delete-password-row").classList.toggle("hidden", !password);
  $("delete-password").required = password;
  $("delete-passkey-note").classList.toggle("hidden", password);
}

function passkeyRow(p) {
  const used = p.last_used ? `last used ${when(p.last_used)}` : "never used yet";
  const name = el("span", { class: "passkey-name" }, p.name);
  const info = el("span", { class: "muted small" }, `added ${when(p.created)}, ${used}`);
  const actions = el("span", { class: "passkey-actions" });
  const row = el("li", { "data-passkey": p.id }, name, " ", info, " ", actions);
  const normal = () => {
    actions.replaceChildren(
      el("button", { type: "button", class: "passkey-rename", onclick: rename }, "Rename"),
      el("button", { type: "button", class: "passkey-remove", onclick: askRemove }, "Remove"));
  };
  function rename() {
    const input = el("input", { class: "passkey-new-name", maxlength: "60", value: p.name,
      "aria-label": "the passkey's new name" });
    const save = async () => {
      try {
        await api("PATCH", `/api/me/passkeys/${p.id}`, { name: input.value.trim() });
        passkeysSay("Passkey renamed.");
        await loadPasskeys();
      } catch (err) {
        passkeysSay(err.message, false);
      }
    };
    input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") save(); });
    name.replaceChildren(input);
    actions.replaceChildren(
      el("button", { type: "button", class: "passkey-save", onclick: save }, "Save"),
      el("button", { type: "button", onclick: () => { name.replaceChildren(p.name); normal(); } },
        "Cancel"));
    input.focus();
  }
  function askRemove() {
    actions.replaceChildren(
      el("span", { class: "small" }, "Remove it? "),
      el("button", { type: "button", class: "danger passkey-remove-yes", onclick: remove },
        "Yes, remove"),
      el("button", { type: "button", onclick: normal }, "Keep it"));
  }
  async function remove() {
    try {
      await api("DELETE", `/api/me/passkeys/${p.id}`);
      passkeysSay(`Passkey “${p.name}” removed: it signs in no more.`);
      await loadPasskeys();
    } catch (err) {
      passkeysSay(err.message, false);
      normal();
    }
  }
  normal();
  return row;
}

async function loadPasskeys() {
  try {
    const mine = await api("GET", "/api/me/passkeys");
    $("passkeys-list").replaceChildren(...mine.passkeys.map(passkeyRow));
    $("passkeys-none").classList.toggle("hidden", mine.passkeys.length > 0);
    showPassword(mine.password);
  } catch (err) {
    passkeysSay(`Your passkeys could not be listed: ${err.message}`, false);
  }
}

async function addPasskey() {
  passkeysSay("");
  $("passkey-add").disabled = true;
  try {
    const options = await api("POST", "/api/passkeys/register/options");
    const credential = await createPasskey(options);
    const body = { credential };
    const name = $("passkey-name").value.trim();
    if (name) body.name = name;
    const made = await api("POST", "/api/passkeys/register", body);
    $("passkey-name").value = "";
    passkeysSay(`Passkey “${made.name}” added: you can sign in with it.`);
    await loadPasskeys();
  } catch (err) {
    passkeysSay(err.message, false);
  } finally {
    $("passkey-add").disabled = false;
  }
}

async function passkeySignIn() {
  $("passkey-signin-error").textContent = "";
  const options = await api("POST", "/api/passkeys/signin/options");
  const credential = await getPasskey(options);
  const me = await api("POST", "/api/passkeys/signin", { credential });
  await signedIn(me, "Signed in with a passkey");
}

async function passkeySignUp() {
  $("passkey-signup-error").textContent = "";
  const username = $("signup-username").value.trim();
  if (!username) throw new Error("Choose a username first (above), then sign up with a passkey.");
  const body = { username };
  const display = $("signup-display").value.trim();
  if (display) body.display_name = display;
  const options = await api("POST", "/api/passkeys/signup/options", body);
  const credential = await createPasskey(options);
  const me = await api("POST", "/api/passkeys/signup", { credential });
  await signedIn(me, "Signed up with a passkey and signed in");
}

// a button whose action may fail: its error shown under it, the button off meanwhile
function button(id, error, act) {
  $(id).addEventListener("click", async () => {
    $(error).textContent = "";
    $(id).disabled = true;
    try {
      await act();
    } catch (err) {
      $(error).textContent = err.message;
    } finally {
      $(id).disabled = false;
    }
  });
}

// the seats this browser holds as a guest, claimed into the account just signed in to and
// removed from the browser (common.js): what to say about them
async function claimSeats() {
  try {
    const out = await claimBrowserSeats();
    if (!out) return "";
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
    forgetSeats();  // a signed-out browser keeps no seat (src/meeple/server/features/accounts/README.md)
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

// ---------------------------------------------------------------- mail
const KINDS = ["turn", "ended", "rematch", "challenge"];

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
  wireTokens();
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
  // passkeys: sign in, sign up, add (the page says so when this browser cannot)
  button("passkey-signin", "passkey-signin-error", passkeySignIn);
  button("passkey-signup", "passkey-signup-error", passkeySignUp);
  $("passkey-add").addEventListener("click", addPasskey);
  if (!passkeysSupported()) {
    const why = "This browser cannot use passkeys here (no support, or not a secure address: "
      + "https or http://localhost).";
    for (const id of ["passkey-signin-error", "passkey-signup-error"]) $(id).textContent = why;
    passkeysSay(why, false);
  }
  // the password: change it (the current one first), or set one for an account without
  form("password-form", "password-save", "password-error", async () => {
    $("password-status").textContent = "";
    const body = { new_password: $("new-password").value };
    if (hasPassword) body.old_password = $("old-password").value;
    const me = await api("POST", "/api/me/password", body);
    setSession(me);
    $("old-password").value = "";
    $("new-password").value = "";
    $("password-status").textContent = hasPassword
      ? "Password changed: your other sessions were signed out."
      : "Password set: you can sign in with it as well as with your passkeys.";
    await loadPasskeys();
  });
  // deleting: the password, then a second click to confirm
  form("delete-form", "delete", "delete-error", async () => {
    $("delete-confirm").classList.remove("hidden");
    $("delete-yes").focus();
  });
  $("delete-no").addEventListener("click", () => $("delete-confirm").classList.add("hidden"));
  $("delete-yes").addEventListener("click", async () => {
    $("delete-error").textContent = "";
    try {
      let body = { password: $("delete-password").value };
      if (!hasPassword) {  // an account of passkeys only confirms with one of them
        const options = await api("POST", "/api/passkeys/confirm/options");
        body = { passkey: await getPasskey(options) };
      }
      await api("DELETE", "/api/me", body);
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
