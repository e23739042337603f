// The account page's API tokens and bot account (/account): make a token (a name, its scopes,
// an expiry), see its secret once (copy it: it is never shown again), list the tokens with
// when each was made, last used and ends, revoke one; and make the account a bot account (one
// way). The server's rules: src/meeple/server/features/accounts/README.md.
import { api, el } from "../js/common.js";

const $ = (id) => document.getElementById(id);

function say(text, ok = true) {
  $("tokens-status").textContent = text;
  $("tokens-status").className = `small ${ok ? "okay" : "error"}`;
}

function day(iso) { return iso ? new Date(iso).toLocaleString() : null; }

function tokenRow(t) {
  const facts = [`scopes: ${t.scopes.join(", ")}`, `made ${day(t.created)}`,
    t.last_used ? `last used ${day(t.last_used)}` : "never used",
    t.expired ? `expired ${day(t.expires)}` : t.expires ? `ends ${day(t.expires)}` : "no expiry"];
  const actions = el("span", { class: "token-actions" });
  const row = el("li", { "data-token": t.id, class: t.expired ? "expired" : null },
    el("span", { class: "token-name" }, t.name), " ",
    el("span", { class: "small muted" }, facts.join(" · ")), " ", actions);
  const revoke = async () => {
    try {
      await api("DELETE", `/api/me/tokens/${t.id}`);
      say(`Token “${t.name}” revoked: every request with it is refused from now on.`);
      await loadTokens();
    } catch (err) {
      say(err.message, false);
    }
  };
  const ask = () => actions.replaceChildren("Revoke it for good? ",
    el("button", { type: "button", class: "danger token-revoke-yes", onclick: revoke }, "Revoke"),
    el("button", { type: "button", onclick: () => plain() }, "Keep it"));
  const plain = () => actions.replaceChildren(
    el("button", { type: "button", class: "token-revoke", onclick: ask }, "Revoke"));
  plain();
  return row;
}

function showBot(bot) {
  $("bot-state").textContent = bot
    ? "This is a bot account: it plays only through the API, with a token that has the play "
      + "scope, and shows as BOT wherever its name does. Its pages here may look, not play."
    : "A bot account is a program's: it plays only through the API and shows as BOT. Only an "
      + "account with no games yet can become one, and it cannot become a person's again.";
  $("bot-make").classList.toggle("hidden", bot);
}

export async function loadTokens() {
  try {
    const mine = await api("GET", "/api/me/tokens");
    $("tokens-list").replaceChildren(...mine.tokens.map(tokenRow));
    $("tokens-none").classList.toggle("hidden", mine.tokens.length > 0);
    showBot(mine.bot_account);
  } catch (err) {
    say(`Your tokens could not be listed: ${err.message}`, false);
  }
}

async function makeToken(ev) {
  ev.preventDefault();
  say("");
  const scopes = [...document.querySelectorAll("input[name=token-scope]:checked")].map((c) => c.value);
  const days = $("token-expiry").value;
  try {
    const made = await api("POST", "/api/me/tokens", {
      name: $("token-name").value.trim(), scopes, expires_days: days ? Number(days) : null });
    $("token-secret").textContent = made.secret;
    $("token-secret-box").classList.remove("hidden");
    $("token-name").value = "";
    say(`Token “${made.token.name}” made.`);
    await loadTokens();
  } catch (err) {
    say(err.message, false);
  }
}

async function copySecret() {
  try {
    await navigator.clipboard.writeText($("token-secret").textContent);
    $("token-copied").textContent = "Copied.";
  } catch {
    $("token-copied").textContent = "This browser did not let the page copy: select the token and copy it.";
  }
}

function hideSecret() {
  $("token-secret").textContent = "";
  $("token-copied").textContent = "";
  $("token-secret-box").classList.add("hidden");
}

async function makeBot() {
  try {
    await api("POST", "/api/me/bot");
    $("bot-confirm").classList.add("hidden");
    say("This is now a bot account.");
    showBot(true);
  } catch (err) {
    $("bot-confirm").classList.add("hidden");
    say(err.message, false);
  }
}

export function wireTokens() {
  $("token-form").addEventListener("submit", makeToken);
  $("token-copy").addEventListener("click", copySecret);
  $("token-done").addEventListener("click", hideSecret);
  $("bot-make").addEventListener("click", () => $("bot-confirm").classList.remove("hidden"));
  $("bot-yes").addEventListener("click", makeBot);
  $("bot-no").addEventListener("click", () => $("bot-confirm").classList.add("hidden"));
}
