"""Pick a Pen: Reefs for reinforcement learning: the fixed action list and the observation
(:class:`meeple.core.layers.Learning`; docs/rl/reefs.md lists both for the shipped sheets).

Actions, for a board with ``n`` spaces (``board.ids``, in sheet order):

- ``0..4``: ``take O``, ``take R``, ``take B``, ``take G``, ``take P`` (colour order of R1);
- ``5..9``: ``take O propeller`` ... ``take P propeller``, only on a sheet with propellers
  (level 3; never offered elsewhere, so left out);
- then ``stop``, ``forfeit``;
- then one action per space, in sheet order: an entry point's id starts a route (R3), any
  other id is a step to that space (R4). Action ``base + i`` is space ``i``.

Observation: every seat's sheet, the observer's first and then the seats after it in turn
order; then the pencils in the middle, the star holders, the phase of the turn and the pencil
being drawn; then the score pad. Reefs has no hidden information, so the observation reads the
view's sheets directly (as bit sets: connections per colour's line, route starts and ends,
recovered treasures and collected items), and keeps each sheet's part, made once, under the
sheet's own key (:meth:`SeatSheet.key`, kept by the engine until the sheet changes).
"""

from __future__ import annotations

from functools import lru_cache

from meeple.core.layers import Block
from meeple.games.reefs.moves import FACES, move_table
from meeple.games.reefs.rules import P_ROLL, ReefsState, SeatSheet
from meeple.games.reefs.sheet import Board

__all__ = ["reefs_actions", "reefs_layout", "reefs_observe"]

#: The highest round number the observation tells apart (a game of forfeits could go on).
ROUND_CAP = 1000
#: int16, the observation's value type.
INT16_MAX = (1 << 15) - 1
#: Sheet cache entries kept per board before the cache is emptied.
CACHE_SIZE = 1 << 12
#: Score pad rows per seat: five treasure rows, coins, four stars, and the total.
PAD_WIDTH = 11


@lru_cache(maxsize=64)
def _board_actions(board: Board) -> tuple[str, ...]:
    table = move_table(board)
    out = [str(table.take[c][0]) for c in range(5)]
    if board.prop_mask:
        out += [str(table.take[c][1]) for c in range(5)]
    out += [str(table.stop), str(table.forfeit)]
    entries = board.entry_mask
    for s in range(board.n):
        out.append(str(table.enter[s] if (entries >> s) & 1 else table.step[s]))
    return tuple(out)


def reefs_actions(state: ReefsState) -> tuple[str, ...]:
    """Every seat decision of the state's sheet, in the order of the module docstring."""
    return _board_actions(state.board)


def _longest_straight(board: Board) -> int:
    """The most steps a straight line can take on the board (bounds a 4+ pencil's count)."""
    best = 0
    for s in range(board.n):
        for d in board.straight[s]:
            k, pos = 0, s
            while (nxt := board.straight[pos].get(d)) is not None:
                k += 1
                pos = nxt[1]
            best = max(best, k)
    return best


class _Tables:
    """What ``observe`` needs of a board, made once per board, and the sheets' parts seen."""

    def __init__(self, board: Board) -> None:
        self.board = board
        n = board.n
        self.n = n
        self.n_conns = len(board.conns)
        # bytes.translate tables: connection owner byte (colour + 1) -> b"1" for one colour
        self.line_tables = tuple(
            bytes(0x31 if v == c + 1 else 0x30 for v in range(256)) for c in range(5))
        self.treasure_space = tuple(
            board.treasure_at.index(t) for t in range(board.n_treasures))
        # score pad: treasure row value after k boxes (k = 0: nothing), coin row likewise
        self.row_score = tuple((0, *board.row_values[c]) for c in range(5))
        self.coin_score = (0, *board.coin_values)
        bonus = board.bonus
        self.bonus = (bonus.two_each, bonus.full_row, bonus.end_grey, bonus.end_coins)
        top = (sum(max(v) for v in board.row_values) + max(board.coin_values)
               + sum(self.bonus))
        self.pad_high = min(top, INT16_MAX)
        self.clamp = top > INT16_MAX
        self.count_high = max(board.coin_len, board.n_props, 1)
        self.box_high = max(board.row_len)
        self.steps_high = max(3, _longest_straight(board))
        self.n_dirs = len(board.directions)
        self.sheets: dict[object, tuple[list[int], tuple[int, ...]]] = {}

    def sheet_part(self, sh: SeatSheet) -> tuple[list[int], tuple[int, ...]]:
        """A sheet's observation (all its blocks but the ``stuck`` flag) and its six sheet-only
        score pad rows, made once per sheet key."""
        key = sh.key()
        part = self.sheets.get(key)
        if part is None:
            if len(self.sheets) >= CACHE_SIZE:
                self.sheets.clear()
            part = self.sheets[key] = self._make_part(sh)
        return part

    def _make_part(self, sh: SeatSheet) -> tuple[list[int], tuple[int, ...]]:
        rev = bytes(sh.owner)[::-1]  # connection 0 last: int(..., 2) puts it at bit 0
        present = [c for c in range(5) if c + 1 in rev]
        out = [0] * 5
        rest = sh.used  # the last colour present holds every line not counted before it
        for c in present[:-1]:
            rest ^= (line := int(rev.translate(self.line_tables[c]), 2))
            out[c] = line
        if present:
            out[present[-1]] = rest
        out += [1 << e if e >= 0 else 0 for e in sh.entry]
        out += [1 << e if e >= 0 else 0 for e in sh.end]
        marks = [0] * 5
        for t, c in enumerate(sh.treasure):
            if c >= 0:
                marks[c] |= 1 << self.treasure_space[t]
        out += marks
        out += (sh.coins_taken, sh.whirls, sh.props_taken)
        out += sh.boxes
        out += (sh.coins, sh.props, sh.props_used)
        rs = self.row_score
        rows = (*(rs[c][sh.boxes[c]] for c in range(5)), self.coin_score[sh.coins])
        return out, rows


@lru_cache(maxsize=64)
def _tables(board: Board) -> _Tables:
    return _Tables(board)


@lru_cache(maxsize=256)
def _board_layout(board: Board, players: int) -> tuple[Block, ...]:
    t = _tables(board)
    n, p = t.n, players
    out: list[Block] = []
    for k in range(p):
        who = "the observer's own sheet" if k == 0 else f"the sheet of the seat {k} after the observer"
        out += [
            Block(f"sheet{k}_lines", (5, t.n_conns),
                  f"{who}: row c = the connections (sheet order) carrying colour c's line "
                  "(O R B G P)", bits=True),
            Block(f"sheet{k}_starts", (5, n),
                  f"{who}: row c = the entry point colour c's route started at (none yet: 0)",
                  bits=True),
            Block(f"sheet{k}_ends", (5, n),
                  f"{who}: row c = the free end of colour c's route (none yet: 0)", bits=True),
            Block(f"sheet{k}_marks", (8, n),
                  f"{who}: rows 0-4 = treasures recovered in colour c (at their spaces); "
                  "row 5 = coins collected; row 6 = whirlpools coloured; "
                  "row 7 = propellers collected", bits=True),
            Block(f"sheet{k}_boxes", (5,),
                  f"{who}: treasure boxes coloured in each colour's row", 0, t.box_high),
            Block(f"sheet{k}_counts", (4,),
                  f"{who}: coin boxes coloured, propellers collected, propellers used, "
                  "stuck (1: no colour can draw a step any more)", 0, t.count_high),
        ]
    out += [
        Block("pencils", (5, 6),
              "row c = the face (1any 2any 3any 2straight 3straight 4+straight) pencil c "
              "shows in the middle; 0 once taken or not rolled yet", bits=True),
        Block("stars", (2,),
              "holder of the 'first with two boxes in every row' and the 'first full row' "
              "stars, relative to the observer (0 = own); -1: nobody yet", -1, p - 1),
        Block("phase", (3,),
              "kind of decision pending (0 roll: chance, 1 take a pencil, 2 draw, 3 game "
              "over); seat to move relative to the observer (-1: chance or over); seat that "
              "takes first this round, relative", -1, 3),
        Block("round", (1,), f"pencil rolls so far (capped at {ROUND_CAP})", 0, ROUND_CAP),
        Block("pencil", (4,),
              "the pencil being drawn: colour (-1: none), mode (-1 none, 0 any, 1 straight, "
              "2 4+ straight), straight direction (index in the sheet's directions, -1 not "
              "fixed), something drawn or a propeller used already (forfeit gone)",
              -1, max(4, t.n_dirs - 1)),
        Block("steps", (1,),
              "steps still to draw (any, straight) or steps drawn so far (4+ straight); "
              "0 when no pencil is being drawn", 0, t.steps_high),
        Block("score", (p, PAD_WIDTH),
              "score pad per seat (observer first, then turn order): orange red blue green "
              "purple rows, coins, stars 'two each', 'full row', 'end grey', 'end coins', "
              "total", 0, t.pad_high),
    ]
    return tuple(out)


def reefs_layout(state: ReefsState) -> tuple[Block, ...]:
    """The observation's blocks for the state's sheet and seat count."""
    return _board_layout(state.board, state.players)


#: The ``pencils`` block's row for each middle entry (-1: none).
_FACE_BITS = (0, *(1 << f for f in range(len(FACES))))


def reefs_observe(view: ReefsState, seat: int) -> list[int]:
    """The observation of ``seat`` (blocks of :func:`reefs_layout`, in order)."""
    t = _tables(view.board)
    p = view.players
    sheets = view.sheets
    over = view.over
    ender = view.ender if over else -1
    two, full = view.two_each_holder, view.full_row_holder
    b_two, b_full, b_grey, b_coins = t.bonus
    end_grey, end_coins = view.end_grey, view.end_coins
    out: list[int] = []
    pad: list[int] = []
    for k in range(p):
        s = seat + k
        if s >= p:
            s -= p
        sh = sheets[s]
        part, rows = t.sheet_part(sh)
        out += part
        out.append(1 if sh.stuck else 0)
        stars = (b_two if two == s else 0, b_full if full == s else 0,
                 b_grey if ender == s and end_grey else 0,
                 b_coins if ender == s and end_coins else 0)
        pad += rows
        pad += stars
        pad.append(sum(rows) + sum(stars))
    if t.clamp:
        pad = [min(v, INT16_MAX) for v in pad]
    _public_part(view, seat, out)
    out += pad
    return out


def _public_part(view: ReefsState, seat: int, out: list[int]) -> None:
    """Append what every seat sees alike, relative to ``seat``: the pencils in the middle,
    the bonus holders, the phase, the seat to move, the roller, the round and the pencil
    being drawn."""
    p = view.players
    over = view.over
    two, full = view.two_each_holder, view.full_row_holder
    fb = _FACE_BITS
    out += [fb[f + 1] for f in view.middle]
    out.append((two - seat) % p if two >= 0 else -1)
    out.append((full - seat) % p if full >= 0 else -1)
    phase = 3 if over else view.phase
    out.append(phase)
    out.append(-1 if over or phase == P_ROLL else (view.seat - seat) % p)
    out.append((view.roller - seat) % p)
    out.append(min(view.rounds, ROUND_CAP))
    pc = view.pc
    if pc >= 0:
        out += (pc, view.pmode, view.pdir, 1 if view.pdrawn else 0, view.prem)
    else:
        out += (-1, -1, -1, 0, 0)

