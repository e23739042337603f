"""The typed records a game package builds for the layers above the rules.

A game package exposes, beside ``GAME`` (the rules' facts, :class:`~meeple.core.registry.GameInfo`)
and ``PRESENTATION`` (:class:`~meeple.core.present.Presentation`):

- ``BOTS``, a :class:`BotKnowledge`: what ``meeple.bots`` knows of the game (read through
  ``meeple.bots.knowledge``);
- optionally ``SOLO``, a :class:`SoloReports`: a solo achievement table, for servers that keep
  players' games (read through ``meeple.server.table.reports``);
- ``LEARNING``, a :class:`Learning`: the game's fixed action list and observation layout for
  reinforcement learning (read through ``meeple.rl``).

They are defined here, in core, only so that games can build them without importing the layers
that read them; core itself never reads them. Each is generic over the game's State class, so
``BOTS: BotKnowledge[PergolaState] = BotKnowledge(...)`` type-checks every function against the
game's own state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from meeple.core.state import State

S = TypeVar("S", bound=State[Any])
S_contra = TypeVar("S_contra", bound=State[Any], contravariant=True)

#: A scored whole turn: (value, moves), as turn rankers give them.
ScoredTurn = tuple[float, tuple[Any, ...]]


class TurnRanker(Protocol[S_contra]):
    """``ranker(state, seat, limit)``: the seat's best ``limit`` whole turns (``None``: all),
    best first, as (value, moves), found faster than listing and evaluating every whole turn.

    A ranker may also say how a search may use it (``exhaustive``, ``capped``, ``within``; see
    :class:`meeple.core.turns.ForkTurnRanker`)."""

    def __call__(self, state: S_contra, seat: int, limit: int | None, /) -> list[ScoredTurn]: ...


@dataclass(frozen=True)
class BotKnowledge(Generic[S]):
    """Game knowledge for the bots, kept beside the rules so ``meeple.bots`` stays
    game-agnostic (as TAG keeps a heuristic beside each forward model)."""

    #: ``evaluation(state, seat)``: how good the position is for the seat, in points (the
    #: score so far plus credit for what is under way). Reads only what the seat's view shows.
    evaluation: Callable[[S, int], float]
    #: A faster way to list the best whole turns; ``None``: the bots list and evaluate them all.
    turn_ranker: TurnRanker[S] | None = None
    #: The bots' presets as data (docs/bots.md explains them; ``meeple.bots.config`` and
    #: ``meeple.bots.difficulty`` read them): ``difficulties``, the bot spec each named
    #: difficulty (``easy``, ``medium``, ``hard``) plays, by seat count (``"*"``: any);
    #: ``mcts``, options an ``mcts`` spec leaves out, plain (every seat count) or by seat
    #: count; ``mcts_sheets``, exceptions for a shipped sheet (by its name), winning over
    #: ``mcts``.
    presets: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SoloReports(Generic[S]):
    """A solo achievement table (Pergola's challenges, P10), for servers that keep players'
    games."""

    #: ``report(state)``: a finished solo game's result as JSON-able data (at least ``score``).
    report: Callable[[S], dict[str, Any]]
    #: ``table(games)``: a player's table over such results, each with the server's ``table``
    #: (id or None) and ``finished`` (ISO time) added.
    table: Callable[[list[dict[str, Any]]], dict[str, Any]]


@dataclass(frozen=True)
class Block:
    """One named part of a game's observation (:class:`Learning`), seat-relative.

    ``shape`` is the part's numpy shape. Its values lie in ``low..high`` (int16). A ``bits``
    block has shape ``(rows, width)`` with values 0/1, and the game hands it over as ``rows``
    Python ints, row ``i`` a bit set whose bit ``j`` is element ``(i, j)`` (how the engines
    already keep sheets), which ``meeple.rl`` unpacks with numpy. Any other block is handed over
    as its ``prod(shape)`` values, row-major."""

    name: str
    shape: tuple[int, ...]
    doc: str
    low: int = 0
    high: int = 1
    bits: bool = False

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def words(self) -> int:
        """How many ints the game hands over for this block."""
        return self.shape[0] if self.bits else self.size


@dataclass(frozen=True)
class Learning(Generic[S]):
    """What ``meeple.rl`` needs of a game, kept beside the rules (docs/rl.md).

    All three take a state of the variant (sheet, seat count) they describe; ``observe`` gets
    ``state.seen_by(seat)`` and reads nothing that view hides. The rules stay free of numpy: the
    game hands over plain ints and ``meeple.rl`` builds the arrays."""

    #: ``layout(state)``: the observation's blocks, in order; the same for every state of the
    #: variant. Seat-relative: the observing seat's own parts first, then the other seats in
    #: turn order after it.
    layout: Callable[[S], tuple[Block, ...]]
    #: ``observe(view, seat)``: the ints of every block of ``layout`` in order (a bits block:
    #: ``rows`` bit sets; any other: its values, row-major), as ``seat`` sees it.
    observe: Callable[[S, int], Sequence[int]]
    #: ``actions(state)``: the canonical text of every seat decision this variant (its sheet,
    #: its seat count) can ever offer, in a fixed, documented order (no chance moves). The
    #: index in this tuple is the action's number in the ``Discrete`` space. ``None``: the
    #: default, every decision text met by walking the variant's whole game tree, in sorted
    #: order (``meeple.rl.spaces.notation_actions``), for a game small enough to walk.
    actions: Callable[[S], tuple[str, ...]] | None = field(default=None, kw_only=True)
    #: ``True`` when the game's states hold public information only (its ``seen_by`` is a plain
    #: copy): ``observe`` is then given the state itself, which it reads and never changes,
    #: and the copy a decision would cost is saved.
    public: bool = field(default=False, kw_only=True)
