"""Independent Gardens recount: replays the record's move texts with plain Python sets and
scores from the rulebook, sharing no code with meeple.games.gardens."""

from __future__ import annotations

from typing import Any

LET = "ORGBP"
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _areas(cells: set[tuple[int, int]]) -> int:
    best = 0
    left = set(cells)
    while left:
        stack = [left.pop()]
        size = 1
        while stack:
            q, r = stack.pop()
            for dq, dr in DIRS:
                n = (q + dq, r + dr)
                if n in left:
                    left.remove(n)
                    stack.append(n)
                    size += 1
        best = max(best, size)
    return best


def recount(state: Any) -> list[int]:
    rec = state.record()
    sheet = rec["sheet"]
    pad = sheet["scoring"]
    players = rec["players"]
    fields = {f["id"]: f for f in sheet["fields"]}
    pos = {(f["q"], f["r"]) for f in sheet["fields"]}
    # outer: a neighbour position off the sheet that is not enclosed (flood from far outside)
    qs = [q for q, _ in pos]
    rs = [r for _, r in pos]
    box = (min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1)
    outside = {(box[0], box[2])}
    stack = list(outside)
    while stack:
        q, r = stack.pop()
        for dq, dr in DIRS:
            n = (q + dq, r + dr)
            if box[0] <= n[0] <= box[1] and box[2] <= n[1] <= box[3] and n not in pos \
                    and n not in outside:
                outside.add(n)
                stack.append(n)
    outer = {fid for fid, f in fields.items()
             if any((f["q"] + dq, f["r"] + dr) in outside for dq, dr in DIRS)}
    gardens: dict[str, set[str]] = {}
    for fid, f in fields.items():
        gardens.setdefault(f["garden"], set()).add(fid)
    flowers = {fid: f["flower"] for fid, f in fields.items() if f.get("flower")}
    trees = {fid for fid, f in fields.items() if f.get("tree")}
    colour_of: list[dict[str, str]] = [{} for _ in range(players)]
    single = [dict.fromkeys(LET, 0) for _ in range(players)]
    colourful = [0] * players
    crossed = [0] * players
    flower_box = [set() for _ in range(players)]
    tree_box = [set() for _ in range(players)]
    first: dict[str, int] = {}
    faces: dict[str, int] = {}
    middle: set[str] = set()
    seat = 0
    hand = None
    names = {"O": "orange", "R": "red", "G": "green", "B": "blue", "P": "purple"}
    for text in rec["moves"]:
        if text.startswith("roll "):
            faces[text[5]] = int(text[6])
            middle.add(text[5])
            continue
        if text.startswith("take "):
            hand = text[5]
            middle.discard(hand)
            left = faces[hand]
            continue
        if text == "waste":
            crossed[seat] += 1
            seat = (seat + 1) % players
            continue
        col = colour_of[seat]
        col[text] = hand
        if text in flowers and names[hand] == flowers[text]:
            flower_box[seat].add(hand)
        if text in trees:
            tree_box[seat].add(hand)
        if flowers and "flowers" not in first and all(f in col for f in flowers):
            first["flowers"] = seat
        g = gardens[fields[text]["garden"]]
        if all(f in col for f in g):
            cs = {col[f] for f in g}
            if len(cs) == 1:
                single[seat][hand] += 1
                n4 = pad.get("four_gardens_count", 4)
                if pad.get("four_gardens_bonus", 0) and single[seat][hand] == n4 \
                        and f"four{hand}" not in first:
                    first[f"four{hand}"] = seat
            elif len(cs) == 5:
                colourful[seat] += 1
        if "outer" not in first and outer <= set(col):
            first["outer"] = seat
        left -= 1
        if len(col) == len(fields) and "all" not in first:
            first["all"] = seat
        if left == 0:
            seat = (seat + 1) % players
    areas = [max((_areas({(fields[f]["q"], fields[f]["r"]) for f, c in colour_of[s].items()
                          if c == x}) for x in LET), default=0) for s in range(players)]
    totals = []
    nbox = len(pad["single_colour_boxes"])
    for s in range(players):
        t = 0
        capped = {x: min(single[s][x], nbox) for x in LET}
        for x in LET:
            t += sum(pad["single_colour_boxes"][: capped[x]])
        t += sum(pad["row_stars"][: min(capped.values())])
        ncf = min(colourful[s], len(pad["colourful_boxes"]))
        t += sum(pad["colourful_boxes"][:ncf])
        if ncf == len(pad["colourful_boxes"]):
            t += pad.get("colourful_star", 0)
        if flowers:
            t += pad.get("flower_box", 2) * len(flower_box[s])
            if len(flower_box[s]) == 5:
                t += pad.get("flower_star", 10)
            if first.get("flowers") == s:
                t += pad.get("all_flower_fields_bonus", 6)
        if trees and len(tree_box[s]) == 5:
            t += pad.get("tree_star", 10)
        for x in LET:
            if first.get(f"four{x}") == s:
                t += pad.get("four_gardens_bonus", 0)
        if first.get("outer") == s:
            t += pad.get("outer_fields_bonus", 6)
        if first.get("all") == s:
            t += pad.get("all_fields_bonus", 6)
        best = max(areas)
        if players == 1 or (areas[s] == best and areas.count(best) == 1):
            t += pad.get("largest_area_bonus", 6)
        t += sum(pad["pencil_penalties"][: crossed[s]])
        totals.append(t)
    return totals
