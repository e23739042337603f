"""Pick a Pen: Gardens for reinforcement learning: the fixed action list and the observation
(``LEARNING``, a :class:`meeple.core.layers.Learning`; docs/rl/gardens.md lists both).

Actions, in this order: ``take O`` .. ``take P`` (0-4, the pencils in rolling order), ``waste``
(5), then every field id of the sheet in the sheet's own order (6 .. 6 + fields - 1: field ``i``
of the sheet is action ``6 + i``).

The observation is seat-relative: the observer's sheet (``own_*``), each other seat's sheet in
turn order after it (``opp1_*`` is the next seat), the pencils on the table, the phase of the
turn, then the score pad of every seat (same order). Gardens hides nothing, so the view is the
state; ``observe`` reads the engine's bit sets and counters directly and rebuilds the score pad
from per-sheet prefix-sum tables (the same rows as ``state.scores()``, without its dicts).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate

from meeple.core.layers import Block
from meeple.games.gardens import scoring
from meeple.games.gardens.moves import FACES, TAKE_MOVES, WASTE_MOVE
from meeple.games.gardens.rules import OVER, ROLLING, GardensState
from meeple.games.gardens.sheet import ALL_PENCILS, COLOURS, CompiledSheet

#: The seat-relative name prefixes of the sheets: the observer, then the seats after it.
PREFIXES: tuple[str, ...] = ("own", "opp1", "opp2", "opp3")
_TOP_FACE = max(FACES)


@lru_cache(maxsize=64)
def _actions_for(ids: tuple[str, ...]) -> tuple[str, ...]:
    return (*(str(m) for m in TAKE_MOVES), str(WASTE_MOVE), *ids)


def gardens_actions(state: GardensState) -> tuple[str, ...]:
    """Every seat decision of this sheet: the five takes, ``waste``, then the field ids."""
    return _actions_for(state.sheet.ids)


class _Tables:
    """What observing one sheet needs, worked out once per sheet."""

    def __init__(self, sheet: CompiledSheet) -> None:
        pad = sheet.data.scoring
        self.sheet = sheet
        self.box_sum = (0, *accumulate(pad.single_colour_boxes))
        self.star_sum = (0, *accumulate(pad.row_stars))
        self.colourful_sum = (0, *accumulate(pad.colourful_boxes))
        self.pencil_sum = (0, *accumulate(pad.pencil_penalties))
        self.colourful_full = len(pad.colourful_boxes)
        self.colourful_star = pad.colourful_star
        self.flowers = sheet.has_flowers
        self.trees = sheet.has_trees
        self.four = pad.four_gardens_bonus
        # the score pad's rows, in scoring.score_pad's order, each with its (low, high)
        rows: list[tuple[str, int, int]] = [(c, min(self.box_sum), max(self.box_sum))
                                            for c in COLOURS]
        rows.append(("row stars", min(self.star_sum), max(self.star_sum)))
        rows.append(("colourful gardens", min(self.colourful_sum), max(self.colourful_sum)))
        if pad.colourful_star:
            rows.append(("colourful star", min(0, pad.colourful_star), max(0, pad.colourful_star)))
        if self.flowers:
            rows.append(("flowers", min(0, 5 * pad.flower_box), max(0, 5 * pad.flower_box)))
            rows.append(("flower star", min(0, pad.flower_star), max(0, pad.flower_star)))
            rows.append(("all flower fields", min(0, pad.all_flower_fields_bonus),
                         max(0, pad.all_flower_fields_bonus)))
        if self.trees:
            rows.append(("tree star", min(0, pad.tree_star), max(0, pad.tree_star)))
        if self.four:
            rows.append(("four gardens", min(0, 5 * self.four), max(0, 5 * self.four)))
        for name, value in (("all outer fields", pad.outer_fields_bonus),
                            ("all fields", pad.all_fields_bonus),
                            ("largest area", pad.largest_area_bonus)):
            rows.append((name, min(0, value), max(0, value)))
        rows.append(("pencils", min(self.pencil_sum), max(self.pencil_sum)))
        self.rows = tuple(name for name, _, _ in rows)
        total_low = sum(lo for _, lo, _ in rows)
        total_high = sum(hi for _, _, hi in rows)
        self.score_low = min(total_low, *(lo for _, lo, _ in rows))
        self.score_high = max(total_high, *(hi for _, _, hi in rows))

    def score_rows(self, s: GardensState, seat: int, largest: int) -> list[int]:
        """The seat's score pad rows and total, as ``scoring.score_pad`` counts them."""
        base = seat * 5
        b = s.boxes[base: base + 5]
        bs = self.box_sum
        rows = [bs[b[0]], bs[b[1]], bs[b[2]], bs[b[3]], bs[b[4]], self.star_sum[min(b)],
                self.colourful_sum[s.colourful[seat]]]
        if self.colourful_star:
            rows.append(self.colourful_star if s.colourful[seat] == self.colourful_full else 0)
        pad = s.pad
        if self.flowers:
            fb = s.flower_boxes[seat]
            rows.append(pad.flower_box * fb.bit_count())
            rows.append(pad.flower_star if fb == ALL_PENCILS else 0)
            rows.append(pad.all_flower_fields_bonus if s.first_flowers == seat else 0)
        if self.trees:
            rows.append(pad.tree_star if s.tree_boxes[seat] == ALL_PENCILS else 0)
        if self.four:
            rows.append(self.four * s.first_four.count(seat))
        rows.append(pad.outer_fields_bonus if s.first_outer == seat else 0)
        rows.append(pad.all_fields_bonus if s.first_all == seat else 0)
        rows.append(pad.largest_area_bonus if largest == seat else 0)
        rows.append(self.pencil_sum[s.crossed[seat]])
        rows.append(sum(rows))
        return rows


_TABLES: dict[int, _Tables] = {}


def _tables(sheet: CompiledSheet) -> _Tables:
    t = _TABLES.get(id(sheet))
    if t is None or t.sheet is not sheet:
        if len(_TABLES) > 64:
            _TABLES.clear()
        t = _TABLES[id(sheet)] = _Tables(sheet)
    return t


@lru_cache(maxsize=256)
def _layout_for(t: _Tables, players: int) -> tuple[Block, ...]:
    sheet = t.sheet
    n = sheet.n
    pad = sheet.data.scoring
    marks_high = max(len(pad.colourful_boxes), len(pad.pencil_penalties))
    out: list[Block] = []
    for k in range(players):
        p = PREFIXES[k]
        who = "the observing seat" if k == 0 else f"the seat {k} after the observer"
        out += [
            Block(f"{p}_fields", (5, n), f"{who}: row c, the fields coloured with pencil c "
                  "(O R G B P), bit i the sheet's field i", bits=True),
            Block(f"{p}_boxes", (2, 5), f"{who}: row 0 the flower boxes filled, row 1 the "
                  "tree boxes filled, bit c per colour (0 on sheets without them)", bits=True),
            Block(f"{p}_gardens", (5,), f"{who}: single-colour gardens completed per colour",
                  0, len(sheet.garden_masks)),
            Block(f"{p}_marks", (2,), f"{who}: colourful gardens scored, pencil symbols "
                  "crossed", 0, marks_high),
        ]
    out += [
        Block("middle", (1, 5), "the pencils lying in the middle, bit c per colour", bits=True),
        Block("faces", (5,), "each pencil's face this round (0: not rolled yet this round)",
              0, _TOP_FACE),
        Block("claims", (8,), "who got the first-to bonuses: all outer fields, all fields, "
              "all flower fields, four gardens of O R G B P; 0 nobody, 1 + k the seat k "
              "after the observer (1: the observer)", 0, players),
        Block("phase", (1, 4), "the pending decision, one bit: rolling (chance), taking a "
              "pencil, colouring fields, game over", bits=True),
        Block("to_move", (1, players), "whose turn it is (or was, once over), bit k the seat k "
              "after the observer", bits=True),
        Block("hand", (1, 5), "the pencil in hand while colouring, bit c", bits=True),
        Block("steps", (2,), "fields still to colour with the pencil in hand, fields coloured "
              "with it so far", 0, _TOP_FACE),
        Block("group", (1, n), "the fields coloured with the pencil in hand this turn",
              bits=True),
        Block("turn", (1,), "turns played so far (all seats)", 0,
              players * (n + len(pad.pencil_penalties))),
        Block("scores", (players, len(t.rows) + 1), "each seat's score pad rows ("
              + ", ".join(t.rows) + ") and total, the observer first; the largest-area "
              "bonus counts once the game is over", t.score_low, t.score_high),
    ]
    return tuple(out)


def gardens_layout(state: GardensState) -> tuple[Block, ...]:
    """The observation's blocks for this sheet and seat count (docs/rl/gardens.md)."""
    return _layout_for(_tables(state.sheet), state.players)


def gardens_observe(view: GardensState, seat: int) -> list[int]:
    """The observation of ``seat``: every block of :func:`gardens_layout`, in order."""
    s = view
    t = _tables(s.sheet)
    players = s.players
    order = [(seat + k) % players for k in range(players)]
    out: list[int] = []
    cmask, sc = s.cmask, s.sc_gardens
    flowers, trees, colourful, crossed = s.flower_boxes, s.tree_boxes, s.colourful, s.crossed
    for q in order:
        base = q * 5
        out += cmask[base: base + 5]
        out.append(flowers[q])
        out.append(trees[q])
        out += sc[base: base + 5]
        out.append(colourful[q])
        out.append(crossed[q])
    phase = s.phase
    out.append(s.middle)
    if phase == ROLLING:
        rolled = s.roll_next
        out += [f if c < rolled else 0 for c, f in enumerate(s.faces)]
    else:
        out += s.faces
    for v in (s.first_outer, s.first_all, s.first_flowers, *s.first_four):
        out.append(0 if v < 0 else (v - seat) % players + 1)
    out.append(1 << phase)
    out.append(1 << (s.seat - seat) % players)
    hand = s.hand
    out.append(1 << hand if hand >= 0 else 0)
    group = s.group
    done = group.bit_count()
    out.append(s.need - done)
    out.append(done)
    out.append(group)
    out.append(s.turn)
    largest = scoring.largest_area_winner(s) if phase == OVER else -1
    for q in order:
        out += t.score_rows(s, q, largest)
    return out
