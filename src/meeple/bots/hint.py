"""Hints: the turn a bot would play for the seat to move, with its value in points.

``hint(view, seat, "medium")`` asks a bot (a difficulty name or any bot spec) for the rest of
``seat``'s turn from ``view`` and values it, and the best other turns, by the game's evaluation
of the position after the turn (the number ``greedy`` maximises: the score so far plus credit
for what is under way). Everything is computed from ``view.seen_by(seat)`` with the position's
seed replaced by the hint's own, so a hint can never depend on what the seat may not see:
hidden cards or tiles, or the order of future draws.

Values are points: ``value`` is the evaluation after the turn, ``gain`` that less the seat's
score now, and ``margin`` how far the suggested turn is ahead of the best other turn by the
same evaluation (negative when a searching bot prefers a turn the immediate evaluation ranks
lower, because it looks further ahead).
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from meeple.bots.base import BOTS, Bot, make_bot
from meeple.bots.difficulty import DIFFICULTIES
from meeple.bots.evaluation import evaluate
from meeple.bots.greedy import best_turns
from meeple.core.errors import IllegalMove, MeepleError
from meeple.core.present import announcements, presentation
from meeple.core.state import CHANCE, State

#: The levels a hint is asked at: the bots' named difficulties (:mod:`meeple.bots.difficulty`,
#: each its game's preset), by name.
HINT_LEVELS: dict[str, str] = {name: name for name in DIFFICULTIES}
DEFAULT_LEVEL = "medium"
#: A turn longer than this many decisions is not a turn but a bot that never ends one.
MAX_TURN_STEPS = 500


@dataclass(frozen=True)
class TurnValue:
    """One whole turn (the rest of the seat's turn) with what it is worth.

    ``moves``: the decisions in notation; ``value``: the game's evaluation after them;
    ``gain``: ``value`` less the seat's score total now; ``rise``: ``value`` less the
    evaluation of the position now (what the turn adds by the evaluation); ``scored``: the
    points the turn puts on the seat's score pad (its total after less its total now);
    ``said``: what the turn does, in words (the game's announcements); ``rows``: the score
    pad rows it changes, with the change; ``steps``: each move in words, as the seat's choices
    name it (the label of its choice in the game's view of the position before it; the
    notation where the view names none).
    """

    moves: tuple[str, ...]
    value: float
    gain: float
    rise: float
    scored: int
    said: tuple[str, ...] = ()
    rows: tuple[tuple[str, int], ...] = ()
    steps: tuple[str, ...] = ()

    def words(self) -> str:
        """A line for players: what the turn does and what it changes on the score pad."""
        parts = [s.rstrip(".") for s in self.said]
        if self.rows:
            parts.append("score pad: " + ", ".join(f"{row} {delta:+d}" for row, delta in self.rows))
        return "; ".join(parts) if parts else "no points yet"


@dataclass(frozen=True)
class Hint:
    """A suggested turn for ``seat`` and the best other turns, all valued the same way.

    ``bot``: the level or bot spec asked for, ``spec``: the bot spec that answered; ``score``:
    the seat's score total now; ``now``: the game's evaluation of the position now (before
    the turn); ``best``: the suggested turn; ``margin``: ``best.value`` less
    the best alternative's value (0.0 with no alternative); ``alternatives``: the best other
    turns by the evaluation, best first; ``turns``: how many turns were ranked for them;
    ``seconds``: the CPU time the hint took.
    """

    game: str
    seat: int
    bot: str
    spec: str
    score: int
    now: float
    best: TurnValue
    margin: float
    alternatives: tuple[TurnValue, ...]
    turns: int
    seconds: float

    @property
    def move(self) -> str:
        """The next decision of the suggested turn."""
        return self.best.moves[0]

    def as_dict(self) -> dict[str, Any]:
        """The hint as JSON-able data (lists for tuples, each turn with its ``words``)."""
        data = asdict(self)
        data["move"] = self.move
        for turn, out in zip((self.best, *self.alternatives),
                             (data["best"], *data["alternatives"]), strict=True):
            out["moves"] = list(turn.moves)
            out["said"] = list(turn.said)
            out["rows"] = {row: delta for row, delta in turn.rows}
            out["steps"] = list(turn.steps)
            out["words"] = turn.words()
        data["alternatives"] = list(data["alternatives"])
        return data


def level_spec(level: str) -> str:
    """The bot spec a hint level stands for: a difficulty name (``easy``, ``medium``, ``hard``,
    ``expert``)
    or any bot spec (``greedy``, ``mcts:iterations=200``). Raises :class:`MeepleError` naming
    what is allowed."""
    text = level.strip()
    if not text:
        raise MeepleError(f"the bot or level must not be empty; levels: {', '.join(HINT_LEVELS)}, "
                          "or a bot spec such as greedy or mcts:iterations=200")
    if text.lower() in HINT_LEVELS:
        return HINT_LEVELS[text.lower()]
    name = text.partition(":")[0].strip().lower()
    if name in BOTS and name not in HINT_LEVELS:  # a difficulty takes no options
        return text
    raise MeepleError(f"unknown bot or level {text!r}; levels: {', '.join(HINT_LEVELS)}, or a "
                      f"bot spec ({', '.join(sorted(BOTS))}, e.g. mcts:iterations=200)")


def make_hint_bot(level: str, seed: int = 0) -> tuple[Bot, str]:
    """The bot behind a hint level (a difficulty or a bot spec), and its spec."""
    text = level.strip()
    try:
        return make_bot(text, seed=seed), text
    except MeepleError as exc:
        refused = exc
    spec = level_spec(text)
    if spec == text:
        raise refused
    return make_bot(spec, seed=seed), spec


def _key(state: State[Any]) -> Hashable:
    return state.key()


def step_words(before: State[Any], seat: int, moves: Sequence[Any]) -> tuple[str, ...]:
    """Each of ``moves`` (a turn of ``seat`` from ``before``) in words: the label the game's
    view gives its choice at the position before it (``board.choices``, as the table page
    shows the choice), or its notation where the view names none."""
    shown = presentation(before.game_name)
    node = before.clone()
    out = []
    for move in moves:
        board = shown.view_board(node.seen_by(seat), seat)
        labels = {str(c.get("move")): c.get("label") for c in board.get("choices") or ()
                  if isinstance(c, dict)}
        out.append(str(labels.get(str(move)) or move))
        node.play(move, check=False)
    return tuple(out)


def _value(before: State[Any], after: State[Any], seat: int, moves: Sequence[Any],
           score: int, now: float, words: bool) -> TurnValue:
    value = float(evaluate(after, seat))
    total = after.scores()[seat].total
    said: tuple[str, ...] = ()
    rows: tuple[tuple[str, int], ...] = ()
    steps: tuple[str, ...] = ()
    if words:
        said = tuple(announcements(before, after))
        steps = step_words(before, seat, moves)
        old = before.scores()[seat].breakdown
        new = after.scores()[seat].breakdown
        rows = tuple((row, new.get(row, 0) - old.get(row, 0))
                     for row in dict.fromkeys([*old, *new])
                     if new.get(row, 0) != old.get(row, 0))
    return TurnValue(tuple(str(m) for m in moves), value, value - score, value - now,
                     total - score, said, rows, steps)


def bot_turn(bot: Bot, view: State[Any], seat: int) -> tuple[list[Any], State[Any]]:
    """The rest of ``seat``'s turn as ``bot`` plays it from ``view``: its moves and the view
    after them. The turn ends as whole turns do (``meeple.core.turns``): when the turn counter
    moves on, another seat or chance is to move, or the game ends."""
    node = view.clone()
    turn = node.turn
    moves: list[Any] = []
    while node.to_move == seat and node.turn == turn:
        if len(moves) >= MAX_TURN_STEPS:
            raise MeepleError(f"{bot!r} did not finish the turn in {MAX_TURN_STEPS} decisions")
        legal = node.legal_moves()
        move = bot.choose(node.seen_by(seat), legal)
        try:
            node.play(move)
        except IllegalMove as exc:
            raise MeepleError(f"{bot!r} chose an illegal move: {exc}") from None
        moves.append(move)
    return moves, node


def hint(view: State[Any], seat: int, level: str = DEFAULT_LEVEL, *, seed: int = 0,
         alternatives: int = 3, words: bool = True) -> Hint:
    """The turn ``level`` (a difficulty or a bot spec) suggests for ``seat`` from ``view``.

    ``view`` may be the seat's view or the full state: only ``view.seen_by(seat)`` is read, with
    its seed replaced by ``seed`` (the bot's seed too), so the hint is the same whatever the
    seat cannot see. ``alternatives``: how many other turns to list (0: none, and no ranking of
    every turn is done); ``words``: describe each turn in words (announcements, score rows).
    Raises :class:`MeepleError` if ``seat`` is not to move or the level is unknown.
    """
    started = time.process_time()
    if alternatives < 0:
        raise MeepleError(f"alternatives must be 0 or more, not {alternatives}")
    if not 0 <= seat < view.players:
        raise MeepleError(f"seat {seat} does not exist; seats are 0 to {view.players - 1}")
    to_move = view.to_move
    if to_move != seat:
        who = ("the game is over" if to_move is None else
               "a roll or draw is pending" if to_move == CHANCE else f"seat {to_move} is to move")
        raise MeepleError(f"no hint for seat {seat}: it is not to move ({who})")
    bot, spec = make_hint_bot(level, seed)
    own = view.seen_by(seat)
    own.seed = seed
    score = own.scores()[seat].total
    now = float(evaluate(own, seat))
    moves, after = bot_turn(bot, own, seat)
    best = _value(own, after, seat, moves, score, now, words)
    others: list[TurnValue] = []
    ranked: list[tuple[float, tuple[Any, ...]]] = []
    if alternatives:
        ranked = best_turns(own, seat)
        seen = {_key(after)}
        for _estimate, turn in ranked:
            if len(others) >= alternatives:
                break
            node = own.clone()
            for m in turn:
                node.play(m, check=False)
            k = _key(node)
            if k in seen:
                continue
            seen.add(k)
            others.append(_value(own, node, seat, turn, score, now, words))
        others.sort(key=lambda t: -t.value)
    margin = best.value - others[0].value if others else 0.0
    return Hint(game=own.game_name, seat=seat, bot=level.strip(), spec=spec, score=score,
                now=now, best=best, margin=margin, alternatives=tuple(others),
                turns=len(ranked), seconds=time.process_time() - started)


__all__ = ["DEFAULT_LEVEL", "HINT_LEVELS", "Hint", "TurnValue", "bot_turn", "hint", "level_spec",
           "make_hint_bot"]
