// Shared by the lobby and the table page: the REST helper, element building, the seats this
// browser holds (their secrets, kept in localStorage) and the colour-blind setting.

// a random key for one request: a retry with it gets the same answer (src/meeple/server/table/README.md)
function idempotencyKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// One request to the server. A request whose reply is lost (the connection dropped, the
// server restarted) is sent again, up to 4 times in all; a POST carries an Idempotency-Key,
// so its retry gets the answer of the first (the same table, seat and secret), never a
// second table or a lost seat.
export async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  if (method === "POST") opts.headers["Idempotency-Key"] = idempotencyKey();
  if (method !== "GET" && method !== "HEAD") {
    // signed in: the server refuses a change that comes with the session cookie but
    // without the session's CSRF token (src/meeple/server/features/accounts/README.md)
    const me = await session();
    if (me) opts.headers["X-CSRF-Token"] = me.csrf;
  }
  let r;
  for (let attempt = 1; ; attempt += 1) {
    try {
      r = await fetch(path, opts);
      break;
    } catch (err) {
      if (attempt >= 4) throw err;
      await new Promise((done) => setTimeout(done, 500 * attempt));
    }
  }
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const detail = Array.isArray(data.detail)
      ? data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ")
      : data.detail || r.statusText;
    const err = new Error(detail);
    err.body = data;  // the whole answer (a refused sheet's problems, say)
    throw err;
  }
  return data;
}

// The account this browser is signed in to (GET /api/session: {account, csrf, expires}, or
// null for a guest, never a refusal); asked once a page, again after forgetSession() (sign in
// or out).
let signedIn = null;
export function session() {
  if (!signedIn) {
    signedIn = fetch("/api/session", { headers: { accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null);
  }
  return signedIn;
}
export function setSession(me) { signedIn = Promise.resolve(me); }
export function forgetSession() { signedIn = null; }

// The header's link to /account: the account's name when signed in, else "Sign in".
export async function accountLink() {
  const header = document.querySelector("header.top");
  if (!header) return;
  let link = document.getElementById("account-link");
  if (!link) {
    link = el("a", { id: "account-link", class: "account-link", href: "/account" }, "Sign in");
    header.append(link);
  }
  const me = await session();
  link.textContent = me ? me.account.display_name : "Sign in";
  link.title = me ? `signed in as ${me.account.username}: your account` : "sign in or sign up";
}

// el("button", {class: "x", onclick: f}, "text", child...). A "style" is set through the
// element's style object: the Content-Security-Policy (style-src 'self') refuses style
// attributes, but not styles set from a script of the page.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "style") node.style.cssText = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// The BOT badge beside the name of a bot account (a program that plays through the API:
// bot_account in the JSON of a seat, a profile, a leaderboard row); null for a person.
export function botBadge(botAccount) {
  if (!botAccount) return null;
  return el("span", { class: "bot-badge", title: "a bot account: a program that plays through the API" },
    "BOT");
}

const SVGNS = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "style") node.style.cssText = v;  // (as in el)
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// Make an SVG element a lit, clickable choice: its class ("lit" unless told; the stylesheet
// gives it the pointer cursor and the highlight), role=button and keyboard focus, its data-*
// attributes (e.g. {move: "take O"} -> data-move), an aria-label (and a <title> tooltip with
// it when asked), and act() on a click or on Enter or Space, kept from the elements behind it.
export function clickable(node, act, { label, data = {}, cls = "lit", title = false } = {}) {
  node.classList.add(cls);
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  for (const [k, v] of Object.entries(data)) node.setAttribute(`data-${k}`, v);
  node.setAttribute("aria-label", label);
  if (title) node.append(svg("title", {}, label));
  node.addEventListener("click", (ev) => { ev.stopPropagation(); act(); });
  node.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); act(); }
  });
  return node;
}

// The seats this browser holds as a guest: {tableId: {seat, secret, name}}. One identity per
// seat (src/meeple/server/features/accounts/README.md): a signed-in browser keeps none; its seats are
// its account's, played by the session.
const SEATS_KEY = "meeple.seats";
export function heldSeats() {
  try { return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}"); } catch { return {}; }
}
export function holdSeat(table, seat, secret, name) {
  const all = heldSeats();
  all[table] = { seat, secret, name };
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}
export function heldSeat(table) { return heldSeats()[table] || null; }
// a seat left before its game began: this browser no longer holds it
export function dropSeat(table) {
  const all = heldSeats();
  delete all[table];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

// every seat secret of this browser removed (at sign-out, and once claimed)
export function forgetSeats() { localStorage.removeItem(SEATS_KEY); }

// Signed in: the guest seats this browser keeps are claimed into the account (POST
// /api/me/claim, 100 a request; a retry is harmless) and then removed from the browser,
// claimed or refused (a refused one is stale, or another account's). Their answers merged,
// or null when there was nothing to claim; an error leaves the secrets to try again later.
export async function claimBrowserSeats() {
  const seats = Object.entries(heldSeats())
    .filter(([, s]) => s && typeof s.secret === "string" && Number.isInteger(s.seat))
    .map(([table, s]) => ({ table, seat: s.seat, secret: s.secret }));
  if (!seats.length) { forgetSeats(); return null; }
  const out = { claimed: [], refused: [] };
  for (let i = 0; i < seats.length; i += 100) {
    const got = await api("POST", "/api/me/claim", { seats: seats.slice(i, i + 100) });
    out.claimed.push(...got.claimed);
    out.refused.push(...got.refused);
  }
  forgetSeats();
  return out;
}

export function myName() { return localStorage.getItem("meeple.name") || ""; }
export function setMyName(name) { localStorage.setItem("meeple.name", name); }
// The name a seat taken here will bear: signed in, the account's display name (the server
// names an account's seat so whatever is sent, src/meeple/server/features/accounts/README.md "Seat
// names"); a guest's typed one.
export function seatName(me, typed) { return me ? me.account.display_name : typed; }
// Signed in, a page asks for no name: the name box (`field`) is hidden and `note` says
// "You play as Alice"; a guest sees the box.
export function showPlayAs(field, note, me) {
  field.classList.toggle("hidden", Boolean(me));
  note.classList.toggle("hidden", !me);
  note.replaceChildren(...(me ? ["You play as ", el("strong", {}, me.account.display_name),
    " (your account's name)"] : []));
}

// Colour-blind mode: a letter or pattern for every colour (body.cb), remembered.
export function colourBlind() { return localStorage.getItem("meeple.cb") === "1"; }
export function wireColourBlind(toggle, onChange) {
  toggle.checked = colourBlind();
  document.body.classList.toggle("cb", toggle.checked);
  toggle.addEventListener("change", () => {
    localStorage.setItem("meeple.cb", toggle.checked ? "1" : "0");
    document.body.classList.toggle("cb", toggle.checked);
    if (onChange) onChange(toggle.checked);
  });
}

export function describeVariant(variant) {
  const parts = Object.entries(variant || {}).map(([k, v]) => `${k} ${v}`);
  return parts.join(", ") || "standard";
}

// Under a shipped sheet that is our reconstruction, in a player's words (the
// sheet file's own note names tools and ruling ids, for whoever edits sheets).
export const RECONSTRUCTED = "This sheet is a reconstruction: the printed sheet's picture is lost, so " +
  "its layout and some of its values are our own. Own the printed sheet? Type it in as your own " +
  "sheet in the lobby.";
