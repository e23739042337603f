// A game's rules page (/rules/<game>): the how-to-play text comes rendered by the
// server; this draws the sheet of a new game beside it with the game's own drawing module, from
// GET /api/rules/{game} (its layout and a spectator's view, as the table page has them).
import { accountLink, api, el, wireColourBlind } from "../js/common.js";
import { loadDrawing } from "../js/games/index.js";

const $ = (id) => document.getElementById(id);
const game = $("rules-page").dataset.game;
let rules = null;
let drawing = null;

function draw() {
  const box = $("rules-drawing");
  box.replaceChildren();
  if (!drawing || !drawing.draw) {
    box.append(el("pre", { class: "sheet" }, rules.view.text || "(no drawing for this game)"));
    return;
  }
  // nothing lit, nothing to click: the sheet as a new game shows it
  drawing.draw(box, {
    layout: rules.layout, view: rules.view, board: rules.view.board || {}, seat: 0,
    cb: document.body.classList.contains("cb"), lit: new Set(), choose: () => {}, preview: true,
  });
}

async function start() {
  wireColourBlind($("cb-toggle"), () => { if (rules) draw(); });
  accountLink();
  try {
    [rules, drawing] = await Promise.all([api("GET", `/api/rules/${encodeURIComponent(game)}`),
      loadDrawing(game)]);
  } catch (err) {
    $("rules-drawing").replaceChildren(el("p", { class: "error" },
      `The sheet cannot be drawn: ${err.message}`));
    return;
  }
  draw();
  document.body.dataset.drawn = "1";  // for tests: the sheet is drawn
}

start();
