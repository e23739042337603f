"""The fixed action and observation spaces of one game variant, from the game's ``LEARNING``
record (:class:`meeple.core.layers.Learning`), and the numpy arrays built from a state.

An :class:`Encoding` is made once per (game, variant, seat count, sheet) and cached: the action
list (index = action number), the observation's blocks with their slices in the flat vector,
the Gymnasium spaces, and the two hot-path functions :meth:`Encoding.mask` and
:meth:`Encoding.observe`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from meeple.core.errors import IllegalMove, MeepleError
from meeple.core.layers import Block, Learning
from meeple.core.registry import game_part
from meeple.core.state import State


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
        self.actions: tuple[str, ...] = tuple(self.record.actions(state))
        if len(set(self.actions)) != len(self.actions):
            raise MeepleError(f"{self.game}: its LEARNING action list repeats an action")
        self.index: dict[str, int] = {t: i for i, t in enumerate(self.actions)}
        self.layout: tuple[Block, ...] = tuple(self.record.layout(state))
        parts: list[Part] = []
        at = 0
        for block in self.layout:
            parts.append(Part(block, at, at + block.size))
            at += block.size
        self.parts = tuple(parts)
        self.size = at
        self.low = np.concatenate([np.full(b.size, b.low, np.int16) for b in self.layout])
        self.high = np.concatenate([np.full(b.size, b.high, np.int16) for b in self.layout])
        self._plan()

    def observation_space(self) -> spaces.Dict:
        """A new observation space (each agent has its own, so each can be seeded alone)."""
        return spaces.Dict({
            "observation": spaces.Box(self.low, self.high, (self.size,), np.int16),
            "action_mask": spaces.Box(0, 1, (len(self.actions),), np.int8),
        })

    def action_space(self) -> spaces.Discrete:
        """A new ``Discrete`` space over every action of the variant."""
        return spaces.Discrete(len(self.actions))

    # ------------------------------------------------------------------ the decoding plan
    def _plan(self) -> None:
        """Precompute how the game's ints become the flat vector: which ints are bit-set rows
        (and their byte widths), where their unpacked bits go, and where the plain values go."""
        word = 0
        bit_rows: list[int] = []
        widths: list[int] = []
        value_words: list[int] = []
        value_pos: list[int] = []
        take: list[int] = []  # index into the unpacked bits, per bits element in out order
        bit_pos: list[int] = []
        unpacked = 0
        for part in self.parts:
            b = part.block
            if b.bits:
                rows, width = b.shape
                nbytes = (width + 7) // 8
                for r in range(rows):
                    bit_rows.append(word + r)
                    widths.append(nbytes)
                    take.extend(range(unpacked, unpacked + width))
                    bit_pos.extend(range(part.start + r * width, part.start + (r + 1) * width))
                    unpacked += nbytes * 8
            else:
                value_words.extend(range(word, word + b.size))
                value_pos.extend(range(part.start, part.stop))
            word += b.words
        self.words = word
        self._bit_rows = _getter(bit_rows)
        self._widths = tuple(widths)
        self._take = np.asarray(take, np.intp)
        self._bit_pos = np.asarray(bit_pos, np.intp)
        self._values = _getter(value_words)
        self._value_pos = np.asarray(value_pos, np.intp)

    # ------------------------------------------------------------------ hot path
    def encode(self, ints: Sequence[int]) -> np.ndarray:
        """The flat int16 observation from the game's ints (:attr:`Learning.observe`)."""
        if len(ints) != self.words:
            raise MeepleError(f"{self.game}: LEARNING.observe gave {len(ints)} ints, its layout "
                              f"needs {self.words}")
        out = np.empty(self.size, np.int16)
        if self._widths:
            raw = b"".join([row.to_bytes(n, "little")
                            for row, n in zip(self._bit_rows(ints), self._widths, strict=True)])
            bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")
            out[self._bit_pos] = bits[self._take]
        if len(self._value_pos):
            out[self._value_pos] = self._values(ints)
        return out

    def observe(self, state: State[Any], seat: int) -> np.ndarray:
        """What ``seat`` observes: built from ``state.view(seat)`` only."""
        return self.encode(self.record.observe(state.view(seat), seat))

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
