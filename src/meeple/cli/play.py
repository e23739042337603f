"""``meeple play``: a game in the terminal against bots or friends on the same keyboard.

The loop is game-agnostic: the screen, the score pad, the notation help and the announcements
come from the game's presentation (the screen and the score pad drawn from the seat's view,
:func:`meeple.core.view.terminal_text`; ``notation_help``, ``announce``;
:mod:`meeple.core.present`), with plain fallbacks where a game has no score pad drawing or
notation help.

Seats are written ``--seats me,greedy`` (``me`` for a person at this keyboard, or a bot) and
may be named ``NAME=``: ``--seats Ann=me,Bob=me,greedy``. The record saved at the end (or when a
player stops) carries the seats' controllers, so ``meeple play --resume RECORD`` continues an
unfinished game with the same seats, bots and seed.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

import meeple
from meeple.bots import BOTS, make_bot
from meeple.bots.base import Bot
from meeple.bots.hint import DEFAULT_LEVEL, hint
from meeple.cli.common import (
    GamesHelpCommand,
    app,
    check_game,
    check_record_path,
    console,
    fail,
    game_names,
    save_record,
    variant_options,
)
from meeple.core.errors import IllegalMove, MeepleError
from meeple.core.present import announcements, presentation
from meeple.core.registry import load_record
from meeple.core.state import CHANCE, State
from meeple.core.text import YOU, possessive, subject
from meeple.core.turn import Turn, take_back
from meeple.core.view import terminal_score, terminal_text

HUMAN = {"me", "human", "you"}
#: The record keys ``--resume`` needs beside the engine's own record.
CONTROLLERS = "controllers"
BOT_SEEDS = "bot_seeds"
#: 0-based indices of the moves played by themselves (a seat had only one choice)
FORCED = "forced"

HELP_TEXT = """[bold]Commands[/]
  a move         play it, written as in the list of choices
  move move ...  several steps of your own turn on one line (spaces between);
                 played only if every step is legal, else nothing is played
  moves          list every legal choice again
  hint [LEVEL]   a suggested turn with its value and two others; LEVEL is easy,
                 medium (default), hard, expert or a bot (greedy, mcts:iterations=500)
  undo           take back your last decision of this unfinished turn
  show N         draw seat N's sheet (a seat number or name)
  score          show the score pad of every seat
  log [N|all]    the last N moves (default 30) and who made each
  help           this text
  quit           stop (asks first); the game is saved to be continued later"""

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.'-]{0,19}")


# ---------------------------------------------------------------------- seats
def _is_controller(text: str) -> bool:
    head = text.partition(":")[0].strip().lower()
    return head in HUMAN or head in BOTS


def _parse_seats(seats: str) -> list[tuple[str | None, str]]:
    """``--seats`` as ``[(name or None, controller)]``.

    Commas separate seats; ``NAME=controller`` names a seat. A bot's options follow a colon and
    are joined by ``;`` (``mcts:iterations=200;top=4``); a comma followed by ``key=value`` that
    names no controller continues the previous bot's options, as in ``meeple simulate``.
    """
    out: list[tuple[str | None, str]] = []
    for part in (p.strip() for p in seats.split(",")):
        if not part:
            continue
        left, eq, right = part.partition("=")
        if eq and ":" not in left and _is_controller(right):
            name = left.strip()
            if not _NAME.fullmatch(name):
                raise MeepleError(
                    f"seat name {name!r} is not allowed: a name is 1 to 20 letters, digits, "
                    "spaces or - _ . ' (e.g. --seats Ann=me,Bob=me,greedy)")
            out.append((name, right.strip().replace(";", ",")))
        elif eq and ":" not in left and out and ":" in out[-1][1]:
            out[-1] = (out[-1][0], out[-1][1] + "," + part)
        else:
            out.append((None, part.replace(";", ",")))
    return out


def _display_names(parsed: list[tuple[str | None, str]]) -> list[str]:
    """One human alone is "you"; several are named or "player N"; bots are "greedy (1)"."""
    humans = [i for i, (_, c) in enumerate(parsed) if c.lower() in HUMAN]
    names = []
    for i, (name, controller) in enumerate(parsed):
        if name is not None:
            names.append(name)
        elif i in humans:
            names.append(YOU if len(humans) == 1 else f"player {i}")
        else:
            names.append(f"{controller.partition(':')[0].strip().lower()} ({i})")
    seen: dict[str, str] = {}
    for name in names:
        low = name.lower()
        if low == "chance":
            raise MeepleError("'chance' names the dice and draws; choose another seat name")
        if low == YOU and (len(humans) != 1 or name != names[humans[0]]):
            raise MeepleError("'you' is the name of a single human seat; with several people "
                              "at the keyboard name them, e.g. --seats Ann=me,Bob=me,greedy")
        if low in seen:
            raise MeepleError(f"two seats are called {name!r}; seat names must differ")
        seen[low] = name
    return names


def _controllers(seats: str, game: str) -> tuple[list[str], list[str]]:
    """(controllers, display names) from ``--seats``, checked against the game's seat range."""
    parsed = _parse_seats(seats)
    info = meeple.game_info(game)
    if not info.min_players <= len(parsed) <= info.max_players:
        raise MeepleError(
            f"--seats names {len(parsed)} seat(s); {info.title} takes {info.min_players} to "
            f"{info.max_players} (e.g. --seats me,random)"
        )
    return [c for _, c in parsed], _display_names(parsed)


def _make_bots(controllers: list[str], seeds: list[int | None]) -> dict[int, Bot]:
    bots: dict[int, Bot] = {}
    for i, spec in enumerate(controllers):
        if spec.lower() not in HUMAN:
            seed = seeds[i]
            bots[i] = make_bot(spec, seed=0 if seed is None else seed)
    return bots


# ---------------------------------------------------------------------- text helpers
def _format_moves(moves: list[Any]) -> str:
    texts = [str(m) for m in moves]
    width = max(len(t) for t in texts) + 2 if texts else 4
    per_line = max(1, (console.width - 2) // width)
    lines = []
    for i in range(0, len(texts), per_line):
        lines.append("".join(t.ljust(width) for t in texts[i:i + per_line]))
    return "\n".join(lines)


def _doing(legal: list[Any]) -> str:
    """What the seat is choosing, from the forms of its legal moves: 'take O/R/G', 'a field
    (D4, D5, ...) or waste'."""
    groups: dict[str, list[str]] = {}
    for m in legal:
        text = str(m)
        head, sep, _ = text.partition(" ")
        key = head if sep or text.isalpha() else "#"
        groups.setdefault(key, []).append(text)
    parts = []
    for key, texts in groups.items():
        if len(texts) == 1:
            parts.append(texts[0])
        elif key == "#":
            more = ", ..." if len(texts) > 3 else ""
            parts.append(f"a place ({', '.join(texts[:3])}{more})")
        else:
            rests = [t.partition(" ")[2] for t in texts]
            if len(rests) <= 6 and all(" " not in r for r in rests):
                parts.append(f"{key} {'/'.join(rests)}")
            else:
                parts.append(f"{key} ...")
    if len(parts) > 1:
        return ", ".join(parts[:-1]) + " or " + parts[-1]
    return parts[0] if parts else "nothing"


def _mover_name(state: State[Any], mover: int) -> str:
    return "chance" if mover == CHANCE else state.seats[mover]


def generic_score_pad(state: State[Any]) -> str:
    """Every seat's score by pad row from ``State.scores()``, for games with no score pad hook."""
    scores = state.scores()
    rows: list[str] = []
    for s in scores:
        rows.extend(r for r in s.breakdown if r not in rows)
    names = list(state.seats)
    label = max([len(r) for r in rows] + [len("total"), len("score pad")])
    widths = [max(len(n), 5) for n in names]
    lines = ["score pad".ljust(label) + "".join(f"  {n:>{w}}" for n, w in zip(names, widths,
                                                                               strict=True))]
    for r in rows:
        cells = "".join(f"  {s.breakdown.get(r, 0):>{w}}" for s, w in zip(scores, widths,
                                                                           strict=True))
        lines.append(escape(r.ljust(label)) + cells)
    total = "".join(f"  {s.total:>{w}}" for s, w in zip(scores, widths, strict=True))
    lines.append(f"[bold]{'total'.ljust(label)}{total}[/]")
    lines[0] = escape(lines[0])
    return "\n".join(lines)


class Stop(Exception):
    """The player asked to stop (``quit``), already confirmed."""


class LineRefused(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# ---------------------------------------------------------------------- the session
class Session:
    """One game at the terminal: whose turn, the prompt, the commands, announcements.

    Every move is played on a clone that then replaces ``state``, so an interrupt never leaves
    a half-applied move, and the state before each move is at hand for ``announcements``.
    ``ask(prompt)`` reads a line (``console.input`` by default; tests pass their own).
    """

    def __init__(
        self,
        state: State[Any],
        controllers: list[str],
        bot_seeds: list[int | None],
        *,
        colourblind: bool = True,
        ask: Callable[[str], str] | None = None,
        forced: set[int] | None = None,
    ) -> None:
        self.state = state
        self.controllers = controllers
        self.bot_seeds = bot_seeds
        self.bots = _make_bots(controllers, bot_seeds)
        self.humans = [i for i in range(state.players) if i not in self.bots]
        self.colourblind = colourblind
        self.ask = ask if ask is not None else console.input
        self.info = meeple.game_info(state.game_name)
        self.shown = presentation(state.game_name)
        #: history indices of moves played for a human seat that had only one choice
        self.auto: set[int] = set(forced or ())
        self._shown_for: tuple[int, int] | None = None
        self._last_human: int | None = None
        #: the turns in progress of the person deciding now, oldest first: the turn under
        #: way and those of the same seat just before it with nothing in between (a turn
        #: ended by a move played by itself); the last one's position is ``state``
        self.turns: list[Turn[Any]] = []

    # ---- record
    def record(self) -> dict[str, Any]:
        """The extra record keys ``--resume`` needs (the engine's record has the rest)."""
        return {CONTROLLERS: list(self.controllers), BOT_SEEDS: list(self.bot_seeds),
                FORCED: sorted(self.auto)}

    # ---- main loop
    def run(self) -> bool:
        """Play until the game is over (True) or a player stops it (False)."""
        while not self.state.is_over:
            try:
                self.step()
            except Stop:
                return False
            except (EOFError, KeyboardInterrupt):
                console.print()
                if self.confirm_stop():
                    return False
        return True

    def confirm_stop(self) -> bool:
        try:
            answer = self.ask("[bold]Stop this game? It is saved and can be continued "
                              "later. (y/N)[/] ")
        except (EOFError, KeyboardInterrupt):
            console.print()
            return True  # no more input: stop and save
        if answer.strip().lower() in ("y", "yes"):
            return True
        console.print("carrying on")
        self._shown_for = None
        return False

    def step(self) -> None:
        state = self.state
        who = state.to_move
        assert who is not None
        if who == CHANCE:
            after = state.clone()
            move = after.sample_chance()
            self._commit(after, [f"[dim]chance: {escape(str(move))}[/]"])
        elif who in self.bots:
            move = self.bots[who].choose(state.seen_by(who), state.legal_moves())
            after = state.clone()
            after.play(move)
            self._commit(after, [f"{escape(state.seats[who])}: [bold]{escape(str(move))}[/]"])
        else:
            self.human_step(who)

    def _commit(self, after: State[Any], lines: list[str], auto: bool = False) -> None:
        """Make ``after`` (one move on from ``state``) the game, then say what happened."""
        before = self.state
        self.state = after
        if auto:
            self.auto.add(len(before.history))
        for line in lines:
            console.print(line)
        self.announce(before, after)

    def announce(self, before: State[Any], after: State[Any]) -> None:
        for text in announcements(before, after):
            console.print(f"  [bold]*[/] {escape(text)}")

    def _only_choice_line(self, who: int, move: Any) -> str:
        return f"only one choice: [bold]{escape(str(move))}[/] - played for " \
               f"{escape(self.state.seats[who])}"

    def _turn(self, who: int) -> Turn[Any]:
        """The turn in progress of ``who`` at ``state``: the one under way, a new one when the
        last ended and ``who`` goes on, or a new chain when anything else moved since."""
        chain = self.turns
        if chain and chain[-1].position is self.state and chain[-1].seat == who:
            if not chain[-1].complete:
                return chain[-1]
            chain.append(Turn(self.state))
            return chain[-1]
        self.turns = [Turn(self.state)]
        return self.turns[0]

    def _commit_turn(self, who: int, mark: tuple[int, int], named: set[tuple[int, int]]
                     ) -> None:
        """Make every step of the turns from ``mark`` (turn, step) on the game, saying what
        happened; forced steps not in ``named`` (typed anyway) were played by themselves."""
        t0, n0 = mark
        for t in range(t0, len(self.turns)):
            turn = self.turns[t]
            for i, step in enumerate(turn.steps):
                if t == t0 and i < n0:
                    continue
                auto = step.forced and (t, i) not in named
                lines = [self._only_choice_line(who, step.move)] if auto else []
                self._commit(turn.before(i + 1), lines, auto=auto)

    def _mark(self, who: int) -> tuple[int, int]:
        self._turn(who)
        return len(self.turns) - 1, len(self.turns[-1])

    def _back_to(self, mark: tuple[int, int]) -> None:
        t0, n0 = mark
        del self.turns[t0 + 1:]
        self.turns[t0].back_to(n0)

    def human_step(self, who: int) -> None:
        state = self.state
        legal = state.legal_moves()
        if len(legal) == 1:
            mark = self._mark(who)
            self.turns[-1].play_forced()
            self._commit_turn(who, mark, set())
            return
        key = (len(state.history), who)
        if self._shown_for != key:
            self.show_position(who, legal)
            self._shown_for = key
        name = state.seats[who]
        text = self.ask(f"[bold cyan]{escape(name)}[/] - {escape(_doing(legal))} [bold cyan]>[/] ")
        text = text.strip()
        if text:
            self.command(who, text, legal)

    def show_position(self, who: int, legal: list[Any]) -> None:
        state = self.state
        name = state.seats[who]
        console.print()
        if len(self.humans) > 1 and self._last_human != who:
            console.rule(f"[bold]{escape(possessive(name))} turn[/]")
        self._last_human = who
        console.print(terminal_text(state, who, who, self.colourblind))
        console.print(f"\n[bold]{escape(possessive(name))} choices:[/]\n"
                      f"{escape(_format_moves(legal))}")

    # ---- commands
    def command(self, who: int, text: str, legal: list[Any]) -> None:
        cmd, _, arg = text.partition(" ")
        low = cmd.lower()
        arg = arg.strip()
        if low in ("quit", "exit"):
            if self.confirm_stop():
                raise Stop
        elif low == "help":
            console.print(self.help_text(legal))
        elif low == "moves":
            console.print(escape(_format_moves(legal)))
        elif low == "hint":
            self.hint(who, arg)
        elif low == "undo":
            self.undo(who)
        elif low == "show":
            self.show(who, arg)
        elif low == "score":
            console.print(self.score_text(who))
        elif low == "log":
            self.print_log(arg)
        else:
            self.play_line(who, text)

    def help_text(self, legal: list[Any]) -> str:
        title = escape(self.info.title)
        if self.shown.notation_help:
            notation = escape(self.shown.notation_help.strip("\n"))
        else:
            examples = ", ".join(f"'{escape(str(m))}'" for m in legal[:3])
            notation = (f"  type a move as written in the list of choices, e.g. {examples}; "
                        "'moves' lists them all")
        return f"{HELP_TEXT}\n\n[bold]Moves in {title}[/]\n{notation}"

    def hint(self, who: int, level: str) -> None:
        """Print the turn a bot suggests for ``who`` (from its view only), in notation and
        in words, with its value and two alternatives."""
        asked = level or DEFAULT_LEVEL
        try:
            h = hint(self.state.seen_by(who), who, asked, seed=len(self.state.history),
                     alternatives=2)
        except MeepleError as exc:
            console.print(f"[red]no hint:[/] {escape(str(exc))}")
            return
        console.print(f"[bold]hint[/] ({escape(asked)}): [bold]{escape(' '.join(h.best.moves))}[/]")
        ahead = (f"{h.margin:+.1f} against the next best" if h.alternatives
                 else "the only turn there is")
        console.print(f"  scores {h.best.scored:+d} now; worth {h.best.value:.1f} by the game's "
                      f"evaluation ({h.best.rise:+.1f} on the position now), {ahead}")
        console.print(f"  [dim]what it does:[/] {escape(h.best.words())}")
        if h.alternatives:
            console.print("  other turns:")
        for alt in h.alternatives:
            console.print(f"    {escape(' '.join(alt.moves))}  (scores {alt.scored:+d}, worth "
                          f"{alt.value:.1f})\n      [dim]what it does:[/] {escape(alt.words())}")
        console.print("[dim]  type the moves to play them (all on one line if you like)[/]")

    def score_text(self, who: int | None) -> str:
        pad = terminal_score(self.state, who, who, self.colourblind)
        return pad if pad is not None else generic_score_pad(self.state)

    def show(self, who: int, arg: str) -> None:
        state = self.state
        seat: int | None = None
        if arg.isdigit() and int(arg) < state.players:
            seat = int(arg)
        else:
            for i, name in enumerate(state.seats):
                if name.lower() == arg.lower():
                    seat = i
        if seat is None:
            names = ", ".join(f"{i} {n}" for i, n in enumerate(state.seats))
            console.print(f"[red]show takes a seat number or name:[/] {escape(names)}")
            return
        console.print(terminal_text(state, who, seat, self.colourblind))

    def print_log(self, arg: str) -> None:
        entries = self.state.log()
        if arg.lower() == "all":
            count = len(entries)
        elif arg.isdigit():
            count = int(arg)
        elif arg:
            console.print("[red]log takes a number of moves or 'all'[/] (e.g. log 50)")
            return
        else:
            count = 30
        if not entries:
            console.print("no moves yet")
            return
        start = max(0, len(entries) - count)
        width = len(str(len(entries)))
        for k in range(start, len(entries)):
            mover, move = entries[k]
            note = "  (only choice)" if k in self.auto else ""
            console.print(f"{k + 1:>{width}}. {escape(_mover_name(self.state, mover))}: "
                          f"{escape(str(move))}{note}")

    def undo(self, who: int) -> None:
        """Take back the last decision of this unfinished turn. Moves played by themselves
        (only one choice) since that decision go back with it, even when the last of them
        ended the turn: undo never crosses a roll, a draw or another seat's decision.

        The decision goes back by :func:`~meeple.core.turn.take_back`, from the position
        the turns in progress kept from before it (a pop, no replay); only a decision made
        before the game was resumed is taken back by replaying the game."""
        state = self.state
        log = state.log()
        k = len(log)
        while k > 0 and k - 1 in self.auto and log[k - 1][0] == who:
            k -= 1
        forced = [str(move) for _, move in log[k:]]
        self._turn(who)
        at, before = self._position(k), self._position(k - 1)
        mark: tuple[int, int] | None = None
        if at is not None and before is not None:  # kept by the turns in progress
            decided, kept, mark = at[0], [before[0]], before[1]
        else:
            decided = state if k == len(log) else state.replay_moves(state.history[:k])
            kept = []
        try:
            trial, back = take_back(decided, kept)
        except IllegalMove as exc:
            console.print(f"[red]{escape(exc.reason)}[/]")
            return
        if mark is not None:
            self._back_to(mark)
        else:
            self.turns = []
        self.state = trial
        self.auto = {i for i in self.auto if i < len(trial.history)}
        self._shown_for = None
        also = f" (and {', '.join(forced)}, the only choice after it)" if forced else ""
        console.print(f"took back {escape(str(back))}{escape(also)}")

    def _position(self, moves: int) -> tuple[State[Any], tuple[int, int]] | None:
        """The position after the game's first ``moves`` moves if the turns in progress hold
        it, with where: (turn, step)."""
        for t in range(len(self.turns) - 1, -1, -1):
            turn = self.turns[t]
            first = len(turn.start.history)
            if first <= moves <= first + len(turn):
                return turn.before(moves - first), (t, moves - first)
        return None

    # ---- moves, one or several on a line
    def plan_line(self, who: int, text: str) -> list[tuple[State[Any], Any, bool]]:
        """The moves a line stands for, tried on the turn in progress and taken back again:
        ``[(state after, move, forced)]``.

        Greedy: the longest run of words that is a legal move now, then the rest the same way;
        a decision with a single legal move that the words do not name is played by itself.
        Raises :class:`LineRefused` (nothing played) if any step is not legal or the line runs
        past this seat's own decisions (a roll, a draw or another seat comes first).
        """
        mark = self._mark(who)
        try:
            return self._plan(who, text)[0]
        finally:
            self._back_to(mark)

    def _plan(self, who: int, text: str
              ) -> tuple[list[tuple[State[Any], Any, bool]], set[tuple[int, int]]]:
        """:meth:`plan_line` played on the turns in progress (left played): the planned
        steps, and the forced steps the words named, as (turn, step)."""
        words = text.split()
        planned: list[tuple[State[Any], Any, bool]] = []
        named: set[tuple[int, int]] = set()
        i = 0
        while i < len(words):
            done = " ".join(words[:i])
            turn = self.turns[-1]
            cur = turn.position
            if turn.complete and cur.to_move == who:  # a new turn of the same seat
                turn = Turn(cur)
                self.turns.append(turn)
                turn.play_forced()
                i = self._name_forced(0, words, i, planned, named)
                continue
            if turn.complete:
                nxt = ("the game ends" if cur.is_over else
                       f"{_mover_name(cur, cur.to_move if cur.to_move is not None else CHANCE)}"
                       " is next")
                raise LineRefused(f"after '{done}' {nxt}, so '{' '.join(words[i:])}' cannot "
                                  "be played on this line; play one turn at a time")
            found, reason = self._longest_move(cur, words, i)
            if found is None:
                where = f"after '{done}': " if planned else ""
                raise LineRefused(f"{where}{reason}")
            move, i = found
            n = len(turn)
            turn.step(move)
            planned.append((turn.before(n + 1), move, False))
            i = self._name_forced(n + 1, words, i, planned, named)
        return planned, named

    def _name_forced(self, first: int, words: list[str], i: int,
                     planned: list[tuple[State[Any], Any, bool]],
                     named: set[tuple[int, int]]) -> int:
        """The forced steps of the last turn from step ``first`` on: the words from ``i`` may
        name them (then they count as typed); those after every word are not the line's.
        Returns the index of the next word."""
        t = len(self.turns) - 1
        turn = self.turns[t]
        for k in range(first, len(turn)):
            if i == len(words):
                break
            typed, _ = self._longest_move(turn.before(k), words, i)
            if typed is not None:
                i = typed[1]
                named.add((t, k))
            planned.append((turn.before(k + 1), turn.steps[k].move, typed is None))
        return i

    @staticmethod
    def _longest_move(cur: State[Any], words: list[str], i: int) -> tuple[tuple[Any, int] | None,
                                                                          str]:
        whole_reason = ""
        parsed_reason = ""
        for j in range(len(words), i, -1):
            piece = " ".join(words[i:j])
            try:
                move = cur.parse_move(piece)
            except IllegalMove as exc:
                if j == len(words):
                    whole_reason = exc.reason
                continue
            why = cur.illegal_reason(move)
            if why is None:
                return (move, j), ""
            parsed_reason = parsed_reason or why
        return None, parsed_reason or whole_reason

    def play_line(self, who: int, text: str) -> None:
        mark = self._mark(who)
        try:
            _planned, named = self._plan(who, text)
        except LineRefused as exc:
            self._back_to(mark)
            console.print(f"[red]refused:[/] {escape(exc.reason)}\n"
                          "[dim](nothing was played; type 'moves' for the legal choices, "
                          "'help' for commands)[/]")
            return
        self._commit_turn(who, mark, named)


# ---------------------------------------------------------------------- saving and the end
def _save(state: State[Any], path: Path | None, game: str,
          extra: dict[str, Any] | None = None) -> Path:
    """Save the record (with what ``--resume`` needs); falls back to another path rather
    than lose it (:func:`meeple.cli.common.save_record`)."""
    return save_record({**state.record(), **(extra or {})}, path, game)


def _final(session: Session) -> None:
    state = session.state
    winners = state.winners()
    humans = session.humans
    viewer = next((w for w in winners if w in humans), humans[0] if humans else winners[0])
    console.print()
    console.rule("[bold]final position[/]")
    console.print(terminal_text(state, viewer, viewer, session.colourblind))
    console.print()
    console.print(session.score_text(viewer))
    scores = state.scores()
    if state.players == 1:
        name = state.seats[0]
        console.print(f"\n[bold green]Game over.[/] {escape(possessive(name).capitalize())} "
                      f"final score: [bold]{scores[0].total}[/]")
        return
    names = [state.seats[w] for w in winners]
    best = scores[winners[0]].total
    if len(names) == 1:
        line = f"{subject(names[0], 'wins')} with {best}"
    else:
        line = f"{', '.join(names[:-1])} and {names[-1]} share the win with {best} each"
    console.print(f"\n[bold green]Game over.[/] {escape(line)}")


# ---------------------------------------------------------------------- resume
def _resume(path: Path) -> tuple[State[Any], list[str], list[int | None], set[int]]:
    """The unfinished game in a play record: its state, seats' controllers, bot seeds and the
    moves that were played by themselves."""
    try:
        rec = load_record(path)
    except UnicodeDecodeError:
        raise MeepleError(f"{path} is not a game record (not UTF-8 text)") from None
    controllers = rec.get(CONTROLLERS)
    if "game" not in rec or "moves" not in rec or controllers is None:
        raise MeepleError(
            f"{path} is not a record saved by 'meeple play' (it has no {CONTROLLERS!r} entry), "
            "so it cannot be resumed; 'meeple replay' shows any record")
    seeds = _record_seeds(path, rec, controllers)
    if "scores" in rec:
        raise MeepleError(f"the game in {path} is finished; nothing to resume "
                          f"(see it with: meeple replay {path})")
    state = meeple.replay(rec)
    if state.is_over:
        raise MeepleError(f"the game in {path} is finished; nothing to resume "
                          f"(see it with: meeple replay {path})")
    seats = rec.get("seats")
    if not (isinstance(seats, list) and len(seats) == state.players
            and all(isinstance(s, str) for s in seats)):
        raise MeepleError(f"{path}: 'seats' must list one display name per player")
    forced = rec.get(FORCED, [])
    if not isinstance(forced, list):
        forced = []
    return state, controllers, seeds, {i for i in forced if isinstance(i, int)
                                       and 0 <= i < len(state.history)}


def _record_seeds(path: Path, rec: dict[str, Any], controllers: Any) -> list[int | None]:
    """A play record's seat controllers (one text per player) checked, and its bots' seeds
    (one int or null per player; all null when absent)."""
    if (not isinstance(controllers, list) or len(controllers) != rec.get("players")
            or not all(isinstance(c, str) for c in controllers)):
        raise MeepleError(f"{path}: {CONTROLLERS!r} must list one seat controller per player")
    seeds = rec.get(BOT_SEEDS, [None] * len(controllers))
    if (not isinstance(seeds, list) or len(seeds) != len(controllers)
            or not all(s is None or isinstance(s, int) for s in seeds)):
        raise MeepleError(f"{path}: {BOT_SEEDS!r} must list one seed (or null) per player")
    return seeds


def _resume_conflicts(given: dict[str, Any]) -> list[str]:
    return [f"--{k}" for k, v in given.items() if v not in (None, [], ())]



def _resumed_game(resume: Path, game: str | None
                  ) -> tuple[State[Any], list[str], list[int | None], set[int]]:
    """The unfinished game saved in ``resume`` (``meeple play --resume``), announced."""
    try:
        state, controllers, bot_seeds, forced = _resume(resume)
    except MeepleError as exc:
        raise fail(escape(str(exc))) from None
    if game is not None and game != state.game_name:
        raise fail(f"{resume} holds a game of {state.game_name}, not {game}; leave the game "
                   "out with --resume")
    title = escape(meeple.game_info(state.game_name).title)
    console.print(f"[bold]{title}[/]  continuing {escape(str(resume))} after "
                  f"{len(state.history)} moves  seed {state.seed}  seats: "
                  f"{escape(', '.join(state.seats))}   (type 'help' for commands)")
    return state, controllers, bot_seeds, forced


def _new_game(game: str, seats: str | None, record: Path | None, seed: int | None,
              variant: tuple[int | None, str | None, int | None, list[str] | None]
              ) -> tuple[State[Any], list[str], list[int | None]]:
    """A new game of ``game`` for ``meeple play``: its seats, controllers and bots' seeds,
    announced; anything wrong is refused before it starts."""
    check_game(game)
    check_record_path(record, game)
    level, sheet, challenge, option = variant
    try:
        controllers, names = _controllers(seats if seats is not None else "me,random", game)
        opts = variant_options(game, level, sheet, challenge, option)
        the_seed = seed if seed is not None else int(time.time()) % 1_000_000
        state = meeple.new_game(game, players=len(controllers), seed=the_seed, **opts)
        bot_seeds: list[int | None] = [
            None if c.lower() in HUMAN else the_seed * 31 + i
            for i, c in enumerate(controllers)]
        _make_bots(controllers, bot_seeds)  # refuse an unknown bot before the game starts
    except MeepleError as exc:
        raise fail(escape(str(exc))) from None
    state.seats = names
    title = escape(meeple.game_info(game).title)
    console.print(f"[bold]{title}[/]  seed {the_seed}  seats: "
                  f"{escape(', '.join(state.seats))}   (type 'help' for commands)")
    return state, controllers, bot_seeds

@app.command("play", cls=GamesHelpCommand)
def play_cmd(
    game: Annotated[str | None, typer.Argument(
        help="the game: {games} (may be left out with --resume)")] = None,
    seats: Annotated[str | None, typer.Option(
        help="comma-separated seats in turn order: 'me' for a person at this keyboard, or a "
             "bot (random, greedy, mcts...); name a seat with NAME=, e.g. "
             "--seats Ann=me,Bob=me,greedy (default: me,random)")] = None,
    level: Annotated[int | None, typer.Option(help="level ({games with level})")] = None,
    sheet: Annotated[str | None, typer.Option(help="a shipped sheet name or a TOML file")] = None,
    challenge: Annotated[int | None, typer.Option(help="solo challenge ({games with challenge})")] = None,
    option: Annotated[list[str] | None, typer.Option(help="other game option key=value")] = None,
    seed: Annotated[int | None, typer.Option(help="seed for rolls and bots")] = None,
    record: Annotated[Path | None, typer.Option(
        help="where to save the game record (with --resume: default the resumed file)")] = None,
    resume: Annotated[Path | None, typer.Option(
        help="continue the unfinished game saved in this record (same game, seats, bots and "
             "seed)")] = None,
    colourblind: Annotated[bool, typer.Option(help="letters per colour")] = True,
) -> None:
    """Play a game in the terminal against bots (or friends on the same keyboard).

    Type a move as listed, or several steps of your own turn on one line (in Gardens e.g.
    'take O D4 D5'). 'help' lists the commands.

    'quit', Ctrl-D or Ctrl-C saves the game; 'meeple play --resume RECORD' continues it.
    """
    if resume is not None:
        clash = _resume_conflicts({"seats": seats, "level": level, "sheet": sheet,
                                   "challenge": challenge, "option": option, "seed": seed})
        if clash:
            raise fail(f"--resume continues the game as saved; {', '.join(clash)} cannot be "
                       "changed (leave them out)")
        state, controllers, bot_seeds, forced = _resumed_game(resume, game)
        game = state.game_name
        record = resume if record is None else record
    else:
        if game is None:
            raise fail(f"name a game ({game_names()}), or continue a saved one with "
                       "--resume RECORD")
        state, controllers, bot_seeds = _new_game(game, seats, record, seed,
                                                  (level, sheet, challenge, option))
        forced = set()
    try:
        session = Session(state, controllers, bot_seeds, colourblind=colourblind, forced=forced)
    except MeepleError as exc:
        raise fail(escape(str(exc))) from None
    finished = session.run()
    path = _save(session.state, record, game, session.record())
    if finished:
        _final(session)
        console.print(f"record saved to {escape(str(path))}  (meeple replay {escape(str(path))})",
                      soft_wrap=True)
    else:
        console.print(f"[bold]game stopped[/] after {len(session.state.history)} moves; saved "
                      f"to {escape(str(path))}\ncontinue it with: [bold]meeple play --resume "
                      f"{escape(str(path))}[/]", soft_wrap=True)
