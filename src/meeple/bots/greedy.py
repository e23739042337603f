"""The greedy bot: the whole turn with the best immediate evaluation.

It enumerates every complete turn of its seat from the view (``view.whole_turns()``),
evaluates the position after each with the game's evaluation (see
:mod:`meeple.bots.evaluation`), and plays the best, ties broken by its seeded generator.
The engine asks one decision at a time, so the chosen turn is kept as a plan and replayed
move by move while the view is the one the plan expects.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from meeple.bots.base import Bot, register_bot
from meeple.bots.evaluation import (
    all_turns_ranked,
    choose_evaluation,
    ranked_turns,
    score_total,
    turn_ranker_for,
)
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.core.turn import ends_turn


class Planner:
    """A planned sequence of moves, with the position key expected before each one."""

    def __init__(self) -> None:
        self.moves: list[Any] = []
        self.keys: list[Hashable] = []

    def next_move(self, view: State[Any], legal: Sequence[Any]) -> Any | None:
        """The plan's next move if ``view`` is the position it expects, else ``None`` (and the
        plan is dropped). Refuses an empty ``legal``: a bot is never asked without a move."""
        if not legal:
            raise ValueError("no legal move to choose from")
        if not self.moves:
            return None
        if view.key() == self.keys[0] and self.moves[0] in legal:
            self.keys.pop(0)
            return self.moves.pop(0)
        self.moves.clear()
        self.keys.clear()
        return None

    def set(self, view: State[Any], moves: Sequence[Any]) -> Any:
        """Remember ``moves`` from ``view`` and return the first one."""
        self.moves = list(moves)
        self.keys = []
        node = view.clone()
        for m in self.moves:
            self.keys.append(node.key())
            node.play(m, check=False)
        self.keys.pop(0)
        return self.moves.pop(0)


def best_turns(view: State[Any], seat: int, exact: bool = False,
               which: str = "game") -> list[tuple[float, tuple[Any, ...]]]:
    """Whole turns of ``seat`` from ``view`` with their evaluation, best first (stable sort).

    Every turn is evaluated, unless the game registered a turn ranker (Gardens) and ``exact``
    is false: then the ranker's cheap estimate preselects and the best 16 are evaluated.
    """
    if which == "score":
        return all_turns_ranked(view, seat, fn=score_total)
    if not exact and turn_ranker_for(view.game_name) is not None:
        return ranked_turns(view, seat, 16)
    return all_turns_ranked(view, seat)


class GreedyBot(Bot):
    """Best immediate gain of a whole turn. Options: ``epsilon`` (chance of a random turn),
    ``exact=1`` (evaluate every turn even where the game has a faster turn ranker), ``eval``
    (``game``: the game's evaluation, default; ``score``: the score total only)."""

    name = "greedy"

    def __init__(self, seed: int = 0, epsilon: float = 0.0, exact: int = 0, eval: str = "game",
                 **options: Any) -> None:
        super().__init__(seed, **options)
        if options:
            raise TypeError(f"unknown option(s) {', '.join(sorted(options))}; "
                            "options: epsilon, exact, eval")
        choose_evaluation("", str(eval))  # validates the name
        self.exact = bool(exact)
        self.which = str(eval)
        if not 0.0 <= float(epsilon) <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1, not {epsilon}")
        self.epsilon = float(epsilon)
        self.rng = Rng(seed)
        self.plan = Planner()

    def choose(self, view: State[Any], legal_moves: Sequence[Any]) -> Any:
        planned = self.plan.next_move(view, legal_moves)
        if planned is not None:
            return planned
        seat = view.to_move
        if seat is None or seat < 0 or (len(legal_moves) == 1 and ends_turn(view, legal_moves[0])):
            return legal_moves[0]  # a forced step that ends the turn: nothing to plan
        scored = best_turns(view, seat, self.exact, self.which)
        if not scored:
            return self.rng.choice(legal_moves)
        if self.epsilon and self.rng.random() < self.epsilon:
            return self.plan.set(view, self.rng.choice(scored)[1])
        top = scored[0][0]
        ties = [moves for value, moves in scored if value >= top - 1e-9]
        return self.plan.set(view, self.rng.choice(ties))


register_bot("greedy", GreedyBot)
