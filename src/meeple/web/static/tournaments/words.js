// What a tournament's lists and page say about it, in players' words: its kind, its pace,
// when it starts, and a player's name with its BOT badge and profile link.
import { botBadge, el } from "../js/common.js";

export const KINDS = { swiss: "Swiss", arena: "Arena", "round-robin": "Round robin" };

export function when(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleString(undefined,
    { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

export function format(t) {
  const length = t.kind === "swiss" ? `${t.rounds} round${t.rounds === 1 ? "" : "s"}`
    : t.kind === "arena" ? `${Math.round(t.duration / 60) || 1} min` : "everyone meets everyone";
  const pace = t.pace === "live" ? `live, ${t.clock} s a decision` : "turn-based";
  return `${KINDS[t.kind] || t.kind} · ${t.title || t.game} · ${length} · ${t.seats} seats · ${pace}`
    + `${t.rated ? " · rated" : " · casual"}${t.bots ? " · bots welcome" : ""}`;
}

export function person(p) {
  if (!p || !p.name) return el("span", { class: "muted" }, "(deleted account)");
  return el("span", { class: "tn-person" },
    el("a", { href: `/u/${encodeURIComponent(p.name)}` }, p.display_name || p.name),
    botBadge(p.bot_account));
}
