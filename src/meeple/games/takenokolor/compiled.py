"""A sheet compiled to bit masks and tables, shared (read only) by every state using it."""

from __future__ import annotations

from dataclasses import dataclass

from meeple.games.takenokolor.sheet import COLOURS, SYMBOLS, Grant, Sheet

ROLL, TAKE, COLOUR, FREE = 0, 1, 2, 3
KIND_WORD = ("roll", "take", "colour", "free")
ANY = 4  # item colour index of dragon sections that take any colour


@dataclass(frozen=True, slots=True)
class Move:
    """A decision. ``kind``: ROLL (``a`` marker, ``b`` symbol), TAKE (``a`` marker), COLOUR and
    FREE (``a`` item index). ``text`` is the canonical notation."""

    kind: int
    a: int
    b: int
    text: str

    def __str__(self) -> str:
        return self.text


class Compiled:
    """Everything the engine needs from a sheet, precomputed once."""

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        items = [(ai, it) for ai, area in enumerate(sheet.areas) for it in area.items]
        self.n = n = len(items)
        self.item_ids = [it.id for _, it in items]
        self.index = {iid: k for k, iid in enumerate(self.item_ids)}
        self.item_area = [ai for ai, _ in items]
        self.item_colour = [
            COLOURS.index(it.colour) if it.colour != "any" else ANY for _, it in items]
        self.item_symbol = [SYMBOLS.index(it.symbol) for _, it in items]
        self.item_points = [it.points for _, it in items]
        self.area_ids = [a.id for a in sheet.areas]
        self.area_index = {a: k for k, a in enumerate(self.area_ids)}
        na = len(sheet.areas)
        self.area_mask = [0] * na
        self.area_steps: list[list[int]] = [[] for _ in range(na)]  # step masks in order
        self.area_sequence = [a.order == "sequence" for a in sheet.areas]
        self.item_step = [0] * n  # index of the item's step in its area
        self.prev_step = [0] * n  # mask of the previous step's items (0: first step / any)
        self.peers = [0] * n  # other items of the same step (alternatives)
        self.unlocks = [0] * n  # items that may become available when this one is coloured
        self.requires = [0] * n
        base = 0
        for ai, area in enumerate(sheet.areas):
            m = 0
            for k in range(len(area.items)):
                m |= 1 << (base + k)
            self.area_mask[ai] = m
            if area.order == "sequence":
                step_values: list[int] = []
                for k, it in enumerate(area.items):
                    sv = it.step if it.step is not None else k
                    if not step_values or step_values[-1] != sv:
                        step_values.append(sv)
                        self.area_steps[ai].append(0)
                    self.area_steps[ai][-1] |= 1 << (base + k)
                    self.item_step[base + k] = len(step_values) - 1
            else:
                for k in range(len(area.items)):
                    self.area_steps[ai].append(1 << (base + k))
                    self.item_step[base + k] = k
            base += len(area.items)
        for i in range(n):
            ai = self.item_area[i]
            steps = self.area_steps[ai]
            st = self.item_step[i]
            if self.area_sequence[ai]:
                self.peers[i] = steps[st] & ~(1 << i)
                if st > 0:
                    self.prev_step[i] = steps[st - 1]
                if st + 1 < len(steps):
                    self.unlocks[i] |= steps[st + 1]
        for i, (_, it) in enumerate(items):
            if it.requires is not None:
                j = self.index[it.requires]
                self.requires[i] = 1 << j
                self.unlocks[j] |= 1 << i
        self.area_complete_mask = [
            (m if not seq else steps[-1])
            for m, seq, steps in zip(self.area_mask, self.area_sequence, self.area_steps,
                                     strict=True)]
        # markers: match[c][s] = fixed-colour items (c, s) plus any-colour items with symbol s
        self.match = [[0] * 3 for _ in range(4)]
        for i in range(n):
            c, s = self.item_colour[i], self.item_symbol[i]
            if c == ANY:
                for cc in range(4):
                    self.match[cc][s] |= 1 << i
            else:
                self.match[c][s] |= 1 << i
        self.adjacent = 0
        for ai, area in enumerate(sheet.areas):
            if area.adjacent_different:
                self.adjacent |= self.area_mask[ai]
        self.lockout = [a.lockout for a in sheet.areas]
        self.initial_avail = 0
        for i in range(n):
            if self.prev_step[i] == 0 and self.requires[i] == 0:
                self.initial_avail |= 1 << i
        # free colourings (T3)
        self.grants: list[Grant] = []
        self.item_grants: list[tuple[int, ...]] = [() for _ in range(n)]
        self.area_grants: list[tuple[int, ...]] = [() for _ in range(na)]
        for i, (_, it) in enumerate(items):
            self.item_grants[i] = tuple(self._grant(g) for g in it.grants)
        for ai, area in enumerate(sheet.areas):
            self.area_grants[ai] = tuple(self._grant(g) for g in area.on_complete)
        self.kind_mask: dict[str, int] = {}
        for ai, area in enumerate(sheet.areas):
            self.kind_mask[area.kind] = self.kind_mask.get(area.kind, 0) | self.area_mask[ai]
        self.group_mask: dict[tuple[str, str], int] = {}  # (kind, group) -> mask
        self.group_size: dict[tuple[str, str], int] = {}
        self.grouped_kind_mask: dict[str, int] = {}
        self.area_group: list[tuple[str, str] | None] = [None] * na
        for ai, area in enumerate(sheet.areas):
            if area.group is not None:
                key = (area.kind, area.group)
                self.area_group[ai] = key
                self.group_mask[key] = self.group_mask.get(key, 0) | self.area_mask[ai]
                self.group_size[key] = self.group_size.get(key, 0) + 1
                self.grouped_kind_mask[area.kind] = (
                    self.grouped_kind_mask.get(area.kind, 0) | self.area_mask[ai])
        # ladybugs (T4)
        self.ladybug_items = []
        self.ladybug_areas: list[tuple[int, ...]] = []
        self.item_ladybugs: list[list[int]] = [[] for _ in range(n)]
        for li, lb in enumerate(sheet.ladybugs):
            m = 0
            for iid in lb.items:
                m |= 1 << self.index[iid]
            self.ladybug_items.append(m)
            self.ladybug_areas.append(tuple(self.area_index[a] for a in lb.areas))
            touch = m
            for a in lb.areas:
                touch |= self.area_mask[self.area_index[a]]
            for i in range(n):
                if touch >> i & 1:
                    self.item_ladybugs[i].append(li)
        # races (T7, dragon feet)
        self.race_mask = []
        self.race_all = []
        self.item_races: list[list[int]] = [[] for _ in range(n)]
        for ri, race in enumerate(sheet.races):
            m = 0
            for iid in race.items:
                m |= 1 << self.index[iid]
            self.race_mask.append(m)
            self.race_all.append(race.when == "all")
            for i in range(n):
                if m >> i & 1:
                    self.item_races[i].append(ri)
        self.race_first = [r.first for r in sheet.races]
        self.race_later = [r.later for r in sheet.races]
        # the faces of a marker (T1)
        counts = [sum(1 for f in sheet.faces if f == s) for s in SYMBOLS]
        total = len(sheet.faces)
        self.faces = [(s, counts[s] / total) for s in range(3) if counts[s]]
        #: items whose symbol some face shows (others can never be coloured with a marker)
        self.rollable = 0
        for i in range(n):
            if counts[self.item_symbol[i]]:
                self.rollable |= 1 << i
        # prebuilt moves
        self.roll_moves = [[Move(ROLL, c, s, f"roll {COLOURS[c]} {SYMBOLS[s]}") for s in range(3)]
                           for c in range(4)]
        self.take_moves = [Move(TAKE, c, 0, f"take {COLOURS[c]}") for c in range(4)]
        self.colour_moves = [Move(COLOUR, i, 0, f"colour {iid}")
                             for i, iid in enumerate(self.item_ids)]
        self.free_moves = [Move(FREE, i, 0, f"free {iid}") for i, iid in enumerate(self.item_ids)]
        self.by_text: dict[str, Move] = {}
        for row in self.roll_moves:
            for m_ in row:
                self.by_text[m_.text] = m_
        for m_ in (*self.take_moves, *self.colour_moves, *self.free_moves):
            self.by_text[m_.text] = m_

    def _grant(self, g: Grant) -> int:
        self.grants.append(g)
        return len(self.grants) - 1

    def complete(self, coloured: int, ai: int) -> bool:
        """Is area ``ai`` complete: every item (any order) or its last step (sequence)?"""
        m = self.area_complete_mask[ai]
        if self.area_sequence[ai]:
            return coloured & m != 0
        return coloured & m == m
