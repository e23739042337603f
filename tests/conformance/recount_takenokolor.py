"""Independent recount of Takenokolor scores, written apart from the engine's scoring code.

It reads only the plain sheet data (``sheet_data()``) and the move log with the seat of each
move, rebuilds what every seat coloured (and in which order, for the first-player races), and
scores each sheet from the rulebook's "Counting Points" as the sheet's score rows describe them.
"""

from __future__ import annotations

from typing import Any


def _area_done(area: dict[str, Any], done: set[str]) -> bool:
    items = area["items"]
    if area.get("order", "any") != "sequence":
        return all(it["id"] in done for it in items)
    steps = [it["step"] if it.get("step") is not None else k for k, it in enumerate(items)]
    last = max(steps)
    return any(it["id"] in done for it, st in zip(items, steps, strict=True) if st == last)


def _selected(sheet: dict[str, Any], areas: list[str], kinds: list[str]) -> list[dict[str, Any]]:
    return [a for a in sheet["areas"] if a["id"] in areas or a["kind"] in kinds]


def _measure(sheet: dict[str, Any], m: dict[str, Any], done: set[str]) -> int:
    sel = _selected(sheet, m.get("areas") or [], m.get("kinds") or [])
    if m["op"] == "count":
        return sum(1 for a in sel for it in a["items"] if it["id"] in done)
    if m["op"] == "sum":
        return sum(it["points"] for a in sel for it in a["items"] if it["id"] in done)
    total = 0
    for a in sel:  # last: the furthest coloured item of each area
        hit = [it for it in a["items"] if it["id"] in done]
        if hit:
            total += hit[-1]["points"]
    return total


def recount(state: Any) -> list[int]:
    sheet = state.sheet_data()
    players = state.players
    done: list[set[str]] = [set() for _ in range(players)]
    met_order: dict[str, list[int]] = {r["id"]: [] for r in sheet.get("races", [])}
    for (seat, _turn), move in zip(state._movers, state.history, strict=True):
        text = str(move)
        word, _, rest = text.partition(" ")
        if word not in ("colour", "free"):
            continue
        done[seat].add(rest)
        for r in sheet.get("races", []):
            if seat in met_order[r["id"]]:
                continue
            need = set(r["items"])
            hit = need <= done[seat] if r.get("when", "all") == "all" else bool(need & done[seat])
            if hit:
                met_order[r["id"]].append(seat)
    totals = []
    for p in range(players):
        d = done[p]
        total = 0
        for row in sheet["scoring"]:
            rule = row["rule"]
            sel = _selected(sheet, row.get("areas") or [], row.get("kinds") or [])
            if rule == "sum":
                total += sum(it["points"] for a in sel for it in a["items"] if it["id"] in d)
            elif rule == "complete":
                total += row["points"] * sum(1 for a in sel if _area_done(a, d))
            elif rule == "groups":
                groups: dict[str, bool] = {}
                for a in sel:
                    if a.get("group") is None:
                        continue
                    g = f"{a['kind']}/{a['group']}"
                    groups[g] = groups.get(g, True) and _area_done(a, d)
                total += row["points"] * sum(groups.values())
            elif rule == "majority":
                ids = {it["id"] for a in sel for it in a["items"]}
                counts = [len(ids & done[q]) for q in range(players)]
                mine = counts[p]
                if mine > 0:
                    better = len({c for c in counts if c > mine})
                    if better < len(row["places"]):
                        total += row["places"][better]
            elif rule == "races":
                names = row.get("races") or [r["id"] for r in sheet["races"]]
                for r in sheet["races"]:
                    if r["id"] in names and p in met_order[r["id"]]:
                        total += r["first"] if met_order[r["id"]][0] == p else r["later"]
            elif rule == "product":
                total += _measure(sheet, row["left"], d) * _measure(sheet, row["right"], d)
            elif rule == "ladybugs":
                areas = {a["id"]: a for a in sheet["areas"]}
                n = 0
                for lb in sheet.get("ladybugs", []):
                    if all(i in d for i in lb.get("items") or []) and all(
                        _area_done(areas[a], d) for a in lb.get("areas") or []
                    ):
                        n += 1
                total += row["points"] * n
            else:
                raise AssertionError(f"unknown score rule {rule}")
        totals.append(total)
    return totals
