"""Analysis of a finished game: for every decision, the turn played against a bot's best.

A *decision* is one seat's turn as the record shows it: the seat's moves from the first of its
turn until the turn counter moves on, chance or another seat is to move, or the game ends,
provided the seat had a choice somewhere in it (a turn of moves with no alternative is left
out). For each, from the deciding seat's view at the start of the turn (never the hidden
state), the judging bot's turn is found with :func:`meeple.bots.hint.hint`, and both turns are
valued by the game's evaluation of the position after them. The loss is the best turn's value
less the played turn's: 0 when the seat played what the bot would; with ``greedy`` as the judge
(the default) it is the regret by that evaluation, never below 0 but where the game's turn
ranker (Gardens) preselects turns by a cheaper estimate; a searching judge (``mcts``, a
difficulty) may prefer a turn the immediate evaluation ranks lower, so its losses can be
negative. A turn cut off by the end of an unfinished record is not analysed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import meeple
from meeple.bots.evaluation import evaluate
from meeple.bots.hint import hint, make_hint_bot
from meeple.core.errors import BadRecord, IllegalMove, MeepleError
from meeple.core.state import CHANCE, State

#: The judge when none is named: the evaluation's own maximiser, quick in every game.
DEFAULT_JUDGE = "greedy"
#: Controllers of ``meeple play`` records that are people, not programs.
PEOPLE = frozenset({"me", "human", "you"})
#: How many of a seat's biggest losses its summary lists.
BLUNDERS = 3


@dataclass(frozen=True)
class Decision:
    """One analysed turn. ``number``: the 1-based number of its first move in the record;
    ``index``: the seat's own decision count (1 = its first decision); ``played``/``best``: the
    moves in notation; values by the game's evaluation after each; ``loss`` = best less
    played (0.0 exactly when ``matched``)."""

    number: int
    seat: int
    index: int
    turn: int
    played: tuple[str, ...]
    best: tuple[str, ...]
    played_value: float
    best_value: float
    loss: float
    #: whether the seat played the bot's turn (or one reaching the same position)
    matched: bool


@dataclass(frozen=True)
class SeatSummary:
    """A seat's totals: decisions analysed, total and mean loss, how many matched the bot, and
    its biggest losses (record move numbers, worst first)."""

    seat: int
    name: str
    decisions: int
    total_loss: float
    mean_loss: float
    matched: int
    blunders: tuple[int, ...]


@dataclass(frozen=True)
class Analysis:
    game: str
    variant: dict[str, Any]
    players: int
    seats: tuple[str, ...]
    #: who played each seat, where the record says (``bots`` of simulate, ``controllers`` of
    #: play); "" where it does not
    controllers: tuple[str, ...]
    bot: str
    finished: bool
    scores: tuple[int, ...]
    decisions: tuple[Decision, ...]
    summaries: tuple[SeatSummary, ...]

    def of_seat(self, seat: int) -> list[Decision]:
        return [d for d in self.decisions if d.seat == seat]

    def label(self, seat: int) -> str:
        """The seat's name, with who played it if the record says and the name does not."""
        name, who = self.seats[seat], self.controllers[seat]
        return f"{name} ({who})" if who and who.lower() not in name.lower() else name

    def as_dict(self) -> dict[str, Any]:
        """JSON-able data (the ``--json`` output of ``meeple analyse``)."""
        data = asdict(self)
        data["seats"] = list(self.seats)
        data["controllers"] = list(self.controllers)
        data["scores"] = list(self.scores)
        data["decisions"] = [{**asdict(d), "played": list(d.played), "best": list(d.best)}
                             for d in self.decisions]
        data["summaries"] = [{**asdict(s), "blunders": list(s.blunders)} for s in self.summaries]
        return data


@dataclass
class _Turn:
    seat: int
    turn: int
    number: int
    start: State[Any]
    moves: list[str]
    choice: bool


def _turns(record: Mapping[str, Any]) -> tuple[State[Any], list[_Turn]]:
    """The final state and every complete turn of a seat in ``record`` (moves checked)."""
    moves = record.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise BadRecord("the record's 'moves' must be a list of move texts")
    meeple.replay(record)  # refuses a record that cannot be replayed, naming the move
    state = meeple.replay(record, upto=0)
    turns: list[_Turn] = []
    current: _Turn | None = None
    for i, text in enumerate(moves):
        mover = state.to_move
        if mover is None:
            raise BadRecord(f"record move {i + 1} ({text!r}) comes after the end of the game")
        if mover == CHANCE:
            current = None
        elif current is None or current.seat != mover or current.turn != state.turn:
            current = _Turn(mover, state.turn, i + 1, state.seen_by(mover), [], False)
            turns.append(current)
        if current is not None:
            current.choice = current.choice or len(state.legal_moves()) > 1
            current.moves.append(str(text))
        try:
            state.play(text)
        except IllegalMove as exc:
            raise BadRecord(f"record move {i + 1} ({text!r}) is illegal: {exc.reason}") from None
    if turns and not state.is_over:  # the last turn may be unfinished
        last = turns[-1]
        if state.to_move == last.seat and state.turn == last.turn:
            turns.pop()
    return state, turns


def analyse(record: Mapping[str, Any], bot: str = DEFAULT_JUDGE, *, seat: int | None = None,
            seed: int = 0, progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Every decision of ``record`` (of ``seat`` only, if given) judged by ``bot`` (a bot spec
    or a difficulty name). ``progress(done, total)`` is called after each decision. Raises
    :class:`BadRecord` for a record that cannot be replayed and :class:`MeepleError` for an
    unknown bot or seat."""
    make_hint_bot(bot)  # an unknown bot is refused before any work
    final, turns = _turns(record)
    if seat is not None and not 0 <= seat < final.players:
        raise MeepleError(f"seat {seat} does not exist; this game has seats 0 to "
                          f"{final.players - 1}")
    chosen = [t for t in turns if t.choice and (seat is None or t.seat == seat)]
    counts = [0] * final.players
    out: list[Decision] = []
    for k, t in enumerate(chosen):
        suggestion = hint(t.start, t.seat, bot, seed=seed + t.number, alternatives=0,
                          words=False)
        played = t.start.clone()
        for text in t.moves:
            played.play(text)
        played_value = float(evaluate(played, t.seat))
        same = played.key() == _after(t.start, suggestion.best.moves).key()
        best_value = played_value if same else suggestion.best.value
        counts[t.seat] += 1
        out.append(Decision(number=t.number, seat=t.seat, index=counts[t.seat], turn=t.turn,
                            played=tuple(t.moves), best=suggestion.best.moves,
                            played_value=played_value, best_value=best_value,
                            loss=best_value - played_value, matched=same))
        if progress is not None:
            progress(k + 1, len(chosen))
    seats = range(final.players) if seat is None else [seat]
    return Analysis(game=final.game_name, variant=dict(final.variant()), players=final.players,
                    seats=tuple(final.seats), controllers=_controllers(record, final.players),
                    bot=bot, finished=final.is_over,
                    scores=tuple(s.total for s in final.scores()), decisions=tuple(out),
                    summaries=tuple(_summary(final.seats[s], s, out) for s in seats))


def _controllers(record: Mapping[str, Any], players: int) -> tuple[str, ...]:
    for key in ("bots", "controllers"):
        given = record.get(key)
        if isinstance(given, list) and len(given) == players:
            return tuple(c if isinstance(c, str) and c.lower() not in PEOPLE else ""
                         for c in given)
    return ("",) * players


def _after(start: State[Any], moves: tuple[str, ...]) -> State[Any]:
    node = start.clone()
    for text in moves:
        node.play(text)
    return node


def _summary(name: str, seat: int, decisions: list[Decision]) -> SeatSummary:
    mine = [d for d in decisions if d.seat == seat]
    total = sum(d.loss for d in mine)
    worst = sorted((d for d in mine if d.loss > 1e-9), key=lambda d: (-d.loss, d.number))
    return SeatSummary(seat=seat, name=name, decisions=len(mine), total_loss=total,
                       mean_loss=total / len(mine) if mine else 0.0,
                       matched=sum(1 for d in mine if d.matched),
                       blunders=tuple(d.number for d in worst[:BLUNDERS]))


def plot_losses(analysis: Analysis, path: str | Path) -> Path:
    """A PNG of the loss per decision, one line per seat (x: the seat's decision count)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(path)
    fig, ax = plt.subplots(figsize=(9, 4.2))
    try:
        for s in analysis.summaries:
            mine = analysis.of_seat(s.seat)
            if not mine:
                continue
            ax.plot([d.index for d in mine], [d.loss for d in mine], marker="o", markersize=3.5,
                    linewidth=1.2, label=f"{analysis.label(s.seat)}: mean {s.mean_loss:.2f}")
        ax.axhline(0.0, color="0.6", linewidth=0.8)
        ax.set_xlabel("decision (the seat's turns with a choice, in order)")
        ax.set_ylabel("loss (points, by the evaluation)")
        title = meeple.game_info(analysis.game).title
        ax.set_title(f"{title}: loss per turn against {analysis.bot}")
        if analysis.decisions:
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
                      title="seat", title_fontsize="small")
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        fig.savefig(out, dpi=110)
    finally:
        plt.close(fig)
    return out


__all__ = ["BLUNDERS", "DEFAULT_JUDGE", "Analysis", "Decision", "SeatSummary", "analyse",
           "plot_losses"]
