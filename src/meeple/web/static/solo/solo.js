// A player's Pergola solo achievement table (P10): GET /api/solo/{player}, drawn as the
// rulebook's ten spaces with the best score in each, the total, what is missing and the
// 1000 club, then every finished solo game under that name. Without a name (/solo/): a box for
// one and the players with a finished solo game to pick from. The table is the name's (anyone
// may sit under a name): the page says so, and how to keep one's games with an account.
import { clubLine, drawSoloGames, drawSpaces } from "../js/achievements.js";
import { accountLink, api, el, myName, session, wireColourBlind } from "../js/common.js";

const $ = (id) => document.getElementById(id);
const player = decodeURIComponent(location.pathname.replace(/^\/solo\//, ""));

// what the name's table is to an account: claimed (by whom), or how to keep the games with one
// (sign in; signed in: claim them once, POST /api/me/solo/claim)
async function drawAccountNote(t) {
  const box = $("solo-account");
  const me = await session();
  box.classList.remove("hidden");
  if (t.claimed) {
    const by = t.claimed_by;
    box.replaceChildren(by
      ? el("span", {}, `These games under “${player}” were claimed by the account `,
        el("a", { href: `/u/${encodeURIComponent(by.username)}`, id: "solo-claimed-by" }, by.display_name),
        ": its profile keeps them. Games played under the name since then stay with the name.")
      : `These games under “${player}” were claimed by an account since deleted.`);
    return;
  }
  const keep = "A seat name is anyone's: whoever sits down as " +
    `“${player}” adds to this table.`;
  if (!me) {
    box.replaceChildren(keep, " ", el("a", { href: "/account", id: "solo-sign-in" }, "Sign in"),
      " and your solo games are kept with your account, on your profile.");
    return;
  }
  const mine = `/u/${encodeURIComponent(me.account.username)}`;
  if (!t.games.length) {
    box.replaceChildren(keep, " Signed in, your games are kept with your account: ",
      el("a", { href: mine }, "your profile"), ".");
    return;
  }
  const button = el("button", { type: "button", id: "solo-claim", class: "primary" },
    `Claim these games into my account (${me.account.display_name})`);
  const said = el("span", { id: "solo-claim-status", class: "small", role: "status" });
  button.addEventListener("click", async () => {
    button.disabled = true;
    said.className = "small";
    try {
      const out = await api("POST", "/api/me/solo/claim", { name: player });
      said.className = "small okay";
      said.replaceChildren(`${out.claimed} ${out.claimed === 1 ? "game is" : "games are"} ` +
        "yours now: see ", el("a", { href: mine }, "your profile"), ".");
      button.remove();
    } catch (err) {
      said.className = "small error";
      said.textContent = err.message;
      button.disabled = false;
    }
  });
  box.replaceChildren(keep, " Were they yours? Claim them once: the listed games under this " +
    "name that no account holds become your account's. Each name is claimed once, by the " +
    "first account that asks, and an account claims one name. ", button, " ", said);
}

async function pickPlayer() {
  // /solo/ without a name: whose table? (the finished solo games' players, and a box)
  $("solo-title").textContent = "Pergola solo achievements";
  $("club").textContent = "Whose achievement table? Type a player's name (as they sat at " +
    "the table), or pick one of the players below.";
  for (const card of document.querySelectorAll(".solo-of-player")) card.classList.add("hidden");
  const input = el("input", { id: "solo-name", maxlength: 60, placeholder: "a player's name",
    "aria-label": "player's name", value: myName() });
  const go = el("button", { id: "solo-go", class: "primary", type: "submit" }, "Show");
  const form = el("form", { class: "solo-pick" }, input, go);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (name) location.href = `/solo/${encodeURIComponent(name)}`;
    else input.focus();
  });
  const list = el("ul", { id: "solo-players", class: "solo-players" });
  $("solo-pick").replaceChildren(form, el("h2", {}, "Players with a finished solo game"), list);
  $("solo-pick").classList.remove("hidden");
  let tables = [];
  try { tables = await api("GET", "/api/tables?status=finished&game=pergola"); } catch { /* none */ }
  const names = [...new Set(tables.filter((t) => t.players === 1).map((t) => t.seats[0].name))];
  list.replaceChildren(...(names.length
    ? names.map((n) => el("li", {}, el("a", { href: `/solo/${encodeURIComponent(n)}` }, n)))
    : [el("li", { class: "muted" }, "none listed yet: finish a Pergola solo game (the lobby's " +
      "challenge choice) and its table appears here")]));
  document.body.dataset.loaded = "1";
}

async function start() {
  wireColourBlind($("cb-toggle"));
  accountLink();
  if (!player.trim()) { await pickPlayer(); return; }
  document.title = `meeple: ${player}'s Pergola solo achievements`;
  $("solo-title").textContent = `${player}: Pergola solo achievements`;
  try {
    const t = await api("GET", `/api/solo/${encodeURIComponent(player)}`);
    $("club").textContent = clubLine(t);
    $("club").classList.toggle("okay", t.member);
    drawSpaces($("solo-table"), t, "solo-total");
    drawSoloGames($("solo-games"), t);
    await drawAccountNote(t);
    document.body.dataset.loaded = "1";
  } catch (err) {
    $("club").textContent = `The achievement table cannot be read: ${err.message}`;
    $("club").classList.add("error");
  }
}

start();
