"""The fixed action and observation spaces of one game variant, from the game's ``LEARNING``
record (:class:`meeple.core.layers.Learning`), and the numpy arrays built from a state.

An :class:`Encoding` is made once per (game, variant, seat count, sheet) and cached: the action
list (index = action number), the observation's blocks with their slices in the flat vector,
the Gymnasium spaces, and the two hot-path functions :meth:`Encoding.mask` and
:meth:`Encoding.observe`.

It lives with the bots because a bot with a learned evaluation (:mod:`meeple.bots.learned`)
reads the same flat observation the RL envs give (``meeple.rl.spaces`` is its public name for
the envs); it needs numpy only, and Gymnasium only when a space is asked for.
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import reduce
from operator import lshift, or_
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from gymnasium import spaces

from meeple.core.errors import IllegalMove, MeepleError
from meeple.core.layers import Block, Learning
from meeple.core.registry import game_part
from meeple.core.state import CHANCE, State
from meeple.core.turns import extensions


class IllegalAction(MeepleError, ValueError):
    """An action number that is not a legal decision now (``illegal="raise"``), or that is no
    action of this variant at all."""


@dataclass(frozen=True)
class Part:
    """Where one block of the layout sits in the flat observation vector."""

    block: Block
    start: int
    stop: int

    @property
    def name(self) -> str:
        return self.block.name


def learning(game: str) -> Learning[Any]:
    """The game's ``LEARNING`` record, through the registry."""
    return game_part(game, "LEARNING", Learning)


#: The most positions :func:`notation_actions` walks before it gives up.
WALK_LIMIT = 200_000


def notation_actions(state: State[Any]) -> tuple[str, ...]:
    """The default action list of a game whose ``LEARNING`` brings none: the canonical text
    (the notation) of every seat decision met in a walk of the variant's whole game tree from
    its start (every decision and every chance outcome, each position once by ``key()``),
    sorted. For a small game only: past :data:`WALK_LIMIT` positions it raises
    :class:`MeepleError` asking for the game's own ``LEARNING.actions``."""
    start = state.replay_moves([])
    seen: set[Any] = {start.key()}
    todo = [start]
    texts: set[str] = set()
    while todo:
        here = todo.pop()
        if here.is_over:
            continue
        if here.to_move != CHANCE:
            texts.update(str(move) for move in here.legal_moves())
        children = [child for _, child in extensions(here, seen)]
        if len(seen) > WALK_LIMIT:
            raise MeepleError(f"{state.game_name}: more than {WALK_LIMIT} positions to walk "
                              "for its action list; give LEARNING an actions function")
        todo.extend(children)
    return tuple(sorted(texts))


def _getter(indices: list[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """``f(seq) -> tuple`` of ``seq[i]`` for ``i`` in ``indices`` (one C call)."""
    if not indices:
        return lambda seq: ()
    if len(indices) == 1:
        only = indices[0]
        return lambda seq: (seq[only],)
    get = operator.itemgetter(*indices)
    return lambda seq: tuple(get(seq))


class Encoding:
    """The spaces of one game variant, made from a state of it (``state`` is not kept)."""

    def __init__(self, state: State[Any]) -> None:
        self.game = state.game_name
        self.players = state.players
        self.record = learning(self.game)
        list_actions = self.record.actions or notation_actions
        self.actions: tuple[str, ...] = tuple(list_actions(state))
        if len(set(self.actions)) != len(self.actions):
            raise MeepleError(f"{self.game}: its LEARNING action list repeats an action")
        self.index: dict[str, int] = {t: i for i, t in enumerate(self.actions)}
        self.layout: tuple[Block, ...] = tuple(self.record.layout(state))
        # the flat vector: every bits block first, then the other blocks, each group in the
        # layout's order (one unpacking of one bit string fills the first part)
        parts: dict[str, Part] = {}
        at = 0
        for want_bits in (True, False):
            for block in self.layout:
                if block.bits == want_bits:
                    parts[block.name] = Part(block, at, at + block.size)
                    at += block.size
        if len(parts) != len(self.layout):
            raise MeepleError(f"{self.game}: its LEARNING layout repeats a block name")
        self.parts = tuple(sorted(parts.values(), key=lambda p: p.start))
        self.size = at
        self.low = np.concatenate([np.full(p.block.size, p.block.low, np.int16) for p in self.parts])
        self.high = np.concatenate([np.full(p.block.size, p.block.high, np.int16)
                                    for p in self.parts])
        self._plan()

    def observation_space(self) -> spaces.Dict:
        """A new observation space, a Gymnasium ``Dict`` (each agent has its own, so each can
        be seeded alone)."""
        from gymnasium import spaces

        return spaces.Dict({
            "observation": spaces.Box(self.low, self.high, (self.size,), np.int16),
            "action_mask": spaces.Box(0, 1, (len(self.actions),), np.int8),
        })

    def action_space(self) -> spaces.Discrete:
        """A new Gymnasium ``Discrete`` space over every action of the variant."""
        from gymnasium import spaces

        return spaces.Discrete(len(self.actions))

    # ------------------------------------------------------------------ the decoding plan
    def _plan(self) -> None:
        """Precompute how the game's ints become the flat vector: which ints are bit-set rows
        and where each row's bits start in the one bit string, and which are plain values."""
        word = 0
        bit_rows: list[int] = []
        shifts: list[int] = []
        value_words: list[int] = []
        nbits = 0
        for block in self.layout:
            if block.bits:
                rows, width = block.shape
                for r in range(rows):
                    bit_rows.append(word + r)
                    shifts.append(nbits)
                    nbits += width
            else:
                value_words.extend(range(word, word + block.size))
            word += block.words
        self.words = word
        self._bit_rows = _getter(bit_rows)
        self._shifts = tuple(shifts)
        self._nbits = nbits
        self._nbytes = (nbits + 7) // 8
        self._values = _getter(value_words)
        # where every bit-set row is at most 63 bits wide, all the ints fit an int64 array:
        # one numpy conversion, then the rows' bits and the values are picked out by index
        # (values lie in their blocks' int16 bounds: tests/games/learning_checks.py)
        widths = [block.shape[1] for block in self.layout if block.bits]
        self._int64 = all(w <= 63 for w in widths)
        if self._int64:
            self._row_index = np.array(bit_rows, np.intp)
            self._value_index = np.array(value_words, np.intp)
            starts, at = [], 0
            for block in self.layout:
                if block.bits:
                    for _ in range(block.shape[0]):
                        starts.append(np.arange(at * 64, at * 64 + block.shape[1]))
                        at += 1
            self._bit_index = np.concatenate(starts) if starts else np.zeros(0, np.intp)

    # ------------------------------------------------------------------ hot path
    def encode(self, ints: Sequence[int]) -> np.ndarray:
        """The flat int16 observation from the game's ints (:attr:`Learning.observe`): any
        sequence of ints; an ``array.array("q")`` is read in place (a game can keep parts of
        its observation packed as int64 bytes and join them, with no numpy in the game)."""
        if len(ints) != self.words:
            raise MeepleError(f"{self.game}: LEARNING.observe gave {len(ints)} ints, its layout "
                              f"needs {self.words}")
        out = np.empty(self.size, np.int16)
        n = self._nbits
        if self._int64:
            if isinstance(ints, array) and ints.typecode == "q":
                # a game's ints already held as int64 (stdlib array): read in place
                ints64 = np.frombuffer(ints, np.int64)
            else:
                ints64 = np.fromiter(ints, np.int64, self.words)
            if n:
                rows = ints64[self._row_index].astype("<i8", copy=False)  # little-endian bytes
                out[:n] = np.unpackbits(rows.view(np.uint8), bitorder="little")[self._bit_index]
            out[n:] = ints64[self._value_index]
            return out
        if n:
            # the rows' bits are disjoint: OR them in place, all in C (map, lshift, reduce)
            big = reduce(or_, map(lshift, self._bit_rows(ints), self._shifts), 0)
            out[:n] = np.unpackbits(np.frombuffer(big.to_bytes(self._nbytes, "little"), np.uint8),
                                    count=n, bitorder="little")
        if n < self.size:
            out[n:] = np.fromiter(self._values(ints), np.int16, self.size - n)
        return out

    def observe(self, state: State[Any], seat: int) -> np.ndarray:
        """What ``seat`` observes: built from ``state.seen_by(seat)`` only (from the state
        itself when the game's states hold public information only: ``Learning.public``)."""
        if self.record.public:
            if not 0 <= seat < self.players:
                raise ValueError(f"seat {seat} does not exist; seats are 0..{self.players - 1}")
            return self.encode(self.record.observe(state, seat))
        return self.encode(self.record.observe(state.seen_by(seat), seat))

    def mask(self, state: State[Any]) -> np.ndarray:
        """1 for each legal decision of the seat to move (all 0 when chance or nobody is)."""
        out = np.zeros(len(self.actions), np.int8)
        if state.to_move is not None and state.to_move >= 0:
            index = self.index
            try:
                out[[index[str(m)] for m in state.legal_moves()]] = 1
            except KeyError as exc:
                raise MeepleError(f"{self.game}: legal move {exc.args[0]!r} is missing from its "
                                  "LEARNING action list") from None
        return out

    def legal_actions(self, state: State[Any]) -> list[int]:
        if state.to_move is None or state.to_move < 0:
            return []
        return sorted(self.index[str(m)] for m in state.legal_moves())

    # ------------------------------------------------------------------ the mapping
    def action_to_move(self, action: int) -> str:
        """The canonical move text of action number ``action``."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalAction(f"an action is an int in 0..{len(self.actions) - 1}, "
                                f"not {action!r}")
        if not 0 <= int(action) < len(self.actions):
            raise IllegalAction(f"action {action} does not exist: this {self.game} variant's "
                                f"actions are 0..{len(self.actions) - 1}")
        return self.actions[int(action)]

    def move_to_action(self, move: object) -> int:
        """The action number of a move or its text (canonical, or any form the game reads,
        given a state to read it in: use :meth:`parse_to_action` for that)."""
        text = str(move)
        try:
            return self.index[text]
        except KeyError:
            raise IllegalAction(f"{text!r} is no action of this {self.game} variant (write the "
                                "move's canonical text, e.g. "
                                f"{self.actions[0]!r})") from None

    def parse_to_action(self, state: State[Any], text: str) -> int:
        """The action number of ``text`` read as the game reads moves in ``state`` (any form
        the notation accepts, e.g. ``O`` for ``take O``)."""
        try:
            move = state.parse_move(text)
        except IllegalMove as exc:
            raise IllegalAction(str(exc)) from None
        return self.move_to_action(move)

    def unflatten(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        """The flat observation as named arrays of each block's shape (views, no copy)."""
        flat = np.asarray(observation)
        return {p.name: flat[p.start:p.stop].reshape(p.block.shape) for p in self.parts}

    def describe(self) -> list[dict[str, Any]]:
        """The layout as data: name, shape, slice, bounds and meaning of every block."""
        return [{"name": p.name, "shape": p.block.shape, "start": p.start, "stop": p.stop,
                 "low": p.block.low, "high": p.block.high, "doc": p.block.doc} for p in self.parts]


def unit_bounds(encoding: Encoding) -> tuple[np.ndarray, np.ndarray]:
    """``(low, span)`` as float32 vectors: ``(v - low) / span`` is a value ``v`` scaled to
    [0, 1] by its block's bounds (a constant block's span counts as 1, so it reads 0). What
    ``meeple.rl``'s ``MaskableFlat``, ``meeple agent``'s Stable-Baselines3 adapter and the
    learned evaluations (:mod:`meeple.bots.learned`) scale by."""
    low = encoding.low.astype(np.float32)
    span = encoding.high.astype(np.float32) - low
    return low, np.where(span > 0, span, np.float32(1)).astype(np.float32)


_CACHE: dict[tuple[Any, ...], Encoding] = {}


def encoding(state: State[Any]) -> Encoding:
    """The :class:`Encoding` of ``state``'s variant, made once per variant, seat count and
    sheet."""
    key = (state.game_name, state.players, repr(sorted(state.variant().items())),
           _sheet_key(state))
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = Encoding(state)
    return found


def _sheet_key(state: State[Any]) -> str:
    import json

    return json.dumps(state.sheet_data(), sort_keys=True, default=str)
