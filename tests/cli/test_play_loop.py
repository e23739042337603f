"""The terminal game loop (``meeple play``), driven by typed input as a player would.

Games are tiny and seeded; where a game registers no hook yet (score pad, notation help,
announcements) the hook is faked on a copy of its Presentation, so the loop is tested against the
hooks it calls, not against any game's drawing.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from rich.text import Text
from typer.testing import CliRunner

import meeple
from meeple.cli import app
from meeple.core import present
from meeple.core.state import State
from meeple.core.viewmodel import View

if TYPE_CHECKING:
    from meeple.cli.play import Session

runner = CliRunner()


def play(args: list[str], lines: list[str]) -> Any:
    return runner.invoke(app, ["play", *args], input="\n".join(lines) + "\n")


def patch_game(monkeypatch: pytest.MonkeyPatch, game: str, **hooks: Any) -> None:
    """Register a copy of ``game``'s Presentation with some hooks replaced."""
    shown = present.presentation(game)
    monkeypatch.setitem(present.PRESENTATIONS, game, dataclasses.replace(shown, **hooks))


def solo_script(game: str, seed: int, **variant: Any) -> tuple[list[str], int, State[Any]]:
    """What a one-seat player who always takes the first listed choice types in a whole game:
    (typed lines, decisions with one choice (not typed: played by themselves), final state)."""
    s = meeple.new_game(game, players=1, seed=seed, **variant)
    typed: list[str] = []
    forced = 0
    while not s.is_over:
        if s.to_move == meeple.CHANCE:
            s.sample_chance()
            continue
        legal = s.legal_moves()
        if len(legal) == 1:
            forced += 1
        else:
            typed.append(str(legal[0]))
        s.play(legal[0])
    return typed, forced, s


def first_decision(game: str, seed: int, players: int = 1, **variant: Any) -> State[Any]:
    s = meeple.new_game(game, players=players, seed=seed, **variant)
    while s.to_move == meeple.CHANCE:
        s.sample_chance()
    return s


def gardens_turn(seed: int, players: int = 1) -> tuple[State[Any], list[str]]:
    """Seat 0's first turn in Gardens: the rolled position and one whole turn (take the first
    pencil, then the first legal field each time) as move texts."""
    start = first_decision("gardens", seed, players)
    s = start.clone()
    steps: list[str] = []
    while s.to_move == 0 and s.turn == start.turn:
        m = s.legal_moves()[0]
        steps.append(str(m))
        s.play(m)
    return start, steps


def section(output: str, start: str) -> str:
    """The text printed from ``start`` up to the next prompt."""
    after = output[output.index(start):]
    return re.split(r"\n?\S.* > ", after, maxsplit=1)[0]


# ---------------------------------------------------------------------- score and help
def test_score_prints_the_games_score_pad_hook_for_every_seat(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    calls: list[int | None] = []

    def pad(layout: Any, view: View, seat: int | None, colourblind: bool) -> str:
        calls.append(seat)
        return "PAD " + " | ".join(f"{s.name}={s.total}" for s in view.seats)

    patch_game(monkeypatch, "gardens", draw_score=pad)
    result = play(["gardens", "--seats", "me,random", "--seed", "3", "--record",
                   str(tmp_path / "g.json")], ["score", "quit", "y"])
    assert result.exit_code == 0, result.output
    assert "PAD you=0 | random (1)=0" in result.output
    assert calls == [0]


def test_score_without_a_hook_lists_every_pad_row_of_every_seat(monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    # a game with no score pad hook: the fallback is every row of State.scores()
    patch_game(monkeypatch, "reefs", draw_score=None)
    result = play(["reefs", "--seats", "me,random", "--seed", "3", "--record",
                   str(tmp_path / "r.json")], ["score", "quit", "y"])
    assert result.exit_code == 0, result.output
    pad = section(result.output, "score pad")
    rows = meeple.new_game("reefs", players=2, seed=3).scores()[0].breakdown
    for row in [*rows, "total"]:
        assert re.search(rf"^{re.escape(row)}\s+0\s+0$", pad, re.M), (row, pad)
    assert "you" in pad.splitlines()[0] and "random (1)" in pad.splitlines()[0]


def test_help_shows_this_games_notation_never_gardens_examples(monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    patch_game(monkeypatch, "reefs", notation_help="  REEFS: 'in3' starts a route [entry]")
    result = play(["reefs", "--seats", "me,random", "--seed", "3", "--record",
                   str(tmp_path / "r.json")], ["help", "quit", "y"])
    assert result.exit_code == 0, result.output
    text = section(result.output, "Commands")
    assert "Moves in Pick a Pen: Reefs" in text
    assert "REEFS: 'in3' starts a route [entry]" in text  # shown as written, brackets too
    assert "'D4'" not in text and "waste" not in text


@pytest.mark.parametrize(("game", "args"), [("takenokolor", []),
                                            ("pergola", ["--challenge", "1"])])
def test_help_without_notation_hook_gives_this_games_moves(monkeypatch: pytest.MonkeyPatch,
                                                           game: str, args: list[str],
                                                           tmp_path: Path) -> None:
    patch_game(monkeypatch, game, notation_help="")
    result = play([game, "--seats", "me", "--seed", "2", "--record", str(tmp_path / "x.json"),
                   *args], ["help", "quit", "y"])
    assert result.exit_code == 0, result.output
    text = section(result.output, "Commands")
    legal = first_decision(game, 2, **({"challenge": 1} if args else {})).legal_moves()
    assert f"'{legal[0]}'" in text
    assert "'D4'" not in text and "waste" not in text


# ---------------------------------------------------------------------- log and announcements
def test_log_numbers_the_moves_and_names_who_made_each(tmp_path: Path) -> None:
    _start, steps = gardens_turn(4)
    result = play(["gardens", "--seats", "me,random", "--seed", "4", "--record",
                   str(tmp_path / "g.json")], [steps[0], "log", "quit", "y"])
    assert result.exit_code == 0, result.output
    log = section(result.output, "1. chance:")
    lines = log.strip().splitlines()
    assert [ln.split(".")[0].strip() for ln in lines] == [str(k) for k in
                                                           range(1, len(lines) + 1)]
    assert re.search(r"^\s*1\. chance: roll ", log, re.M)
    assert re.search(rf"^\s*\d+\. you: {re.escape(steps[0])}$", log, re.M)


def test_announcements_after_every_move_chance_bots_and_people(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []

    def announce(before: Any, after: Any) -> list[str]:
        seen.append((len(before.history), len(after.history)))
        mover, move = after.log()[-1]
        who = "chance" if mover == meeple.CHANCE else after.seats[mover]
        return [f"NEWS {who} played {move}"]

    patch_game(monkeypatch, "gardens", announce=announce)
    _start, steps = gardens_turn(4, players=2)
    out = tmp_path / "g.json"
    result = play(["gardens", "--seats", "me,random", "--seed", "4", "--record", str(out)],
                  [" ".join(steps), "quit", "y"])
    assert result.exit_code == 0, result.output
    assert all(b + 1 == a for b, a in seen)  # one move at a time, the state before it kept
    moves = json.loads(out.read_text())["moves"]
    assert len(seen) == len(moves)
    assert f"NEWS chance played {moves[0]}" in result.output
    assert f"NEWS you played {steps[-1]}" in result.output
    assert "NEWS random (1) played" in result.output


# ---------------------------------------------------------------------- stopping and resuming
def test_quit_asks_first_and_no_carries_on(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    _start, steps = gardens_turn(4)
    result = play(["gardens", "--seats", "me", "--seed", "4", "--record", str(out)],
                  ["quit", "n", steps[0], "quit", "yes"])
    assert result.exit_code == 0, result.output
    assert result.output.count("Stop this game?") == 2
    rec = json.loads(out.read_text())
    assert rec["moves"][-1] == steps[0]  # the move after the 'n' was played
    assert "scores" not in rec
    assert f"meeple play --resume {out}" in result.output


def test_end_of_input_stops_and_saves(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    _start, steps = gardens_turn(4)
    result = play(["gardens", "--seats", "me,random", "--seed", "4", "--record", str(out)],
                  [steps[0]])
    assert result.exit_code == 0, result.output
    assert "Stop this game?" in result.output
    rec = json.loads(out.read_text())
    assert rec["moves"][-1] == steps[0] and rec["controllers"] == ["me", "random"]
    assert "meeple play --resume" in result.output


def scripted(answers: list[Any]) -> Callable[[str], str]:
    """An input function: strings are typed lines, exception classes are raised (Ctrl-C is
    KeyboardInterrupt, Ctrl-D EOFError); after the last answer, end of input."""
    it: Iterator[Any] = iter(answers)

    def ask(prompt: str) -> str:
        item = next(it, EOFError)
        if isinstance(item, type) and issubclass(item, BaseException):
            raise item
        return str(item)

    return ask


def test_ctrl_c_and_ctrl_d_ask_for_confirmation() -> None:
    from meeple.cli.play import Session

    state = first_decision("gardens", 4)
    legal = state.legal_moves()
    session = Session(state, ["me"], [None],
                      ask=scripted([KeyboardInterrupt, "n", EOFError, "", str(legal[0]),
                                    KeyboardInterrupt, "y", "never read"]))
    assert session.run() is False
    assert session.state.history[-1] == legal[0]  # played between the two interrupts
    # a second Ctrl-C at the question stops without more ado
    session = Session(first_decision("gardens", 4), ["me"], [None],
                      ask=scripted([KeyboardInterrupt, KeyboardInterrupt, "never read"]))
    assert session.run() is False


def test_resume_continues_the_saved_game_to_the_end(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    typed, _, final = solo_script("reefs", 1)
    first = play(["reefs", "--seats", "Ann=me", "--seed", "1", "--record", str(out)],
                 [*typed[:5], "quit", "y"])
    assert first.exit_code == 0, first.output
    saved = json.loads(out.read_text())
    assert saved["controllers"] == ["me"] and saved["seats"] == ["Ann"]
    result = play(["--resume", str(out)], typed[5:])
    assert result.exit_code == 0, result.output
    assert "refused" not in result.output and "Game over" in result.output
    rec = json.loads(out.read_text())  # saved back where it came from
    assert rec["moves"][:len(saved["moves"])] == saved["moves"]
    assert rec["moves"] == [str(m) for m in final.history]
    assert rec["seats"] == ["Ann"] and rec["controllers"] == ["me"] and rec["seed"] == 1


def test_resume_recreates_the_bots_with_their_seeds(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    _start, steps = gardens_turn(6, players=3)
    result = play(["gardens", "--seats", "me,random,greedy", "--seed", "6", "--record",
                   str(out)], [" ".join(steps), "quit", "y"])
    assert result.exit_code == 0, result.output
    saved = json.loads(out.read_text())
    assert saved["controllers"] == ["me", "random", "greedy"]
    assert saved["bot_seeds"][0] is None and all(isinstance(s, int)
                                                 for s in saved["bot_seeds"][1:])
    from meeple.cli.play import Session, _resume

    state, controllers, seeds, forced = _resume(out)
    session = Session(state, controllers, seeds, forced=forced)
    assert sorted(session.bots) == [1, 2] and session.humans == [0]
    assert state.seats == ["you", "random (1)", "greedy (2)"]
    assert state.history == meeple.replay(saved).history


def test_resume_refuses_finished_foreign_and_contradicting(tmp_path: Path) -> None:
    typed, _, _final = solo_script("reefs", 2)
    done = tmp_path / "done.json"
    assert play(["reefs", "--seats", "me", "--seed", "2", "--record", str(done)],
                typed).exit_code == 0
    result = play(["--resume", str(done)], [])
    assert result.exit_code == 2 and "is finished" in result.output

    foreign = tmp_path / "sim.json"  # a record as simulate writes it: no controllers
    foreign.write_text(json.dumps(first_decision("reefs", 2).record()))
    result = play(["--resume", str(foreign)], [])
    assert result.exit_code == 2 and "not a record saved by 'meeple play'" in result.output

    half = tmp_path / "half.json"
    assert play(["reefs", "--seats", "me", "--seed", "2", "--record", str(half)],
                ["quit", "y"]).exit_code == 0
    for extra, word in [(["--seats", "me"], "--seats"), (["--level", "2"], "--level"),
                        (["--seed", "9"], "--seed"), (["--option", "level=2"], "--option")]:
        result = play(["--resume", str(half), *extra], [])
        assert result.exit_code == 2 and word in result.output, (extra, result.output)
        assert "cannot be changed" in result.output
    result = play(["gardens", "--resume", str(half)], [])
    assert result.exit_code == 2 and "not gardens" in result.output
    result = play([], [])
    assert result.exit_code == 2 and "--resume RECORD" in result.output


# ---------------------------------------------------------------------- one choice, many steps
def test_a_single_legal_move_is_played_by_itself(tmp_path: Path) -> None:
    typed, forced, final = solo_script("reefs", 1)
    assert forced > 5
    out = tmp_path / "r.json"
    result = play(["reefs", "--seats", "me", "--seed", "1", "--record", str(out)], typed)
    assert result.exit_code == 0, result.output
    assert "refused" not in result.output
    assert result.output.count("only one choice: ") == forced
    assert "- played for you" in result.output
    assert json.loads(out.read_text())["moves"] == [str(m) for m in final.history]


def test_the_prompt_is_never_shown_for_a_single_choice() -> None:
    from meeple.cli.play import Session

    state = first_decision("takenokolor", 1)
    state.seats = ["you"]
    counts: list[int] = []
    session: Session

    def ask(prompt: str) -> str:
        legal = session.state.legal_moves()
        counts.append(len(legal))
        assert Text.from_markup(prompt).plain.startswith("you - ")
        return str(legal[0])

    session = Session(state, ["me"], [None], ask=ask)
    assert session.run() is True
    assert counts and min(counts) > 1
    assert session.auto  # some decisions were played by themselves


def test_undo_takes_back_the_forced_move_with_the_decision_before_it() -> None:
    from meeple.cli.play import Session

    # Reefs seed 1, one seat: the entry point chosen at move 7 leaves one step (move 8), which
    # ends the turn; undo takes both back
    state = meeple.new_game("reefs", players=1, seed=1)
    while len(state.history) < 6:
        if state.to_move == meeple.CHANCE:
            state.sample_chance()
        else:
            state.play(state.legal_moves()[0])
    before = state.history
    choice = str(state.legal_moves()[0])
    session = Session(state, ["me"], [None], ask=scripted([choice, "undo", "quit", "y"]))
    session.run()
    assert session.state.history == before
    assert not session.auto


def test_several_steps_on_one_line_are_played_in_order(tmp_path: Path) -> None:
    start, steps = gardens_turn(4)
    assert len(steps) >= 3
    out = tmp_path / "g.json"
    result = play(["gardens", "--seats", "me", "--seed", "4", "--record", str(out)],
                  [" ".join(steps[:-1]), "undo", "quit", "y"])
    assert result.exit_code == 0, result.output
    assert "refused" not in result.output
    rec = json.loads(out.read_text())
    n = len(start.history)
    assert rec["moves"][n:] == steps[:-2]  # undo took back one step, not the line


def test_a_line_with_a_bad_step_changes_nothing(tmp_path: Path) -> None:
    start, steps = gardens_turn(4, players=2)
    out = tmp_path / "g.json"
    lines = [f"{steps[0]} {steps[1]} zz9", f"{steps[0]} {steps[1]} {steps[1]}",
             " ".join(steps) + " " + steps[1], f"{steps[0]} {steps[0]}", "quit", "y"]
    result = play(["gardens", "--seats", "me,random", "--seed", "4", "--record", str(out)],
                  lines)
    assert result.exit_code == 0, result.output
    assert result.output.count("refused:") == 4
    assert result.output.count("nothing was played") == 4
    assert "random (1) is next" in result.output  # the third line ran past the turn
    assert json.loads(out.read_text())["moves"] == [str(m) for m in start.history]


def test_an_unknown_word_gets_the_engines_reason_and_a_hint(tmp_path: Path) -> None:
    result = play(["takenokolor", "--seats", "me", "--seed", "1", "--record",
                   str(tmp_path / "t.json")], ["dance", "quit", "y"])
    state = first_decision("takenokolor", 1)
    with pytest.raises(meeple.IllegalMove) as exc:
        state.parse_move("dance")
    assert exc.value.reason.split(";")[0] in " ".join(result.output.split())
    assert "'moves'" in result.output and "'help'" in result.output


# ---------------------------------------------------------------------- names and the end
@pytest.mark.parametrize(
    ("seats", "names"),
    [("me,greedy", ["you", "greedy (1)"]),
     ("me,me,random", ["player 0", "player 1", "random (2)"]),
     ("Ann=me,Bob=me,greedy", ["Ann", "Bob", "greedy (2)"]),
     ("Ann=me,Robo=random", ["Ann", "Robo"]),
     ("me,mcts:iterations=5,top=4", ["you", "mcts (1)"])],
)
def test_seats_can_be_named(seats: str, names: list[str], tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    result = play(["gardens", "--seats", seats, "--seed", "2", "--record", str(out)],
                  ["quit", "y"])
    assert result.exit_code == 0, result.output
    rec = json.loads(out.read_text())
    assert rec["seats"] == names
    assert len(rec["controllers"]) == len(names)
    first_human = names[rec["controllers"].index("me")]
    expected = "your choices" if first_human == "you" else f"{first_human}'s choices"
    assert expected in result.output


@pytest.mark.parametrize(
    ("seats", "words"),
    [("Ann=me,Ann=me", "two seats are called 'Ann'"),
     ("chance=me,greedy", "'chance' names the dice"),
     ("you=me,Bob=me", "'you' is the name of a single human seat"),
     ("A[b]=me,greedy", "seat name 'A[b]' is not allowed"),
     ("Ann=robot,greedy", "unknown bot"),
     ("Ann=me,Bob=me,Cy=me,Di=me,Ed=me", "takes 1 to 4")],
)
def test_bad_seat_names_are_refused(seats: str, words: str) -> None:
    result = play(["gardens", "--seats", seats], ["quit", "y"])
    assert result.exit_code == 2, result.output
    assert words in result.output


def test_one_seat_game_ends_with_the_final_score_not_a_winner(tmp_path: Path) -> None:
    typed, _, final = solo_script("takenokolor", 2)
    result = play(["takenokolor", "--seats", "me", "--seed", "2", "--record",
                   str(tmp_path / "t.json")], typed)
    assert result.exit_code == 0, result.output
    assert "Winner" not in result.output and " wins " not in result.output
    assert f"Your final score: {final.scores()[0].total}" in result.output


def test_multi_seat_game_names_the_winner(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    result = play(["takenokolor", "--seats", "random,random", "--seed", "3", "--record",
                   str(out)], [])
    assert result.exit_code == 0, result.output
    state = meeple.replay(json.loads(out.read_text()))
    assert state.is_over
    totals = [s.total for s in state.scores()]
    winners = [state.seats[w] for w in state.winners()]
    if len(winners) == 1:
        assert f"{winners[0]} wins with {max(totals)}" in result.output
    else:
        assert "share the win" in result.output


def test_prompt_says_whose_turn_and_what_they_choose(tmp_path: Path) -> None:
    result = play(["gardens", "--seats", "Ann=me,Bob=me", "--seed", "4", "--record",
                   str(tmp_path / "g.json")], ["quit", "y"])
    assert "Ann - take " in result.output
    assert "Ann's turn" in result.output


def test_resume_keeps_which_moves_were_played_by_themselves(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    typed, _, _final = solo_script("reefs", 1)
    assert play(["reefs", "--seats", "me", "--seed", "1", "--record", str(out)],
                [*typed[:4], "quit", "y"]).exit_code == 0
    forced = json.loads(out.read_text())["forced"]
    assert forced
    result = play(["--resume", str(out)], ["log all", "quit", "y"])
    marked = [ln for ln in result.output.splitlines() if ln.endswith("(only choice)")]
    assert [int(ln.split(".")[0]) - 1 for ln in marked] == forced


@pytest.mark.parametrize("content", [b"\xff\xfe\x00garbage", b"", b"[1, 2]", b'{"game": "x"'])
def test_resume_refuses_files_that_are_no_record(content: bytes, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    result = play(["--resume", str(bad)], [])
    assert result.exit_code == 2, result.output
    assert "error:" in result.output
    result = play(["--resume", str(tmp_path)], [])  # a directory
    assert result.exit_code == 2 and "error:" in result.output
