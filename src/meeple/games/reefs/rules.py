"""Pick a Pen: Reefs, the rules engine.

A round: the five pencils are rolled, one chance decision per pencil (R1, A1). Then seats take
pencils in turn (draft as G2). A seat's turn is a few small decisions:

1. ``take <colour>`` (or ``take <colour> propeller`` to draw 3 any steps instead, R13);
2. for a colour without a route: ``enter <entry id>`` (R3), or ``forfeit`` (R6);
3. ``step <space id>`` one connection at a time (R4, R5), only where the whole pencil can still
   be completed; ``stop`` once a 4+ straight pencil has at least four steps.

Whirlpools (R12) switch the pencil to 3 any steps; touching treasures, coins and propellers is
scored at once (R7, R8, R13); the end conditions (R11) are checked when the turn is over.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any, Final

from meeple.core.errors import BadVariant, IllegalMove
from meeple.core.state import CHANCE, KeptKey, Score, State, part_for_update
from meeple.core.text import subject
from meeple.games.reefs import scoring
from meeple.games.reefs.moves import (
    ANY,
    ENTER,
    FACES,
    FORFEIT,
    FORMS,
    PLUS,
    PLUS_MIN,
    PROPELLER_STEPS,
    ROLL,
    STEP,
    STOP,
    STRAIGHT,
    TAKE,
    WHIRLPOOL_STEPS,
    ReefsMove,
    move_table,
)
from meeple.games.reefs.sheet import COLOURS, LETTERS, LEVEL_SHEETS, NEUTRAL, Board, load_board

# Phases.
P_ROLL: Final = 0
P_TAKE: Final = 1
P_DRAW: Final = 2

class SeatSheet(KeptKey):
    """One player's own score sheet: what is coloured on it."""

    __slots__ = (
        "boxes", "coins", "coins_taken", "end", "entries_used", "entry", "owner", "props",
        "props_taken", "props_used", "stuck", "treasure", "used", "whirls",
    )

    def __init__(self, board: Board | None = None) -> None:
        if board is None:
            return
        self.used = 0  # R4: connections carrying a line (bit per connection)
        self.owner = bytearray(len(board.conns))  # colour+1 of the line on each connection
        self.entry = [-1] * 5  # R3: entry point of each colour's route, -1 if not started
        self.end = [-1] * 5  # free end of each colour's route
        self.entries_used = 0  # entry points coloured (mask of spaces)
        self.treasure = [-1] * board.n_treasures  # R7: colour that recovered each treasure
        self.boxes = [0] * 5  # treasure boxes coloured per colour
        self.coins_taken = 0  # R8: coin spaces collected (mask)
        self.coins = 0  # coin boxes coloured
        self.whirls = 0  # R12: whirlpools coloured (mask)
        self.props_taken = 0  # R13: propeller spaces collected (mask)
        self.props = 0  # propellers collected (outer rims coloured)
        self.props_used = 0  # propellers used (filled in)
        self.stuck = False  # no colour can draw even one step any more
        self._key: Hashable | None = None  # key() kept until the sheet is next changed

    def copy(self) -> SeatSheet:
        c = SeatSheet()
        c.used = self.used
        c.owner = self.owner[:]
        c.entry = self.entry[:]
        c.end = self.end[:]
        c.entries_used = self.entries_used
        c.treasure = self.treasure[:]
        c.boxes = self.boxes[:]
        c.coins_taken = self.coins_taken
        c.coins = self.coins
        c.whirls = self.whirls
        c.props_taken = self.props_taken
        c.props = self.props
        c.props_used = self.props_used
        c.stuck = self.stuck
        c._key = None
        return c

    def make_key(self) -> Hashable:
        """What is coloured on the sheet. Kept once made: a sheet is changed only through
        :meth:`ReefsState.sheet_for_update`, which forgets it."""
        return (
            bytes(self.owner), tuple(self.entry), tuple(self.end), self.entries_used,
            tuple(self.treasure), tuple(self.boxes), self.coins_taken, self.coins,
            self.whirls, self.props_taken, self.props, self.props_used,
        )


class ReefsState(State[ReefsMove]):
    game_name = "reefs"

    def __init__(self, board: Board, players: int, seed: int, level: int) -> None:
        self._init_base(players, seed)
        self.board = board
        self.moves = move_table(board)
        self.level = level
        self.sheets = [SeatSheet(board) for _ in range(players)]
        self._own = (1 << players) - 1  # bit per seat whose sheet no other state shares
        self.phase = P_ROLL
        self.middle = [-1] * 5  # face index of each pencil still in the middle, -1 if taken
        self.rolled = 0  # pencils rolled so far in the current roll
        self.roller = 0  # seat that rolls and takes first (G2)
        self.seat = 0  # seat to move in the draft
        self.rounds = 0  # number of rolls so far
        # the pencil being drawn
        self.pc = -1  # colour
        self.pmode = ANY
        self.prem = 0  # steps still to draw (ANY, STRAIGHT); steps drawn so far (PLUS)
        self.pdir = -1  # straight direction once chosen
        self.pdrawn = False  # forfeit no longer possible: something drawn, or a propeller used
        # R10 bonuses: seat holding each "first to" star, -1 if nobody yet
        self.two_each_holder = -1
        self.full_row_holder = -1
        self.over = False
        self.ender = -1  # seat that ended the game (R11), -1 if none
        self.end_grey = False
        self.end_coins = False

    # ------------------------------------------------------------------ contract
    @property
    def to_move(self) -> int | None:
        if self.over:
            return None
        if self.phase == P_ROLL:
            return CHANCE
        return self.seat

    def clone(self) -> ReefsState:
        c = ReefsState.__new__(ReefsState)
        c._copy_base(self)
        c.board = self.board
        c.moves = self.moves
        c.level = self.level
        # copy-on-write: the clone shares the sheets until one is changed (a move changes
        # only its seat's sheet, so the others are never copied)
        c.sheets = self.sheets.copy()
        c._own = self._own = 0
        c.phase = self.phase
        c.middle = self.middle[:]
        c.rolled = self.rolled
        c.roller = self.roller
        c.seat = self.seat
        c.rounds = self.rounds
        c.pc = self.pc
        c.pmode = self.pmode
        c.prem = self.prem
        c.pdir = self.pdir
        c.pdrawn = self.pdrawn
        c.two_each_holder = self.two_each_holder
        c.full_row_holder = self.full_row_holder
        c.over = self.over
        c.ender = self.ender
        c.end_grey = self.end_grey
        c.end_coins = self.end_coins
        return c

    def key(self) -> Hashable:
        return (
            self.phase, self.seat, self.roller, self.rolled, tuple(self.middle), self.pc,
            self.pmode, self.prem, self.pdir, self.pdrawn, self.two_each_holder,
            self.full_row_holder, self.over, self.ender, self.end_grey, self.end_coins,
            tuple(s.key() for s in self.sheets),
        )

    def variant(self) -> dict[str, Any]:
        return {"level": self.level}

    def sheet_data(self) -> dict[str, Any]:
        return dict(self.board.data)

    def chance_outcomes(self) -> list[tuple[ReefsMove, float]]:
        if self.over or self.phase != P_ROLL:
            return []
        return [(m, 1 / 6) for m in self.moves.roll[self.rolled]]

    def legal_moves(self) -> list[ReefsMove]:
        if self.over:
            return []
        if self.phase == P_ROLL:
            return list(self.moves.roll[self.rolled])
        if self.phase == P_TAKE:
            return self._take_moves()
        return self._draw_moves()

    def parse_move(self, text: str) -> ReefsMove:
        if not isinstance(text, str):
            raise IllegalMove(f"a move must be text or a move object; accepted forms: {FORMS}")
        norm = " ".join(text.split())
        m = self.moves.by_text.get(norm)
        if m is None:
            m = self.moves.folded.get(norm.lower())
        if m is None:
            raise IllegalMove(f"cannot read move {text!r}; accepted forms: {FORMS}", text)
        return m

    def illegal_reason(self, move: ReefsMove) -> str | None:
        if not isinstance(move, ReefsMove):
            return f"{move!r} is not a Reefs move; accepted forms: {FORMS}"
        legal = self.legal_moves()
        if move in legal:
            return None
        summary = self._legal_summary()
        if self.phase == P_ROLL:
            if move.kind != ROLL:
                return (f"the pencils are being rolled (chance): {move} must wait; "
                        f"legal: {summary}")
            return f"the next pencil to roll is {COLOURS[self.rolled]}; legal: {summary}"
        if move.kind == ROLL:
            return (f"no roll is pending: {subject(self.seats[self.seat], 'is')} to move; "
                    f"legal: {summary}")
        if move.kind == TAKE:
            if self.phase != P_TAKE:
                return f"a pencil is already taken and being drawn; legal: {summary}"
            if self.middle[move.a] < 0:
                return f"the {COLOURS[move.a]} pencil is not in the middle; legal: {summary}"
            return (f"a propeller needs a collected, unused propeller and a colour that can "
                    f"draw 3 any steps (R13); legal: {summary}")
        if self.phase == P_TAKE:
            return f"take a pencil first (G2); legal: {summary}"
        if move.kind == FORFEIT:
            return (f"forfeit is only possible before drawing anything with the pencil "
                    f"(R6); legal: {summary}")
        if move.kind == STOP:
            return (f"stop is only possible after at least 4 steps of a 4+ straight pencil "
                    f"(R5); legal: {summary}")
        started = self.sheets[self.seat].entry[self.pc] >= 0
        colour = COLOURS[self.pc]
        if move.kind == ENTER and started:
            return (f"the {colour} route has already started: continue it from its end "
                    f"(R3); legal: {summary}")
        if move.kind == STEP and not started:
            return (f"the {colour} route has not started: choose a free entry point first "
                    f"(R3); legal: {summary}")
        if move.kind == ENTER:
            return (f"{move} is not possible: the route must start at a free entry point from "
                    f"which the whole pencil can be drawn (R3); legal: {summary}")
        return (f"{move} is not possible: a step follows an unused connection from the route's "
                f"end, never onto an entry point, straight where the pencil says so, and the "
                f"whole pencil must stay drawable (R3-R5); legal: {summary}")

    # ------------------------------------------------------------------ legal moves
    def _take_moves(self) -> list[ReefsMove]:
        """G2 draft: take one pencil from the middle; R13 optionally with a propeller, offered
        only when that colour can draw its 3 any steps (R16)."""
        out: list[ReefsMove] = []
        sh = self.sheets[self.seat]
        prop = sh.props > sh.props_used
        take = self.moves.take
        for c in range(5):
            if self.middle[c] >= 0:
                out.append(take[c][0])
                if prop and self._drawable(sh, c, ANY, PROPELLER_STEPS):
                    out.append(take[c][1])
        return out

    def _drawable(self, sh: SeatSheet, c: int, mode: int, rem: int) -> bool:
        """Can colour ``c`` draw a whole pencil of this kind on this sheet now?"""
        if sh.entry[c] >= 0:
            return bool(self._steps(sh, sh.end[c], mode, rem, -1))
        return any(
            not (sh.entries_used >> e) & 1 and self._steps(sh, e, mode, rem, -1)
            for e in self.board.entries
        )

    def _draw_moves(self) -> list[ReefsMove]:
        sh = self.sheets[self.seat]
        c = self.pc
        out: list[ReefsMove]
        if sh.entry[c] < 0:
            out = self._entry_moves(sh)
        else:
            mv = self.moves.step
            out = [mv[w] for w in self._steps(sh, sh.end[c], self.pmode, self.prem, self.pdir)]
            if self.pmode == PLUS and self.prem >= PLUS_MIN:
                out.append(self.moves.stop)
        if not self.pdrawn:
            out.append(self.moves.forfeit)
        return out

    def _entry_moves(self, sh: SeatSheet) -> list[ReefsMove]:
        """R3 starting a new route: any free entry point from which the pencil can be drawn."""
        out = []
        mv = self.moves.enter
        for e in self.board.entries:
            if not (sh.entries_used >> e) & 1 and self._steps(sh, e, self.pmode, self.prem, -1):
                out.append(mv[e])
        return out

    def _steps(self, sh: SeatSheet, pos: int, mode: int, rem: int, dirn: int) -> list[int]:
        """R3-R5 + completability: the spaces the next step may go to from ``pos``.

        A step is offered only if the rest of the pencil can still be drawn after it; reaching
        an uncoloured whirlpool always completes the pencil (R12).
        """
        b = self.board
        used = sh.used
        block = b.entry_mask
        fresh = b.whirl_mask & ~sh.whirls
        out: list[int] = []
        for bit, w, d in b.adj[pos]:
            if used & bit or (block >> w) & 1:
                continue
            if mode == ANY:
                if rem == 1 or (fresh >> w) & 1 or self._any_ok(w, rem - 1, used | bit, fresh):
                    out.append(w)
            else:
                if dirn >= 0 and d != dirn:
                    continue
                need = rem - 1 if mode == STRAIGHT else PLUS_MIN - rem - 1
                if need <= 0 or (fresh >> w) & 1 or self._straight_ok(w, d, need, used, fresh):
                    out.append(w)
        return out

    def _any_ok(self, pos: int, k: int, used: int, fresh: int) -> bool:
        """Can ``k`` any steps be drawn from ``pos`` over unused connections (R4, R5)?"""
        block = self.board.entry_mask
        for bit, w, _ in self.board.adj[pos]:
            if used & bit or (block >> w) & 1:
                continue
            if k == 1 or (fresh >> w) & 1 or self._any_ok(w, k - 1, used | bit, fresh):
                return True
        return False

    def _straight_ok(self, pos: int, d: int, k: int, used: int, fresh: int) -> bool:
        """Can the straight line in direction ``d`` go on ``k`` more steps from ``pos`` (R5)?"""
        straight = self.board.straight
        block = self.board.entry_mask
        for _ in range(k):
            nxt = straight[pos].get(d)
            if nxt is None:
                return False
            bit, w = nxt
            if used & bit or (block >> w) & 1:
                return False
            if (fresh >> w) & 1:
                return True
            pos = w
        return True

    # ------------------------------------------------------------------ applying moves
    def _apply(self, move: ReefsMove) -> None:
        kind = move.kind
        if kind == ROLL:
            self._roll_pencil(move.a, move.b)
        elif kind == TAKE:
            self._take_pencil(move.a, move.b == 1)
        elif kind == STEP:
            self._draw_step(move.a)
        elif kind == ENTER:
            self._start_route(move.a)
        else:  # STOP or FORFEIT (R5 stop, R6 forfeit: nothing more is drawn)
            self._end_pencil()

    def _roll_pencil(self, colour: int, face: int) -> None:
        """R1/A1: one pencil rolled per chance decision, in colour order."""
        if self.rolled == 0:
            self.rounds += 1
        self.middle[colour] = face
        self.rolled += 1
        if self.rolled == 5:
            self.phase = P_TAKE
            self.seat = self.roller

    def sheet_for_update(self, seat: int) -> SeatSheet:
        """``seat``'s sheet, ready to be changed: copied first if another state shares it
        (clones share sheets until one changes), its kept key forgotten. Every change to a
        sheet goes through here (the rules, and tests that set up positions)."""
        self._own = part_for_update(self.sheets, self._own, seat)
        return self.sheets[seat]

    def _take_pencil(self, colour: int, propeller: bool) -> None:
        """G2 take a pencil; R13 using a propeller draws exactly 3 any steps instead."""
        face = self.middle[colour]
        self.middle[colour] = -1
        self.pc = colour
        self.pdir = -1
        if propeller:
            sh = self.sheet_for_update(self.seat)
            sh.props_used += 1
            self.pmode, self.prem = ANY, PROPELLER_STEPS
            self.pdrawn = True  # R16: offered only when it can be used, so no forfeit after it
        else:
            _, mode, steps = FACES[face]
            self.pmode = mode
            self.prem = 0 if mode == PLUS else steps
            self.pdrawn = False
        self.phase = P_DRAW

    def _start_route(self, entry: int) -> None:
        """R3: a new route starts at a free entry point, which is coloured and used up."""
        sh = self.sheet_for_update(self.seat)
        sh.entry[self.pc] = entry
        sh.end[self.pc] = entry
        sh.entries_used |= 1 << entry
        self.pdrawn = True

    def _draw_step(self, w: int) -> None:
        """R4/R5: trace one connection from the route's end to ``w``."""
        sh = self.sheet_for_update(self.seat)
        c = self.pc
        bit, d, ci = self.board.link[sh.end[c]][w]
        sh.used |= bit
        sh.owner[ci] = c + 1
        sh.end[c] = w
        self.pdrawn = True
        self._touch(sh, w, c)
        if (self.board.whirl_mask >> w) & 1 and not (sh.whirls >> w) & 1:
            self._whirlpool(sh, w)
            return
        if self.pmode == PLUS:
            self.prem += 1
            self.pdir = d
            if self.prem >= PLUS_MIN and not self._steps(sh, w, PLUS, self.prem, d):
                self._end_pencil()  # the line cannot go on: the 4+ pencil ends here
            return
        self.prem -= 1
        if self.pmode == STRAIGHT:
            self.pdir = d
        if self.prem == 0:
            self._end_pencil()

    def _whirlpool(self, sh: SeatSheet, w: int) -> None:
        """R12 whirlpools: stop, colour it, go on with exactly 3 any steps if they can all be
        drawn; otherwise the route ends at the whirlpool."""
        sh.whirls |= 1 << w
        self.pmode, self.prem, self.pdir = ANY, WHIRLPOOL_STEPS, -1
        if not self._steps(sh, w, ANY, WHIRLPOOL_STEPS, -1):
            self._end_pencil()

    def _touch(self, sh: SeatSheet, w: int, c: int) -> None:
        """The route's line has entered space ``w``: coins, treasures, propellers."""
        b = self.board
        bit = 1 << w
        if b.coin_mask & bit and not sh.coins_taken & bit:
            self._collect_coin(sh, bit)
        t = b.treasure_at[w]
        if t >= 0 and sh.treasure[t] < 0:
            tc = b.treasure_colour[t]
            if tc in (c, NEUTRAL):
                self._recover_treasure(sh, t, c)
        if b.prop_mask & bit and not sh.props_taken & bit:
            self._collect_propeller(sh, bit)

    def _collect_coin(self, sh: SeatSheet, bit: int) -> None:
        """R8 coins: first route touching a coin colours the next coin box (excess lost)."""
        sh.coins_taken |= bit
        if sh.coins < self.board.coin_len:
            sh.coins += 1

    def _recover_treasure(self, sh: SeatSheet, t: int, c: int) -> None:
        """R7 treasures: own colour, or neutral in the colour of the first route touching it;
        colour ``value`` boxes left to right, excess over the row is lost."""
        b = self.board
        sh.treasure[t] = c
        sh.boxes[c] = min(b.row_len[c], sh.boxes[c] + b.treasure_value[t])
        self._first_bonuses(sh)

    def _first_bonuses(self, sh: SeatSheet) -> None:
        """R10/A3: the two "first person to" stars, each for one seat only."""
        b = self.board
        if self.two_each_holder < 0 and all(
            sh.boxes[c] >= b.two_each_need[c] for c in range(5)
        ):
            self.two_each_holder = self.seat
        if self.full_row_holder < 0 and any(sh.boxes[c] >= b.row_len[c] for c in range(5)):
            self.full_row_holder = self.seat

    def _collect_propeller(self, sh: SeatSheet, bit: int) -> None:
        """R13 collecting propellers: once per space, the next rim left to right."""
        sh.props_taken |= bit
        sh.props += 1

    def _end_pencil(self) -> None:
        """The seat's turn is over: check the end of the game (R14), then pass on the draft
        (G2)."""
        self.turn += 1
        self.pc = -1
        self.pmode, self.prem, self.pdir, self.pdrawn = ANY, 0, -1, False
        sh = self.sheet_for_update(self.seat)  # its ``stuck`` flag is set below
        if self._game_end(sh):
            return
        nxt = (self.seat + 1) % self.players
        if all(f < 0 for f in self.middle):
            self.phase = P_ROLL
            self.rolled = 0
            self.roller = nxt
        else:
            self.phase = P_TAKE
        self.seat = nxt

    def _game_end(self, sh: SeatSheet) -> bool:
        """R11 end of the game: grey boxes of all five rows, or the last coin box, checked once
        the whole pencil is drawn (R14); the seat gets the end bonus of each condition it
        fulfils (R10). R15: the game also ends when no seat can draw a single step any more."""
        b = self.board
        # a sheet without any grey box has no grey end condition
        grey = any(b.row_grey) and all(sh.boxes[c] >= b.row_grey[c] for c in range(5))
        coins = b.coin_len > 0 and sh.coins >= b.coin_len
        if grey or coins:
            self.over = True
            self.ender = self.seat
            self.end_grey = grey
            self.end_coins = coins
            self.phase = P_TAKE
            return True
        sh.stuck = self._is_stuck(sh)
        if all(s.stuck for s in self.sheets):
            self.over = True
            self.phase = P_TAKE
            return True
        return False

    def _is_stuck(self, sh: SeatSheet) -> bool:
        """True when no colour of this sheet can draw even one step (nothing can change)."""
        b = self.board
        for c in range(5):
            starts = [sh.end[c]] if sh.entry[c] >= 0 else [
                e for e in b.entries if not (sh.entries_used >> e) & 1]
            for s in starts:
                for bit, w, _ in b.adj[s]:
                    if not sh.used & bit and not (b.entry_mask >> w) & 1:
                        return False
        return True

    # ------------------------------------------------------------------ scoring (scoring.py)
    def scores(self) -> list[Score]:
        return scoring.score_pad(self)

    # ------------------------------------------------------------------ display

    def pencil_text(self) -> str:
        """The pencil being drawn, in words."""
        if self.pc < 0:
            return ""
        if self.pmode == PLUS:
            return f"{COLOURS[self.pc]} ({LETTERS[self.pc]}): 4+ straight, {self.prem} drawn"
        kind = "any" if self.pmode == ANY else "straight"
        steps = "step" if self.prem == 1 else "steps"
        return f"{COLOURS[self.pc]} ({LETTERS[self.pc]}): {self.prem} {kind} {steps} to draw"


# ---------------------------------------------------------------------- the factory
#: The level of each shipped sheet.
SHEET_LEVELS: dict[str, int] = {name: level for level, name in LEVEL_SHEETS.items()}


def _items_level(board: Board) -> int:
    """The lowest level whose sheet has this sheet's items: 3 with propellers, 2 with
    whirlpools, else 1."""
    return 3 if board.prop_mask else 2 if board.whirl_mask else 1


def make_game(
    players: int = 2,
    seed: int = 0,
    sheet: str | Path | Mapping[str, Any] | None = None,
    level: int | None = None,
) -> ReefsState:
    """A new game. ``sheet``: None (the level's shipped sheet), a shipped sheet name, a TOML
    path, or the data from ``sheet_data()``.

    The level and the sheet are one choice (each level is a printed sheet), so they must agree:
    a shipped sheet with another level's number is refused. A sheet file of your own plays what
    it contains; its level is the label kept in records, by default the level having its items
    (propellers 3, whirlpools 2, else 1), and an explicit level is refused when the file has an
    item that level's sheet has not (whirlpools are level 2, propellers level 3). Sheet data (a
    record's) keeps the level it is given, so every record replays."""
    if level is not None and level not in LEVEL_SHEETS:
        raise BadVariant(f"level={level!r} does not exist; choose from 1, 2, 3")
    if not 1 <= players <= 4:
        raise BadVariant(f"Pick a Pen: Reefs takes 1 to 4 players, not {players}")
    if sheet is None:
        level = 1 if level is None else level
        return ReefsState(load_board(LEVEL_SHEETS[level]), players, seed, level)
    shipped = SHEET_LEVELS.get(str(sheet)) if isinstance(sheet, str) else None
    if shipped is not None and level is not None and level != shipped:
        raise BadVariant(
            f"sheet {sheet!r} is the level {shipped} sheet, but level={level} was asked for; "
            f"level {level} plays sheet {LEVEL_SHEETS[level]!r}: give one of the two, or a "
            f"matching pair ({', '.join(f'{n!r} = level {lv}' for n, lv in SHEET_LEVELS.items())})"
        )
    board = load_board(sheet)
    if shipped is not None:
        return ReefsState(board, players, seed, shipped)
    if level is None:
        level = _items_level(board)
    elif not isinstance(sheet, Mapping):
        wrong = [f"{items} (level {lv})" for items, lv, mask in (
            ("whirlpools", 2, board.whirl_mask), ("propellers", 3, board.prop_mask))
            if mask and lv != level]
        if wrong:
            raise BadVariant(
                f"the sheet {str(sheet)!r} has {' and '.join(wrong)}, which the level {level} "
                f"sheet has not; leave the level out (it then follows the sheet's items)"
            )
    return ReefsState(board, players, seed, level)
