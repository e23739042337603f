"""Stateful property tests of the engine contract, for every game, variant and player count
in the registry (``meeple.games()``; no game module is imported).

A Hypothesis rule-based state machine plays one game and, step by step, chooses among:

* play a legal move Hypothesis picks from ``legal_moves()`` (chance outcomes too, when chance
  is to move), by object or by its text; let the game's own stream roll (``sample_chance``);
  play a run of random moves, or to the end, to reach late and finished positions;
* try an illegal move: random text, a legal move's text mangled, a move that was legal earlier
  (text or object), a chance outcome while a seat is to move and a seat's move while chance is,
  anything once the game is over. The engine must raise ``IllegalMove`` with a reason and
  change nothing, compared on a full fingerprint (record, key, to_move, legal moves, chance
  outcomes, scores, winners, log, undo, every seat's ``view(seat)`` and the client view a
  server sends each seat and a spectator). A text it accepts must be one of the legal moves;
* undo: allowed exactly inside the seat's own unfinished turn (not across chance or another
  seat's move, not once over), and then it restores the fingerprint the state had before that
  move; refused otherwise with ``IllegalMove``, changing nothing;
* clone (or take a seat's view): equal to the original, and independent both ways: moves on
  the copy leave the original as it was, moves on the original leave the copies as they were;
  a kept copy can later become the game under test;
* replay: ``meeple.replay`` of the record (through JSON) gives the same fingerprint, a prefix
  of it the state of that moment; the rebuilt state can become the game under test.

After every step the invariants of ``stateful_support.check_invariants`` hold and the kept
copies are unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import meeple
from meeple.core.rng import Rng
from tests.conformance.cases import every_case
from tests.games.stateful_support import (
    Fingerprint,
    check_invariants,
    fingerprint,
    light_fingerprint,
    mangled,
    random_text,
)

#: The budget of each (game, variant, player count): 54 cases in all.
SETTINGS = settings(
    max_examples=4,
    stateful_step_count=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much],
)

MAX_KEPT = 2  # copies kept aside and checked after every step


CASES = every_case()


@dataclass
class Step:
    """One move of the game under test, as the machine saw it being played."""

    mover: int
    turn: int
    text: str
    key_before: Hashable
    fp_before: Fingerprint | None  # None inside a run of moves played in one rule


@dataclass
class Branch:
    """A game being played: the state and the machine's own account of its moves."""

    state: meeple.State[Any]
    trail: list[Step]
    end_checked: bool = False


@dataclass
class Kept:
    branch: Branch
    light: tuple[Any, ...]


def _random_move(state: meeple.State[Any], rng: Rng) -> Any:
    return rng.choice(state.legal_moves())


class GameMachine(RuleBasedStateMachine):
    game: str = ""
    variant: ClassVar[dict[str, Any]] = {}
    players: int = 1

    def __init__(self) -> None:
        super().__init__()
        self.b: Branch
        self.fp: Fingerprint
        self.kept: list[Kept] = []
        self.seen_texts: list[str] = []  # every legal move text seen so far, in order
        self.seen: dict[str, tuple[Any, bool]] = {}  # text: (move, seen as a chance outcome)
        self.steps = 0

    # ---------------------------------------------------------------- helpers
    @property
    def s(self) -> meeple.State[Any]:
        return self.b.state

    def where(self, state: meeple.State[Any] | None = None) -> str:
        state = self.s if state is None else state
        return (f"{self.game} {self.variant or 'standard'} {self.players}p seed {state.seed}, "
                f"moves {json.dumps([str(m) for m in state.history])}")

    def assert_unchanged(self, what: str) -> None:
        now = fingerprint(self.s)
        assert now == self.fp, f"{what} changed {now.differences(self.fp)}: {self.where()}"

    def note_legal(self, state: meeple.State[Any]) -> None:
        legal = state.legal_moves()
        for m in legal:
            t = str(m)
            if t not in self.seen:
                self.seen[t] = (m, state.to_move == meeple.CHANCE)
                self.seen_texts.append(t)

    def play_on(self, b: Branch, move: Any, fp_before: Fingerprint | None) -> None:
        s = b.state
        mover, turn, key = s.to_move, s.turn, s.key()
        assert mover is not None
        s.play(move)
        text = str(s.history[-1])
        if not isinstance(move, str):
            assert text == str(move)
        b.trail.append(Step(mover, turn, text, key, fp_before))

    def run_moves(self, b: Branch, n: int, seed: int) -> None:
        rng = Rng(seed)
        for _ in range(n):
            s = b.state
            if s.is_over:
                return
            self.note_legal(s)
            self.play_on(b, _random_move(s, rng), None)

    def expect_refusal(self, attempt: str, move: Any) -> None:
        """``play(move)`` must be refused (or, for a text, read as one of the legal moves)."""
        s = self.s
        legal = {str(m): m for m in s.legal_moves()}
        before_key = s.key()
        mover, turn = s.to_move, s.turn
        try:
            s.play(move)
        except meeple.IllegalMove as exc:
            assert isinstance(exc.reason, str) and exc.reason, f"no reason for {move!r}"
            self.assert_unchanged(f"refusing {attempt} {move!r}")
            event("illegal move refused")
            return
        except Exception as exc:
            self.assert_unchanged(f"failing on {attempt} {move!r}")
            raise AssertionError(f"{attempt} {move!r} raised {type(exc).__name__}: {exc}, "
                                 f"not IllegalMove: {self.where()}") from exc
        # accepted: then it must be one of the legal moves, written loosely
        played = str(s.history[-1])
        event("loose text read as a legal move")
        assert mover is not None, f"{attempt} {move!r} was accepted after the end: {self.where()}"
        assert isinstance(move, str), f"{attempt} {move!r} (a move object) was accepted"
        assert played in legal, (
            f"{move!r} was accepted as {played!r}, which was not legal: {self.where()}")
        self.b.trail.append(Step(mover, turn, played, before_key, self.fp))
        twin = meeple.replay(self.s.record(), upto=len(self.s.history) - 1)
        twin.play(legal[played])
        assert twin.key() == s.key(), f"{move!r} played otherwise than {played!r}"
        self.note_legal(s)
        self.fp = fingerprint(s)

    # ---------------------------------------------------------------- start
    @initialize(seed=st.integers(0, 2**20))
    def start(self, seed: int) -> None:
        state = meeple.new_game(self.game, players=self.players, seed=seed, **self.variant)
        self.b = Branch(state, [])
        self.note_legal(state)
        self.fp = fingerprint(state)

    # ---------------------------------------------------------------- legal play
    @precondition(lambda self: not self.s.is_over)
    @rule(data=st.data(), how=st.sampled_from(["object", "text", "own stream"]),
          then=st.sampled_from(["stay", "undo", "undo and play again"]))
    def play_legal(self, data: st.DataObject, how: str, then: str) -> None:
        """A legal move, by object or text; at a chance event, an outcome Hypothesis picks
        (as tests force chance) or the game's own seeded stream (``sample_chance``)."""
        s = self.s
        if how == "own stream" and s.to_move == meeple.CHANCE:
            twin = s.clone()
            mover, turn, key = s.to_move, s.turn, s.key()
            options = {str(m) for m in s.legal_moves()}
            move = s.sample_chance()
            assert str(move) in options
            assert str(twin.sample_chance()) == str(move), "the seeded stream is not repeatable"
            self.b.trail.append(Step(mover, turn, str(move), key, self.fp))
        else:
            move = data.draw(st.sampled_from(s.legal_moves()), label="move")
            self.play_on(self.b, str(move) if how == "text" else move, self.fp)
        self.note_legal(s)
        if then != "stay":
            self.fp = fingerprint(s)
            self.undo_checked(redo=then != "undo")

    @precondition(lambda self: not self.s.is_over)
    @rule(n=st.integers(1, 150), seed=st.integers(0, 2**16))
    def play_run(self, n: int, seed: int) -> None:
        self.run_moves(self.b, n - 1, seed)
        if not self.s.is_over:  # the last one with its fingerprint, so that undo can check it
            fp = fingerprint(self.s)
            self.play_on(self.b, _random_move(self.s, Rng(seed + 1)), fp)
        self.note_legal(self.s)

    @precondition(lambda self: not self.s.is_over and self.steps >= 15)
    @rule(seed=st.integers(0, 2**16))
    def play_to_end(self, seed: int) -> None:
        self.run_moves(self.b, 10**5, seed)
        assert self.s.is_over, f"the game did not end: {self.where()}"
        event("game played to the end")

    @precondition(lambda self: self.s.is_over)
    @rule(seed=st.integers(0, 2**20))
    def start_over(self, seed: int) -> None:
        self.start(seed)

    # ---------------------------------------------------------------- illegal play
    @rule(data=st.data(), kind=st.sampled_from(
        ["random text", "mangled", "earlier text", "earlier object", "other kind"]))
    def try_illegal(self, data: st.DataObject, kind: str) -> None:
        """An illegal move, of one of five kinds: random text; a legal move's text mangled; a
        move legal earlier (its text, or the move object itself); a move of the other kind
        (a chance outcome while a seat is to move, or a seat's move while chance is)."""
        s = self.s
        legal = {str(m) for m in s.legal_moves()}
        chance = s.to_move == meeple.CHANCE
        if kind == "random text":
            self.expect_refusal(kind, data.draw(random_text, label="text"))
            return
        if kind == "mangled":
            base = data.draw(st.sampled_from(sorted(legal) or self.seen_texts), label="legal")
            self.expect_refusal(f"{base!r} mangled", data.draw(mangled(base), label="mangled"))
            return
        if kind == "other kind":
            if not chance:
                with pytest.raises(meeple.IllegalMove):
                    s.sample_chance()
                self.assert_unchanged("refusing sample_chance() at a seat's turn")
            pool = [t for t in self.seen_texts if self.seen[t][1] != chance and t not in legal]
        else:
            pool = [t for t in self.seen_texts if t not in legal]
        if not pool:
            return
        text = data.draw(st.sampled_from(pool), label="earlier")
        self.expect_refusal(kind, self.seen[text][0] if kind == "earlier object" else text)

    @precondition(lambda self: self.s.is_over and not self.b.end_checked)
    @rule(data=st.data())
    def finished_game_refuses_everything(self, data: st.DataObject) -> None:
        """Once per finished game (the illegal-move rules above go on trying theirs)."""
        s = self.s
        self.b.end_checked = True
        text = data.draw(st.sampled_from(self.seen_texts) | random_text, label="text")
        move = self.seen[data.draw(st.sampled_from(self.seen_texts), label="move")][0]
        key = s.key()
        for attempt in (text, move):
            with pytest.raises(meeple.IllegalMove):
                s.play(attempt)
            assert s.key() == key, f"refusing {attempt!r} after the end changed the state"
        for refused in (s.undo, s.sample_chance):
            with pytest.raises(meeple.IllegalMove):
                refused()
            assert s.key() == key, f"refusing {refused.__name__}() after the end changed it"
        self.assert_unchanged(f"refusing {text!r}, {move!r}, undo and chance after the end")

    # ---------------------------------------------------------------- undo
    @rule(redo=st.booleans())
    def undo(self, redo: bool) -> None:
        self.undo_checked(redo)

    def undo_checked(self, redo: bool) -> None:
        s, trail = self.s, self.b.trail
        last = trail[-1] if trail else None
        # the contract: only inside the seat's own unfinished turn, never across chance or
        # another seat's decision, never once the game is over
        allowed = (last is not None and not s.is_over and last.mover != meeple.CHANCE
                   and last.mover == s.to_move and last.turn == s.turn)
        assert s.can_undo() == allowed, f"can_undo() is {s.can_undo()}: {self.where()}"
        if not allowed:
            with pytest.raises(meeple.IllegalMove) as exc:
                s.undo()
            assert exc.value.reason
            self.assert_unchanged("refusing undo()")
            event("undo refused")
            return
        assert last is not None
        event("undo done")
        taken = s.undo()
        assert str(taken) == last.text
        trail.pop()
        if last.fp_before is not None:
            now = fingerprint(s)
            assert now == last.fp_before, (
                f"undo of {last.text!r} gave {now.differences(last.fp_before)} unlike before it: "
                f"{self.where()}")
        else:
            assert s.key() == last.key_before, f"undo of {last.text!r}: {self.where()}"
        if redo:
            self.play_on(self.b, last.text, last.fp_before)
            self.assert_unchanged(f"undo then {last.text!r} again")

    # ---------------------------------------------------------------- clones and views
    @rule(data=st.data(), n=st.integers(0, 40), seed=st.integers(0, 2**16), view=st.booleans())
    def copy_and_play_on_copy(self, data: st.DataObject, n: int, seed: int, view: bool) -> None:
        s = self.s
        if view:
            seat = data.draw(st.integers(0, self.players - 1), label="seat")
            copy = s.seen_by(seat)
            assert copy.key() == s.seen_by(seat).key(), "two views of one seat differ"
        else:
            copy = s.clone()
            got = fingerprint(copy)
            assert got == self.fp, f"the clone differs in {got.differences(self.fp)}"
        branch = Branch(copy, list(self.b.trail))
        self.run_moves(branch, n, seed)
        self.assert_unchanged(f"playing {n} moves on a {'view' if view else 'clone'}")
        if copy.can_undo():
            copy.undo()
            branch.trail.pop()
            self.assert_unchanged("undo on a copy")
        if not view:
            self.kept.append(Kept(branch, light_fingerprint(copy)))
            del self.kept[:-MAX_KEPT]

    @precondition(lambda self: self.kept)
    @rule(data=st.data(), n=st.integers(0, 40), seed=st.integers(0, 2**16), switch=st.booleans())
    def use_kept_copy(self, data: st.DataObject, n: int, seed: int, switch: bool) -> None:
        """Play on a kept copy (the game under test must not notice), or make it the game
        under test (after checking it against its own replay)."""
        i = data.draw(st.integers(0, len(self.kept) - 1), label="copy")
        kept = self.kept[i]
        if not switch:
            self.run_moves(kept.branch, n, seed)
            kept.light = light_fingerprint(kept.branch.state)
            self.assert_unchanged(f"playing {n} moves on a kept copy")
            return
        got = fingerprint(kept.branch.state)
        replayed = fingerprint(meeple.replay(json.loads(json.dumps(kept.branch.state.record()))))
        assert got == replayed, (
            f"a kept copy differs from its replay in {got.differences(replayed)}: "
            f"{self.where(kept.branch.state)}")
        self.kept[i] = Kept(self.b, light_fingerprint(self.s))
        self.b = kept.branch
        self.fp = got

    # ---------------------------------------------------------------- replay
    @rule(data=st.data(), switch=st.booleans())
    def replay_record(self, data: st.DataObject, switch: bool) -> None:
        rec = json.loads(json.dumps(self.s.record()))
        rebuilt = meeple.replay(rec)
        got = fingerprint(rebuilt)
        assert got == self.fp, f"replay differs in {got.differences(self.fp)}: {self.where()}"
        trail = self.b.trail
        k = data.draw(st.integers(0, len(trail)), label="upto")
        prefix = meeple.replay(rec, upto=k)
        if k < len(trail):
            step = trail[k]
            assert prefix.key() == step.key_before, f"replay upto {k}: {self.where()}"
            if step.fp_before is not None:
                fp = fingerprint(prefix)
                assert fp == step.fp_before, f"replay upto {k} differs in {fp.differences(step.fp_before)}"
        else:
            assert prefix.key() == rebuilt.key()
        self.assert_unchanged("recording and replaying")
        if switch:
            self.b = Branch(rebuilt, trail)

    # ---------------------------------------------------------------- after every step
    @invariant()
    def holds(self) -> None:
        if not hasattr(self, "b"):
            return
        self.steps += 1
        s = self.s
        check_invariants(s)
        assert len(self.b.trail) == len(s.history)
        assert [step.text for step in self.b.trail] == [str(m) for m in s.history]
        assert [step.mover for step in self.b.trail] == [mover for mover, _ in s.log()]
        for kept in self.kept:
            assert light_fingerprint(kept.branch.state) == kept.light, (
                f"a kept copy changed: {self.where(kept.branch.state)}")
        self.fp = fingerprint(s)


@pytest.mark.parametrize(("game", "variant", "players"), CASES)
def test_stateful(game: str, variant: dict[str, Any], players: int) -> None:
    machine = type(f"Machine_{game}", (GameMachine,),
                   {"game": game, "variant": variant, "players": players})
    run_state_machine_as_test(machine, settings=SETTINGS)


# ---------------------------------------------------------------- defects found (regressions)
@pytest.mark.parametrize("at_roll", [True, False], ids=["at-a-roll", "at-a-seat-turn"])
@pytest.mark.parametrize("text", ["roll O²", "roll R①"])
def test_gardens_refuses_roll_with_non_decimal_digit(text: str, at_roll: bool) -> None:
    s = meeple.new_game("gardens", players=2, seed=0, level=1)
    while not at_roll and s.to_move == meeple.CHANCE:
        s.sample_chance()
    assert (s.to_move == meeple.CHANCE) == at_roll
    before = fingerprint(s)
    try:
        s.play(text)
    except meeple.IllegalMove as exc:
        assert exc.reason
    except Exception as exc:
        assert fingerprint(s) == before
        raise AssertionError(f"{text!r} raised {type(exc).__name__}: {exc}") from exc
    else:
        raise AssertionError(f"{text!r} was accepted")
    assert fingerprint(s) == before
