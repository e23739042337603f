"""Helpers of the stateful tests (``tests/games/test_stateful.py``): a full fingerprint of a
state as everything outside the engine can observe it, and the strategies that write illegal
move texts. Game-agnostic: a game is reached through the registry only."""

from __future__ import annotations

import json
import math
from collections.abc import Hashable
from dataclasses import dataclass, fields
from typing import Any

from hypothesis import strategies as st

import meeple
from meeple.core.view import seat_view


@dataclass(frozen=True)
class Fingerprint:
    """Everything a caller can observe of a state through the public API: the record (as JSON
    text), the position key, who is to move, the legal moves and chance outcomes, the score
    pad and winners, the history and log, undo, and every seat's view (the engine's
    ``view(seat)`` key and the client view a server would send that seat, and a spectator)."""

    record: str
    key: Hashable
    to_move: int | None
    is_over: bool
    turn: int
    can_undo: bool
    seats: tuple[str, ...]
    legal: tuple[str, ...]
    chance: tuple[tuple[str, float], ...]
    scores: str
    winners: tuple[int, ...]
    log: tuple[tuple[int, str], ...]
    view_keys: tuple[Hashable, ...]
    client_views: tuple[str, ...]

    def differences(self, other: Fingerprint) -> list[str]:
        """The names of the parts that differ (for failure messages)."""
        return [f.name for f in fields(self) if getattr(self, f.name) != getattr(other, f.name)]


def _json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def fingerprint(state: meeple.State[Any]) -> Fingerprint:
    seats = range(state.players)
    return Fingerprint(
        record=_json(state.record()),
        key=state.key(),
        to_move=state.to_move,
        is_over=state.is_over,
        turn=state.turn,
        can_undo=state.can_undo(),
        seats=tuple(state.seats),
        legal=tuple(str(m) for m in state.legal_moves()),
        chance=tuple((str(m), p) for m, p in state.chance_outcomes()),
        scores=_json([s.as_dict() for s in state.scores()]),
        winners=tuple(state.winners()),
        log=tuple((mover, str(m)) for mover, m in state.log()),
        view_keys=tuple(state.seen_by(seat).key() for seat in seats),
        # the log in words is left out (log=[]): the log is compared above, and making it
        # anew for each viewer would cost more than all the rest
        client_views=tuple(
            _json(seat_view(state, viewer, log=[]).model_dump(mode="json", by_alias=True))
            for viewer in (None, *seats)),
    )


def light_fingerprint(state: meeple.State[Any]) -> tuple[Any, ...]:
    """A cheaper fingerprint for the clones kept aside, checked after every step."""
    return (state.key(), tuple(str(m) for m in state.history), state.to_move, state.turn,
            tuple(str(m) for m in state.legal_moves()),
            tuple(s.total for s in state.scores()))


def check_invariants(state: meeple.State[Any]) -> None:
    """What must hold of any state, whatever was played."""
    players = state.players
    to_move = state.to_move
    assert to_move is None or to_move == meeple.CHANCE or 0 <= to_move < players, to_move
    assert state.is_over == (to_move is None)

    legal = state.legal_moves()
    texts = [str(m) for m in legal]
    assert bool(legal) == (not state.is_over), f"legal moves {texts} with to_move={to_move}"
    assert len(set(texts)) == len(texts), f"two legal moves share a text: {texts}"
    legal.clear()  # the caller's list: emptying it must not touch the state
    assert [str(m) for m in state.legal_moves()] == texts, "legal_moves() handed out its cache"
    for text in texts:
        assert str(state.parse_move(text)) == text, f"{text!r} does not read back as itself"

    outcomes = state.chance_outcomes()
    if to_move == meeple.CHANCE:
        assert [str(m) for m, _ in outcomes] == texts, "chance outcomes are not the legal moves"
        assert all(p > 0 for _, p in outcomes), outcomes
        assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-9), outcomes
    else:
        assert outcomes == [], f"chance outcomes {outcomes} while to_move={to_move}"

    scores = state.scores()
    assert len(scores) == players
    for score in scores:
        assert score.total == sum(score.breakdown.values()), score
    if state.is_over:
        best = max(s.total for s in scores)
        assert state.winners() == [i for i, s in enumerate(scores) if s.total == best]
    else:
        assert state.winners() == []

    rec = state.record()
    assert json.loads(json.dumps(rec)) == rec, "the record is not plain JSON"
    assert rec["moves"] == [str(m) for m in state.history]
    assert len(state.log()) == len(state.history)
    assert ("scores" in rec) == state.is_over

    for bad in (-1, players):
        try:
            state.seen_by(bad)
        except ValueError:
            pass
        else:
            raise AssertionError(f"view({bad}) of a {players}-seat game did not refuse")


# ---------------------------------------------------------------- illegal move texts
#: Characters that parsers trip over: Unicode digits that are not decimal (``str.isdigit`` is
#: true, ``int`` refuses them), decimal digits of other scripts, other whitespace, case
#: oddities, separators the notations use, control characters.
TRICKY = ("²", "①", "٣", "𝟙", "Ⅻ", "\u00a0", "\u2028", "\t", "\n", "\x00", "İ", "ß", "ǅ", "Ｏ",
          ">", "-", ",", ";", ":", "_", "+", ".", "0", "9", " ")

tricky_chars = st.sampled_from(TRICKY) | st.characters(codec="utf-8", exclude_categories=["Cs"])
tricky_bits = tricky_chars | st.sampled_from(["10", "99", "-1", "  "])
random_text = st.text(alphabet=tricky_chars, max_size=16) | st.sampled_from(
    ["", " ", "zzz", "take", "roll", "pick", "undo", "stop", "skip", "waste", "0", "-1", "99999"])


def _bump_digits(text: str) -> str:
    return "".join(str((int(c) + 1) % 10) if c in "0123456789" else c for c in text)


@st.composite
def mangled(draw: st.DrawFn, text: str) -> str:
    """``text`` (a legal move's text) changed a little: a character deleted, inserted or
    replaced, tokens dropped, doubled or reversed, digits bumped, cut short, glued to another."""
    op = draw(st.integers(0, 9))
    n = len(text)
    i = draw(st.integers(0, max(n - 1, 0)))
    c = draw(tricky_bits)
    tokens = text.split()
    if op == 0 and n:
        return text[:i] + text[i + 1:]
    if op == 1:
        return text[:i] + c + text[i:]
    if op == 2 and n:
        return text[:i] + c + text[i + 1:]
    if op == 3 and tokens:
        return " ".join(tokens[:-1])
    if op == 4 and tokens:
        return " ".join([*tokens, tokens[-1]])
    if op == 5:
        return " ".join(reversed(tokens))
    if op == 6:
        return _bump_digits(text)
    if op == 7:
        return text[:i]
    if op == 8:
        return "".join(c if ch.isdigit() else ch for ch in text)
    return f"{text} {text}"
