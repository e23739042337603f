// Life at a table: a seated person's Leave and Concede while the table waits or its
// game runs, and the rematch at a finished table (the one new table every person of it is
// invited to: the first to press Rematch makes it, the others are shown "Join the rematch").
// The server's side is src/meeple/server/features/tablelife/README.md.

import { api, el, holdSeat, session } from "../js/common.js";

// The seat's proof for a request: its secret when this browser keeps it, else nothing (the
// signed-in session's account holds the seat).
function proof(me) {
  return me.secret ? { seat: me.seat, secret: me.secret } : { seat: me.seat };
}

// The buttons a seated person has at a waiting or running table, in `box`. `ctx`: {tableId,
// table, me, over, onChange(table)}: called with the table after a leave or a concession.
export function renderSeatActions(box, ctx) {
  const { table, me, over } = ctx;
  box.replaceChildren();
  if (!me || !table || over || table.status === "finished") return;
  const seat = table.seats[me.seat] || {};
  if (seat.conceded) {
    box.append(el("span", { class: "muted small", id: "conceded-note" },
      "You conceded: a bot plays your seat to the end."));
    return;
  }
  const said = el("span", { class: "error small", id: "seat-action-error", role: "alert" });
  const act = async (path, button) => {
    button.disabled = true;
    try {
      const out = await api("POST", `/api/tables/${ctx.tableId}/${path}`, proof(me));
      ctx.onChange(out, path);
    } catch (err) {
      said.textContent = err.message;
      button.disabled = false;
    }
  };
  if (table.status === "waiting") {
    const leave = el("button", { type: "button", id: "leave-seat", class: "small" }, "Leave this seat");
    leave.title = "your seat opens again for someone else; the table goes on waiting";
    leave.onclick = () => act("leave", leave);
    box.append(leave, said);
    return;
  }
  // a running game: step away (a bot plays until you come back) or concede (for good)
  const leave = el("button", { type: "button", id: "leave-game", class: "small" },
    "Leave (a bot plays for me)");
  leave.title = "a bot plays your seat until you come back to this page and click";
  leave.onclick = () => act("leave", leave);
  const concede = el("button", { type: "button", id: "concede", class: "small danger" }, "Concede");
  const confirm = el("span", { class: "confirm-concede hidden", id: "concede-confirm", role: "group" },
    el("span", {}, "Concede this game? A bot plays your seat to the end; you are placed below "
      + "everyone who plays on, and you cannot take the seat back. "));
  const yes = el("button", { type: "button", id: "concede-yes", class: "small danger" }, "Yes, concede");
  const no = el("button", { type: "button", id: "concede-no", class: "small" }, "Cancel");
  confirm.append(yes, " ", no);
  concede.onclick = () => { confirm.classList.remove("hidden"); concede.classList.add("hidden"); };
  no.onclick = () => { confirm.classList.add("hidden"); concede.classList.remove("hidden"); };
  yes.onclick = () => act("concede", yes);
  box.append(leave, " ", concede, confirm, said);
}

// The rematch part of a finished table's links, for a person who held a seat (`me`) or a
// spectator; `rematch` is the rematch's id once someone made it (the presence frame says so).
export function rematchLinks(ctx) {
  const { tableId, table, me, rematch } = ctx;
  const out = [];
  if (me && table.seats[me.seat] && table.seats[me.seat].kind === "human") {
    const said = el("span", { class: "error small", id: "end-again-error", role: "alert" });
    const label = rematch ? "Join the rematch" : "Rematch";
    const button = el("button", { class: "primary", id: "end-again", type: "button" }, label);
    button.title = rematch
      ? "someone of this table made a rematch: take your seat there"
      : "a new table of this game and variant, with the same bots; everyone of this table is "
        + "invited to it";
    button.onclick = async () => {
      button.disabled = true;
      try {
        // no name sent: the seat keeps this table's name (an account's seat, the account's)
        const out2 = await api("POST", `/api/tables/${tableId}/rematch`, proof(me));
        // a guest keeps the seat's secret; a signed-in seat is the account's
        // (src/meeple/server/features/accounts/README.md)
        if (!(await session())) {
          holdSeat(out2.table.id, out2.seat, out2.secret, out2.table.seats[out2.seat].name);
        }
        location.href = `/t/${out2.table.id}`;
      } catch (err) {
        said.textContent = `No rematch: ${err.message}`;
        button.disabled = false;
      }
    };
    if (rematch) {
      out.push(el("span", { class: "rematch-ready", id: "rematch-ready" }, "A rematch is ready. "));
    }
    out.push(button, said);
  } else if (rematch) {
    out.push(el("a", { href: `/t/${rematch}`, id: "watch-rematch" }, "Watch the rematch"));
  }
  return out;
}
