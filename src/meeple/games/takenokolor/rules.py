"""The Takenokolor engine on the meeple State contract.

A round (T2): four chance moves roll the markers one by one (``roll B circle``, ``roll Y
square``, ...). Then, from the panda holder clockwise, each player who can colour something with a
remaining marker takes one (``take P``) and colours one matching item (``colour b3.2``); free
colourings they earn follow at once as further decisions of theirs (``free b1.1``, T3). A player
who can colour nothing is skipped and takes no marker. The panda passes left; the game ends after
the round in which a player circles their third ladybug (T4).
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any

from meeple.core.bits import bit_list
from meeple.core.errors import BadVariant, IllegalMove
from meeple.core.sheets import check_sheet_data
from meeple.core.state import CHANCE, Score, State
from meeple.core.text import possessive, subject
from meeple.games.takenokolor import scoring
from meeple.games.takenokolor.moves import COLOUR, FREE, ROLL, TAKE, Move
from meeple.games.takenokolor.sheet import ANY, COLOUR_NAMES, COLOURS, SYMBOLS, Compiled, Sheet, load

OVER = 4
BLUE = 0
DEFAULT_SHEET = "2-pandas"
FORMS = ("roll <B|Y|P|G> <circle|square|triangle>", "take <B|Y|P|G>", "colour <item id>",
         "free <item id>")

MARKERS_TEXT = ", ".join(f"{c} ({COLOUR_NAMES[c]})" for c in COLOURS)

_CACHE: dict[str, Compiled] = {}


def _marker(word: str) -> int | None:
    """The marker a word names: its letter or colour name, any case (``P``, ``pink``)."""
    w = word.lower()
    for k, c in enumerate(COLOURS):
        if w in (c.lower(), COLOUR_NAMES[c]):
            return k
    return None


def compiled_sheet(source: Any) -> Compiled:
    """Load and compile a sheet once per name / path / data (sheet data is shared, read only)."""
    if source is None:
        source = DEFAULT_SHEET
    if isinstance(source, Sheet):
        key = "model:" + json.dumps(source.model_dump(mode="json"), sort_keys=True)
    elif isinstance(source, dict):
        check_sheet_data(source, path="<Takenokolor sheet data>")  # bounded before json.dumps
        key = "data:" + json.dumps(source, sort_keys=True)
    else:
        key = "src:" + str(source)
    cs = _CACHE.get(key)
    if cs is None:
        sheet = source if isinstance(source, Sheet) else load(source)
        cs = Compiled(sheet)
        is_file = key.startswith("src:") and ("/" in key or "\\" in key or key.endswith(".toml"))
        if not is_file:  # a user's file may change between games: read it again each time
            if len(_CACHE) > 64:
                _CACHE.clear()
            _CACHE[key] = cs
    return cs


class TakenokolorState(State[Move]):
    game_name = "takenokolor"

    cs: Compiled
    coloured: list[int]  # per seat: coloured items
    avail: list[int]  # per seat: items whose order rules allow colouring now
    blocked: list[int]  # per seat: items nobody may colour any more (sun lock-out, T6)
    colcode: list[int]  # per seat: 2 bits per dragon item, the colour used
    ladybugs: list[int]  # per seat: circled ladybugs
    first: list[int]  # per seat: races kept at the first number
    later: list[int]  # per seat: races kept at the later number
    claimed: int  # races someone has already met (shared)
    phase: int
    rolled: list[int]
    n_rolled: int
    left: int  # markers still in the middle
    holder: int
    pos: int
    seat: int
    taken: int
    pending: list[tuple[int, int, int, int]]  # (grant, remaining, allowed items, fixed)
    rounds: int

    def __init__(self, players: int, seed: int = 0, sheet: Any = None) -> None:
        self._init_base(players, seed)
        self.cs = cs = compiled_sheet(sheet)
        self.coloured = [0] * players
        self.avail = [cs.initial_avail] * players
        self.blocked = [0] * players
        self.colcode = [0] * players
        self.ladybugs = [0] * players
        self.first = [0] * players
        self.later = [0] * players
        self.claimed = 0
        self.phase = ROLL
        self.rolled = [-1, -1, -1, -1]
        self.n_rolled = 0
        self.left = 15
        self.holder = 0  # seat 0 holds the panda first (seating is the random choice)
        self.pos = -1
        self.seat = -1
        self.taken = -1
        self.pending = []
        self.rounds = 0

    # ------------------------------------------------------------------ contract
    @property
    def to_move(self) -> int | None:
        ph = self.phase
        if ph == ROLL:
            return CHANCE
        if ph == OVER:
            return None
        return self.seat

    def legal_moves(self) -> list[Move]:
        ph = self.phase
        cs = self.cs
        if ph == ROLL:
            row = cs.roll_moves[self.n_rolled]
            return [row[s] for s, _ in cs.faces]
        if ph == TAKE:
            p = self.seat
            return [cs.take_moves[k] for k in range(4)
                    if self.left >> k & 1 and self._colourable(p, k, self.rolled[k])]
        if ph == COLOUR:
            k = self.taken
            return [cs.colour_moves[i] for i in self._targets(self.seat, k, self.rolled[k])]
        if ph == FREE:
            return [cs.free_moves[i] for i in self._free_targets(self.seat, self.pending[0])]
        return []

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.phase != ROLL:
            return []
        row = self.cs.roll_moves[self.n_rolled]
        return [(row[s], pr) for s, pr in self.cs.faces]

    def parse_move(self, text: str) -> Move:
        """The move written ``text``. Canonical forms: ``roll B circle``, ``take P``,
        ``colour b3.2``, ``free b1.1``. Also read: ``color``; a marker by its name (``take
        pink``); a bare marker (``pink``, ``P``) for ``take``; a bare item id (``b3.2``) for
        ``colour`` or, while a free colouring is pending, ``free``. A word that is both an item
        id and a marker (only on a user's sheet) means what the pending decision asks for."""
        if not isinstance(text, str):
            raise IllegalMove(f"a move is text such as 'take B'; got {text!r}", text)
        parts = text.split()
        word = parts[0].lower() if parts else ""
        canon = self._canonical_text(text, parts, word)
        move = self.cs.by_text.get(canon) if canon else None
        if move is None:
            raise self._unreadable(text, parts, word)
        return move

    def _canonical_text(self, text: str, parts: list[str], word: str) -> str | None:
        """The canonical text of the move written as ``parts`` (None: not one of the forms);
        an unknown marker after ``take`` is refused here, naming the markers."""
        if word == "roll" and len(parts) == 3:
            return f"roll {parts[1].upper()} {parts[2].lower()}"
        if word == "take" and len(parts) == 2:
            k = _marker(parts[1])
            if k is None:
                raise IllegalMove(f"there is no {parts[1]!r} marker; the markers are "
                                  f"{MARKERS_TEXT} (e.g. 'take P' or 'take pink')", text)
            return f"take {COLOURS[k]}"
        if word in ("colour", "color", "free") and len(parts) == 2:
            return f"{'free' if word == 'free' else 'colour'} {parts[1].lower()}"
        if len(parts) == 1:
            return self._bare_word(word)
        return None

    def _bare_word(self, word: str) -> str | None:
        """A bare item id (``colour``, or ``free`` while a free colouring is pending) or a bare
        marker (``take``); a word that is both means what the pending decision asks for."""
        k = _marker(word)
        if word in self.cs.index and (k is None or self.phase != TAKE):
            return f"{'free' if self.phase == FREE else 'colour'} {word}"
        if k is not None:
            return f"take {COLOURS[k]}"
        return None

    def _unreadable(self, text: str, parts: list[str], word: str) -> IllegalMove:
        """The error for a move that cannot be read, with a hint at what was wrong and the
        forms moves are written in."""
        cs = self.cs
        hint = ""
        if word in ("colour", "color", "free") and len(parts) == 2:
            hint = f"; there is no item {parts[1]!r} on sheet {cs.sheet.name!r}"
        elif len(parts) == 1 and word not in ("roll", "take", "colour", "color", "free"):
            hint = (f"; {parts[0]!r} is neither a marker ({MARKERS_TEXT}) nor an item of "
                    f"sheet {cs.sheet.name!r} (items are written as drawn, e.g. "
                    f"{cs.item_ids[0]!r})")
        return IllegalMove(f"cannot read move {text!r}{hint}; moves are written "
                           + ", ".join(repr(f) for f in FORMS)
                           + "; a bare item id or marker also works (e.g. 'b3.2', 'pink')",
                           text)

    def _apply(self, move: Move) -> None:
        kind = move.kind
        if kind == ROLL:
            self.rolled[move.a] = move.b
            self.n_rolled += 1
            if self.n_rolled == 4:
                self.pos = -1
                self._next_seat()
        elif kind == TAKE:
            self.taken = move.a
            self.phase = COLOUR
        elif kind == COLOUR:
            k = self.taken
            self.left &= ~(1 << k)
            self.taken = -1
            self._colour(self.seat, move.a, k)
            self._settle()
        else:
            self._use_free(move.a)
            self._settle()

    def clone(self) -> TakenokolorState:
        c = TakenokolorState.__new__(TakenokolorState)
        c._copy_base(self)
        c.cs = self.cs
        c.coloured = self.coloured.copy()
        c.avail = self.avail.copy()
        c.blocked = self.blocked.copy()
        c.colcode = self.colcode.copy()
        c.ladybugs = self.ladybugs.copy()
        c.first = self.first.copy()
        c.later = self.later.copy()
        c.claimed = self.claimed
        c.phase = self.phase
        c.rolled = self.rolled.copy()
        c.n_rolled = self.n_rolled
        c.left = self.left
        c.holder = self.holder
        c.pos = self.pos
        c.seat = self.seat
        c.taken = self.taken
        c.pending = self.pending.copy()
        c.rounds = self.rounds
        return c

    def scores(self) -> list[Score]:
        pads = scoring.pad(self.cs, self.coloured, self.ladybugs, self.first, self.later)
        return [Score(sum(b.values()), b) for b in pads]

    def key(self) -> Hashable:
        return (self.phase, tuple(self.rolled), self.left, self.holder, self.pos, self.seat,
                self.taken, tuple(self.pending), tuple(self.coloured), tuple(self.blocked),
                tuple(self.colcode), tuple(self.ladybugs), tuple(self.first), tuple(self.later),
                self.claimed, self.rounds, self.turn)

    def variant(self) -> dict[str, Any]:
        return {}

    def sheet_data(self) -> dict[str, Any]:
        return self.cs.sheet.model_dump(mode="json")


    # ------------------------------------------------------------------ rules
    def _colourable(self, p: int, k: int, s: int) -> bool:
        """T2/T3: can seat ``p`` colour something with marker ``k`` showing symbol ``s``?"""
        cand = self.avail[p] & self.cs.match[k][s]
        if not cand:
            return False
        if cand & ~self.cs.adjacent:
            return True
        return bool(self._adjacent_ok(p, cand, k))

    def _targets(self, p: int, k: int, s: int) -> list[int]:
        """Items matching the colour AND symbol of the marker (rulebook, Coloring Rules)."""
        cand = self.avail[p] & self.cs.match[k][s]
        if cand & self.cs.adjacent:
            cand = (cand & ~self.cs.adjacent) | self._adjacent_ok(p, cand & self.cs.adjacent, k)
        return bit_list(cand)

    def _adjacent_ok(self, p: int, cand: int, k: int) -> int:
        """Dragon: "sections next to each other must be colored using different colors"."""
        cs = self.cs
        ok = 0
        col = self.coloured[p]
        code = self.colcode[p]
        m = cand
        while m:
            low = m & -m
            i = low.bit_length() - 1
            m ^= low
            if not low & cs.adjacent:
                ok |= low
                continue
            prev = col & cs.prev_step[i]
            if prev and (code >> (2 * (prev.bit_length() - 1))) & 3 == k:
                continue
            ok |= low
        return ok

    def _can_take(self, p: int) -> bool:
        left = self.left
        rolled = self.rolled
        return any(left >> k & 1 and self._colourable(p, k, rolled[k]) for k in range(4))

    def _colour(self, p: int, i: int, k: int) -> None:
        """Colour item ``i`` for seat ``p`` with colour ``k`` and apply what follows from it."""
        cs = self.cs
        bit = 1 << i
        col = self.coloured[p] | bit
        self.coloured[p] = col
        av = self.avail[p] & ~bit & ~cs.peers[i]
        # order rules: the next step of a sequence, items that require this one
        u = cs.unlocks[i]
        if u:
            blocked = self.blocked[p]
            while u:
                low = u & -u
                j = low.bit_length() - 1
                u ^= low
                if col & (low | cs.peers[j]) or blocked & low:
                    continue
                pv = cs.prev_step[j]
                if pv and not col & pv:
                    continue
                rq = cs.requires[j]
                if rq & col != rq:
                    continue
                av |= low
        self.avail[p] = av
        if bit & cs.adjacent:
            self.colcode[p] |= k << (2 * i)
        for g in cs.item_grants[i]:
            self._earn(g)
        ai = cs.item_area[i]
        if cs.complete(col, ai):
            self._area_completed(p, ai)
        for li in cs.item_ladybugs[i]:
            self._circle_ladybug(p, li)
        for ri in cs.item_races[i]:
            self._race(p, ri)

    def _area_completed(self, p: int, ai: int) -> None:
        """Completing an area: its free colourings (cloud, river; T3) and the sun lock-out."""
        cs = self.cs
        for g in cs.area_grants[ai]:
            self._earn(g)
        if cs.lockout[ai]:
            self._sun_lockout(p, ai)

    def _sun_lockout(self, p: int, ai: int) -> None:
        """T6: as soon as a player has coloured all the rays of their sun, the other players
        can no longer colour their sun, at once, also within the same round."""
        m = self.cs.area_mask[ai]
        for q in range(self.players):
            if q != p:
                self.blocked[q] |= m
                self.avail[q] &= ~m

    def _circle_ladybug(self, p: int, li: int) -> None:
        """T4: completing an area with a ladybug circles it (several players may circle it)."""
        if self.ladybugs[p] >> li & 1:
            return
        cs = self.cs
        col = self.coloured[p]
        m = cs.ladybug_items[li]
        if col & m != m:
            return
        for ai in cs.ladybug_areas[li]:
            if not cs.complete(col, ai):
                return
        self.ladybugs[p] |= 1 << li

    def _race(self, p: int, ri: int) -> None:
        """T7 lanterns, dragon feet: the first player to get there keeps the first number,
        later players keep the later number (A3: in the order decisions are made)."""
        bit = 1 << ri
        if (self.first[p] | self.later[p]) & bit:
            return
        cs = self.cs
        m = cs.race_mask[ri]
        if cs.race_all[ri] and self.coloured[p] & m != m:
            return
        if self.claimed & bit:
            self.later[p] |= bit
        else:
            self.first[p] |= bit
            self.claimed |= bit

    def _earn(self, g: int) -> None:
        """T3: a free colouring is a decision of the player who earned it, made at once."""
        grant = self.cs.grants[g]
        cs = self.cs
        if grant.spread == "group":
            allowed = cs.grouped_kind_mask.get(grant.target, 0)
        else:
            allowed = cs.kind_mask.get(grant.target, 0)
        self.pending.append((g, grant.count, allowed, 0))

    def _free_targets(self, p: int, entry: tuple[int, int, int, int]) -> list[int]:
        """Free colourings ignore colour and symbol but keep every order rule (T3)."""
        cand = self.avail[p] & entry[2]
        if cand & self.cs.adjacent:
            cand = (cand & ~self.cs.adjacent) | self._adjacent_ok(p, cand & self.cs.adjacent, BLUE)
        return bit_list(cand)

    def _use_free(self, i: int) -> None:
        cs = self.cs
        g, remaining, allowed, fixed = self.pending[0]
        grant = cs.grants[g]
        ai = cs.item_area[i]
        am = cs.area_mask[ai]
        remaining -= 1
        if grant.spread == "same":
            allowed = am
        elif grant.spread == "different":
            allowed &= ~am
        elif grant.spread == "group":
            if not fixed:
                key = cs.area_group[ai]
                assert key is not None
                allowed = cs.group_mask[key]
                remaining = cs.group_size[key] - 1
                fixed = 1
            allowed &= ~am
        if remaining > 0:
            self.pending[0] = (g, remaining, allowed, fixed)
        else:
            del self.pending[0]
        self._colour(self.seat, i, BLUE)  # "with their blue marker"

    def _settle(self) -> None:
        """T3: free colourings with no legal target are lost; then the turn ends."""
        pending = self.pending
        p = self.seat
        while pending:
            if self._free_targets(p, pending[0]):
                self.phase = FREE
                return
            del pending[0]
        self._end_turn()

    def _end_turn(self) -> None:
        self.turn += 1
        # A5: a lone player takes every marker they can
        if self.players == 1 and self.left and self._can_take(self.seat):
            self.phase = TAKE
            return
        self._next_seat()

    def _next_seat(self) -> None:
        """T2: from the roller clockwise; a player who can colour nothing is skipped."""
        players = self.players
        while True:
            self.pos += 1
            if self.pos >= players:
                break
            s = (self.holder + self.pos) % players
            if self._can_take(s):
                self.seat = s
                self.phase = TAKE
                return
        self._end_round()

    def _end_round(self) -> None:
        """T4: the game ends after the round of a third ladybug; else the panda passes left."""
        self.rounds += 1
        self.seat = -1
        need = self.cs.sheet.ladybugs_to_end
        if any(lb.bit_count() >= need for lb in self.ladybugs) or all(
            self._stuck(p) for p in range(self.players)
        ):
            self.phase = OVER
            return
        self.holder = (self.holder + 1) % self.players
        self.rolled = [-1, -1, -1, -1]
        self.n_rolled = 0
        self.left = 15
        self.pos = -1
        self.phase = ROLL

    def _stuck(self, p: int) -> bool:
        """Can seat ``p`` never colour anything again, whatever the rolls? (Then, if every
        seat is stuck, the game ends: our rule where the rulebook is silent.)"""
        cs = self.cs
        m = self.avail[p] & cs.rollable
        if m & ~cs.adjacent:
            return False
        col, code = self.coloured[p], self.colcode[p]
        while m:
            low = m & -m
            i = low.bit_length() - 1
            m ^= low
            c = cs.item_colour[i]
            prev = col & cs.prev_step[i]
            if c == ANY or not prev or (code >> (2 * (prev.bit_length() - 1))) & 3 != c:
                return False
        return True

    # ------------------------------------------------------------------ reasons
    def illegal_reason(self, move: Move) -> str | None:
        if not isinstance(move, Move):
            return f"{move!r} is not a Takenokolor move"
        if self.phase == OVER:
            return "the game is over; no more moves can be played"
        if self.cs.by_text.get(move.text) != move:
            return f"{move} is not a move of sheet {self.cs.sheet.name!r}"
        if move in self.legal_moves():
            return None
        return self._why(move)

    def _why(self, move: Move) -> str:
        cs = self.cs
        ph = self.phase
        legal = self._legal_summary()
        if ph == ROLL:
            if move.kind != ROLL:
                return (f"the markers are being rolled (next: the {COLOUR_NAMES[COLOURS[self.n_rolled]]}"
                        f" marker); legal: {legal}")
            return (f"the next marker to roll is {COLOURS[self.n_rolled]} "
                    f"({COLOUR_NAMES[COLOURS[self.n_rolled]]}); legal: {legal}")
        if move.kind == ROLL:
            return (f"the markers are already rolled; {subject(self.seats[self.seat], 'is')} "
                    f"to move; legal: {legal}")
        who = self.seats[self.seat]
        if ph == TAKE:
            if move.kind != TAKE:
                return f"{who} must first take a marker{self._take_hint(move)}; legal: {legal}"
            k = move.a
            if not self.left >> k & 1:
                return f"the {COLOUR_NAMES[COLOURS[k]]} marker was already taken this round; legal: {legal}"
            return (f"nothing on {possessive(who)} sheet matches {COLOURS[k]} {SYMBOLS[self.rolled[k]]} "
                    f"(colour AND symbol); legal: {legal}")
        if ph == COLOUR:
            if move.kind != COLOUR:
                return (f"{subject(who, 'colours')} one item with the marker taken (write "
                        f"'colour <item>' or just the item id); legal: {legal}")
            k = self.taken
            i = move.a
            c, s = cs.item_colour[i], cs.item_symbol[i]
            if s != self.rolled[k] or (c != ANY and c != k):
                shown = "any colour" if c == ANY else COLOURS[c]
                return (f"{cs.item_ids[i]} is {shown} {SYMBOLS[s]} but the marker is "
                        f"{COLOURS[k]} {SYMBOLS[self.rolled[k]]}: colour AND symbol must match; "
                        f"legal: {legal}")
            return f"{self._blocked_reason(self.seat, i, k)}; legal: {legal}"
        # FREE
        if move.kind != FREE:
            return (f"{subject(who, 'has')} a free colouring to make first (T3; write "
                    f"'free <item>' or just the item id); legal: {legal}")
        i = move.a
        g = cs.grants[self.pending[0][0]]
        if not self.pending[0][2] >> i & 1:
            return (f"this free colouring goes to a {g.target} "
                    f"({g.spread} spread); {cs.item_ids[i]} is not allowed; legal: {legal}")
        return f"{self._blocked_reason(self.seat, i, BLUE)}; legal: {legal}"

    def _take_hint(self, move: Move) -> str:
        """For an item given while a marker is to be taken: which marker would colour it."""
        if move.kind not in (COLOUR, FREE):
            return ""
        i = move.a
        for k in range(4):
            if self.left >> k & 1 and i in self._targets(self.seat, k, self.rolled[k]):
                iid = self.cs.item_ids[i]
                return (f" (for {iid}: 'take {COLOURS[k]}' then '{iid}', or "
                        f"'take {COLOURS[k]} {iid}' on one line)")
        return f" (no marker left can colour {self.cs.item_ids[i]} now)"

    def _blocked_reason(self, p: int, i: int, k: int) -> str:
        cs = self.cs
        iid = cs.item_ids[i]
        area = cs.sheet.areas[cs.item_area[i]]
        col = self.coloured[p]
        if col >> i & 1:
            return f"{iid} is already coloured"
        if self.blocked[p] >> i & 1:
            return (f"{iid}: another player has completed their {area.kind} first, so no one "
                    "else may colour it (T6)")
        if col & cs.peers[i]:
            return (f"{iid}: a section beside it at the same step of {area.id} is already "
                    "coloured; only one of them may be")
        if cs.prev_step[i] and not col & cs.prev_step[i]:
            return (f"{iid}: {area.id} is coloured in order ({area.kind}); colour its previous "
                    "step first")
        if cs.requires[i] and not col & cs.requires[i]:
            req = cs.item_ids[cs.requires[i].bit_length() - 1]
            return f"{iid} can only be coloured once {req} is coloured"
        if cs.adjacent >> i & 1:
            return (f"{iid}: sections next to each other must have different colours "
                    f"({COLOURS[k]} is beside {COLOURS[k]})")
        return f"{iid} is past: {area.id} cannot go back"


def factory(players: int, seed: int = 0, sheet: Any = None, **options: Any) -> TakenokolorState:
    if options:
        raise BadVariant(f"Takenokolor has no option {', '.join(sorted(options))}; choose the "
                         f"garden sheet with sheet=...")
    return TakenokolorState(players, seed, sheet)
